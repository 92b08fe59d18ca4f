"""Game packages that plug into the core (``simlib.core.games``): one package per game.

``until_daylight/`` (the default game) and ``till_dawn/``; each registers itself in the
registry through its ``game.py``.
"""
