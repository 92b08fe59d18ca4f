"""Until Daylight's speed benchmarks (the kernels the speed guard watches).

Each factory returns a :class:`simlib.core.benchkit.Bench`: ``run(n)`` performs ``n``
operations, the same ones in every block (fixed seeds and cases).  ``BENCH_FACTORIES``
(declared as ``GameInfo.benches``) is what :mod:`simlib.core.bench` (the generic timing,
calibration, floors and guard) measures; the runner, declared first, is the game's
headline, and its note adds the game's own figures to ``simlib bench``'s report
(decisions per second, two threads).  Issue #33's speed experiments (the search players,
the study layer's overhead) are developer tooling: ``benchmarks/until_daylight_speed.py``,
whose notes ``simlib bench`` adds in a source checkout.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from simlib.core.benchkit import SEED, Bench, ReportContext, jit_driver

TWO_THREAD_GAMES = 8192  # games per block of the 2-thread figure
TWO_THREAD_ROUNDS = 9  # rounds of a 1-thread block then a 2-thread block; median ratio

_RULES = None


def reference_rules():
    """The reference ruleset and its packed arrays (loaded once)."""
    global _RULES
    if _RULES is None:
        from simlib.games.until_daylight.ruleset import load_ruleset

        r = load_ruleset("reference")
        _RULES = (r, r.pack())
    return _RULES


def _dice_cases(pk, rng, m, lo, hi):
    """(h, b, x) of ``m`` rolls of ``lo..hi`` dice of the ruleset's combat die."""
    from simlib.games.until_daylight.codes import FACE_B, FACE_H

    out = np.zeros((m, 3), dtype=np.int64)
    for j in range(m):
        faces = rng.choice(pk.die_faces, size=int(rng.integers(lo, hi + 1)))
        h = int((faces == FACE_H).sum())
        b = int((faces == FACE_B).sum())
        out[j] = h, b, len(faces) - h - b
    return out


def roll_dice_bench(kernel=None, k: int = 6) -> Bench:
    """A roll of ``k`` combat dice (default kernel: ``roll_faces_nb``)."""
    from simlib.core.rng import make_streams
    from simlib.games.until_daylight.codes import STREAM_DICE
    from simlib.games.until_daylight.kernels.combat_nb import roll_faces_nb

    kern = roll_faces_nb if kernel is None else kernel
    _, pk = reference_rules()
    die = pk.die_faces
    rng0 = make_streams(SEED, 0)
    rng = rng0.copy()
    faces = np.zeros(16, dtype=np.int64)
    stream = STREAM_DICE

    def drive(rng, rng0, k, die, faces, n):
        for i in range(rng.shape[0]):
            rng[i] = rng0[i]
        s = 0
        for _ in range(n):
            h, b, x = kern(rng, stream, k, die, faces)
            s += h * 3 + b
        return s

    d = jit_driver(drive)
    kk = np.int64(k)

    def run(n):
        return d(rng, rng0, kk, die, faces, np.int64(n))

    cc = (roll_faces_nb, (rng, np.int64(stream), kk, die, faces)) if kernel is None else None
    return Bench("roll_dice", f"roll of {k} combat dice", run, compile_case=cc,
                 calibration="chain", pure_n=2000)


