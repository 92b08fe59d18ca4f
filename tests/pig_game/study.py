"""Pig's studies: rotating tables of seats (the core's adapter), the tables, text, report, trace."""
from dataclasses import dataclass, field

import numpy as np

from simlib.core.adapter import RotatingTables, whole_cycles
from simlib.core.instruments import Outcomes
from simlib.core.parallel import run_ranges
from simlib.core.report import game_report, seat_section
from simlib.core.seats import check_players, check_seed, focal_arm, study_tables, table_seats
from simlib.core.tables import TableSpec, format_tables, run_label

from . import codes as K
from .kernels_nb import play_range_nb
from .policies import POLICIES, Seat
from .records import records_frame
from .ruleset import load_ruleset
from .step import Game

_S = range(K.MAX_SEATS)
TABLE_SPEC = TableSpec(
    groupings=(("overall", ()), ("players", ("players",)), ("seat", ("players", "seat")),
               ("strategy", ("strategy",))),
    outcome="decided", outcome_label="decided", members=tuple(f"strategy_{s}" for s in _S),
    member="strategy", member_attrs=(("seat", ()), ("strategy", tuple(f"strategy_{s}" for s in _S))),
    member_outcomes=tuple(f"win_{s}" for s in _S),
    member_values=(("points", tuple(f"score_{s}" for s in _S)),))


@dataclass(frozen=True, eq=False)
class PigAdapter(RotatingTables):
    game: str = "pig"
    spec: TableSpec = field(default=TABLE_SPEC)

    def run_chunk(self, start, count, threads=None):
        npl, pol, par, labels = table_seats(self.tables, start, count, POLICIES, seats=K.MAX_SEATS, n_params=1)
        out = np.zeros((count, K.REC_SIZE), np.int64)
        run_ranges(play_range_nb, (self.rules.flat(), np.int64(self.seed), np.int64(start), npl, pol,
                                   np.ascontiguousarray(par[:, :, 0]), out), count, threads)
        return records_frame(out, self.rules, labels)

    def outcomes(self, start, count, threads=None) -> Outcomes:
        df = self.run_chunk(start, count, threads)
        npl, winner = df["players"].to_numpy(np.int64), df["winner"].to_numpy(np.int64)
        rows, seats = np.nonzero(np.arange(K.MAX_SEATS)[None, :] < npl[:, None])
        return Outcomes(success=winner == self.focal_seats(df["game"].to_numpy(np.int64)), players=npl,
                        match=np.zeros((len(df), 1), np.int64), measure=df["turns"].to_numpy(np.float64),
                        groupings={"seat": (tuple(range(max(self.players))), rows, seats, winner[rows] == seats)},
                        shares={"undecided": winner < 0})

    def step_game(self, game: int) -> Game:
        return Game(self.seed, int(game), seats=self.seats_of(game), ruleset=self.rules)


def make_adapter(players=None, characters=None, *, seed=0, policy="hold_at", policy_params=None,
                 ruleset=None, seats=None) -> PigAdapter:
    rules = load_ruleset(ruleset)
    if characters not in (None, "random"):
        raise ValueError("Pig has no characters; allowed: random")
    tables = study_tables(players, seats, policy, policy_params, seat_type=Seat,
                          check_players=lambda p: check_players(p, rules), default_counts=(2, 3))
    return PigAdapter(rules, check_seed(seed), tuple(tables))


def default_games(adapter: PigAdapter) -> int:
    return whole_cycles(2000 * len(adapter.tables), adapter.cycle())


def policy_arm(policy, params, *, field_policy, field_params, **kw):
    return focal_arm(make_adapter, Seat, policy, params, field_policy=field_policy,
                     field_params=field_params, **kw)


def render(result, all_tables: bool = False) -> str:
    p = result.provenance
    head = (f"Pig: {result.games} games, seed {p.get('seed')}, tables {'; '.join(p['table_labels'])}, "
            f"{run_label(p)}")
    return head + "\n\n" + format_tables(result.tables, None if all_tables else ["overall", "by_seat"]) + "\n"


def report(result, *, title=None, command=None):
    return game_report(result, title=title or f"Pig: {result.games:,} games", subtitle="", headline="",
                       notes=["Results of computer players; 95 % Wilson intervals."],
                       sections=[seat_section(result, "Win share by seat.")], command=command)


def trace_text(adapter: PigAdapter, game: int) -> str:
    g, lines = adapter.step_game(game), []
    while not g.over:
        seat, before, i = g.to_move, int(g.state[K.S_TURN_TOTAL]), g.policy_choice()
        lines.append(f"seat {seat} {g.legal_actions()[i]}s at {before}")
        g.apply(i)
    rec = g.record()
    return "\n".join(lines + [f"winner: {'none' if rec['winner'] < 0 else 'seat %d' % rec['winner']} "
                              f"after {rec['turns']} turns"])
