"""Text that fits: shorten a line with an ellipsis, wrap a paragraph, centre a glyph in a box,
and keep to the characters the shipped font can draw.

Player names and event lines come from users and games and can be any length; a picture must
never draw past its edge or over its neighbour. Everything is measured with the real font (not
a character count), so wide letters and narrow ones both fit. Names can also hold emoji or
scripts the shipped DejaVu font lacks, which it would draw as rows of empty boxes: `drawable`
puts one "?" for each such run.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

from rendering.colours import Colour
from rendering.fonts import font

ELLIPSIS = "\u2026"
# Zero-width characters and the emoji variation selector: nothing to draw, so they are dropped.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufe0f"
# A private-use point that no shipped font has: the font draws it as its "missing glyph" box.
_MISSING = "\U0010fffd"


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """Advance width of `text` in pixels."""
    return fnt.getlength(text)


def line_height(fnt: ImageFont.FreeTypeFont, spacing: float = 1.25) -> int:
    """Distance between baselines of wrapped lines: `spacing` times the font size."""
    return round(fnt.size * spacing)


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text`, or its longest prefix + "…" that fits in `max_width` (binary search on length)."""
    if text_width(text, fnt) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, fnt) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def _split_long_word(word: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> list[str]:
    """Cut a word wider than the line into pieces that fit (a long URL, a pasted hash)."""
    pieces, current = [], ""
    for ch in word:
        if current and text_width(current + ch, fnt) > max_width:
            pieces.append(current)
            current = ch
        else:
            current += ch
    return pieces + [current] if current else pieces


def wrap_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> list[str]:
    """Greedy word wrap into lines no wider than `max_width`. Newlines in `text` are kept;
    a word longer than a line is cut where it must be."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if text_width(candidate, fnt) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            if text_width(word, fnt) <= max_width:
                current = word
            else:
                *full, current = _split_long_word(word, fnt, max_width)
                lines.extend(full)
        lines.append(current)
    return lines


def draw_wrapped(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *,
                 font: ImageFont.FreeTypeFont, fill: Colour, max_width: float,
                 spacing: float = 1.25, max_lines: int | None = None) -> int:
    """Draw `text` wrapped to `max_width` with its top-left at `xy`; return the y below it.

    With `max_lines`, a longer text ends in "…" on the last line, so a box of known height never
    overflows. The returned y lets callers stack blocks without measuring twice.
    """
    lines = wrap_text(text, font, max_width)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit_text(lines[-1] + ELLIPSIS, font, max_width)
    x, y = xy
    step = line_height(font, spacing)
    for line in lines:
        draw.text((x, y), line, fill=fill, font=font)
        y += step
    return round(y)


def draw_centred(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, *,
                 font: ImageFont.FreeTypeFont, fill: Colour) -> None:
    """Draw `text` with its inked pixels centred on `centre`.

    Anchors like "mm" centre the font's line box, which puts digits and capitals a little off
    the middle of a die; centring the ink box itself is what the eye expects.
    """
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    cx, cy = centre
    draw.text((cx - (left + right) / 2, cy - (top + bottom) / 2), text,
              fill=fill, font=font, anchor="ls")


def _ink(fnt: ImageFont.FreeTypeFont, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = fnt.getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def has_glyph(ch: str, fnt: ImageFont.FreeTypeFont | None = None) -> bool:
    """Whether `fnt` (by default the regular face) draws `ch` itself rather than its empty
    "missing glyph" box. ASCII and white space are always there."""
    if ch.isascii() or ch.isspace():
        return True
    fnt = fnt or font(16)
    try:
        return _ink(fnt, ch) != _ink(fnt, _MISSING)
    except Exception:
        return False


def drawable(text: object, fnt: ImageFont.FreeTypeFont | None = None, *,
             unknown: str = "?") -> str:
    """`text` with each run of characters `fnt` cannot draw (emoji, CJK, ...) replaced by one
    `unknown` and invisible or unprintable ones dropped, so a name never shows as a row of empty
    boxes; stripped, and `unknown` when nothing is left. `unknown=""` drops what is missing."""
    out: list[str] = []
    for ch in str(text):
        if ch in INVISIBLE or not ch.isprintable():
            continue
        if has_glyph(ch, fnt):
            out.append(ch)
        elif unknown and (not out or out[-1] != unknown):
            out.append(unknown)
    return "".join(out).strip() or unknown
