"""Till Dawn's part of ``simlib train-policy`` (declared in ``game.COMMANDS``): its defaults
and its run; the command and the options every game shares are ``simlib.cli_train``'s."""
from __future__ import annotations

from ...core.train import count_list, shared_options, train_and_write

__all__ = ["add_train_arguments", "run_train"]


def add_train_arguments(t) -> None:
    """Till Dawn has no option of its own; its group says what the shared ones do here."""
    t.description = ("The optimal player's values fitted into the distilled player's two "
                     "linear scores (stop or stay: logistic regression weighted by the blood "
                     "at stake; votes: conditional logit); the check seats it, then the "
                     "threshold player, in the focal seat against threshold players, as "
                     "`simlib compare --game till-dawn --policy threshold --policy distilled` "
                     "does.  Defaults: --rules reference, --players 3,4,5,6,7,8, --teacher "
                     "optimal, --games 20000, --l2 1e-6.")


def run_train(a) -> int:
    from .distil import DEFAULT_GAMES, DEFAULT_L2, DEFAULT_PLAYERS, DEFAULT_TEACHER
    from .distil import train_distilled, write_distilled

    kw = shared_options(a, games=DEFAULT_GAMES, teacher=DEFAULT_TEACHER, l2=DEFAULT_L2)
    return train_and_write(a, train_distilled, write_distilled, a.rules,
                           players=count_list(a.players, "--players", DEFAULT_PLAYERS), **kw)
