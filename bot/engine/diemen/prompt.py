"""Crazy Die-Man in words, for every screen (`DieMen.prompt`): whose step it is, what the Die-Man
who must act does now, and why the other one waits. Players by name, never seat codes; no
notation.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import CHANCE, join_names
from . import rules
from .base import RESPONSE_SECONDS, plural

if TYPE_CHECKING:
    from .game import DieMen


def _flick_no(g: "DieMen") -> str:
    t = g.t
    return f"flick {t['resolved'] + 1} of {t['declared']}"


def _proposal(g: "DieMen") -> str:
    want = g._flick()["proposal"]
    return ("to let the referee roll this one flick" if want == "simulated"
            else "to flick this one with a real die")


def status(g: "DieMen") -> str:
    ph = g.phase
    if ph == "setup":
        who = [g.name(p) for p in (0, 1) if g.setup_choice[p] is None]
        return f"Waiting for {join_names(who)} to set up their banners in secret."
    if ph == "first":
        return "The crowd is voting on the Stand Cries: the best one goes first."
    me, rival = g.name(g.active), g.name(1 - g.active)
    if ph == "move":
        return f"{me} to declare flicks"
    if ph == "flick":
        if CHANCE in g._actors():
            return f"The referee rolls {me}'s {_flick_no(g)}."
        if g.flick_mode() == "simulated":
            return f"{me} to aim {_flick_no(g)}, which the referee rolls"
        return f"{me} to flick a real die for {_flick_no(g)} and report it"
    if ph == "review":
        return f"{rival} to accept or dispute {me}'s report"
    if ph == "switch":
        return f"{rival} to agree or refuse: {me} proposes {_proposal(g)}"
    if ph == "reposition":
        return f"{me} to reposition banners"
    if ph == "customers":
        return f"{me} to place customers"
    return ""


def todo(g: "DieMen", seat: int) -> str:
    ph = g.phase
    if ph == "setup":
        return ("Put up your 4 Advertising Banners: choose 4 of your 6 banner spots. The front "
                "area (F1–F3) is closer to your rival — easier to hit, but a banner standing "
                "there allows a Bonus Flick. Nobody sees your choice until both Die-Men have "
                "set up.")
    t = g.t
    rival = g.name(1 - seat)
    if ph == "move":
        if t["ssb_at_start"]:
            first = ("Your Stand stays put this turn (a Super Sale Banner stood on it when the "
                     "turn began): declare your flicks")
        elif t["moved"]:
            first = "Declare your flicks"
        else:
            first = "Move your Stand if you like, then declare your flicks"
        dice = "0, 1 or 2 dice" + (", or 3 as a Bonus Flick (a banner of yours stands in your "
                                   "front area)" if g.bonus_allowed() else "")
        return f"{first}: {dice}."
    if ph == "flick":
        n = _flick_no(g)
        again = " This is the reflick: it cannot be disputed." if g._flick()["disputed"] else ""
        if g.flick_mode() == "simulated":
            return (f"{n.capitalize()} (the referee rolls): choose a target; you see its "
                    "chances before you flick.")
        return (f"{n.capitalize()} (a real die): call your shot first if you like, flick the "
                f"die, then report the number and everything that fell.{again}")
    if ph == "review":
        me = g.name(g.active)
        return (f"Accept {me}'s report, or dispute it and {me} flicks again; silence accepts "
                f"after {RESPONSE_SECONDS} seconds.")
    if ph == "switch":
        return (f"{g.name(g.active)} proposes {_proposal(g)}: agree or refuse; silence "
                "refuses.")
    if ph == "reposition":
        me = g.side(seat)
        down = rules.knocked(me)
        out = ("Reposition your banners one at a time (each moves once), then choose Done "
               "repositioning.")
        if down:
            out = (f"Put your {plural(down, 'knocked banner')} back up first; then reposition "
                   "the others if you like, one at a time, and choose Done repositioning.")
        if g.super_sale_allowed():
            out += (f" After your one-flick turn you may put up to {rules.MAX_SUPER_SALE} "
                    "banners on your Stand as Super Sale Banners.")
        return out
    if ph == "customers":
        return (f"Place the {plural(t['attract'], 'customer')} your Super Sale drew on your "
                f"customer spots, or let them go; then {rival} plays.")
    return ""


def waiting(g: "DieMen", seat: int) -> str:
    ph = g.phase
    no = "It is not your move: "
    if ph == "setup":
        who = [g.name(p) for p in (0, 1) if g.setup_choice[p] is None]
        return (no + f"your banners are set up; waiting for {join_names(who)} to set up "
                "theirs in secret.")
    if ph == "first":
        return no + "the crowd is voting on the Stand Cries; the best one goes first."
    me, rival = g.name(g.active), g.name(1 - g.active)
    if CHANCE in g._actors():
        return no + f"the referee is rolling {me}'s {_flick_no(g)}."
    if seat == g.active:
        if ph == "review":
            return (no + f"{rival} is answering your report: accept it or dispute it (silence "
                    f"accepts after {RESPONSE_SECONDS} seconds); then your turn goes on.")
        if ph == "switch":
            return (no + f"{rival} is answering your proposal {_proposal(g)} (silence "
                    "refuses); then your turn goes on.")
    doing = {"move": "declaring flicks", "flick": f"making {_flick_no(g)}" if g.t and
             g.t["flick"] else "flicking", "reposition": "repositioning banners",
             "customers": "placing customers"}.get(ph, "playing")
    return no + f"it is {me}'s turn ({doing}); yours comes next."
