"""Death by Dice pictures, made for Discord's ~550 px display.

`public_picture(view)` is the thread's board, drawn from the public view: compact, one row per
character (name plate with the player's name, total, special and status; the six Ability boxes
in ring order with each die's value, size and link colour), the attack in progress or the last
one spelled out as a sum, and what is awaited. Designed 550 px wide, so its smallest text
(13 px) shows at full size; a six-character table only makes it taller.

`seat_picture(view)` is a seat's panel picture, drawn from that seat's own view: its own
characters as the rulebook's ring of six boxes (Luck next to Strength), with the secret set-up
roll or placement while it is secret. `render(view)` picks one of the two. `render_roster()`
draws the six characters for `/deathbydice characters`.

Names come from the view and are drawn with `drawable()`: what the shipped font cannot draw
(CJK, some emoji) becomes one "?", invisible characters go, long names are clipped with "…".
Colour is never the only cue: every die says its link colour in words.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.deathbydice.data import (ABILITIES, ABILITY_NAMES, COLOURS, ROSTER,
                                         SPECIAL_TABLE, Box, Character)
from bot.engine.deathbydice.view import board_text
from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import (BACKGROUND, DIE_COLOURS, GRID, HIGHLIGHT, MUTED, PANEL,
                               PLAIN_DIE, TEXT, Colour, hex_colour, mix, player_colour,
                               readable_on)
from rendering.dice import draw_die
from rendering.fonts import font
from rendering.picture import MAX_ALT_CHARS, Picture, clip_alt, to_png
from rendering.shapes import draw_rounded, rounded_mask, stamp
from rendering.text import ELLIPSIS, draw_centred, drawable, fit_text, wrap_text

# --- geometry ------------------------------------------------------------------------------------

BOX_W, BOX_H = 112, 124          # one Ability box
DIE = 66                         # the die inside it (its size tag stays 11 px)
RX, RY = 124, 134                # box centres sit on a hexagon of these half-axes
RING_W, RING_H = 2 * RX + BOX_W, 2 * RY + BOX_H
PAD = 14                         # inside a board panel
PANEL_W = RING_W + 2 * PAD
HEAD_H = 40                      # the name plate
SPECIAL_H = 40                   # the special's line under the ring
PRIVATE_H = 110                  # "your set-up roll" row, only in a seat's own view
GAP = 18                         # between panels

# Unit positions of the six boxes, clockwise from Strength at the top (data.ABILITIES order).
RING_UNIT: dict[str, tuple[float, float]] = dict(zip(
    ABILITIES, ((0, -1), (1, -0.5), (1, 0.5), (0, 1), (-1, 0.5), (-1, -0.5))))



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
    _text(draw, (plate[0] + 10, (plate[1] + plate[3]) / 2), f["label"], name_font, seat.text,
          plate[2] - plate[0] - 20)
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
        draw_die(draw, (left, y + 30, left + side, y + 30 + side), value, sides=sides)
        draw_centred(draw, (left + side / 2, y + 30 + side + 11), f"d{r['die']}",
                     font=font(12, bold=True), fill=MUTED)


# --- the attack ----------------------------------------------------------------------------------

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


def render(view: dict[str, Any]) -> Picture:
    """The picture a view gets in Discord: the compact public board for the public view, the
    seat's own boards for a seat's view (see `public_picture` and `seat_picture`)."""
    if view.get("you") is None:
        return public_picture(view)
    return seat_picture(view)


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
    """The characters (default: data.ROSTER; `DeathByDice.roster()` gives the same) as compact
    rows like the public board: each die's size and link colour, the special and what it does.
    The `/deathbydice characters` card, 550 px wide like the board."""
    chars = [_character(r) for r in roster_rows]
    if not chars:
        raise ValueError("the roster is empty")
    room = PUBLIC_W - 2 * MARGIN - 24
    df = font(SMALL)
    descs = []
    for ch in chars:
        name, when, what = SPECIAL_TABLE[ch.special]
        descs.append(wrap_text(f"★ {name}: {when}, {what}. Once per combat.", df, room))
    subtitle = "Die sizes and link colours · a Boss's dice are one size up"
    top = title_bar_height(subtitle) + 10
    line = 18
    cell_h = DIE_TOP + ROW_DIE + 20
    heights = [8 + ROW_HEAD + cell_h + 8 + len(d) * line + 10 for d in descs]
    legend = wrap_text("Neighbours sit side by side, and Luck touches Strength (the board is a "
                       "ring). Dice of one colour (not white) are Linked.", df,
                       PUBLIC_W - 2 * MARGIN)
    height = top + sum(heights) + 8 * len(chars) + len(legend) * line + MARGIN
    img, draw = new_canvas(PUBLIC_W, height)
    title_bar(img, "Death by Dice — the characters", subtitle)
    y = top
    af = font(SMALL, bold=True)
    for ch, desc, h in zip(chars, descs, heights):
        x0, x1 = MARGIN, PUBLIC_W - MARGIN
        _panel(draw, (x0, y, x1, y + h), 12, fill=PANEL, outline=GRID, width=2)
        mid = y + 8 + ROW_HEAD / 2
        sizes = [b.size for b in ch.boxes if b.size]
        right = f"{len(sizes)} dice, up to {sum(sizes)}"
        draw.text((x1 - 10, mid), right, font=df, fill=MUTED, anchor="rm")
        _text(draw, (x0 + 12, mid), ch.name, font(17, bold=True), TEXT,
              x1 - 22 - df.getlength(right) - (x0 + 12))
        cw = (x1 - x0 - 16 - 5 * CELL_GAP) / 6
        ty = y + 8 + ROW_HEAD
        for i, b in enumerate(ch.boxes):
            cx0 = x0 + 8 + i * (cw + CELL_GAP)
            cx = cx0 + cw / 2
            box = (round(cx0), ty, round(cx0 + cw), ty + cell_h)
            if b.size is None:
                _panel(draw, box, 8, fill=NO_DIE_FILL)
                draw_centred(draw, (cx, ty + 10), b.ability, font=af, fill=MUTED)
                draw_centred(draw, (cx, ty + DIE_TOP + ROW_DIE / 2), "no die", font=df,
                             fill=MUTED)
                continue
            link = LINK.get(b.colour or "W", PLAIN_DIE.fill)
            _panel(draw, box, 8, fill=BOX_FILL, outline=link, width=3)
            draw_centred(draw, (cx, ty + 10), b.ability, font=af, fill=TEXT)
            left = round(cx - ROW_DIE / 2)
            draw_die(draw, (left, ty + DIE_TOP, left + ROW_DIE, ty + DIE_TOP + ROW_DIE),
                     f"d{b.size}", sides=b.size)
            draw_centred(draw, (cx, ty + DIE_TOP + ROW_DIE + 10),
                         COLOURS.get(b.colour or "W", "white"), font=df, fill=TEXT)
        dy = ty + cell_h + 8 + line / 2
        for part in desc:
            draw.text((x0 + 12, dy), part, font=df, fill=TEXT, anchor="lm")
            dy += line
        y += h + 8
    for part in legend:
        draw.text((MARGIN, y + line / 2), part, font=df, fill=MUTED, anchor="lm")
        y += line
    alt = "Death by Dice characters (ability: die and link colour; — = no die): " + "; ".join(
        f"{ch.name}: " + ", ".join(
            f"{b.ability} d{b.size} {COLOURS.get(b.colour or 'W', 'white')}" if b.size
            else f"{b.ability} —" for b in ch.boxes)
        + f", special {ch.special_name}" for ch in chars) + "."
    return to_png(img, alt, "deathbydice-roster.png")


# --- names drawn safely -------------------------------------------------------------------------

def _plate_label(f: dict[str, Any], fnt, room: float) -> str:
    """A character's label ("The Accountant (Carol)") for `room` px: when it is too long, the
    player's name is shortened (names are any length), never the character's; with no room
    for even a shortened name, the character alone (the seat's colour stripe says whose)."""
    label, player = f["label"], drawable(f.get("player", ""), fnt)
    tail = f" ({f.get('player', '')})"
    if fnt.getlength(drawable(label, fnt)) <= room or not label.endswith(tail):
        return label
    head = label[:-len(tail)]
    name_room = room - fnt.getlength(f"{head} ()")
    if name_room >= fnt.getlength("Abc" + ELLIPSIS):
        return f"{head} ({fit_text(player, fnt, name_room)})"
    return head


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt, fill: Colour,
          room: float, anchor: str = "lm") -> float:
    """Draw one line clipped to `room` pixels (names made drawable); returns its width."""
    line = fit_text(drawable(text, fnt), fnt, room)
    draw.text(xy, line, font=fnt, fill=fill, anchor=anchor)
    return fnt.getlength(line)


