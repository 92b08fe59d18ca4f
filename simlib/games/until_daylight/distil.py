"""The ``distilled`` policy: the rollout search's judgement fitted into a linear score.

*Teacher games*: at every decision where the rollout search (the teacher, e.g.
``rollout-1000`` with a two-round horizon) searches (a decision kind it does not skip,
the rounds its horizon reaches the night's end, 2+ candidates), the baseline's best
``top_k`` candidates are written down with their features
(``kernels/policies_nb.distilled_value_nb``: what a player can see) and a label:

- ``labels="values"`` (the default; ``kernels/distil_nb.value_game_nb``): the baseline
  plays, and each ranked candidate is played on by the teacher's own continuations (its
  re-keyed streams, horizon and values; the same ``continuations`` for every candidate),
  giving each challenger's mean paired gain over the baseline's choice: an unbiased
  estimate, fitted by ridge regression (:func:`fit_gains`);
- ``labels="choices"`` (``kernels/distil_nb.teacher_game_nb``): the teacher plays and the
  rank it took is the label, fitted by a conditional logit (a softmax over the ranked
  candidates, L2, L-BFGS from zero weights; :func:`fit_conditional_logit`).  Measured on
  the calibrated ruleset: the search leaves the baseline's choice at about 2 % of these
  decisions, and the fitted logit never did (its policy played the baseline's games).

A threshold of predicted gain (``THRESHOLDS``) is then picked by the most wins on tuning
games, the fit is measured on held-out teacher games (how often it takes the label's
choice, and the labels' gain of its choices), and the fitted policy and the baseline play
the same fresh games (paired: Newcombe's interval and McNemar's test).
:func:`write_distilled` writes the weights (source ``fit``) with their provenance
(teacher, games, seeds, simlib version, ruleset fingerprint) to
``data/until_daylight/policies/distilled.toml``, the file the ``distilled`` policy reads;
``simlib train-policy --game until-daylight`` runs it all.

Every game is a pure function of (seed, game index), the teacher games are gathered in
game order whatever the threads, and both fits are deterministic, so the same arguments
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
from . import codes as K
from .api import check_players, flat_rules, run_kernel, team_codes
from .kernels import policies_nb as P
from .policies import (DISTILLED_PARAMS, POLICIES, distilled_feature_names, distilled_path,
                       read_distilled, resolve_search)
from .ruleset import load_ruleset

__all__ = ["DistilResult", "train_distilled", "write_distilled", "read_distilled",
           "distilled_path", "fit_conditional_logit", "collect_teacher"]

# the default teacher: rollout-1000 with a two-round horizon (its candidates, gate,
# continuations and values).  With the default labels ("values") the baseline plays the
# teacher games and every ranked candidate gets the same DEFAULT_CONTINUATIONS
# continuations, so the budget of the teacher's name does not enter the labels; on the
# project's 2-core machine the default run (2,000 + 500 games) took about 10 minutes.
# With labels = "choices" the teacher plays and its budget is its strength and its cost
# (rollout-1000: about 4-5 calibrated games a second on two cores).
DEFAULT_TEACHER = "rollout-1000"
DEFAULT_HORIZON = 2
DEFAULT_CONTINUATIONS = 32  # continuations per ranked candidate of a labelled decision
MAX_ROWS = 4096  # searched decisions recorded per teacher game (a game has about 160 decisions)


@dataclasses.dataclass
class TeacherData:
    """The searched decisions of some teacher games, in game order."""

    feats: np.ndarray  # (decisions, MAX_TOP_K, N_FEATURES) float64
    meta: np.ndarray  # (decisions, N_META) int64: distil_nb.M_* columns
    gains: np.ndarray  # (decisions, MAX_TOP_K) float64: the search's paired gain of each rank
    game: np.ndarray  # (decisions,) the game index of each decision
    wins: np.ndarray  # (games,) bool: the teacher won
    seconds: float


def teacher_search(teacher: str, horizon: int):
    """``resolve_search``'s triple of the teacher (a search policy name) with ``horizon``."""
    search = resolve_search(teacher, {"horizon": float(horizon)})
    if search is None:
        raise ValueError(f"--teacher must be a search player (rollout, rollout-100, "
                         f"rollout-1000); got {teacher!r}")
    return search


