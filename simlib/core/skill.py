"""How much of the outcome is decided by play: skill versus luck per ruleset.

A fixed ladder of players, named before anything is played, plays **the same games** (the
same seed, so game ``i`` deals the same cards and dice to every rung: common random
numbers):

* the **floor**: a uniformly random legal choice at every decision (``random``);
* a **realistic** player: the game's default policy (Until Daylight: ``baseline``);
* the **bound**: a player that sees the future (Until Daylight: ``clairvoyant``, rollouts
  that peek at the real deck).  It is not a player anyone can be; it bounds what play can
  achieve under these rules.

Co-operative games: each game falls in one of four parts, read down the ladder:

* **won by anyone**: the floor won it;
* **decided by play**: the floor lost, the realistic player won;
* **decided by information**: both lost, the bound (foresight) won: what it took was
  information no player can have;
* **lost even with foresight**: every rung lost;

and the **skill index** ``K = (realistic - floor) / (bound - floor)`` (win rates): the
share of what foresight can add over random play that a realistic player already gets.
``K`` near 1: play decides (what can be won, a good player wins); near 0: the result is
the cards'.  Intervals: every rate (a rung's win rate, a part) has its Wilson score
interval, and a paired difference of rates between two rulesets Newcombe's paired interval
(closed forms, right at a rate of 0 or 1 where a bootstrap collapses to a point); ``K``, a
ratio of paired differences with no closed form, has a paired bootstrap over game indices
(a resample draws whole games, each with its outcome on every rung; since the statistics
depend only on each game's pattern of outcomes, the resample is a multinomial draw over
those patterns: exact and fast).  A game where a lower rung wins and a higher one loses (possible: the bound is a
search, not an oracle) is counted in the part of the lowest rung that won, and the number
of such inversions is reported.

Competitive games: the floor fills every seat but one (the field); the focal seat plays a
rung.  ``w`` is the focal seat's win share (a victory shared by ``k`` seats counts
``1/k``), fair play gives ``1/n`` at ``n`` players, and ``K_n = (w - 1/n) / (1 - 1/n)``
(pooled over the games: ``sum(w - 1/n) / sum(1 - 1/n)``): 0 when the rung does no better
than random, 1 when it always wins alone.  The win share's interval is Wilson's with the
summed shares as the successes (exact Wilson without shared wins; with them conservative,
since a share in [0, 1] with mean ``w`` varies at most as a win/loss does), and ``K_n``,
an increasing affine function of the win share at the games' fixed player counts, has
that interval mapped through the same function.  Beside it, Ludii-style metrics of a table where
every seat plays the realistic player: **seat spread** (largest minus smallest seat win
share, per player count) and the **tie rate**.

>>> res = simlib.skill("until_daylight", games=200, players=4)
>>> print(res.to_text())
>>> cmp = simlib.skill_compare("until_daylight", "reference", "calibrated", games=200)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .games import get_game

__all__ = ["skill", "skill_compare", "SkillResult", "SkillComparison", "PARTS",
           "k_index", "kn_index", "bootstrap_patterns", "split_from_outcomes",
           "share_from_outcomes"]

PARTS = ("won by anyone", "decided by play", "decided by information",
         "lost even with foresight")
FLOOR, BOUND = "random", "clairvoyant"
COOP_GAMES = 200      # the bound is a search: a few hundred games take minutes
COMPETITIVE_GAMES = 4000
CHUNK = 5000


# =========================================================================== statistics
def k_index(floor: float, realistic: float, bound: float) -> float:
    """``(realistic - floor) / (bound - floor)``; NaN when the bound adds nothing."""
    d = bound - floor
    return (realistic - floor) / d if d != 0 else float("nan")


def kn_index(share: np.ndarray, n: np.ndarray) -> float:
    """Pooled normalised excess win share ``sum(share - 1/n) / sum(1 - 1/n)``."""
    share, n = np.asarray(share, float), np.asarray(n, float)
    den = float(np.sum(1 - 1 / n))
    return float(np.sum(share - 1 / n) / den) if den > 0 else float("nan")


def bootstrap_patterns(patterns: np.ndarray, stat, n_boot: int, seed: int) -> np.ndarray:
    """The paired bootstrap over game indices of ``stat`` (a function of the per-pattern
    counts), ``n_boot`` resamples.

    ``patterns`` (games,) labels each game by everything the statistic reads from it (its
    outcome on every rung, its player count); drawing ``games`` games with replacement is
    drawing the pattern counts from a multinomial with the observed frequencies.
    ``stat(counts, labels)`` gets the counts (``(n_boot, patterns)``, ``labels`` the
    distinct patterns) and returns one row per resample.
    """
    labels, inv = np.unique(patterns, return_inverse=True, axis=0)
    freq = np.bincount(inv.reshape(-1), minlength=len(labels)).astype(float)
    n = int(freq.sum())
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, freq / n, size=n_boot)
    return np.asarray(stat(draws.astype(float), labels))


def _interval(samples: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    a = (1 - confidence) / 2
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return (np.nanquantile(samples, a, axis=0), np.nanquantile(samples, 1 - a, axis=0))


# =========================================================================== playing
def _ladder(info, ladder) -> dict[str, str]:
    """``{"floor": ..., "realistic": ..., "bound": ...}`` (co-operative) or ``{"floor": ...,
    <rung>: <rung>...}`` (competitive), each a policy name the game knows."""
    names = info.policy_names()
    if info.competitive:
        if ladder is None:
            rungs = [p for p in names if p != FLOOR]
            ladder = [FLOOR] + rungs
        ladder = list(ladder.values()) if isinstance(ladder, Mapping) else list(ladder)
        if len(ladder) < 2:
            raise ValueError("a competitive ladder names the floor and at least one rung")
        out = {"floor": ladder[0]}
        out.update({p: p for p in ladder[1:]})
    else:
        if ladder is None:
            ladder = {"floor": FLOOR, "realistic": info.default_policy, "bound": BOUND}
        if not isinstance(ladder, Mapping):
            ladder = list(ladder)
            if len(ladder) != 3:
                raise ValueError("a co-operative ladder is three policies: floor, realistic, "
                                 f"bound; got {ladder!r}")
            ladder = dict(zip(("floor", "realistic", "bound"), ladder))
        out = {k: ladder[k] for k in ("floor", "realistic", "bound")}
    for p in out.values():
        info.policy_spec(str(p).split(":")[0])  # unknown names: one line listing the allowed
    return out


def _records(adapter, games: int, threads) -> pd.DataFrame:
    parts = [adapter.run_chunk(s, min(CHUNK, games - s), threads) for s in range(0, games, CHUNK)]
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def _members_of(rec: pd.DataFrame, spec) -> np.ndarray:
    return rec[list(spec.members)].astype(object).where(rec[list(spec.members)].notna(), "") \
        .to_numpy(str)


def _play_coop(info, ladder, games, players, seed, ruleset, threads):
    """Per-game wins of each rung (same seed), checked to be the same deals."""
    wins, first = {}, None
    for role, pol in ladder.items():
        ad = info.adapter(players, None, seed=seed, policy=pol, ruleset=ruleset)
        rec = _records(ad, games, threads)
        spec = ad.spec
        if first is None:
            first = (rec["players"].to_numpy() if "players" in rec else None,
                     _members_of(rec, spec))
        else:
            same = _members_of(rec, spec)
            if same.shape != first[1].shape or not (same == first[1]).all():
                raise ValueError("the rungs were not dealt the same teams: the study's teams "
                                 "depend on the policy, so the games are not paired")
        wins[role] = rec[spec.outcome].astype(bool).to_numpy()
    return wins, first[0]


def _focal_share(rec: pd.DataFrame, spec, floor_label: str) -> tuple[np.ndarray, np.ndarray]:
    """(win share of the seat not playing the floor, players) per game."""
    strat = dict(spec.member_attrs).get("strategy")
    if not strat:
        raise ValueError("a competitive skill measure needs the records' strategy per seat")
    labels = rec[list(strat)].astype(object).where(rec[list(strat)].notna(), "").to_numpy(str)
    present = rec[list(spec.members)].notna().to_numpy()
    won = np.column_stack([rec[c].astype(object).where(rec[c].notna(), False).to_numpy(bool)
                           for c in spec.member_outcomes])
    focal = present & (labels != floor_label)
    if not (focal.sum(1) == 1).all():
        raise ValueError("each game needs exactly one seat off the floor (the focal seat)")
    n = present.sum(1)
    winners = np.maximum(won.sum(1), 1)
    share = (won & focal).sum(1) / winners
    return share, n


def _play_competitive(info, ladder, games, players, seed, ruleset, threads, characters=None):
    floor = ladder["floor"]
    shares, ns = {}, None
    for rung in [r for r in ladder if r != "floor"]:
        ad = info.policy_arm(rung, None, field_policy=floor, field_params=None, players=players,
                             seed=seed, ruleset=ruleset, characters=characters)
        rec = _records(ad, games, threads)
        share, n = _focal_share(rec, ad.spec, _label(info, floor))
        shares[rung], ns = share, n
    return shares, ns


def _display(game: str) -> str:
    """A registered game's display name (the headers' name for it, as every command's)."""
    try:
        return get_game(game).display_name
    except ValueError:  # a result read back for a game no longer registered
        return game