# --- the compact public board (made for Discord's 550 px display) --------------------------------
#
# One row per character: the name plate with total, special and status, then the six Ability
# boxes in ring order (Luck is next to Strength again: the legend says so). Designed 550 px
# wide, so its smallest text (12 px) still shows 11 px tall at 550; six characters only make the
# picture taller, never smaller.

PUBLIC_W = 550
CELL_GAP = 6
ROW_HEAD = 30
ROW_DIE = 56
DIE_TOP = 22                    # below the ability name, clear of a die's highlight ring
ROW_H = 8 + ROW_HEAD + DIE_TOP + ROW_DIE + 22 + 8
SMALL = 13                      # the smallest text carrying game information
BODY = 15


def _row_status(v: dict[str, Any], f: dict[str, Any]) -> tuple[str, Colour] | None:
    status = _status(v, f)
    if status is None:
        return None
    words = {"✓ SET UP": "SET UP", "SETTING UP": "SETTING UP"}
    return words.get(status[0], status[0]), status[1]


def _draw_row(draw: ImageDraw.ImageDraw, top: int, v: dict[str, Any], f: dict[str, Any],
              mine: dict[str, Any] | None, rings: dict[str, Colour]) -> None:
    x0, x1 = MARGIN, PUBLIC_W - MARGIN
    status = _row_status(v, f)
    lit = status is not None and status[0] in ("ATTACKING", "WINNER", "DEFENDING")
    _panel(draw, (x0, top, x1, top + ROW_H - 8), 12, fill=PANEL,
           outline=status[1] if lit else GRID, width=3 if lit else 2)
    seat = player_colour(f["seat"])
    draw_rounded(draw, (x0 + 8, top + 10, x0 + 14, top + 8 + ROW_HEAD - 4), 3, fill=seat.fill)
    # The name plate: character and player, then the total and the special on the right.
    total = f["total"]
    small_total = "total"
    if total is None and mine and mine.get("arranged"):
        total, small_total = sum(mine["arranged"].values()), "your total"
    right = f"{small_total} {'?' if total is None else total}"
    state = "used" if f["special"]["used"] else "ready"
    rf, sf = font(BODY, bold=True), font(SMALL)
    mid = top + 8 + ROW_HEAD / 2
    status_w = _pill_width(status[0], SMALL) + 8 if status is not None else 0
    # The character's name is never cut: with little room the special is said as "★ ready"
    # (its name is on the roster and the seat's panel), then the name is drawn smaller.
    label_font = font(17, bold=True)
    head = f["label"].removesuffix(f" ({f.get('player', '')})")
    for special in (f"★ {f['special']['name']} {state}", f"★ {state}"):
        room = (x1 - 10 - rf.getlength(right) - 12 - sf.getlength(special) - 10 - status_w
                - (x0 + 22))
        if label_font.getlength(drawable(head, label_font)) <= room:
            break
    else:
        label_font = font(BODY, bold=True)
    rx = x1 - 10
    draw.text((rx, mid), right, font=rf, fill=TEXT, anchor="rm")
    rx -= rf.getlength(right) + 12
    draw.text((rx, mid), special, font=sf, fill=MUTED if f["special"]["used"] else TEXT,
              anchor="rm")
    rx -= sf.getlength(special) + 10
    if status is not None:
        w = _pill_width(status[0], SMALL)
        _pill(draw, (rx - w / 2, mid), status[0], status[1], size=SMALL)
        rx -= w + 8
    _text(draw, (x0 + 22, mid), _plate_label(f, label_font, rx - (x0 + 22)),
          label_font, TEXT, rx - (x0 + 22))
    # The six boxes.
    cells = _fighter_cells(f, mine)
    cw = (x1 - x0 - 16 - 5 * CELL_GAP) / 6
    ty = top + 8 + ROW_HEAD
    af, sizef = font(SMALL, bold=True), font(SMALL)
    for i, c in enumerate(cells):
        cx0 = x0 + 8 + i * (cw + CELL_GAP)
        cx = cx0 + cw / 2
        box = (round(cx0), ty, round(cx0 + cw), ty + DIE_TOP + ROW_DIE + 20)
        if c["state"] == "none" or c["die"] is None:
            _panel(draw, box, 8, fill=NO_DIE_FILL)
            draw_centred(draw, (cx, ty + 10), c["ability"], font=af, fill=MUTED)
            draw_centred(draw, (cx, ty + DIE_TOP + ROW_DIE / 2), "no die", font=sizef,
                         fill=MUTED)
            continue
        link = LINK.get(c["colour"] or "W", PLAIN_DIE.fill)
        out = c["state"] == "discarded"
        _panel(draw, box, 8, fill=BOX_FILL, outline=mix(link, BOX_FILL, 0.55) if out else link,
               width=3)
        draw_centred(draw, (cx, ty + 10), c["ability"], font=af, fill=MUTED if out else TEXT)
        left = round(cx - ROW_DIE / 2)
        dbox = (left, ty + DIE_TOP, left + ROW_DIE, ty + DIE_TOP + ROW_DIE)
        ring = rings.get(c["ability"])
        if out:
            draw_die(draw, dbox, "×", sides=c["die"], highlight=ring, greyed=True)
        else:
            value, sides = _face(c.get("face"), c["die"])
            fill = mix(PLAIN_DIE.fill, HIGHLIGHT, 0.35) if c.get("secret") else PLAIN_DIE.fill
            draw_die(draw, dbox, value, sides=sides, highlight=ring, fill=fill)
        colour = COLOURS.get(c["colour"] or "W", "white")
        draw_centred(draw, (cx, ty + DIE_TOP + ROW_DIE + 10), f"d{c['die']} {colour}",
                     font=sizef, fill=MUTED if out else TEXT)


