"""KAPLOOM! engine speed over random self-play (no assertions).

`engine.kaploom.moves_per_s` is the lowest, over every table, of the median random legal moves
per second (issue #14: at least 5,000 for every player count); `..._<table>` per table and
`engine.kaploom.moves_per_cpu_s` the same by CPU time. Also the biggest legal() call (2 vs 2,
late in Phase 1) and a JSON round trip. Run: `.venv/bin/python -m bench.engine_kaploom`.
"""
from __future__ import annotations

import functools
import statistics

from bench.common import calls_per_second, engine_keys, table_rates
from bot.engine import records
from bot.engine.kaploom import Kaploom

KIND = "kaploom"
# Every way the game seats: a duel (2 players) and 2 vs 2 (4), without and with super boards.
TABLES = {
    "duel": (2, {}),
    "duel_supers": (2, {"supers": "Tough Nut,Victor Kane"}),
    "2v2": (4, {"mode": "2v2"}),
    "2v2_supers": (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"}),
}


@functools.cache
def rates() -> dict[str, tuple[float, float]]:
    """Measured once per process: `bench()` and `keyed()` report the same runs."""
    return table_rates(KIND, TABLES)


def keyed() -> dict[str, float]:
    return engine_keys(KIND, rates())


def _late_phase1(options: dict, players: int) -> tuple[Kaploom, int]:
    """A Phase 1 position late in a self-play game (many dice: the biggest legal lists)."""
    rec, _ = records.selfplay(KIND, 3, options, players=players)
    g = Kaploom.new(players, rec.options)
    best: tuple[Kaploom, int] | None = None
    for entry in rec.entries:
        actor = records.entry_actor(entry, players)
        rolling = g.stage == "roll"
        g.apply(actor, entry["move"])
        if rolling and g.result is None:        # just rolled: nothing placed yet
            best = (g.copy(), 0)
    assert best is not None
    return best


def bench() -> dict[str, float]:
    measured = rates()
    lengths = [len(records.selfplay(KIND, seed)[0].entries) for seed in range(6)]
    g, actor = _late_phase1({"mode": "2v2"}, 4)
    size = len(g.legal(actor))
    legal_rate = calls_per_second(lambda: g.legal(actor))
    rt = 1000 / calls_per_second(lambda: Kaploom.from_json(g.to_json()))
    text_us = 1e6 / calls_per_second(lambda: g.text(None))
    return {
        f"{KIND} engine moves/s (median)": measured["duel"][0],
        f"{KIND} engine moves/s, 2 vs 2 (median)": measured["2v2"][0],
        f"{KIND} engine moves/s, supers (median)": measured["duel_supers"][0],
        f"{KIND} moves per self-play game (median)": statistics.median(lengths),
        f"{KIND} legal() calls/s (2 vs 2, late Phase 1)": legal_rate,
        f"{KIND} legal() list size (2 vs 2, late Phase 1)": float(size),
        f"{KIND} JSON round trip (ms)": rt,
        f"{KIND} view+text (µs)": text_us,
    }


if __name__ == "__main__":
    for key, value in {**bench(), **keyed()}.items():
        print(f"{key}: {value:,.1f}")
