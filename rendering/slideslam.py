"""Slide and Slam: Dice Is Not Bend! as a picture, drawn from the engine's view only.

`render(view)` draws whatever the view holds:

- the public board (`view(None)`, or a seat's view once the wall is down): the grid and its
  coordinates (columns a–…, rows 1–… with player 1 at the bottom), the middle line, every die
  as a d6 showing its health in pips (player 1 white with dark pips, player 2 black with light
  pips, each framed in the seat's colour) with its letter under it, the awakened die larger with
  a star, the last slide's path as an arrow, the last slam's area tinted (a Super Slam's whole
  cross) with what it did to each die, a pending slam's area and the dice it would hit, and a
  name plate per player (dice left, losses, Power Token held or flipped to X, awakening);
- during the Wall of Unknowing, the public view shows only who is ready: both halves are
  hidden, so the picture is the same whatever anyone placed;
- a seat's own view during placement (`render_preview`): only that player's half and their own
  placed dice, the wall where the other half would be, and the healths still to place.

The title bar says whose turn it is and the phase. Highlights follow the most recent turns
only (a slam from three turns ago is history, not news); the footer says what they show.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.names import plain_name
from rendering.canvas import MARGIN, SUBTITLE_SIZE, new_canvas, title_bar, title_bar_height
from rendering.colours import (GRID, HIGHLIGHT, INK, MUTED, PANEL, PAPER, TEXT, Colour,
                               die_colours, hex_colour, mix, player_colour, readable_on)
from rendering.dice import draw_die
from rendering.fonts import font
from rendering.picture import Picture, to_png
from rendering.shapes import SUPERSAMPLE, draw_rounded, stamp
from rendering.text import draw_centred, drawable, fit_text, wrap_text

COLUMN_LETTERS = "abcdefghi"
GAME_NAME = "Slide and Slam"

# --- look ---------------------------------------------------------------------------------------

SEAT_WORDS = ("white", "black")
# Player 1's dice are white with dark pips, player 2's black with light pips (the game's own
# colours); the frame around each die is the seat's player colour, so the two also differ in hue.
DIE_STYLE = (die_colours(hex_colour("#f4f1ea"), INK), die_colours(hex_colour("#1b1c21"), PAPER))
SQUARE = hex_colour("#5b6372")          # the board's squares, between white and black dice
SQUARE_DARK = mix(SQUARE, INK, 0.16)    # the checkering, so squares can be counted
SLAM = hex_colour("#e5484d")            # slam areas and damage
BENT = hex_colour("#56b4e9")            # a die saved by DICE IS NOT BEND!
STUN = hex_colour("#cc79a7")
WALL = hex_colour("#8a5a3b")            # the Wall of Unknowing
MIDDLE = hex_colour("#f2f4f8")          # the middle line
VEIL = hex_colour("#323844")            # a hidden half

CELL_MAX = 72           # square size for the default 6 columns
# Discord shows a picture about 550 px wide: the whole picture is designed at 540 px, so no text
# is scaled down on screen; wider boards get smaller squares instead of a wider picture.
DESIGN_WIDTH = 540
LABEL = 26              # the coordinate strips around the board
NAME_MAX = 18           # characters of a player's name on a picture
PLATE_H = 66
GAP = 10
WALL_H = 30
MIN_WIDTH = 540
FOOTER_FONT = 17
FOOTER_LINES = 6


# --- geometry -----------------------------------------------------------------------------------

def _coords(square: str) -> tuple[int, int]:
    return COLUMN_LETTERS.index(square[0]), int(square[1:]) - 1


@dataclass(frozen=True)
class BoardLayout:
    """Where the squares are in a picture: `top_row` (1-based) is drawn at `y`, the rows below
    it going down to `bottom_row` (the whole board, or one half in a placement preview)."""

    x: int
    y: int
    cell: int
    columns: int
    top_row: int
    bottom_row: int

    @property
    def width(self) -> int:
        return self.columns * self.cell

    @property
    def height(self) -> int:
        return (self.top_row - self.bottom_row + 1) * self.cell

    def shows(self, square: str) -> bool:
        c, r = _coords(square)
        return c < self.columns and self.bottom_row <= r + 1 <= self.top_row

    def box(self, square: str) -> tuple[int, int, int, int]:
        c, r = _coords(square)
        x0 = self.x + c * self.cell
        y0 = self.y + (self.top_row - (r + 1)) * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell

    def die_box(self, square: str, awakened: bool) -> tuple[int, int, int, int]:
        """The die face inside its square: small dice sit high (the letter goes under them),
        the awakened die fills the square."""
        x0, y0, _, _ = self.box(square)
        if awakened:
            side = self.cell - 16
            top = y0 + 5
        else:
            side = round(self.cell * 0.58)
            top = y0 + round(self.cell * 0.09)
        left = x0 + (self.cell - side) // 2
        return left, top, left + side, top + side

    def centre(self, square: str) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(square)
        return (x0 + x1) / 2, (y0 + y1) / 2


def _cell_size(columns: int) -> int:
    return min(CELL_MAX, (DESIGN_WIDTH - 2 * (MARGIN + LABEL)) // columns)


# --- small drawing helpers ----------------------------------------------------------------------

def _pill(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: Colour,
          size: int = 13) -> None:
    """A rounded label centred on `centre` (badges on dice, status on name plates)."""
    fnt = font(size, bold=True)
    w = round(fnt.getlength(text)) + size
    h = size + 8
    cx, cy = centre
    box = (round(cx - w / 2), round(cy - h / 2), round(cx - w / 2) + w, round(cy - h / 2) + h)
    draw_rounded(draw, box, h / 2, fill=fill)
    draw_centred(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, font=fnt,
                 fill=readable_on(fill))


def _circle(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, *,
            fill: Colour | None = None, outline: Colour | None = None, width: float = 1) -> None:
    cx, cy = centre
    d = round(radius * 2)
    box = (round(cx - radius), round(cy - radius), round(cx - radius) + d, round(cy - radius) + d)
    draw_rounded(draw, box, radius, fill=fill, outline=outline, width=width)


def _path_mask(points: list[tuple[float, float]], width: float,
               head: float) -> tuple[tuple[int, int], Image.Image]:
    """A smooth polyline through `points` with round joints, a dot at the start and an arrow
    head whose tip is the last point: one coverage mask, drawn at SUPERSAMPLE and shrunk."""
    (ax, ay), (bx, by) = points[-2], points[-1]
    seg = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / seg, (by - ay) / seg
    base = (bx - ux * head, by - uy * head)
    half = head * 0.62
    tip = [(bx, by), (base[0] - uy * half, base[1] + ux * half),
           (base[0] + uy * half, base[1] - ux * half)]
    line = points[:-1] + [base]
    pad = round(max(width, half)) + 4
    xs = [p[0] for p in line + tip]
    ys = [p[1] for p in line + tip]
    ox, oy = math.floor(min(xs)) - pad, math.floor(min(ys)) - pad
    w, h = math.ceil(max(xs)) + pad - ox, math.ceil(max(ys)) + pad - oy
    s = SUPERSAMPLE
    big = Image.new("L", (w * s, h * s), 0)
    d = ImageDraw.Draw(big)
    scaled = [((x - ox) * s, (y - oy) * s) for x, y in line]
    d.line(scaled, fill=255, width=round(width * s), joint="curve")
    x, y = scaled[-1]                     # round the shaft into the head
    r = width * s / 2
    d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    x, y = scaled[0]                      # a dot where the die started
    r = width * s * 0.9
    d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    d.polygon([((x - ox) * s, (y - oy) * s) for x, y in tip], fill=255)
    return (ox, oy), big.reduce(s)


# --- the title and the words --------------------------------------------------------------------

def _names(view: dict[str, Any]) -> list[str]:
    """The players' names as the view gives them (Markdown escapes removed)."""
    given = view.get("names") or []
    return [plain_name(str(given[s])) if s < len(given) and given[s] else f"Player {s + 1}"
            for s in (0, 1)]


