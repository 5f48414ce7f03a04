"""#26: a finished game as an animated GIF (`python -m bot render RECORD --gif OUT.gif`).

What a viewer gets: a title frame, one frame per step that changed the public board and an end
frame; every frame decodes; each step's board is the picture `render --at N` draws for that
step (compared pixel for pixel after mapping it to the GIF's one palette); secrets show only
once revealed (two games differing only in a hidden choice give the same frames until the
reveal); a GIF too big for the upload limit drops steps between, never the title, reveals or
end."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import EXIT_REFUSED, main
from bot.engine.records import Record
from bot.render_cli import position, replay_board
from bot.replay import walk
from rendering.gif import GifPicture, board_x, replay_gif

ROOT = Path(__file__).resolve().parent.parent
RECORDS = {p.parent.name + "/" + p.stem: p for p in sorted((ROOT / "tests" / "records")
                                                           .glob("*/*.json"))}
# One short game per kind (every frame of these is compared); the long self-play game is not.
SHORT = ["slideslam/super_slam_sweep", "kaploom/rulebook_play_example",
         "tradeshowdown/rulebook_example", "deathbydice/lou_vs_vex_short_combat",
         "diemen/switch_and_mid_turn_loss"]


def load(name: str) -> Record:
    return Record.from_json(json.loads(RECORDS[name].read_text()))


def frames_of(data: bytes) -> list[Image.Image]:
    """Every frame as a viewer shows it (each drawn over the one before), in RGB."""
    out = []
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        for i in range(gif.n_frames):
            gif.seek(i)
            gif.load()
            out.append(gif.convert("RGB"))
    return out


def durations(data: bytes) -> list[int]:
    out = []
    with Image.open(io.BytesIO(data)) as gif:
        for i in range(gif.n_frames):
            gif.seek(i)
            out.append(gif.info["duration"])
    return out


def palette_of(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as gif:
        holder = Image.new("P", (1, 1))
        holder.putpalette(gif.getpalette())
        return holder


@pytest.fixture(scope="module")
def gifs() -> dict[str, GifPicture]:
    return {name: replay_gif(load(name).to_json()) for name in SHORT}


@pytest.mark.parametrize("name", SHORT)
def test_one_frame_per_public_change_plus_title_and_end(gifs, name):
    record = load(name)
    gif = gifs[name]
    steps = walk(record).steps
    # A step is a moment the public board changed: its view differs from the step before.
    views = [json.dumps(position(record, s.at)[0].view(None), sort_keys=True) for s in steps]
    assert all(a != b for a, b in zip(views, views[1:]))
    frames = frames_of(gif.png)
    assert len(frames) == len(steps) + 1 == gif.frames  # title (step 0), steps 1.., end
    assert gif.steps == len(steps) - 1 and gif.shown == tuple(range(1, len(steps)))
    assert len({f.size for f in frames}) == 1 and frames[0].width >= 550
    times = durations(gif.png)
    reveals = [i for i, s in enumerate(steps) if s.reveal and i]
    plain = [i for i, s in enumerate(steps) if i and not s.reveal]
    assert times[-1] == max(times) >= 4000              # the end stays longest
    assert all(times[r] >= 3000 for r in reveals)       # a reveal stays longer
    assert all(1000 <= times[i] <= 4000 for i in plain)
    assert gif.filename.endswith(".gif") and gif.alt.startswith("Animated replay of")


@pytest.mark.parametrize("name", SHORT)
def drawing(record: Record, at: int | None = None):
    """The board `render --at N --replay-layout` draws for the position after `at` entries, as
    the renderer's image: before the PNG's own 256 colours, which the GIF does not use (it maps
    the image to its one palette)."""
    import importlib
    module = importlib.import_module(f"rendering.{record.kind}")
    return replay_board(record, at, drawing=True) or module.public_image


@pytest.mark.parametrize("name", SHORT)
def test_every_board_is_render_at_n_in_the_gifs_palette(gifs, name, tmp_path, capsys):
    from rendering.picture import palettised
    record = load(name)
    gif = gifs[name]
    palette = palette_of(gif.png)
    frames = frames_of(gif.png)
    steps = walk(record).steps

    def compare(frame: Image.Image, at: int | None) -> None:
        board = drawing(record, at)(position(record, at)[0].view(None))
        x = board_x(frame.width, board.width)
        got = frame.crop((x, gif.board_top, x + board.width, gif.board_top + board.height))
        want = board.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
        assert got.tobytes() == want.convert("RGB").tobytes(), f"entries {at}"
        if at in through_cli:  # the file the CLI writes is that drawing, in the PNG's colours
            assert main(["render", str(RECORDS[name]), "--at", str(at), "--replay-layout",
                         "--out", str(tmp_path)]) == 0
            png = Image.open(tmp_path / f"{record.kind}-public-at{at}.png")
            assert png.convert("RGB").tobytes() == palettised(board).convert("RGB").tobytes()

    # Every step against the public picture of its position as the replay draws it (the board
    # in the replay's layout: `render --at N --replay-layout`); a few through the CLI itself.
    through_cli = {steps[1].at, steps[len(steps) // 2].at, steps[-1].at}
    for step, frame in zip(steps, frames):
        compare(frame, step.at)
    # The end frame shows the final board too, under the result.
    compare(frames[-1], None)
    capsys.readouterr()


def _variant(record: Record, changes: dict[int, str], upto: int) -> Record:
    entries = [dict(e, move=changes.get(i, e["move"])) for i, e in enumerate(record.entries)]
    return Record(record.kind, record.options, record.players, None, entries[:upto])


@pytest.mark.parametrize("name,changes,upto", [
    # Slide and Slam: player 1 places behind the wall elsewhere; the wall comes down at 4.
    ("slideslam/super_slam_sweep", {0: "place a1=1 b1=1 c1=1 d1=1 e1=1 f1=1"}, 5),
    # Death by Dice: Lou swaps his two d4 values (STR and FOR) behind the screen.
    ("deathbydice/lou_vs_vex_short_combat", {1: "setup STR=2 AGI=5 FOR=3 CON=7 LUCK=4"}, 4),
])
def test_a_hidden_choice_shows_nothing_until_the_reveal(name, changes, upto):
    record = load(name)
    one, two = _variant(record, {}, upto), _variant(record, changes, upto)
    a, b = replay_gif(one.to_json()), replay_gif(two.to_json())
    reveal = next(s.number for s in walk(one).steps if s.reveal)
    assert reveal == next(s.number for s in walk(two).steps if s.reveal)
    fa, fb = frames_of(a.png), frames_of(b.png)
    assert len(fa) == len(fb)
    for i in range(reveal):  # the title and every step before the reveal: the very same
        assert fa[i].tobytes() == fb[i].tobytes(), f"frame {i} tells the hidden choice"
    # The reveal shows it (so this test can tell frames apart at all).
    assert fa[reveal].tobytes() != fb[reveal].tobytes()


def test_too_big_drops_steps_between_but_keeps_title_reveals_and_end(gifs):
    name = "slideslam/super_slam_sweep"
    whole = gifs[name]
    limit = len(whole.png) // 2
    small = replay_gif(load(name).to_json(), max_bytes=limit)
    assert len(small.png) <= limit and 2 < small.frames < whole.frames
    steps = walk(load(name)).steps
    reveals = {s.number for s in steps if s.reveal}
    assert reveals <= set(small.shown)
    frames = frames_of(small.png)
    assert len(frames) == small.frames
    assert frames[0].tobytes() == frames_of(whole.png)[0].tobytes()  # the same title
    assert frames[-1].tobytes() == frames_of(whole.png)[-1].tobytes()  # the same end


def test_render_gif_on_the_command_line(tmp_path, capsys):
    path = RECORDS["tradeshowdown/rulebook_example"]
    out = tmp_path / "replay.gif"
    assert main(["render", str(path), "--gif", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    frames = frames_of(out.read_bytes())
    assert len(frames) == len(walk(load("tradeshowdown/rulebook_example")).steps) + 1
    # --at N: the replay of the first N entries, ending "so far".
    part = tmp_path / "part.gif"
    assert main(["render", str(path), "--at", "3", "--gif", str(part)]) == 0
    assert len(frames_of(part.read_bytes())) < len(frames)
    capsys.readouterr()
    assert main(["render", str(path)]) == EXIT_REFUSED
    assert "--gif OUT.gif" in capsys.readouterr().err
    assert main(["render", str(path), "--at", "99", "--gif", str(part)]) == EXIT_REFUSED
    assert "N runs from 0 to 8" in capsys.readouterr().err


def test_jumps_by_turn_and_step():
    from cogs.replay import target_step
    replay = walk(load("slideslam/super_slam_sweep"))
    starts = replay.turn_starts()
    last = len(replay.steps) - 1
    assert starts[0] == 0 and len(starts) > 3
    assert target_step(replay, 5, "first") == 0 and target_step(replay, 5, "last") == last
    assert target_step(replay, 0, "prev") == 0 and target_step(replay, last, "next") == last
    assert target_step(replay, 5, "next") == 6 and target_step(replay, 5, "prev") == 4
    # ⏩ goes to the start of the next turn; ⏪ to the start of this one, then the one before.
    mid = starts[2] + 1
    assert target_step(replay, mid, "tnext") == starts[3]
    assert target_step(replay, mid, "tprev") == starts[2]
    assert target_step(replay, starts[2], "tprev") == starts[1]
    assert all(replay.steps[s].turn != replay.steps[s - 1].turn for s in starts[1:])


def test_summary_line_is_one_short_line():
    from bot.replay import summary_line
    words = [f"Bob slides die {c} from a1 to a2 (1 step)." for c in "ABCDEFGHIJKL"]
    line = summary_line(words, 120)
    assert "\n" not in line and len(line) <= 120 and line.endswith("…")
    assert summary_line(["Short."]) == "Short."


def test_the_public_log_catches_up_entry_by_entry():
    from bot.replay import PublicLog, since
    record = load("slideslam/super_slam_sweep")
    log = PublicLog(Record(record.kind, record.options, record.players, None,
                           record.entries[:5]))
    log.update(Record(record.kind, record.options, record.players, None, record.entries[:5]))
    assert len(log.said) == 5
    log.update(record)  # the same game, more entries: only the new ones are replayed
    for first in (0, 3, 9, len(record.entries)):
        assert log.words_since(first) == since(record, first)[0]
    other = load("slideslam/predict_then_stalemate")  # another game: started over
    log.update(other)
    assert log.words_since(0) == since(other, 0)[0]


@pytest.mark.parametrize("kind", sorted({name.split("/")[0] for name in SHORT}))
def test_each_games_palette_holds_every_theme_colour_in_96(kind):
    """A game's GIF palette is small (soft edges take fewer shades, so the file is smaller) but
    keeps each of the theme's colours exactly, however few pixels of it the reference boards
    have: a player's colour stays that player's."""
    from rendering.gif import PALETTE_COLOURS, _theme_colours, kind_palette
    flat = kind_palette(kind).getpalette() or []
    colours = {tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)}
    assert set(_theme_colours()) <= colours
    assert len(colours) <= PALETTE_COLOURS == 96


def test_the_caption_band_is_drawn_in_four_levels_of_ink(gifs):
    """The band changes in every frame: its words are smoothed with two shades between the
    panel and the ink (the LZW packs them far better than every shade FreeType gives): a
    band holds no more colours than BAND_COLOURS, whichever game's palette it is in."""
    from rendering.gif import BAND_COLOURS
    for name in ("kaploom/rulebook_play_example", "deathbydice/lou_vs_vex_short_combat"):
        gif = gifs[name]
        for frame in frames_of(gif.png):
            band = frame.crop((0, 0, frame.width, gif.board_top))
            assert len(band.getcolors(1 << 16)) <= len(BAND_COLOURS)


