"""Who is too strong: character and strategy effects with the rest of the table held fixed.

The raw table "win rate of the games this character played in" understates every
difference in a co-operative game: a character is never its own teammate, so with uniform
random teams of ``p`` out of ``K`` characters the raw gap between two characters is
``(K - p) / (K - 1)`` of the gap a swap in the same team makes (``(6 - p) / 5`` for six
characters: 3/5 at 3 players, 1/5 at 5, nothing at 6).  This module estimates the swap
directly, from the additive counts a study keeps (games and wins per team), so runs that
kept no records work too.

Co-operative games (:func:`cooperative_effects`)
    Per player count a binomial GLM (statsmodels) of the team's win on the characters
    present, ``logit P(win | team) = a + sum_{c in team} b_c`` with ``sum_c b_c = 0``
    (presence indicators of a team add up to ``p``, so only differences between
    characters are identified; the constraint makes ``b_c`` the log odds ratio of ``c``
    against the average character).  Reported as odds ratios with 95 % Wald intervals and
    as **win points against the average character**: the mean, over the teams that had
    ``c``, of the win probability minus that of the same team with ``c``'s effect set to
    the average (delta-method interval).  A pooled row (``players == "all"``) fits common
    character effects over the player counts where they are identified, with the player
    count held fixed.  The **model-free cross-check** (``swap_points``) compares teams that
    differ by one member only: ``gap(a, b)`` is the mean over the teams ``S`` of ``p - 1``
    others where both ``S + a`` and ``S + b`` were played of ``rate(S + a) - rate(S + b)``;
    ``swap_points(c) = sum_{d != c} gap(c, d) / K`` is on the same "against the average
    character" scale as the GLM's points.  At a player count where every team is the same
    (six players of six characters) no character effect is identified and the rows say so.

Pairs (:func:`pair_synergy`)
    The GLM above plus one term per pair present together, double-centred (the pair terms
    of each character add up to zero, so that they cannot absorb main effects); tested
    together by a likelihood-ratio test per player count, and one by one (Wald) with
    Holm's correction within the player count.  Synergy is measured on the logit scale: a
    pair that is merely additive in win points is "synergistic" in logits near 0 % or
    100 %, and the other way round, so a synergy says as much about the scale as about the
    pair.

Competitive games (:func:`competitive_effects`)
    One row per seat of a game; a binomial GLM of "this seat won (or shared the win)" on a
    fixed effect per (table composition, seat) plus strategy and character effects, each
    summing to zero.  Table composition is the multiset of the seats' strategies, so a
    strategy is compared only with strategies sitting at the same kind of table in the same
    seat.  From records when the study kept them; from counts otherwise (strategies within
    a table composition with the seats balanced by the study's rotation; characters with
    nothing held fixed: random characters are independent of table and seat by design),
    and the table says which.

Everything is a function of counts: fitting the aggregated binomial (wins, losses per
cell) gives the same estimates and standard errors as fitting one Bernoulli row per game.
"""
from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass, field
from typing import Iterator, Mapping

import numpy as np
import pandas as pd

__all__ = ["Effects", "effects", "pointer", "team_cells", "cooperative_effects", "swap_gaps",
           "pair_synergy", "seat_cells", "competitive_effects", "holm"]

TEAM_SEP = "+"  # a ``team`` key names its members sorted and joined by "+"
# beyond this log odds ratio (x ~ 3000) a level (almost) never or always wins: the maximum
# likelihood runs off to infinity and its Wald interval means nothing
SEPARATED = 8.0
_SEPARATION = ("(almost) always or never wins against the others: the logit is unbounded "
               "and its interval meaningless; read the raw rates")


