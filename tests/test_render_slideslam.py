"""Slide and Slam pictures, read back the way a player reads them.

Views come from the real engine (placement, the first-player draw, slides, slams, the response
window, a recorded Super Slam game to the end). The decoded PNG is checked where it matters:
pips count the health, the wall hides what it should (byte-identical pictures whatever was
placed behind it), slam areas are tinted, the slide is marked. Timing is measured by
`bench/render_slideslam.py`, never asserted here.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from bot.engine import records
from bot.engine.core import CHANCE
from bot.engine.records import Record
from bot.engine.slideslam import GAME
from rendering import HIGHLIGHT, MAX_PNG_BYTES, Picture
from rendering.slideslam import SLAM, WALL, board_layout, headline, render, render_preview

RECORDS = Path(__file__).resolve().parent / "records" / "slideslam"
P1 = "a1=6 b2=5 c3=4 d2=3 e1=2 f4=1"
P2 = "a8=6 b7=5 c6=4 d5=3 e7=2 f8=1"


# --- helpers ------------------------------------------------------------------------------------

def decode(picture: Picture) -> Image.Image:
    img = Image.open(io.BytesIO(picture.png))
    assert img.format == "PNG"
    return img.convert("RGB")


def check(picture: Picture) -> Image.Image:
    """Every picture: a PNG within budget, a sensible size for a phone, alt text."""
    assert isinstance(picture, Picture)
    assert len(picture.png) < MAX_PNG_BYTES
    assert picture.filename.startswith("slideslam-") and picture.filename.endswith(".png")
    assert picture.alt.startswith("Slide and Slam")
    img = decode(picture)
    assert 500 <= img.width <= 800 and 400 <= img.height <= 1300
    return img


def walled(p1: str = P1, p2: str = P2, **options) -> GAME:
    """Both players placed and confirmed: the wall is down, the draw is due."""
    g = GAME.new(2, options or None)
    g.apply(0, "place " + p1)
    g.apply(1, "place " + p2)
    g.apply(0, "confirm")
    g.apply(1, "confirm")
    return g


def pips(img: Image.Image, box, owner: int) -> int:
    """Pips on a die face: groups of dark pixels on a white die, light ones on a black die,
    looking inside the face only (an inset skips the rounded corners and the outline)."""
    x0, y0, x1, y1 = box
    inset = round((x1 - x0) * 0.12)
    px = img.load()

    def is_pip(rgb) -> bool:
        return max(rgb) < 90 if owner == 0 else min(rgb) > 180
    todo = {(x, y) for x in range(x0 + inset, x1 - inset) for y in range(y0 + inset, y1 - inset)
            if is_pip(px[x, y])}
    count = 0
    while todo:
        stack = [todo.pop()]
        size = 1
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in todo:
                    todo.remove(n)
                    stack.append(n)
                    size += 1
        count += size >= 6          # a stray anti-aliased pixel is not a pip
    return count


def near(a, b, tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def reddish(rgb) -> bool:
    r, g, b = rgb
    return r > g + 30 and r > b + 30


def centre_pixel(img: Image.Image, view: dict, square: str):
    x0, y0, x1, y1 = board_layout(view).box(square)
    return img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))


def sweep_views() -> list[dict]:
    """The recorded Super Slam game, its public view after every move."""
    rec = Record.from_json(json.loads((RECORDS / "super_slam_sweep.json").read_text()))
    g = records.start(rec)
    views = []
    for entry in rec.entries:
        g.apply(records.entry_actor(entry, 2), entry["move"])
        views.append(g.view(None))
    return views


# --- the Wall of Unknowing ----------------------------------------------------------------------

def test_public_placement_shows_nothing_placed():
    """Whatever stands behind the wall, the public picture is the same bytes; only who is ready
    shows."""
    fresh = GAME.new(2)
    a = GAME.new(2)
    a.apply(0, "place a1=6 b2=5")
    a.apply(1, "place f8=1 e5=3 a6=6")
    b = GAME.new(2)
    b.apply(0, "place f4=6 c1=1 d3=4")
    pics = [render(g.view(None)) for g in (fresh, a, b)]
    assert pics[0].png == pics[1].png == pics[2].png
    img = check(pics[0])
    assert "Wall of Unknowing" in pics[0].alt and "Player 1 placing" in pics[0].alt
    for secret in ("a1", "b2", "f8", "e5", "a6", "f4", "c1", "d3"):
        assert secret not in pics[0].alt
    # the wall is drawn across the middle of the board
    lay = board_layout(fresh.view(None))
    mid = lay.y + 4 * lay.cell
    assert near(img.getpixel((lay.x - 3, mid - 7)), WALL)

    # confirming is public: the picture changes, and again not with what was placed
    for g, p1 in ((a, "c3=4 d2=3 e1=2 f4=1"), (b, "a1=5 b1=3 e1=2")):
        g.apply(0, "place " + p1)
        g.apply(0, "confirm")
    ready = [render(g.view(None)) for g in (a, b)]
    assert ready[0].png == ready[1].png != pics[0].png
    assert "Player 1 ready" in ready[0].alt and "Player 2 placing" in ready[0].alt


def test_private_preview_is_own_half_and_own_dice_only():
    mine = "a1=6 b2=5 c3=4"
    g = GAME.new(2)
    g.apply(0, "place " + mine)
    h = GAME.new(2)
    h.apply(0, "place " + mine)
    h.apply(1, "place " + P2)
    view = g.view(0)
    pic = render(view)
    # the other side's placement, and even their confirm, change nothing in player 1's preview:
    # a private picture shows only its owner's facts (issue #12), so it is never redrawn for them
    assert render(h.view(0)).png == pic.png
    h.apply(1, "confirm")
    assert render(h.view(0)).png == pic.png
    assert render_preview(view).png == pic.png
    img = check(pic)
    assert pic.filename == "slideslam-placement-p1.png"

    lay = board_layout(view)
    assert lay.shows("a1") and lay.shows("f4") and not lay.shows("a5") and not lay.shows("f8")
    full = decode(render(walled().view(None)))
    assert img.height < full.height
    for sq, value in (("a1", 6), ("b2", 5), ("c3", 4)):
        assert pips(img, lay.die_box(sq, False), 0) == value
    assert pips(img, lay.die_box("d2", False), 0) == 0
    assert "Your half, rows 1–4: A 6 at a1, B 5 at b2, C 4 at c3" in pic.alt
    assert "Still to place: 3, 2, 1" in pic.alt
    assert "Nobody sees your dice until both players have confirmed" in pic.alt
    assert "only you see this" in headline(view)[1]
    # player 1's wall stands above their half
    column = [y for y in range(img.height) if near(img.getpixel((lay.x - 3, y)), WALL)]
    assert column and max(column) < lay.y

    # player 2's preview: rows 5–8, the wall below, confirmed
    p2 = render(h.view(1))
    img2 = check(p2)
    lay2 = board_layout(h.view(1))
    assert lay2.shows("a8") and not lay2.shows("a4")
    for sq, value in (("a8", 6), ("b7", 5), ("c6", 4), ("d5", 3), ("e7", 2), ("f8", 1)):
        assert pips(img2, lay2.die_box(sq, False), 1) == value
    column = [y for y in range(img2.height) if near(img2.getpixel((lay2.x - 3, y)), WALL)]
    assert column and min(column) > lay2.y + lay2.height
    assert "All six placed. Confirmed." in p2.alt and "placing" not in p2.alt
    assert "a1" not in p2.alt


# --- play ---------------------------------------------------------------------------------------

def test_wall_down_every_die_shows_its_health_in_pips():
    g = walled()
    view = g.view(None)
    pic = render(view)
    img = check(pic)
    assert "who goes first" in pic.alt and "crowd votes" in pic.alt
    lay = board_layout(view)
    for d in view["dice"]:
        assert pips(img, lay.die_box(d["square"], False), d["owner"]) == d["health"], d
    # a seat's view once the wall is down is the same board (their own plate says "you")
    assert render(g.view(0)).png != pic.png
    assert "Player 1 (white): A 6 at a1" in pic.alt and "Player 2 (black): U 6 at a8" in pic.alt


def test_slide_then_response_window_then_bend():
    g = walled()
    g.apply(CHANCE, "roll 1")
    before = g.view(None)
    g.apply(0, "slide c3 c5")
    slid = g.view(None)
    pic = render(slid)
    img = check(pic)
    assert "Turn 1 · Player 1 to slam or end" in pic.alt
    assert "Last slide: Player 1's C c3 → c5 (2 steps)" in pic.alt
    assert "no Super Slam" in pic.alt
    # the path: a dot where the die started, the arrow through c4
    assert near(centre_pixel(img, slid, "c3"), HIGHLIGHT, 40)
    assert near(centre_pixel(img, slid, "c4"), HIGHLIGHT, 40)
    assert not near(centre_pixel(decode(render(before)), before, "c4"), HIGHLIGHT, 40)
    lay = board_layout(slid)
    assert pips(img, lay.die_box("c5", False), 0) == 4

    g.apply(0, "slam c5")
    view = g.view(None)
    assert view["phase"] == "response"
    pic = render(view)
    img = check(pic)
    assert "Player 2 to answer the slam" in pic.alt
    assert "Slam by C at c5 would hit W at c6 4→3, X at d5 3→2" in pic.alt
    assert "DICE IS NOT BEND!" in pic.alt and "60 s" in pic.alt
    # the area about to be hit is tinted; outside it the squares stay plain
    for sq in ("b5", "c4"):
        assert reddish(centre_pixel(img, view, sq)), sq
    assert not reddish(centre_pixel(img, view, "e5"))
    # each player's view of the window shows the same board
    assert check(render(g.view(1))).size == img.size

    g.apply(1, "bend c6")
    view = g.view(None)
    pic = render(view)
    img = check(pic)
    assert "Turn 2 · Player 2 to slide" in pic.alt
    assert "Last slam: C at c5, 1 damage: W at c6 bent (no damage); X at d5 3→2" in pic.alt
    assert "Player 2 (black): " in pic.alt and "Power Token spent" in pic.alt
    lay = board_layout(view)
    assert reddish(centre_pixel(img, view, "b5"))
    assert pips(img, lay.die_box("a8", False), 1) == 6


def test_super_slam_cross_destroyed_dice_awakening_and_game_over():
    views = sweep_views()
    # move 10 ("bend f1"): U's Super Slam from f5 swept column f and row 5
    view = views[9]
    pic = render(view)
    img = check(pic)
    assert "Last super slam: U at f5, 2 damage" in pic.alt
    assert "D at f4 destroyed" in pic.alt and "A at f1 bent (no damage)" in pic.alt
    assert "lost D, C, B, E" in pic.alt
    cross = [f"f{r}" for r in range(1, 9) if r != 5] + [f"{c}5" for c in "abcde"]
    for sq in cross:
        if sq != "f1":                        # f1 holds the bent die
            assert reddish(centre_pixel(img, view, sq)), sq
    for sq in ("a3", "c2", "d7", "e6"):
        assert not reddish(centre_pixel(img, view, sq)), sq

    # move 17: player 1 has awakened A and slid it two squares; the die is bigger
    view = views[16]
    assert any(d["awakened"] for d in view["dice"])
    pic = render(view)
    img = check(pic)
    assert "awakened A 1 at f3" in pic.alt and "awakening used" in pic.alt
    lay = board_layout(view)
    big, small = lay.die_box("f3", True), lay.die_box("f3", False)
    assert big[2] - big[0] > 1.2 * (small[2] - small[0])
    # just inside the big face, outside where a small die would end: die body (ivory)
    x, y = big[0] + 5, (big[1] + big[3]) // 2
    assert x < small[0] and min(img.getpixel((x, y))) > 200

    # the end
    view = views[-1]
    pic = render(view)
    check(pic)
    assert "Game over · player 2 wins" in pic.alt  # the record names its players so
    assert "Player 1 has no dice left" in pic.alt
    assert "player 1 (white): no dice" in pic.alt


def test_old_highlights_fade():
    """A slam from two turns ago is not highlighted (the footer and alt drop it too)."""
    g = walled()
    g.apply(CHANCE, "roll 1")
    g.apply(0, "slide c3 c5")
    g.apply(0, "slam c5")
    g.apply(1, "pass")
    g.apply(1, "slide a8 a7")
    g.apply(1, "end")
    view = g.view(None)                     # turn 3: the slam was turn 1
    assert view["last_slam"]["turn"] == 1
    pic = render(view)
    img = check(pic)
    assert "Last slam" not in pic.alt and "Last slide: Player 2's U a8 → a7" in pic.alt
    assert not reddish(centre_pixel(img, view, "b5"))


def _has_badge(img: Image.Image, view: dict, square: str) -> bool:
    """A damage badge (a pill in the slam colour) in the square's top right corner."""
    x0, y0, x1, y1 = board_layout(view).box(square)
    return any(near(img.getpixel((x, y)), SLAM, 12)
               for x in range(x1 - 24, x1 - 2) for y in range(y0 + 4, y0 + 20))


