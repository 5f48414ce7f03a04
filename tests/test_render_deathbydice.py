"""Death by Dice pictures, drawn from views of real games played through the engine.

Every picture here comes from `GAME.new(...)` + `apply(...)` (chance moves included): the
secret set-up in public and in a seat's own view, attacks in progress and finished, Bosses &
Minions, big free-for-alls, the end of a match, and the roster card. Rendering time is measured
by `bench/render_deathbydice.py`, never asserted here.
"""
from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.engine import records
from bot.engine.core import CHANCE
from bot.engine.deathbydice import GAME as G
from bot.engine.deathbydice import board as B
from bot.engine.deathbydice.data import CHARACTER_TABLE, ROSTER, ROSTER_NAMES, SPECIAL_TABLE
from rendering import HIGHLIGHT, MAX_ALT_CHARS, MAX_PNG_BYTES, Picture, render_async
from rendering.deathbydice import (LINK, PANEL_W, PUBLIC_W, drawable, public_picture, render_roster,
                                   seat_picture)
from rendering.fonts import displayed_px, recorded_sizes

RECORDS = Path(__file__).resolve().parent / "records" / "deathbydice"
MALICE = "STR=5 AGI=3 FOR=4 SMA=2 CON=9"            # total 23
MAYHEM = "STR=10 AGI=6 FOR=5 CON=7 LUCK=8"          # total 36


# --- helpers ------------------------------------------------------------------------------------

def new(chars: str = "Malice,Mayhem", players: int = 2, **options):
    return G.new(players, {"characters": chars, **options})


def run(g, *lines: str) -> None:
    """`roll ...` is a chance outcome; `@2 defend none` is seat 2's move."""
    for line in lines:
        if line.startswith("roll"):
            g.apply(CHANCE, line)
        else:
            seat, move = line.split(" ", 1)
            g.apply(int(seat[1:]) - 1, move)


def values_of(board: str) -> dict[str, int]:
    return {k: int(v) for k, v in (part.split("=") for part in board.split())}


def roll_setup(g, *boards: str) -> None:
    """Roll exactly these set-up values (one board per character, in order); place nothing."""
    rolls = [values_of(b)[a] for f, b in zip(g.fighters, boards) for a in B.boxes(f)]
    g.apply(CHANCE, "roll " + " ".join(map(str, rolls)))


def start(g, *boards: str) -> None:
    roll_setup(g, *boards)
    for f, text in zip(g.fighters, boards):
        several = sum(1 for h in g.fighters if h["seat"] == f["seat"]) > 1
        g.apply(f["seat"], "setup " + (f["id"] + " " if several else "") + text)


def play(players: int, options: dict, seed: int, steps: int = 100_000, until=None):
    """Random legal play (seeded) until `until(g)` holds, the game ends or `steps` run out."""
    rng = random.Random(seed)
    g = G.new(players, options)
    for _ in range(steps):
        if g.result is not None or (until is not None and until(g)):
            break
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
        else:
            actor = rng.choice(actors)
            g.apply(actor, rng.choice(g.legal(actor)))
    return g


def decode(picture: Picture) -> Image.Image:
    img = Image.open(io.BytesIO(picture.png))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


def render(view):
    """The picture a view gets in Discord: the public board, or the seat's panel picture."""
    return public_picture(view) if "you" not in view else seat_picture(view)


def check(picture: Picture) -> Image.Image:
    """What every board picture must be: a PNG in budget, a sensible size, alt text."""
    assert isinstance(picture, Picture)
    assert len(picture.png) < MAX_PNG_BYTES
    img = decode(picture)
    assert img.width in (PUBLIC_W, PANEL_W + 40) and 300 <= img.height <= 1800
    assert picture.alt.startswith("Death by Dice") and len(picture.alt) <= MAX_ALT_CHARS
    assert picture.filename.endswith(".png")
    return img


def colours(img: Image.Image) -> dict[tuple[int, int, int], int]:
    """Pixel count per colour."""
    return {c: n for n, c in img.getcolors(maxcolors=img.width * img.height)}


