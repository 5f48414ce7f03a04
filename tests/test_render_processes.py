"""Pictures drawn in worker processes are the same pictures, the pool can be switched off, and
the bot starts and stops it from its RENDER_PROCESSES setting."""
import asyncio

import pytest

import rendering
from bot.config import ConfigError, default_render_processes, load_settings
from conftest import boot
from rendering.roll import render_dice_row


async def test_a_picture_drawn_in_a_process_is_byte_identical(monkeypatch):
    # An empty picture cache: a cached picture would never reach the process.
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    local = await rendering.render_async(render_dice_row, [1, 2, 6], 6, "Roll")
    rendering.use_processes(1)
    try:
        remote = await rendering.render_async(render_dice_row, [1, 2, 5], 6, "Roll")
        again = rendering.render_dice_row([1, 2, 5], 6, "Roll")
        assert rendering.worker_pids()  # it really was drawn elsewhere
    finally:
        rendering.shutdown_processes()
    assert remote.png == again.png and remote.alt == again.alt
    assert local.png != remote.png
    assert rendering.picture._pool is None and rendering.worker_pids() == []


async def test_the_same_view_is_drawn_once(monkeypatch):
    calls = []

    def counted(values):
        calls.append(values)
        return render_dice_row(values, 6, "Roll")

    first = await rendering.render_async(counted, [3, 4])
    again = await rendering.render_async(counted, [3, 4])
    other = await rendering.render_async(counted, [3, 5])
    assert calls == [[3, 4], [3, 5]]
    assert again is first and other.png != first.png


async def test_the_picture_cache_is_bounded_by_bytes(monkeypatch):
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    monkeypatch.setattr(rendering.picture, "_cached_bytes", 0)
    one = render_dice_row([1], 6, "Roll")
    monkeypatch.setattr(rendering.picture, "CACHE_BYTES", 3 * len(one.png))
    for n in range(1, 7):
        await rendering.render_async(render_dice_row, [n], 6, "Roll")
    cache = rendering.picture._cache
    assert 1 <= len(cache) <= 3
    assert rendering.picture._cached_bytes == sum(len(p.png) for p in cache.values())
    assert rendering.picture._cached_bytes <= 3 * len(one.png) + 200


def test_render_processes_setting(tmp_path):
    base = {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "a.db")}
    assert load_settings(base, dotenv=None).render_processes == default_render_processes()
    assert load_settings(base | {"RENDER_PROCESSES": "0"}, dotenv=None).render_processes == 0
    assert load_settings(base | {"RENDER_PROCESSES": "3"}, dotenv=None).render_processes == 3
    for bad in ("-1", "two", "65"):
        with pytest.raises(ConfigError, match=f"RENDER_PROCESSES='{bad}'"):
            load_settings(base | {"RENDER_PROCESSES": bad}, dotenv=None)


def test_one_cpu_draws_in_a_thread(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert default_render_processes() == 0
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    assert default_render_processes() == 4


async def test_the_bot_starts_its_render_processes_and_stops_them(tmp_path):
    fake = await boot(tmp_path / "r.db", render_processes=1)
    try:
        assert rendering.picture._pool is not None
        picture = await rendering.render_async(render_dice_row, [6, 6, 1], 6, "Pool")
        assert rendering.worker_pids()
        assert picture.png == render_dice_row([6, 6, 1], 6, "Pool").png
    finally:
        await fake.stop()
    assert rendering.picture._pool is None


async def test_tests_and_tools_draw_in_a_thread_by_default(tmp_path):
    fake = await boot(tmp_path / "t.db")
    try:
        assert rendering.picture._pool is None
    finally:
        await fake.stop()


def test_the_running_bot_freezes_its_start_up_heap_and_tests_do_not(tmp_path):
    from conftest import make_settings
    base = {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "a.db")}
    assert load_settings(base, dotenv=None).freeze_boot_heap is True
    assert make_settings(tmp_path / "b.db").freeze_boot_heap is False


