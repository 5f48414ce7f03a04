"""One attack from declaration to the victory check (the seed's "Sequence of Play", steps
1-8, with "Types of Attacks" and the rulings' "Types of Defense").

The attack in progress is `self.attack`, a JSON dict:

    attacker, target        fighter indices; ability: the targeted ability (after Misdirection)
    type, dice, assist      "ability" | "boosted" | "complex"; attacking abilities (ring order);
                            the Boosted attack's assisting ability or None
    bonus, cheap_shot       +0 / +2 / +4; rampage: this is Rampage's extra attack
    misdirected_from        the ability first targeted, when Misdirection moved the attack
    defense                 None or {type: "boosted" | "linked", die, bonus}
    rolls, loaded           {ability: value} once rolled; Loaded Dice {die, from, to}
    total, against, target_value, result ("won" | "lost")
    discarded, saved, rerolled, assists   what happened to which dice
    *_offered, *_done       progress flags, so `advance()` can resume after any decision

A mixin of `DeathByDice` (game.py), which owns the state.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..core import Event
from . import board as B
from . import notation as N
from .data import ABILITIES, BOOST, CHEAP_SHOT_BOOST, UNLINKED


class AttackSequence:
    """Declaring, defending, rolling and resolving one attack."""

    def attack_table(self, fi: int, armed: str | None = None
                     ) -> list[tuple[str, tuple[str, ...], list[tuple[int, str, str]]]]:
        """Every attack `fi` may declare, grouped: [(type, attacking dice in notation order,
        [(target fighter, target ability, "@2:CON")])]. `attack_moves` writes them out;
        the screens' attack menu (`describe.attack_groups`) reads the same table."""
        f = self.fighters[fi]
        targets = [(o, a, f"{self.fighters[o]['id']}:{a}") for o in self.opponents(fi)
                   for a in B.standing(self.fighters[o])]
        groups: list[tuple[str, tuple[str, ...], list[tuple[int, str, str]]]] = []
        if not targets:
            return groups
        if armed in (None, "rampage"):
            for a in B.standing(f):
                same = [t for t in targets if t[1] == a]
                if same:
                    groups.append(("ability", (a,), same))
        if armed in (None, "cheap-shot"):
            groups += [("boosted", pair, targets) for pair in B.boosted_pairs(f)]
        if armed is None:
            # complex_sets are in ring order already, as the notation wants
            groups += [("complex", group, targets) for group in B.complex_sets(f)]
        return groups

    def attack_moves(self, fi: int, armed: str | None = None) -> list[str]:
        """Every attack `fi` may declare, in notation (`N.fmt_attack`'s canonical text, built
        here by hand: a six-player turn has hundreds, and this is the engine's hot loop)."""
        out: list[str] = []
        for type_, dice, targets in self.attack_table(fi, armed):
            head = f"attack {type_} {'+'.join(dice)} -> "
            out += [head + t[2] for t in targets]
        return out

    def defense_choices(self) -> list[tuple[str, str]]:
        a = self.attack
        tgt = self.fighters[a["target"]]
        out = [("boosted", d) for d in B.neighbours(tgt, a["ability"])]
        out += [("linked", d) for d in B.linked(tgt, a["ability"])]
        return out

    def defend_moves(self) -> list[str]:
        return [N.fmt_defend("none")] + [N.fmt_defend(k, d) for k, d in self.defense_choices()]

    def discard_options(self) -> list[tuple[str, ...]]:
        """Seed, "Complex Attack": a lost attack discards one attacking die of the attacker's
        choice; doubles discard the two dice that rolled them (the attacker picks two when
        more match); lost with doubles among 3+ dice: the pair and one other die; with only
        two dice both go ("the same die cannot be targeted twice")."""
        a = self.attack
        dice, rolls = a["dice"], a["rolls"]
        lost = a["result"] == "lost"
        pairs = [p for p in combinations(dice, 2) if rolls[p[0]] == rolls[p[1]]]
        finals: set[tuple[str, ...]] = set()
        for p in pairs:
            others = [d for d in dice if d not in p]
            if lost and others:
                finals.update(tuple(N.ring_sorted([*p, o])) for o in others)
            else:
                finals.add(tuple(N.ring_sorted(list(p))))
        if not pairs and lost:
            finals.update((d,) for d in dice)
        return sorted(finals, key=lambda s: [ABILITIES.index(d) for d in s])

    def _move_attack(self, actor: int, p: dict[str, Any]) -> list[Event]:
        if self.stage != "declare":
            raise self.not_now(actor, "An attack")
        fi = self.active
        f = self.fighters[fi]
        type_, dice = p["type"], p["dice"]
        if self.armed == "rampage" and type_ != "ability":
            raise self.refuse(actor, "Rampage's extra attack must be an Ability Attack.")
        if self.armed == "cheap-shot" and type_ != "boosted":
            raise self.refuse(actor, "Cheap Shot is declared: make a Boosted Ability Attack.")
        if len(set(dice)) != len(dice):
            raise self.refuse(actor, "The same die cannot be used twice in one attack.")
        for d in dice:
            if d not in f["dice"]:
                raise self.refuse(actor, f"{f['character']} has no {N.ability_name(d)} die.")
            if not B.is_standing(f, d):
                raise self.refuse(actor, f"Your {d} die has been discarded.")
        if type_ == "ability" and len(dice) != 1:
            raise self.refuse(actor, "An Ability Attack rolls one die: `attack ability STR "
                              "-> @2:STR`.")
        if type_ == "boosted":
            if len(dice) != 2:
                raise self.refuse(actor, "A Boosted Ability Attack names the attacking die and "
                                  "the adjacent assisting die: `attack boosted AGI+STR -> "
                                  "@2:CON`.")
            if dice[1] not in B.neighbours(f, dice[0]):
                raise self.refuse(actor, f"{dice[1]} is not next to {dice[0]} on the board, so "
                                  "it cannot assist.")
        if type_ == "complex":
            if len(dice) < 2:
                raise self.refuse(actor, "A Complex Attack rolls 2 or more Linked dice.")
            colours = {f["colours"][d] for d in dice}
            if len(colours) != 1 or UNLINKED in colours:
                raise self.refuse(actor, "A Complex Attack needs Linked dice (all the same "
                                  "colour, not white).")
        target = self.resolve_ref(p["ref"], "character you target")
        if target not in self.opponents(fi):
            raise self.refuse(actor, "Attack an opponent, not your own side.")
        tf = self.fighters[target]
        ability = p["ability"]
        if not B.is_standing(tf, ability):
            raise self.refuse(actor, f"{self.label(target)} has no {ability} die in play.")
        if type_ == "ability" and ability != dice[0]:
            raise self.refuse(actor, f"An Ability Attack targets the same ability: "
                              f"`-> {tf['id']}:{dice[0]}`.")
        # Every condition of `attack_moves` is checked above, so the move is legal without
        # building the whole list (hundreds of moves at a six-player table).
        return self.declare(fi, type_, dice, target, ability)

    def declare(self, fi: int, type_: str, dice: list[str], target: int,
                ability: str) -> list[Event]:
        f = self.fighters[fi]
        cheap = type_ == "boosted" and self.armed == "cheap-shot"
        bonus = (CHEAP_SHOT_BOOST if cheap else BOOST) if type_ == "boosted" else 0
        attacking = [dice[0]] if type_ == "boosted" else N.ring_sorted(dice)
        self.attack = {
            "attacker": fi, "type": type_, "dice": attacking,
            "assist": dice[1] if type_ == "boosted" else None, "bonus": bonus,
            "cheap_shot": cheap, "rampage": self.armed == "rampage",
            "target": target, "ability": ability, "misdirected_from": None,
            "defense": None, "rolls": None, "loaded": None, "loaded_offered": False,
            "total": None, "against": None, "target_value": None, "result": None,
            "target_done": False, "skull_offered": False, "saved": None,
            "discarded": [], "discards_done": False, "assists": [], "rerolled": [],
            "assist_done": False}
        self.armed = None
        names = {"ability": "an Ability Attack", "boosted": "a Boosted Ability Attack",
                 "complex": "a Complex Attack"}
        how = " + ".join(f"{d} (d{f['dice'][d]})" for d in attacking)
        if type_ == "boosted":
            how += f", +{bonus} from {dice[1]}" + (" (Cheap Shot)" if cheap else "")
        tf = self.fighters[target]
        events = [Event(
            f"{self.label(fi)} declares {names[type_]}: {how} against {ability} of "
            f"{self.label(target)} (standing {tf['values'][ability]}).", "attack",
            data={"attacker": f["id"], "type": type_, "dice": attacking,
                  "assist": self.attack["assist"], "bonus": bonus,
                  "target": N.die_name(tf["id"], ability)})]
        return events + self.to_defense()

    def to_defense(self) -> list[Event]:
        """Step 3 is the defender's decision, skipped only when nothing but `defend none`
        is possible (no adjacent or Linked die, no Misdirection)."""
        if len(self._legal_defend()) > 1:
            self.stage = "defend"
            return []
        self.stage = "attack_roll"
        return [Event(f"{self.label(self.attack['target'])} has no defense to declare.",
                      "defense", data={"type": "none", "forced": True})]

    def _legal_defend(self) -> list[str]:
        return self.defend_moves() + self.misdirection_moves()

    def _move_defend(self, actor: int, p: dict[str, Any]) -> list[Event]:
        if self.stage != "defend":
            raise self.not_now(actor, "A defense")
        a = self.attack
        tf = self.fighters[a["target"]]
        type_, d = p["type"], p["die"]
        if type_ == "boosted" and d not in B.neighbours(tf, a["ability"]):
            raise self.refuse(actor, f"Boosted Defense needs a die next to {a['ability']} "
                              f"on your board; {d} is not one.")
        if type_ == "linked" and d not in B.linked(tf, a["ability"]):
            raise self.refuse(actor, f"Linked Defense needs a die of the same colour as "
                              f"{a['ability']} (not white) still in play; {d} is not one.")
        if type_ == "none":
            self.stage = "attack_roll"
            return [Event(f"{self.label(a['target'])} does not defend.", "defense",
                          data={"type": "none"})]
        bonus = BOOST if type_ == "boosted" else tf["values"][d]
        a["defense"] = {"type": type_, "die": d, "bonus": bonus}
        self.stage = "attack_roll"
        what = "Boosted Defense" if type_ == "boosted" else "Linked Defense"
        return [Event(f"{self.label(a['target'])} declares {what} with {d}: +{bonus} "
                      f"(defending at {tf['values'][a['ability']] + bonus}).", "defense",
                      data={"type": type_, "die": d, "bonus": bonus})]

    def _move_pass(self, actor: int, p: dict[str, Any]) -> list[Event]:
        if self.stage == "loaded":
            return self.advance()
        if self.stage == "thick_skull":
            return self.advance()
        if self.stage == "rampage":
            return self.next_turn()
        raise self.refuse(actor, "There is nothing to pass on now: no passing on your attack "
                          "(a character that can attack must)." if self.stage == "declare"
                          else "There is nothing to pass on now.")

    def _move_discard(self, actor: int, p: dict[str, Any]) -> list[Event]:
        if self.stage != "discard":
            raise self.not_now(actor, "A discard")
        chosen = tuple(N.ring_sorted(p["dice"]))
        options = self.discard_options()
        if chosen not in options:
            raise self.refuse(actor, "Those are not dice this attack makes you discard.")
        return self.discard_attackers(chosen) + self.advance(discards_done=True)

    def discard_attackers(self, dice: tuple[str, ...] | list[str]) -> list[Event]:
        a = self.attack
        f = self.fighters[a["attacker"]]
        events = []
        for d in dice:
            value = f["values"][d]
            f["values"][d] = None
            a["discarded"].append({"die": N.die_name(f["id"], d), "value": value,
                                   "why": "own"})
        lost = a["result"] == "lost"
        doubles = len(dice) >= 2
        why = ("the attack was lost and doubles were rolled" if lost and doubles else
               "doubles were rolled" if doubles else "the attack was lost")
        events.append(Event(f"{self.label(a['attacker'])} discards "
                            + ", ".join(dice) + f" ({why}).", "discard",
                            data={"fighter": f["id"], "dice": list(dice)}))
        return events

    def attack_rolled(self, values: list[int]) -> list[Event]:
        """A chance answer during an attack: the roll, Loaded Dice, Thick Skull, assists."""
        a = self.attack
        if self.stage == "attack_roll":
            a["rolls"] = dict(zip(a["dice"], values))
            return self.advance()
        if self.stage == "loaded_roll":
            a["loaded"]["to"] = values[0]
            a["rolls"][a["loaded"]["die"]] = values[0]
            ev = Event(f"Loaded Dice: {a['loaded']['die']} {a['loaded']['from']} → "
                       f"{values[0]}.", "reroll", data=dict(a["loaded"]))
            return [ev] + self.advance()
        if self.stage == "skull_roll":
            tf = self.fighters[a["target"]]
            old = tf["values"][a["ability"]]
            tf["values"][a["ability"]] = values[0]
            a["saved"] = {"die": N.die_name(tf["id"], a["ability"]), "from": old,
                          "to": values[0]}
            ev = Event(f"Thick Skull: {self.label(a['target'])} keeps {a['ability']}, "
                       f"re-rolled {old} → {values[0]}.", "reroll", data=dict(a["saved"]))
            return [ev] + self.advance(target_done=True)
        if self.stage == "assist_roll":
            parts = []
            for (fi, d), v in zip(a["assists"], values):
                f = self.fighters[fi]
                a["rerolled"].append({"die": N.die_name(f["id"], d), "from": f["values"][d],
                                      "to": v})
                parts.append(f"{d} of {self.label(fi)} {f['values'][d]} → {v}")
                f["values"][d] = v
            ev = Event("Assisting dice re-rolled: " + ", ".join(parts) + ".", "reroll",
                       data={"rerolled": a["rerolled"]})
            return [ev] + self.advance(assist_done=True)
        raise AssertionError(self.stage)

    def advance(self, **done: bool) -> list[Event]:
        """Carry the attack on to its next decision or roll (steps 4-8)."""
        a = self.attack
        a.update(done)
        events: list[Event] = []
        if a["result"] is None:
            if self.special_ready(a["attacker"], "loaded-dice") and not a["loaded_offered"]:
                a["loaded_offered"] = True
                self.stage = "loaded"
                rolled = ", ".join(f"{d} {v}" for d, v in a["rolls"].items())
                return [Event(f"{self.label(a['attacker'])} rolled {rolled}; Loaded Dice may "
                              "re-roll one of them.", "roll", data={"rolls": a["rolls"]})]
            events += self.resolve()
        if a["result"] == "won" and not a["target_done"]:
            if self.special_ready(a["target"], "thick-skull") and not a["skull_offered"]:
                a["skull_offered"] = True
                self.stage = "thick_skull"
                return events
            events += self.discard_target()
        if a["type"] == "complex" and not a["discards_done"]:
            options = self.discard_options()
            if len(options) > 1:
                self.stage = "discard"
                events.append(Event(f"{self.label(a['attacker'])} chooses the dice to discard: "
                                    + " or ".join("+".join(o) for o in options) + ".",
                                    "discard_choice",
                                    data={"options": [list(o) for o in options]}))
                return events
            if options:
                events += self.discard_attackers(options[0])
            a["discards_done"] = True
        if not a["assist_done"]:
            a["assists"] = []
            if a["assist"] is not None:
                a["assists"].append([a["attacker"], a["assist"]])
            if a["defense"] is not None:
                a["assists"].append([a["target"], a["defense"]["die"]])
            if a["assists"]:
                self.stage = "assist_roll"
                return events
            a["assist_done"] = True
        return events + self.after_attack()

    def resolve(self) -> list[Event]:
        """Step 5. Ability Attack: equal or greater wins; Boosted and Complex: strictly
        greater. The attacking dice go back with the values they rolled (step 7)."""
        a = self.attack
        att = self.fighters[a["attacker"]]
        tf = self.fighters[a["target"]]
        target_value = tf["values"][a["ability"]]
        if a["defense"] is not None and a["defense"]["type"] == "linked":
            a["defense"]["bonus"] = tf["values"][a["defense"]["die"]]
        against = target_value + (a["defense"]["bonus"] if a["defense"] else 0)
        total = sum(a["rolls"].values()) + a["bonus"]
        won = total >= against if a["type"] == "ability" else total > against
        a.update(total=total, against=against, target_value=target_value,
                 result="won" if won else "lost")
        for d, v in a["rolls"].items():
            att["values"][d] = v
        rolled = " + ".join(f"{d} {v}" for d, v in a["rolls"].items())
        if a["bonus"]:
            rolled += f" + {a['bonus']}"
        if len(a["rolls"]) > 1 or a["bonus"]:
            rolled += f" = {total}"
        defence = f"{a['ability']} {target_value}"
        if a["defense"]:
            defence += (f" + {a['defense']['bonus']} ({a['defense']['type']} defense from "
                        f"{a['defense']['die']}) = {against}")
        rule = "equal or greater" if a["type"] == "ability" else "greater"
        return [Event(f"{self.label(a['attacker'])} rolls {rolled} against {defence}: the "
                      f"attack {'wins' if won else 'fails'} (needs {rule}).", "result",
                      data={"rolls": a["rolls"], "total": total, "against": against,
                            "result": a["result"]})]

    def discard_target(self) -> list[Event]:
        a = self.attack
        tf = self.fighters[a["target"]]
        value = tf["values"][a["ability"]]
        tf["values"][a["ability"]] = None
        a["target_done"] = True
        a["discarded"].append({"die": N.die_name(tf["id"], a["ability"]), "value": value,
                               "why": "hit"})
        return [Event(f"{self.label(a['target'])} discards {a['ability']} ({value}).",
                      "discard", data={"fighter": tf["id"], "dice": [a["ability"]]})]

    def after_attack(self) -> list[Event]:
        """Step 8, then Rampage (rulings: victory is checked before its extra attack)."""
        a = self.attack
        self.last_attack = a
        self.attack = None
        self.stage = "between"
        over = self.combat_over()
        if over is not None:
            return self.end_combat(*over)
        fi = a["attacker"]
        if (a["type"] == "complex" and a["result"] == "won" and not a["rampage"]
                and self.special_ready(fi, "rampage") and self.attack_moves(fi, "rampage")):
            self.stage = "rampage"
            return [Event(f"{self.label(fi)} may Rampage: one extra Ability Attack.",
                          "special_offer", data={"special": "rampage"})]
        return self.next_turn()
