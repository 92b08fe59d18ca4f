"""The game registry: what a game package declares once, and how the top level finds it.

A game registers a :class:`GameInfo` (the declarative protocol below).  The CLI
(``simlib games``, ``simlib simulate --game NAME``, ``simlib report``, ``simlib trace``) and
``simlib.simulate(game=NAME)`` find games here; nothing at the top level knows a game's
rules.  Entries are imported lazily (``module:attribute``) so that listing the games or
importing simlib does not import numba.

A game provides (see ``docs/adding-a-game.md``):

``name``, ``display_name``, ``summary``
    ``till_dawn``, ``Till Dawn``, one line for ``simlib games``.
``load_ruleset(path=None)``
    The reference ruleset, a ruleset folder or an override ``.toml`` (raises
    ``RulesetError``, a ``ValueError``).
``make_adapter(players, characters, *, seed, policy, policy_params, ruleset, seats)``
    The study's :class:`simlib.core.runner.GameAdapter` (validates every argument,
    raising ``ValueError`` before anything runs).
``simulate(games, players, characters, **kw)``, ``load_result(path)``
    A study through :func:`simlib.core.runner.run`, and a saved one.
``policies``
    ``{name: PolicySpec}`` with ``param_names``, ``defaults`` and ``doc``.
``table_spec``, ``render(result, all_tables)``
    How records are counted (:class:`simlib.core.tables.TableSpec`) and the text printed.
``trace(adapter, game) -> str``
    Game ``game`` of a study, action by action.
``default_policy``
    The policy of ``simlib simulate`` without ``--policy``.
``instruments``
    What the designer's instruments measure (a
    :class:`simlib.core.instruments.InstrumentSpec`, or ``"module:attribute"`` of one).
``report``
    ``"module:attribute"`` of the study's HTML report builder ``(result, *, title,
    command) -> simlib.core.report.Report`` (default: the co-operative report).
``benches``
    ``"module:attribute"`` of a ``{name: factory}`` mapping of the game's speed-guard
    benchmarks (:class:`simlib.core.benchkit.Bench`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping

__all__ = ["GameInfo", "register", "get_game", "game_names", "normalize", "DEFAULT_GAME",
           "UnknownGameError", "load_ref"]

DEFAULT_GAME = "until_daylight"


class UnknownGameError(ValueError):
    """No game of that name is registered."""


@dataclass(frozen=True)
class GameInfo:
    """What a game declares (see the module docstring)."""

    name: str
    display_name: str
    summary: str
    load_ruleset: Callable[..., Any]
    make_adapter: Callable[..., Any]
    simulate: Callable[..., Any]
    load_result: Callable[..., Any]
    policies: Mapping[str, Any]
    table_spec: Any
    render: Callable[..., str]
    trace: Callable[..., str]
    default_policy: str
    accepts_seats: bool = False
    instruments: Any = None
    benches: str | None = None
    report: str | None = None  # "module:attribute" of the HTML report builder


# name -> "module:attribute" of its GameInfo (imported on first use) or the GameInfo itself
_REGISTRY: dict[str, Any] = {
    "until_daylight": "simlib.games.until_daylight.game:GAME",
    "till_dawn": "simlib.games.till_dawn.game:GAME",
}


def normalize(name: str) -> str:
    """``Till-Dawn`` / ``till dawn`` -> ``till_dawn``."""
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def register(info: GameInfo | str, name: str | None = None) -> None:
    """Add a game (a :class:`GameInfo`, or ``"module:attribute"`` with ``name``)."""
    if isinstance(info, GameInfo):
        _REGISTRY[normalize(info.name)] = info
    else:
        if name is None:
            raise ValueError("register('module:attribute', name=...) needs the game's name")
        _REGISTRY[normalize(name)] = info


def game_names() -> list[str]:
    return list(_REGISTRY)


def get_game(name: str | None = None) -> GameInfo:
    """The registered game ``name`` (default: Until Daylight)."""
    key = normalize(name or DEFAULT_GAME)
    if key not in _REGISTRY:
        raise UnknownGameError(f"unknown game {name!r}; allowed: "
                               + ", ".join(n.replace("_", "-") for n in _REGISTRY))
    entry = _REGISTRY[key] = load_ref(_REGISTRY[key])
    return entry


def load_ref(ref: Any) -> Any:
    """The object a ``"module:attribute"`` string names (imported now); anything else as
    it is.  The registry and a game's lazy declarations (instruments, benches, report)."""
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)
