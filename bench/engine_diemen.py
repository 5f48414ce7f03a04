"""Crazy Die-Man engine speed over random self-play in both modes (no assertions).

Also the calls the bot makes most: `legal()` and `view()` (which computes the shown odds of
every target) in a simulated flick, and a JSON round trip. Run:
`.venv/bin/python -m bench.engine_diemen`.
"""
from __future__ import annotations

import statistics
import time

from bot.engine import records
from bot.engine.diemen import DieMen


def _rate(fn, seconds: float = 0.3) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - t0)


def bench(games: int = 30) -> dict[str, float]:
    out: dict[str, float] = {}
    all_rates = []
    for mode in ("physical", "simulated"):
        rates, lengths, turns = [], [], []
        for seed in range(games):
            t0 = time.perf_counter()
            rec, g = records.selfplay("diemen", seed, {"mode": mode})
            dt = time.perf_counter() - t0
            rates.append(len(rec.entries) / dt)
            lengths.append(len(rec.entries))
            turns.append(g.turn)
        all_rates += rates
        out[f"diemen {mode} moves per self-play game (median)"] = statistics.median(lengths)
        out[f"diemen {mode} turns per self-play game (median)"] = statistics.median(turns)
    out["diemen engine moves/s (median)"] = statistics.median(all_rates)
    # A simulated flick waiting for its aim: the richest legal() and view().
    g = DieMen.new(2, {"mode": "simulated"})
    for actor, move in ((0, "banners F1 F2 B2 B3"), (1, "banners F1 F3 B1 B3"),
                        ("chance", "roll 1"), (0, "flick 2")):
        g.apply(actor, move)
    out["diemen legal() calls/s (simulated flick)"] = _rate(lambda: g.legal(0))
    out["diemen view() calls/s (with odds)"] = _rate(lambda: g.view(None))
    t0 = time.perf_counter()
    for _ in range(200):
        DieMen.from_json(g.to_json())
    out["diemen JSON round trip (ms)"] = (time.perf_counter() - t0) / 200 * 1000
    return out


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v:.1f}")
