"""Mort de la lumière du jour's part of ``simlib train-policy`` (declared in
``game.COMMANDS``): its option and its run; the command and the options every game shares
are ``simlib.cli_train``'s."""
from __future__ import annotations

from ...core.train import count, shared_options, train_and_write

__all__ = ["add_train_arguments", "run_train"]


def add_train_arguments(t) -> None:
    """Mort's own option (the tuning games) and what the shared ones do here."""
    t.description = ("The rollout player's playout values fitted into the distilled "
                     "player's linear score of each action, one fit a side (least squares "
                     "of each action's advantage over the heuristic's), then the margin "
                     "over the heuristic's action chosen on tuning games; the check seats "
                     "it, then the heuristic, on each side against heuristic players, as "
                     "`simlib compare --game mort-de-la-lumiere-du-jour --policy heuristic "
                     "--policy distilled` (and `--characters survivors`) does.  Defaults: "
                     "--rules reference, --players 5, --teacher rollout, --games 400 a side, "
                     "--l2 1e-4.")
    t.add_argument("--margin-games", default=None, metavar="N",
                   help="games a margin a side on which the distilled player's margin over "
                        "the heuristic's action is chosen (default 10000, seed S + 2)")


def run_train(a) -> int:
    from .distil import DEFAULT_GAMES, DEFAULT_L2, DEFAULT_TEACHER, DEFAULT_TUNE_GAMES
    from .distil import train_distilled, write_distilled

    if a.players is not None and str(a.players).strip() != "5":
        raise ValueError(f"--players: Mort de la lumière du jour has 5 players (the killer and "
                         f"4 survivors); got {a.players!r}")
    kw = shared_options(a, games=DEFAULT_GAMES, teacher=DEFAULT_TEACHER, l2=DEFAULT_L2)
    return train_and_write(a, train_distilled, write_distilled, a.rules,
                           tune_games=DEFAULT_TUNE_GAMES if a.margin_games is None else
                           count(a.margin_games, "--margin-games"), **kw)
