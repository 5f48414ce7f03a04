"""One die face, drawn the same way by every game.

`draw_die` covers what our five games show: a d6 with pips; any other die (or a d6 value above 6,
a total, a modified roll) as a numeral, including the 0 of a d10; a KAPLOOM! face as a letter or
symbol (M E T A X W, or blank); a small size tag ("d20") so mixed dice are told apart without
colour; a highlight ring ("this one decided it"); a greyed die (spent, locked, not yours to use);
and an empty slot where a die may go.

The pip layout is a table (`PIP_LAYOUT`) rather than code, so tests check the picture against the
same table the drawing uses.
"""
from __future__ import annotations

from PIL import ImageDraw, ImageFont

from rendering.colours import BACKGROUND, HIGHLIGHT, MUTED, PLAIN_DIE, Colour, mix
from rendering.fonts import font
from rendering.shapes import Box, dots_mask, int_box, rounded_mask, stamp
from rendering.text import draw_centred

# Pip centres as fractions of the face (x, y from the top left), as printed on Western dice.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)),
}
PIP_RADIUS = 0.095           # of the face side
CORNER_RADIUS = 0.18         # of the face side
# How a blank face may be written ("_" in KAPLOOM! notation).
BLANK_FACES = frozenset({"", "_", " "})
MIN_SIDE = 12                # below this a face cannot be read; refusing beats a smudge

Value = int | str | None


def size_tag(sides: int) -> str | None:
    """The tag that names a die's size ("d20"), or None for the d6 everybody assumes."""
    return None if sides == 6 else f"d{sides}"


def face_box(box: Box) -> tuple[int, int, int]:
    """The square face inside `box`: (left, top, side), centred when the box is not square."""
    x0, y0, x1, y1 = int_box(box)
    side = min(x1 - x0, y1 - y0)
    return x0 + (x1 - x0 - side) // 2, y0 + (y1 - y0 - side) // 2, side


def ring_margin(side: int) -> int:
    """Pixels the highlight ring reaches outside a die of `side`: leave this much space."""
    gap, width = _ring_metrics(side)
    return gap + width


def _ring_metrics(side: int) -> tuple[int, int]:
    return max(2, round(side * 0.05)), max(2, round(side * 0.06))


def draw_die(draw: ImageDraw.ImageDraw, box: Box, value: Value, *, sides: int = 6,
             fill: Colour = PLAIN_DIE.fill, pip: Colour = PLAIN_DIE.pip,
             outline: Colour = PLAIN_DIE.outline, label: str | None = None,
             highlight: Colour | bool | None = None, greyed: bool = False) -> None:
    """Draw one die face in `box` on `draw` (an `ImageDraw.Draw` of an RGB or RGBA image).

    value:     an int: pips for 1-6 on a d6, otherwise a numeral (0 on a d10 included);
               a str: a named face such as "M" or "⚡", drawn as text; "", "_" or " " is blank;
               None: an empty slot (an outline, no die) where a die may be placed.
    sides:     only decides pips (a d6) against numerals; it does not validate `value`, because
               games show totals and modified rolls on die faces too.
    label:     a small tag at the top of the face, usually `size_tag(sides)`.
    highlight: a ring just outside the box, `True` for HIGHLIGHT or a colour of your choice;
               it reaches `ring_margin(side)` pixels out, so leave that gap between dice.
    greyed:    fade the die toward the background: spent, locked or unavailable.

    The face is the largest square centred in `box`, with rounded corners.
    """
    if isinstance(value, bool):
        raise TypeError("a die value is an int, a face name or None, not a bool")
    left, top, side = face_box(box)
    if side < MIN_SIDE:
        raise ValueError(f"a die face needs at least {MIN_SIDE} pixels, got {side}")
    if highlight:
        _draw_ring(draw, left, top, side, HIGHLIGHT if highlight is True else highlight)
    if value is None:
        _draw_slot(draw, left, top, side, label)
        return
    if greyed:
        fill, pip, outline = (mix(c, BACKGROUND, 0.6) for c in (fill, pip, outline))

    radius = side * CORNER_RADIUS
    stroke = max(1, round(side * 0.035))
    stamp(draw, (left, top), rounded_mask(side, side, radius), fill)
    stamp(draw, (left, top), rounded_mask(side, side, radius, stroke), outline)

    centre = (left + side / 2, top + side / 2)
    if label:
        tag_font = font(max(8, round(side * 0.17)), bold=True)
        draw_centred(draw, (centre[0], top + side * 0.13), label, font=tag_font,
                     fill=mix(pip, fill, 0.35))
    if isinstance(value, int) and sides == 6 and value in PIP_LAYOUT:
        centres = tuple((fx * side, fy * side) for fx, fy in PIP_LAYOUT[value])
        stamp(draw, (left, top), dots_mask(side, side, centres, side * PIP_RADIUS), pip)
        return
    text = str(value)
    if text in BLANK_FACES:
        return
    # A tag takes the top of the face: nudge the numeral down and keep it clear of the tag.
    cy = centre[1] + (side * 0.06 if label else 0)
    draw_centred(draw, (centre[0], cy), text, font=_fitting_font(text, side, bool(label)),
                 fill=pip)


def _fitting_font(text: str, side: int, tagged: bool) -> ImageFont.FreeTypeFont:
    """The largest bold font (up to about half the face) in which `text` fits the face."""
    size = round(side * (0.46 if tagged else 0.52))
    room = side * 0.74
    width = font(size, bold=True).getlength(text)
    if width > room:
        size = max(6, int(size * room / width))
    return font(size, bold=True)


def _draw_ring(draw: ImageDraw.ImageDraw, left: int, top: int, side: int,
               colour: Colour) -> None:
    gap, width = _ring_metrics(side)
    out = gap + width
    size = side + 2 * out
    stamp(draw, (left - out, top - out),
          rounded_mask(size, size, side * CORNER_RADIUS + out, width), colour)


def _draw_slot(draw: ImageDraw.ImageDraw, left: int, top: int, side: int,
               label: str | None) -> None:
    """An empty place for a die: a thin muted outline, so the layout reads before dice arrive."""
    stroke = max(1, round(side * 0.03))
    stamp(draw, (left, top), rounded_mask(side, side, side * CORNER_RADIUS, stroke), MUTED)
    if label:
        draw_centred(draw, (left + side / 2, top + side / 2), label,
                     font=font(max(8, round(side * 0.2))), fill=MUTED)
