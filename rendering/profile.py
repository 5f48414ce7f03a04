"""A player's rating over time on one ladder, for `/games profile`: 550 px wide (Discord's
display width, so nothing is scaled down), text at 12 px and more, alt text saying the same in
words. A plain function of plain data (the numbers), like every renderer."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Sequence

from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import GRID, HIGHLIGHT, MUTED, TEXT, player_colour
from rendering.fonts import font
from rendering.picture import Picture, to_png
from rendering.text import fit_text

WIDTH = 550
PLOT_HEIGHT = 170
LABEL_SIZE = 12
WIN, LOSS, DRAW = (0, 158, 115), (213, 94, 0), (200, 200, 200)


def _ticks(low: int, high: int) -> list[int]:
    span = max(1, high - low)
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000) if span / s <= 5)
    first = (low + step - 1) // step * step
    return list(range(first, high + 1, step))


def render_rating_history(title: str, points: Sequence[tuple[float, int, str]],
                          start: int, provisional: bool = False,
                          filename: str = "rating.png") -> Picture:
    """`points`: (finished at, shown rating after the game, result) oldest first; `start`:
    the number before the first of them."""
    sub = (f"{len(points)} rated game{'s' if len(points) != 1 else ''}"
           + (" · provisional" if provisional else ""))
    top = title_bar_height(sub)
    height = top + 14 + PLOT_HEIGHT + 50
    img, draw = new_canvas(WIDTH, height)
    title_bar(img, title, sub)
    values = [start] + [p[1] for p in points]
    low, high = min(values), max(values)
    pad = max(10, (high - low) // 8)
    low, high = low - pad, high + pad
    left, right = MARGIN + 40, WIDTH - MARGIN
    y0, y1 = top + 14, top + 14 + PLOT_HEIGHT
    small = font(LABEL_SIZE)

    def y(v: float) -> float:
        return y1 - (v - low) / (high - low) * (y1 - y0)

    for t in _ticks(low, high):
        draw.line((left, y(t), right, y(t)), fill=GRID, width=1)
        draw.text((left - 6, y(t)), str(t), fill=MUTED, font=small, anchor="rm")
    draw.line((left, y0, left, y1), fill=GRID)
    n = len(values)

    def x(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    line = [(x(i), y(v)) for i, v in enumerate(values)]
    colour = player_colour(0).fill
    if len(line) > 1:
        draw.line(line, fill=colour, width=3, joint="curve")
    dot = 4 if n <= 60 else 2
    for i, (px, py) in enumerate(line):
        fill = HIGHLIGHT if i == 0 else {"win": WIN, "loss": LOSS}.get(points[i - 1][2], DRAW)
        draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=fill)
    # Under the plot: when the first and last shown games were, and the legend.
    if points:
        first = datetime.fromtimestamp(points[0][0], timezone.utc).strftime("%Y-%m-%d")
        last = datetime.fromtimestamp(points[-1][0], timezone.utc).strftime("%Y-%m-%d")
        draw.text((left, y1 + 8), first, fill=MUTED, font=small, anchor="lt")
        draw.text((right, y1 + 8), last, fill=MUTED, font=small, anchor="rt")
    legend = font(LABEL_SIZE, bold=True)
    lx = left
    for label, fill in (("win", WIN), ("loss", LOSS), ("draw", DRAW)):
        draw.ellipse((lx, y1 + 30, lx + 8, y1 + 38), fill=fill)
        draw.text((lx + 12, y1 + 34), label, fill=TEXT, font=legend, anchor="lm")
        lx += 70
    now = values[-1]
    draw.text((right, y1 + 34), fit_text(f"now {now}  ·  best {max(values[1:] or values)}",
                                         legend, 250), fill=TEXT, font=legend, anchor="rm")
    wins = sum(p[2] == "win" for p in points)
    losses = sum(p[2] == "loss" for p in points)
    alt = (f"{title}: rating over the last {len(points)} rated games, from {start} to {now} "
           f"(lowest {min(values)}, highest {max(values)}); {wins} wins, {losses} losses, "
           f"{len(points) - wins - losses} draws" + (", still provisional." if provisional
                                                      else "."))
    return to_png(img, alt, filename)


__all__ = ["render_rating_history", "WIDTH", "LABEL_SIZE"]