def _label(info, policy: str) -> str:
    """The records' label of a seat of ``policy`` with its default parameters."""
    ad = info.adapter(None, None, policy=policy)
    seat = ad.tables[0][0] if hasattr(ad, "tables") else None
    return getattr(seat, "label", policy)


def _ludii(info, games, players, seed, ruleset, threads, policy) -> pd.DataFrame:
    """Seat spread and tie rate of a table where every seat plays ``policy``: the competitive
    arm of ``policy`` against a field of itself (a game's default study may hold other
    pairings, Mort's a random side, which must not be pooled into "every seat plays it")."""
    ad = info.policy_arm(policy, None, field_policy=policy, field_params=None, players=players,
                         seed=seed, ruleset=ruleset)
    rec = _records(ad, games, threads)
    spec = ad.spec
    present = rec[list(spec.members)].notna().to_numpy()
    won = np.column_stack([rec[c].astype(object).where(rec[c].notna(), False).to_numpy(bool)
                           for c in spec.member_outcomes])
    winners = won.sum(1)
    share = won / np.maximum(winners, 1)[:, None]
    n = present.sum(1)
    # a game of named sides (Mort's killer and survivors) is measured side against side:
    # its rows count sides, its best and worst are the sides' names
    sides = all(not m[-1:].isdigit() for m in spec.members)
    rows = []
    for p in sorted(set(n.tolist())):
        sel = n == p
        seat = share[sel][:, :p].mean(0)
        best, worst = int(seat.argmax()), int(seat.argmin())
        rows.append({"players": p, "games": int(sel.sum()),
                     "seat_spread_points": 100 * float(seat.max() - seat.min()),
                     "best_seat": spec.members[best] if sides else best,
                     "worst_seat": spec.members[worst] if sides else worst,
                     "tie_rate": float((winners[sel] > 1).mean())})
    out = pd.DataFrame(rows).set_index("players")
    if sides:
        out = out.rename(columns={"best_seat": "best_side", "worst_seat": "worst_side"})
        out.index.name = "sides"
    return out


