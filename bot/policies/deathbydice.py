"""Death by Dice for the practice opponents: how a position looks to a seat."""
from __future__ import annotations

from typing import Any

NORMAL = {"samples": 2, "plies": 6}
EASY = {"samples": 1}
HARD = {"budget": 80}


def _side_of(view: dict[str, Any], seat: int) -> int | None:
    for i, s in enumerate(view.get("sides") or []):
        if seat in (s.get("seats") or []):
            return i
    return None


def _standing(view: dict[str, Any], side: int) -> float:
    total = 0.0
    names = set((view.get("sides") or [])[side].get("fighters") or [])
    for f in view.get("fighters") or []:
        if f.get("id") not in names:
            continue
        for c in f.get("board") or []:
            if c.get("state") == "standing" and c.get("value") is not None:
                total += 1.0 + float(c["value"])
    return total


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Combats won weigh most; inside a combat, the standing dice (a combat is lost when
    they are gone, and judged on their total at the turn limit)."""
    mine = _side_of(view, seat)
    if mine is None:
        return 0.0
    sides = view.get("sides") or []
    score = view.get("score") or [0] * len(sides)
    value = 0.0
    for i in range(len(sides)):
        v = 60.0 * (score[i] if i < len(score) else 0) + _standing(view, i)
        value += v if i == mine else -v / max(1, len(sides) - 1)
    return value


def evaluate_state(g: Any, seat: int) -> float:
    mine = g.fighters[[f["seat"] for f in g.fighters].index(seat)]["side"]
    n = len(g.sides)
    value = 0.0
    for i, side in enumerate(g.sides):
        standing = 0.0
        for fi in side["fighters"]:
            for v in (g.fighters[fi]["values"] or {}).values():
                if v is not None:
                    standing += 1.0 + float(v)
        v = 60.0 * g.score[i] + standing
        value += v if i == mine else -v / max(1, n - 1)
    return value