# =========================================================================== helpers
def _quiet(fn):
    """Run ``fn`` with numpy's floating-point warnings off: a level that (almost) never
    wins has an odds ratio that overflows to inf, which is what it is (noted in the table)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return wrapper


def _expit(x):
    return 1.0 / (1.0 + np.exp(-x))


def _z(confidence: float) -> float:
    from scipy.special import ndtri

    return float(ndtri(0.5 + 0.5 * confidence))


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error), NaN kept as NaN."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    if not len(ok):
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = len(order)
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out[order] = np.minimum(adj, 1.0)
    return out


def _sum_to_zero(k: int) -> np.ndarray:
    """``L`` (k, k-1): full effects ``b = L @ theta`` with ``sum(b) == 0``."""
    if k <= 1:
        return np.zeros((k, 0))
    return np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])


def _rank(x: np.ndarray) -> int:
    return int(np.linalg.matrix_rank(x)) if x.size else 0


@dataclass
class _Fit:
    params: np.ndarray
    cov: np.ndarray
    deviance: float
    eta: np.ndarray


def _glm(x: np.ndarray, wins: np.ndarray, games: np.ndarray) -> _Fit:
    """Binomial GLM (logit) of ``wins`` out of ``games`` per row of ``x`` (statsmodels)."""
    from statsmodels.genmod import families
    from statsmodels.genmod.generalized_linear_model import GLM

    y = np.column_stack([wins, games - wins]).astype(float)
    with warnings.catch_warnings():
        # a team that never (or always) won pushes its logit far out: the estimate is still
        # the maximum of the likelihood, its interval wide; no warning per fit
        warnings.simplefilter("ignore")
        res = GLM(y, x, family=families.Binomial()).fit(maxiter=100)
    params = np.asarray(res.params, dtype=float)
    return _Fit(params, np.asarray(res.cov_params(), dtype=float), float(res.deviance),
                x @ params)


@dataclass(frozen=True)
class _Factor:
    """A factor's presence matrix (rows, levels) and its place in the design."""

    name: str
    levels: tuple
    presence: np.ndarray

    def columns(self) -> np.ndarray:
        return self.presence @ _sum_to_zero(len(self.levels))


def _factor_rows(fit: _Fit, factor: _Factor, start: int, games: np.ndarray, x: np.ndarray,
                 z: float) -> pd.DataFrame:
    """Per level: log odds ratio against the average level, its interval, and win points
    against the average level (mean over the rows having it, delta-method interval)."""
    k = len(factor.levels)
    lmap = _sum_to_zero(k)
    sl = slice(start, start + k - 1)
    theta, v = fit.params[sl], fit.cov[sl, sl]
    b = lmap @ theta
    se_b = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", lmap, v, lmap), 0.0))
    out = []
    for c in range(k):
        rows = factor.presence[:, c] > 0
        g = games[rows].astype(float)
        gt = g.sum()
        if gt <= 0:
            out.append((np.nan, np.nan, np.nan))
            continue
        eta = fit.eta[rows]
        p1, p0 = _expit(eta), _expit(eta - b[c])
        pts = float((g * (p1 - p0)).sum() / gt)
        dbc = np.zeros(len(fit.params))
        dbc[sl] = lmap[c]
        grad = ((g * p1 * (1 - p1))[:, None] * x[rows]).sum(0) \
            - ((g * p0 * (1 - p0))[:, None] * (x[rows] - dbc[None, :])).sum(0)
        grad /= gt
        se = float(np.sqrt(max(grad @ fit.cov @ grad, 0.0)))
        out.append((pts, pts - z * se, pts + z * se))
    pts = np.array(out)
    with np.errstate(over="ignore"):
        return pd.DataFrame({
            "effect_points": 100 * pts[:, 0], "effect_low": 100 * pts[:, 1],
            "effect_high": 100 * pts[:, 2], "log_odds": b, "se": se_b,
            "odds_ratio": np.exp(b), "or_low": np.exp(b - z * se_b),
            "or_high": np.exp(b + z * se_b),
        }, index=pd.Index(factor.levels, name=factor.name))


# =========================================================================== team cells
def _spec_counts_records(source):
    """(spec, counts or None, records or None) of a RunResult, Counts or (records, spec)."""
    from .tables import Counts

    if isinstance(source, Counts):
        return source.spec, source, None
    if isinstance(source, tuple) and len(source) == 2:
        return source[1], None, source[0]
    counts = getattr(source, "counts", None)
    if counts is None:
        raise TypeError("effects need a RunResult, a Counts or (records, spec)")
    return counts.spec, counts, getattr(source, "records", None)


