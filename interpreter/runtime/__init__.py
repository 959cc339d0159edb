"""The runtime: frames and statements (``machine``), choices, turns and flow, state and per-seat views,
the seeded random stream, boards, saves, determinization, and ``Game``, the session object.
"""
