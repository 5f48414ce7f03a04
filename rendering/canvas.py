"""The frame every picture starts from: a canvas in the theme, and a title bar across the top.

A shared frame makes a board from any of the five games recognisable at a glance in a busy
channel: same background, same title bar with the game and the round, same margins.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from rendering.colours import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, Colour
from rendering.fonts import font
from rendering.text import fit_text, wrap_text

MARGIN = 20            # space between the canvas edge and content
TITLE_SIZE = 22        # font sizes in the title bar
SUBTITLE_SIZE = 15
_ACCENT = 3            # the highlight line under the title bar


def new_canvas(width: int, height: int,
               background: Colour = BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGB image filled with the background, and a Draw on it (what every renderer needs)."""
    if width < 1 or height < 1:
        raise ValueError(f"canvas must be at least 1x1, got {width}x{height}")
    img = Image.new("RGB", (width, height), background)
    return img, ImageDraw.Draw(img)


SUBTITLE_LINE = 19     # between the lines of a wrapped subtitle


def _subtitle_lines(subtitle: str, width: int) -> list[str]:
    return wrap_text(subtitle, font(SUBTITLE_SIZE), width - 2 * MARGIN)


def title_bar_height(subtitle: str | None = None, width: int | None = None) -> int:
    """Height `title_bar` will take, so a renderer can size its canvas before drawing. With
    `width` (the canvas's), a subtitle too long for one line counts as wrapped (`wrap=True`)."""
    if not subtitle:
        return 48
    lines = len(_subtitle_lines(subtitle, width)) if width else 1
    return 70 + SUBTITLE_LINE * (max(1, lines) - 1)


def title_bar(img: Image.Image, text: str, subtitle: str | None = None, *,
              wrap: bool = False) -> int:
    """Draw the title bar across the top of `img`; return the y where content may start.

    The title (bold) is shortened with "…" rather than drawn past the edge; so is the optional
    subtitle (muted, e.g. "Round 3 · Power Up"), unless `wrap`: then it takes the lines it
    needs (size the canvas with `title_bar_height(subtitle, width)`), never cut.
    """
    draw = ImageDraw.Draw(img)
    width = img.width
    height = title_bar_height(subtitle, width if wrap else None)
    draw.rectangle((0, 0, width - 1, height - _ACCENT - 1), fill=PANEL)
    draw.rectangle((0, height - _ACCENT, width - 1, height - 1), fill=HIGHLIGHT)
    room = width - 2 * MARGIN
    title_font = font(TITLE_SIZE, bold=True)
    title_baseline = 32 if not subtitle else 30
    draw.text((MARGIN, title_baseline), fit_text(text, title_font, room),
              fill=TEXT, font=title_font, anchor="ls")
    if subtitle:
        sub_font = font(SUBTITLE_SIZE)
        lines = _subtitle_lines(subtitle, width) if wrap else [fit_text(subtitle, sub_font,
                                                                         room)]
        for k, line in enumerate(lines):
            draw.text((MARGIN, 54 + SUBTITLE_LINE * k), line, fill=MUTED, font=sub_font,
                      anchor="ls")
    return height
