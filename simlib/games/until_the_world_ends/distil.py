"""The ``distilled`` policy: the rollout player's values fitted into two linear scores.

*Teacher games* (``kernels/distil_nb.teacher_game_nb``): one seat plays the teacher (the
``rollout`` player: flat Monte Carlo over greedy continuations in worlds re-dealt from the
cards it cannot see), every other seat the default player (``greedy``), at every player
count of ``players`` in turn, the teacher's seat turning from game to game.  At each of the
teacher's turns and challenges with a choice, the distilled policy's features of every
legal action are written down (``policies_nb.turn_features_nb``,
``challenge_features_nb``: what a player sees) with the teacher's value of the action: its
mean share of the game's win over the teacher's worlds (the same worlds for every action).

The fits (deterministic: a linear solve on standardised features, folded back): for the
turns and for the challenges apart, a least-squares fit of the teacher's values centred on
each decision's mean by the features centred the same way (the score only has to rank a
decision's actions), with an L2 penalty.  The values of a few worlds are noisy; their
noise averages out over many decisions, where a choice between the actions of one
decision would keep it.

The fitted scores alone (before greedy's bonus) are measured on held-out teacher games (how
often they take the teacher's action, and the teacher's value they gain over greedy's
choice, a decision on average).  Greedy's choice then gets a bonus by table size, tuned on
paired games against greedy players (:func:`tune_bonus`: a one-step value overstates the
gain of a deviation made again and again).  Last, the fitted policy and greedy play the
same fresh games in the focal seat against greedy
players, as ``simlib compare --game until-the-world-ends --policy greedy --policy
distilled`` plays them (paired: Newcombe's interval, McNemar's test, the paired standard
error).  :func:`write_distilled` writes the weights with their provenance (teacher, games,
seed, simlib version, ruleset fingerprint) to
``data/until_the_world_ends/policies/distilled.toml``, the file the ``distilled`` policy
reads; ``simlib train-policy --game until-the-world-ends`` runs it all.

Every game is a pure function of (seed, game index), the teacher games are gathered in
game order whatever the threads, and the fits are deterministic, so the same arguments give
the same weights.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ...core.fit import check_int, check_training
from ...core.parallel import default_threads
from ...core.params import PolicySpec
from ...core.seats import table_seats
from ...core.train import (TrainingResult, paired_difference, rotation, teacher_games, versus,
                           versus_sentence)
from ...core.version import __version__
from . import api
from . import codes as K
from .kernels import policies_nb as P
from .policies import DISTILLED_PARAMS, POLICIES, Seat, distilled_path, read_distilled
from .ruleset import load_ruleset

__all__ = ["DistilResult", "train_distilled", "write_distilled", "read_distilled",
           "distilled_path", "collect_teacher", "fit_block", "TeacherData"]

DEFAULT_TEACHER = "rollout"
DEFAULT_PLAYERS = (2, 3, 4, 5, 6)  # the default study's player counts
DEFAULT_GAMES = 800
DEFAULT_L2 = 1e-2
MAX_DECISIONS = 4096  # decisions written per teacher game
MAX_ROWS = 4 * 4096  # action rows written per teacher game
GREEDY = (5.0, 5.0)  # the greedy choice the features name: greedy's defaults


@dataclasses.dataclass
class TeacherData:
    """The teacher's labelled decisions of some games, in game order."""

    xt: np.ndarray  # (rows, N_TURN) turn features of each action row (0 at a challenge)
    xc: np.ndarray  # (rows, N_CHALLENGE) challenge features (0 on a turn)
    val: np.ndarray  # (rows,) the teacher's value of the action (a share of the win)
    dec: np.ndarray  # (decisions, N_D) int64 (``distil_nb.D_*``; D_FIRST into these rows)
    dec_game: np.ndarray  # (decisions,) the game index
    seconds: float


def feature_vector(end_margin: float = GREEDY[0], challenge_margin: float = GREEDY[1]):
    """A distilled parameter vector with zero weights: what the features read of it."""
    vec = np.zeros(P.N_DISTILLED_PARAMS)
    vec[P.DP_END_MARGIN], vec[P.DP_CHALLENGE_MARGIN] = end_margin, challenge_margin
    return vec


