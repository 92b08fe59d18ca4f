"""The ``distilled`` policy: the optimal player's judgement fitted into two linear scores.

*Teacher games* (``kernels/distil_nb.teacher_game_nb``): one seat plays the teacher (the
``optimal`` player: its exact dynamic programme), every other seat the baseline
(``threshold``), at every player count of ``players`` in turn, the teacher's seat turning
from game to game.  At each of the teacher's stop-or-stay decisions with blood to bank, and
at each of its votes, the distilled policy's features are written down
(``policies_nb.decide_features_nb``, ``vote_features_nb``: what a player sees) with the
teacher's values: the blood it expects to bank this night if it stays, minus the blood it
banks now (a stop-or-stay label), and its value of each vote and of refusing.

The fits (deterministic: L-BFGS from zero weights on standardised features, folded back):

- stop or stay: a logistic regression of "staying is worth more" (by more than the
  teacher's tie, 1e-9), each decision weighted by the blood at stake (the absolute gain:
  a wrong call costs that much in the teacher's values), L2;
- the vote: a conditional logit over the legal options (three moons, refusing) of the
  teacher's best option, each vote weighted by the teacher's value of its best option
  over its second best, L2.

The fit is then measured on held-out teacher games (how often it takes the teacher's
action, and the teacher's values it gives up, beside the baseline's), and the fitted
policy and the baseline play the same fresh games in the focal seat against a field of
baselines, as ``simlib compare --game till-dawn --policy threshold --policy distilled``
plays them (paired: Newcombe's interval, McNemar's test, the paired standard error).
:func:`write_distilled` writes the weights with their provenance (teacher, games, seed,
simlib version, ruleset fingerprint) to ``data/till_dawn/policies/distilled.toml``, the file
the ``distilled`` policy reads; ``simlib train-policy --game till-dawn`` runs it all.

Every game is a pure function of (seed, game index), the teacher games are gathered in
game order whatever the threads, and both fits are deterministic, so the same arguments
give the same weights.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ...core.fit import check_training, conditional_logit, weighted_logistic
from ...core.parallel import default_threads
from ...core.params import PolicySpec
from ...core.seats import table_seats
from ...core.train import TrainingResult, rotation, teacher_games, versus, versus_sentence
from ...core.version import __version__
from . import api
from . import codes as K
from .kernels import policies_nb as P
from .policies import DISTILLED_PARAMS, POLICIES, Seat, distilled_path, read_distilled
from .ruleset import load_ruleset

__all__ = ["DistilResult", "train_distilled", "write_distilled", "read_distilled",
           "distilled_path", "collect_teacher", "fit_decide", "fit_vote", "TeacherData"]

DEFAULT_TEACHER = "optimal"
DEFAULT_PLAYERS = (3, 4, 5, 6, 7, 8)  # the default study's player counts
DEFAULT_GAMES = 20000
DEFAULT_L2 = 1e-6
TIE = P.TIE  # the teacher's tie: staying must be worth more than this
MAX_DECIDE = 1024  # stop-or-stay rows written per teacher game (a game has about 30)
MAX_VOTES = 256  # votes written per teacher game (a game has about 3)


@dataclasses.dataclass
class TeacherData:
    """The teacher's labelled decisions of some games, in game order."""

    dec_x: np.ndarray  # (decisions, N_DECIDE) float64 features
    gain: np.ndarray  # (decisions,) the teacher's value of staying minus the blood banked now
    dec_base: np.ndarray  # (decisions,) bool: the baseline would stay
    dec_game: np.ndarray  # (decisions,) the game index
    vote_x: np.ndarray  # (votes, 4, N_VOTE) features of each option (3 moons, refusing)
    vote_v: np.ndarray  # (votes, 4) the teacher's value of each option (-inf: not legal)
    vote_base: np.ndarray  # (votes,) the baseline's option
    vote_game: np.ndarray  # (votes,)
    seconds: float


