"""The simulated flick's odds: the rulings' table as data, and the one function that reads it.

Rulings, "Simulated flick". `FLICK_TABLE` is the printed table; `flick_odds()` turns it into the
chances of one particular flick (its distance band, Called Shot or not, and what is actually on
the floor around the target). The engine's chance draw is built from `flick_odds()` and the
Discord layer shows `flick_odds()` before the player confirms, so what is shown is what is
rolled. The model and its reasoning: docs/diemen-flick-model.md.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

# The outcomes of one simulated flick, in the table's column order.
OUTCOMES = ("clean", "pair", "neighbour", "customer", "miss", "off")

OUTCOME_NAMES = {
    "clean": "clean hit",
    "pair": "target + neighbouring banner",
    "neighbour": "neighbour only",
    "customer": "knocks a customer",
    "miss": "miss on the floor",
    "off": "off the floor",
}

# Points per 100 flicks, per distance band (distance from the flicker's Stand to the target
# spot, in floor units). "called": points a Called Shot moves from "miss" to "clean".
# "max": the band's upper distance bound (A: d < 85, B: 85 <= d <= 100, C: d > 100).
FLICK_TABLE: tuple[dict[str, Any], ...] = (
    {"band": "A", "distance": "under 85", "max": 85.0,
     "clean": 18, "pair": 4, "neighbour": 8, "customer": 4, "miss": 54, "off": 12, "called": 15},
    {"band": "B", "distance": "85-100", "max": 100.0,
     "clean": 11, "pair": 3, "neighbour": 8, "customer": 4, "miss": 60, "off": 14, "called": 8},
    {"band": "C", "distance": "over 100", "max": None,
     "clean": 6, "pair": 2, "neighbour": 7, "customer": 4, "miss": 65, "off": 16, "called": 5},
)

# While the flicker's Stand carries standing Super Sale Banners, each flick knocks one of them
# off with this chance (points per 100): a knock "by other means", +6.
SELF_KNOCK_POINTS = 12


def band_of(distance: float) -> dict[str, Any]:
    """The table row for a distance: A under 85, B from 85 to 100, C over 100."""
    if distance < FLICK_TABLE[0]["max"]:
        return FLICK_TABLE[0]
    if distance <= FLICK_TABLE[1]["max"]:
        return FLICK_TABLE[1]
    return FLICK_TABLE[2]


def flick_odds(distance: float | None, *, called: bool = False, target_standing: bool = True,
               neighbours: bool = True, customers: bool = True,
               super_sale: bool = False, neighbour_banners: bool | None = None
               ) -> dict[str, Any]:
    """The chances of one simulated flick (see `_flick_odds`); a fresh dict each call."""
    if called and not target_standing:
        raise ValueError("a Called Shot names a standing banner")
    if neighbour_banners is None:
        neighbour_banners = neighbours
    odds = _flick_odds(distance, called, target_standing, neighbours, customers, super_sale,
                       neighbour_banners)
    return dict(odds, outcomes=dict(odds["outcomes"]))


@lru_cache(maxsize=1024)
def _flick_odds(distance: float | None, called: bool, target_standing: bool, neighbours: bool,
                customers: bool, super_sale: bool, neighbour_banners: bool
                ) -> dict[str, Any]:
    """The chances of one simulated flick, in points per 100 (they sum to 100).

    distance: floor units from the flicker's Stand to the target spot; None = "flick at the
      middle" (no target: nothing can fall but your own Super Sale Banner).
    called: a Called Shot at the target (it must hold a standing banner).
    target_standing: the target spot holds a standing banner (else a "clean hit" hits nothing
      and "target + neighbour" is a neighbour only).
    neighbours: some neighbouring spot of the target is occupied (banner, customer, a Stand
      carrying standing Super Sale Banners); else "neighbour only" is a miss and "target +
      neighbour" is a clean hit.
    customers: the target side has a customer; else "customer" is a miss.
    super_sale: the flicker's Stand carries standing Super Sale Banners (the 12 % self-knock).
    neighbour_banners: some neighbouring spot holds a standing *banner* (on the floor, or Super
      Sale Banners on the Stand); None = same as `neighbours`. The rulings' outcome is "hit
      target and a neighbouring banner": a customer next to the target is not that neighbour,
      so without a neighbouring banner "target + neighbour" is a clean hit (our ruling).

    Returns {"band", "distance", "called", "outcomes": {outcome: points}, "self_knock": points}.
    """
    self_knock = SELF_KNOCK_POINTS if super_sale else 0
    if distance is None:
        pts = {o: 0 for o in OUTCOMES}
        pts["miss"] = 100
        return {"band": None, "distance": None, "called": False, "outcomes": pts,
                "self_knock": self_knock}
    row = band_of(distance)
    pts = {o: int(row[o]) for o in OUTCOMES}
    if called:
        # A Called Shot is aimed more carefully: the called column moves from miss to clean.
        pts["clean"] += row["called"]
        pts["miss"] -= row["called"]
    if not target_standing:
        # Nothing on the target: "target + neighbour" can only knock the neighbour.
        pts["neighbour"] += pts["pair"]
        pts["miss"] += pts["clean"]
        pts["pair"] = pts["clean"] = 0
    elif not neighbour_banners:
        # No banner beside the target: the pair is the target alone.
        pts["clean"] += pts["pair"]
        pts["pair"] = 0
    if not neighbours:
        pts["miss"] += pts["neighbour"]
        pts["neighbour"] = 0
    if not customers:
        pts["miss"] += pts["customer"]
        pts["customer"] = 0
    return {"band": row["band"], "distance": round(distance, 1), "called": called,
            "outcomes": pts, "self_knock": self_knock}


def odds_text(odds: dict[str, Any]) -> str:
    """`band A (79.1): clean hit 33%, target + neighbour 4%, ...` for messages and menus."""
    parts = [f"{OUTCOME_NAMES[o]} {p}%" for o, p in odds["outcomes"].items() if p]
    if odds["self_knock"]:
        parts.append(f"and {odds['self_knock']}% to knock a Super Sale Banner off your Stand")
    head = ("at the middle" if odds["band"] is None
            else f"band {odds['band']} ({odds['distance']} units)")
    return head + ": " + ", ".join(parts)


def knock_chance(odds: dict[str, Any]) -> int:
    """Points per 100 that the flick knocks something of the rival's over (a hit, a neighbour
    or a customer)."""
    o = odds["outcomes"]
    return o["clean"] + o["pair"] + o["neighbour"] + o["customer"]


def target_chance(odds: dict[str, Any]) -> int:
    """Points per 100 that the target itself falls (clean hit or target + neighbour)."""
    o = odds["outcomes"]
    return o["clean"] + o["pair"]


def odds_words(odds: dict[str, Any], target: str = "the target") -> list[str]:
    """The chances in a player's words, one short sentence each, most likely first:
    "33% chance to knock F2 alone", "11% chance to knock a neighbouring banner instead"."""
    o = odds["outcomes"]
    words = {
        "clean": f"to knock {target} alone",
        "pair": f"to knock {target} and a neighbouring banner",
        "neighbour": f"to miss {target} but knock something next to it",
        "customer": "to knock a customer (the roll counts against you)",
        "miss": "to land on the floor and knock nothing",
        "off": "to fly off the floor (counts for nothing)",
    }
    if odds["band"] is None:
        out = ["Nothing of your rival's can fall: the middle is a safe throw"]
    else:
        out = [f"{o[k]}% chance {words[k]}" for k in OUTCOMES if o[k]]
    if odds["self_knock"]:
        out.append(f"and {odds['self_knock']}% chance to knock a Super Sale Banner off your own "
                   "Stand (+6 to you)")
    return out
