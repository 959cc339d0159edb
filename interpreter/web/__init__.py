"""Browser play (``mason serve``): a Starlette app over the public Game API, games kept in SQLite.

``store`` keeps what reproduces each game (settings, seat kinds, the answers) in one SQLite file;
``hub`` holds the live games, answers for bots off the event loop and builds each seat's payload
from its view alone; ``app`` is the HTTP and WebSocket layer; ``static/`` the one generic page.
"""
