"""Turn the game kernel's event buffer into words a designer reads."""
from __future__ import annotations

import numpy as np

from . import codes as K
from .ruleset import Ruleset

_FATE = {v: k.replace("_", " ") for k, v in K.FATE_NAMES.items()}
_FACE = "XBH"


def _faces(code: int, k: int) -> str:
    out = []
    for _ in range(k):
        out.append(_FACE[code % 3])
        code //= 3
    return " ".join(out)


def format_trace(record, events: np.ndarray, rules: Ruleset) -> str:
    """A round-by-round, action-by-action account of one game."""
    cards = rules.card_names
    enemies = rules.enemy_names
    n = int(record["players"])
    chars = [rules.character_names[int(record[f"character_{s}"])] for s in range(n)]

    def who(s: int) -> str:
        return f"{chars[s].capitalize()} (seat {s})" if 0 <= s < n else "-"

    def short(s: int) -> str:
        return chars[s].capitalize() if 0 <= s < n else "-"

    lines = [f"Until Daylight, game {int(record['game'])}: {n} players — "
             + ", ".join(who(s) for s in range(n))]
    for row in events:
        kind, rnd, s, a, b, c, d, e = (int(v) for v in row)
        if kind == K.EV_ROUND:
            lines.append("")
            lines.append(f"=== Round {rnd} === search phase: {short(a)} starts; the timer allows {b} actions")
        elif kind == K.EV_DRAW:
            why = {1: " (reward for a kill)", 2: " (Die of Fate)"}.get(b, "")
            lines.append(f"  {short(s)} draws {cards[a]}{why}")
        elif kind == K.EV_EVENT:
            lines.append(f"  {short(s)}: red event {cards[a]} resolves at once")
        elif kind == K.EV_CRAFT:
            lines.append(f"  {short(s)} builds a {'trap' if a == K.TOKEN_TRAP else 'barricade'}")
        elif kind == K.EV_GIVE:
            lines.append(f"  {short(s)} gives {c} x {cards[a]} to {short(b)}")
        elif kind == K.EV_TAKE:
            how = "steals (pickpocket)" if d else "takes"
            lines.append(f"  {short(s)} {how} {c} x {cards[a]} from {short(b)}")
        elif kind == K.EV_USE:
            lines.append(f"  {short(s)} uses {cards[a]}")
        elif kind == K.EV_NOTHING:
            lines.append(f"  {short(s)} does nothing")
        elif kind == K.EV_CAUGHT:
            lines.append(f"  -- time is up: {short(s)} is caught and receives the horde")
        elif kind == K.EV_FATE:
            lines.append(f"Horde release: {short(s)} rolls the Die of Fate: {_FATE.get(a, a)}; wave of {b} cards")
        elif kind == K.EV_HORDE:
            lines.append(f"  {enemies[a]} enters {short(b)}'s area")
        elif kind == K.EV_ATTACK:
            wpn = cards[b]
            where = "own area" if a == s else f"{short(a)}'s area"
            ammo = f", {d} ammo spent" if d else ""
            lines.append(f"  {short(s)} attacks {where} with {wpn}: {c} dice{ammo}")
        elif kind == K.EV_ROLL:
            lines.append(f"    roll: {_faces(d, a + b + c)}  ({a} head, {b} body, {c} miss)")
        elif kind == K.EV_CARD_PLAYED:
            lines.append(f"    {short(s)} plays {cards[a]}")
        elif kind == K.EV_KILL:
            how = " by a trap" if c else ""
            lines.append(f"    {enemies[a]} eliminated{how} in {short(b)}'s area")
        elif kind == K.EV_COLLATERAL:
            lines.append(f"    misses in another area: {b} collateral damage to {short(a)}")
        elif kind == K.EV_TAME:
            lines.append(f"    noise: {b} infected move from {short(a)}'s area to {short(s)}'s")
        elif kind == K.EV_TRAP:
            lines.append(f"Traps: {a} trap(s) fire in {short(s)}'s area, {b} kill(s)")
        elif kind == K.EV_ENEMY_ROLL:
            who_ = "raiders" if a == K.ENEMY_RAIDER else "infected"
            lines.append(f"  {who_} in {short(s)}'s area roll {b + c + d} dice: {b} head, {c} body, {d} miss")
        elif kind == K.EV_SURVIVOR_KILLED:
            lines.append(f"    a survivor in {short(s)}'s area dies")
        elif kind == K.EV_BARRICADE_DOWN:
            lines.append(f"    a barricade of {short(s)} is destroyed")
        elif kind == K.EV_PROTECTION:
            lines.append(f"    {short(s)}'s {cards[a]} absorbs a damage and is discarded")
        elif kind == K.EV_DAMAGE:
            extra = " (raider: a card is discarded)" if c else ""
            lines.append(f"    {short(s)} takes {a} damage, health {b}{extra}")
        elif kind == K.EV_IGNORED:
            by = "own ability" if a < 0 else f"{short(a)}'s ability"
            lines.append(f"    {short(s)} ignores a damage ({by})")
        elif kind == K.EV_SAVED:
            lines.append(f"End of round: {short(s)} saves {a} survivor(s)")
        elif kind == K.EV_LEADER:
            lines.append(f"  ** {short(a)} becomes the leader with {b} XP (advantage doubled)")
        elif kind == K.EV_DISCARD:
            why = " (looked at, not kept)" if b == 1 else ""
            lines.append(f"    {short(s)} discards {cards[a]}{why}")
        elif kind == K.EV_DEATH:
            lines.append(f"!! {who(s)} dies")
        elif kind == K.EV_HEAL:
            lines.append(f"    {short(s)} heals {a}, health {b}")
        elif kind == K.EV_SACRIFICE:
            lines.append(f"    {short(s)} sacrifices a saved survivor to absorb a damage")
        elif kind == K.EV_EXCHANGE:
            lines.append(f"-- final fight, exchange {a} --")
        elif kind == K.EV_RESHUFFLE:
            lines.append(f"  ({'horde' if a == 0 else 'rubble'} deck reshuffled: {b} cards)")
        elif kind == K.EV_NO_CARD:
            lines.append("    (no rubble card left to draw)")
        elif kind == K.EV_END:
            lines.append("")
            if a == K.OUT_WIN:
                lines.append(f"RESULT: the group WINS in round {rnd}")
            else:
                lines.append(f"RESULT: loss in round {rnd}: {K.CAUSE_NAMES[b]}")
    saved = int(record["survivors_saved"])
    lines.append(f"Survivors saved: {saved}; leader: "
                 f"{short(int(record['leader'])) if int(record['leader']) >= 0 else 'none'}")
    return "\n".join(lines)
