"""Until Daylight's declaration in the game registry (:mod:`simlib.core.games`).

Every reference is ``"module:attribute"``: nothing here imports numba, so listing the games
or ``import simlib`` stays cheap.
"""
from __future__ import annotations

from ...core.games import GameCommand, GameInfo

_P = "simlib.games.until_daylight"


def policy_table() -> dict:
    """Every name a seat's player can be chosen by: the policies, then the named budgets
    (``rollout-100``, ``clairvoyant``, ``tuned``) with their parameters filled in."""
    from .policies import ALIASES, POLICIES, PolicySpec

    table = dict(POLICIES)
    for alias, (base, params) in ALIASES.items():
        b = POLICIES[base]
        defaults = tuple(float(params.get(n, d)) for n, d in zip(b.param_names, b.defaults))
        shown = ", ".join(f"{k}={v:g}" for k, v in params.items())
        table[alias] = PolicySpec(alias, b.id, b.param_names, defaults,
                                  f"{base} with {shown}" if shown else base, b.search)
    return table


class _LazyTable(dict):
    """A mapping filled on first use (the policy modules import numba)."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def _load(self):
        if not super().__len__():
            self.update(self._make())

    def __getitem__(self, k):
        self._load()
        return super().__getitem__(k)

    def __iter__(self):
        self._load()
        return super().__iter__()

    def __len__(self):
        self._load()
        return super().__len__()

    def __contains__(self, k):
        self._load()
        return super().__contains__(k)

    def items(self):
        self._load()
        return super().items()

    def keys(self):
        self._load()
        return super().keys()


def trace(adapter, game: int) -> str:
    """Game ``game`` of a study, event by event (the very game the study played)."""
    from . import api
    from .trace import format_trace

    npl, chars = adapter.configs(int(game), 1)
    p = int(npl[0])
    names = None if chars[0, 0] < 0 else [adapter.rules.character_names[int(c)]
                                           for c in chars[0, :p]]
    record, events = api.trace_game(seed=adapter.seed, players=p, characters=names,
                                    policy=adapter.policy,
                                    policy_params=adapter.policy_param_dict(),
                                    ruleset=adapter.rules, game=game)
    return format_trace(record, events, adapter.rules)


def _tune_arguments(parser) -> None:
    from .commands import add_tune_arguments

    add_tune_arguments(parser)


def _tune_run(args) -> int:
    from .commands import run_tune

    return run_tune(args)


COMMANDS = {
    "tune-policy": GameCommand(
        help="tune the baseline's weights (the `tuned` policy's data file)",
        add_arguments=_tune_arguments, run=_tune_run),
}

GAME = GameInfo(
    name="until_daylight",
    display_name="Until Daylight",
    summary="co-operative survival: 3-6 players survive 10 rounds of hordes (search, "
            "craft, fight with the 6-dice rule)",
    kind="cooperative",
    presets=("reference", "calibrated"),
    default_ruleset="calibrated",
    default_policy="baseline",
    success="the team wins",
    measure="round_reached",
    measure_short="round",
    measure_unit="rounds",
    load_ruleset=f"{_P}.ruleset:load_ruleset",
    policies=_LazyTable(policy_table),
    make_adapter=f"{_P}.study:make_adapter",
    default_games=f"{_P}.study:default_games",
    table_spec=f"{_P}.study:TABLE_SPEC",
    render=f"{_P}.text:render",
    report="simlib.games.until_daylight.report:study_report",
    trace=f"{_P}.game:trace",
    policy_arm=f"{_P}.study:policy_arm",
    step=f"{_P}.step:Game",
    benches=f"{_P}.benches:BENCH_FACTORIES",
    commands=f"{_P}.game:COMMANDS",
    sensitivity_ruleset="reference",
    positive_suffixes=("dice", "health", "slots", "stalemate_cap", "min"),
    position=0,  # in `simlib games`; 0: the default game
)
