"""A finished game as an animated GIF (issue #26): Discord animates GIF attachments, not APNG.

Frames: a title frame (the game, its players and options, over the starting board), one frame
per step that changed the public board (`bot.replay.walk`: the board exactly as `python -m bot
render RECORD --at N --replay-layout` draws it, with a caption band above it saying what
happened, in the engine's words), and an end frame (the result and how it ended, over the final
board). Secrets show only once revealed: every board is drawn from the public view at its step.
The boards are the live board's (`render --at N` without `--replay-layout`), but for a game
whose board grows and shrinks (TradeShowdown, Death by Dice): there each part keeps the room it
has needed in the steps so far (`board_drawer`), so the board holds still from step to step.

One palette for every replay of a game (`kind_palette`: 96 colours, the theme's and the most
used kept exactly; each board's drawing mapped straight to it), so each frame is stored as the
rectangle that changed since the frame before (`encode`) and the file stays small. Frames stay longer on reveals and at the end, and longer with more words.

`replay_gif(record_json, max_bytes=...)` runs whole in a render worker (`render_async`): it
returns a `GifPicture` (a Picture whose bytes are a GIF); when the file is larger than
`max_bytes`, the steps between are thinned out (the title, the reveals and the end are kept)
until it fits.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from rendering.colours import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, mix
from rendering.fonts import font
from rendering.picture import Picture, clip_alt, palettised
from rendering.text import fit_text, line_height, wrap_text

PAD = 10
CAPTION_SIZE = 14          # caption text: 14 px on a 550 px frame (the bar is 11 px)
HEAD_SIZE = 13
CAPTION_LINES = 4          # at most this many wrapped lines of words under the step line
MIN_WIDTH = 550

# Frame times in milliseconds: a step reads in about a second and a half, more words longer.
STEP_MS, PER_CHAR_MS, STEP_MAX_MS = 1300, 18, 4000
REVEAL_MS = 3200
TITLE_MS = 2600
END_MS = 5000

_GIF_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,80}\.gif")


@dataclass(frozen=True)
class GifPicture(Picture):
    """A Picture whose bytes (`png`, the field every Picture has) are an animated GIF, with its
    alt text and a `name.gif` file name; `frames` and `steps` say what it holds."""

    frames: int = 0
    steps: int = 0
    shown: tuple[int, ...] = field(default=(), repr=False)  # the step numbers drawn
    board_top: int = 0      # the boards start this many pixels down (under the caption band)

    def __post_init__(self) -> None:
        if not _GIF_NAME.fullmatch(self.filename):
            raise ValueError(f"a GIF's file name looks like 'replay-1.gif', not "
                             f"{self.filename!r}")
        alt = clip_alt(self.alt)
        if not alt:
            raise ValueError("every picture needs alt text")
        object.__setattr__(self, "alt", alt)

    @property
    def data(self) -> bytes:
        return self.png


@dataclass
class Frame:
    kind: str               # "title", "step", "end"
    step: int               # the step number (title: 0, end: the last step)
    band: Image.Image       # the caption band ('P', in BAND_COLOURS)
    board: Image.Image      # the board, as its renderer drew it (P or RGB)
    ms: int
    keep: bool = False      # kept when frames are thinned out (title, reveals, end)


# --- the caption band ---------------------------------------------------------------------

def _fonts(big: bool):
    """The step line's font and the words' font (bigger and bold on the title and end)."""
    return (font(HEAD_SIZE + (5 if big else 0), bold=True),
            font(CAPTION_SIZE + (1 if big else 0), bold=big))


# Each caption is wrapped twice (the tallest sets the band's height, then each is drawn): the
# second time is a look-up.
@lru_cache(maxsize=1024)
def _band_lines(head: str, words: str, width: int, big: bool = False
                ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    _, body = _fonts(big)
    room = width - 2 * PAD - 4
    lines = wrap_text(words, body, room) if words else []
    if len(lines) > CAPTION_LINES:
        last = lines[CAPTION_LINES - 1]  # its "…" fits in the line too, not past the edge
        lines = lines[:CAPTION_LINES - 1] + [fit_text(last.rstrip(" .,;:") + " …", body, room)]
    return (head,), tuple(lines)


def band_height(max_lines: int) -> int:
    head, body = _fonts(True)
    return PAD + line_height(head) + max_lines * line_height(body) + PAD


# The band's text is smoothed with two shades between the panel and its ink, not every shade
# FreeType gives: the band changes in every frame, and its words were 40 % of a median
# KAPLOOM! replay's bytes (4.4 KB a frame); with four levels of ink they take a third less, and
# side by side, enlarged twice, the words look the same. The colours are in every game's
# palette (`_theme_colours`), so each stays one palette entry.
BAND_LEVELS = 3
BAND_COLOURS = [PANEL] + [mix(PANEL, ink, k / BAND_LEVELS) for ink in (TEXT, MUTED, HIGHLIGHT)
                          for k in range(1, BAND_LEVELS + 1)]


def _band_palette() -> Image.Image:
    flat = [v for c in BAND_COLOURS for v in c]
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat + list(PANEL) * (256 - len(BAND_COLOURS)))
    return holder


_BAND_PALETTE = _band_palette()


def draw_band(width: int, height: int, head: str, words: str, *, accent: bool = False,
              big: bool = False) -> Image.Image:
    """The caption band: a step line (which step, which turn) and the words of what happened,
    as a 'P' image in BAND_COLOURS."""
    img = Image.new("RGB", (width, height), PANEL)
    d = ImageDraw.Draw(img)
    if accent:
        d.rectangle((0, 0, 5, height), fill=HIGHLIGHT)
    heads, lines = _band_lines(head, words, width, big)
    hf, bf = _fonts(big)
    x, y = PAD + 4, PAD
    d.text((x, y), heads[0], font=hf, fill=HIGHLIGHT if (accent or big) else MUTED)
    y += line_height(hf)
    for line in lines:
        if y + line_height(bf) > height:
            break
        d.text((x, y), line, font=bf, fill=TEXT)
        y += line_height(bf)
    return img.quantize(palette=_BAND_PALETTE, dither=Image.Dither.NONE)


# --- the shared palette -----------------------------------------------------------------------

def _colours(img: Image.Image) -> dict[tuple[int, int, int], int]:
    """How many pixels of each colour `img` has."""
    if img.mode == "P":
        pal = img.getpalette() or []
        out: dict[tuple[int, int, int], int] = {}
        for count, index in img.getcolors(256) or []:
            c = tuple(pal[3 * index:3 * index + 3])
            out[c] = out.get(c, 0) + count  # type: ignore[index]
        return out
    rgb = img.convert("RGB")
    found = rgb.getcolors(1 << 16)
    if found is None:  # a photo-like image: its own 256 colours stand for it
        return _colours(rgb.quantize(256, method=Image.Quantize.FASTOCTREE))
    return {c: n for n, c in found}


# The palette's last entry is no colour: a frame's pixels that did not change from the frame
# before are written in it, as transparent, so they cost almost nothing in the file.
CLEAR = 255
COLOURS = 255


def shared_palette(images: Sequence[Image.Image], keep: Sequence[tuple[int, int, int]] = (),
                   colours: int = COLOURS, exact: int = 190) -> Image.Image:
    """A 'P' image holding one palette of at most `colours` colours for all `images`: the
    colours `keep` exactly, and with `colours` or fewer in all, every one exactly; else the most
    used exactly up to `exact` (flat fills, text, dice) and the rest chosen by median cut among
    the others (soft edges take the nearest)."""
    total: dict[tuple[int, int, int], int] = {}
    for img in images:
        for c, n in _colours(img).items():
            total[c] = total.get(c, 0) + n
    chosen = list(dict.fromkeys(keep))
    ranked = [c for c in sorted(total, key=lambda c: (-total[c], c)) if c not in set(chosen)]
    if len(chosen) + len(ranked) <= colours:
        chosen += ranked
    else:
        room = max(0, exact - len(chosen))
        chosen += ranked[:room]
        rest = ranked[room:]
        strip = Image.new("RGB", (len(rest), 1))
        strip.putdata(rest)
        q = strip.quantize(colours - len(chosen), method=Image.Quantize.MEDIANCUT,
                           dither=Image.Dither.NONE)
        pal = q.getpalette() or []
        used = sorted({i for _, i in q.getcolors(256) or []})
        chosen += [tuple(pal[3 * i:3 * i + 3]) for i in used]  # type: ignore[misc]
    flat: list[int] = []
    chosen = chosen[:colours]
    for c in chosen:
        flat += list(c)
    # Unused entries and CLEAR's repeat the first colour: the nearest-colour search keeps the
    # first of equals, so no pixel is ever mapped to them (`to_palette` makes sure).
    flat += list(chosen[0]) * (256 - len(chosen))
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat)
    return holder


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """`img` in the shared palette, each colour mapped to its nearest palette entry exactly as
    `img.convert("RGB").quantize(palette=palette, dither=NONE)` does (the tests compare so),
    but a 'P' picture costs one mapping of its at most 256 colours, not of every pixel. A
    picture already in `palette` is itself: Pillow's nearest-colour search looks in a coarse
    grid of colours, so mapping again could move a colour to a neighbouring entry."""
    if img.mode == "P" and img.getpalette() == palette.getpalette():
        return img
    if img.mode == "P":
        pal = img.getpalette() or []
        n = len(pal) // 3
        strip = Image.new("RGB", (n, 1))
        strip.putdata([tuple(pal[3 * i:3 * i + 3]) for i in range(n)])  # type: ignore[misc]
        lut = list(strip.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())
        lut += [0] * (256 - len(lut))
    else:
        img = img.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
        lut = list(range(256))
    # CLEAR repeats entry 0's colour: a pixel that found it takes entry 0, the same colour.
    lut = [0 if i == CLEAR else i for i in lut]
    out = img.point(lut)  # on a 'P' image: its indices mapped, in place of a copy via bytes
    out.putpalette(palette.getpalette() or [])
    return out


# --- the boards ---------------------------------------------------------------------------------

def board_drawer(kind: str, views: Sequence[dict[str, Any]] | None = None,
                 palette: Image.Image | None = None) -> Any:
    """The game's public board as a 'P' image in `palette` (the game's GIF palette): the
    drawing `render --at N` writes as its PNG (the renderer's `public_image`), each pixel mapped
    straight to its nearest palette colour. Not through the PNG's own palette: that one is
    chosen per picture (`palettised`: fast octree), so a soft edge that did not change from one
    step to the next could come out one shade apart in the two PNGs and again in the GIF, and
    those flickering pixels were a fifth of a median Death by Dice replay's bytes (2.27 MB, 1.82
    MB without them; TradeShowdown 2.27 and 2.10 MB); mapping once is faster too. Without
    `palette` (choosing one): the board in the PNG's colours. A renderer without
    `public_image`: its PNG, decoded.

    `views`: the public views of the game being replayed, in order. A renderer whose board
    grows and shrinks with the position (TradeShowdown, Death by Dice) has `replay_layouts(
    views)`: each view's layout in the replay, with room for each part at its largest in the
    steps so far, so the boards hold still from frame to frame (a moved block rewrites every
    pixel under it: most of those replays' bytes) and are easier to watch; each of those views
    is then drawn `public_image(view, layout)`, what `render --at N --replay-layout` writes
    for its step. Without `views`: the live board."""
    import importlib
    from bot.render_cli import renderers
    module = importlib.import_module(f"rendering.{kind}")
    image = getattr(module, "public_image", None)
    plan = getattr(module, "replay_layouts", None)
    if image is not None and plan is not None and views is not None:
        layouts = {id(v): layout for v, layout in zip(views, plan(views))}
        draw = lambda view: image(view, layouts[id(view)])  # noqa: E731
    elif image is not None:
        draw = image
    else:
        draw_png, _ = renderers(kind)
        draw = lambda view: Image.open(io.BytesIO(draw_png(view).png))  # noqa: E731
    if palette is None:
        return lambda view: palettised(draw(view))
    return lambda view: to_palette(draw(view), palette)


# --- one palette per game: the same for every replay of that game -----------------------------

# The palette must not depend on the game being replayed: chosen from its own frames, the
# colours of a board after a reveal would shift the shades of the frames before it (one level
# here and there), and the first frames would tell a little of what was hidden. So each game has
# one palette, chosen once per process from reference boards of that game (seeded self-play
# games, drawn by its renderer) plus the theme's exact colours; every replay of the game uses it.
SAMPLE_BOARDS = 8
# 96 colours: the theme's and the most used on the reference boards up to 72 exactly, 24 more
# for soft edges. A soft edge then takes one of fewer shades, so the words a step changes make
# shorter, more often repeated strings: the median TradeShowdown replay 7 % smaller than with
# 255 colours (1.86 MB, not 2.0), Death by Dice 7 % (1.65 MB), the other games 4-7 %. Side by
# side, enlarged twice, the frames look the same; 1 % to 2 % of a board's pixels (edges of
# letters) move more than 8 levels. With 64 colours a colour of the game's own (Death by
# Dice's DEFENDING badge) lost its place and turned brown.
PALETTE_COLOURS, PALETTE_EXACT = 96, 72


def _theme_colours() -> list[tuple[int, int, int]]:
    """The theme's colours: every palette keeps them exactly, however little a game uses one
    (a player's colour must stay that player's)."""
    from rendering.colours import (DIE_COLOURS, GRID, INK, PAPER, PLAIN_DIE, PLAYER_COLOURS)
    colours = [BACKGROUND, PANEL, TEXT, MUTED, HIGHLIGHT, GRID, INK, PAPER] + BAND_COLOURS
    for p in PLAYER_COLOURS:
        colours += [p.fill, p.text]
    for d in list(DIE_COLOURS.values()) + [PLAIN_DIE]:
        colours += [d.fill, d.pip, d.outline]
    return [tuple(c) for c in colours]  # type: ignore[misc]


_PALETTES: dict[str, Image.Image] = {}


def kind_palette(kind: str) -> Image.Image:
    """The palette of every replay of `kind` (chosen once per process)."""
    if kind in _PALETTES:
        return _PALETTES[kind]
    from bot.engine import load
    from bot.engine.records import selfplay
    from bot.replay import walk
    draw = board_drawer(kind)
    engine = load(kind)
    images = []
    # Two players; and four where a game draws more players differently (TradeShowdown's
    # tiles), with their colours.
    for players in sorted({engine.MIN_PLAYERS, min(4, engine.MAX_PLAYERS)}):
        try:
            record, _ = selfplay(kind, 26, players=players)
        except Exception:  # that many players needs options of its own (KAPLOOM!'s 2 vs 2)
            continue
        replay = walk(record, None, upto=400)  # a random game can run long: its start will do
        views = replay.views
        picks = sorted({round(i * (len(views) - 1) / (SAMPLE_BOARDS - 1))
                        for i in range(SAMPLE_BOARDS)})
        images += [draw(views[i]) for i in picks]
        for step in (replay.steps[1], replay.steps[-1]):
            words = step.caption() or "A step of the game."
            images += [draw_band(MIN_WIDTH, 90, "Step 1 of 9 · Turn 1", words, accent=a, big=b)
                       for a, b in ((False, False), (True, False), (False, True))]
    _PALETTES[kind] = shared_palette(images, _theme_colours(), PALETTE_COLOURS, PALETTE_EXACT)
    return _PALETTES[kind]


# --- frames and the file --------------------------------------------------------------------------

def compose(frames: Sequence[Frame], palette: Image.Image, width: int, band_h: int,
            board_h: int) -> list[Image.Image]:
    """Each frame as one 'P' image in the shared palette: the band on top, the board under it
    (centred when narrower than the frame), the rest background."""
    bg = to_palette(Image.new("RGB", (1, 1), BACKGROUND), palette).getpixel((0, 0))
    out = []
    for f in frames:
        canvas = Image.new("P", (width, band_h + board_h), bg)
        canvas.putpalette(palette.getpalette() or [])
        canvas.paste(to_palette(f.band, palette), (0, 0))
        canvas.paste(to_palette(f.board, palette), (board_x(width, f.board.width), band_h))
        out.append(canvas)
    return out


def board_x(width: int, board_width: int) -> int:
    return max(0, (width - board_width) // 2)


# An unchanged gap of up to 2**GAP_SHIFTS - 1 pixels between changed ones in a row is written
# as its pixels, not CLEAR: a board that moved a few pixels changes the edges of every letter
# and die, and a line of words that changed changes most of its letters but not the ground
# between them; CLEAR gaps between those edges cut up the strings the compression packs, while
# the words written out whole are strings like every other line of words. Measured on the
# median Death by Dice and TradeShowdown replays (bench.replay's games), gaps up to 7 px first
# (9 % and 7 % smaller than none); then up to 31 px: 2.4 % and 4.6 % smaller again (1.82 ->
# 1.77 MB, 2.10 -> 2.00 MB). Up to 15 px gave about 2 % and 3 %, up to 63 px 2 % larger and
# 5 % smaller. Each step costs some encoding time (31 px rather than 7: 0.1 s and 0.13 s of
# CPU more).
GAP_SHIFTS = 5


def _clear_mask(delta: Image.Image) -> Image.Image:
    """Where a frame is written CLEAR: the pixels `delta` (this frame minus the one before, as
    indices) says did not change, but for gaps of up to 31 px between changed ones in a row
    (a closing along the row: the changed set spread right by 0-31 px, then kept where it
    and the 31 px to its right are all in the spread). Every pixel it marks is unchanged: the
    closing covers every changed pixel, even with `offset` wrapping at the edges."""
    # On the indices as they are: the brighter of two is not 0 when either is not, the darker
    # only when both are not, so no pass turns them into 0 and 255 first.
    changed = delta
    for s in range(GAP_SHIFTS):
        changed = ImageChops.lighter(changed, ImageChops.offset(changed, 1 << s, 0))
    for s in range(GAP_SHIFTS):
        changed = ImageChops.darker(changed, ImageChops.offset(changed, -(1 << s), 0))
    return changed.point([255] + [0] * 255, "1")


def encode(images: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """The GIF: one global palette; each frame after the first is only the box that changed,
    drawn over the frame before (disposal 1), with the pixels in that box that did not change
    written as CLEAR (transparent: the frame before shows through), but for short gaps
    between changed pixels (`_clear_mask`). Long runs of one index are
    what the GIF's compression packs best. Pillow's own writer would compare every frame with
    the one before a second time; its documented frame helpers (`getheader`, `getdata`) write
    the blocks, so each frame is compared once, here."""
    first = images[0]
    header, _ = GifImagePlugin.getheader(first, info={"loop": 0, "transparency": CLEAR,
                                                      "duration": durations[0]})
    out = io.BytesIO()
    for block in header:
        out.write(block)
    params = {"disposal": 1, "transparency": CLEAR}
    for block in GifImagePlugin.getdata(first.copy(), (0, 0), duration=durations[0],
                                        **params):
        out.write(block)
    for prev, cur, ms in zip(images, images[1:], durations[1:]):
        delta = ImageChops.subtract_modulo(cur, prev)
        box = delta.getbbox(alpha_only=False) or (0, 0, 1, 1)
        frame = cur.crop(box)
        frame.paste(CLEAR, mask=_clear_mask(delta.crop(box)))
        for block in GifImagePlugin.getdata(frame, box[:2], duration=ms, **params):
            out.write(block)
    out.write(b";")
    return out.getvalue()


def _spread(indices: list[int], room: int) -> set[int]:
    if room <= 0 or not indices:
        return set()
    if room >= len(indices):
        return set(indices)
    stride = len(indices) / room
    return {indices[min(len(indices) - 1, int(k * stride))] for k in range(room)}


def thin(frames: Sequence[Frame], keep: int) -> list[Frame]:
    """At most `keep` frames (at least the title and the end): the reveals first, then an
    even spread of the other steps, in order; a dropped frame's time goes in part to the one
    before it, so the whole still runs about as long."""
    if len(frames) <= keep:
        return list(frames)
    ends = [i for i, f in enumerate(frames) if f.kind != "step"]
    marked = [i for i, f in enumerate(frames) if f.kind == "step" and f.keep]
    others = [i for i, f in enumerate(frames) if f.kind == "step" and not f.keep]
    room = max(0, keep - len(ends))
    picked = set(ends) | _spread(marked, room)
    picked |= _spread(others, room - len(picked & set(marked)))
    out: list[Frame] = []
    for i, f in enumerate(frames):
        if i in picked:
            out.append(Frame(f.kind, f.step, f.band, f.board, f.ms, f.keep))
        elif out:
            out[-1].ms = min(out[-1].ms + 400, STEP_MAX_MS)
    return out


def step_ms(words: str, reveal: bool) -> int:
    ms = min(STEP_MAX_MS, STEP_MS + PER_CHAR_MS * max(0, len(words) - 40))
    return max(ms, REVEAL_MS) if reveal else ms


def _option_words(kind: str, options: dict[str, Any]) -> str:
    """The options that differ from the game's defaults, in words ("" when none do)."""
    from bot.engine import load
    try:
        defaults = load(kind).parse_options({})
    except Exception:  # a game whose defaults need more (players): say every setting
        defaults = {}
    shown = []
    for k, v in options.items():
        if isinstance(v, (dict, list)) or defaults.get(k, object()) == v:
            continue  # business cards, characters...: the title names only settings
        if isinstance(v, bool):
            v = "on" if v else "off"
        shown.append(f"{k.replace('_', ' ')} {v}")
    return ", ".join(shown)


def build_frames(replay: Any, draw_board: Any) -> list[Frame]:
    """Every frame of a replay (bot.replay.Replay with its public views), unencoded;
    `draw_board(view)`: a board image (`board_drawer`)."""
    from bot.engine.core import join_names
    imgs = [draw_board(v) for v in replay.views]
    width = max([MIN_WIDTH] + [im.width for im in imgs])
    n = len(replay.steps) - 1
    texts = []
    options = _option_words(replay.kind, replay.options)
    title_words = f"{join_names(replay.names)}. " + (
        f"Options: {options}." if options else "Standard options.")
    texts.append(("title", 0, f"Replay · {replay.title}", title_words, TITLE_MS, True))
    for step in replay.steps[1:]:
        head = f"Step {step.number} of {n} · {step.turn_label}" + (
            " · revealed" if step.reveal else "")
        words = step.caption()
        texts.append(("step", step.number, head, words, step_ms(words, step.reveal),
                      step.reveal))
    end_head = "The end" if replay.outcome is not None else f"So far · after step {n}"
    end_words = replay.end_words or "The game goes on."
    texts.append(("end", n, end_head, end_words, END_MS, True))
    band_lines = max(len(_band_lines(h, w, width, kind != "step")[1])
                     for kind, _, h, w, _, _ in texts)
    band_h = band_height(max(2, band_lines))
    frames = []
    for kind, number, head, words, ms, keep in texts:
        big = kind in ("title", "end")
        band = draw_band(width, band_h, head, words, accent=kind == "step" and keep, big=big)
        frames.append(Frame(kind, number, band, imgs[number], ms, keep))
    return frames


def render_frames(frames: Sequence[Frame], palette: Image.Image, board_h: int
                  ) -> tuple[list[Image.Image], list[int], Image.Image]:
    width = frames[0].band.width
    band_h = frames[0].band.height
    return compose(frames, palette, width, band_h, board_h), [f.ms for f in frames], palette


def alt_text(replay: Any, frames: int) -> str:
    n = len(replay.steps) - 1
    text = (f"Animated replay of {replay.title}: {', '.join(replay.names)}; {n} steps in "
            f"{frames} frames. ")
    if replay.end_words:
        text += replay.end_words + " "
    return text + " ".join(s.caption() for s in replay.steps[1:])


def gif_of(replay: Any, draw_board: Any, filename: str,
           max_bytes: int | None = None) -> GifPicture:
    frames = build_frames(replay, draw_board)
    board_h = max(f.board.height for f in frames)  # every frame as tall, thinned or not

    def attempt(keep: int) -> tuple[list[Frame], bytes]:
        chosen = thin(frames, keep)
        images, durations, _ = render_frames(chosen, kind_palette(replay.kind), board_h)
        return chosen, encode(images, durations)

    chosen, data = attempt(len(frames))
    if max_bytes is not None and len(data) > max_bytes:
        # Fewer frames: frames cost about the same each, so aim by proportion, then close in
        # (a few encodings at most) on the most frames that fit.
        fits: tuple[list[Frame], bytes] | None = None
        low, high = 2, len(frames)  # `high` frames do not fit
        keep = max(2, int(len(frames) * max_bytes / len(data) * 0.95))
        for _ in range(4):
            keep = max(low, min(keep, high - 1))
            trial = attempt(keep)
            if len(trial[1]) <= max_bytes:
                fits, low = trial, len(trial[0])
                if len(trial[1]) >= 0.85 * max_bytes or low >= high - 1:
                    break
            else:
                high = keep
                if keep <= 2:
                    break
            keep = max(low + 1, min(high - 1, int(keep * max_bytes / len(trial[1]) * 0.97)))
        if fits is None:
            raise ValueError(f"the replay does not fit in {max_bytes} bytes even as two "
                             "frames")
        chosen, data = fits
    return GifPicture(data, alt_text(replay, len(chosen)), filename, frames=len(chosen),
                      steps=len(replay.steps) - 1,
                      shown=tuple(f.step for f in chosen if f.kind == "step"),
                      board_top=chosen[0].band.height)


def replay_gif(record_json: dict[str, Any], max_bytes: int | None = None,
               filename: str | None = None, published: bool = False) -> GifPicture:
    """The animated replay of a record (docs/records.md JSON) from the public view: run in a
    render worker (`render_async(replay_gif, record.to_json(), max_bytes=...)`). `published`:
    a finished game's stored record, replayed as its export reads (`public_record`: a plan
    taken back or a face nobody saw left out), so the replay shows exactly what the table saw."""
    from bot.engine.records import Record, public_record
    from bot.replay import walk
    record = Record.from_json(record_json)
    if published:
        try:
            record = public_record(record)
        except ValueError:  # ended inside a secret step in a way its public part cannot show
            pass            # the public view of the record as played shows the same boards
    replay = walk(record, None)
    drawer = board_drawer(record.kind, replay.views, kind_palette(record.kind))
    return gif_of(replay, drawer, filename or f"replay-{record.kind}.gif", max_bytes)
