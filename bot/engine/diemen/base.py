"""What every step of a Die-Man turn shares: constants, the state's shape, and helpers.

`DieMenBase` is the common parent of the turn's step mixins (`flicking.Flicking`,
`reposition.Reposition`) and of the game class (`game.DieMen`). The state itself is created in
`DieMen.setup()`; its shape is described there.
"""
from __future__ import annotations

from typing import Any

from ..core import Event, Game, IllegalMoveError, join_names
from . import rules

ROUND_LIMIT = 30          # Referee ruling (ours): the convention closes after 30 rounds.
RESPONSE_SECONDS = 60     # rulings, "Physical report": dispute within 60 s
LAST_FLICKS_KEPT = 3      # flicks kept for the view's arrows: a turn has at most 3
#                           (more would only make every move's state snapshot slower)
SETUP_TIMEOUT = "banners F2 B1 B2 B3"  # Referee ruling (ours): what an idle Die-Man sets up
MODES = ("physical", "simulated")


def plural(n: int, word: str) -> str:
    """"1 flick", "2 flicks"."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def new_flick() -> dict[str, Any]:
    """The bookkeeping of one flick: its mode override (after an agreed switch), the Called
    Shot, the simulated target, the physical report being built or reviewed, the dispute, and
    the simulated draws so far."""
    return {"mode": None, "proposed": False, "proposal": None, "called": None, "target": None,
            "marks": [], "report": None, "disputed": False, "sim": None}


class DieMenBase(Game):
    floor: dict[str, Any]
    phase: str
    setup_choice: list[list[str] | None]
    first: int | None
    active: int | None
    turn: int
    t: dict[str, Any] | None
    flicks: list[dict[str, Any]]
    flick_count: int

    def side(self, seat: int) -> dict[str, Any]:
        return self.floor["sides"][seat]

    def flick_mode(self) -> str:
        """The mode of the current (or next) flick: the game's, unless both agreed otherwise
        for this flick."""
        f = self.t["flick"] if self.t else None
        return (f and f["mode"]) or self.options["mode"]

    def _flick(self) -> dict[str, Any]:
        assert self.t is not None and self.t["flick"] is not None
        return self.t["flick"]

    def super_sale_allowed(self) -> bool:
        """Rulings, "A turn" 4: new Super Sale Banners only after a turn of exactly 1 flick."""
        t = self.t
        return bool(t and t["declared"] == 1 and t["resolved"] == 1)

    def bonus_allowed(self) -> bool:
        """A Bonus Flick: a banner of yours stands in your front area, and this is not the
        game's very first turn. Checked once, when the flicks are declared."""
        return self.turn > 1 and rules.front_standing(self.side(self.active))

    def _who(self, seat: int) -> str:
        return self.name(seat)

    def _spot(self, lab: str) -> str:
        """`P2:F2` in words, the side by its player's name ("Bea's banner on F2")."""
        return rules.describe(lab, self.names)

    def _spots(self, labs: list[str]) -> str:
        return join_names([self._spot(x) for x in labs])

    def _damage_text(self) -> str:
        d = [s["damage"] for s in self.floor["sides"]]
        return f"Property Damage: {self.name(0)} {d[0]}, {self.name(1)} {d[1]}."

    def _side_summary(self, seat: int) -> str:
        s = self.side(seat)
        bits = []
        floor = rules.standing_floor(s)
        bits.append("standing banners " + (", ".join(floor) if floor else "none"))
        if rules.super_sale_up(s):
            bits.append(f"{plural(rules.super_sale_up(s), 'Super Sale Banner')} on the Stand "
                        f"at {s['stand']}")
        if s["customers"]:
            bits.append("customers " + ", ".join(sorted(s["customers"])))
        return f"{self.name(seat)} has " + "; ".join(bits)

    def _now(self, player: int) -> str:
        """'Now you may: ...' in words, from the seat's menu groups (own information only)."""
        from .menu import may
        return may(self, player)

    def _refuse(self, player: int, why: str) -> IllegalMoveError:
        now = self._now(player)
        return IllegalMoveError(why + (" " + now if now else ""))

    def _phase_is(self, player: int, phases: tuple[str, ...], what: str) -> None:
        if self.phase not in phases:
            raise self._refuse(player, f"{what} is not possible now ({self._phase_words()}).")

    def _phase_words(self) -> str:
        return {"setup": "banner set-up", "first": "choosing the first player",
                "move": "Move step", "flick": "Flick step", "review": "a report under review",
                "switch": "a mode switch proposal", "reposition": "Reposition step",
                "customers": "Customers step"}.get(self.phase, self.phase)

    def _end_turn(self) -> list[Event]:
        """Hand the turn to the other Die-Man (`game.DieMen`)."""
        raise NotImplementedError
