"""Day Night Z's campaign: N adventures in a row for one team, with the travel (§6) and
the shelter (§7) between them (``kernels/campaign_nb.py`` plays them).

>>> res = play_campaigns(40, adventures=2, team_size=2, seed=1)
>>> list(res["campaigns"].columns[:4])
['game', 'team_size', 'start_hour', 'adventures']

``play_campaigns(n, *, adventures=3, team_size=None, start_hour=None, ruleset=None, seed=0,
start=0, policy="baseline", params=None, shelter=None, threads=None, progress=None)`` returns
``{"campaigns": DataFrame (one row a campaign, codes.CAMPAIGN_FIELDS), "adventures":
DataFrame (one row an adventure played, codes.ADVENTURE_FIELDS)}``; campaign ``g`` is a
pure function of (seed, g).  ``campaign_tables`` and ``render_campaign`` make the tables
``simlib simulate --game day-night-z --campaign N`` prints.

Every player of a single adventure plays a campaign: the kernels' own (random, baseline,
distilled) with ``campaign_batch_nb``, and the search players (``rollout``, its named
budgets such as ``rollout-100``, and ``clairvoyant``, which peeks at the adventure's real
dice and decks: an upper bound) with ``campaign_search_batch_nb``, one campaign a call on
the threads, compiled only when a search player plays.  The travel and the shelter are
the shelter player's (``SHELTER_PARAMS``) whoever plays the adventures.
"""
from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ...core.paired import mcnemar_exact, newcombe_paired_interval, paired_counts
from ...core.parallel import default_threads, run_ranges
from ...core.seats import check_games
from ...core.stats import wilson_interval
from ...core.tables import ruleset_label
from . import codes as K
from .kernels.campaign_nb import campaign_batch_nb, campaign_search_batch_nb
from .play import check_hour, check_team, packed, rules_of
from .ruleset import parse_hours
from .policies import POLICIES, check_ruleset, param_array, require_available

__all__ = ["SHELTER_PARAMS", "play_campaigns", "campaign_tables", "render_campaign",
           "campaign_report", "shelter_array", "MAX_ADVENTURES"]

MAX_ADVENTURES = 20
# the shelter player's named parameters and defaults (``--shelter name=value``), in the
# kernel's order (``codes.SH_*``)
SHELTER_PARAMS: dict[str, tuple[float, str]] = {
    "heal_missing": (2.0, "visit the infirmary (else the rest zone) when this much health is missing"),
    "supplies_reserve": (2.0, "stock supplies when fewer than the meal plus this, ammunition (a "
                              "ranged weapon's) when fewer than this"),
    # the unknown path by default: over 36 settings of these four (5,000 campaigns of 3 at
    # teams of 2 and 4, seed 11) it was the one choice that moved the adventures won much
    # (+0.06 a campaign); see the game page, "The campaign"
    "unknown_path": (1.0, "1: travel the unknown (red) path, dice at each icon; 0: the known one"),
    "build": (1.0, "1: spend the victory points on the build order; 0: never build"),
    "skills": (1.0, "1: survivors buy skills with their survival points in the shelter; 0: never"),
    "sp_keep": (3.0, "survival points a survivor keeps for the adventure when he buys skills"),
    # wounds to the rest zone by default: paired on 20,000 campaigns of 3 (seed 3) the
    # infirmary's Aid check for +2 health won 0.008-0.010 adventures fewer than the rest
    # zone's certain +1 health and -2 stress (stress colours every check that follows)
    "infirmary_wounds": (0.0, "1: wounds go to the infirmary when it is built; 0: to the rest "
                              "zone (the infirmary for infections only)"),
}


def shelter_array(shelter: Mapping[str, float] | None = None) -> np.ndarray:
    """The shelter player's parameter vector; unknown names raise ``ValueError`` naming the
    allowed ones."""
    vals = {k: v for k, (v, _) in SHELTER_PARAMS.items()}
    for k, v in (shelter or {}).items():
        if k not in vals:
            raise ValueError(f"unknown shelter parameter {k!r}; allowed: {', '.join(SHELTER_PARAMS)}")
        v = float(v)
        if not np.isfinite(v) or v < 0:
            raise ValueError(f"shelter parameter {k} must be a finite number >= 0; got {v:g}")
        if k in ("unknown_path", "build", "skills", "infirmary_wounds") and v not in (0.0, 1.0):
            raise ValueError(f"shelter parameter {k} must be 0 or 1; got {v:g}")
        vals[k] = v
    return np.array([vals[k] for k in SHELTER_PARAMS], dtype=np.float64)


