"""Until the World Ends' part of ``simlib train-policy`` (declared in ``game.COMMANDS``):
its defaults, its one option (``--bonus-games``) and its run; the command and the options
every game shares are ``simlib.cli_train``'s."""
from __future__ import annotations

from ...core.train import count, count_list, shared_options, train_and_write

__all__ = ["add_train_arguments", "run_train"]


def add_train_arguments(t) -> None:
    """``--bonus-games``, and what the shared options do here."""
    t.description = ("The rollout player's values fitted into the distilled player's two "
                     "linear scores (least squares of each decision's centred values), "
                     "greedy's choice's bonus by table size tuned on --bonus-games paired "
                     "games a size (seed + 2); the check seats it, then greedy, in the focal "
                     "seat against greedy players, as `simlib compare --game "
                     "until-the-world-ends --policy greedy --policy distilled` does.  "
                     "Defaults: --rules reference, --players 2,3,4,5,6, --teacher rollout, "
                     "--games 800, --l2 0.01, --bonus-games 3000.")
    t.add_argument("--bonus-games", default=None, metavar="N",
                   help="paired games a table size that tune greedy's choice's bonus "
                        "(default 3000)")


def run_train(a) -> int:
    from .distil import (DEFAULT_GAMES, DEFAULT_L2, DEFAULT_PLAYERS, DEFAULT_TEACHER,
                         DEFAULT_TUNE_GAMES, train_distilled, write_distilled)

    kw = shared_options(a, games=DEFAULT_GAMES, teacher=DEFAULT_TEACHER, l2=DEFAULT_L2)
    tune = getattr(a, "bonus_games", None)
    return train_and_write(a, train_distilled, write_distilled, a.rules,
                           players=count_list(a.players, "--players", DEFAULT_PLAYERS),
                           tune_games=DEFAULT_TUNE_GAMES if tune is None else
                           count(tune, "--bonus-games"), **kw)
