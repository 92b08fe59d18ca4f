"""simlib: how hard is this survival card game, for whom, and what changes if I tweak it?

>>> import simlib
>>> res = simlib.simulate(games=8000, players=[3, 4, 5, 6], seed=7)   # Until Daylight
>>> res.tables.by_character
>>> res = simlib.simulate(20000, game="till_dawn", seats=["optimal", "threshold:t=8"])
>>> simlib.list_games()                                               # what is registered

The designer's instruments (``simlib.core.instruments``, every game: ``game="till_dawn"``):
``simlib.compare`` (two variants on the same games, paired), ``simlib.sweep``,
``simlib.calibrate``, ``simlib.sensitivity`` and ``simlib.simulate_precise``; and
``simlib.skill`` / ``simlib.skill_compare`` (how much of the outcome is decided by play).
"""
__version__ = "0.1.0"

__all__ = ["simulate", "list_games", "compare", "sweep", "calibrate", "sensitivity",
           "simulate_precise", "skill", "skill_compare", "__version__"]

_INSTRUMENTS = ("compare", "sweep", "calibrate", "sensitivity", "simulate_precise")


def simulate(*args, game: str = "until_daylight", **kwargs):
    """Play a study of ``game`` (default Until Daylight; ``simlib.list_games()`` lists them).

    The arguments are those of the game's ``simulate`` (for Until Daylight
    :func:`simlib.games.until_daylight.study.simulate`, for Till Dawn
    :func:`simlib.games.till_dawn.study.simulate`); returns a
    :class:`simlib.core.runner.RunResult`.
    """
    from .core.games import get_game  # lazy: importing simlib does not import numba

    return get_game(game).simulate(*args, **kwargs)


def list_games() -> list[str]:
    """Names of the registered games (``simlib.simulate(game=...)``)."""
    from .core.games import game_names

    return game_names()


def __getattr__(name):
    # lazy: importing simlib must not import numba and compile-load the kernels
    if name in _INSTRUMENTS:
        from .core import instruments

        return getattr(instruments, name)
    if name in ("skill", "skill_compare"):  # skill versus luck (simlib.core.skill)
        from .core import skill

        return getattr(skill, name)
    raise AttributeError(f"module 'simlib' has no attribute {name!r}")
