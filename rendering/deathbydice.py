"""Death by Dice pictures: every character board side by side, the score, and the last attack.

`render(view)` draws a game from `game.view(seat_or_None)` and nothing else, so a public view
during the secret set-up shows "?" dice (the view holds no values), and a seat's own view adds
only that seat's set-up roll or placement (`view["you"]["setup"]`). `render_roster()` draws the
six characters from the engine's data table for `/deathbydice characters`.

A board is the rulebook's ring of six Ability boxes, laid out as a hexagon joined by a track so
the wrap (Luck next to Strength) is as visible as every other adjacency:

          STR
    LUCK       AGI
        total
    CON        FOR
          SMA

Each box: the ability's name, the die with its size tag and standing value (a grey empty slot
once discarded; a dark "no die" box where the board has none), and its link colour as the
box's border plus a named pill (red, blue, green; white links nothing), so colour is never the
only cue. Values are numerals on every die, the d6 included: the game adds and compares
numbers, and pips beside numerals would make the reader count.

The attack (in progress, else the last one this combat) is ringed on the boards, with arrows
from the attacking dice to the target, and spelled out in a strip below: the rolled dice, any
assist, the target's value and defense, "total vs against" and WON / LOST.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from PIL import ImageDraw

from bot.engine.deathbydice.data import (ABILITIES, ABILITY_NAMES, COLOURS, ROSTER,
                                         SPECIAL_TABLE, Box, Character)
from bot.engine.deathbydice.view import board_text
from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import (BACKGROUND, DIE_COLOURS, GRID, HIGHLIGHT, MUTED, PANEL,
                               PAPER, PLAIN_DIE, TEXT, Colour, hex_colour, mix, player_colour,
                               readable_on)
from rendering.dice import draw_die
from rendering.fonts import font
from rendering.picture import MAX_ALT_CHARS, Picture, clip_alt, to_png
from rendering.shapes import draw_arrow, draw_rounded, rounded_mask, stamp
from rendering.text import draw_centred, fit_text, wrap_text

# --- geometry ------------------------------------------------------------------------------------

BOX_W, BOX_H = 112, 124          # one Ability box
DIE = 60                         # the die inside it
RX, RY = 124, 134                # box centres sit on a hexagon of these half-axes
RING_W, RING_H = 2 * RX + BOX_W, 2 * RY + BOX_H
PAD = 14                         # inside a board panel
PANEL_W = RING_W + 2 * PAD
HEAD_H = 40                      # the name plate
SPECIAL_H = 40                   # the special's line under the ring
PRIVATE_H = 92                   # "your set-up roll" row, only in a seat's own view
GAP = 18                         # between panels
SCORE_H = 62                     # the side chips under the title
STRIP_H = 136                    # the attack strip
STRIP_NOTE = 26                  # its line of discards and re-rolls
STRIP_DIE = 58                   # dice in the strip, and its fonts
NUM_FONT, LABEL_FONT = 28, 13
FOOTER_LINE = 24
MIN_WIDTH = 2 * PANEL_W + GAP + 2 * MARGIN

# Unit positions of the six boxes, clockwise from Strength at the top (data.ABILITIES order).
RING_UNIT: dict[str, tuple[float, float]] = dict(zip(
    ABILITIES, ((0, -1), (1, -0.5), (1, 0.5), (0, 1), (-1, 0.5), (-1, -0.5))))

ROSTER_DESC_H = 64               # the special's description on a roster board
ARROW_W, ARROW_HEAD = 6, 24      # the attack arrow across the boards

Point = tuple[float, float]

# --- colours -------------------------------------------------------------------------------------

LINK: dict[str, Colour] = {letter: DIE_COLOURS[name].fill for letter, name in COLOURS.items()}
WON = hex_colour("#2f9e55")
LOST = hex_colour("#d62f3a")
TARGET_RING = hex_colour("#ff6b5e")   # the die under attack (attacking dice: HIGHLIGHT)
BOX_FILL = BACKGROUND
NO_DIE_FILL = mix(PANEL, BACKGROUND, 0.55)

ATTACK_NAMES = {"ability": "Ability Attack", "boosted": "Boosted Ability Attack",
                "complex": "Complex Attack"}
STAGE_NOTES = {"setup_roll": "secret set-up", "setup": "secret set-up"}


# --- small helpers -------------------------------------------------------------------------------

def _pill(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: Colour, *,
          size: int = 12, ink: Colour | None = None, pad: int = 7) -> tuple[int, int, int, int]:
    """A small rounded label centred on `centre`; returns its box."""
    fnt = font(size, bold=True)
    w = round(fnt.getlength(text)) + 2 * pad
    h = size + 8
    x0, y0 = round(centre[0] - w / 2), round(centre[1] - h / 2)
    box = (x0, y0, x0 + w, y0 + h)
    draw_rounded(draw, box, h / 2, fill=fill)
    draw_centred(draw, (x0 + w / 2, y0 + h / 2), text, font=fnt,
                 fill=ink if ink is not None else readable_on(fill))
    return box


def _panel(draw: ImageDraw.ImageDraw, box: Sequence[float], radius: int, *,
           fill: Colour | None = None, outline: Colour | None = None, width: int = 1) -> None:
    """`draw_rounded` for big boxes, drawn in pieces: plain rectangles for the straight parts
    and the shared smooth masks only at the four corners. The same look, but a board panel
    costs a tenth of the time (stamping a whole-panel mask blends every pixel of it)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    r = radius
    if x1 - x0 < 2 * r + 2 or y1 - y0 < 2 * r + 2:
        draw_rounded(draw, (x0, y0, x1, y1), r, fill=fill, outline=outline, width=width)
        return
    corners = ((x0, y0, 0, 0), (x1 - r, y0, r, 0), (x0, y1 - r, 0, r), (x1 - r, y1 - r, r, r))
    if fill is not None:
        draw.rectangle((x0 + r, y0, x1 - r - 1, y1 - 1), fill=fill)
        draw.rectangle((x0, y0 + r, x1 - 1, y1 - r - 1), fill=fill)
        disc = rounded_mask(2 * r, 2 * r, r)
        for x, y, cx, cy in corners:
            stamp(draw, (x, y), disc.crop((cx, cy, cx + r, cy + r)), fill)
    if outline is not None and width > 0:
        w = width
        draw.rectangle((x0 + r, y0, x1 - r - 1, y0 + w - 1), fill=outline)
        draw.rectangle((x0 + r, y1 - w, x1 - r - 1, y1 - 1), fill=outline)
        draw.rectangle((x0, y0 + r, x0 + w - 1, y1 - r - 1), fill=outline)
        draw.rectangle((x1 - w, y0 + r, x1 - 1, y1 - r - 1), fill=outline)
        ring = rounded_mask(2 * r, 2 * r, r, w)
        for x, y, cx, cy in corners:
            stamp(draw, (x, y), ring.crop((cx, cy, cx + r, cy + r)), outline)


