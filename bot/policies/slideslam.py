"""Slide and Slam for the practice opponents: how a position looks to a seat."""
from __future__ import annotations

from typing import Any

NORMAL = {"width": 24, "plies": 8}
HARD = {"budget": 2, "width": 6, "plies": 30, "confidence": 0.0}


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Health on the board counts, and a die still standing counts more than its pips: a
    side with more dice has more slams left."""
    score = 0.0
    for d in view.get("dice") or []:
        w = d["health"] + 2.0
        score += w if d["owner"] == seat else -w
    return score


def evaluate_state(g: Any, seat: int) -> float:
    """The same score read straight from a simulated game (a view costs a millisecond here: it
    computes every die's reach)."""
    score = 0.0
    for d in g.dice.values():
        if d["square"] is None or d["health"] <= 0:
            continue
        w = d["health"] + 2.0
        score += w if d["owner"] == seat else -w
    return score
