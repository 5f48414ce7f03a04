"""KAPLOOM! pictures, drawn from views of real games played through the engine.

Every picture here comes from `Kaploom.new(...)` + `apply(...)` (chance moves included): the
rulebook's play example through Phase 1 (public, each seat's own view, the private roll),
the reveal and Power Up, a mid-round knock-out, super boards and 2 vs 2 from seeded play, and
the printed action board. Rendering time is measured by `bench/render_kaploom.py`, never
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
from rendering import (HIGHLIGHT, MARGIN, MAX_ALT_CHARS, MAX_PNG_BYTES, Picture, render_async,
                       title_bar_height)
from rendering.kaploom import (effect_label, render, render_action_board, render_roll,
                               sum_names, sum_numbers)

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


def check(picture: Picture, *, max_w: int = 2100, max_h: int = 3200) -> Image.Image:
    """What every picture must be: a PNG in budget, a sensible size, alt text."""
    assert isinstance(picture, Picture)
    assert len(picture.png) < MAX_PNG_BYTES
    img = decode(picture)
    assert 600 <= img.width <= max_w and 300 <= img.height <= max_h
    assert picture.alt.startswith("KAPLOOM!") and len(picture.alt) <= MAX_ALT_CHARS
    assert picture.filename.startswith("kaploom") and picture.filename.endswith(".png")
    return img


# --- Phase 1: the screen ------------------------------------------------------------------------

def test_public_phase1_is_the_same_picture_whatever_was_rolled():
    a, b = example_phase1(), other_phase1()
    pa, pb = render(a.view(None)), render(b.view(None))
    check(pa)
    assert pa.png == pb.png and pa.alt == pb.alt
    assert "placements hidden" in pa.alt and "announced TIME JUMP" in pa.alt
    for secret in ("GROW", "SUCKER PUNCH", "POW (", "=X", "=M", "=E"):
        assert secret not in pa.alt


def test_own_view_shows_only_your_roll_and_placements():
    g = example_phase1()
    mine = render(g.view(HERO))
    check(mine)
    assert "view of @1" in mine.alt
    assert "@1: board GROW (X E), BLOCK (_ W), SUCKER PUNCH (A)" in mine.alt
    assert "d1 blue=X" in mine.alt and "d4 green=A" in mine.alt
    assert "@1 so far: attack no base, defense BLOCK 2 = 2" in mine.alt
    assert "POW" not in mine.alt.split("@2:")[1].split("\n")[0]      # not the villain's board
    assert "d7 red=" not in mine.alt
    assert mine.png != render(g.view(None)).png
    assert mine.png != render(g.view(VILLAIN)).png
    # The villain rolled and placed differently in another game: the hero's view is the same.
    other = run(Kaploom.new(2, {}), "roll X E W A _ W M E A W",
                "@1 assign GROW d1 d2", "@1 assign BLOCK d5 d3", "@1 assign SUCKER PUNCH d4",
                "@2 timejump d6 reroll d10", "roll _", "@2 assign JAB d7")
    assert render(other.view(HERO)).png == mine.png


def test_private_roll_picture():
    g = example_phase1()
    pic = render_roll(g.view(VILLAIN))
    check(pic, max_w=900, max_h=1400)
    assert pic.filename == "kaploom-roll-2.png"
    assert "your roll (@2 villain" in pic.alt
    assert "d6 blue X-Factor" in pic.alt and "d7 red Might" in pic.alt
    assert "@2 placed: POW (M E), TIME JUMP (_), POWER ON (X A)" in pic.alt
    assert "@2 so far: attack POW 3 = 3" in pic.alt
    assert "@1 hero: assigning." in pic.alt
    assert "GROW" not in pic.alt                                      # the hero's secret
    with pytest.raises(ValueError):
        render_roll(g.view(None))
    # whatever the hero hides, the villain's picture is the same
    other = run(Kaploom.new(2, {}), "roll E M T T W _ M E A _",
                "@1 assign JAB d2", "@2 assign POW d7 d8", "@2 timejump d10 reroll d6",
                "roll X", "@2 assign POWER ON d6 d9")
    assert render_roll(other.view(VILLAIN)).png == pic.png


def test_free_dice_and_lock_status_in_phase1():
    g = run(Kaploom.new(2, {}), EXAMPLE_ROLL, "@1 assign GROW d1 d2", "@2 lock")
    own = render(g.view(HERO))
    check(own)
    assert "@2: placements hidden; locked in" in own.alt
    assert "@1: board GROW (X E)" in own.alt
    roll = render_roll(g.view(HERO))
    assert "@2 villain: locked in." in roll.alt


# --- the reveal, Power Up, the end --------------------------------------------------------------

def test_reveal_shows_the_fight_and_the_sums():
    g = example_revealed()
    assert g.stage == "power"
    pic = render(g.view(None))
    check(pic)
    assert "Phase 3: Power Up" in pic.alt
    assert "Health: @1 hero 29/30, @2 villain 30/30 (first player)" in pic.alt
    assert "Round 1: @2 → @1: attack POW 3 = 3; defense BLOCK 2 = 2; loss 1." in pic.alt
    assert "Round 1: @1: no attack base: no attack." in pic.alt
    assert "@1: board GROW (X E), BLOCK (_ W), SUCKER PUNCH (A)" in pic.alt
    # after the reveal every seat sees the same table (only the subtitle names the viewer)
    assert render(g.view(HERO)).alt.replace(" · view of @1", "") == pic.alt


def test_power_up_pending_loss_and_next_round():
    g = run(example_revealed(), "@2 poweron M")
    pic = render(g.view(None))
    check(pic)
    assert "to take SUCKER PUNCH 2" in pic.alt
    assert "action[M]" in pic.alt                                     # the new action die
    run(g, "@2 take", "@2 done", "@1 grow red", "@1 done")
    assert g.round == 2 and g.stage == "roll"
    pic = render(g.view(None))
    check(pic)
    assert "Health: @1 hero 29/30, @2 villain 28/30 (first player)" in pic.alt
    assert "rolling" in pic.alt and "Round 1:" not in pic.alt          # last round is history
    assert "d12 red" in pic.alt


def test_knock_out_ends_the_game_with_a_banner():
    g = run(example_phase1(hero_health=1), "@1 lock", "@2 lock")
    assert g.result is not None
    pic = render(g.view(None))
    img = check(pic)
    assert "@2 villain wins!" in pic.alt and "knocked out" in pic.alt
    assert "game over" in pic.alt
    assert "K.O." in pic.alt
    # the result banner across the top, in the highlight colour
    standing = decode(render(example_revealed().view(None)))
    spot = (MARGIN + 6, title_bar_height("x") + 12 + 20)
    assert near(img.getpixel(spot), HIGHLIGHT) and not near(standing.getpixel(spot), HIGHLIGHT)


def test_render_is_deterministic_and_async():
    v = example_revealed().view(None)
    assert render(v).png == render(v).png
    pic = asyncio.run(render_async(render, v))
    assert pic.png == render(v).png


# --- supers and 2 vs 2 --------------------------------------------------------------------------

@pytest.mark.parametrize("options, players, seed", [
    ({"supers": "Timeout!,Spoiler Alert!"}, 2, 7),
    ({"sides": "villain", "supers": "Victor Kane,Tough Nut"}, 2, 3),
    ({"mode": "2v2"}, 4, 5),
    ({"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"}, 4, 11),
])
def test_seeded_games_render_in_every_stage(options, players, seed):
    seen = set()

    def until(g: Kaploom) -> bool:
        if g.round >= 2 and g.stage in ("assign", "power") and g.stage not in seen:
            seen.add(g.stage)
            for viewer in (None, 0, players - 1):
                v = g.view(viewer)
                pic = render(v)
                check(pic)
                if viewer is not None and g.stage == "assign":
                    check(render_roll(v), max_w=900, max_h=2000)
            if g.stage == "assign":
                public = render(g.view(None)).alt
                assert "Duo board" not in public                       # behind the screen
                assert all(f"{p['name']}: placements hidden" in public
                           for p in g.view(None)["players"])
        return False

    g = keen_play(options, players, seed, until)
    assert seen == {"assign", "power"}
    assert g.result is not None
    pic = render(g.view(None))
    check(pic)
    assert "game over" in pic.alt
    for p in g.view(None)["players"]:
        if p["super"]:
            assert p["super"] in pic.alt


def test_2v2_shows_the_duo_board_to_the_team_only():
    g = keen_play({"mode": "2v2"}, 4, 5, lambda g: g.stage == "assign" and any(g.duo))
    team = next(t for t, board in enumerate(g.duo) if board)
    seat = next(s for s in range(4) if g.seats[s]["team"] == team)
    foe = next(s for s in range(4) if g.seats[s]["team"] != team)
    mine = render(g.view(seat))
    assert "Duo board" in mine.alt
    assert "Duo board" not in render(g.view(foe)).alt
    assert "Duo board" not in render(g.view(None)).alt
    assert "Duo board" in render_roll(g.view(seat)).alt
    check(mine)
    assert decode(mine).width > 1800                                   # two boards a row


# --- the printed board and the sums -------------------------------------------------------------

def test_action_board_lists_every_action():
    pic = render_action_board()
    img = check(pic, max_w=1200, max_h=2400)
    for a in ACTION_TABLE:
        assert a.name in pic.alt
    assert pic.filename == "kaploom-action-board.png"
    full = render_action_board(list(SUPERS), duo=True)
    big = check(full, max_w=1200, max_h=2600)
    assert big.height > img.height + 500
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


def test_resigning_in_phase1_opens_the_screens_and_keeps_last_round_as_history():
    g = run(example_revealed(), "@2 poweron M", "@2 take", "@2 done", "@1 grow red",
            "@1 done", "roll X E W A _ W X M E A _ M", "@2 assign POW d7 d8")
    g.resign(VILLAIN)
    pic = render(g.view(None))
    check(pic)
    assert "@1 hero wins!" in pic.alt and "resigned" in pic.alt
    assert "@2: board POW (M E)." in pic.alt                           # this round's dice
    assert "Round 1:" not in pic.alt                                   # the fight is history
    assert "d7 red=M" in pic.alt
