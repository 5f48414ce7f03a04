"""Crazy Die-Man for the practice opponents: how a position looks to a seat, and the `normal`
player's turn plan. The bot plays simulated flicks only (in physical mode it cannot flick a
die).

A simulated flick's chances are public (the view shows them before you aim), so the plan works
with expected Property Damage instead of sampled rolls: one sampled roll of a flick says almost
nothing (most flicks miss, R runs 1-6), and a greedy player scoring single rolls plays no better
than chance. The plan: move the Stand where the best target is closest, flick as many dice as
pay (a Bonus Flick whenever allowed), aim each at the spot with the best expected damage
(enemy's minus our own), and reposition the banners into the layout the rival hurts least while
keeping a banner in front for next turn's Bonus Flick.
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from typing import Any

from bot.engine.diemen import board, rules
from bot.engine.diemen.odds import flick_odds

NORMAL = {"samples": 3, "plies": 12}
HARD = {"budget": 12, "width": 4, "plies": 30}

R_MEAN = 3.5
# Chance that at least one of our front banners still stands when our next turn starts, by how
# many we put there: the rival's ~3 flicks each knock an aimed banner about a quarter of the
# time (the flick table's clean + pair points at band A).
FRONT_SURVIVES = {0: 0.0, 1: 0.5, 2: 0.85, 3: 0.95}


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Property Damage is what loses (20 and you are out): less of it for us, more for them.
    Banners still up on our floor are damage not yet taken."""
    sides = view.get("sides") or []
    value = 0.0
    for i, s in enumerate(sides):
        up = sum(1 for b in s.get("banners") or [] if b.get("up"))
        v = -float(s.get("damage", 0)) + 0.5 * up + 2.0 * len(s.get("customers") or [])
        value += v if i == seat else -v
    return value


def evaluate_state(g: Any, seat: int) -> float:
    """The game is a race to 20 Property Damage: how many turns each side needs to push the
    other over, at its expected damage per turn from where its Stand is (a front banner
    standing means a Bonus Flick), turned into a chance to win (logistic in the difference of
    turns), scaled to +-20. Near the line a point of damage weighs more than early on."""
    sides = g.floor["sides"]
    need = []
    for i in (0, 1):
        ev = max(best_flick(g.floor, i, sides[i]["stand"])[1], 0.3)
        flicks = 3 if rules.front_standing(sides[i]) else 2
        left = max(rules.LOSING_DAMAGE - sides[1 - i]["damage"], 0)
        need.append(left / (ev * flicks))
    # whose turn it is: the side to move is half a turn ahead
    if g.active is not None and g.phase not in ("setup", "first"):
        need[g.active] -= 0.5
    lead = need[1 - seat] - need[seat]
    return 20.0 * math.tanh(lead / 2.4)


# --- expected damage of one simulated flick -----------------------------------------------------

def flick_value(floor: dict[str, Any], p: int, stand: str, spot: str | None,
                called: bool = False) -> float:
    """Expected Property Damage to the rival minus to ourselves of one simulated flick by `p`
    from `stand` at the rival's `spot` (None: the middle), per the published flick table."""
    return _flick_value(p, stand, spot, called, _sig(floor["sides"][1 - p]),
                        rules.super_sale_up(floor["sides"][p]) > 0)


def _sig(side: dict[str, Any]) -> tuple:
    """What of a side a flick at it depends on, hashable: standing floor banners, customers,
    Stand spot, standing Super Sale Banners."""
    up = [b["at"] for b in side["banners"] if b["up"]]
    return (tuple(s for s in board.BANNER_SPOTS if s in up), tuple(side["customers"]),
            side["stand"], up.count("stand"))


