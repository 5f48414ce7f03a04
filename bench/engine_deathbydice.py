"""Death by Dice engine speed over random self-play (no assertions)."""
from __future__ import annotations

import random
import statistics

from bench.common import calls_per_second, engine_keys, midgame, selfplay_rates, table_rates
from bot.engine.core import CHANCE
from bot.engine.deathbydice import DeathByDice

KIND = "deathbydice"
# Every table the game seats: duels and free-for-alls of 2-6, Bosses & Minions of 2-4.
TABLES = [(n, {}) for n in range(2, 7)] + [(n, {"mode": "boss"}) for n in range(2, 5)]


def keyed() -> dict[str, float]:
    """`engine.deathbydice.moves_per_s`: the lowest over every table (issue #14's goal is
    5,000 or more), the same by CPU time, and each table's own figure."""
    tables = {f"{players}p" + ("_boss" if options else ""): (players, options)
              for players, options in TABLES}
    return engine_keys(KIND, table_rates(KIND, tables))


def bench(games: int = 30) -> dict[str, float]:
    rates, lengths, _ = selfplay_rates(KIND, games)
    boss_rates, _, _ = selfplay_rates(KIND, games // 2, {"mode": "boss"})
    # legal() at an attacker's declaration mid-game: the largest list the engine builds
    g = midgame(KIND, 1)
    rng = random.Random(0)
    while g.result is None and g.stage != "declare":
        actor = g.actors()[0]
        g.apply(actor, g.chance().sample(rng) if actor == CHANCE else g.legal(actor)[0])
    actor = g.actors()[0]
    legal_rate = calls_per_second(lambda: g.legal(actor))
    rt = 1 / calls_per_second(lambda: DeathByDice.from_json(g.to_json()))
    text_us = 1e6 / calls_per_second(lambda: g.text(None))
    return {
        f"{KIND} engine moves/s (median)": statistics.median(rates),
        f"{KIND} engine moves/s, Bosses & Minions (median)": statistics.median(boss_rates),
        f"{KIND} moves per self-play match (median)": statistics.median(lengths),
        f"{KIND} legal() calls/s (declaration, mid-game)": legal_rate,
        f"{KIND} JSON round trip (ms)": rt * 1000,
        f"{KIND} view+text (µs)": text_us,
    }


if __name__ == "__main__":
    for k, v in {**bench(), **keyed()}.items():
        print(f"{k}: {v:.1f}")
