"""KAPLOOM! pictures, drawn from views of real games played through the engine.

Every picture here comes from `Kaploom.new(...)` + `apply(...)` (chance moves included): the
rulebook's play example through Phase 1 (the compact public board, each seat's own panel
picture), the reveal and Power Up, a knock-out, super boards and 2 vs 2 from seeded play, and
the printed action board. Every picture must read at Discord's 550 px display (issue #13). Rendering time is measured by `bench/render_kaploom.py`, never
asserted here.
"""
from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from bot.engine.core import CHANCE
from bot.engine.kaploom import Kaploom
from bot.engine.kaploom.combat import attack
from bot.engine.kaploom.data import ACTION_TABLE, ALL_ACTIONS, DUO_TABLE, SUPER_TABLE, SUPERS
from rendering import MAX_ALT_CHARS, MAX_PNG_BYTES, Picture, render_async
from rendering.fonts import DISPLAY_WIDTH, MIN_DISPLAY_PX, displayed_px, recorded_sizes
from rendering.kaploom import (SCREEN_W, effect_label, public_picture, render_action_board,
                               seat_picture, sum_names, sum_numbers)

HERO, VILLAIN = 0, 1
# Dice: hero d1 blue, d2 yellow, d3 purple, d4 green, d5 action [W];
#       villain d6 blue, d7 red, d8 yellow, d9 green, d10 action [W].
EXAMPLE_ROLL = "roll X E W A _ _ M E A _"


# --- helpers ------------------------------------------------------------------------------------

def run(g: Kaploom, *lines: str) -> Kaploom:
    """`roll ...` is a chance outcome; `@2 lock` is seat 2's move."""
    for line in lines:
        if line.startswith("roll"):
            g.apply(CHANCE, line)
        else:
            seat, move = line.split(" ", 1)
            g.apply(int(seat[1:]) - 1, move)
    return g


def example_phase1(hero_health: int | None = None) -> Kaploom:
    """The rulebook's play example, every die placed, nobody locked in yet."""
    g = Kaploom.new(2, {})
    if hero_health is not None:
        g.seats[HERO]["health"] = hero_health
    return run(g, EXAMPLE_ROLL,
               "@1 assign GROW d1 d2", "@1 assign BLOCK d5 d3", "@1 assign SUCKER PUNCH d4",
               "@2 assign POW d7 d8", "@2 timejump d10 reroll d6", "roll X",
               "@2 assign POWER ON d6 d9")


def other_phase1() -> Kaploom:
    """Another roll and other placements, with what the table knows kept the same: nobody
    locked in, the villain announced TIME JUMP."""
    return run(Kaploom.new(2, {}), "roll E M T T W W M E A W",
               "@1 assign JAB d2", "@1 assign BRACE d3",
               "@2 timejump d10 reroll d6", "roll E", "@2 assign POW d7 d8")


def example_revealed() -> Kaploom:
    return run(example_phase1(), "@1 lock", "@2 lock")


def keen_play(options: dict, players: int, seed: int, until) -> Kaploom:
    """Seeded random play that mostly uses actions, until `until(g)` or the end."""
    g = Kaploom.new(players, options)
    rng = random.Random(seed)
    for _ in range(20000):
        if g.result is not None or until(g):
            break
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        actor = rng.choice(actors)
        moves = g.legal(actor)
        busy = [m for m in moves if m.split()[0] not in
                ("lock", "done", "unassign", "attach", "detach", "give")]
        g.apply(actor, rng.choice(busy) if busy and rng.random() < 0.9 else rng.choice(moves))
    return g


def near(colour, target, tolerance: int = 8) -> bool:
    """Within a few levels (the PNG palette may shift a colour a little)."""
    return max(abs(a - b) for a, b in zip(colour, target)) <= tolerance


def decode(picture: Picture) -> Image.Image:
    img = Image.open(io.BytesIO(picture.png))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


def check(picture: Picture, *, min_w: int = 600, max_w: int = 2100,
          max_h: int = 3200) -> Image.Image:
    """What every picture must be: a PNG in budget, a sensible size, alt text."""
    assert isinstance(picture, Picture)
    assert len(picture.png) < MAX_PNG_BYTES
    img = decode(picture)
    assert min_w <= img.width <= max_w and 200 <= img.height <= max_h
    assert picture.alt.startswith("KAPLOOM!") and len(picture.alt) <= MAX_ALT_CHARS
    assert picture.filename.startswith("kaploom") and picture.filename.endswith(".png")
    return img


NAMES = ["Ada Lovelace", "Bartholomew Featherstonehaugh-Smythe", "李小龙 🐉", "<@123> Dolores"]


def legible(draw):
    """Draw inside `recorded_sizes()`: the picture, and the smallest size it shows at 550 px."""
    with recorded_sizes() as sizes:
        pic = draw()
    img = check(pic, min_w=300, max_w=SCREEN_W, max_h=2000)
    assert sizes and min(displayed_px(s, img.width) for s in sizes) >= MIN_DISPLAY_PX
    return pic, img


def crowded(players: int, options: dict, seed: int, stage: str) -> Kaploom:
    """A game several rounds in (dice gained, abilities locked in), stopped in `stage`."""
    g = keen_play(options, players, seed, lambda g: g.round >= 4 and g.stage == stage
                  and CHANCE not in g.actors())
    g.names = NAMES[:players]
    return g


# --- the compact public board and the seat's own picture (550 px) --------------------------------

@pytest.mark.parametrize("players, options", [
    (2, {}), (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})])