def collect_teacher(games: int, seed: int, start: int, rules, players: Sequence[int],
                    teacher: Seat, threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> TeacherData:
    """Play teacher games ``start .. start + games - 1`` of ``seed`` (``core.train.rotation``:
    the teacher in one seat, greedy in the others) and gather the teacher's labelled
    decisions; one game per task on ``threads`` threads (the kernel releases the GIL),
    gathered in game order."""
    from .kernels.distil_nb import D_FIRST, N_D, teacher_game_nb

    flat = rules.flat()
    base = Seat.make("greedy")
    npl, tseat = rotation(players, games, start)
    tparams = np.asarray(teacher.vector(), dtype=np.float64)
    fparams = feature_vector()
    bvec = base.vector()
    threads = default_threads() if threads is None else int(threads)
    t0 = time.perf_counter()

    def one(i: int):
        p, ts = int(npl[i]), int(tseat[i])
        pol = np.full(p, POLICIES["greedy"].id, dtype=np.int64)
        par = np.tile(bvec, (p, 1))
        mask = np.zeros(p, dtype=np.int64)
        mask[ts] = 1
        xt = np.zeros((MAX_ROWS, P.N_TURN))
        xc = np.zeros((MAX_ROWS, P.N_CHALLENGE))
        val = np.zeros(MAX_ROWS)
        dec = np.zeros((MAX_DECISIONS, N_D), dtype=np.int64)
        rec = np.zeros(K.rec_size(K.record_seats(p)), dtype=np.int64)
        nr, nd = teacher_game_nb(flat, np.int64(seed), np.int64(start + i), np.int64(p), pol,
                                 par, mask, tparams, fparams, xt, xc, val, dec, rec)
        return xt[:nr].copy(), xc[:nr].copy(), val[:nr].copy(), dec[:nd].copy()

    out = teacher_games(one, range(games), threads, progress)
    offset = 0
    decs = []
    for r in out:
        d = r[3].copy()
        d[:, D_FIRST] += offset
        offset += len(r[2])
        decs.append(d)
    idx = np.arange(start, start + games)
    return TeacherData(
        np.concatenate([r[0] for r in out]) if out else np.zeros((0, P.N_TURN)),
        np.concatenate([r[1] for r in out]) if out else np.zeros((0, P.N_CHALLENGE)),
        np.concatenate([r[2] for r in out]) if out else np.zeros(0),
        np.concatenate(decs) if decs else np.zeros((0, N_D), dtype=np.int64),
        np.repeat(idx, [len(r[3]) for r in out]), time.perf_counter() - t0)


# =========================================================================== the fits
def _rows(data: TeacherData, sel: np.ndarray):
    """The action rows of the decisions ``sel`` (bool over decisions): their row indices and
    each row's decision (an index into ``sel``'s decisions)."""
    from .kernels.distil_nb import D_FIRST, D_N

    d = data.dec[sel]
    n = d[:, D_N]
    which = np.repeat(np.arange(len(d)), n)
    first = np.repeat(d[:, D_FIRST], n)
    pos = np.arange(len(which)) - np.repeat(np.cumsum(n) - n, n)
    return first + pos, which


def centred(x: np.ndarray, which: np.ndarray, k: int) -> np.ndarray:
    """``x`` (rows, ...) less the mean of its decision's rows (``which``: each row's decision
    among ``k``)."""
    cnt = np.bincount(which, minlength=k).astype(np.float64)
    cnt[cnt == 0] = 1.0
    if x.ndim == 1:
        return x - (np.bincount(which, weights=x, minlength=k) / cnt)[which]
    sums = np.zeros((k, x.shape[1]))
    np.add.at(sums, which, x)
    return x - (sums / cnt[:, None])[which]


def fit_block(x: np.ndarray, val: np.ndarray, which: np.ndarray, k: int,
              l2: float = DEFAULT_L2) -> np.ndarray:
    """The weights of one score: least squares of the values centred on their decision's
    mean by the features centred the same way, on standardised features with ``l2`` times
    the rows as the ridge, folded back.  A feature constant within every decision gets 0.
    Deterministic."""
    f = x.shape[1]
    if len(x) == 0:
        return np.zeros(f)
    z = centred(x, which, k)
    y = centred(val, which, k)
    sd = np.sqrt((z * z).mean(axis=0))
    live = sd > 1e-12
    zs = z[:, live] / sd[live]
    a = zs.T @ zs + l2 * len(zs) * np.eye(int(live.sum()))
    beta = np.linalg.solve(a, zs.T @ y)
    out = np.zeros(f)
    out[live] = beta / sd[live]
    return out


def choices(x: np.ndarray, w: np.ndarray, data: TeacherData, sel: np.ndarray,
            challenge: bool) -> np.ndarray:
    """The distilled policy's action (index among the decision's) at the decisions ``sel``
    (the kernel's rule: the first action of the highest score; a challenge when its score
    is higher than letting the ending stand)."""
    from .kernels.distil_nb import D_FIRST, D_N

    d = data.dec[sel]
    out = np.zeros(len(d), dtype=np.int64)
    s = x @ w
    for j, (f, n) in enumerate(zip(d[:, D_FIRST], d[:, D_N])):
        sc = s[f:f + n]
        if challenge:  # legal order: challenge, decline
            out[j] = 0 if sc[0] > sc[1] else 1
        else:
            out[j] = int(np.argmax(sc))
    return out


# =========================================================================== the check
def focal_wins(rules, seed: int, games: int, players: Sequence[int], spec: PolicySpec,
               vector: np.ndarray, threads: int | None) -> tuple[np.ndarray, np.ndarray, float]:
    """The focal seat's wins (``(games,)`` bool, a shared win counts) and the games' player
    counts when ``vector`` plays it (policy ``spec``) against greedy players, the games of
    ``simlib compare --game until-the-world-ends``'s arm with these player counts and seed
    (its tables, seat rotation and game keys); and the kernel's seconds."""
    class Focal(Seat):  # the policies with this one (a fit not yet in its file)
        policies = {**POLICIES, spec.name: spec}

    focal = Focal(spec.name, tuple(float(v) for v in vector))
    base = Focal.make("greedy")
    tables = [[focal] + [base] * (p - 1) for p in players]
    npl, pol, par, _ = table_seats(tables, 0, games, Focal.policies, seats=max(players),
                                   n_params=P.N_PARAMS)
    m = min(games, 8)  # load the compiled kernel outside the timing
    api.run_kernel(rules, seed, 0, npl[:m], pol[:m], par[:m], threads)
    t = time.perf_counter()
    out = api.run_kernel(rules, seed, 0, npl, pol, par, threads)
    dt = time.perf_counter() - t
    # the focal player sits in table seat 0: seat (p - r) % p of game i (core.seats)
    idx = np.arange(games)
    nt = len(tables)
    r = (idx // nt) % npl
    seat = (npl - r) % npl
    width = K.seats_of_record(out.shape[1])
    return out[idx, K.REC_SEATS + K.RS_WIN * width + seat] == 1, npl, dt


BONUS_GRID = (0.0, 0.0025, 0.005, 0.01, 0.02, 1.0)  # 1: greedy's choice always stands
DEFAULT_TUNE_GAMES = 3000


def tune_bonus(rules, seed: int, games: int, players: Sequence[int], vec: np.ndarray,
               threads: int | None, grid: Sequence[float] = BONUS_GRID,
               progress: Callable[[str], None] | None = None) -> tuple[np.ndarray, dict]:
    """Greedy's choice's bonus for each table size of ``players`` (and of ``BONUS_PLAYERS``:
    a size not played takes the nearest played one's): ``games`` games of ``seed`` at that
    size with each bonus of ``grid`` in the focal seat against greedy players, beside greedy
    in it; the bonus of the highest paired difference less one standard error (greedy's
    own choice, the bonus 1, has 0).  A one-step estimate of a deviation's gain overstates
    the gain of making it again and again (holding a card greedy would play, turn after
    turn), and how much depends on the table.  Returns the vector with the bonuses, and
    ``{"tune_<p>_bonus_<bonus, its dot a p>": paired difference}`` (``tune_5_bonus_0p005``)."""
    spec = PolicySpec("distilled", P.POLICY_DISTILLED, DISTILLED_PARAMS, tuple(vec), "")
    out = np.asarray(vec, dtype=np.float64).copy()
    got, table = {}, {}
    for p in players:
        wg, _, _ = focal_wins(rules, seed, games, [p], POLICIES["greedy"],
                              np.asarray(POLICIES["greedy"].defaults), threads)
        best, best_lb = 1.0, 0.0
        for b in grid:
            v = out.copy()
            v[P.DP_BONUS:P.DP_W_TURN] = b
            wd, _, _ = focal_wins(rules, seed, games, [p], spec, v, threads)
            d, se = paired_difference(wg, wd)
            table[f"tune_{p}_bonus_{b:g}".replace(".", "p")] = d  # a TOML bare key: no dot
            if d - se > best_lb:
                best, best_lb = float(b), d - se
        got[p] = best
        if progress is not None:
            progress(f"tuning {p} players: greedy's bonus {best:g}")
    for i, p in enumerate(P.BONUS_PLAYERS):
        near = min(got, key=lambda q: (abs(q - p), q))
        out[P.DP_BONUS + i] = got[near]
    return out, table


class DistilResult(TrainingResult):
    """A fitted distilled policy, its held-out figures and its paired check."""

    def summary(self) -> str:
        t, c = self.training, self.check
        return "\n".join([
            f"teacher {self.settings['teacher']}: {t['train_games']} training games "
            f"({t['train_turns']} turns, {t['train_challenges']} challenges), "
            f"{t['heldout_games']} held-out games; teacher games {t['teacher_seconds']:.0f} s, "
            f"fit {t['fit_seconds']:.1f} s, tuning {t['tune_seconds']:.0f} s",
            "greedy's bonus by table size: " + ", ".join(
                f"{p} players {self.params[f'greedy_bonus_{p}']:g}" for p in P.BONUS_PLAYERS),
            "held-out figures of the fitted scores alone (before greedy's bonus):",
            f"held-out turns ({t['heldout_turns']}): the teacher's action taken at "
            f"{t['agree_turn']:.2%} (greedy {t['agree_turn_greedy']:.2%}); the teacher's value "
            f"gained over greedy's choice {t['gain_turn']:+.5f} a turn",
            f"held-out challenges ({t['heldout_challenges']}): the teacher's choice taken at "
            f"{t['agree_challenge']:.2%} (greedy {t['agree_challenge_greedy']:.2%}); the "
            f"teacher's value gained over greedy's choice {t['gain_challenge']:+.5f} a challenge",
            f"fresh seeds ({c['games']} games, seed {c['seed']}, players {c['players']}; the "
            "focal seat against greedy players): "
            + versus_sentence(c, label="greedy")])


def paired_check(rules, seed: int, games: int, players: Sequence[int], vec: np.ndarray,
                 threads: int | None) -> dict:
    """The distilled vector ``vec`` and greedy in the focal seat of the same games."""
    spec = PolicySpec("distilled", P.POLICY_DISTILLED, DISTILLED_PARAMS, tuple(vec), "")
    wdist, npl, td = focal_wins(rules, seed, games, players, spec, vec, threads)
    wbase, _, tb = focal_wins(rules, seed, games, players, POLICIES["greedy"],
                              np.asarray(POLICIES["greedy"].defaults), threads)
    out = {"seed": int(seed), "games": int(games), "players": ",".join(map(str, players)),
           **versus(wbase, wdist, tb, td)}
    for p in players:
        sel = npl == p
        out[f"rate_distilled_{p}"] = float(wdist[sel].mean()) if sel.any() else float("nan")
        out[f"rate_baseline_{p}"] = float(wbase[sel].mean()) if sel.any() else float("nan")
    return out


def train_distilled(ruleset=None, players: Sequence[int] = DEFAULT_PLAYERS,
                    games: int = DEFAULT_GAMES, heldout: int | None = None, seed: int = 0,
                    teacher: str = DEFAULT_TEACHER, l2: float = DEFAULT_L2,
                    check_games: int = 20000, tune_games: int = DEFAULT_TUNE_GAMES,
                    threads: int | None = None,
                    progress: Callable[[str], None] | None = None) -> DistilResult:
    """Teacher games, the fits, the held-out figures, the bonuses' tuning and the paired
    check; see the module's docstring.  Games ``0 .. games - 1`` of ``seed`` train, the next
    ``heldout`` (default: a quarter of ``games``, at least 1) are held out; the bonuses are
    tuned on ``tune_games`` games a table size of seed ``seed + 2`` (:func:`tune_bonus`); the
    paired check plays ``check_games`` games of seed ``seed + 1``.  ``ValueError`` for a
    bad argument, before any game."""
    from .kernels.distil_nb import D_GREEDY, D_PHASE, D_TEACHER

    heldout = check_training(games, heldout, seed, l2, check_games)
    check_int("tune_games", tune_games, 1)
    rules = load_ruleset(ruleset)
    players = [api.check_players(p, rules) for p in players]
    if not players or len(set(players)) != len(players):
        raise ValueError(f"players must name distinct player counts; got {players!r}")
    tseat = Seat.of(teacher)
    if tseat.policy != "rollout":
        raise ValueError(f"the teacher must be the rollout player (rollout or "
                         f"rollout:rollouts=N...; clairvoyant peeks); got {teacher!r}")

    data = collect_teacher(games + heldout, seed, 0, rules, players, tseat, threads, progress)
    train = data.dec_game < games
    turn = data.dec[:, D_PHASE] == K.PH_TURN
    t = time.perf_counter()
    w = {}
    for name, sel, x in (("turn", train & turn, data.xt), ("challenge", train & ~turn, data.xc)):
        rows, which = _rows(data, sel)
        w[name] = fit_block(x[rows], data.val[rows], which, int(sel.sum()), float(l2))
    fit_seconds = time.perf_counter() - t
    vec = feature_vector()
    vec[P.DP_W_TURN:P.DP_W_CHALLENGE] = w["turn"]
    vec[P.DP_W_CHALLENGE:] = w["challenge"]

    # held-out: the teacher's action, and the teacher's value gained over greedy's choice
    held = {}
    for name, sel, x in (("turn", ~train & turn, data.xt), ("challenge", ~train & ~turn, data.xc)):
        d = data.dec[sel]
        mine = choices(x, w[name], data, sel, name == "challenge")
        first = d[:, 1]
        gain = data.val[first + mine] - data.val[first + d[:, D_GREEDY]]
        held[name] = (int(sel.sum()),
                      float(np.mean(mine == d[:, D_TEACHER])) if len(d) else float("nan"),
                      float(np.mean(d[:, D_GREEDY] == d[:, D_TEACHER])) if len(d) else float("nan"),
                      float(gain.mean()) if len(d) else float("nan"))
    training = {
        "train_games": int(games), "heldout_games": int(heldout),
        "train_turns": int((train & turn).sum()), "train_challenges": int((train & ~turn).sum()),
        "heldout_turns": held["turn"][0], "heldout_challenges": held["challenge"][0],
        "agree_turn": held["turn"][1], "agree_turn_greedy": held["turn"][2],
        "gain_turn": held["turn"][3],
        "agree_challenge": held["challenge"][1], "agree_challenge_greedy": held["challenge"][2],
        "gain_challenge": held["challenge"][3],
        "teacher_seconds": float(data.seconds), "fit_seconds": float(fit_seconds),
    }
    t = time.perf_counter()
    vec, tuning = tune_bonus(rules, seed + 2, tune_games, players, vec, threads,
                             progress=progress)
    training["tune_seconds"] = time.perf_counter() - t
    training.update(tuning)
    check_seed = seed + 1
    check = paired_check(rules, check_seed, check_games, players, vec, threads)
    settings = {"teacher": str(tseat.label), "ruleset": rules.lineage,
                "ruleset_fingerprint": rules.fingerprint(),
                "players": ",".join(map(str, players)), "games": int(games),
                "heldout": int(heldout), "seed": int(seed), "l2": float(l2),
                "check_games": int(check_games), "check_seed": int(check_seed),
                "tune_games": int(tune_games), "tune_seed": int(seed + 2),
                "bonus_grid": ",".join(f"{b:g}" for b in BONUS_GRID),
                "simlib_version": __version__}
    params = {nm: float(v) for nm, v in zip(DISTILLED_PARAMS, vec)}
    return DistilResult(params, settings, training, check)


def write_distilled(result: DistilResult, path: str | Path, command: str = "") -> Path:
    """Write the weights (source ``fit``; greedy's margins ``assumed``) and their
    provenance; atomic."""
    return result.write(
        path, command=command,
        header=["The `distilled` policy of Until the World Ends: the rollout player's values",
                "fitted into two linear scores of what a player sees (`simlib train-policy",
                "--game until-the-world-ends`).  Written by",
                "simlib.games.until_the_world_ends.distil; re-create it with the command under",
                "[provenance] (the same arguments give the same weights)."],
        fit=("turns and challenges apart: least squares of the teacher's values centred on "
             "each decision's mean by the features centred the same way; L2 on standardised "
             "features, a linear solve; greedy's bonus by table size tuned on paired games "
             "against greedy players (the highest difference less one standard error, of "
             "bonus_grid)"),
        features=f"{P.N_TURN} turn, {P.N_CHALLENGE} challenge",
        source=lambda k: ("assumed" if k in ("end_margin", "challenge_margin") else
                          "tuned" if k.startswith("greedy_bonus") else "fit"))
