"""Day Night Z (1-4 co-operating survivors in a zombie city, a day/night clock).

The foundation of the game: its ruleset as source-tagged data (:mod:`.ruleset`, files in
``data/day_night_z``) and the exact, enumerated dice distributions (:mod:`.exact`).  The
game is not yet playable, so it is not registered in ``simlib.core.games``.
"""
