"""TradeShowdown for the practice opponents: how a position looks to a seat."""
from __future__ import annotations

from typing import Any

# A dice choice judged on one roll is a coin toss: three play-outs a choice, fewer choices.
NORMAL = {"samples": 3, "width": 24}

# The window closes with every plan shown (sets, claw, intimidation, combo set-asides). With
# no attack to slash (more often without Tag Team) it leads straight into the next round's
# secret dice choice, so leaving it is the reveal (bot/policies/seen.py).
CLOSING_PHASES = ("window",)

def _strength(f: dict[str, Any]) -> float:
    # A slash on a card is a step towards losing it; a lost card is a big step; losing all
    # of them ends the game for that seat.
    out = sum(1 for c in f.get("cards", []) if c.get("out"))
    return -float(f.get("slashes_taken", 0)) - 8.0 * out - (0.0 if f.get("standing", True)
                                                             else 60.0)


def evaluate(view: dict[str, Any], seat: int) -> float:
    fighters = view.get("fighters") or []
    if not fighters:
        return 0.0
    mine = _strength(fighters[seat])
    others = [_strength(f) for i, f in enumerate(fighters) if i != seat]
    # The judges (and the last one standing) compare us with the best of the others.
    return mine - max(others) if others else mine


def evaluate_state(g: Any, seat: int) -> float:
    def strength(s: dict[str, Any]) -> float:
        slashes = sum(sum(c["slashes"]) for c in s["cards"])
        out = sum(1 for c in s["cards"] if c["out"])
        return -float(slashes) - 8.0 * out - (60.0 if s["out"] else 0.0)
    mine = strength(g.seats[seat])
    others = [strength(s) for i, s in enumerate(g.seats) if i != seat]
    return mine - max(others) if others else mine

# The dice choice and the post-roll plan are the game, and both are secret steps: the search
# samples the rivals' choices and plays the round out (roll, plans, attacks) with greedy turns.
HARD = {"budget": 4, "width": 5, "plies": 30, "secret_search": True, "round_stop": False,
        "confidence": 0.0}
GREEDY_WIDTH = 6
