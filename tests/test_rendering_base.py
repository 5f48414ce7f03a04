"""The shared rendering base: what a player sees is what the numbers say.

Pictures are checked the way a person would read them, on the decoded PNG: count the pips, find
the ink of a numeral, look for the ring. Rendering time is measured by `bench/render_base.py`,
never asserted here (it depends on the machine).
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image

from rendering import (BACKGROUND, DIE_COLOURS, HIGHLIGHT, MAX_ALT_CHARS, MAX_PNG_BYTES, PANEL,
                       PIP_LAYOUT, PLAIN_DIE, PLAYER_COLOURS, Picture, draw_arrow, draw_die,
                       draw_wrapped, face_box, fit_text, font, new_canvas, readable_on,
                       render_async, render_dice_row, ring_margin, title_bar, title_bar_height,
                       to_png, wrap_text)
from rendering.canvas import MARGIN
from rendering.colours import contrast
from rendering.fonts import FONT_DIR
from rendering.roll import DIE_GAP, DIE_SIDE, MIN_WIDTH, row_layout

ROOT = Path(__file__).resolve().parents[1]


# --- helpers: read a picture like a person ------------------------------------------------------

def decode(picture: Picture) -> Image.Image:
    img = Image.open(io.BytesIO(picture.png))
    assert img.format == "PNG"
    return img.convert("RGB")


def is_dark(rgb) -> bool:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b < 100


def blobs(img: Image.Image, box, inset: int) -> list[set[tuple[int, int]]]:
    """Connected groups of dark pixels inside `box` shrunk by `inset` (skips the outline)."""
    x0, y0, x1, y1 = box
    px = img.load()
    dark = {(x, y) for x in range(x0 + inset, x1 - inset) for y in range(y0 + inset, y1 - inset)
            if is_dark(px[x, y])}
    groups = []
    while dark:
        stack = [dark.pop()]
        group = set(stack)
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in dark:
                    dark.remove(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def one_die(value, **kwargs) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A single die drawn on a canvas with room for its ring, and where it was drawn."""
    img, draw = new_canvas(120, 120)
    box = (28, 28, 92, 92)
    draw_die(draw, box, value, **kwargs)
    return img, box


def dice_boxes(count: int) -> list[tuple[int, int, int, int]]:
    top = title_bar_height()
    return [(x0, top + y0, x1, top + y1) for x0, y0, x1, y1 in row_layout(count)]


# --- the demo renderer --------------------------------------------------------------------------

def test_png_opens_with_the_expected_size():
    img = decode(render_dice_row([1, 2, 3, 4, 5, 6, 1, 2, 3, 4], 6, "Roll"))
    n = 10
    assert img.width == 2 * (MARGIN + ring_margin(DIE_SIDE)) + n * DIE_SIDE + (n - 1) * DIE_GAP
    assert img.height > title_bar_height() + DIE_SIDE


def test_more_than_a_row_of_dice_wraps_and_one_die_keeps_a_minimum_width():
    one_row = decode(render_dice_row([3] * 10))
    two_rows = decode(render_dice_row([3] * 11))
    assert two_rows.width == one_row.width
    assert two_rows.height == one_row.height + DIE_SIDE + DIE_GAP
    assert decode(render_dice_row([3])).width == MIN_WIDTH


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_pips_count_right_in_the_png(value):
    img = decode(render_dice_row([1, 2, 3, 4, 5, 6], 6, "Pips"))
    box = dice_boxes(6)[value - 1]
    assert len(blobs(img, box, inset=4)) == value
    left, top, side = face_box(box)
    for fx, fy in PIP_LAYOUT[value]:
        assert is_dark(img.getpixel((round(left + fx * side), round(top + fy * side))))


def test_pip_layout_table_is_a_die():
    assert {v: len(c) for v, c in PIP_LAYOUT.items()} == {v: v for v in range(1, 7)}
    for centres in PIP_LAYOUT.values():  # symmetric under a half turn, like a real die
        assert sorted(centres) == sorted((round(1 - x, 2), round(1 - y, 2)) for x, y in centres)


