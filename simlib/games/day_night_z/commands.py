"""Day Night Z's own command-line command, ``simlib exact --game day-night-z``: the
designers' exact dice tables (no simulation), and the Python function behind it.

The tables are the exact module's (:mod:`simlib.games.day_night_z.exact`, every value an
enumeration in fractions, never a sample), gathered as the designers ask for them:

* ``check``: P(a check passes) by dice before survival points (attribute + modifiers,
  ``1 .. max_pool``) x stress colour x survival points spent (0 and the per-roll cap);
* ``enemy_attack``: an enemy's attack by pool (``1 .. max_pool``): P(hit), P(infection of
  an uninfected survivor), P(noise counter), P(hit without infection);
* ``kill_1ap``, ``kill_3ap``: P(one / three AP of attacks kill a fresh enemy), by survivor
  and weapon x day/night and enemy, at green health without SP (the exact module's
  ``kill_table``);
* ``corpse``: P(+1 infection level) searching corpses and hiding among them;
* ``kill_chance`` (from :mod:`simlib.games.day_night_z.fight`, when it is there): each
  survivor with his kit weapon, P(one AP kills) and the expected AP to kill, by enemy,
  day/night, health colour and SP; ``fight`` (on request, ``--table fight``: an exact MDP
  a setup, seconds): P(one survivor kills every enemy of a setup on a tile, playing
  optimally).

``designer_tables(ruleset=None, exact=False, max_pool=8)`` returns them by name;
``simlib exact`` prints them (``--exact``: fractions) or writes one CSV file a table
(``--csv DIR``).
"""
from __future__ import annotations

import importlib
import sys
from fractions import Fraction
from pathlib import Path

import pandas as pd

__all__ = ["designer_tables", "fight_tables", "table_names", "format_table", "TABLE_TITLES",
           "FIGHT_TABLES",
           "add_exact_arguments", "run_exact", "add_train_arguments", "run_train"]

GAME_NAME = "day-night-z"
MAX_POOL = 8

TABLE_TITLES = {
    "check": "P(check passes) by dice before survival points (rows) x stress colour and SP "
             "spent (columns); the pool is at least the minimum after the SP",
    "enemy_attack": "An enemy's attack on an uninfected survivor by pool: a hit (damage, +1 "
                    "stress), an infection (a hit showing the infection icon), a noise counter "
                    "(hit or miss)",
    "kill_1ap": "P(one AP of attacks kills a fresh enemy) by survivor and weapon (rows) x "
                "day/night and enemy (columns); green health, no SP, no high ground; rapid fire "
                "rolls attacks_per_ap times an AP",
    "kill_3ap": "P(three AP of attacks kill a fresh enemy), damage adding up (ammunition not "
                "counted); same conditions",
    "corpse": "P(+1 infection level) searching a corpse xN and hiding among corpses",
}


# The fight module's tables (``fight.py``, the fight bound): name -> (function, title,
# in the default set).  ``fight`` solves an MDP a setup (seconds, not milliseconds): only
# on request (``--table fight``).
FIGHT_TABLES = {
    "kill_chance": ("kit_kill_chance_table",
                    "each survivor with his kit weapon: P(one AP kills a fresh enemy) and the "
                    "expected AP to kill it, by enemy, day/night, health colour and SP a roll "
                    "(the fight module)", True),
    "fight": ("fight_table",
              "P(a survivor with his kit weapon kills every enemy of a setup on one tile, "
              "playing optimally) by day/night and setup (the fight module's exact MDP)", False),
}


def _fight_module():
    try:
        return importlib.import_module("simlib.games.day_night_z.fight")
    except ModuleNotFoundError as exc:
        if exc.name != "simlib.games.day_night_z.fight":
            raise
        return None


def fight_tables(ruleset, exact: bool = False, names=None) -> dict[str, pd.DataFrame]:
    """The fight module's tables (:data:`FIGHT_TABLES`) that it defines: ``names`` (default:
    those in the default set); ``{}`` without the module."""
    fight = _fight_module()
    if fight is None:
        return {}
    out = {}
    for name, (fn, _title, default) in FIGHT_TABLES.items():
        if (names is None and not default) or (names is not None and name not in names):
            continue
        make = getattr(fight, fn, None)
        if make is not None:
            out[name] = make(ruleset, exact=exact)
    return out