async def test_a_frozen_start_up_heap_is_out_of_the_collectors_view(tmp_path):
    import gc
    from bot.app import FULL_COLLECTION_AFTER
    gc.unfreeze()
    threshold = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    fake = await boot(tmp_path / "f.db", freeze_boot_heap=True)
    try:
        assert gc.get_freeze_count() > 0
        # full collections come rarely; the young generations as Python has them
        assert gc.get_threshold() == (*threshold[:2], FULL_COLLECTION_AFTER)
    finally:
        await fake.stop()
        gc.unfreeze()
        gc.set_threshold(*threshold)


async def test_a_dead_render_process_is_replaced(monkeypatch, caplog):
    """A worker killed (for memory, a crash): the picture is still drawn, and so are the
    next ones, in a fresh pool."""
    import os
    import signal
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(1)
    try:
        await rendering.render_async(render_dice_row, [2], 6, "Before")
        [pid] = rendering.worker_pids()
        broken = rendering.picture._pool
        os.kill(pid, signal.SIGKILL)
        for _ in range(100):  # until the pool has noticed
            if getattr(broken, "_broken", False):
                break
            await asyncio.sleep(0.02)
        after = await rendering.render_async(render_dice_row, [3], 6, "After")
        assert after.png == render_dice_row([3], 6, "After").png
        assert rendering.picture._pool is not broken and rendering.picture._pool is not None
        again = await rendering.render_async(render_dice_row, [4], 6, "Again")
        assert again.png == render_dice_row([4], 6, "Again").png
        assert pid not in rendering.worker_pids() and rendering.worker_pids()
    finally:
        rendering.shutdown_processes()
    assert "render process died" in caplog.text


def _refuse(values):
    """A renderer that fails in the worker (module level: a worker imports it by name)."""
    raise ValueError(f"no dice {values}")


def _not_a_picture(values):
    return {"values": values}


def _sleepy(seconds, values):
    import time
    time.sleep(seconds)
    return render_dice_row(values, 6, "Sleepy")


def _big(size, seed):
    """A picture of `size` bytes (more than a pipe holds: read in several pieces)."""
    import random
    return rendering.Picture(random.Random(seed).randbytes(size), "big", "big.png")


async def test_a_picture_drawn_in_a_worker_equals_one_drawn_in_a_thread(monkeypatch):
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    threaded = await rendering.render_async(render_dice_row, [6, 5, 4, 3], 6, "Same")
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(2)
    try:
        drawn = await rendering.render_async(render_dice_row, [6, 5, 4, 3], 6, "Same")
    finally:
        rendering.shutdown_processes()
    assert drawn == threaded and drawn is not threaded


async def test_a_killed_worker_falls_back_to_a_thread_and_fresh_workers_take_over(
        monkeypatch, caplog):
    import os
    import signal
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(2)
    try:
        await asyncio.gather(*(rendering.render_async(render_dice_row, [n], 6, "Warm")
                               for n in range(1, 5)))
        old = rendering.worker_pids()
        broken = rendering.picture._pool
        os.kill(old[0], signal.SIGKILL)
        # drawn while the pool has not noticed yet, or after: either way a picture comes back
        pictures = await asyncio.gather(*(rendering.render_async(render_dice_row, [n], 6, "Kill")
                                          for n in range(1, 7)))
        assert [p.png for p in pictures] == [render_dice_row([n], 6, "Kill").png
                                             for n in range(1, 7)]
        for _ in range(100):
            if broken._broken:
                break
            await asyncio.sleep(0.02)
        assert broken._broken and broken.pids() == []
        if rendering.picture._pool is broken:  # every call above was drawn before the death
            await rendering.render_async(render_dice_row, [6, 6], 6, "Notice")
        fresh = rendering.worker_pids()
        assert len(fresh) == 2 and not set(fresh) & set(old)
        again = await asyncio.gather(*(rendering.render_async(render_dice_row, [n, n], 6, "New")
                                       for n in range(1, 4)))
        assert [p.png for p in again] == [render_dice_row([n, n], 6, "New").png
                                          for n in range(1, 4)]
        assert rendering.worker_pids() == fresh
    finally:
        rendering.shutdown_processes()
    assert "a render process died; starting the render processes again" in caplog.text
    for pid in old:  # reaped, not left as zombies
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


