"""Death by Dice engine speed over random self-play (no assertions)."""
from __future__ import annotations

import random
import statistics
import time

from bot.engine import records
from bot.engine.core import CHANCE
from bot.engine.deathbydice import DeathByDice

KIND = "deathbydice"


def _rates(games: int, options: dict, players: int) -> tuple[list[float], list[int]]:
    rates, lengths = [], []
    for seed in range(games):
        t0 = time.perf_counter()
        rec, _ = records.selfplay(KIND, seed, options, players=players)
        dt = time.perf_counter() - t0
        rates.append(len(rec.entries) / dt)
        lengths.append(len(rec.entries))
    return rates, lengths


def bench(games: int = 30) -> dict[str, float]:
    rates, lengths = _rates(games, {}, 2)
    boss_rates, _ = _rates(games // 2, {"mode": "boss"}, 2)
    # legal() at an attacker's declaration mid-game: the largest list the engine builds
    rec, _ = records.selfplay(KIND, 1)
    g = DeathByDice.new(2, rec.options)
    for entry in rec.entries[: len(rec.entries) // 2]:
        g.apply(records.entry_actor(entry, 2), entry["move"])
    rng = random.Random(0)
    while g.result is None and g.stage != "declare":
        actor = g.actors()[0]
        g.apply(actor, g.chance().sample(rng) if actor == CHANCE else g.legal(actor)[0])
    actor = g.actors()[0]
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.3:
        g.legal(actor)
        n += 1
    legal_rate = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(200):
        DeathByDice.from_json(g.to_json())
    rt = (time.perf_counter() - t0) / 200
    t0 = time.perf_counter()
    for _ in range(200):
        g.text(None)
    text_us = (time.perf_counter() - t0) / 200 * 1e6
    return {
        f"{KIND} engine moves/s (median)": statistics.median(rates),
        f"{KIND} engine moves/s, Bosses & Minions (median)": statistics.median(boss_rates),
        f"{KIND} moves per self-play match (median)": statistics.median(lengths),
        f"{KIND} legal() calls/s (declaration, mid-game)": legal_rate,
        f"{KIND} JSON round trip (ms)": rt * 1000,
        f"{KIND} view+text (µs)": text_us,
    }


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v:.1f}")