@lru_cache(maxsize=65536)
def _flick_value(p: int, stand: str, spot: str | None, called: bool,
                 sig: tuple, ssb: bool) -> float:
    """`flick_value` on the rival's side as a hashable signature (a play-out asks the same
    questions thousands of times)."""
    floor_spots, customers, their_stand, their_ssb = sig
    them = {"stand": their_stand, "customers": list(customers),
            "banners": [{"at": s, "up": True} for s in floor_spots]
            + [{"at": "stand", "up": True}] * their_ssb}
    e = 1 - p
    if spot is None:
        odds = flick_odds(None, super_sale=ssb)
        return -odds["self_knock"] / 100.0 * rules.OTHER_MEANS
    held = rules.holds(them, spot)
    if called and not held:
        return -1e9
    occ = rules.occupied_neighbours(them, spot)
    odds = flick_odds(board.distance(p, stand, e, spot), called=called,
                      target_standing=held > 0, neighbours=bool(occ),
                      neighbour_banners=bool(rules.neighbour_banners(them, spot)),
                      customers=bool(customers), super_sale=ssb)
    pts = odds["outcomes"]
    hit = 2.0 if called else 1.0
    # what a random occupied neighbour is worth: a banner +R to them, a customer +R to us
    cust = sum(1 for n in occ if n in board.CUSTOMER_SPOTS)
    nb = (len(occ) - 2 * cust) / len(occ) if occ else 0.0
    v = pts.get("clean", 0) * hit
    v += pts.get("pair", 0) * (hit + 1.0)
    v += pts.get("neighbour", 0) * nb
    v -= pts.get("customer", 0)
    if called:
        # every outcome but a hit on the called banner blames the flicker
        v -= 100 - pts.get("clean", 0) - pts.get("pair", 0)
    v = v / 100.0 * R_MEAN
    # the rival's only front banner down: no Bonus Flick for them next turn
    front = [s for s in floor_spots if s in board.FRONT_SPOTS]
    if front == [spot]:
        v += (pts.get("clean", 0) + pts.get("pair", 0)) / 100.0 * 1.0
    return v - odds["self_knock"] / 100.0 * rules.OTHER_MEANS


def targets(floor: dict[str, Any], p: int) -> list[str]:
    them = floor["sides"][1 - p]
    out = list(board.BANNER_SPOTS)
    if rules.super_sale_up(them):
        out.append(them["stand"])
    return out


def best_flick(floor: dict[str, Any], p: int, stand: str) -> tuple[str | None, float, bool]:
    """The best single flick from `stand`: (spot or None for the middle, value, called)."""
    return _best_flick(p, stand, _sig(floor["sides"][1 - p]),
                       rules.super_sale_up(floor["sides"][p]) > 0)


@lru_cache(maxsize=16384)
def _best_flick(p: int, stand: str, sig: tuple, ssb: bool) -> tuple[str | None, float, bool]:
    best: tuple[str | None, float, bool] = (None, _flick_value(p, stand, None, False, sig, ssb),
                                            False)
    spots = list(board.BANNER_SPOTS) + ([sig[2]] if sig[3] else [])
    for spot in spots:
        for called in (False, True):
            v = _flick_value(p, stand, spot, called, sig, ssb)
            if v > best[1] + 1e-9:
                best = (spot, v, called)
    return best


# --- banner layouts -----------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _layouts() -> tuple[tuple[str, ...], ...]:
    return tuple(c for c in combinations(board.BANNER_SPOTS, 4))


def layout_value(floor: dict[str, Any], p: int, layout: tuple[str, ...],
                 mine: float | None = None) -> float:
    """How good a layout of our 4 floor banners is: the rival's expected damage over a turn of
    three flicks from its best Stand spot (first flick at the best target, later ones often at
    the next best once it fell) against the Bonus Flick a front banner keeps for us."""
    side, them = floor["sides"][p], floor["sides"][1 - p]
    threat = _threat(p, tuple(sorted(layout)), tuple(side["customers"]), side["stand"],
                     rules.super_sale_up(side), rules.super_sale_up(them) > 0)
    if mine is None:
        mine = best_flick(floor, p, side["stand"])[1]
    front = sum(1 for s in layout if s in board.FRONT_SPOTS)
    return -threat + max(mine, 0.6) * FRONT_SURVIVES[front]


@lru_cache(maxsize=4096)
def _threat(p: int, layout: tuple[str, ...], customers: tuple[str, ...], stand: str, ssb: int,
            rival_ssb: bool) -> float:
    """The rival's expected damage to us over a three-flick turn against this layout (the
    part of `layout_value` that depends only on our side: cached, a Reposition asks it for
    every layout at every step)."""
    banners = [{"at": s, "up": True} for s in layout]
    banners += [{"at": "stand", "up": True}] * ssb
    ours = {"damage": 0, "stand": stand, "banners": banners, "customers": list(customers)}
    rival = {"damage": 0, "stand": "S2", "customers": [],
             "banners": [{"at": "stand", "up": True}] if rival_ssb else []}
    trial = {"sides": [ours, rival] if p == 0 else [rival, ours], "supply": 0}
    e = 1 - p
    threat = 0.0
    for st in board.STAND_SPOTS:
        trial["sides"][e]["stand"] = st
        by_spot = sorted((max(flick_value(trial, e, st, s, c) for c in (False, True))
                          for s in board.BANNER_SPOTS), reverse=True)
        threat = max(threat, 3 * (0.7 * by_spot[0] + 0.3 * by_spot[1]))
    return threat


