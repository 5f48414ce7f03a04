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
import hashlib
import io
import logging
import multiprocessing
import os
import pickle
import re
import struct
from collections import OrderedDict, deque
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
#
# The pool is our own, not a ProcessPoolExecutor: that one cost the bot's process 170-260 us
# of CPU for a 10 KB picture and 300-320 us for 150 KB (its queue feeder thread, its management
# thread, locks, wake-up pipes and GIL hand-offs between them); ours 25-50 and 65-90 us
# (issue #23). No thread of its own: a call is pickled on the event loop and written to an idle
# worker's request pipe; the worker's result pipe is watched by the running loop
# (`add_reader`), read without blocking into a buffer as it arrives, and the whole reply
# resolves that call's future. One call at a time per worker, so a write never waits on a busy
# worker; calls beyond that wait in a FIFO here for the first idle one. A worker that dies
# fails the calls with BrokenProcessPool, as the executor did (render_async starts new ones).
_pool: "_RenderPool | None" = None
_workers = 0

_PIPE_BYTES = 1 << 20  # a whole picture in the pipe at once: one wake-up to read it
_LENGTH = struct.Struct("!Q")  # a reply: its length, then the pickle


def _warm() -> None:
    """In each new worker: import every game's renderer and load the fonts now, so the first
    move after a start does not pay for it."""
    import importlib
    import pkgutil

    import rendering
    for info in pkgutil.iter_modules(rendering.__path__):
        importlib.import_module(f"rendering.{info.name}")


class _RemoteTraceback(Exception):
    """The worker's traceback, as the `__cause__` of an exception raised there."""

    def __str__(self) -> str:
        return self.args[0]


def _with_remote_traceback(exc: BaseException, tb: str) -> BaseException:
    exc.__cause__ = _RemoteTraceback(tb)
    return exc


class _ExceptionWithTraceback:
    """An exception raised in the worker, pickled with its traceback as text."""

    def __init__(self, exc: BaseException) -> None:
        import traceback
        self.exc = exc
        self.tb = '\n"""\n' + "".join(traceback.format_exception(exc)) + '"""'

    def __reduce__(self):
        return _with_remote_traceback, (self.exc, self.tb)


def _serve(requests, results) -> None:
    """A worker: warm up, then draw what the bot sends until it closes the request pipe."""
    import signal
    # Ctrl-C reaches the whole process group: the bot stops us (it closes the pipes).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = results.fileno()
    _warm()
    while True:
        try:
            request = requests.recv_bytes()
        except (EOFError, OSError):
            return
        call = None
        try:
            call, fn, args, kwargs = pickle.loads(request)
            reply = (call, True, fn(*args, **kwargs))
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # noqa: B036 - it is the caller's to see
            try:
                data = pickle.dumps((call, False, _ExceptionWithTraceback(exc)),
                                    pickle.HIGHEST_PROTOCOL)
            except Exception as bad:
                data = pickle.dumps((call, False, RuntimeError(
                    f"the render process could not send back {exc!r}: {bad!r}")))
        # One write of length and pickle: the bot wakes once for the whole reply
        unsent = memoryview(_LENGTH.pack(len(data)) + data)
        try:
            while unsent:
                unsent = unsent[os.write(out, unsent):]
        except OSError:  # the bot is gone or has stopped us
            return


class _Worker:
    __slots__ = ("process", "requests", "results", "fd", "future", "call", "buf", "have")

    def __init__(self, process, requests, results) -> None:
        self.process = process
        self.requests = requests  # Connection we write calls to
        self.results = results    # Connection whose (non-blocking) fd we read replies from
        self.fd = results.fileno()
        self.future: asyncio.Future | None = None  # the call being drawn
        self.call = 0
        self.buf = bytearray(_PIPE_BYTES)  # replies are read into it in place
        self.have = 0