def team_cells(source) -> pd.DataFrame:
    """Games and wins per team: columns ``players``, ``team`` (sorted tuple of members),
    ``games``, ``wins``.

    From the ``team`` grouping of the counts (keyed by the members joined by ``+``), or
    from the records' member columns when the counts have no such grouping.
    """
    spec, counts, records = _spec_counts_records(source)
    name = spec.grouping_of(("team",))
    if counts is not None and name is not None:
        f = counts.frames[name]
        teams = [tuple(sorted(str(t).split(TEAM_SEP))) for t in f.index]
        out = pd.DataFrame({"players": [len(t) for t in teams], "team": teams,
                            "games": f["games"].to_numpy(np.int64),
                            "wins": f["wins"].to_numpy(np.int64)})
    elif records is not None:
        members = records[list(spec.members)].astype(object)
        teams = [tuple(sorted(str(m) for m in row if m is not None and m == m))
                 for row in members.itertuples(index=False)]
        df = pd.DataFrame({"team": teams, "win": records[spec.outcome].astype(bool).to_numpy()})
        g = df.groupby("team", sort=True)["win"].agg(["size", "sum"])
        out = pd.DataFrame({"players": [len(t) for t in g.index], "team": list(g.index),
                            "games": g["size"].to_numpy(np.int64),
                            "wins": g["sum"].to_numpy(np.int64)})
    else:
        raise ValueError("no team counts: the study's counts have no 'team' grouping and no "
                         "records were kept")
    out = out[out["games"] > 0]
    return out.sort_values(["players", "team"], kind="stable").reset_index(drop=True)


def _presence(teams, levels) -> np.ndarray:
    at = {c: i for i, c in enumerate(levels)}
    m = np.zeros((len(teams), len(levels)))
    for r, t in enumerate(teams):
        for c in t:
            m[r, at[c]] = 1.0
    return m


