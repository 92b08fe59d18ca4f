"""The game contract: what a game package declares once, and how the rest of simlib finds it.

Every game registers **one** :class:`GameInfo`.  The CLI (``simlib games``, ``simulate``,
``report``, ``trace``, the instruments, ``bench``), :func:`simlib.simulate`, the
instruments (:mod:`simlib.core.instruments`), the HTML report and the conformance test
(``tests/test_conformance.py``) read nothing else: no method of a game is discovered by
probing.  ``docs/adding-a-game.md`` walks through a whole (small) game.

A declaration holds plain values (names, the success measure's wording, presets) and
*references* ``"module:attribute"`` to the game's code, imported on first use, so that
``simlib games`` or ``import simlib`` do not compile a game's kernels.

What the references point to
----------------------------
``load_ruleset(spec=None)``
    ``None``: the game's declared default ruleset (``default_ruleset``, one of
    ``presets``); a preset name; a ruleset folder; a tweak ``.toml`` (over the default
    unless it names its ``base``); ``"calibrated+tweak.toml"`` (a tweak over a named base);
    a ruleset object (returned as is).  Raises ``RulesetError`` (a ``ValueError``) naming
    the file, the key and the allowed values.
``policies``
    ``{name: spec}`` of every name a seat's player can be chosen by; each spec has
    ``param_names``, ``defaults`` and ``doc``.
``make_adapter(players, characters, *, seed, policy, policy_params, ruleset, seats)``
    Validates a study's parameters (``ValueError`` before anything runs) and returns its
    :class:`StudyAdapter`.  ``seats`` (one policy per seat) is refused by co-operative games.
``default_games(adapter)``
    Games of the default study.
``table_spec``
    How the records are counted into tables (:class:`simlib.core.tables.TableSpec`).
``render(result, all_tables) -> str``
    The text ``simlib simulate`` and ``simlib report`` print.
``report(result, *, title, command) -> simlib.core.report.Report``
    The study's HTML report.
``trace(adapter, game) -> str``
    Game ``game`` of a study, action by action.
``policy_arm(policy, params, *, field_policy, field_params, **adapter_kw)``
    The adapter of one arm of ``compare(policies=[a, b])``: a co-operative game gives every
    seat the compared policy; a competitive one puts it in the focal seat against a field.
``step``
    The step model's class (:class:`StepGame`).
``benches``
    ``{name: factory}`` of the game's speed benches (:class:`simlib.core.benchkit.Bench`).
``commands``
    ``{name: GameCommand}``: command-line commands only this game has (or ``None``).
``result_reader(path) -> RunResult``
    A saved study (``None``: counted with ``table_spec``).

The module map by convention
----------------------------
A game package is laid out by role (``docs/adding-a-game.md``), so a declaration names its
``package`` and only the references that differ from :data:`CONVENTION` (``study.py`` holds
``make_adapter``, ``report.py`` ``study_report``, ...).  A reference written ``".text:render"``
is relative to the package.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

# the study-adapter protocol lives below the runner (which imports it); named here too,
# where a game declares its contract
from .adapter import DeferredRecords, StudyAdapter, records_frame_of  # noqa: F401

__all__ = ["GameInfo", "GameCommand", "train_policy_command", "StudyAdapter", "StepGame", "register", "get_game",
           "game_names", "default_game", "normalize", "UnknownGameError", "load_ref",
           "KINDS", "FOCAL_WINS", "SEAT_WINS"]

KINDS = ("cooperative", "competitive")
# a competitive game's headline success and its per-seat wording, as most declare them
FOCAL_WINS = ("the focal player (the table's first seat as given, who rotates round the table "
              "game by game) wins or shares the win")
SEAT_WINS = ("seat", "that place at the table wins or shares the win, whoever sits there (the "
                     "players rotate through the places game by game; every place, not only the "
                     "focal player's)")


class UnknownGameError(ValueError):
    """No game of that name is registered."""


# =========================================================================== protocols
@runtime_checkable
class StepGame(Protocol):
    """The step model: one game, a decision at a time (the same names for every game).

    ``Game(seed, game, *, players=None, seats=None, ruleset=None, policy=None)`` deals game
    ``game`` of a study with root seed ``seed`` and plays chance and forced steps to the
    first decision.  Every built-in game's ``Game`` is a :class:`simlib.core.step.StepGame`,
    which implements all of this once over the game's kernel entry points.
    """

    over: bool          # the game has ended
    to_move: int        # the seat deciding now (-1 once over)
    result: dict        # the game's record as a dict (meaningful once over)

    def legal_actions(self) -> list[str]:
        """The pending decision's choices in words (index ``i`` is ``apply(i)``'s)."""

    def legal_codes(self) -> list[int]:
        """The pending decision's action codes (the kernel's numbering, game by game)."""

    def apply(self, i: int) -> "StepGame":
        """Take choice ``i``; play on to the next decision or the end; return self."""

    def apply_code(self, code: int) -> "StepGame":
        """Take the choice whose action code is ``code`` (one of ``legal_codes()``)."""

    def chance_events(self) -> list:
        """The chance outcomes so far (dice, cards drawn, random picks), in order."""

    def clone(self) -> "StepGame":
        """An independent copy: the same actions give the same game."""

    def describe(self) -> str:
        """Where the game stands, as text."""

    def violation(self) -> str:
        """The first invariant the position breaks, ``"none"`` when all hold."""

    def policy_choice(self, name: str | None = None, params=None) -> int:
        """The choice policy ``name`` with ``params`` (default: the deciding seat's own
        player) takes now; its random stream advances as it would in a study."""

    def play(self, name: str | None = None, params=None) -> "StepGame":
        """Let policy ``name`` take every remaining decision."""

    def record(self) -> dict:
        """The record row ``run_chunk`` gives for this game (same columns)."""


@dataclass(frozen=True)
class GameCommand:
    """A command-line command of one game (``simlib tune-policy``): ``add_arguments(parser)``
    declares its flags, ``run(args) -> int`` runs it (one-line errors as ``ValueError``).
    Either may be a reference (``".commands:run_tune"``), imported when the command is used,
    so that building the command line imports no game module."""

    help: str
    add_arguments: Any
    run: Any


def train_policy_command(teacher: str) -> GameCommand:
    """``simlib train-policy``, which every game has, by its conventional names in the game's
    ``commands`` module (``add_train_arguments``, ``run_train``); ``teacher`` names the player
    whose choices the ``distilled`` policy learns, for the command's help."""
    return GameCommand(help=f"distil {teacher} into the `distilled` policy's weights",
                       add_arguments=".commands:add_train_arguments", run=".commands:run_train")


