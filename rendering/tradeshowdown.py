"""TradeShowdown pictures: the fighters' business cards, the round's roll, the attack order.

Designed for Discord's ~550 px display (every text at least 11 px there). `public_picture(view)`
(the thread's board) draws two fighters as full panels in one column, three to six as compact
tiles two to a row (name, status, the card in the ring with its slashes, the roll and attacks in
a few plain lines); `seat_picture(view)` is one player's fighter in full, from their own view
(`render` and the CLI draw it; the bot's secret panels are words beside the thread's board, and
the thread draws `live_board(view)`: no marks of who has chosen, one picture a secret step).
Players are drawn by name (`view["names"]`), clipped, without glyphs the font lacks. A full
panel shows:

- a header in the seat's colour with its status (standing / defeated) and, below, the slashes
  taken and what the fighter is doing now (choosing, ready, its target);
- its business card(s): a white card with the name, the digits in a row (or rows, for a long
  fair length) with slashes drawn over them as red pen strokes (one stroke = one slash, two =
  X'd) and the zip code; with Tag Team both cards, the active one outlined and tagged;
- lasting effects (crippled values, blinded, a Collating Claw ready);
- the round's dice: empty slots tagged d4..d10 once the choice is known, then the rolled faces
  (`draw_die` with the die's sides, so a d6 shows pips and a d10 may show 0), dice in a set
  ringed, crippled dice greyed; and the set(s) or attacks as "width · height · depth";
- the combo dice set aside (five slots).

Below the grid: the attack order (once revealed; done attacks ticked, the one being made now
ringed) and a banner saying what happens now, or who won.

Only the view is drawn, never game state: a public view during the secret steps has no dice
choices, targets, tags or window plans, so neither has the picture. A seat's own view adds its
secrets (its chosen dice and target, a pending tag, its window plan), marked as "yours".

`render_card(card)` draws one business card alone ({"name", "digits", "zip"}, no slashes), for
showing a registered card.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Sequence

from PIL import Image, ImageDraw

from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import (BACKGROUND, GRID, HIGHLIGHT, INK, MUTED, PANEL, PAPER, TEXT,
                               Colour, contrast, hex_colour, mix, player_colour, readable_on)
from rendering.dice import draw_die, ring_margin
from rendering.fonts import font
from rendering.picture import MAX_ALT_CHARS, Picture, to_png
from rendering.shapes import SUPERSAMPLE, draw_rounded, int_box, rounded_mask, stamp
from rendering.text import ELLIPSIS, draw_centred, drawable, fit_text, wrap_text

# --- look ---------------------------------------------------------------------------------------

CARD_INK = INK
CARD_RULE = hex_colour("#d5d8de")
CARD_MUTED = hex_colour("#555c69")       # zip code: 6.9:1 on white
CARD_SHADOW = mix(BACKGROUND, (0, 0, 0), 0.55)
XD_DIGIT = hex_colour("#a4a9b3")         # a digit under an X: still legible, plainly out
PEN = hex_colour("#d0112b")              # red ballpoint: 5.6:1 on white
OUT_RED = hex_colour("#c0392b")
GOOD = hex_colour("#2f9e55")
CHIP = mix(PANEL, GRID, 0.7)

# --- sizes --------------------------------------------------------------------------------------

# Designed for Discord's ~550 px display (issue #13): one column of full panels 510 px wide
# (550 with the margins), so every label is drawn at the size it is read at. Three or more
# fighters get compact tiles, two to a row; each player's full panel (partner card, combo
# dice, plan) is their own panel picture (`seat_picture`).
DESIGN_WIDTH = 550
MAX_H = 1400                              # taller, and a phone shows it shrunk or cut
COLUMNS = 1
PANEL_W = DESIGN_WIDTH - 2 * 20          # 20: rendering.canvas.MARGIN
PANEL_GAP = 12
TILE_COLUMNS = 2
TILE_W = (PANEL_W - PANEL_GAP) // TILE_COLUMNS
TILE_PAD = 10
TILE_TEXT = 13
DIE_TAG = 12                              # the d4..d10 under each die
PAD = 14                                  # inside a panel
INNER_W = PANEL_W - 2 * PAD
HEADER_H = 44
INFO_H = 30
CARD_GAP = 12
CARD_PAD = 14
CARD_RADIUS = 12
NAME_SIZE = 24
ZIP_SIZE = 17
MAX_CELL = 46                             # a digit's cell on a card, at most (width)
MIN_CELL = 34                             # wrap digits into more rows rather than go below
MAX_CELL_COMPACT, MIN_CELL_COMPACT = 32, 26  # the same on a partner's (compact) card
STRIPE = 8                                # the seat's colour down a card's left edge
MAX_DIE = 60                              # a die in the roll row, at most
DIE_GAP = 10                              # >= 2 * ring_margin(die): rings never touch
COMBO_DIE = 34
LABEL_SIZE = 15
CHIP_SIZE = 17
CHIP_H = 30
CARD_W_ALONE = DESIGN_WIDTH - 2 * 20       # render_card: 550 px with the margins

PHASES = {"choose": "choosing dice (secret)", "roll": "rolling", "window":
          "after the roll (secret window)", "attack": "attacks", "over": "game over"}


# --- small helpers ------------------------------------------------------------------------------

def _ink_on_white(colour: Colour) -> Colour:
    """`colour`, darkened until it reads on a white card (yellow and sky blue would not)."""
    c = colour
    t = 0.0
    while contrast(c, PAPER) < 4.5 and t < 1:
        t += 0.1
        c = mix(colour, INK, t)
    return c


@lru_cache(maxsize=256)
def safe_text(name: str, fallback: str = "a player") -> str:
    """A player's or card's name as the picture can draw it: characters the font lacks (emoji,
    most non-Latin scripts) dropped, runs of them shown as one "?" when nothing else is left."""
    text = " ".join(drawable(" ".join(str(name).split()), unknown="").split())
    return text or ("?" if str(name).strip() else fallback)


def _who(view: dict[str, Any], seat: int) -> str:
    names = view.get("names") or []
    return safe_text(names[seat]) if seat < len(names) else f"fighter {seat + 1}"


def _alt_name(view: dict[str, Any], seat: int) -> str:
    """A name for the alt text (any script reads there; only what breaks a line goes)."""
    names = view.get("names") or []
    return " ".join(str(names[seat]).split()) if seat < len(names) else f"fighter {seat + 1}"


def _dims(a: dict[str, Any]) -> str:
    return f"width {a['width']} · height {a['height']} · depth {a['depth']}"


def _attack_text(a: dict[str, Any]) -> str:
    """An attack as revealed (or planned): its dimensions, and how the window changed them."""
    return _dims(a) + (" · clawed" if a["clawed"] else "") + (
        f" · +{a['intimidated']} intimidate" if a["intimidated"] else "")


@lru_cache(maxsize=32)
def _corners(radius: float, stroke: float) -> tuple[int, tuple[Image.Image, ...]]:
    """The four corners (size c x c) of a rounded box's mask: TL, TR, BL, BR."""
    c = math.ceil(radius) + 1
    w = 2 * c + 2
    m = rounded_mask(w, w, radius, stroke)
    return c, tuple(m.crop(b) for b in ((0, 0, c, c), (w - c, 0, w, c), (0, w - c, c, w),
                                         (w - c, w - c, w, w)))