def _player(view: dict[str, Any], seat: int, *, drawn: bool = True) -> str:
    """A player's name for the picture (drawable, at most NAME_MAX characters), or as it is
    for the alt text (`drawn=False`)."""
    name = _names(view)[seat]
    if not drawn:
        return name
    name = drawable(name)
    return name if len(name) <= NAME_MAX else name[:NAME_MAX - 1].rstrip() + "…"


def board_facts(view: dict[str, Any]) -> list[Any]:
    """What the board shows of the game itself: the dice where they stand and their health,
    the spent tokens, the wall. Not whose turn it is, nor the highlights: a slam that hits
    nothing leaves the board the slide showed, and the next turn's card shows none of its
    own (a turn's slide and slam each uploaded one, issue #22; `GameCog.board_signature`)."""
    return [view["phase"] in ("placement", "first_player"), view["dice"], view["removed"],
            view["tokens_used"], view["awakened_used"], view["placement"]["confirmed"]]


def headline(view: dict[str, Any], room: float | None = None,
             drawn: bool = True) -> tuple[str, str]:
    """The title (whose turn, which phase) and the subtitle (game, board, counters); with
    `room` (pixels), the game's full name only when the subtitle still fits."""
    cols, rows = view["columns"], view["rows"]
    phase = view["phase"]
    sub = [GAME_NAME, f"{cols}×{rows}"]
    result = view.get("result")
    if result is not None:
        winners = result["winners"]
        title = ("Game over · " + " & ".join(_player(view, w, drawn=drawn) for w in winners)
                 + " wins"
                 if winners else "Game over · a draw")
    elif phase == "placement":
        if view["you"] is not None:
            title = (f"Your placement · {_player(view, view['you'], drawn=drawn)} "
                     f"({SEAT_WORDS[view['you']]})")
            sub.append("only you see this")
        else:
            title = "The Wall of Unknowing · placing dice"
    elif phase == "first_player":
        title = "The wall is down · who goes first?"
        how = view["options"].get("first_player")
        sub.append("crowd vote" if how == "argue" else "drawn at random")
    else:
        seat = view["current"]
        if phase == "response" and view.get("pending"):
            seat = view["pending"]["defender"]
        doing = {"slide": "to slide", "slam": "to slam or end",
                 "response": "to answer the slam"}[phase]
        title = f"Turn {view['turn']} · {_player(view, seat, drawn=drawn)} {doing}"
    if phase not in ("placement", "first_player"):
        st = view["stalemate"]
        if st["limit"]:
            sub.append(f"{st['quiet_turns']} of {st['limit']} turns without damage")
    if view["options"].get("stun"):
        sub.append("stun rule")
    full = " · ".join([f"{GAME_NAME}: Dice Is Not Bend!"] + sub[1:])
    if room is None or font(SUBTITLE_SIZE).getlength(full) <= room:
        return title, full
    return title, " · ".join(sub)


