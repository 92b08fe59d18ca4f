"""Mort de la lumière du jour studies: the runner's adapter, the tables of an asymmetric
game and their text.

Game ``i`` of a study is fixed by ``i`` and the study's parameters only: with ``T`` the
tables (each a killer and the survivors' seats), game ``i`` plays ``T[i % len(T)]``; the
deal, the dice and the players' own randomness are streams of game ``i``'s key.  Default
tables (no ``seats``): ``policy`` on both sides, then ``policy`` against ``random`` on
each side (a floor on the other side shows what a side's play is worth); with ``policy``
``random``, the one table.

The first table is the **headline**: the text, the report and the instruments lead with
its killer win rate (by default the same player on both sides, the pairing a designer
calls fair); the others are listed below it, never pooled with it.

Tables (``res.tables``): ``by_pairing`` (killer strategy against survivors' strategy: the
headline and the other pairings), ``overall``, ``by_killer`` and ``by_survivors`` (pooled
over pairings: only in ``all_tables``); the distributions
``kills_by_pairing``, ``escapes_by_pairing``, ``hatch_escapes_by_pairing``,
``repaired_by_pairing``, ``first_hit_by_pairing`` (round of the first landed hit, 0: none),
``end_causes_by_pairing``; ``by_length`` (games by pairing and rounds played); the means
``mean_<x>_by_pairing`` of rounds, kills, escapes, repairs, the killer's energy from failed
repairs and spent on pallets, hits, decisions; and the timeline ``mean_rep_r<r>`` /
``mean_kill_r<r>`` (generators repaired and survivors killed by the end of round r).
The killer wins with ``rules.killer_win_kills`` kills (every survivor); otherwise the
survivors win.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ...core.runner import RunResult
from ...core.tables import Counts, TableSpec, pct, format_tables, run_label
from ...core.adapter import TableAdapter
from ...core.seats import params_width
from . import api
from . import codes as K
from .policies import Seat, check_seats_ruleset, make_seat
from .ruleset import MortRules, load_ruleset
from .step import Game

__all__ = ["make_adapter", "MortAdapter", "TABLE_SPEC", "default_games", "render",
           "reference_points", "reference_tables",
           "GAMES_PER_TABLE", "GAME", "trace_text", "timeline", "TIMELINE_ROUNDS"]

GAME = "mort_de_la_lumiere_du_jour"
GAMES_PER_TABLE = 10_000  # per pairing: the killer's win rate within about +-1 point
TIMELINE_ROUNDS = api.TIMELINE_ROUNDS

_MEANS = ("rounds", "kills", "escapes", "repaired", "killer_gain", "pallet_spend", "hits",
          "decisions")
# The participants of a game's result are its two sides, the killer and the survivors
# (a survivor does not win alone: one escape is the whole side's win), each named by its
# players' label, with the side's strategy and its win: what ``simlib skill`` reads (the
# focal side against a floor side, fair share 1/2) and the competitive effects.  The
# ``pairing`` is an attribute of the killer's side only (the survivors' side carries the
# all-empty ``no_pairing``), so a grouping by pairing counts each game once, with the
# killer's win and the per-game means.
_SIDE_VALUES = tuple(_MEANS) + tuple(f"{c}_r{r}" for c in ("rep", "kill", "gate")
                                     for r in range(1, TIMELINE_ROUNDS + 1))
TABLE_SPEC = TableSpec(
    groupings=(("overall", ()), ("pairing", ("pairing",)), ("killer", ("killer",)),
               ("survivors", ("survivors",)), ("length", ("pairing", "rounds"))),
    outcome="killer_win",
    outcome_label="killer_win",
    members=("killer", "survivors"),
    member="side",
    member_attrs=(("pairing", ("pairing", "no_pairing")), ("strategy", ("killer", "survivors"))),
    member_outcomes=("killer_win", "survivors_win"),
    member_values=tuple((m, (m, m)) for m in _SIDE_VALUES),
    categories=(("kills", "kills"), ("escapes", "escapes"), ("hatch_escapes", "hatch_escapes"),
                ("repaired", "repaired"), ("first_hit", "first_hit"), ("end_cause", "end_causes")),
    none_value="none",
    primary="pairing",
    round="rounds",
)


@dataclass(frozen=True, eq=False)
class MortAdapter(TableAdapter):
    """Everything that fixes the games of a study; picklable (sent to Dask workers)."""

    side: str = "killer"  # the side the focal player sits on (the outcome is the killer's win)
    game: str = GAME
    spec: TableSpec = field(default=TABLE_SPEC)

    @property
    def players(self) -> tuple[int, ...]:
        return (1 + int(self.rules.get("board.survivors")),)

    def configs(self, start: int, count: int):
        """Seat policies, seat parameters, killer and survivors labels of games
        ``start .. start + count - 1``."""
        which = np.arange(start, start + count, dtype=np.int64) % len(self.tables)
        pol = np.zeros((count, K.MAX_SEATS), dtype=np.int64)
        width = params_width([s for t in self.tables for s in t], api.N_PARAMS)
        par = np.zeros((count, K.MAX_SEATS, width), dtype=np.float64)
        kl = np.empty(count, dtype=object)
        sl = np.empty(count, dtype=object)
        for w, table in enumerate(self.tables):
            sel = which == w
            p1, q1 = api.seat_arrays(table, 1)
            pol[sel] = p1[0]
            par[sel, :, :q1.shape[2]] = q1[0]
            kl[sel], sl[sel] = api.seats_label(table)
        return pol, par, kl, sl

    def table_of(self, game: int) -> tuple[Seat, ...]:
        return self.tables[int(game) % len(self.tables)]

    # ------------------------------------------------------------------ adapter protocol
    def run_chunk(self, start: int, count: int, threads: int | None = None) -> pd.DataFrame:
        pol, par, kl, sl = self.configs(start, count)
        out = api.run_kernel(self.rules, self.seed, start, pol, par, threads)
        return api.records_frame(out, self.rules, kl, sl)

    def play_records(self, start: int, count: int, threads: int | None = None) -> pd.DataFrame:
        return self.run_chunk(start, count, threads)

    @property
    def headline(self) -> tuple[Seat, ...]:
        """The headline table (the first): the pairing the text, the report and the
        instruments lead with."""
        return self.tables[0]

    def outcomes(self, start: int, count: int, threads: int | None = None):
        """The instruments' view of games ``start .. start + count - 1``, every one played
        at the headline table: a rate pooled with a random side hides what a change does
        (a random killer never kills, whatever the rules)."""
        from .instruments import outcomes

        ad = self if len(self.tables) == 1 else replace(self, tables=self.tables[:1])
        return outcomes(ad.run_chunk(start, count, threads), self)

    def step_game(self, game: int) -> Game:
        """Game ``game`` of this study in the step model, with its table's seats."""
        return Game(self.seed, int(game), seats=list(self.table_of(game)), ruleset=self.rules)

    def label_of(self, table) -> str:
        return table_label(table)

    def identity_extra(self) -> dict:
        return {"side": self.side}

    def provenance_extra(self) -> dict:
        return {"headline_pairing": pairing_label(self.tables[0]),
                "measured_tables": [table_label(self.tables[0])],
                "reference_points": reference_points(self.rules)}


