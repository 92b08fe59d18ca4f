"""Pig's Python face: policies, the study adapter, tables, text, report, trace, step model."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simlib.core.games import StudyAdapter
from simlib.core.instruments import Outcomes
from simlib.core.parallel import run_ranges
from simlib.core.report import Report, Section, rate_table
from simlib.core.rng import game_key_nb
from simlib.core.tables import Counts, TableSpec, count_records, format_tables

from . import codes as K
from .kernels_nb import apply_nb, choose_nb, init_nb, legal_nb, play_range_nb, record_nb
from .ruleset import PigRules, load_ruleset


@dataclass(frozen=True)
class PolicySpec:
    id: int
    param_names: tuple[str, ...]
    defaults: tuple[float, ...]
    doc: str


POLICIES = {
    "random": PolicySpec(K.POLICY_RANDOM, (), (), "a fair coin between rolling and holding"),
    "hold_at": PolicySpec(K.POLICY_HOLD_AT, ("t",), (20.0,),
                          "holds at a turn total of t, or when holding wins"),
}


def seat_param(policy: str, params) -> float:
    spec = POLICIES[policy]
    if not params:
        return spec.defaults[0] if spec.defaults else 0.0
    unknown = set(params) - set(spec.param_names)
    if unknown:
        raise ValueError(f"policy {policy!r}: unknown parameter {sorted(unknown)[0]!r}; allowed: "
                         f"{', '.join(spec.param_names) or '(none)'}")
    return float(params.get("t", spec.defaults[0]))


TABLE_SPEC = TableSpec(
    groupings=(("overall", ()), ("players", ("players",)), ("seat", ("players", "seat"))),
    outcome="decided", outcome_label="decided",
    members=tuple(f"seat_{s}" for s in range(K.MAX_SEATS)), member="member",
    member_attrs=(("seat", ()), ("strategy", tuple(f"strategy_{s}" for s in range(K.MAX_SEATS)))),
    member_outcomes=tuple(f"win_{s}" for s in range(K.MAX_SEATS)),
)


def records_frame(out: np.ndarray, rules: PigRules, policies=("hold_at", "hold_at")) -> pd.DataFrame:
    """``policies``: seat 0's policy and every other seat's (a competitive arm's field)."""
    df = pd.DataFrame(out, columns=K.REC_NAMES)
    npl = df["players"].to_numpy()
    cols = {"game": df["game"], "players": df["players"], "turns": df["turns"],
            "rolls": df["rolls"], "winner": df["winner"], "decided": df["winner"] >= 0}
    for s in range(K.MAX_SEATS):
        present = npl > s
        cols[f"seat_{s}"] = pd.Series(np.where(present, f"seat {s}", None), dtype=object)
        cols[f"strategy_{s}"] = pd.Series(np.where(present, policies[min(s, 1)], None), dtype=object)
        cols[f"win_{s}"] = pd.Series(df["winner"] == s, dtype="boolean").where(present)
        cols[f"score_{s}"] = pd.Series(df[f"score_{s}"], dtype="Int64").where(present)
    return pd.DataFrame(cols)


@dataclass(frozen=True, eq=False)
class PigAdapter(StudyAdapter):
    rules: PigRules
    seed: int
    players: tuple[int, ...]
    policy: str
    param: float
    game: str = "pig"
    spec: TableSpec = field(default=TABLE_SPEC)
    field_policy: str | None = None  # every seat but 0 (a competitive arm's field); None: policy
    field_param: float = 0.0

    def _configs(self, start: int, count: int):
        idx = np.arange(start, start + count)
        npl = np.asarray(self.players, np.int64)[idx % len(self.players)]
        pol = np.full((count, K.MAX_SEATS), POLICIES[self.policy].id, np.int64)
        par = np.full((count, K.MAX_SEATS), self.param, np.float64)
        if self.field_policy is not None:
            pol[:, 1:], par[:, 1:] = POLICIES[self.field_policy].id, self.field_param
        return npl, pol, par

    def _play(self, start: int, count: int, threads=None) -> np.ndarray:
        npl, pol, par = self._configs(start, count)
        out = np.zeros((count, K.REC_SIZE), np.int64)
        run_ranges(play_range_nb, (self.rules.flat(), np.int64(self.seed), np.int64(start),
                                   npl, pol, par, out), count, threads)
        return out

    def run_chunk(self, start, count, threads=None) -> pd.DataFrame:
        return records_frame(self._play(start, count, threads), self.rules,
                             (self.policy, self.field_policy or self.policy))

    def run_chunk_counts(self, start, count, threads=None) -> Counts:
        return self.aggregate(self.run_chunk(start, count, threads))

    def aggregate(self, records) -> Counts:
        return count_records(records, self.spec)

    def outcomes(self, start, count, threads=None) -> Outcomes:
        out = self._play(start, count, threads)
        npl = out[:, K.REC_PLAYERS]
        winner = out[:, K.REC_WINNER]
        present = np.arange(K.MAX_SEATS)[None, :] < npl[:, None]
        rows, seats = np.nonzero(present)
        return Outcomes(success=winner == 0, players=npl,
                        match=np.zeros((count, 1), np.int64),
                        groupings={"seat": (tuple(range(max(self.players))), rows, seats,
                                            winner[rows] == seats)},
                        measure=out[:, K.REC_TURNS].astype(np.float64),
                        shares={"undecided": winner < 0})

    def step_game(self, game: int) -> "Game":
        npl, _, _ = self._configs(int(game), 1)
        return Game(self.seed, int(game), int(npl[0]), ruleset=self.rules,
                    policy=self.policy, params={"t": self.param} if self.policy == "hold_at" else None)

    def identity(self) -> dict:
        return {"seed": self.seed, "ruleset_fingerprint": self.rules.fingerprint(),
                "players": list(self.players), "policy": self.policy, "param": self.param}

    def provenance(self) -> dict:
        return {"game": self.game, **self.identity(), "ruleset_origin": self.rules.origin,
                "ruleset_lineage": self.rules.lineage}

    def compile_notice(self):
        return None


def make_adapter(players=None, characters=None, *, seed=0, policy="hold_at", policy_params=None,
                 ruleset=None) -> PigAdapter:
    rules = load_ruleset(ruleset)
    if characters not in (None, "random"):
        raise ValueError("Pig has no characters; allowed: random")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1; got {seed!r}")
    lo, hi = rules.get("constants.min_players"), rules.get("constants.max_players")
    counts = (2, 3) if players is None else \
        ((players,) if isinstance(players, (int, np.integer)) else tuple(players))
    for p in counts:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not lo <= p <= hi:
            raise ValueError(f"players must be integers from {lo} to {hi}; got {p!r}")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; allowed: {', '.join(POLICIES)}")
    return PigAdapter(rules, int(seed), tuple(int(p) for p in counts), policy,
                      seat_param(policy, policy_params))


def default_games(adapter: PigAdapter) -> int:
    return 2000 * len(adapter.players)


def policy_arm(policy, params, *, field_policy=None, field_params=None, **kw):
    """Seat 0 plays ``policy``, every other seat ``field_policy`` (default: the same)."""
    ad = make_adapter(policy=policy, policy_params=params, **kw)
    if field_policy is None:
        return ad
    if field_policy not in POLICIES:
        raise ValueError(f"unknown policy {field_policy!r}; allowed: {', '.join(POLICIES)}")
    return dataclasses.replace(ad, field_policy=field_policy,
                               field_param=seat_param(field_policy, field_params))


def render(result, all_tables: bool = False) -> str:
    p = result.provenance
    head = (f"Pig: {result.games} games, seed {p.get('seed')}, policy {p.get('policy')}, "
            f"ruleset {p.get('ruleset_lineage')}")
    names = None if all_tables else ["overall", "by_players", "by_seat"]
    return head + "\n\n" + format_tables(result.tables, names) + "\n"


def report(result, *, title=None, command=None) -> Report:
    rep = Report(title or f"Pig: {result.games:,} games",
                 notes=["Results of computer players; 95 % Wilson intervals."])
    s = rep.add(Section("Win share by seat", id="seats"))
    s.add(rate_table(result.tables["by_seat"], id="table-by-seat"))
    return rep


def trace(adapter: PigAdapter, game: int) -> str:
    g = adapter.step_game(game)
    lines = []
    while not g.over:
        seat, before = g.seat, g.turn_total
        choice = g.policy_choice()
        action = g.legal_actions()[choice]
        g.apply(choice)
        lines.append(f"seat {seat} {action}s at {before}")
    rec = g.record()
    lines.append(f"winner: {'none' if rec['winner'] < 0 else 'seat ' + str(rec['winner'])} "
                 f"after {rec['turns']} turns")
    return "\n".join(lines)


class Game:
    """One game of Pig a decision at a time (the contract's step API)."""

    def __init__(self, seed=0, game=0, players=2, ruleset=None, policy="hold_at", params=None):
        self.rules = load_ruleset(ruleset)
        self._flat = self.rules.flat()
        self.seed, self.game, self.policy, self.params = int(seed), int(game), policy, params
        self.state = np.zeros(K.S_SIZE, np.int64)
        init_nb(self.state, self._flat, np.int64(players),
                np.uint64(game_key_nb(np.int64(seed), np.int64(game))))

    @property
    def over(self) -> bool:
        return bool(self.state[K.S_OVER])

    @property
    def seat(self) -> int:
        return int(self.state[K.S_SEAT])

    @property
    def turn_total(self) -> int:
        return int(self.state[K.S_TURN_TOTAL])

    def _legal(self) -> list[int]:
        out = np.zeros(2, np.int64)
        return [int(a) for a in out[:legal_nb(self.state, out)]]

    def legal_actions(self) -> list[str]:
        return [K.ACTIONS[a] for a in self._legal()]

    def apply(self, i: int) -> "Game":
        legal = self._legal()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(legal):
            raise ValueError(f"action index must be from 0 to {len(legal) - 1}; got {i!r}")
        apply_nb(self.state, self._flat, np.int64(legal[i]))
        return self

    def clone(self) -> "Game":
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = self.state.copy()
        return g

    def policy_choice(self, name=None, params=None) -> int:
        name = name or self.policy
        params = self.params if params is None and name == self.policy else params
        if not self._legal():
            raise ValueError("the game is over: no decision to take")
        a = choose_nb(self.state, self._flat, np.int64(POLICIES[name].id),
                      np.float64(seat_param(name, params)))
        return self._legal().index(int(a))

    def play(self, name=None, params=None) -> "Game":
        while not self.over:
            self.apply(self.policy_choice(name, params))
        return self

    def record(self) -> dict:
        rec = np.zeros(K.REC_SIZE, np.int64)
        record_nb(self.state, np.int64(self.game), rec)
        return records_frame(rec[None, :], self.rules, (self.policy, self.policy)).iloc[0].to_dict()

    @property
    def result(self) -> dict:
        return self.record()

    def describe(self) -> str:
        scores = ", ".join(f"seat {s}: {int(self.state[K.S_SCORE + s])}"
                           for s in range(int(self.state[K.S_PLAYERS])))
        return (f"Pig, turn {int(self.state[K.S_TURNS]) + 1}: {scores}; seat {self.seat} has "
                f"{self.turn_total} this turn" + (" (over)" if self.over else ""))

    def violation(self) -> str:
        if (self.state[K.S_SCORE:K.S_SCORE + K.MAX_SEATS] < 0).any() or self.turn_total < 0:
            return "a negative score"
        return "none"