# =========================================================================== results
@dataclass
class SkillResult:
    """One ruleset's skill measure (see the module docstring); ``table`` holds every
    figure with its interval, ``per_game`` the outcomes it was computed from."""

    game: str
    kind: str
    ruleset: str
    ladder: dict
    games: int
    seed: int
    confidence: float
    table: pd.DataFrame
    metrics: pd.DataFrame | None
    inversions: int = 0
    metrics_policy: str = ""
    per_game: dict = field(default_factory=dict, repr=False)
    characters: Any = None  # competitive: what the rungs' arm was dealt (Mort: the side)

    @property
    def K(self) -> float:
        row = "K" if self.kind == "cooperative" else self._best()
        return float(self.table.loc[(row, "all"), "estimate"])

    def _best(self) -> str:
        ks = self.table[self.table.index.get_level_values(1) == "all"]
        ks = ks[[str(i).startswith("K_n") for i in ks.index.get_level_values(0)]]
        return ks["estimate"].idxmax()[0]

    def to_text(self) -> str:
        dealt = self.characters[0] if isinstance(self.characters, (list, tuple)) and \
            len(self.characters) == 1 else self.characters
        head = (f"Skill versus luck: {_display(self.game)}, ruleset {self.ruleset}, {self.games} games "
                f"per rung (seed {self.seed}, the same games on every rung), ladder "
                + ", ".join(f"{k} = {v}" for k, v in self.ladder.items())
                + (f"; the rungs play: {dealt}" if dealt not in (None, "random") else ""))
        t = self.table
        shown = pd.DataFrame({
            "estimate": [_fmt(q, v) for (q, _), v in zip(t.index, t["estimate"])],
            f"{int(round(100 * self.confidence))}% CI": [
                f"[{_fmt(q, a)}, {_fmt(q, b)}]" for (q, _), a, b in
                zip(t.index, t["ci_low"], t["ci_high"])],
            "games": t["games"]}, index=t.index)
        out = [head, shown.to_string()]
        if self.kind == "cooperative":
            out.append("K = (realistic - floor) / (bound - floor): the share of what foresight "
                       "adds over random play that the realistic player gets (paired bootstrap "
                       "over game indices; the rates' intervals are Wilson's). Parts read down "
                       "the ladder: won by anyone (the "
                       "floor won), decided by play (only the realistic player and up won), "
                       "decided by information (only foresight won), lost even with foresight.")
            if self.inversions:
                out.append(f"{self.inversions} game(s) won by a lower rung and lost by a higher "
                           "one (the bound is a search, not an oracle): counted in the lowest "
                           "rung that won.")
        else:
            out.append("K_n = (w - 1/n) / (1 - 1/n): the rung's excess win share over a field "
                       "of floor players (a shared win counts 1/k), 0 = no better than random, "
                       "1 = always wins alone.")
        if self.metrics is not None and len(self.metrics):
            out.append(f"Ludii-style metrics, every seat {self.metrics_policy}: seat spread "
                       "(largest minus smallest seat win share, points) and tie rate:\n"
                       + _metrics_text(self.metrics).to_string())
        return "\n\n".join(out) + "\n"