def play_campaigns(n_campaigns: int, *, adventures: int = 3, team_size: int | None = None,
                   start_hour: int | None = None, ruleset=None, seed: int = 0, start: int = 0,
                   policy: str = "baseline", params: Mapping[str, float] | None = None,
                   shelter: Mapping[str, float] | None = None, threads: int | None = None,
                   progress: Callable[[int, int], None] | None = None) -> dict:
    """Play ``n_campaigns`` campaigns of ``adventures`` adventures (module docstring).
    ``progress(done, n)``: called as a search player's campaigns finish (kernel players:
    not called; their campaigns take a fraction of a second)."""
    rules = rules_of(ruleset)
    team = check_team(team_size, rules)
    hour = check_hour(start_hour, rules)
    if isinstance(adventures, bool) or not isinstance(adventures, (int, np.integer)) \
            or not 1 <= adventures <= MAX_ADVENTURES:
        raise ValueError(f"adventures must be a whole number from 1 to {MAX_ADVENTURES}; got {adventures!r}")
    require_available(policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; allowed: {', '.join(POLICIES)}")
    par = param_array(policy, params)
    check_ruleset(policy, par, rules)  # distilled weights refused on another ruleset
    sh = shelter_array(shelter)
    n = check_games(n_campaigns)
    if int(seed) < 0 or int(start) < 0:
        raise ValueError(f"seed and start must be >= 0; got {seed}, {start}")
    out = np.zeros((n, K.CAMPAIGN_REC), dtype=np.int64)
    adv = np.zeros((n, int(adventures), K.ADVENTURE_REC), dtype=np.int64)
    dice, tr, spn, rl = packed(rules)
    args = (dice, tr, spn, rl, rules.pack_campaign(), np.int64(seed), np.int64(start),
            np.int64(adventures), np.int64(team), np.int64(hour), np.int64(POLICIES[policy].id),
            par, sh, out, adv)
    if POLICIES[policy].search:
        _run_search(args, n, threads, progress)
    else:
        run_ranges(campaign_batch_nb, args, n, threads)
    camps = pd.DataFrame(out, columns=list(K.CAMPAIGN_FIELDS))
    camps.insert(2, "start_hour", hour)
    flat = adv.reshape(-1, K.ADVENTURE_REC)
    advs = pd.DataFrame(flat[flat[:, -1] == 1], columns=list(K.ADVENTURE_FIELDS))
    return {"campaigns": camps, "adventures": advs.drop(columns=["played"])}


def _run_search(args: tuple, n: int, threads: int | None,
                progress: Callable[[int, int], None] | None) -> None:
    """A search player's campaigns, one a call of ``campaign_search_batch_nb`` (it releases
    the GIL) on ``threads`` threads; a campaign is a pure function of (seed, its index), so
    the threads change nothing."""
    t = default_threads() if threads is None else max(1, int(threads))

    def one(i: int) -> None:
        campaign_search_batch_nb(*args, np.int64(i), np.int64(i + 1))

    with ThreadPoolExecutor(max_workers=t) as pool:
        for done, _ in enumerate(pool.map(one, range(n)), 1):
            if progress is not None:
                progress(done, n)


def _rate(k: np.ndarray, n: np.ndarray) -> pd.DataFrame:
    lo, hi = wilson_interval(k, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n > 0, k / np.maximum(n, 1), np.nan)
    return pd.DataFrame({"rate": rate, "lo": lo, "hi": hi})


def campaign_tables(results: Sequence[dict]) -> dict[str, pd.DataFrame]:
    """Tables of one or more ``play_campaigns`` results (a cell each: a team size and a
    start hour), with 95 % Wilson intervals on the rates."""
    camps = pd.concat([r["campaigns"] for r in results], ignore_index=True)
    advs = pd.concat([r["adventures"] for r in results], ignore_index=True)
    cell = ["team_size", "start_hour"]
    g = camps.groupby(cell)
    n = g.size()
    out: dict[str, pd.DataFrame] = {}
    succ = _rate(g["success"].sum().to_numpy(), n.to_numpy())
    by = n.index.to_frame(index=False)
    out["by_team"] = by.assign(
        campaigns=n.to_numpy(), success=succ["rate"], success_lo=succ["lo"], success_hi=succ["hi"],
        accomplished_mean=g["accomplished"].mean().to_numpy(), alive_end_mean=g["alive"].mean().to_numpy(),
        vp_earned_mean=g["vp_earned"].mean().to_numpy(), vp_spent_mean=g["vp_spent"].mean().to_numpy(),
        facilities_built_mean=g["facilities_built"].mean().to_numpy(),
        skills_bought_mean=g["skills_bought"].mean().to_numpy(),
        sp_on_skills_mean=g["sp_on_skills"].mean().to_numpy(),
        allies_mean=g["allies_joined"].mean().to_numpy())
    ga = advs.groupby(cell + ["adventure"])
    na = ga.size()
    keys = na.index.to_frame(index=False)
    reached = n.reindex(pd.MultiIndex.from_frame(keys[cell])).to_numpy()
    r = _rate(ga["success"].sum().to_numpy(), na.to_numpy())
    out["by_adventure"] = keys.assign(
        played=na.to_numpy(), played_share=na.to_numpy() / reached, success=r["rate"],
        success_lo=r["lo"], success_hi=r["hi"], alive_start_mean=ga["alive_start"].mean().to_numpy(),
        alive_end_mean=ga["alive"].mean().to_numpy())
    dead = g[["dead_adventures", "dead_travel", "dead_shelter"]].mean()
    causes = advs.groupby(cell)[["dead_damage", "dead_infection", "dead_hunger"]].sum()
    causes = causes.reindex(dead.index, fill_value=0).div(n, axis=0)
    out["deaths"] = by.assign(
        adventure_damage=causes["dead_damage"].to_numpy(),
        adventure_infection=causes["dead_infection"].to_numpy(),
        adventure_hunger=causes["dead_hunger"].to_numpy(),
        travel=dead["dead_travel"].to_numpy(), shelter=dead["dead_shelter"].to_numpy())
    out["accomplished"] = (g["accomplished"].value_counts(normalize=True)
                           .unstack(fill_value=0.0).reset_index())
    out["race"] = _race(camps, advs, cell)
    return out


def _race(camps: pd.DataFrame, advs: pd.DataFrame, cell: list[str]) -> pd.DataFrame:
    """The race across the campaign, by cell: after adventure k (0: the start), the share
    of campaigns that won every adventure so far, and the survivors alive (a campaign that
    ended counts with nobody alive)."""
    rows = []
    for key, c in camps.groupby(cell):
        n, team, size = len(c), int(c.team_size.iloc[0]), int(c.adventures.iloc[0])
        a = advs.merge(c[cell + ["game"]], on=cell + ["game"]).set_index(["game", "adventure"])
        won = a["success"].unstack(fill_value=0).reindex(index=c.game, columns=range(1, size + 1), fill_value=0)
        alive = a["alive"].unstack(fill_value=0).reindex(index=c.game, columns=range(1, size + 1), fill_value=0)
        perfect = won.cumprod(axis=1)
        rows.append({**dict(zip(cell, key)), "adventure": 0, "perfect": 1.0, "alive_mean": float(team)})
        for k in range(1, size + 1):
            rows.append({**dict(zip(cell, key)), "adventure": k, "perfect": perfect[k].sum() / n,
                         "alive_mean": alive[k].mean()})
    return pd.DataFrame(rows)


def campaign_report(tables: dict[str, pd.DataFrame], *, adventures: int, games: int, header: str,
                    command: str = ""):
    """The campaign's HTML report: success by team size and start hour, the race across the
    campaign (every adventure won so far, survivors alive), success by adventure, deaths by
    cause, and how the numbers were made."""
    from ...core import plots
    from ...core.report import Report, Section, figure_block, frame_table

    race = tables["race"]

    def line(col, ylabel, pct):
        def draw(ax):
            for i, (key, d) in enumerate(race.groupby(["team_size", "start_hour"])):
                ax.plot(d.adventure, d[col] * (100 if pct else 1), marker="o",
                        color=plots.PALETTE[i % len(plots.PALETTE)],
                        label=f"team of {key[0]}, {key[1]:02d}:00")
            ax.set_xlabel("adventures played")
            ax.set_ylabel(ylabel)
            ax.set_xticks(range(adventures + 1))
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8, frameon=False)
        return draw

    bt = tables["by_team"]
    best = bt.loc[bt.success.idxmax()]
    rep = Report(f"Day Night Z: campaigns of {adventures} adventures",
                 subtitle=f"{games} campaigns a cell; " + header,
                 headline=(f"Best cell: a team of {int(best.team_size)} starting at "
                           f"{int(best.start_hour):02d}:00 wins every adventure in "
                           f"{100 * best.success:.1f} % of campaigns "
                           f"[{100 * best.success_lo:.1f}, {100 * best.success_hi:.1f}]."),
                 notes=["A campaign succeeds when every adventure is accomplished; a failed "
                        "adventure earns no VP and the living go on. Rates of a bot (the "
                        "baseline and the shelter player), not of human players."])
    rep.add(Section("Campaign success", [frame_table(
        bt, percent=["success", "success_lo", "success_hi"],
        titles={"team_size": "team", "start_hour": "start", "success_lo": "95 % low",
                "success_hi": "95 % high", "accomplished_mean": "adventures won",
                "alive_end_mean": "alive at end", "vp_earned_mean": "VP earned",
                "vp_spent_mean": "VP spent", "facilities_built_mean": "built",
                "skills_bought_mean": "skills", "sp_on_skills_mean": "SP on skills",
                "allies_mean": "allies"})]))
    rep.add(Section("The race across the campaign", [
        figure_block(line("perfect", "% of campaigns with every adventure won so far", True),
                     alt="share of campaigns with every adventure won, after each adventure"),
        figure_block(line("alive_mean", "survivors alive (ended campaigns: 0)", False),
                     alt="survivors alive after each adventure")],
        intro="After each adventure: the campaigns still without a failure, and the survivors left."))
    rep.add(Section("By adventure", [frame_table(
        tables["by_adventure"], percent=["played_share", "success", "success_lo", "success_hi"],
        titles={"team_size": "team", "start_hour": "start", "played_share": "reached",
                "success_lo": "95 % low", "success_hi": "95 % high",
                "alive_start_mean": "alive at start", "alive_end_mean": "alive at end"})],
        intro="Of the campaigns that reached each adventure."))
    rep.add(Section("Deaths a campaign, by cause", [frame_table(
        tables["deaths"], titles={"team_size": "team", "start_hour": "start",
                                  "adventure_damage": "adventure: damage",
                                  "adventure_infection": "adventure: infection",
                                  "adventure_hunger": "adventure: hunger"})]))
    rep.add(Section("How these numbers were made", [frame_table(pd.DataFrame(
        {"what": ["run", "command"], "value": [header, command or "(Python)"]}), sortable=False)]))
    return rep