def player_attack_bench(kernel=None, cases: int = 256) -> Bench:
    """One player attack on an area (default kernel: ``player_attack_area_nb``)."""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels.combat_nb import player_attack_area_nb

    kern = player_attack_area_nb if kernel is None else kernel
    _, pk = reference_rules()
    tab = pk.enemy_tab
    r = np.random.default_rng(SEED)
    cap = 16
    weights = tab[:, K.E_COUNT] / tab[:, K.E_COUNT].sum()
    ns = r.integers(1, 11, size=cases).astype(np.int64)
    areas = np.zeros((cases, cap), dtype=np.int64)
    for j in range(cases):
        areas[j, : ns[j]] = r.choice(len(tab), size=ns[j], p=weights)
    hbx = _dice_cases(pk, r, cases, 1, 8)
    hs = np.ascontiguousarray(hbx[:, 0])
    bs = np.ascontiguousarray(hbx[:, 1])
    sb = np.int64(pk.params[K.P_V_SURVIVORS_BLOCK])
    row = np.zeros(cap, dtype=np.int64)
    line = np.zeros(cap, dtype=np.int64)
    killed = np.zeros(cap, dtype=np.int64)

    def drive(areas, ns, hs, bs, tab, sb, row, line, killed, n):
        m = areas.shape[0]
        j = 0
        s = 0
        for _ in range(n):
            nn = ns[j]
            for q in range(nn):
                row[q] = areas[j, q]
            kills, new_n = kern(row, nn, tab, hs[j], bs[j], sb, line, killed)
            s += kills * 16 + new_n
            j += 1
            if j == m:
                j = 0
        return s

    d = jit_driver(drive)

    def run(n):
        return d(areas, ns, hs, bs, tab, sb, row, line, killed, np.int64(n))

    cc = None
    if kernel is None:
        row[: ns[0]] = areas[0, : ns[0]]
        cc = (player_attack_area_nb, (row, ns[0], tab, hs[0], bs[0], sb, line, killed))
    return Bench("player_attack", "one player attack on an area", run, compile_case=cc,
                 calibration="self", kernel=kern, rebuild=lambda k: player_attack_bench(k, cases),
                 pure_n=1000)


def enemy_batch_bench(kernel=None, cases: int = 256) -> Bench:
    """One enemy attack batch on an area (default kernel: ``enemy_batch_nb``)."""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels.combat_nb import enemy_batch_nb

    kern = enemy_batch_nb if kernel is None else kernel
    _, pk = reference_rules()
    r = np.random.default_rng(SEED + 1)
    cap = int(pk.params[K.P_DICE_CAP])
    hbx = _dice_cases(pk, r, cases, 1, cap)
    c = np.zeros((cases, 6), dtype=np.int64)
    c[:, :3] = hbx
    c[:, 3] = r.choice([K.ENEMY_RAIDER, K.ENEMY_INFECTED], size=cases, p=[0.3, 0.7])
    c[:, 4] = r.integers(0, 4, size=cases)  # survivors in the area
    c[:, 5] = r.integers(0, 3, size=cases)  # barricades
    bh = np.int64(pk.params[K.P_BARRICADE_HEADS])
    bb = np.int64(pk.params[K.P_BARRICADE_BODIES])
    bpd = np.int64(max(1, pk.params[K.P_BODIES_PER_DAMAGE]))

    def drive(c, bh, bb, bpd, n):
        m = c.shape[0]
        j = 0
        s = 0
        for _ in range(n):
            sk, bd, dmg = kern(c[j, 0], c[j, 1], c[j, 2], c[j, 3], c[j, 4], c[j, 5], bh, bb, bpd)
            s += sk + 4 * bd + 16 * dmg
            j += 1
            if j == m:
                j = 0
        return s

    d = jit_driver(drive)

    def run(n):
        return d(c, bh, bb, bpd, np.int64(n))

    cc = None
    if kernel is None:
        cc = (enemy_batch_nb, tuple(np.int64(v) for v in c[0]) + (bh, bb, bpd))
    return Bench("enemy_batch", "one enemy attack batch", run, compile_case=cc,
                 calibration="self", kernel=kern, rebuild=lambda k: enemy_batch_bench(k, cases),
                 pure_n=5000)


def game_call(kernel=None, players: int = 4, policy: str = "baseline"):
    """``(kernel, args)`` of one game: ``kernel(*args)`` with ``args[game_index]`` set per game.

    The arguments have exactly the types ``api.trace_game`` passes (so the call reuses the
    cached compile), matched to ``play_game_nb``'s parameters by name: ``rs, seed, game,
    n_players, chars, pid, pp, ev_cap`` (0: no trace), ``check`` (0), ``rec``.  Returns
    ``(kernel, args, game_index)``.
    """
    import inspect

    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import flat_rules
    from simlib.games.until_daylight.kernels.game_nb import play_game_nb
    from simlib.games.until_daylight.policies import resolve_policy

    kern = play_game_nb if kernel is None else kernel
    rules, _ = reference_rules()
    pid, pp = resolve_policy(policy)
    rec = np.zeros(1, dtype=K.record_dtype()).view(np.int64).reshape(1, K.N_REC)[0]
    by_name = {
        "rs": flat_rules(rules), "seed": np.int64(SEED), "game": np.int64(0),
        "n_players": np.int64(players),
        "chars": np.full(K.MAX_PLAYERS, -1, dtype=np.int64),  # a random team
        "pid": np.int64(pid), "pp": pp, "ev_cap": np.int64(0), "check": np.int64(0),
        "rec": rec,
    }
    py = getattr(play_game_nb, "py_func", play_game_nb)
    names = list(inspect.signature(py).parameters)
    missing = [n for n in names if n not in by_name]
    if missing:
        raise RuntimeError(f"the game benchmark does not know play_game_nb's parameters {missing}; "
                           "update game_call in simlib/games/until_daylight/benches.py")
    return kern, [by_name[n] for n in names], names.index("game")


