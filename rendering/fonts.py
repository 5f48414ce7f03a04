"""Fonts: only the DejaVu files shipped in `rendering/fonts/`, never the system's.

A system font differs from machine to machine (or is missing on a slim server image), and so
would every picture. Loading our own files by path, with Pillow's basic layout engine rather than
Raqm (which is present on some installs and not others, and shapes text differently), makes the
pixels depend only on the Pillow version. The licence is `fonts/LICENSE-DejaVu.txt`.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

_FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    # No bold monospace is shipped: bold mono falls back to the regular monospace.
    (False, True): "DejaVuSansMono.ttf",
    (True, True): "DejaVuSansMono.ttf",
}


# Pictures are made for Discord's ~550 px display: text carrying game information must stay
# at least this tall there (a picture wider than DISPLAY_WIDTH is shown scaled down).
DISPLAY_WIDTH = 550
MIN_DISPLAY_PX = 11

_recording: list[int] | None = None


@contextmanager
def recorded_sizes() -> Iterator[list[int]]:
    """Collects the size of every font asked for inside the block (for legibility tests)."""
    global _recording
    saved, _recording = _recording, []
    try:
        yield _recording
    finally:
        _recording = saved


def displayed_px(size: int, picture_width: int) -> float:
    """How tall text of `size` px looks in a picture `picture_width` px wide, on Discord."""
    return size * min(1.0, DISPLAY_WIDTH / picture_width)


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` pixels (cached: loading a face costs about a millisecond)."""
    if _recording is not None:
        _recording.append(size)
    return _font(size, bool(bold), bool(mono))


@lru_cache(maxsize=None)
def _font(size: int, bold: bool, mono: bool) -> ImageFont.FreeTypeFont:
    """

    Sharing one font object between renderer threads is safe on a GIL build of Python: Pillow
    holds the GIL while it calls FreeType (its free-threaded builds lock each face instead).
    """
    if size < 1:
        raise ValueError(f"font size must be at least 1 pixel, got {size}")
    path = FONT_DIR / _FILES[(bool(bold), bool(mono))]
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
