"""Slide and Slam engine speed over random self-play (no assertions).

`engine.slideslam.moves_per_s` is the lowest, over the tables below, of the median random
legal moves per second (issue #14: at least 5,000); `..._<table>` per table and
`engine.slideslam.moves_per_cpu_s` the same by CPU time."""
from __future__ import annotations

import statistics

from bench.common import calls_per_second, engine_keys, midgame, selfplay_rates, table_rates
from bot.engine.slideslam import SlideSlam

KIND = "slideslam"
# Two players always; the printed board, the largest board, and the stun variant.
TABLES = {
    "2p": (2, {}),
    "2p_9x10": (2, {"columns": 9, "rows": 10}),
    "2p_stun": (2, {"stun": True}),
}


def keyed() -> dict[str, float]:
    return engine_keys(KIND, table_rates(KIND, TABLES))


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
    for k, v in {**bench(), **keyed()}.items():
        print(f"{k}: {v:.1f}")
