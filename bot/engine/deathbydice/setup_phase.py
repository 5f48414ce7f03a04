"""The secret set-up (rulings, "Set-up"): the rolled values go privately to their owners,
each player places them (`setup STR=5 ...`), and all boards are revealed together; lowest
total first, any tie re-rolls everything.

A mixin of `DeathByDice` (game.py), which owns the state; this module only holds the steps.
"""
from __future__ import annotations

from typing import Any

from ..core import AmbiguousMoveError, Event
from . import board as B


class SecretSetup:
    """The set-up steps of `DeathByDice`."""

    def _move_setup(self, actor: int, p: dict[str, Any]) -> list[Event]:
        if self.stage != "setup":
            raise self.not_now(actor, "A set-up")
        mine = self.seat_fighters(actor)
        waiting = [fi for fi in mine if self.fighters[fi]["arranged"] is None]
        if p["ref"] is not None:
            fi = self.resolve_ref(p["ref"], "character you set up")
            if fi not in mine:
                raise self.refuse(actor, "You can only set up your own character.")
        elif len(waiting) == 1:
            fi = waiting[0]
        else:
            raise AmbiguousMoveError(
                "You run several characters still to set up; start with which one: "
                + ", ".join(f"{self.fighters[i]['character']} (`setup {self.fid(i)} ...`)"
                            for i in waiting) + ".")
        f = self.fighters[fi]
        if f["arranged"] is not None:
            raise self.refuse(actor, f"{self.label(fi)} is already set up.")
        values = p["values"]
        extra = [a for a in values if a not in f["dice"]]
        if extra:
            raise self.refuse(actor, f"{f['character']} has no die on "
                              + ", ".join(extra) + " (grayed out).")
        missing = [a for a in B.boxes(f) if a not in values]
        if missing:
            raise self.refuse(actor, "Place a value on every die; missing: "
                              + ", ".join(missing) + ".")
        for size in sorted(set(f["dice"].values())):
            placed = sorted(values[a] for a in B.boxes(f) if f["dice"][a] == size)
            rolled = B.same_size_values(f, size)
            if placed != rolled:
                raise self.refuse(
                    actor, f"Your d{size} dice rolled {', '.join(map(str, rolled))}; "
                    f"you placed {', '.join(map(str, placed))}. Each die keeps its size and "
                    "its rolled value.")
        f["arranged"] = {a: values[a] for a in B.boxes(f)}
        text = ", ".join(f"{a} {v}" for a, v in f["arranged"].items())
        events = [Event(f"{self.label(fi)} is set up (secret until everyone is).",
                        "setup_done", data={"fighter": f["id"]}),
                  Event(f"Your set-up for {self.label(fi)}: {text} "
                        f"(total {sum(values.values())}).", "setup_secret", to=(actor,),
                        data={"fighter": f["id"], "values": f["arranged"]})]
        if all(g["arranged"] is not None for g in self.fighters):
            events += self.reveal()
        return events

    def setup_rolled(self, values: list[int]) -> list[Event]:
        events = [Event("The set-up dice are rolled in secret: each player places their "
                        "values on their board in their secret panel.", "setup_roll",
                        data={"combat": self.combat})]
        i = 0
        for fi, f in enumerate(self.fighters):
            n = len(f["dice"])
            f["rolled"] = values[i:i + n]
            f["arranged"] = None
            i += n
            rolled = ", ".join(f"d{f['dice'][a]} {v}" for a, v in zip(B.boxes(f), f["rolled"]))
            events.append(Event(f"Your set-up roll for {self.label(fi)}: {rolled}.",
                                "setup_secret", to=(f["seat"],),
                                data={"fighter": f["id"],
                                      "rolled": [[f["dice"][a], v] for a, v in
                                                 zip(B.boxes(f), f["rolled"])]}))
        self.stage = "setup"
        return events

    def reveal(self) -> list[Event]:
        """Rulings, "Set-up": reveal together; lowest total first, a tie re-rolls everything
        (more players: ascending totals; Bosses & Minions: the Boss against the Minions'
        combined total)."""
        events = []
        for fi, f in enumerate(self.fighters):
            f["values"] = dict(f["arranged"])
            f["arranged"] = None
            f["rolled"] = None
            body = ", ".join(f"{a} {v}" for a, v in f["values"].items())
            events.append(Event(f"{self.label(fi)} set up: {body} (total {B.total(f)}).",
                                "setup_reveal",
                                data={"fighter": f["id"], "values": f["values"]}))
        totals = self.side_totals()
        if len(set(totals)) < len(totals):
            for f in self.fighters:
                f["values"] = {a: None for a in f["dice"]}
            self.stage = "setup_roll"
            events.append(Event(
                "Equal totals (" + ", ".join(f"{self.side_name(s)} {t}"
                                             for s, t in enumerate(totals))
                + "): everyone re-rolls all their dice and sets up again.", "setup_tie",
                data={"totals": totals}))
            return events
        self.side_order = sorted(range(len(self.sides)), key=lambda s: totals[s])
        first = self.side_order[0]
        events.append(Event(
            f"{self.side_name(first)} goes first (lowest total {totals[first]}). Order: "
            + ", ".join(self.side_name(s) for s in self.side_order) + ".", "order",
            data={"order": self.side_order, "totals": totals}))
        self.turn = 0
        over = self.combat_over()
        if over is not None:
            return events + self.end_combat(*over)
        return events + self.next_turn()