def gate_vector(search, baseline_pp: np.ndarray) -> np.ndarray:
    """The distilled policy's vector (zero weights) whose gate is the teacher's: the same
    top_k, skipped kinds, horizon and short flag (``policies_nb.DP_*``)."""
    from .kernels import search_nb as S

    _, _, rp = search
    top_k = rp[S.RP_TOP_K]
    if not 2 <= top_k <= P.MAX_TOP_K:
        raise ValueError(f"the teacher's top_k must be from 2 to {P.MAX_TOP_K} (the distilled "
                         f"policy re-ranks at most {P.MAX_TOP_K} candidates); got {top_k:g}")
    if rp[S.RP_PEEK] != 0:
        raise ValueError("the teacher must not peek (a clairvoyant teacher sees the real future)")
    v = np.zeros(P.DP_W + P.N_FEATURES, dtype=np.float64)
    v[:P.N_BASELINE_PARAMS] = baseline_pp[:P.N_BASELINE_PARAMS]
    v[P.DP_TOP_K] = top_k
    v[P.DP_SKIP_KINDS] = rp[S.RP_SKIP_KINDS]
    v[P.DP_HORIZON] = rp[S.RP_HORIZON]
    v[P.DP_SHORT] = rp[S.RP_SHORT]
    return v


def collect_teacher(games: int, seed: int, start: int, rules, players: int, search,
                    dpp: np.ndarray, threads: int | None = None,
                    progress: Callable[[str], None] | None = None,
                    values: int = 0) -> TeacherData:
    """Play games ``start .. start + games - 1`` of ``seed`` and record the decisions where
    the teacher searches; one game per task on ``threads`` threads (the kernels release
    the GIL), gathered in game order.  ``values`` = 0: the teacher plays and its choices
    are the labels (``distil_nb.teacher_game_nb``); ``values`` = L > 0: the baseline plays
    and the teacher's continuations value each ranked candidate on the same L
    continuations (``distil_nb.value_game_nb``)."""
    from .kernels.distil_nb import N_META, teacher_game_nb, value_game_nb

    rs = flat_rules(rules)
    bid, bpp, rp = search
    chars = np.ascontiguousarray(team_codes(None, players, rules))
    threads = default_threads() if threads is None else int(threads)
    t0 = time.perf_counter()

    def one(g: int):
        feats = np.zeros((MAX_ROWS, P.MAX_TOP_K, P.N_FEATURES), dtype=np.float64)
        meta = np.zeros((MAX_ROWS, N_META), dtype=np.int64)
        gains = np.zeros((MAX_ROWS, P.MAX_TOP_K), dtype=np.float64)
        rec = np.zeros(K.N_REC, dtype=np.int64)
        if values > 0:
            n = value_game_nb(rs, np.int64(seed), np.int64(g), np.int64(players), chars,
                              np.int64(bid), bpp, rp, dpp, np.int64(values), feats, meta, gains,
                              rec)
        else:
            n = teacher_game_nb(rs, np.int64(seed), np.int64(g), np.int64(players), chars,
                                np.int64(bid), bpp, rp, dpp, feats, meta, gains, rec)
        win = rec.view(K.record_dtype())[0]["outcome"] == K.OUT_WIN
        return feats[:n].copy(), meta[:n].copy(), gains[:n].copy(), bool(win)

    idx = range(start, start + games)
    out = teacher_games(one, idx, threads, progress, every=50,
                        rate=".2f")
    feats = np.concatenate([r[0] for r in out]) if out else np.zeros((0, P.MAX_TOP_K, P.N_FEATURES))
    meta = np.concatenate([r[1] for r in out]) if out else np.zeros((0, N_META), dtype=np.int64)
    gains = np.concatenate([r[2] for r in out]) if out else np.zeros((0, P.MAX_TOP_K))
    game = np.concatenate([np.full(len(r[1]), g, dtype=np.int64) for g, r in zip(idx, out)]) \
        if out else np.zeros(0, dtype=np.int64)
    return TeacherData(feats, meta, gains, game, np.array([r[3] for r in out], dtype=bool),
                       time.perf_counter() - t0)