def _metrics_text(m: pd.DataFrame) -> pd.DataFrame:
    """The metrics as the text prints them: the spread in points and the tie rate in
    percent, one decimal each (the precision of every rate simlib prints)."""
    from .tables import pct

    out = m.copy()
    if "seat_spread_points" in out:
        out["seat_spread_points"] = [f"{v:.1f}" for v in out["seat_spread_points"]]
    if "tie_rate" in out:
        out["tie_rate"] = [pct(v).strip() for v in out["tie_rate"]]
        out = out.rename(columns={"tie_rate": "tie %"})
    return out


def _fmt(quantity: str, v: float) -> str:
    if not np.isfinite(v):
        return "-"
    if quantity.startswith("K"):
        return f"{v:.3f}"
    return f"{100 * v:.1f} %"


def _coop_stats(counts, labels):
    """Win rates of the rungs, the four parts and K from pattern counts (bits r, b, c)."""
    n = counts.sum(-1)
    r, b, c = (counts @ labels[:, j] / n for j in range(3))
    lo, mid, hi = (labels[:, j] == 1 for j in range(3))
    parts = [counts @ lo / n, counts @ (~lo & mid) / n, counts @ (~lo & ~mid & hi) / n,
             counts @ (~lo & ~mid & ~hi) / n]
    return np.stack([r, b, c, *parts, _ratio(b - r, c - r)], axis=-1)


