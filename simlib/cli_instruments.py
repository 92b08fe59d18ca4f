"""Command line of the designer's instruments: ``simlib compare``, ``simlib sweep``,
``simlib calibrate``, ``simlib sensitivity`` and ``simlib simulate --precision``.

Every command validates all of its input before playing a game: bad input prints one
line and exits with status 2, writing nothing.  ``--out`` writes the result table
(parquet with the provenance in its metadata, or CSV with a ``.json`` next to it).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from .cli_args import UsageError, changes_line, game_arg
from .core.params import add_run_options, count, number

__all__ = ["add_parsers", "COMMANDS"]


def _pct(x) -> str:
    return "   -" if not np.isfinite(x) else f"{100 * x:.2f}"


def _common(p: argparse.ArgumentParser, policy_append: bool = False, rules_append: bool = False,
            games_default: int | None = None) -> None:
    p.add_argument("--players", default=None, metavar="N[,N...]",
                   help="player counts (default: every count the rules allow)")
    p.add_argument("--characters", action="append", metavar="TEAM|all|random",
                   help="a team, 'all' or 'random' (default), as in simlib simulate; Mort: "
                        "the side the compared players sit on (killer, the default, or "
                        "survivors); Day Night Z: start hours")
    game_arg(p)
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    if policy_append:
        p.add_argument("--policy", action="append", metavar="NAME[:P=V...]",
                       help="bot policy; give it twice to compare two policies (in a "
                            "competitive game the focal seat plays each against the field), "
                            "each with its own parameters if need be: --policy baseline "
                            "--policy distilled:any_ruleset=1")
    else:
        p.add_argument("--policy", default=None,
                       help="bot policy (default: the game's; `simlib games` lists them)")
    p.add_argument("--policy-param", action="append", metavar="NAME=VALUE",
                   help="a policy parameter (repeatable)")
    if rules_append:
        p.add_argument("--rules", action="append", metavar="RULESET",
                       help="ruleset: a preset of the game (`simlib games`), a folder, a tweak "
                            ".toml or base+tweak.toml; give it twice to compare two rulesets "
                            "(default: the game's default ruleset)")
    else:
        p.add_argument("--rules", metavar="RULESET",
                       help="ruleset: a preset of the game (`simlib games`), a folder, a tweak "
                            ".toml or base+tweak.toml (default: the game's default ruleset)")
    p.add_argument("--games", default=games_default, metavar="N",
                   help=f"games per variant / value / evaluation (default {games_default})")
    p.add_argument("--seats", action="append", metavar="P1,P2,...",
                   help="a competitive game's table, one policy spec per seat (repeatable, as "
                        "in simlib simulate); the focal player is the first seat's")
    add_run_options(p, None, "FILE.parquet|FILE.csv", "write the result table here",
                    "no progress bar")


def _sets(values, what="--set") -> list[tuple[str, str]]:
    out = []
    for v in values or []:
        key, sep, val = v.partition("=")
        if not sep or not key.strip() or not val.strip():
            raise UsageError(f"{what} {v!r}: expected key=value")
        out.append((key.strip(), val.strip()))
    return out


def add_parsers(sub) -> None:
    """Add the instruments' subcommands to the ``simlib`` parser."""
    c = sub.add_parser("compare", help="two rulesets or two policies on the same games, paired",
                       description="Play the same games under two variants (common random "
                                   "numbers) and compare win rates: paired difference with "
                                   "Newcombe's 95 % interval, McNemar's exact test, the share "
                                   "of games whose result differs, and the games an unpaired "
                                   "comparison would need.")
    _common(c, policy_append=True, rules_append=True, games_default=20000)
    c.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="variant B = the ruleset with this value changed (repeatable)")
    c.add_argument("--campaign", type=int, metavar="N", default=None,
                   help="compare campaigns of N adventures (games that have a campaign: "
                        "day-night-z); --games counts campaigns a cell (default 20000, as for "
                        "games)")
    c.add_argument("--shelter", action="append", metavar="NAME=VALUE",
                   help="with --campaign: the shelter player of both variants (repeatable)")
    c.add_argument("--shelter-b", action="append", metavar="NAME=VALUE",
                   help="with --campaign: variant B = A's shelter player with this parameter "
                        "changed (repeatable)")

    s = sub.add_parser("sweep", help="win rate against one or two parameters (same seeds)",
                       description="Win rate, loss causes and mean round reached per value of "
                                   "one or two parameters, the same games at every value.")
    _common(s, games_default=5000)
    s.add_argument("--set", action="append", metavar="KEY=LO:HI:STEP",
                   help="a parameter and its values (lo:hi:step or a,b,c); once or twice")
    s.add_argument("--plot", metavar="FILE.png", help="save the curve with its 95 %% band")

    k = sub.add_parser("calibrate", help="the value of a parameter that gives a target win rate",
                       description="Bisection (integer ruleset values) on fixed seed blocks, "
                                   "growing the games per stage until the 95 % interval at the "
                                   "answer is within --tolerance; brentq for policy.* (real) "
                                   "parameters.")
    _common(k, games_default=2000)
    k.add_argument("--param", metavar="KEY", help="ruleset key or policy.<name>")
    k.add_argument("--target", metavar="RATE", help="target win rate in (0, 1)")
    k.add_argument("--range", metavar="LO:HI", help="search range (default: allowed min : 4x+10)")
    k.add_argument("--tolerance", default="0.01",
                   help="half-width of the 95 %% interval at the answer (default 0.01)")
    k.add_argument("--max-games", default="128000", help="games cap per value (default 128000)")

    e = sub.add_parser("sensitivity", help="which assumed numbers move the win rate (SALib)",
                       description="Morris screening (default) or Sobol indices over ranges of "
                                   "ruleset values (default: every 'assumed' integer, +-30 %, at "
                                   "least +-1) plus a dummy seed parameter (the noise floor).")
    _common(e, games_default=1000)
    for act in e._actions:  # the analysis is about the raw assumptions by default
        if act.dest == "rules":
            act.help = ("base ruleset (default: the game's sensitivity base, the raw "
                        "assumptions: reference for Until Daylight)")
    e.add_argument("--method", choices=("morris", "sobol"), default="morris")
    e.add_argument("--param", action="append", metavar="KEY[=LO:HI]",
                   help="analyse only these (repeatable; default every assumed integer)")
    e.add_argument("--trajectories", default="6", help="Morris trajectories (default 6)")
    e.add_argument("--levels", default="4", help="Morris grid levels (default 4)")
    e.add_argument("--top", default=None, help="sobol: screen with Morris, then the top N")
    e.add_argument("--samples", default="32", help="sobol base samples (default 32)")
    e.add_argument("--plot", metavar="FILE.png", help="save the ranked bar plot")
    e.add_argument("--show", default="25", help="rows to print per output (default 25)")


