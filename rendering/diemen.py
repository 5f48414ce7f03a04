"""Crazy Die-Man is Unbreakable! (`diemen`): the Sales Floor seen from above, from the view.

The floor is drawn landscape, P1's side on the left and P2's on the right (the referee's map,
rulings "The Sales Floor", turned a quarter: floor y runs left to right, floor x top to bottom,
so P1's F1 is at the top and faces P2's F3 across the middle line). Each side shows its stand
spots as rectangles (the Stand filled in the owner's colour, carrying its Super Sale Banners),
its banner spots as circles (the front area shaded), standing banners filled in the owner's
colour with an upright flag, knocked ones greyed with the flag lying down, and its customers.
Above each half sits the Die-Man's plate: Property Damage as a bar to 20. The latest turn's
flicks are arrows from the flicker's Stand to where the die landed, each carrying the rolled
value on a die face; the footer lists them with what fell and the damage dealt.

Everything comes from `game.view(seat_or_None)` (keys: `bot/engine/diemen/view.py`), so a public
view during the secret set-up shows no banners at all, and a seat's own view shows only its own
planned banners. `render_odds` draws one simulated flick's chances (`odds.flick_odds`) as bars.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.diemen import board
from bot.names import plain_name
from bot.engine.diemen.odds import OUTCOME_NAMES, OUTCOMES
from rendering.canvas import MARGIN, TITLE_SIZE, new_canvas, title_bar, title_bar_height
from rendering.colours import (BACKGROUND, GRID, HIGHLIGHT, INK, MUTED, PANEL, PAPER, PLAIN_DIE,
                               TEXT, Colour, mix, player_colour)
from rendering.dice import draw_die
from rendering.fonts import font
from rendering.picture import Picture, to_png
from rendering.shapes import draw_arrow, draw_rounded, dots_mask, stamp
from rendering.text import draw_centred, drawable, fit_text, wrap_text

# --- geometry ------------------------------------------------------------------------------------

# Made for Discord's 550 px display: 550 px wide, so every text shows at its own size there
# (rendering.fonts.displayed_px); nothing smaller than 12 px carries game information.
WIDTH = 550
SCALE = (WIDTH - 2 * MARGIN) / board.FLOOR_LENGTH   # 3.1875 pixels per floor unit
FLOOR_W = round(board.FLOOR_LENGTH * SCALE)   # 510: the floor's length runs across the picture
FLOOR_H = round(board.FLOOR_WIDTH * SCALE)    # 319
PLATE_H = 80                       # a Die-Man's name plate and damage bar
BANNER_R = 17                      # banner spot circle radius (front row to customers: 32 px)
CUSTOMER_R = 11
STAND_W, STAND_H = 53, 69          # a stand spot (along the floor, across it)
SSB_R = 10                         # a Super Sale Banner on the Stand
DIE = 26                           # the rolled value on an arrow
FOOTER_ROW = 32
LABEL = 13                         # spot labels: 13 px shows 11.9 px at 550 px
FRONT_BAND = (8, 24)               # the front area, floor units from the middle line
LOSING = 20                        # rulings, "Damage"
PLATE_TOP = title_bar_height("subtitle") + 12   # every board has a subtitle
FLOOR_TOP = PLATE_TOP + PLATE_H + 12

PHASE_WORDS = {"setup": "secret banner set-up", "first": "Stand Cry vote",
               "move": "Move step", "flick": "Flick step", "review": "report under review",
               "switch": "mode switch proposed", "reposition": "Reposition step",
               "customers": "Customers step", "over": "game over"}
CUSTOMER_FILL = PLAIN_DIE.fill     # customers belong to nobody: ivory, like a plain die
KNOCKED = mix(MUTED, BACKGROUND, 0.35)


def _side_colour(seat: int):
    return player_colour(seat)


def _xy(side: int, spot: str, top: int) -> tuple[float, float]:
    """Pixel centre of a spot: floor y runs left to right, floor x top to bottom."""
    fx, fy = board.spot_xy(side, spot)
    return MARGIN + fy * SCALE, top + fx * SCALE


def spot_centre(side: int, spot: str) -> tuple[float, float]:
    """Where a spot's centre is drawn on the board (tests find things with it)."""
    return _xy(side, spot, FLOOR_TOP)


def _label_xy(label: str, top: int) -> tuple[float, float]:
    seat, spot = board.split_label(label)
    return _xy(seat, spot, top)


def _radius(spot: str) -> float:
    if spot[0] == "C":
        return CUSTOMER_R
    if spot[0] == "S":
        return STAND_W / 2
    return BANNER_R


# --- glyphs (smooth: drawn 4x and reduced, cached per size) ---------------------------------------

_SS = 4


@lru_cache(maxsize=64)
def _flag_mask(size: int, fallen: bool) -> Image.Image:
    """A banner on its pole, standing or lying on its side, in a size x size mask."""
    big = Image.new("L", (size * _SS, size * _SS), 0)
    d = ImageDraw.Draw(big)
    pole = [(-0.24, -0.42), (-0.14, -0.42), (-0.14, 0.40), (-0.24, 0.40)]
    foot = [(-0.38, 0.36), (0.02, 0.36), (0.02, 0.44), (-0.38, 0.44)]
    flag = [(-0.14, -0.42), (0.40, -0.30), (0.22, -0.16), (0.40, -0.02), (-0.14, -0.04)]
    for poly in (pole, foot, flag):
        pts = []
        for x, y in poly:
            if fallen:        # a quarter turn: the banner lies with its top to the right
                x, y = -y, x
            pts.append(((x + 0.5) * size * _SS, (y + 0.5) * size * _SS))
        d.polygon(pts, fill=255)
    return big.reduce(_SS)


