"""The six specials (rulings, "Specials"), each once per combat, offered as moves at their
moment: Cheap Shot and Cook the Books at the start of the turn, Misdirection when targeted,
Loaded Dice after the attack roll, Thick Skull when a die would be discarded, Rampage after a
won Complex Attack. Declining is `pass` (or, for the turn-start specials, simply attacking).

A mixin of `DeathByDice` (game.py), which owns the state.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..core import Event
from . import board as B
from . import notation as N
from .data import SPECIAL_TABLE


class Specials:
    """Offering and playing the characters' specials."""

    def turn_specials(self) -> list[str]:
        """Specials offered at the start of a turn, beside the attack (none once armed)."""
        fi = self.active
        if self.armed is not None:
            return []
        f = self.fighters[fi]
        if self.special_ready(fi, "cook-the-books"):
            return [N.fmt_special("cook-the-books", [a, b])
                    for a, b in combinations(B.standing(f), 2)
                    if f["dice"][a] == f["dice"][b]]
        if self.special_ready(fi, "cheap-shot") and B.boosted_pairs(f) and \
                self.attack_moves(fi, "cheap-shot"):
            return [N.fmt_special("cheap-shot")]
        return []

    def misdirection_moves(self) -> list[str]:
        a = self.attack
        if not self.special_ready(a["target"], "misdirection"):
            return []
        return [N.fmt_special("misdirection", [d]) for d in self.misdirection_dice()]

    def misdirection_dice(self) -> list[str]:
        a = self.attack
        tgt = self.fighters[a["target"]]
        size = tgt["dice"][a["ability"]]
        return [d for d in B.standing(tgt) if d != a["ability"] and tgt["dice"][d] == size]

    def _move_special(self, actor: int, p: dict[str, Any]) -> list[Event]:
        key = p["name"]
        name, timing, _ = SPECIAL_TABLE[key]
        moment = {"cheap-shot": "declare", "cook-the-books": "declare", "misdirection": "defend",
                 "loaded-dice": "loaded", "thick-skull": "thick_skull", "rampage": "rampage"}
        fi = self.attack["target"] if self.stage in ("defend", "thick_skull") and \
            self.attack else self.active
        if fi is None or self.stage == "setup":
            raise self.not_now(actor, name)
        f = self.fighters[fi]
        if f["special"] != key:
            raise self.refuse(actor, f"{f['character']}'s special is "
                              f"{SPECIAL_TABLE[f['special']][0]}, not {name}.")
        if f["special_used"]:
            raise self.refuse(actor, f"{name} is used once per combat and has been used.")
        if self.stage != moment[key] or (key in ("cheap-shot", "cook-the-books")
                                         and self.armed is not None):
            raise self.refuse(actor, f"{name} is used {timing}.")
        dice = p["dice"]
        needs = {"cook-the-books": 2, "loaded-dice": 1, "misdirection": 1}.get(key, 0)
        if len(dice) != needs:
            forms = {0: f"`special {key}`", 1: f"`special {key} AGI` (one die)",
                     2: f"`special {key} AGI+FOR` (two dice)"}
            raise self.refuse(actor, f"Write {forms[needs]}.")
        if key == "cook-the-books":
            return self.cook_the_books(actor, fi, dice)
        if key == "cheap-shot":
            if not self.attack_moves(fi, "cheap-shot"):
                raise self.refuse(actor, "Cheap Shot needs a Boosted Ability Attack to make.")
            f["special_used"] = True
            self.armed = "cheap-shot"
            return [Event(f"{self.label(fi)} plays Cheap Shot: the Boosted Ability Attack this "
                          "turn adds +4 instead of +2.", "special",
                          data={"special": key, "fighter": f["id"]})]
        if key == "misdirection":
            return self.misdirection(actor, fi, dice[0])
        if key == "loaded-dice":
            d = dice[0]
            if d not in self.attack["dice"]:
                raise self.refuse(actor, f"{d} is not an attacking die.")
            f["special_used"] = True
            self.attack["loaded"] = {"die": d, "from": self.attack["rolls"][d], "to": None}
            self.stage = "loaded_roll"
            return [Event(f"{self.label(fi)} plays Loaded Dice: {d} (rolled "
                          f"{self.attack['rolls'][d]}) is re-rolled.", "special",
                          data={"special": key, "fighter": f["id"], "die": d})]
        if key == "thick-skull":
            f["special_used"] = True
            self.stage = "skull_roll"
            return [Event(f"{self.label(fi)} plays Thick Skull: {self.attack['ability']} is "
                          "re-rolled instead of discarded.", "special",
                          data={"special": key, "fighter": f["id"],
                                "die": self.attack["ability"]})]
        # rampage
        f["special_used"] = True
        self.armed = "rampage"
        self.stage = "declare"
        return [Event(f"{self.label(fi)} plays Rampage: one extra Ability Attack.", "special",
                      data={"special": key, "fighter": f["id"]})]

    def cook_the_books(self, actor: int, fi: int, dice: list[str]) -> list[Event]:
        f = self.fighters[fi]
        a, b = dice
        if a == b:
            raise self.refuse(actor, "Swap two different dice.")
        for d in dice:
            if not B.is_standing(f, d):
                raise self.refuse(actor, f"You have no {d} die in play.")
        if f["dice"][a] != f["dice"][b]:
            raise self.refuse(actor, f"{a} is a d{f['dice'][a]} and {b} a d{f['dice'][b]}: "
                              "Cook the Books swaps dice of the same size.")
        va, vb = f["values"][a], f["values"][b]
        f["values"][a], f["values"][b] = vb, va
        f["special_used"] = True
        return [Event(f"{self.label(fi)} plays Cook the Books: {a} {va} ↔ {b} {vb} "
                      f"(now {a} {vb}, {b} {va}).", "special",
                      data={"special": "cook-the-books", "fighter": f["id"], "dice": [a, b]})]

    def misdirection(self, actor: int, fi: int, d: str) -> list[Event]:
        a = self.attack
        if d not in self.misdirection_dice():
            raise self.refuse(actor, f"Misdirection moves the attack to another of your dice "
                              f"of the same size (d{self.fighters[fi]['dice'][a['ability']]}) "
                              f"in play; {d} is not one.")
        f = self.fighters[fi]
        f["special_used"] = True
        a["misdirected_from"] = a["ability"]
        a["ability"] = d
        events = [Event(f"{self.label(fi)} plays Misdirection: the attack on "
                        f"{a['misdirected_from']} now hits {d} (standing {f['values'][d]}).",
                        "special", data={"special": "misdirection", "fighter": f["id"],
                                         "from": a["misdirected_from"], "to": d})]
        return events + self.to_defense()
