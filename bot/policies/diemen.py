"""Crazy Die-Man for the practice opponents: how a position looks to a seat, and the players'
turn plans. The bot plays simulated flicks only (in physical mode it cannot flick a die).

A simulated flick's chances are public (the view shows them before you aim), so the careful
plan (`careful_plan`) works with expected Property Damage instead of sampled rolls: one sampled
roll of a flick says almost nothing (most flicks miss, R runs 1-6), and a greedy player scoring
single rolls plays no better than chance. The careful plan: move the Stand where the best
target is closest, flick as many dice as pay (a Bonus Flick whenever allowed), aim each at the
spot with the best expected damage (enemy's minus our own), and reposition the banners into the
layout the rival hurts least while keeping a banner in front for next turn's Bonus Flick.

The `normal` player (`decide`, `casual_plan`) is the careful plan with a casual player's aim:
plain shots at the banner with the most banners beside it. The careful plan was so close to
the game's skill ceiling that `hard` could barely be told from it (docs/balance.md, 26 Nov).

The `hard` player (`hard_choose`, at the end) judges the Stand, the aims and the layout by the
chance to win instead: the rest of its turn planned exactly over the flick table, the rival's
reply turn enumerated as the careful plan plays it, then a solved race to 20.
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from typing import Any

from bot.engine.diemen import board, rules
from bot.engine.diemen.odds import FLICK_TABLE, flick_odds

NORMAL = {"samples": 3, "plies": 12}
# The generic search, only where the hard plan below has no answer.
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


class Floor:
    """What the plans below read of a game, from one view (bot/engine/diemen/view.py): the
    sales floor in the shape the rules code reads (`rules.py`: per side its Property Damage,
    Stand, banners with a Super Sale Banner `at` "stand", customers), the phase, whose turn,
    the turn so far (`t`: the view's `turn_info`) and the mode of the flick."""

    def __init__(self, v: dict[str, Any]):
        self.phase = v["phase"]
        self.active = v["active"]
        self.mode = v["flick_mode"]
        self.t = v["turn_info"]
        self.floor = {"supply": v["supply"], "sides": [
            {"damage": s["damage"], "stand": s["stand"], "customers": list(s["customers"]),
             "banners": [{"at": "stand" if b["super_sale"] else b["at"], "up": b["up"]}
                         for b in s["banners"]]}
            for s in v["sides"]]}

    def side(self, seat: int) -> dict[str, Any]:
        return self.floor["sides"][seat]

    def flick_mode(self) -> str:
        return self.mode


def floor_of(g: Any, seat: int) -> Floor:
    """The plans' reading of `g`, from `seat`'s view of it."""
    return Floor(g.view(seat))


def evaluate_state(g: Any, seat: int) -> float:
    """`_race` on the public view."""
    return _race(Floor(g.view(None)), seat)


def _race(g: Floor, seat: int) -> float:
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
    return _layout_score(layout, threat, mine)


def _layout_score(layout: tuple[str, ...], threat: float, mine: float) -> float:
    """The rival's expected damage against the Bonus Flick our front banners keep for us."""
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
    return casual_plan(floor_of(g, seat), seat, legal, rng)


def casual_plan(g: Floor, seat: int, legal: list[str], rng) -> str | None:
    """The normal player: a decent casual player. It sets up, moves its Stand, counts its
    flicks and puts its banners back as the careful plan does, but it aims by a rule of
    thumb, not by the flick table (`casual_aim`), and never makes a Called Shot. Measured in
    docs/balance.md (26 Nov): the careful plan played near the game's skill ceiling, so
    `hard` could not be told from `normal`."""
    if g.phase == "flick" and g.flick_mode() == "simulated":
        spot = casual_aim(g.side(1 - seat), seat, g.side(seat)["stand"])
        if spot is not None and f"aim {spot}" in legal:
            return f"aim {spot}"
    return careful_plan(g, seat, legal, rng)


def casual_aim(them: dict[str, Any], seat: int, stand: str) -> str | None:
    """The casual aim: the rival's floor banner with the most banners beside it (a pair
    hit knocks two), the nearest of those. What it gives up: a back banner is a band
    further than a front one (11 clean hits in 100 instead of 18), and a banner that
    stands alone loses only itself, which the casual player does not weigh against that.
    None when no floor banner stands (the careful plan aims then)."""
    up = rules.standing_floor(them)
    if not up:
        return None
    e = 1 - seat
    return min(up, key=lambda s: (-len(rules.neighbour_banners(them, s)),
                                  round(board.distance(seat, stand, e, s)), s))


def careful_plan(g: Floor, seat: int, legal: list[str], rng) -> str | None:
    """The careful player (the normal level until 26 Nov, now `hard`'s own plan where its
    search has no say): every aim by expected damage over the flick table."""
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


def _plan_move(g: Floor, seat: int, legal: list[str]) -> str:
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


def _plan_flick(g: Floor, seat: int, legal: list[str]) -> str | None:
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


def _plan_reposition(g: Floor, seat: int, legal: list[str], rng) -> str | None:
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
    return _step_toward(want, standing, placed, legal)


def _step_toward(want: tuple[str, ...], standing: set[str], placed: set[str],
                 legal: list[str]) -> str | None:
    """The next Reposition move toward the layout `want`: knocked banners onto its open spots
    first, then standing banners that are not part of it onto the rest, then done."""
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


# --- the hard player: the race to 20 as chances to win -----------------------------------------
#
# The careful plan aims at the best expected damage; near the 20 line that is the wrong
# question. What counts is the chance to push the rival over before they push us: a Called
# Shot (2R on a hit) puts a rival at 14 in reach of one die, at the price of +R to us on a
# miss, which only matters when we are near the line ourselves. The hard player judges by
# chances to win:
# - the rest of our turn is planned exactly (`turn_chance`: every aim at every flick, every
#   public outcome of the flick table, R = 1..6), so it also sees that knocking one of two
#   front banners pays when a later flick can knock the other (no Bonus Flick for the rival);
# - the rival's next turn against our layout is enumerated as the careful plan plays it
#   (`_rival_turn`: its Stand, its count, its aims all follow from the floor);
# - after that, the race model (`_play_table`): both sides flicking at fixed per-flick odds.
# The odds are public and the floor is public after the set-up, so the search is exact where
# it is exact and never needs a sampled game; it costs about a millisecond a decision.

GOAL = rules.LOSING_DAMAGE
# Chance a side has its Bonus Flick on a later turn (normal keeps a banner in front; the rival's
# flicks knock it now and then: FRONT_SURVIVES for two front banners).
LATER_BONUS = 0.85
# A move away from the plan must win this much more often (the race model past the rival's
# turn is rough; a hair's edge in it is noise).
HARD_MARGIN = 0.005
# Calibrated on 4168 turn starts of 400 careful-vs-careful games (log-loss of the race model).
RATE_SCALE = 0.82


# The race as a game of its own, solved exactly: each flick of ours may be plain, a Called
# Shot or at the middle, the rival flicks plainly (as both plans do), per-flick outcomes from
# the flick table's band A (a front banner from the Stand opposite) with the hit points
# scaled by RATE_SCALE. Its values are the chances to win after the flick at hand, so a
# Called Shot two turns from now (a rival at 12 is one lucky 2R away) is already counted.
# Per flick: (chance, rival's points per R, our points per R).
_BAND_A = FLICK_TABLE[0]
_PLAIN = ((_BAND_A["clean"], 1, 0), (_BAND_A["pair"], 2, 0), (_BAND_A["neighbour"], 1, 0))
_CALLED = ((_BAND_A["clean"] + _BAND_A["called"], 2, 0), (_BAND_A["pair"], 3, 0),
           (_BAND_A["neighbour"], 1, 1))


def _shots(table: tuple[tuple[int, int, int], ...], called: bool) -> tuple:
    """A flick's outcomes (chance, rival's points per R, ours per R), the misses last; a
    missed Called Shot blames the flicker R."""
    hits = [(RATE_SCALE * pts / 100.0, a, b) for pts, a, b in table]
    rest = 1.0 - sum(p for p, _, _ in hits)
    return tuple(hits) + ((rest, 0, 1 if called else 0),)


def _settled(x: int, y: int, us_flick: bool = True) -> float | None:
    """1 or 0 once a flick has put a side over the line, x our damage and y the rival's
    (rulings: both over, the higher total loses; equal totals, the flicker), else None."""
    if x < GOAL and y < GOAL:
        return None
    if x >= GOAL and y >= GOAL:
        if x == y:
            return 0.0 if us_flick else 1.0
        return 1.0 if y > x else 0.0
    return 1.0 if y >= GOAL else 0.0


@lru_cache(maxsize=2)
def _play_table(calls: bool = True) -> tuple[list, list]:
    """ours[r][x][y]: our chance to win with r flicks of ours left this turn (r = 0: our turn
    is over, theirs begins, with or without Bonus Flick as LATER_BONUS says); theirs[r][x][y]
    the same with r flicks of theirs left. Damages only grow, so totals are solved from the
    highest down; a flick that knocks nothing keeps the totals, so the states of one pair of
    totals are solved together by iteration (a turn knocks nothing about one time in three).
    Without `calls` we may not make Called Shots: what choosing them is worth, at best, is the
    difference (bench/diemen_ceiling.py)."""
    ours = [[[0.0] * GOAL for _ in range(GOAL)] for _ in range(4)]
    theirs = [[[0.0] * GOAL for _ in range(GOAL)] for _ in range(4)]
    actions = ((_shots(_PLAIN, False), ((1.0, 0, 0),)) if not calls else
               (_shots(_PLAIN, False), _shots(_CALLED, True), ((1.0, 0, 0),)))
    rival = _shots(_PLAIN, False)
    for total in range(2 * GOAL - 2, -1, -1):
        for x in range(max(0, total - GOAL + 1), min(GOAL - 1, total) + 1):
            y = total - x
            # the parts of each flick that change the totals: known already
            ours_fixed = [[_moved(action, x, y, r, ours, True) for action in actions]
                          for r in range(4)]
            theirs_fixed = [_moved(rival, x, y, r, theirs, False) for r in range(4)]
            u = [0.5] * 4
            t = [0.5] * 4
            for _ in range(40):
                t[0] = LATER_BONUS * u[3] + (1 - LATER_BONUS) * u[2]
                u[0] = LATER_BONUS * t[3] + (1 - LATER_BONUS) * t[2]
                for r in range(1, 4):
                    u[r] = max(c + p0 * u[r - 1] for c, p0 in ours_fixed[r])
                    c, p0 = theirs_fixed[r]
                    t[r] = c + p0 * t[r - 1]
            for r in range(4):
                ours[r][x][y], theirs[r][x][y] = u[r], t[r]
    return ours, theirs


def _moved(shots: tuple, x: int, y: int, r: int, table: list, us_flick: bool
           ) -> tuple[float, float]:
    """One flick from totals (x, y) with r flicks left before it: (the chance to win summed
    over outcomes that change the totals, the chance that nothing changes)."""
    if r == 0:
        return 0.0, 0.0
    fixed, still = 0.0, 0.0
    nxt = table[r - 1]
    for p, a, b in shots:
        if a == 0 and b == 0:
            still += p
            continue
        for roll in range(1, 7):
            # our flick: a to the rival (y), b to us (x); theirs the other way round
            nx, ny = (x + b * roll, y + a * roll) if us_flick else (x + a * roll, y + b * roll)
            done = _settled(nx, ny, us_flick)
            fixed += p / 6 * (nxt[nx][ny] if done is None else done)
    return fixed, still


def _after_flick(x: int, y: int, left: int, their_bonus: bool) -> float:
    """Our chance to win after a flick of ours left the totals at x, y with `left` flicks of
    ours still to come this turn (the rival's Bonus Flick as its floor stands now when this
    was our last)."""
    ours, theirs = _play_table()
    if left:
        return ours[left][x][y]
    return theirs[3 if their_bonus else 2][x][y]


def aim_chance(g: Floor, seat: int, spot: str | None, called: bool, left: int) -> float:
    """Our chance to win if this flick goes at `spot` (None: the middle), with `left` more
    flicks this turn: every outcome of the flick table and every R, then the race model."""
    floor = g.floor
    me, them = floor["sides"][seat], floor["sides"][1 - seat]
    ssb = rules.super_sale_up(me) > 0
    front = [s for s in rules.standing_floor(them) if s in board.FRONT_SPOTS]
    if spot is None:
        odds = flick_odds(None, super_sale=ssb)
        occ: list[str] = []
        nbs: list[str] = []
    else:
        occ = rules.occupied_neighbours(them, spot)
        nbs = rules.neighbour_banners(them, spot)
        odds = flick_odds(board.distance(seat, me["stand"], 1 - seat, spot), called=called,
                          target_standing=rules.holds(them, spot) > 0, neighbours=bool(occ),
                          neighbour_banners=bool(nbs), customers=bool(them["customers"]),
                          super_sale=ssb)
    # what falls, by outcome: (chance, [(their points per R, our points per R, fronts left)])
    branches: list[tuple[float, list[tuple[int, int, bool]]]] = []
    for outcome, pts in odds["outcomes"].items():
        if not pts:
            continue
        hit = outcome in ("clean", "pair")
        miss_call = 1 if called and not hit else 0
        # the target is worth 2R on a Called Shot, R otherwise; a neighbour banner R more
        if outcome == "clean":
            opts = [(2 if called else 1, 0, [spot])]
        elif outcome == "pair":
            opts = [((2 if called else 1) + 1, 0, [spot, n]) for n in nbs]
        elif outcome == "neighbour":
            opts = [(0, 1, []) if n in board.CUSTOMER_SPOTS else (1, 0, [n]) for n in occ]
        elif outcome == "customer":
            opts = [(0, 1, [])]
        else:
            opts = [(0, 0, [])]
        ways = []
        for them_r, us_r, fell in opts:
            bonus_left = any(s not in fell for s in front)
            ways.append((them_r, us_r + miss_call, bonus_left))
        branches.append((pts / 100.0, ways))
    knock = odds["self_knock"] / 100.0
    x0, y0 = me["damage"], them["damage"]
    win = 0.0
    for p_out, ways in branches:
        for them_r, us_r, bonus_left in ways:
            w = p_out / len(ways)
            for r in range(1, 7):
                for extra, p_k in ((0, 1 - knock), (rules.OTHER_MEANS, knock)):
                    if not p_k:
                        continue
                    x, y = x0 + us_r * r + extra, y0 + them_r * r
                    done = _settled(x, y)
                    if done is None:
                        done = _after_flick(x, y, left, bonus_left)
                    win += w / 6 * p_k * done
    return win


def hard_choose(policy: Any, view: dict[str, Any], legal: list[str], rng) -> str | None:
    """The hard player: the Stand, each flick's aim and the Reposition layout by the chance to
    win; the set-up (secret), the flick count (more flicks always pay in the race) and the
    customers as the careful plan. Works on a game rebuilt from the seat's record: after the
    set-up nothing of a simulated Die-Man game is hidden but the dice to come."""
    seat = policy.seen.seat
    g = floor_of(policy.seen.determinize(rng), seat)
    planned = careful_plan(g, seat, legal, rng)
    if g.phase == "flick" and g.flick_mode() == "simulated":
        return _hard_aim(g, seat, legal, planned)
    if g.phase == "move" and planned is not None:
        return _hard_stand(g, seat, legal, planned)
    if g.phase == "reposition" and planned is not None:
        return _hard_layout(g, seat, legal, planned)
    return planned if planned in legal else policy.screen.choose(view, legal, rng)


def _shot(move: str) -> tuple[str | None, bool] | None:
    """`aim F2` -> ("F2", False), `called F2` -> ("F2", True), `aim middle` -> (None, False)."""
    verb, _, arg = move.partition(" ")
    if verb == "aim":
        return (None if arg == "middle" else arg), False
    if verb == "called":
        return arg, True
    return None


def _best_shot(g: Floor, seat: int, legal: list[str], left: int) -> dict[str, float]:
    """Each aim among `legal` with our chance to win after it (the turn planned to its end
    where the floor is plain, else one flick deep)."""
    out = {}
    plain = _plain_floor(g)
    me, them = g.side(seat), g.side(1 - seat)
    up = tuple(rules.standing_floor(them))
    for m in legal:
        shot = _shot(m)
        if shot is None:
            continue
        if plain:
            out[m] = shot_chance(seat, me["stand"], up, me["damage"], them["damage"], left,
                                 shot[0], shot[1], them["stand"])
        else:
            out[m] = aim_chance(g, seat, shot[0], shot[1], left)
    return out


def _hard_aim(g: Floor, seat: int, legal: list[str], planned: str | None) -> str | None:
    """The aim with the best chance to win; the plan's unless another is clearly better."""
    left = g.t["declared"] - g.t["resolved"] - 1
    chances = _best_shot(g, seat, legal, left)
    if not chances:
        return planned
    best = max(chances, key=lambda m: (chances[m], m == planned))
    if planned in chances and chances[best] <= chances[planned] + HARD_MARGIN:
        return planned
    return best


def _hard_stand(g: Floor, seat: int, legal: list[str], planned: str) -> str:
    """Where the Stand flicks from: the spot whose turn, planned flick by flick, gives the best
    chance to win, with the flicks the plan declares (a Bonus Flick when allowed)."""
    me = g.side(seat)
    here = me["stand"]
    plan_stand = planned.split()[1] if planned.startswith("move ") else here
    flicks = 3 if "flick 3 bonus" in legal else 2
    spots = [here] + [m.split()[1] for m in legal if m.startswith("move ")]
    value = {}
    for st in spots:
        me["stand"] = st
        shots = _shot_moves(g, seat)
        value[st] = max(_best_shot(g, seat, shots, flicks - 1).values())
    me["stand"] = here
    best = max(spots, key=lambda s: (value[s], s == plan_stand))
    if value[best] <= value[plan_stand] + HARD_MARGIN or best == plan_stand:
        return planned
    if best != here:
        return f"move {best}"
    # stay: declare as the plan would have after staying
    if "flick 3 bonus" in legal:
        return "flick 3 bonus"
    return "flick 2"


def _shot_moves(g: Floor, seat: int) -> list[str]:
    """Every aim and Called Shot at the rival's side as it stands (the flick step's moves)."""
    them = g.side(1 - seat)
    out = [f"aim {s}" for s in targets(g.floor, seat)] + ["aim middle"]
    out += [f"called {s}" for s in dict.fromkeys(rules.banner_items(them))]
    return out


def _hard_layout(g: Floor, seat: int, legal: list[str], planned: str) -> str | None:
    """Reposition toward the layout (reachable from the moves made so far) with the best
    chance to win; the plan's own layout unless another is clearly better."""
    me = g.side(seat)
    placed = set(g.t["placed"])
    standing = set(rules.standing_floor(me))
    lays = [lay for lay in _layouts() if placed <= set(lay)]
    if not lays or not _plain_floor(g):
        return planned
    mine = best_flick(g.floor, seat, me["stand"])[1]
    plan_lay = max(lays, key=lambda lay: layout_value(g.floor, seat, lay, mine))
    chance = {lay: rival_turn_chance(g, seat, lay) for lay in lays}
    best = max(lays, key=lambda lay: (chance[lay], lay == plan_lay))
    if chance[best] <= chance[plan_lay] + HARD_MARGIN:
        return planned
    move = _step_toward(best, standing, placed, legal)
    return move if move in legal else planned


# --- the rival's next turn against a layout, played as the careful plan plays it ---------------
#
# The rival is taken to play the careful plan: its Stand, its flick count and every aim
# follow from the floor (`_plan_move`, `_plan_flick`), so its whole turn against a layout of
# ours can be enumerated: which of our banners are still up and how much damage we took,
# flick after flick, every outcome of the flick table and every R. What we get from a layout
# is then exact for that turn: the damage, and whether a front banner of ours survives for
# our Bonus Flick. Modelling the casual normal player's aim instead won no more against it
# (docs/balance.md, 26 Nov), and the careful rival is the safer guess against a person.

def rival_turn_chance(g: Floor, seat: int, layout: tuple[str, ...]) -> float:
    """Our chance to win once our banners stand as `layout`: the rival's turn exactly, then
    the race from the start of ours (a Bonus Flick if a front banner of ours survived)."""
    floor = g.floor
    them = floor["sides"][1 - seat]
    return _after_rival_turn(seat, tuple(sorted(layout)), them["stand"],
                             rules.front_standing(them), floor["sides"][seat]["damage"],
                             them["damage"])


def _after_rival_turn(seat: int, layout: tuple[str, ...], their_stand: str, their_bonus: bool,
                      x: int, y: int) -> float:
    """Our chance to win from damages x (ours) and y (theirs) with our banners up as `layout`:
    the careful rival's turn exactly (`_rival_turn`), then the race model from the start of
    ours (a Bonus Flick if a front banner of ours survived)."""
    ours, _ = _play_table()
    win = 0.0
    for (up, dealt), p in _rival_turn(seat, layout, their_stand, their_bonus, GOAL - x).items():
        if x + dealt < GOAL:
            front = any(s in board.FRONT_SPOTS for s in up)
            win += p * ours[3 if front else 2][x + dealt][y]
    return win


def _floor_with(seat: int, up: tuple[str, ...], their_stand: str) -> dict[str, Any]:
    """A floor holding only what the rival's flicks at us depend on: our standing banners."""
    ours = {"damage": 0, "stand": "S2", "customers": [],
            "banners": [{"at": s, "up": True} for s in up]}
    them = {"damage": 0, "stand": their_stand, "customers": [], "banners": []}
    return {"sides": [ours, them] if seat == 0 else [them, ours], "supply": 0}


@lru_cache(maxsize=4096)
def _rival_turn(seat: int, layout: tuple[str, ...], their_stand: str, their_bonus: bool,
                room: int) -> dict[tuple[tuple[str, ...], int], float]:
    """Chances of (our banners still up, damage dealt to us, capped at `room`) at the end of
    the careful rival's turn against `layout`, from its Stand at `their_stand`."""
    e = 1 - seat
    trial = _floor_with(seat, layout, their_stand)
    stand = their_stand
    here = best_flick(trial, e, stand)[1]
    best_v = here
    for st in board.STAND_SPOTS:
        v = best_flick(trial, e, st)[1]
        if st != their_stand and v > best_v + 0.02:
            stand, best_v = st, v
    flicks = 0 if best_v <= 0 else (3 if their_bonus else 2)
    states = {(layout, 0): 1.0}
    for _ in range(flicks):
        nxt: dict[tuple[tuple[str, ...], int], float] = {}
        for (up, dealt), p in states.items():
            if dealt >= room or not up:
                nxt[(up, dealt)] = nxt.get((up, dealt), 0.0) + p
                continue
            for (up2, per_r), q in _rival_flick(seat, up, stand):
                for r in range(1, 7):
                    key = (up2, min(dealt + per_r * r, room))
                    nxt[key] = nxt.get(key, 0.0) + p * q / 6
        states = nxt
    return states


@lru_cache(maxsize=4096)
def _rival_flick(seat: int, up: tuple[str, ...], stand: str
                 ) -> tuple[tuple[tuple[tuple[str, ...], int], float], ...]:
    """The careful rival's aim at our standing banners `up` from its Stand (the plan's best
    expected damage), and what it does: ((banners still up, our points per R), chance)."""
    e = 1 - seat
    trial = _floor_with(seat, up, stand)
    best, best_v = (None, False), flick_value(trial, e, stand, None)
    for spot in board.BANNER_SPOTS:
        for called in (False, True):
            if called and spot not in up:
                continue
            v = flick_value(trial, e, stand, spot, called)
            if v > best_v + 1e-9:
                best, best_v = (spot, called), v
    spot, called = best
    # what the rival's own flick costs the rival (a missed Called Shot) is left out: the careful
    # plan calls a shot only where it pays, and our layout cannot change it
    return tuple(((left, per_r), p) for left, per_r, _, p
                 in _flick_outcomes(e, stand, up, spot, called))


# --- our whole turn, planned flick by flick ---------------------------------------------------
#
# Which of the rival's banners are still up decides its Bonus Flick next turn: with two front
# banners, knocking one is worth nothing unless a later flick of this turn knocks the other.
# `turn_chance` plans the rest of the turn exactly (every aim at every step, every outcome and
# R), the race model taking over when the turn ends. Used when no customer or Super Sale Banner
# is on the floor (then the flick's outcomes depend on our banners only through the table).

def _plain_floor(g: Floor) -> bool:
    """No customer and no Super Sale Banner on the floor (the bots never put any up; a person
    may, and then the one-flick `aim_chance` judges the aims)."""
    return all(not s["customers"] and not rules.super_sale_up(s) for s in g.floor["sides"])


@lru_cache(maxsize=65536)
def _flick_outcomes(p: int, stand: str, up: tuple[str, ...], spot: str | None, called: bool
                    ) -> tuple[tuple[tuple[str, ...], int, int, float], ...]:
    """One flick by `p` from `stand` at the other side's floor banners `up` (no customers, no
    Super Sale Banners): (banners still up, the target side's points per R, the flicker's
    points per R, chance) for each outcome of the flick table."""
    e = 1 - p
    if spot is None:
        return ((up, 0, 0, 1.0),)
    them = {"stand": "S2", "customers": [], "banners": [{"at": s, "up": True} for s in up]}
    occ = rules.occupied_neighbours(them, spot)
    nbs = rules.neighbour_banners(them, spot)
    odds = flick_odds(board.distance(p, stand, e, spot), called=called,
                      target_standing=spot in up, neighbours=bool(occ),
                      neighbour_banners=bool(nbs), customers=False)
    hit = 2 if called else 1
    out = []
    for outcome, pts in odds["outcomes"].items():
        if not pts:
            continue
        blame = 1 if called and outcome not in ("clean", "pair") else 0
        if outcome == "clean":
            ways = [((spot,), hit)]
        elif outcome == "pair":
            ways = [((spot, n), hit + 1) for n in nbs]
        elif outcome == "neighbour":
            ways = [((n,), 1) for n in occ]
        else:
            ways = [((), 0)]
        for fell, per_r in ways:
            left = tuple(s for s in up if s not in fell)
            out.append((left, per_r, blame, pts / 100.0 / len(ways)))
    return tuple(out)


def _aims(up: tuple[str, ...]) -> list[tuple[str | None, bool]]:
    """The shots worth weighing: each floor spot plainly, each standing banner called, the
    middle."""
    return ([(s, False) for s in board.BANNER_SPOTS] + [(s, True) for s in up]
            + [(None, False)])


def shot_chance(seat: int, stand: str, up: tuple[str, ...], x: int, y: int, left: int,
                spot: str | None, called: bool, rival: str) -> float:
    """Our chance to win if this flick goes at `spot` with `left` more flicks this turn,
    each later one aimed at its best."""
    win = 0.0
    for up2, them_r, us_r, p in _flick_outcomes(seat, stand, up, spot, called):
        for r in range(1, 7):
            x2, y2 = x + us_r * r, y + them_r * r
            done = _settled(x2, y2)
            if done is None:
                done = turn_chance(seat, stand, up2, x2, y2, left, rival)
            win += p / 6 * done
    return win


@lru_cache(maxsize=262144)
def turn_chance(seat: int, stand: str, up: tuple[str, ...], x: int, y: int, left: int,
                rival: str) -> float:
    """Our chance to win with `left` flicks of this turn to come, the rival's floor banners
    `up` standing, damages x (ours) and y (theirs), each flick aimed at its best."""
    if left == 0:
        return _turn_over(seat, stand, up, x, y, rival)
    return max(shot_chance(seat, stand, up, x, y, left - 1, spot, called, rival)
               for spot, called in _aims(up))


@lru_cache(maxsize=262144)
def _turn_over(seat: int, stand: str, up: tuple[str, ...], x: int, y: int,
               rival: str) -> float:
    """Our chance to win when our flicks are done: our banners go up as the plan lays them
    out, the rival plays its turn against them as the careful plan does (`_rival_turn`, exact), then
    the race model from the start of our next turn."""
    mine = _best_flick(seat, stand, (up, (), "S2", 0), False)[1]
    # the plan's layout (`layout_value` on a floor without customers or Super Sale Banners)
    lay = max(_layouts(), key=lambda lay: _layout_score(
        lay, _threat(seat, lay, (), stand, 0, False), mine))
    their_bonus = any(s in board.FRONT_SPOTS for s in up)
    return _after_rival_turn(seat, lay, rival, their_bonus, x, y)
