"""Until Daylight's speed experiments (issue #33): developer figures, not shipped in the wheel.

``simlib bench`` run in a source checkout adds the lines of :data:`NOTES` after the
benchmark each one names (``simlib.core.bench`` finds ``benchmarks/<game>_speed.py`` by the
game's name); an installed simlib prints the table and the game's own headline without them.

* the rollout player's games per second and the search's own work per continuation
  (:func:`rollout_report`);
* whole games of the search players beside the baseline, and their rates on two threads
  against issue #33's targets (:func:`search_note`);
* what ``simulate`` adds to its kernel on the same games (:func:`study_overhead`,
  :func:`layer_share`; also ``benchmarks/study_layer.py`` and ``strong_players.py``).

    python benchmarks/until_daylight_speed.py     # these notes alone, measured here
"""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from simlib.core.bench import measure_all, si
from simlib.core.benchkit import SEED, Bench, ReportContext, jit_driver
from simlib.games.until_daylight.benches import reference_rules


def rollout_report(cal=None, target: float = 0.02) -> str:
    """rollout-100's full games per second per core, and the search's own overhead per
    continuation (clone, re-key, record, value) as a share of a whole continuation."""
    ro, full, setup = measure_all([rollout_bench(), continuation_bench(),
                                   continuation_bench(setup_only=True)], target, 1, 3, cal)
    share = full.ops_per_s / setup.ops_per_s
    return (f"rollout-100: {ro.ops_per_s:.2f} full games per second per core (reference, 4 "
            f"players, 1 thread); a continuation: {si(full.ops_per_s)}/s, the search's own "
            f"work in it (clone, re-key, record, value): {si(setup.ops_per_s)}/s = "
            f"{100 * share:.1f} % of a continuation's time")


def rollout_bench(policy: str = "rollout-100", players: int = 4) -> Bench:
    """Full games of a search player through the runner (reference ruleset, 1 thread)."""
    from simlib.games.until_daylight.api import play_games

    rules, _ = reference_rules()

    def run(n):
        play_games(n, players=players, seed=SEED, policy=policy, threads=1, ruleset=rules)

    # the same 8 games in every block (about 1.5 s at rollout-100)
    return Bench("rollout", f"one full game ({players} players, {policy})", run,
                 guarded=False, fixed_n=8)


def _search_positions(k: int = 16, depth: int = 12, players: int = 4):
    """``k`` reference games stopped at a decision after ``depth`` baseline decisions."""
    from simlib.games.until_daylight.step import Game

    out = []
    i = 0
    while len(out) < k:
        g = Game(seed=SEED, game=i, players=players, ruleset=reference_rules()[0])
        for _ in range(depth):
            if g.over:
                break
            g.apply(g.policy_choice("baseline"))
        if not g.over:
            out.append(g)
        i += 1
    return out


def continuation_bench(setup_only: bool = False, per_call: int = 8) -> Bench:
    """One continuation of the rollout player from a fixed set of decisions.

    ``setup_only=False``: the whole continuation (``continuations_nb``, ``per_call`` at a
    time: clone, re-key, the baseline playing to the end, the record).  ``True``: only the
    search's own work around the play (clone, continuation key, re-key with canonical
    unseen decks, the record, the value), so the two rates give the share of a
    continuation's time that is the search's overhead rather than the game."""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels import game_nb as G
    from simlib.games.until_daylight.kernels import search_nb as S
    from simlib.games.until_daylight.policies import resolve_policy, resolve_search

    games = _search_positions()
    rs = games[0].rs
    pid, pp = resolve_policy("baseline")
    _, _, rp = resolve_search("rollout-100", None)
    sts = [g.state for g in games]
    out = np.zeros((per_call, K.N_REC), dtype=np.int64)
    if not setup_only:
        pid64 = np.int64(pid)

        def run(n):
            done = 0
            j = 0
            while done < n:
                m = min(per_call, n - done)
                S.continuations_nb(sts[j], rs, pid64, pp, np.int64(-1), np.int64(done),
                                   np.int64(m), np.int64(0), out)
                done += m
                j = (j + 1) % len(sts)

        return Bench("continuation", "one rollout continuation (reference)", run,
                     guarded=False, fixed_n=256)

    stack = np.stack(sts)
    work = np.empty(stack.shape[1], dtype=np.int64)
    rec = np.zeros(K.N_REC, dtype=np.int64)
    clone, key_of, set_rekey = S.clone_into_nb, S.continuation_key_nb, G.set_rekey_nb
    restore, rekey, record, value = G.restore_nb, G.rekey_now_nb, G.write_record_nb, S.rollout_value_nb

    def drive(stack, rs, rp, work, rec, n):
        s = 0.0
        j = 0
        for r in range(n):
            st = stack[j]
            clone(work, st)
            set_rekey(work, np.int64(key_of(st[K.G_GAME_KEY], st[K.G_DECISIONS], r)))
            restore(work)
            rekey(work)
            record(work, rs, -1, rec)
            s += value(rec, rs, rp)
            j += 1
            if j == stack.shape[0]:
                j = 0
        return s

    d = jit_driver(drive)

    def run(n):
        return d(stack, rs, rp, work, rec, np.int64(n))

    return Bench("continuation_setup", "a continuation's search overhead (no play)", run,
                 guarded=False, fixed_n=256)