def collect_teacher(games: int, seed: int, start: int, rules, players: Sequence[int],
                    teacher: Seat, threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> TeacherData:
    """Play teacher games ``start .. start + games - 1`` of ``seed`` (``core.train.rotation``:
    the teacher in one seat, the baseline in the others) and gather the teacher's labelled
    decisions; one game per task on ``threads`` threads (the kernel releases the GIL),
    gathered in game order."""
    from .kernels.distil_nb import DV_BASELINE, DV_GAIN, VM_BASELINE, teacher_game_nb

    flat = rules.flat()
    base = Seat.make("threshold")
    span = int(teacher.params[0])
    wsize = api.work_size(rules, [teacher])
    width = max(len(teacher.vector()), len(base.vector()))
    npl, tseat = rotation(players, games, start)
    chars = np.full(K.MAX_SEATS, -1, dtype=np.int64)
    bvec = np.zeros(width)
    bvec[:len(base.vector())] = base.vector()
    threads = default_threads() if threads is None else int(threads)
    t0 = time.perf_counter()

    def one(i: int):
        p, ts = int(npl[i]), int(tseat[i])
        pol = np.full(K.MAX_SEATS, POLICIES["threshold"].id, dtype=np.int64)
        par = np.tile(bvec, (K.MAX_SEATS, 1))
        pol[ts] = POLICIES[teacher.policy].id
        par[ts] = 0.0
        par[ts, :len(teacher.vector())] = teacher.vector()
        mask = np.zeros(K.MAX_SEATS, dtype=np.int64)
        mask[ts] = 1
        dec_x = np.zeros((MAX_DECIDE, P.N_DECIDE))
        dec_v = np.zeros((MAX_DECIDE, 4))
        vote_x = np.zeros((MAX_VOTES, P.OPT_REFUSE + 1, P.N_VOTE))
        vote_v = np.zeros((MAX_VOTES, P.OPT_REFUSE + 1))
        vote_m = np.zeros((MAX_VOTES, 3), dtype=np.int64)
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        nd, nv = teacher_game_nb(flat, np.int64(seed), np.int64(start + i), np.int64(p), chars,
                                 pol, par, mask, np.int64(span), np.int64(wsize),
                                 np.int64(POLICIES["threshold"].id), bvec, dec_x, dec_v, vote_x,
                                 vote_v, vote_m, rec)
        return (dec_x[:nd].copy(), dec_v[:nd, DV_GAIN].copy(), dec_v[:nd, DV_BASELINE] > 0,
                vote_x[:nv].copy(), vote_v[:nv].copy(), vote_m[:nv, VM_BASELINE].copy())

    out = teacher_games(one, range(games), threads, progress, every=1000, rate=",.0f")
    idx = np.arange(start, start + games)

    def cat(j, shape, dtype=np.float64):
        parts = [r[j] for r in out]
        return np.concatenate(parts) if parts else np.zeros((0,) + shape, dtype=dtype)

    return TeacherData(
        cat(0, (P.N_DECIDE,)), cat(1, ()), cat(2, (), bool),
        np.repeat(idx, [len(r[1]) for r in out]),
        cat(3, (P.OPT_REFUSE + 1, P.N_VOTE)), cat(4, (P.OPT_REFUSE + 1,)), cat(5, (), np.int64),
        np.repeat(idx, [len(r[5]) for r in out]), time.perf_counter() - t0)


# =========================================================================== the fits
def _standardise(x: np.ndarray, keep: np.ndarray):
    """Column means and scales of ``x`` (scale 1 where a column is constant or ``keep``)."""
    mu = np.where(keep, 0.0, x.mean(axis=0)) if len(x) else np.zeros(x.shape[1])
    sd = x.std(axis=0) if len(x) else np.ones(x.shape[1])
    sd = np.where(keep | (sd < 1e-12), 1.0, sd)
    return mu, sd


def fit_decide(x: np.ndarray, gain: np.ndarray, l2: float = DEFAULT_L2) -> np.ndarray:
    """The stop-or-stay weights: a logistic regression of ``gain > TIE`` on ``x`` (its first
    column the bias), each row weighted by ``|gain|`` (the blood a wrong call costs in the
    teacher's values), minus ``l2 / 2`` times the squared weights of the standardised
    features (the bias not penalised); L-BFGS from zero, the weights folded back to the raw
    features.  Deterministic."""
    n, f = x.shape
    if n == 0:
        return np.zeros(f)
    const = np.zeros(f, dtype=bool)
    const[0] = True
    mu, sd = _standardise(x, const)
    z = (x - mu) / sd
    y = np.where(gain > TIE, 1.0, -1.0)
    w = np.abs(gain)
    w = w / w.sum() if w.sum() > 0 else np.full(n, 1.0 / n)
    beta = weighted_logistic(z, y, w, np.where(const, 0.0, 1.0), l2)
    raw = beta / sd
    raw[0] = beta[0] - np.sum(beta[1:] * mu[1:] / sd[1:])
    return raw


def best_option(values: np.ndarray) -> np.ndarray:
    """The teacher's option of each vote: the first moon of the highest value (within its
    tie), refusing only when better by more than the tie (``policies_nb.optimal_nb``)."""
    out = np.zeros(len(values), dtype=np.int64)
    best = values[:, 0].copy()
    for v in (1, 2):
        better = values[:, v] > best + TIE
        out[better] = v
        best = np.where(better, values[:, v], best)
    out[values[:, 3] > best + TIE] = 3
    return out


def fit_vote(x: np.ndarray, values: np.ndarray, l2: float = DEFAULT_L2) -> np.ndarray:
    """The vote weights: a conditional logit (softmax over the legal options) of the
    teacher's option (:func:`best_option`), each vote weighted by its best option's value
    over the second best, minus ``l2 / 2`` times the squared weights of the standardised
    features; L-BFGS from zero, folded back.  Deterministic."""
    n, k, f = x.shape
    if n == 0:
        return np.zeros(f)
    legal = np.isfinite(values)
    label = best_option(values)
    srt = np.sort(np.where(legal, values, -np.inf), axis=1)
    w = np.maximum(srt[:, -1] - srt[:, -2], 0.0)
    w = w / w.sum() if w.sum() > 0 else np.full(n, 1.0 / n)
    flat = x[legal]
    sd = flat.std(axis=0) if len(flat) else np.ones(f)
    sd = np.where(sd < 1e-12, 1.0, sd)
    return conditional_logit(x / sd, legal, label, w, l2) / sd


def decide_stays(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The distilled policy's stop-or-stay choice (the kernel's rule: stay when the score is
    positive)."""
    return x @ w > 0.0


def vote_choice(x: np.ndarray, values: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The distilled policy's option of each vote (the kernel's rule: the first moon of the
    highest score, refusing only when strictly higher)."""
    u = x @ w
    out = np.argmax(u[:, :3], axis=1)
    best = u[np.arange(len(u)), out]
    refuse = np.isfinite(values[:, 3]) & (u[:, 3] > best)
    out[refuse] = 3
    return out


# =========================================================================== the check
def focal_wins(rules, seed: int, games: int, players: Sequence[int], spec: PolicySpec,
               vector: np.ndarray, threads: int | None) -> tuple[np.ndarray, float]:
    """The focal seat's wins (``(games,)`` bool) when ``vector`` plays it (policy ``spec``)
    against a field of baselines, the games of ``simlib compare --game till-dawn``'s arm
    with these player counts and seed (its tables, seat rotation and game keys); and the
    kernel's seconds."""
    class Focal(Seat):  # the policies with this one (a fit not yet in its file)
        policies = {**POLICIES, spec.name: spec}

    focal = Focal(spec.name, tuple(float(v) for v in vector))
    base = Focal.make("threshold")
    tables = [[focal] + [base] * (p - 1) for p in players]
    npl, pol, par, _ = table_seats(tables, 0, games, Focal.policies, seats=K.MAX_SEATS,
                                   n_params=P.N_PARAMS)
    chars = np.full((games, K.MAX_SEATS), -1, dtype=np.int64)
    wsize = api.work_size(rules, [focal])
    m = min(games, 8)  # load the compiled kernel outside the timing
    api.run_kernel(rules, seed, 0, npl[:m], chars[:m], pol[:m], par[:m], wsize, threads)
    t = time.perf_counter()
    out = api.run_kernel(rules, seed, 0, npl, chars, pol, par, wsize, threads)
    dt = time.perf_counter() - t
    # the focal player sits in table seat 0: seat (p - r) % p of game i (core.seats)
    idx = np.arange(games)
    nt = len(tables)
    r = (idx // nt) % npl
    seat = (npl - r) % npl
    return out[idx, K.REC_WIN + seat] == 1, dt


class DistilResult(TrainingResult):
    """A fitted distilled policy, its held-out figures and its paired check."""

    def summary(self) -> str:
        t, c = self.training, self.check
        return "\n".join([
            f"teacher {self.settings['teacher']}: {t['train_games']} training games "
            f"({t['train_decisions']} stop-or-stay decisions, {t['train_votes']} votes), "
            f"{t['heldout_games']} held-out games; teacher games {t['teacher_seconds']:.0f} s, "
            f"fit {t['fit_seconds']:.1f} s",
            f"held-out stop-or-stay ({t['heldout_decisions']}): the teacher's call taken at "
            f"{t['agree_decide']:.2%} (threshold {t['agree_decide_baseline']:.2%}); the "
            f"teacher's blood given up over them, in all {t['regret_decide']:.1f} (threshold "
            f"{t['regret_decide_baseline']:.1f})",
            f"held-out votes ({t['heldout_votes']}): the teacher's option taken at "
            f"{t['agree_vote']:.2%} (threshold {t['agree_vote_baseline']:.2%}); the teacher's "
            f"blood given up over them, in all {t['regret_vote']:.1f} (threshold "
            f"{t['regret_vote_baseline']:.1f})",
            f"fresh seeds ({c['games']} games, seed {c['seed']}, players {c['players']}; the "
            "focal seat against threshold players): " + versus_sentence(c, label="threshold")])


def train_distilled(ruleset=None, players: Sequence[int] = DEFAULT_PLAYERS,
                    games: int = DEFAULT_GAMES, heldout: int | None = None, seed: int = 0,
                    teacher: str = DEFAULT_TEACHER, l2: float = DEFAULT_L2,
                    check_games: int = 20000, threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> DistilResult:
    """Teacher games, the fits, the held-out figures and the paired check; see the module's
    docstring.  Games ``0 .. games - 1`` of ``seed`` train, the next ``heldout`` (default: a
    quarter of ``games``, at least 1) are held out; the paired check plays ``check_games``
    games of seed ``seed + 1``.  ``ValueError`` for a bad argument, before any game."""
    heldout = check_training(games, heldout, seed, l2, check_games)
    rules = load_ruleset(ruleset)
    players = [api.check_players(p, rules) for p in players]
    if not players or len(set(players)) != len(players):
        raise ValueError(f"players must name distinct player counts; got {players!r}")
    tseat = Seat.of(teacher)
    if tseat.policy != "optimal":
        raise ValueError(f"the teacher must be the optimal player (optimal or "
                         f"optimal:blood_span=N); got {teacher!r}")

    data = collect_teacher(games + heldout, seed, 0, rules, players, tseat, threads, progress)
    dtrain, dheld = data.dec_game < games, data.dec_game >= games
    vtrain, vheld = data.vote_game < games, data.vote_game >= games
    t = time.perf_counter()
    wd = fit_decide(data.dec_x[dtrain], data.gain[dtrain], float(l2))
    wv = fit_vote(data.vote_x[vtrain], data.vote_v[vtrain], float(l2))
    fit_seconds = time.perf_counter() - t
    vec = np.zeros(P.N_DISTILLED_PARAMS)
    vec[P.DP_W_DECIDE:P.DP_W_VOTE] = wd
    vec[P.DP_W_VOTE:] = wv

    # held-out: the teacher's call, and the teacher's values given up
    g = data.gain[dheld]
    teach = g > TIE
    stays = decide_stays(data.dec_x[dheld], wd)
    bstays = data.dec_base[dheld]
    vv = data.vote_v[vheld]
    vbest = best_option(vv)
    vmine = vote_choice(data.vote_x[vheld], vv, wv)
    vbase = data.vote_base[vheld]
    rows = np.arange(len(vv))
    top = vv[rows, vbest]

    def share(a):
        return float(np.mean(a)) if len(a) else float("nan")

    training = {
        "train_games": int(games), "heldout_games": int(heldout),
        "train_decisions": int(dtrain.sum()), "train_votes": int(vtrain.sum()),
        "heldout_decisions": int(dheld.sum()), "heldout_votes": int(vheld.sum()),
        "teacher_stays": share(data.gain[dtrain] > TIE),
        "agree_decide": share(stays == teach), "agree_decide_baseline": share(bstays == teach),
        "regret_decide": float(np.abs(g)[stays != teach].sum()),
        "regret_decide_baseline": float(np.abs(g)[bstays != teach].sum()),
        "agree_vote": share(vmine == vbest), "agree_vote_baseline": share(vbase == vbest),
        "regret_vote": float((top - vv[rows, vmine]).sum()),
        "regret_vote_baseline": float((top - vv[rows, vbase]).sum()),
        "teacher_seconds": float(data.seconds), "fit_seconds": float(fit_seconds),
    }
    spec = PolicySpec("distilled", P.POLICY_DISTILLED, DISTILLED_PARAMS, tuple(vec), "")
    check_seed = seed + 1
    wdist, td = focal_wins(rules, check_seed, check_games, players, spec, vec, threads)
    wbase, tb = focal_wins(rules, check_seed, check_games, players, POLICIES["threshold"],
                           np.asarray(POLICIES["threshold"].defaults), threads)
    check = {"seed": int(check_seed), "games": int(check_games),
             "players": ",".join(map(str, players)), **versus(wbase, wdist, tb, td)}
    settings = {"teacher": str(tseat.label), "ruleset": rules.lineage,
                "ruleset_fingerprint": rules.fingerprint(),
                "players": ",".join(map(str, players)), "games": int(games),
                "heldout": int(heldout), "seed": int(seed), "l2": float(l2),
                "check_games": int(check_games), "check_seed": int(check_seed),
                "simlib_version": __version__}
    params = {nm: float(v) for nm, v in zip(DISTILLED_PARAMS, vec)}
    return DistilResult(params, settings, training, check)


def write_distilled(result: DistilResult, path: str | Path, command: str = "") -> Path:
    """Write the weights (source ``fit``) and their provenance; atomic."""
    return result.write(
        path, command=command,
        header=["The `distilled` policy of Till Dawn: the optimal player's values fitted into two",
                "linear scores of what a player sees (`simlib train-policy --game till-dawn`).",
                "Written by simlib.games.till_dawn.distil; re-create it with the command under",
                "[provenance] (the same arguments give the same weights)."],
        fit=("stop or stay: logistic regression weighted by the blood at stake; votes: "
             "conditional logit weighted by the best option's margin; L2, scipy L-BFGS-B from "
             "zero on standardised features"),
        features=f"{P.N_DECIDE} stop-or-stay, {P.N_VOTE} vote")
