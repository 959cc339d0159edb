"""Agents that answer decisions: random, scripted, human.

``BOT_KINDS`` are the bots a seat can be given (``--bots``, ``--bot SEAT=KIND``); ``SEAT_KINDS`` adds
``human``: what a save records for each player's seat.
"""
BOT_KINDS = ("random",)
SEAT_KINDS = ("human",) + BOT_KINDS
