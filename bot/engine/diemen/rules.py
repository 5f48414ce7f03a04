"""The floor as data and the rules that change it: knocking things over and blaming damage.

The floor is one JSON-native dict (it lives in the game state):
    {"sides": [side_P1, side_P2], "supply": customers left in the shared supply}
    side = {"damage": Property Damage, "stand": "S1"|"S2"|"S3",
            "banners": [{"at": "F1".."B3" | "stand", "up": bool}, ...4],
            "customers": ["C1", ...]}
A banner with "at": "stand" is a Super Sale Banner; a knocked banner ("up": false) lies where it
fell until its owner places it again during their Reposition.

`apply_flick()` is the one function that applies a resolved flick, whether the result came from
the flicker's physical report or from the simulated flick's chance draws (rulings, "Damage").
"""
from __future__ import annotations

from typing import Any, Sequence

from . import board

START_DAMAGE = 1      # rulings, "Setup": the earlier fight
LOSING_DAMAGE = 20    # rulings, "Damage": 20 or more loses at once
OTHER_MEANS = 6       # a banner of your own knocked by anything but your flicked die
MAX_SUPER_SALE = 2    # a Stand holds at most 2 Super Sale Banners
MAX_CUSTOMERS = 2     # at most 2 customers on one side at once
CUSTOMERS = 4         # the shared supply


def new_floor() -> dict[str, Any]:
    return {"sides": [{"damage": START_DAMAGE, "stand": "S2", "banners": [], "customers": []}
                      for _ in range(2)],
            "supply": CUSTOMERS}


# --- what stands where ---------------------------------------------------------------------------

def standing_floor(side: dict[str, Any]) -> list[str]:
    """Banner spots holding a standing banner, in spot order."""
    up = {b["at"] for b in side["banners"] if b["up"] and b["at"] != "stand"}
    return [s for s in board.BANNER_SPOTS if s in up]


def super_sale_up(side: dict[str, Any]) -> int:
    """Standing Super Sale Banners on the Stand."""
    return sum(1 for b in side["banners"] if b["up"] and b["at"] == "stand")


def knocked(side: dict[str, Any]) -> int:
    return sum(1 for b in side["banners"] if not b["up"])


def front_standing(side: dict[str, Any]) -> bool:
    """At least one banner standing in the front area (the Bonus Flick condition)."""
    return any(s in board.FRONT_SPOTS for s in standing_floor(side))


def holds(side: dict[str, Any], spot: str) -> int:
    """How many knockable things stand on a spot: a standing banner (F/B), a customer (C), or
    the standing Super Sale Banners (the Stand's own S spot)."""
    if spot in board.BANNER_SPOTS:
        return 1 if spot in standing_floor(side) else 0
    if spot in board.CUSTOMER_SPOTS:
        return 1 if spot in side["customers"] else 0
    return super_sale_up(side) if spot == side["stand"] else 0


def items(side: dict[str, Any]) -> list[str]:
    """Every knockable thing on a side as spots (a Stand spot once per Super Sale Banner)."""
    out = list(standing_floor(side))
    out += [side["stand"]] * super_sale_up(side)
    out += [c for c in board.CUSTOMER_SPOTS if c in side["customers"]]
    return out


def banner_items(side: dict[str, Any]) -> list[str]:
    """Standing banners only (what a Called Shot may name; what `oops` may knock)."""
    return list(standing_floor(side)) + [side["stand"]] * super_sale_up(side)


def occupied_neighbours(side: dict[str, Any], spot: str) -> list[str]:
    """Occupied neighbouring spots of a target (for 'target + neighbour' / 'neighbour only')."""
    return [n for n in board.neighbours(spot) if holds(side, n)]


def neighbour_banners(side: dict[str, Any], spot: str) -> list[str]:
    """Neighbouring spots holding a standing banner (a floor banner, or the Stand's standing
    Super Sale Banners): the "neighbouring banner" of the outcome "target + neighbour"."""
    return [n for n in board.neighbours(spot)
            if n not in board.CUSTOMER_SPOTS and holds(side, n)]


