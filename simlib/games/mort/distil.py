"""The ``distilled`` player: the rollout player's judgement fitted into a linear score of
each legal action, for either side.

*Teacher games* (``kernels/distil_nb.teacher_game_nb``): the teacher (the ``rollout``
player, the game's strongest honest player) plays one side, the heuristic the other: the
killer's side in the first half of the games, the survivors' in the second.  At each of
the teacher's decisions the distilled player judges (a turn's or a committed card's
choice among two actions or more), the features of every legal action are written down
(``policies_nb.context_nb``, ``action_spec_nb``: what the seat sees) with the teacher's
choice and its playouts' mean value of each action.

The fit, one per side (deterministic: LSQR from zero weights on scaled features, L2):
each legal action's advantage over the heuristic's action in the teacher's playouts (its
mean value minus the heuristic's action's) regressed on the difference of their features.
The heuristic's action is one of the features: its weight is the fit's intercept, and a
*margin* added to it (the predicted advantage another action needs) is chosen among
``MARGINS`` by playing tuning games (seed + 2) on the side: the fitted player keeps the
heuristic's action unless another is predicted better by the margin, as the teacher keeps
it unless another wins a margin of its playouts more.

The fit is measured on held-out teacher games (how often it takes the teacher's action,
and the playout value it gives up, beside the heuristic's), and on fresh games: the
distilled player, then the heuristic, plays each side against heuristic players on the
same games (paired: Newcombe's interval, McNemar's test, the paired standard error), as
``simlib compare --game mort-de-la-lumiere-du-jour --policy heuristic --policy distilled``
(``--characters survivors`` for the survivors' side) plays them.  :func:`write_distilled`
writes the weights with their provenance (teacher, games, seed, simlib version, ruleset
fingerprint) to ``data/mort/policies/distilled.toml``, the file the ``distilled`` policy
reads; ``simlib train-policy --game mort-de-la-lumiere-du-jour`` runs it all.

Every game is a pure function of (seed, game index), the teacher games are gathered in
game order whatever the threads, and the fits are deterministic, so the same arguments
give the same weights.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Callable

import numpy as np

from ...core.fit import check_int, check_training
from ...core.parallel import default_threads
from ...core.train import TrainingResult, teacher_games, versus, versus_sentence
from ...core.version import __version__
from . import api
from . import codes as K
from .kernels import policies_nb as P
from .policies import DISTILLED_PARAMS, POLICIES, Seat, distilled_path, read_distilled
from .ruleset import load_ruleset

__all__ = ["DistilResult", "TeacherData", "train_distilled", "write_distilled",
           "read_distilled", "distilled_path", "collect_teacher", "design", "fit_advantage",
           "choose", "distilled_vector", "side_wins"]

DEFAULT_TEACHER = "rollout"
DEFAULT_GAMES = 400  # teacher games a side
DEFAULT_L2 = 1e-4
DEFAULT_TUNE_GAMES = 10000  # games a margin a side on which the margin is chosen
MARGINS = (0.0, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.08)  # the predicted advantage to leave the heuristic
HEUR = P.N_KINDS * P.N_CTX  # the heuristic's feature among a side's weights
SIDES = ("killer", "survivors")
MAX_DEC = 4096  # decisions written per teacher game (a side has about 100-250)
MAX_CAND = 65536  # candidate rows written per teacher game


@dataclasses.dataclass
class TeacherData:
    """The teacher's labelled decisions of some games of one side, in game order."""

    ctx: np.ndarray  # (decisions, N_CTX) the decider's context
    first: np.ndarray  # (decisions,) its first candidate row
    n: np.ndarray  # (decisions,) its legal actions
    teacher: np.ndarray  # (decisions,) the teacher's action: its index among them
    heuristic: np.ndarray  # (decisions,) the heuristic's
    game: np.ndarray  # (decisions,) the game index
    kind: np.ndarray  # (candidates,) each legal action's kind
    spec: np.ndarray  # (candidates, N_SPEC) its own features
    val: np.ndarray  # (candidates,) its playouts' mean value for the teacher's side
    wins: int  # the teacher's side's wins
    seconds: float