def _ratio(x, y):
    """x / y, NaN where y is 0 (K is undefined when the bound adds nothing)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    return np.divide(x, y, out=np.full(np.broadcast(x, y).shape, np.nan), where=y != 0)


_COOP_ROWS = ("floor win rate", "realistic win rate", "bound win rate", *PARTS, "K")


def _coop_indicators(bits: np.ndarray) -> np.ndarray:
    """Per game (rows of floor, realistic, bound wins): whether it counts in each rate row
    of ``_COOP_ROWS`` (every row but ``K``)."""
    f, r, c = (bits[:, j].astype(bool) for j in range(3))
    return np.column_stack([f, r, c, f, ~f & r, ~f & ~r & c, ~f & ~r & ~c])


def _wilson(k, n, confidence):
    from .stats import wilson_interval

    return wilson_interval(np.asarray(k, float), np.asarray(n, float), confidence)


def _coop_table(wins, players, n_boot, confidence, seed) -> tuple[pd.DataFrame, int]:
    bits = np.column_stack([wins["floor"], wins["realistic"], wins["bound"]]).astype(np.int64)
    groups = [("all", np.ones(len(bits), bool))]
    if players is not None and len(set(players.tolist())) > 1:
        groups += [(int(p), players == p) for p in sorted(set(players.tolist()))]
    rows = []
    for g, sel in groups:
        sub = bits[sel]
        labels, inv = np.unique(sub, return_inverse=True, axis=0)
        est = _coop_stats(np.bincount(inv.reshape(-1), minlength=len(labels)).astype(float), labels)
        n = int(sel.sum())
        lo, hi = _wilson(_coop_indicators(sub).sum(0), n, confidence)  # the rates: Wilson
        k_lo, k_hi = _interval(bootstrap_patterns(sub, _coop_stats, n_boot, seed)[:, -1:],
                               confidence)  # K: a ratio, no closed form
        lo, hi = np.append(lo, k_lo), np.append(hi, k_hi)
        for i, q in enumerate(_COOP_ROWS):
            rows.append((q, g, est[i], lo[i], hi[i], n))
    inversions = int(((bits[:, 0] == 1) & (bits[:, 1] == 0)).sum()
                     + ((bits[:, 1] == 1) & (bits[:, 2] == 0)).sum())
    t = pd.DataFrame(rows, columns=["quantity", "players", "estimate", "ci_low", "ci_high", "games"])
    return t.set_index(["quantity", "players"]), inversions


def split_from_outcomes(floor, realistic, bound, players=None, *, bootstrap: int = 2000,
                        confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """The co-operative table of :func:`skill` from per-game outcomes (bool arrays, one
    entry per game index, the same games on each rung): rungs' win rates, the four parts
    and ``K`` with paired-bootstrap intervals, overall and per player count."""
    wins = {"floor": np.asarray(floor, bool), "realistic": np.asarray(realistic, bool),
            "bound": np.asarray(bound, bool)}
    if len({len(v) for v in wins.values()}) != 1:
        raise ValueError("the rungs' outcomes must be of the same games (same length)")
    return _coop_table(wins, None if players is None else np.asarray(players), bootstrap,
                       confidence, seed)[0]


def share_from_outcomes(shares: Mapping[str, np.ndarray], players, *, bootstrap: int = 2000,
                        confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """The competitive table of :func:`skill` from per-game focal win shares (a shared win
    counts ``1/k``) and player counts: each rung's win share and ``K_n`` with intervals."""
    return _competitive_table({k: np.asarray(v, float) for k, v in shares.items()},
                              np.asarray(players), bootstrap, confidence, seed)


def _kn_stat(counts, labels):
    """Win share and K_n from pattern counts of (players, share)."""
    n = labels[:, 0]
    w = counts @ labels[:, 1] / counts.sum(-1)
    return np.stack([w, _ratio(counts @ (labels[:, 1] - 1 / n), counts @ (1 - 1 / n))], axis=-1)


def _competitive_table(shares, ns, n_boot, confidence, seed) -> pd.DataFrame:
    rows = []
    groups = [("all", np.ones(len(ns), bool))]
    if len(set(ns.tolist())) > 1:
        groups += [(int(p), ns == p) for p in sorted(set(ns.tolist()))]
    for rung, share in shares.items():
        for g, sel in groups:
            n = int(sel.sum())
            w = float(np.sum(share[sel]))  # shared wins count 1/k
            lo, hi = (float(x) for x in _wilson(w, n, confidence))
            fair = float(np.sum(1.0 / ns[sel]))
            span = n - fair  # K_n = (x n - fair) / span at a win share x: increasing in x
            k_n = [(x * n - fair) / span if span > 0 else float("nan") for x in (w / n, lo, hi)]
            rows.append((f"{rung} win share", g, w / n, lo, hi, n))
            rows.append((f"K_n {rung}", g, *k_n, n))
    t = pd.DataFrame(rows, columns=["quantity", "players", "estimate", "ci_low", "ci_high", "games"])
    return t.set_index(["quantity", "players"])


def _ruleset_name(ruleset) -> str:
    if ruleset is None:
        return "default"
    return str(getattr(ruleset, "lineage", None) or ruleset)