def table_names() -> list[str]:
    """Every table ``designer_tables`` can give (the fight module's when it is there)."""
    fight = _fight_module()
    extra = [n for n, (fn, _t, _d) in FIGHT_TABLES.items()
             if fight is not None and hasattr(fight, fn)]
    return list(TABLE_TITLES) + extra


def designer_tables(ruleset=None, exact: bool = False, max_pool: int = MAX_POOL,
                    names=None) -> dict[str, pd.DataFrame]:
    """The exact tables of ``simlib exact --game day-night-z``, by name (see the module
    docstring).  ``exact=True``: :class:`fractions.Fraction` cells; ``names``: a subset."""
    from . import exact as X
    from .study import load_rules

    rules = load_rules(ruleset)
    if isinstance(max_pool, bool) or not isinstance(max_pool, int) or max_pool < 1:
        raise ValueError(f"max_pool must be a positive integer; got {max_pool!r}")
    known = table_names()
    wanted = [n for n in TABLE_TITLES] if names is None else list(names)
    for n in wanted:
        if n not in known:
            raise ValueError(f"unknown table {n!r}; allowed: {', '.join(known)}")
    builders = {
        "check": lambda: X.check_table(range(1, max_pool + 1),
                                       sorted({0, rules.get("survivor.max_sp_per_roll")}),
                                       ruleset=rules, exact=exact),
        "enemy_attack": lambda: X.enemy_attack_table(range(1, max_pool + 1), ruleset=rules,
                                                     exact=exact),
        "kill_1ap": lambda: X.kill_table("green", aps=1, ruleset=rules, exact=exact),
        "kill_3ap": lambda: X.kill_table("green", aps=3, ruleset=rules, exact=exact),
        "corpse": lambda: X.corpse_table(ruleset=rules, exact=exact),
    }
    out = {n: builders[n]() for n in wanted if n in builders}
    extra = fight_tables(rules, exact, None if names is None else [n for n in wanted if n not in builders])
    out.update(extra)
    return out


def _cell(x, exact: bool) -> str:
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if exact else f"{float(x):.4f}"
    if isinstance(x, float):
        return f"{x:.4f}"
    return str(x)


def _label(c) -> str:
    return " ".join(str(x) for x in c) if isinstance(c, tuple) else str(c)


def format_table(table: pd.DataFrame, exact: bool = False) -> pd.DataFrame:
    """A table as strings: fractions ``19/27`` (``exact``) or 4 decimals; flat column names
    (``green 0``, ``night walker``)."""
    out = table.copy()
    out.columns = [_label(c) for c in table.columns]
    return out.apply(lambda col: col.map(lambda x: _cell(x, exact))) if len(out) else out


# =========================================================================== command line
def add_exact_arguments(p) -> None:
    p.description = ("Day Night Z's exact dice tables, enumerated in fractions (no "
                     "simulation): checks by pool x stress colour x survival points, an enemy's "
                     "hit/infection/noise by pool, the chance that one or three AP kill an "
                     "enemy, infection from corpses, and the fight bound's tables when present.")
    p.add_argument("--game", dest="game_name", default=GAME_NAME, metavar="NAME",
                   help=f"the game (only {GAME_NAME} has exact tables)")
    p.add_argument("--rules", metavar="RULESET", default=None,
                   help="a preset name (default: reference), a ruleset folder or a tweak .toml")
    p.add_argument("--exact", action="store_true", help="print fractions (e.g. 19/27), not decimals")
    p.add_argument("--max-pool", default=str(MAX_POOL), metavar="N",
                   help=f"largest pool of the check and enemy tables (default {MAX_POOL})")
    p.add_argument("--table", action="append", metavar="NAME",
                   help="only this table (repeatable): " + ", ".join(TABLE_TITLES)
                   + ", kill_chance, fight (the fight module's; fight only on request)")
    p.add_argument("--csv", metavar="DIR",
                   help="also write each table to DIR/<name>.csv (DIR is created; the cells are "
                        "fractions with --exact)")
    p.add_argument("--force", action="store_true", help="overwrite existing CSV files")


