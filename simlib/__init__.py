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
from .core.version import __version__

__all__ = ["simulate", "list_games", "ruleset_keys", "compare", "sweep", "calibrate",
           "sensitivity", "simulate_precise", "skill", "skill_compare", "__version__"]

_INSTRUMENTS = ("compare", "sweep", "calibrate", "sensitivity", "simulate_precise")


def simulate(games=None, players=None, characters=None, *, game: str = "until_daylight",
             **kwargs):
    """Play a study of ``game`` (default Until Daylight; ``simlib.list_games()`` lists them).

    The same arguments for every game (:meth:`simlib.core.games.GameInfo.simulate`):
    ``games`` (default: the game's default study), ``players``, ``characters``, ``seed``,
    ``policy`` (default: the game's), ``policy_params``, ``seats`` (competitive games: one
    policy per seat), ``ruleset`` (``None``: the game's declared default ruleset, e.g. the
    calibrated preset for Until Daylight; a preset name, a folder, a tweak ``.toml`` or
    ``"base+tweak.toml"``), and the runner's ``backend``, ``scheduler``, ``workers``,
    ``threads``, ``chunk_size``, ``keep_records``, ``out``, ``overwrite``, ``progress``,
    ``max_chunks``, ``connect_timeout``.  Returns a :class:`simlib.core.runner.RunResult`.
    """
    from .core.games import get_game  # lazy: importing simlib does not import numba

    return get_game(game).simulate(games, players, characters, **kwargs)


def list_games() -> list[str]:
    """Names of the registered games (``simlib.simulate(game=...)``)."""
    from .core.games import game_names

    return game_names()


def ruleset_keys(game: str = "until_daylight", ruleset=None, *, contains: str | None = None,
                 source: str | None = None, changed: bool = False):
    """Every key of ``game``'s ruleset (``ruleset``: a preset, a path or a ruleset object;
    ``None``: the game's default) as a DataFrame: ``key, value, reference, source, allowed,
    meaning`` (:func:`simlib.core.keys.key_table`; ``simlib rules`` prints it)."""
    from .core.games import get_game
    from .core.keys import key_table

    info = get_game(game)
    return key_table(info.resolve_ruleset(ruleset), contains=contains, source=source,
                     changed=changed)


def __getattr__(name):
    # lazy: importing simlib must not import numba and compile-load the kernels
    if name in _INSTRUMENTS:
        from .core import instruments

        return getattr(instruments, name)
    if name in ("skill", "skill_compare"):  # skill versus luck (simlib.core.skill)
        from .core import skill

        return getattr(skill, name)
    raise AttributeError(f"module 'simlib' has no attribute {name!r}")
