"""Attack and defense totals: (base + kickers) × multiplier.

Seed: "PHASE 2 REVEAL, ATTACK, & DEFEND". One base (the higher if several) and one multiplier
(the higher if several); kickers stack and apply before the multiplier; with no base there is
no attack, and a defense with no base is 0. Super rulings: HARD TO BREAK and PLOT ARMOR add to
the base before the multiplier (only when there is a base); THE TWIST spends its tokens only
when it is the multiplier actually used.

A computation is a plain dict the renderer draws from:
  {"bases": [{"name", "value"}], "base": {"name", "value"} | None,
   "bonuses": [{"name", "value"}], "kickers": [{"name", "value"}],
   "multipliers": [{"name", "value"}], "multiplier": {"name", "value"} | None,
   "total": int, "spends_spoilers": bool}
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from .data import Action

Part = dict[str, Any]


def _pick(parts: list[Part], avoid: str | None = None) -> Part | None:
    """The highest part; on a tie the first listed, or any but `avoid` (keep spoiler
    tokens when another multiplier is as high)."""
    if not parts:
        return None
    top = max(p["value"] for p in parts)
    tied = [p for p in parts if p["value"] == top]
    for p in tied:
        if p["name"] != avoid:
            return p
    return tied[0]


def _total(base: Part | None, bonuses: list[Part], kickers: list[Part],
           mult: Part | None) -> int:
    if base is None:
        return 0
    return (base["value"] + sum(p["value"] for p in bonuses + kickers)) * (
        mult["value"] if mult else 1)


def attack(actions: Iterable[Action], *, action_dice: int, spoilers: int,
           extra_kickers: Sequence[Part] = ()) -> dict[str, Any]:
    """A player's attack from the actions they activated this round."""
    bases: list[Part] = []
    kickers: list[Part] = []
    mults: list[Part] = []
    twist = None
    for a in actions:
        if a.effect == "attack_base":
            bases.append({"name": a.name, "value": a.amount})
        elif a.effect == "attack_kicker":
            kickers.append({"name": a.name, "value": a.amount})
        elif a.effect == "attack_kicker_per_action_die":
            kickers.append({"name": a.name, "value": a.amount * action_dice})
        elif a.effect == "attack_multiplier":
            mults.append({"name": a.name, "value": a.amount})
        elif a.effect == "attack_multiplier_spoilers":
            twist = a.name
            mults.append({"name": a.name, "value": 1 + a.amount * spoilers})
    kickers += [dict(k) for k in extra_kickers]
    base = _pick(bases)
    mult = _pick(mults, avoid=twist)
    return {"bases": bases, "base": base, "bonuses": [], "kickers": kickers,
            "multipliers": mults, "multiplier": mult,
            "total": _total(base, [], kickers, mult),
            "spends_spoilers": base is not None and mult is not None and mult["name"] == twist}


def defense(actions: Iterable[Action], *, locked_in: Sequence[Action], spoilers: int,
            extra_kickers: Sequence[Part] = ()) -> dict[str, Any]:
    """A player's defense from the actions they activated and the lock-ins they hold."""
    bases: list[Part] = []
    kickers: list[Part] = []
    mults: list[Part] = []
    for a in actions:
        if a.effect == "defense_base":
            bases.append({"name": a.name, "value": a.amount})
        elif a.effect == "defense_kicker":
            kickers.append({"name": a.name, "value": a.amount})
        elif a.effect == "defense_multiplier":
            mults.append({"name": a.name, "value": a.amount})
    kickers += [dict(k) for k in extra_kickers]
    base = _pick(bases)
    bonuses: list[Part] = []
    if base is not None:
        for lock in locked_in:
            if lock.ability == "defense_bonus":
                bonuses.append({"name": lock.name, "value": lock.amount})
            elif lock.ability == "plot_armor" and spoilers:
                bonuses.append({"name": lock.name, "value": lock.amount * spoilers})
    mult = _pick(mults)
    return {"bases": bases, "base": base, "bonuses": bonuses, "kickers": kickers,
            "multipliers": mults, "multiplier": mult,
            "total": _total(base, bonuses, kickers, mult), "spends_spoilers": False}


def formula(comp: dict[str, Any]) -> str:
    """'(POW 3 + WIND-UP 1) × DOUBLE TROUBLE 2 = 8', or 'no base'."""
    if comp["base"] is None:
        return "no base"
    parts = [f"{comp['base']['name']} {comp['base']['value']}"]
    parts += [f"{p['name']} {p['value']}" for p in comp["bonuses"] + comp["kickers"]]
    text = " + ".join(parts)
    if comp["multiplier"]:
        text = f"({text}) × {comp['multiplier']['name']} {comp['multiplier']['value']}"
    return f"{text} = {comp['total']}"
