"""Crazy Die-Man engine speed over random self-play in both modes (no assertions).

Also the calls the bot makes most: `legal()` and `view()` (which computes the shown odds of
every target) in a simulated flick, and a JSON round trip. Run:
`.venv/bin/python -m bench.engine_diemen`.
"""
from __future__ import annotations

import statistics
import time

from bench.common import calls_per_second, engine_keys, selfplay_rates, table_rates
from bot.engine import records
from bot.engine.diemen import DieMen

KIND = "diemen"
TABLES = {"physical": (2, {"mode": "physical"}), "simulated": (2, {"mode": "simulated"})}


def keyed() -> dict[str, float]:
    """`engine.diemen.moves_per_s`: the lower of the two modes (issue #14: at least 5,000)."""
    return engine_keys(KIND, table_rates(KIND, TABLES))


def bench(games: int = 30) -> dict[str, float]:
    out: dict[str, float] = {}
    all_rates = []
    for mode in ("physical", "simulated"):
        rates, lengths, finals = selfplay_rates("diemen", games, {"mode": mode})
        turns = [g.turn for g in finals]
        all_rates += rates
        out[f"diemen {mode} moves per self-play game (median)"] = statistics.median(lengths)
        out[f"diemen {mode} turns per self-play game (median)"] = statistics.median(turns)
    out["diemen engine moves/s (median)"] = statistics.median(all_rates)
    # The same play counted in CPU time: what the engine costs when other work shares the
    # machine (wall-clock rates fall with the load average; this one does not).
    moves, t0 = 0, time.process_time()
    for mode in ("physical", "simulated"):
        for seed in range(games):
            rec, _ = records.selfplay("diemen", seed, {"mode": mode})
            moves += len(rec.entries)
    out["diemen engine moves per CPU second"] = moves / (time.process_time() - t0)
    # A simulated flick waiting for its aim: the richest legal() and view().
    g = DieMen.new(2, {"mode": "simulated"})
    for actor, move in ((0, "banners F1 F2 B2 B3"), (1, "banners F1 F3 B1 B3"),
                        ("chance", "roll 1"), (0, "flick 2")):
        g.apply(actor, move)
    out["diemen legal() calls/s (simulated flick)"] = calls_per_second(lambda: g.legal(0))
    out["diemen view() calls/s (with odds)"] = calls_per_second(lambda: g.view(None))
    out["diemen JSON round trip (ms)"] = 1000 / calls_per_second(
        lambda: DieMen.from_json(g.to_json()))
    return out


if __name__ == "__main__":
    for k, v in {**bench(), **keyed()}.items():
        print(f"{k}: {v:.1f}")
