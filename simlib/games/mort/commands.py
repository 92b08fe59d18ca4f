"""Mort de la lumière du jour's part of ``simlib train-policy`` (declared in
``game.COMMANDS``): its option and its run; the command and the options every game shares
are ``simlib.cli_train``'s."""
from __future__ import annotations

import math
import sys

from ...core.weights import out_path

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


def _count(text, what: str, lo: int = 1) -> int:
    try:
        v = float(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(v) or v != int(v) or v < lo:
        raise ValueError(f"{what} must be an integer >= {lo}; got {text!r}")
    return int(v)


def run_train(a) -> int:
    from .distil import DEFAULT_GAMES, DEFAULT_L2, DEFAULT_TEACHER, DEFAULT_TUNE_GAMES
    from .distil import train_distilled, write_distilled

    out = out_path(a.out, a.force)
    if a.players is not None and str(a.players).strip() != "5":
        raise ValueError(f"--players: Mort de la lumière du jour has 5 players (the killer and "
                         f"4 survivors); got {a.players!r}")
    l2 = DEFAULT_L2
    if a.l2 is not None:
        try:
            l2 = float(a.l2)
        except ValueError:
            raise ValueError(f"--l2: {a.l2!r} is not a number") from None
    kw = dict(games=_count(a.games or DEFAULT_GAMES, "--games"),
              heldout=_count(a.heldout, "--heldout") if a.heldout is not None else None,
              seed=_count(a.seed, "--seed", 0), teacher=a.teacher or DEFAULT_TEACHER, l2=l2,
              check_games=_count(a.check_games, "--check-games"),
              tune_games=_count(a.margin_games, "--margin-games")
              if a.margin_games is not None else DEFAULT_TUNE_GAMES,
              threads=_count(a.threads, "--threads") if a.threads is not None else None)

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    res = train_distilled(a.rules, progress=None if a.no_progress else progress, **kw)
    write_distilled(res, out, command=getattr(a, "command_line", ""))
    sys.stdout.write(res.summary() + f"\nwrote {out}\n")
    return 0