def _attack_words(v: dict[str, Any], a: dict[str, Any], live: bool) -> list[str]:
    """The attack as sentences: who attacks what, the sum, the result, what happened."""
    kind = ATTACK_NAMES[a["type"]] + (" (Cheap Shot)" if a["cheap_shot"] else "") + (
        " (Rampage)" if a["rampage"] else "")
    head = (f"{'Attack' if live else 'Last attack'}: {a['attacker_label']} → "
            f"{a['ability']} of {a['target_label']} · {kind}")
    rolls = a.get("rolls") or {}
    att = " + ".join(f"{d} {rolls[d]}" if d in rolls else f"{d} (rolling)" for d in a["dice"])
    if a["assist"]:
        att += f" + {a['bonus']} ({a['assist']} assists)"
    target = f"{a['ability']} {a['target_value'] if a['target_value'] is not None else ''}"
    if a["defense"]:
        d = a["defense"]
        target += f" + {d['bonus']} ({d['type']} defense from {d['die']})"
    if a["result"]:
        rule = "equal or more wins" if a["type"] == "ability" else "more wins"
        # "= sum" only where there is something to add up
        if len(a["dice"]) > 1 or a["assist"]:
            att += f" = {a['total']}"
        target = target.strip() + (f" = {a['against']}" if a["defense"] else "")
        sums = f"{att} against {target} ({rule}): {'WON' if a['result'] == 'won' else 'LOST'}"
    else:
        sums = f"{att} against {target.strip()}" + (
            ": waiting for the defense" if v["stage"] == "defend" else "")
    lines = [head, sums]
    labels = {f["id"]: f["label"] for f in v["fighters"]}

    def die(ref: str) -> str:
        fid, _, ability = ref.partition(":")
        return f"{ability} of {labels.get(fid, fid)}"
    notes = []
    if a["misdirected_from"]:
        notes.append(f"Misdirection moved it from {die(a['misdirected_from'])}")
    if a["loaded"] and a["loaded"].get("to") is not None:
        notes.append(f"Loaded Dice re-rolled {a['loaded']['die']} {a['loaded']['from']} → "
                     f"{a['loaded']['to']}")
    if a["saved"]:
        notes.append(f"Thick Skull kept {die(a['saved']['die'])} ({a['saved']['from']} → "
                     f"{a['saved']['to']})")
    if a["discarded"]:
        notes.append("discarded " + ", ".join(f"{die(d['die'])} ({d['value']})"
                                               for d in a["discarded"]))
    if a["rerolled"]:
        notes.append("re-rolled " + ", ".join(f"{die(r['die'])} {r['from']} → {r['to']}"
                                               for r in a["rerolled"]))
    if notes:
        lines.append("; ".join(notes)[:1].upper() + "; ".join(notes)[1:] + ".")
    return lines


