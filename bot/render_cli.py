"""`python -m bot render RECORD [--at N] --out DIR`: the pictures of a record's position.

Replays the record to its first N entries (default: all of them) and writes the public board
and each seat's private panel picture as PNG files named `<game>-public-at<N>.png` and
`<game>-seat<k>-at<N>.png` (k = 1, 2, ... as in the record's actor numbers) — for players
reviewing a game and for anyone checking the layouts. Each rendering module draws the board
with `public_picture(view)` and a panel with `seat_picture(view)` (None: that seat has no
picture of its own); a module without them draws both with `render(view)`.

`python -m bot render RECORD [--at N] --gif OUT.gif` writes the game's animated replay instead
(rendering/gif.py): a title frame, one frame per step that changed the public board (that
board exactly as `--at N --replay-layout` draws it, under the words of what happened) and an end
frame. The GIF maps each board's drawing (the renderer's `public_image`) to its one palette,
not the PNG's own 256 colours: the same picture in the GIF's colours.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, Callable

from .engine.core import Game
from .engine.records import Record, RecordError, replay


def read_record(path: str | Path) -> Record:
    """The record in `path`, checked whole; RecordError (one line) when it cannot be one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read the file ({getattr(e, 'strerror', None) or e})")
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError("the JSON is nested too deeply to be a game record") from None
    except ValueError as e:
        raise RecordError(f"not JSON ({e})") from None
    return Record.from_json(data)


def renderers(kind: str) -> tuple[Callable[[dict], Any], Callable[[dict], Any]]:
    """The game's (public, seat) picture functions."""
    module = importlib.import_module(f"rendering.{kind}")
    fallback = getattr(module, "render")
    return (getattr(module, "public_picture", None) or fallback,
            getattr(module, "seat_picture", None) or fallback)


def position(record: Record, at: int | None) -> tuple[Game, int]:
    """The game after the first `at` entries (None: every entry)."""
    total = len(record.entries)
    n = total if at is None else at
    if not 0 <= n <= total:
        raise RecordError(f"--at {at}: the record has {total} entries, so N runs from 0 to "
                          f"{total}")
    partial = Record(record.kind, record.options, record.players, record.seed,
                     record.entries[:n], None)
    return replay(partial), n


def replay_board(record: Record, at: int | None = None, *, drawing: bool = False
                 ) -> Callable[[dict], Any] | None:
    """The public picture function for the position after the first `at` entries (None: all)
    as the record's animated replay draws it: in the layout the replay has reached at that step
    (the last of `replay_layouts` of the public views up to there: a later step never changes
    it); None when the game's board has no replay layout (the replay draws it as the thread
    saw it). `drawing`: the board as the renderer's image (`public_image`), before the PNG's
    own 256 colours (the GIF maps that image to its palette)."""
    module = importlib.import_module(f"rendering.{record.kind}")
    plan = getattr(module, "replay_layouts", None)
    if plan is None:
        return None
    from .replay import walk
    _, n = position(record, at)
    upto = Record(record.kind, record.options, record.players, record.seed,
                  record.entries[:n], None)
    layout = plan(walk(upto, None).views)[-1]
    if drawing:
        return lambda view: module.public_image(view, layout)
    return lambda view: module.public_picture(view, layout)


def layouts_of(kind: str, views: list[dict[str, Any]]) -> list[Any] | None:
    """Each of a game's public views' layouts in its animated replay (the module's
    `replay_layouts`: the board as `render --at N --replay-layout` draws each step, drawn by
    `public_picture(view, layout)`); None when the game's board has no replay layout."""
    module = importlib.import_module(f"rendering.{kind}")
    plan = getattr(module, "replay_layouts", None)
    return None if plan is None else plan(views)


def render_position(record: Record, at: int | None, out: Path,
                    replay_layout: bool = False) -> list[Path]:
    """Write the position's pictures into `out`; the files written, public board first.
    `replay_layout`: the public board as the record's animated replay draws it
    (`replay_board`); otherwise as the thread showed it."""
    game, n = position(record, at)
    public, seat_picture = renderers(record.kind)
    if replay_layout:
        public = replay_board(record, at) or public
    out.mkdir(parents=True, exist_ok=True)
    written = []
    jobs: list[tuple[str, Callable[[dict], Any], int | None]] = [("public", public, None)]
    jobs += [(f"seat{s + 1}", seat_picture, s) for s in range(game.players)]
    for label, draw, seat in jobs:
        picture = draw(game.view(seat))
        if picture is None:  # this seat has nothing private to show
            continue
        path = out / f"{record.kind}-{label}-at{n}.png"
        path.write_bytes(picture.png)
        written.append(path)
    return written


# --- `render RECORD --gif OUT.gif`: the animated replay (issue #26) ------------------------------

def render_gif(record: Record, out: Path, at: int | None = None,
               max_bytes: int | None = None):
    """Write the animated replay of the record's first `at` entries (None: all of them) to
    `out`, from the public view exactly as `render --at N --replay-layout` draws each step's
    board (the layout of the replay of those entries); the GifPicture written (frames, steps,
    alt text)."""
    from rendering.gif import replay_gif
    if at is not None:
        _, n = position(record, at)  # the same refusal as --at for a PNG
        record = Record(record.kind, record.options, record.players, record.seed,
                        record.entries[:n], None)
    gif = replay_gif(record.to_json(), max_bytes=max_bytes, filename="replay.gif")
    out.write_bytes(gif.png)
    return gif


def record_tool(file: str, target: str, work: Callable[[], Any], crash: str,
                bug: Callable[[str], int]) -> tuple[Any, int | None]:
    """`work()` on the record in `file`, with the offline tools' refusals said in one line:
    (its result, None), or (None, the exit code: refused, or `bug(crash)` for a crash)."""
    import sys

    from .cliparse import EXIT_REFUSED
    from .engine.records import ReplayError
    try:
        return work(), None
    except RecordError as e:
        print(f"cannot render {file}: {e}", file=sys.stderr)
    except ReplayError as e:
        print(f"illegal entry {e.index}: {e.entry.get('actor')!r} {e.entry.get('move')!r}: "
              f"{e.error}", file=sys.stderr)
    except OSError as e:
        print(f"cannot write to {target}: {e.strerror or e}", file=sys.stderr)
    except Exception:
        return None, bug(crash)
    return None, EXIT_REFUSED


def render_gif_command(args: Any, bug: Callable[[str], int]) -> int:
    """`python -m bot render FILE [--at N] --gif OUT.gif` (`bug` reports a crash)."""
    import sys

    from .cliparse import EXIT_REFUSED
    if not args.gif:
        print("render: say where the pictures go: --out DIR (PNG files) or --gif OUT.gif "
              "(the animated replay)", file=sys.stderr)
        return EXIT_REFUSED
    gif, failed = record_tool(args.file, args.gif, lambda: render_gif(
        read_record(args.file), Path(args.gif), args.at),
        f"rendering {args.file} as a GIF crashed", bug)
    if failed is not None:
        return failed
    print(args.gif)
    print(f"{gif.frames} frames ({gif.steps} steps), {len(gif.png):,} bytes", file=sys.stderr)
    return 0
