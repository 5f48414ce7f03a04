"""Crazy Die-Man is Unbreakable! — the referee (rulebook seeds/000 + rulings/diemen.md).

Turn flow (rulings, "A turn"): start of turn (customers leave if no Super Sale Banner stands on
your Stand) -> Move (`move S3`, optional) -> declare flicks (`flick 0..2`, `flick 3 bonus`) ->
each flick: optional Called Shot, then a physical report (`result ...`, opponent may `dispute`)
or a simulated flick (chance draws) -> Reposition (one banner at a time, then `done`) ->
Customers (`customer C2` ..., or `end`) -> the other Die-Man's turn.

Modules: the Flick step is `flicking.py`, Reposition and Customers `reposition.py`, shared
helpers and constants `base.py`. Both resolution modes end in `Flicking._resolve`, which calls
`rules.apply_flick`, the one function that applies a flick.
"""
from __future__ import annotations

from typing import Any

from ..core import CHANCE, Chance, Ending, Event, InvalidMoveError, MoveText, Option, faces
from ..menu import MenuGroup
from . import board, describe as describe_mod, menu as menu_mod, notation, prompt, rules
from . import view as view_mod
from .base import MODES, RESPONSE_SECONDS, ROUND_LIMIT, SETUP_TIMEOUT, new_flick, plural
from .flicking import Flicking
from .reposition import Reposition


# All 15 choices of 4 banner spots out of 6, in spot order.
SETUP_MOVES = tuple("banners " + " ".join(s for k, s in enumerate(board.BANNER_SPOTS)
                                          if k not in (i, j))
                    for i in range(6) for j in range(i + 1, 6))