def _utilities(feats: np.ndarray, count: np.ndarray, w: np.ndarray) -> np.ndarray:
    u = feats @ w
    ranks = np.arange(feats.shape[1])[None, :]
    return np.where(ranks < count[:, None], u, -np.inf)


def fit_conditional_logit(feats: np.ndarray, count: np.ndarray, label: np.ndarray,
                          l2: float = 1.0) -> np.ndarray:
    """Weights maximising the conditional-logit log-likelihood of the labels (the rank
    taken among each decision's ``count`` candidates) minus ``l2 / 2 * |w|^2``; L-BFGS
    from zero weights (deterministic)."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp

    n, _, f = feats.shape
    if n == 0:
        return np.zeros(f)
    rows = np.arange(n)

    def loss(w):
        u = _utilities(feats, count, w)
        lse = logsumexp(u, axis=1)
        p = np.exp(u - lse[:, None])  # 0 where a rank is absent
        ll = float(np.sum(u[rows, label] - lse))
        chosen = feats[rows, label]  # (n, f)
        expected = np.einsum("nk,nkf->nf", p, feats)
        grad = (chosen - expected).sum(axis=0)
        return -ll + 0.5 * l2 * float(w @ w), -grad + l2 * w

    res = minimize(loss, np.zeros(f), jac=True, method="L-BFGS-B",
                   options={"maxiter": 2000, "gtol": 1e-8})
    return res.x


def predicted_rank(feats: np.ndarray, count: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The rank the linear score picks (the first of the highest: the kernel's tie rule)."""
    return np.argmax(_utilities(feats, count, w), axis=1)


class DistilResult(TrainingResult):
    """A fitted distilled policy, its held-out agreement and its paired check."""

    def summary(self) -> str:
        t, c = self.training, self.check
        lines = [
            f"teacher {self.settings['teacher']} (horizon {self.settings['horizon']}, labels "
            f"{t['labels']}): {t['train_games']} training games ({t['train_decisions']} "
            f"decisions where it searches; at {t['train_changed']} its label leaves the "
            f"baseline's choice), {t['heldout_games']} held-out games; teacher games "
            f"{t['teacher_seconds']:.0f} s, fit {t['fit_seconds']:.1f} s",
            f"threshold {t['threshold']:g} (wins on {t['tune_games']} tuning games of seed "
            f"{t['tune_seed']}: {t['tune_wins']})",
            f"held-out agreement with the teacher's label: distilled {t['agree_distilled']:.2%}, "
            f"baseline {t['agree_baseline']:.2%} ({t['heldout_decisions']} decisions; where the "
            f"label leaves the baseline's choice ({t['heldout_changed']}) distilled takes it at "
            f"{t['changed_hit']}; it leaves the baseline's choice against the label at "
            f"{t['false_changes']})"]
        if "heldout_gain" in t:
            lines.append(f"held-out estimated gain of its choices: {t['heldout_gain']:+.2f} "
                         f"(the best label at every decision, noise included: "
                         f"{t['heldout_best_gain']:+.2f})")
        lines.append(f"fresh seeds ({c['games']} games, seed {c['seed']}, {c['players']} "
                     "players): " + versus_sentence(c))
        return "\n".join(lines)


def _play(rules, players, seed, games, pid, pp, threads):
    out = np.zeros(games, dtype=K.record_dtype())
    flat = out.view(np.int64).reshape(games, K.N_REC)
    npl = np.full(games, players, dtype=np.int64)
    chars = np.tile(team_codes(None, players, rules), (games, 1))
    t = time.perf_counter()
    run_kernel(rules, int(seed), 0, npl, chars, int(pid), pp, flat, threads)
    return np.asarray(out["outcome"] == K.OUT_WIN), time.perf_counter() - t