# =========================================================================== declaration
# The module map by convention: reference -> (modules of the game's package, first found,
# attribute).  ``commands`` and ``result_reader`` have no convention (None: none / generic).
CONVENTION: dict[str, tuple[tuple[str, ...], str]] = {
    "load_ruleset": (("ruleset",), "load_ruleset"),
    "policies": (("policies",), "POLICIES"),
    "make_adapter": (("study",), "make_adapter"),
    "default_games": (("study",), "default_games"),
    "table_spec": (("study",), "TABLE_SPEC"),
    "render": (("study",), "render"),
    "report": (("report",), "study_report"),
    "trace": (("study",), "trace_text"),
    "policy_arm": (("study",), "policy_arm"),
    "step": (("step", "api"), "Game"),
    "benches": (("benches",), "BENCH_FACTORIES"),
}
_REFS = tuple(CONVENTION) + ("commands", "result_reader", "campaign", "campaign_compare")


@dataclass(frozen=True)
class GameInfo:
    """One game's declaration (see the module docstring for what each reference gives).

    Plain values
    ------------
    name, display_name, summary : str
        ``till_dawn``, ``Till Dawn``, one line for ``simlib games``.
    kind : {"cooperative", "competitive"}
        A co-operative study gives every seat one policy (``seats`` is refused); a
        competitive one may seat a policy per seat.
    presets : tuple of str
        Named rulesets (default: ``("reference",)``); ``default_ruleset`` (default
        ``"reference"``) is the one ``ruleset=None`` means everywhere.
    default_policy : str
    success : str
        What the instruments' headline outcome means ("the team wins").
    measure, measure_short, measure_unit : str
        The instruments' numeric measure of a game (its column, short prefix and unit).
    sensitivity_ruleset : str or None
        The ruleset ``sensitivity`` explores by default (None: ``default_ruleset``).
    positive_suffixes : tuple of str
        Assumed values ending so keep at least 1 in ``sensitivity``.
    grouping_success : tuple of (str, str)
        ``(grouping, wording)``: what a "win" is in a member grouping of the instruments'
        ``Outcomes`` (``compare``'s sub-tables, the what-if page's seat rows) when it is
        not the headline ``success`` ("that seat wins"); each table is labelled with it.
    seats_example : str
        A ``seats`` spec of this game, shown as the example of the what-if page's Seats
        box (competitive games).
    precision_table : str
        The table ``simulate_precise`` (``simlib simulate --precision``) makes precise by
        default: ``overall``, or ``by_<grouping>`` where ``overall`` pools what must not be
        pooled (Mort: ``by_pairing``, each pairing apart).
    package : str
        The game's package (``__package__`` of its ``game.py``): where the references of
        :data:`CONVENTION` and the relative ones (``".text:render"``) are found.
    position : int
        The game's place among its package's games in ``simlib games`` (entry points
        carry no order); simlib's game at position 0 is the default game.
    """

    name: str
    display_name: str
    summary: str
    kind: str
    default_policy: str
    success: str
    measure: str
    measure_short: str
    measure_unit: str
    presets: tuple[str, ...] = ("reference",)
    default_ruleset: str = "reference"
    package: str = ""
    load_ruleset: Any = None
    policies: Any = None
    make_adapter: Any = None
    default_games: Any = None
    table_spec: Any = None
    render: Any = None
    report: Any = None
    trace: Any = None
    policy_arm: Any = None
    step: Any = None
    benches: Any = None
    commands: Any = None
    result_reader: Any = None
    campaign: Any = None
    campaign_compare: Any = None
    sensitivity_ruleset: str | None = None
    positive_suffixes: tuple[str, ...] = ()
    grouping_success: tuple[tuple[str, str], ...] = ()
    seats_example: str = ""
    precision_table: str = "overall"
    position: int = 0
    _loaded: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"game {self.name!r}: kind must be one of {', '.join(KINDS)}; "
                             f"got {self.kind!r}")
        if self.default_ruleset not in self.presets:
            raise ValueError(f"game {self.name!r}: default_ruleset {self.default_ruleset!r} is "
                             f"not one of its presets ({', '.join(self.presets)})")
        missing = [r for r in CONVENTION if object.__getattribute__(self, r) is None] \
            if not self.package else []
        if missing:
            raise ValueError(f"game {self.name!r}: without a package, name every reference "
                             f"({', '.join(missing)} missing)")

    def __getattribute__(self, name: str):
        value = object.__getattribute__(self, name)
        if name not in _REFS or not (value is None or isinstance(value, str)):
            return value
        loaded = object.__getattribute__(self, "_loaded")
        if name not in loaded:
            package = object.__getattribute__(self, "package")
            if value is None and name in CONVENTION:
                modules, attr = CONVENTION[name]
                value = next((f".{m}:{attr}" for m in modules
                              if importlib.util.find_spec(f"{package}.{m}") is not None),
                             f".{modules[0]}:{attr}")
            loaded[name] = load_ref(value, package)
        return loaded[name]

    @property
    def competitive(self) -> bool:
        return self.kind == "competitive"

    @property
    def cli_name(self) -> str:
        return self.name.replace("_", "-")

    def success_of(self, grouping: str | None = None) -> str:
        """What a "win" is in ``grouping`` of the instruments' outcomes (``None`` or
        ``"overall"``/``"players"``: the headline ``success``)."""
        return dict(self.grouping_success).get(grouping, self.success) if grouping else self.success

    def policy_names(self) -> list[str]:
        return list(self.policies)

    def policy_spec(self, name: str):
        try:
            return self.policies[name]
        except KeyError:
            raise ValueError(f"unknown policy {name!r} for {self.display_name}; allowed: "
                             f"{', '.join(self.policy_names())}") from None

    def resolve_ruleset(self, ruleset=None):
        """The ruleset object of ``ruleset`` (``None``: the declared default)."""
        return self.load_ruleset(ruleset)

    def simulate(self, games: int | None = None, players=None, characters=None, *,
                 seed: int = 0, policy: str | None = None, policy_params=None, seats=None,
                 ruleset=None, chunk_size: int | None = None, **run_kw):
        """A study of this game through :func:`simlib.core.runner.run` (see
        :func:`simlib.simulate` for the parameters)."""
        from .runner import DEFAULT_CHUNK_SIZE, run

        adapter = self.adapter(players, characters, seed=seed, policy=policy,
                               policy_params=policy_params, ruleset=ruleset, seats=seats)
        n = self.default_games(adapter) if games is None else games
        if isinstance(n, bool) or not isinstance(n, int) and not hasattr(n, "__index__") \
                or int(n) <= 0:
            raise ValueError(f"games must be a positive integer; got {n!r}")
        return run(adapter, int(n), chunk_size=chunk_size or DEFAULT_CHUNK_SIZE, **run_kw)

    def adapter(self, players=None, characters=None, *, seed: int = 0, policy: str | None = None,
                policy_params=None, ruleset=None, seats=None):
        """The study adapter (``make_adapter`` with the game's default policy, and ``seats``
        refused with one line by a co-operative game)."""
        if seats is not None and not self.competitive:
            raise ValueError(f"{self.display_name} is cooperative: every seat plays the one "
                             "policy (seats are for competitive games)")
        kw = {} if seats is None else {"seats": seats}
        return self.make_adapter(players, characters, seed=seed,
                                 policy=policy or self.default_policy,
                                 policy_params=policy_params, ruleset=ruleset, **kw)

    def load_result(self, path):
        """A saved study (the parquet file of ``simulate(..., out=path)``)."""
        if self.result_reader is not None:
            return self.result_reader(path)
        from .runner import result_from_output

        return result_from_output(path, self.table_spec)

    def bench_factories(self) -> Mapping[str, Callable]:
        return dict(self.benches)

    def command_table(self) -> Mapping[str, GameCommand]:
        """The game's commands, their references resolved only when called."""
        def lazy(ref):
            return ref if not isinstance(ref, str) else \
                lambda *a: load_ref(ref, self.package)(*a)

        return {n: GameCommand(c.help, lazy(c.add_arguments), lazy(c.run))
                for n, c in (self.commands or {}).items()}


