"""``simlib train-policy --game G``: distil a game's strongest player into its ``distilled``
policy's weights file.

The command is one for every game: the options every distillation has (the ruleset, the
player counts, the teacher, the teacher games and the held-out ones, the seed, the L2
penalty, the paired check, the output file) are declared here, each game's own (Until
Daylight's labels, continuations, horizon and tuning games) in an argument group of its
own.  A game takes part by declaring a ``train-policy`` command (:class:`GameCommand`:
``add_arguments(group)`` adds its own options, ``run(args)`` trains and writes); an
option left out is ``None`` and the game applies its own default.  An option of another
game is refused with one line.
"""
from __future__ import annotations

import argparse
from typing import Mapping

from .cli_args import UsageError
from .core.params import add_run_options

__all__ = ["COMMAND", "add_parser", "run"]

COMMAND = "train-policy"

EXAMPLES = """\
examples:
  simlib train-policy --game till-dawn --out data/till_dawn/policies/distilled.toml --force
  simlib train-policy --game until-daylight --out data/until_daylight/policies/distilled.toml --force
  simlib train-policy --game until-the-world-ends --out data/until_the_world_ends/policies/distilled.toml --force
  simlib train-policy --game mort-de-la-lumiere-du-jour --out data/mort/policies/distilled.toml --force
  simlib train-policy --game day-night-z --out data/day_night_z/policies/distilled.toml --force
  simlib train-policy --game till-dawn --games 200 --check-games 2000 --out /tmp/d.toml
"""


def add_parser(sub, trainers: Mapping[str, object]) -> argparse.ArgumentParser:
    """Add ``simlib train-policy`` for the games of ``trainers`` (``{game name: the game's
    train-policy GameCommand}``, in registry order: the first is the default game)."""
    names = [g.replace("_", "-") for g in trainers]
    p = sub.add_parser(
        COMMAND, help=f"distil a game's strongest player into its `distilled` policy "
                      f"({', '.join(names)})",
        description="Distil a game's strongest player (the teacher) into the `distilled` "
                    "policy: the teacher labels the decisions of teacher games, a cheap "
                    "score of features a player can see is fitted to them, checked on "
                    "held-out games and against the game's default player on fresh games "
                    "(paired), and the weights are written with their provenance (teacher, "
                    "games, seed, simlib version, ruleset fingerprint).  The same arguments "
                    "give the same file.  Each game's page says what its player scores.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", dest="game_name", default=None, metavar="NAME",
                   help=f"the game ({', '.join(names)}; default {names[0]})")
    p.add_argument("--rules", default=None, metavar="RULESET",
                   help="ruleset to train on (default: the game's declared default)")
    p.add_argument("--players", default=None, metavar="N[,N...]",
                   help="player count(s) of the teacher games and the check (default: "
                        "the game's; until-daylight 4, till-dawn 3,4,5,6,7,8, "
                        "until-the-world-ends 2,3,4,5,6, mort-de-la-lumiere-du-jour 5, day-night-z "
                        "team sizes 1,2,3,4)")
    p.add_argument("--teacher", default=None, metavar="POLICY",
                   help="the player whose judgement is distilled (default: the game's "
                        "strongest honest player; until-daylight rollout-1000, till-dawn "
                        "optimal, until-the-world-ends rollout, mort-de-la-lumiere-du-jour "
                        "rollout, day-night-z rollout)")
    p.add_argument("--games", default=None, metavar="N",
                   help="training teacher games (default: the game's; until-daylight 2000, "
                        "till-dawn 20000, until-the-world-ends 800, mort-de-la-lumiere-du-jour "
                        "400 a side, day-night-z 1200)")
    p.add_argument("--heldout", default=None, metavar="N",
                   help="held-out teacher games (default: a quarter of --games)")
    p.add_argument("--seed", default="0", metavar="S",
                   help="seed of the teacher games (default 0; the held-out games follow the "
                        "training ones; the check plays seed S + 1)")
    p.add_argument("--l2", default=None, metavar="X",
                   help="L2 penalty of the fit (default: the game's)")
    p.add_argument("--check-games", default="20000", metavar="N",
                   help="games of the paired check against the default player (default 20000)")
    add_run_options(p, "distilled.toml", "FILE.toml",
                    "where to write the weights (default distilled.toml; the shipped file is "
                    "data/<game>/policies/distilled.toml)")
    own = {}
    for game, cmd in trainers.items():
        g = p.add_argument_group(f"{game.replace('_', '-')} only")
        cmd.add_arguments(g)
        own[game] = [(act.dest, act.option_strings[0], act.default) for act in g._group_actions]
    p.set_defaults(train_commands=dict(trainers), train_options=own)
    return p


def run(a) -> int:
    """Run the game's ``train-policy`` after refusing another game's options."""
    from .core.games import default_game, normalize

    trainers, own = a.train_commands, a.train_options
    game = normalize(a.game_name) if a.game_name else normalize(default_game())
    if game not in trainers:
        names = ", ".join(g.replace("_", "-") for g in trainers)
        raise UsageError(f"--game {a.game_name or game}: no distilled policy to train for this "
                         f"game (games with one: {names})")
    for other, opts in own.items():
        if other == game:
            continue
        for dest, flag, default in opts:
            if getattr(a, dest, default) != default:
                raise UsageError(f"{flag} is an option of {other.replace('_', '-')}'s "
                                 f"distillation, not {game.replace('_', '-')}'s")
    return int(trainers[game].run(a) or 0)
