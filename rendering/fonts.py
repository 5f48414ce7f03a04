"""Fonts: only the DejaVu files shipped in `rendering/fonts/`, never the system's.

A system font differs from machine to machine (or is missing on a slim server image), and so
would every picture. Loading our own files by path, with Pillow's basic layout engine rather than
Raqm (which is present on some installs and not others, and shapes text differently), makes the
pixels depend only on the Pillow version. The licence is `fonts/LICENSE-DejaVu.txt`.
"""
from __future__ import annotations

from collections import OrderedDict
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
    return CachedFont(str(path), size, layout_engine=ImageFont.Layout.BASIC)


# Text was the largest part of drawing a board (FreeType rendering each string, then measuring
# it again to centre it), and boards repeat the same strings picture after picture: labels,
# names, numbers. A rendered string's mask and its measures depend only on the font and the
# arguments, so they are kept, across pictures, in one bounded LRU for all fonts.
TEXT_CACHE = 4096
_text_cache: "OrderedDict[tuple, object]" = OrderedDict()


def _hashable(value):
    return tuple(value) if isinstance(value, list) else value


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font whose rendered strings and measures are remembered (same pixels)."""

    def _cached(self, key: tuple, make):
        try:
            value = _text_cache[key]
        except KeyError:
            value = _text_cache[key] = make()
            if len(_text_cache) > TEXT_CACHE:
                _text_cache.popitem(last=False)
        else:
            _text_cache.move_to_end(key)
        return value

    def getmask2(self, text, mode="", direction=None, features=None, language=None,
                 stroke_width=0, anchor=None, ink=0, start=None, *args, **kwargs):
        if args or kwargs.keys() - {"stroke_filled"}:
            return super().getmask2(text, mode, direction, features, language, stroke_width,
                                    anchor, ink, start, *args, **kwargs)
        # `ink` only colours embedded-colour (RGBA) glyphs; an "L" or "1" mask ignores it.
        key = ("mask", id(self), text, mode, direction, _hashable(features), language,
               stroke_width, anchor, ink if mode == "RGBA" else 0,
               tuple(start) if start is not None else None, kwargs.get("stroke_filled"))
        return self._cached(key, lambda: super(CachedFont, self).getmask2(
            text, mode, direction, features, language, stroke_width, anchor, ink, start,
            **kwargs))

    def getlength(self, text, mode="", direction=None, features=None, language=None):
        key = ("length", id(self), text, mode, direction, _hashable(features), language)
        return self._cached(key, lambda: super(CachedFont, self).getlength(
            text, mode, direction, features, language))

    def getbbox(self, text, mode="", direction=None, features=None, language=None,
                stroke_width=0, anchor=None):
        key = ("bbox", id(self), text, mode, direction, _hashable(features), language,
               stroke_width, anchor)
        return self._cached(key, lambda: super(CachedFont, self).getbbox(
            text, mode, direction, features, language, stroke_width, anchor))
