"""The ``tuned`` policy: the baseline's weights tuned by a noisy black-box optimiser.

The baseline scores every candidate with five weights (``policies.POLICIES["baseline"]``:
the score of a draw, of crafting, the missing health that triggers a heal, the penalty
per expected collateral damage, the health at which a saved survivor is sacrificed).
:func:`tune_policy` searches them with optuna's TPE sampler (seeded: the same arguments
give the same trials) on a *training* seed range: a trial plays ``blocks`` blocks of
``block_games`` games, every trial the very same games (common random numbers), and
reports each block's win rate to optuna's Wilcoxon pruner, which stops a trial as soon
as its blocks are significantly worse than the best trial's on the same blocks.  The
baseline's own weights are the first trial, so the winner is never worse than the
baseline on the training games.

The best of many noisy trials is flattered by its training games, so the winner is
re-checked on *fresh* seeds against the baseline on the same games (paired: Newcombe's
interval and McNemar's test, :mod:`simlib.core.paired`).  :func:`write_tuned` writes the
weights with their provenance (seeds, budget, optimiser, date, the check's figures) to
``data/until_daylight/policies/tuned.toml``, the file the ``tuned`` policy reads;
``simlib tune-policy`` runs both.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import math
import warnings
from pathlib import Path
from typing import Callable, Mapping

import numpy as np

from ...core.paired import paired_counts, paired_summary
from ...core.weights import write_weights
from . import codes as K
from .api import check_players, play_games
from .policies import POLICIES, read_tuned, tuned_path
from .ruleset import load_ruleset

__all__ = ["SPACE", "TuneResult", "tune_policy", "write_tuned", "read_tuned", "tuned_path"]

# the search space of each baseline weight (the defaults lie inside)
SPACE: dict[str, tuple[float, float]] = {
    "draw_score": (0.0, 200.0),
    "craft_score": (0.0, 300.0),
    "heal_missing": (1.0, 6.0),
    "collateral_penalty": (0.0, 5.0),
    "sacrifice_at_health": (0.0, 6.0),
}


@dataclasses.dataclass
class TuneResult:
    """What a tuning run found, and how it did on fresh seeds."""

    params: dict[str, float]
    train_win_rate: float  # the winner's mean block win rate on the training games
    baseline_train_win_rate: float
    trials: int
    pruned: int
    check: dict  # paired check on fresh seeds: games, wins, diff, interval, McNemar p
    settings: dict  # every argument, to re-create the run

    def summary(self) -> str:
        c = self.check
        lines = [f"tuned weights ({self.trials} trials, {self.pruned} pruned): " +
                 ", ".join(f"{k}={v:.4g}" for k, v in self.params.items()),
                 f"training games: tuned {self.train_win_rate:.2%}, baseline "
                 f"{self.baseline_train_win_rate:.2%}",
                 f"fresh seeds ({c['games']} games, seed {c['seed']}): tuned {c['wins_tuned']} "
                 f"wins ({c['rate_tuned']:.2%}), baseline {c['wins_baseline']} ({c['rate_baseline']:.2%}); "
                 f"difference {c['diff']:+.2%} [{c['diff_low']:+.2%}, {c['diff_high']:+.2%}], "
                 f"McNemar p = {c['mcnemar_p']:.3g}"]
        return "\n".join(lines)


def _wins(games: int, players: int, seed: int, params: Mapping[str, float], rules,
          threads: int | None) -> np.ndarray:
    rec = play_games(games, players=players, seed=seed, policy="baseline",
                     policy_params=dict(params), ruleset=rules, threads=threads)
    return np.asarray(rec["outcome"] == K.OUT_WIN)


def tune_policy(ruleset="calibrated", players: int = 4, trials: int = 60,
                block_games: int = 500, blocks: int = 4, train_seed: int = 1000,
                check_games: int = 20000, check_seed: int = 9000, sampler_seed: int = 0,
                threads: int | None = None,
                progress: Callable[[str], None] | None = None) -> TuneResult:
    """Tune the baseline's weights; see the module's docstring.

    Raises ``ValueError`` for a bad argument (named), before any game is played.
    """
    import optuna


    for name, v, lo in (("players", players, 1), ("trials", trials, 1),
                        ("block_games", block_games, 1), ("blocks", blocks, 2),
                        ("check_games", check_games, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ValueError(f"{name} must be an integer >= {lo}; got {v!r}")
    for name, v in (("train_seed", train_seed), ("check_seed", check_seed),
                    ("sampler_seed", sampler_seed)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < 2 ** 62:
            raise ValueError(f"{name} must be an integer from 0 to 2^62; got {v!r}")
    if abs(check_seed - train_seed) < blocks:
        raise ValueError(f"check_seed {check_seed} reuses a training seed "
                         f"({train_seed}..{train_seed + blocks - 1}): the check must be fresh")
    rules = load_ruleset(ruleset)
    check_players(players, rules)
    defaults = dict(zip(POLICIES["baseline"].param_names, POLICIES["baseline"].defaults))

    def objective(trial) -> float:
        params = {k: trial.suggest_float(k, lo, hi) for k, (lo, hi) in SPACE.items()}
        rates = []
        for b in range(blocks):
            rate = float(_wins(block_games, players, train_seed + b, params, rules, threads).mean())
            rates.append(rate)
            trial.report(rate, b)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return float(np.mean(rates))

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        study = optuna.create_study(
            direction="maximize", sampler=optuna.samplers.TPESampler(seed=sampler_seed),
            pruner=optuna.pruners.WilcoxonPruner(p_threshold=0.1, n_startup_steps=2))
        study.enqueue_trial(defaults)  # the baseline itself is trial 0

        def report(st, tr) -> None:
            if progress is not None:
                best = st.best_value if st.best_trial is not None else float("nan")
                progress(f"trial {tr.number + 1}/{trials}: {tr.state.name.lower()}"
                         + (f" {tr.value:.2%}" if tr.value is not None else "")
                         + f" (best {best:.2%})")

        study.optimize(objective, n_trials=trials, callbacks=[report])
    best = study.best_trial
    params = {k: float(best.params[k]) for k in SPACE}
    baseline_train = study.trials[0].value
    pruned = sum(t.state == optuna.trial.TrialState.PRUNED for t in study.trials)
    # the re-check on fresh seeds, paired
    wt = _wins(check_games, players, check_seed, params, rules, threads)
    wb = _wins(check_games, players, check_seed, defaults, rules, threads)
    s = paired_summary(paired_counts(wb, wt)).iloc[0]  # A = baseline, B = tuned: B - A
    check = {"seed": int(check_seed), "games": int(check_games),
             "wins_tuned": int(s["wins_b"]), "wins_baseline": int(s["wins_a"]),
             "rate_tuned": float(s["rate_b"]), "rate_baseline": float(s["rate_a"]),
             "diff": float(s["diff"]), "diff_low": float(s["diff_low"]),
             "diff_high": float(s["diff_high"]), "mcnemar_p": float(s["mcnemar_p"])}
    settings = {"ruleset": rules.lineage,
                "ruleset_fingerprint": rules.fingerprint(), "players": int(players),
                "trials": int(trials), "block_games": int(block_games), "blocks": int(blocks),
                "train_seed": int(train_seed), "check_games": int(check_games),
                "check_seed": int(check_seed), "sampler_seed": int(sampler_seed)}
    return TuneResult(params, float(best.value), float(baseline_train if baseline_train is not None
                                                       else math.nan),
                      len(study.trials), int(pruned), check, settings)


def write_tuned(result: TuneResult, path: str | Path, command: str = "") -> Path:
    """Write the weights (source ``fit``) and their provenance; atomic (temporary file,
    then rename)."""
    import optuna

    header = ["The `tuned` policy: the baseline's weights tuned by `simlib tune-policy`",
              "(optuna TPE + Wilcoxon pruner on common training seeds, re-checked on fresh",
              "seeds against the baseline, paired).  Written by simlib.games.until_daylight.tune;",
              "re-create it with the command under [provenance]."]
    prov = {"command": command, "date": _dt.date.today().isoformat(),
            "optimiser": f"optuna {optuna.__version__} TPESampler(seed={result.settings['sampler_seed']}) "
                         "+ WilcoxonPruner(p_threshold=0.1, n_startup_steps=2)",
            **result.settings, "trials_run": result.trials, "trials_pruned": result.pruned,
            "train_win_rate": result.train_win_rate,
            "baseline_train_win_rate": result.baseline_train_win_rate}
    return write_weights(path, header, [(k, v, "fit") for k, v in result.params.items()],
                         [("provenance", "", prov),
                          ("check", "fresh seeds, the same games for both policies", result.check)])