def _recent(view: dict[str, Any], event: dict[str, Any] | None) -> bool:
    """Whether a last slide / slam is news: from this turn or the one before."""
    return event is not None and event["turn"] >= view["turn"] - 1


def _hits_text(slam: dict[str, Any]) -> str:
    parts = []
    for h in slam["hits"]:
        if h["saved"]:
            parts.append(f"{h['die']} at {h['square']} bent (no damage)")
        elif h["destroyed"]:
            parts.append(f"{h['die']} at {h['square']} destroyed")
        else:
            parts.append(f"{h['die']} at {h['square']} {h['before']}→{h['after']}")
    return "; ".join(parts) if parts else "no enemy die hit"


def _slam_word(s: dict[str, Any]) -> str:
    return "Super Slam" if s["super"] else "Slam"


def footer_lines(view: dict[str, Any], drawn: bool = True) -> list[tuple[str, Colour]]:
    """What the highlights mean and what happens next, one paragraph per fact."""
    out: list[tuple[str, Colour]] = []
    phase = view["phase"]
    result = view.get("result")
    if phase == "placement":
        conf = view["placement"]["confirmed"]
        if view["you"] is None:
            out.append(("Both players place their six dice in secret on their own half. "
                        "The wall comes down when both are ready.", TEXT))
        else:
            # only this player's own facts: the preview is not redrawn for the other's progress
            out.append(("Nobody sees your dice until both players have confirmed; the game "
                        "thread says who is ready." if not conf[view["you"]] else
                        "Your placement is confirmed.", MUTED))
        return out
    if phase == "first_player":
        how = view["options"].get("first_player")
        out.append(("Argue who goes first: the crowd votes." if how == "argue"
                    else "The first player is drawn at random.", TEXT))
        return out
    slide, slam, pending = view.get("last_slide"), view.get("last_slam"), view.get("pending")
    if _recent(view, slide):
        steps = len(slide["path"]) - 1
        out.append((f"Last slide: {_player(view, slide['owner'], drawn=drawn)}'s {slide['die']} "
                    f"{slide['from']} → "
                    f"{slide['to']} ({steps} step{'s' if steps != 1 else ''}).", HIGHLIGHT))
    if pending is not None:
        hit = ", ".join(f"{t['die']} at {t['square']} {t['health']}→{t['after']}"
                        for t in pending["targets"])
        out.append((f"{_slam_word(pending)} by {pending['die']} at {pending['square']} would "
                    f"hit {hit}.", SLAM))
        out.append((f"{_player(view, pending['defender'], drawn=drawn)}: say DICE IS NOT BEND! "
                    "(save one of them, "
                     f"spends the Power Token) or pass, within {pending['seconds']} s.", TEXT))
    elif _recent(view, slam):
        extra = " (predicted)" if slam.get("predicted") else ""
        out.append((f"Last {_slam_word(slam).lower()}: {slam['die']} at {slam['square']}{extra}, "
                    f"{slam['damage']} damage: {_hits_text(slam)}.", SLAM))
    if result is not None:
        out.append((result["reason"][:1].upper() + result["reason"][1:] + ".", TEXT))
        return out
    if view.get("slide_skipped") and phase == "slam":
        out.append((f"None of {_player(view, view['current'], drawn=drawn)}'s dice can move: "
                    "slide skipped.", MUTED))
    if view.get("no_super_slam") and phase in ("slide", "slam"):
        out.append(("First turn: no Super Slam (a normal slam is fine).", MUTED))
    if view.get("can_awaken"):
        out.append((f"{_player(view, view['current'], drawn=drawn)} may awaken a die now (once "
                    "per game).", MUTED))
    return out


# --- alt text -----------------------------------------------------------------------------------

def _die_words(d: dict[str, Any]) -> str:
    kind = "awakened " if d["awakened"] else ""
    stun = ", stunned" if d["stunned"] else ""
    return f"{kind}{d['letter']} {d['health']} at {d['square']}{stun}"