def test_a_cut_caption_ends_inside_the_band():
    """A caption longer than the band's lines ends in "…", drawn whole inside the picture with
    the band's margin to spare (the "…" was added after the wrap and ran past the edge)."""
    from PIL import ImageChops

    from rendering.colours import PANEL
    from rendering.gif import PAD, band_height, draw_band
    words = " ".join(["Mayhem rolls LUCK 6 + 2 = 8 against AGI 2 + 2 (boosted defense)."] * 6)
    for big in (False, True):
        band = draw_band(550, band_height(4), "Step 9 of 20 · Turn 3", words,
                         big=big).convert("RGB")
        box = ImageChops.difference(band, Image.new("RGB", band.size, PANEL)).getbbox()
        assert box is not None and box[2] <= band.width - PAD


def test_each_decoded_frame_is_the_composed_frame(gifs):
    """The frames after the first are written as the box that changed with its unchanged
    pixels mostly CLEAR (transparent) and short gaps written out: decoded, each frame is the
    whole composed frame (band and board), pixel for pixel."""
    from rendering.gif import board_drawer, build_frames, kind_palette, render_frames
    for name in ("deathbydice/lou_vs_vex_short_combat", "tradeshowdown/rulebook_example"):
        record = load(name)
        replay = walk(record, None)
        palette = kind_palette(record.kind)
        frames = build_frames(replay, board_drawer(record.kind, replay.views, palette))
        board_h = max(f.board.height for f in frames)
        composed, _, _ = render_frames(frames, palette, board_h)
        decoded = frames_of(gifs[name].png)
        assert len(decoded) == len(composed)
        for i, (got, want) in enumerate(zip(decoded, composed)):
            assert got.tobytes() == want.convert("RGB").tobytes(), f"{name} frame {i}"