def _rounded(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: float, *,
             fill: Colour | None = None, outline: Colour | None = None, width: int = 0) -> None:
    """`draw_rounded` for big boxes (panels, cards), pixel for pixel the same, faster.

    Stamping a mask the size of a panel blends every pixel of it; here only the four corners
    are stamped and the rest is plain rectangles, which is exact for whole-pixel boxes and
    outline widths (the straight edges of the mask are fully covered or empty).
    """
    x0, y0, x1, y1 = int_box(box)
    c = math.ceil(radius) + 1
    if x1 - x0 < 2 * c + 2 or y1 - y0 < 2 * c + 2:
        draw_rounded(draw, box, radius, fill=fill, outline=outline, width=width)
        return
    spots = ((x0, y0), (x1 - c, y0), (x0, y1 - c), (x1 - c, y1 - c))
    if fill is not None:
        draw.rectangle((x0 + c, y0, x1 - c - 1, y1 - 1), fill=fill)
        draw.rectangle((x0, y0 + c, x1 - 1, y1 - c - 1), fill=fill)
        for xy, m in zip(spots, _corners(radius, 0)[1]):
            stamp(draw, xy, m, fill)
    if outline is not None and width > 0:
        k = width
        draw.rectangle((x0 + c, y0, x1 - c - 1, y0 + k - 1), fill=outline)
        draw.rectangle((x0 + c, y1 - k, x1 - c - 1, y1 - 1), fill=outline)
        draw.rectangle((x0, y0 + c, x0 + k - 1, y1 - c - 1), fill=outline)
        draw.rectangle((x1 - k, y0 + c, x1 - 1, y1 - c - 1), fill=outline)
        for xy, m in zip(spots, _corners(radius, k)[1]):
            stamp(draw, xy, m, outline)


def _chip_w(text: str, fnt) -> int:
    return math.ceil(fnt.getlength(text)) + 20


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, *, fnt, fill: Colour,
          ink: Colour, outline: Colour | None = None, width: int | None = None) -> int:
    w = width if width is not None else _chip_w(text, fnt)
    _rounded(draw, (x, y, x + w, y + CHIP_H), 8, fill=fill, outline=outline,
             width=2 if outline else 0)
    draw.text((x + 10, y + CHIP_H / 2), text, fill=ink, font=fnt, anchor="lm")
    return w


def _flow(widths: list[int], room: int, gap: int = 8) -> tuple[list[tuple[int, int]], int]:
    """Positions (dx, dy) for boxes of `widths` laid out in lines `room` wide; total height."""
    pos, x, y = [], 0, 0
    for w in widths:
        if x and x + w > room:
            x, y = 0, y + CHIP_H + gap
        pos.append((x, y))
        x += w + gap
    return pos, (y + CHIP_H if widths else 0)


# --- pen strokes --------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _stroke_mask(w: int, h: int, count: int) -> Image.Image:
    """One slash (bottom left to top right) or an X, as a ballpoint would draw them: slightly
    bowed lines with round ends, smoothed like every shape here (supersampled coverage)."""
    s = SUPERSAMPLE
    big = Image.new("L", (w * s, h * s), 0)
    d = ImageDraw.Draw(big)
    width = max(3.0, w * 0.14) * s
    strokes = [((0.16, 0.88), (0.86, 0.12), 0.05)]
    if count >= 2:
        strokes.append(((0.14, 0.14), (0.84, 0.86), -0.04))
    for (ax, ay), (bx, by), bow in strokes:
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length, (bx - ax) / length   # across the stroke
        pts = []
        for i in range(9):
            t = i / 8
            off = bow * math.sin(math.pi * t)               # bowed most in the middle
            x = ax + (bx - ax) * t + nx * off
            y = ay + (by - ay) * t + ny * off
            pts.append((x * w * s, y * h * s))
        d.line(pts, fill=255, width=round(width), joint="curve")
        r = width / 2
        for px, py in (pts[0], pts[-1]):
            d.ellipse((px - r, py - r, px + r, py + r), fill=255)
    return big.reduce(s)


# --- business cards -----------------------------------------------------------------------------

