"""Slide and Slam engine speed over random self-play (no assertions)."""
from __future__ import annotations

import statistics
import time

from bot.engine import records
from bot.engine.slideslam import SlideSlam


def bench(games: int = 30) -> dict[str, float]:
    rates, lengths = [], []
    for seed in range(games):
        t0 = time.perf_counter()
        rec, _ = records.selfplay("slideslam", seed)
        dt = time.perf_counter() - t0
        rates.append(len(rec.entries) / dt)
        lengths.append(len(rec.entries))
    # legal() on a mid-game position, the call self-play and the bot make most often
    rec, _ = records.selfplay("slideslam", 1)
    g = SlideSlam.new(2, rec.options)
    for entry in rec.entries[: len(rec.entries) // 2]:
        g.apply(records.entry_actor(entry, 2), entry["move"])
    actor = next(a for a in g.actors() if a != "chance")
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.3:
        g.legal(actor)
        n += 1
    legal_rate = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(200):
        SlideSlam.from_json(g.to_json())
    rt = (time.perf_counter() - t0) / 200
    return {
        "slideslam engine moves/s (median)": statistics.median(rates),
        "slideslam moves per self-play game (median)": statistics.median(lengths),
        "slideslam legal() calls/s (mid-game)": legal_rate,
        "slideslam JSON round trip (ms)": rt * 1000,
    }


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v:.1f}")