# =========================================================================== helpers
def _base_kwargs(a) -> dict:
    from .cli_args import characters as _characters
    from .cli_args import int_list as _int_list
    from .cli_args import policy_params as _policy_params
    from .cli_args import progress as _progress

    players = _int_list(a.players, "--players") if a.players else None
    kw = {"players": players, "characters": _characters(a.characters), "seed": a.seed,
          "policy_params": _policy_params(a.policy_param),
          "progress": _progress(a.no_progress), "game": _game(a)}
    if getattr(a, "seats", None):
        from .cli_args import seats as _seats

        kw["seats"] = _seats(a.seats)
    if a.threads is not None:
        kw["threads"] = count(a.threads, "--threads")
    if a.seed < 0:
        raise UsageError(f"--seed must be >= 0; got {a.seed}")
    return kw


def _game(a) -> str:
    from .core.games import get_game

    try:
        return get_game(getattr(a, "game_name", None)).name
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _check_out(a) -> None:
    from .core.instruments import check_out

    check_out(a.out, a.force)
    if getattr(a, "plot", None):
        p = Path(a.plot)
        if p.suffix not in (".png", ".svg", ".pdf"):
            raise UsageError(f"--plot {a.plot}: expected a .png, .svg or .pdf file name")
        if p.exists() and not a.force:
            raise UsageError(f"{p} exists; pass --force to replace it")
        if not p.parent.is_dir():
            raise UsageError(f"{p}: no such directory {p.parent}")