def alt_text(view: dict[str, Any]) -> str:
    """A short description of the same facts as the picture, for screen readers."""
    cols, rows = view["columns"], view["rows"]
    title, _ = headline(view, drawn=False)
    parts = [f"{GAME_NAME}, {cols}×{rows} board. {title.rstrip('?')}."]
    phase = view["phase"]
    if phase == "placement":
        conf = view["placement"]["confirmed"]
        if view["you"] is None:
            parts.append("The Wall of Unknowing hides both halves. " + "; ".join(
                f"{_player(view, s, drawn=False)} {'ready' if c else 'placing'}"
                for s, c in enumerate(conf)) + ".")
        else:
            seat = view["you"]
            lo, hi = view["halves"][seat]
            mine = [d for d in view["dice"] if d["owner"] == seat]
            placed = ", ".join(f"{d['letter']} {d['health']} at {d['square']}" for d in mine)
            parts.append(f"Your half, rows {lo}–{hi}: " + (placed or "nothing placed yet") + ".")
            left = view["placement"]["unplaced"] or []
            parts.append("Still to place: " + ", ".join(map(str, left)) + "." if left
                         else "All six placed." + (" Confirmed." if conf[seat] else ""))
        for text, _ in footer_lines(view, drawn=False)[1 if view["you"] is None else 0:]:
            parts.append(text)
        return " ".join(parts)
    for seat in (0, 1):
        mine = [d for d in view["dice"] if d["owner"] == seat]
        lost = _lost(view, seat)
        words = [f"{_player(view, seat, drawn=False)} ({SEAT_WORDS[seat]}): "
                 + (", ".join(_die_words(d) for d in mine) or "no dice")]
        words.append("Power Token " + ("spent" if view["tokens_used"][seat] else "held"))
        words.append("awakening " + ("used" if view["awakened_used"][seat] else "unused"))
        if lost:
            words.append("lost " + ", ".join(lost))
        parts.append("; ".join(words) + ".")
    parts.extend(text for text, _ in footer_lines(view, drawn=False))
    return " ".join(parts)


def _lost(view: dict[str, Any], seat: int) -> list[str]:
    """The letters of `seat`'s destroyed dice (the view says whose)."""
    return list((view.get("lost") or [[], []])[seat])


# --- the board ----------------------------------------------------------------------------------

def _square_colour(col: int, row: int, seat_half: int) -> Colour:
    """Player 1's half a little darker (under white dice), player 2's a little lighter (under
    black dice), each with a hint of the seat's colour, checkered so squares can be counted."""
    base = SQUARE_DARK if (col + row) % 2 == 0 else SQUARE
    base = mix(base, INK, 0.12) if seat_half == 0 else mix(base, PAPER, 0.1)
    return mix(base, player_colour(seat_half).fill, 0.1)


def _half_of(row: int, halves: list[list[int]]) -> int:
    lo, hi = halves[0]
    return 0 if lo <= row <= hi else 1


def _draw_squares(draw: ImageDraw.ImageDraw, b: BoardLayout, view: dict[str, Any],
                  tint: dict[str, Colour]) -> None:
    for row in range(b.bottom_row, b.top_row + 1):
        for col in range(b.columns):
            sq = f"{COLUMN_LETTERS[col]}{row}"
            colour = _square_colour(col, row, _half_of(row, view["halves"]))
            if sq in tint:
                colour = mix(colour, tint[sq], 0.55)
            x0, y0, x1, y1 = b.box(sq)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)
    # grid lines
    for col in range(b.columns + 1):
        x = b.x + col * b.cell
        draw.line((x, b.y, x, b.y + b.height), fill=GRID, width=1)
    for r in range(b.top_row - b.bottom_row + 2):
        y = b.y + r * b.cell
        draw.line((b.x, y, b.x + b.width, y), fill=GRID, width=1)


def _draw_labels(draw: ImageDraw.ImageDraw, b: BoardLayout, *, top: bool = True,
                 bottom: bool = True) -> None:
    fnt = font(16, bold=True)
    for col in range(b.columns):
        cx = b.x + col * b.cell + b.cell / 2
        if top:
            draw_centred(draw, (cx, b.y - LABEL / 2), COLUMN_LETTERS[col], font=fnt, fill=MUTED)
        if bottom:
            draw_centred(draw, (cx, b.y + b.height + LABEL / 2), COLUMN_LETTERS[col], font=fnt,
                         fill=MUTED)
    for row in range(b.bottom_row, b.top_row + 1):
        cy = b.y + (b.top_row - row) * b.cell + b.cell / 2
        for cx in (b.x - LABEL / 2, b.x + b.width + LABEL / 2):
            draw_centred(draw, (cx, cy), str(row), font=fnt, fill=MUTED)


def _draw_middle_line(draw: ImageDraw.ImageDraw, b: BoardLayout, view: dict[str, Any]) -> None:
    line_row = view["halves"][0][1]          # the line runs above player 1's last row
    if not b.bottom_row <= line_row < b.top_row:
        return
    y = b.y + (b.top_row - line_row) * b.cell
    draw.rectangle((b.x - 4, y - 2, b.x + b.width + 3, y + 1), fill=MIDDLE)