def describe(lab: str, names: Sequence[str] = board.SIDE_NAMES) -> str:
    """A label in words, the side by its player's name: `P2:S2` -> "a Super Sale Banner on
    Bea's Stand (S2)", `P2:F2` -> "Bea's banner on F2"."""
    seat, spot = board.split_label(lab)
    who = names[seat]
    if spot in board.STAND_SPOTS:
        return f"a Super Sale Banner on {who}'s Stand ({spot})"
    if spot in board.CUSTOMER_SPOTS:
        return f"{who}'s customer on {spot}"
    return f"{who}'s banner on {spot}"


# --- changes ------------------------------------------------------------------------------------

def knock(floor: dict[str, Any], side_no: int, spot: str) -> str:
    """Knock over what stands on a spot; returns "banner" or "customer". The caller has checked
    that something stands there. A knocked customer goes back to the supply."""
    side = floor["sides"][side_no]
    if spot in board.CUSTOMER_SPOTS:
        side["customers"].remove(spot)
        floor["supply"] += 1
        return "customer"
    at = "stand" if spot in board.STAND_SPOTS else spot
    for b in side["banners"]:
        if b["up"] and b["at"] == at:
            b["up"] = False
            return "banner"
    raise ValueError(f"nothing stands on {board.label(side_no, spot)}")


def apply_flick(floor: dict[str, Any], flicker: int, result: dict[str, Any],
                names: Sequence[str] = board.SIDE_NAMES) -> dict[str, Any]:
    """Apply one resolved flick (rulings, "Damage"); returns {"added": [d1, d2], "lines": [...]}.

    result: {"value": R (1-6), "off": bool, "called": "P2:F2" | None,
             "fell": labels knocked by the flicked die ("P2:F2", "P1:S2", "P2:C1"; a Stand
                     label once per Super Sale Banner),
             "other": labels of the flicker's own banners knocked by other means (+6 each)}
    """
    r = int(result["value"])
    added = [0, 0]
    lines: list[str] = []
    called = result.get("called")

    def blame(seat: int, amount: int, why: str) -> None:
        added[seat] += amount
        floor["sides"][seat]["damage"] += amount
        lines.append(f"{why}: +{amount} to {names[seat]}")

    # The self-knock happens as the die leaves the Stand, before it lands.
    for lab in result.get("other", []):
        side_no, spot = board.split_label(lab)
        knock(floor, side_no, spot)
        blame(side_no, OTHER_MEANS, f"{describe(lab, names)} knocked off by other means")
    if result.get("off"):
        # Off the floor counts for nothing; anything it knocked is stood back up.
        if called:
            blame(flicker, r, f"missed Called Shot at {describe(called, names)} (off the floor, "
                              f"rolled {r})")
        return {"added": added, "lines": lines}
    called_hit = False
    for lab in result.get("fell", []):
        side_no, spot = board.split_label(lab)
        what = knock(floor, side_no, spot)
        if what == "customer":
            blame(flicker, r, f"{describe(lab, names)} knocked over (rolled {r})")
        elif side_no != flicker:
            if lab == called and not called_hit:
                called_hit = True
                blame(side_no, 2 * r, f"Called Shot hits {describe(lab, names)} (2 x {r})")
            else:
                blame(side_no, r, f"{describe(lab, names)} knocked down (rolled {r})")
        else:
            blame(flicker, r, f"{describe(lab, names)}, the flicker's own, knocked down by the "
                              f"die (rolled {r})")
    if called and not called_hit:
        blame(flicker, r, f"missed Called Shot at {describe(called, names)} (rolled {r})")
    return {"added": added, "lines": lines}


def loser(floor: dict[str, Any], flicker: int) -> int | None:
    """Who has lost after a flick (or an `oops`) by `flicker`: 20 or more loses at once; both at
    20 or more from one flick: the higher total loses, equal totals: the flicker."""
    d = [s["damage"] for s in floor["sides"]]
    over = [i for i in (0, 1) if d[i] >= LOSING_DAMAGE]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if d[0] == d[1]:
        return flicker
    return 0 if d[0] > d[1] else 1