# =========================================================================== co-operative
@_quiet
def swap_gaps(cells: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Model-free: per player count and ordered pair ``(a, b)``, the mean over the teams of
    ``p - 1`` others ``S`` where both ``S + a`` and ``S + b`` were played of
    ``rate(S + a) - rate(S + b)`` (win points), with a normal interval (binomial variance
    of each team's rate), and the number of matched teams."""
    z = _z(confidence)
    rows = []
    for p, sub in cells.groupby("players", sort=True):
        rate = {t: (w / n, n, w) for t, n, w in zip(sub["team"], sub["games"], sub["wins"])}
        levels = sorted({c for t in sub["team"] for c in t})
        for a, b in itertools.permutations(levels, 2):
            diffs, var = [], 0.0
            for t, (r, n, w) in rate.items():
                if a not in t or b in t:
                    continue
                other = tuple(sorted([c for c in t if c != a] + [b]))
                if other not in rate:
                    continue
                r2, n2, w2 = rate[other]
                diffs.append(r - r2)
                ra, rb = (w + 0.5) / (n + 1), (w2 + 0.5) / (n2 + 1)  # no zero variance at 0/n
                var += ra * (1 - ra) / n + rb * (1 - rb) / n2
            m = len(diffs)
            gap = float(np.mean(diffs)) if m else np.nan
            se = np.sqrt(var) / m if m else np.nan
            rows.append((p, a, b, m, 100 * gap, 100 * (gap - z * se), 100 * (gap + z * se)))
    return pd.DataFrame(rows, columns=["players", "character", "replaces", "matched_teams",
                                       "gap_points", "ci_low", "ci_high"]
                        ).set_index(["players", "character", "replaces"])


def _swap_points(cells_p: pd.DataFrame, levels, z: float) -> pd.DataFrame:
    """``sum_{d != c} gap(c, d) / K`` per character, as a linear combination of the team
    rates (so its interval accounts for the teams the gaps share)."""
    rate = {t: (w / n, n, w) for t, n, w in zip(cells_p["team"], cells_p["games"], cells_p["wins"])}
    index = {t: i for i, t in enumerate(rate)}
    r = np.array([v[0] for v in rate.values()])
    ra = np.array([(w + 0.5) / (n + 1) for _, n, w in rate.values()])
    var_t = ra * (1 - ra) / np.array([v[1] for v in rate.values()], dtype=float)
    k = len(levels)
    out = []
    for c in levels:
        coef = np.zeros(len(r))
        complete = True
        for d in levels:
            if d == c:
                continue
            pairs = []
            for t in rate:
                if c in t and d not in t:
                    o = tuple(sorted([x for x in t if x != c] + [d]))
                    if o in rate:
                        pairs.append((index[t], index[o]))
            if not pairs:
                complete = False
                continue
            for i, j in pairs:
                coef[i] += 1.0 / (len(pairs) * k)
                coef[j] -= 1.0 / (len(pairs) * k)
        if not complete or not coef.any():
            out.append((np.nan, np.nan, np.nan))
            continue
        est, se = float(coef @ r), float(np.sqrt(coef ** 2 @ var_t))
        out.append((100 * est, 100 * (est - z * se), 100 * (est + z * se)))
    return pd.DataFrame(out, columns=["swap_points", "swap_low", "swap_high"],
                        index=pd.Index(list(levels), name="character"))


def _main_design(teams, levels, fixed: np.ndarray | None = None):
    """Intercept (or the given fixed-effect dummies) then the sum-to-zero character columns."""
    factor = _Factor("character", tuple(levels), _presence(teams, levels))
    base = np.ones((len(teams), 1)) if fixed is None else fixed
    return np.hstack([base, factor.columns()]), factor, base.shape[1]


@_quiet
def cooperative_effects(cells: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """The ``character_effects`` table of a co-operative study (see the module docstring).

    Parameters
    ----------
    cells : DataFrame
        :func:`team_cells` (``players``, ``team``, ``games``, ``wins``).

    Returns
    -------
    DataFrame indexed by ``players`` (an int, or ``"all"`` for the pooled fit) and
    ``character``: ``games`` (games it played), ``raw_win_rate``, ``effect_points`` with
    ``effect_low``/``effect_high``, ``log_odds`` and ``se``, ``odds_ratio`` with
    ``or_low``/``or_high``, ``swap_points`` with ``swap_low``/``swap_high``,
    ``identified`` and ``note``.
    """
    z = _z(confidence)
    parts, pooled = [], []
    for p, sub in cells.groupby("players", sort=True):
        teams = list(sub["team"])
        levels = sorted({c for t in teams for c in t})
        games = sub["games"].to_numpy(float)
        wins = sub["wins"].to_numpy(float)
        pres = _presence(teams, levels)
        raw = pd.DataFrame({"games": (pres * games[:, None]).sum(0).astype(np.int64),
                            "raw_win_rate": (pres * wins[:, None]).sum(0) /
                            np.maximum((pres * games[:, None]).sum(0), 1)},
                           index=pd.Index(levels, name="character"))
        x, factor, start = _main_design(teams, levels)
        if len(teams) < 2 or _rank(x) < x.shape[1]:
            why = ("every team is the same: no character effect is identified at this player "
                   "count" if len(teams) < 2 else
                   "the teams played do not separate the characters: not identified")
            eff = raw.assign(identified=False, note=why)
        else:
            fit = _glm(x, wins, games)
            eff = raw.join(_factor_rows(fit, factor, start, games, x, z))
            eff = eff.join(_swap_points(sub, levels, z))
            eff["identified"], eff["note"] = True, ""
            eff.loc[eff["log_odds"].abs() > SEPARATED, "note"] = _SEPARATION
            pooled.append(sub)
        eff.insert(0, "players", p)
        parts.append(eff.reset_index())
    if len(pooled) > 1:
        allc = pd.concat(pooled, ignore_index=True)
        teams = list(allc["team"])
        levels = sorted({c for t in teams for c in t})
        ps = sorted(allc["players"].unique())
        fixed = (allc["players"].to_numpy()[:, None] == np.array(ps)[None, :]).astype(float)
        x, factor, start = _main_design(teams, levels, fixed)
        games, wins = allc["games"].to_numpy(float), allc["wins"].to_numpy(float)
        if _rank(x) == x.shape[1]:
            fit = _glm(x, wins, games)
            pres = factor.presence
            raw = pd.DataFrame({"games": (pres * games[:, None]).sum(0).astype(np.int64),
                                "raw_win_rate": (pres * wins[:, None]).sum(0) /
                                np.maximum((pres * games[:, None]).sum(0), 1)},
                               index=pd.Index(levels, name="character"))
            eff = raw.join(_factor_rows(fit, factor, start, games, x, z))
            eff["identified"] = True
            eff["note"] = "pooled over " + ", ".join(map(str, ps)) + " players (count held fixed)"
            eff.insert(0, "players", "all")
            parts.append(eff.reset_index())
    cols = ["players", "character", "games", "raw_win_rate", "effect_points", "effect_low",
            "effect_high", "log_odds", "se", "odds_ratio", "or_low", "or_high", "swap_points",
            "swap_low", "swap_high", "identified", "note"]
    if not parts:
        return pd.DataFrame(columns=cols).set_index(["players", "character"])
    out = pd.concat(parts, ignore_index=True).reindex(columns=cols)
    out["players"] = out["players"].astype(object)
    return out.set_index(["players", "character"])


@_quiet
def pair_synergy(cells: pd.DataFrame, confidence: float = 0.95):
    """Pair terms on the logit scale per player count.

    Returns ``(pairs, tests)``: ``pairs`` indexed by ``players``, ``a``, ``b`` with
    ``synergy`` (log odds), ``se``, ``odds_ratio``, ``or_low``, ``or_high``, ``z``,
    ``p_value`` and ``p_holm`` (Holm within the player count); ``tests`` indexed by
    ``players`` with the likelihood-ratio test of all pair terms together (``lr``, ``df``,
    ``p_value``) and a ``note`` where pairs are not identified.
    """
    from scipy.linalg import null_space
    from scipy.stats import chi2, norm

    zc = _z(confidence)
    prow, trow = [], []
    for p, sub in cells.groupby("players", sort=True):
        teams = list(sub["team"])
        levels = sorted({c for t in teams for c in t})
        games, wins = sub["games"].to_numpy(float), sub["wins"].to_numpy(float)
        x, factor, start = _main_design(teams, levels)
        if len(teams) < 2 or _rank(x) < x.shape[1]:
            trow.append((p, np.nan, 0, np.nan, "character effects not identified"))
            continue
        pairs = list(itertools.combinations(range(len(levels)), 2))
        pres = factor.presence
        q = np.column_stack([pres[:, a] * pres[:, b] for a, b in pairs])
        cons = np.zeros((len(levels), len(pairs)))
        for j, (a, b) in enumerate(pairs):
            cons[a, j] = cons[b, j] = 1.0
        basis = null_space(cons)
        xf = np.hstack([x, q @ basis]) if basis.size else x
        df = _rank(xf) - _rank(x)
        if df == 0:
            trow.append((p, np.nan, 0, np.nan, "no pair term is identified at this player count"))
            continue
        main = _glm(x, wins, games)
        if df < basis.shape[1]:
            # some pair terms are confounded with others: test what the teams identify
            u, s, _ = np.linalg.svd(q @ basis - x @ np.linalg.lstsq(x, q @ basis, rcond=None)[0],
                                    full_matrices=False)
            full = _glm(np.hstack([x, u[:, :df]]), wins, games)
            lr = max(main.deviance - full.deviance, 0.0)
            trow.append((p, lr, df, float(chi2.sf(lr, df)),
                         "pair terms only partly identified: tested together, not one by one"))
            continue
        full = _glm(xf, wins, games)
        lr = max(main.deviance - full.deviance, 0.0)
        trow.append((p, lr, df, float(chi2.sf(lr, df)), ""))
        sl = slice(x.shape[1], xf.shape[1])
        g = basis @ full.params[sl]
        se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", basis, full.cov[sl, sl], basis), 0.0))
        zs = g / np.where(se > 0, se, np.nan)
        pv = 2 * norm.sf(np.abs(zs))
        ph = holm(pv)
        for j, (a, b) in enumerate(pairs):
            prow.append((p, levels[a], levels[b], g[j], se[j], np.exp(g[j]),
                         np.exp(g[j] - zc * se[j]), np.exp(g[j] + zc * se[j]), zs[j], pv[j], ph[j]))
    pairs_df = pd.DataFrame(prow, columns=["players", "a", "b", "synergy", "se", "odds_ratio",
                                           "or_low", "or_high", "z", "p_value", "p_holm"]
                            ).set_index(["players", "a", "b"])
    tests = pd.DataFrame(trow, columns=["players", "lr", "df", "p_value", "note"]).set_index("players")
    return pairs_df, tests


# =========================================================================== competitive
def _strategy_cols(spec) -> tuple[str, ...]:
    return dict(spec.member_attrs).get("strategy", ())


def seat_cells(records: pd.DataFrame, spec) -> pd.DataFrame:
    """One cell per (table composition, seat, strategy, character) of a competitive study's
    records: ``games`` (seats played) and ``wins`` (won or shared the win).  Composition
    is the seats' strategies, sorted and joined by ``+``, with the player count."""
    strat = _strategy_cols(spec)
    n = len(records)
    mem = records[list(spec.members)].astype(object).to_numpy()
    present = pd.notna(records[list(spec.members)]).to_numpy()
    st = records[list(strat)].astype(object).to_numpy() if strat else \
        np.full(mem.shape, "all", dtype=object)
    won = np.column_stack([records[c].astype(object).where(records[c].notna(), False)
                           .to_numpy(bool) for c in spec.member_outcomes])
    comp = np.array(["+".join(sorted(str(x) for x, ok in zip(row, pr) if ok))
                     for row, pr in zip(st, present)], dtype=object) if n else np.zeros(0, object)
    players = present.sum(1)
    parts = []
    for s in range(len(spec.members)):
        sel = present[:, s]
        if not sel.any():
            continue
        parts.append(pd.DataFrame({"players": players[sel], "table": comp[sel], "seat": s,
                                   "strategy": st[sel, s].astype(str),
                                   "character": mem[sel, s].astype(str), "win": won[sel, s]}))
    if not parts:
        return pd.DataFrame(columns=["players", "table", "seat", "strategy", "character",
                                     "games", "wins"])
    df = pd.concat(parts, ignore_index=True)
    g = df.groupby(["players", "table", "seat", "strategy", "character"], sort=True)["win"]
    out = g.agg(games="size", wins="sum").reset_index()
    out["wins"] = out["wins"].astype(np.int64)
    return out


def _onehot(values) -> tuple[tuple, np.ndarray]:
    codes, levels = pd.factorize(pd.Series(list(values), dtype=object), sort=True)
    m = np.zeros((len(codes), len(levels)))
    m[np.arange(len(codes)), codes] = 1.0
    return tuple(levels), m


def _competitive_fit(cells: pd.DataFrame, fixed_keys: list[str], factors: list[str],
                     z: float, held: str) -> dict[str, pd.DataFrame]:
    """GLM of seat wins on fixed-effect cells of ``fixed_keys`` plus sum-to-zero
    ``factors``; one table per factor (``identified`` False when the factor adds nothing
    the fixed effects do not already say)."""
    games, wins = cells["games"].to_numpy(float), cells["wins"].to_numpy(float)
    if fixed_keys:
        key = cells[fixed_keys].astype(str).agg("|".join, axis=1)
        _, fixed = _onehot(key)
    else:
        fixed = np.ones((len(cells), 1))
    blocks, x = [], fixed
    for f in factors:
        levels, pres = _onehot(cells[f])
        fac = _Factor(f, levels, pres)
        cols = fac.columns()
        cand = np.hstack([x, cols])
        if len(levels) < 2 or _rank(cand) - _rank(x) < cols.shape[1]:
            blocks.append((fac, None))
            continue
        blocks.append((fac, x.shape[1]))
        x = cand
    fit = _glm(x, wins, games) if any(s is not None for _, s in blocks) else None
    out = {}
    for fac, start in blocks:
        g = (fac.presence * games[:, None]).sum(0)
        w = (fac.presence * wins[:, None]).sum(0)
        raw = pd.DataFrame({"games": g.astype(np.int64), "raw_win_rate": w / np.maximum(g, 1)},
                           index=pd.Index(fac.levels, name=fac.name))
        if start is None:
            why = (f"one {fac.name} only" if len(fac.levels) < 2 else
                   f"every table seats one {fac.name}: mix them (--seats) to compare" if
                   fac.name == "strategy" else f"{fac.name} is fixed by the table: not identified")
            out[fac.name] = raw.assign(identified=False, held_fixed=held, note=why)
        else:
            t = raw.join(_factor_rows(fit, fac, start, games, x, z))
            t = t.assign(identified=True, held_fixed=held, note="")
            t.loc[t["log_odds"].abs() > SEPARATED, "note"] = _SEPARATION
            out[fac.name] = t
    return out


_COMP_COLS = ["games", "raw_win_rate", "effect_points", "effect_low", "effect_high", "log_odds",
              "se", "odds_ratio", "or_low", "or_high", "identified", "held_fixed", "note"]


@_quiet
def competitive_effects(source, confidence: float = 0.95) -> dict[str, pd.DataFrame]:
    """``{"strategy_effects": ..., "character_effects": ...}`` of a competitive study (see
    the module docstring); each indexed by the strategy (character) with the columns of
    :func:`cooperative_effects`'s GLM part plus ``held_fixed`` (what the fit held fixed)."""
    spec, counts, records = _spec_counts_records(source)
    z = _z(confidence)
    if records is not None:
        cells = seat_cells(records, spec)
        res = _competitive_fit(cells, ["table", "seat"], ["strategy", "character"], z,
                               "table composition and seat")
        return {"strategy_effects": res["strategy"].reindex(columns=_COMP_COLS),
                "character_effects": res["character"].reindex(columns=_COMP_COLS)}
    member_keys = spec.member_keys()
    out = {}
    for target, name in (("strategy", "strategy_effects"), (spec.member, "character_effects")):
        best = None
        for g, keys in spec.groupings:
            if target in keys and all(k == target or k not in member_keys for k in keys):
                if best is None or len(keys) > len(best[1]):
                    best = (g, keys)
        if best is None:
            continue
        f = counts.frames[best[0]].reset_index()
        fixed = [k for k in best[1] if k != target]
        f = f.rename(columns={target: target if target == "strategy" else "character"})
        fac = "strategy" if target == "strategy" else "character"
        held = (", ".join(fixed) + " (counts only: seats balanced by rotation)") if fixed \
            else "nothing (counts only: keep records to hold table and seat fixed)"
        res = _competitive_fit(f[f["games"] > 0].reset_index(drop=True), fixed, [fac], z, held)
        out[name] = res[fac].reindex(columns=_COMP_COLS)
    return out


# =========================================================================== all of it
@dataclass(frozen=True)
class Effects(Mapping[str, pd.DataFrame]):
    """The effect tables of a study (names also work as attributes), with ``kind``
    (``cooperative``/``competitive``) and :meth:`to_text`."""

    kind: str
    tables: Mapping[str, pd.DataFrame] = field(repr=False)
    confidence: float = 0.95

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)

    def __getattr__(self, name: str) -> pd.DataFrame:
        if name.startswith("_") or name in ("kind", "tables", "confidence"):
            raise AttributeError(name)
        try:
            return self.tables[name]
        except KeyError:
            raise AttributeError(f"no effect table {name!r}; tables: {', '.join(self.tables)}") from None

    def to_text(self, max_rows: int = 80) -> str:
        return format_effects(self, max_rows)


def _competitive(spec) -> bool:
    return bool(spec.member_outcomes)


@_quiet
def effects(source, confidence: float = 0.95) -> Effects:
    """Every effect table of a study (a :class:`~simlib.core.runner.RunResult`, a
    :class:`~simlib.core.tables.Counts` or ``(records, spec)``).

    Co-operative: ``character_effects``, ``swap_gaps``, ``pair_synergy`` and
    ``pair_synergy_test``; competitive: ``strategy_effects`` and ``character_effects``.
    """
    spec, _, _ = _spec_counts_records(source)
    if _competitive(spec):
        return Effects("competitive", competitive_effects(source, confidence), confidence)
    cells = team_cells(source)
    pairs, tests = pair_synergy(cells, confidence)
    return Effects("cooperative", {"character_effects": cooperative_effects(cells, confidence),
                                   "swap_gaps": swap_gaps(cells, confidence),
                                   "pair_synergy": pairs, "pair_synergy_test": tests},
                   confidence)


# =========================================================================== text
def pointer(kind: str, members: int | None = None) -> str:
    """The line a study's printed tables carry from the raw rates to the effects."""
    import textwrap

    return textwrap.fill(_pointer_text(kind, members), 100)


def _pointer_text(kind: str, members: int | None) -> str:
    if kind == "competitive":
        return ("Effects: a raw win share mixes a strategy (character) with the tables it sat "
                "at; for strategy and character effects with the table composition and seat "
                "held fixed see res.effects (strategy_effects, character_effects) in Python "
                "or the HTML report's 'Effects' section (--html).")
    frac = (f" (with {members} characters and random teams the raw gap is ({members} - p)/"
            f"{members - 1} of a swap's)") if members and members > 1 else ""
    return ("Effects: the raw win rate by character understates differences: a character is "
            f"never its own teammate{frac}. For effects with teammates held fixed (win points "
            "and odds ratios against the average character, pair synergy) see res.effects in "
            "Python or the HTML report's 'Character effects' section (--html).")


def _f(x, fmt="{:+.1f}") -> str:
    return "-" if x is None or not np.isfinite(x) else fmt.format(x)


def _effect_text(t: pd.DataFrame, coop: bool) -> pd.DataFrame:
    rows = {}
    for key, r in t.iterrows():
        d = {"games": int(r["games"]), "raw %": f"{100 * r['raw_win_rate']:.1f}"}
        if r["identified"]:
            d["effect pts [95% CI]"] = (f"{_f(r['effect_points'])} [{_f(r['effect_low'])}, "
                                        f"{_f(r['effect_high'])}]")
            d["odds ratio [95% CI]"] = (f"{_f(r['odds_ratio'], '{:.2f}')} [{_f(r['or_low'], '{:.2f}')}, "
                                        f"{_f(r['or_high'], '{:.2f}')}]")
            if coop:
                d["swap pts [95% CI]"] = (f"{_f(r['swap_points'])} [{_f(r['swap_low'])}, "
                                          f"{_f(r['swap_high'])}]")
        else:
            d["effect pts [95% CI]"] = "not identified"
            d["odds ratio [95% CI]"] = ""
            if coop:
                d["swap pts [95% CI]"] = ""
        rows[key] = d
    out = pd.DataFrame.from_dict(rows, orient="index")
    if isinstance(t.index, pd.MultiIndex):
        out.index = pd.MultiIndex.from_tuples(out.index, names=t.index.names)
    else:
        out.index.name = t.index.name
    return out


def _note_line(t: pd.DataFrame, note: str, keys: list[str]) -> str:
    """``note (players 6)`` when the note holds for whole player counts, else the rows."""
    if len(keys) == len(t):
        return note
    if isinstance(t.index, pd.MultiIndex):
        firsts = sorted({k.split("/")[0] for k in keys})
        whole = all(sum(1 for k in keys if k.split("/")[0] == f) ==
                    int((t.index.get_level_values(0).astype(str) == f).sum()) for f in firsts)
        if whole:
            return f"{note} ({t.index.names[0]} {', '.join(firsts)})"
    return f"{note} ({', '.join(keys[:8])}{', ...' if len(keys) > 8 else ''})"


def format_effects(eff: Effects, max_rows: int = 80) -> str:
    """Plain-text rendering of :func:`effects` (what ``simlib simulate --effects`` prints)."""
    blocks = []
    coop = eff.kind == "cooperative"
    names = ["character_effects", "pair_synergy_test", "pair_synergy"] if coop else \
        ["strategy_effects", "character_effects"]
    for name in names:
        if name not in eff.tables:
            continue
        t = eff.tables[name]
        if name.endswith("_effects"):
            shown = _effect_text(t, coop) if len(t) else t
            by_note: dict[str, list[str]] = {}
            for key, n in t.get("note", pd.Series(dtype=object)).items():
                if str(n) and n == n:
                    by_note.setdefault(str(n), []).append(
                        "/".join(map(str, key)) if isinstance(key, tuple) else str(key))
            notes = [_note_line(t, n, k) for n, k in by_note.items()]
            held = sorted({str(h) for h in t.get("held_fixed", pd.Series(dtype=object))})
            extra = "".join(f"\n  note: {n}" for n in notes)
            if held:
                extra += "\n  held fixed: " + "; ".join(held)
            blocks.append(f"== {name.replace('_', ' ')} (against the average; logit GLM) ==\n"
                          f"{shown.head(max_rows).to_string()}{extra}")
        elif name == "pair_synergy_test":
            if len(t):
                blocks.append("== pair synergy, all pairs together (likelihood ratio) ==\n" +
                              t.to_string(float_format=lambda v: f"{v:.4g}"))
        elif len(t):
            top = t.sort_values("p_value").head(10)
            shown = pd.DataFrame({
                "synergy (logit)": [f"{v:+.2f}" for v in top["synergy"]],
                "odds ratio [95% CI]": [f"{o:.2f} [{a:.2f}, {b:.2f}]" for o, a, b in
                                        zip(top["odds_ratio"], top["or_low"], top["or_high"])],
                "p": [f"{v:.3g}" for v in top["p_value"]],
                "p (Holm)": [f"{v:.3g}" for v in top["p_holm"]]}, index=top.index)
            blocks.append("== pair synergy, strongest 10 (logit scale: depends on the scale) ==\n"
                          + shown.to_string())
    return "\n\n".join(blocks)