class DieMen(Flicking, Reposition):
    KIND = "diemen"
    SECRET_PHASES = frozenset({"setup"})  # banners are set up in secret
    TITLE = "Crazy Die-Man is Unbreakable!"
    SCHEMA = 1
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPTIONS = (
        Option("mode", "physical",
               "how flicks are resolved: physical (real dice, reported) or simulated",
               choices=MODES),
        Option("vote_seconds", 60, "seconds for the Stand Cry vote that picks the first player",
               10, 600),
    )

    # --- state ------------------------------------------------------------------------------
    # A bot cannot flick a real die: any game a bot plays has simulated flicks.
    BOT_OPTIONS = {"mode": "simulated"}
    PRACTICE_NOTE = "Flicks are simulated: I can't flick a real die."

    @classmethod
    def solo_options(cls, players: int, chosen: dict[str, Any]) -> dict[str, Any]:
        # The crowd is one bot: its Stand Cry vote is as short as the rules allow.
        shortest = next(o.minimum for o in cls.OPTIONS if o.name == "vote_seconds")
        return {"vote_seconds": shortest, **chosen, **cls.BOT_OPTIONS}

    def setup(self) -> None:
        """The whole state (JSON-native):
        floor: sides, banners, customers, Property Damage (shape in `rules`);
        phase: setup, first, move, flick, review, switch, reposition, customers;
        setup_choice: each seat's secret banner spots until both are in (then [[], []]);
        first / active: seats; turn: turns started (the game's very first turn is 1);
        t: this turn's bookkeeping — ssb_at_start (Super Sale Banners standing when it began),
           moved, declared, bonus, resolved, flick (see `base.new_flick`), placed and stand_new
           (banners moved this Reposition), attract (customers still to place);
        flicks: the last resolved flicks (the view's arrows); flick_count: all flicks so far.
        """
        self.floor = rules.new_floor()
        self.phase = "setup"
        self.setup_choice: list[list[str] | None] = [None, None]
        self.first: int | None = None
        self.active: int | None = None
        self.turn = 0
        self.t: dict[str, Any] | None = None     # this turn's bookkeeping
        self.flicks: list[dict[str, Any]] = []   # the last resolved flicks, oldest first
        self.flick_count = 0

    # --- whose move -------------------------------------------------------------------------------
    def _actors(self) -> list[Any]:
        ph = self.phase
        if ph == "setup":
            return [p for p in (0, 1) if self.setup_choice[p] is None]
        if ph == "first":
            return [CHANCE]
        if ph in ("review", "switch"):
            return [1 - self.active]
        if ph == "flick" and self.flick_mode() == "simulated" \
                and self._flick()["target"] is not None:
            return [CHANCE]
        return [self.active]

    def _chance(self) -> Chance:
        if self.phase == "first":
            return Chance((faces("first player", ["1", "2"]),),
                          "the Stand Cry vote for the first player")
        return self._sim_chance()

    # --- legal moves ------------------------------------------------------------------------------
    def _legal(self, player: int) -> list[str]:
        ph = self.phase
        if ph == "setup":
            return list(SETUP_MOVES)
        if ph == "review":
            return ["accept", "dispute"]
        if ph == "switch":
            return ["agree", "refuse"]
        t = self.t
        me = self.side(player)
        out: list[str] = []
        if ph == "move":
            if not t["moved"] and t["ssb_at_start"] == 0:
                out += [f"move {s}" for s in board.STAND_SPOTS if s != me["stand"]]
            out += ["flick 0", "flick 1", "flick 2"]
            if self.bonus_allowed():
                out.append("flick 3 bonus")
            out += self._oops_moves()
            return out
        if ph == "flick":
            return self._flick_moves(player)
        if ph == "reposition":
            return self._reposition_moves(player)
        if ph == "customers":
            return [f"customer {c}" for c in board.CUSTOMER_SPOTS
                    if c not in me["customers"]] + ["end"]
        return out

    # --- moves ------------------------------------------------------------------------------------
    def _apply(self, actor: Any, move: str) -> list[Event]:
        if actor == CHANCE:
            return self._apply_chance(move)
        parts = move.split()
        verb = parts[0].lower()
        args = parts[1:]
        handler = getattr(self, f"_do_{verb}", None)
        if verb not in notation.VERBS or handler is None:
            raise InvalidMoveError(
                f"{parts[0]!r} is not a Die-Man move. Moves: "
                + ", ".join(f"`{v}`" for v in notation.VERBS)
                + " (see `/games rules game:diemen`).")
        return handler(actor, args)

    # set-up ------------------------------------------------------------------------------------
    def _do_banners(self, p: int, args: list[str]) -> list[Event]:
        form = "`banners F1 F3 B2 B3` (any 4 of F1, F2, F3, B1, B2, B3)"
        self._phase_is(p, ("setup",), "Setting up banners")
        spots = []
        for a in args:
            for tok in a.split(","):
                if not tok:
                    continue
                side, spot = board.parse_spot(tok)
                if side not in (None, p) or spot not in board.BANNER_SPOTS:
                    raise InvalidMoveError(f"Banners go on your banner spots: write {form}.")
                spots.append(spot)
        if len(spots) != 4 or len(set(spots)) != 4:
            raise InvalidMoveError(f"Name 4 different banner spots: {form}.")
        spots = [s for s in board.BANNER_SPOTS if s in spots]
        self.setup_choice[p] = spots
        events = [Event(f"{self._who(p)} has set up their banners in secret.", "setup_done",
                        data={"seat": p}),
                  Event(f"Your banners: {' '.join(spots)}.", "setup_secret", to=(p,),
                        data={"spots": spots})]
        if all(c is not None for c in self.setup_choice):
            for seat in (0, 1):
                self.side(seat)["banners"] = [{"at": s, "up": True}
                                              for s in self.setup_choice[seat]]
            self.phase = "first"
            events.append(Event(
                f"Banners revealed: {self.name(0)} " + " ".join(self.setup_choice[0]) + "; "
                f"{self.name(1)} " + " ".join(self.setup_choice[1]) + ". Now the Stand Cry "
                "vote picks who goes first.", "setup_revealed",
                data={"banners": [list(c) for c in self.setup_choice]}))
            self.setup_choice = [[], []]  # revealed: nothing secret remains
        return events

    # chance ------------------------------------------------------------------------------------
    def _apply_chance(self, move: str) -> list[Event]:
        tokens = self._chance().parse(move)
        if self.phase == "first":
            self.first = int(tokens[0]) - 1
            events = [Event(f"{self._who(self.first)} has the best Stand Cry and goes first.",
                            "first_player", data={"seat": self.first})]
            return events + self._start_turn(self.first)
        return self._sim_roll(tokens)

    # the turn ------------------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if self.turn >= 2 * ROUND_LIMIT:
            d = [s["damage"] for s in self.floor["sides"]]
            if d[0] == d[1]:
                return [self.finish([], f"the convention closed after {ROUND_LIMIT} rounds "
                                        f"with equal Property Damage ({d[0]})",
                                    Ending.ROUND_LIMIT)]
            w = 0 if d[0] < d[1] else 1
            return [self.finish([w], f"the convention closed after {ROUND_LIMIT} rounds; "
                                     f"{self.name(w)} has less Property Damage ({d[w]} vs "
                                     f"{d[1 - w]})", Ending.ROUND_LIMIT)]
        self.turn += 1
        self.active = seat
        me = self.side(seat)
        ssb = rules.super_sale_up(me)
        self.t = {"ssb_at_start": ssb, "moved": False, "declared": None, "bonus": False,
                  "resolved": 0, "flick": None, "placed": [], "stand_new": 0, "attract": 0}
        self.phase = "move"
        events.append(Event(f"Turn {self.turn}: {self._who(seat)} to play.", "turn",
                            data={"turn": self.turn, "seat": seat}))
        if ssb == 0 and me["customers"]:
            gone = sorted(me["customers"])
            self.floor["supply"] += len(gone)
            me["customers"] = []
            events.append(Event(
                f"No Super Sale Banner stands on {self._who(seat)}'s Stand: their customers "
                f"leave ({', '.join(gone)}).", "customers_leave",
                data={"seat": seat, "spots": gone}))
        return events

    def _end_turn(self) -> list[Event]:
        return self._start_turn(1 - self.active)

    def _do_move(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("move",), "Moving your Stand")
        if len(args) != 1:
            raise InvalidMoveError("Write `move S1`, `move S2` or `move S3`.")
        side, spot = board.parse_spot(args[0])
        if side not in (None, p) or spot not in board.STAND_SPOTS:
            raise InvalidMoveError("Your Stand moves to one of your stand spots: "
                                   "`move S1`, `move S2` or `move S3`.")
        me = self.side(p)
        if self.t["ssb_at_start"]:
            raise self._refuse(p, "You started this turn with a Super Sale Banner standing on "
                                  f"your Stand, so it stays at {me['stand']} this turn.")
        if self.t["moved"]:
            raise self._refuse(p, "You have already moved your Stand this turn.")
        if spot == me["stand"]:
            raise self._refuse(p, f"Your Stand is already at {spot}.")
        old = me["stand"]
        me["stand"] = spot
        self.t["moved"] = True
        return [Event(f"{self._who(p)} moves their Stand from {old} to {spot}.", "stand_move",
                      data={"seat": p, "from": old, "to": spot})]

    def _do_flick(self, p: int, args: list[str]) -> list[Event]:
        """Declare the turn's flicks; with `aim=`/`called=` also the first flick's shot, in the
        same move (a declaration never stands without the shot it was made with)."""
        decl = notation.declare(args)
        n = decl["count"]
        if self.phase != "move":
            if self.t and self.t["declared"] is not None:
                raise self._refuse(
                    p, f"You already declared {plural(self.t['declared'], 'flick')} this turn.")
            self._phase_is(p, ("move",), "Declaring flicks")
        if n > 3:
            raise self._refuse(p, f"You cannot flick {n} dice: 2 at most, or 3 as a Bonus Flick.")
        if n == 3:
            if self.turn == 1:
                raise self._refuse(p, "No Bonus Flick on the game's very first turn.")
            if not rules.front_standing(self.side(p)):
                raise self._refuse(p, "A Bonus Flick needs one of your banners standing in "
                                      "your front area (F1-F3).")
        t = self.t
        t["declared"] = n
        t["bonus"] = n == 3
        text = (f"{self._who(p)} declares {plural(n, 'flick')}"
                + (" (Bonus Flick)" if n == 3 else "") + ".")
        if n == 0:
            if decl["aim"] or decl["called"]:
                raise self._refuse(p, "You declared no flicks, so there is nothing to aim or "
                                      "call.")
            self.phase = "reposition"
            text += " No flicks this turn: on to Reposition."
        else:
            t["flick"] = new_flick()
            self.phase = "flick"
        events = [Event(text, "declare", data={"seat": p, "flicks": n, "bonus": n == 3})]
        if decl["called"]:
            events += self._do_called(p, [decl["called"]])
        elif decl["aim"]:
            if self.flick_mode() != "simulated":
                raise self._refuse(p, "A real die goes where you flick it: `aim=` is only for "
                                      "simulated flicks (a Called Shot is `called=`).")
            events += self._do_aim(p, [decl["aim"]])
        return events

    # --- timers -----------------------------------------------------------------------------------
    def timeout_move(self, player: int) -> str | None:
        if self.result is not None or player not in self._actors():
            return None
        ph = self.phase
        if ph == "setup":
            return SETUP_TIMEOUT
        if ph == "review":
            return "accept"
        if ph == "switch":
            return "refuse"
        if ph == "move":
            return "flick 0"
        if ph == "flick":
            # An unreported flick counts as off the floor with a 1 (a Called Shot costs 1).
            return "result 1 off" if self.flick_mode() == "physical" else "aim middle"
        if ph == "reposition":
            moves = self._reposition_moves(player)
            place = [m for m in moves if m.startswith("place ")]
            return place[0] if place else "done"
        if ph == "customers":
            return "end"
        return None

    def wait_seconds(self) -> int | None:
        if self.result is not None:
            return None
        if self.phase in ("review", "switch"):
            return RESPONSE_SECONDS
        if self.phase == "first":
            return int(self.options["vote_seconds"])
        return None

    # --- views ------------------------------------------------------------------------------------
    def _phase(self) -> str:
        return self.phase

    def _describe(self, move: str, seat: int) -> MoveText:
        return describe_mod.describe(self, move, seat)

    def _menu(self, seat: int) -> list[MenuGroup]:
        return menu_mod.groups(self, seat)

    def _status(self) -> str:
        return prompt.status(self)

    def _todo(self, seat: int) -> str:
        return prompt.todo(self, seat)

    def _waiting(self, seat: int) -> str:
        return prompt.waiting(self, seat)

    def view(self, player: int | None) -> dict[str, Any]:
        return view_mod.build(self, player)

    def text(self, player: int | None = None) -> str:
        return view_mod.render_text(self.view(player))