def render_campaign(tables: dict[str, pd.DataFrame], *, adventures: int, games: int,
                    header: str = "") -> str:
    """The tables as text (what ``simlib simulate --campaign`` prints)."""
    def pct(x):
        return "   -  " if not np.isfinite(x) else f"{100 * x:5.1f} %"

    def cell(r):  # the row's cell: team size and start hour
        return f"{int(r.team_size):>4}  {int(r.start_hour):02d}:00"

    def rate(r, share):  # a rate and its interval, after the share of campaigns it is of
        return f"{pct(share)}  {pct(r.success)}  [{pct(r.success_lo)}, {pct(r.success_hi)}]"

    lines = []
    if header:
        lines += [header, ""]
    lines.append(f"Campaigns of {adventures} adventure{'s' if adventures != 1 else ''}, "
                 f"{games} a cell (95 % Wilson intervals)")
    lines.append("success: every adventure accomplished; a failed adventure (out of turns) earns "
                 "no VP and the living go on")
    lines.append("")
    lines.append("team  start  campaigns  success  [95 % CI]           adventures won  "
                 "alive at end  VP earned  VP spent  built  skills  SP on skills  allies")
    for _, r in tables["by_team"].iterrows():
        lines.append(f"{cell(r)}  {int(r.campaigns):>9}  {pct(r.success)}  "
                     f"[{pct(r.success_lo)}, {pct(r.success_hi)}]  {r.accomplished_mean:>14.2f}  "
                     f"{r.alive_end_mean:>12.2f}  {r.vp_earned_mean:>9.2f}  {r.vp_spent_mean:>8.2f}  "
                     f"{r.facilities_built_mean:>5.2f}  {r.skills_bought_mean:>6.2f}  {r.sp_on_skills_mean:>12.2f}  "
                     f"{r.allies_mean:>6.2f}")
    lines += ["", "By adventure (of the campaigns that reached it)",
              "team  start  adventure  reached  success  [95 % CI]           alive at start  alive at end"]
    for _, r in tables["by_adventure"].iterrows():
        lines.append(f"{cell(r)}  {int(r.adventure):>9}  {rate(r, r.played_share)}  "
                     f"{r.alive_start_mean:>14.2f}  {r.alive_end_mean:>12.2f}")
    race = tables["race"]
    lines += ["", "By campaign length: every adventure won, and survivors alive, after k adventures "
              "(a campaign of k is this run's first k)",
              "team  start  " + "  ".join(f"{'k=' + str(k) + ': won / alive':>18}" for k in range(1, adventures + 1))]
    for _, d in race[race.adventure > 0].groupby(["team_size", "start_hour"]):
        r = d.iloc[0]
        cols = [f"{pct(x.perfect)} / {x.alive_mean:.2f}" for x in d.itertuples()]
        lines.append(f"{cell(r)}  " + "  ".join(f"{c:>18}" for c in cols))
    lines += ["", "Deaths a campaign, by cause",
              "team  start  adventure: damage  infection  hunger   travel  shelter"]
    for _, r in tables["deaths"].iterrows():
        lines.append(f"{cell(r)}  {r.adventure_damage:>17.3f}  {r.adventure_infection:>9.3f}  "
                     f"{r.adventure_hunger:>6.3f}  {r.travel:>7.3f}  {r.shelter:>7.3f}")
    return "\n".join(lines)


