"""The ladder of players: is it the game or the bot?

``python -m simlib.games.until_daylight.ladder --players 4 --games 2000 --rules reference``
plays the same games (same seed: common random numbers) with each player of the ladder
and prints a markdown table: win rate with its Wilson 95 % interval, mean round reached,
and games per second (wall clock, this machine, the threads given).

Players: ``random`` (the floor), ``baseline`` (the heuristic), ``tuned`` (the baseline
with weights tuned by ``simlib tune-policy``), ``distilled`` (the search's choices
fitted into a linear score by ``simlib train-policy``), ``rollout-100`` and
``rollout-1000`` (flat Monte-Carlo search over the baseline), ``clairvoyant`` (rollouts
that see the real future: an upper bound, never a default).
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

from simlib.core.stats import wilson_interval

from . import codes as K
from .api import play_games
from .policies import POLICIES, check_policy_ruleset, resolve_search
from .ruleset import RulesetError, load_ruleset

LADDER = ("random", "baseline", "tuned", "distilled", "rollout-100", "rollout-1000", "clairvoyant")
LIGHT = {"constants.rounds": 5, "constants.wave_per_player": 0}


def ruleset_named(name: str):
    """``reference``, ``light`` (5 rounds, waves of ``round`` cards), a preset name or a path."""
    if name == "light":
        return load_ruleset("reference").override(LIGHT)
    return load_ruleset(name)


def ladder(players: int = 4, games: int | dict = 2000, ruleset=None, seed: int = 0,
           policies=LADDER, threads: int | None = None, horizon: int = 0) -> pd.DataFrame:
    """One row per player: games, wins, win_rate, ci_low, ci_high, mean_round, games_per_s.

    ``games`` may be a dict policy -> games (search players cost their rollouts).
    ``horizon`` >= 1: the search players' continuations stop at the end of their
    ``horizon``-th round and value the position (the row is named ``... (h=H)``)."""
    rows = []
    # a player asked for by name is played or refused; the default ladder leaves out
    # `distilled` where its weights do not apply (or there are none)
    policies_given = () if policies is LADDER else tuple(policies)
    if "distilled" not in POLICIES and policies is LADDER:
        policies = tuple(p for p in policies if p != "distilled")
    for pol in policies:
        n = games.get(pol, 0) if isinstance(games, dict) else int(games)
        if n <= 0:
            continue
        if pol == "distilled" and pol not in policies_given:
            try:  # weights fitted on another ruleset: the default ladder skips the row
                check_policy_ruleset(pol, None, load_ruleset(ruleset))
            except ValueError as exc:
                print(f"ladder: skipping distilled: {exc}", file=sys.stderr)
                continue
        search = resolve_search(pol) is not None
        params = {"horizon": horizon} if search and horizon else None
        t = time.perf_counter()
        rec = play_games(n, players=players, seed=seed, policy=pol, policy_params=params,
                         ruleset=ruleset, threads=threads)
        dt = time.perf_counter() - t
        w = int((rec["outcome"] == K.OUT_WIN).sum())
        lo, hi = wilson_interval(w, n)
        name = f"{pol} (h={horizon})" if params else pol
        rows.append({"player": name, "games": n, "wins": w, "win_rate": w / n,
                     "ci_low": float(lo), "ci_high": float(hi),
                     "mean_round": float(np.mean(rec["round_reached"])),
                     "games_per_s": n / dt})
    return pd.DataFrame(rows).set_index("player")


def to_markdown(df: pd.DataFrame) -> str:
    lines = ["| player | games | win rate [95 % CI] | mean round | games/s |",
             "|---|---:|---|---:|---:|"]
    for name, r in df.iterrows():
        lines.append(f"| {name} | {int(r.games)} | {r.win_rate:.1%} [{r.ci_low:.1%}, {r.ci_high:.1%}] "
                     f"| {r.mean_round:.2f} | {r.games_per_s:,.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m simlib.games.until_daylight.ladder",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=2000, help="games per player (default 2000)")
    p.add_argument("--search-games", type=int, default=None,
                   help="games for rollout-100 and clairvoyant (default: --games)")
    p.add_argument("--deep-games", type=int, default=None,
                   help="games for rollout-1000 (default: --search-games / 5)")
    p.add_argument("--rules", default="reference", help="reference, light, calibrated, or a path")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--policies", default=",".join(LADDER))
    p.add_argument("--horizon", type=int, default=0,
                   help="search players: stop each continuation at the end of its H-th "
                        "round and value the position (default 0: play to the end)")
    a = p.parse_args(argv)
    try:
        rules = ruleset_named(a.rules)
    except (RulesetError, ValueError, OSError) as e:
        print(f"ladder: error: {e}", file=sys.stderr)
        return 2
    sg = a.games if a.search_games is None else a.search_games
    dg = max(1, sg // 5) if a.deep_games is None else a.deep_games
    games = {"random": a.games, "baseline": a.games, "tuned": a.games, "distilled": a.games,
             "rollout-100": sg,
             "clairvoyant": sg,
             "rollout-1000": dg}
    pols = [x.strip() for x in a.policies.split(",") if x.strip()]
    if tuple(pols) == LADDER:
        pols = LADDER  # the default ladder: `distilled` only where its weights apply
    try:
        df = ladder(a.players, {k: games.get(k, sg) for k in pols}, rules, a.seed, pols, a.threads,
                    a.horizon)
    except ValueError as e:
        print(f"ladder: error: {e}", file=sys.stderr)
        return 2
    print(f"Ladder: {a.players} players, rules {a.rules} (fingerprint {rules.fingerprint()[:12]}), seed {a.seed}")
    print(to_markdown(df))
    return 0


if __name__ == "__main__":
    sys.exit(main())
