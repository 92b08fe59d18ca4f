"""Strong players and the study layer: the ratios of issue #33, measured in one run.

    python benchmarks/strong_players.py search --games 40         # where a search game's time goes
    python benchmarks/strong_players.py search-rounds --games 10  # the search's time per round
    python benchmarks/strong_players.py search-replay --games 20  # schedules, replayed
    python benchmarks/strong_players.py till-dawn --rounds 3     # optimal vs threshold
    python benchmarks/strong_players.py till-dawn-distilled      # distilled vs threshold
    python benchmarks/strong_players.py day-night-z-distilled    # distilled vs baseline
    python benchmarks/strong_players.py utwe-distilled           # distilled vs greedy
    python benchmarks/strong_players.py mort-distilled           # distilled vs heuristic
    python benchmarks/strong_players.py study --games 200000     # simulate vs play_games

``search``: Until Daylight's search player (``rollout-100`` with a two-round horizon by
default; ``--policy rollout-1000``) on the calibrated ruleset, 4 players, games
``start .. start + n - 1`` of seed 1, 2 threads, through the same kernel as ``play_games``
with the search's counters kept: decisions searched, continuations per decision,
searches stopped early, choices changed; the games per second beside the baseline's on
the same games in the same run, and the engine's decisions per second with the baseline
choosing beside the random policy choosing (what the rollout policy's scoring costs a
continuation).

``search-rounds``: the same player one decision at a time (1 thread): the process CPU
seconds of its decisions in each round of the night.

``search-replay``: at every decision of the search player's own games (games ``start ..``
of seed 1), the values of the first ``--values`` continuations of each of the baseline's
best 4 candidates; the search's successive halving and early drops are replayed on them
(in Python, the kernel's rule: its replay must give the kernel's choice), then other
schedules of the checks for hopeless challengers are replayed on the first half of the
values and their choices valued on the second half, which they never saw (an unbiased
estimate of what their changes gain), apart for the decisions whose horizon ends before
the night's last round and for the others.

``till-dawn``: heads-up Till Dawn games per second on 2 threads of an ``optimal`` player
against a ``threshold`` player, beside two ``threshold`` players, interleaved round by
round (games 0 .. n-1 of seed 1, random characters); prints each round and the ratio.

``till-dawn-distilled``: Till Dawn games per CPU-second of the distilled and the optimal
player (each in the focal seat among threshold players, and at every seat) beside
threshold players only, on the default study's tables (3-8 players, seats rotating),
rounds alternating.

``day-night-z-distilled``: Day Night Z adventures per CPU-second of the distilled player
beside the baseline (and of the rollout player, its teacher, on a few games), on the default
study's cells (teams of 1-4, start hours 08:00, 14:00, 20:00), rounds alternating.
``utwe-distilled``: Until the World Ends games per CPU-second of the distilled and the
rollout player (each in the focal seat among greedy players, and the distilled player at
every seat) beside greedy players only, on the default study's tables (2-6 players, seats
rotating), rounds alternating.
``mort-distilled``: Mort de la lumière du jour games per CPU-second with the distilled
player on the killer's side, on the survivors' side and on both, beside the heuristic on
both (the default player), and with the rollout player on one side; the same games for
each variant, rounds alternating.

``study``: the same Until Daylight games (reference ruleset, 4 players, baseline, 2
threads) through ``play_games`` (one kernel call), ``simlib.simulate`` (records kept, the
default up to 10^6 games) and ``simlib.simulate(keep_records=False)``, interleaved round by
round (the order reversed every other round); prints each round's times and the
overheads over ``play_games``.

Only the ratios mean something on a shared machine: a busy neighbour slows the variants
of a round alike (single runs on the project's 2-core VM vary by up to 1.6x).
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def search(games: int, start: int, policy: str, horizon: int, threads: int) -> None:
    from simlib.core.parallel import run_ranges
    from simlib.games.until_daylight import api
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels import search_nb as S
    from simlib.games.until_daylight.policies import resolve_search
    from simlib.games.until_daylight.ruleset import load_ruleset

    rules = load_ruleset(None)  # the calibrated default
    bid, bpp, rp = resolve_search(policy, {"horizon": horizon})

    def run_search(n, first):
        out = np.zeros((n, K.N_REC), dtype=np.int64)
        stats = np.zeros((n, S.N_STATS), dtype=np.int64)
        npl = np.full(n, 4, dtype=np.int64)
        chars = np.full((n, K.MAX_PLAYERS), -1, dtype=np.int64)
        args = (api.flat_rules(rules), np.int64(1), np.int64(first), npl, chars, np.int64(bid),
                bpp, rp, np.int64(0), out, stats)
        t = time.perf_counter()
        run_ranges(S.play_range_search_stats_nb, args, n, threads)
        return time.perf_counter() - t, out, stats

    def run_plain(pol, n, first):
        t = time.perf_counter()
        rec = api.play_games(n, players=4, seed=1, start=first, policy=pol, ruleset=rules,
                             threads=threads)
        return time.perf_counter() - t, rec

    run_search(2, 0)  # compile or load, outside the timing
    run_plain("baseline", 64, 0)
    run_plain("random", 64, 0)
    many = max(400, 50 * games)
    tb, _ = run_plain("baseline", many, start)
    ts, out, stats = run_search(games, start)
    tb2, base = run_plain("baseline", many, start)
    tr, rnd = run_plain("random", many, start)
    tb = min(tb, tb2)
    tot = stats.sum(axis=0)
    dec, srch, cont = tot[S.ST_DECISIONS], tot[S.ST_SEARCHED], tot[S.ST_CONTINUATIONS]
    print(f"{policy} (horizon {horizon}), calibrated, 4 players, games {start}-{start + games - 1} "
          f"of seed 1, {threads} threads")
    print(f"  decisions a game {dec / games:.1f}, searched {srch / games:.1f}; continuations a "
          f"game {cont / games:,.0f} ({cont / max(srch, 1):.1f} a searched decision)")
    print(f"  searches stopped early (every challenger dropped): {tot[S.ST_EARLY]:,} of {srch:,} "
          f"({100 * tot[S.ST_EARLY] / max(srch, 1):.0f} %); choices changed from the "
          f"baseline's: {tot[S.ST_CHANGED]:,} ({100 * tot[S.ST_CHANGED] / max(srch, 1):.2f} %)")
    gs, gb = games / ts, many / tb
    print(f"  {gs:.2f} games/s; the baseline {gb:,.0f} games/s on games {start}-{start + many - 1} "
          f"in the same run: the search at 1/{gb / gs:,.0f} of it; {cont / ts:,.0f} "
          f"continuations/s")
    db = base["decisions"].sum() / tb
    dr = rnd["decisions"].sum() / tr
    print(f"  engine: {db:,.0f} decisions/s with the baseline choosing, {dr:,.0f} with the "
          f"random policy (the baseline's scoring: about {100 * (1 - db / dr):.0f} % of a "
          "decision's time)")


def search_rounds(games: int, start: int, policy: str, horizon: int) -> None:
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import apply_step, flat_rules, new_step_state, team_codes
    from simlib.games.until_daylight.kernels import search_nb as S
    from simlib.games.until_daylight.policies import resolve_search
    from simlib.games.until_daylight.ruleset import load_ruleset

    rules = load_ruleset(None)
    rs = flat_rules(rules)
    bid, bpp, rp = resolve_search(policy, {"horizon": horizon})
    bid = np.int64(bid)
    n_rounds = int(rs[K.P_ROUNDS])
    cpu = np.zeros(n_rounds + 1)
    dec = np.zeros(n_rounds + 1, dtype=np.int64)
    team = team_codes(None, 4, rules)
    S.rollout_choice_nb(new_step_state(rs, 1, 0, 4, team), rs, bid, bpp, rp)  # compile or load
    for g in range(start, start + games):
        st = new_step_state(rs, 1, g, 4, team)
        while not st[K.G_OVER]:
            r = min(int(st[K.G_ROUND]), n_rounds)
            t = time.process_time()
            c = int(S.rollout_choice_nb(st, rs, bid, bpp, rp))
            cpu[r] += time.process_time() - t
            dec[r] += 1
            apply_step(st, rs, c)
    print(f"{policy} (horizon {horizon}), calibrated, 4 players, games {start}-{start + games - 1} "
          f"of seed 1, 1 thread: CPU seconds of the search's decisions by round")
    for r in range(1, n_rounds + 1):
        print(f"  round {r:2d}: {dec[r]:5d} decisions {cpu[r]:7.2f} s ({100 * cpu[r] / cpu.sum():4.1f} %)")
    print(f"  total {cpu.sum():.2f} s: {games / cpu.sum():.2f} games per CPU-second")


def _value_matrix_kernel():
    import numba

    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels import search_nb as S
    from simlib.games.until_daylight.kernels.policies_nb import baseline_score_nb, choose_nb
    from simlib.games.until_daylight.kernels.state_nb import card_tab_of, cands_of, inv_of, pl_of

    @numba.njit
    def values(st, rs, bpid, bpp, rp, top_k, out, cand_out):
        """The search's candidates in its order (the baseline's choice first, then the
        baseline's best by score) and the values of continuations 0 .. R-1 of each."""
        m = st[K.G_PENDING_M]
        d = st[K.G_PENDING_D]
        seat = st[K.G_PENDING_SEAT]
        base = choose_nb(st, rs, bpid, bpp, d, seat, m)
        scores = np.zeros(m)
        cand = np.arange(m)
        pl, inv, ct, cands = pl_of(st), inv_of(st), card_tab_of(rs), cands_of(st)
        for i in range(m):
            scores[i] = baseline_score_nb(st, rs, bpp, d, seat, cands[i, 0], cands[i, 1],
                                          cands[i, 2], pl, inv, ct)
        scores[base] = np.inf
        for i in range(1, m):  # the kernel's insertion sort: the same order on ties
            j = i
            while j > 0 and scores[cand[j]] > scores[cand[j - 1]]:
                t = cand[j]
                cand[j] = cand[j - 1]
                cand[j - 1] = t
                j -= 1
        k = min(top_k, m)
        work = np.empty(st.shape[0], dtype=np.int64)
        rec = np.zeros(K.N_REC, dtype=np.int64)
        for i in range(k):
            cand_out[i] = cand[i]
            for r in range(out.shape[1]):
                out[i, r] = S._rollout_value_of_nb(st, rs, bpid, bpp, rp, work, rec, cand[i], r,
                                                   st[K.G_GAME_KEY], st[K.G_DECISIONS])
        return k

    return values