def _draw_wall(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw_rounded(draw, box, 5, fill=WALL)
    mortar = mix(WALL, INK, 0.35)
    mid = (y0 + y1) // 2
    draw.line((x0 + 3, mid, x1 - 4, mid), fill=mortar, width=1)
    brick = 36
    for i, x in enumerate(range(x0 + brick // 2, x1 - 6, brick // 2)):
        yy = (y0 + 2, mid) if i % 2 else (mid, y1 - 3)
        draw.line((x, yy[0], x, yy[1]), fill=mortar, width=1)
    fnt = font(15, bold=True)
    text = "WALL OF UNKNOWING"
    w = fnt.getlength(text) + 16
    cx = (x0 + x1) / 2
    draw_rounded(draw, (round(cx - w / 2), y0 + 4, round(cx + w / 2), y1 - 4), 4,
             fill=mix(WALL, INK, 0.5))
    draw_centred(draw, (cx, (y0 + y1) / 2), text, font=fnt, fill=PAPER)


def _draw_die(draw: ImageDraw.ImageDraw, b: BoardLayout, d: dict[str, Any], *,
              ring: Colour | None = None) -> None:
    seat, awakened = d["owner"], d["awakened"]
    style = DIE_STYLE[seat]
    frame = player_colour(seat).fill
    x0, y0, x1, y1 = b.die_box(d["square"], awakened)
    side = x1 - x0
    f = max(3, round(side * (0.09 if awakened else 0.075)))
    outer = (x0 - f, y0 - f, x1 + f, y1 + f)
    if ring is not None:
        g = 3
        draw_rounded(draw, (outer[0] - g - 3, outer[1] - g - 3, outer[2] + g + 3, outer[3] + g + 3),
                 side * 0.18 + f + g + 3, outline=ring, width=3)
    if awakened:
        glow = mix(frame, PAPER, 0.55)
        draw_rounded(draw, (outer[0] - 2, outer[1] - 2, outer[2] + 2, outer[3] + 2),
                 side * 0.18 + f + 2, fill=glow)
    draw_rounded(draw, outer, side * 0.18 + f, fill=frame)
    draw_die(draw, (x0, y0, x1, y1), d["health"], **style.kwargs())
    # the letter: under a small die, on a tab at the corner of the awakened one
    cx0, cy0, cx1, cy1 = b.box(d["square"])
    size = max(12, round(b.cell * 0.2))
    if awakened:
        badge = max(12, round(b.cell * 0.19))
        _pill(draw, (x0 - f + badge * 0.45, y0 - f + badge * 0.45), "★", HIGHLIGHT, size=badge)
        _pill(draw, (x1 + f - badge * 0.5, y1 + f - badge * 0.5), d["letter"], frame, size=badge)
        if d["stunned"]:
            _pill(draw, (x0 + badge, y1 + f - badge * 0.5), "stun", STUN,
                  size=max(11, badge - 3))
    else:
        fnt = font(size, bold=True)
        ty = (y1 + f + cy1) / 2 + 1
        cx = (cx0 + cx1) / 2
        if d["stunned"]:
            tag = max(11, size - 4)
            tag_w = font(tag, bold=True).getlength("stun") + tag
            cx -= (tag_w + 3) / 2
            _pill(draw, (cx + fnt.getlength(d["letter"]) / 2 + 3 + tag_w / 2, ty), "stun",
                  STUN, size=tag)
        draw_centred(draw, (cx, ty), d["letter"], font=fnt, fill=TEXT)


def _arrow_tip(b: BoardLayout, view: dict[str, Any], square: str,
               came_from: tuple[float, float]) -> tuple[float, float]:
    """Where the slide arrow stops: just short of the die it moved, or at the bottom of the
    square when it arrives from below (the die's letter sits there)."""
    cx, cy = b.centre(square)
    moved = next((d for d in view["dice"] if d["square"] == square), None)
    if moved is None:            # the die has gone since (destroyed): point at the square
        return cx, cy
    x0, y0, x1, y1 = b.die_box(square, moved["awakened"])
    gap = 7
    fx, fy = came_from
    if fy > cy + 1:              # from below
        return cx, b.box(square)[3] - 1
    if fy < cy - 1:              # from above
        return cx, y0 - gap
    return (x0 - gap if fx < cx else x1 + gap), cy


def _board_badge(draw: ImageDraw.ImageDraw, b: BoardLayout, square: str, text: str,
                 fill: Colour) -> None:
    x0, y0, x1, _ = b.box(square)
    fnt_size = max(11, round(b.cell * 0.18))
    w = font(fnt_size, bold=True).getlength(text) + fnt_size
    # at the very top of the square: the die's face below it stays readable
    _pill(draw, (x1 - w / 2 - 1, y0 + fnt_size / 2 + 2), text, fill, size=fnt_size)


def _draw_board(draw: ImageDraw.ImageDraw, b: BoardLayout, view: dict[str, Any]) -> None:
    """The board once the wall is down: squares, highlights, the slide, the dice, badges."""
    slide, slam, pending = view.get("last_slide"), view.get("last_slam"), view.get("pending")
    show_slide = _recent(view, slide)
    show_slam = pending is None and _recent(view, slam)
    tint: dict[str, Colour] = {}
    if show_slam:
        tint.update({sq: SLAM for sq in slam["area"]})
    if pending is not None:
        tint.update({sq: mix(SLAM, HIGHLIGHT, 0.35) for sq in pending["area"]})
    _draw_squares(draw, b, view, tint)
    _draw_labels(draw, b)
    _draw_middle_line(draw, b, view)

    origin = pending["square"] if pending is not None else (slam["square"] if show_slam
                                                           else None)
    if origin and b.shows(origin):
        x0, y0, x1, y1 = b.box(origin)
        draw_rounded(draw, (x0 + 1, y0 + 1, x1, y1), 4, outline=SLAM, width=4)

    if show_slide and len(slide["path"]) >= 2:
        points = [b.centre(sq) for sq in slide["path"]]
        points[-1] = _arrow_tip(b, view, slide["to"], points[-2])
        xy, mask = _path_mask(points, max(5, b.cell * 0.09), max(14, b.cell * 0.24))
        stamp(draw, xy, mask, HIGHLIGHT)

    rings: dict[str, Colour] = {}
    if pending is not None:
        rings.update({t["square"]: PAPER for t in pending["targets"]})
    for d in view["dice"]:
        if d["square"] and b.shows(d["square"]):
            _draw_die(draw, b, d, ring=rings.get(d["square"]))

    if pending is not None:
        for t in pending["targets"]:
            _board_badge(draw, b, t["square"], f"{t['health']}→{t['after']}", HIGHLIGHT)
    elif show_slam:
        at = {d["square"]: d["letter"] for d in view["dice"]}
        for h in slam["hits"]:
            here = at.get(h["square"])
            if h["destroyed"] and here is None:
                cx, cy = b.centre(h["square"])
                draw_centred(draw, (cx, cy - b.cell * 0.08), "✕",
                             font=font(round(b.cell * 0.5), bold=True), fill=SLAM)
                draw_centred(draw, (cx, cy + b.cell * 0.3), f"{h['die']} lost",
                             font=font(max(11, round(b.cell * 0.17)), bold=True), fill=TEXT)
            elif here == h["die"]:          # (a die that has moved on since keeps no badge)
                if h["saved"]:
                    _board_badge(draw, b, h["square"], "BENT", BENT)
                else:
                    _board_badge(draw, b, h["square"], f"−{h['before'] - h['after']}", SLAM)


# --- name plates --------------------------------------------------------------------------------

def _token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, spent: bool) -> None:
    if spent:
        _circle(draw, centre, r, fill=mix(MUTED, PANEL, 0.45), outline=MUTED, width=2)
        draw_centred(draw, centre, "X", font=font(round(r * 1.1), bold=True), fill=PAPER)
    else:
        _circle(draw, centre, r, fill=HIGHLIGHT, outline=mix(HIGHLIGHT, INK, 0.4), width=2)
        draw_centred(draw, centre, "P", font=font(round(r * 1.1), bold=True), fill=INK)


def _awakening(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, used: bool,
               ready: bool) -> None:
    if used:
        _circle(draw, centre, r, fill=mix(MUTED, PANEL, 0.45), outline=MUTED, width=2)
        draw_centred(draw, centre, "✓", font=font(round(r * 1.1), bold=True), fill=PAPER)
        return
    fill = HIGHLIGHT if ready else PANEL
    _circle(draw, centre, r, fill=fill, outline=HIGHLIGHT, width=2)
    draw_centred(draw, centre, "★", font=font(round(r * 1.15), bold=True),
                 fill=INK if ready else HIGHLIGHT)


def _plate_status(view: dict[str, Any], seat: int) -> tuple[str, Colour] | None:
    result = view.get("result")
    if result is not None:
        if seat in result["winners"]:
            return "WINS", HIGHLIGHT
        return None
    phase = view["phase"]
    if phase == "placement":
        return ("READY", BENT) if view["placement"]["confirmed"][seat] else ("PLACING", MUTED)
    if phase == "response" and view.get("pending"):
        return ("TO ANSWER", HIGHLIGHT) if view["pending"]["defender"] == seat else (
            "SLAMMING", SLAM)
    if view.get("current") == seat:
        return "TO PLAY", HIGHLIGHT
    return None


def _draw_plate(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                view: dict[str, Any], seat: int) -> None:
    x0, y0, x1, y1 = box
    result = view.get("result")
    lit = seat in (result["winners"] if result else view.get("to_act", []))
    draw_rounded(draw, box, 10, fill=PANEL)
    draw_rounded(draw, box, 10, outline=HIGHLIGHT if lit else GRID, width=3 if lit else 1)
    # the seat's die, as a legend
    side = 36
    dy = (y0 + y1) // 2 - side // 2
    f = 3
    draw_rounded(draw, (x0 + 14 - f, dy - f, x0 + 14 + side + f, dy + side + f), 9,
             fill=player_colour(seat).fill)
    draw_die(draw, (x0 + 14, dy, x0 + 14 + side, dy + side), "", **DIE_STYLE[seat].kwargs())

    # right side: Power Token and awakening, each a coin with its caption under it
    r = 15
    right = x1 - 10
    placing = view["phase"] == "placement"
    cap = font(13)
    ready = bool(view.get("can_awaken")) and view.get("current") == seat
    items = [("awaken", lambda c: _awakening(draw, c, r, view["awakened_used"][seat], ready)),
             ("token", lambda c: _token(draw, c, r, view["tokens_used"][seat]))]
    if not placing:
        slot = 58
        for caption, paint in items:
            cx = right - slot / 2
            paint((cx, y0 + 24))
            draw.text((cx, y0 + 57), caption, font=cap, fill=MUTED, anchor="ms")
            right -= slot
        right -= 6

    # name, status pill, second line
    tx = x0 + 14 + side + 14
    name_font = font(21, bold=True)
    you = " (you)" if view.get("you") == seat else ""
    room = right - tx
    status = _plate_status(view, seat)
    # the name is clipped, never the "(you)" after it
    name = fit_text(_player(view, seat), name_font,
                    room - (110 if status else 0) - name_font.getlength(you)) + you
    draw.text((tx, y0 + 29), name, font=name_font, fill=TEXT, anchor="ls")
    if status:
        nx = tx + name_font.getlength(name) + 10
        label, colour = status
        pf = font(13, bold=True)
        w = pf.getlength(label) + 16
        _pill(draw, (nx + w / 2, y0 + 22), label, colour, size=13)
    dice = [d for d in view["dice"] if d["owner"] == seat]
    lost = _lost(view, seat)
    info_font = font(15)
    if placing:
        line = f"{SEAT_WORDS[seat]} · rows {view['halves'][seat][0]}–{view['halves'][seat][1]}"
    else:
        if dice:
            count = f"{len(dice)} {'die' if len(dice) == 1 else 'dice'}"
            facts = [count, f"{sum(d['health'] for d in dice)} health in all"]
        else:
            facts = ["no dice left"]
        if lost:
            facts.append("lost " + " ".join(lost))
        line = " · ".join([SEAT_WORDS[seat]] + facts)
        if info_font.getlength(line) > room:     # the die beside the name shows the colour
            line = " · ".join(facts)
    draw.text((tx, y0 + 52), fit_text(line, info_font, room), font=info_font, fill=MUTED,
              anchor="ls")


# --- whole pictures -----------------------------------------------------------------------------

def _footer_layout(view: dict[str, Any], width: int) -> list[tuple[str, Colour]]:
    fnt = font(FOOTER_FONT)
    lines: list[tuple[str, Colour]] = []
    for text, colour in footer_lines(view):
        lines.extend((line, colour) for line in wrap_text(text, fnt, width))
    if len(lines) > FOOTER_LINES:
        lines = lines[:FOOTER_LINES]
        last, colour = lines[-1]
        lines[-1] = (fit_text(last + " …", fnt, width), colour)
    return lines


def _draw_footer(draw: ImageDraw.ImageDraw, x: int, y: int,
                 lines: list[tuple[str, Colour]]) -> None:
    fnt = font(FOOTER_FONT)
    for i, (line, colour) in enumerate(lines):
        draw.text((x, y + i * round(FOOTER_FONT * 1.3)), line, font=fnt, fill=colour, anchor="lt")


def _footer_height(lines: list) -> int:
    return len(lines) * round(FOOTER_FONT * 1.3) + (GAP if lines else 0)


@dataclass(frozen=True)
class _Frame:
    """Where everything goes in one picture, worked out before anything is drawn."""

    width: int
    height: int
    title: str
    subtitle: str
    board: BoardLayout
    footer: list[tuple[str, Colour]]
    footer_y: int
    plates: tuple[int, int] = (0, 0)     # top of player 1's and player 2's plates (board)
    wall_y: int = 0                      # top of the wall (preview)
    tray_y: int = 0                      # top of the still-to-place tray (preview)


def _is_preview(view: dict[str, Any]) -> bool:
    return view["phase"] == "placement" and view.get("you") is not None


def _frame(view: dict[str, Any]) -> _Frame:
    cols, rows = view["columns"], view["rows"]
    cell = _cell_size(cols)
    board_w = cols * cell
    width = max(MIN_WIDTH, board_w + 2 * (MARGIN + LABEL))
    title, subtitle = headline(view, width - 2 * MARGIN)
    footer = _footer_layout(view, width - 2 * MARGIN)
    bx = (width - board_w) // 2
    y = title_bar_height(subtitle) + GAP
    if not _is_preview(view):
        plate2_y = y
        board = BoardLayout(bx, plate2_y + PLATE_H + 4 + LABEL, cell, cols, rows, 1)
        plate1_y = board.y + board.height + LABEL + 4
        footer_y = plate1_y + PLATE_H + GAP + 4
        height = footer_y + _footer_height(footer) + MARGIN - GAP
        return _Frame(width, height, title, subtitle, board, footer, footer_y,
                      plates=(plate1_y, plate2_y))
    seat = view["you"]
    lo, hi = view["halves"][seat]
    rows_h = (hi - lo + 1) * cell
    if seat == 0:                          # the wall stands above player 1's half
        wall_y, by = y, y + WALL_H + LABEL
    else:                                  # and below player 2's
        by = y + LABEL
        wall_y = by + rows_h + LABEL
    board = BoardLayout(bx, by, cell, cols, hi, lo)
    tray_y = max(by + rows_h + LABEL, wall_y + WALL_H) + GAP + 4
    tray_h = 26 + (_tray_die(cell) + 14 if view["placement"]["unplaced"] else 34)
    footer_y = tray_y + tray_h + GAP
    height = footer_y + _footer_height(footer) + MARGIN - GAP
    return _Frame(width, height, title, subtitle, board, footer, footer_y, wall_y=wall_y,
                  tray_y=tray_y)


def _tray_die(cell: int) -> int:
    return min(56, cell - 10)


def board_layout(view: dict[str, Any]) -> BoardLayout:
    """Where `render(view)` puts the squares: `board_layout(view).box("c3")` is the pixel box
    of c3 in the picture, `die_box` the face of a die on it (tests read the picture this way)."""
    return _frame(view).board


def _render_board(view: dict[str, Any]) -> Picture:
    return to_png(_board_image(view), alt_text(view), f"slideslam-board-t{view['turn']}.png")


def _board_image(view: dict[str, Any]) -> Image.Image:
    fr = _frame(view)
    img, draw = new_canvas(fr.width, fr.height)
    title_bar(img, fr.title, fr.subtitle)
    plate1_y, plate2_y = fr.plates
    _draw_plate(draw, (MARGIN, plate2_y, fr.width - MARGIN, plate2_y + PLATE_H), view, 1)
    if view["phase"] == "placement":
        _draw_hidden_board(draw, fr.board, view)
    else:
        _draw_board(draw, fr.board, view)
    _draw_plate(draw, (MARGIN, plate1_y, fr.width - MARGIN, plate1_y + PLATE_H), view, 0)
    _draw_footer(draw, MARGIN, fr.footer_y, fr.footer)
    return img


def _draw_hidden_board(draw: ImageDraw.ImageDraw, b: BoardLayout, view: dict[str, Any]) -> None:
    """The public board while the wall stands: both halves veiled, who is ready, the wall."""
    for seat in (0, 1):
        lo, hi = view["halves"][seat]
        y0 = b.y + (b.top_row - hi) * b.cell
        y1 = b.y + (b.top_row - lo + 1) * b.cell
        draw.rectangle((b.x, y0, b.x + b.width - 1, y1 - 1),
                       fill=mix(VEIL, player_colour(seat).fill, 0.12))
        for r in range(lo, hi + 2):
            y = b.y + (b.top_row - r + 1) * b.cell
            draw.line((b.x, y, b.x + b.width, y), fill=mix(VEIL, GRID, 0.6))
        for c in range(b.columns + 1):
            x = b.x + c * b.cell
            draw.line((x, y0, x, y1), fill=mix(VEIL, GRID, 0.6))
        ready = view["placement"]["confirmed"][seat]
        cy = (y0 + y1) / 2
        draw_centred(draw, (b.x + b.width / 2, cy - 14), f"{_player(view, seat)}",
                     font=font(26, bold=True), fill=TEXT)
        draw_centred(draw, (b.x + b.width / 2, cy + 20),
                     "ready ✓" if ready else "placing in secret…",
                     font=font(19), fill=BENT if ready else MUTED)
    _draw_labels(draw, b)
    line_y = b.y + (b.top_row - view["halves"][0][1]) * b.cell
    _draw_wall(draw, (b.x - 6, line_y - WALL_H // 2, b.x + b.width + 6, line_y + WALL_H // 2))


def render_preview(view: dict[str, Any]) -> Picture:
    """A player's own placement behind the Wall of Unknowing (their `view(seat)` while the
    phase is "placement"): their half only, their placed dice, the healths still to place.
    Any other view is drawn as `render` draws it."""
    if not _is_preview(view):
        return _render_board(view)
    seat = view["you"]
    lo, hi = view["halves"][seat]
    fr = _frame(view)
    b = fr.board
    img, draw = new_canvas(fr.width, fr.height)
    title_bar(img, fr.title, fr.subtitle)
    _draw_squares(draw, b, view, {})
    _draw_labels(draw, b)
    for d in view["dice"]:
        if d["square"] and b.shows(d["square"]):
            _draw_die(draw, b, d)
    _draw_wall(draw, (b.x - 6, fr.wall_y, b.x + b.width + 6, fr.wall_y + WALL_H))

    # the tray: what is still to place
    left = view["placement"]["unplaced"] or []
    if left:
        head = "Still to place:"
    elif view["placement"]["confirmed"][seat]:
        head = "All six placed · confirmed ✓"
    else:
        head = "All six placed · confirm when ready"
    draw.text((MARGIN, fr.tray_y + 18), head, font=font(18, bold=True), fill=TEXT, anchor="ls")
    die = _tray_die(b.cell)
    x, dy = MARGIN, fr.tray_y + 28
    style, frame = DIE_STYLE[seat], player_colour(seat).fill
    for value in left:
        draw_rounded(draw, (x, dy, x + die + 6, dy + die + 6), die * 0.18 + 3, fill=frame)
        draw_die(draw, (x + 3, dy + 3, x + die + 3, dy + die + 3), value, **style.kwargs())
        x += die + 18
    if not left:
        info = font(17)
        draw.text((MARGIN, dy + 10), fit_text(f"Your dice stand on rows {lo}–{hi}.", info,
                                              fr.width - 2 * MARGIN),
                  font=info, fill=MUTED, anchor="lm")
    _draw_footer(draw, MARGIN, fr.footer_y, fr.footer)
    return to_png(img, alt_text(view), f"slideslam-placement-p{seat + 1}.png")


def render(view: dict[str, Any]) -> Picture:
    """The picture of a Slide and Slam view: `game.view(None)` or a seat's `game.view(seat)`
    (during placement, that seat's private preview: see `render_preview`)."""
    if _is_preview(view):
        return render_preview(view)
    return _render_board(view)


# --- the offline `python -m bot render` tool ------------------------------------------------------

def public_picture(view: dict[str, Any]) -> Picture:
    """The board everybody sees (the thread's picture) from a public view."""
    return render(view)


def public_image(view: dict[str, Any]) -> Image.Image:
    """`public_picture`'s board as drawn, before its PNG (the replay GIF's frames). A public
    view is never a seat's placement preview."""
    if _is_preview(view):
        raise ValueError("public_image draws public views; a seat's preview is render_preview")
    return _board_image(view)


def seat_picture(view: dict[str, Any]) -> Picture | None:
    """A seat's private panel picture: during the Wall of Unknowing, their own half and the
    dice still to place; afterwards the panel shows the public board, so there is none."""
    if _is_preview(view):
        return render_preview(view)
    return None
