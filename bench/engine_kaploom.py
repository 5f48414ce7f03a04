"""KAPLOOM! engine speed over random self-play (no assertions)."""
from __future__ import annotations

import statistics

from bench.common import calls_per_second, selfplay_rates
from bot.engine import records
from bot.engine.kaploom import Kaploom

KIND = "kaploom"


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


def bench(games: int = 10) -> dict[str, float]:
    rates, lengths, _ = selfplay_rates(KIND, games)
    rates2, _, _ = selfplay_rates(KIND, max(2, games // 3), {"mode": "2v2"}, 4)
    rates_s, _, _ = selfplay_rates(KIND, max(2, games // 3), {"supers": "Tough Nut,Victor Kane"})
    g, actor = _late_phase1({"mode": "2v2"}, 4)
    size = len(g.legal(actor))
    legal_rate = calls_per_second(lambda: g.legal(actor))
    rt = 1000 / calls_per_second(lambda: Kaploom.from_json(g.to_json()))
    text_us = 1e6 / calls_per_second(lambda: g.text(None))
    return {
        f"{KIND} engine moves/s (median)": statistics.median(rates),
        f"{KIND} engine moves/s, 2 vs 2 (median)": statistics.median(rates2),
        f"{KIND} engine moves/s, supers (median)": statistics.median(rates_s),
        f"{KIND} moves per self-play game (median)": statistics.median(lengths),
        f"{KIND} legal() calls/s (2 vs 2, late Phase 1)": legal_rate,
        f"{KIND} legal() list size (2 vs 2, late Phase 1)": float(size),
        f"{KIND} JSON round trip (ms)": rt,
        f"{KIND} view+text (µs)": text_us,
    }


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key}: {value:,.1f}")