def replay_choice(v, k, min_check, every, fut_from, fut_z, *, budget, z, thr, min_paired):
    """The kernel's ``rollout_choose_nb`` on known values ``v[candidate, r]`` (candidate 0:
    the baseline's choice): ``(index chosen, continuations spent)``, ``(-1, -1)`` when it
    needs more values than ``v`` holds.  ``fut_from``/``fut_z``: from ``fut_from`` shared
    continuations on, a challenger is dropped with ``fut_z`` standard errors, not ``z``
    (the kernel's futility bound where a continuation can win; None: no bound)."""
    if k < 2:
        return 0, 0
    rounds = 1
    while (1 << rounds) < k - 1:
        rounds += 1
    cand = list(range(k))
    alive, r0, spent = k, 0, 0
    total = np.zeros(k)
    count = np.zeros(k)

    def gain_se(c, n):
        d = v[c, :n] - v[0, :n]
        g = d.mean()
        if n < 2:
            return g, np.inf
        var = max(0.0, (d * d).mean() - g * g) * n / (n - 1)
        return g, np.sqrt(var / n)

    for rnd in range(rounds):
        end = r0 + max(1, budget // (rounds * alive))
        while r0 < end:
            r1 = min(end, r0 + every)
            if r1 > v.shape[1]:
                return -1, -1
            for c in cand[:alive]:
                total[c] += v[c, r0:r1].sum()
                count[c] += r1 - r0
            spent += (r1 - r0) * alive
            r0 = r1
            if r0 >= min_check:
                j = 1
                while j < alive:
                    g, se = gain_se(cand[j], r0)
                    zd = fut_z if fut_from is not None and r0 >= fut_from else z
                    if g + zd * se < thr:
                        alive -= 1
                        cand[j], cand[alive] = cand[alive], cand[j]
                    else:
                        j += 1
                if alive <= 1:
                    return 0, spent
        if alive <= 2 or rnd == rounds - 1:
            break
        for i in range(2, alive):  # the kernel's insertion sort by mean value
            j = i
            while j > 1 and total[cand[j]] / count[cand[j]] > total[cand[j - 1]] / count[cand[j - 1]]:
                cand[j], cand[j - 1] = cand[j - 1], cand[j]
                j -= 1
        alive = 1 + (alive - 1 + 1) // 2
    best = cand[1]
    for c in cand[2:alive]:
        if total[c] / count[c] > total[best] / count[best]:
            best = c
    n = int(count[best])
    g, se = gain_se(best, n)
    return (best, spent) if n >= min_paired and g > thr and g > z * se else (0, spent)


def schedule_of(q: dict) -> tuple:
    """A search's schedule from its named parameters ``q``: (kinds not searched, whether it
    searches where the horizon ends before the night's last round, (first check, every,
    futility from, its z) where a continuation can win)."""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels import search_nb as S

    fut = None if q["futility_z"] >= q["z"] else S.FUTILITY_FROM
    return ({d for d in range(K.N_DECISIONS) if (int(q["skip_kinds"]) >> d) & 1},
            bool(q["short"]),
            (int(q["first_check"]), int(q["check_every"]), fut, q["futility_z"]))


def replay_settings(q: dict) -> dict:
    """The keywords of :func:`replay_choice` that come from the parameters ``q``."""
    from simlib.games.until_daylight.kernels import search_nb as S

    return dict(budget=max(int(q["budget"]), 2), z=q["z"], thr=q["threshold"],
                min_paired=S.MIN_PAIRED)


def replay_decision(short: bool, kind: int, k: int, v, sched: tuple, kw: dict):
    """The kernel's choice at one decision from its candidates' known values ``v`` (see
    :func:`replay_choice`): none searched at a kind in the schedule's skip set, nor where
    the horizon ends early unless the schedule searches there (then with the kernel's
    ``SHORT_*`` checks and no futility bound)."""
    from simlib.games.until_daylight.kernels import search_nb as S

    skip, search_short, rule = sched
    if k < 2 or kind in skip or (short and not search_short):
        return 0, 0
    if short:
        rule = (S.SHORT_MIN_CHECK, S.SHORT_CHECK_EVERY, None, None)
    return replay_choice(v, k, *rule, **kw)


def search_replay(games: int, start: int, policy: str, horizon: int, n_values: int) -> None:
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import apply_step, flat_rules, new_step_state, team_codes
    from simlib.games.until_daylight.kernels import search_nb as S
    from simlib.games.until_daylight.policies import FULL_SEARCH, ROLLOUT_PARAMS, resolve_search
    from simlib.games.until_daylight.ruleset import load_ruleset

    rules = load_ruleset(None)
    rs = flat_rules(rules)
    bid, bpp, rp = resolve_search(policy, {"horizon": horizon})
    bid = np.int64(bid)
    p = dict(zip(ROLLOUT_PARAMS, rp))
    top_k = int(p["top_k"]) or K.MAX_CANDS
    if top_k > 8:
        raise SystemExit("search-replay keeps the values of at most 8 candidates (top_k)")
    values = _value_matrix_kernel()
    team = team_codes(None, 4, rules)
    rows = []  # (short horizon, kind, k, the kernel's choice as an index of the candidates, values)
    for g in range(start, start + games):
        st = new_step_state(rs, 1, g, 4, team)
        while not st[K.G_OVER]:
            v = np.zeros((top_k, n_values))
            co = np.zeros(top_k, dtype=np.int64)
            k = values(st, rs, bid, bpp, rp, top_k, v, co)
            c = int(S.rollout_choice_nb(st, rs, bid, bpp, rp))
            short = horizon >= 1 and st[K.G_ROUND] + horizon - 1 < rs[K.P_ROUNDS]
            rows.append((bool(short), int(st[K.G_PENDING_D]), k,
                         list(co[:k]).index(c) if c in co[:k] else -2, v))
            apply_step(st, rs, c)
    kw = replay_settings(p)

    def replay(i, sched, n=None):
        short, d, k, _, v = rows[i]
        return replay_decision(short, d, k, v if n is None else v[:, :n], sched, kw)

    kernel = schedule_of(p)
    now = [replay(i, kernel) for i in range(len(rows))]
    bad = [i for i, (ch, _) in enumerate(now) if ch >= 0 and ch != rows[i][3]]
    if bad:
        raise SystemExit(f"the replay differs from the kernel at {len(bad)} decisions: fix the replay")
    held = n_values // 2  # the schedules see the first half; the second half values their choices
    print(f"{policy} (horizon {horizon}), calibrated, 4 players, games {start}-{start + games - 1} "
          f"of seed 1: {len(rows)} decisions, {n_values} continuations of each of the "
          f"baseline's best {top_k} candidates; the schedules below see the first {held}, and "
          f"the other {n_values - held} value their choices (gain: the sum over the decisions "
          "of the chosen candidate's mean paired gain over the baseline's choice on them)")

    def gain(i, c):
        v = rows[i][4]
        return 0.0 if c <= 0 else float((v[c, held:] - v[0, held:]).mean())

    for d in range(K.N_DECISIONS):  # where a continuation can win, by kind of decision
        idx = [i for i, r in enumerate(rows) if not r[0] and r[1] == d and r[2] >= 2]
        if idx:
            res = [(i, replay(i, schedule_of(dict(p, **FULL_SEARCH)), held)) for i in idx]
            print(f"  {K.DECISION_NAMES[d]}: {len(idx)} decisions where a continuation can win; "
                  f"the full search: {sum(x[1] for _, x in res)} continuations, "
                  f"{sum(1 for _, x in res if x[0] > 0)} changes, gain "
                  f"{sum(gain(i, x[0]) for i, x in res):.2f}")
    fz = p["z"] / 2
    variants = [("the full search (before 2026-12-02)", FULL_SEARCH)]
    for sk in (0, int(p["skip_kinds"])):
        for sh in (0, 1):
            for rule in ((8, 4, 2.0), (8, 4, fz), (6, 2, fz), (6, 2, 2.0), (4, 4, fz)):
                variants.append(("", {"skip_kinds": sk, "short": sh, "first_check": rule[0],
                                      "check_every": rule[1], "futility_z": rule[2]}))
    for label, q in variants:
        sched = schedule_of(dict(p, **q))
        res = [(i, replay(i, sched, held)) for i in range(len(rows))]
        mark = " (the kernel's)" if sched == kernel else ""
        label = label or (f"skip_kinds {q['skip_kinds']}, short {q['short']}, first check after "
                          f"{q['first_check']}, then every {q['check_every']}, futility_z "
                          f"{q['futility_z']:g}")
        if any(x[0] < 0 for _, x in res):
            print(f"    {label}{mark}: needs more than {held} values (--values)")
            continue
        spent = sum(x[1] for _, x in res)
        changed = sum(1 for _, x in res if x[0] > 0)
        print(f"    {label}{mark}: {spent / games:.0f} continuations a game, {changed} changes, "
              f"gain {sum(gain(i, x[0]) for i, x in res):.2f}")


def till_dawn(rounds: int, games: int, optimal_games: int, threads: int) -> None:
    from simlib.games.till_dawn import api
    from simlib.games.till_dawn.policies import POLICIES, make_seat
    from simlib.games.till_dawn.ruleset import load_ruleset

    rules = load_ruleset()

    def run(seats, n):
        ss = [make_seat(s) for s in seats]
        npl = np.full(n, len(ss), dtype=np.int64)
        chars = np.full((n, api.K.MAX_SEATS), -1, dtype=np.int64)
        pol = np.zeros((n, api.K.MAX_SEATS), dtype=np.int64)
        par = np.zeros((n, api.K.MAX_SEATS, 3))
        for i, s in enumerate(ss):
            pol[:, i] = POLICIES[s.policy].id
            par[:, i, :len(s.params)] = s.params
        t = time.perf_counter()
        api.run_kernel(rules, 1, 0, npl, chars, pol, par, api.work_size(rules, ss),
                       threads=threads)
        return n / (time.perf_counter() - t)

    run(["optimal", "threshold"], 8)  # compile or load, outside the timing
    run(["threshold", "threshold"], 8)
    ratios = []
    for r in range(rounds):
        a = run(["threshold", "threshold"], games)
        b = run(["optimal", "threshold"], optimal_games)
        ratios.append(b / a)
        print(f"round {r + 1}: threshold x2 {a:,.0f} games/s; optimal vs threshold {b:,.0f} "
              f"games/s (1/{a / b:,.0f})", flush=True)
    print(f"median: optimal vs threshold at 1/{1 / statistics.median(ratios):,.0f} of two "
          f"threshold players ({threads} threads)")


def till_dawn_distilled(rounds: int, games: int, optimal_games: int, threads: int) -> None:
    """The distilled and the optimal player against the threshold player's speed, on the
    tables of the default study (3-8 players, one table per count in turn, seats rotating:
    the games of ``simlib compare`` and ``simulate``): each in the focal seat among
    threshold players, and at every seat, beside threshold players only; process CPU time
    on ``threads`` threads, rounds alternating; the hunt cards drawn in a game."""
    from simlib.core.seats import table_seats
    from simlib.games.till_dawn import api
    from simlib.games.till_dawn.policies import POLICIES, make_seat
    from simlib.games.till_dawn.ruleset import load_ruleset

    rules = load_ruleset()
    th = make_seat("threshold")
    counts = (3, 4, 5, 6, 7, 8)
    variants = {"threshold (every seat)": ([[th] * p for p in counts], games)}
    for name, n in (("distilled", games), ("optimal", optimal_games)):
        x = make_seat(name)
        variants[f"{name} (focal seat)"] = ([[x] + [th] * (p - 1) for p in counts], n)
        variants[f"{name} (every seat)"] = ([[x] * p for p in counts], n)

    def runner(tables, n):
        npl, pol, par, _ = table_seats(tables, 0, n, POLICIES, seats=api.K.MAX_SEATS,
                                       n_params=3)
        chars = np.full((n, api.K.MAX_SEATS), -1, dtype=np.int64)
        wsize = api.work_size(rules, [s for t in tables for s in t])

        def run(m=n):
            t = time.process_time()
            out = api.run_kernel(rules, 1, 0, npl[:m], chars[:m], pol[:m], par[:m], wsize,
                                 threads=threads)
            return m / (time.process_time() - t), float(out[:, api.K.REC_DRAWS].mean())
        return run

    runs = {k: runner(t, n) for k, (t, n) in variants.items()}
    for r in runs.values():
        r(16)  # compile or load, outside the timing
    got = {k: [] for k in runs}
    for r in range(rounds):
        for k, run in runs.items():
            got[k].append(run())
        print(f"round {r + 1}: " + "; ".join(f"{k} {v[-1][0]:,.0f}" for k, v in got.items())
              + " games per CPU-second", flush=True)
    base = statistics.median([x for x, _ in got["threshold (every seat)"]])
    for k, v in got.items():
        m = statistics.median([x for x, _ in v])
        print(f"median {k}: {m:,.0f} games per CPU-second, 1/{base / m:.2f} of the threshold "
              f"players' ({threads} threads; {v[0][1]:.1f} hunt cards drawn a game)")


def day_night_z_distilled(rounds: int, games: int, rollout_games: int, threads: int) -> None:
    """The distilled and the rollout player against the baseline's speed on the default
    study's games (game ``i``: cell ``i`` mod 12 on deal ``i`` div 12, the games of ``simlib
    compare`` and ``simulate``); process CPU time on ``threads`` threads, rounds
    alternating; the decisions a game."""
    from simlib.games.day_night_z.study import make_adapter

    variants = {"baseline": games, "distilled": games, "rollout": rollout_games}
    adapters = {k: make_adapter(policy=k) for k in variants}

    def run(k, n):
        t = time.process_time()
        out = adapters[k].play(0, n, threads)
        return n / (time.process_time() - t), float(out["records"][:, -1].mean())

    for k in variants:
        run(k, 12)  # compile or load, outside the timing
    got = {k: [] for k in variants}
    for r in range(rounds):
        for k, n in variants.items():
            got[k].append(run(k, n))
        print(f"round {r + 1}: " + "; ".join(f"{k} {v[-1][0]:,.1f}" for k, v in got.items())
              + " adventures per CPU-second", flush=True)
    base = statistics.median([x for x, _ in got["baseline"]])
    for k, v in got.items():
        m = statistics.median([x for x, _ in v])
        print(f"median {k}: {m:,.1f} adventures per CPU-second, 1/{base / m:.2f} of the "
              f"baseline's ({threads} threads; {v[0][1]:.1f} decisions an adventure)")
def utwe_distilled(rounds: int, games: int, rollout_games: int, threads: int) -> None:
    """The distilled and the rollout player against the greedy player's speed, on the
    tables of the default study (2-6 players, one table per count in turn, seats rotating:
    the games of ``simlib compare`` and ``simulate``): each in the focal seat among greedy
    players, and the distilled player at every seat, beside greedy players only; process
    CPU time on ``threads`` threads, rounds alternating; the decisions of a game."""
    from simlib.core.seats import table_seats
    from simlib.games.until_the_world_ends import api
    from simlib.games.until_the_world_ends.policies import POLICIES, make_seat
    from simlib.games.until_the_world_ends.ruleset import load_ruleset

    rules = load_ruleset()
    gr = make_seat("greedy")
    counts = (2, 3, 4, 5, 6)
    variants = {"greedy (every seat)": ([[gr] * p for p in counts], games)}
    x = make_seat("distilled")
    variants["distilled (focal seat)"] = ([[x] + [gr] * (p - 1) for p in counts], games)
    variants["distilled (every seat)"] = ([[x] * p for p in counts], games)
    r = make_seat("rollout")
    variants["rollout (focal seat)"] = ([[r] + [gr] * (p - 1) for p in counts], rollout_games)

    def runner(tables, n):
        npl, pol, par, _ = table_seats(tables, 0, n, POLICIES, seats=max(counts), n_params=4)

        def run(m=n):
            t = time.process_time()
            out = api.run_kernel(rules, 1, 0, npl[:m], pol[:m], par[:m], threads=threads)
            return m / (time.process_time() - t), float(out[:, api.K.REC_DECISIONS].mean())
        return run

    runs = {k: runner(t, n) for k, (t, n) in variants.items()}
    for run in runs.values():
        run(10)  # compile or load, outside the timing
    got = {k: [] for k in runs}
    for i in range(rounds):
        for k, run in runs.items():
            got[k].append(run())
        print(f"round {i + 1}: " + "; ".join(f"{k} {v[-1][0]:,.1f}" for k, v in got.items())
              + " games per CPU-second", flush=True)
    base = statistics.median([v for v, _ in got["greedy (every seat)"]])
    for k, v in got.items():
        m = statistics.median([x for x, _ in v])
        print(f"median {k}: {m:,.1f} games per CPU-second, 1/{base / m:.2f} of the greedy "
              f"players' ({threads} threads; {v[0][1]:.0f} decisions a game)")
def mort_distilled(rounds: int, games: int, rollout_games: int, threads: int) -> None:
    """Mort's distilled player against the heuristic's speed: games ``0 .. n-1`` of seed 1
    with the distilled player on the killer's side, the survivors' side or both (the
    heuristic on the other), beside the heuristic on both; process CPU time on
    ``threads`` threads, rounds alternating."""
    from simlib.games.mort import api
    from simlib.games.mort.ruleset import load_ruleset

    rules = load_ruleset()
    variants = {"heuristic (both sides)": ("killer=heuristic,survivors=heuristic", games),
                "distilled killer": ("killer=distilled,survivors=heuristic", games),
                "distilled survivors": ("killer=heuristic,survivors=distilled", games),
                "distilled (both sides)": ("killer=distilled,survivors=distilled", games),
                "rollout killer": ("killer=rollout,survivors=heuristic", rollout_games),
                "rollout survivors": ("killer=heuristic,survivors=rollout", rollout_games)}

    def runner(spec, n):
        pol, par = api.seat_arrays(api.parse_seats(spec, rules), n)

        def run(m=n):
            t = time.process_time()
            out = api.run_kernel(rules, 1, 0, pol[:m], par[:m], threads=threads)
            return m / (time.process_time() - t), float(out[:, api.K.REC_DECISIONS].mean())
        return run

    runs = {k: runner(*v) for k, v in variants.items()}
    for r in runs.values():
        r(4)  # compile or load, outside the timing
    got = {k: [] for k in runs}
    for r in range(rounds):
        for k, run in runs.items():
            got[k].append(run())
        print(f"round {r + 1}: " + "; ".join(f"{k} {v[-1][0]:,.1f}" for k, v in got.items())
              + " games per CPU-second", flush=True)
    base = statistics.median([x for x, _ in got["heuristic (both sides)"]])
    for k, v in got.items():
        m = statistics.median([x for x, _ in v])
        print(f"median {k}: {m:,.1f} games per CPU-second, 1/{base / m:.2f} of the heuristic's "
              f"({threads} threads; {v[0][1]:.0f} decisions a game)")


def study(rounds: int, games: int, threads: int) -> None:
    """``simulate`` over ``play_games`` on the same games (issue #33's 5 % target): the
    measurement of ``simlib bench``'s study note (``until_daylight_speed.study_overhead``: reference
    ruleset, 4 players, baseline; play_games, simulate with records and without, in
    alternating order), every round printed with its load average."""
    from until_daylight_speed import overhead_summary, study_overhead  # beside this script

    out = study_overhead(games, rounds, threads, say=lambda line: print(line, flush=True))
    print(f"median over {rounds} rounds of the overhead over play_games ({games:,} games, "
          f"{threads} threads): " + "; ".join(
              f"{k}: CPU {100 * c:+.1f} %, wall {100 * w:+.1f} %"
              for k, (w, c) in overhead_summary(out).items()))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("search")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--start", type=int, default=100)
    s.add_argument("--policy", default="rollout-100")
    s.add_argument("--horizon", type=int, default=2)
    s.add_argument("--threads", type=int, default=2)
    r = sub.add_parser("search-rounds")
    r.add_argument("--games", type=int, default=10)
    r.add_argument("--start", type=int, default=100)
    r.add_argument("--policy", default="rollout-100")
    r.add_argument("--horizon", type=int, default=2)
    q = sub.add_parser("search-replay")
    q.add_argument("--games", type=int, default=20)
    q.add_argument("--start", type=int, default=100)
    q.add_argument("--policy", default="rollout-100")
    q.add_argument("--horizon", type=int, default=2)
    q.add_argument("--values", type=int, default=128)
    a = sub.add_parser("till-dawn")
    a.add_argument("--rounds", type=int, default=3)
    a.add_argument("--games", type=int, default=40_000)
    a.add_argument("--optimal-games", type=int, default=1_000)
    a.add_argument("--threads", type=int, default=2)
    d = sub.add_parser("till-dawn-distilled")
    d.add_argument("--rounds", type=int, default=3)
    d.add_argument("--games", type=int, default=24_000)
    d.add_argument("--optimal-games", type=int, default=1_200)
    d.add_argument("--threads", type=int, default=1)
    z = sub.add_parser("day-night-z-distilled")
    z.add_argument("--rounds", type=int, default=3)
    z.add_argument("--games", type=int, default=24_000)
    z.add_argument("--rollout-games", type=int, default=48)
    z.add_argument("--threads", type=int, default=1)
    u = sub.add_parser("utwe-distilled")
    u.add_argument("--rounds", type=int, default=3)
    u.add_argument("--games", type=int, default=10_000)
    u.add_argument("--rollout-games", type=int, default=100)
    u.add_argument("--threads", type=int, default=1)
    m = sub.add_parser("mort-distilled")
    m.add_argument("--rounds", type=int, default=3)
    m.add_argument("--games", type=int, default=8_000)
    m.add_argument("--rollout-games", type=int, default=40)
    m.add_argument("--threads", type=int, default=1)
    b = sub.add_parser("study")
    b.add_argument("--rounds", type=int, default=3)
    b.add_argument("--games", type=int, default=200_000)
    b.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)
    if args.what == "search":
        search(args.games, args.start, args.policy, args.horizon, args.threads)
    elif args.what == "search-rounds":
        search_rounds(args.games, args.start, args.policy, args.horizon)
    elif args.what == "search-replay":
        search_replay(args.games, args.start, args.policy, args.horizon, args.values)
    elif args.what == "till-dawn":
        till_dawn(args.rounds, args.games, args.optimal_games, args.threads)
    elif args.what == "till-dawn-distilled":
        till_dawn_distilled(args.rounds, args.games, args.optimal_games, args.threads)
    elif args.what == "day-night-z-distilled":
        day_night_z_distilled(args.rounds, args.games, args.rollout_games, args.threads)
    elif args.what == "utwe-distilled":
        utwe_distilled(args.rounds, args.games, args.rollout_games, args.threads)
    elif args.what == "mort-distilled":
        mort_distilled(args.rounds, args.games, args.rollout_games, args.threads)
    else:
        study(args.rounds, args.games, args.threads)


if __name__ == "__main__":
    main()
