"""A finished picture (PNG bytes + alt text + file name), and how renderers hand one over.

Renderers return a `Picture`, never a Pillow image, so a cog has everything Discord needs in one
value: `discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt)`. The alt text
is mandatory (a board must be readable without the image: screen readers, image-less clients)
and is clipped to what Discord accepts for an attachment description.

PNGs are palette images: our pictures are flat colours plus the soft edges of text and shapes,
which 256 well-chosen colours hold with no visible loss, and a palette PNG is a half to a third
of the RGB size, keeping boards far under the 200 KB budget. The encoding has no timestamps or
other varying metadata, so the same board gives the same bytes (tests compare bytes).
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import io
import logging
import multiprocessing
import os
import re
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable

from PIL import Image

from bot.engine import jsontext
from rendering.text import ELLIPSIS

log = logging.getLogger(__name__)

MAX_ALT_CHARS = 1024      # Discord: attachment `description` maxLength
MAX_PNG_BYTES = 200_000   # our budget (DESIGN.md, "Rendering"); Discord allows far more
_FILENAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,80}\.png")


def clip_alt(alt: str) -> str:
    """`alt` cut to MAX_ALT_CHARS, ending in "…" when something was cut."""
    alt = alt.strip()
    if len(alt) <= MAX_ALT_CHARS:
        return alt
    return alt[:MAX_ALT_CHARS - 1].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class Picture:
    """PNG bytes with their alt text and attachment file name.

    The alt text is clipped on creation, so every Picture is valid to send. The file name must
    be a plain `name.png` (no spaces or paths): embeds refer to it as `attachment://name.png`.
    """

    png: bytes = field(repr=False)
    alt: str
    filename: str

    def __post_init__(self) -> None:
        if not _FILENAME.fullmatch(self.filename):
            raise ValueError(f"attachment file name must look like 'board-1.png', "
                             f"got {self.filename!r}")
        alt = clip_alt(self.alt)
        if not alt:
            raise ValueError("every picture needs alt text")
        object.__setattr__(self, "alt", alt)


def palettised(img: Image.Image) -> Image.Image:
    """A 'P' copy of `img` (256 colours at most), chosen by Pillow's fast-octree quantiser.

    Measured on our boards (a 960x1354 KAPLOOM! table; a 1000x700 board of 84 coloured dice):
    maximum coverage is exact on pictures of 256 colours or fewer, but took 54 ms of a 70 ms
    KAPLOOM! render; fast octree takes 14 ms for a file of the same size, and moves flat colours
    by at most 2 levels on our palette (a white card comes out 254, a red die 213 for 214),
    which no eye sees. So every board meets the 50 ms budget that the design sets. Median cut
    was slower and off by up to 29. No dither: it sprinkles noise over flat areas, making files
    bigger and text fuzzier; a soft edge just takes the nearest shade.
    """
    if img.mode == "P":
        return img
    if img.mode not in ("RGB", "RGBA"):
        img = img.convert("RGB")
    return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


# zlib level 1 instead of the default 6. Level 3 was about twice as fast as 6 for files a few
# percent larger; under load (issue #14) encoding is CPU every move pays, and on the boards
# the load bench sends, level 1 encodes in 0.5 ms instead of 1.4 ms (a quarter of the whole
# palette-and-encode step) for files 12% larger (19.8 KB instead of 17.6 KB on average),
# still far under MAX_PNG_BYTES.
PNG_COMPRESS_LEVEL = 1


def to_png(img: Image.Image, alt: str, filename: str) -> Picture:
    """Encode `img` as a small PNG and wrap it with its alt text and file name.

    The palette does the shrinking; `optimize=True` cost 4 ms more on a row of dice (70 ms
    more on an RGB board) to save another 2-11 %, so it stays off.
    """
    buf = io.BytesIO()
    palettised(img).save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return Picture(buf.getvalue(), alt, filename)


# Pictures are drawn in worker processes when `use_processes(n)` was called (the bot does at
# start): views are plain data, and threads would share one core through the GIL, so a
# 2-core machine drew at the speed of one. Without it (tests, offline tools) a thread draws.
_pool: ProcessPoolExecutor | None = None
_workers = 0


def _warm() -> None:
    """In each new worker: import every game's renderer and load the fonts now, so the first
    move after a start does not pay for it."""
    import importlib
    import pkgutil

    import rendering
    for info in pkgutil.iter_modules(rendering.__path__):
        importlib.import_module(f"rendering.{info.name}")


def use_processes(workers: int) -> None:
    """Draw in `workers` processes from now on (0: in threads, as before)."""
    global _pool, _workers
    shutdown_processes()
    _workers = workers
    if workers > 0:
        # spawn: a fork of a process with an event loop and threads is not safe.
        _pool = ProcessPoolExecutor(max_workers=workers, initializer=_warm,
                                    mp_context=multiprocessing.get_context("spawn"))
        # Start them all now (the pool starts one per waiting job): the first moves after a
        # start should not wait for a process to boot and import the renderers.
        for _ in range(workers):
            _pool.submit(os.getpid)


def shutdown_processes() -> None:
    global _pool, _workers
    _workers = 0
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def worker_pids() -> list[int]:
    """The render processes' ids (none before the first picture, or in thread mode)."""
    return list(getattr(_pool, "_processes", None) or {})


