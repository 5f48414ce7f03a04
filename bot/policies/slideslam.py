"""Slide and Slam for the practice opponents: how a position looks to a seat."""
from __future__ import annotations

from typing import Any

from bot.engine.slideslam.data import NORMAL_DAMAGE, SUPER_DAMAGE, SUPER_SLAM_HEALTH

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


def must(g: Any, seat: int, legal: list[str]) -> str | None:
    """The slam no bot passes up: one that destroys an enemy die. A slam costs the slammer
    nothing (its turn ends either way), and the bots used to `end` instead now and then (the
    issue #28 greedy check: 20 kills passed up in 2,617 slam steps). The slam destroying the
    most dice, then dealing the most damage; predicted (the Power Token spent, so no Bend can
    save a die) when it wins the game outright."""
    if g.outcome() is not None or getattr(g, "phase", None) != "slam":
        return None
    foe_dice = [k for k, d in g.dice.items() if d["owner"] != seat and d["square"]]
    best, best_key = None, (0, 0)
    for m in legal:
        words = m.split()
        if words[0] != "slam" or "predict" in words:
            continue
        occ = {d["square"]: k for k, d in g.dice.items() if d["square"] is not None}
        k = occ.get(words[1])
        if k is None:
            continue
        dmg = SUPER_DAMAGE if g.dice[k]["health"] == SUPER_SLAM_HEALTH else NORMAL_DAMAGE
        targets = g._targets(k)
        kills = sum(1 for t in targets if g.dice[t]["health"] <= dmg)
        key = (kills, sum(min(dmg, g.dice[t]["health"]) for t in targets))
        if kills and key > best_key:
            best, best_key = m, key
            if kills == len(foe_dice) and f"{m} predict" in legal:
                best = f"{m} predict"
    return best


# --- greedy (the baseline): a turn's steps judged as what they lead to ----------------------------

def greedy_value(g: Any, seat: int) -> float | None:
    """A Slide and Slam position for the one-ply greedy baseline. A turn is a slide then a
    slam, and a slam with targets waits for the defender's answer: scored as they stand, a
    slide and a declared slam look like nothing at all. So a declared slam is scored once the
    defender passes (its damage), and a slide by the best of the slams (or `end`) it allows."""
    from . import score
    from .seen import clone, play
    if g.outcome() is not None:
        return score(g, seat)
    if g.phase == "response" and g.pending and g.pending["attacker"] == seat:
        t = clone(g)
        play(t, 1 - seat, "pass")
        return score(t, seat)
    if g.phase == "slam" and seat in g.actors():
        best = None
        for m in g.legal(seat):
            if m.split()[0] not in ("slam", "end"):
                continue
            t = clone(g)
            play(t, seat, m)
            v = greedy_value(t, seat) if t.phase == "response" else score(t, seat)
            best = v if best is None else max(best, v)
        return best
    return None