def _wrapped(lines: list[tuple[str, Any, Colour]], room: float) -> list[tuple[str, Any, Colour]]:
    out = []
    for text, fnt, colour in lines:
        out += [(part, fnt, colour) for part in wrap_text(drawable(text, fnt), fnt, room)]
    return out


def _public_parts(v: dict[str, Any], room: float) -> tuple[list, list[list]]:
    """(attack lines, the footer's items: each a list of lines), wrapped to the picture. The
    footer's items, in order: what happens now (or the match's end), the combats won (a
    match of more than one combat), the legend."""
    a = v["attack"] or v["last_attack"]
    attack = []
    if a is not None:
        words = _attack_words(v, a, v["attack"] is not None)
        attack = [(words[0], font(BODY, bold=True), HIGHLIGHT if v["attack"] else TEXT)]
        attack += [(w, font(BODY), TEXT) for w in words[1:]]
    now = []
    if v["result"] is not None:
        now.append(("Match over: " + v["result"]["reason"] + ".", font(16, bold=True),
                    HIGHLIGHT))
    elif v["prompt"]:
        now.append(("Now: " + v["prompt"], font(16, bold=True), TEXT))
    names = {i: s["name"] for i, s in enumerate(v["sides"])}
    done = [f"Combat {c['combat']}: " + (names.get(c["winner"], "?") if c["winner"] is not None
                                          else "a draw") for c in v["combats"]]
    combats = []
    if v["best_of"] > 1:
        wins = ", ".join(f"{s['name']} {s['wins']}" for s in v["sides"])
        combats.append((f"Combats won (first to 2 wins the match): {wins}."
                        + (" " + " · ".join(done) + "." if done else ""), font(SMALL), MUTED))
    legend = [("Each die shows its value; d8 = an eight-sided die. Neighbours sit side by "
               "side, and Luck touches Strength. Dice of one colour (not white) are Linked.",
               font(SMALL), MUTED)]
    return _wrapped(attack, room), [_wrapped(item, room) for item in (now, combats, legend)]