def _header(prov: dict, what: str) -> str:
    name = str(prov.get("base_ruleset_lineage") or prov.get("ruleset_lineage")
               or prov.get("base_ruleset_origin", prov.get("ruleset_origin", "")))
    who = (f"policy {prov.get('policy')}" if prov.get("policy")
           else "tables " + "; ".join(prov.get("measured_tables") or prov.get("table_labels", [])))
    success = f"\n'win': {prov['success']}." if prov.get("success") else ""
    base = "base_ruleset_lineage" in prov
    changed = changes_line(prov, *(("base_ruleset_lineage", "base_ruleset_changes") if base
                                   else ("ruleset_lineage", "ruleset_changes")))
    success = (f"\n{changed}" if changed else "") + success
    return (f"{prov.get('display_name', '')} {what}: seed {prov.get('seed')}, players "
            f"{','.join(map(str, prov.get('players', [])))}, {who}, "
            f"ruleset {name} "
            f"({str(prov.get('base_ruleset_fingerprint', prov.get('ruleset_fingerprint', '')))[:12]}), "
            f"{prov.get('elapsed_s', 0):.1f} s{success}\n"
            "Note: win rates of a bot, not of human players; intervals are 95 %.")


def _wrote(a, extra: str = "") -> str:
    return f"\nwrote {a.out}{extra}\n" if a.out else ""


def _write_table_and_plot(a, res, kind: str) -> None:
    """``--out`` (the result's table with its provenance) and ``--plot``, then what was written."""
    from .core.instruments import write_frame

    if a.out:
        write_frame(res.table, a.out, res.provenance, kind, a.force)
    if a.plot:
        res.plot(a.plot)
    if a.out or a.plot:
        sys.stdout.write("\nwrote " + ", ".join(x for x in (a.out, a.plot) if x) + "\n")


# =========================================================================== compare
def cmd_compare(a) -> int:
    from .core.instruments import compare, write_frame

    if a.campaign is not None or a.shelter or a.shelter_b:
        return _compare_campaigns(a)
    kw = _base_kwargs(a)
    games = count(a.games, "--games")
    sets = _sets(a.set)
    rules, policies = a.rules or [], a.policy or []
    axes = (len(rules) == 2) + bool(sets) + (len(policies) == 2)
    if axes != 1 or len(rules) > 2 or len(policies) > 2:
        raise UsageError("compare two things: --rules A --rules B, or --set key=value (on one "
                         "--rules), or --policy P --policy Q")
    _check_out(a)
    call = dict(kw, ruleset=rules[0] if len(rules) == 1 else None,
                policy=policies[0] if len(policies) == 1 else None)
    if len(rules) == 2:
        res = compare(games, rulesets=rules, **call)
    elif sets:
        res = compare(games, sets=dict(sets), **call)
    else:
        res = compare(games, policies=policies, **call)
    sys.stdout.write(render_compare(res))
    if a.out:
        write_frame(res.table, a.out, res.provenance, "compare", a.force)
        sys.stdout.write(_wrote(a))
    return 0