def _max_pool(text) -> int:
    try:
        v = int(str(text))
    except ValueError:
        raise ValueError(f"--max-pool: {text!r} is not an integer") from None
    if not 1 <= v <= 30:
        raise ValueError(f"--max-pool must be 1-30; got {text!r}")
    return v


def run_exact(a) -> int:
    from ...core.games import normalize

    if normalize(a.game_name) != normalize(GAME_NAME):
        raise ValueError(f"--game {a.game_name}: only {GAME_NAME} has exact tables")
    max_pool = _max_pool(a.max_pool)
    out_dir = None
    if a.csv:
        out_dir = Path(a.csv)
        if out_dir.exists() and not out_dir.is_dir():
            raise ValueError(f"--csv {a.csv}: not a folder")
        if not out_dir.parent.is_dir():
            raise ValueError(f"--csv {a.csv}: no such folder {str(out_dir.parent)!r}")
    tables = designer_tables(a.rules, exact=a.exact, max_pool=max_pool, names=a.table)
    if out_dir is not None and not a.force:
        clash = [str(out_dir / f"{n}.csv") for n in tables if (out_dir / f"{n}.csv").exists()]
        if clash:
            raise ValueError(f"{clash[0]} exists; add --force to overwrite it")
    parts = [f"Day Night Z exact tables (enumerated, no simulation){'; fractions' if a.exact else ''}"]
    for name, t in tables.items():
        title = TABLE_TITLES.get(name) or FIGHT_TABLES.get(name, ("", name.replace("_", " ")))[1]
        parts.append(f"== {name}: {title} ==\n" + format_table(t, a.exact).to_string())
    written = []
    if out_dir is not None:
        out_dir.mkdir(exist_ok=True)
        for name, t in tables.items():
            path = out_dir / f"{name}.csv"
            flat = format_table(t, True) if a.exact else t.copy()
            if not a.exact:
                flat.columns = [_label(c) for c in t.columns]
            flat.reset_index().to_csv(path, index=False)
            written.append(str(path))
    sys.stdout.write("\n\n".join(parts) + "\n")
    if written:
        sys.stdout.write(f"\nwrote {len(written)} CSV files in {out_dir}\n")
    return 0


# =========================================================================== train-policy
def add_train_arguments(t) -> None:
    """Day Night Z's own options of ``simlib train-policy`` (the shared ones are
    ``simlib.cli_train``'s; ``--players`` gives the team sizes)."""
    t.description = ("The rollout player's values fitted into the distilled player's linear "
                     "scores (each alternative to the baseline's choice: logistic regression "
                     "weighted by the value at stake; the activation order: conditional logit), "
                     "each score kept when it alone gains in the selection games; the check "
                     "plays it and the baseline on the same fresh games, as `simlib compare "
                     "--game day-night-z --policy baseline --policy distilled` does.  Defaults: "
                     "--rules reference, --players 1,2,3,4 (team sizes), --teacher rollout, "
                     "--games 1200, --l2 1e-3, --check-games 20000.")
    t.add_argument("--start-hours", default=None, metavar="H[,H...]",
                   help="start hours of the teacher, selection and check games (default 8,14,20, "
                        "the default study's)")
    t.add_argument("--select-games", default=None, metavar="N",
                   help="selection games a score (default 24000)")


def run_train(a) -> int:
    from ...core.train import count, count_list, shared_options, train_and_write
    from .distil import (DEFAULT_GAMES, DEFAULT_HOURS, DEFAULT_L2, DEFAULT_SELECT_GAMES,
                         DEFAULT_TEACHER, DEFAULT_TEAMS, train_distilled, write_distilled)

    kw = shared_options(a, games=DEFAULT_GAMES, teacher=DEFAULT_TEACHER, l2=DEFAULT_L2,
                        check_min=2)
    return train_and_write(
        a, train_distilled, write_distilled, a.rules,
        teams=count_list(a.players, "--players", DEFAULT_TEAMS),
        hours=count_list(a.start_hours, "--start-hours", DEFAULT_HOURS, 0),
        select_games=count(a.select_games or DEFAULT_SELECT_GAMES, "--select-games", 2), **kw)
