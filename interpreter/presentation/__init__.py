"""What people read: narration (``render``), the rules in words (``rules_text``), explanations of the log
(``explain``), the table as data (``table``) and drawn in a terminal (``board_text``, ``table_text``).
"""