def _compare_campaigns(a) -> int:
    """``compare --campaign N``: two rulesets, a --set, or two shelter players, on the same
    campaigns (the game's ``campaign_compare``)."""
    from .cli_args import policy_params
    from .core.games import game_names, get_game

    game = get_game(a.game_name)
    if game.campaign is None:
        have = [get_game(n).cli_name for n in game_names() if get_game(n).campaign is not None]
        raise UsageError(f"--campaign: {game.display_name} has no campaign; games with one: "
                         f"{', '.join(have) or 'none'}")
    if a.campaign is None or a.campaign < 1:
        raise UsageError("--shelter and --shelter-b compare campaigns: give --campaign N (N >= 1)")
    if a.out or a.seats:
        raise UsageError("--campaign does not take --out or --seats yet")
    rules, sets = a.rules or [], _sets(a.set)
    sh_a = policy_params(a.shelter, "--shelter") or {}
    sh_b = dict(sh_a, **(policy_params(a.shelter_b, "--shelter-b") or {}))
    axes = (len(rules) == 2) + bool(sets) + bool(a.shelter_b)
    if axes != 1 or len(rules) > 2 or (a.policy and len(a.policy) > 1):
        raise UsageError("compare two things on campaigns: --rules A --rules B, or --set "
                         "key=value, or --shelter-b name=value")
    base = rules[0] if rules else None
    game_rules = game.resolve_ruleset(base)
    rb = rules[1] if len(rules) == 2 else base
    if sets:
        from .cli_args import set_value

        try:
            rb = game_rules.override({k: set_value(k, game_rules.field(k), v) for k, v in sets},
                                     file="--set")
        except ValueError as exc:  # a RulesetError names the key "override: <key>: ..."
            raise UsageError(str(exc).replace("override:", "--set", 1)) from None
    changes = ", ".join(f"{k}={v}" for k, v in sets) if sets else ""
    if a.shelter_b:
        changes = ", ".join(f"shelter {k} {sh_a.get(k, 'default')} -> {v:g}"
                            for k, v in policy_params(a.shelter_b, "--shelter-b").items())
    kw = _base_kwargs(a)
    sys.stdout.write(game.campaign_compare(
        adventures=a.campaign, games=count(a.games, "--games"), players=kw["players"],
        characters=kw["characters"], seed=a.seed, policy=(a.policy or [game.default_policy])[0],
        params=kw["policy_params"], rulesets=(base, rb), shelters=(sh_a, sh_b),
        threads=kw.get("threads"), changes=changes, progress=not a.no_progress))
    return 0


def _b_from_a(variants) -> str:
    """The ruleset values variant B changes from variant A (``key a -> b``), from the two
    variants' recorded changes from the reference."""
    from .core.ruleset import describe_changes

    if "ruleset_changes" not in variants.get("a", {}) or "ruleset_changes" not in variants.get("b", {}):
        return ""
    a = {c["key"]: c for c in variants["a"]["ruleset_changes"]}
    b = {c["key"]: c for c in variants["b"]["ruleset_changes"]}
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        va = a[key]["value"] if key in a else b[key]["reference"]
        vb = b[key]["value"] if key in b else a[key]["reference"]
        if va != vb:
            out.append({"key": key, "reference": va, "value": vb})
    return describe_changes(out)


def _grouping_success(prov: dict, grouping: str) -> str:
    """What a "win" is in a member grouping of ``compare`` when the game declares it other
    than the headline's (``GameInfo.grouping_success``); "" when it is the headline's."""
    from .core.games import get_game

    try:
        return dict(get_game(prov.get("game")).grouping_success).get(grouping, "")
    except ValueError:
        return ""


