"""How long the Crazy Die-Man board takes to draw: a busy mid-game view, canvas to PNG bytes.

The view comes from real play (simulated mode: Super Sale Banners, customers, knocked banners,
two flick arrows), so the picture is as full as a board gets. One warm-up call first (fonts,
glyph masks); then the median of ROUNDS renders. Most of the time is the shared palette
quantisation in `rendering.picture.to_png`. Measures only; DESIGN.md's target is below 50 ms.

Run: `.venv/bin/python -m bench.render_diemen`.
"""
from __future__ import annotations

import json
from typing import Any

from bench.common import median_ms
from bot.engine.core import CHANCE
from bot.engine.diemen import DieMen
from rendering.diemen import render, render_odds

ROUNDS = 30


def _busy_view() -> dict[str, Any]:
    g = DieMen.new(2, {"mode": "simulated"})
    for line in ("1 banners F1 F2 B1 B3", "2 banners F1 F2 B2 B3", "c roll 1",
                 "1 flick 0", "1 done", "2 flick 1", "2 called F1", "c roll pair 2", "c roll F2",
                 "2 supersale F1", "2 done", "1 flick 1", "1 aim S2", "c roll clean 5",
                 "1 supersale 2", "1 done", "2 flick 0", "2 place F1", "2 done",
                 "1 flick 0", "1 done", "1 customer C1", "1 customer C3",
                 "2 flick 2", "2 aim F2", "c roll miss 3", "2 called B1", "c roll clean 6"):
        who, move = line.split(" ", 1)
        g.apply(CHANCE if who == "c" else int(who) - 1, move)
    return g.view(None)


def bench(rounds: int = ROUNDS) -> dict[str, float]:
    """Median milliseconds per picture (no assertions), and the PNG sizes."""
    view = _busy_view()
    odds = {"band": "A", "distance": 75.0, "called": True, "self_knock": 12,
            "outcomes": {"clean": 33, "pair": 4, "neighbour": 8, "customer": 4, "miss": 39,
                         "off": 12}}
    return {
        "diemen board render ms (median)": median_ms(lambda: render(view), rounds),
        "diemen board PNG KB": round(len(render(view).png) / 1024, 2),
        "diemen odds chart render ms (median)": median_ms(
            lambda: render_odds(odds, "P2:F2", seat=0), rounds),
        "diemen odds chart PNG KB": round(len(render_odds(odds, "P2:F2", seat=0).png) / 1024, 2),
    }


if __name__ == "__main__":
    print(json.dumps(bench(), indent=2))