def skill(game: str = "until_daylight", games: int | None = None, players=None, *,
          ruleset=None, seed: int = 0, ladder=None, bootstrap: int = 2000,
          confidence: float = 0.95, threads: int | None = None,
          metrics: bool = True, characters=None) -> SkillResult:
    """The skill measure of one ruleset of ``game`` (see the module docstring).

    Parameters
    ----------
    game : str
        A registered game.
    games : int, optional
        Games per rung (default 200 co-operative: the bound is a search; 4000 competitive).
    players : int or list of int, optional
        Player counts (default: the study's default).
    ruleset : optional
        As for :func:`simlib.simulate` (``None``: the game's declared default).
    ladder : optional
        Co-operative: ``[floor, realistic, bound]`` policy names (default ``random``, the
        game's default policy, ``clairvoyant``); competitive: ``[floor, rung, ...]``
        (default ``random`` then every other policy of the game).
    bootstrap : int
        Paired-bootstrap resamples over game indices.
    characters : optional
        Competitive games only, as in ``compare(policies=[A, B])``: what the focal player's
        arm is dealt (Till Dawn: a team; Mort: the side each rung plays, ``"killer"``, the
        default, or ``"survivors"``).

    Returns
    -------
    SkillResult
        ``.table`` (quantity x players: estimate, interval, games), ``.K``,
        ``.metrics`` (competitive: seat spread and tie rate), ``.to_text()``.
    """
    info = get_game(game)
    lad = _ladder(info, ladder)
    n = int(games if games is not None else
            (COMPETITIVE_GAMES if info.competitive else COOP_GAMES))
    if n <= 0:
        raise ValueError(f"games must be a positive integer; got {games!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1; got {confidence!r}")
    rs = info.resolve_ruleset(ruleset)
    name = _ruleset_name(ruleset if isinstance(ruleset, str) or ruleset is None else rs)
    if ruleset is None:
        name = info.default_ruleset
    if characters is not None and not info.competitive:
        raise ValueError(f"skill of {info.display_name} (co-operative) takes no characters: "
                         "every rung plays the study's teams")
    if info.competitive:
        shares, ns = _play_competitive(info, lad, n, players, seed, rs, threads, characters)
        table = _competitive_table(shares, ns, bootstrap, confidence, seed)
        mt = _ludii(info, n, players, seed, rs, threads, info.default_policy) if metrics else None
        return SkillResult(info.name, "competitive", name, lad, n, seed, confidence, table, mt,
                           0, info.default_policy, {"shares": shares, "players": ns},
                           characters)
    wins, pl = _play_coop(info, lad, n, players, seed, rs, threads)
    table, inv = _coop_table(wins, pl, bootstrap, confidence, seed)
    return SkillResult(info.name, "cooperative", name, lad, n, seed, confidence, table, None, inv,
                       "", {"wins": wins, "players": pl})


# =========================================================================== two rulesets
@dataclass
class SkillComparison:
    """Ruleset B minus ruleset A on the same game indices: ``table`` holds, per quantity,
    A, B, the paired difference B - A and its interval (Newcombe's paired interval for a
    rate, a paired bootstrap for ``K`` and for win shares with shared wins)."""

    a: SkillResult
    b: SkillResult
    table: pd.DataFrame

    def to_text(self) -> str:
        t = self.table
        cl = int(round(100 * self.a.confidence))
        shown = pd.DataFrame({
            "A": [_fmt(q, v) for q, v in zip(t.index, t["a"])],
            "B": [_fmt(q, v) for q, v in zip(t.index, t["b"])],
            "B - A": [_fmt(q, v) for q, v in zip(t.index, t["diff"])],
            f"{cl}% CI": [f"[{_fmt(q, lo)}, {_fmt(q, hi)}]" for q, lo, hi in
                          zip(t.index, t["ci_low"], t["ci_high"])]}, index=t.index)
        return (f"Skill versus luck, B - A: {_display(self.a.game)}, A = {self.a.ruleset}, B = "
                f"{self.b.ruleset}, {self.a.games} games per rung and ruleset (seed "
                f"{self.a.seed}: game i is paired across rungs and rulesets; Newcombe's paired "
                f"interval for a difference of rates, a paired bootstrap over game indices for "
                f"K)\n\n{shown.to_string()}\n")