_REFERENCE: dict = {}


def reference_points(rules: MortRules) -> dict:
    """The exact reference points of a ruleset (``exact``; no game played), kept with a
    study's provenance: ``no_killer`` (the survivors' ceiling without a killer: a gate
    open by the end of round r, generators repaired by then, r = 1 .. TIMELINE_ROUNDS;
    or ``not_covered`` and why) and ``strike`` (the killer's dealt hand spent on strikes
    beside a healthy survivor holding 0, 1 or 2 reflexes: killed, injured, unhurt)."""
    from . import exact

    key = rules.fingerprint()
    if key in _REFERENCE:
        return _REFERENCE[key]
    g = rules.get
    out: dict = {}
    try:
        nk = exact.no_killer(rules, rounds=TIMELINE_ROUNDS)
    except exact.NotCovered as exc:
        out["no_killer"] = {"not_covered": str(exc)}
    else:
        out["no_killer"] = {"open_by_round": [float(x) for x in nk.open_by_round],
                            "repaired_by_round": [float(x) for x in nk.repaired_by_round],
                            "half_round": nk.round_reaching(0.5)}
    energy = {g(f"energy.{n}.value"): g(f"energy.{n}.count") for n in rules.names("energy")}
    hand, cost = g("rules.killer_energy_hand"), g("rules.strike_cost")
    strike = {"hand": hand}
    if cost >= 1:
        for refl in (0, 1, 2):
            d = exact.strike_hand(energy, hand, cost, exact.die_p(g("dice.black")), refl,
                                  g("rules.hits_to_kill"), bool(g("rules.variants.one_strike_per_target")),
                                  bool(g("rules.variants.pooled_energy")))
            strike[str(refl)] = {k: float(v) for k, v in d.items()}
    out["strike"] = strike
    _REFERENCE[key] = out
    return out