def fit_gains(feats: np.ndarray, count: np.ndarray, gains: np.ndarray,
              l2: float = 10.0) -> np.ndarray:
    """Ridge regression of each challenger's estimated gain over the baseline's choice on
    its features minus the baseline's choice's: the weights ``w`` with ``w . (x_r - x_0)``
    the predicted gain of rank ``r`` (so the linear score's argmax takes the highest
    predicted gain, the baseline's choice when none is positive).  Closed form:
    deterministic."""
    ranks = np.arange(feats.shape[1])[None, :]
    dec, rk = np.nonzero((ranks >= 1) & (ranks < count[:, None]))
    x = feats[dec, rk] - feats[dec, 0]
    y = gains[dec, rk]
    return np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ y)


def with_threshold(w: np.ndarray, tau: float) -> np.ndarray:
    """``w`` that leaves the baseline's choice only for a predicted gain above ``tau``
    (the rank features' weights lowered by ``tau``)."""
    w = w.copy()
    w[P.F_RANK:P.F_RANK + P.MAX_TOP_K - 1] -= tau
    return w


# the thresholds tried on the tuning games (predicted gain in the teacher's values, about
# the chance of winning; 1: never, the baseline itself): the first of the most wins is
# kept, so on the tuning games the policy never does worse than the baseline
THRESHOLDS = (0.0, 0.0025, 0.005, 0.01, 0.02, 1.0)


