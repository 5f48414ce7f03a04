"""KAPLOOM! for the practice opponents: how a position looks to a seat."""
from __future__ import annotations

from typing import Any

# Phase 1 (the roll, the placements) stays behind the screen; Power Up is public.
HIDDEN_PHASES = ("roll", "assign")
NORMAL = {"width": 10, "plies": 6}
EASY = {"width": 4, "plies": 3}
# hard plays the normal choice here for now: 4 of 4 games against normal hit the 4,000-move
# cap (ties broken by a fixed order picked a Power Up step that changes nothing, again and
# again); the ties are now broken by the rng, the search itself is not measured yet.
HARD = {"budget": 0, "width": 4, "plies": 8}
GREEDY_WIDTH = 4


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Health decides (a knock-out, or more health at the round limit): ours and our ally's
    against the other side's, with a knocked-out player a heavy loss."""
    players = view.get("players") or []
    if seat >= len(players):
        return 0.0
    me = players[seat]
    team = me.get("team", me.get("side"))
    value = 0.0
    for p in players:
        v = float(p.get("health", 0)) - (15.0 if p.get("ko") else 0.0)
        same = p.get("team", p.get("side")) == team
        value += v if same else -v
    return value


def evaluate_state(g: Any, seat: int) -> float:
    team = g.seats[seat]["team"]
    value = 0.0
    for p in g.seats:
        v = float(p["health"]) - (15.0 if p["ko"] else 0.0)
        value += v if p["team"] == team else -v
    return value