def test_d10_zero_renders_as_a_numeral_with_a_hole():
    img = decode(render_dice_row([0], 10, "d10"))
    box = dice_boxes(1)[0]
    left, top, side = face_box(box)
    ink = blobs(img, box, inset=4)
    numeral = max(ink, key=len)
    cx, cy = left + side // 2, top + round(side * 0.56)  # the numeral sits below the "d10" tag
    assert (cx, cy) not in numeral, "a 0 is a ring: its middle is the die's colour"
    row = [x for x, y in numeral if y == cy]
    assert min(row) < cx < max(row), "ink on both sides of the middle"


def test_d20_seventeen_renders_two_digits():
    seventeen = decode(render_dice_row([17], 20, "d20"))
    one = decode(render_dice_row([1], 20, "d20"))
    box = dice_boxes(1)[0]
    inset = 4
    digits17 = [g for g in blobs(seventeen, box, inset) if len(g) > 30]   # skip the small tag
    digits1 = [g for g in blobs(one, box, inset) if len(g) > 30]
    assert len(digits17) == 2 and len(digits1) == 1
    width = lambda groups: (max(x for g in groups for x, _ in g)
                            - min(x for g in groups for x, _ in g))
    assert width(digits17) > 1.5 * width(digits1)


def test_highlighted_die_has_a_ring_the_others_do_not():
    img = decode(render_dice_row([2, 5], 6, "Kept", highlight={1}))
    for i, box in enumerate(dice_boxes(2)):
        x = box[0] + DIE_SIDE // 2
        ring_y = box[1] - ring_margin(DIE_SIDE) + 1   # inside the ring's stroke, above the die
        expected = HIGHLIGHT if i == 1 else BACKGROUND
        assert img.getpixel((x, ring_y)) == expected


def test_alt_text_names_the_roll():
    pic = render_dice_row([3, 5, 6], 6, "Roll")
    assert pic.alt == "Roll: 3d6 showing 3, 5, 6 (total 14)."
    assert pic.filename == "roll.png"


@pytest.mark.parametrize("values,sides", [([7], 6), ([0], 6), ([11], 10), ([True], 6), ([], 6),
                                          ([1], 1)])
def test_impossible_rolls_are_refused(values, sides):
    with pytest.raises(ValueError):
        render_dice_row(values, sides)


def test_output_is_byte_identical_across_calls():
    args = ([17, 20, 1, 8, 11, 14, 3, 19, 12, 5], 20, "Attack")
    assert render_dice_row(*args).png == render_dice_row(*args).png