def best_layout(floor: dict[str, Any], p: int, rng) -> tuple[str, ...]:
    mine = best_flick(floor, p, floor["sides"][p]["stand"])[1]
    scored = [(layout_value(floor, p, lay, mine), lay) for lay in _layouts()]
    top = max(v for v, _ in scored)
    return rng.choice(sorted(lay for v, lay in scored if v >= top - 1e-9))


# --- the turn plan ------------------------------------------------------------------------------

def decide(g: Any, seat: int, legal: list[str], rng) -> str | None:
    """The normal player's move, from a game consistent with the seat's view (None: no plan
    for this step; the caller's generic search decides)."""
    ph = g.phase
    if ph == "setup":
        lay = best_layout(g.floor, seat, rng)
        move = "banners " + " ".join(lay)
        return move if move in legal else None
    if ph == "review":
        return "accept" if "accept" in legal else None
    if ph == "switch":
        return "refuse" if "refuse" in legal else None
    if ph == "customers":
        me = g.side(seat)
        front_cols = {s[1] for s in rules.standing_floor(me) if s in board.FRONT_SPOTS}
        for m in legal:
            if m.startswith("customer ") and m.split()[1][1] in front_cols:
                return m
        cust = [m for m in legal if m.startswith("customer ")]
        return cust[0] if cust else "end"
    if ph == "move":
        return _plan_move(g, seat, legal)
    if ph == "flick":
        return _plan_flick(g, seat, legal)
    if ph == "reposition":
        return _plan_reposition(g, seat, legal, rng)
    return None


def _plan_move(g: Any, seat: int, legal: list[str]) -> str:
    me = g.side(seat)
    here = best_flick(g.floor, seat, me["stand"])[1]
    best_stand, best_v = me["stand"], here
    for m in legal:
        if m.startswith("move "):
            s = m.split()[1]
            v = best_flick(g.floor, seat, s)[1]
            if v > best_v + 0.02:
                best_stand, best_v = s, v
    if best_stand != me["stand"]:
        return f"move {best_stand}"
    if best_v <= 0:
        return "flick 0"
    if "flick 3 bonus" in legal:
        return "flick 3 bonus"
    return "flick 2"


def _plan_flick(g: Any, seat: int, legal: list[str]) -> str | None:
    me = g.side(seat)
    best, best_v = None, -1e18
    for m in legal:
        verb, _, arg = m.partition(" ")
        if verb == "aim":
            spot = None if arg == "middle" else arg
            v = flick_value(g.floor, seat, me["stand"], spot)
        elif verb == "called":
            v = flick_value(g.floor, seat, me["stand"], arg, True)
        else:
            continue
        if v > best_v + 1e-9:
            best, best_v = m, v
    return best


def _plan_reposition(g: Any, seat: int, legal: list[str], rng) -> str | None:
    me = g.side(seat)
    placed = set(g.t["placed"])
    standing = set(rules.standing_floor(me))
    # the layout reachable now: banners already moved stay where they are
    want = None
    best_v = -1e18
    mine = best_flick(g.floor, seat, me["stand"])[1]
    for lay in _layouts():
        if not placed <= set(lay):
            continue
        v = layout_value(g.floor, seat, lay, mine)
        if v > best_v + 1e-9:
            want, best_v = lay, v
    if want is None:
        return None
    want_set = set(want)
    missing = [s for s in want if s not in standing]
    for s in missing:
        if f"place {s}" in legal:
            return f"place {s}"
    extra = [s for s in standing if s not in want_set and s not in placed]
    for src in extra:
        for dst in missing:
            m = f"reposition {src} {dst}"
            if m in legal:
                return m
    if "done" in legal:
        return "done"
    places = [m for m in legal if m.startswith("place ") and m.split()[1] in board.BANNER_SPOTS]
    return places[0] if places else None


def rank(g: Any, seat: int, legal: list[str], rng) -> list[str]:
    """Moves best first for the `hard` search: the plan's move, then flicks by expected
    damage, then the rest."""
    planned = decide(g, seat, legal, rng)
    me = g.side(seat)
    scored = []
    for m in legal:
        verb, _, arg = m.partition(" ")
        if verb == "aim":
            v = flick_value(g.floor, seat, me["stand"], None if arg == "middle" else arg)
        elif verb == "called":
            v = flick_value(g.floor, seat, me["stand"], arg, True)
        elif verb == "move":
            v = best_flick(g.floor, seat, arg)[1]
        else:
            v = rng.random() - 10.0
        scored.append((m != planned, -v, m))
    return [m for _, _, m in sorted(scored)]