def render_compare(res) -> str:
    p = res.provenance
    lines = [_header(p, f"compare ({p['games']} games per variant, same seeds)")]
    va, vb = (p.get("variants", {}).get(k, {}) for k in ("a", "b"))
    tables = [v.get("table_labels") for v in (va, vb)]
    for key, label, t in (("A", res.labels[0], tables[0]), ("B", res.labels[1], tables[1])):
        # a compare of two players seats them differently: each arm's tables, spelled out
        lines.append(f"{key} = {label}" + (f" (tables {'; '.join(t)})"
                                           if t and tables[0] != tables[1] else ""))
    if tables[0] != tables[1] and vb.get("side") == "survivors":
        lines.append("A and B play the survivors' side; 'win' stays the killer's, so B-A < 0 "
                     "means B's survivors do better than A's.")
    moved = _b_from_a(p.get("variants", {}))
    if moved:
        lines.append(f"B changes from A: {moved}")
    if getattr(res, "notice", ""):
        lines.append(res.notice)
    lines.append("")

    def block(title, df):
        out = pd.DataFrame({
            "games": df["games"], "A win %": [_pct(x) for x in df["rate_a"]],
            "B win %": [_pct(x) for x in df["rate_b"]],
            "B-A points": [f"{100 * d:+.2f}" for d in df["diff"]],
            "95% CI (Newcombe)": [f"[{100 * lo:+.2f}, {100 * hi:+.2f}]"
                                  for lo, hi in zip(df["diff_low"], df["diff_high"])],
            "McNemar p": [f"{x:.2g}" if x >= 1e-16 else "<1e-16" for x in df["mcnemar_p"]],
            "differ %": [_pct(x) for x in df["discordant_share"]],
            "unpaired games": [("inf" if np.isinf(x) else "-" if not np.isfinite(x) else f"{int(x):,}")
                               for x in df["unpaired_games"]],
        }, index=df.index)
        return f"== {title} ==\n{out.to_string()}"

    overall = res.overall.copy()
    overall.index = ["all"]
    lines.append(block("overall", overall))
    lines.append("")
    lines.append(block("by players", res.by_players))
    lines.append("")
    for name, df in res.tables.items():
        if name not in ("overall", "players"):
            what = _grouping_success(p, name)
            once = (f"each game once, by the focal player's {name[6:]}" if name.startswith("focal_")
                    else f"each game once, by its {name}" if name in p.get("groupings_once", ())
                    else f"a game counts for each {name} in it")
            lines.append(block(f"by {name} ({once}"
                               + (f"; 'win' in this table: {what}" if what else "") + ")", df))
            lines.append("")
    sp = res.speed.copy()
    sp["games_per_s"] = [f"{x:,.0f}" for x in sp["games_per_s"]]
    lines.append("== speed (kernel time per variant, compile excluded) ==\n" + sp.to_string(index=False))
    lines.append("\n'B-A points': B's rate of 'win' (as the header defines it) minus A's: "
                 "positive when that outcome is more frequent under B; 'differ %': games whose "
                 "result differs between A and B; 'unpaired games': games per variant two "
                 "independent runs would need for the same precision.")
    return "\n".join(lines) + "\n"


# =========================================================================== sweep
def cmd_sweep(a) -> int:
    from .core.instruments import (base_rules, parse_range, resolve_param, sweep)

    kw = _base_kwargs(a)
    games = count(a.games, "--games")
    sets = _sets(a.set)
    if not sets or len(sets) > 2:
        raise UsageError("sweep needs one or two --set key=lo:hi:step")
    if len({k for k, _ in sets}) != len(sets):
        raise UsageError("sweep: the same key twice")
    _check_out(a)
    base = base_rules(a.rules, kw["game"])
    params = {k: parse_range(v, resolve_param(k, base, a.policy, kw["game"])) for k, v in sets}
    res = sweep(params, games, policy=a.policy, ruleset=a.rules, **kw)
    sys.stdout.write(render_sweep(res))
    _write_table_and_plot(a, res, "sweep")
    return 0


def render_sweep(res) -> str:
    t = res.table
    out = t[list(res.params) + ["players", "games"]].copy()
    out["win %"] = [_pct(x) for x in t["win_rate"]]
    out["95% CI"] = [f"[{_pct(lo).strip()}, {_pct(hi).strip()}]" for lo, hi in zip(t["ci_low"], t["ci_high"])]
    known = set(res.params) | {"players", "games", "wins", "win_rate", "ci_low", "ci_high"}
    for c in t.columns:
        if c.endswith("_mean"):
            m = c[:-5]
            out[m] = [f"{x:.2f} ± {(h - x):.2f}" for x, h in zip(t[c], t[m + "_high"])]
            known |= {c, m + "_low", m + "_high"}
    for c in t.columns:
        if c not in known:
            out[(c[5:] if c.startswith("loss_") else c) + " %"] = [_pct(x) for x in t[c]]
    p = res.provenance
    notice = getattr(res, "notice", "")
    return (_header(p, f"sweep ({p['games']} games per value, the same seeds at every value)")
            + ("\n" + notice if notice else "") + "\n\n" + out.to_string(index=False) + "\n")