@dataclass(frozen=True)
class ReplayLayout:
    """Room kept for the parts of the public board that grow and shrink, in a replay
    (rendering/gif.py): each part as tall as at its tallest in the steps so far
    (`replay_layouts`), so nothing under it moves from step to step. The live board (no
    layout) is as tall as its position needs."""

    top: int                  # the rows start here (the tallest title bar)
    rows: int                 # characters' rows
    attack: int               # lines of the attack panel (0: no attack yet)
    footer: tuple[int, ...]   # lines of each footer item (`_public_parts`)


def replay_layouts(views: Iterable[dict[str, Any]]) -> list[ReplayLayout]:
    """The layout of each of a replay's public views, in order: each part (the attack panel,
    each footer item...) as tall as at its tallest in the steps so far. The board holds still
    and grows only at a step that first needs more room, and a frame never depends on a step
    after it (nothing about a later reveal shows early)."""
    room = PUBLIC_W - 2 * MARGIN - 24
    top, rows, attack, footer = 0, 0, 0, (0, 0, 0)
    out = []
    for v in views:
        a, items = _public_parts(v, room)
        top = max(top, title_bar_height(_subtitle(v), PUBLIC_W) + 10)
        rows = max(rows, len(v["fighters"]))
        attack = max(attack, len(a))
        footer = tuple(max(n, len(item)) for n, item in zip(footer, items))
        out.append(ReplayLayout(top, rows, attack, footer))
    return out


def live_board(view: dict[str, Any]) -> dict[str, Any]:
    """The public view as the thread's live board draws it: during the secret set-up, without
    who has set up and the prompt (the card's status line under it says whom the table waits
    for). The board is then one picture from the set-up's start to its end, uploaded once
    rather than again after each player's set-up (issue #22), as TradeShowdown's is."""
    if view["stage"] != "setup" or view.get("you") is not None:
        return view
    return dict(view, prompt="", to_act=[], fighters=[dict(f, ready=None)
                                                      for f in view["fighters"]])


def board_facts(view: dict[str, Any]) -> list[Any]:
    """What the thread's board shows of the game itself: the characters' dice, specials and
    totals, the score, set-up or fight. An attack declared or a defense chosen leaves them
    as they were: the next turn's card then shows no board of its own, the one on the card
    above being the board (issue #22; `GameCog.board_signature`)."""
    return ["setup" in view["stage"], view["combat"], view["score"], view["sides"], [
        {k: f[k] for k in ("id", "special", "total", "board")} for f in view["fighters"]]]