def game_bench(kernel=None, players: int = 4) -> Bench:
    """One full game: ``play_game_nb`` called from Python on games ``0 .. n-1``, measured
    against a frozen copy of itself (the whole game's kernel tree)."""
    from simlib.games.until_daylight.kernels.game_nb import play_game_nb

    kern, args, gi = game_call(kernel, players)

    def run(n):
        for i in range(n):
            args[gi] = np.int64(i)
            kern(*args)

    # the same 64 games in every block of every session: games differ in length
    return Bench("game", f"one full game ({players} players, baseline)", run, fixed_n=64,
                 calibration="self", kernel=play_game_nb if kernel is None else kernel,
                 rebuild=lambda k: game_bench(k, players), cache_copies=True,
                 entry=play_game_nb if kernel is None else None, pure_n=16)


def runner_bench(kernel=None, players: int = 4) -> Bench:
    """Games through the runner's batch kernel on one thread, called as ``api.play_games``
    calls it (the records allocated, the policy resolved and the kernel called once a
    block), measured against a frozen copy of the kernel: ``kernel`` (default
    ``play_range_nb``) must take ``play_range_nb``'s arguments."""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import check_players, flat_rules, team_codes
    from simlib.games.until_daylight.kernels.game_nb import play_range_nb
    from simlib.games.until_daylight.policies import resolve_policy

    kern = play_range_nb if kernel is None else kernel
    rules, _ = reference_rules()
    p = check_players(players, rules)
    row = team_codes(None, p, rules)  # a random team per game

    def run(n):
        pid, pp = resolve_policy("baseline")
        out = np.zeros(n, dtype=K.record_dtype())
        flat = out.view(np.int64).reshape(n, K.N_REC)
        npl = np.full(n, p, dtype=np.int64)
        chars = np.tile(row, (n, 1))
        kern(flat_rules(rules), np.int64(SEED), np.int64(0), npl, chars, np.int64(pid), pp,
             np.int64(0), flat, np.int64(0), np.int64(n))
        return out

    # the same 64 games in every block: games differ in length
    return Bench("runner", f"games via the runner's kernel ({players} players, 1 thread)", run,
                 min_n=8, fixed_n=64, calibration="self", kernel=kern,
                 rebuild=lambda k: runner_bench(k, players), cache_copies=True,
                 entry=play_range_nb if kernel is None else None, pure_n=16,
                 note=runner_note if kernel is None else None)


def play_games_bench(threads: int = 1, players: int = 4, games: int | None = None) -> Bench:
    """Games through ``api.play_games(n, players, threads=threads)``; ``games`` fixes the
    games per block (default 64 per thread).  Not guarded: the two-thread figure."""
    from simlib.games.until_daylight.api import play_games

    rules, _ = reference_rules()

    def run(n):
        play_games(n, players=players, seed=SEED, policy="baseline", threads=threads,
                   ruleset=rules)

    return Bench(f"play_games_{threads}t", f"games via api.play_games ({threads} "
                 f"thread{'s' if threads > 1 else ''})", run, guarded=False, min_n=8,
                 fixed_n=64 * threads if games is None else int(games))