def test_clear_marks_only_unchanged_pixels_and_fills_short_gaps():
    """CLEAR (the frame before shows through) goes only on pixels that did not change; a gap
    of up to 31 unchanged pixels between changed ones is written out, a longer one is CLEAR,
    and changes at a row's ends (where the closing's shifts wrap) stay written."""
    from rendering.gif import _clear_mask
    width = 160
    changes = (0, 5, 37, 70, 119, 159)  # gaps of 4, 31, 32, 48 and 39 px; both ends changed
    row = [0] * width
    for x in changes:
        row[x] = 7
    delta = Image.new("P", (width, 2))
    delta.putdata(row + [0] * width)
    clear = [v != 0 for v in _clear_mask(delta).convert("L").tobytes()]
    assert clear[width:] == [True] * width             # an unchanged row: all CLEAR
    assert not any(clear[x] for x in changes)
    assert clear[1:37] == [False] * 36                 # gaps of 4 and 31: written out
    assert clear[38:70] == [True] * 32                 # the gaps of 32, 48 and 39: CLEAR
    assert clear[71:119] == [True] * 48
    assert clear[120:159] == [True] * 39


# sha256 (first 16 hex digits) of every public board of these games, each as its RGB pixels
# and size, drawn live (no replay layout): taken before the replay layouts were added. The live
# board (the thread's, `render --at N`) must not change with them. A change that means to
# change these pictures recomputes them (and says so). TradeShowdown's were recomputed when its
# "Now:" banner stopped counting the slashes left (issue #22: the board stays while they are
# placed, and the card's status line counts them).
LIVE_BOARDS = {
    ("tradeshowdown", "rulebook_example", 0): "6522a6280d87398f",
    ("deathbydice", "lou_vs_vex_short_combat", 0): "9b252de3c38c3c4d",
    ("deathbydice", "mayhem_vs_knuckles_specials", 0): "7fbd6bf18f44c747",
    # seeded self-play (random legal moves, seed 26), the first 60 entries: two fighters
    # going from full panels to tightened ones to tiles, four in tiles, a Death by Dice duel
    ("tradeshowdown", "selfplay", 2): "210603813008800e",
    ("tradeshowdown", "selfplay", 4): "1fd37bc784cff823",
    ("deathbydice", "selfplay", 2): "0ffd0ee54198abe0",
}


