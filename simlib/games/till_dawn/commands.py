"""Till Dawn's part of ``simlib train-policy`` (declared in ``game.COMMANDS``): its defaults
and its run; the command and the options every game shares are ``simlib.cli_train``'s."""
from __future__ import annotations

import math
import sys

from ...core.weights import out_path

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


def _count(text, what: str, lo: int = 1) -> int:
    try:
        v = float(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(v) or v != int(v) or v < lo:
        raise ValueError(f"{what} must be an integer >= {lo}; got {text!r}")
    return int(v)


def run_train(a) -> int:
    from .distil import DEFAULT_GAMES, DEFAULT_L2, DEFAULT_PLAYERS, DEFAULT_TEACHER
    from .distil import train_distilled, write_distilled

    out = out_path(a.out, a.force)
    players = DEFAULT_PLAYERS if a.players is None else \
        [_count(p, "--players") for p in str(a.players).split(",")]
    l2 = DEFAULT_L2
    if a.l2 is not None:
        try:
            l2 = float(a.l2)
        except ValueError:
            raise ValueError(f"--l2: {a.l2!r} is not a number") from None
    kw = dict(players=players, games=_count(a.games or DEFAULT_GAMES, "--games"),
              heldout=_count(a.heldout, "--heldout") if a.heldout is not None else None,
              seed=_count(a.seed, "--seed", 0), teacher=a.teacher or DEFAULT_TEACHER, l2=l2,
              check_games=_count(a.check_games, "--check-games"),
              threads=_count(a.threads, "--threads") if a.threads is not None else None)

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    res = train_distilled(a.rules, progress=None if a.no_progress else progress, **kw)
    write_distilled(res, out, command=getattr(a, "command_line", ""))
    sys.stdout.write(res.summary() + f"\nwrote {out}\n")
    return 0
