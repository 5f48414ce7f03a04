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
