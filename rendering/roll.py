"""A plain roll as a picture: a title and a row (or rows) of dice.

The bot uses it to show any roll that has no board of its own (`/roll`, a first-player roll-off),
and the tests and benchmark use it as the smallest complete renderer: canvas, title bar, dice,
alt text, PNG.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import MUTED
from rendering.dice import draw_die, ring_margin, size_tag
from rendering.fonts import font
from rendering.picture import Picture, to_png

DIE_SIDE = 64
DIE_GAP = 16           # wider than the highlight ring reaches (ring_margin(64) == 7)
PER_ROW = 10
FOOTER = 34            # room for the total line
MIN_WIDTH = 360        # keep the title readable above a roll of one die


def row_layout(count: int) -> list[tuple[int, int, int, int]]:
    """The die boxes (relative to the top of the dice area) for `count` dice, PER_ROW a row.

    Public so tests and callers can find a die in the picture without repeating the arithmetic.
    """
    inset = MARGIN + ring_margin(DIE_SIDE)
    boxes = []
    for i in range(count):
        row, col = divmod(i, PER_ROW)
        x = inset + col * (DIE_SIDE + DIE_GAP)
        y = inset + row * (DIE_SIDE + DIE_GAP)
        boxes.append((x, y, x + DIE_SIDE, y + DIE_SIDE))
    return boxes


def _check(values: Sequence[int], sides: int) -> None:
    if sides < 2:
        raise ValueError(f"a die has at least 2 sides, got {sides}")
    if not values:
        raise ValueError("a roll needs at least one die")
    low = 0 if sides == 10 else 1   # a d10 may be numbered 0-9 or 1-10
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= sides:
            raise ValueError(f"{v!r} is not a face of a d{sides}")


def render_dice_row(values: Sequence[int], sides: int = 6, title: str = "Roll", *,
                    highlight: Collection[int] = ()) -> Picture:
    """A picture of one roll of `len(values)` d`sides`; dice at the `highlight` indices ringed.

    Alt text names the dice, the values in order and the total, e.g.
    "Roll: 3d6 showing 2, 5, 6 (total 13)."
    """
    _check(values, sides)
    boxes = row_layout(len(values))
    top = title_bar_height()
    inset = MARGIN + ring_margin(DIE_SIDE)
    width = max(MIN_WIDTH, boxes[min(len(boxes), PER_ROW) - 1][2] + inset)
    height = top + boxes[-1][3] + ring_margin(DIE_SIDE) + FOOTER

    img, draw = new_canvas(width, height)
    title_bar(img, title)
    tag = size_tag(sides)
    for i, (value, (x0, y0, x1, y1)) in enumerate(zip(values, boxes)):
        draw_die(draw, (x0, top + y0, x1, top + y1), value, sides=sides, label=tag,
                 highlight=i in highlight)
    total = sum(values)
    draw.text((inset, height - MARGIN), f"total {total}", fill=MUTED, font=font(16), anchor="ls")

    shown = ", ".join(str(v) for v in values)
    alt = f"{title}: {len(values)}d{sides} showing {shown} (total {total})."
    return to_png(img, alt, "roll.png")