def _set_pipe_size(conn) -> None:
    try:
        import fcntl
        fcntl.fcntl(conn.fileno(), fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass  # not Linux, or over the system's limit: more, smaller reads


class _RenderPool:
    """`workers` spawned render processes, fed from the event loop that calls `submit`."""

    def __init__(self, workers: int) -> None:
        ctx = multiprocessing.get_context("spawn")  # a fork of a process with a loop and
        self._workers: list[_Worker] = []           # threads is not safe
        self._idle: deque[_Worker] = deque()
        self._waiting: deque[tuple[asyncio.Future, int, bytes]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._calls = 0
        self._broken = False
        self._closed = False
        for _ in range(workers):
            req_r, req_w = ctx.Pipe(duplex=False)
            res_r, res_w = ctx.Pipe(duplex=False)
            _set_pipe_size(req_w)
            _set_pipe_size(res_w)
            process = ctx.Process(target=_serve, args=(req_r, res_w), daemon=True,
                                  name="render")
            process.start()
            req_r.close()
            res_w.close()
            os.set_blocking(res_r.fileno(), False)
            worker = _Worker(process, req_w, res_r)
            self._workers.append(worker)
            self._idle.append(worker)

    def pids(self) -> list[int]:
        return [] if self._broken or self._closed else [w.process.pid for w in self._workers]

    def submit(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> asyncio.Future:
        """A future for `fn(*args, **kwargs)` drawn in a worker; call from the running loop."""
        if self._broken or self._closed:
            raise BrokenProcessPool("the render processes are stopped")
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._attach(loop)
        self._calls += 1
        call = self._calls
        data = pickle.dumps((call, fn, args, kwargs), pickle.HIGHEST_PROTOCOL)
        future = loop.create_future()
        if self._idle:
            self._send(self._idle.popleft(), future, call, data)
        else:
            self._waiting.append((future, call, data))
        return future

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Watch the result pipes from `loop` (the pool may outlive an `asyncio.run`)."""
        self._detach()
        for w in self._workers:
            if w.future is not None and w.future.get_loop() is not loop:
                w.future = None  # its loop is gone: the reply is read and dropped
            loop.add_reader(w.fd, self._readable, w)
        self._loop = loop
        self._waiting = deque(c for c in self._waiting if c[0].get_loop() is loop)

    def _detach(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            for w in self._workers:
                try:
                    loop.remove_reader(w.fd)
                except (ValueError, OSError, RuntimeError):
                    pass

    def _send(self, w: _Worker, future: asyncio.Future, call: int, data: bytes) -> None:
        w.future, w.call = future, call
        try:
            w.requests.send_bytes(data)
        except OSError:  # the worker is gone
            self._break()

    def _readable(self, w: _Worker) -> None:
        buf = w.buf
        try:
            with memoryview(buf) as free:
                got = os.readv(w.fd, [free[w.have:]])
        except BlockingIOError:
            return
        except OSError:
            got = 0
        if not got:  # EOF: the worker died
            self._break()
            return
        w.have += got
        if w.have < 8:
            return
        end = 8 + _LENGTH.unpack_from(buf)[0]
        if w.have < end:
            if end > len(buf):  # bigger than the pipe (a long GIF): room for all of it
                buf.extend(bytes(end - len(buf)))
            return
        w.have = 0  # one call at a time per worker: nothing follows the reply
        with memoryview(buf) as view:
            try:
                call, ok, value = pickle.loads(view[8:end])
            except Exception as exc:  # an exception type that will not unpickle here
                call, ok, value = w.call, False, RuntimeError(
                    f"a render process's reply could not be read: {exc!r}")
        if len(buf) > _PIPE_BYTES:
            del buf[_PIPE_BYTES:]
        future, w.future = w.future, None
        # (no call id: the worker could not even read the call, e.g. `fn` is not importable)
        if future is not None and call in (w.call, None) and not future.done():
            try:
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
            except (TypeError, RuntimeError) as exc:  # StopIteration, say
                future.set_exception(RuntimeError(f"render process raised {value!r}: {exc}"))
        self._next(w)

    def _next(self, w: _Worker) -> None:
        """`w` is idle: the first waiting call that is still wanted, if any."""
        while self._waiting:
            future, call, data = self._waiting.popleft()
            if not future.done():
                self._send(w, future, call, data)
                return
        self._idle.append(w)

    def _break(self) -> None:
        """A worker died: fail every call (BrokenProcessPool, as a ProcessPoolExecutor does;
        render_async starts a fresh pool) and stop the others."""
        if not self._broken:
            self._broken = True
            self.shutdown("a render process died")

    def shutdown(self, why: str = "the render processes were stopped") -> None:
        """Stop the workers now and reap them. Calls not yet answered fail with
        BrokenProcessPool: render_async draws them in a thread instead."""
        if self._closed:
            return
        self._closed = True
        self._detach()
        pending = [w.future for w in self._workers] + [c[0] for c in self._waiting]
        self._waiting.clear()
        self._idle.clear()
        for w in self._workers:
            w.future = None
            w.requests.close()
            w.results.close()
        for future in pending:
            if future is not None and not future.done() and not future.get_loop().is_closed():
                future.set_exception(BrokenProcessPool(why))
        for w in self._workers:
            w.process.terminate()
        for w in self._workers:
            w.process.join(1)  # a terminated process is gone within milliseconds


def use_processes(workers: int) -> None:
    """Draw in `workers` processes from now on (0: in threads, as before)."""
    global _pool, _workers
    shutdown_processes()
    _workers = workers
    if workers > 0:
        # All started now, not at the first picture: the first moves after a start should not
        # wait for a process to boot and import the renderers.
        _pool = _RenderPool(workers)


def shutdown_processes() -> None:
    global _pool, _workers
    _workers = 0
    if _pool is not None:
        _pool.shutdown()
        _pool = None


def worker_pids() -> list[int]:
    """The render processes' ids (none in thread mode)."""
    return _pool.pids() if _pool is not None else []


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
        try:
            picture = await pool.submit(fn, args, kwargs)
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
