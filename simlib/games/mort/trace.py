"""Mort de la lumière du jour: the kernel's trace log (``codes.LOG_W`` columns) in words."""
from __future__ import annotations

import numpy as np

from . import codes as K
from .ruleset import MortRules


def format_trace(rec: np.ndarray, log: np.ndarray, rules: MortRules, killer: str = "",
                 survivors: str = "") -> str:
    """One game's log rows (``kind, round, seat, a, b, c, d``) and record as text."""
    toks = rules.tokens()
    snames = rules.names("survivor_cards")
    knames = rules.names("killer_cards")

    def who(s: int) -> str:
        return "the killer" if s == 0 else f"survivor {s}"

    def card(s: int, k: int) -> str:
        names = knames if s == 0 else snames
        return names[k] if 0 <= k < len(names) else "?"

    pieces = {K.A_PLACE_GEN: "a generator", K.A_PLACE_SHORTCUT: "a shortcut",
              K.A_PLACE_CHEST: "a chest", K.A_PLACE_PAWN: "its pawn"}
    lines = [f"killer: {killer or '?'}; survivors: {survivors or '?'}", "=== Setup ==="]
    last_round = 0
    for kind, rnd, s, a, b, c, d in log.tolist():
        if rnd != last_round and kind != K.LG_END:
            lines.append(f"\n=== Round {rnd} ===")
            last_round = rnd
        if kind == K.LG_PLACE:
            lines.append(f"{who(s)} draws the token at {toks[b]} and places {pieces.get(a, '?')} there")
        elif kind == K.LG_GATES:
            lines.append(f"the killer puts the gates on the {K.SIDES[a]} and {K.SIDES[b]} sides")
        elif kind == K.LG_PALLET:
            lines.append(f"{who(s)} puts pallet {b} next to the token at {toks[a]}")
        elif kind == K.LG_TURN:
            extra = f", adjustment {b:+d}" if b else ""
            lines.append(f"-- {who(s)}'s turn ({a} energy cards{extra})")
        elif kind == K.LG_COMMIT:
            src = {0: f"a {b}-point card", 1: "the sprint", 2: "the pool"}[d]
            lines.append(f"  spends {src} on {K.PURPOSES[a]} ({c} points)")
        elif kind == K.LG_MOVE:
            lines.append(f"  {'takes the shortcut' if d else 'moves'} to ({a}, {b})"
                         + (f" (vaulting: {c} points)" if c > 1 and not d else ""))
        elif kind == K.LG_ROLL:
            what = {K.Q_REPAIR: f"to repair generator {b}", K.Q_CHEST: f"to open chest {b}",
                    K.Q_GATE: f"at the lever of gate {b}"}.get(a, "")
            lines.append(f"  rolls {what}: {'success' if c else 'failure'}")
        elif kind == K.LG_LAMP:
            lines.append(f"  generator {a} has {b} lamp{'s' if b != 1 else ''}")
        elif kind == K.LG_REPAIRED:
            lines.append(f"  generator {a} is repaired ({b} repaired)")
        elif kind == K.LG_POWERED:
            lines.append("  the exit gates are powered")
        elif kind == K.LG_GAIN:
            lines.append(f"  the noise gives the killer +{a} energy next turn")
        elif kind == K.LG_CHEST:
            lines.append(f"  chest {a} opens: {card(s, b)}; the chest "
                         + (f"moves to {toks[c]}" if d else f"stays at {toks[c]} (no free token)"))
        elif kind == K.LG_CARD:
            lines.append(f"  plays {card(s, b)}" + (f" (target {c})" if a != K.A_PLAY_SPRINT else ""))
        elif kind == K.LG_STRIKE:
            lines.append(f"  strikes survivor {a}: {'it lands' if b else 'missed'}")
        elif kind == K.LG_REFLEX:
            lines.append(f"  survivor {s} answers with {card(s, b)}: no hit")
        elif kind == K.LG_HELP:
            lines.append(f"  survivor {s} helps survivor {a} with {card(s, b)}: no hit")
        elif kind == K.LG_HIT:
            lines.append(f"  survivor {a} is {'injured' if b == 1 else 'hit'} (the killer -"
                         f"{rules.get('rules.hit_exhaustion')} energy next turn)")
        elif kind == K.LG_KILL:
            lines.append(f"  survivor {a} is killed ({b} killed)")
        elif kind == K.LG_ESCAPE:
            lines.append(f"  {who(s)} escapes {'through the hatch' if a else 'through a gate'} ({b} escaped)")
        elif kind == K.LG_HATCH:
            lines.append(f"  the hatch {'opens' if b == K.HATCH_OPEN else 'appears, shut'} at {toks[a]}")
        elif kind == K.LG_GATE_OPEN:
            lines.append(f"  gate {a} is open")
        elif kind == K.LG_DROP:
            lines.append(f"  drops pallet {a}")
        elif kind == K.LG_BREAK:
            lines.append(f"  rolls to break pallet {a}: {'broken' if b else 'it holds'}")
        elif kind == K.LG_DETOUR:
            lines.append(f"  walks round pallet {a}")
        elif kind == K.LG_DISCARD:
            lines.append(f"  discards {card(s, a)}")
        elif kind == K.LG_END:
            lines.append(f"\n=== End: {K.END_NAMES[a].replace('_', ' ')}; {b} killed, {c} escaped ===")
    win = "the killer wins" if rec[K.REC_KILLER_WIN] else "the survivors win"
    lines.append(f"{win} after {rec[K.REC_ROUNDS]} rounds; generators repaired {rec[K.REC_REPAIRED]}, "
                 f"gates open {rec[K.REC_GATES_OPEN]}, decisions {rec[K.REC_DECISIONS]}")
    return "\n".join(lines) + "\n"