# The same view draws the same picture: a board re-sent unchanged (a new turn message showing
# the board the last one showed, a panel shown again) costs a dictionary look-up, not a
# drawing. Bounded by bytes, not count: with a thousand open games a few hundred pictures
# would be pushed out before their game's next move; 32 MB holds about two per game.
CACHE_BYTES = 32 * 1024 * 1024
_cache: "OrderedDict[str, Picture]" = OrderedDict()
_cached_bytes = 0


def _cache_key(fn: Callable[..., Picture], args: tuple, kwargs: dict) -> str | None:
    try:
        data = jsontext.dumps([args, kwargs], sort_keys=True)
    except (TypeError, ValueError):
        return None  # not plain data: draw it every time
    name = f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', fn)}"
    return hashlib.blake2b(f"{name}:{data}".encode(), digest_size=16).hexdigest()


async def render_async(fn: Callable[..., Picture], *args: Any, **kwargs: Any) -> Picture:
    """Run the renderer `fn(*args, **kwargs)` in a worker process (or thread) and await its
    Picture. `fn` must be a module-level function when processes are in use.

    Drawing takes milliseconds of CPU; on the event loop that would stall every other game's
    buttons and the gateway heartbeat meanwhile. Pass plain data (a view dict), not live state
    that another task may change while the thread reads it.
    """
    key = _cache_key(fn, args, kwargs)
    if key is not None and key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    if _pool is not None:
        pool = _pool
        loop = asyncio.get_running_loop()
        try:
            picture = await loop.run_in_executor(pool, functools.partial(fn, *args, **kwargs))
        except BrokenProcessPool:
            # A worker died (killed for memory, a crash in Pillow): every later picture
            # would fail the same way. A fresh pool takes over, and this one is drawn here.
            if _pool is pool:
                log.error("a render process died; starting the render processes again")
                use_processes(_workers)
            picture = await asyncio.to_thread(fn, *args, **kwargs)
    else:
        picture = await asyncio.to_thread(fn, *args, **kwargs)
    if not isinstance(picture, Picture):
        raise TypeError(f"{getattr(fn, '__name__', fn)!r} returned {type(picture).__name__}, "
                        "not a Picture")
    if key is not None:
        _remember(key, picture)
    return picture


def _remember(key: str, picture: Picture) -> None:
    global _cached_bytes
    if key in _cache:
        return
    _cache[key] = picture
    _cached_bytes += len(picture.png)
    while _cached_bytes > CACHE_BYTES and _cache:
        _, old = _cache.popitem(last=False)
        _cached_bytes -= len(old.png)
