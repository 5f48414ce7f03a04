"""Crazy Die-Man for the practice opponents: how a position looks to a seat. The bot plays
simulated flicks only (in physical mode it cannot flick a die)."""
from __future__ import annotations

from typing import Any

NORMAL = {"samples": 3, "plies": 12}


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Property Damage is what loses (24 and you are out): less of it for us, more for them.
    Banners still up on our floor are damage not yet taken."""
    sides = view.get("sides") or []
    value = 0.0
    for i, s in enumerate(sides):
        up = sum(1 for b in s.get("banners") or [] if b.get("up"))
        v = -float(s.get("damage", 0)) + 0.5 * up + 2.0 * len(s.get("customers") or [])
        value += v if i == seat else -v
    return value


def evaluate_state(g: Any, seat: int) -> float:
    value = 0.0
    for i, s in enumerate(g.floor["sides"]):
        up = sum(1 for b in s["banners"] if b["up"])
        v = -float(s["damage"]) + 0.5 * up + 2.0 * len(s["customers"])
        value += v if i == seat else -v
    return value
