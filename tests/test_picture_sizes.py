"""Every picture every game makes fits a phone (issue #22, item 11 and its Goals).

Discord shows a picture about 550 px wide on a phone: a wider one is scaled down and its text
shrinks with it. So each picture must be at most 550 px wide at its design size and at most
1,400 px tall (taller ones are shrunk to fit the screen, or need scrolling to read), and the
smallest text it draws must be at least 11 px there (sizes recorded through rendering.fonts).

Positions come from seeded random legal play of every game at every player count it allows
(KAPLOOM! as a duel and 2 vs 2, TradeShowdown 2-6, Death by Dice 2 and more, with Bosses &
Minions), sampled across the whole game; every picture of each position is drawn: the public
board and each seat's own panel, plus the pictures a command draws on its own (KAPLOOM!'s action
boards, Die-Men's odds chart, Death by Dice's roster, a TradeShowdown card).
"""
from __future__ import annotations

import io
import random
from typing import Any, Callable, Iterator

import pytest
from PIL import Image

from bot.engine import load
from bot.engine.core import CHANCE
from rendering import Picture, canvas, text
from rendering import deathbydice as dd
from rendering import diemen as dm
from rendering import kaploom as kp
from rendering import slideslam as ss
from rendering import tradeshowdown as ts
from rendering.fonts import recorded_sizes

MAX_W, MAX_H, MIN_TEXT = 550, 1400, 11
# Real display names run long; one here is long enough to need wrapping or clipping.
NAMES = ["Alice", "Bob", "Carol Featherstonehaugh", "Dave", "Eve", "Frank"]

# (game, players, options, positions drawn)
CASES = [
    ("slideslam", 2, {}, 10),
    ("diemen", 2, {"mode": "simulated"}, 10),
    ("diemen", 2, {"mode": "physical"}, 10),
    ("deathbydice", 2, {}, 10),
    ("deathbydice", 3, {}, 8),
    ("deathbydice", 4, {"mode": "boss"}, 8),
    ("deathbydice", 6, {}, 6),
    ("tradeshowdown", 2, {}, 12),
    ("tradeshowdown", 3, {}, 8),
    ("tradeshowdown", 4, {}, 8),
    ("tradeshowdown", 5, {}, 8),
    ("tradeshowdown", 6, {}, 8),
    ("kaploom", 2, {}, 10),
    ("kaploom", 2, {"supers": "Tough Nut, Spoiler Alert!"}, 8),
    ("kaploom", 4, {"mode": "2v2"}, 8),
    ("kaploom", 4, {"mode": "2v2", "supers": "Tough Nut, Timeout!, Victor Kane, Spoiler Alert!"},
     8),
]

Draw = tuple[str, Callable[..., Picture | None], tuple]


def positions(kind: str, players: int, options: dict[str, Any], count: int,
              seed: int = 22, steps: int = 3000) -> Iterator[Any]:
    """`count` positions spread over one seeded random game, the start and the end included.
    Moves are mostly ones that do something (placing, attacking), so boards fill up."""
    G = load(kind)
    g = G.new(players, options, names=NAMES[:players])
    rng = random.Random(seed)
    states = [g.to_json()]
    for _ in range(steps):
        if g.result is not None:
            break
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
        else:
            seat = rng.choice(actors)
            moves = g.legal(seat)
            busy = [m for m in moves if m.split()[0] not in
                    ("lock", "done", "unassign", "detach", "pass", "confirm", "ready")]
            g.apply(seat, rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(moves))
        states.append(g.to_json())
    picks = sorted({round(i * (len(states) - 1) / (count - 1)) for i in range(count)})
    for i in picks:
        yield G.from_json(states[i])


def pictures(kind: str, g: Any) -> list[Draw]:
    """Every picture a position makes, as the cogs draw them."""
    seats = range(g.players)
    if kind == "slideslam":
        return [(f"board for seat {s}", ss.render, (g.view(s),)) for s in (None, *seats)]
    if kind == "diemen":
        out: list[Draw] = []
        names = [g.name(s) for s in seats]
        for s in (None, *seats):
            view = g.view(s)
            out.append((f"board for seat {s}", dm.render, (view,)))
            for shot in view.get("shots") or []:
                out.append((f"odds of {shot['move']}", lambda shot=shot, s=s: dm.render_odds(
                    shot["odds"], shot["target"], seat=s, names=names), ()))
        return out
    if kind == "kaploom":
        out = [("public board", kp.public_picture, (g.view(None),))]
        for s in seats:
            out.append((f"panel of seat {s}", kp.seat_picture, (g.view(s),)))
            if hasattr(g, "picture_view"):
                out.append((f"drawn panel of seat {s}", kp.seat_picture, (g.picture_view(s),)))
        if hasattr(g, "picture_view"):
            out.append(("drawn public board", kp.public_picture, (g.picture_view(None),)))
        return out
    module = {"tradeshowdown": ts, "deathbydice": dd}[kind]
    return ([("public board", module.public_picture, (g.view(None),))]
            + [(f"panel of seat {s}", module.seat_picture, (g.view(s),)) for s in seats])


# Every module that shortens text with "…": a cut is allowed only inside a player's name
# (names are any length); game text is wrapped, never cut ("Bob is f…", "knocks the target al…").
FITTERS = (canvas, dd, dm, kp, ss, ts, text)
CUTS: list[tuple[str, str]] = []


