"""Smooth shapes: rounded boxes, circles and arrows without jagged edges.

Pillow draws shapes without anti-aliasing (only text is smoothed), and a die with stair-stepped
corners and square-ish pips looks broken at the sizes Discord shows. So each shape is drawn as a
greyscale coverage mask at SUPERSAMPLE times the size, shrunk with a box filter (`Image.reduce`,
which averages: exactly the coverage of each pixel), and stamped in one colour with
`ImageDraw.bitmap`, which blends by the mask. Masks depend only on shape and size, and boards
repeat the same few sizes, so they are cached: a die costs a few stamps, not a redraw.

Boxes are `(left, top, right, bottom)` with right and bottom exclusive, like `Image.crop`, so
`right - left` is the width. Pass whole pixels; fractions are rounded.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable

from PIL import Image, ImageDraw

from rendering.colours import Colour

Box = tuple[float, float, float, float]
Point = tuple[float, float]

SUPERSAMPLE = 4


def int_box(box: Box) -> tuple[int, int, int, int]:
    """The box in whole pixels; refuses an inside-out box, which is always a layout bug."""
    x0, y0, x1, y1 = (round(v) for v in box)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"empty or inverted box {box!r}")
    return x0, y0, x1, y1


def _mask(width: int, height: int,
          paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """Coverage mask of `paint` (drawing in 255 on a canvas SUPERSAMPLE times larger)."""
    big = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.reduce(SUPERSAMPLE)


@lru_cache(maxsize=512)
def rounded_mask(width: int, height: int, radius: float, stroke: float = 0) -> Image.Image:
    """A filled rounded box, or only its border `stroke` pixels wide (drawn inside the box).

    Cached and shared: callers must not draw on the returned image.
    """
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        outer = (0, 0, width * s - 1, height * s - 1)
        d.rounded_rectangle(outer, radius * s, fill=255)
        if stroke > 0:
            k = stroke * s
            inner = (k, k, width * s - 1 - k, height * s - 1 - k)
            if inner[2] > inner[0] and inner[3] > inner[1]:
                d.rounded_rectangle(inner, max(0.0, radius - stroke) * s, fill=0)
    return _mask(width, height, paint)


@lru_cache(maxsize=512)
def dots_mask(width: int, height: int, centres: tuple[Point, ...], radius: float) -> Image.Image:
    """Filled circles of `radius` at `centres` (pixels from the mask's top left). Cached."""
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        for cx, cy in centres:
            d.ellipse(((cx - radius) * s, (cy - radius) * s,
                       (cx + radius) * s - 1, (cy + radius) * s - 1), fill=255)
    return _mask(width, height, paint)


def stamp(draw: ImageDraw.ImageDraw, xy: tuple[int, int], mask: Image.Image,
          colour: Colour) -> None:
    """Paint `colour` through `mask` at `xy`, blended by coverage (clipped at the image edge)."""
    draw.bitmap(xy, mask, fill=colour)


def draw_rounded(draw: ImageDraw.ImageDraw, box: Box, radius: float, *,
                 fill: Colour | None = None, outline: Colour | None = None,
                 width: float = 1) -> None:
    """A smooth rounded box: panels, name plates, die bodies. `outline` is drawn inside `box`."""
    x0, y0, x1, y1 = int_box(box)
    w, h = x1 - x0, y1 - y0
    if fill is not None:
        stamp(draw, (x0, y0), rounded_mask(w, h, radius), fill)
    if outline is not None and width > 0:
        stamp(draw, (x0, y0), rounded_mask(w, h, radius, width), outline)


def draw_arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: Colour,
               width: float = 4, *, head: float | None = None) -> None:
    """A smooth arrow from `start` to `end`, its tip exactly at `end`.

    Shows a move on a board (a die sliding from b2 to b5, a card passed between players). The head
    is `head` pixels long (default: scales with `width`, at least 10) and the shaft stops where
    the head begins, so a thick arrow keeps a sharp tip. Not cached: arrows rarely repeat.
    """
    (sx, sy), (ex, ey) = start, end
    length = math.hypot(ex - sx, ey - sy)
    if length == 0:
        raise ValueError("an arrow needs two different points")
    head_len = min(head if head is not None else max(10.0, width * 3.5), length)
    half_head = max(head_len * 0.6, width)
    ux, uy = (ex - sx) / length, (ey - sy) / length   # along the arrow
    nx, ny = -uy, ux                                  # across it
    bx, by = ex - ux * head_len, ey - uy * head_len   # where the head starts
    hw = width / 2
    shaft = [(sx + nx * hw, sy + ny * hw), (bx + nx * hw, by + ny * hw),
             (bx - nx * hw, by - ny * hw), (sx - nx * hw, sy - ny * hw)]
    tip = [(ex, ey), (bx + nx * half_head, by + ny * half_head),
           (bx - nx * half_head, by - ny * half_head)]

    pad = 2
    xs = [p[0] for p in shaft + tip]
    ys = [p[1] for p in shaft + tip]
    ox, oy = math.floor(min(xs)) - pad, math.floor(min(ys)) - pad
    mw, mh = math.ceil(max(xs)) + pad - ox, math.ceil(max(ys)) + pad - oy

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        for poly in (shaft, tip):
            d.polygon([((x - ox) * s, (y - oy) * s) for x, y in poly], fill=255)
    stamp(draw, (ox, oy), _mask(mw, mh, paint), colour)
