"""Until the World Ends traces: the kernel's log rows as text, one line per event."""
from __future__ import annotations

import numpy as np

from . import codes as K
from .api import card_name

__all__ = ["format_trace", "trace_lines"]


def trace_lines(log: np.ndarray, rules, labels) -> list[str]:
    def seat(s):
        s = int(s)
        return f"seat {s} ({labels[s]})" if 0 <= s < len(labels) else "nobody"

    def card(c):
        return card_name(rules, int(c)) if c >= 0 else "-"

    out = []
    for kind, rnd, s, a, b, c, _d in (tuple(int(x) for x in row) for row in log):
        if kind == K.LG_ROUND:
            out.append(f"-- round {rnd}: {seat(s)} deals; {a} cards in the draw pile")
        elif kind == K.LG_DRAW:
            out.append(f"  {seat(s)} draws {card(a)}" + (" (scavenge)" if b else ""))
        elif kind == K.LG_PLAY:
            out.append(f"  {seat(s)} plays {card(a)}")
        elif kind == K.LG_INSTANT:
            out.append(f"    {card(a)} resolves ({'drawn' if b else 'played'} by {seat(s)})")
        elif kind == K.LG_SNIPE:
            out.append(f"    {seat(s)} snipes {card(b)} from {seat(a)}")
        elif kind == K.LG_CHALLENGE:
            out.append(f"    {seat(s)} challenges {seat(a)}'s {card(b)} with {card(c)}: both discarded")
        elif kind == K.LG_PASS:
            out.append(f"  {seat(s)} passes")
        elif kind == K.LG_REDEAL:
            out.append(f"  the draw pile is empty: {a} discards redealt, {b} left in the pile")
        elif kind == K.LG_HOARD:
            out.append(f"  {seat(s)} hoards: {a} hoarder(s) show {b} endings, each for up to {c} players")
        elif kind == K.LG_PICK:
            out.append(f"    {seat(s)} picks {card(a)}")
        elif kind == K.LG_ROUND_END:
            how = K.ROUND_CAUSES[a]
            by = f" by {seat(s)} with {card(b)}" if a == K.RC_ENDING else ""
            out.append(f"  round {rnd} ends ({how}{by}); top round score {c}")
        elif kind == K.LG_SCORE:
            out.append(f"    {seat(s)} scores {a} -> total {b}" + (f" ({card(c)})" if c >= 0 else ""))
        elif kind == K.LG_GAME_END:
            out.append(f"== game over after round {rnd} ({K.END_NAMES[a]})")
    return out


def format_trace(rec: np.ndarray, log: np.ndarray, rules, labels) -> str:
    names = K.record_names(K.seats_of_record(len(rec)))
    r = dict(zip(names, (int(v) for v in rec)))
    n = r["players"]
    head = (f"game {r['game']}: {n} players, {r['rounds']} rounds, {r['turns']} turns; totals "
            + ", ".join(f"seat {s} {r[f'total_{s}']}" + (" (wins)" if r[f"win_{s}"] else "") for s in range(n)))
    return "\n".join([head] + trace_lines(log, rules, labels)) + "\n"