def reference_tables(result: RunResult) -> list[tuple[str, pd.DataFrame]]:
    """The reference points beside the games: (caption, table) pairs for the text and
    the report (empty for a result saved without them)."""
    ref = result.provenance.get("reference_points") or {}
    parts = []
    nk = ref.get("no_killer") or {}
    cols = [r for r in (4, 6, 8, 9, 10, 12, 15, 20, 30) if r <= TIMELINE_ROUNDS]
    if "open_by_round" in nk:
        tl = timeline(result.counts)
        rows = {"no killer: the survivors' ceiling (exact)":
                [f"{100 * nk['open_by_round'][r - 1]:.1f}" for r in cols]}
        if len(tl) and tl["gate"].notna().all():
            for pairing, f in tl.groupby("pairing", sort=False):
                f = f.set_index("round")
                rows[pairing] = [f"{100 * f.loc[r, 'gate']:.1f}" for r in cols]
        half = nk.get("half_round")
        parts.append((f"a survivor out through a gate by the end of round r (% of games); the first "
                      f"row is the exact ceiling of the generators' race when nobody hunts the "
                      f"survivors (half the time by round {half})",
                      pd.DataFrame(rows, index=cols).T.rename_axis("round", axis=1)))
    elif "not_covered" in nk:
        parts.append((f"the no-killer ceiling is not computed for this ruleset ({nk['not_covered']})",
                      pd.DataFrame()))
    st = ref.get("strike") or {}
    if "0" in st:
        rows = {f"{k} reflex{'es' if k != '1' else ''}": [f"{100 * st[k][o]:.1f}" for o in
                                                          ("killed", "injured", "unhurt")]
                for k in ("0", "1", "2")}
        parts.append((f"the strike subgame (exact): a healthy survivor struck by a killer spending a "
                      f"dealt hand of {st['hand']} energy cards, answered by its own reflexes "
                      f"(% of hands and dice)",
                      pd.DataFrame(rows, index=["killed", "injured", "unhurt"]).T))
    return parts


def table_label(table) -> str:
    k, s = api.seats_label(table)
    return f"killer {k} vs survivors {s}"


def pairing_label(table) -> str:
    """The records' ``pairing`` of a table (``"<killer> vs <survivors>"``)."""
    k, s = api.seats_label(table)
    return f"{k} vs {s}"


def default_games(adapter: MortAdapter) -> int:
    return GAMES_PER_TABLE * len(adapter.tables)