GAMES_PER_CELL = 2000


def _ticker(label: str, t0: float) -> Callable[[int, int], None]:
    """A search player's campaigns as they finish, on stderr: at most a line every 10 s,
    and the last one."""
    shown_at = [time.perf_counter()]

    def tick(done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - shown_at[0] < 10.0:
            return
        shown_at[0] = now
        print(f"campaigns: {label}: {done}/{total} ({now - t0:.1f} s)", file=sys.stderr, flush=True)
    return tick


def _cell_done(label: str, n: int, t0: float) -> None:
    print(f"campaigns: {label} done ({n} campaigns, {time.perf_counter() - t0:.1f} s)",
          file=sys.stderr, flush=True)


def run_cli(*, adventures: int, games=None, players=None, characters=None, seed: int = 0,
            policy: str = "baseline", params=None, shelter=None, ruleset=None, threads=None,
            progress: bool = True, command: str = "", html=None) -> str:
    """``simlib simulate --game day-night-z --campaign N``: campaigns for every team size of
    ``players`` (default: all) and start hour of ``characters`` (default: the scenario's),
    ``games`` a cell (default 2000); the tables as text."""

    rules = rules_of(ruleset)
    lo, hi = rules.min_players(), rules.max_players()
    teams = list(players) if players else list(range(lo, hi + 1))
    hours = (int(rules.get("scenario.start_hour")),) if characters is None else parse_hours(characters)
    n = GAMES_PER_CELL if games is None else int(games)
    shelter_array(shelter)  # bad names fail before any game is played
    if html:
        from ...core.report import check_output_path

        check_output_path(html)
    for t in teams:
        check_team(t, rules)
    results = []
    t0 = time.perf_counter()
    for t in teams:
        for h in hours:
            label = f"team {t}, {h:02d}:00"
            results.append(play_campaigns(n, adventures=adventures, team_size=t, start_hour=h,
                                          ruleset=rules, seed=seed, policy=policy, params=params,
                                          shelter=shelter, threads=threads,
                                          progress=_ticker(label, t0) if progress else None))
            if progress:
                _cell_done(label, n, t0)
    shown = ", ".join(f"{k}={v:g}" for k, v in (shelter or {}).items())
    prov = {"ruleset_lineage": rules.lineage, "ruleset_fingerprint": rules.fingerprint(),
            "ruleset_changes": rules.changes()}
    header = (f"Day Night Z campaign, seed {seed}, policy {policy}, shelter player "
              f"{shown or 'defaults'}; ruleset {ruleset_label(prov)}, "
              f"{time.perf_counter() - t0:.1f} s")
    tables = campaign_tables(results)
    text = render_campaign(tables, adventures=adventures, games=n, header=header) + "\n"
    if html:
        path = campaign_report(tables, adventures=adventures, games=n, header=header,
                               command=command).write(html)
        text += f"\nwrote {path}\n"
    return text


def compare_campaigns(games: int, *, adventures: int = 3, players=None, characters=None,
                      seed: int = 0, policy: str = "baseline", params=None, rulesets=(None, None),
                      shelters=(None, None), threads=None, progress: bool = False) -> pd.DataFrame:
    """Variants A and B on the same campaigns (same seed and campaign indices: common random
    numbers), by cell (team size, start hour): campaign success of each, B − A with
    Newcombe's paired 95 % interval and McNemar's exact p, and the paired mean differences
    of adventures won and survivors alive at the end (± 1.96 standard errors).
    ``progress``: a line on stderr as each side of each cell is done (and, for a search
    player, as its campaigns finish)."""

    ra, rb = (rules_of(r) for r in rulesets)
    lo, hi = ra.min_players(), ra.max_players()
    teams = list(players) if players else list(range(lo, hi + 1))
    hours = (int(ra.get("scenario.start_hour")),) if characters is None else parse_hours(characters)
    for sh in shelters:
        shelter_array(sh)
    rows = []
    t0 = time.perf_counter()
    for t in teams:
        for h in hours:
            sides = []
            for side, r, sh in zip("AB", (ra, rb), shelters):
                label = f"team {t}, {h:02d}:00, {side}"
                sides.append(play_campaigns(games, adventures=adventures, team_size=t, start_hour=h,
                                            ruleset=r, seed=seed, policy=policy, params=params,
                                            shelter=sh, threads=threads,
                                            progress=_ticker(label, t0) if progress else None)["campaigns"])
                if progress:
                    _cell_done(label, games, t0)
            x, y = sides
            a, b, c, d = paired_counts(x.success.to_numpy() == 1, y.success.to_numpy() == 1)
            diff, low, high = newcombe_paired_interval(a, c, b, d)  # B - A
            row = {"team_size": t, "start_hour": h, "campaigns": games,
                   "success_a": (a + b) / games, "success_b": (a + c) / games,
                   "b_minus_a": float(diff), "low": float(low), "high": float(high),
                   "mcnemar_p": float(mcnemar_exact(b, c))}
            for col in ("accomplished", "alive"):
                dd = (y[col] - x[col]).to_numpy(float)
                row[f"{col}_diff"] = dd.mean()
                row[f"{col}_ci"] = 1.96 * dd.std(ddof=1) / np.sqrt(len(dd)) if len(dd) > 1 else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def render_compare(df: pd.DataFrame, *, adventures: int, header: str) -> str:
    lines = [header, "",
             f"Campaigns of {adventures} adventures, the same campaigns under A and B "
             "(B - A; 95 % intervals: Newcombe's paired for success, 1.96 SE for the means)", "",
             "team  start  campaigns   A success   B success   B-A points  [95 % CI]           "
             "McNemar p   adventures won B-A   alive at end B-A"]
    for r in df.itertuples():
        lines.append(f"{r.team_size:>4}  {r.start_hour:02d}:00  {r.campaigns:>9}  {100 * r.success_a:>8.1f} %  "
                     f"{100 * r.success_b:>8.1f} %  {100 * r.b_minus_a:>+10.2f}  "
                     f"[{100 * r.low:+6.2f}, {100 * r.high:+6.2f}]  {r.mcnemar_p:>9.2g}   "
                     f"{r.accomplished_diff:>+8.3f} ± {r.accomplished_ci:.3f}   "
                     f"{r.alive_diff:>+6.3f} ± {r.alive_ci:.3f}")
    return "\n".join(lines) + "\n"


def compare_cli(*, adventures: int, games=None, players=None, characters=None, seed: int = 0,
                policy: str = "baseline", params=None, rulesets=(None, None),
                shelters=(None, None), threads=None, changes: str = "", progress: bool = True) -> str:
    """``simlib compare --game day-night-z --campaign N ...``: the table as text."""

    t0 = time.perf_counter()
    n = GAMES_PER_CELL if games is None else int(games)
    df = compare_campaigns(n, adventures=adventures, players=players, characters=characters,
                           seed=seed, policy=policy, params=params, rulesets=rulesets,
                           shelters=shelters, threads=threads, progress=progress)
    labels = []
    for side, r, sh in zip("AB", rulesets, shelters):
        rr = rules_of(r)
        prov = {"ruleset_lineage": rr.lineage, "ruleset_fingerprint": rr.fingerprint(),
                "ruleset_changes": rr.changes()}
        shown = ", ".join(f"{k}={v:g}" for k, v in (sh or {}).items()) or "defaults"
        labels.append(f"{side} = ruleset {ruleset_label(prov)}, shelter player {shown}")
    header = (f"Day Night Z campaign compare, seed {seed}, policy {policy}, "
              f"{time.perf_counter() - t0:.1f} s\n" + "\n".join(labels)
              + (f"\nB changes from A: {changes}" if changes else ""))
    return render_compare(df, adventures=adventures, header=header)