# =========================================================================== registry
# name -> "module:attribute" of its GameInfo (imported on first use) or the GameInfo itself.
# Empty until discovery: simlib's own games are entry points like any other package's.
_REGISTRY: dict[str, Any] = {}


ENTRY_POINT_GROUP = "simlib.games"  # a package's [project.entry-points."simlib.games"]
GAMES_ENV = "SIMLIB_GAMES"  # "name=module:attribute,..." adds games without packaging them
OWN_DIST = "simlib"  # its games come first, by GameInfo.position (position 0: the default)
_DISCOVERED = False


def _discover() -> None:
    """Add the games installed packages declare (entry points of group ``simlib.games``,
    simlib's own first) and those ``$SIMLIB_GAMES`` names."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    from importlib.metadata import entry_points

    eps = list(entry_points(group=ENTRY_POINT_GROUP))
    own = [ep for ep in eps if ep.dist is not None and ep.dist.name == OWN_DIST]
    # simlib's declarations are loaded now for their position (they import no numba)
    for info in sorted((load_ref(ep.value) for ep in own), key=lambda g: g.position):
        _REGISTRY.setdefault(normalize(info.name), info)
    for ep in eps:
        if ep not in own:
            _REGISTRY.setdefault(normalize(ep.name), ep.value)
    for item in filter(None, (x.strip() for x in os.environ.get(GAMES_ENV, "").split(","))):
        name, sep, ref = item.partition("=")
        if not sep or ":" not in ref:
            raise UnknownGameError(f"{GAMES_ENV}: {item!r} is not name=module:attribute")
        _REGISTRY[normalize(name)] = ref.strip()


def normalize(name: str) -> str:
    """``Till-Dawn`` / ``till dawn`` -> ``till_dawn``."""
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def register(info: GameInfo | str, name: str | None = None) -> None:
    """Add a game (a :class:`GameInfo`, or ``"module:attribute"`` with ``name``)."""
    _discover()  # the installed games first: one registered by hand does not become the default
    if isinstance(info, GameInfo):
        _REGISTRY[normalize(info.name)] = info
    else:
        if name is None:
            raise ValueError("register('module:attribute', name=...) needs the game's name")
        _REGISTRY[normalize(name)] = info


def unregister(name: str) -> None:
    """Remove a game (tests register throwaway games)."""
    _REGISTRY.pop(normalize(name), None)


def game_names() -> list[str]:
    _discover()
    return list(_REGISTRY)


def default_game() -> str:
    """The game a command plays when none is named: the first registered (simlib's first
    entry point)."""
    names = game_names()
    if not names:
        raise UnknownGameError(f"no game is registered (no {ENTRY_POINT_GROUP!r} entry point "
                               "found): install simlib (pip install -e .) so that its games "
                               "are declared")
    return names[0]


def get_game(name: str | None = None) -> GameInfo:
    """The registered game ``name`` (default: :func:`default_game`)."""
    _discover()
    key = normalize(name or default_game())
    if key not in _REGISTRY:
        import difflib

        close = difflib.get_close_matches(key, list(_REGISTRY), n=1, cutoff=0.6)
        if not close:  # a prefix of a long name (mort): match its first word too
            heads = {n.split("_")[0]: n for n in _REGISTRY}
            close = [heads[h] for h in difflib.get_close_matches(key, list(heads), n=1)]
        hint = f"did you mean {close[0].replace('_', '-')!r}? " if close else ""
        raise UnknownGameError(f"unknown game {name!r}; {hint}allowed: "
                               + ", ".join(n.replace("_", "-") for n in _REGISTRY))
    entry = _REGISTRY[key] = load_ref(_REGISTRY[key])
    if not isinstance(entry, GameInfo):
        raise TypeError(f"the registry entry of {key!r} is not a GameInfo")
    return entry


def load_ref(ref: Any, package: str | None = None) -> Any:
    """The object a ``"module:attribute"`` string names (imported now; ``".module:attr"``
    within ``package``); anything else as it is."""
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module, package or None), attr)