def count(img: Image.Image, colour, tolerance: int = 0) -> int:
    """Pixels within `tolerance` levels of `colour` (the PNG palette may shift a colour a
    little when a picture has more than 256)."""
    return sum(n for c, n in colours(img).items()
               if max(abs(a - b) for a, b in zip(c, colour)) <= tolerance)


# --- the secret set-up --------------------------------------------------------------------------

def test_before_the_set_up_roll():
    g = new()
    pic = render(g.view(None))
    check(pic)
    assert "Rolling the set-up dice" in pic.alt


def test_public_set_up_shows_no_values_whatever_they_are():
    """The public render during the secret set-up is the same picture for any rolls."""
    a, b = new(), new()
    roll_setup(a, MALICE, MAYHEM)
    roll_setup(b, "STR=1 AGI=6 FOR=10 SMA=6 CON=1", "STR=12 AGI=1 FOR=8 CON=2 LUCK=10")
    pa, pb = render(a.view(None)), render(b.view(None))
    check(pa)
    assert pa.png == pb.png and pa.alt == pb.alt
    assert "?" in pa.alt and "9" not in pa.alt.split("\n", 1)[1]
    # One seat places its dice: still nothing public, still the same picture for both games.
    a.apply(0, "setup " + MALICE)
    b.apply(0, "setup STR=1 AGI=6 FOR=10 SMA=6 CON=1")
    pa, pb = render(a.view(None)), render(b.view(None))
    assert pa.png == pb.png
    assert "(set up)" in pa.alt and "total 23" not in pa.alt


def test_own_view_shows_only_your_secret():
    g = new()
    roll_setup(g, MALICE, MAYHEM)
    public = render(g.view(None))
    mine = render(g.view(1))
    check(mine)
    # Mayhem's seat sees its own roll, and not Malice's.
    assert "Your roll for Mayhem (Player 2): d12 10, d8 6, d8 5, d8 7, d10 8" in mine.alt
    assert "Your roll for Malice" not in mine.alt
    assert mine.png != public.png
    # Two games that differ only in Malice's hidden roll: Mayhem's view is identical.
    other = new()
    roll_setup(other, "STR=8 AGI=1 FOR=1 SMA=1 CON=12", MAYHEM)
    assert render(other.view(1)).png == mine.png


def test_own_placement_preview():
    g = new()
    roll_setup(g, MALICE, MAYHEM)
    g.apply(0, "setup " + MALICE)
    pic = render(g.view(0))
    check(pic)
    assert "placed STR 5, AGI 3, FOR 4, SMA 2, CON 9" in pic.alt
    assert render(g.view(1)).png != pic.png


# --- attacks ------------------------------------------------------------------------------------

def test_attack_in_progress_and_its_result():
    g = new()
    start(g, MALICE, MAYHEM)
    quiet = render(g.view(None))
    check(quiet)
    assert "Now: Malice (Player 1): declare an attack." in quiet.alt
    run(g, "@1 attack ability CON -> @2:CON")
    waiting = render(g.view(None))
    check(waiting)
    assert ("Attack: Malice (Player 1): ability attack with CON on CON of Mayhem (Player 2)"
            in waiting.alt)
    assert "defense for CON" in waiting.alt
    run(g, "@2 defend none", "roll 7")
    done = render(g.view(None))
    img = check(done)
    assert ("on CON of Mayhem (Player 2): 7 against 7, won; discarded CON of Mayhem (Player 2)"
            in done.alt)
    # The arrow and the rings are drawn in HIGHLIGHT: far more of it than on a quiet board.
    assert count(img, HIGHLIGHT, 8) > count(decode(quiet), HIGHLIGHT, 8) + 300
    assert len({quiet.png, waiting.png, done.png}) == 3


def test_boosted_attack_with_defense_and_rerolled_assist():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack boosted STR+AGI -> @2:LUCK", "@2 defend none", "roll 6", "roll 1")
    pic = render(g.view(None))
    check(pic)
    assert ("boosted attack with STR (+2 from AGI) on LUCK of Mayhem (Player 2): 8 against 8, "
            "lost") in pic.alt


