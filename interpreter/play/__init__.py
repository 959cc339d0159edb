"""Playing games: sessions and simulation (``session``), statistics and the sequential test (``stats``,
``sprt``), analysis and its reports (``analytics``, ``report``), parallel and Ray workers (``parallel``).
"""
