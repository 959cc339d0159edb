"""Playing games: sessions and simulation (``session``), rendering and narration (``render``), the
rules in words (``rules_text``) and explanations of the log (``explain``).
"""
