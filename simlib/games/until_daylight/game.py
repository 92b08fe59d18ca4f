"""Until Daylight's registration in the game registry (:mod:`simlib.core.games`): thin
wrappers around this package's study, ruleset and trace modules."""
from __future__ import annotations

from ...core.games import GameInfo


def _make_adapter(players=None, characters=None, *, seed=0, policy="baseline",
                  policy_params=None, ruleset=None, seats=None):
    if seats is not None:
        raise ValueError("Until Daylight is cooperative: every seat plays the one --policy "
                         "(--seats is for competitive games such as till-dawn)")
    from .study import make_adapter

    return make_adapter(players, characters, seed=seed, policy=policy,
                        policy_params=policy_params, ruleset=ruleset)


def _simulate(*args, seats=None, **kwargs):
    if seats is not None:
        _make_adapter(seats=seats)
    from .study import simulate

    return simulate(*args, **kwargs)


def _load_result(path):
    from .study import load_result

    return load_result(path)


def _load_ruleset(path=None):
    from .ruleset import load_ruleset

    return load_ruleset(path)


def _render(result, all_tables=False):
    from ...cli import render

    return render(result, all_tables)


def _trace(adapter, game):
    from . import api
    from .trace import format_trace

    p, names = adapter.game_setup(game)
    record, events = api.trace_game(seed=adapter.seed, players=p, characters=names,
                                    policy=adapter.policy,
                                    policy_params=list(adapter.policy_params)
                                    if len(adapter.policy_params) == len(_policies()[adapter.policy].defaults)
                                    else None,
                                    ruleset=adapter.rules, game=game)
    return format_trace(record, events, adapter.rules)


def _policies():
    from .policies import POLICIES

    return POLICIES


class _LazyPolicies(dict):
    """The policy registry, imported (with numba) on first use."""

    def _load(self):
        if not super().__len__():
            self.update(_policies())

    def __getitem__(self, k):
        self._load()
        return super().__getitem__(k)

    def __iter__(self):
        self._load()
        return super().__iter__()

    def __len__(self):
        self._load()
        return super().__len__()

    def items(self):
        self._load()
        return super().items()

    def __contains__(self, k):
        self._load()
        return super().__contains__(k)


def _spec():
    from .study import TABLE_SPEC

    return TABLE_SPEC


GAME = GameInfo(
    name="until_daylight",
    display_name="Until Daylight",
    summary="co-operative survival: 3-6 players survive 10 rounds of hordes (search, "
            "craft, fight with the 6-dice rule)",
    load_ruleset=_load_ruleset,
    make_adapter=_make_adapter,
    simulate=_simulate,
    load_result=_load_result,
    policies=_LazyPolicies(),
    table_spec=None,  # simlib.games.until_daylight.study.TABLE_SPEC (imported lazily)
    render=_render,
    trace=_trace,
    default_policy="baseline",
    accepts_seats=False,
    instruments="simlib.games.until_daylight.instruments:INSTRUMENTS",
    benches="simlib.games.until_daylight.benches:BENCH_FACTORIES",
)