def test_output_is_byte_identical_in_a_fresh_process():
    """Nothing cached (fonts, masks) and nothing machine-local changes a pixel."""
    code = ("import hashlib; from rendering import render_dice_row; "
            "print(hashlib.sha256(render_dice_row([17, 20, 1, 8, 11], 20, 'Attack').png)"
            ".hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    here = hashlib.sha256(render_dice_row([17, 20, 1, 8, 11], 20, "Attack").png).hexdigest()
    assert out == here


@pytest.mark.parametrize("values,sides", [([6] * 10, 6), ([17, 20, 1, 8, 11, 14, 3, 19, 12, 5], 20),
                                          ([n % 100 + 1 for n in range(0, 3000, 97)], 100)])
def test_pictures_stay_under_the_size_budget(values, sides):
    assert len(render_dice_row(values, sides, "Budget").png) < MAX_PNG_BYTES


def test_a_many_coloured_picture_is_quantised_and_stays_readable():
    """More than 256 colours (every KAPLOOM! die plus soft edges) goes through the palette."""
    img, draw = new_canvas(700, 160)
    title_bar(img, "KAPLOOM!", "Round 1 · Roll")
    for i, (name, colours) in enumerate(DIE_COLOURS.items()):
        draw_die(draw, (20 + i * 90, 80, 84 + i * 90, 144), "MEXATW_"[i], **colours.kwargs())
    assert len(img.getcolors(1 << 16)) > 256
    out = decode(to_png(img, "dice", "dice.png"))
    # Flat areas keep their colour within 2 levels (fast octree): the red die's body.
    got = out.getpixel((28, 112))
    assert max(abs(a - b) for a, b in zip(got, DIE_COLOURS["red"].fill)) <= 2
    assert Image.open(io.BytesIO(to_png(img, "dice", "dice.png").png)).mode == "P"


# --- Picture and alt text -----------------------------------------------------------------------

def test_alt_text_is_truncated_at_the_discord_limit():
    pic = Picture(b"png", "word " * 400, "board.png")
    assert len(pic.alt) == MAX_ALT_CHARS == 1024
    assert pic.alt.endswith("\u2026")
    exact = "x" * MAX_ALT_CHARS
    assert Picture(b"png", exact, "board.png").alt == exact


def test_to_png_clips_alt_too():
    img, _ = new_canvas(10, 10)
    assert len(to_png(img, "y" * 5000, "a.png").alt) == MAX_ALT_CHARS


@pytest.mark.parametrize("alt,filename", [("", "a.png"), ("   ", "a.png"), ("ok", "a b.png"),
                                          ("ok", "../a.png"), ("ok", "board.jpg")])
def test_picture_refuses_missing_alt_and_unsafe_names(alt, filename):
    with pytest.raises(ValueError):
        Picture(b"png", alt, filename)


def test_picture_repr_does_not_dump_the_bytes():
    assert "png=" not in repr(Picture(b"\x89PNG" * 1000, "alt", "a.png"))


# --- off the event loop -------------------------------------------------------------------------

async def test_render_async_runs_in_a_worker_thread():
    loop_thread = threading.get_ident()
    seen = {}

    def renderer(values, sides, *, title):
        seen["thread"] = threading.get_ident()
        return render_dice_row(values, sides, title)

    pic = await render_async(renderer, [4, 2], 6, title="Async")
    assert seen["thread"] != loop_thread
    assert pic.png == render_dice_row([4, 2], 6, "Async").png
    # Several at once, as when two games move in the same second.
    pics = await asyncio.gather(*(render_async(render_dice_row, [v], 6, "x") for v in range(1, 7)))
    assert len({p.png for p in pics}) == 6


async def test_render_async_refuses_a_renderer_that_returns_no_picture():
    with pytest.raises(TypeError):
        await render_async(lambda: b"not a picture")


# --- die variants -------------------------------------------------------------------------------

def test_named_faces_draw_their_letter_and_blank_draws_nothing():
    colours = DIE_COLOURS["white"].kwargs()
    lettered, box = one_die("M", **colours)
    blank, _ = one_die("_", **colours)
    assert len(blobs(lettered, box, 5)) == 1
    assert blobs(blank, box, 5) == []
    assert lettered.getpixel((60, 40)) == blank.getpixel((60, 40)) == PLAIN_DIE.fill


def test_empty_slot_is_an_outline_only():
    img, box = one_die(None)
    assert img.getpixel((60, 60)) == BACKGROUND
    assert img.getpixel((60, box[1])) != BACKGROUND


def test_greyed_die_has_less_contrast():
    normal, _ = one_die(1)
    greyed, _ = one_die(1, greyed=True)
    pip, body = (60, 60), (40, 60)
    assert (contrast(greyed.getpixel(pip), greyed.getpixel(body))
            < contrast(normal.getpixel(pip), normal.getpixel(body)) / 2)


def test_size_tag_is_drawn_on_the_face():
    tagged, box = one_die(5, sides=8, label="d8")
    plain, _ = one_die(5, sides=8)
    top_strip = (box[0] + 20, box[1] + 4, box[2] - 20, box[1] + 14)
    assert tagged.crop(top_strip).getcolors(4096) != plain.crop(top_strip).getcolors(4096)


def test_a_d6_above_six_is_a_numeral_not_pips():
    seven, box = one_die(7)
    (ink,) = blobs(seven, box, 4)
    (pip,) = blobs(one_die(1)[0], box, 4)
    height = lambda g: max(y for _, y in g) - min(y for _, y in g)
    width = lambda g: max(x for x, _ in g) - min(x for x, _ in g)
    assert height(ink) > width(ink) and abs(height(pip) - width(pip)) <= 1  # a digit, not a dot


def test_tiny_or_bool_dice_are_refused():
    img, draw = new_canvas(40, 40)
    with pytest.raises(ValueError):
        draw_die(draw, (0, 0, 8, 8), 3)
    with pytest.raises(TypeError):
        draw_die(draw, (0, 0, 30, 30), True)


# --- fonts, colours, text, title bar, arrows ------------------------------------------------------

def test_fonts_are_the_shipped_files_and_cached():
    assert font(18) is font(18)
    assert Path(font(18).path).parent == FONT_DIR
    assert {Path(f.path).name for f in (font(18), font(18, bold=True), font(18, mono=True))} == {
        "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"}
    assert (FONT_DIR / "LICENSE-DejaVu.txt").exists()


def test_player_colours_are_distinct_and_their_text_reads():
    assert len(PLAYER_COLOURS) >= 6
    assert len({p.fill for p in PLAYER_COLOURS}) == len(PLAYER_COLOURS)
    for p in PLAYER_COLOURS:
        assert p.text == readable_on(p.fill)
        assert contrast(p.fill, p.text) >= 4.5, p.name
    assert set(DIE_COLOURS) >= {"red", "yellow", "blue", "purple", "green", "white", "gray"}


def test_wrapped_text_fits_its_width():
    f = font(14)
    text = "Villain attacks 3 against 2: hero loses 1 health. " * 4 + "x" * 80
    lines = wrap_text(text, f, 200)
    assert len(lines) > 4
    assert all(f.getlength(line) <= 200 for line in lines)
    assert "".join(wrap_text("x" * 80, f, 200)) == "x" * 80
    assert wrap_text("a\n\nb", f, 200) == ["a", "", "b"]
    assert fit_text("short", f, 200) == "short"
    cut = fit_text("a rather long player name " * 5, f, 120)
    assert cut.endswith("\u2026") and f.getlength(cut) <= 120


def test_draw_wrapped_stops_at_max_lines():
    img, draw = new_canvas(300, 200)
    one_line = draw_wrapped(draw, (10, 10), "hi", font=font(14), fill=(255, 255, 255),
                            max_width=100)
    capped = draw_wrapped(draw, (10, 10), "word " * 100, font=font(14), fill=(255, 255, 255),
                          max_width=100, max_lines=3)
    assert capped - 10 == 3 * (one_line - 10)


def test_title_bar_returns_where_content_starts():
    for subtitle in (None, "Round 2 · Attack"):
        img, _ = new_canvas(300, 120)
        y = title_bar(img, "Slide and Slam " * 5, subtitle)
        assert y == title_bar_height(subtitle)
        assert img.getpixel((img.width - 3, 3)) == PANEL
        assert img.getpixel((5, y - 1)) == HIGHLIGHT
        assert img.getpixel((5, y + 2)) == BACKGROUND


def test_arrow_reaches_its_tip():
    img, draw = new_canvas(200, 100)
    draw_arrow(draw, (10, 50), (190, 50), HIGHLIGHT, 4)
    assert img.getpixel((100, 50)) == HIGHLIGHT        # the shaft
    assert img.getpixel((186, 50)) == HIGHLIGHT        # the head, near the tip
    assert img.getpixel((100, 60)) == BACKGROUND       # nothing beside the shaft
    with pytest.raises(ValueError):
        draw_arrow(draw, (5, 5), (5, 5), HIGHLIGHT)