def public_picture(view: dict[str, Any], layout: ReplayLayout | None = None) -> Picture:
    """The thread's board, from the public view: compact, one row per character (`layout`: as
    a replay draws it, `public_image`)."""
    return to_png(public_image(view, layout), alt_text(view),
                  f"deathbydice-combat{view['combat']}.png")


def public_image(view: dict[str, Any], layout: ReplayLayout | None = None) -> Image.Image:
    """`public_picture`'s board as drawn, before its PNG (the replay GIF's frames). With a
    `layout` (a replay's, `replay_layouts`): the same board with each growing part given its
    room in that layout (the attack panel as tall as the tallest so far, each footer item at
    its place), so a replay's frames hold still; without: as tall as this position needs
    (the thread's board, `render --at N`)."""
    v = view
    room = PUBLIC_W - 2 * MARGIN - 24
    attack, items = _public_parts(v, room)
    footer = [line for item in items for line in item]
    subtitle = _subtitle(v)
    top = title_bar_height(subtitle, PUBLIC_W) + 10
    rows_h = len(v["fighters"]) * ROW_H
    line = 21
    attack_h = (len(attack) * line + 20) if attack else 0
    footer_h = len(footer) * line
    # Where each footer line goes, under the attack panel (its y from the panel's bottom).
    footer_at = [k * line for k in range(len(footer))]
    if layout is not None:
        top, rows_h = layout.top, layout.rows * ROW_H
        attack_room = (layout.attack * line + 20) if layout.attack else 0
        attack_h = attack_room if attack else 0
        footer_at, y = [], 0
        for item, lines in zip(items, layout.footer):
            footer_at += [y + k * line for k in range(len(item))]
            y += lines * line
        footer_h = y
    else:
        attack_room = attack_h
    height = top + rows_h + (attack_room + 8 if attack_room else 0) + footer_h + MARGIN
    img, draw = new_canvas(PUBLIC_W, height)
    title_bar(img, v["title"], subtitle, wrap=True)
    a = v["attack"] or v["last_attack"]
    rings = _attack_rings(a)
    mine = _private_setup(v)
    for i, f in enumerate(v["fighters"]):
        _draw_row(draw, top + i * ROW_H, v, f, mine.get(f["id"]), rings.get(f["id"], {}))
    y = top + rows_h
    if attack:
        _panel(draw, (MARGIN, y, PUBLIC_W - MARGIN, y + attack_h), 12, fill=PANEL,
               outline=HIGHLIGHT if v["attack"] else GRID, width=2)
        ty = y + 10 + line / 2
        for text, fnt, colour in attack:
            draw.text((MARGIN + 12, ty), text, font=fnt, fill=colour, anchor="lm")
            ty += line
    if attack_room:
        y += attack_room + 8
    for (text, fnt, colour), dy in zip(footer, footer_at):
        draw.text((MARGIN, y + dy + line / 2), text, font=fnt, fill=colour, anchor="lm")
    return img


# --- a seat's own picture: its characters' rings, in its panel ------------------------------------

def seat_picture(view: dict[str, Any]) -> Picture | None:
    """A seat's panel picture, from that seat's own view: its own characters as the rulebook's
    ring of six boxes (one under the other), with the secret set-up roll while it is secret.
    None for the public view (no seat)."""
    you = view.get("you")
    if you is None:
        return None
    mine_ids = set(you["fighters"])
    fighters = [f for f in view["fighters"] if f["id"] in mine_ids]
    if not fighters:
        return None
    private = _private_setup(view)
    width = PANEL_W + 2 * MARGIN
    heights = [PAD + HEAD_H + 6 + RING_H + 8 + SPECIAL_H
               + (PRIVATE_H if f["id"] in private else 0) + 6 for f in fighters]
    subtitle = _subtitle(view)
    top = title_bar_height(subtitle, width) + 14
    height = top + sum(heights) + GAP * (len(fighters) - 1) + MARGIN
    img, draw = new_canvas(width, height)
    title_bar(img, "Your board", subtitle, wrap=True)
    a = view["attack"] or view["last_attack"]
    rings = _attack_rings(a)
    y = top
    for f, h in zip(fighters, heights):
        origin = (MARGIN, y)
        _draw_frame(draw, origin, h, view, f)
        _draw_track(draw, _ring_origin(origin))
        _draw_body(draw, origin, f, private.get(f["id"]), rings.get(f["id"], {}))
        y += h + GAP
    return to_png(img, alt_text(view), f"deathbydice-seat{you['seat'] + 1}.png")
