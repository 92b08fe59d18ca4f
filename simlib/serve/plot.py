"""The page's live plot, drawn as inline SVG on the server (it is redrawn twice a second
while a run goes on: a few hundred bytes of SVG are cheaper than a matplotlib figure, and
need no script in the page)."""
from __future__ import annotations

import math
from html import escape

__all__ = ["difference_plot", "COLORS"]

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
          "#7f7f7f", "#bcbd22")


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 5, 10) if m * mag >= raw), default=10 * mag)
    first = math.ceil(lo / step) * step
    out, v = [], first
    while v <= hi + 1e-12:
        out.append(round(v, 10))
        v += step
    return out


def difference_plot(history: list[dict], labels: list[str], *, width: int = 620,
                    height: int = 280) -> str:
    """Changed minus base (percentage points) against games played: one line per row with
    its anytime-valid band, and the zero line."""
    left, right, top, bottom = 56, 130, 14, 40
    pw, ph = width - left - right, height - top - bottom
    if not history:
        return ""
    xs = [h["games"] for h in history]
    x_hi = max(xs) or 1
    vals = [v for h in history for k in ("low", "high") for v in h[k] if v is not None]
    # the band's first looks are wide (up to +-100 points): show the last half of the run's
    # range plus the estimates, so the picture keeps its detail as the band narrows
    tail = history[len(history) // 2:]
    shown = [v for h in tail for k in ("low", "high", "diff") for v in h[k]
             if v is not None and not math.isnan(v)] + [0.0]
    y_lo, y_hi = min(shown), max(shown)
    if not vals or y_hi - y_lo < 1e-4:
        y_lo, y_hi = y_lo - 0.01, y_hi + 0.01
    pad = 0.05 * (y_hi - y_lo)
    y_lo, y_hi = y_lo - pad, y_hi + pad

    def X(x):
        return left + pw * x / x_hi

    def Y(y):
        y = min(max(y, y_lo), y_hi)
        return top + ph * (1 - (y - y_lo) / (y_hi - y_lo))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="changed minus base against games">',
             f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#ccc"/>']
    for t in _ticks(y_lo, y_hi):
        parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(t):.1f}" y2="{Y(t):.1f}" stroke="#eee"/>'
                     f'<text x="{left - 6}" y="{Y(t) + 4:.1f}" text-anchor="end" font-size="11">'
                     f'{100 * t:+.1f}</text>')
    for t in _ticks(0, x_hi, 4):
        parts.append(f'<text x="{X(t):.1f}" y="{top + ph + 16}" text-anchor="middle" font-size="11">'
                     f'{int(t):,}</text>')
    parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(0):.1f}" y2="{Y(0):.1f}" stroke="#333" '
                 'stroke-dasharray="4 3"/>')
    opacity = 0.15 if len(labels) <= 2 else 0.06  # several bands stay readable on top of each other
    for i, label in enumerate(labels):
        color = COLORS[i % len(COLORS)]
        pts = [(h["games"], h["diff"][i], h["low"][i], h["high"][i]) for h in history
               if i < len(h["diff"]) and h["diff"][i] is not None and not math.isnan(h["diff"][i])]
        if not pts:
            continue
        band = [f"{X(g):.1f},{Y(hi):.1f}" for g, _, _, hi in pts] + \
               [f"{X(g):.1f},{Y(lo):.1f}" for g, _, lo, _ in reversed(pts)]
        parts.append(f'<polygon points="{" ".join(band)}" fill="{color}" fill-opacity="{opacity}" stroke="none"/>')
        line = " ".join(f"{X(g):.1f},{Y(d):.1f}" for g, d, _, _ in pts)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="2"/>')
        ly = top + 14 + 16 * i
        parts.append(f'<line x1="{left + pw + 10}" x2="{left + pw + 28}" y1="{ly - 4}" y2="{ly - 4}" '
                     f'stroke="{color}" stroke-width="3"/><text x="{left + pw + 32}" y="{ly}" '
                     f'font-size="12">{escape(label)}</text>')
    parts.append(f'<text x="{left + pw / 2:.0f}" y="{height - 6}" text-anchor="middle" font-size="12">'
                 'games per ruleset</text>')
    parts.append(f'<text x="14" y="{top + ph / 2:.0f}" text-anchor="middle" font-size="12" '
                 f'transform="rotate(-90 14 {top + ph / 2:.0f})">changed - base (points)</text>')
    parts.append("</svg>")
    return "".join(parts)
