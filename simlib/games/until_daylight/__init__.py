"""Until Daylight: ruleset, kernels and Python face.

``simulate`` and ``load_result`` are the game contract's (:class:`simlib.core.games.GameInfo`),
named here for ``from simlib.games.until_daylight import simulate``; they load lazily, so
that importing the package does not import numba or load the kernels.
"""

__all__ = ["simulate", "load_result"]


def __getattr__(name):
    if name in __all__:
        from ...core.games import get_game

        return getattr(get_game("until_daylight"), name)
    raise AttributeError(f"module 'simlib.games.until_daylight' has no attribute {name!r}")
