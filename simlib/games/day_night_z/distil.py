"""The ``distilled`` player: the rollout player's judgement fitted into linear scores.

*Teacher games* (``kernels/distil_nb.teacher_game_nb``): the default study's cells (teams
of 1-4, start hours 08:00, 14:00 and 20:00; game ``i`` plays cell ``i`` mod the cells on
deal ``i`` div the cells, as a study lays its games out) played by the teacher (the
``rollout`` search: its baseline, horizon and value).  At each action decision the
baseline's choice and each alternative a player may take instead
(``policies_nb.alternative_nb``: ending the activation, the other amount of SP, eating,
lowering the threat, resting, hiding among corpses, fleeing an engaged enemy, pressing on
towards the goal) are played out by the rollout's continuations (``n`` of them, the
teacher's parameter, on common random numbers), and so is every survivor who may
activate at the activation order; the means are the teacher's values, written down with
the decision's context (``policies_nb.context_nb``: what a player sees) and each
activation's features (``order_features_nb``).

The fits (deterministic: L-BFGS from zero weights on standardised features, folded back):

- each alternative: a logistic regression of "the alternative is worth more than the
  baseline's choice" on the context, each decision weighted by the value at stake (the
  absolute difference of the teacher's values), L2 (the bias not penalised);
- the activation order: a conditional logit over the survivors who may activate of the
  teacher's best, each decision weighted by its best value over the second best, L2.

The player takes the alternative of the highest positive score (none: the baseline's
choice) and activates the survivor of the highest order score.  The fits are measured on
held-out teacher games (the teacher's values the player gains over the baseline's
choices, beside the teacher's own).  A short horizon can value an alternative that loses
over a whole adventure (ending activations early is worth more within three turns than
within the turn limit), so each score is then tried alone in *selection games* (the
baseline's games of seed ``seed + 2``, paired: the same deals with and without it) and
switched off (weights zero: the baseline's choice) unless it gains at least
``SELECT_Z`` paired standard errors.  The player kept and the baseline then play the same
fresh games (seed ``seed + 1``) as ``simlib compare --game day-night-z --policy baseline
--policy distilled`` plays them (paired: Newcombe's interval, McNemar's test, the paired
standard error).  :func:`write_distilled` writes the weights with their provenance
(teacher, games, seed, simlib version, ruleset fingerprint) to
``data/day_night_z/policies/distilled.toml``; ``simlib train-policy --game day-night-z``
runs it all.

Every game is a pure function of (seed, game index), the teacher games are gathered in
game order whatever the threads, and the fits and the selection are deterministic, so the
same arguments give the same weights.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ...core.fit import check_int, check_training, conditional_logit, weighted_logistic
from ...core.parallel import default_threads, run_ranges
from ...core.train import TrainingResult, teacher_games, versus, versus_sentence
from ...core.version import __version__
from . import codes as K
from .kernels import policies_nb as P
from .kernels.distil_nb import D_ALT, D_BASE, D_FIRST, D_N, D_PHASE, D_TEACH, N_D, teacher_game_nb
from .kernels.play_nb import batch_nb
from .play import check_hour, check_team, packed
from .policies import (DISTILLED_PARAMS, DISTILLED_WEIGHTS, POLICIES, Seat, distilled_path,
                       param_array, read_distilled)
from .ruleset import DEFAULT_HOURS, load_rules

__all__ = ["DistilResult", "train_distilled", "write_distilled", "read_distilled",
           "distilled_path", "collect_teacher", "fit_alternative", "fit_order", "TeacherData",
           "study_wins", "distilled_vector"]

DEFAULT_TEACHER = "rollout"
DEFAULT_TEAMS = (1, 2, 3, 4)  # the default study's cells (study.py's team sizes and hours)
DEFAULT_GAMES = 1200
DEFAULT_L2 = 1e-3
DEFAULT_SELECT_GAMES = 24000  # selection games a score (2,000 a cell)
SELECT_Z = 2.0  # a score is kept when it alone gains this many paired standard errors
MAX_ROWS = 16384  # candidate rows written per teacher game (a game of four has about 1,500)
MAX_DECISIONS = 4096
SCORES = P.ALTERNATIVES + ("order",)  # what the selection keeps or switches off


@dataclasses.dataclass
class TeacherData:
    """The teacher's values of some games' decisions, in game order."""

    ctx: np.ndarray  # (decisions, N_CONTEXT) the context of each decision (0 at the order)
    ordf: np.ndarray  # (rows, N_ORDER) each candidate's activation features (0 at actions)
    v: np.ndarray  # (rows,) the teacher's mean value of each candidate
    codes: np.ndarray  # (rows,) each candidate's action code
    dec: np.ndarray  # (decisions, distil_nb.N_D) rows absolute
    game: np.ndarray  # (decisions,) the game index
    success: np.ndarray  # (games,) the teacher's games won
    seconds: float


def cells_of(teams: Sequence[int], hours: Sequence[int]) -> list[tuple[int, int]]:
    """The cells (team size, start hour) in a study's order: team sizes outer."""
    return [(int(t), int(h)) for t in teams for h in hours]