def skill_compare(game: str = "until_daylight", ruleset_a=None, ruleset_b=None,
                  games: int | None = None, players=None, *, seed: int = 0, ladder=None,
                  bootstrap: int = 2000, confidence: float = 0.95,
                  threads: int | None = None, characters=None) -> SkillComparison:
    """The paired change B - A of ``K`` (``K_n``) and of each part from ruleset A to
    ruleset B, on the same game indices: Newcombe's paired interval for the rates and the
    parts, a paired bootstrap (a resample draws the same games for both rulesets) for ``K``
    and for win shares with shared wins."""
    a = skill(game, games, players, ruleset=ruleset_a, seed=seed, ladder=ladder,
              bootstrap=1, confidence=confidence, threads=threads, metrics=False,
              characters=characters)
    b = skill(game, games, players, ruleset=ruleset_b, seed=seed, ladder=ladder, bootstrap=1,
              confidence=confidence, threads=threads, metrics=False, characters=characters)
    if a.kind == "cooperative":
        bits = np.column_stack([a.per_game["wins"][k] for k in ("floor", "realistic", "bound")] +
                               [b.per_game["wins"][k] for k in ("floor", "realistic", "bound")]
                               ).astype(np.int64)

        def stat(counts, labels):
            return np.concatenate([_coop_stats(counts, labels[:, :3]),
                                   _coop_stats(counts, labels[:, 3:])], axis=-1)

        rows = _COOP_ROWS
    else:
        ns = a.per_game["players"]
        rungs = list(a.per_game["shares"])
        bits = np.column_stack([ns.astype(float)] + [a.per_game["shares"][r] for r in rungs]
                               + [b.per_game["shares"][r] for r in rungs])
        m = len(rungs)

        def stat(counts, labels):
            out = []
            for side in (0, 1):
                for j in range(m):
                    out.append(_kn_stat(counts, labels[:, [0, 1 + side * m + j]]))
            return np.concatenate(out, axis=-1)

        rows = tuple(q for r in rungs for q in (f"{r} win share", f"K_n {r}"))
    labels, inv = np.unique(bits, return_inverse=True, axis=0)
    est = stat(np.bincount(inv.reshape(-1), minlength=len(labels)).astype(float), labels)
    k = len(rows)
    paired = _paired_closed_form(a, b, rows, confidence)
    lo, hi = np.full(k, np.nan), np.full(k, np.nan)
    for i, (low, high) in paired.items():
        lo[i], hi[i] = low, high
    rest = [i for i in range(k) if i not in paired]
    if rest:  # K, and win shares with shared wins: no closed form
        boot = bootstrap_patterns(bits, stat, bootstrap, seed)
        b_lo, b_hi = _interval(boot[:, k:] - boot[:, :k], confidence)
        lo[rest], hi[rest] = b_lo[rest], b_hi[rest]
    table = pd.DataFrame({"a": est[:k], "b": est[k:], "diff": est[k:] - est[:k], "ci_low": lo,
                          "ci_high": hi}, index=pd.Index(rows, name="quantity"))
    return SkillComparison(a, b, table)


def _paired_closed_form(a: SkillResult, b: SkillResult, rows, confidence) -> dict:
    """``{row: (low, high)}`` of B - A for every row that is a paired difference of rates
    (Newcombe's paired interval on the same games), or an increasing affine function of
    one (``K_n`` at fixed player counts); the rows left out need the bootstrap."""
    from .paired import newcombe_paired_interval, paired_counts

    def newcombe(wa, wb):
        t = paired_counts(wa, wb)  # a: both, b: only A, c: only B, d: neither
        _, low, high = newcombe_paired_interval(t[0], t[2], t[1], t[3], confidence)  # B - A
        return float(low), float(high)

    out = {}
    if a.kind == "cooperative":
        ia = _coop_indicators(np.column_stack([a.per_game["wins"][r] for r in
                                               ("floor", "realistic", "bound")]))
        ib = _coop_indicators(np.column_stack([b.per_game["wins"][r] for r in
                                               ("floor", "realistic", "bound")]))
        for i in range(ia.shape[1]):
            out[i] = newcombe(ia[:, i], ib[:, i])
        return out
    ns = np.asarray(a.per_game["players"], float)
    n, fair = len(ns), float(np.sum(1.0 / ns))
    for j, rung in enumerate(a.per_game["shares"]):
        sa, sb = a.per_game["shares"][rung], b.per_game["shares"][rung]
        if not (np.isin(sa, (0.0, 1.0)).all() and np.isin(sb, (0.0, 1.0)).all()):
            continue  # a shared win: not a win/loss per game
        low, high = newcombe(sa == 1.0, sb == 1.0)
        out[2 * j] = (low, high)
        if n > fair:  # K_n(B) - K_n(A) = (w_B - w_A) n / (n - fair)
            out[2 * j + 1] = (low * n / (n - fair), high * n / (n - fair))
    return out
