"""Load (issue #14): 1,000 open games of every kind, random legal moves offered at a fixed rate
through the table (engine, commit, board pictures, thread messages and panels through the
offline Discord), step by step from 10 to 200 moves/s. Per step: moves done per second, p50 and
p99 latency from arrival to published, resident memory. The saturation point is the most moves
per second done at any step. Pictures are drawn in worker processes, as the bot does.

Keys: `load.steps`, `load.saturation_moves_per_s`, `load.p99_ms_at_50`, `memory.mb_1000_open`,
and the same under `load.at_100k_finished.*` for a store that already holds 100k finished games
(inserted directly by bench/store.py, not played).
"""
from __future__ import annotations

import asyncio
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

import rendering
from bot.engine import KINDS
from bot.engine.core import CHANCE, RuleError

OPEN_GAMES = 1000
RATES = (10, 25, 50, 100, 200)
STEP_SECONDS = 4.0
OPTIONS = {"diemen": {"mode": "simulated"}, "slideslam": {"first_player": "random"}}


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def _move(bot, gid: int, rng: random.Random) -> bool:
    """One random legal move in game `gid`, published; False when it was refused or over."""
    row, game = await bot.tables.load(gid)
    actors = [a for a in game.actors() if a != CHANCE]
    if row.status != "active" or not actors:
        return False
    seat = rng.choice(actors)
    moves = game.legal(seat)
    if not moves:
        return False
    try:
        await bot.tables.play(gid, row.players[seat], rng.choice(moves),
                              version=row.version, by=row.players[seat])
    except RuleError:
        return False
    return True


async def run(open_games: int = OPEN_GAMES, rates=RATES, seconds: float = STEP_SECONDS,
              workers: int = 2, finished: int = 0) -> dict[str, Any]:
    from conftest import World, boot
    rng = random.Random(14)
    rendering.use_processes(workers)
    with tempfile.TemporaryDirectory() as tmp:
        if finished:
            from bench.store import _fill, _templates
            from bot.store import Store
            await (await Store.open(Path(tmp) / "load.db")).close()
            _fill(Path(tmp) / "load.db", _templates(), open_games=0, finished=finished)
        fake = await boot(Path(tmp) / "load.db")
        try:
            world = World(fake)
            bot = fake.bot
            players = [world.alice.id, world.bob.id]
            games = []
            for i in range(open_games):
                kind = KINDS[i % len(KINDS)]
                played = await bot.tables.create(kind, players, OPTIONS.get(kind),
                                                 guild_id=world.guild.id,
                                                 channel_id=world.games.id, publish=False,
                                                 names=["Alice", "Bob"])
                games.append(played.row.id)
            memory = _rss_mb()
            steps = []
            for rate in rates:
                latencies: list[float] = []
                done = 0
                tasks = []

                async def one():
                    nonlocal done
                    start = time.perf_counter()
                    if await _move(bot, rng.choice(games), rng):
                        done += 1
                        latencies.append((time.perf_counter() - start) * 1000)

                t0 = time.perf_counter()
                n = int(rate * seconds)
                for k in range(n):
                    delay = t0 + k / rate - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    tasks.append(asyncio.create_task(one()))
                await asyncio.gather(*tasks)
                elapsed = time.perf_counter() - t0
                fake.requests.clear()  # the fake keeps every request; a real gateway does not
                steps.append({"offered_per_s": rate, "done_per_s": round(done / elapsed, 1),
                              "p50_ms": round(_pct(latencies, 50), 1),
                              "p99_ms": round(_pct(latencies, 99), 1),
                              "rss_mb": round(_rss_mb(), 1)})
        finally:
            await fake.stop(check=False)
            rendering.shutdown_processes()
    at_50 = next((s for s in steps if s["offered_per_s"] == 50), steps[-1])
    return {"load.steps": steps,
            "load.saturation_moves_per_s": max(s["done_per_s"] for s in steps),
            "load.p99_ms_at_50": at_50["p99_ms"],
            "memory.mb_1000_open": round(memory, 1)}


def keyed() -> dict[str, Any]:
    out = asyncio.run(run())
    full = asyncio.run(run(finished=100_000))
    out.update({k.replace("load.", "load.at_100k_finished.", 1): v for k, v in full.items()
                if k.startswith("load.")})
    return out


if __name__ == "__main__":
    import json
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    print(json.dumps(keyed(), indent=1))