def side_of(characters) -> str:
    """The side the focal player sits on (``compare(policies=[A, B])``, ``skill``):
    ``characters`` is ``None``/``"random"`` (the killer, seat 0), ``"killer"`` or
    ``"survivors"`` (or a one-name list of either, as ``--characters killer`` gives).  The
    outcome is the killer's win either way."""
    c = characters
    if isinstance(c, (list, tuple)) and len(c) == 1:
        c = c[0]
    if c is None or c == "random":
        return "killer"
    if c in ("killer", "survivors"):
        return c
    raise ValueError(f"Mort de la lumière du jour has no characters: --characters names the side "
                     f"the focal player sits on (killer or survivors); got {characters!r}")


def _ruleset(ruleset) -> MortRules:
    if isinstance(ruleset, MortRules):
        return ruleset
    return load_ruleset(ruleset)


def make_adapter(players=None, characters=None, *, seed: int = 0, policy: str = "heuristic",
                 policy_params=None, ruleset=None, seats=None) -> MortAdapter:
    """Validate a study's parameters and build its adapter (raises ``ValueError``).

    ``seats``: a table (``"killer=rollout,survivors=heuristic"``, five seat specs killer
    first, or a mapping; see ``api.parse_seats``) or a list of tables.  Default: ``policy``
    (with ``policy_params``) on both sides, and against ``random`` on either side.
    ``players``: ``None`` or the table's size (1 + the ruleset's survivors).
    ``characters``: the game has none; ``"killer"`` (default) or ``"survivors"`` names the
    side the focal player of ``policy_arm`` sits on (no effect on the games; the outcome
    is the killer's win either way).  ``ruleset``: ``None``
    (the reference ruleset, the game's default and only preset), a folder or a tweak file.
    """
    rules = _ruleset(ruleset)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1; got {seed!r}")
    side = side_of(characters)
    size = 1 + int(rules.get("board.survivors"))
    if players is not None:
        seq = [players] if isinstance(players, (int, np.integer)) else list(players)
        if any(isinstance(p, bool) or p != size for p in seq) or not seq:
            raise ValueError(f"players must be {size} (the killer and {size - 1} survivors); got {players!r}")
    if seats is not None:
        if isinstance(seats, (str, dict)):
            given = [seats]
        else:
            given = list(seats)
            # one table given as a list of specs (not a list of tables)
            if given and all(isinstance(x, (str, Seat)) for x in given) and \
                    not any(isinstance(x, str) and "," in x for x in given):
                given = [given]
        if not given:
            raise ValueError("seats must name at least one table")
        tables = [api.parse_seats(t, rules) for t in given]
    else:
        seat = make_seat(policy, policy_params)
        n = size - 1
        tables = [tuple([seat] * size)]
        if policy != "random":
            rnd = make_seat("random")
            tables += [tuple([seat] + [rnd] * n), tuple([rnd] + [seat] * n)]
    check_seats_ruleset([s for t in tables for s in t], rules)
    return MortAdapter(rules=rules, seed=int(seed), tables=tuple(tables), side=side)


# =========================================================================== derived tables
def timeline(counts: Counts) -> pd.DataFrame:
    """Per pairing and round r: the mean generators repaired and survivors killed by the
    end of round r, and the share of games with a survivor out through a gate by then
    (long form: ``pairing, round, repaired, killed, gate``; ``gate`` is NaN in results
    saved before it was counted)."""
    f = counts.frames["pairing"]
    rows = []
    for pairing, row in f.iterrows():
        n = max(int(row["games"]), 1)
        for r in range(1, TIMELINE_ROUNDS + 1):
            rows.append({"pairing": pairing, "round": r,
                         "repaired": row.get(f"sum=rep_r{r}", 0) / n,
                         "killed": row.get(f"sum=kill_r{r}", 0) / n,
                         "gate": row.get(f"sum=gate_r{r}", np.nan) / n})
    return pd.DataFrame(rows)


def headline_pairing(result) -> str | None:
    """The pairing a result leads with: the study's first table (recorded in its
    provenance); for a result saved without it, the first pairing with the same player on
    both sides; ``None`` when there is none."""
    t = result.tables["by_pairing"]
    name = result.provenance.get("headline_pairing")
    if name in t.index:
        return name
    same = [p for p in t.index if len(set(str(p).split(" vs "))) == 1]
    return same[0] if same else None


