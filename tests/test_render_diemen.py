"""The Sales Floor picture of Crazy Die-Man (`rendering.diemen`), drawn from real engine views.

Games are played through the engine (chance moves answered with `roll ...`), each view is
rendered, and the picture is read back: it opens as a PNG of a sensible size, its alt text names
the key facts, the colours at known spots say what stands there, and a public picture during
the secret banner set-up is the same whatever the hidden choice is. No timing asserts: the
benchmark is `bench/render_diemen.py`.
"""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine.core import CHANCE
from bot.engine.diemen import DieMen
from bot.engine.records import entry_actor, selfplay, start
from rendering import MAX_PNG_BYTES, Picture, player_colour
from rendering.diemen import WIDTH, alt_text, render, render_odds, spot_centre


# --- playing the engine -------------------------------------------------------------------------

def run(g: DieMen, *lines: str) -> DieMen:
    """`"1 flick 2"`, `"2 accept"`, `"c roll clean 4"`: apply each move in turn."""
    for line in lines:
        who, move = line.split(" ", 1)
        g.apply(CHANCE if who == "c" else int(who) - 1, move)
    return g


def started(mode: str, b1: str = "F1 F2 B1 B3", b2: str = "F1 F2 B2 B3") -> DieMen:
    g = DieMen.new(2, {"mode": mode})
    return run(g, f"1 banners {b1}", f"2 banners {b2}", "c roll 1")


def simulated_midgame() -> DieMen:
    """P1 at 19 with two Super Sale Banners and two customers; P2 just flicked twice."""
    g = started("simulated")
    run(g, "1 flick 0", "1 done", "2 flick 1", "2 called F1", "c roll pair 2", "c roll F2",
        "2 supersale F1", "2 done", "1 flick 1", "1 aim S2", "c roll clean 5",
        "1 supersale 2", "1 done", "2 flick 0", "2 place F1", "2 done",
        "1 flick 0", "1 done", "1 customer C1", "1 customer C3",
        "2 flick 2", "2 aim F2", "c roll miss 3", "2 called B1", "c roll clean 6")
    return g


def physical_midgame() -> DieMen:
    """P2 moved to S1, knocked a customer and a banner, then flicked a Called Shot off the floor."""
    g = started("physical", b1="F1 F2 B2 B3")
    run(g, "1 flick 1", "1 result 1", "2 accept", "1 supersale F1", "1 done",
        "2 flick 0", "2 done", "1 flick 0", "1 done", "1 customer C2",
        "2 move S1", "2 flick 2", "2 result 4 hit=C2,F2", "1 accept",
        "2 called B2", "2 result 5 off", "1 accept")
    return g


# --- reading a picture --------------------------------------------------------------------------

def decode(p: Picture) -> Image.Image:
    img = Image.open(io.BytesIO(p.png))
    assert img.format == "PNG"
    return img.convert("RGB")


def check_picture(p: Picture) -> Image.Image:
    assert isinstance(p, Picture)
    assert p.filename == "diemen-board.png"
    assert 0 < len(p.png) < MAX_PNG_BYTES
    img = decode(p)
    assert img.width == WIDTH
    assert 500 <= img.height <= 1000
    assert p.alt.startswith("Crazy Die-Man is Unbreakable!")
    return img


