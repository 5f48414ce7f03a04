"""Slide and Slam engine speed over random self-play (no assertions)."""
from __future__ import annotations

import statistics

from bench.common import calls_per_second, midgame, selfplay_rates
from bot.engine.slideslam import SlideSlam


def bench(games: int = 30) -> dict[str, float]:
    rates, lengths, _ = selfplay_rates("slideslam", games)
    # legal() on a mid-game position, the call self-play and the bot make most often
    g = midgame("slideslam", 1)
    actor = next(a for a in g.actors() if a != "chance")
    return {
        "slideslam engine moves/s (median)": statistics.median(rates),
        "slideslam moves per self-play game (median)": statistics.median(lengths),
        "slideslam legal() calls/s (mid-game)": calls_per_second(lambda: g.legal(actor)),
        "slideslam JSON round trip (ms)":
            1000 / calls_per_second(lambda: SlideSlam.from_json(g.to_json())),
    }


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v:.1f}")