# =========================================================================== calibrate
def cmd_calibrate(a) -> int:
    from .core.instruments import (base_rules, calibrate, parse_value, resolve_param,
                                             write_frame)

    kw = _base_kwargs(a)
    if not a.param:
        raise UsageError("calibrate needs --param KEY")
    if a.target is None:
        raise UsageError("calibrate needs --target RATE (in (0, 1))")
    target = number(a.target, "--target")
    if not 0 < target < 1:
        raise UsageError(f"--target must be strictly between 0 and 1; got {a.target}")
    tol = number(a.tolerance, "--tolerance")
    if not 0 < tol < 0.5:
        raise UsageError(f"--tolerance must be in (0, 0.5); got {a.tolerance}")
    games = count(a.games, "--games")
    max_games = count(a.max_games, "--max-games")
    if max_games < games:
        raise UsageError(f"--max-games {max_games} is below --games {games}")
    base = base_rules(a.rules, kw["game"])
    prm = resolve_param(a.param, base, a.policy, kw["game"])
    lo = hi = None
    if a.range:
        parts = a.range.split(":")
        if len(parts) != 2:
            raise UsageError(f"--range {a.range!r}: expected lo:hi")
        lo, hi = parse_value(parts[0], prm), parse_value(parts[1], prm)
        if not lo < hi:
            raise UsageError(f"--range {a.range}: empty range (need lo < hi)")
    # (no --players: the instrument's own default, 4 where the game plays 4)
    _check_out(a)
    res = calibrate(a.param, target, lo=lo, hi=hi, tolerance=tol, games=games,
                    max_games=max_games, policy=a.policy, ruleset=a.rules, **kw)
    sys.stdout.write(render_calibrate(res))
    if a.out:
        write_frame(res.tried.assign(param=res.param, target=res.target), a.out,
                    res.provenance, "calibrate", a.force)
        sys.stdout.write(_wrote(a, " (every evaluation)"))
    return 0


def render_calibrate(res) -> str:
    p = res.provenance
    tried = res.tried.copy()
    tried["win %"] = [_pct(x) for x in tried["win_rate"]]
    tried["95% CI"] = [f"[{_pct(lo).strip()}, {_pct(hi).strip()}]"
                       for lo, hi in zip(tried["ci_low"], tried["ci_high"])]
    tried = tried.drop(columns=["win_rate", "ci_low", "ci_high"])
    half = (res.ci_high - res.ci_low) / 2
    within = "within" if half <= p["tolerance"] else "NOT within"
    note = getattr(res.calibration, "note", "")
    verdict = "" if res.converged else f"\nNOT CALIBRATED: {note or 'not converged'}."
    return (_header(p, f"calibrate {res.param} to a win rate of {100 * res.target:.1f} %")
            + f"\n\n{res.param} = {res.value}: win rate {100 * res.win_rate:.2f} % "
              f"[{100 * res.ci_low:.2f}, {100 * res.ci_high:.2f}] over {res.games} games "
              f"(half-width {100 * half:.2f} points, {within} the tolerance "
              f"{100 * p['tolerance']:.2f}){verdict}\n\n== points tried (stage: games per value) ==\n"
            + tried.to_string(index=False) + "\n")