@lru_cache(maxsize=16)
def _person_mask(size: int) -> Image.Image:
    """A customer: head and shoulders."""
    big = Image.new("L", (size * _SS, size * _SS), 0)
    d = ImageDraw.Draw(big)
    s = size * _SS
    d.ellipse((0.34 * s, 0.08 * s, 0.66 * s, 0.40 * s), fill=255)
    d.ellipse((0.16 * s, 0.44 * s, 0.84 * s, 1.10 * s), fill=255)
    d.rectangle((0, 0.86 * s, s, s), fill=0)
    return big.reduce(_SS)


@lru_cache(maxsize=16)
def _ring_mask(radius: int, width: int) -> Image.Image:
    side = 2 * radius
    outer = dots_mask(side, side, ((radius, radius),), radius)
    inner = dots_mask(side, side, ((radius, radius),), radius - width)
    return Image.frombytes("L", outer.size, bytes(
        max(0, a - b) for a, b in zip(outer.tobytes(), inner.tobytes())))


def _disc(draw: ImageDraw.ImageDraw, centre, radius: int, fill: Colour) -> None:
    cx, cy = centre
    side = 2 * radius
    stamp(draw, (round(cx) - radius, round(cy) - radius),
          dots_mask(side, side, ((radius, radius),), radius), fill)


def _ring(draw: ImageDraw.ImageDraw, centre, radius: int, colour: Colour, width: int = 2) -> None:
    cx, cy = centre
    stamp(draw, (round(cx) - radius, round(cy) - radius), _ring_mask(radius, width), colour)


def _glyph(draw: ImageDraw.ImageDraw, centre, mask: Image.Image, colour: Colour) -> None:
    cx, cy = centre
    stamp(draw, (round(cx - mask.width / 2), round(cy - mask.height / 2)), mask, colour)


# --- small text helpers ---------------------------------------------------------------------------

def _name(name: str, limit: int = 16) -> str:
    """A player's name for a picture: Markdown escapes removed, drawable, at most `limit`
    characters."""
    text = drawable(plain_name(str(name)))
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


_NAMES: list[str] = ["P1", "P2"]   # set per picture from the view (one picture at a time)


def _who(seat: int) -> str:
    return _NAMES[seat]


def _use_names(view: dict[str, Any], drawn: bool = True) -> None:
    """The names for this picture: clipped and drawable when drawn, whole in the alt text."""
    names = view.get("names") or [s.get("name") for s in view["sides"]]
    _NAMES[:] = [(_name(n) if drawn else plain_name(str(n))) if n else board.SIDE_NAMES[i]
                 for i, n in enumerate(names)]


def _where(label: str | None) -> str:
    """`P2:F2` -> "Bea's F2" (`the middle` for none)."""
    if not label or label == "middle":
        return "the middle"
    seat, spot = board.split_label(label)
    return f"{_who(seat)}'s {spot}"


def _rel(label: str | None, by: int) -> str:
    """A spot as the flicker's rival's bare spot ("B1") or the flicker's own ("own F1")."""
    if not label or label == "middle":
        return "the middle"
    seat, spot = board.split_label(label)
    return spot if seat != by else f"own {spot}"


def _wheres(labels: list[str]) -> str:
    return ", ".join(_where(x) for x in labels)


def _spot_of(label: str) -> str:
    return label.split(":")[1]


def _viewer_seat(view: dict[str, Any]) -> int | None:
    """Whose `my_setup` this is: during the set-up only the viewer who has chosen sees one, and
    while one choice is still missing exactly one seat is done."""
    if not view.get("my_setup"):
        return None
    done = [i for i, d in enumerate(view.get("setup_done", [])) if d]
    return done[0] if len(done) == 1 else None