def two_thread_speedup(games: int = TWO_THREAD_GAMES, rounds: int = TWO_THREAD_ROUNDS) -> float:
    """Games per *wall* second on 2 threads over 1 thread: the same ``games`` games through
    ``api.play_games``, ``rounds`` rounds of a 1-thread block then a 2-thread block, the
    median of the rounds' ratios (:func:`simlib.core.bench.paired_speedup`)."""
    from simlib.core.bench import paired_speedup

    return paired_speedup(play_games_bench(1, games=games), play_games_bench(2, games=games),
                          games, rounds)


def runner_note(m, ctx: ReportContext) -> list[str]:
    """The report's lines for Until Daylight: games and decisions per second per core, the
    two-thread speed-up (a source checkout adds the rollout player's figures:
    ``benchmarks/until_daylight_speed.py``)."""
    import numba

    per_game = decisions_per_game()
    out = [f"Until Daylight: {m.ops_per_s:,.0f} full games per second per core (baseline "
           "policy, 4 players, random teams, 1 thread)",
           f"          {m.ops_per_s * per_game:,.0f} decisions per second per core "
           f"({per_game:.1f} decisions with 2+ candidates a game in the runner's 64 games: a "
           "rule change that lengthens games lowers games/s, not decisions/s)"]
    if ctx.quick:  # seconds, not minutes
        out.append("2 threads: not measured with --quick")
        return out
    if numba.config.NUMBA_NUM_THREADS >= 2:
        two = two_thread_speedup()
        out.append(f"2 threads: {two:.2f}x the 1-thread rate in wall time (the same "
                   f"{TWO_THREAD_GAMES:,} games a block, median of {TWO_THREAD_ROUNDS} rounds "
                   "of a 1-thread block then a 2-thread block)")
    return out


def decisions_per_game(players: int = 4) -> float:
    """Mean decisions (2+ candidates) of the runner benchmark's games (the record's
    ``decisions`` field)."""
    from simlib.games.until_daylight.api import play_games

    rec = play_games(64, players=players, seed=SEED, policy="baseline", threads=1,
                     ruleset=reference_rules()[0])
    return float(np.mean(rec["decisions"]))


SEARCH_POSITIONS = 24  # decisions of the search benchmark, spread over whole baseline games


def _calibrated_positions(k: int = SEARCH_POSITIONS, games: int = 4, players: int = 4):
    """``k`` decisions spread evenly over ``games`` whole baseline games of the calibrated
    ruleset (every round of the night, the last two included, where the search spends
    most), as step states; the first is an early one (the JIT-disabled figure plays it)."""
    from simlib.games.until_daylight.step import Game

    states = []
    for i in range(games):
        g = Game(seed=SEED, game=i, players=players)
        while not g.over:
            states.append(g.state.copy())
            g.apply(g.policy_choice("baseline"))
    idx = np.linspace(0, len(states) - 1, k).round().astype(np.int64)
    return g.rs, np.stack([states[i] for i in idx])


def search_bench(policy: str = "rollout-100", horizon: int = 2) -> Bench:
    """Decisions of a search player as issue #33 measures it (calibrated ruleset, a
    ``horizon``-round horizon, 4 players): the same fixed decisions in every block
    (:func:`_calibrated_positions`), guarded against the calibration loop (whole games
    beside the baseline: ``benchmarks/until_daylight_speed.py``)."""
    from simlib.games.until_daylight.kernels.search_nb import rollout_choice_nb
    from simlib.games.until_daylight.policies import resolve_search

    rs, stack = _calibrated_positions()
    bid, bpp, rp = resolve_search(policy, {"horizon": horizon})
    bid = np.int64(bid)

    def run(n):
        for j in range(n):
            rollout_choice_nb(stack[j % len(stack)], rs, bid, bpp, rp)

    return Bench("search", f"one decision of {policy} (horizon {horizon}, calibrated)", run,
                 fixed_n=len(stack), pure_n=1, pure_comparable=False)


BENCH_FACTORIES: dict[str, Callable[[], Bench]] = {
    "runner": runner_bench,  # first: the headline, and its cold compile is everything
    "game": game_bench,  # ``simlib simulate`` needs; each later one adds its own entry
    "roll_dice": roll_dice_bench,
    "player_attack": player_attack_bench,
    "enemy_batch": enemy_batch_bench,
    "search": search_bench,  # the rollout-100 player of issue #33 (h = 2, calibrated)
}