def test_damage_badges_stay_with_the_die():
    g = walled()
    g.apply(CHANCE, "roll 1")
    g.apply(0, "slide c3 c5")
    g.apply(0, "slam c5")
    g.apply(1, "pass")                      # W c6 4→3, X d5 3→2
    view = g.view(None)
    img = check(render(view))
    assert _has_badge(img, view, "c6") and _has_badge(img, view, "d5")
    assert not _has_badge(img, view, "e5")
    g.apply(1, "slide d5 e5")               # X moves on; the slam is still the latest news
    view = g.view(None)
    img = check(render(view))
    assert _has_badge(img, view, "c6") and not _has_badge(img, view, "d5")
    assert reddish(centre_pixel(img, view, "d5"))     # the area stays tinted


@pytest.mark.parametrize("options", [{"columns": 9, "rows": 10, "stun": True},
                                     {"columns": 5, "rows": 6, "stalemate_turns": 10}])
def test_other_board_sizes(options):
    cols, rows = options["columns"], options["rows"]
    rec, _ = records.selfplay("slideslam", 3, options)
    g = records.start(rec)
    for entry in rec.entries[: len(rec.entries) // 2]:
        g.apply(records.entry_actor(entry, 2), entry["move"])
    view = g.view(None)
    img = check(render(view))
    lay = board_layout(view)
    corner = "abcdefghi"[cols - 1] + str(rows)
    x0, y0, x1, y1 = lay.box(corner)
    assert lay.box("a1")[0] > 0 and x1 < img.width and y0 > 0
    assert f"{cols}×{rows}" in render(view).alt
    for d in view["dice"]:
        if not d["awakened"] and not _badged(view, d["square"]):
            assert pips(img, lay.die_box(d["square"], False), d["owner"]) == d["health"], d


def _badged(view: dict, square: str) -> bool:
    """A die with a badge on its corner (hit, bent, would be hit): its pips are not counted."""
    marked = set()
    if view["last_slam"]:
        marked |= {h["square"] for h in view["last_slam"]["hits"]}
    if view["pending"]:
        marked |= {t["square"] for t in view["pending"]["targets"]}
    return square in marked


def test_random_games_render_every_kind_of_view():
    """Self-play with assorted options: the first view of each phase and the last, public and
    for both seats, render within budget and give the same bytes twice."""
    for seed, options in ((11, {}), (12, {"stun": True, "starting_values": "2,2,1,1,3,5"})):
        rec, _ = records.selfplay("slideslam", seed, options)
        g = GAME.new(2, rec.options)
        seen = set()
        for i, entry in enumerate(rec.entries):
            g.apply(records.entry_actor(entry, 2), entry["move"])
            last = i == len(rec.entries) - 1
            if g.phase in seen and not last:
                continue
            seen.add(g.phase)
            for seat in (None, 0, 1):
                view = g.view(seat)
                a, b = render(view), render(view)
                check(a)
                assert a.png == b.png and a.alt == b.alt
        assert g.result is not None
        assert {"placement", "slide", "slam", "over"} <= seen


def test_deterministic_and_preview_falls_back_to_the_board():
    g = walled()
    g.apply(CHANCE, "roll 2")
    view = g.view(None)
    assert render(view).png == render(view).png
    assert render_preview(view).png == render(view).png
    # a view is plain data: rendering does not change it
    before = json.dumps(view, sort_keys=True)
    render(view)
    assert json.dumps(view, sort_keys=True) == before


# --- legible at 550 px, names, and the offline render tool (issues #12, #13) -----------------------

def played(options: dict, steps: int, names=("Ada Lovelace", "Bartholomew"), seed: int = 3):
    """A position after random placement and `steps` random moves (slams preferred)."""
    import random
    g = GAME.new(2, options, names=list(names))
    rng = random.Random(seed)
    for seat in (0, 1):
        squares = rng.sample(g.view(seat)["placement"]["free"], 6)
        values = g.view(seat)["placement"]["unplaced"]
        g.apply(seat, "place " + " ".join(f"{s}={v}" for s, v in zip(squares, values)))
        g.apply(seat, "confirm")
    g.apply(CHANCE, "roll 1")
    for _ in range(steps):
        if g.result is not None:
            break
        seat = g.actors()[0]
        legal = g.legal(seat)
        slams = [m for m in legal if m.startswith("slam ")]
        g.apply(seat, rng.choice(slams) if slams and rng.random() < 0.7 else rng.choice(legal))
    return g


DESIGN_WIDTH = 540


@pytest.mark.parametrize("options", [{}, {"columns": 9, "rows": 10}],
                         ids=["typical 6x8", "largest 9x10"])
def test_every_text_stays_legible_at_550_px(options):
    """Issue #13: at Discord's ~550 px display width, every font the picture draws with is at
    least 11 px tall, and the picture is no wider than its design width (so nothing shrinks)."""
    from rendering.fonts import displayed_px, recorded_sizes
    g = played(options, 14)
    fresh = GAME.new(2, options, names=["Ada Lovelace", "Bartholomew"])
    fresh.apply(0, "place " + " ".join(f"{s}={v}" for s, v in zip(
        fresh.view(0)["placement"]["free"][:3], [6, 5, 4])))
    views = [g.view(None), g.view(0), g.view(1), fresh.view(None), fresh.view(0)]
    while g.result is None:            # on to a response window and the end, if they come
        seat = g.actors()[0]
        g.apply(seat, sorted(g.legal(seat))[-1])
        if g.phase == "response":
            views.append(g.view(None))
    views.append(g.view(None))
    for view in views:
        with recorded_sizes() as sizes:
            pic = render(view)
        img = check(pic)
        assert img.width <= DESIGN_WIDTH, img.width
        small = [s for s in sizes if displayed_px(s, img.width) < 11]
        assert sizes and not small, (view["phase"], sorted(set(small)))


def test_pictures_name_the_players_and_draw_odd_names_cleanly():
    g = played({}, 4, names=("Zoë 🎲🎲 the Unbreakable Champion of Dice", "李小龍"))
    view = g.view(None)
    pic = render(view)
    check(pic)
    # the alt text keeps the names as they are; the picture never says "Player 1"
    assert "Zoë 🎲🎲 the Unbreakable Champion of Dice (white)" in pic.alt
    assert "李小龍 (black)" in pic.alt and "Player 1" not in pic.alt
    from rendering.slideslam import _player, drawable
    drawn = _player(view, 0)
    assert drawn.startswith("Zoë ?") and drawn.endswith("…") and len(drawn) <= 18
    assert "🎲" not in drawn and drawable("李小龍") in ("?", "李小龍")
    assert headline(view)[0].count("?") <= 2


def test_public_and_seat_pictures_for_the_render_tool():
    from rendering.slideslam import public_picture, seat_picture
    fresh = GAME.new(2, names=["Ada", "Bo"])
    fresh.apply(0, "place a1=6 b1=5")
    mine = seat_picture(fresh.view(0))
    assert mine is not None and "Your half, rows 1–4: A 6 at a1, B 5 at b1" in mine.alt
    assert "a1" not in public_picture(fresh.view(None)).alt
    g = played({}, 3)
    assert seat_picture(g.view(0)) is None          # after the wall: the board is public
    assert public_picture(g.view(None)).png == render(g.view(None)).png