def _latest_flicks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The flicks of the latest turn that had any (the view keeps the last few)."""
    flicks = view.get("last_flicks") or []
    if not flicks:
        return []
    turn = flicks[-1]["turn"]
    return [f for f in flicks if f["turn"] == turn]


def _outcome_words(f: dict[str, Any]) -> str:
    if f["off"]:
        return "off the floor"
    if f.get("outcome"):
        return OUTCOME_NAMES[f["outcome"]]
    return "hit" if f["fell"] else "nothing fell"


def _flick_words(f: dict[str, Any], *, short: bool = False) -> str:
    """`P2 flick 2/2, Called Shot at P1:B1: rolled 6, clean hit; fell P1:B1; +12 to P1`."""
    head = f"{_who(f['by'])} flick {f['number']}/{f['of']}"
    if f["called"]:
        head += f", Called Shot at {_where(f['called'])}"
    elif f["to"]:
        head += f" at {_where(f['to'])}"
    parts = [f"rolled {f['value']}", _outcome_words(f)]
    tail = []
    if f["fell"] and not f["off"]:
        tail.append("fell " + _wheres(f["fell"]))
    if f["other"]:
        tail.append("knocked off own Stand " + _wheres(f["other"]))
    added = [f"+{a} to {_who(i)}" for i, a in enumerate(f["added"]) if a]
    tail.append(", ".join(added) if added else "no damage")
    if short:
        return "; ".join(tail)
    return f"{head}: " + ", ".join(parts) + "; " + "; ".join(tail)


def _subtitle(view: dict[str, Any]) -> str:
    phase = view["phase"]
    if phase == "setup":
        done = view.get("setup_done", [False, False])
        # None: not shown (a private panel does not follow the rival's progress)
        return "Banner set-up in secret: " + ", ".join(
            f"{_who(i)} {'done' if d else 'choosing'}" for i, d in enumerate(done)
            if d is not None)
    if phase == "first":
        return "Banners revealed · the Stand Cry vote picks who goes first"
    head = f"Turn {view['turn']} · round {view['round']}/{view['round_limit']}"
    if phase == "over":
        res = view.get("result") or {}
        w = res.get("winners") or []
        return head + " · game over: " + (f"{_who(w[0])} wins" if w else "draw")
    a = view["active"]
    ti = view.get("turn_info") or {}
    f = view.get("flick")
    words = PHASE_WORDS.get(phase, phase)
    if phase == "move" and ti.get("stand_locked"):
        words += " (Stand locked)"
    if phase in ("flick", "review", "switch") and f:
        words = f"flick {f['number']} of {f['of']}" + (" (Bonus)" if ti.get("bonus") else "")
        if f.get("called"):
            words += f", Called Shot at {_where(f['called'])}"
        if phase == "review":
            words += f" · {_who(1 - a)} to accept or dispute"
        if phase == "switch":
            words += f" · {_who(1 - a)} to agree: this flick {f.get('proposal')}"
        if view.get("flick_mode") != view.get("mode"):
            words += f" · this flick {view.get('flick_mode')}"
    if phase == "customers" and ti.get("attract"):
        words += f" ({ti['attract']} to place)"
    return f"{head} · {_who(a)} to play: {words}"


# --- the board ------------------------------------------------------------------------------------

def _footer_lines(view: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Status lines above the flick list, and the flicks listed (the latest turn's)."""
    lines: list[str] = []
    f = view.get("flick")
    if f and f.get("report"):
        r = f["report"]
        lines.append(f"Report under review: rolled {r['value']}, "
                     + ("off the floor" if r["off"] else
                        ("fell " + _wheres(r["fell"]) if r["fell"] else "nothing fell")))
    if f and f.get("pending"):
        p = f["pending"]
        lines.append(f"Rolled {p['value']}: {OUTCOME_NAMES.get(p['outcome'], p['outcome'])}; "
                     f"drawing which {p['choose']} falls ({', '.join(p['options'])})")
    if view["phase"] == "over" and view.get("result"):
        lines.append("Result: " + view["result"]["reason"])
    if (view.get("odds") or {}).get("aim"):
        lines.append("Yellow %: the chance that a flick aimed there knocks the banner")
    if view.get("my_setup"):
        lines.append("Your planned banners (secret until both have set up): "
                     + " ".join(view["my_setup"]))
    return lines, _latest_flicks(view)


def render(view: dict[str, Any]) -> Picture:
    """The Sales Floor for a public view (`view(None)`) or a seat's own view."""
    return to_png(public_image(view), alt_text(view), "diemen-board.png")


def public_image(view: dict[str, Any]) -> Image.Image:
    """`render`'s board as drawn, before its PNG (the replay GIF's frames)."""
    _use_names(view)
    status, flicks = _footer_lines(view)
    status_font = font(14)
    status_wrapped = [ln for s in status for ln in wrap_text(s, status_font, FLOOR_W)]
    name = view.get('title', 'Crazy Die-Man is Unbreakable!')
    title = f"{name} · {view['mode']}"
    if font(TITLE_SIZE, bold=True).getlength(title) > WIDTH - 2 * MARGIN:
        title = f"{name.split(' is ')[0]} · {view['mode']}"   # the mode is never cut off
    subtitle = _subtitle(view)

    # A subtitle too long for one line wraps (never cut): everything below moves down.
    extra = title_bar_height(subtitle, WIDTH) - title_bar_height(subtitle)
    top_plate, floor_top = PLATE_TOP + extra, FLOOR_TOP + extra
    footer_top = floor_top + FLOOR_H + 14
    rows = [_flick_row_lines(f) for f in flicks]
    legend = _legend_lines(view)
    footer_h = (len(status_wrapped) * 20 + (8 if status_wrapped else 0)
                + (26 + sum(_flick_row_h(r) for r in rows) if flicks else 0)
                + 18 * len(legend) + 6)
    height = footer_top + footer_h + MARGIN - 6

    img, draw = new_canvas(WIDTH, height)
    title_bar(img, title, subtitle, wrap=True)
    for seat in (0, 1):
        _plate(draw, view, seat, top_plate)
    _floor(draw, view, floor_top)
    _flick_arrows(draw, flicks, floor_top)
    _aim_marks(draw, view, floor_top)
    _spot_labels(draw, view, floor_top)   # last: arrows and dice never hide a spot's name
    _footer(draw, view, status_wrapped, flicks, rows, legend, footer_top)
    return img


def public_picture(view: dict[str, Any]) -> Picture:
    """The public board (for `python -m bot render`)."""
    return render(view)


def seat_picture(view: dict[str, Any]) -> Picture | None:
    """A seat's private picture: its planned banners during the secret set-up; None once
    nothing is private (the public board shows everything then)."""
    if not view.get("my_setup"):
        return None
    return render(view)