def search_games_bench(policy: str = "rollout-100", horizon: int = 2, games: int = 2,
                       players: int = 4) -> Bench:
    """Whole games of a search player (calibrated, 1 thread, the same games every block)."""
    from simlib.games.until_daylight.api import play_games
    from simlib.games.until_daylight.ruleset import load_ruleset

    rules = load_ruleset(None)
    params = {"horizon": horizon} if policy != "baseline" else None

    def run(n):
        play_games(n, players=players, seed=SEED, policy=policy, policy_params=params,
                   threads=1, ruleset=rules)

    return Bench(f"games_{policy}", f"one full game ({policy}, calibrated, 1 thread)", run,
                 guarded=False, min_n=games, fixed_n=games)


def search_note(m, ctx: ReportContext) -> list[str]:
    """Whole games of the search players beside the baseline's, each measured against the
    calibration loop of its own windows: their ratio is the speeds' ratio on the same
    machine load."""
    if ctx.quick:
        return ["search players' whole games: not measured with --quick"]
    ms = measure_all([search_games_bench("baseline", games=256), search_games_bench(),
                      search_games_bench("rollout-1000", games=1)], ctx.target, 1, 3,
                     ctx.calibrator)

    def per_cal(x):
        return x.ops_per_s / x.cal_ops_per_s

    out = [f"search players (calibrated, horizon 2, 4 players, 1 thread): baseline "
           f"{ms[0].ops_per_s:,.0f} games/s"]
    for name, x in (("rollout-100", ms[1]), ("rollout-1000", ms[2])):
        out.append(f"          {name}: {x.ops_per_s:.2f} games/s per core, 1/"
                   f"{per_cal(ms[0]) / per_cal(x):,.0f} of the baseline's")
    out.append("          on 2 threads (issue #33's targets: 20 and 3 games/s on 2 cores): "
               + ", ".join(f"{name} {rate:.2f} games/s" for name, rate in _two_thread_rates()))
    return out


SEARCH_TARGET_GAMES = (("rollout-100", 60), ("rollout-1000", 24))  # games per measurement


def _two_thread_rates(threads: int = 2) -> list[tuple[str, float]]:
    """Whole calibrated games of each search player on ``threads`` threads, the way a
    study plays them (wall clock, games 0 .. n-1 of the bench's seed, best of 2): what
    issue #33's targets are stated in.  A lower bound on a busy machine."""
    import time

    from simlib.games.until_daylight.api import play_games
    from simlib.games.until_daylight.ruleset import load_ruleset

    rules = load_ruleset(None)
    rates = []
    for policy, games in SEARCH_TARGET_GAMES:
        best = 0.0
        for _ in range(2):
            t = time.perf_counter()
            play_games(games, players=4, seed=SEED, policy=policy, policy_params={"horizon": 2},
                       threads=threads, ruleset=rules)
            best = max(best, games / (time.perf_counter() - t))
        rates.append((policy, best))
    return rates


STUDY_GAMES = 200_000  # issue #33: the same 200,000 games through play_games and simulate
STUDY_ROUNDS = 3  # rounds of the three calls, in alternating order; medians of the rounds


def study_overhead(games: int = STUDY_GAMES, rounds: int = STUDY_ROUNDS, threads: int = 2,
                   say: Callable[[str], None] | None = None) -> dict[str, list[tuple[float, float]]]:
    """What ``simlib.simulate`` adds to its kernel (issue #33): the same ``games`` games
    (reference ruleset, 4 players, baseline, seed = the round) through ``api.play_games``
    in one call, through ``simulate`` (records kept, the default up to 10^6 games) and
    ``simulate(keep_records=False)``, in one process, ``rounds`` rounds in alternating
    order.  Returns each variant's ``(wall s, CPU s)`` per round (CPU: user + system of
    the process, all threads: on a machine shared with other jobs the wall time also
    measures the share of the cores each call got); ``say`` gets one line per round."""
    import os
    import resource
    import time

    from simlib.core.games import get_game
    from simlib.games.until_daylight.api import play_games

    simulate = get_game("until_daylight").simulate  # what simlib.simulate calls

    kw = dict(players=4, ruleset="reference", threads=threads)
    play_games(64, **kw)  # compile or load, outside the timing
    simulate(2000, progress=False, **kw)

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    calls = {"play_games": lambda r: play_games(games, seed=r, **kw),
             "simulate": lambda r: simulate(games, seed=r, progress=False, **kw),
             "counts only": lambda r: simulate(games, seed=r, progress=False,
                                                      keep_records=False, **kw)}
    out: dict[str, list[tuple[float, float]]] = {k: [] for k in calls}
    for r in range(rounds):
        for k in (list(calls) if r % 2 == 0 else list(calls)[::-1]):  # a drift hits each alike
            c, t = cpu(), time.perf_counter()
            calls[k](r)
            out[k].append((time.perf_counter() - t, cpu() - c))
        if say is not None:
            (w0, c0) = out["play_games"][-1]
            say(f"round {r + 1} (load average {os.getloadavg()[0]:.1f}): play_games "
                f"{w0:.2f} s wall, {c0:.2f} s CPU; " + "; ".join(
                    f"{k} {w:.2f} s ({100 * (w / w0 - 1):+.1f} %), {c:.2f} s CPU "
                    f"({100 * (c / c0 - 1):+.1f} %)"
                    for k, (w, c) in ((k, out[k][-1]) for k in ("simulate", "counts only"))))
    return out


