"""TradeShowdown engine speed over random self-play (no assertions).

Three table sizes and the options on (the defaults) and off; also the choose-phase legal()
call (the biggest list: every dice choice, times the targets with 3+ players) and a JSON round
trip mid-fight. Run: `.venv/bin/python -m bench.engine_tradeshowdown`.
"""
from __future__ import annotations

import statistics
import time

from bot.engine import records
from bot.engine.tradeshowdown import TradeShowdown

OFF = {"multiple_attacks": False, "intimidate": False, "tag_team": False, "combos": False}


def bench(games: int = 8) -> dict[str, float]:
    rates, lengths, defeats = [], [], 0
    for players in (2, 4, 6):
        for options in ({}, OFF):
            for seed in range(games):
                t0 = time.perf_counter()
                rec, g = records.selfplay("tradeshowdown", seed, options, players=players)
                dt = time.perf_counter() - t0
                rates.append(len(rec.entries) / dt)
                lengths.append(len(rec.entries))
                defeats += "judges" not in g.outcome().reason
    g = TradeShowdown.new(6)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.3:
        g.legal(0)
        n += 1
    legal_rate = n / (time.perf_counter() - t0)
    rec, _ = records.selfplay("tradeshowdown", 1, players=4)
    mid = TradeShowdown.new(4, rec.options)
    for entry in rec.entries[: len(rec.entries) // 2]:
        mid.apply(records.entry_actor(entry, 4), entry["move"])
    t0 = time.perf_counter()
    for _ in range(200):
        TradeShowdown.from_json(mid.to_json())
    rt = (time.perf_counter() - t0) / 200
    return {
        "tradeshowdown engine moves/s (median)": statistics.median(rates),
        "tradeshowdown moves per self-play game (median)": statistics.median(lengths),
        "tradeshowdown self-play fights ended by a defeat (%)": 100 * defeats / len(rates),
        "tradeshowdown legal() calls/s (6 players, choosing dice)": legal_rate,
        "tradeshowdown JSON round trip (ms)": rt * 1000,
    }


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v:.1f}")