def _boards_digest(images) -> str:
    import hashlib
    h = hashlib.sha256()
    for im in images:
        im = im.convert("RGB")
        h.update(f"{im.size}".encode())
        h.update(im.tobytes())
    return h.hexdigest()[:16]


def _views(kind: str, name: str, players: int, seat=None) -> list[dict]:
    from bot.engine.records import selfplay
    if name == "selfplay":
        record, _ = selfplay(kind, 26, players=players)
        return walk(record, seat, upto=60).views
    return walk(load(f"{kind}/{name}"), seat).views


@pytest.mark.parametrize("kind,name,players", sorted(LIVE_BOARDS))
def test_the_live_board_is_what_it_was_before_replay_layouts(kind, name, players):
    import importlib
    module = importlib.import_module(f"rendering.{kind}")
    views = _views(kind, name, players)
    got = _boards_digest(module.public_image(v) for v in views)
    assert got == LIVE_BOARDS[kind, name, players]
    # and the thread's picture is that board (in its PNG's palette)
    from rendering.picture import palettised
    last = Image.open(io.BytesIO(module.public_picture(views[-1]).png))
    assert last.convert("RGB").tobytes() == palettised(module.public_image(views[-1])).convert(
        "RGB").tobytes()


def test_a_tradeshowdown_seat_panel_is_what_it_was_before_replay_layouts():
    import rendering.tradeshowdown as ts
    views = _views("tradeshowdown", "selfplay", 2, seat=0)
    assert _boards_digest(ts._image(v, v["you"]) for v in views) == "b5b443fcc16a6386"


