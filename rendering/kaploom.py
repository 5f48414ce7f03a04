"""KAPLOOM! pictures, all from data the engine publishes (keys: bot/engine/kaploom/view.py).

For Discord (about 550 px wide on screen; every text with game information at least 13 px):
- `public_picture(view)`: the thread's compact board from the public view: per player their
  name (drawn safely: clipped, what the font cannot draw replaced by "?"), side or super,
  health bar and number, whether they have locked in or are powering up, the immediate actions
  they announced, the last reveal's actions, abilities and spoiler tokens; then the last fight,
  attack against defense with both sums written out, and the result.
- `seat_picture(view)`: a seat's panel picture from its own view (None for the public view):
  their dice (the face showing, the six faces, the action each die is on), the attack and
  defense the placed actions make so far (the view's sums, computed by the rules code), loose
  faces and abilities; in 2 vs 2 the ally's dice and the Duo board too. Nothing in it depends
  on what the opponents do, so another player's move never changes a panel.
- `render_action_board(supers=(), duo=False)`: the printed board for `/kaploom board`, built
  from ACTION_TABLE (and SUPER_TABLE / DUO_TABLE when asked), 550 px wide and at most 1,400 px
  tall: ATTACK and DEFENSE side by side, POWER UP, supers and Duo board below, each action's
  words where its short effect does not say it all (left off first where the board would be
  too tall: the message sent with it lists every action in full), and a legend of faces and
  requirement symbols, so it can never drift from the rules code. It depends on the tables
  alone, so it is drawn once per process and then served from a cache.

`render(view)` is the earlier full table (every tri-fold board at 920 px per player), kept for
the benchmark's before/after comparison and for reading a whole game at once offline; its sums
come from the view too. Colour is never the only cue: faces carry their letter, panels their
name; the sums are written in numbers.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.kaploom.combat import formula
from bot.engine.kaploom.data import (ACTION_TABLE, ALL_ACTIONS, BLANK, COLOURS, DUO_TABLE,
                                     FACE_COLOURS, FACE_NAMES, FACES, ROUND_LIMIT, SPOILER_CAP,
                                     SUPER_TABLE, SUPERS, Action)
from bot.engine.kaploom.requirements import SYMBOLS
from rendering.canvas import MARGIN, new_canvas, title_bar, title_bar_height
from rendering.colours import (BACKGROUND, DIE_COLOURS, GRID, HIGHLIGHT, INK, MUTED, PANEL,
                               TEXT, Colour, DieColours, hex_colour, mix, player_colour,
                               readable_on)
from rendering.dice import draw_die
from rendering.fonts import font
from rendering.picture import Picture, to_png
from rendering.shapes import draw_rounded, rounded_mask, stamp
from rendering.text import draw_centred, drawable, fit_text, wrap_text

Draw = ImageDraw.ImageDraw | None     # None: measure only (every block returns its bottom y)
View = dict[str, Any]

# --- geometry ------------------------------------------------------------------------------------

BOARD_W = 920                 # one player's board
PAD = 14                      # inside a board
COL_GAP = 10                  # between the tri-fold panels
ROW_H = 24                    # an action's line
SECTION_H = 20                # a section title in a panel ("KICKERS · they stack")
TOKEN_H = 18                  # a line of the compact list of actions without dice
PLACED_DIE = 28               # dice drawn on an action
EXPAND_H = PLACED_DIE + 8     # the line of dice under an action with dice on it
TAGS_H = 22                   # the line of tags under an action with only tags
CHIP = 16                     # a requirement symbol
POOL_DIE = 42                 # a die in a player's dice row
MINI = 13                     # one face of an action die's net
SUMS_H = 66                   # the attack / defense sums under the tri-fold
GRID_GAP = 18                 # between boards
TRACK_ROW = 46                # one health bar
FIGHT_ROW = 62                # one attack in the fight strip
NOTE_ROW = 38                 # a line of it without an attack ("no attack base")
EFFECT_MIN = 30               # the least room for the effect at the right of an action line

# --- colours -------------------------------------------------------------------------------------

ATTACK_C = DIE_COLOURS["red"].fill
DEFENSE_C = DIE_COLOURS["blue"].fill
POWER_C = DIE_COLOURS["green"].fill
SUPER_C = DIE_COLOURS["purple"].fill
DUO_C = hex_colour("#c77dff")
LOSS_C = hex_colour("#e5484d")
SAFE_C = hex_colour("#2f9e55")
BLANK_FACE = DieColours(mix(PANEL, BACKGROUND, 0.4), MUTED, GRID)
TRACK_BG = mix(BACKGROUND, INK, 0.35)
TOKEN_C = mix(TEXT, MUTED, 0.35)

# The tri-fold: its three panels and the board sections in each (data.Action.panel).
COLUMNS: tuple[tuple[str, Colour, tuple[str, ...]], ...] = (
    ("ATTACK", ATTACK_C, ("attack base", "attack kicker", "attack multiplier")),
    ("DEFENSE", DEFENSE_C, ("defense base", "defense kicker", "defense multiplier")),
    ("POWER UP", POWER_C, ("immediate", "power up")),
)
SECTION_TITLES = {
    "attack base": "BASE · one, the highest", "attack kicker": "KICKERS · they stack",
    "attack multiplier": "MULTIPLIER · one, the highest",
    "defense base": "BASE · one, the highest", "defense kicker": "KICKERS · they stack",
    "defense multiplier": "MULTIPLIER · one, the highest",
    "immediate": "IMMEDIATE · at once, in Phase 1", "power up": "POWER UP · in Phase 3",
    "duo": "DUO BOARD",
}
STAGE_WORDS = {"roll": "rolling", "assign": "Phase 1: secret assignment",
               "reveal": "Phase 2: reveal", "power": "Phase 3: Power Up", "over": "game over"}


# --- small pieces --------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _length(text: str, size: int, bold: bool) -> float:
    """Advance width of `text` (cached: a board measures the same words twice, every time)."""
    return font(size, bold=bold).getlength(text)


@lru_cache(maxsize=64)
def _corners(radius: int, width: int) -> tuple:
    """The four quarter masks of a rounded box's corners (width 0: filled)."""
    mask = rounded_mask(2 * radius, 2 * radius, radius, width)
    r = radius
    return tuple(mask.crop((cx, cy, cx + r, cy + r)) for cx, cy in ((0, 0), (r, 0), (0, r), (r, r)))


def _box(d: ImageDraw.ImageDraw, box: Sequence[float], radius: int, *,
         fill: Colour | None = None, outline: Colour | None = None, width: int = 1) -> None:
    """A rounded box drawn as plain rectangles plus smooth corners: a big panel costs a tenth
    of stamping a whole-panel mask, and looks the same."""
    x0, y0, x1, y1 = (round(v) for v in box)
    r = radius
    if x1 - x0 < 2 * r + 2 or y1 - y0 < 2 * r + 2:
        draw_rounded(d, (x0, y0, x1, y1), r, fill=fill, outline=outline, width=width)
        return
    spots = ((x0, y0), (x1 - r, y0), (x0, y1 - r), (x1 - r, y1 - r))
    if fill is not None:
        d.rectangle((x0 + r, y0, x1 - r - 1, y1 - 1), fill=fill)
        d.rectangle((x0, y0 + r, x1 - 1, y1 - r - 1), fill=fill)
        for xy, mask in zip(spots, _corners(r, 0)):
            stamp(d, xy, mask, fill)
    if outline is not None and width > 0:
        w = width
        d.rectangle((x0 + r, y0, x1 - r - 1, y0 + w - 1), fill=outline)
        d.rectangle((x0 + r, y1 - w, x1 - r - 1, y1 - 1), fill=outline)
        d.rectangle((x0, y0 + r, x0 + w - 1, y1 - r - 1), fill=outline)
        d.rectangle((x1 - w, y0 + r, x1 - 1, y1 - r - 1), fill=outline)
        for xy, mask in zip(spots, _corners(r, w)):
            stamp(d, xy, mask, outline)


def _pill_w(text: str, size: int = 12, pad: int = 7) -> int:
    return round(_length(text, size, True)) + 2 * pad


def _pill(d: Draw, x: float, cy: float, text: str, fill: Colour, *, size: int = 12,
          ink: Colour | None = None, pad: int = 7, outline: Colour | None = None) -> int:
    """A rounded label with its left edge at `x`, centred on `cy`; returns its right edge."""
    w = _pill_w(text, size, pad)
    if d is not None:
        h = size + 8
        box = (round(x), round(cy - h / 2), round(x) + w, round(cy - h / 2) + h)
        draw_rounded(d, box, h / 2, fill=fill, outline=outline, width=2 if outline else 1)
        draw_centred(d, (box[0] + w / 2, box[1] + h / 2), text, font=font(size, bold=True),
                     fill=ink if ink is not None else readable_on(fill))
    return round(x) + w


def face_colours(face: str | None) -> DieColours:
    """How a face looks on its own (a chip, a face on an action die): its colour's die."""
    if face is None or face == BLANK:
        return BLANK_FACE
    return DIE_COLOURS.get(FACE_COLOURS.get(face, ""), BLANK_FACE)


