"""What every game's ``simlib train-policy`` run shares (the command and its options are
``simlib.cli_train``'s; a game's ``commands.run_train`` calls these): reading the options
every distillation has, each error one line naming the option, and the run itself — the
``--out`` file checked before any work, progress lines on stderr, the summary on stdout.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from .paired import paired_counts, paired_summary
from .params import count, count_list, number
from .weights import out_path, write_weights

__all__ = ["count", "count_list", "shared_options", "train_and_write", "versus",
           "versus_sentence", "TrainingResult", "teacher_games", "rotation", "paired_difference"]


def shared_options(a, *, games: int | str, teacher: str, l2: float | None,
                   check_min: int = 1) -> dict:
    """The shared options' values for a game's trainer: ``games``, ``heldout``, ``seed``,
    ``teacher``, ``l2``, ``check_games``, ``threads`` (``games``, ``teacher`` and ``l2``:
    the game's defaults for an option left out)."""
    if a.l2 is not None:
        l2 = number(a.l2, "--l2")
    return dict(games=count(a.games or games, "--games"),
                heldout=count(a.heldout, "--heldout") if a.heldout is not None else None,
                seed=count(a.seed, "--seed", 0), teacher=a.teacher or teacher, l2=l2,
                check_games=count(a.check_games, "--check-games", check_min),
                threads=count(a.threads, "--threads") if a.threads is not None else None)


def train_and_write(a, train: Callable, write: Callable, rules, **kw) -> int:
    """``train(rules, progress=..., **kw)``, then ``write(result, out, command=...)`` and
    the result's summary; ``--out`` is checked first (a bad one costs no training)."""
    out = out_path(a.out, a.force)

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    res = train(rules, progress=None if a.no_progress else progress, **kw)
    write(res, out, command=getattr(a, "command_line", ""))
    sys.stdout.write(res.summary() + f"\nwrote {out}\n")
    return 0


def paired_difference(wa, wb) -> tuple[float, float]:
    """``mean(wb) - mean(wa)`` on the same games and its paired standard error,
    ``sqrt((b + c) - (c - b)**2 / n) / n`` (b, c: the games only A, only B won)."""
    wa, wb = np.asarray(wa, dtype=bool), np.asarray(wb, dtype=bool)
    n = len(wa)
    b_, c_ = int((wa & ~wb).sum()), int((~wa & wb).sum())
    return (c_ - b_) / n, math.sqrt(max((b_ + c_) - (c_ - b_) ** 2 / n, 0.0)) / n


def versus(base_wins, distilled_wins, base_seconds: float, distilled_seconds: float,
           base: str = "baseline") -> dict:
    """The paired check of a distilled player against the game's default player ``base`` on
    the same games (A = ``base``, B = distilled: the difference is distilled's gain):
    wins, rates, the difference with its Newcombe interval, McNemar's p, the difference in
    paired standard errors and the kernel's games per second of each."""
    wa = np.asarray(base_wins, dtype=bool)
    wb = np.asarray(distilled_wins, dtype=bool)
    s = paired_summary(paired_counts(wa, wb)).iloc[0]
    n = len(wa)
    _, se = paired_difference(wa, wb)
    return {"wins_distilled": int(s["wins_b"]), f"wins_{base}": int(s["wins_a"]),
            "rate_distilled": float(s["rate_b"]), f"rate_{base}": float(s["rate_a"]),
            "diff": float(s["diff"]), "diff_low": float(s["diff_low"]),
            "diff_high": float(s["diff_high"]), "mcnemar_p": float(s["mcnemar_p"]),
            "diff_se": float(s["diff"] / se) if se > 0 else float("nan"),
            "paired_se": float(se),
            "games_per_s_distilled": n / distilled_seconds,
            f"games_per_s_{base}": n / base_seconds}


def versus_sentence(c: dict, base: str = "baseline", prefix: str = "",
                    label: str | None = None) -> str:
    """:func:`versus`'s figures (keys ``prefix + name``) as the summary's sentence; the
    default player called ``label`` (default: its key name ``base``)."""
    def v(k):
        return c[prefix + k]
    label = label or base
    return (f"distilled {v('wins_distilled')} wins ({v('rate_distilled'):.2%}), {label} "
            f"{v(f'wins_{base}')} ({v(f'rate_{base}'):.2%}); difference {v('diff'):+.2%} "
            f"[{v('diff_low'):+.2%}, {v('diff_high'):+.2%}], {v('diff_se'):.1f} paired "
            f"standard errors, McNemar p = {v('mcnemar_p'):.3g}; kernel games/s distilled "
            f"{v('games_per_s_distilled'):,.0f}, {label} {v(f'games_per_s_{base}'):,.0f}")


def _timing(key: str) -> bool:
    return key.endswith("_seconds") or "games_per_s" in key


@dataclasses.dataclass
class TrainingResult:
    """A fitted distilled player: its parameters, the settings that made it, the figures of
    its training (held out) and its paired check (:func:`versus`).  A game's subclass
    writes :meth:`summary`; :meth:`write` is the weights file every game writes."""

    params: dict[str, float]  # the distilled policy's parameters, by name
    settings: dict
    training: dict
    check: dict

    def summary(self) -> str:
        raise NotImplementedError("a game's subclass says what its figures mean")

    def write(self, path: str | Path, *, header: Sequence[str], command: str, fit: str,
              features, source: Callable[[str], str] = lambda name: "fit",
              names: Sequence[str] | None = None,
              training_note: str = "teacher games; the held-out figures",
              check_note: str = "fresh seeds, the same games for both policies",
              dated: bool = True) -> Path:
        """The weights file (atomic): ``header``, ``[params]`` (``names``, default every
        parameter but ``any_ruleset``, each with its ``source``), ``[provenance]`` (the
        command, the date, the fit, the features and the settings), ``[training]`` and
        ``[check]``.  ``dated=False`` leaves out the date and the run's times and speeds
        (the summary prints them), so the same arguments write the same bytes."""
        names = [k for k in self.params if k != "any_ruleset"] if names is None else names
        prov = {"command": command, **({"date": _dt.date.today().isoformat()} if dated else {}),
                "fit": fit, "features": features, **self.settings}

        def kept(d: dict) -> dict:
            return d if dated else {k: v for k, v in d.items() if not _timing(k)}

        return write_weights(path, header, [(k, self.params[k], source(k)) for k in names], [
            ("provenance", "", prov),
            ("training", training_note, kept(self.training)),
            ("check", check_note, kept(self.check))])


def teacher_games(one: Callable, items: Iterable, threads: int | None,
                  progress: Callable[[str], None] | None, *, every: int = 100,
                  label: str = "teacher games", rate: str = ",.1f") -> list:
    """``[one(item) for item in items]`` on ``threads`` threads (the results in the items'
    order: a game's randomness is its own, so the threads change nothing), with a progress
    line every ``every`` games and at the last."""
    items = list(items)
    out: list = []
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, threads or 1)) as pool:
        for i, r in enumerate(pool.map(one, items)):
            out.append(r)
            if progress is not None and ((i + 1) % every == 0 or i + 1 == len(items)):
                dt = time.perf_counter() - t0
                progress(f"{label} {i + 1}/{len(items)} ({(i + 1) / dt:{rate}} games/s)")
    return out


def rotation(players: Sequence[int], games: int, start: int):
    """Per game ``start .. start + games - 1``: its player count (``players`` in turn) and
    the focal (teacher's) seat, turning one seat every round of the player counts."""
    idx = np.arange(start, start + games, dtype=np.int64)
    pl = np.asarray(players, dtype=np.int64)
    npl = pl[idx % len(pl)]
    return npl, (idx // len(pl)) % npl
