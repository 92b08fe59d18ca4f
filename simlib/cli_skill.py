"""``simlib skill``: how much of the outcome is decided by play, for one ruleset or two.

One ruleset: the ladder (floor, realistic player, clairvoyant bound) on the same games, the
four-part split with Wilson intervals and ``K`` with a paired-bootstrap interval
(competitive games: ``K_n`` of each rung against a field of floor players, seat spread
and tie rate); ``--compare B``
plays ruleset B on the same game indices and prints the paired change of every figure
(:mod:`simlib.core.skill`).  Bad input: one line on stderr, exit status 2.
"""
from __future__ import annotations

import argparse
import sys

from .cli_args import game_arg
from .core.params import count

__all__ = ["add_parser", "run"]

EXAMPLES = """\
examples:
  simlib skill --players 4 --games 200                       # Until Daylight, calibrated
  simlib skill --players 4 --games 100 --rules reference --compare calibrated
  simlib skill --game till-dawn --players 3,4 --games 4000
  simlib skill --ladder random,baseline,rollout-100 --games 100
"""


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``simlib skill`` to the ``simlib`` subcommands."""
    p = sub.add_parser(
        "skill", help="skill versus luck: the ladder of players on the same games",
        description="Skill versus luck of a ruleset: the floor (random), a realistic player and "
                    "the clairvoyant bound play the same games; prints the four-part split "
                    "(won by anyone, decided by play, decided by information, lost even with "
                    "foresight) with Wilson 95 % intervals and K = (realistic - floor) / "
                    "(bound - floor) with a paired-bootstrap 95 % interval (B - A: Newcombe's "
                    "paired interval for rates). Competitive games: each rung's normalised "
                    "excess win share K_n over a field of random players. The bound is a "
                    "search: a few hundred games take minutes.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_arg(p)
    p.add_argument("--players", default=None, metavar="N[,N...]",
                   help="player counts (default: the game's default study)")
    p.add_argument("--games", default=None, metavar="N",
                   help="games per rung (default 200 co-operative, 4000 competitive)")
    p.add_argument("--rules", default=None, metavar="RULESET",
                   help="the ruleset (default: the game's declared default)")
    p.add_argument("--compare", default=None, metavar="RULESET",
                   help="a second ruleset: print the paired change of K and of each part")
    p.add_argument("--ladder", default=None, metavar="FLOOR,REALISTIC,BOUND",
                   help="the policies of the ladder, named in advance (co-operative default "
                        "random,<the game's policy>,clairvoyant; competitive: random then "
                        "every other policy)")
    p.add_argument("--characters", action="append", metavar="TEAM|SIDE",
                   help="competitive games: what the rungs are dealt, as in compare --policy A "
                        "--policy B (Mort: the side they play, killer (default) or "
                        "survivors; Till Dawn: a team)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--bootstrap", default="2000", metavar="B",
                   help="paired-bootstrap resamples for K, which has no closed-form "
                        "interval (default 2000)")
    p.add_argument("--threads", default=None, metavar="N", help="numba threads")
    return p


def _positive(text, name: str) -> int | None:
    return None if text is None else count(text, name)


def run(a) -> int:
    """Run ``simlib skill`` (errors as ``UsageError``/``ValueError``: one line, status 2)."""
    from .cli_args import characters, int_list
    from .core.games import get_game
    from .core.skill import skill, skill_compare

    info = get_game(a.game_name)  # unknown game: a ValueError naming the allowed ones
    players = int_list(a.players, "--players") if a.players else None
    games = _positive(a.games, "--games")
    boot = _positive(a.bootstrap, "--bootstrap")
    threads = _positive(a.threads, "--threads")
    ladder = [x.strip() for x in a.ladder.split(",") if x.strip()] if a.ladder else None
    if a.compare is not None:
        res = skill_compare(info.name, a.rules, a.compare, games, players, seed=a.seed,
                            ladder=ladder, bootstrap=boot, threads=threads,
                            characters=characters(a.characters))
    else:
        res = skill(info.name, games, players, ruleset=a.rules, seed=a.seed, ladder=ladder,
                    bootstrap=boot, threads=threads, characters=characters(a.characters))
    sys.stdout.write(res.to_text())
    return 0