def headline_text(result) -> str:
    """One line: the killer's win rate in the headline pairing with its interval and its
    distance from fair (50 %); the other pairings are listed apart, never pooled in."""
    name = headline_pairing(result)
    if name is None:
        return ("No pairing with the same player on both sides: each pairing's killer win "
                "rate is in the table below (none is pooled with another).")
    row = result.tables["by_pairing"].loc[name]
    k, s = str(name).split(" vs ", 1)
    who = (f"between equal players ({k} on both sides)" if k == s
           else f"with a {k} killer against {s} survivors")
    others = len(result.tables["by_pairing"]) - 1
    return (f"The killer won {int(row['wins']):,} of {int(row['games']):,} games {who}: "
            f"{pct(row['win_rate']).strip()} % (95 % interval {pct(row['ci_low']).strip()} – "
            f"{pct(row['ci_high']).strip()} %); fair is 50 %."
            + (f" The {others} other pairing{'s are' if others != 1 else ' is'} listed below, "
               "each apart (never pooled with it)." if others else ""))


def killer_win_sentence(prov: dict) -> str:
    """Who wins, as the study's ruleset says (``rules.killer_win_kills`` from its changes)."""
    kills = next((c["value"] for c in prov.get("ruleset_changes", [])
                  if c.get("key") == "rules.killer_win_kills"), None)
    return ("The killer wins with " + ("every survivor killed" if kills is None else
                                       f"{kills} kills or more")
            + " when the game ends; otherwise an escape (gate or hatch) or the round limit "
            "makes it the survivors' win.")


# "fair" is a killer win rate within this of 50 %: an interval inside that band says yes,
# one wholly outside it no, and one that straddles its edge cannot tell yet (more games);
# "50 % inside the interval" alone called 100 games of 59 % fair
FAIR_MARGIN = 0.05


FAIR_RULE = (f"Fair? yes: the 95 % interval lies within 50 % +- {100 * FAIR_MARGIN:g} points; "
             "no: wholly outside; can't tell: more games needed.")


def _fair(lo: float, hi: float) -> str:
    if 0.5 - FAIR_MARGIN <= lo and hi <= 0.5 + FAIR_MARGIN:
        return "yes"
    if hi < 0.5 - FAIR_MARGIN or lo > 0.5 + FAIR_MARGIN:
        return "no"
    return "can't tell"


def fairness_table(tables) -> pd.DataFrame:
    """Per pairing: the killer's win rate with its interval, how far from 50 % it is, and
    whether that is fair (within ``FAIR_MARGIN`` of 50 %; see ``_fair``)."""
    t = tables["by_pairing"]
    out = pd.DataFrame({"games": t["games"], "killer win %": 100 * t["win_rate"],
                        "95% CI": [f"[{pct(lo).strip()}, {pct(hi).strip()}]" for lo, hi in
                                   zip(t["ci_low"], t["ci_high"])],
                        "from 50 %": [f"{100 * (r - 0.5):+.1f}" for r in t["win_rate"]],
                        "fair?": [_fair(lo, hi) for lo, hi in
                                  zip(t["ci_low"], t["ci_high"])]}, index=t.index)
    out["killer win %"] = out["killer win %"].map(lambda x: f"{x:.1f}")
    return out


def means_table(tables) -> pd.DataFrame:
    cols = {}
    for m in _MEANS:
        t = tables[f"mean_{m}_by_pairing"]
        cols[m] = [f"{a:.2f}" for a in t["mean"]]
        index = t.index
    return pd.DataFrame(cols, index=index)


def distribution_table(tables, name: str) -> pd.DataFrame:
    """A category table by pairing as % of games, one column per value."""
    t = tables[f"{name}_by_pairing"]
    if not len(t):
        return pd.DataFrame()
    w = (100 * t["rate"]).unstack(t.index.nlevels - 1).fillna(0.0)
    w = w[sorted(w.columns, key=lambda c: (len(str(c)), str(c)))]
    return w.map(lambda x: f"{x:5.1f}")


