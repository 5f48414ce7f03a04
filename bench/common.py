"""Measuring helpers shared by the benchmark modules (medians and rates, never assertions)."""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable

from bot.engine import records
from bot.engine.core import Game


def selfplay_rates(kind: str, games: int, options: dict[str, Any] | None = None,
                   players: int = 2) -> tuple[list[float], list[int], list[Game]]:
    """Moves per second and moves per game over `games` seeded random games, and the games."""
    rates, lengths, finals = [], [], []
    for seed in range(games):
        t0 = time.perf_counter()
        rec, game = records.selfplay(kind, seed, options, players=players)
        rates.append(len(rec.entries) / (time.perf_counter() - t0))
        lengths.append(len(rec.entries))
        finals.append(game)
    return rates, lengths, finals


def calls_per_second(fn: Callable[[], object], seconds: float = 0.3) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - t0)


def midgame(kind: str, seed: int, players: int = 2, fraction: float = 0.5) -> Game:
    """The game part-way through a seeded self-play record."""
    rec, _ = records.selfplay(kind, seed, players=players)
    game = records.start(rec)
    for entry in rec.entries[: int(len(rec.entries) * fraction)]:
        game.apply(records.entry_actor(entry, players), entry["move"])
    return game


def median_ms(fn: Callable[[], object], rounds: int, digits: int = 2) -> float:
    """Median milliseconds of `fn()` over `rounds` calls, after one warm-up call (fonts, caches)."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), digits)


def table_rates(kind: str, tables: dict[str, tuple[int, dict[str, Any]]],
                games: int = 12) -> dict[str, tuple[float, float]]:
    """Per table (name -> (players, options)): the median random legal moves per second over
    `games` seeded self-play games, by the wall clock and by this process's CPU time (on a
    shared machine the wall clock falls with the load; CPU time mostly does not). One
    warm-up game first: the first game of a process pays for imports and empty caches."""
    players, options = next(iter(tables.values()))
    records.selfplay(kind, 10_000, options, players=players)
    out = {}
    for name, (players, options) in tables.items():
        wall, cpu = [], []
        for seed in range(games):
            t0, c0 = time.perf_counter(), time.process_time()
            rec, _ = records.selfplay(kind, seed, options, players=players)
            c1, t1 = time.process_time(), time.perf_counter()
            wall.append(len(rec.entries) / (t1 - t0))
            cpu.append(len(rec.entries) / max(c1 - c0, 1e-9))
        out[name] = (statistics.median(wall), statistics.median(cpu))
    return out


def engine_keys(kind: str, rates: dict[str, tuple[float, float]]) -> dict[str, float]:
    """`engine.<kind>.moves_per_s`: the lowest median over every table (issue #14: at least
    5,000 for every game and player count), the same by CPU time, and each table's own."""
    out = {f"engine.{kind}.moves_per_s": round(min(w for w, _ in rates.values())),
           f"engine.{kind}.moves_per_cpu_s": round(min(c for _, c in rates.values()))}
    out.update({f"engine.{kind}.moves_per_s_{name}": round(w)
                for name, (w, _) in rates.items()})
    return out