def _grid(n: int, width: int, compact: bool = False) -> tuple[int, int, int, int]:
    """(per_row, rows, cell_w, cell_h) for `n` digits across `width` pixels: as few rows as
    keep a cell at least MIN_CELL wide (on a panel, a 40-digit card takes three rows)."""
    low, high = (MIN_CELL_COMPACT, MAX_CELL_COMPACT) if compact else (MIN_CELL, MAX_CELL)
    rows = max(1, math.ceil(n * low / width))
    per_row = math.ceil(n / rows)
    cell_w = min(high, width // per_row)
    return per_row, rows, cell_w, round(cell_w * 1.25)


@dataclass(frozen=True)
class _CardLayout:
    """Where things go on a card `width` wide (relative to its top left)."""

    width: int
    n: int
    compact: bool

    @property
    def pad(self) -> int:
        return 10 if self.compact else CARD_PAD

    @property
    def left(self) -> int:                 # the stripe is always reserved, drawn or not
        return STRIPE + self.pad

    @property
    def inner(self) -> int:
        return self.width - STRIPE - 2 * self.pad

    @property
    def grid(self) -> tuple[int, int, int, int]:
        return _grid(self.n, self.inner, self.compact)

    @property
    def name_size(self) -> int:
        return 19 if self.compact else NAME_SIZE

    @property
    def rule_y(self) -> int:
        return self.pad + (26 if self.compact else 34)

    @property
    def grid_y(self) -> int:
        return self.rule_y + (6 if self.compact else 10)

    @property
    def height(self) -> int:
        _, rows, _, ch = self.grid
        bottom = 8 if self.compact else 8 + 22 + 10   # the full card has the zip line
        return self.grid_y + rows * ch + (rows - 1) * 6 + bottom


def card_height(n_digits: int, width: int, compact: bool = False) -> int:
    """Height of a card `width` wide with `n_digits` digits (every card of a game alike)."""
    return _CardLayout(width, n_digits, compact).height


def draw_card(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, card: dict[str, Any], *,
              name_colour: Colour = INK, accent: Colour | None = None,
              badge: tuple[str, Colour, Colour] | None = None, ring: Colour | None = None,
              compact: bool = False, show_zip: bool = True) -> int:
    """Draw a business card with its top left at (x, y); return its height.

    `card`: {"name", "zip", "digits": [int] or str, "slashes": [0|1|2] (optional)}. `accent`
    paints a stripe down the left edge (the seat's colour); `badge` (text, fill, ink) a tag at
    the top right; `ring` an outline just outside the card (the active fighter). `compact`:
    smaller, with the zip on the name's line (a Tag Team partner waiting its turn).
    """
    digits = [int(d) for d in card["digits"]]
    slashes = list(card.get("slashes") or [0] * len(digits))
    lay = _CardLayout(width, len(digits), compact)
    h = lay.height
    x1, y1 = x + width, y + h
    if ring is not None:
        _rounded(draw, (x - 5, y - 5, x1 + 5, y1 + 5), CARD_RADIUS + 5, outline=ring, width=3)
    else:
        _rounded(draw, (x + 2, y + 4, x1 + 2, y1 + 4), CARD_RADIUS, fill=CARD_SHADOW)
    if accent is not None:
        _rounded(draw, (x, y, x1, y1), CARD_RADIUS, fill=accent)
        _rounded(draw, (x + STRIPE, y, x1, y1), CARD_RADIUS, fill=PAPER)
    else:
        _rounded(draw, (x, y, x1, y1), CARD_RADIUS, fill=PAPER)

    left = x + lay.left
    right = x1 - lay.pad
    top = y + lay.pad
    # the badge and (compact) the zip at the right, the name in what room is left
    name_right = right
    if badge is not None:
        text, fill, ink = badge
        bf = font(13, bold=True)
        bw = math.ceil(bf.getlength(text)) + 16
        _rounded(draw, (right - bw, top, right, top + 22), 6, fill=fill)
        draw.text((right - bw / 2, top + 11), text, fill=ink, font=bf, anchor="mm")
        name_right = right - bw - 10
    zf = font(16 if compact else ZIP_SIZE)
    zip_text = f"zip {card['zip']}"
    if compact and show_zip:
        draw.text((name_right, top + 18), zip_text, fill=CARD_MUTED, font=zf, anchor="rs")
        name_right -= math.ceil(zf.getlength(zip_text)) + 10
    nf = font(lay.name_size, bold=True)
    draw.text((left, top + (18 if compact else 24)), fit_text(card["name"], nf, name_right - left),
              fill=name_colour, font=nf, anchor="ls")
    rule_y = y + lay.rule_y
    draw.line((left, rule_y, right, rule_y), fill=CARD_RULE, width=2)

    per_row, _, cw, ch = lay.grid
    dfont = font(round(ch * 0.66), bold=True)
    gy = y + lay.grid_y
    for i, (d, n) in enumerate(zip(digits, slashes)):
        r, c = divmod(i, per_row)
        cx0 = left + c * cw
        cy0 = gy + r * (ch + 6)
        draw_centred(draw, (cx0 + cw / 2, cy0 + ch / 2), str(d), font=dfont,
                     fill=XD_DIGIT if n >= 2 else CARD_INK)
        if n:
            stamp(draw, (cx0, cy0), _stroke_mask(cw, ch, min(n, 2)), PEN)
    if not compact:
        draw.text((right, y1 - 12), zip_text, fill=CARD_MUTED, font=zf, anchor="rs")
    return h


def render_card(card: dict[str, Any], *, name_colour: Colour = INK,
                accent: Colour | None = None) -> Picture:
    """One business card alone, as registered: {"name", "digits" (str or list), "zip"}.

    For `/tradeshowdown card show`: no slashes, digits as printed (6 to 40 of them, wrapped into
    rows when long). `name_colour` is darkened if needed to read on the white card; `accent`
    (e.g. the seat's colour) adds the stripe down the left edge.
    """
    digits = "".join(str(d) for d in card["digits"])
    plain = {"name": card["name"], "zip": card["zip"], "digits": [int(d) for d in digits]}
    h = card_height(len(digits), CARD_W_ALONE)
    img, draw = new_canvas(CARD_W_ALONE + 2 * MARGIN, h + 2 * MARGIN + 4)
    draw_card(draw, MARGIN, MARGIN, CARD_W_ALONE, plain,
              name_colour=_ink_on_white(name_colour), accent=accent)
    alt = (f"Business card: {card['name']}. Digits {' '.join(digits)} "
           f"({len(digits)} digits). Zip {card['zip']}.")
    return to_png(img, alt, "tradeshowdown-card.png")


# --- one fighter's panel ------------------------------------------------------------------------

# (what it is, its height, its painter): what it is names it in a replay's layout
Block = tuple[str, int, Callable[[ImageDraw.ImageDraw, int, int], None]]


@dataclass
class _Panel:
    """A fighter's panel: blocks stacked top to bottom (height, painter), and its frame."""

    blocks: list[Block]
    frame: Colour | None      # the attacker of the moment, or the card being slashed
    dim: bool                 # defeated: faded below the header
    width: int = PANEL_W
    head: int = HEADER_H      # where the fading of a defeated fighter starts

    @property
    def height(self) -> int:
        return sum(h for _, h, _ in self.blocks) + PAD


def _shows_round(view: dict[str, Any], f: dict[str, Any]) -> bool:
    """Whether the fighter's dice belong to this round. A defeated seat keeps the rolls of the
    round it fell in; they are current only while that round's attacks are on record."""
    if f["standing"]:
        return True
    return any(e["seat"] == f["seat"] for e in view["attack_order"])


def _status(view: dict[str, Any], f: dict[str, Any]) -> tuple[str, Colour]:
    s = f["seat"]
    phase = view["phase"]
    pending = view["pending"]
    if not f["standing"]:
        return "out of the fight", MUTED
    if view["result"] is not None:
        return "", TEXT
    if pending is not None and pending["seat"] == s:
        return {"slash": f"slashing {_who(view, pending['target'])} now",
                "special": "combo ready: special attack?",
                "redirect": "picking a new target"}[pending["stage"]], HIGHLIGHT
    tgt = f["target"] if len(view["fighters"]) > 2 else None
    aim = f"target {_who(view, tgt)}" if tgt is not None else ""
    if phase == "choose":
        if f["dice"] is not None:
            return (f"you chose · {aim}" if aim else "you chose your dice"), TEXT
        if f["chosen"] is None:  # the live board: who has chosen is the card's words
            return "choosing dice in secret", MUTED
        return ("dice chosen ✓", GOOD) if f["chosen"] else ("choosing dice…", MUTED)
    if phase == "window" and f["ready"] is None:
        return (f"deciding in secret · {aim}" if aim else "deciding in secret"), MUTED
    if phase == "window":
        base = ("ready ✓" if f["ready"] else "deciding…")
        return (f"{base} · {aim}" if aim else base), (GOOD if f["ready"] else MUTED)
    return aim, TEXT


def _effects(f: dict[str, Any]) -> list[str]:
    out = []
    if f["crippled"]:
        out.append("crippled: " + " ".join(f"{v}s" for v in f["crippled"]))
    if f["blinded"]:
        out.append("blinded: depth ×2")
    if f["claw_ready"]:
        out.append("Collating Claw ready")
    if f.get("tag_pending"):
        partner = f["cards"][1 - f["active"]]["name"] if len(f["cards"]) > 1 else "partner"
        out.append(f"you tag in {partner} at the roll")
    return out


def _set_chips(view: dict[str, Any], f: dict[str, Any]) -> tuple[str, list[str]]:
    """The label and chips under the roll: sets as rolled, the plan (own view), or attacks."""
    depth = f["depth"]
    if not f["rolls"]:
        return "", []
    plan = f.get("plan")
    if plan is not None:
        chips = [_attack_text(a) for a in plan["attacks"]]
        if plan["intimidate"]:
            chips.append("intimidate " + " ".join(str(i["value"]) for i in plan["intimidate"]))
        return "YOUR PLAN (secret until all are ready)", chips or ["no set: no attack"]
    if view["phase"] in ("attack", "over"):
        chips = [_attack_text(a) for a in f["attacks"]]
        return "ATTACKS", chips or ["no set: no attack"]
    chips = [_dims({**x, "depth": depth}) for x in f["sets"]]
    return "SETS", chips or ["no set: no attack"]


def _die_size(count: int) -> tuple[int, int]:
    """(side, gap) of the largest dice that put `count` of them in one row of a panel, the
    gap wide enough that two highlight rings never touch."""
    for side in range(MAX_DIE, 11, -1):
        gap = max(DIE_GAP, 2 * ring_margin(side) + 2)
        if count * side + (count - 1) * gap + 2 * ring_margin(side) <= INNER_W:
            return side, gap
    raise ValueError(f"{count} dice do not fit in a panel")


def _fighter_panel(view: dict[str, Any], f: dict[str, Any], die: tuple[int, int],
                   tight: bool = False) -> _Panel:
    """A fighter's full panel. `tight` (when two full panels would make the board taller than
    a phone shows, MAX_H): the slashes taken move into the header, the info line is drawn only
    for a status, and the card in the ring is drawn compact like the partner's."""
    s = f["seat"]
    pc = player_colour(s)
    standing = f["standing"]
    head_fill = pc.fill if standing else GRID
    head_ink = pc.text if standing else TEXT
    blocks: list[Block] = []
    pending = view["pending"]
    attacking = pending is not None and pending["seat"] == s and view["result"] is None
    targeted = (pending is not None and pending.get("target") == s
                and pending["stage"] == "slash" and view["result"] is None)

    def header(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        _rounded(draw, (x, y, x + PANEL_W, y + HEADER_H), 14, fill=head_fill)
        draw.rectangle((x, y + HEADER_H - 14, x + PANEL_W - 1, y + HEADER_H - 1), fill=head_fill)
        hf = font(22, bold=True)
        word = "STANDING" if standing else "DEFEATED"
        if view["result"] is not None and s in view["result"]["winners"]:
            word = "WINNER"
        if tight:
            n = f["slashes_taken"]
            taken = f"{n} slash{'es' if n != 1 else ''} taken"
            word = taken if word == "STANDING" else f"{word} · {taken}"
        sf = font(18, bold=True)
        draw.text((x + PANEL_W - PAD, y + HEADER_H / 2), word, fill=head_ink, font=sf,
                  anchor="rm")
        room = INNER_W - max(170, sf.getlength(word) + 60)
        draw.text((x + PAD, y + HEADER_H / 2), fit_text(_who(view, s), hf, room),
                  fill=head_ink, font=hf,
                  anchor="lm")
        if view["you"] == s:
            w = hf.getlength(fit_text(_who(view, s), hf, room))
            draw.text((x + PAD + w + 10, y + HEADER_H / 2), "(you)", fill=head_ink,
                      font=font(17), anchor="lm")
    blocks.append(("header", HEADER_H + 8, header))

    status, status_colour = _status(view, f)

    def info(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        n = f["slashes_taken"]
        inf = font(18)
        if not tight:
            draw.text((x + PAD, y + INFO_H / 2), f"{n} slash{'es' if n != 1 else ''} taken",
                      fill=TEXT, font=inf, anchor="lm")
        if status:
            bold = font(18, bold=True)
            draw.text((x + PANEL_W - PAD, y + INFO_H / 2),
                      fit_text(status, bold, INNER_W * 0.6), fill=status_colour, font=bold,
                      anchor="rm")
    if status or not tight:
        blocks.append(("info", INFO_H + 10, info))

    # The active card first and full size; a Tag Team partner below it, compact.
    n_digits = len(f["cards"][0]["digits"])
    tag_team = len(f["cards"]) > 1
    order = [f["active"]] + [c for c in range(len(f["cards"])) if c != f["active"]]
    for c in order:
        card = f["cards"][c]
        active = c == f["active"]
        if card["out"]:
            badge = ("OUT", OUT_RED, PAPER)
        elif tag_team and active:
            badge = ("IN THE RING", pc.fill, pc.text)
        elif tag_team:
            badge = ("PARTNER", CARD_RULE, CARD_INK)
        else:
            badge = None
        compact = tight or not active

        def paint(draw: ImageDraw.ImageDraw, x: int, y: int, card=card, badge=badge,
                  active=active, compact=compact) -> None:
            draw_card(draw, x + PAD, y + 5, INNER_W, card,
                      name_colour=_ink_on_white(pc.fill), accent=pc.fill, badge=badge,
                      ring=pc.fill if (tag_team and active and not card["out"]) else None,
                      compact=compact)
        blocks.append((f"card{order.index(c)}", card_height(n_digits, INNER_W, compact)
                       + CARD_GAP + 6, paint))

    effects = _effects(f)
    if effects:
        ef = font(16, bold=True)
        eff_widths = [_chip_w(t, ef) for t in effects]
        eff_pos, eh = _flow(eff_widths, INNER_W)

        def effs(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
            for t, (dx, dy), w in zip(effects, eff_pos, eff_widths):
                fill = OUT_RED if t.startswith(("crippled", "blinded")) else CHIP
                _chip(draw, x + PAD + dx, y + dy, t, fnt=ef, fill=fill, ink=PAPER, width=w)
        blocks.append(("effects", eh + 10, effs))

    # --- the round's dice
    current = _shows_round(view, f)
    rolls = f["rolls"] if current else []
    lf = font(LABEL_SIZE, bold=True)
    if rolls:
        label = f"ROLL · depth {f['depth']}" + (" (counts double: blinded)" if f["blinded"]
                                                 else "")
    elif f["dice"] is not None and current:
        label = "YOUR DICE (secret until the roll)" if (view["phase"] == "choose") else "DICE"
    else:
        label = "DICE"

    def dice_label(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text((x + PAD, y + 14), label, fill=MUTED, font=lf, anchor="ls")
    blocks.append(("dice_label", 22, dice_label))

    in_sets = {x["height"] for x in f["sets"]} if rolls else set()
    aside = set(f["plan"]["aside"]) if f.get("plan") else set()
    side, gap = die
    row_h = side + 2 * ring_margin(side) + 4 + DIE_TAG + 4
    tag_font = font(DIE_TAG, bold=True)

    def tag_under(draw: ImageDraw.ImageDraw, bx: int, y0: int, size: int) -> None:
        # The die's size under it, at a size read on a phone (a tag on the face would not be)
        draw.text((bx + side / 2, y0 + side + ring_margin(side) + 2), f"d{size}",
                  fill=MUTED, font=tag_font, anchor="mt")

    def dice_row(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        x0 = x + PAD + ring_margin(side)
        y0 = y + ring_margin(side)
        if rolls:
            for i, r in enumerate(rolls):
                bx = x0 + i * (side + gap)
                ring: Any = None
                if i in aside:
                    ring = PAPER
                elif r["value"] in in_sets:
                    ring = True
                draw_die(draw, (bx, y0, bx + side, y0 + side), r["value"], sides=r["size"],
                         highlight=ring, greyed=r["value"] in f["crippled"])
                tag_under(draw, bx, y0, r["size"])
            return
        if f["dice"] is not None and current:
            for i, size in enumerate(sorted(f["dice"])):
                bx = x0 + i * (side + gap)
                draw_die(draw, (bx, y0, bx + side, y0 + side), None)
                tag_under(draw, bx, y0, size)
            return
        if not standing:
            text = "out of the fight"
        elif view["phase"] == "choose":
            text = ("chosen in secret: shown at the roll" if f["chosen"]
                    else "choosing in secret…")
        else:
            text = "no dice this round"
        draw.text((x + PAD, y0 + side / 2), text, fill=MUTED, font=font(17), anchor="lm")
    blocks.append(("dice", row_h, dice_row))

    set_label, chips = _set_chips(view, f) if rolls else ("", [])
    if chips:
        cf = font(CHIP_SIZE, bold=True)
        set_widths = [min(_chip_w(t, cf), INNER_W) for t in chips]
        set_pos, chh = _flow(set_widths, INNER_W)

        def sets(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
            draw.text((x + PAD, y + 14), set_label, fill=MUTED, font=lf, anchor="ls")
            for t, (dx, dy), w in zip(chips, set_pos, set_widths):
                empty = t.startswith("no set")
                _chip(draw, x + PAD + dx, y + 22 + dy, fit_text(t, cf, w - 20), fnt=cf,
                      fill=CHIP if empty else HIGHLIGHT, ink=TEXT if empty else INK, width=w)
        blocks.append(("sets", 22 + chh + 10, sets))

    if view["rules"]["combos"]:
        combo = list(f["combo"])
        planned = [rolls[i] for i in sorted(aside)] if rolls else []

        def combo_row(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
            n = len(combo)
            full = n >= 5
            draw.text((x + PAD, y + 14), f"COMBO {n}/5" + (" · READY" if full else ""),
                      fill=HIGHLIGHT if full else MUTED, font=lf, anchor="ls")
            draw.text((x + PAD, y + 34), f"zip {f['cards'][f['active']]['zip']}", fill=MUTED,
                      font=font(14), anchor="ls")
            cx = x + PAD + 118
            cy = y + 4
            for i in range(5):
                bx = cx + i * (COMBO_DIE + DIE_GAP)
                box = (bx, cy, bx + COMBO_DIE, cy + COMBO_DIE)
                if i < n:
                    d = combo[i]
                    draw_die(draw, box, d["value"], sides=d["size"])
                elif i - n < len(planned):
                    d = planned[i - n]
                    draw_die(draw, box, d["value"], sides=d["size"], highlight=PAPER)
                else:
                    draw_die(draw, box, None)
            if planned:
                draw.text((cx + 5 * (COMBO_DIE + DIE_GAP) + 2, cy + COMBO_DIE / 2),
                          "+ set aside (yours)", fill=PAPER, font=font(14, bold=True),
                          anchor="lm")
        blocks.append(("combo", COMBO_DIE + 14, combo_row))

    # Frame: the attacker of the moment (or the winner) ringed in HIGHLIGHT, the target red.
    won = view["result"] is not None and s in view["result"]["winners"]
    frame = HIGHLIGHT if (attacking or won) else OUT_RED if targeted else None
    return _Panel(blocks, frame, not standing)


# --- a compact tile (three or more fighters) ----------------------------------------------------

def _tile(view: dict[str, Any], f: dict[str, Any]) -> _Panel:
    """A fighter in a tile half the board wide: name and status, the card in the ring (the
    slashes on it), and a few plain lines: the roll, sets or attacks, lasting effects. The
    partner card and the combo dice are in that player's own panel picture."""
    s = f["seat"]
    pc = player_colour(s)
    standing = f["standing"]
    inner = TILE_W - 2 * TILE_PAD
    blocks: list[Block] = []
    pending = view["pending"]
    attacking = pending is not None and pending["seat"] == s and view["result"] is None
    targeted = (pending is not None and pending.get("target") == s
                and pending["stage"] == "slash" and view["result"] is None)
    head_h = 34

    def header(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        fill = pc.fill if standing else GRID
        ink = pc.text if standing else TEXT
        _rounded(draw, (x, y, x + TILE_W, y + head_h), 12, fill=fill)
        draw.rectangle((x, y + head_h - 12, x + TILE_W - 1, y + head_h - 1), fill=fill)
        word = "" if standing else "OUT"
        if view["result"] is not None and s in view["result"]["winners"]:
            word = "WINNER"
        wf = font(TILE_TEXT, bold=True)
        room = inner - (math.ceil(wf.getlength(word)) + 8 if word else 0)
        hf = font(16, bold=True)
        draw.text((x + TILE_PAD, y + head_h / 2), fit_text(_who(view, s), hf, room), fill=ink,
                  font=hf, anchor="lm")
        if word:
            draw.text((x + TILE_W - TILE_PAD, y + head_h / 2), word, fill=ink, font=wf,
                      anchor="rm")
    blocks.append(("header", head_h + 6, header))

    tf = font(TILE_TEXT)
    bold = font(TILE_TEXT, bold=True)
    # (text, font, ink, what it says): what it says names its place in a replay's layout
    lines: list[tuple[str, Any, Colour, str]] = []
    status, colour = _status(view, f)
    n = f["slashes_taken"]
    taken = f"{n} slash{'es' if n != 1 else ''} taken"
    if status and tf.getlength(f"{taken} · ") + bold.getlength(status) <= inner:
        lines.append((f"{taken} · {status}", bold, colour, "taken"))  # one line if it fits
    else:
        lines.append((taken, tf, TEXT, "taken"))
        if status:
            lines.append((status, bold, colour, "status"))

    def text_block(key, items) -> list[Block]:
        """The lines, each item a block of its own (a replay keeps each one's room), and 4 px
        under them."""
        out: list[Block] = []
        for text, fnt, ink, what in items:
            parts = wrap_text(text, fnt, inner)                # whole: never cut mid-line

            def paint(draw: ImageDraw.ImageDraw, x: int, y: int, parts=parts, fnt=fnt,
                      ink=ink) -> None:
                for k, part in enumerate(parts):
                    draw.text((x + TILE_PAD, y + 18 * k), part, fill=ink, font=fnt,
                              anchor="lt")
            out.append((f"{key}:{what}", 18 * len(parts), paint))
        return out + [(f"{key}:end", 4, _nothing)]
    blocks += text_block("status", lines)

    card = f["cards"][f["active"]]
    n_digits = len(card["digits"])

    def paint_card(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw_card(draw, x + TILE_PAD, y + 2, inner, card, name_colour=_ink_on_white(pc.fill),
                  accent=pc.fill, badge=("OUT", OUT_RED, PAPER) if card["out"] else None,
                  compact=True, show_zip=False)  # the name gets the room; zip below
    blocks.append(("card", card_height(n_digits, inner, True) + 10, paint_card))

    more: list[tuple[str, Any, Colour, str]] = [(f"zip {card['zip']}", tf, MUTED, "zip")]
    if len(f["cards"]) > 1:
        other = f["cards"][1 - f["active"]]
        partner = (f"partner {safe_text(other['name'], 'partner')}"
                   + (" (out)" if other["out"] else ""))
        both = f"zip {card['zip']} · {partner}"
        more[0] = ((both, tf, MUTED, "zip") if tf.getlength(both) <= inner else more[0])
        if more[0][0] != both:
            more.append((partner, tf, MUTED, "partner"))
    if _shows_round(view, f) and f["rolls"]:
        more.append((f"rolled {' '.join(str(r['value']) for r in f['rolls'])} "
                     f"({f['depth']} dice)", bold, TEXT, "roll"))
        label, chips = _set_chips(view, f)
        # the depth is the number of dice, said on the line above: not again in each set
        chips = [c.replace(f" · depth {f['depth']}", "") for c in chips]
        more.append((f"{label.split(' (')[0].lower()}: " + "; ".join(chips), tf, TEXT,
                     "sets"))
    elif _shows_round(view, f) and f["dice"] is not None:
        more.append(("will roll " + " ".join(f"d{d}" for d in sorted(f["dice"])), bold, TEXT,
                     "roll"))
    effects = _effects(f)
    if f["combo"]:
        effects.insert(0, f"combo {len(f['combo'])} of 5 dice")
    if effects:
        more.append((" · ".join(effects), bold, HIGHLIGHT, "effects"))
    if more:
        blocks += text_block("more", more)
    won = view["result"] is not None and s in view["result"]["winners"]
    frame = HIGHLIGHT if (attacking or won) else OUT_RED if targeted else None
    return _Panel(blocks, frame, not standing, TILE_W, head_h)


# --- bottom: attack order and the banner ---------------------------------------------------------

def _order_chips(view: dict[str, Any], fnt=None,
                 room: float | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The attack order as chip texts. With `fnt` and `room`, a chip too long for the board
    has its players' names shortened (the longest first), never the attack's words."""
    many = len(view["fighters"]) > 2
    cur = _current_index(view)
    out = []
    for k, e in enumerate(view["attack_order"]):
        f = view["fighters"][e["seat"]]
        names = [_who(view, e["seat"])] + (
            [_who(view, f["target"])] if many and f["target"] is not None else [])
        text = _order_text(view, k, e, cur, names)
        if fnt is not None and room is not None:
            for _ in range(2):
                excess = fnt.getlength(text) - room
                if excess <= 0:
                    break
                i = max(range(len(names)), key=lambda j: fnt.getlength(names[j]))
                names[i] = fit_text(names[i], fnt, max(fnt.getlength(names[i]) - excess,
                                                       fnt.getlength("Ab" + ELLIPSIS)))
                text = _order_text(view, k, e, cur, names)
        out.append((text, e))
    return out


def _order_text(view: dict[str, Any], k: int, e: dict[str, Any], cur: int | None,
                names: list[str]) -> str:
    aim = f" → {names[1]}" if len(names) > 1 else ""
    depth = f"depth {e['depth']}" + (f" (×2 = {e['order']})" if e["order"] != e["depth"]
                                      else "")
    if e["kind"] == "special":
        what = "combo: special attack"
    else:
        n = e["width"]
        what = f"{n} slash{'es' if n != 1 else ''} ≤ {e['height']}"
    tick = "✓ " if e["done"] else "▶ " if k == cur else ""
    return f"{tick}{names[0]}{aim}: {what} · {depth}"


def _current_index(view: dict[str, Any]) -> int | None:
    if view["pending"] is None or view["result"] is not None:
        return None
    for i, e in enumerate(view["attack_order"]):
        if not e["done"]:
            return i
    return None


def _banner(view: dict[str, Any]) -> str:
    r = view["result"]
    names = {f["seat"]: f["cards"][f["active"]]["name"] for f in view["fighters"]}
    if r is not None:
        if not r["winners"]:
            return f"Draw — {r['reason']}"
        who = " and ".join(f"{_who(view, w)} ({names[w]})" for w in r["winners"])
        return f"Winner: {who} — {r['reason']}"
    p = view["pending"]
    if p is not None:
        s = _who(view, p["seat"])
        if p["stage"] == "slash":  # how many are left: the card's status line (it stays)
            return (f"Now: {s} slashes {_who(view, p['target'])}'s {names[p['target']]}, "
                    f"digits up to {p['reach']}")
        if p["stage"] == "special":
            return f"Now: {s} may fire a special attack (or hold the combo)"
        return f"Now: {s}'s target is down — {s} picks a new target"
    waiting = view["waiting_for"]
    if waiting == ["chance"]:
        return "Now: the dice are rolled"
    if waiting:
        who = ", ".join(_who(view, w) for w in waiting)
        what = "to choose dice in secret" if view["phase"] == "choose" else \
            "to decide after the roll (in secret)"
        return f"Waiting for {who} {what}"
    return PHASES.get(view["phase"], view["phase"])


# --- the whole picture --------------------------------------------------------------------------

def public_picture(view: dict[str, Any], layout: ReplayLayout | None = None) -> Picture:
    """The board everybody sees (the thread): every fighter, the attack order, what happens
    now. Two fighters: full panels; three or more: compact tiles, two to a row. `layout`: as
    a replay draws it (`public_image`)."""
    if layout is None:
        return render(view)
    return to_png(_image(view, None, layout), alt_text(view),
                  f"tradeshowdown-round-{view['round']}.png")


def live_board(view: dict[str, Any]) -> dict[str, Any]:
    """The public view as the thread's live board draws it: during a secret step, without who
    has already chosen or is ready (the card's status line under it says whom the table waits
    for). The board is then one picture from the step's start to its end, uploaded once rather
    than again after each player's choice (issue #22: most of the game's uploads)."""
    if view["phase"] not in ("choose", "window") or view["you"] is not None:
        return view
    return dict(view, waiting_for=None, fighters=[dict(f, chosen=None, ready=None)
                                                  for f in view["fighters"]])


def board_while_slashing(view: dict[str, Any]) -> dict[str, Any]:
    """What the thread's board must show anew while an attacker places an attack's slashes one
    by one: not each slash (the card's lines say each, and the slash buttons name the digit
    and what it does), only the rest. The board drawn as the attack began stays on the card
    until the attack is done (issue #22: a board upload a slash was most of the game's)."""
    v = live_board(view)
    p = v["pending"]
    if p is None or p["stage"] != "slash" or v["result"] is not None:
        return v
    return dict(v, pending={k: p[k] for k in ("seat", "stage", "target", "reach", "width")},
                fighters=[dict(f, slashes_taken=None, cards=[dict(c, slashes=None)
                                                           for c in f["cards"]])
                          for f in v["fighters"]])


def public_image(view: dict[str, Any], layout: ReplayLayout | None = None) -> Image.Image:
    """`public_picture`'s board as drawn, before its PNG (the replay GIF's frames). With a
    `layout` (`replay_layouts`: a replay's): the same board in that layout — its die size,
    full panels or tiles, and each growing part given its room — so a replay's frames hold
    still; without: the thread's board (`render --at N`), as tall as its position needs."""
    return _image(view, None, layout)


def seat_picture(view: dict[str, Any]) -> Picture | None:
    """A player's own panel picture: their fighter in full (both cards, combo dice, their
    secret dice choice or plan) and what happens now. None for a public view."""
    if view.get("you") is None:
        return None
    return render(view, only=view["you"])


def render(view: dict[str, Any], only: int | None = None) -> Picture:
    """The round as one picture, 550 px wide: the fighters, the attack order, and what
    happens now. Draws `view` only (a public view or one seat's own); `only`: that seat's
    full panel alone (its owner's panel picture)."""
    return to_png(_image(view, only), alt_text(view, only),
                  f"tradeshowdown-round-{view['round']}.png")


# --- a replay's layout ---------------------------------------------------------------------------
#
# The live board is as tall as its position needs: the dice row's height follows the most dice
# shown, a set or effect line comes and goes, and two full panels give way to tiles when the
# attack order would make them taller than MAX_H. In a replay (rendering/gif.py) that moves every
# block under the change from one frame to the next, which is hard to watch and costs most of
# the GIF's bytes. A `ReplayLayout` gives each such part the room it needs at its largest in the
# steps so far, so the board holds still and only grows when a step first needs more room.

FULL_BLOCKS = ("header", "info", "card0", "card1", "effects", "dice_label", "dice", "sets",
               "combo")
TILE_BLOCKS = ("header", "status:taken", "status:status", "status:end", "card", "more:zip",
               "more:partner", "more:roll", "more:sets", "more:effects", "more:end")
Floors = tuple[tuple[tuple[str, int], ...], ...]   # per fighter: (block, height) in draw order


@dataclass(frozen=True)
class ReplayLayout:
    """One board layout for the replay's steps so far: the die size for `most` dice in a row,
    full panels (`tight` or not) or tiles, and the room each part keeps (`floors`: each
    fighter's blocks; `top`, `order`, `banner`: the title bar, attack order and banner)."""

    most: int
    tiles: bool
    tight: bool
    floors: Floors
    top: int
    order: int
    banner: int


def _candidates(view: dict[str, Any], only: int | None) -> list[tuple[bool, bool]]:
    """The layouts (tiles, tight) the board tries, the first that fits MAX_H drawn."""
    fighters = view["fighters"] if only is None else [view["fighters"][only]]
    if only is None and len(fighters) > 2:
        return [(True, False)]
    return [(False, False), (False, True)] + ([(True, False)] if only is None else [])


def _most_dice(fighters: list[dict[str, Any]]) -> int:
    return max([len(f["rolls"]) for f in fighters] + [len(f["dice"] or []) for f in fighters]
               + [1])


def _padded(panel: _Panel, floors: tuple[tuple[str, int], ...]) -> _Panel:
    """The panel with each block at least its floor's height, and a block it lacks now as
    empty room where the layout keeps it."""
    have = {key: (h, paint) for key, h, paint in panel.blocks}
    blocks: list[Block] = []
    for key, floor in floors:
        h, paint = have.pop(key, (0, _nothing))
        blocks.append((key, max(h, floor), paint))
    if have:
        raise ValueError(f"the layout has no room for {sorted(have)}")
    return _Panel(blocks, panel.frame, panel.dim, panel.width, panel.head)


def _nothing(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    pass


def _order_plan(view: dict[str, Any], crowded: bool, content_w: int):
    # Three or more fighters name a target in each chip: a smaller size keeps the words whole.
    of = font(CHIP_SIZE if not crowded and len(view["fighters"]) <= 2 else 15, bold=True)
    chips = _order_chips(view, of, content_w - 20)
    order_widths = [min(_chip_w(t, of), content_w) for t, _ in chips]
    order_pos, order_h = _flow(order_widths, content_w)
    order_block = (24 + order_h + 14) if chips else 0
    return of, chips, order_widths, order_pos, order_block


def _measure(view: dict[str, Any], most: int) -> list[ReplayLayout]:
    """The room each part of the public board takes in each layout it may be drawn in (one
    ReplayLayout per `_candidates`, with this view's own sizes as its floors)."""
    fighters = view["fighters"]
    crowded = len(fighters) > 2
    width = 2 * MARGIN + PANEL_W
    *_, order_block = _order_plan(view, crowded, width - 2 * MARGIN)
    banner_h = _banner_h(view, crowded, width - 2 * MARGIN)
    top = title_bar_height(_subtitle(view), width)
    die = _die_size(most)
    out = []
    for tiles, tight in _candidates(view, None):
        panels = [_tile(view, f) if tiles else _fighter_panel(view, f, die, tight)
                  for f in fighters]
        floors = tuple(tuple((key, h) for key, h, _ in p.blocks) for p in panels)
        out.append(ReplayLayout(most, tiles, tight, floors, top, order_block, banner_h))
    return out


def _merge_floors(a: Floors, b: Floors, order: tuple[str, ...]) -> Floors:
    out = []
    for fa, fb in zip(a, b):
        da, db = dict(fa), dict(fb)
        out.append(tuple((k, max(da.get(k, 0), db.get(k, 0))) for k in order
                         if k in da or k in db))
    return tuple(out)


def _height(layout: ReplayLayout, fighters: int) -> int:
    cols = TILE_COLUMNS if layout.tiles else COLUMNS
    heights = [sum(h for _, h in f) + PAD for f in layout.floors]
    rows = math.ceil(fighters / cols)
    row_h = [max(heights[r * cols:(r + 1) * cols]) for r in range(rows)]
    return (layout.top + MARGIN + sum(row_h) + (rows - 1) * PANEL_GAP + PANEL_GAP
            + layout.order + layout.banner + MARGIN)


def replay_layouts(views: Sequence[dict[str, Any]]) -> list[ReplayLayout]:
    """The layout of each of a replay's public views (in order): each part as large as it is
    at its largest in the steps so far, and the first of the board's layouts (full panels,
    tightened, tiles) that holds all of them within MAX_H. So the board holds still, and
    grows or turns to tiles only at a step that first needs it — and a frame never depends on
    a step after it (nothing about a later reveal shows early)."""
    out: list[ReplayLayout] = []
    kept: list[ReplayLayout] | None = None
    most = 1
    for view in views:
        most = max(most, _most_dice(view["fighters"]))
        now = _measure(view, most)
        if kept is None or len(kept) != len(now):
            kept = now
        else:
            kept = [ReplayLayout(most, k.tiles, k.tight,
                                 _merge_floors(k.floors, n.floors,
                                               TILE_BLOCKS if k.tiles else FULL_BLOCKS),
                                 max(k.top, n.top), max(k.order, n.order),
                                 max(k.banner, n.banner)) for k, n in zip(kept, now)]
        n = len(view["fighters"])
        # The room only grows, so a layout that no longer fits never fits again: once
        # tightened or tiles, the board stays so.
        out.append(next((k for k in kept if _height(k, n) <= MAX_H), kept[-1]))
    return out


def _subtitle(view: dict[str, Any]) -> str:
    subtitle = f"Round {view['round']} of {view['round_limit']} · {PHASES.get(view['phase'])}"
    if view["you"] is not None:
        subtitle += f" · {_who(view, view['you'])}'s own view"
    return subtitle


def _banner_h(view: dict[str, Any], crowded: bool, content_w: int) -> int:
    return _banner_plan(view, crowded, content_w)[-1]


def _banner_plan(view: dict[str, Any], crowded: bool, content_w: int):
    banner = _banner(view)
    bf = font(20 if not crowded else 18, bold=True)          # tiles: a crowded table
    banner_step = 28 if not crowded else 25
    banner_lines = wrap_text(banner, bf, content_w - 32)     # whole, however long
    return bf, banner_step, banner_lines, 16 + banner_step * len(banner_lines)


def _image(view: dict[str, Any], only: int | None = None,
           layout: ReplayLayout | None = None) -> Image.Image:
    """The board; `layout` (a replay's, public views only): drawn in that layout."""
    fighters = view["fighters"] if only is None else [view["fighters"][only]]
    tiles = only is None and len(fighters) > 2
    die = _die_size(_most_dice(fighters) if layout is None else layout.most)
    width = 2 * MARGIN + PANEL_W
    content_w = width - 2 * MARGIN

    of, chips, order_widths, order_pos, order_block = _order_plan(view, tiles, content_w)
    bf, banner_step, banner_lines, banner_h = _banner_plan(view, tiles, content_w)

    subtitle = _subtitle(view)
    top = title_bar_height(subtitle, width)
    # Two full panels, tightened, then tiles: the first that a phone shows whole (MAX_H).
    layouts = _candidates(view, only)
    if layout is not None:
        layouts = [(layout.tiles, layout.tight)]
        top, banner_h = max(top, layout.top), max(banner_h, layout.banner)
    for tiles, tight in layouts:
        cols = TILE_COLUMNS if tiles else COLUMNS
        rows = math.ceil(len(fighters) / cols)
        panels = [_tile(view, f) if tiles else _fighter_panel(view, f, die, tight)
                  for f in fighters]
        if layout is not None:
            panels = [_padded(p, floors) for p, floors in zip(panels, layout.floors)]
        heights = [p.height for p in panels]
        row_h = [max(heights[r * cols:(r + 1) * cols]) for r in range(rows)]
        height = (top + MARGIN + sum(row_h) + (rows - 1) * PANEL_GAP + PANEL_GAP + order_block
                  + banner_h + MARGIN)
        if height <= MAX_H:
            break
    done_chips = [c for c in chips if c[1]["done"]]
    if height > MAX_H and len(done_chips) > 1:
        # Still too tall (five or six fighters): the attacks already made become one chip;
        # their slashes are on the cards, and the alt text keeps the whole order.
        summary = (f"✓ {len(done_chips)} attacks done", {"seat": None, "done": True})
        chips = [summary] + [c for c in chips if not c[1]["done"]]
        order_widths = [min(_chip_w(t, of), content_w) for t, _ in chips]
        order_pos, order_h = _flow(order_widths, content_w)
        height -= order_block - (24 + order_h + 14)
        order_block = 24 + order_h + 14
    if layout is not None and layout.order > order_block:
        # The attack order's room; after the summary above (five or six fighters) only as
        # much as keeps the board within MAX_H.
        grow = layout.order - order_block
        if len(chips) < len(view["attack_order"]):
            grow = max(0, min(grow, MAX_H - height))
        height += grow
        order_block += grow
    img, draw = new_canvas(width, height)
    title_bar(img, "TradeShowdown", subtitle, wrap=True)

    y = top + MARGIN
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if i >= len(panels):
                break
            panel = panels[i]
            pw = panel.width
            x = MARGIN + c * (pw + PANEL_GAP)
            _rounded(draw, (x, y, x + pw, y + row_h[r]), 14, fill=PANEL)
            yy = y
            for _, h, paint in panel.blocks:
                paint(draw, x, yy)
                yy += h
            if panel.dim:
                # a defeated fighter: everything below the header fades
                box = (x, y + panel.head, x + pw, y + row_h[r])
                region = img.crop(box)
                img.paste(Image.blend(region, Image.new("RGB", region.size, PANEL), 0.45), box)
            if panel.frame is not None:
                _rounded(draw, (x - 4, y - 4, x + pw + 4, y + row_h[r] + 4), 17,
                         outline=panel.frame, width=4)
        y += row_h[r] + PANEL_GAP

    if chips:
        draw.text((MARGIN, y + 16), "ATTACK ORDER · lowest depth first, equal depths together",
                  fill=MUTED, font=font(LABEL_SIZE, bold=True), anchor="ls")
        cur = _current_index(view)
        now = view["attack_order"][cur] if cur is not None else None
        for (text, e), (dx, dy), w in zip(chips, order_pos, order_widths):
            cx, cy = MARGIN + dx, y + 24 + dy
            if e["seat"] is None:      # the attacks already made, as one chip
                fill, ink = CHIP, TEXT
            else:
                pc = player_colour(e["seat"])
                fill = mix(pc.fill, PANEL, 0.6) if e["done"] else pc.fill
                ink = mix(pc.text, PANEL, 0.3) if e["done"] else pc.text
            _chip(draw, cx, cy, fit_text(text, of, w - 20), fnt=of, fill=fill, ink=ink,
                  outline=PAPER if e is now else None, width=w)
    y += order_block            # 0 without chips, but for a replay layout's room

    done = view["result"] is not None
    fill = HIGHLIGHT if (done or view["pending"] is not None) else PANEL
    _rounded(draw, (MARGIN, y, width - MARGIN, y + banner_h), 10, fill=fill)
    ink = readable_on(fill) if fill == HIGHLIGHT else TEXT
    for k, line in enumerate(banner_lines):
        draw.text((MARGIN + 16, y + 8 + banner_step * k + banner_step / 2), line, fill=ink,
                  font=bf, anchor="lm")
    return img


# --- alt text -----------------------------------------------------------------------------------

ALT_LEVELS = 7   # ways to say it, from the fullest to the tersest (see `alt_text`)


def _marks(card: dict[str, Any], level: int = 0) -> str:
    """The card as text, as the engine writes it: `6/` one slash, `X` X'd, a bare digit
    untouched. Shorter at higher levels: only the digits not yet X'd, then only their count."""
    if level >= 4:
        left = sum(1 for n in card["slashes"] if n < 2)
        return f"{left} of {len(card['digits'])} digits left"
    out = []
    for d, n in zip(card["digits"], card["slashes"]):
        if n >= 2 and level >= 2:
            continue
        out.append("X" if n >= 2 else f"{d}/" if n else str(d))
    if level >= 2:
        return f"left {' '.join(out)}" if out else "all X'd"
    return " ".join(out)


def _fighter_terse(view: dict[str, Any], f: dict[str, Any]) -> str:
    """The least that still describes a fighter: digits left, the sets as width×height."""
    card = f["cards"][f["active"]]
    text = f"{_alt_name(view, f['seat'])}: {card['name']}"
    if not f["standing"]:
        return text + " (defeated)."
    text += f": {_marks(card, 4)}"
    if _shows_round(view, f) and f["rolls"]:
        if f.get("plan") is not None:
            sets, word = f["plan"]["attacks"], "your plan"
        elif view["phase"] in ("attack", "over"):
            sets, word = f["attacks"], "attacks"
        else:
            sets, word = f["sets"], "sets"
        text += f"; depth {f['depth']}, {word} " + (
            " ".join(f"{a['width']}×{a['height']}" for a in sets) or "none")
    if f["target"] is not None and len(view["fighters"]) > 2 and _shows_round(view, f):
        text += f"; target {_alt_name(view, f['target'])}"
    return text + "."


def _fighter_alt(view: dict[str, Any], f: dict[str, Any], level: int) -> str:
    if level >= ALT_LEVELS - 1:
        return _fighter_terse(view, f)
    s = f["seat"]
    card = f["cards"][f["active"]]
    head = f"{_alt_name(view, s)}: {card['name']}"
    if len(f["cards"]) > 1:
        other = f["cards"][1 - f["active"]]
        if level < 2:
            head += f" (partner {other['name']}{', out' if other['out'] else ''})"
        elif other["out"]:
            head += " (partner out)"
    head += ", standing" if f["standing"] else ", defeated"
    bits = [head, f"card {_marks(card, level)}", f"{f['slashes_taken']} slashes taken"]
    if level < 3:
        if f["combo"]:
            bits.append(f"combo {len(f['combo'])}/5")
        bits.extend(_effects(f))
    if _shows_round(view, f):
        if f["rolls"]:
            label, chips = _set_chips(view, f)
            mine = "your plan: " if f.get("plan") is not None else ""
            rolled = (f"rolled {' '.join(str(r['value']) for r in f['rolls'])}" if level < 5
                      else f"depth {f['depth']}")
            bits.append(f"{rolled}, {mine}" + "; ".join(chips))
            if f.get("plan") and f["plan"]["aside"]:
                bits.append("setting aside " + " ".join(
                    str(f["rolls"][i]["value"]) for i in f["plan"]["aside"]) + " for the combo")
        elif f["dice"] is not None:
            bits.append("dice " + " ".join(f"d{d}" for d in sorted(f["dice"])))
        if f["target"] is not None and len(view["fighters"]) > 2 and f["standing"]:
            bits.append(f"target {_alt_name(view, f['target'])}")
    return ", ".join(bits) + "."



def alt_text(view: dict[str, Any], only: int | None = None) -> str:
    """A description from the view: what happens now first, then each fighter's card, roll and
    sets, then the attack order. With many fighters or long cards it says less about each
    rather than be cut off at Discord's limit: the attack order shortened, then only the
    digits still in play, no lasting effects, only a count of digits left, the sets without
    the single dice, and at last a terse line per fighter."""
    for level in range(ALT_LEVELS):
        parts = [f"TradeShowdown, round {view['round']} of {view['round_limit']}, "
                 f"{PHASES.get(view['phase'], view['phase'])}. {_banner(view)}."]
        if view["you"] is not None:
            parts.append(f"{_alt_name(view, view['you'])}'s own view.")
        if level == ALT_LEVELS - 1:
            parts.append("Sets as width×height.")
        parts.extend(_fighter_alt(view, f, level) for f in view["fighters"]
                     if only is None or f["seat"] == only)
        if view["attack_order"]:
            if level == 0:
                order = ", ".join(t.replace("✓ ", "done: ").replace("▶ ", "now: ")
                                  for t, _ in _order_chips(view))
            else:
                order = ", ".join(_who(view, e["seat"]) for e in view["attack_order"]
                                  if not e["done"]) or "all done"
            parts.append(f"Attack order: {order}.")
        text = " ".join(parts)
        if len(text) <= MAX_ALT_CHARS:
            break
    return text


__all__ = ["alt_text", "card_height", "draw_card", "public_picture", "render", "render_card",
           "seat_picture", "live_board"]
