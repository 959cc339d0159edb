"""Agents that answer decisions: random, greedy (one-ply search), scripted, human.

``BOT_KINDS`` are the bots a seat can be given (``--bots``, ``--bot SEAT=KIND``); ``SEAT_KINDS`` adds
``human``: what a save records for each player's seat.
"""
BOT_KINDS = ("random", "greedy")
SEAT_KINDS = ("human",) + BOT_KINDS