def _spying_fit(real):
    def fit(s: str, fnt, max_width: float) -> str:
        out = real(s, fnt, max_width)
        if out != s:
            CUTS.append((s, out))
        return out
    return fit


@pytest.fixture(autouse=True)
def spy_on_cuts(monkeypatch):
    real = text.fit_text
    for module in FITTERS:
        if getattr(module, "fit_text", None) is real:
            monkeypatch.setattr(module, "fit_text", _spying_fit(real))
    CUTS.clear()
    yield


def user_names(g: Any) -> list[str]:
    """What people name, any length: players, and TradeShowdown's business cards."""
    cards = [c["name"] for f in g.view(None).get("fighters", [])
             for c in (f.get("cards") or []) if isinstance(c, dict) and "name" in c]
    return list(g.names) + cards


def cut_game_text(names: list[str]) -> list[str]:
    """The cut strings whose cut is not inside a player's name."""
    bad = []
    for whole, shown in CUTS:
        kept = len(shown.rstrip(text.ELLIPSIS).rstrip())
        spans = [(m, m + len(n)) for n in names for form in {n, text.drawable(n)}
                 for m in _find_all(whole, form)]
        if not any(a <= kept < b for a, b in spans):
            bad.append(f"cut off: {shown!r} (of {whole!r})")
    return bad


def _find_all(s: str, part: str) -> list[int]:
    out, i = [], s.find(part)
    while part and i >= 0:
        out.append(i)
        i = s.find(part, i + 1)
    return out


def measure(draw: Callable[..., Picture | None], *args) -> tuple[int, int, int] | None:
    """(width, height, smallest font size) of the picture `draw(*args)`, None if none."""
    with recorded_sizes() as sizes:
        pic = draw(*args)
    if pic is None:
        return None
    with Image.open(io.BytesIO(pic.png)) as img:
        width, height = img.size
    assert sizes, "a picture with no text"
    return width, height, min(sizes)


def problems(label: str, size: tuple[int, int, int] | None) -> list[str]:
    if size is None:
        return []
    w, h, small = size
    out = []
    if w > MAX_W:
        out.append(f"{label}: {w} px wide (at most {MAX_W})")
    if h > MAX_H:
        out.append(f"{label}: {h} px tall (at most {MAX_H})")
    shown = small * min(1.0, MAX_W / w)
    if shown < MIN_TEXT:
        out.append(f"{label}: text of {small} px shows at {shown:.1f} px (at least {MIN_TEXT})")
    return out


@pytest.mark.parametrize("kind, players, options, count", CASES,
                         ids=[f"{k}-{n}p-{'-'.join(map(str, o.values())) or 'default'}"
                              for k, n, o, _ in CASES])
def test_every_picture_of_random_play_fits_a_phone(kind, players, options, count):
    found: dict[str, str] = {}      # the first problem of each picture, by picture
    for i, g in enumerate(positions(kind, players, options, count)):
        for label, draw, args in pictures(kind, g):
            CUTS.clear()
            size = measure(draw, *args)
            for problem in problems(label, size) + cut_game_text(user_names(g)):
                key = problem.split(":")[0] + (problem.split(" px ")[1][:4]
                                              if " px " in problem else problem)
                found.setdefault(key, f"position {i}, {label}: {problem}")
    assert not found, "\n".join(sorted(found.values()))


def test_kaploom_action_boards_fit_a_phone():
    sides = tuple(load("kaploom").super_sides())
    found: list[str] = []
    for supers in ((), *((s,) for s in sides), sides):
        for duo in (False, True):
            kp._action_board.cache_clear()    # drawn once per process: draw it here
            found += problems(f"action board {supers} duo={duo}",
                              measure(lambda: kp.render_action_board(supers=supers, duo=duo)))
    assert not found, "\n".join(found)


def test_roster_and_cards_fit_a_phone():
    found = problems("Death by Dice roster", measure(dd.render_roster,
                                                     load("deathbydice").roster()))
    g = load("tradeshowdown").new(2, {"fair_length": 40, "tag_team": True}, names=NAMES[:2])
    for fighter in g.view(0)["fighters"]:
        for card in fighter.get("cards") or []:
            if {"name", "digits", "zip"} <= card.keys():
                found += problems(f"card {card['name']}", measure(
                    ts.render_card, {k: card[k] for k in ("name", "digits", "zip")}))
    assert not found, "\n".join(found)


def test_kaploom_panel_face_letters_read_on_a_phone(monkeypatch):
    """The six faces of each die in a seat's panel: letters of 15 px (11 px tall capitals),
    not the 12 px (8 px capitals) that the 2 vs 2 play-through could hardly read."""
    sides: list[int] = []
    real = kp._face_chip

    def spy(d, x, y, face, side):
        sides.append(side)
        return real(d, x, y, face, side)
    monkeypatch.setattr(kp, "_face_chip", spy)
    g = next(iter(positions("kaploom", 4, {"mode": "2v2"}, 2)))
    for seat in range(4):
        kp.seat_picture(g.view(seat))
    assert sides and min(sides) >= 20 and round(min(sides) * 0.68) >= 14