@pytest.mark.parametrize("kind,players", [("tradeshowdown", 2), ("tradeshowdown", 4),
                                          ("deathbydice", 2)])
def test_a_replay_board_holds_still_and_grows_only_when_a_step_needs_room(kind, players):
    """In a replay (`replay_layouts`) the board is the same position as the live board, in a
    layout that keeps the room each part has needed so far: its height never shrinks and
    changes at only a few steps (the live board changes it at most steps), a step's layout
    never depends on a later step, and the board stays within a phone's 1,400 px."""
    import importlib
    from bot.engine.records import selfplay
    module = importlib.import_module(f"rendering.{kind}")
    record, _ = selfplay(kind, 26, players=players)
    views = walk(record, None, upto=160).views
    layouts = module.replay_layouts(views)
    assert len(layouts) == len(views)
    assert module.replay_layouts(views[:40]) == layouts[:40]   # the steps so far only
    heights = [module.public_image(v, lay).height for v, lay in zip(views, layouts)]
    live = [module.public_image(v).height for v in views]
    assert max(heights) <= 1400
    # TradeShowdown's two full panels turn tight, then to tiles, once each at most (never
    # back); within each, the board only grows.
    kinds = [(getattr(lay, "tight", False), getattr(lay, "tiles", False)) for lay in layouts]
    assert kinds == sorted(kinds, key=lambda k: (k[1], k[0])) and len(set(kinds)) <= 3
    for a, b, ka, kb in zip(heights, heights[1:], kinds, kinds[1:]):
        assert a <= b or ka != kb
    moves = sum(a != b for a, b in zip(heights, heights[1:]))
    live_moves = sum(a != b for a, b in zip(live, live[1:]))
    assert moves <= 8 and live_moves >= 3 * moves + 3, (moves, live_moves)