async def test_fifty_calls_at_once_on_two_workers_all_resolve(monkeypatch):
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(2)
    try:
        views = [[1 + n % 6, 1 + n // 6 % 6, 1 + n // 36] for n in range(50)]
        pictures = await asyncio.gather(*(rendering.render_async(render_dice_row, v, 6, "Many")
                                          for v in views))
        pool = rendering.picture._pool
        assert len(pool._idle) == 2 and not pool._waiting
    finally:
        rendering.shutdown_processes()
    assert [p.png for p in pictures] == [render_dice_row(v, 6, "Many").png for v in views]


async def test_an_exception_in_the_worker_reaches_the_caller(monkeypatch):
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(1)
    try:
        pool = rendering.picture._pool
        with pytest.raises(ValueError, match=r"no dice \[1, 2\]") as caught:
            await rendering.render_async(_refuse, [1, 2])
        assert "_refuse" in str(caught.value.__cause__)  # the worker's traceback
        with pytest.raises(TypeError, match="not a Picture"):
            await rendering.render_async(_not_a_picture, [3])
        # the worker is still there and draws the next picture
        picture = await rendering.render_async(render_dice_row, [5], 6, "After")
        assert picture.png == render_dice_row([5], 6, "After").png
        assert rendering.picture._pool is pool and not pool._broken
    finally:
        rendering.shutdown_processes()


def test_the_pool_outlives_one_event_loop_and_serves_the_next(monkeypatch):
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(1)  # before any loop runs, as the bot starts
    try:
        pids = rendering.worker_pids()
        for n in range(1, 4):
            picture = asyncio.run(rendering.render_async(render_dice_row, [n], 6, "Loop"))
            assert picture.png == render_dice_row([n], 6, "Loop").png
        assert rendering.worker_pids() == pids
    finally:
        rendering.shutdown_processes()


async def test_replies_bigger_than_the_pipe_arrive_whole(monkeypatch):
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(2)
    try:
        sizes = [3_000_000, 10, 150_000, 1 << 20, 2_500_000, 70_000]
        pictures = await asyncio.gather(*(rendering.render_async(_big, size, seed)
                                          for seed, size in enumerate(sizes)))
        small = await rendering.render_async(render_dice_row, [2, 3], 6, "After")
    finally:
        rendering.shutdown_processes()
    assert [p.png for p in pictures] == [_big(size, seed).png for seed, size in enumerate(sizes)]
    assert small.png == render_dice_row([2, 3], 6, "After").png


async def test_calls_in_flight_when_the_pool_stops_are_drawn_in_a_thread(monkeypatch, caplog):
    import time
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    rendering.use_processes(1)
    try:
        await rendering.render_async(render_dice_row, [1], 6, "Warm")
        calls = [asyncio.ensure_future(rendering.render_async(_sleepy, 0.3, [n]))
                 for n in range(1, 4)]  # one being drawn, two waiting
        await asyncio.sleep(0.1)
        pool = rendering.picture._pool
        [pid] = rendering.worker_pids()
        started = time.perf_counter()
    finally:
        rendering.shutdown_processes()
    assert time.perf_counter() - started < 0.5  # the caller is not held up
    pictures = await asyncio.wait_for(asyncio.gather(*calls), 5)
    assert [p.png for p in pictures] == [_sleepy(0, [n]).png for n in range(1, 4)]
    assert pool._closed and not pool._waiting and rendering.picture._pool is None
    assert "render process died" not in caplog.text
    import os
    with pytest.raises(ChildProcessError):  # reaped
        os.waitpid(pid, os.WNOHANG)