# =========================================================================== text
def render(result: RunResult, all_tables: bool = False) -> str:
    """The text ``simlib simulate --game mort-de-la-lumiere-du-jour`` prints."""
    p = result.provenance
    t = result.tables
    head = (f"Mort de la lumière du jour: {result.games} games, seed {p.get('seed')}, tables "
            f"{'; '.join(p.get('table_labels', []))}, {run_label(p)}")
    note = ("Note: results of computer players, not of people. " + killer_win_sentence(p) + " "
            + FAIR_RULE[:-1] + "; 95 % intervals (Wilson for rates, normal "
            "for means).")
    parts = [head, headline_text(result), note]
    if all_tables:
        names = [n for n in t if not n.startswith(("mean_rep_r", "mean_kill_r"))]
        parts.append(format_tables(t, names, max_rows=10_000))
        return "\n\n".join(parts) + "\n"
    parts.append("== is it fair? the killer's win rate by pairing (killer strategy vs survivors' "
                 "strategy), each pairing apart ==\n" + fairness_table(t).to_string())
    for name, what in (("kills", "survivors killed"), ("escapes", "survivors escaped"),
                       ("hatch_escapes", "escapes through the hatch"),
                       ("repaired", "generators repaired")):
        d = distribution_table(t, name)
        if len(d):
            parts.append(f"== {what} per game (% of games; columns: how many) ==\n" + d.to_string())
    parts.append("== means per game (rounds; kills; escapes; generators repaired; the killer's "
                 "energy from failed repairs and spent on pallets; landed hits; decisions) ==\n"
                 + means_table(t).to_string())
    d = distribution_table(t, "end_causes")
    if len(d):
        parts.append("== what ended the game (% of games) ==\n" + d.to_string())
    tl = timeline(result.counts)
    if len(tl):
        w = tl[tl["round"].isin([2, 4, 6, 8, 10, 12, 15, 20, 25, 30])]
        rep = w.pivot(index="pairing", columns="round", values="repaired").map(lambda x: f"{x:.2f}")
        kil = w.pivot(index="pairing", columns="round", values="killed").map(lambda x: f"{x:.2f}")
        nk = (p.get("reference_points") or {}).get("no_killer") or {}
        if "repaired_by_round" in nk:
            rep.loc["no killer: ceiling (exact)"] = [f"{nk['repaired_by_round'][r - 1]:.2f}"
                                                     for r in rep.columns]
        parts.append("== the race: generators repaired by the end of round r (mean) ==\n" + rep.to_string())
        parts.append("== ... and survivors killed by the end of round r (mean) ==\n" + kil.to_string())
    for caption, table in reference_tables(result):
        parts.append(f"== reference points: {caption} ==" + (("\n" + table.to_string()) if len(table) else ""))
    return "\n\n".join(parts) + "\n"


def trace_text(adapter: MortAdapter, game: int) -> str:
    """Game ``game`` of the study, action by action (from the kernel's trace log)."""
    from .trace import format_trace

    table = adapter.table_of(game)
    rec, log, _ = api.trace_game(adapter.seed, game, table, adapter.rules)
    k, s = api.seats_label(table)
    return format_trace(rec, log, adapter.rules, k, s)


def policy_arm(policy, params, *, field_policy, field_params, players=None, characters=None,
               seed=0, ruleset=None):
    """One arm of ``compare(policies=[a, b])`` and of ``skill``: ``policy`` plays the side
    the study names (``characters``: the killer by default, or ``"survivors"``) against
    ``field_policy`` on the other side."""
    a = make_seat(policy, params)
    b = make_seat(field_policy, field_params)
    rules = _ruleset(ruleset)
    n = int(rules.get("board.survivors"))
    table = [a] + [b] * n if side_of(characters) == "killer" else [b] + [a] * n
    return make_adapter(players, characters, seed=seed, seats=[table], ruleset=rules)
