"""Until Daylight's own command-line commands, ``simlib tune-policy``, and its part of
``simlib train-policy`` (its own options and its run; the command and the options every
game shares are ``simlib.cli_train``'s).  Declared in ``game.COMMANDS``; the CLI knows no
game by name."""
from __future__ import annotations

from ...core.params import add_run_options, count
from ...core.train import train_and_write

__all__ = ["add_tune_arguments", "run_tune", "add_train_arguments", "run_train"]


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
    add_run_options(t, "tuned.toml", "FILE.toml",
                    "where to write the weights (default tuned.toml; the shipped file is "
                    "data/until_daylight/policies/tuned.toml)")


def run_tune(a) -> int:
    from .tune import tune_policy, write_tuned

    kw = dict(players=count(a.players, "--players"),
              trials=count(a.trials, "--trials"),
              block_games=count(a.block_games, "--block-games"),
              blocks=count(a.blocks, "--blocks"),
              train_seed=count(a.train_seed, "--train-seed", 0),
              check_games=count(a.check_games, "--check-games"),
              check_seed=count(a.check_seed, "--check-seed", 0),
              sampler_seed=count(a.sampler_seed, "--sampler-seed", 0),
              threads=count(a.threads, "--threads") if a.threads is not None else None)
    return train_and_write(a, tune_policy, write_tuned, a.rules, **kw)


def add_train_arguments(t) -> None:
    """Until Daylight's own options of ``simlib train-policy`` (the shared ones, and the
    command, are ``simlib.cli_train``'s)."""
    from .distil import DEFAULT_CONTINUATIONS, DEFAULT_HORIZON

    t.description = ("Distil the rollout search: at every decision where the teacher "
                     "searches, its continuations value the baseline's best candidates (or, "
                     "with --labels choices, the teacher's choices are the labels); the "
                     "weights of a linear score are fitted (ridge regression of the gains, "
                     "or a conditional logit; L2: default 10 for values, 1 for choices), a "
                     "threshold is picked on tuning games, and the fit is checked on held-out "
                     "teacher games and against the baseline on fresh games.  Defaults: "
                     "--rules calibrated, --players 4, --teacher rollout-1000, --games 2000.")
    t.add_argument("--labels", default=None, choices=("values", "choices"),
                   help="values (default): the teacher's continuations value every ranked "
                        "candidate, the baseline plays; choices: the teacher plays and its "
                        "choices are the labels")
    t.add_argument("--continuations", default=None, metavar="L",
                   help=f"continuations per ranked candidate with --labels values (default "
                        f"{DEFAULT_CONTINUATIONS})")
    t.add_argument("--horizon", default=None, metavar="H",
                   help=f"the teacher's horizon in rounds (default {DEFAULT_HORIZON}; 0: play "
                        "each continuation to the end, very slow on the calibrated ruleset)")
    t.add_argument("--tune-games", default=None, metavar="N",
                   help="games per threshold on the tuning seed (--seed + 2; default 20000)")


def run_train(a) -> int:
    from ...core.train import shared_options
    from .distil import (DEFAULT_CONTINUATIONS, DEFAULT_HORIZON, DEFAULT_TEACHER,
                         train_distilled, write_distilled)

    kw = shared_options(a, games=2000, teacher=DEFAULT_TEACHER, l2=None)
    return train_and_write(
        a, train_distilled, write_distilled, a.rules or "calibrated",
        players=count(a.players or "4", "--players"),
        horizon=count(a.horizon if a.horizon is not None else DEFAULT_HORIZON, "--horizon", 0),
        labels=a.labels or "values",
        continuations=count(a.continuations or DEFAULT_CONTINUATIONS, "--continuations"),
        tune_games=count(a.tune_games or "20000", "--tune-games"), **kw)
