"""Agents that answer decisions: random, scripted, human."""