def _pill_width(text: str, size: int = 12, pad: int = 7) -> int:
    return round(font(size, bold=True).getlength(text)) + 2 * pad


def _face(value: int | str | None, size: int) -> tuple[int | str | None, int]:
    """(value, sides) for draw_die: numerals on every die (a d6's value as text, not pips)."""
    if isinstance(value, int) and size == 6:
        return str(value), size
    return value, size


def _box_at(origin: tuple[int, int], ability: str) -> tuple[int, int, int, int]:
    """The Ability box of `ability` on a ring whose top-left corner is `origin`."""
    ux, uy = RING_UNIT[ability]
    cx = origin[0] + RING_W / 2 + ux * RX
    cy = origin[1] + RING_H / 2 + uy * RY
    x0, y0 = round(cx - BOX_W / 2), round(cy - BOX_H / 2)
    return x0, y0, x0 + BOX_W, y0 + BOX_H


def _die_box(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, _ = box
    left = x0 + (x1 - x0 - DIE) // 2
    top = y0 + 28
    return left, top, left + DIE, top + DIE


def _centre(box: Sequence[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _edge_point(box: Sequence[float], towards: tuple[float, float],
                margin: float = 4) -> tuple[float, float]:
    """Where the ray from the centre of `box` towards `towards` leaves the box (+ margin)."""
    cx, cy = _centre(box)
    dx, dy = towards[0] - cx, towards[1] - cy
    hw, hh = (box[2] - box[0]) / 2 + margin, (box[3] - box[1]) / 2 + margin
    scale = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale


def _grid(n: int) -> int:
    """Boards per row: two side by side, three in a row, four as 2 x 2, five or six 3 x 2."""
    return 2 if n in (1, 2, 4) else 3


# --- one Ability box -----------------------------------------------------------------------------

def _draw_cell(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], ability: str,
               size: int | None, colour: str | None, face: int | str | None, state: str, *,
               ring: Colour | None = None, secret: bool = False) -> None:
    """One Ability box. `state`: standing | discarded | none | hidden | blank (roster).

    `face` is what the die shows (a value, "?" or a size); `secret` marks a value only the
    viewer can see (their own placement during the secret set-up)."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    name = ABILITY_NAMES[ability]
    if state == "none" or size is None:
        _panel(draw, box, 12, fill=NO_DIE_FILL, outline=GRID, width=2)
        draw_centred(draw, (cx, y0 + 16), fit_text(name, font(15, bold=True), BOX_W - 12),
                     font=font(15, bold=True), fill=MUTED)
        draw_centred(draw, (cx, (y0 + y1) / 2 + 8), "no die", font=font(15), fill=MUTED)
        return
    link = LINK.get(colour or "W", PLAIN_DIE.fill)
    out = state == "discarded"
    border = mix(link, BOX_FILL, 0.55) if out else link
    _panel(draw, box, 12, fill=BOX_FILL, outline=border, width=4)
    draw_centred(draw, (cx, y0 + 16), fit_text(name, font(15, bold=True), BOX_W - 12),
                 font=font(15, bold=True), fill=MUTED if out else TEXT)
    dbox = _die_box(box)
    label = f"d{size}"
    if out:
        draw_die(draw, dbox, None, sides=size, label=label, highlight=ring)
    elif state == "blank":
        draw_die(draw, dbox, label, sides=size, highlight=ring)
    else:
        value, sides = _face(face, size)
        if secret:
            fill = mix(PLAIN_DIE.fill, HIGHLIGHT, 0.35)
            draw_die(draw, dbox, value, sides=sides, label=label, highlight=ring, fill=fill)
        else:
            draw_die(draw, dbox, value, sides=sides, label=label, highlight=ring)
    word = COLOURS.get(colour or "W", "white").upper()
    _pill(draw, (cx, y1 - 15), word, border, size=11)


def _draw_track(draw: ImageDraw.ImageDraw, origin: tuple[int, int]) -> None:
    """The hexagonal track joining neighbouring boxes, Luck back to Strength included."""
    centres = [_centre(_box_at(origin, a)) for a in ABILITIES]
    for i in range(len(ABILITIES)):
        draw.line([centres[i], centres[(i + 1) % len(ABILITIES)]], fill=GRID, width=8)


def _draw_cells(draw: ImageDraw.ImageDraw, origin: tuple[int, int],
                cells: Iterable[dict[str, Any]], centre_big: str, centre_small: str,
                rings: dict[str, Colour] | None = None) -> None:
    """The six boxes on the track, and a number in the middle."""
    rings = rings or {}
    for c in cells:
        _draw_cell(draw, _box_at(origin, c["ability"]), c["ability"], c["die"], c["colour"],
                   c.get("face"), c["state"], ring=rings.get(c["ability"]),
                   secret=c.get("secret", False))
    mx, my = origin[0] + RING_W / 2, origin[1] + RING_H / 2
    # A plate under the number, so an attack arrow passing behind the board never crosses it.
    _panel(draw, (mx - 62, my - 56, mx + 62, my + 46), 14, fill=PANEL)
    draw_centred(draw, (mx, my - 28), centre_small, font=font(13, bold=True), fill=MUTED)
    big = font(44 if len(centre_big) <= 2 else 36, bold=True)
    draw_centred(draw, (mx, my + 8), centre_big, font=big, fill=TEXT)


# --- a fighter's board ---------------------------------------------------------------------------

def _status(v: dict[str, Any], f: dict[str, Any]) -> tuple[str, Colour] | None:
    """A board's status badge: winner, attacker, defender, set-up progress."""
    result = v.get("result")
    if result is not None:
        return ("WINNER", HIGHLIGHT) if f["seat"] in result["winners"] else None
    if f["ready"] is not None:
        return ("✓ SET UP", WON) if f["ready"] else ("SETTING UP", GRID)
    attack = v.get("attack")
    if attack and v["stage"] in ("defend", "thick_skull") and \
            attack["target"].split(":")[0] == f["id"]:
        return "DEFENDING", TARGET_RING
    if v.get("active") == f["id"]:
        return "ATTACKING", HIGHLIGHT
    return None


def _private_setup(v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """This viewer's own secret set-up per fighter id (empty in the public view)."""
    you = v.get("you") or {}
    return {s["fighter"]: s for s in you.get("setup", []) if s.get("rolled")}


def _fighter_cells(f: dict[str, Any], mine: dict[str, Any] | None) -> list[dict[str, Any]]:
    arranged = (mine or {}).get("arranged") or {}
    cells = []
    for c in f["board"]:
        cell = dict(c)
        if c["state"] == "standing":
            cell["face"] = c["value"]
        elif c["state"] == "hidden":
            if c["ability"] in arranged:
                cell.update(face=arranged[c["ability"]], state="standing", secret=True)
            else:
                cell["face"] = "?"
        cells.append(cell)
    return cells


def _panel_box(origin: tuple[int, int], height: int) -> tuple[int, int, int, int]:
    return origin[0], origin[1], origin[0] + PANEL_W, origin[1] + height


def _ring_origin(origin: tuple[int, int]) -> tuple[int, int]:
    return origin[0] + PAD, origin[1] + PAD + HEAD_H + 6


def _draw_frame(draw: ImageDraw.ImageDraw, origin: tuple[int, int], height: int,
                v: dict[str, Any], f: dict[str, Any]) -> None:
    """The panel, the name plate in the seat's colour, the role and status badges."""
    x, y = origin
    seat = player_colour(f["seat"])
    status = _status(v, f)
    lit = status is not None and status[0] in ("ATTACKING", "WINNER")
    _panel(draw, _panel_box(origin, height), 16, fill=PANEL,
           outline=HIGHLIGHT if lit else GRID, width=4 if lit else 2)
    plate = (x + PAD - 4, y + PAD - 4, x + PANEL_W - PAD + 4, y + PAD - 4 + HEAD_H)
    _panel(draw, plate, 10, fill=seat.fill)
    name_font = font(21, bold=True)
    draw.text((plate[0] + 10, (plate[1] + plate[3]) / 2),
              fit_text(f"{f['id']} {f['character']}", name_font, plate[2] - plate[0] - 20),
              font=name_font, fill=seat.text, anchor="lm")
    # Badges in the ring's empty top corners: the role on the left, the status on the right.
    rx, ry = _ring_origin(origin)
    badge_y = ry + 14
    role = {"boss": "BOSS", "minion": "MINION"}.get(f["role"])
    if role:
        _pill(draw, (rx + 4 + _pill_width(role, 13) / 2, badge_y), role, seat.fill, size=13)
    if status:
        text, fill = status
        _pill(draw, (rx + RING_W - 4 - _pill_width(text, 13) / 2, badge_y), text, fill,
              size=13)


def _draw_body(draw: ImageDraw.ImageDraw, origin: tuple[int, int], f: dict[str, Any],
               mine: dict[str, Any] | None, rings: dict[str, Colour]) -> None:
    """The boxes with their dice, the total, the special, and the viewer's own set-up."""
    ring_origin = _ring_origin(origin)
    total = f["total"]
    small = "TOTAL"
    if total is None and mine and mine.get("arranged"):
        total, small = sum(mine["arranged"].values()), "YOUR TOTAL"
    _draw_cells(draw, ring_origin, _fighter_cells(f, mine),
                "?" if total is None else str(total), small, rings)
    sy = ring_origin[1] + RING_H + 8
    _draw_special(draw, (ring_origin[0], sy), f["special"]["name"], f["special"]["used"])
    if mine is not None:
        _draw_private(draw, (ring_origin[0], sy + SPECIAL_H), mine)


def _draw_special(draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str,
                  used: bool | None) -> None:
    x, y = xy
    mid = y + SPECIAL_H / 2
    fnt = font(18, bold=True)
    text = f"★ {name}"
    draw.text((x + 4, mid), text, font=fnt, fill=MUTED if used else TEXT, anchor="lm")
    if used:
        w = fnt.getlength(text)
        draw.line([(x + 26, mid + 1), (x + 4 + w, mid + 1)], fill=MUTED, width=2)
    if used is not None:
        tag = "USED" if used else "READY"
        w = _pill_width(tag, 13)
        _pill(draw, (x + RING_W - w / 2, mid), tag, GRID if used else WON, size=13)


def _draw_private(draw: ImageDraw.ImageDraw, xy: tuple[int, int], mine: dict[str, Any]) -> None:
    """The viewer's own set-up roll (only in their private view): the dice to place."""
    x, y = xy
    _panel(draw, (x, y, x + RING_W, y + PRIVATE_H - 8), 10,
           fill=mix(PANEL, HIGHLIGHT, 0.08), outline=HIGHLIGHT, width=2)
    caption = ("Your set-up (only you see it)" if mine.get("arranged")
               else "Your secret roll — place these")
    draw.text((x + 10, y + 16), caption, font=font(14, bold=True), fill=HIGHLIGHT, anchor="lm")
    side = 46
    rolled = mine["rolled"]
    step = min(side + 10, (RING_W - 20) // max(1, len(rolled)))
    for i, r in enumerate(rolled):
        left = x + 10 + i * step
        value, sides = _face(r["value"], r["die"])
        draw_die(draw, (left, y + 30, left + side, y + 30 + side), value, sides=sides,
                 label=f"d{r['die']}")


# --- the attack ----------------------------------------------------------------------------------

def _cell_of(v: dict[str, Any], die_ref: str) -> dict[str, Any] | None:
    fid, _, ability = die_ref.partition(":")
    for f in v["fighters"]:
        if f["id"] == fid:
            for c in f["board"]:
                if c["ability"] == ability:
                    return c
    return None


def _fighter(v: dict[str, Any], fid: str) -> dict[str, Any] | None:
    return next((f for f in v["fighters"] if f["id"] == fid), None)


def _attack_rings(a: dict[str, Any] | None) -> dict[str, dict[str, Colour]]:
    """fighter id -> {ability: ring colour} for the dice an attack involves."""
    if a is None:
        return {}
    rings: dict[str, dict[str, Colour]] = {}
    for d in a["dice"]:
        rings.setdefault(a["attacker"], {})[d] = HIGHLIGHT
    tid, _, ability = a["target"].partition(":")
    rings.setdefault(tid, {})[ability] = TARGET_RING
    return rings


def _attack_labels(v: dict[str, Any], a: dict[str, Any]) -> str:
    def label(fid: str) -> str:
        f = _fighter(v, fid)
        if f is None:
            return fid
        return f"{fid} {'Boss ' if f['role'] == 'boss' else ''}{f['character']}"
    tid, _, tab = a["target"].partition(":")
    return f"{label(a['attacker'])} → {label(tid)} {ABILITY_NAMES.get(tab, tab)}"


def _attack_notes(a: dict[str, Any]) -> list[str]:
    notes = []
    if a["misdirected_from"]:
        notes.append(f"Misdirection: moved from {a['misdirected_from']}")
    if a["loaded"] and a["loaded"].get("to") is not None:
        ld = a["loaded"]
        notes.append(f"Loaded Dice: {ld['die']} {ld['from']} → {ld['to']}")
    if a["saved"]:
        notes.append(f"Thick Skull: {a['saved']['die']} {a['saved']['from']} → "
                     f"{a['saved']['to']}")
    if a["discarded"]:
        notes.append("Discarded: " + ", ".join(
            f"{d['die']} ({d['value']}{', hit' if d['why'] == 'hit' else ''})"
            for d in a["discarded"]))
    if a["rerolled"]:
        notes.append("Re-rolled: " + ", ".join(f"{r['die']} {r['from']} → {r['to']}"
                                                 for r in a["rerolled"]))
    return notes


def _strip_height(a: dict[str, Any] | None) -> int:
    if a is None:
        return 0
    return STRIP_H + (STRIP_NOTE if _attack_notes(a) else 0)


def _draw_attack_strip(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                       v: dict[str, Any], a: dict[str, Any], live: bool) -> None:
    """The attack as a sum: attacking dice (+ assist) → target die (+ defense): total vs
    against, WON or LOST; what happened to which dice on the line below."""
    x0, y0, x1, y1 = box
    _panel(draw, box, 14, fill=PANEL, outline=GRID, width=2)
    kind = ATTACK_NAMES[a["type"]]
    if a["cheap_shot"]:
        kind += " (Cheap Shot)"
    if a["rampage"]:
        kind += " (Rampage)"
    head = f"{'Attack' if live else 'Last attack'}: {kind} · {_attack_labels(v, a)}"
    hf = font(17, bold=True)
    draw.text((x0 + 14, y0 + 20), fit_text(head, hf, x1 - x0 - 28), font=hf,
              fill=HIGHLIGHT if live else TEXT, anchor="lm")

    side = STRIP_DIE
    top = y0 + 42
    mid = top + side / 2
    label_y = top + side + 15
    small = font(LABEL_FONT, bold=True)
    num = font(NUM_FONT, bold=True)
    x = float(x0 + 18)

    def die_item(value: int | str | None, size: int, caption: str, ring: Colour) -> None:
        nonlocal x
        w = max(side, small.getlength(caption))
        left = x + (w - side) / 2
        face, sides = _face(value, size)
        draw_die(draw, (left, top, left + side, top + side), face, sides=sides,
                 label=f"d{size}", highlight=ring)
        draw_centred(draw, (x + w / 2, label_y), caption, font=small, fill=MUTED)
        x += w + 12

    def number_item(text: str, caption: str) -> None:
        nonlocal x
        w = max(num.getlength(text), small.getlength(caption))
        draw_centred(draw, (x + w / 2, mid), text, font=num, fill=TEXT)
        draw_centred(draw, (x + w / 2, label_y), caption, font=small, fill=MUTED)
        x += w + 12

    rolls = a.get("rolls") or {}
    att = _fighter(v, a["attacker"])
    sizes = {c["ability"]: c["die"] for c in att["board"]} if att else {}
    for i, d in enumerate(a["dice"]):
        if i:
            number_item("+", "")
        die_item(rolls.get(d), sizes.get(d) or 6, f"{a['attacker']}:{d}", HIGHLIGHT)
    if a["assist"]:
        number_item(f"+{a['bonus']}", f"{a['assist']} assist")
    draw_arrow(draw, (x, mid), (x + 52, mid), HIGHLIGHT, 6)
    x += 64
    cell = _cell_of(v, a["target"])
    tsize = (cell or {}).get("die") or 6
    tval = a["target_value"]
    if tval is None and cell is not None and cell["state"] == "standing":
        tval = cell["value"]
    die_item(tval, tsize, a["target"], TARGET_RING)
    if a["defense"]:
        dfn = a["defense"]
        number_item(f"+{dfn['bonus']}", f"{dfn['type']} {dfn['die']}")
    x += 6
    if a["result"]:
        big = font(36, bold=True)
        score = f"{a['total']} vs {a['against']}"
        draw.text((x, mid), score, font=big, fill=TEXT, anchor="lm")
        rule = (f"{a['against']} or more wins" if a["type"] == "ability"
                else f"more than {a['against']} wins")
        draw.text((x, label_y), rule, font=small, fill=MUTED, anchor="lm")
        x += big.getlength(score) + 14
        word = "WON" if a["result"] == "won" else "LOST"
        _pill(draw, (x + _pill_width(word, 22, 12) / 2, mid), word,
              WON if a["result"] == "won" else LOST, size=22, pad=12, ink=PAPER)
    else:
        waiting = "awaiting the defense" if v["stage"] == "defend" else "rolling…"
        draw.text((x, mid), waiting, font=font(20, bold=True), fill=MUTED, anchor="lm")

    notes = _attack_notes(a)
    if notes:
        nf = font(15)
        draw.text((x0 + 14, y1 - 18), fit_text(" · ".join(notes), nf, x1 - x0 - 28),
                  font=nf, fill=TEXT, anchor="lm")


def _arrow_path(a: dict[str, Any], origins: dict[str, tuple[int, int]]
                ) -> tuple[list[Point], Point, Point] | None:
    """(starts, junction, end): one shaft from each attacking die to a junction, then one
    head into the target's box, so a Complex Attack's arrows meet before the target."""
    tid, _, tab = a["target"].partition(":")
    if a["attacker"] not in origins or tid not in origins or tab not in ABILITIES:
        return None
    starts = [_centre(_die_box(_box_at(origins[a["attacker"]], d)))
              for d in a["dice"] if d in ABILITIES]
    if not starts:
        return None
    mean = (sum(p[0] for p in starts) / len(starts), sum(p[1] for p in starts) / len(starts))
    end = _edge_point(_box_at(origins[tid], tab), mean, 3)
    length = math.dist(mean, end)
    if length < 2 * ARROW_HEAD:
        return None
    back = min(ARROW_HEAD + 18, length / 2) / length
    junction = (end[0] + (mean[0] - end[0]) * back, end[1] + (mean[1] - end[1]) * back)
    return starts, junction, end


def _draw_arrow_shafts(draw: ImageDraw.ImageDraw, path: tuple[list[Point], Point, Point] | None
                       ) -> None:
    """Drawn before the boxes: the shafts show in the gaps and between boards, never over a
    die."""
    if path is None:
        return
    starts, junction, _ = path
    for colour, width in ((BACKGROUND, ARROW_W + 6), (HIGHLIGHT, ARROW_W)):
        for start in starts:
            if math.dist(start, junction) > width:
                draw_arrow(draw, start, junction, colour, width, head=width)


def _draw_arrow_head(draw: ImageDraw.ImageDraw, path: tuple[list[Point], Point, Point] | None
                     ) -> None:
    """Drawn after the boxes, so the head shows at the target even over a neighbour."""
    if path is None:
        return
    _, junction, end = path
    draw_arrow(draw, junction, end, BACKGROUND, ARROW_W + 6, head=ARROW_HEAD + 5)
    draw_arrow(draw, junction, end, HIGHLIGHT, ARROW_W, head=ARROW_HEAD)


# --- the whole picture ---------------------------------------------------------------------------

def _subtitle(v: dict[str, Any]) -> str:
    parts = [f"Combat {v['combat']}" + (f" · best of {v['best_of']}" if v["best_of"] > 1
                                        else " · single combat")]
    if v["mode"] == "boss":
        parts.append("Bosses & Minions")
    elif v["mode"] == "free-for-all":
        parts.append("free-for-all")
    if v["stage"] in STAGE_NOTES and v["result"] is None:
        parts.append(STAGE_NOTES[v["stage"]])
    elif v["turn"]:
        parts.append(f"turn {v['turn']}/{v['turn_limit']}")
    return " · ".join(parts)


def _score_cols(sides: int, width: int) -> int:
    """Side chips per row: all in one row up to three (or when the picture is wide)."""
    return sides if sides <= 3 or width >= 320 * sides else math.ceil(sides / 2)


def _draw_scores(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                 v: dict[str, Any]) -> None:
    """One chip per side: its colour, name, standing total and combats won."""
    x0, y0, x1, _ = box
    sides = v["sides"]
    cols = _score_cols(len(sides), x1 - x0)
    gap = 12
    w = (x1 - x0 - gap * (cols - 1)) / cols
    winners = set((v.get("result") or {}).get("winners", []))
    wins_font, cap_font = font(32, bold=True), font(13, bold=True)
    name_font, total_font = font(18, bold=True), font(15)
    for i, s in enumerate(sides):
        r, c = divmod(i, cols)
        cx0 = round(x0 + c * (w + gap))
        cx1 = round(cx0 + w)
        cy0 = y0 + r * (SCORE_H + 10)
        cy1 = cy0 + SCORE_H
        won = bool(winners) and bool(s["seats"]) and set(s["seats"]) <= winners
        _panel(draw, (cx0, cy0, cx1, cy1), 12, fill=PANEL,
               outline=HIGHLIGHT if won else GRID, width=3 if won else 2)
        colour = player_colour(s["seats"][0]).fill if s["seats"] else MUTED
        draw_rounded(draw, (cx0 + 8, cy0 + 9, cx0 + 16, cy1 - 9), 4, fill=colour)
        wins = str(s["wins"])
        draw.text((cx1 - 14, (cy0 + cy1) / 2 + 2), wins, font=wins_font, fill=TEXT,
                  anchor="rm")
        cap_x = cx1 - 20 - wins_font.getlength(wins)
        draw.text((cap_x, (cy0 + cy1) / 2 + 2), "WINS", font=cap_font, fill=MUTED,
                  anchor="rm")
        room = cap_x - cap_font.getlength("WINS") - 10 - (cx0 + 26)
        draw.text((cx0 + 26, cy0 + 20), fit_text(s["name"], name_font, room),
                  font=name_font, fill=TEXT, anchor="lm")
        total = "total ?" if s["total"] is None else f"total {s['total']}"
        draw.text((cx0 + 26, cy1 - 17), fit_text(total, total_font, room),
                  font=total_font, fill=MUTED, anchor="lm")


def _scores_height(v: dict[str, Any], width: int) -> int:
    rows = math.ceil(len(v["sides"]) / _score_cols(len(v["sides"]), width - 2 * MARGIN))
    return rows * SCORE_H + (rows - 1) * 10


def _footer_lines(v: dict[str, Any]) -> list[tuple[str, Colour, bool]]:
    lines: list[tuple[str, Colour, bool]] = []
    if v["result"] is not None:
        lines.append(("Match over: " + v["result"]["reason"] + ".", HIGHLIGHT, True))
    elif v["prompt"]:
        lines.append(("Now: " + v["prompt"].replace("`", ""), TEXT, True))
    names = {i: s["name"] for i, s in enumerate(v["sides"])}
    done = []
    for c in v["combats"]:
        who = names.get(c["winner"], "?") if c["winner"] is not None else "draw"
        done.append(f"Combat {c['combat']}: {who} ({'–'.join(map(str, c['totals']))})")
    if done:
        lines.append((" · ".join(done), MUTED, False))
    return lines


def render(view: dict[str, Any]) -> Picture:
    """The table as `view` shows it: title, scores, every board, the attack, what is awaited.

    Works for the public view and for a seat's own view (which adds that seat's secret set-up
    roll or placement and nothing else)."""
    v = view
    fighters = v["fighters"]
    n = len(fighters)
    cols = _grid(n)
    rows = math.ceil(n / cols)
    private = _private_setup(v)
    panel_h = PAD + HEAD_H + 6 + RING_H + 8 + SPECIAL_H + (PRIVATE_H if private else 0) + 6
    width = max(MIN_WIDTH, cols * PANEL_W + (cols - 1) * GAP + 2 * MARGIN)
    attack = v["attack"] or v["last_attack"]
    footer = _footer_lines(v)

    subtitle = _subtitle(v)
    score_y = title_bar_height(subtitle) + 14
    boards_y = score_y + _scores_height(v, width) + 14
    boards_h = rows * panel_h + (rows - 1) * GAP
    strip_y = boards_y + boards_h + 14
    strip_h = _strip_height(attack)
    footer_y = strip_y + (strip_h + 10 if attack else 0)
    height = footer_y + len(footer) * FOOTER_LINE + MARGIN - 4

    img, draw = new_canvas(width, height)
    title_bar(img, v["title"], subtitle)
    _draw_scores(draw, (MARGIN, score_y, width - MARGIN, boards_y - 14), v)

    origins: dict[str, tuple[int, int]] = {}
    grid_w = cols * PANEL_W + (cols - 1) * GAP
    left = (width - grid_w) // 2
    for i, f in enumerate(fighters):
        r, c = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        row_left = left + (grid_w - (in_row * PANEL_W + (in_row - 1) * GAP)) // 2
        origins[f["id"]] = (row_left + c * (PANEL_W + GAP), boards_y + r * (panel_h + GAP))

    # Layers: panels, tracks, arrow shafts, boxes and dice, arrow heads.
    for f in fighters:
        _draw_frame(draw, origins[f["id"]], panel_h, v, f)
        _draw_track(draw, _ring_origin(origins[f["id"]]))
    rings = _attack_rings(attack)
    path = _arrow_path(attack, {k: _ring_origin(o) for k, o in origins.items()}) \
        if attack else None
    _draw_arrow_shafts(draw, path)
    for f in fighters:
        _draw_body(draw, origins[f["id"]], f, private.get(f["id"]), rings.get(f["id"], {}))
    _draw_arrow_head(draw, path)

    if attack:
        _draw_attack_strip(draw, (MARGIN, strip_y, width - MARGIN, strip_y + strip_h), v,
                           attack, live=v["attack"] is not None)
    y = footer_y + FOOTER_LINE / 2
    for text, colour, bold in footer:
        fnt = font(17 if bold else 15, bold=bold)
        draw.text((MARGIN, y), fit_text(text, fnt, width - 2 * MARGIN), font=fnt,
                  fill=colour, anchor="lm")
        y += FOOTER_LINE
    return to_png(img, alt_text(v), f"deathbydice-combat{v['combat']}.png")


def alt_text(view: dict[str, Any]) -> str:
    """The engine's own text of the view (`view.board_text`), shortened to fit an attachment
    description when many boards make it long."""
    text = board_text(view)
    if len(text) <= MAX_ALT_CHARS:
        return text
    # Many boards: drop the per-die lines, keeping totals, the attack and what is awaited.
    lines = [line for line in text.split("\n") if not line.startswith("  ")]
    return clip_alt("\n".join(lines))


# --- the roster ----------------------------------------------------------------------------------

def _character(row: dict[str, Any] | Character | Sequence[str]) -> Character:
    """A roster entry as `DeathByDice.roster()` gives it (or a Character, or a raw
    `CHARACTER_TABLE` row: "d8 R" cells, "—" = no die)."""
    if isinstance(row, Character):
        return row
    if isinstance(row, dict):
        return Character(row["name"], tuple(Box(c["ability"], c["die"], c["colour"])
                                            for c in row["board"]), row["special"]["key"])
    boxes = []
    for ability, cell in zip(ABILITIES, row[1:7]):
        if cell == "—":
            boxes.append(Box(ability, None, None))
        else:
            size, colour = cell.split()
            boxes.append(Box(ability, int(size[1:]), colour))
    return Character(row[0], tuple(boxes), row[7])


def render_roster(roster_rows: Iterable[dict[str, Any] | Character | Sequence[str]] = ROSTER
                  ) -> Picture:
    """The characters' boards (default: data.ROSTER), with empty dice showing only each die's
    size and link colour, the special and what it does: the `/deathbydice characters` card."""
    chars = [_character(r) for r in roster_rows]
    if not chars:
        raise ValueError("the roster is empty")
    cols = 3 if len(chars) > 4 else 2
    rows = math.ceil(len(chars) / cols)
    panel_h = PAD + HEAD_H + 6 + RING_H + 8 + SPECIAL_H + ROSTER_DESC_H
    width = cols * PANEL_W + (cols - 1) * GAP + 2 * MARGIN
    subtitle = "The characters · die sizes and link colours (a Boss's dice are one size up)"
    top = title_bar_height(subtitle)
    height = top + 16 + rows * panel_h + (rows - 1) * GAP + MARGIN
    img, draw = new_canvas(width, height)
    title_bar(img, "Death by Dice — roster", subtitle)
    desc_font = font(14)
    for i, ch in enumerate(chars):
        r, c = divmod(i, cols)
        x = MARGIN + c * (PANEL_W + GAP)
        y = top + 16 + r * (panel_h + GAP)
        _panel(draw, (x, y, x + PANEL_W, y + panel_h), 16, fill=PANEL, outline=GRID,
               width=2)
        plate = (x + PAD - 4, y + PAD - 4, x + PANEL_W - PAD + 4, y + PAD - 4 + HEAD_H)
        _panel(draw, plate, 10, fill=GRID)
        draw.text((plate[0] + 10, (plate[1] + plate[3]) / 2),
                  fit_text(ch.name, font(20, bold=True), plate[2] - plate[0] - 20),
                  font=font(20, bold=True), fill=TEXT, anchor="lm")
        cells = [{"ability": b.ability, "die": b.size, "colour": b.colour,
                  "state": "blank" if b.size else "none"} for b in ch.boxes]
        sizes = [b.size for b in ch.boxes if b.size]
        ring_origin = (x + PAD, y + PAD + HEAD_H + 6)
        _draw_track(draw, ring_origin)
        _draw_cells(draw, ring_origin, cells, str(sum(sizes)), "MAX")
        sy = ring_origin[1] + RING_H + 8
        name, when, what = SPECIAL_TABLE[ch.special]
        _draw_special(draw, (x + PAD, sy), name, None)
        lines = wrap_text(f"{when[0].upper()}{when[1:]}: {what}.", desc_font, RING_W - 8)
        for k, line in enumerate(lines[:3]):
            draw.text((x + PAD + 4, sy + SPECIAL_H + 2 + k * 19), line, font=desc_font,
                      fill=MUTED)
    alt = "Death by Dice characters (ability: die and link colour; — = no die): " + "; ".join(
        f"{ch.name}: " + ", ".join(
            f"{b.ability} d{b.size} {COLOURS.get(b.colour or 'W', 'white')}" if b.size
            else f"{b.ability} —" for b in ch.boxes)
        + f", special {ch.special_name}" for ch in chars) + "."
    return to_png(img, alt, "deathbydice-roster.png")


# --- the offline tool's entry points (`python -m bot render`) ------------------------------------

def public_picture(view: dict[str, Any]) -> Picture:
    """The thread's board, from the public view."""
    return render(view)


def seat_picture(view: dict[str, Any]) -> Picture | None:
    """A seat's panel picture, from that seat's own view: its own boards (with the secret set-up
    roll while it is secret)."""
    return render(view)