# =========================================================================== sensitivity
def cmd_sensitivity(a) -> int:
    from .core.instruments import (base_rules, game_spec, parse_value, resolve_param,
                                   sensitivity)

    kw = _base_kwargs(a)
    games = count(a.games, "--games")
    traj = count(a.trajectories, "--trajectories")
    levels = count(a.levels, "--levels")
    samples = count(a.samples, "--samples")
    show = count(a.show, "--show")
    top = count(a.top, "--top") if a.top is not None else None
    if levels < 2:
        raise UsageError("--levels must be >= 2")
    if top is not None and a.method != "sobol":
        raise UsageError("--top goes with --method sobol")
    rules_arg = a.rules
    base = base_rules(rules_arg if rules_arg is not None else
                       game_spec(kw["game"]).sensitivity_ruleset, kw["game"])
    params = None
    if a.param:
        params = {}
        for item in a.param:
            key, sep, rng = item.partition("=")
            prm = resolve_param(key.strip(), base, a.policy, kw["game"])
            if sep:
                parts = rng.split(":")
                if len(parts) != 2:
                    raise UsageError(f"--param {item!r}: expected KEY=LO:HI")
                lo, hi = parse_value(parts[0], prm), parse_value(parts[1], prm)
                if not lo < hi:
                    raise UsageError(f"--param {item}: empty range (need lo < hi)")
                params[key.strip()] = (lo, hi)
            else:
                params[key.strip()] = None
        if all(v is None for v in params.values()):
            params = list(params)
        elif any(v is None for v in params.values()):
            raise UsageError("--param: give a range for every parameter or for none")
    # (no --players: the instrument's own default, 4 where the game plays 4)
    _check_out(a)
    res = sensitivity(params, method=a.method, games=games, trajectories=traj, levels=levels,
                      sobol_samples=samples, top=top, policy=a.policy, ruleset=rules_arg, **kw)
    sys.stdout.write(render_sensitivity(res, show))
    _write_table_and_plot(a, res, "sensitivity")
    return 0


def render_sensitivity(res, show: int = 25) -> str:
    p = res.provenance
    parts = [_header(p, f"sensitivity ({res.method}, {p['evaluations']} evaluations of "
                        f"{p['games_per_evaluation']} games)")]
    for output in res.outputs:
        full = res.table[res.table["output"] == output]
        t = full.head(show)
        if "dummy.seed" not in set(t["key"]):  # always show the noise floor
            t = pd.concat([t, full[full["key"] == "dummy.seed"]])
        t = t.copy()
        scale, unit = ((100, "points") if output == "win_rate"
                       else (1, p.get("measure_unit", "rounds")))
        ranges = [f"{lo:g}..{hi:g}" if k != "dummy.seed" else "seed"
                  for k, lo, hi in zip(t["key"], t["lo"], t["hi"])]
        if res.method == "morris":
            out = pd.DataFrame({
                "rank": t["rank"], "key": t["key"], "range": ranges,
                f"mu* ({unit})": [f"{scale * x:.2f}" for x in t["mu_star"]],
                "95% CI": [f"[{scale * lo:.2f}, {scale * hi:.2f}]"
                           for lo, hi in zip(t["mu_star_low"], t["mu_star_high"])],
                "sigma": [f"{scale * x:.2f}" for x in t["sigma"]],
                "sigma 95% CI": [f"[{scale * lo:.2f}, {scale * hi:.2f}]"
                                 for lo, hi in zip(t["sigma_low"], t["sigma_high"])],
            })
        else:
            out = pd.DataFrame({"rank": t["rank"], "key": t["key"], "range": ranges,
                                "ST": [f"{x:.3f} ± {c:.3f}" for x, c in zip(t["ST"], t["ST_conf"])],
                                "S1": [f"{x:.3f} ± {c:.3f}" for x, c in zip(t["S1"], t["S1_conf"])]})
        parts.append(f"== {output} ==\n" + out.to_string(index=False))
    for output in res.outputs:
        t = res.table[res.table["output"] == output]
        col = "mu_star" if res.method == "morris" else "ST"
        if (t[col] == 0).all():
            parts.append(f"note: {output} did not move anywhere in these ranges (every "
                         f"evaluation gave the same value); its ranking is alphabetical.")
    if p.get("dropped"):
        what = "trajectories" if res.method == "morris" else "samples"
        parts.append(f"note: {p['dropped']} of {p['designed']} {what} dropped: the ruleset refuses "
                     f"some of their combinations of values ({'; '.join(p.get('refused', [])[:3])}"
                     f"{'; ...' if len(p.get('refused', [])) > 3 else ''}).")
    if res.method == "morris":
        parts.append("mu*: mean absolute elementary effect (Morris), the change of the output for "
                     "a move across the whole range, linearly scaled; sigma: its spread "
                     "(interactions, non-linearity). dummy.seed only changes the root seed: rows "
                     "at or below it are noise.")
    else:
        parts.append("ST: total Sobol index, the share of the output's variance over these ranges "
                     "due to the value, its interactions with the others included; S1: first-"
                     "order index, the share it explains alone; +- a 95 % bootstrap half-width. "
                     "dummy.seed only changes the root seed: rows at or below it are noise.")
    return "\n\n".join(parts) + "\n"


