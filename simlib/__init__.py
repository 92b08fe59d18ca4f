"""simlib: how hard is this cooperative survival game, for whom, and what changes if I tweak it?

>>> import simlib
>>> res = simlib.simulate(games=8000, players=[3, 4, 5, 6], seed=7)   # Until Daylight
>>> res.tables.by_character

The designer's instruments (``simlib.until_daylight.instruments``):
``simlib.compare`` (two variants on the same games, paired), ``simlib.sweep``,
``simlib.calibrate``, ``simlib.sensitivity`` and ``simlib.simulate_precise``.
"""
__version__ = "0.1.0"

__all__ = ["simulate", "compare", "sweep", "calibrate", "sensitivity", "__version__"]

_INSTRUMENTS = ("compare", "sweep", "calibrate", "sensitivity", "simulate_precise")


def __getattr__(name):
    # lazy: importing simlib must not import numba and compile-load the kernels
    if name == "simulate":
        from .until_daylight.study import simulate

        return simulate
    if name in _INSTRUMENTS:
        from .until_daylight import instruments

        return getattr(instruments, name)
    raise AttributeError(f"module 'simlib' has no attribute {name!r}")
