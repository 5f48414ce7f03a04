"""How long a Slide and Slam board takes to draw, view to PNG bytes, and how big it is.

Three pictures the bot sends often: the board with a pending Super Slam (the busiest: a tinted
cross, five dice marked, a slide arrow, three footer lines), a mid-game board after a slam,
and a player's private placement preview. Views come from the recorded Super Slam game played
through the real engine. One warm-up call first (fonts, shape caches). No assertions: DESIGN.md
sets a target below 50 ms a picture, and the figure depends on the machine.

Run: `.venv/bin/python -m bench.render_slideslam`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.common import median_ms
from bot.engine import records
from bot.engine.records import Record
from bot.engine.slideslam import GAME
from rendering.slideslam import render

ROUNDS = 30
RECORD = (Path(__file__).resolve().parents[1] / "tests" / "records" / "slideslam"
          / "super_slam_sweep.json")


def _views() -> dict[str, dict[str, Any]]:
    rec = Record.from_json(json.loads(RECORD.read_text()))
    g = records.start(rec)
    views = []
    for entry in rec.entries:
        g.apply(records.entry_actor(entry, 2), entry["move"])
        views.append(g.view(None))
    placing = GAME.new(2)
    placing.apply(0, "place a1=6 b2=5 c3=4")
    return {"board, pending Super Slam": views[8], "board, after a slam": views[9],
            "placement preview": placing.view(0)}


def bench(rounds: int = ROUNDS) -> dict[str, float]:
    """Median milliseconds per picture for each view, and the size of the busiest PNG."""
    views = _views()
    result = {f"slideslam {name} render ms (median)": median_ms(lambda: render(view), rounds, 3)
              for name, view in views.items()}
    busiest = render(views["board, pending Super Slam"])
    result["slideslam board PNG KB"] = round(len(busiest.png) / 1024, 2)
    return result


if __name__ == "__main__":
    print(json.dumps(bench(), indent=2))