def test_complex_attack_with_a_choice_of_discards():
    g = new()
    start(g, MALICE, MAYHEM)
    run(g, "@1 attack complex STR+FOR -> @2:STR", "@2 defend none", "roll 3 7")
    assert g.stage == "discard"
    pic = render(g.view(None))
    check(pic)
    assert "complex attack with STR+FOR on STR of Mayhem" in pic.alt
    assert "choose the dice to discard" in pic.alt
    run(g, "@1 discard FOR")
    after = render(g.view(None))
    check(after)
    assert "discarded FOR of Malice (Player 1)" in after.alt


@pytest.mark.parametrize("name, needle", [
    ("mayhem_vs_knuckles_specials.json", "boosted defense from LUCK +2: 5 against 5, won"),
    ("lou_vs_vex_short_combat.json", "complex attack with AGI+CON+LUCK on CON of Madame Vex"),
])
def test_recorded_combats_every_step(name, needle):
    """Each position of the recorded combats (Thick Skull, Rampage, Loaded Dice, a set-up
    tie re-roll) draws, and the last one tells its attack."""
    rec = records.Record.from_json(json.loads((RECORDS / name).read_text()))
    g = G.new(len(rec.players), rec.options)
    for entry in rec.entries:
        g.apply(records.entry_actor(entry, len(rec.players)), entry["move"])
        check(render(g.view(None)))
    assert needle in render(g.view(None)).alt


def test_link_colours_drawn():
    g = new()
    start(g, MALICE, MAYHEM)
    img = decode(render(g.view(None)))
    for letter in "RBGW":
        assert count(img, LINK[letter], tolerance=8) > 500, letter


# --- more boards, the end -----------------------------------------------------------------------

@pytest.mark.parametrize("players, options", [
    (2, {"mode": "boss"}),
    (3, {"mode": "boss", "characters": "Knuckles,Malice,The Accountant", "best_of": 1}),
    (4, {"mode": "boss"}),
    (3, {}),
    (4, {"characters": "Knuckles,Lucky Lou,Madame Vex,The Accountant", "best_of": 1}),
    (6, {"best_of": 1}),
])
def test_many_boards_mid_game(players, options):
    g = play(players, options, seed=players, until=lambda g: g.turn >= 5)
    pic = render(g.view(None))
    check(pic)
    for f in g.fighters:
        assert g.label(g.fighters.index(f)) in pic.alt
    if options.get("mode") == "boss":
        assert "Boss " in pic.alt


def test_alt_text_fits_with_six_boards():
    g = play(6, {"best_of": 1}, seed=1, until=lambda g: g.turn >= 3)
    pic = render(g.view(None))
    assert len(pic.alt) <= MAX_ALT_CHARS
    assert "(Player 6)" in pic.alt and "…" not in pic.alt[-3:]


@pytest.mark.parametrize("players, options, seed", [
    (2, {}, 4), (3, {}, 5), (2, {"mode": "boss"}, 6), (2, {"best_of": 1}, 7)])
def test_game_over(players, options, seed):
    g = play(players, options, seed)
    assert g.result is not None
    pic = render(g.view(None))
    check(pic)
    assert "Over: " + g.result["reason"] in pic.alt


def test_every_stage_of_random_games_renders():
    """Along several random matches, each distinct stage draws, publicly and for a seat."""
    for seed, (players, options) in enumerate([(2, {}), (2, {"mode": "boss"}),
                                               (2, {"characters": "Lucky Lou,Knuckles"}),
                                               (2, {"characters": "Madame Vex,Mayhem"})]):
        rng = random.Random(seed)
        g = G.new(players, options)
        seen = set()
        while g.result is None:
            if g.stage not in seen:
                seen.add(g.stage)
                check(render(g.view(None)))
                check(render(g.view(rng.randrange(players))))
            actors = g.actors()
            if CHANCE in actors:
                g.apply(CHANCE, g.chance().sample(rng))
            else:
                actor = rng.choice(actors)
                g.apply(actor, rng.choice(g.legal(actor)))
        check(render(g.view(None)))
        assert {"setup", "declare"} <= seen


