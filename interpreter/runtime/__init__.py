"""The runtime: frames and statements (``machine``), choices, turns and flow, state and per-seat views,
the seeded random stream, boards, and the rules' own automated seats (``automaton``, ``reasons``).
"""