def _plate(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, top: int) -> None:
    """Name plate over the seat's half: name, who acts, Property Damage as a bar to 20."""
    pc = _side_colour(seat)
    side = view["sides"][seat]
    half = FLOOR_W // 2
    x0 = MARGIN + seat * half + (0 if seat == 0 else 6)
    x1 = MARGIN + (seat + 1) * half - (6 if seat == 0 else 0)
    waiting = seat in (view.get("waiting_for") or [])
    result = view.get("result")
    draw_rounded(draw, (x0, top, x1, top + PLATE_H), 10, fill=PANEL,
                 outline=HIGHLIGHT if waiting else GRID, width=3 if waiting else 1)
    # tag: whose move / outcome
    tag = None
    tag_colour = HIGHLIGHT
    if result is not None:
        if seat in (result.get("winners") or []):
            tag = "WINNER"
        elif result.get("winners"):
            tag, tag_colour = "OUT", MUTED
        else:
            tag, tag_colour = "DRAW", MUTED
    elif view["phase"] == "setup":
        done = (view.get("setup_done") or [False, False])[seat]
        if done is not None:
            tag, tag_colour = ("banners set", TEXT) if done else ("choosing…", HIGHLIGHT)
    elif waiting:
        tag = "▶ to play" if seat == view.get("active") else "▶ to answer"
    elif seat == view.get("active"):
        tag, tag_colour = "their turn", TEXT
    tag_font = font(13, bold=True)
    tag_w = tag_font.getlength(tag) + 8 if tag else 0
    # the name, in the side's colour, clipped to the room the tag leaves
    name_font = font(17, bold=True)
    draw.rectangle((x0 + 10, top + 10, x0 + 16, top + 28), fill=pc.fill)
    draw.text((x0 + 22, top + 19), fit_text(_who(seat), name_font, x1 - x0 - 40 - tag_w),
              font=name_font, fill=TEXT, anchor="lm")
    if tag:
        draw.text((x1 - 12, top + 19), tag, font=tag_font, fill=tag_colour, anchor="rm")
    dmg = side["damage"]
    big = font(24, bold=True)
    num_colour = TEXT if dmg < 15 else (HIGHLIGHT if dmg < LOSING else PAPER)
    out = f"/{LOSING}"
    small = font(14, bold=True)
    # The label never runs into the number: smaller, then without "(20 loses)" ("/20" says it).
    room = x1 - x0 - 24 - small.getlength(out) - 2 - big.getlength(str(dmg)) - 6
    label, label_font = "Property Damage (20 loses)", font(13)
    for label, size in ((f"Property Damage ({LOSING} loses)", 13),
                        (f"Property Damage ({LOSING} loses)", 12), ("Property Damage", 13)):
        label_font = font(size)
        if label_font.getlength(label) <= room:
            break
    draw.text((x0 + 12, top + 50), label, font=label_font, fill=MUTED, anchor="ls")
    draw.text((x1 - 12, top + 51), out, font=small, fill=MUTED, anchor="rs")
    draw.text((x1 - 12 - small.getlength(out) - 2, top + 51), str(dmg), font=big,
              fill=num_colour, anchor="rs")
    # the bar: 20 segments, filled up to the damage
    bx0, bx1 = x0 + 12, x1 - 12
    by0, by1 = top + 57, top + PLATE_H - 10
    seg_w = (bx1 - bx0) / LOSING
    for i in range(LOSING):
        sx0 = bx0 + i * seg_w
        sx1 = bx0 + (i + 1) * seg_w - 2
        filled = i < dmg
        colour = pc.fill if filled else mix(PANEL, BACKGROUND, 0.6)
        draw.rectangle((round(sx0), by0, round(sx1) - 1, by1 - 1), fill=colour)
        if not filled and i >= 15:
            draw.rectangle((round(sx0), by1 - 4, round(sx1) - 1, by1 - 1),
                           fill=mix(PANEL, HIGHLIGHT, 0.45))
    for mark in (5, 10, 15):
        mx = round(bx0 + mark * seg_w - 1)
        draw.line((mx, by1 + 1, mx, by1 + 4), fill=MUTED)