# =========================================================================== simulate --precision
def add_precision_args(s) -> None:
    s.add_argument("--precision", default=None, metavar="HALF_WIDTH",
                   help="add chunks until every row of --precision-table has a 95 %% anytime-"
                        "valid interval (confidence sequence) of at most this half-width")
    s.add_argument("--max-games", default=None, metavar="N",
                   help="cap of a --precision run (default 1000000)")
    s.add_argument("--precision-table", default=None, metavar="TABLE",
                   help="the table whose rows must reach the precision: overall or "
                        "by_<grouping> of the game's tables (default: overall; Mort: "
                        "by_pairing, each pairing apart) (Until Daylight: by_players, "
                        "by_character, by_character_players, by_team; Till Dawn: by_players, "
                        "by_seat, by_character, by_strategy, by_strategy_table)")


def cmd_simulate_precise(a) -> int:
    from .core.games import get_game
    from .core.instruments import simulate_precise

    if a.games is not None:
        raise UsageError("--precision decides the games: use --max-games, not --games")
    if (a.backend or "local") != "local" or a.scheduler:
        raise UsageError("--precision runs use the local backend")
    kw = _base_kwargs(a)
    prec = number(a.precision, "--precision")
    if not 0 < prec < 0.5:
        raise UsageError(f"--precision must be in (0, 0.5); got {a.precision}")
    cap = count(a.max_games, "--max-games") if a.max_games is not None else 1_000_000
    from .core.runner import DEFAULT_CHUNK_SIZE

    seats = kw.pop("seats", None)
    if seats is not None and (a.policy or a.policy_param):
        raise UsageError("--seats gives every seat its policy; drop --policy/--policy-param")
    from .cli_args import ruleset_arg as _ruleset_arg, with_changes as _with_changes

    res = simulate_precise(prec, cap, table=a.precision_table, policy=a.policy,
                           ruleset=_ruleset_arg(get_game(kw["game"]), a),
                           chunk_size=a.chunk_size or DEFAULT_CHUNK_SIZE,
                           keep_records=a.keep_records, out=a.out, overwrite=a.force,
                           seats=seats, **kw)
    p = res.provenance
    info = get_game(kw["game"])
    sys.stdout.write(_with_changes(info.render(res, a.all_tables), p, info.success))
    why = ("every row reached the precision" if p["stopped_by"] == "precision"
           else "the --max-games cap was reached first")
    sys.stdout.write(f"\nprecision run: stopped after {res.games} games ({why}); widest 95 % "
                     f"confidence-sequence half-width in {p['precision_table']}: "
                     f"{100 * p['widest_half_width']:.2f} points (asked {100 * prec:.2f})\n")
    if a.out:
        sys.stdout.write(f"\nwrote {a.out}\n")
    return 0


# =========================================================================== tune-policy
COMMANDS = {"compare": cmd_compare, "sweep": cmd_sweep, "calibrate": cmd_calibrate,
            "sensitivity": cmd_sensitivity}