def close(a, b, tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def disc_pixel(img: Image.Image, side: int, spot: str):
    """A pixel inside a banner spot's disc, clear of the flag drawn in its middle."""
    x, y = spot_centre(side, spot)
    return img.getpixel((round(x + 14), round(y)))


# --- the secret set-up --------------------------------------------------------------------------

def test_public_setup_shows_no_banners_whatever_was_chosen():
    pictures = []
    for choice in ("F1 F3 B2 B3", "F2 B1 B2 B3", "F1 F2 F3 B1"):
        g = DieMen.new(2, {"mode": "physical"})
        g.apply(0, f"banners {choice}")
        v = g.view(None)
        assert v["my_setup"] is None
        pictures.append(render(v))
    first = pictures[0]
    assert all(p.png == first.png and p.alt == first.alt for p in pictures)
    img = check_picture(first)
    assert "Player 1 done, Player 2 choosing" in first.alt
    assert "set up in secret" in first.alt and "B2" not in first.alt and "F3" not in first.alt
    # no banner drawn in P1's colour on any banner spot
    for spot in ("F1", "F2", "F3", "B1", "B2", "B3"):
        assert not close(disc_pixel(img, 0, spot), player_colour(0).fill)


def test_own_setup_view_shows_only_own_planned_banners():
    g = DieMen.new(2, {"mode": "physical"})
    g.apply(1, "banners F1 F3 B2 B3")
    own = render(g.view(1))
    check_picture(own)
    assert "Your planned banners: F1 F3 B2 B3" in own.alt
    assert own.png != render(g.view(None)).png
    # P1 has not chosen: P1's own view has no plan and looks like the public one
    assert render(g.view(0)).png == render(g.view(None)).png
    img = decode(own)
    planned = [disc_pixel(img, 1, s) for s in ("F1", "F3", "B2", "B3")]
    open_spots = [disc_pixel(img, 1, s) for s in ("F2", "B1")]
    assert len(set(planned)) == 1 and planned[0] not in open_spots
    # nothing of P1's side is drawn as a banner
    assert all(not close(disc_pixel(img, 0, s), player_colour(0).fill)
               for s in ("F1", "F2", "F3", "B1", "B2", "B3"))


def test_first_player_vote_after_the_reveal():
    g = DieMen.new(2, {"mode": "simulated"})
    run(g, "1 banners F1 F2 B1 B3", "2 banners F1 F2 B2 B3")
    p = render(g.view(None))
    img = check_picture(p)
    assert "Stand Cry" in p.alt and "banners standing F1 F2 B1 B3" in p.alt
    assert close(disc_pixel(img, 0, "F1"), player_colour(0).fill)
    assert close(disc_pixel(img, 1, "B2"), player_colour(1).fill)
    assert not close(disc_pixel(img, 1, "B1"), player_colour(1).fill)


# --- mid-game -----------------------------------------------------------------------------------

def test_simulated_midgame_floor_and_last_flicks():
    g = simulated_midgame()
    v = g.view(None)
    p = render(v)
    img = check_picture(p)
    alt = p.alt
    assert "(simulated)" in alt and "Player 2 to play" in alt and "Reposition" in alt
    assert "Player 1 Property Damage 19 of 20" in alt and "Player 2 Property Damage 6 of 20" in alt
    assert "Stand S2 with 2 Super Sale Banners up" in alt and "customers C1 C3" in alt
    assert "Called Shot at Player 1's B1: rolled 6, clean hit" in alt and "+12 to Player 1" in alt
    assert "at Player 1's F2: rolled 3, miss on the floor" in alt
    # standing banners in the owner's colour, the knocked one not
    assert close(disc_pixel(img, 1, "F1"), player_colour(1).fill)
    assert close(disc_pixel(img, 0, "B3"), player_colour(0).fill)
    assert not close(disc_pixel(img, 0, "B1"), player_colour(0).fill)
    # customers stand on P1's C1 and C3 (ivory), not on C2
    cx, cy = spot_centre(0, "C1")
    assert sum(img.getpixel((round(cx) + 9, round(cy)))) > 600
    cx, cy = spot_centre(0, "C2")
    assert sum(img.getpixel((round(cx) + 9, round(cy)))) < 300


def test_physical_flicks_off_the_floor_and_a_report_under_review():
    g = physical_midgame()
    p = render(g.view(None))
    check_picture(p)
    assert "(physical)" in p.alt
    assert "Called Shot at Player 1's B2: rolled 5, off the floor" in p.alt
    assert "fell Player 1's C2, Player 1's F2" in p.alt and "Stand S1" in p.alt
    run(g, "2 done", "1 flick 1", "1 called F1", "1 result 3 hit=F1,B2")
    v = g.view(None)
    assert v["phase"] == "review"
    p = render(v)
    check_picture(p)
    assert "Player 2 to accept or dispute" in p.alt
    assert "Report under review: rolled 3, fell Player 2's F1, Player 2's B2" in p.alt
    assert "Called Shot at Player 2's F1" in p.alt


def test_simulated_aim_prompt_and_self_knock():
    g = started("simulated")
    run(g, "1 flick 1", "1 aim middle", "c roll miss 3", "1 supersale F1", "1 done",
        "2 flick 0", "2 done", "1 flick 2")
    v = g.view(None)
    assert v["odds"] is not None
    p = render(v)
    check_picture(p)
    assert "flick 1 of 2" in p.alt
    run(g, "1 aim middle", "c roll miss 2 yes", "1 aim F3", "c roll neighbour 4", "c roll F2")
    p = render(g.view(None))
    check_picture(p)
    assert "knocked off own Stand Player 1's S2" in p.alt and "+6 to Player 1" in p.alt
    assert "Stand S2 with 1 Super Sale Banner knocked off" in p.alt
    assert "neighbour only; fell Player 2's F2" in p.alt


def test_game_over():
    g = physical_midgame()
    run(g, "2 done", "1 flick 2", "1 result 6 hit=F1,F2", "2 accept")
    v = g.view(None)
    assert v["phase"] == "over"
    p = render(v)
    check_picture(p)
    assert "game over: Player 1 wins" in p.alt
    assert "Player 2 Property Damage 22 of 20" in p.alt
    assert "reached 22 Property Damage" in p.alt


def test_same_view_same_bytes_and_the_view_is_not_changed():
    g = simulated_midgame()
    v = g.view(None)
    before = repr(v)
    a, b = render(v), render(v)
    assert a.png == b.png and a.alt == b.alt
    assert repr(v) == before
    assert alt_text(v) == a.alt


@pytest.mark.parametrize("mode,seed", [("simulated", 3), ("physical", 8)])
def test_any_state_of_a_random_game_renders(mode, seed):
    record, final = selfplay("diemen", seed, {"mode": mode})
    g = start(record)
    for i, entry in enumerate(record.entries):
        g.apply(entry_actor(entry, 2), entry["move"])
        if i % 9 == 0:
            for seat in (None, 0, 1):
                check_picture(render(g.view(seat)))
    assert g.result is not None
    check_picture(render(g.view(None)))


# --- the odds chart -----------------------------------------------------------------------------

def test_render_odds_bar_chart():
    g = started("simulated")
    run(g, "1 flick 1")
    odds = g.view(None)["odds"]["called"]["P2:F2"]
    p = render_odds(odds, "P2:F2", seat=0)
    img = decode(p)
    assert p.filename == "diemen-odds.png" and len(p.png) < MAX_PNG_BYTES
    assert 300 <= img.width <= 800 and 150 <= img.height <= 500
    assert "Called Shot at P2's F2" in p.alt and "75 floor units" in p.alt
    assert "knocks the target alone 33%" in p.alt and "lands, knocks nothing 43%" in p.alt
    assert render_odds(odds, "P2:F2", seat=0).png == p.png
    middle = render_odds(g.view(None)["odds"]["aim"]["middle"], "middle")
    assert "Flick at the middle" in middle.alt and "lands, knocks nothing 100%" in middle.alt


# --- legible at Discord's 550 px (issue #13) ----------------------------------------------------

NAMES = ["Ada Lovelace-Byron the Third", "Bartholomew 🎲🎲 Überflick"]


def crowded() -> DieMen:
    """Both Stands with Super Sale Banners, customers on both sides, a Called Shot prompt with
    the chances on every spot, long names with emoji."""
    g = DieMen.new(2, {"mode": "simulated"}, names=NAMES)
    run(g, "1 banners F1 F2 B1 B3", "2 banners F1 F2 B2 B3", "c roll 1",
        "1 flick 1 aim=middle", "c roll miss 2", "1 supersale F1", "1 done",
        "2 flick 1 aim=middle", "c roll miss 3", "2 supersale B3", "2 done",
        "1 flick 0", "1 done", "1 customer C2",
        "2 flick 2", "2 aim F2", "c roll miss 3 yes")
    return g


@pytest.mark.parametrize("make", [simulated_midgame, physical_midgame, crowded])
def test_every_text_shows_at_least_11_px_at_550(make):
    from rendering.fonts import displayed_px, recorded_sizes
    g = make()
    for seat in (None, 0, 1):
        with recorded_sizes() as sizes:
            p = render(g.view(seat))
        img = decode(p)
        assert img.width <= WIDTH == 550
        assert sizes and min(displayed_px(sz, img.width) for sz in sizes) >= 11, sorted(sizes)
        assert len(p.png) < 1_000_000


def test_names_are_drawn_clipped_and_drawable():
    g = crowded()
    p = render(g.view(None))
    # the alt text keeps the names whole; the picture draws a '?' for what the font lacks
    assert "Ada Lovelace-Byron the Third" in p.alt
    assert "Chance that a flick aimed there knocks the banner: " in p.alt
    assert "Bartholomew 🎲🎲 Überflick to play" in p.alt and "?" not in p.alt
    from rendering.diemen import drawable
    assert "🎲" not in drawable(NAMES[1]) and "Bartholomew" in drawable(NAMES[1])
    assert "Ü" in drawable(NAMES[1])


def test_public_and_seat_pictures_for_the_render_tool():
    from rendering.diemen import public_picture, seat_picture
    g = crowded()
    pub = public_picture(g.view(None))
    assert pub.png == render(g.view(None)).png
    assert seat_picture(g.view(1)) is None   # nothing private once the banners are revealed
    setup = DieMen.new(2, {"mode": "physical"})
    setup.apply(0, "banners F1 F3 B2 B3")
    own = seat_picture(setup.view(0))
    assert own is not None and "Your planned banners: F1 F3 B2 B3" in own.alt


def test_odds_chart_is_legible_at_550():
    from rendering.fonts import displayed_px, recorded_sizes
    g = crowded()
    odds = g.view(None)["odds"]["aim"]["P1:F2"]
    with recorded_sizes() as sizes:
        p = render_odds(odds, "P1:F2", seat=1, names=NAMES)
    img = decode(p)
    assert min(displayed_px(sz, img.width) for sz in sizes) >= 11
    assert "Ada Lovelace-By" in p.alt and "floor units from your Stand" in p.alt
