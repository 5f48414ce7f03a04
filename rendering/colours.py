"""The colours every picture shares, so five games look like one bot.

Pictures have their own opaque dark background, so they read the same in Discord's dark and light
themes. Player colours come from the Okabe–Ito palette, chosen to stay distinct under the common
colour-vision deficiencies; each carries the text colour (near-black or white) that reads best
on it, computed from WCAG contrast rather than picked by eye. Colour is never the only cue in our
pictures: players are also named, and dice show letters or numbers.

KAPLOOM! dice come in named colours (rules/kaploom.md, "Faces and dice"); `DIE_COLOURS` gives each
one the fill, the ink for its pips or letters, and an outline, ready for `draw_die(**c.kwargs())`.
"""
from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]


def hex_colour(code: str) -> Colour:
    """`"#1f6fd1"` -> `(31, 111, 209)`: tables below read like a designer's swatch list."""
    code = code.lstrip("#")
    if len(code) != 6:
        raise ValueError(f"expected a #rrggbb colour, got {code!r}")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """The colour `t` of the way from `a` to `b` (0 = a, 1 = b); used to fade and darken."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def luminance(c: Colour) -> float:
    """WCAG relative luminance (0 = black, 1 = white)."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio, 1 (none) to 21 (black on white); 4.5 is readable body text."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# --- the theme ----------------------------------------------------------------------------------

INK = hex_colour("#16181d")         # near-black: text and pips on light fills
PAPER = hex_colour("#ffffff")       # white: text on dark fills
BACKGROUND = hex_colour("#1e2229")  # the canvas
PANEL = hex_colour("#2a303a")       # title bar, boxes on the canvas
GRID = hex_colour("#434b58")        # board lines, cell borders
TEXT = hex_colour("#eceff4")        # body text on BACKGROUND or PANEL
MUTED = hex_colour("#8a93a3")       # secondary text, empty slots, used things
HIGHLIGHT = hex_colour("#ffc53d")   # "look here": the last move, the die that decided a roll


def readable_on(fill: Colour) -> Colour:
    """INK or PAPER, whichever contrasts more with `fill`."""
    return INK if contrast(fill, INK) >= contrast(fill, PAPER) else PAPER


# --- players ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerColour:
    """A seat's colour: `fill` for its pieces and name plates, `text` to write on that fill."""

    name: str
    fill: Colour
    text: Colour


def _player(name: str, code: str) -> PlayerColour:
    fill = hex_colour(code)
    return PlayerColour(name, fill, readable_on(fill))


# Okabe & Ito (2008), minus black (invisible on our background). Ordered so that the first
# seats get the pairs that differ most in lightness as well as hue.
PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    _player("blue", "#0072b2"),
    _player("orange", "#e69f00"),
    _player("sky blue", "#56b4e9"),
    _player("vermilion", "#d55e00"),
    _player("bluish green", "#009e73"),
    _player("reddish purple", "#cc79a7"),
    _player("yellow", "#f0e442"),
)


def player_colour(seat: int) -> PlayerColour:
    """The colour of a 0-based seat; wraps around past the palette (no game seats more than 7)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def accent(seat: int) -> int:
    """A seat's colour as a `0xRRGGBB` int: the accent bar of a Discord card for that seat."""
    r, g, b = player_colour(seat).fill
    return (r << 16) | (g << 8) | b


# --- dice ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DieColours:
    """How a physical die looks: body `fill`, `pip` ink for pips/numerals/letters, `outline`."""

    fill: Colour
    pip: Colour
    outline: Colour

    def kwargs(self) -> dict[str, Colour]:
        """`draw_die(draw, box, v, **c.kwargs())`."""
        return {"fill": self.fill, "pip": self.pip, "outline": self.outline}


def die_colours(fill: Colour, pip: Colour | None = None) -> DieColours:
    """A die of `fill`, with readable ink and an outline a shade darker than the body."""
    return DieColours(fill, pip if pip is not None else readable_on(fill), mix(fill, INK, 0.45))


# A plain die: ivory with near-black pips, the look everyone reads as "a die".
PLAIN_DIE = die_colours(hex_colour("#f5f1e6"), INK)

# KAPLOOM! trait and action dice by colour name, as rules/kaploom.md spells them.
DIE_COLOURS: dict[str, DieColours] = {
    "red": die_colours(hex_colour("#d62f3a")),
    "yellow": die_colours(hex_colour("#f5c518")),
    "blue": die_colours(hex_colour("#2a6fdb")),
    "purple": die_colours(hex_colour("#8048c4")),
    "green": die_colours(hex_colour("#2f9e55")),
    "white": PLAIN_DIE,
    "gray": die_colours(hex_colour("#9aa1ab")),
}
