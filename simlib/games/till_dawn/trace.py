"""Till Dawn: the kernel's trace log (``codes.LOG_W`` columns) in words a designer reads."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from . import codes as K
from .ruleset import TillDawnRules

_VOTES = {0: "blood moon", 1: "blue moon", 2: "hunting moon", K.VOTE_REFUSED: "refuses"}


def card_text(rules: TillDawnRules, t: int) -> str:
    """``feed_3_castle (3 blood, castle; hunting moon, event icon)``."""
    ct = rules.card_types()[t]
    kind = K.KINDS[ct["kind"]]
    what = {"feeding": f"feeding {ct['value']} blood at the {rules.grounds[ct['ground']] if ct['ground'] >= 0 else '?'}",
            "invitation": f"the invitation (payoff {ct['payoff']}, {ct['payoff_hunting']} on a hunting "
                          f"moon; penalty {ct['penalty']})",
            "night_lingers": f"night lingers {ct['value']}",
            "sun_rising": f"sun rising {ct['value']}",
            "vampire_slayer": f"vampire slayer {ct['value']}",
            "werewolf": f"werewolf attack {ct['value']}"}[kind]
    return f"{what} [{K.MOONS[ct['moon']]} moon{', event icon' if ct['icon'] else ''}]"


def _handlers(rules: TillDawnRules, who: Callable[[int], str]):
    ev = [rules.get(f"events.{n}.kind") for n in rules.names("events")
          for _ in range(rules.get(f"events.{n}.count"))]
    pw = [rules.get(f"powers.{n}.kind") for n in rules.names("powers")
          for _ in range(rules.get(f"powers.{n}.count"))]
    what_txt = {K.WHAT_DOUBLE: "doubling", K.WHAT_PROTECT: "protection", K.WHAT_HEAL: "heal"}
    return {
        K.LG_NIGHT: lambda s, a, b, c, d: f"\n=== Night {{night}} === {who(s)} draws first",
        K.LG_DRAW: lambda s, a, b, c, d: f"{who(s)} draws {card_text(rules, a)}",
        K.LG_INVITE: lambda s, a, b, c, d: (f"  invitation: {who(s)} voted {_VOTES[a]}: "
                                            + ("refused" if a == K.VOTE_REFUSED else
                                               f"+{c} blood" if a == b else f"wrong, {d} injury")),
        K.LG_GAIN: lambda s, a, b, c, d: f"  {who(s)} feeds: +{a} blood{' (doubled)' if c else ''} -> {b}",
        K.LG_DAMAGE: lambda s, a, b, c, d: f"  {who(s)} loses {a} health -> {b}",
        K.LG_DEATH: lambda s, a, b, c, d: f"  {who(s)} falls to 0 health: back to the coffin, {a} blood lost",
        K.LG_SUNRISE: lambda s, a, b, c, d: f"  the sun rises on {who(s)}: {a} unbanked blood lost",
        K.LG_TRACK: lambda s, a, b, c, d: f"  night track {'+' if b > 0 else ''}{b} -> {a}",
        K.LG_PLAY: lambda s, a, b, c, d: (f"  {who(s)} plays the heal event" if a == K.A_HEAL else
                                          f"  {who(s)} plays {'power' if a == K.A_PLAY_POWER else 'event'} "
                                          f"{pw[b] if a == K.A_PLAY_POWER else ev[b]} ({what_txt.get(d, '')})"),
        K.LG_CANCEL: lambda s, a, b, c, d: f"  {who(s)} plays power {pw[c]}: {who(a)}'s {what_txt.get(b, '')} is cancelled",
        K.LG_VOTE: lambda s, a, b, c, d: f"  {who(s)} votes {_VOTES[a]}",
        K.LG_EVENT_DRAW: lambda s, a, b, c, d: (f"  {who(s)} draws event {ev[a]}"
                                                + (f" (holds {ev[b]}: keeps one)" if b >= 0 else "")),
        K.LG_RETIRE: lambda s, a, b, c, d: f"  {who(s)} returns to the coffin and banks {a} blood = {b} points",
        K.LG_HEAL: lambda s, a, b, c, d: f"  {who(s)} heals {a} -> {b} health",
        K.LG_RESHUFFLE: lambda s, a, b, c, d: f"  the hunt deck is empty: {a} cards reshuffled",
        K.LG_END: lambda s, a, b, c, d: f"\nGame over ({K.END_NAMES[a].replace('_', ' ')})",
        K.LG_WEREWOLF: lambda s, a, b, c, d: f"  the werewolf attacks {who(s)} and goes back into the deck",
        K.LG_SUPPLY: lambda s, a, b, c, d: f"  the {'coffin' if a else 'blood'} tokens run out ({b} needed, {c} left): the game ends at once",
    }


def format_trace(record: np.ndarray, log: np.ndarray, rules: TillDawnRules,
                 labels: Sequence[str]) -> str:
    """A night-by-night, card-by-card account of one game."""
    n = int(record[K.REC_PLAYERS])
    chars = [rules.character_names[int(record[K.REC_CHARACTER + s])] for s in range(n)]

    def who(s: int) -> str:
        return f"{chars[s].capitalize()} (seat {s}, {labels[s]})" if 0 <= s < n else "-"

    lines = [f"Till Dawn, game {int(record[K.REC_GAME])}: {n} players — "
             + ", ".join(who(s) for s in range(n))]
    handlers = _handlers(rules, lambda s: chars[s].capitalize() if 0 <= s < n else "-")
    for row in log:
        kind, night, s, a, b, c, d = (int(v) for v in row)
        text = handlers[kind](s, a, b, c, d)
        lines.append(text.replace("{night}", str(night + 1)))
    lines.append("Coffin points: " + ", ".join(
        f"{chars[s].capitalize()} {int(record[K.REC_SCORE + s])}"
        + (" (wins)" if record[K.REC_WIN + s] == 1 else "") for s in range(n)))
    if int(record[K.REC_WINNERS]) > 1:
        lines.append(f"A tie: {int(record[K.REC_WINNERS])} vampires share the victory.")
    return "\n".join(lines)
