"""Every Die-Man move in a player's words (`DieMen.describe`): a short label for a button or a
select option (at most 80 characters) and an effect sentence computed by the rules code —
the damage a report would add is `rules.apply_flick` on a copy of the floor, the chances of a
simulated flick are `odds.flick_odds` through `DieMen.odds`, the very numbers that are rolled.
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from ..core import MoveText, RuleError
from . import board, notation, rules
from .base import plural
from .odds import odds_words, target_chance

if TYPE_CHECKING:
    from .game import DieMen

LABEL_MAX = 80


def _fit(label: str) -> str:
    return label if len(label) <= LABEL_MAX else label[:LABEL_MAX - 1] + "…"


def _thing(g: "DieMen", seat: int, spot: str, viewer: int) -> str:
    """What stands on a spot of `seat`'s side, in words, from `viewer`'s point of view."""
    whose = "your" if seat == viewer else f"{g.name(seat)}'s"
    if spot in board.STAND_SPOTS:
        return f"{whose} Super Sale Banner (Stand {spot})"
    if spot in board.CUSTOMER_SPOTS:
        return f"{whose} customer on {spot}"
    return f"{whose} banner on {spot}"


def _damage_words(g: "DieMen", added: list[int]) -> str:
    parts = [f"+{a} Property Damage to {g.name(s)}" for s, a in enumerate(added) if a]
    return ", ".join(parts) if parts else "no Property Damage"


def describe(g: "DieMen", move: str, seat: int) -> MoveText:
    try:
        return _describe(g, move, seat)
    except (RuleError, KeyError, IndexError, ValueError, TypeError, AssertionError):
        # Not a legal move now: say it plainly rather than guess at its effect.
        return MoveText(_fit(move), "not a move you can make right now")


def _describe(g: "DieMen", move: str, seat: int) -> MoveText:
    parts = move.split()
    verb = parts[0].lower()
    args = parts[1:]
    rival = 1 - seat
    if verb == "banners":
        spots = [board.parse_spot(t)[1] for a in args for t in a.split(",") if t]
        front = [s for s in spots if s in board.FRONT_SPOTS]
        return MoveText(_fit("Banners on " + " ".join(spots)),
                        f"{len(front)} in the front area (easier to hit; one standing there "
                        f"allows a Bonus Flick), {4 - len(front)} in the back area; secret "
                        "until both have set up")
    if verb == "move":
        spot = board.parse_spot(args[0])[1]
        d = {s: round(board.distance(seat, spot, rival, s)) for s in ("F1", "F2", "F3")}
        near = min(d, key=d.get)
        return MoveText(_fit(f"Move my Stand to {spot}"),
                        f"your flicks start from {spot}: {g.name(rival)}'s {near} is then "
                        f"{d[near]} floor units away (nearer is more accurate)")
    if verb == "flick":
        decl = notation.declare(args)
        n = decl["count"]
        label = {0: "No flicks this turn", 1: "Flick 1 die", 2: "Flick 2 dice",
                 3: "Bonus Flick: 3 dice"}.get(n, f"Flick {n} dice")
        effect = {0: "straight on to Reposition",
                  1: "one flick; after a turn of exactly 1 flick you may put banners up on "
                     "your Stand as Super Sale Banners",
                  2: "two flicks, one after the other",
                  3: "three flicks (a banner of yours stands in your front area)"}.get(n, "")
        if decl["called"] or decl["aim"]:
            shot = ("called " if decl["called"] else "aim ") + (decl["called"] or decl["aim"])
            first = _describe(g, shot, seat)
            label += ", first: " + first.label
            effect += "; the first flick: " + first.effect
        return MoveText(_fit(label), effect)
    if verb == "oops":
        labs = g._own_banner_labels(seat, args, "oops")
        what = ", ".join(_thing(g, seat, board.split_label(x)[1], seat) for x in labs)
        return MoveText(_fit(f"Oops: I knocked over my own {', '.join(board.split_label(x)[1] for x in labs)}"),
                        f"{what} fell by hand, sleeve or table: "
                        f"+{rules.OTHER_MEANS * len(labs)} Property Damage to you")
    if verb == "mode":
        want = args[0].lower()
        if want == "simulated":
            return MoveText("Let the referee roll this flick",
                            f"asks {g.name(rival)} to agree that the referee simulates this one "
                            "flick (with the chances shown before you aim)")
        return MoveText("Flick this one with a real die",
                        f"asks {g.name(rival)} to agree that you flick a real die this once "
                        "and report it")
    if verb in ("called", "aim"):
        side, spot = board.parse_spot(args[0]) if args[0].lower() != "middle" else (None,
                                                                                  "middle")
        if spot == "middle":
            odds = g.odds("middle")
            return MoveText("Flick at the middle (safe)", "; ".join(odds_words(odds)))
        target_seat = rival if side is None else side
        lab = board.label(target_seat, spot)
        thing = _thing(g, target_seat, spot, seat)
        called = verb == "called"
        simulated = g.flick_mode() == "simulated"
        if called:
            label = f"Called Shot at {spot}"
            effect = (f"you name {thing}: knock it and {g.name(target_seat)} takes double the "
                      "roll; miss it and the roll counts against you")
        else:
            label = f"Flick at {spot}"
            effect = f"aimed at {thing if rules.holds(g.side(target_seat), spot) else spot + ' (empty)'}"
        if simulated:
            odds = g.odds(lab, called)
            label += f": {target_chance(odds)}% to knock it" if rules.holds(
                g.side(target_seat), spot) else ""
            effect += ". " + "; ".join(odds_words(odds, spot))
        return MoveText(_fit(label), effect)
    if verb == "mark":
        pairs = notation.spot_list(args[0])
        things = [_thing(g, rival if s is None else s, sp, seat) for s, sp in pairs]
        return MoveText(_fit("Fell: " + ", ".join(sp for _, sp in pairs)),
                        "notes " + ", ".join(things) + " as fallen for your report")
    if verb == "result":
        rep = notation.report(args)
        v = rep["value"]
        f = g._flick()
        if rep["off"]:
            fell: list[str] = []
        elif rep["hit"] is not None:
            fell = [board.label(rival if s is None else s, sp) for s, sp in rep["hit"]]
        else:
            fell = list(f["marks"])
        out = rules.apply_flick(copy.deepcopy(g.floor), seat,
                                {"value": v, "off": rep["off"], "fell": fell,
                                 "called": f["called"]}, g.names)
        if rep["off"]:
            label = f"Rolled {v}, off the floor"
        elif fell:
            label = f"Rolled {v}, knocked " + ", ".join(
                _short(board.split_label(x), seat) for x in fell)
        else:
            label = f"Rolled {v}, nothing fell"
        effect = _damage_words(g, out["added"])
        if not f["disputed"]:
            effect += f"; {g.name(rival)} may accept or dispute it"
        return MoveText(_fit(label), effect)
    if verb in ("accept", "dispute"):
        rep = g._flick()["report"] or {"value": 0, "off": True, "fell": []}
        if verb == "accept":
            out = rules.apply_flick(copy.deepcopy(g.floor), g.active,
                                    dict(rep, called=g._flick()["called"]), g.names)
            return MoveText("Accept the report", _damage_words(g, out["added"]))
        return MoveText("Dispute: flick it again",
                        f"everything is stood back up and {g.name(g.active)} flicks again; "
                        "that reflick cannot be disputed")
    if verb == "agree":
        want = g._flick()["proposal"]
        how = "the referee rolls it" if want == "simulated" else "a real die is flicked"
        return MoveText("Agree to switch", f"this one flick is resolved the other way: {how}")
    if verb == "refuse":
        return MoveText("Refuse", f"the flick stays {g.flick_mode()}")
    if verb in ("place", "reposition", "supersale"):
        return _reposition(g, verb, args, seat)
    if verb == "done":
        return MoveText("Done repositioning", _after_done(g, seat))
    if verb == "customer":
        spot = board.parse_spot(args[0])[1]
        return MoveText(f"Customer on {spot}",
                        "a customer shields the banners behind it; knocking one over costs "
                        "the flicker the roll")
    if verb == "end":
        left = g.t["attract"] if g.t else 0
        return MoveText("Let the rest go (end my turn)",
                        f"{plural(left, 'customer')} go" + ("es" if left == 1 else "")
                        + " back to the supply")
    return MoveText(_fit(move), "")


def _short(lab: tuple[int, str], viewer: int) -> str:
    seat, spot = lab
    return spot if seat != viewer else f"my {spot}"


def _where(g: "DieMen", seat: int, dest: str) -> str:
    if dest.lower() == "stand" or board.parse_spot(dest)[1] in board.STAND_SPOTS:
        return "my Stand (Super Sale)"
    return board.parse_spot(dest)[1]


def _reposition(g: "DieMen", verb: str, args: list[str], seat: int) -> MoveText:
    stand_words = ("a Super Sale Banner on your Stand: it draws customers next turn, but you "
                   "cannot move the Stand while one stands there")
    if verb == "place":
        dest = _where(g, seat, args[0])
        return MoveText(_fit(f"Knocked banner → {dest}"),
                        stand_words if dest.startswith("my Stand") else
                        f"puts a knocked banner of yours back up on {dest}")
    if verb == "supersale":
        if notation.is_number(args[0]):
            return MoveText(f"Put {plural(int(args[0]), 'knocked banner')} up on my Stand",
                            stand_words)
        src = board.parse_spot(args[0])[1]
        return MoveText(_fit(f"Banner {src} → my Stand (Super Sale)"), stand_words)
    src, dest = _where(g, seat, args[0]), _where(g, seat, args[1])
    what = "Super Sale Banner" if src.startswith("my Stand") else f"Banner {src}"
    return MoveText(_fit(f"{what} → {dest}"),
                    stand_words if dest.startswith("my Stand") else
                    f"moves it to {dest} (each banner moves once per Reposition)")


def _after_done(g: "DieMen", seat: int) -> str:
    t = g.t or {}
    if t.get("ssb_at_start"):
        return "ends your Reposition; your Super Sale draws customers to place next"
    return f"ends your turn: {g.name(1 - seat)} plays next"