def overhead_summary(out: Mapping[str, list[tuple[float, float]]]) -> dict[str, tuple[float, float]]:
    """Median over the rounds of each variant's (wall, CPU) over ``play_games``'s, minus 1."""
    import statistics

    base = out["play_games"]
    return {k: (statistics.median(w / b[0] - 1 for (w, _), b in zip(v, base)),
                statistics.median(c / b[1] - 1 for (_, c), b in zip(v, base)))
            for k, v in out.items() if k != "play_games"}


def layer_share(games: int = 10_000, repeats: int = 5,
                ruleset: str = "reference") -> tuple[float, float, float]:
    """The study layer's own work on one chunk of ``games`` games (4 players, baseline;
    the reference ruleset by default) against its kernel's, each in CPU time of the calling thread (the kernel on
    one thread, so in the same thread; best of ``repeats`` chunks): ``(kernel s, records
    path s, counts path s)``.  The records path builds the records frame and counts the
    kernel's codes (what ``simulate`` does per chunk with records kept), the counts path
    only counts them (``keep_records=False``).  A ratio of two CPU times of one thread, a
    moment apart: far steadier on a shared machine than the whole calls' times."""
    import time

    from simlib.games.until_daylight.study import make_adapter

    ad = make_adapter(players=[4], seed=0, ruleset=ruleset)
    ad.play_array(0, 8, 1)  # compile or load, outside the timing
    tk, tr, tc = [], [], []
    for r in range(repeats):
        t = time.thread_time()
        out = ad.play_array(games * r, games, 1)
        tk.append(time.thread_time() - t)
        t = time.thread_time()
        ad._records_and_counts(out)
        tr.append(time.thread_time() - t)
        t = time.thread_time()
        ad._counts(out)
        tc.append(time.thread_time() - t)
    return min(tk), min(tr), min(tc)


def study_note(m, ctx: ReportContext) -> list[str]:
    """The study layer's overhead (issue #33's 5 % target): ``simulate`` over
    ``play_games`` on the same games in this process (:func:`study_overhead`)."""
    import numba

    head = (f"simulate over play_games (the same {STUDY_GAMES:,} reference games, 4 players, "
            "baseline, 2 threads")
    if ctx.quick:  # a minute of games, not seconds
        return [f"{head}): not measured with --quick"]
    if numba.config.NUMBA_NUM_THREADS < 2:
        return [f"{head}): not measured (numba has one thread)"]
    s = overhead_summary(study_overhead())
    (ws, cs), (wn, cn) = s["simulate"], s["counts only"]
    k, rec, cnt = layer_share()
    return [f"{head}; median of {STUDY_ROUNDS} rounds in alternating order): CPU time "
            f"{100 * cs:+.1f} % with records, {100 * cn:+.1f} % counts only; wall time "
            f"{100 * ws:+.1f} % and {100 * wn:+.1f} %",
            f"          the study layer's own work on a chunk of 10,000 of those games (CPU "
            f"time of one thread, best of 5): records frame and counts {100 * rec / k:.1f} %, "
            f"counts only {100 * cnt / k:.1f} % of its kernel's {k:.2f} s"]


def runner_note(m, ctx: ReportContext) -> list[str]:
    """After the runner's headline: the rollout player (a minute: not with ``--quick``)."""
    if ctx.quick:
        return ["rollout-100: not measured with --quick"]
    return [rollout_report(ctx.calibrator, ctx.target)]


# benchmark name -> the lines ``simlib bench`` adds after that benchmark's own note
NOTES: dict[str, Callable[[object, ReportContext], list[str]]] = {
    "runner": runner_note,
    "game": study_note,
    "search": search_note,
}


if __name__ == "__main__":
    from simlib.core.bench import Calibrator

    cal = Calibrator(0.01)
    ctx = ReportContext({}, cal, 0.02)
    for name, note in NOTES.items():
        print(f"[{name}]")
        for line in note(None, ctx):
            print(line)