def _face_chip(d: Draw, x: float, y: float, face: str, side: int) -> int:
    """A face as a small square in its colour with its letter (blank: an empty square)."""
    if d is not None:
        c = face_colours(face)
        draw_rounded(d, (x, y, x + side, y + side), max(2, side // 4), fill=c.fill,
                     outline=c.outline, width=1)
        if face != BLANK:
            draw_centred(d, (x + side / 2, y + side / 2), face,
                         font=font(max(8, round(side * 0.68)), bold=True), fill=c.pip)
    return round(x + side)


def _symbol_w(symbol: str, h: int = CHIP) -> int:
    if symbol in FACES:
        return h
    return round(_length(symbol, max(11, h - 6), True)) + 8


def _symbol(d: Draw, x: float, y: float, symbol: str, h: int = CHIP) -> int:
    """A requirement symbol: a face chip for M E T A X W, a grey tag for the others (ANY, ACT,
    PAIR, MATCH+ ...)."""
    if symbol in FACES:
        return _face_chip(d, x, y, symbol, h)
    w = _symbol_w(symbol, h)
    if d is not None:
        fill = DIE_COLOURS["gray"].fill if "ACT" in symbol else GRID
        draw_rounded(d, (x, y, x + w, y + h), 4, fill=fill)
        draw_centred(d, (x + w / 2, y + h / 2), symbol, font=font(max(11, h - 6), bold=True),
                     fill=readable_on(fill))
    return round(x + w)


def symbols_w(requires: Sequence[str], h: int = CHIP) -> int:
    return sum(_symbol_w(s, h) for s in requires) + 2 * max(0, len(requires) - 1)


def _symbols(d: Draw, x: float, y: float, requires: Sequence[str], h: int = CHIP) -> int:
    for i, s in enumerate(requires):
        x = _symbol(d, x, y, s, h) + 2
    return round(x - 2) if requires else round(x)


def effect_label(a: Action) -> str:
    """A short label of an action's effect for its line on a board ("3", "+1", "×2", "+4♥");
    the full sentence is `a.text` (the reference board prints it)."""
    e, n = a.effect, a.amount
    if e in ("attack_base", "defense_base"):
        return str(n)
    if e in ("attack_kicker", "defense_kicker"):
        return f"+{n}"
    if e in ("attack_multiplier", "defense_multiplier"):
        return f"×{n}"
    if e == "attack_kicker_per_action_die":
        return f"+{n}/die"
    if e == "attack_multiplier_spoilers":
        return "×(1+★)"
    if e == "reroll":
        return "re-roll" if n == 1 else f"re-roll {n}"
    if e in ("heal", "heal_now"):
        return f"+{n}♥"
    if e in ("punish_die_gain", "punish_face_gain"):
        return f"−{n}♥"
    if e == "gain_trait_die":
        return "+die"
    if e == "gain_action_die":
        return f"+die {a.face}" if a.face else ("+die" if n == 1 else f"+die {n}F")
    if e == "gain_face":
        return f"+{a.face}" if a.face else "+face"
    if e == "trade_face":
        return "swap"
    if e == "gain_spoiler":
        return "+★"
    if e == "lock_in":
        return "LOCK"
    if e == "team_attack_kicker":
        return f"+{n} atk"
    if e == "cover":
        return f"+{n} def"
    if e == "hand_off":
        return "pass"
    if e == "revive":
        return f"{n}♥"
    return a.text[:8]


def _die(d: Draw, x: float, y: float, side: int, colour: str, face: str | None, *,
         greyed: bool = False, highlight: Colour | bool | None = None) -> None:
    """A KAPLOOM! die: its colour, the face showing ("?" when it is not ours to see)."""
    if d is None:
        return
    c = DIE_COLOURS.get(colour, DIE_COLOURS["gray"])
    value = "?" if face is None else face
    draw_die(d, (x, y, x + side, y + side), value, greyed=greyed, highlight=highlight,
             **c.kwargs())


def _text(d: Draw, xy: tuple[float, float], text: str, size: int, fill: Colour, *,
          bold: bool = False, anchor: str = "lm", width: float | None = None) -> int:
    """Draw one line (shortened to `width`); return its right edge."""
    fnt = font(size, bold=bold)
    if width is not None and _length(text, size, bold) > width:
        text = fit_text(text, fnt, width)
    if d is not None and text:
        d.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return round(xy[0] + _length(text, size, bold))


# --- reading the view ----------------------------------------------------------------------------

def _seat_word(p: dict[str, Any]) -> str:
    return f"{p['super']} ({p['side']})" if p["super"] else p["side"]


def _label(p: dict[str, Any]) -> str:
    return f"{p['name']} {_seat_word(p)}"


def _short(p: dict[str, Any]) -> str:
    return f"{p['name']} {p['super'] or p['side']}"


def _die_index(v: View) -> dict[str, dict[str, Any]]:
    """Every die in the view by id (a Duo placement may hold the ally's dice)."""
    return {die["id"]: die for p in v["players"] for die in p["dice"]}


def _combat_now(v: View) -> dict[str, Any] | None:
    """The reveal of this round (Phase 2 onwards, the end of the game included), else None
    (a fight from an earlier round is history: drawn below the boards, not on them)."""
    c = v.get("combat")
    if not c:
        return None
    if c["round"] == v["round"] and v["stage"] in ("reveal", "power", "over"):
        return c
    return None


def _placements(v: View, p: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """Action name -> placement on this player's board, or None when it is behind the screen."""
    if p["board"] is None:
        return None
    if p["board"]:
        return {b["action"]: b for b in p["board"]}
    c = _combat_now(v)
    if c and v["stage"] == "over":           # the round limit cleared the boards after it
        return {b["action"]: b for b in c["boards"].get(str(p["seat"]), [])}
    return {}


def _duo_placements(v: View, team: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    if team["board"] is None:
        return None
    if team["board"]:
        return {b["action"]: b for b in team["board"]}
    c = _combat_now(v)
    if c and v["stage"] == "over" and team["team"] < len(c.get("duo", [])):
        return {b["action"]: b for b in c["duo"][team["team"]]}
    return {}


def _sums(v: View, p: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], str] | None:
    """(attack, defense, caption) for the sums under a board: the reveal's, or during Phase 1
    in a view that sees the board, what the placed dice make so far (the view's sums, computed
    by the rules code)."""
    c = _combat_now(v)
    if c is not None and str(p["seat"]) in c["summary"] and (
            c["round"] == v["round"] or not p["board"]):
        s = c["summary"][str(p["seat"])]
        return s["attack"], s["defense"], f"round {c['round']}"
    places = _placements(v, p)
    if v["stage"] not in ("assign", "over") or not places:
        return None
    if p.get("attack") is None:
        return None
    atk, dfn = p["attack"], p["defense"]   # the engine's sums of what is placed
    return atk, dfn, "so far" if v["stage"] == "assign" else "as placed"


def sum_numbers(comp: dict[str, Any]) -> str | None:
    """'(3 + 1) × 2 = 8' from a computation (combat.py), or None without a base."""
    if comp["base"] is None:
        return None
    parts = [comp["base"]["value"]] + [x["value"] for x in comp["bonuses"] + comp["kickers"]]
    if len(parts) == 1 and not comp["multiplier"]:
        return str(comp["total"])
    text = " + ".join(str(n) for n in parts)
    if comp["multiplier"]:
        if len(parts) > 1:
            text = f"({text})"
        text += f" × {comp['multiplier']['value']}"
    return f"{text} = {comp['total']}"


def sum_names(comp: dict[str, Any]) -> str:
    """'POW + WIND-UP × DOUBLE TROUBLE': the actions behind the numbers, in the same order."""
    if comp["base"] is None:
        return ""
    parts = [comp["base"]["name"]] + [x["name"] for x in comp["bonuses"] + comp["kickers"]]
    text = " + ".join(parts)
    if comp["multiplier"]:
        text += f" × {comp['multiplier']['name']}"
        if comp.get("spends_spoilers"):
            text += " (spends ★)"
    return text


# --- an action line ------------------------------------------------------------------------------

def _row_h(place: dict[str, Any] | None, tags: Sequence[tuple[str, Colour]],
           reference: bool = False, width: int = 0, action: Action | None = None) -> int:
    """Height of an action line: one line; a line of dice under it when dice are on it (a
    shorter line when it carries only tags); the wrapped effect text on the reference board."""
    h = ROW_H
    if place is not None:
        h += EXPAND_H
    elif tags:
        h += TAGS_H
    if reference and action is not None:
        h += 15 * len(wrap_text(action.text, font(12), width - 16)) + 8
    return h


def _action_row(d: Draw, x: int, y: int, w: int, a: Action, *,
                place: dict[str, Any] | None = None, dice: dict[str, dict[str, Any]] | None = None,
                tags: Sequence[tuple[str, Colour]] = (), accent: Colour | None = None,
                dim: bool = False, reference: bool = False, star: bool = False) -> int:
    """One action: name, requirement symbols, effect; with dice on it, a second line of dice
    (the faces placed, in the dice's colours) and tags; on the reference board, the effect's
    full text. Returns the bottom y."""
    h = _row_h(place, tags, reference, w, a)
    if d is None:
        return y + h
    lit = place is not None or bool(tags)
    if lit:
        edge = accent or HIGHLIGHT
        _box(d, (x, y, x + w, y + h - 3), 6, fill=mix(edge, PANEL, 0.82), outline=edge, width=2)
    mid = y + ROW_H / 2
    name_c = MUTED if dim else TEXT
    name = ("★ " if star else "") + a.name
    fx1 = x + w - 8
    chips = symbols_w(a.requires)
    label = effect_label(a)
    chip_x = fx1 - max(EFFECT_MIN, _length(label, 14, True) + 10) - chips
    _text(d, (x + 8, mid), name, 13, SUPER_C if star and not dim else name_c, bold=True,
          width=chip_x - x - 14)
    _symbols(d, chip_x, mid - CHIP / 2, a.requires)
    _text(d, (fx1, mid), label, 14, HIGHLIGHT if lit and not dim else MUTED,
          bold=True, anchor="rm")
    cy = y + ROW_H
    if lit:
        line_h = EXPAND_H if place is not None else TAGS_H
        dx = x + 8
        for i, die_id in enumerate((place or {}).get("dice", [])):
            die = (dice or {}).get(die_id)
            faces = (place or {}).get("faces") or []
            face = faces[i] if i < len(faces) else None
            _die(d, dx, cy + 2, PLACED_DIE, die["colour"] if die else "gray", face)
            dx += PLACED_DIE + 5
        if place is not None:
            dx += 4
        for text, colour in tags:
            if dx + _pill_w(text, 11) > x + w - 6:
                break
            dx = _pill(d, dx, cy + line_h / 2 - 3, text, colour, size=11) + 5
        cy += line_h
    if reference:
        fnt = font(12)
        for line in wrap_text(a.text, fnt, w - 16):
            d.text((x + 8, cy + 1), line, font=fnt, fill=MUTED)
            cy += 15
    return y + h


# --- the tri-fold --------------------------------------------------------------------------------

Section = tuple[str, list[Action]]


def _columns(actions: Sequence[Action]) -> list[tuple[str, Colour, list[Section]]]:
    """The three panels and their sections, in the data's order; a panel the layout does not
    know (a future table row) lands at the end of POWER UP rather than vanishing."""
    known = {sec for _, _, secs in COLUMNS for sec in secs}
    out = []
    for title, colour, secs in COLUMNS:
        sections = [(sec, [a for a in actions if a.panel == sec]) for sec in secs]
        out.append((title, colour, [(s, acts) for s, acts in sections if acts]))
    extra: dict[str, list[Action]] = {}
    for a in actions:
        if a.panel not in known:
            extra.setdefault(a.panel, []).append(a)
    out[-1][2].extend(extra.items())
    return out


def _row_state(v: View, p: dict[str, Any] | None, a: Action,
               places: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
    """place / tags / dim of an action line on a player's board."""
    place = places.get(a.name) if places else None
    tags: list[tuple[str, Colour]] = []
    dim = False
    if p is not None:
        if a.lock_in and any(x["name"] == a.name for x in p["locked_in"]) and place is None:
            dim = True
        if places is None and a.name in p["announced"]:
            tags.append(("ANNOUNCED", HIGHLIGHT))
        if place is not None:
            if place.get("immediate") or a.immediate:
                tags.append(("DONE AT ONCE", GRID))
            if a.name in p["todo"]:
                tags.append(("TO DO", HIGHLIGHT))
            if place.get("ally") is not None and a.names_ally:
                tags.append((f"for @{place['ally'] + 1}", GRID))
    return {"place": place, "tags": tags, "dim": dim}


def _token(a: Action, st: dict[str, Any]) -> tuple[str, str, Colour]:
    """An action without dice on a compact board: (name, effect label, name colour)."""
    star = a.board not in ("base", "duo")
    name = ("★ " if star else "") + a.name + (" ✓" if st["dim"] else "")
    colour = MUTED if st["dim"] else (SUPER_C if star else TOKEN_C)
    return name, effect_label(a), colour


def _tokens(d: Draw, x: int, y: int, w: int, items: Sequence[tuple[str, str, Colour]]) -> int:
    """Actions as a flowing line of "NAME effect" words; returns the bottom y."""
    if not items:
        return y
    name_f, eff_f = font(12, bold=True), font(12)
    cx, cy = x, y
    for name, effect, colour in items:
        nw = _length(name, 12, True)
        tw = nw + 4 + _length(effect, 12, False)
        if cx + tw > x + w and cx > x:
            cx, cy = x, cy + TOKEN_H
        if d is not None:
            d.text((cx, cy + TOKEN_H / 2), name, font=name_f, fill=colour, anchor="lm")
            d.text((cx + nw + 4, cy + TOKEN_H / 2), effect, font=eff_f, fill=MUTED,
                   anchor="lm")
        cx += round(tw) + 14
    return cy + TOKEN_H


def _trifold(d: Draw, x: int, y: int, w: int, v: View | None, p: dict[str, Any] | None,
             actions: Sequence[Action], places: dict[str, dict[str, Any]] | None,
             dice: dict[str, dict[str, Any]] | None, *, reference: bool = False,
             compact: bool = False, accent: Colour | None = None,
             sums: tuple[dict[str, Any], dict[str, Any], str] | None = None) -> int:
    """The three panels side by side; returns the bottom y (the tallest panel).

    Full: every action on a line with its requirement symbols and effect. Compact: actions with
    dice (or a tag) on full lines, the others as a flowing list of names. With `sums`, the
    attack and defense sums sit at the foot of the ATTACK and DEFENSE panels."""
    col_w = (w - 2 * COL_GAP) // 3
    cols = _columns(actions)

    def column(dd: Draw, cx: int, sections: list[tuple[str, list[Action]]],
               colour: Colour) -> int:
        cy = y + 34
        for sec, acts in sections:
            _text(dd, (cx + 10, cy + SECTION_H / 2), SECTION_TITLES.get(sec, sec.upper()), 11,
                  mix(colour, TEXT, 0.45), bold=True)
            cy += SECTION_H
            rest = []
            for a in acts:
                st = _row_state(v or {}, p, a, places)
                if compact and st["place"] is None and not st["tags"]:
                    rest.append(_token(a, st))
                    continue
                cy = _action_row(dd, cx + 4, cy, col_w - 8, a, dice=dice, accent=accent,
                                 reference=reference, star=a.board not in ("base", "duo"),
                                 **st) + 2
            cy = _tokens(dd, cx + 10, cy, col_w - 20, rest) + (4 if rest else 0)
        return cy

    heights = []
    for i, (title, colour, sections) in enumerate(cols):
        h = column(None, 0, sections, colour) - y
        if sums is not None and i < 2:
            h += SUMS_H + 8
        heights.append(h + 6)
    tallest = max(heights)
    if d is None:
        return y + tallest
    for i, (title, colour, sections) in enumerate(cols):
        cx = x + i * (col_w + COL_GAP)
        _box(d, (cx, y, cx + col_w, y + tallest), 10, fill=mix(PANEL, colour, 0.07),
             outline=mix(colour, PANEL, 0.35), width=2)
        _box(d, (cx, y, cx + col_w, y + 30), 10, fill=colour)
        d.rectangle((cx, y + 20, cx + col_w - 1, y + 29), fill=colour)
        _text(d, (cx + col_w / 2, y + 15), title, 17, readable_on(colour), bold=True,
              anchor="mm")
        column(d, cx, sections, colour)
        if sums is not None and i < 2:
            comp = sums[i]
            _sum_cell(d, cx + 4, y + tallest - SUMS_H - 4, col_w - 8, title, colour, comp,
                      sums[2])
    return y + tallest


# --- a player's board ----------------------------------------------------------------------------

def _status_pills(v: View, p: dict[str, Any]) -> list[tuple[str, Colour]]:
    pills: list[tuple[str, Colour]] = []
    result = v.get("result")
    if result is not None and p["seat"] in result["winners"]:
        pills.append(("WINNER", HIGHLIGHT))
    if p["ko"]:
        pills.append(("K.O.", LOSS_C))
    if p["first"]:
        pills.append(("1ST PLAYER", HIGHLIGHT))
    if v["stage"] == "assign" and result is None:
        pills.append(("✓ LOCKED IN", SAFE_C) if p["locked"] else ("ASSIGNING…", GRID))
    if v.get("turn") == p["seat"]:
        pills.append(("POWERING UP", POWER_C))
    if p.get("pointer") is not None and v["mode"] == "2v2":
        pills.append((f"ATTACKS → @{p['pointer'] + 1}", ATTACK_C))
    if p["spoilers"]:
        pills.append(("★" * p["spoilers"] + f" {p['spoilers']}/{SPOILER_CAP} SPOILERS",
                      SUPER_C))
    return pills


def _info_lines(v: View, p: dict[str, Any]) -> list[tuple[str, Colour]]:
    lines: list[tuple[str, Colour]] = []
    for x in p["locked_in"]:
        lines.append((f"★ Locked in {x['name']}: {x['text']}", SUPER_C))
    if p["pending"]:
        lines.append(("To take: " + ", ".join(
            f"{x['source']} −{x['amount']}♥ (from @{x['by'] + 1})" for x in p["pending"]),
            LOSS_C))
    if p["board"] is None:
        words = "behind the screen"
        if p["announced"]:
            words += "; announced " + ", ".join(p["announced"])
        lines.append((f"Phase 1: dice and placements {words}.", MUTED))
    return lines


def _dice_row(d: Draw, x: int, y: int, w: int, p: dict[str, Any],
              placed: set[str], phase1: bool) -> int:
    """The player's dice: trait dice grouped by colour, then action dice with their six faces
    as a 3 x 2 net beside them, then loose faces; ids under every die. Wraps onto more lines."""
    trait = sorted((die for die in p["dice"] if die["kind"] == "trait"),
                   key=lambda die: (COLOURS.index(die["colour"]) if die["colour"] in COLOURS
                                    else 99, int(die["id"][1:])))
    action = [die for die in p["dice"] if die["kind"] == "action"]
    cell_h = POOL_DIE + 18
    cx, cy = x, y
    hidden = p["hidden"]

    def place(width: int) -> tuple[int, int]:
        nonlocal cx, cy
        if cx + width > x + w and cx > x:
            cx, cy = x, cy + cell_h
        at = (cx, cy)
        cx += width + 10
        return at

    for die in trait + action:
        net = die["kind"] == "action"
        width = POOL_DIE + (3 * (MINI + 1) + 6 if net else 0)
        px, py = place(width)
        face = die["up"]
        if face is None and not hidden:
            face = ""                          # between rounds: the die, no face showing
        # Phase 1, seen from behind the screen: a ring marks each die still free to place
        free = phase1 and not hidden and die["id"] not in placed
        _die(d, px, py, POOL_DIE, die["colour"], face, highlight=free)
        if d is not None:
            _text(d, (px + POOL_DIE / 2, py + POOL_DIE + 9), die["id"], 12, MUTED, bold=True,
                  anchor="mm")
        if net:
            nx = px + POOL_DIE + 6
            for i, f in enumerate(die["faces"]):
                r, c = divmod(i, 3)
                _face_chip(d, nx + c * (MINI + 1), py + 4 + r * (MINI + 3), f, MINI)
            if d is not None:
                _text(d, (nx + (3 * (MINI + 1)) / 2, py + POOL_DIE + 9), "faces", 10, MUTED,
                      anchor="mm")
    if p["unattached"]:
        width = 50 + len(p["unattached"]) * 20
        px, py = place(width)
        if d is not None:
            _text(d, (px, py + 10), "loose", 11, MUTED, bold=True)
            _text(d, (px, py + 24), "faces", 11, MUTED, bold=True)
        fx = px + 42
        for f in p["unattached"]:
            fx = _face_chip(d, fx, py + POOL_DIE / 2 - 9, f, 18) + 2
    return cy + cell_h


def _player_board(d: Draw, x: int, y: int, w: int, v: View, p: dict[str, Any],
                  dice: dict[str, dict[str, Any]]) -> int:
    seat = player_colour(p["seat"])
    result = v.get("result")
    winner = result is not None and p["seat"] in result["winners"]
    lit = winner or v.get("turn") == p["seat"]
    places = _placements(v, p)
    placed = {die_id for b in (places or {}).values() for die_id in b["dice"]}
    for team in v.get("duo", []):
        for b in (_duo_placements(v, team) or {}).values():
            placed.update(b["dice"])
    inner = w - 2 * PAD
    # name plate, status pills, health
    top = y + PAD
    if d is not None:
        plate_w = min(inner // 2, _pill_w(_label(p), 20, 12) + 10)
        _box(d, (x + PAD, top, x + PAD + plate_w, top + 36), 9, fill=seat.fill)
        _text(d, (x + PAD + 12, top + 18), _label(p), 20, seat.text, bold=True,
              width=plate_w - 20)
        px = x + PAD + plate_w + 10
        for text, colour in _status_pills(v, p):
            if px + _pill_w(text, 13) > x + w - PAD - 150:
                break
            px = _pill(d, px, top + 18, text, colour, size=13) + 6
        hp = f"{p['health']}/{p['max_health']}"
        right = x + w - PAD
        _text(d, (right, top + 19), hp, 26, LOSS_C if p["ko"] else TEXT, bold=True,
              anchor="rm")
        _text(d, (right - font(26, bold=True).getlength(hp) - 6, top + 20), "♥", 20,
              LOSS_C, anchor="rm")
    cy = top + 46
    cy = _dice_row(d, x + PAD, cy, inner, p, placed, v["stage"] == "assign")
    for text, colour in _info_lines(v, p):
        fnt = font(14, bold=True)
        for line in wrap_text(text, fnt, inner)[:2]:
            if d is not None:
                d.text((x + PAD, cy + 9), line, font=fnt, fill=colour, anchor="lm")
            cy += 20
    cy += 6
    actions = [ALL_ACTIONS[n] for n in p["action_names"] if n in ALL_ACTIONS]
    # Planning (Phase 1, behind this player's screen): every action with its requirements.
    # Otherwise the dice are what matters: placed actions in full, the rest as a list.
    planning = v["stage"] == "assign" and places is not None and v.get("result") is None
    cy = _trifold(d, x + PAD, cy, inner, v, p, actions, places, dice, accent=seat.fill,
                  compact=not planning, sums=_sums(v, p))
    bottom = cy + PAD
    if d is not None:
        outline = HIGHLIGHT if lit else mix(seat.fill, PANEL, 0.3)
        # the frame goes on last, over nothing: draw it as an outline only
        _box(d, (x, y, x + w, bottom), 14, outline=outline, width=4 if lit else 3)
    return bottom


def _sum_cell(d: Draw, x: int, y: int, w: int, title: str, colour: Colour,
              comp: dict[str, Any], caption: str) -> None:
    """One sum: "(3 + 1) × 2 = 8" big, the total highlighted, the action names beneath."""
    if d is None:
        return
    _box(d, (x, y, x + w, y + SUMS_H), 10, fill=mix(PANEL, colour, 0.16), outline=colour,
         width=2)
    right = _pill(d, x + 8, y + 14, title, colour, size=12)
    _text(d, (right + 6, y + 14), caption, 12, MUTED, bold=True)
    numbers = sum_numbers(comp)
    if numbers is None:
        words = "no base: no attack" if title == "ATTACK" else "no base: defense 0"
        _text(d, (x + 10, y + 40), words, 17, MUTED, bold=True)
        return
    head, _, total = numbers.rpartition(" = ")
    end = x + 10
    if head:
        room = w - 20 - font(24, bold=True).getlength(total) - font(20, bold=True).getlength(" = ")
        head = fit_text(head, font(20, bold=True), room)
        end = _text(d, (x + 10, y + 38), head + " = ", 20, TEXT, bold=True)
    _text(d, (end, y + 37), total or numbers, 24, HIGHLIGHT, bold=True)
    _text(d, (x + 10, y + 57), sum_names(comp), 11, MUTED, bold=True, width=w - 20)


def _sums_row(d: Draw, x: int, y: int, w: int, atk: dict[str, Any], dfn: dict[str, Any],
              caption: str) -> int:
    """The two sums side by side across `w` (the private roll picture)."""
    col_w = (w - COL_GAP) // 2
    _sum_cell(d, x, y, col_w, "ATTACK", ATTACK_C, atk, caption)
    _sum_cell(d, x + col_w + COL_GAP, y, col_w, "DEFENSE", DEFENSE_C, dfn, caption)
    return y + SUMS_H


# --- the Duo board -------------------------------------------------------------------------------

def _duo_board(d: Draw, x: int, y: int, w: int, v: View, team: dict[str, Any],
               dice: dict[str, dict[str, Any]]) -> int:
    places = _duo_placements(v, team)
    head = 30
    cols = 5 if w >= 900 else 3
    cell_w = (w - 2 * PAD - (cols - 1) * 8) // cols
    rows: list[list[tuple[Action, dict[str, Any]]]] = []
    for i, a in enumerate(DUO_TABLE):
        place = (places or {}).get(a.name)
        tags: list[tuple[str, Colour]] = []
        if place is not None:
            owners = {_owner(v, die_id) for die_id in place["dice"]} - {None}
            if place.get("by") is not None:
                tags.append((f"by @{place['by'] + 1}", GRID))
            if place.get("ally") is not None:
                tags.append((f"for @{place['ally'] + 1}", GRID))
            elif owners and len(owners) > 1:
                tags.append(("both allies", GRID))
        if i % cols == 0:
            rows.append([])
        rows[-1].append((a, {"place": place, "tags": tags}))
    row_hs = [max(_row_h(st["place"], st["tags"]) for _, st in r) for r in rows]
    bottom = y + PAD + head + sum(h + 4 for h in row_hs) + PAD - 4
    if places is None:
        bottom += 20
    if d is None:
        return bottom
    seats = team["seats"]
    _box(d, (x, y, x + w, bottom), 14, fill=mix(PANEL, DUO_C, 0.06), outline=DUO_C, width=2)
    title = "DUO BOARD · " + " + ".join(f"@{s + 1}" for s in seats)
    right = _pill(d, x + PAD, y + PAD + 12, title, DUO_C, size=14)
    note = ("behind the screen until the reveal" if places is None else
            "dice here go to either ally in Power Up")
    _text(d, (right + 10, y + PAD + 12), note, 12, MUTED, bold=True)
    cy = y + PAD + head
    for r, h in zip(rows, row_hs):
        for i, (a, st) in enumerate(r):
            _action_row(d, x + PAD + i * (cell_w + 8), cy, cell_w, a, dice=dice,
                        accent=DUO_C, **st)
        cy += h + 4
    return bottom


def _owner(v: View, die_id: str) -> int | None:
    for p in v["players"]:
        if any(die["id"] == die_id for die in p["dice"]):
            return p["seat"]
    return None


# --- health track, fight, supply -----------------------------------------------------------------

def _track(d: Draw, x: int, y: int, w: int, v: View) -> int:
    """Every player's health as a bar from 0 to their maximum, with the number."""
    players = v["players"]
    cols = 2
    cell_w = (w - (cols - 1) * GRID_GAP) // cols
    rows = (len(players) + cols - 1) // cols
    if d is None:
        return y + rows * TRACK_ROW
    fnt_n = font(24, bold=True)
    plate_w = min(round(cell_w * 0.42), max(_pill_w(_short(p), 15, 10) for p in players))
    for i, p in enumerate(players):
        r, c = divmod(i, cols)
        cx, cy = x + c * (cell_w + GRID_GAP), y + r * TRACK_ROW
        seat = player_colour(p["seat"])
        mid = cy + TRACK_ROW / 2 - 3
        _box(d, (cx, mid - 16, cx + plate_w, mid + 16), 8, fill=seat.fill)
        _text(d, (cx + 10, mid), _short(p), 15, seat.text, bold=True, width=plate_w - 16)
        token_w = 34
        if p["first"]:
            draw_rounded(d, (cx + plate_w + 6, mid - 15, cx + plate_w + 36, mid + 15), 15,
                         fill=HIGHLIGHT)
            draw_centred(d, (cx + plate_w + 21, mid), "1st", font=font(12, bold=True),
                         fill=INK)
        number = "K.O." if p["ko"] else f"{p['health']}/{p['max_health']}"
        num_w = round(fnt_n.getlength("34/34")) + 8
        bx0 = cx + plate_w + 6 + token_w + 4
        bx1 = cx + cell_w - num_w - 6
        maximum = max(1, p["max_health"])
        health = max(0, min(p["health"], maximum))
        _box(d, (bx0, mid - 11, bx1, mid + 11), 6, fill=TRACK_BG, outline=GRID, width=1)
        fill_w = round((bx1 - bx0 - 4) * health / maximum)
        if fill_w >= 4:
            colour = seat.fill if health * 4 > maximum else LOSS_C
            _box(d, (bx0 + 2, mid - 9, bx0 + 2 + fill_w, mid + 9), 5, fill=colour)
        for t in range(5, maximum, 5):
            tx = bx0 + 2 + round((bx1 - bx0 - 4) * t / maximum)
            d.line([(tx, mid + 11), (tx, mid + 15)], fill=MUTED, width=1)
            if t % 10 == 0:
                _text(d, (tx, mid + 20), str(t), 9, MUTED, anchor="mm")
        _text(d, (cx + cell_w, mid), number, 24, LOSS_C if p["ko"] else TEXT, bold=True,
              anchor="rm")
    return y + rows * TRACK_ROW


def _fight_row_h(a: dict[str, Any]) -> int:
    return FIGHT_ROW if a["defense"] is not None or a["attack"]["base"] is not None else NOTE_ROW


def _fight_height(c: dict[str, Any] | None) -> int:
    if not c:
        return 0
    return 40 + sum(_fight_row_h(a) for a in c["attacks"]) + 8


def _fight(d: Draw, x: int, y: int, w: int, v: View, c: dict[str, Any] | None) -> int:
    """The last reveal's attacks: attacker → target, attack against defense, the loss."""
    h = _fight_height(c)
    if not c or d is None:
        return y + h
    players = {p["seat"]: p for p in v["players"]}
    _box(d, (x, y, x + w, y + h), 14, fill=PANEL, outline=GRID, width=2)
    now = c["round"] == v["round"] and v["stage"] in ("reveal", "power", "over")
    title = f"ROUND {c['round']} · THE FIGHT" + ("" if now else " (last round)")
    _text(d, (x + PAD, y + 20), title, 15, TEXT, bold=True)
    cy = y + 40
    for a in c["attacks"]:
        mid = cy + (22 if _fight_row_h(a) == FIGHT_ROW else NOTE_ROW // 2 - 2)
        att = players.get(a["attacker"])
        tgt = players.get(a["target"]) if a["target"] is not None else None
        px = x + PAD
        for p in (att, tgt):
            if p is None:
                continue
            colour = player_colour(p["seat"])
            px = _pill(d, px, mid, p["name"], colour.fill, size=16, ink=colour.text) + 4
            if p is att:
                _text(d, (px + 2, mid), "→", 20, TEXT, bold=True)
                px += 28
        px += 10
        atk, dfn = a["attack"], a["defense"]
        if atk["base"] is None or dfn is None:
            note = a["note"] or "no attack"
            if atk["base"] is not None:
                _text(d, (px, mid - 8), f"ATTACK {atk['total']}", 22, TEXT, bold=True)
                _text(d, (px, mid + 14), formula(atk), 11, MUTED, bold=True,
                      width=x + w - px - PAD)
                px += 200
            _text(d, (px, mid), note[:1].upper() + note[1:], 15, MUTED, bold=True,
                  width=x + w - px - PAD)
            cy += _fight_row_h(a)
            continue
        result_w = 190
        col = (x + w - PAD - result_w - px) // 2
        for i, (word, comp, colour, total) in enumerate((
                ("ATTACK", atk, ATTACK_C, atk["total"]),
                ("DEFENSE", dfn, DEFENSE_C, a["defense_left"]))):
            cx = px + i * col
            end = _pill(d, cx, mid - 10, word, colour, size=12)
            _text(d, (end + 8, mid - 9), str(total), 26, TEXT, bold=True)
            extra = ""
            if word == "DEFENSE" and a["defense_left"] != dfn["total"]:
                extra = f" (carried over: {a['defense_left']} of {dfn['total']} left)"
            _text(d, (cx, mid + 16), formula(comp) + extra, 11, MUTED, bold=True,
                  width=col - 12)
        rx = x + w - PAD - result_w
        if a["loss"]:
            end = _pill(d, rx, mid - 6, f"−{a['loss']} ♥", LOSS_C, size=18)
        else:
            end = _pill(d, rx, mid - 6, "BLOCKED", SAFE_C, size=16)
        if a["health"]:
            _text(d, (end + 8, mid - 6), f"{a['health'][0]} → {a['health'][1]}", 15, TEXT,
                  bold=True)
        cy += FIGHT_ROW
    return y + h


def _supply(d: Draw, x: int, y: int, w: int, v: View) -> int:
    """The shared pool: trait dice by colour, action dice, faces, with what is left of each."""
    h = 40
    if d is None:
        return y + h
    pools = v["pools"]
    mid = y + h / 2
    px = _text(d, (x, mid), "SUPPLY", 13, MUTED, bold=True) + 12
    for colour in COLOURS:
        n = pools["trait"].get(colour, 0)
        _die(d, px, mid - 12, 24, colour, "")
        px = _text(d, (px + 28, mid), str(n), 15, TEXT if n else MUTED, bold=True) + 10
    _die(d, px, mid - 12, 24, "gray", "")
    px = _text(d, (px + 28, mid), str(pools["action"]), 15, TEXT, bold=True) + 18
    px = _text(d, (px, mid), "faces", 13, MUTED, bold=True) + 8
    for f, n in pools["faces"].items():
        _face_chip(d, px, mid - 9, f, 18)
        px = _text(d, (px + 22, mid), str(n), 15, TEXT if n else MUTED, bold=True) + 10
    return y + h


# --- the table -----------------------------------------------------------------------------------

def _subtitle(v: View) -> str:
    parts = [f"Round {v['round']}/{v.get('round_limit', ROUND_LIMIT)}",
             STAGE_WORDS.get(v["stage"], v["stage"])]
    if v["stage"] != "over":
        parts.append(f"{v['players'][v['first']]['name']} is first player")
    if v.get("rerolling"):
        parts.append("a secret re-roll is being drawn")
    return " · ".join(parts)


def _result_line(v: View) -> str | None:
    r = v.get("result")
    if not r:
        return None
    players = {p["seat"]: p for p in v["players"]}
    if r["winners"]:
        who = " and ".join(_label(players[s]) for s in r["winners"] if s in players)
        return f"{who} win{'s' if len(r['winners']) == 1 else ''}! ({r['reason']})"
    return f"A draw ({r['reason']})"


def _layout(v: View) -> tuple[int, list[list[dict[str, Any]]]]:
    """Canvas width and the board rows: a duel stacks its two boards; 2 vs 2 puts each team on
    one row, its Duo board beneath."""
    if v["mode"] == "2v2":
        rows: list[list[dict[str, Any]]] = []
        for team in sorted({p["team"] for p in v["players"]}):
            rows.append([p for p in v["players"] if p["team"] == team])
        return 2 * BOARD_W + GRID_GAP + 2 * MARGIN, rows
    return BOARD_W + 2 * MARGIN, [[p] for p in v["players"]]


def _table(d: Draw, v: View, width: int, rows: list[list[dict[str, Any]]]) -> int:
    """Everything under the title bar; returns the bottom y."""
    dice = _die_index(v)
    inner = width - 2 * MARGIN
    y = title_bar_height("x") + 12
    line = _result_line(v)
    if line:
        if d is not None:
            _box(d, (MARGIN, y, width - MARGIN, y + 40), 10, fill=HIGHLIGHT)
            _text(d, (width / 2, y + 20), line, 19, INK, bold=True, anchor="mm",
                  width=inner - 20)
        y += 52
    y = _track(d, MARGIN, y, inner, v) + 8
    c = v.get("combat")
    if c and _combat_now(v):
        y = _fight(d, MARGIN, y, inner, v, c) + 14
    duo = {t["team"]: t for t in v.get("duo", [])}
    for row in rows:
        bottoms = [_player_board(None, 0, y, BOARD_W, v, p, dice) for p in row]
        tallest = max(bottoms)
        if d is not None:
            for i, (p, bottom) in enumerate(zip(row, bottoms)):
                x = MARGIN + i * (BOARD_W + GRID_GAP)
                _box(d, (x, y, x + BOARD_W, bottom), 14, fill=PANEL)
                _player_board(d, x, y, BOARD_W, v, p, dice)
        y = tallest + 12
        team = duo.get(row[0]["team"]) if v["mode"] == "2v2" else None
        if team is not None:
            y = _duo_board(d, MARGIN, y, inner, v, team, dice) + 12
    if c and not _combat_now(v):
        y = _fight(d, MARGIN, y, inner, v, c) + 14
    y = _supply(d, MARGIN, y, inner, v)
    return y + MARGIN // 2


def render(view: View) -> Picture:
    """The table from `game.view(seat_or_None)`: health track, every board with its dice and
    placements, the sums, the Duo boards, the fight, the supply. Public and private views alike:
    it draws only what the view holds."""
    width, rows = _layout(view)
    height = _table(None, view, width, rows)
    img, d = new_canvas(width, height)
    title = "KAPLOOM!" + (" · 2 vs 2" if view["mode"] == "2v2" else "")
    title_bar(img, title, _subtitle(view))
    _table(d, view, width, rows)
    return to_png(img, alt_text(view), f"kaploom-round-{view['round']}.png")


# --- alt text ------------------------------------------------------------------------------------

def _dice_words(p: dict[str, Any]) -> str:
    out = []
    for die in p["dice"]:
        name = die["colour"] if die["kind"] == "trait" else (
            "action[" + "".join(f for f in die["faces"] if f != BLANK) + "]")
        out.append(f"{die['id']} {name}" + (f"={die['up']}" if die["up"] else ""))
    return ", ".join(out)


def _place_words(places: dict[str, dict[str, Any]]) -> str:
    return ", ".join(f"{n} ({' '.join(f or '?' for f in b['faces'])})"
                     for n, b in places.items())


def alt_text(v: View) -> str:
    """A concise description from the view: round and phase, result, health, boards, the
    fight, then everyone's dice (what a screen reader needs first comes first)."""
    lines = [f"KAPLOOM!{' 2 vs 2' if v['mode'] == '2v2' else ''}: " + _subtitle(v) + "."]
    result = _result_line(v)
    if result:
        lines.append(result)
    lines.append("Health: " + ", ".join(
        f"{p['name']} ({_seat_word(p)}) {'K.O.' if p['ko'] else p['health']}/{p['max_health']}"
        + (" (first player)" if p["first"] else "") for p in v["players"]) + ".")
    for p in v["players"]:
        places = _placements(v, p)
        bits = []
        if places is None:
            bits.append("placements hidden" + (f", announced {', '.join(p['announced'])}"
                                               if p["announced"] else ""))
            if v["stage"] == "assign":
                bits.append("locked in" if p["locked"] else "assigning")
        elif places:
            bits.append("board " + _place_words(places))
        if p["locked_in"]:
            bits.append("locked in " + ", ".join(x["name"] for x in p["locked_in"]))
        if p["spoilers"]:
            bits.append(f"{p['spoilers']} spoiler tokens")
        if p["pending"]:
            bits.append("to take " + ", ".join(f"{x['source']} {x['amount']}"
                                               for x in p["pending"]))
        if bits:
            lines.append(f"{p['name']}: " + "; ".join(bits) + ".")
        sums = _sums(v, p)
        if sums is not None and sums[2] == "so far":
            lines.append(f"{p['name']} so far: attack {formula(sums[0])}, defense "
                         f"{formula(sums[1])}.")
    for team in v.get("duo", []):
        places = _duo_placements(v, team)
        if places:
            lines.append("Duo board of " + " and ".join(v["players"][s]["name"]
                                                         for s in team["seats"]) + ": "
                         + _place_words(places) + ".")
    c = _combat_now(v)
    if c:
        for a in c["attacks"]:
            head = f"Round {c['round']}: {v['players'][a['attacker']]['name']}"
            if a["defense"] is None:
                lines.append(f"{head}: {a['note'] or 'no attack'}.")
            else:
                lines.append(f"{head} → {v['players'][a['target']]['name']}: attack "
                             f"{formula(a['attack'])}; "
                             f"defense {formula(a['defense'])}; loss {a['loss']}.")
    for p in v["players"]:
        lines.append(f"{p['name']} dice: {_dice_words(p)}"
                     + (f"; loose faces {' '.join(p['unattached'])}" if p["unattached"] else "")
                     + ".")
    return "\n".join(lines)


# --- the printed board ---------------------------------------------------------------------------

def render_action_board(supers: Iterable[str] = (), duo: bool = False) -> Picture:
    """The printed board for `/kaploom board`: ACTION_TABLE as the tri-fold, each action with
    its requirement symbols, effect and full text; then each named super's board (SUPER_TABLE)
    and the Duo board (DUO_TABLE) when asked; a legend of faces and symbols. Unknown super
    names raise ValueError."""
    names = tuple(dict.fromkeys(supers))
    for n in names:
        if n not in SUPERS:
            raise ValueError(f"{n!r} is not a super: {', '.join(SUPERS)}")
    return _action_board(names, bool(duo))


@lru_cache(maxsize=16)
def _action_board(names: tuple[str, ...], duo: bool) -> Picture:
    """The printed board depends on the tables alone: drawn once per process and kind, then
    handed out again (a Picture is immutable).

    Drawn 550 px wide for a phone (issue #22): ATTACK and DEFENSE side by side, one line per
    action (name, requirement symbols, effect); POWER UP, each super and the Duo board below
    at full width, with each action's words under it where the short effect does not say it
    all; then the legend. When that is taller than a phone shows (MAX_H), the words are left
    off the base board's actions, then off every action: the message the picture comes with
    lists every action's full text. Every super with the Duo board is more than a phone shows
    with the base board: that picture leaves the base board to `/kaploom board` (said on it)."""
    for base, words in LAYOUTS:
        height = _board_550(None, names, duo, words, base)
        if height <= MAX_H:
            break
    img, d = new_canvas(SCREEN_W, height)
    _head(img, "KAPLOOM! · the action board", BOARD_RULE)
    _board_550(d, names, duo, words, base)
    alt = "KAPLOOM! action board (action: requirements → effect). " + " ".join(
        f"{title.capitalize()}: " + "; ".join(
            f"{a.name} {' '.join(a.requires)} → {effect_label(a)}"
            for _, acts in sections for a in acts) + "."
        for title, _, sections in _columns(ACTION_TABLE))
    if names:
        alt += " Supers: " + ", ".join(names) + "."
    if duo:
        alt += " With the Duo board."
    return to_png(img, alt, "kaploom-action-board.png")


BOARD_RULE = ("ATTACK and DEFENSE = (base + kickers) × multiplier · each action once a round "
              "· a die serves one requirement")
REF_CHIP = 16          # requirement symbols on the 550 px board (text 11 px)
REF_ROW = 21           # an action's line
REF_WORDS = 12         # an action's words under its line
REF_GAP = 10
SYMBOL_COL = 98        # the legend's symbols, then what each accepts
# (with the base board, which actions keep their words), fullest first (_action_board)
LAYOUTS = ((True, "all"), (True, "extras"), (True, "none"), (False, "extras"), (False, "none"))
_PLAIN = ("attack base", "attack kicker", "attack multiplier", "defense base",
          "defense kicker", "defense multiplier")


def _words_needed(a: Action) -> bool:
    """Whether an action's text says more than its short effect ("+2", "×3" say it all)."""
    return not (a.panel in _PLAIN and a.text in (
        f"{a.panel.split()[0]} base {a.amount}", f"+{a.amount} {a.panel.split()[0]}",
        f"{a.panel.split()[0]} ×{a.amount}"))


def _ref_action(d: Draw, x: int, y: int, w: int, a: Action, colour: Colour,
                words: bool) -> int:
    """One action: name, then its symbols and effect at the right (under the name when the
    line is too narrow); its words below, wrapped. Returns the y below it."""
    label = effect_label(a)
    label_w = _length(label, 13, True)
    name_w = _length(a.name, 13, True)
    chips_w = symbols_w(a.requires, REF_CHIP)
    cy = y + REF_ROW / 2
    one_line = name_w + 4 + chips_w + 4 + label_w <= w
    _text(d, (x, cy), a.name, 13, TEXT, bold=True)
    _text(d, (x + w, cy), label, 13, mix(colour, TEXT, 0.45), bold=True, anchor="rm")
    if one_line:
        _symbols(d, x + w - label_w - 4 - chips_w, cy - REF_CHIP / 2, a.requires, REF_CHIP)
        y += REF_ROW
    else:
        y += REF_ROW
        _symbols(d, x, y, a.requires, REF_CHIP)
        y += REF_CHIP + 4
    if words and _words_needed(a):
        for ln in _wrap(a.text, REF_WORDS, w):
            if d is not None:
                _text(d, (x, y + 7), ln, REF_WORDS, TOKEN_C)
            y += 15
        y += 3
    return y


def _ref_panel(d: Draw, x: int, y: int, w: int, title: str, colour: Colour,
               sections: Sequence[tuple[str, Sequence[Action]]], words: bool,
               note: str = "", bottom: int | None = None) -> int:
    """A board panel: a coloured head, then its sections of actions. Returns its bottom."""
    inner = w - 2 * 6
    head = 26
    note_lines = _wrap(note, SMALL, inner) if note else []
    cy = y + head + 4 + 17 * len(note_lines)
    for sec, acts in sections:
        if sec and sec in SECTION_TITLES and len(sections) > 1 or sec in ("immediate",):
            cy += 17
        for a in acts:
            cy = _ref_action(None, x + 6, cy, inner, a, colour, words)
    bottom = max(cy + 6, bottom or 0)     # `bottom`: as tall as its neighbour in a row
    if d is None:
        return bottom
    _box(d, (x, y, x + w, bottom), 10, fill=PANEL, outline=colour, width=2)
    _box(d, (x, y, x + w, y + head), 10, fill=colour)
    d.rectangle((x + 2, y + head - 8, x + w - 3, y + head - 1), fill=colour)
    _text(d, (x + w / 2, y + head / 2), title, 14, readable_on(colour), bold=True, anchor="mm",
          width=w - 16)
    cy = y + head + 4
    for ln in note_lines:
        _text(d, (x + 6, cy + 8), ln, SMALL, TEXT)
        cy += 17
    for sec, acts in sections:
        if sec and sec in SECTION_TITLES and len(sections) > 1 or sec in ("immediate",):
            _text(d, (x + 6, cy + 9), SECTION_TITLES[sec], 12, mix(colour, TEXT, 0.35),
                  bold=True, width=inner)
            cy += 17
        for a in acts:
            cy = _ref_action(d, x + 6, cy, inner, a, colour, words)
    return bottom


def _ref_legend(d: Draw, x: int, y: int, w: int) -> int:
    """Faces (chip and name, flowing onto a second line) and what each symbol accepts."""
    cy, fx = y, x
    for f in FACES + (BLANK,):
        item_w = 18 + 5 + _length(FACE_NAMES[f], 13, True)
        if fx + item_w > x + w:
            fx, cy = x, cy + 24
        _face_chip(d, fx, cy + 1, f, 18)
        fx = _text(d, (fx + 23, cy + 10), FACE_NAMES[f], 13, TEXT, bold=True) + 14
    cy += 28
    for s in SYMBOLS:
        if s in FACES and s not in ("M", "W"):
            continue
        shown: Sequence[str] = ("M", "E", "T", "A", "X") if s == "M" else (s,)
        text = "a die showing that face, or a Wild" if s == "M" else SYMBOLS[s].text
        lines = _wrap(text, 12, w - SYMBOL_COL)
        _symbols(d, x, cy + 1, shown, REF_CHIP)
        for k, ln in enumerate(lines):
            if d is not None:
                _text(d, (x + SYMBOL_COL, cy + 9 + 15 * k), ln, 12, TEXT)
        cy += max(20, 15 * len(lines) + 5)
    return cy


def _board_550(d: Draw, names: Sequence[str], duo: bool, words: str, base: bool = True) -> int:
    """Draw (or with d=None measure) the 550 px action board; returns its height."""
    w = SCREEN_W - 2 * MARGIN
    y = _head_h(BOARD_RULE) + 12
    base_words = words == "all"
    extra_words = words != "none"
    half = (w - REF_GAP) // 2
    (a_title, a_col, a_secs), (d_title, d_col, d_secs), (p_title, p_col, p_secs) = \
        _columns(ACTION_TABLE)
    if base:
        bottom = max(_ref_panel(None, MARGIN, y, half, a_title, a_col, a_secs, base_words),
                     _ref_panel(None, MARGIN + half + REF_GAP, y, half, d_title, d_col, d_secs,
                                base_words))
        if d is not None:
            for i, (title, colour, secs) in enumerate(((a_title, a_col, a_secs),
                                                       (d_title, d_col, d_secs))):
                _ref_panel(d, MARGIN + i * (half + REF_GAP), y, half, title, colour, secs,
                           base_words)
        y = bottom + REF_GAP
        y = _ref_panel(d, MARGIN, y, w, p_title, p_col, p_secs, base_words) + REF_GAP
    else:
        lines = _wrap("The base board (ATTACK, DEFENSE, POWER UP) is the picture of "
                      "/kaploom board; its actions are listed in the message too.", BODY, w)
        for ln in lines:
            if d is not None:
                _text(d, (MARGIN, y + 9), ln, BODY, TEXT)
            y += 19
        y += 8
    # Supers two to a row (each half the width), a last odd one at full width.
    for i in range(0, len(names), 2):
        pair = names[i:i + 2]
        pw = half if len(pair) == 2 else w
        panels = []   # (x, title, sections, note) of each Super in the row
        for j, name in enumerate(pair):
            start = SUPERS[name]
            note = (f"{start.side} · {start.health} health · starts with "
                    + ", ".join(start.trait) + " + action die ["
                    + " ".join(start.action_faces) + "]")
            panels.append((MARGIN + j * (half + REF_GAP), f"★ {name}",
                           [("", [a for a in SUPER_TABLE if a.board == name])], note))
        # Measured first, then drawn to the taller one's bottom: a row's panels end level.
        bottom = max(_ref_panel(None, px, y, pw, title, SUPER_C, secs, extra_words, note)
                     for px, title, secs, note in panels)
        if d is not None:
            for px, title, secs, note in panels:
                _ref_panel(d, px, y, pw, title, SUPER_C, secs, extra_words, note,
                           bottom=bottom)
        y = bottom + REF_GAP
    if duo:
        y = _ref_panel(d, MARGIN, y, w, "DUO BOARD · 2 vs 2", DUO_C, [("", DUO_TABLE)],
                       extra_words, "between allies; fed by dice of either ally") + REF_GAP
    legend_h = _ref_legend(None, 0, 0, w - 2 * PAD)
    if d is not None:
        _box(d, (MARGIN, y, MARGIN + w, y + legend_h + 2 * PAD - 6), 10, fill=PANEL)
        _ref_legend(d, MARGIN + PAD, y + PAD - 2, w - 2 * PAD)
    return y + legend_h + 2 * PAD - 6 + MARGIN


# --- pictures for a 550 px display: the compact public board and a seat's own screen -----------
#
# Discord shows a picture about 550 px wide, so these are drawn 550 px wide and every text that
# carries game information is at least 13 px (issue #13). Everybody's facts (health, who has
# locked in, the immediate actions announced, the last reveal with its sums) go on the public
# board; a player's dice, placements and sums go on their own panel picture.

SCREEN_W = 550
BODY = 14          # body text
SMALL = 13         # the smallest text with game information
NAME = 16
SUB = 15           # the subtitle under the title bar, as rendering.canvas draws it
FACE_CHIP = 22     # a face of a die in a panel's dice list (its letter 15 px, 11 px tall)
HERO_C = DIE_COLOURS["blue"].fill
VILLAIN_C = DIE_COLOURS["red"].fill


def _head_h(subtitle: str) -> int:
    """Height of `_head`: the title bar with its subtitle wrapped, never cut off ("Bob is
    first player" must be read whole)."""
    return title_bar_height(drawable(subtitle, font(SUB)), SCREEN_W)


def _head(img, title: str, subtitle: str) -> None:
    title_bar(img, title, drawable(subtitle, font(SUB)), wrap=True)


def _line(d: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int, fill: Colour,
          room: float, bold: bool = False, anchor: str = "lm") -> float:
    """One line, made drawable and clipped to `room` px; returns its right edge."""
    fnt = font(size, bold=bold)
    text = fit_text(drawable(text, fnt), fnt, room)
    d.text((x, y), text, font=fnt, fill=fill, anchor=anchor)
    return x + fnt.getlength(text)


def _wrap(text: str, size: int, room: float, bold: bool = False) -> list[str]:
    fnt = font(size, bold=bold)
    return wrap_text(drawable(text, fnt), fnt, room)


def _side_colour(p: dict[str, Any]) -> Colour:
    return HERO_C if p["side"] == "hero" else VILLAIN_C


def _status(v: View, p: dict[str, Any]) -> tuple[str, Colour]:
    if p["ko"]:
        return "knocked out", LOSS_C
    if v["stage"] == "assign":
        return ("locked in", SAFE_C) if p["locked"] else ("assigning dice", MUTED)
    if v["stage"] == "power" and v["turn"] == p["seat"]:
        return "powering up now", HIGHLIGHT
    return "", MUTED


def _health_bar(d: ImageDraw.ImageDraw, x: int, y: int, w: int, p: dict[str, Any]) -> None:
    top = max(p["max_health"], p["health"], 1)
    draw_rounded(d, (x, y, x + w, y + 12), 6, fill=TRACK_BG)
    fill = max(0, min(1.0, p["health"] / top))
    if fill > 0:
        draw_rounded(d, (x, y, x + max(12, round(w * fill)), y + 12), 6,
                     fill=SAFE_C if fill > 0.5 else (HIGHLIGHT if fill > 0.25 else LOSS_C))


def _player_lines(v: View, p: dict[str, Any]) -> list[str]:
    """What everybody may know of a player beyond health: announced immediate actions, the
    last reveal's actions, locked-in abilities, spoiler tokens."""
    out = []
    if v["stage"] == "assign" and p["announced"]:
        out.append("used at once: " + ", ".join(p["announced"]))
    c = v.get("combat")
    if c:
        acts = [b["action"] for b in c["boards"].get(str(p["seat"]), [])]
        out.append(f"round {c['round']} actions: " + (", ".join(acts) or "none"))
    if p["pending"]:
        out.append("loss still to take this Power Up: " + ", ".join(
            f"{x['source']} {x['amount']}" for x in p["pending"]))
    extra = []
    if p["locked_in"]:
        extra.append("abilities: " + ", ".join(x["name"] for x in p["locked_in"]))
    if p["spoilers"]:
        extra.append(f"{p['spoilers']} spoiler token{'s' if p['spoilers'] != 1 else ''}")
    if extra:
        out.append(" · ".join(extra))
    return out


def _fight_lines(v: View) -> list[tuple[str, int, Colour, bool]]:
    c = v.get("combat")
    if not c:
        return []
    names = [p["name"] for p in v["players"]]
    out: list[tuple[str, int, Colour, bool]] = [
        (f"Round {c['round']} fight (damage = attack − defense)", BODY, TEXT, True)]
    for a in c["attacks"]:
        who = names[a["attacker"]]
        if a["defense"] is None:
            out.append((f"{who}: {a['note']}", SMALL, MUTED, False))
            continue
        target = names[a["target"]]
        left = a["defense_left"]
        out.append((f"{who} → {target}: attack {a['attack']['total']} vs defense {left}: "
                     f"{a['loss']} damage", BODY, LOSS_C if a["loss"] else SAFE_C, False))
        out.append((f"attack {formula(a['attack'])}", SMALL, MUTED, False))
        dfn = formula(a["defense"]) if a["defense"]["base"] else "0 (no defense base)"
        if left != a["defense"]["total"]:
            dfn += f", {left} left after an earlier attack"
        out.append((f"defense {dfn}", SMALL, MUTED, False))
    return out


PLAYER_ROW = 56


def public_picture(view: dict[str, Any]) -> Picture:
    """The thread's board, from the public view, designed 550 px wide: per player health,
    who has locked in, what everybody may know; then the last fight with its sums."""
    return to_png(public_image(view), alt_text(view), f"kaploom-round-{view['round']}.png")


def public_image(view: dict[str, Any]) -> Image.Image:
    """`public_picture`'s board as drawn, before its PNG (the replay GIF's frames)."""
    v = view
    room = SCREEN_W - 2 * MARGIN
    extra = {p["seat"]: [ln for text in _player_lines(v, p)
                         for ln in _wrap(text, SMALL, room - 24)]
             for p in v["players"]}
    fight = [(ln, size, colour, bold) for text, size, colour, bold in _fight_lines(v)
             for ln in _wrap(text, size, room - 24, bold)]
    result = _result_line(v)
    result_lines = _wrap(result, BODY, room, True) if result else []
    legend = _wrap("Everyone starts with 30 health (supers differ); 0 health is a knock-out. "
                   "Phase 1 is secret: dice are placed behind the screens, then revealed.",
                   SMALL, room)
    subtitle = _subtitle(v)
    top = _head_h(subtitle) + 10
    rows_h = sum(PLAYER_ROW + 18 * len(extra[p["seat"]]) + 8 for p in v["players"])
    fight_h = (len(fight) * 19 + 20) if fight else 0
    height = (top + rows_h + (fight_h + 10 if fight else 0) + len(result_lines) * 20
              + len(legend) * 18 + MARGIN + 6)
    img, d = new_canvas(SCREEN_W, height)
    _head(img, "KAPLOOM!", subtitle)
    y = top
    for p in v["players"]:
        h = PLAYER_ROW + 18 * len(extra[p["seat"]])
        draw_rounded(d, (MARGIN, y, SCREEN_W - MARGIN, y + h), 10, fill=PANEL,
                     outline=HIGHLIGHT if v["turn"] == p["seat"] else GRID, width=2)
        d.rectangle((MARGIN + 2, y + 8, MARGIN + 6, y + h - 8), fill=_side_colour(p))
        x = MARGIN + 16
        status, colour = _status(v, p)
        status_w = font(SMALL, bold=True).getlength(status) if status else 0
        right = _line(d, x, y + 16, p["name"], NAME, TEXT, 230, bold=True)
        role = p["role"] + (" · first player" if p["first"] else "")
        _line(d, right + 8, y + 17, role, SMALL, MUTED, SCREEN_W - MARGIN - 16 - status_w
              - right - 16)
        if status:
            _line(d, SCREEN_W - MARGIN - 12, y + 16, status, SMALL, colour, status_w + 2,
                  bold=True, anchor="rm")
        _health_bar(d, x, y + 33, 300, p)
        _line(d, x + 312, y + 39, f"{p['health']} / {p['max_health']} health", BODY, TEXT,
              room - 330)
        ty = y + PLAYER_ROW + 2
        for ln in extra[p["seat"]]:
            _line(d, x, ty - 6, ln, SMALL, TEXT, room - 24)
            ty += 18
        y += h + 8
    if fight:
        draw_rounded(d, (MARGIN, y, SCREEN_W - MARGIN, y + fight_h), 10, fill=PANEL,
                     outline=GRID, width=2)
        ty = y + 10 + 9
        for text, size, colour, bold in fight:
            _line(d, MARGIN + 12, ty, text, size, colour, room - 24, bold=bold)
            ty += 19
        y += fight_h + 10
    for ln in result_lines:
        _line(d, MARGIN, y + 10, ln, BODY, HIGHLIGHT, room, bold=True)
        y += 20
    for ln in legend:
        _line(d, MARGIN, y + 10, ln, SMALL, MUTED, room)
        y += 18
    return img


DIE_SIDE = 34
DIE_ROW = 44
DIE_ROW_TIGHT = 32
MAX_H = 1400         # taller, and a phone shows a picture shrunk or cut


def _die_rows(v: View, p: dict[str, Any]) -> list[dict[str, Any]]:
    placed = {}
    for b in p["board"] or []:
        for die_id in b["dice"]:
            placed[die_id] = b["action"]
    for team in v["duo"]:
        for b in team["board"] or []:
            for die_id in b["dice"]:
                placed[die_id] = b["action"] + " (Duo)"
    return [{**die, "on": placed.get(die["id"])} for die in p["dice"]]


def _sum_text(comp: dict[str, Any] | None, what: str) -> str:
    if comp is None:
        return ""
    if comp["base"] is None:
        return f"{what}: none yet (no {what} base)" if what == "attack" else \
            f"{what}: 0 (no {what} base)"
    return f"{what}: {comp['text']}"


def seat_picture(view: dict[str, Any]) -> Picture | None:
    """A seat's panel picture, from that seat's own view, 550 px wide: their dice (the face
    showing, the six faces, where each die is placed), their sums so far, their unattached
    faces and abilities; in 2 vs 2 their ally's dice and the Duo board too. None for the
    public view."""
    you = view.get("you")
    if you is None:
        return None
    v = view
    me = v["players"][you]
    team = [p for p in v["players"] if p["team"] == me["team"]]
    room = SCREEN_W - 2 * MARGIN
    blocks = []
    for p in team:
        rows = _die_rows(v, p)
        notes = []
        if p.get("attack") is not None and v["stage"] in ("assign", "power"):
            notes += [_sum_text(p["attack"], "attack"), _sum_text(p["defense"], "defense")]
        if p["unattached"]:
            notes.append("unattached faces: " + " ".join(
                v["face_names"][f] for f in p["unattached"]))
        if p["locked_in"]:
            notes.append("abilities: " + "; ".join(f"{x['name']} ({x['text']})"
                                                   for x in p["locked_in"]))
        lines = [ln for n in notes for ln in _wrap(n, BODY, room - 24)]
        blocks.append((p, rows, lines))
    duo = next((t for t in v["duo"] if you in t["seats"]), None)
    duo_lines = []
    if duo and duo["board"]:
        names = [q["name"] for q in v["players"]]
        duo_lines = _wrap("Duo board: " + "; ".join(
            f"{b['action']} ({', '.join(b['dice'])})"
            + (f" for {names[b['ally']]}" if b.get("ally") is not None else "")
            for b in duo["board"]), BODY, room)
    subtitle = f"{me['name']} · {me['health']}/{me['max_health']} health · " + _subtitle(v)
    top = _head_h(subtitle) + 10
    legend = _wrap("Faces: M Might, E Energy, T Toughness, A Agility, X X-Factor, W Wild "
                   "(counts as any), blank square: blank.", SMALL, room)
    # A team with many dice gets lower rows (the die's id and colour on one line), so the
    # panel stays within what a phone shows (MAX_H).
    for row_h in (DIE_ROW, DIE_ROW_TIGHT):
        heights = [34 + len(rows) * row_h + len(lines) * 20 + 10 for _, rows, lines in blocks]
        height = (top + sum(heights) + 10 * len(heights) + len(duo_lines) * 20
                  + len(legend) * 18 + MARGIN + 6)
        if height <= MAX_H:
            break
    tight = row_h == DIE_ROW_TIGHT
    side = DIE_SIDE if not tight else row_h - 6
    chip = FACE_CHIP if not tight else FACE_CHIP - 2
    img, d = new_canvas(SCREEN_W, height)
    _head(img, "Your screen" if v["stage"] == "assign" else "Your dice", subtitle)
    y = top
    for (p, rows, lines), h in zip(blocks, heights):
        draw_rounded(d, (MARGIN, y, SCREEN_W - MARGIN, y + h), 10, fill=PANEL, outline=GRID,
                     width=2)
        who = "You" if p["seat"] == you else f"Your ally {p['name']}"
        _line(d, MARGIN + 12, y + 17, f"{who} — {p['role']}", BODY, TEXT, room - 24, bold=True)
        ty = y + 34
        for die in rows:
            x = MARGIN + 12
            mid = ty + row_h / 2 - 1
            _die(d, x, mid - side / 2, side, die["colour"], die["up"])
            kind = die["colour"] if die["kind"] == "trait" else "action"
            if tight:
                right = _line(d, x + side + 8, mid, die["id"], BODY, TEXT, 40, bold=True)
                _line(d, right + 5, mid, kind, SMALL, MUTED, 60)
                fx = x + side + 92
            else:
                _line(d, x + side + 8, ty + 12, die["id"], BODY, TEXT, 40, bold=True)
                _line(d, x + side + 8, ty + 30, kind, SMALL, MUTED, 60)
                fx = x + side + 64
            for f in die["faces"]:
                _face_chip(d, fx, mid - chip / 2, f, chip)
                fx += chip + 2
            if die["on"]:
                _line(d, fx + 8, mid, "on " + die["on"], BODY, HIGHLIGHT,
                      SCREEN_W - MARGIN - 12 - fx - 8, bold=True)
            elif die["up"] is not None and v["stage"] == "assign":
                _line(d, fx + 8, mid, "unplaced", SMALL, MUTED, 100)
            ty += row_h
        for ln in lines:
            _line(d, MARGIN + 12, ty + 8, ln, BODY, TEXT, room - 24)
            ty += 20
        y += h + 10
    for ln in duo_lines:
        _line(d, MARGIN, y + 8, ln, BODY, DUO_C, room)
        y += 20
    for ln in legend:
        _line(d, MARGIN, y + 10, ln, SMALL, MUTED, room)
        y += 18
    return to_png(img, alt_text(v), f"kaploom-seat{you + 1}-round-{v['round']}.png")