def _floor(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    mid_x = MARGIN + board.MIDDLE_Y * SCALE
    viewer = _viewer_seat(view)
    for seat in (0, 1):
        pc = _side_colour(seat)
        side = view["sides"][seat]
        x0 = MARGIN if seat == 0 else mid_x
        x1 = mid_x if seat == 0 else MARGIN + FLOOR_W
        draw.rectangle((x0, top, x1 - 1, top + FLOOR_H - 1), fill=mix(BACKGROUND, pc.fill, 0.10))
        # the front area, shaded
        near, far = (mid_x - FRONT_BAND[0] * SCALE, mid_x - FRONT_BAND[1] * SCALE) if seat == 0 \
            else (mid_x + FRONT_BAND[0] * SCALE, mid_x + FRONT_BAND[1] * SCALE)
        fx0, fx1 = sorted((near, far))
        draw.rectangle((fx0, top, fx1 - 1, top + FLOOR_H - 1), fill=mix(BACKGROUND, pc.fill, 0.24))
        draw.text(((fx0 + fx1) / 2, top + 6), "FRONT", font=font(LABEL, bold=True),
                  fill=mix(TEXT, pc.fill, 0.3), anchor="mt")
        bx = _xy(seat, "B2", top)[0]
        draw.text((bx, top + 6), "BACK", font=font(LABEL, bold=True), fill=MUTED, anchor="mt")
        # stands
        for spot in board.STAND_SPOTS:
            _stand_spot(draw, side, seat, spot, top)
        # banner spots
        planned = set(view.get("my_setup") or []) if viewer == seat else set()
        secret = view["phase"] == "setup" and not side["banners"]
        for spot in board.BANNER_SPOTS:
            c = _xy(seat, spot, top)
            state = side["spots"].get(spot)
            _banner_spot(draw, c, spot, state, seat, planned=spot in planned,
                         secret=secret and not planned)
        # customer spots
        for spot in board.CUSTOMER_SPOTS:
            c = _xy(seat, spot, top)
            if spot in side["customers"]:
                _disc(draw, c, CUSTOMER_R, CUSTOMER_FILL)
                _glyph(draw, c, _person_mask(2 * CUSTOMER_R - 6), INK)
            else:
                _ring(draw, c, CUSTOMER_R, GRID, 2)
        if view["phase"] == "setup" and not planned:
            done = (view.get("setup_done") or [False, False])[seat]
            msg = ("banners set up in secret" if done is None else
                   "banners set in secret" if done else "setting up banners…")
            cx = (_xy(seat, "F2", top)[0] + _xy(seat, "B2", top)[0]) / 2
            f = font(14, bold=True)
            w = f.getlength(msg) + 20
            cy = top + FLOOR_H - 20
            draw_rounded(draw, (cx - w / 2, cy - 12, cx + w / 2, cy + 12), 8, fill=PANEL,
                         outline=GRID)
            draw_centred(draw, (cx, cy), msg, font=f, fill=TEXT)
    # the middle line, dashed
    for y in range(top, top + FLOOR_H, 12):
        draw.line((mid_x, y, mid_x, min(y + 7, top + FLOOR_H - 1)), fill=TEXT, width=2)
    draw.rectangle((MARGIN - 1, top - 1, MARGIN + FLOOR_W, top + FLOOR_H), outline=GRID, width=2)


def _aim_marks(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    """On top of everything: the current flick's call or aim, and during a simulated aim
    prompt the chance of knocking each standing target."""
    odds = (view.get("odds") or {}).get("aim") or {}
    flick = view.get("flick") or {}
    marked = {flick.get("called"), flick.get("target")} - {None, "middle"}
    if not odds and not marked:
        return
    for seat in (0, 1):
        side = view["sides"][seat]
        stand_lab = board.label(seat, side["stand"])
        sx, sy = _xy(seat, side["stand"], top)
        if stand_lab in marked:
            draw_rounded(draw, (sx - STAND_W / 2 - 6, sy - STAND_H / 2 - 6, sx + STAND_W / 2 + 6,
                                sy + STAND_H / 2 + 6), 12, outline=HIGHLIGHT, width=3)
            _odds_tag(draw, (sx, sy - STAND_H / 2 - 11),
                      "called" if stand_lab == flick.get("called") else "aim")
        elif stand_lab in odds:
            _odds_badge(draw, (sx, sy - STAND_H / 2 - 11), odds[stand_lab])
        for spot in board.BANNER_SPOTS:
            c = _xy(seat, spot, top)
            lab = board.label(seat, spot)
            above = (c[0], c[1] - BANNER_R - 10)
            if lab in marked:
                _ring(draw, c, BANNER_R + 7, HIGHLIGHT, 3)
                _odds_tag(draw, above, "called" if lab == flick.get("called") else "aim")
            elif lab in odds and side["spots"].get(spot) == "up":
                _odds_badge(draw, above, odds[lab])


def _stand_spot(draw: ImageDraw.ImageDraw, side: dict[str, Any], seat: int, spot: str,
                top: int) -> None:
    pc = _side_colour(seat)
    cx, cy = _xy(seat, spot, top)
    box = (cx - STAND_W / 2, cy - STAND_H / 2, cx + STAND_W / 2, cy + STAND_H / 2)
    if side["stand"] != spot:
        draw_rounded(draw, box, 8, outline=GRID, width=2)
        return
    draw_rounded(draw, box, 8, fill=mix(pc.fill, BACKGROUND, 0.62), outline=pc.fill, width=3)
    ssb = [b for b in side["banners"] if b.get("super_sale")]
    ssb.sort(key=lambda b: not b["up"])
    if not ssb:
        return
    n = len(ssb)
    for i, b in enumerate(ssb):
        bx = cx + (i - (n - 1) / 2) * (2 * SSB_R + 3)
        c = (bx, cy + 1)
        if b["up"]:
            _disc(draw, c, SSB_R, pc.fill)
            _ring(draw, c, SSB_R, TEXT, 2)
            _glyph(draw, c, _flag_mask(2 * SSB_R - 6, False), pc.text)
        else:
            _disc(draw, c, SSB_R, KNOCKED)
            _glyph(draw, c, _flag_mask(2 * SSB_R - 6, True), mix(KNOCKED, TEXT, 0.55))


def _banner_spot(draw: ImageDraw.ImageDraw, c, spot: str, state: str | None, seat: int, *,
                 planned: bool, secret: bool) -> None:
    """The spot's banner (standing, knocked or planned) or an empty ring; its name is drawn
    later by `_spot_labels`, over arrows and dice."""
    pc = _side_colour(seat)
    if state == "up":
        _disc(draw, c, BANNER_R, pc.fill)
        _ring(draw, c, BANNER_R, mix(pc.fill, PAPER, 0.55), 2)
        _glyph(draw, c, _flag_mask(2 * BANNER_R - 10, False), pc.text)
    elif state == "down":
        _disc(draw, c, BANNER_R, KNOCKED)
        _glyph(draw, c, _flag_mask(2 * BANNER_R - 10, True), mix(KNOCKED, TEXT, 0.6))
    elif planned:
        _disc(draw, c, BANNER_R, mix(pc.fill, BACKGROUND, 0.55))
        _ring(draw, c, BANNER_R, pc.fill, 3)
        _glyph(draw, c, _flag_mask(2 * BANNER_R - 10, False), mix(pc.text, pc.fill, 0.3))
    else:
        _ring(draw, c, BANNER_R, GRID, 2)


def _label(draw: ImageDraw.ImageDraw, c, text: str, fill: Colour, back: Colour) -> None:
    """A spot's name on a small plate of the floor's colour (an arrow under it stops short)."""
    f = font(LABEL, bold=True)
    w = f.getlength(text) + 6
    draw_rounded(draw, (c[0] - w / 2, c[1] - 8, c[0] + w / 2, c[1] + 8), 4, fill=back)
    draw_centred(draw, c, text, font=f, fill=fill)


def _spot_labels(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    """Every spot's name, drawn after arrows, dice and aim marks so none of them covers it."""
    viewer = _viewer_seat(view)
    for seat in (0, 1):
        pc = _side_colour(seat)
        side = view["sides"][seat]
        back = mix(BACKGROUND, pc.fill, 0.10)
        planned = set(view.get("my_setup") or []) if viewer == seat else set()
        secret = view["phase"] == "setup" and not side["banners"]
        for spot in board.BANNER_SPOTS:
            c = _xy(seat, spot, top)
            state = side["spots"].get(spot)
            below = (c[0], c[1] + BANNER_R + 9)
            if state == "up":
                _label(draw, below, spot, TEXT, back)
            elif state == "down":
                _label(draw, below, f"{spot} down", MUTED, back)
            elif spot in planned:
                _label(draw, below, f"{spot} plan", TEXT, back)
            else:
                _label(draw, c, "?" if secret and not planned else spot, MUTED, back)
        for spot in board.CUSTOMER_SPOTS:
            if spot not in side["customers"]:
                _label(draw, _xy(seat, spot, top), spot, MUTED, back)
        for spot in board.STAND_SPOTS:
            cx, cy = _xy(seat, spot, top)
            if side["stand"] != spot:
                _label(draw, (cx, cy), spot, MUTED, back)
            else:
                stand_back = mix(pc.fill, BACKGROUND, 0.62)
                _label(draw, (cx, cy - STAND_H / 2 + 11), "STAND", TEXT, stand_back)
                _label(draw, (cx, cy + STAND_H / 2 - 11), spot, TEXT, stand_back)


def _odds_badge(draw: ImageDraw.ImageDraw, c, odds: dict[str, Any]) -> None:
    """The chance that an aimed (uncalled) flick knocks the target: clean + pair."""
    pts = odds["outcomes"]
    _odds_tag(draw, c, f"{pts.get('clean', 0) + pts.get('pair', 0)}%")


def _odds_tag(draw: ImageDraw.ImageDraw, c, text: str) -> None:
    """A small yellow label above a spot: a chance, or "called"/"aim"."""
    f = font(LABEL, bold=True)
    w = f.getlength(text) + 8
    cx, cy = c
    draw_rounded(draw, (cx - w / 2, cy - 8, cx + w / 2, cy + 8), 5, fill=HIGHLIGHT)
    draw_centred(draw, (cx, cy), text, font=f, fill=INK)


# --- flicks ---------------------------------------------------------------------------------------

def _unit(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _landing(f: dict[str, Any], top: int) -> tuple[tuple[float, float], str | None]:
    """Where the die of a flick came to rest (the centre of its drawn face), and a word to
    write by it ("miss", "off").

    A die that knocked something lies against the first thing it knocked, on the flicker's
    side of it; a miss lies beside the spot it was aimed at; a die off the floor lies at the
    floor's edge past its target; a flick at nothing lands on the middle line.
    """
    start = _label_xy(f["from"], top)
    fell = list(f["fell"]) if not f["off"] else []
    aim = f["to"]
    if fell:
        t = _label_xy(fell[0], top)
        ux, uy = _unit(start, t)
        back = _radius(_spot_of(fell[0])) + DIE / 2 - 12
        return (t[0] - ux * back, t[1] - uy * back), None
    t = _label_xy(aim, top) if aim else (MARGIN + board.MIDDLE_Y * SCALE, start[1])
    ux, uy = _unit(start, t)
    if f["off"]:
        # on past the target to the edge of the floor
        ks = []
        for edge, d, o in ((MARGIN, ux, start[0]), (MARGIN + FLOOR_W, ux, start[0]),
                           (top, uy, start[1]), (top + FLOOR_H, uy, start[1])):
            if abs(d) > 1e-9 and (edge - o) / d > 0:
                ks.append((edge - o) / d)
        k = min(ks) - DIE / 2 - 4
        return (start[0] + ux * k, start[1] + uy * k), "off"
    if aim:
        # beside the target, toward the middle of the floor's width
        nx, ny = -uy, ux
        if (t[1] + ny * 10 - (top + FLOOR_H / 2)) * ny > 0:
            nx, ny = -nx, -ny
        off = _radius(_spot_of(aim)) + DIE / 2 + 4
        return (t[0] + nx * off, t[1] + ny * off), "miss"
    return t, "miss"


def _flick_arrows(draw: ImageDraw.ImageDraw, flicks: list[dict[str, Any]], top: int) -> None:
    """An arrow from the flicker's Stand to the die where it landed, showing the rolled value."""
    seen: dict[tuple[int, int], int] = {}
    dice: list[tuple[dict[str, Any], tuple[float, float], str | None]] = []
    for f in flicks:
        pc = _side_colour(f["by"])
        start = _label_xy(f["from"], top)
        end, word = _landing(f, top)
        key = (round(end[0]), round(end[1]))
        dup = seen.get(key, 0)
        seen[key] = dup + 1
        if dup:   # the same landing twice: set the later die beside the earlier one
            end = (end[0] + (DIE + 6) * ((dup + 1) // 2) * (1 if dup % 2 else -1), end[1])
        ux, uy = _unit(start, end)
        s = (start[0] + ux * (STAND_W / 2 - 6), start[1] + uy * (STAND_W / 2 - 6))
        e = (end[0] - ux * (DIE / 2 + 5), end[1] - uy * (DIE / 2 + 5))
        draw_arrow(draw, s, e, mix(pc.text, BACKGROUND, 0.15), 7, head=16)
        draw_arrow(draw, s, e, pc.fill, 4, head=13)
        dice.append((f, end, word))
    for f, (mx, my), word in dice:
        pc = _side_colour(f["by"])
        box = (mx - DIE / 2, my - DIE / 2, mx + DIE / 2, my + DIE / 2)
        draw_die(draw, box, f["value"], highlight=pc.fill)
        if len(flicks) > 1:
            cx, cy = box[2] + 1, box[1] - 1
            _disc(draw, (cx, cy), 9, pc.fill)
            draw_centred(draw, (cx, cy), str(f["number"]), font=font(12, bold=True),
                         fill=pc.text)
        if word:
            below = my + DIE / 2 + 11
            if below + 9 > top + FLOOR_H:
                below = my - DIE / 2 - 11
            _tag(draw, (mx, below), word, pc)


def _tag(draw: ImageDraw.ImageDraw, centre, text: str, pc) -> None:
    f = font(LABEL, bold=True)
    w = f.getlength(text) + 8
    cx, cy = centre
    draw_rounded(draw, (cx - w / 2, cy - 8, cx + w / 2, cy + 8), 5, fill=INK, outline=pc.fill,
                 width=2)
    draw_centred(draw, (cx, cy), text, font=f, fill=TEXT)


FLICK_X = MARGIN + DIE + 14 + 34       # where a flick row's words start (die, "1/2")


def _flick_row_lines(f: dict[str, Any]) -> list[str]:
    """A flick's words, wrapped to the picture (never cut off)."""
    aim = (f"Called {_rel(f['called'], f['by'])}" if f["called"] else
           (f"at {_rel(f['to'], f['by'])}" if f["to"] else "no target"))
    fell = ("fell " + ", ".join(_rel(x, f["by"]) for x in f["fell"])
            if f["fell"] and not f["off"] else "")
    added = ", ".join(f"+{a} to {_who(i)}" for i, a in enumerate(f["added"]) if a)
    text = " · ".join(x for x in (aim, _outcome_words(f), fell, added or "no damage") if x)
    return wrap_text(text, font(13), WIDTH - MARGIN - FLICK_X)


def _flick_row_h(lines: list[str]) -> int:
    return max(FOOTER_ROW, 17 * len(lines) + 12)


KEY = "filled = standing · grey = knocked · die = number rolled"


def _legend_lines(view: dict[str, Any]) -> list[str]:
    """The supply and the key: on one line when they fit, else the key on its own."""
    supply = view.get("supply")
    legend = f"Customers in supply: {supply}" if supply is not None else ""
    f = font(13)
    if not legend or f.getlength(f"{legend}   {KEY}") <= WIDTH - 2 * MARGIN:
        return [f"{legend}\t{KEY}" if legend else f"\t{KEY}"]
    return [legend] + [f"\t{line}" for line in wrap_text(KEY, f, WIDTH - 2 * MARGIN)]


def _footer(draw: ImageDraw.ImageDraw, view: dict[str, Any], status: list[str],
            flicks: list[dict[str, Any]], rows: list[list[str]], legend: list[str],
            top: int) -> None:
    y = top
    status_font = font(14)
    for line in status:
        draw.text((MARGIN, y), line, font=status_font, fill=HIGHLIGHT, anchor="lt")
        y += 20
    if status:
        y += 8
    if flicks:
        f0 = flicks[0]
        draw.text((MARGIN, y), fit_text(f"Last flicks (turn {f0['turn']}, {_who(f0['by'])}, "
                                        f"{f0['mode']})", font(14, bold=True), FLOOR_W),
                  font=font(14, bold=True), fill=MUTED, anchor="lt")
        y += 24
        row_font = font(13)
        for f, lines in zip(flicks, rows):
            h = _flick_row_h(lines)
            pc = _side_colour(f["by"])
            dy = y + (h - FOOTER_ROW) / 2
            draw_die(draw, (MARGIN + 4, dy, MARGIN + 4 + DIE, dy + DIE), f["value"],
                     highlight=pc.fill)
            draw.text((MARGIN + DIE + 14, dy + DIE / 2), f"{f['number']}/{f['of']}",
                      font=font(14, bold=True), fill=TEXT, anchor="lm")
            for k, line in enumerate(lines):
                draw.text((FLICK_X, dy + DIE / 2 + 17 * (k - (len(lines) - 1) / 2)), line,
                          font=row_font, fill=TEXT, anchor="lm")
            y += h
    for line in legend:
        left, _, right = line.partition("\t")
        if left:
            draw.text((MARGIN, y + 4), left, font=font(13), fill=MUTED, anchor="lt")
        if right:
            draw.text((WIDTH - MARGIN, y + 4), right, font=font(13), fill=MUTED, anchor="rt")
        y += 18


# --- alt text -------------------------------------------------------------------------------------

def _side_alt(view: dict[str, Any], seat: int) -> str:
    s = view["sides"][seat]
    bits = [f"{s['name']} Property Damage {s['damage']} of {LOSING}"]
    stand = f"Stand {s['stand']}"
    ss = s.get("super_sale") or {}
    ssb = [f"{n} Super Sale Banner{'s' if n > 1 else ''} {how}"
           for n, how in ((ss.get("up", 0), "up"), (ss.get("down", 0), "knocked off")) if n]
    if ssb:
        stand += " with " + " and ".join(ssb)
    bits.append(stand)
    if s["banners"]:
        up = [sp for sp, st in s["spots"].items() if st == "up"]
        down = [sp for sp, st in s["spots"].items() if st == "down"]
        bits.append("banners standing " + (" ".join(up) if up else "none")
                    + ("; knocked " + " ".join(down) if down else ""))
    elif view["phase"] == "setup":
        done = (view.get("setup_done") or [False, False])[seat]
        bits.append("banners set up in secret" if done or done is None
                    else "choosing banner spots")
    bits.append("customers " + (" ".join(s["customers"]) if s["customers"] else "none"))
    return "; ".join(bits) + "."


def alt_text(view: dict[str, Any]) -> str:
    """A short description of the picture, from the view alone."""
    _use_names(view, drawn=False)
    parts = [f"{view.get('title', 'Crazy Die-Man is Unbreakable!')} ({view['mode']}). "
             f"{_subtitle(view)}."]
    parts += [_side_alt(view, seat) for seat in (0, 1)]
    if view.get("my_setup"):
        parts.append("Your planned banners: " + " ".join(view["my_setup"]) + ".")
    flicks = _latest_flicks(view)
    if flicks:
        parts.append("Last flicks: " + "; ".join(_flick_words(f) for f in flicks) + ".")
    f = view.get("flick")
    if f and f.get("report"):
        r = f["report"]
        parts.append(f"Report under review: rolled {r['value']}, "
                     + ("off the floor" if r["off"] else
                        ("fell " + _wheres(r["fell"]) if r["fell"] else "nothing fell"))
                     + ".")
    aims = (view.get("odds") or {}).get("aim") or {}
    shown = [(lab, o) for lab, o in aims.items() if lab != "middle"
             and view["sides"][board.split_label(lab)[0]]["spots"].get(
                 board.split_label(lab)[1]) == "up"]
    if shown:
        parts.append("Chance that a flick aimed there knocks the banner: " + ", ".join(
            f"{_where(lab)} {o['outcomes']['clean'] + o['outcomes']['pair']}%"
            for lab, o in shown) + ".")
    if view.get("result"):
        parts.append("Result: " + view["result"]["reason"] + ".")
    return " ".join(parts)


# --- the odds of one simulated flick --------------------------------------------------------------

ODDS_WIDTH = 550                  # Discord's display width: shown at its own size
ODDS_ROW = 34
_GOOD = ("clean", "pair", "neighbour")


ODDS_ROW_NAMES = {"clean": "knocks the target alone", "pair": "target + a banner beside it",
                  "neighbour": "misses, knocks one beside it", "customer": "knocks a customer",
                  "miss": "lands, knocks nothing", "off": "flies off the floor"}


def render_odds(odds: dict[str, Any], target: str | None = None, *,
                seat: int | None = None, names: list[str] | None = None) -> Picture:
    """One simulated flick's chances (`odds.flick_odds` output) as a bar per outcome.

    `target`: the aimed spot ("P2:F2", "middle"), for the title; `seat`: the flicker, whose
    colour the knocking outcomes take. Bars are points per 100; the self-knock of a Super Sale
    Banner (drawn separately) gets its own bar when it can happen.
    """
    pc = player_colour(seat if seat is not None else 0)
    if target in (None, "middle"):
        where = "the middle"
    else:
        t_seat, t_spot = board.split_label(target)
        who = _name(names[t_seat]) if names else board.SIDE_NAMES[t_seat]
        where = f"{who}'s {t_spot}"
    title = ("Called Shot at " if odds.get("called") else "Flick at ") + where
    sub = ("no target: nothing of your rival's can fall" if odds.get("band") is None
           else f"{round(odds['distance'])} floor units from your Stand (farther: less "
                "accurate)")
    rows = [(ODDS_ROW_NAMES[o], int(odds["outcomes"].get(o, 0)), o) for o in OUTCOMES]
    if odds.get("self_knock"):
        rows.append(("Super Sale Banner off your Stand (+6)", int(odds["self_knock"]), "self"))
    label_font = font(16)
    num_font = font(17, bold=True)
    lx = MARGIN
    bar_x0 = MARGIN + 190
    bar_x1 = ODDS_WIDTH - MARGIN - 52
    # A label too long for its column is wrapped onto a second line, never cut.
    labels = [wrap_text(name, label_font, bar_x0 - lx - 8) for name, _, _ in rows]
    row_hs = [max(ODDS_ROW, 20 * len(lines) + 14) for lines in labels]
    top = title_bar_height(sub) + 14
    height = top + sum(row_hs) + MARGIN
    img, draw = new_canvas(ODDS_WIDTH, height)
    title_bar(img, title, sub)
    y = top
    for (name, pts, key), lines, row_h in zip(rows, labels, row_hs):
        cy = y + row_h / 2
        colour = (pc.fill if key in _GOOD else
                  HIGHLIGHT if key in ("customer", "self") else
                  mix(MUTED, BACKGROUND, 0.2) if key == "miss" else mix(MUTED, PANEL, 0.5))
        for k, line in enumerate(lines):
            draw.text((lx, cy + 20 * (k - (len(lines) - 1) / 2)), line, font=label_font,
                      fill=TEXT if pts else MUTED, anchor="lm")
        bar = (cy - ODDS_ROW / 2 + 7, cy + ODDS_ROW / 2 - 8)
        draw.rectangle((bar_x0, bar[0], bar_x1 - 1, bar[1]), fill=PANEL)
        if pts:
            w = max(3, round((bar_x1 - bar_x0) * pts / 100))
            draw.rectangle((bar_x0, bar[0], bar_x0 + w - 1, bar[1]), fill=colour)
        draw.text((ODDS_WIDTH - MARGIN, cy), f"{pts}%", font=num_font,
                  fill=TEXT if pts else MUTED, anchor="rm")
        y += row_h
    alt = f"{title}, {sub}: " + ", ".join(f"{n} {p}%" for n, p, _ in rows) + "."
    return to_png(img, alt, "diemen-odds.png")