def _empty_data() -> TeacherData:
    z = np.zeros(0, dtype=np.int64)
    return TeacherData(np.zeros((0, P.N_CTX)), z, z, z, z, z, z, np.zeros((0, P.N_SPEC)),
                       np.zeros(0), 0, 0.0)


def collect_teacher(games: int, seed: int, start: int, rules, side: int, teacher: Seat,
                    threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> TeacherData:
    """Play teacher games ``start .. start + games - 1`` of ``seed`` (the teacher on
    ``side``: 0 the killer, 1 the survivors; the heuristic on the other) and gather the
    teacher's labelled decisions; one game per task on ``threads`` threads (the kernel
    releases the GIL), gathered in game order."""
    from .kernels.distil_nb import (DC_FIRST, DC_HEURISTIC, DC_N, DC_TEACHER, N_DC,
                                    teacher_game_nb)

    if games <= 0:
        return _empty_data()
    flat = rules.flat()
    heur = Seat.make("heuristic").vector()
    tvec = teacher.vector()
    pol = np.full(K.MAX_SEATS, POLICIES["heuristic"].id, dtype=np.int64)
    par = np.tile(heur, (K.MAX_SEATS, 1))
    threads = default_threads() if threads is None else int(threads)
    t0 = time.perf_counter()

    def one(i: int):
        dec = np.zeros((MAX_DEC, N_DC), dtype=np.int64)
        ctx = np.zeros((MAX_DEC, P.N_CTX))
        kind = np.zeros(MAX_CAND, dtype=np.int64)
        spec = np.zeros((MAX_CAND, P.N_SPEC))
        val = np.zeros(MAX_CAND)
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        nd, nc = teacher_game_nb(flat, np.int64(seed), np.int64(start + i), np.int64(side), pol,
                                 par, tvec, dec, ctx, kind, spec, val, rec)
        return (ctx[:nd].copy(), dec[:nd].copy(), kind[:nc].copy(), spec[:nc].copy(),
                val[:nc].copy(), int(rec[K.REC_KILLER_WIN]))

    out = teacher_games(one, range(games), threads, progress, every=50, label=f"teacher games ({SIDES[side]})")
    offset = np.cumsum([0] + [len(r[2]) for r in out])[:-1]
    dec = np.concatenate([r[1] for r in out])
    first = np.concatenate([r[1][:, DC_FIRST] + o for r, o in zip(out, offset)])
    killer_wins = sum(r[5] for r in out)
    return TeacherData(
        np.concatenate([r[0] for r in out]), first, dec[:, DC_N], dec[:, DC_TEACHER],
        dec[:, DC_HEURISTIC], np.repeat(np.arange(start, start + games), [len(r[1]) for r in out]),
        np.concatenate([r[2] for r in out]), np.concatenate([r[3] for r in out]),
        np.concatenate([r[4] for r in out]),
        killer_wins if side == 0 else games - killer_wins, time.perf_counter() - t0)


def subset(data: TeacherData, keep: np.ndarray) -> TeacherData:
    """The decisions ``keep`` (a boolean mask) of ``data``, their candidates re-indexed."""
    rows = np.concatenate([np.arange(f, f + k) for f, k in zip(data.first[keep], data.n[keep])]) \
        if keep.any() else np.zeros(0, dtype=np.int64)
    first = np.cumsum(np.concatenate([[0], data.n[keep]]))[:-1]
    return TeacherData(data.ctx[keep], first, data.n[keep], data.teacher[keep],
                       data.heuristic[keep], data.game[keep], data.kind[rows], data.spec[rows],
                       data.val[rows], data.wins, data.seconds)


# =========================================================================== the fit
def design(data: TeacherData):
    """The candidates' full feature rows (``policies_nb.action_features_nb``: the context
    in the kind's block, then the action's own features), a sparse (candidates, N_FEAT)
    matrix, and each candidate's decision."""
    from scipy.sparse import csr_matrix

    c = len(data.kind)
    dec = np.repeat(np.arange(len(data.n)), data.n)
    cols = np.concatenate([data.kind[:, None] * P.N_CTX + np.arange(P.N_CTX)[None, :],
                           np.broadcast_to(P.N_KINDS * P.N_CTX + np.arange(P.N_SPEC), (c, P.N_SPEC))],
                          axis=1)
    vals = np.concatenate([data.ctx[dec], data.spec], axis=1)
    rows = np.repeat(np.arange(c), P.N_CTX + P.N_SPEC)
    x = csr_matrix((vals.ravel(), (rows, cols.ravel())), shape=(c, P.N_FEAT))
    x.sum_duplicates()
    return x, dec


def fit_advantage(data: TeacherData, l2: float = DEFAULT_L2) -> np.ndarray:
    """The weights (``N_FEAT``) of a least-squares fit of each action's advantage over the
    heuristic's action in the teacher's playouts (its mean value minus the heuristic's
    action's) by the difference of their features, plus ``l2`` times the squared weights of
    the scaled differences (each column divided by its root mean square) a row; the
    heuristic's feature is then the fit's intercept (the value of leaving the heuristic),
    and the score of an action ranks it by its predicted advantage.  LSQR from zero.
    Deterministic."""
    from scipy.sparse import diags
    from scipy.sparse.linalg import lsqr

    if len(data.n) == 0:
        return np.zeros(P.N_FEAT)
    x, dec = design(data)
    hrow = data.first + data.heuristic
    keep = np.ones(len(data.kind), dtype=bool)
    keep[hrow] = False
    xd = (x - x[hrow[dec]]).tocsr()[keep]
    y = (data.val - data.val[hrow[dec]])[keep]
    sd = np.sqrt(np.asarray(xd.multiply(xd).mean(axis=0)).ravel()) if len(y) else np.ones(P.N_FEAT)
    sd = np.where(sd < 1e-12, 1.0, sd)
    z = (xd @ diags(1.0 / sd)).tocsr()
    beta = lsqr(z, y, damp=float(np.sqrt(l2 * max(len(y), 1))), atol=1e-10, btol=1e-10,
                iter_lim=10000)[0]
    return beta / sd


def choose(data: TeacherData, w: np.ndarray) -> np.ndarray:
    """The distilled player's action of each decision (its index; the kernel's rule: the
    heuristic's action unless another scores strictly higher, the first such)."""
    if len(data.n) == 0:
        return np.zeros(0, dtype=np.int64)
    x, _dec = design(data)
    u = x @ w
    out = data.heuristic.copy()
    for i, (f, k) in enumerate(zip(data.first, data.n)):
        s = u[f:f + k]
        h = data.heuristic[i]
        j = int(np.argmax(s))
        if s[j] > s[h]:
            out[i] = j
    return out


# =========================================================================== the check
def distilled_vector(w_killer: np.ndarray, w_survivor: np.ndarray) -> np.ndarray:
    """A distilled seat's parameter vector (the heuristic's defaults, any_ruleset 0, the
    two sides' weights)."""
    vec = np.zeros(P.N_DISTILLED_PARAMS)
    vec[:P.N_PARAMS] = Seat.make("heuristic").vector()
    vec[P.DP_W_KILLER:P.DP_W_SURVIVOR] = w_killer
    vec[P.DP_W_SURVIVOR:] = w_survivor
    return vec


def side_wins(rules, seed: int, games: int, side: int, policy_id: int, vector: np.ndarray,
              threads: int | None) -> tuple[np.ndarray, float]:
    """``side``'s wins (``(games,)`` bool: the killer's win for side 0, the survivors' for
    side 1) in games ``0 .. games - 1`` of ``seed`` when ``policy_id`` (parameters
    ``vector``) plays that side against heuristic players (``simlib compare --policy
    heuristic --policy distilled`` plays these games); and the kernel's seconds."""
    heur = Seat.make("heuristic").vector()
    width = max(len(vector), len(heur))
    pol = np.full((games, K.MAX_SEATS), POLICIES["heuristic"].id, dtype=np.int64)
    par = np.zeros((games, K.MAX_SEATS, width))
    par[:, :, :len(heur)] = heur
    seats = [0] if side == 0 else list(range(1, K.MAX_SEATS))
    for s in seats:
        pol[:, s] = policy_id
        par[:, s, :] = 0.0
        par[:, s, :len(vector)] = vector
    m = min(games, 8)  # load the compiled kernel outside the timing
    api.run_kernel(rules, seed, 0, pol[:m], par[:m], threads)
    t = time.perf_counter()
    out = api.run_kernel(rules, seed, 0, pol, par, threads)
    dt = time.perf_counter() - t
    kw = out[:, K.REC_KILLER_WIN] == 1
    return (kw if side == 0 else ~kw), dt


def _gained(data: TeacherData, pick: np.ndarray) -> float:
    """The playout value the actions ``pick`` gain over the heuristic's, a game."""
    games = max(len(np.unique(data.game)), 1)
    return float((data.val[data.first + pick] - data.val[data.first + data.heuristic]).sum()) / games


class DistilResult(TrainingResult):
    """A fitted distilled player, its held-out figures and its paired check."""

    def summary(self) -> str:
        t, c = self.training, self.check
        lines = [f"teacher {self.settings['teacher']}: {self.settings['games']} training games "
                 f"and {self.settings['heldout']} held-out games a side; fit "
                 f"{t['fit_seconds']:.1f} s"]
        for side in SIDES:
            lines.append(
                f"{side}: {t[f'{side}_train_decisions']} training decisions (the teacher "
                f"leaves the heuristic at {t[f'{side}_teacher_deviates']:.1%}), teacher games "
                f"{t[f'{side}_teacher_seconds']:.0f} s, the teacher's side won "
                f"{t[f'{side}_teacher_win_rate']:.1%}; margin {t[f'{side}_margin']:g} (side's "
                f"wins by margin {t[f'{side}_margin_rates']}); held out "
                f"({t[f'{side}_heldout_decisions']} decisions): leaves the heuristic at "
                f"{t[f'{side}_deviates']:.2%}, the teacher's action taken at "
                f"{t[f'{side}_agree']:.2%} (heuristic {t[f'{side}_agree_heuristic']:.2%}); "
                f"playout value gained over the heuristic's actions {t[f'{side}_gain']:+.3f} a "
                f"game (the teacher's {t[f'{side}_gain_teacher']:+.3f})")
        for side in SIDES:
            lines.append(f"fresh seeds, {side} ({c['games']} games, seed {c['seed']}, against "
                         "heuristic players): "
                         + versus_sentence(c, "heuristic", prefix=f"{side}_"))
        return "\n".join(lines)


def train_distilled(ruleset=None, *, games: int = DEFAULT_GAMES, heldout: int | None = None,
                    seed: int = 0, teacher: str = DEFAULT_TEACHER, l2: float = DEFAULT_L2,
                    check_games: int = 20000, tune_games: int = DEFAULT_TUNE_GAMES,
                    threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> DistilResult:
    """Teacher games (``games`` + ``heldout`` a side, seed ``seed``: the killer's side
    plays games ``0 ..``, the survivors' the games after them), the two fits, each side's
    margin chosen on ``tune_games`` games of seed ``seed + 2`` a margin, the held-out
    figures and the paired check on ``check_games`` fresh games a side of seed
    ``seed + 1``.  ``ValueError`` for a bad argument, before any game."""
    heldout = check_training(games, heldout, seed, l2, check_games)
    check_int("tune_games", tune_games, 1)
    rules = load_ruleset(ruleset)
    tseat = Seat.of(teacher)
    if tseat.policy != "rollout":
        raise ValueError(f"the teacher must be the rollout player (rollout or "
                         f"rollout:rollouts=N...); got {teacher!r}")

    total = games + heldout
    weights, training = {}, {}
    fit_seconds = 0.0
    tune_seed = seed + 2
    for side, name in enumerate(SIDES):
        data = collect_teacher(total, seed, side * total, rules, side, tseat, threads, progress)
        train = subset(data, data.game < side * total + games)
        held = subset(data, data.game >= side * total + games)
        t = time.perf_counter()
        w = fit_advantage(train, float(l2))
        fit_seconds += time.perf_counter() - t
        # the margin: the predicted advantage an action needs over the heuristic's, the
        # one of MARGINS whose games (seed + 2) the side wins most (the largest on a tie)
        rates = []
        for m in MARGINS:
            wm = w.copy()
            wm[HEUR] += m
            vec = distilled_vector(wm, wm)
            rates.append(float(side_wins(rules, tune_seed, tune_games, side, P.POLICY_DISTILLED,
                                         vec, threads)[0].mean()))
            if progress is not None:
                progress(f"{name}: margin {m:g}: the side wins {rates[-1]:.2%} of "
                         f"{tune_games} tuning games")
        best = max(range(len(MARGINS)), key=lambda i: (rates[i], MARGINS[i]))
        w[HEUR] += MARGINS[best]
        weights[name] = w
        mine = choose(held, w)
        training.update({
            f"{name}_train_decisions": int(len(train.n)),
            f"{name}_heldout_decisions": int(len(held.n)),
            f"{name}_teacher_deviates": float(np.mean(train.teacher != train.heuristic))
            if len(train.n) else float("nan"),
            f"{name}_margin": float(MARGINS[best]),
            f"{name}_margin_rates": ",".join(f"{m:g}:{r:.4f}" for m, r in zip(MARGINS, rates)),
            f"{name}_deviates": float(np.mean(mine != held.heuristic))
            if len(held.n) else float("nan"),
            f"{name}_agree": float(np.mean(mine == held.teacher)) if len(held.n) else float("nan"),
            f"{name}_agree_heuristic": float(np.mean(held.heuristic == held.teacher))
            if len(held.n) else float("nan"),
            f"{name}_gain": _gained(held, mine), f"{name}_gain_teacher": _gained(held, held.teacher),
            f"{name}_teacher_win_rate": data.wins / total,
            f"{name}_teacher_seconds": float(data.seconds)})
    training["fit_seconds"] = float(fit_seconds)
    vec = distilled_vector(weights["killer"], weights["survivors"])

    check_seed = seed + 1
    check = {"seed": int(check_seed), "games": int(check_games)}
    heur = Seat.make("heuristic")
    for side, name in enumerate(SIDES):
        wdist, td = side_wins(rules, check_seed, check_games, side, P.POLICY_DISTILLED, vec,
                              threads)
        wbase, tb = side_wins(rules, check_seed, check_games, side, POLICIES["heuristic"].id,
                              heur.vector(), threads)
        check.update({f"{name}_{k}": v
                      for k, v in versus(wbase, wdist, tb, td, "heuristic").items()})
    settings = {"teacher": str(tseat.label), "ruleset": rules.lineage,
                "ruleset_fingerprint": rules.fingerprint(), "games": int(games),
                "heldout": int(heldout), "seed": int(seed), "l2": float(l2),
                "tune_games": int(tune_games), "tune_seed": int(seed + 2),
                "check_games": int(check_games), "check_seed": int(check_seed),
                "simlib_version": __version__}
    params = {nm: float(v) for nm, v in zip(DISTILLED_PARAMS, vec[P.DP_ANY_RULESET:])}
    return DistilResult(params, settings, training, check)


def _timing(key: str) -> bool:
    return key.endswith("_seconds") or "games_per_s" in key


def write_distilled(result: DistilResult, path: str | Path, command: str = "") -> Path:
    """Write the weights (source ``fit``), their provenance and the figures of the fit
    and the check; atomic.  The run's times and speeds (the summary prints them) and the
    date are left out, so the same arguments write the same file byte for byte."""
    return result.write(
        path, command=command, dated=False,
        header=["The `distilled` player of Mort de la lumiere du jour: the rollout player's",
                "judgement fitted into a linear score of each legal action, for either side",
                "(`simlib train-policy --game mort-de-la-lumiere-du-jour`).  Written by",
                "simlib.games.mort.distil; re-create it with the command under [provenance]",
                "(the same arguments give the same weights)."],
        fit=("conditional logit of the teacher's action over the legal actions, one fit a "
             "side; L2, scipy L-BFGS-B from zero on scaled features"),
        features=f"{P.N_KINDS} kinds x {P.N_CTX} context + {P.N_SPEC} action, a side",
        check_note="fresh seeds, the same games for both players")
