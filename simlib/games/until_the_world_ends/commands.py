"""Until the World Ends' part of ``simlib train-policy`` (declared in ``game.COMMANDS``):
its defaults, its one option (``--bonus-games``) and its run; the command and the options
every game shares are ``simlib.cli_train``'s."""
from __future__ import annotations

import math
import sys

from ...core.weights import out_path

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


def _count(text, what: str, lo: int = 1) -> int:
    try:
        v = float(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(v) or v != int(v) or v < lo:
        raise ValueError(f"{what} must be an integer >= {lo}; got {text!r}")
    return int(v)


def run_train(a) -> int:
    from .distil import (DEFAULT_GAMES, DEFAULT_L2, DEFAULT_PLAYERS, DEFAULT_TEACHER,
                         DEFAULT_TUNE_GAMES, train_distilled, write_distilled)

    out = out_path(a.out, a.force)
    players = DEFAULT_PLAYERS if a.players is None else \
        [_count(p, "--players") for p in str(a.players).split(",")]
    l2 = DEFAULT_L2
    if a.l2 is not None:
        try:
            l2 = float(a.l2)
        except ValueError:
            raise ValueError(f"--l2: {a.l2!r} is not a number") from None
    tune = getattr(a, "bonus_games", None)
    kw = dict(players=players, games=_count(a.games or DEFAULT_GAMES, "--games"),
              heldout=_count(a.heldout, "--heldout") if a.heldout is not None else None,
              seed=_count(a.seed, "--seed", 0), teacher=a.teacher or DEFAULT_TEACHER, l2=l2,
              check_games=_count(a.check_games, "--check-games"),
              tune_games=_count(tune, "--bonus-games") if tune is not None else DEFAULT_TUNE_GAMES,
              threads=_count(a.threads, "--threads") if a.threads is not None else None)

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    res = train_distilled(a.rules, progress=None if a.no_progress else progress, **kw)
    write_distilled(res, out, command=getattr(a, "command_line", ""))
    sys.stdout.write(res.summary() + f"\nwrote {out}\n")
    return 0