@pytest.mark.parametrize("stage", ["assign", "power"])
def test_pictures_read_at_550_px_typical_and_crowded(players, options, stage):
    typical = run(Kaploom.new(2, {}, names=NAMES[:2]), EXAMPLE_ROLL, "@1 assign GROW d1 d2")
    games = [typical, crowded(players, options, 3, stage)]
    for g in games:
        assert g.result is None
        pub, img = legible(lambda: public_picture(g.view(None)))
        assert img.width <= DISPLAY_WIDTH
        for seat in range(g.players):
            mine, img = legible(lambda: seat_picture(g.view(seat)))
            assert g.names[seat] in mine.alt
    assert seat_picture(typical.view(None)) is None


def test_public_board_keeps_the_secret_and_names_players():
    a, b = example_phase1(), other_phase1()
    a.names = b.names = ["Ada", "Bo"]
    pa, pb = public_picture(a.view(None)), public_picture(b.view(None))
    assert pa.png == pb.png and pa.alt == pb.alt               # nothing of the roll shows
    assert "Ada" in pa.alt and "Player 1" not in pa.alt and "@1" not in pa.alt
    assert "GROW" not in pa.alt and "POW" not in pa.alt


def test_seat_picture_shows_my_roll_placements_and_sums_only():
    g = example_phase1()
    g.names = ["Ada", "Bo"]
    mine = seat_picture(g.view(VILLAIN))
    assert "Bo so far: attack POW 3 = 3" in mine.alt
    assert "Ada: placements hidden" in mine.alt
    # another player's secret step leaves my picture as it was
    before = seat_picture(g.view(HERO)).png
    run(g, "@2 lock")
    assert seat_picture(g.view(HERO)).png == before


def test_reveal_board_shows_the_fight_with_its_sums():
    g = example_revealed()
    g.names = ["Ada", "Bo"]
    pic, img = legible(lambda: public_picture(g.view(None)))
    assert "Round 1: Bo → Ada: attack POW 3 = 3; defense BLOCK 2 = 2; loss 1." in pic.alt
    assert "Health: Ada (hero) 29/30, Bo (villain) 30/30 (first player)" in pic.alt


def test_game_over_and_determinism():
    g = run(example_phase1(hero_health=1), "@1 lock", "@2 lock")
    assert g.result is not None
    v = g.view(None)
    pic = public_picture(v)
    assert "Player 2 villain wins!" in pic.alt and "knocked out" in pic.alt
    assert public_picture(v).png == pic.png
    assert asyncio.run(render_async(public_picture, v)).png == pic.png


@pytest.mark.parametrize("options, players, seed", [
    ({"supers": "Timeout!,Spoiler Alert!"}, 2, 7),
    ({"mode": "2v2"}, 4, 5),
])
def test_seeded_games_render_in_every_stage(options, players, seed):
    g = Kaploom.new(players, options, names=NAMES[:players])
    rng = random.Random(seed)
    seen = set()
    while g.result is None and len(seen) < 3 and g.round < 6:
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        if g.stage not in seen:
            seen.add(g.stage)
            legible(lambda: public_picture(g.view(None)))
            for seat in range(players):
                legible(lambda: seat_picture(g.view(seat)))
        actor = rng.choice(actors)
        g.apply(actor, rng.choice(g.legal(actor)))
    assert {"assign", "power"} <= seen


# --- the printed board and the sums -------------------------------------------------------------

def test_action_board_lists_every_action():
    pic = render_action_board()
    check(pic, min_w=SCREEN_W, max_w=SCREEN_W, max_h=1400)   # a phone shows it whole
    for a in ACTION_TABLE:
        assert a.name in pic.alt
    assert pic.filename == "kaploom-action-board.png"
    full = render_action_board(list(SUPERS), duo=True)
    check(full, min_w=SCREEN_W, max_w=SCREEN_W, max_h=1400)
    assert "Supers: Tough Nut, Timeout!, Victor Kane, Spoiler Alert!" in full.alt
    assert render_action_board().png == pic.png
    with pytest.raises(ValueError):
        render_action_board(["Captain Nobody"])


def test_every_action_has_a_short_effect_label():
    """A new effect kind in data.py must get a label here (no cut-off sentence)."""
    for a in ACTION_TABLE + SUPER_TABLE + DUO_TABLE:
        label = effect_label(a)
        assert label and len(label) <= 9 and label != a.text[:8], a.name
    assert effect_label(ALL_ACTIONS["POW"]) == "3"
    assert effect_label(ALL_ACTIONS["BODY SLAM"]) == "+2"
    assert effect_label(ALL_ACTIONS["MEGATON"]) == "×3"
    assert effect_label(ALL_ACTIONS["RECOVER"]) == "+4♥"


def test_sums_are_written_out():
    acts = [ALL_ACTIONS[n] for n in ("POW", "WIND-UP", "JAB", "DOUBLE TROUBLE")]
    comp = attack(acts, action_dice=1, spoilers=0)
    assert sum_numbers(comp) == "(3 + 1) × 2 = 8"
    assert sum_names(comp) == "POW + WIND-UP × DOUBLE TROUBLE"
    assert sum_numbers(attack([ALL_ACTIONS["POW"]], action_dice=1, spoilers=0)) == "3"
    assert sum_numbers(attack([ALL_ACTIONS["WIND-UP"]], action_dice=1, spoilers=0)) is None
    twist = attack([ALL_ACTIONS["POW"], ALL_ACTIONS["THE TWIST"]], action_dice=1, spoilers=2)
    assert sum_numbers(twist) == "3 × 3 = 9" and "(spends ★)" in sum_names(twist)