def test_deterministic_bytes():
    g = play(2, {}, seed=9, until=lambda g: g.turn >= 4)
    view = g.view(None)
    assert render(view).png == render(view).png


def test_renders_off_the_event_loop():
    g = new()
    start(g, MALICE, MAYHEM)
    pic = asyncio.run(render_async(render, g.view(None)))
    assert pic.png == render(g.view(None)).png


# --- the roster ---------------------------------------------------------------------------------

def test_roster_card():
    pic = render_roster()
    img = decode(pic)
    assert len(pic.png) < MAX_PNG_BYTES
    assert img.width == PUBLIC_W and img.height >= 1000
    assert pic.filename == "deathbydice-roster.png"
    for name in ROSTER_NAMES:
        assert name in pic.alt
    for name, _, _ in SPECIAL_TABLE.values():
        assert name in pic.alt
    assert "Malice: STR d8 red, AGI d6 white, FOR d10 red, SMA d8 blue, CON d12 blue, LUCK —" \
        in pic.alt
    assert render_roster().png == pic.png


def test_roster_from_table_rows_is_the_same_card():
    assert render_roster(CHARACTER_TABLE).png == render_roster(ROSTER).png
    two = render_roster(ROSTER[:2])
    assert decode(two).height < decode(render_roster()).height
    with pytest.raises(ValueError):
        render_roster([])


def test_roster_from_the_engine_is_the_same_card_and_legible():
    with recorded_sizes() as sizes:
        pic = render_roster(G.roster())
    assert pic.png == render_roster(ROSTER).png
    assert min(displayed_px(s, decode(pic).width) for s in sizes) >= 11


# --- legible on Discord (issue #13) -------------------------------------------------------------

NAMES = ["Ada", "Bartholomew", "Chidi", "Dolores", "Eun-ji", "Farouk"]


@pytest.mark.parametrize("players, options", [
    (2, {}),                                   # typical: a duel
    (6, {"best_of": 1}),                       # crowded: the largest table
    (2, {"mode": "boss"}),                     # one seat runs two Minions: two private boards
])
def test_legible_at_550_px(players, options):
    """The smallest text drawn shows at least 11 px tall when Discord displays the picture
    550 px wide, the public board stays within its design width whatever the table, and a
    seat's panel picture is within its own."""
    g = play(players, options, seed=players, until=lambda g: g.turn >= 4)
    g.names = NAMES[:players]
    with recorded_sizes() as sizes:
        pic = public_picture(g.view(None))
    img = decode(pic)
    assert img.width <= PUBLIC_W and len(pic.png) < 1_000_000
    assert sizes and min(displayed_px(s, img.width) for s in sizes) >= 11, sorted(set(sizes))
    for seat in range(players):
        with recorded_sizes() as sizes:
            mine = seat_picture(g.view(seat))
        img = decode(mine)
        assert img.width <= PANEL_W + 40 and len(mine.png) < 1_000_000
        assert min(displayed_px(s, img.width) for s in sizes) >= 11, sorted(set(sizes))
    # during the secret set-up too: a seat's own roll
    h = G.new(players, options, names=NAMES[:players])
    h.apply(CHANCE, h.chance().sample(random.Random(1)))
    with recorded_sizes() as sizes:
        mine = seat_picture(h.view(players - 1))
    assert min(displayed_px(s, decode(mine).width) for s in sizes) >= 11


def test_names_drawn_cleanly_and_the_public_view_has_no_seat_picture():
    """Names come from the view; what the font cannot draw becomes one "?" (never a row of
    empty boxes), long names are clipped, and nothing is drawn for the public view's seat."""
    from rendering.fonts import font
    assert drawable("Ada", font(15)) == "Ada"
    assert drawable("中文名字 Li", font(15)) == "? Li"
    assert drawable("\u200b", font(15)) == "?"
    g = play(2, {}, seed=3, until=lambda g: g.turn >= 2)
    g.names = ["中文名字", "X" * 40]
    pic = public_picture(g.view(None))
    check(pic)
    assert "中文名字" in pic.alt                    # the alt text keeps the real name
    assert seat_picture(g.view(None)) is None