def collect_teacher(games: int, seed: int, start: int, rules, cells, teacher: Seat,
                    threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> TeacherData:
    """Play teacher games ``start .. start + games - 1`` of ``seed`` (game ``i``: cell ``i``
    mod the cells, deal ``i`` div the cells) and gather the teacher's values; one game per
    task on ``threads`` threads (the kernel releases the GIL), gathered in game order."""

    pk = packed(rules)
    par = teacher.vector()
    m = int(teacher.params[0])  # the search's n: continuations a candidate
    threads = default_threads() if threads is None else int(threads)
    t0 = time.perf_counter()

    def one(i: int):
        t, h = cells[i % len(cells)]
        ctx = np.zeros((MAX_DECISIONS, P.N_CONTEXT))
        ordf = np.zeros((MAX_ROWS, P.N_ORDER))
        v = np.zeros(MAX_ROWS)
        codes = np.zeros(MAX_ROWS, dtype=np.int64)
        dec = np.zeros((MAX_DECISIONS, N_D), dtype=np.int64)
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        nr, nd = teacher_game_nb(*pk, np.int64(seed), np.int64(i // len(cells)), np.int64(t),
                                 np.int64(h), par, np.int64(m), ctx, ordf, v, codes, dec, rec)
        return (ctx[:nd].copy(), ordf[:nr].copy(), v[:nr].copy(), codes[:nr].copy(),
                dec[:nd].copy(), bool(rec[3]))

    out = teacher_games(one, range(start, start + games), threads, progress, every=100)
    decs, off = [], 0
    for r in out:
        d = r[4].copy()
        for c in (D_FIRST, D_BASE, D_TEACH):
            d[:, c] += off
        d[:, D_ALT:] = np.where(d[:, D_ALT:] >= 0, d[:, D_ALT:] + off, -1)
        decs.append(d)
        off += len(r[2])
    idx = np.arange(start, start + games)

    def cat(j, shape, dtype=np.float64):
        parts = [r[j] for r in out]
        return np.concatenate(parts) if parts else np.zeros((0,) + shape, dtype=dtype)

    return TeacherData(cat(0, (P.N_CONTEXT,)), cat(1, (P.N_ORDER,)), cat(2, ()),
                       cat(3, (), np.int64),
                       np.concatenate(decs) if decs else np.zeros((0, N_D), dtype=np.int64),
                       np.repeat(idx, [len(r[0]) for r in out]),
                       np.array([r[5] for r in out], dtype=bool), time.perf_counter() - t0)


# =========================================================================== the fits
def _standardise(x: np.ndarray):
    """Column means and scales of ``x`` (the first column, the bias, kept as it is; scale 1
    where a column is constant)."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    const = sd < 1e-12
    const[0] = True
    return np.where(const, 0.0, mu), np.where(const, 1.0, sd)


def fit_alternative(x: np.ndarray, gain: np.ndarray, l2: float = DEFAULT_L2) -> np.ndarray:
    """An alternative's weights: a logistic regression of ``gain > 0`` (the alternative
    worth more than the baseline's choice in the teacher's values) on the context ``x``
    (its first column the bias), each decision weighted by ``|gain|``, minus ``l2 / 2`` times
    the squared weights of the standardised features (the bias not penalised); L-BFGS
    from zero, the weights folded back to the raw features.  Deterministic."""
    n, f = x.shape
    w = np.abs(gain)
    if n == 0 or w.sum() <= 0:
        return np.zeros(f)
    mu, sd = _standardise(x)
    z = (x - mu) / sd
    y = np.where(gain > 0, 1.0, -1.0)
    w = w / w.sum()
    pen = np.ones(f)
    pen[0] = 0.0
    beta = weighted_logistic(z, y, w, pen, l2)
    raw = beta / sd
    raw[0] = beta[0] - np.sum(beta[1:] * mu[1:] / sd[1:])
    return raw


def _order_arrays(data: TeacherData, sel: np.ndarray):
    """The activation-order decisions of ``sel``: features ``(d, k, N_ORDER)``, values
    ``(d, k)`` (-inf past a decision's candidates) and the baseline's candidate (0)."""

    d = data.dec[sel]
    d = d[d[:, D_PHASE] == K.PH_ORDER]
    if not len(d):
        return np.zeros((0, 1, P.N_ORDER)), np.zeros((0, 1))
    n, first = d[:, D_N], d[:, D_FIRST]
    k = int(n.max())
    mask = np.arange(k)[None, :] < n[:, None]
    idx = np.where(mask, first[:, None] + np.arange(k)[None, :], first[:, None])
    return data.ordf[idx], np.where(mask, data.v[idx], -np.inf)


def fit_order(x: np.ndarray, values: np.ndarray, l2: float = DEFAULT_L2) -> np.ndarray:
    """The activation order's weights: a conditional logit (softmax over the survivors who
    may activate) of the teacher's best (the first of the highest value), each decision
    weighted by its best value over the second best, minus ``l2 / 2`` times the squared
    weights of the standardised features; L-BFGS from zero, folded back.  Deterministic."""
    n, k, f = x.shape
    if n == 0:
        return np.zeros(f)
    legal = np.isfinite(values)
    label = np.argmax(values, axis=1)
    srt = np.sort(values, axis=1)
    w = np.maximum(srt[:, -1] - srt[:, -2], 0.0)
    if w.sum() <= 0:
        return np.zeros(f)
    w = w / w.sum()
    flat = x[legal]
    sd = flat.std(axis=0)
    sd = np.where(sd < 1e-12, 1.0, sd)
    return conditional_logit(x / sd, legal, label, w, l2) / sd


def alternative_rows(data: TeacherData, sel: np.ndarray, k: int):
    """Alternative ``k``'s decisions among ``sel``: their contexts, the teacher's value of
    the alternative less that of the baseline's choice, the decisions' indices."""

    idx = np.flatnonzero(sel & (data.dec[:, D_ALT + k] >= 0))
    d = data.dec[idx]
    return data.ctx[idx], data.v[d[:, D_ALT + k]] - data.v[d[:, D_BASE]], idx


def choices(data: TeacherData, sel: np.ndarray, w_alt: np.ndarray, w_order: np.ndarray):
    """The player's candidate row at each decision of ``sel`` (the kernel's rule: the
    alternative of the highest positive score, ties in ``ALTERNATIVES`` order; at the
    order the first survivor of the highest score)."""

    idx = np.flatnonzero(sel)
    d = data.dec[idx]
    out = d[:, D_BASE].copy()
    act = d[:, D_PHASE] != K.PH_ORDER
    best = np.zeros(len(idx))
    scores = data.ctx[idx] @ w_alt.T  # (d, N_ALT)
    for k in range(P.N_ALT):
        ok = act & (d[:, D_ALT + k] >= 0) & (scores[:, k] > best)
        out[ok] = d[ok, D_ALT + k]
        best[ok] = scores[ok, k]
    for j in np.flatnonzero(~act):
        f, n = d[j, D_FIRST], d[j, D_N]
        out[j] = f + int(np.argmax(data.ordf[f:f + n] @ w_order))
    return out


def distilled_vector(w_alt: np.ndarray, w_order: np.ndarray, any_ruleset: float = 0.0):
    """The kernel's parameter vector of these weights (the baseline's defaults first)."""
    own = np.concatenate([[any_ruleset], np.asarray(w_alt, float).ravel(), np.asarray(w_order, float)])
    vec = param_array("baseline")
    return np.concatenate([vec, own])


# =========================================================================== games
def study_wins(rules, seed: int, games: int, cells, par: np.ndarray, pid: int,
               threads: int | None = None) -> np.ndarray:
    """Whether the team wins each of games ``0 .. games - 1`` of a study of ``cells``
    (game ``i``: cell ``i`` mod the cells on deal ``i`` div the cells), played by policy
    ``pid`` with vector ``par``: the games ``simlib compare --game day-night-z`` plays."""

    pk = packed(rules)
    cols = int(rules.get("scenario.turn_limit")) + 1
    won = np.zeros(games, dtype=bool)
    nc = len(cells)
    for c, (t, h) in enumerate(cells):
        pos = np.arange(c, games, nc)
        if not len(pos):
            continue
        n = len(pos)
        out = np.zeros((n, K.REC_SIZE), dtype=np.int64)
        tbt = np.zeros((n, cols), dtype=np.int64)
        abt = np.zeros((n, cols), dtype=np.int64)
        run_ranges(batch_nb, (*pk, np.int64(seed), np.int64(0), np.int64(t), np.int64(h),
                              np.int64(pid), par, out, tbt, abt), n, threads)
        won[pos] = out[:, 3] == 1
    return won


def _paired(a: np.ndarray, b: np.ndarray) -> dict:
    """B - A on the same games: rates, the difference, its paired standard error and the
    difference in standard errors."""
    n = len(a)
    d = b.astype(float) - a.astype(float)
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    diff = float(d.mean())
    return {"rate_a": float(a.mean()), "rate_b": float(b.mean()), "diff": diff, "se": se,
            "z": diff / se if se > 0 else 0.0}


@dataclasses.dataclass
class DistilResult(TrainingResult):
    """A fitted distilled policy, its held-out and selection figures and its paired check."""

    fitted: dict[str, float] = dataclasses.field(default_factory=dict)  # before the selection

    def summary(self) -> str:
        t, c = self.training, self.check
        kept = t["kept"] or "none"
        return "\n".join([
            f"teacher {self.settings['teacher']}: {t['train_games']} training games "
            f"({t['train_decisions']} decisions), {t['heldout_games']} held out; teacher games "
            f"{t['teacher_seconds']:.0f} s (the teacher won {t['teacher_success']:.2%}), fit "
            f"{t['fit_seconds']:.1f} s",
            f"held-out ({t['heldout_decisions']} decisions): the teacher's values gained over "
            f"the baseline's choices {t['heldout_gain']:.1f} by the fitted scores "
            f"({t['heldout_switches']} switches), {t['heldout_gain_teacher']:.1f} by the teacher",
            f"selection ({t['select_games']} games a score, seed {t['select_seed']}): kept "
            f"{kept}; the player kept {t['select_diff']:+.2%} ({t['select_z']:.1f} paired "
            "standard errors)",
            f"fresh seeds ({c['games']} games, seed {c['seed']}, teams {c['teams']}, start hours "
            f"{c['hours']}): " + versus_sentence(c)])


def train_distilled(ruleset=None, teams: Sequence[int] = DEFAULT_TEAMS,
                    hours: Sequence[int] = DEFAULT_HOURS, games: int = DEFAULT_GAMES,
                    heldout: int | None = None, seed: int = 0, teacher: str = DEFAULT_TEACHER,
                    l2: float = DEFAULT_L2, select_games: int = DEFAULT_SELECT_GAMES,
                    check_games: int = 20000, threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> DistilResult:
    """Teacher games, the fits, the held-out figures, the selection and the paired check;
    see the module's docstring.  Teacher games ``0 .. games - 1`` of ``seed`` train, the
    next ``heldout`` (default: a quarter of ``games``, at least 1) are held out; the
    selection plays ``select_games`` games of seed ``seed + 2`` a score, the check
    ``check_games`` of seed ``seed + 1``.  ``ValueError`` for a bad argument, before any
    game."""
    heldout = check_training(games, heldout, seed, l2, check_games, check_min=2)
    check_int("select_games", select_games, 2)
    rules = load_rules(ruleset)
    teams = [check_team(t, rules) for t in teams]
    hours = [check_hour(h, rules) for h in hours]
    if not teams or len(set(teams)) != len(teams):
        raise ValueError(f"teams must name distinct team sizes; got {teams!r}")
    if not hours or len(set(hours)) != len(hours):
        raise ValueError(f"hours must name distinct start hours; got {hours!r}")
    tseat = Seat.of(teacher)
    if not POLICIES[tseat.policy].search or tseat.policy == "clairvoyant":
        raise ValueError(f"the teacher must be an honest search player (rollout, rollout-100 or "
                         f"rollout:n=N...); got {teacher!r}")
    cells = cells_of(teams, hours)


    data = collect_teacher(games + heldout, seed, 0, rules, cells, tseat, threads, progress)
    train, held = data.game < games, data.game >= games
    t = time.perf_counter()
    w_alt = np.zeros((P.N_ALT, P.N_CONTEXT))
    for k in range(P.N_ALT):
        x, gain, _ = alternative_rows(data, train, k)
        w_alt[k] = fit_alternative(x, gain, float(l2))
    w_order = fit_order(*_order_arrays(data, train), float(l2))
    fit_seconds = time.perf_counter() - t

    # held-out: the teacher's values the scores gain over the baseline's choices
    mine = choices(data, held, w_alt, w_order)
    base = data.dec[held, D_BASE]
    teach = data.dec[held, D_TEACH]

    fitted = {nm: float(v) for nm, v in
              zip(DISTILLED_PARAMS, distilled_vector(w_alt, w_order)[P.N_PARAMS:])}

    # selection: each score alone in the baseline's games, kept at SELECT_Z paired SEs
    sseed = seed + 2
    bpar = param_array("baseline")
    bwins = study_wins(rules, sseed, select_games, cells, bpar, P.POLICY_BASELINE, threads)
    kept = []
    per_score = {}
    for j, name in enumerate(SCORES):
        wa = np.zeros_like(w_alt)
        wo = np.zeros_like(w_order)
        if j < P.N_ALT:
            wa[j] = w_alt[j]
        else:
            wo = w_order
        r = _paired(bwins, study_wins(rules, sseed, select_games, cells,
                                      distilled_vector(wa, wo), P.POLICY_DISTILLED, threads))
        per_score[name] = r
        if progress is not None:
            progress(f"selection: {name} alone {r['diff']:+.2%} ({r['z']:.1f} paired SE)")
        if r["z"] >= SELECT_Z:
            kept.append(name)
    for j, name in enumerate(SCORES):
        if name in kept:
            continue
        if j < P.N_ALT:
            w_alt[j] = 0.0
        else:
            w_order[:] = 0.0
    vec = distilled_vector(w_alt, w_order)
    sel = _paired(bwins, study_wins(rules, sseed, select_games, cells, vec, P.POLICY_DISTILLED,
                                    threads))

    training = {
        "train_games": int(games), "heldout_games": int(heldout),
        "train_decisions": int(train.sum()), "heldout_decisions": int(held.sum()),
        "teacher_success": float(data.success.mean()),
        "heldout_gain": float((data.v[mine] - data.v[base]).sum()),
        "heldout_switches": int((mine != base).sum()),
        "heldout_gain_teacher": float((data.v[teach] - data.v[base]).sum()),
        "teacher_seconds": float(data.seconds), "fit_seconds": float(fit_seconds),
        "select_games": int(select_games), "select_seed": int(sseed),
        "kept": ",".join(kept), "select_diff": sel["diff"], "select_z": sel["z"],
    }
    for name, r in per_score.items():
        training[f"select_{name}_diff"] = r["diff"]
        training[f"select_{name}_z"] = r["z"]

    # the check: fresh seeds, the study's games of both players
    cseed = seed + 1
    # load the compiled kernels outside the timing
    study_wins(rules, cseed, len(cells), cells, vec, P.POLICY_DISTILLED, threads)
    study_wins(rules, cseed, len(cells), cells, bpar, P.POLICY_BASELINE, threads)
    t = time.perf_counter()
    wdist = study_wins(rules, cseed, check_games, cells, vec, P.POLICY_DISTILLED, threads)
    td = time.perf_counter() - t
    t = time.perf_counter()
    wbase = study_wins(rules, cseed, check_games, cells, bpar, P.POLICY_BASELINE, threads)
    tb = time.perf_counter() - t
    check = {"seed": int(cseed), "games": int(check_games),
             "teams": ",".join(map(str, teams)), "hours": ",".join(map(str, hours)),
             **versus(wbase, wdist, tb, td)}
    settings = {"teacher": str(tseat.label), "ruleset": rules.lineage,
                "ruleset_fingerprint": rules.fingerprint(),
                "teams": ",".join(map(str, teams)), "hours": ",".join(map(str, hours)),
                "games": int(games), "heldout": int(heldout), "seed": int(seed), "l2": float(l2),
                "select_games": int(select_games), "check_games": int(check_games),
                "check_seed": int(cseed), "simlib_version": __version__}
    own = vec[P.N_PARAMS:]
    params = {nm: float(v) for nm, v in zip(DISTILLED_PARAMS, own)}
    return DistilResult(params, settings, training, check, fitted)


def write_distilled(result: DistilResult, path: str | Path, command: str = "") -> Path:
    """Write the weights (source ``fit``; a score the selection switched off: ``fit,
    switched off``, its weights 0) and their provenance; atomic."""
    kept = set(str(result.training.get("kept", "")).split(","))

    def source(name: str) -> str:
        score = "order" if name.startswith("w_order_") else \
            next(a for a in P.ALTERNATIVES if name.startswith(f"w_{a}_"))
        return "fit" if score in kept else "fit, switched off"

    return result.write(
        path, command=command, source=source, names=DISTILLED_WEIGHTS,
        header=["The `distilled` policy of Day Night Z: the rollout player's values fitted into",
                "linear scores of what the survivors see (`simlib train-policy --game "
                "day-night-z`).",
                "Written by simlib.games.day_night_z.distil; re-create it with the command under",
                "[provenance] (the same arguments give the same weights)."],
        fit=("each alternative: logistic regression of the teacher's sign weighted by the "
             "value at stake; the activation order: conditional logit weighted by the best "
             "value's margin; L2, scipy L-BFGS-B from zero on standardised features; each "
             f"score kept when it alone gains {SELECT_Z:g} paired standard errors in the "
             "selection games"),
        features=f"{P.N_CONTEXT} context a decision x {P.N_ALT} alternatives, "
                 f"{P.N_ORDER} an activation",
        training_note="teacher games; the held-out and selection figures")
