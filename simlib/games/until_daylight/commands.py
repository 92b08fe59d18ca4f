"""Until Daylight's own command-line command, ``simlib tune-policy`` (declared in
``game.COMMANDS``; the CLI knows no game by name)."""
from __future__ import annotations

import math
import sys
from pathlib import Path

__all__ = ["add_tune_arguments", "run_tune"]


def add_tune_arguments(t) -> None:
    t.description = ("Tune the baseline's five weights with optuna (TPE sampler, Wilcoxon "
                     "pruner) on blocks of common training seeds, then re-check the winner "
                     "against the baseline on fresh seeds (paired), and write the weights with "
                     "their provenance.  The same arguments give the same file.")
    t.add_argument("--rules", default="calibrated", metavar="PATH|calibrated|reference",
                   help="ruleset to tune on (default: the calibrated preset)")
    t.add_argument("--players", default="4", metavar="N", help="player count (default 4)")
    t.add_argument("--trials", default="60", metavar="N", help="optuna trials (default 60)")
    t.add_argument("--block-games", default="500", metavar="N",
                   help="games per training block (default 500)")
    t.add_argument("--blocks", default="4", metavar="N", help="training blocks (default 4)")
    t.add_argument("--train-seed", default="1000", metavar="S",
                   help="seed of the first training block (default 1000)")
    t.add_argument("--check-games", default="20000", metavar="N",
                   help="games of the re-check on fresh seeds (default 20000)")
    t.add_argument("--check-seed", default="9000", metavar="S", help="seed of the re-check")
    t.add_argument("--sampler-seed", default="0", metavar="S", help="optuna sampler seed")
    t.add_argument("--threads", default=None, metavar="N", help="numba threads")
    t.add_argument("--out", default="tuned.toml", metavar="FILE.toml",
                   help="where to write the weights (default tuned.toml; the shipped file is "
                        "data/until_daylight/policies/tuned.toml)")
    t.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    t.add_argument("--no-progress", action="store_true", help="no progress lines")


def _positive(text, what: str) -> int:
    try:
        v = float(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(v) or v != int(v) or v <= 0:
        raise ValueError(f"{what} must be a positive integer; got {text!r}")
    return int(v)


def _seed(text, what: str) -> int:
    try:
        v = int(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not an integer") from None
    if v < 0:
        raise ValueError(f"{what} must be >= 0; got {text!r}")
    return v


def run_tune(a) -> int:
    from .tune import tune_policy, write_tuned

    out = Path(a.out)
    if out.suffix != ".toml":
        raise ValueError(f"--out must name a .toml file; got {a.out!r}")
    if out.exists() and not a.force:
        raise ValueError(f"{out} exists; add --force to overwrite it")
    if not out.parent.is_dir():
        raise ValueError(f"--out: no such folder {str(out.parent)!r}")
    kw = dict(players=_positive(a.players, "--players"),
              trials=_positive(a.trials, "--trials"),
              block_games=_positive(a.block_games, "--block-games"),
              blocks=_positive(a.blocks, "--blocks"),
              train_seed=_seed(a.train_seed, "--train-seed"),
              check_games=_positive(a.check_games, "--check-games"),
              check_seed=_seed(a.check_seed, "--check-seed"),
              sampler_seed=_seed(a.sampler_seed, "--sampler-seed"),
              threads=_positive(a.threads, "--threads") if a.threads is not None else None)

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    res = tune_policy(a.rules, progress=None if a.no_progress else progress, **kw)
    write_tuned(res, out, command=getattr(a, "command_line", ""))
    sys.stdout.write(res.summary() + f"\nwrote {out}\n")
    return 0
