"""Game packages that plug into the core (``simlib.core.games``): one package per game.

Until Daylight still lives in ``simlib/until_daylight/`` (registered through the thin
wrapper :mod:`simlib.games.until_daylight_entry`); it moves here in a later step.
"""
