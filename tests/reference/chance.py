"""Where a reference engine's random outcomes come from.

A reference engine never draws random numbers itself: at every random event it calls
``chance.draw(kind, options)``, naming the purpose (``kind``, e.g. ``"hunt_deck"``) and the
outcomes possible at that moment (``options``: the cards left in a draw pile, with repeats;
a die's faces; the tied seats of a random tie-break). The source answers one of them.

- :class:`RandomChance` answers uniformly at random from a seeded generator: the reference
  engine plays games on its own (its invariant tests).
- :class:`ScriptedChance` answers from per-kind queues given in advance: a worked example of
  the rulebook, or a differential test replaying the fast engine's chance events. Each answer
  must be one of the options; an answer that is not, a kind with nothing queued, or
  outcomes left unused at the end are disagreements between the two engines, reported with
  the kind and the options.
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any, Hashable, Iterable, Mapping, Sequence


class ChanceMismatch(AssertionError):
    """The scripted outcome is not possible where the reference engine asks for it."""


class Chance:
    """Interface: ``draw(kind, options) -> one of options``."""

    def draw(self, kind: str, options: Sequence[Any]) -> Any:  # pragma: no cover - interface
        raise NotImplementedError


class RandomChance(Chance):
    """Uniform over ``options`` (each listed entry equally likely, so repeats weigh)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.history: list[tuple[str, Any]] = []

    def draw(self, kind: str, options: Sequence[Any]) -> Any:
        if not options:
            raise ChanceMismatch(f"chance {kind!r} asked with no possible outcome")
        out = options[self.rng.randrange(len(options))]
        self.history.append((kind, out))
        return out


class ScriptedChance(Chance):
    """Answers from queues: ``ScriptedChance({"attack_die": [6, 2], "hunt_deck": [...]})``.

    ``strict`` (default) checks every answer is among the options. ``fallback`` (a
    :class:`Chance`) answers kinds whose queue is empty instead of raising, for worked
    examples that script only the outcomes that matter.
    """

    def __init__(self, queues: Mapping[str, Iterable[Any]] | None = None, *,
                 strict: bool = True, fallback: Chance | None = None):
        self.queues: dict[str, deque] = {k: deque(v) for k, v in (queues or {}).items()}
        self.strict = strict
        self.fallback = fallback
        self.history: list[tuple[str, Any]] = []

    def push(self, kind: str, outcome: Any) -> None:
        """Queue one more outcome of ``kind`` (a differential test feeds events as they come)."""
        self.queues.setdefault(kind, deque()).append(outcome)

    def draw(self, kind: str, options: Sequence[Any]) -> Any:
        q = self.queues.get(kind)
        if not q:
            if self.fallback is not None:
                out = self.fallback.draw(kind, options)
                self.history.append((kind, out))
                return out
            raise ChanceMismatch(f"chance {kind!r}: the reference engine draws, but no "
                                 f"outcome of that kind is queued (options: {_short(options)})")
        out = q.popleft()
        if self.strict and not _among(out, options):
            raise ChanceMismatch(f"chance {kind!r}: outcome {out!r} is not among the options "
                                 f"the reference engine sees ({_short(options)})")
        self.history.append((kind, out))
        return out

    def left(self) -> dict[str, list]:
        """Outcomes queued but never drawn, by kind (empty when both engines agree)."""
        return {k: list(v) for k, v in self.queues.items() if v}


def _among(out: Any, options: Sequence[Any]) -> bool:
    try:
        return out in options
    except TypeError:  # unhashable comparisons still work with == through a scan
        return any(out == o for o in options)


def _short(options: Sequence[Hashable]) -> str:
    opts = list(options)
    s = ", ".join(repr(o) for o in opts[:12])
    return s + (f", ... ({len(opts)} in all)" if len(opts) > 12 else "")
