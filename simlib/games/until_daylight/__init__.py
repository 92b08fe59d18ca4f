"""Until Daylight: ruleset, kernels and Python face.

``simulate`` and ``load_result`` (studies: chunks, backends, tables) load lazily, so that
importing the package does not import numba or load the kernels.
"""

__all__ = ["simulate", "load_result"]


def __getattr__(name):
    if name in __all__:
        from . import study

        return getattr(study, name)
    raise AttributeError(f"module 'simlib.games.until_daylight' has no attribute {name!r}")