def train_distilled(ruleset="calibrated", players: int = 4, games: int = 2000,
                    heldout: int | None = None, seed: int = 0, teacher: str = DEFAULT_TEACHER,
                    horizon: int = DEFAULT_HORIZON, labels: str = "values",
                    continuations: int = DEFAULT_CONTINUATIONS, l2: float | None = None,
                    tune_games: int = 20000, check_games: int = 20000,
                    threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> DistilResult:
    """Teacher games, the fit, the held-out agreement and the paired check; see the
    module's docstring.  Games ``0 .. games - 1`` of ``seed`` train, the next ``heldout``
    (default: a quarter of ``games``, at least 1) are held out.  ``labels``: ``"values"``
    (the baseline plays; the teacher's continuations value each ranked candidate on the
    same ``continuations``; ridge regression of the gains, ``l2`` default 10) or
    ``"choices"`` (the teacher plays; its choices; conditional logit, ``l2`` default 1).
    The threshold of predicted gain (``THRESHOLDS``) is the one with the most wins on
    ``tune_games`` games of seed ``seed + 2``; the paired check plays ``check_games``
    games of seed ``seed + 1`` (neither seed's games are the teacher's).
    ``ValueError`` for a bad argument, before any game is played."""
    if labels not in ("values", "choices"):
        raise ValueError(f"labels must be 'values' or 'choices'; got {labels!r}")
    l2 = (10.0 if labels == "values" else 1.0) if l2 is None else l2
    heldout = check_training(games, heldout, seed, l2, check_games)
    check_int("tune_games", tune_games, 1)
    check_int("horizon", horizon, 0)
    check_int("continuations", continuations, 1)
    rules = load_ruleset(ruleset)
    players = check_players(players, rules)
    search = teacher_search(teacher, horizon)
    bid, bpp = POLICIES["baseline"].id, np.asarray(POLICIES["baseline"].defaults, dtype=np.float64)
    dpp = gate_vector(search, bpp)

    data = collect_teacher(games + heldout, seed, 0, rules, players, search, dpp, threads,
                           progress, values=continuations if labels == "values" else 0)
    from .kernels.distil_nb import M_COUNT, M_LABEL

    count, label = data.meta[:, M_COUNT], data.meta[:, M_LABEL]
    known = label >= 0  # the teacher took one of the ranked candidates
    train = known & (data.game < games)
    held = known & (data.game >= games)
    t = time.perf_counter()
    if labels == "values":
        w = fit_gains(data.feats[train], count[train], data.gains[train], float(l2))
    else:
        w = fit_conditional_logit(data.feats[train], count[train], label[train], float(l2))
    fit_seconds = time.perf_counter() - t

    def vector(tau):
        v = dpp.copy()
        v[P.DP_W:] = with_threshold(w, tau)
        return v

    # the threshold: the most wins on the tuning games (paired: the same games for each)
    tune_seed = seed + 2
    tune = []
    for tau in THRESHOLDS:
        wins, _ = _play(rules, players, tune_seed, tune_games, P.POLICY_DISTILLED, vector(tau),
                        threads)
        tune.append(int(wins.sum()))
        if progress is not None:
            progress(f"threshold {tau:g}: {tune[-1]} wins of {tune_games} tuning games")
    tau = THRESHOLDS[int(np.argmax(tune))]
    wt = with_threshold(w, tau)
    pred = predicted_rank(data.feats[held], count[held], wt)
    lab = label[held]
    rows = np.arange(int(held.sum()))
    training = {
        "labels": labels, "train_games": int(games), "heldout_games": int(heldout),
        "train_decisions": int(train.sum()), "train_changed": int((label[train] > 0).sum()),
        "unranked_choices": int((~known).sum()),
        "heldout_decisions": int(held.sum()), "heldout_changed": int((lab > 0).sum()),
        "agree_distilled": float(np.mean(pred == lab)) if held.any() else float("nan"),
        "agree_baseline": float(np.mean(lab == 0)) if held.any() else float("nan"),
        "changed_hit": int(((pred == lab) & (lab > 0)).sum()),
        "false_changes": int(((pred > 0) & (lab == 0)).sum()),
        "threshold": float(tau), "tune_seed": int(tune_seed), "tune_games": int(tune_games),
        "tune_wins": ", ".join(f"{t:g}: {n}" for t, n in zip(THRESHOLDS, tune)),
        # the games that gave the labels: the baseline's (values) or the teacher's (choices)
        "labelled_games_win_rate": float(data.wins.mean()),
        "teacher_seconds": float(data.seconds), "fit_seconds": float(fit_seconds),
    }
    if labels == "values":  # the held-out decisions' estimated gain of the distilled picks
        training["heldout_gain"] = float(data.gains[held][rows, pred].sum())
        training["heldout_best_gain"] = float(data.gains[held].max(axis=1).sum())
    vec = vector(tau)
    check_seed = seed + 1
    wd, td = _play(rules, players, check_seed, check_games, P.POLICY_DISTILLED, vec, threads)
    wb, tb = _play(rules, players, check_seed, check_games, bid, bpp, threads)
    check = {"seed": int(check_seed), "games": int(check_games), "players": int(players),
             **versus(wb, wd, tb, td)}
    params = {n: float(v) for n, v in zip(DISTILLED_PARAMS, vec) if n != "any_ruleset"}
    settings = {"teacher": teacher, "horizon": int(horizon), "labels": labels,
                "continuations": int(continuations) if labels == "values" else 0,
                "ruleset": rules.lineage,
                "ruleset_fingerprint": rules.fingerprint(), "players": int(players),
                "games": int(games), "heldout": int(heldout), "seed": int(seed),
                "l2": float(l2), "check_games": int(check_games), "check_seed": int(check_seed),
                "simlib_version": __version__}
    return DistilResult(params, settings, training, check)


def write_distilled(result: DistilResult, path: str | Path, command: str = "") -> Path:
    """Write the weights (source ``fit``; the gate, copied from the teacher, source
    ``teacher``) and their provenance; atomic (a temporary file, then a rename)."""
    base = POLICIES["baseline"].param_names
    gate = set(DISTILLED_PARAMS[:P.DP_W]) - set(base)
    return result.write(
        path, command=command,
        header=["The `distilled` policy: the rollout search's choices fitted into a linear score",
                "of features a player can see (`simlib train-policy --game until-daylight`).",
                "Written by simlib.games.until_daylight.distil; re-create it with the command",
                "under [provenance] (the same arguments give the same weights)."],
        fit=("ridge regression of the challengers' gains over the baseline's choice"
             if result.settings.get("labels") == "values" else
             "conditional logit over the ranked candidates, L2, scipy L-BFGS-B from zero"),
        features=len(distilled_feature_names()),
        source=lambda k: "baseline" if k in base else ("teacher" if k in gate else "fit"),
        training_note="teacher games; agreement on the held-out ones")
