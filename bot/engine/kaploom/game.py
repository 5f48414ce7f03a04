"""The KAPLOOM! engine: setup, whose move it is, the chance draws, and the helpers every phase
uses (health, knock-outs, gains from the pool and the triggers they set off).

The round's phases live beside this module: phase1.py (roll & initiate actions, secret and
simultaneous), phase2.py (reveal, attack & defend), phase3.py (power up, then Phase 4's clean
up). Rulings are cited by their heading in rules/kaploom.md.
"""
from __future__ import annotations

from typing import Any

from .. import jsontext
from ..menu import MenuGroup
from ..core import (CHANCE, Ending, Actor, Chance, Event, Game, IllegalMoveError, InvalidMoveError,
                    MoveText, Option, OptionError, faces, join_names, phrase_key)
from . import describe as describe_mod, form as form_mod, menu as menu_mod, phase1, phase3, \
    view as view_mod
from .data import ALL_ACTIONS, SIDES, SUPERS, Action, board_actions
from .dice import add_face, in_order, new_action, new_pool, new_trait, slots
from .notation import PHASE1_VERBS, PHASE3_VERBS, split_verb

SUPER_KEYS = {phrase_key(name): name for name in SUPERS}
NO_SUPER = ("none", "-", "no", "")


def parse_supers(text: str, seats: int) -> list[str | None]:
    """'none', or supers in seat order ('Tough Nut,Victor Kane'; 'none' for a seat without);
    seats left out have none (one name: seat 1's)."""
    if phrase_key(text) in ("none", ""):
        return [None] * seats
    parts = [p.strip() for p in text.replace(";", ",").replace("/", ",").split(",")]
    if len(parts) > seats:
        raise OptionError(
            f"`supers` names at most {seats} supers, one per seat in seat order (e.g. "
            f"{'Tough Nut,Victor Kane' if seats == 2 else 'Tough Nut,Timeout!,Victor Kane,none'}"
            f"), or is `none`; got {len(parts)}.")
    out: list[str | None] = []
    for p in parts:
        if p.lower() in NO_SUPER:
            out.append(None)
            continue
        name = SUPER_KEYS.get(phrase_key(p))
        if name is None:
            raise OptionError(f"{p!r} is not a super: choose from {', '.join(SUPERS)} or none.")
        out.append(name)
    return out + [None] * (seats - len(out))


def seat_sides(mode: str, sides: str) -> list[str]:
    """Seat 1 takes `sides`; in 2 vs 2 seats 1-2 are one team and seats 3-4 the other
    (allies sit next to each other)."""
    other = "villain" if sides == "hero" else "hero"
    if mode == "2v2":
        return [sides, sides, other, other]
    return [sides, other]


class Kaploom(Game):
    KIND = "kaploom"
    # Phase 1 is secret; Power Up is made in the panel too (one player at a time).
    SECRET_PHASES = frozenset({"assign", "power"})
    # Phase 1 (the roll, the placements) stays behind the screen; Power Up is announced.
    HIDDEN_PHASES = frozenset({"roll", "assign"})
    TITLE = "KAPLOOM!"
    # 2: the last reveal is kept as one JSON string (`combat_json`, see `combat`).
    SCHEMA = 2
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS = (
        Option("mode", "duel", "duel (1 vs 1, 2 players) or 2v2 (two teams of two, 4 players)",
               choices=("duel", "2v2")),
        Option("supers", "none",
               "supers in seat order, yours first (e.g. 'Tough Nut, Victor Kane'; 'none' for a "
               "seat without), or none"),
        Option("sides", "hero", "your side (in 2 vs 2 your team's); the others take the other",
               choices=("hero", "villain")),
        Option("timer", 180, "seconds for Phase 1; then whatever is placed is locked "
                             "(0: the table's turn timer)", 0, 3600),
    )

    # --- the last reveal -------------------------------------------------------------------------
    @property
    def combat(self) -> dict[str, Any] | None:
        """The last reveal (phase2.reveal; keys in view.py). It is written once per round and
        never changed after, so the state keeps it as one JSON string: every move's
        all-or-nothing snapshot (core `apply`) then copies a string instead of re-encoding
        half the state (it is the larger half), which made each move about twice as slow."""
        return None if self.combat_json is None else jsontext.loads(self.combat_json)

    @combat.setter
    def combat(self, value: dict[str, Any] | None) -> None:
        self.combat_json = None if value is None else jsontext.dumps(value)

    @classmethod
    def migrate(cls, schema: int, state: dict[str, Any]) -> dict[str, Any]:
        if schema == 1:   # the reveal was a dict in the state
            state = dict(state)
            combat = state.pop("combat", None)
            state["combat_json"] = None if combat is None else jsontext.dumps(combat)
            schema = 2
        return super().migrate(schema, state)

    # --- the printed boards, for reference screens (`/kaploom board`) --------------------------
    @staticmethod
    def super_sides() -> dict[str, str]:
        """Each super board's name and its side ("hero"/"villain")."""
        return {name: start.side for name, start in SUPERS.items()}

    @staticmethod
    def board_sections(board: str) -> list[tuple[str, list[tuple[str, str, str, str]]]]:
        """The printed action table as (title, [(panel, name, requirements, effect)]): the base
        board for "base", a super's board by name (with the base board), "duo", or "all"."""
        from .data import ACTION_TABLE, DUO_TABLE, SUPER_TABLE

        def rows(actions):
            return [(a.panel, a.name, " ".join(a.requires), a.text) for a in actions]
        out = []
        if board in ("base", "all") or board in SUPERS:
            out.append(("The action board (every player)", rows(ACTION_TABLE)))
        for name, start in SUPERS.items():
            if board in (name, "all"):
                out.append((f"{name} ({start.side}, {start.health} health)",
                            rows(a for a in SUPER_TABLE if a.board == name)))
        if board in ("duo", "all"):
            out.append(("The Duo board (2 vs 2, shared by allies)", rows(DUO_TABLE)))
        return out

    @classmethod
    def supers_choices(cls, mode: str, side: str) -> list[tuple[str, str]]:
        """Every `supers` value that fits the seats' sides (seat 1 on `side`), as (label,
        value): "none" first, then one super per seat ("seat 1: Tough Nut / seat 2: none")."""
        combos: list[list[str]] = [[]]
        for s in seat_sides(mode, side):
            combos = [c + [n] for c in combos
                      for n in [n for n, st in SUPERS.items() if st.side == s] + ["none"]]
        out = [("none", "none")]
        for c in combos:
            if any(n != "none" for n in c):
                out.append((" / ".join(f"seat {i + 1}: {n}" for i, n in enumerate(c)),
                            ", ".join(c)))
        return out

    @classmethod
    def table_note(cls, options: dict[str, Any]) -> str:
        """What an open table says under its text: how the teams form (2 vs 2)."""
        if options.get("mode") != "2v2":
            return ""
        us, them = seat_sides("2v2", options.get("sides") or "hero")[1:3]
        return (f"2 vs 2 — teams go by who joins: the host and the first to join (the "
                f"{us}es) against the next two (the {them}s). Allies see each other's dice "
                "and share the Duo board; each player points at the opponent they attack.")

    @classmethod
    def board_lines(cls, board: str) -> list[tuple[str, str]]:
        """The printed table as (kind, text) lines, kind "title", "panel", "action" or
        "requirements": `board` as board_sections takes it."""
        out: list[tuple[str, str]] = []
        for title, rows in cls.board_sections(board):
            out.append(("title", title))
            for n, (where, name, needs, text) in enumerate(rows):
                if n == 0 or where != rows[n - 1][0]:
                    out.append(("panel", where))
                out.append(("action", f"{name} ({needs}): {text}"))
        out.append(("requirements", "; ".join(f"{s} {text}"
                                              for s, text in cls.requirement_words())))
        return out

    @classmethod
    def board_choices(cls) -> list[tuple[str, str]]:
        """(label, value) of every board `board_sections` shows."""
        return [("the base board (every player)", "base")] + [
            (f"{name} (super board, {side})", name) for name, side in cls.super_sides().items()
        ] + [("the Duo board (2 vs 2)", "duo"), ("everything", "all")]

    @staticmethod
    def requirement_words() -> list[tuple[str, str]]:
        """The requirement symbols and what each asks of the dice."""
        from .requirements import SYMBOLS
        return [(s, sym.text) for s, sym in SYMBOLS.items()]

    # --- options and setup (seed: "SETUP"; rulings: "Setup", "Super boards", "2 vs 2") ---------
    @classmethod
    def check_players(cls, players: int) -> None:
        if players not in (2, 4):
            raise OptionError(f"{cls.TITLE} is a duel (2 players) or 2 vs 2 (4 players), "
                              f"not {players}.")

    @classmethod
    def solo_options(cls, players: int, chosen: dict[str, Any]) -> dict[str, Any]:
        # Four at the table is the 2 vs 2 game.
        return {"mode": "2v2", **chosen} if players == 4 else dict(chosen)

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        seats = 4 if options["mode"] == "2v2" else 2
        supers = parse_supers(str(options["supers"]), seats)
        sides = seat_sides(options["mode"], options["sides"])
        for seat, (name, side) in enumerate(zip(supers, sides)):
            if name is not None and SUPERS[name].side != side:
                fits = [n for n, s in SUPERS.items() if s.side == side]
                raise OptionError(
                    f"Seat {seat + 1} is a {side} here, but {name} is a {SUPERS[name].side} "
                    f"super. A {side} may be {' or '.join(fits)} (or none); or change "
                    "`sides`.")
        options["supers"] = ("none" if all(s is None for s in supers)
                             else ",".join(s or "none" for s in supers))

    def setup(self) -> None:
        mode = self.options["mode"]
        seats = 4 if mode == "2v2" else 2
        if self.players != seats:
            raise OptionError(
                f"KAPLOOM! {'2 vs 2' if mode == '2v2' else 'duel'} is for {seats} players, "
                f"not {self.players}" + (" (choose mode 2v2 for four players)."
                                         if self.players == 4 else "."))
        supers = parse_supers(self.options["supers"], seats)
        sides = seat_sides(mode, self.options["sides"])
        self.mode = mode
        self.pool = new_pool(2 if mode == "2v2" else 1)
        self.dice: dict[str, dict[str, Any]] = {}
        self.next_die = 1
        self.seats: list[dict[str, Any]] = []
        for s in range(seats):
            start = SUPERS[supers[s]] if supers[s] else SIDES[sides[s]]
            self.seats.append({
                "side": sides[s], "team": s // 2 if mode == "2v2" else s, "super": supers[s],
                "health": start.health, "max": start.health, "ko": False,
                "unattached": [], "locked_in": [], "spoilers": 0,
                "board": {}, "locked": False, "pointer": None, "announced": [],
                "todo": [], "pending": [], "fired": [], "hurt": False, "loop_used": False,
            })
            # the starting dice and faces come out of the pool (rulings: "Faces and dice")
            for colour in start.trait:
                self.pool["trait"][colour] -= 1
                self._add_die(new_trait(s, colour))
            self.pool["action"] -= 1
            for f in start.action_faces:
                self.pool["faces"][f] -= 1
            self._add_die(new_action(s, list(start.action_faces)))
        self.duo: list[dict[str, Any]] = [{}, {}] if mode == "2v2" else []
        self.round = 1
        self.stage = "roll"
        self.rerolls: list[str] = []
        self.reroll_by: int | None = None
        # The villain is first player; with supers the lowest health, a tie the villain.
        self.first = min(range(seats), key=lambda s: (
            self.seats[s]["health"], self.seats[s]["side"] != "villain", s))
        self.order: list[int] = self.turn_order()
        self.first = self.order[0]
        self.turn = 0
        self.combat_json: str | None = None

    # --- small shared vocabulary -----------------------------------------------------------------
    @property
    def duel(self) -> bool:
        return self.mode == "duel"

    def who(self, seat: int, cap: bool = True) -> str:
        """A player in the engine's texts: their name (`cap` is kept for old callers; a name
        is written as the table gave it)."""
        return self.name(seat)

    def seat_ref(self, seat: int) -> str:
        """A player in a refusal that also teaches the notation: "Chidi (@3)"."""
        return f"{self.name(seat)} (@{seat + 1})"

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats that share this seat's screen side: itself, and its ally in 2 vs 2."""
        t = self.seats[seat]["team"]
        return tuple(s for s in range(self.players) if self.seats[s]["team"] == t)

    def ally_of(self, seat: int) -> int | None:
        others = [s for s in self.team_of(seat) if s != seat]
        return others[0] if others else None

    def opponents(self, seat: int) -> list[int]:
        t = self.seats[seat]["team"]
        return [s for s in range(self.players) if self.seats[s]["team"] != t]

    def living(self, seat: int) -> bool:
        return not self.seats[seat]["ko"]

    def foe_of(self, seat: int) -> int | None:
        """The opponent this seat faces this round: the other player (duel), the one they
        pointed at (2 vs 2)."""
        if self.duel:
            return 1 - seat
        return self.seats[seat]["pointer"]

    def actions_of(self, seat: int) -> tuple[Action, ...]:
        return board_actions(self.seats[seat]["super"])

    def locked_in(self, seat: int) -> list[Action]:
        return [ALL_ACTIONS[n] for n in self.seats[seat]["locked_in"]]

    def has_ability(self, seat: int, ability: str) -> bool:
        return any(a.ability == ability for a in self.locked_in(seat))

    def placed_here(self, seat: int) -> list[Action]:
        """The actions this seat activated on its own board this round."""
        return [ALL_ACTIONS[n] for n in self.seats[seat]["board"]]

    def placed_dice(self) -> set[str]:
        out: set[str] = set()
        for p in self.seats:
            for place in p["board"].values():
                out.update(place["dice"])
        for board in self.duo:
            for place in board.values():
                out.update(place["dice"])
        return out

    def dice_of(self, seat: int) -> list[str]:
        return in_order([d for d, die in self.dice.items() if die["owner"] == seat])

    def action_dice_count(self, seat: int) -> int:
        return sum(1 for die in self.dice.values()
                   if die["owner"] == seat and die["kind"] == "action")

    def _add_die(self, die: dict[str, Any]) -> str:
        die_id = f"d{self.next_die}"
        self.next_die += 1
        self.dice[die_id] = die
        return die_id

    # --- health and knock-outs (rulings: "Rulings on the round", "2 vs 2") ----------------------
    def heal(self, seat: int, amount: int, why: str) -> Event:
        p = self.seats[seat]
        before = p["health"]
        p["health"] = min(p["max"], p["health"] + amount)
        capped = " (the maximum)" if before + amount > p["max"] else ""
        return Event(f"{self.who(seat)} gains {p['health'] - before} health from {why}: "
                     f"{before} → {p['health']}{capped}.", "heal",
                     data={"seat": seat, "before": before, "after": p["health"], "why": why})

    def lose(self, seat: int, amount: int, why: str) -> list[Event]:
        """Health loss; a knock-out is handled at once (the game may end)."""
        p = self.seats[seat]
        before = p["health"]
        p["health"] -= amount
        if amount > 0:
            p["hurt"] = True
        events = [Event(f"{self.who(seat)} loses {amount} health ({why}): "
                        f"{before} → {p['health']}.", "loss",
                        data={"seat": seat, "before": before, "after": p["health"],
                              "amount": amount, "why": why})]
        if p["health"] <= 0:
            events += self.knock_out([seat])
        return events

    def knock_out(self, seats: list[int]) -> list[Event]:
        """Seats at 0 or less are KO'd. 1 vs 1: the game ends at once (both at once: a draw).
        2 vs 2: the player's remaining board actions this round are cancelled; a team wins
        when both opponents are KO'd; both teams at once: a draw."""
        events: list[Event] = []
        for s in seats:
            p = self.seats[s]
            if not p["ko"]:
                p["ko"] = True
                p["todo"] = []
                p["pending"] = []
                events.append(Event(f"K.O.! {self.who(s)} is knocked out.", "ko",
                                    data={"seat": s}))
        teams = sorted({p["team"] for p in self.seats})
        out = [t for t in teams
               if all(self.seats[s]["ko"] for s in range(self.players)
                      if self.seats[s]["team"] == t)]
        if len(out) == len(teams):
            events.append(self.finish([], "everyone is knocked out at once", Ending.KNOCKOUT))
        elif out:
            winners = [s for s in range(self.players) if self.seats[s]["team"] not in out]
            who = join_names([self.who(s) for s in range(self.players)
                              if self.seats[s]["team"] in out])
            events.append(self.finish(winners, f"{who} knocked out", Ending.KNOCKOUT))
        else:
            # 2 vs 2 goes on: a KO cancels that player's remaining board actions this round
            for s in seats:
                self.seats[s]["board"] = {}
        return events

    # --- gains from the pool, and what they trigger (rulings: "Rulings on the round") ----------
    def gain_trait(self, seat: int, colour: str, why: str) -> list[Event]:
        self.pool["trait"][colour] -= 1
        die_id = self._add_die(new_trait(seat, colour))
        events = [Event(f"{self.who(seat)} gains trait die {die_id} ({colour}) from {why}.",
                        "gain", data={"seat": seat, "die": die_id, "colour": colour})]
        return events + self.gained(seat, die=True, face=False)

    def gain_faces(self, seat: int, wanted: list[str], with_die: bool, why: str) -> list[Event]:
        """Pay a new action die (if `with_die`) and faces; what the pool cannot pay is
        announced. Faces go on the new die, or stay unattached when there is no die."""
        p = self.seats[seat]
        paid: list[str] = []
        short: list[str] = []
        for f in wanted:
            (paid if self._take_face(f) else short).append(f)
        got_die = with_die and self.pool["action"] > 0
        parts = []
        if got_die:
            self.pool["action"] -= 1
            die_id = self._add_die(new_action(seat, paid))
            parts.append(f"action die {die_id} [{' '.join(paid)}]")
        else:
            for f in paid:
                add_face(p["unattached"], f)
            if paid:
                parts.append(f"{'face' if len(paid) == 1 else 'faces'} {' '.join(paid)}"
                             f" (unattached)")
        missing = []
        if with_die and not got_die:
            missing.append("action dice")
        missing += [f"{f} faces" for f in dict.fromkeys(short)]
        text = f"{self.who(seat)} gains {' and '.join(parts) or 'nothing'} from {why}"
        if missing:
            text += f" (the pool has run out of {' and '.join(missing)})"
        events = [Event(text + ".", "gain", data={"seat": seat, "faces": paid, "die": got_die})]
        return events + self.gained(seat, die=got_die, face=bool(paid))

    def _take_face(self, f: str) -> bool:
        if self.pool["faces"][f] > 0:
            self.pool["faces"][f] -= 1
            return True
        return False

    def gained(self, seat: int, *, die: bool, face: bool) -> list[Event]:
        """SUCKER PUNCH, FACE OFF and TYRANT: each fires at most once per phase and leaves a
        loss the victim takes when they choose during the phase (`take`), else at its end. A
        die arriving with faces counts as both; a gain the empty pool refused counts for
        nothing. In 2 vs 2 "the opponent" is the one pointed at this round (our ruling)."""
        events: list[Event] = []
        for o in self.opponents(seat):
            if not self.living(o) or self.foe_of(o) != seat:
                continue
            for a in self.placed_here(o):
                hit = (a.effect == "punish_die_gain" and die) or (
                    a.effect == "punish_face_gain" and face)
                if hit and a.name not in self.seats[o]["fired"]:
                    self.seats[o]["fired"].append(a.name)
                    events.append(self._pend(seat, a.name, o, a.amount))
        if die and self.living(seat):
            for lock in self.locked_in(seat):
                victim = self.foe_of(seat)
                if (lock.ability == "tyrant" and lock.name not in self.seats[seat]["fired"]
                        and victim is not None and self.living(victim)):
                    self.seats[seat]["fired"].append(lock.name)
                    events.append(self._pend(victim, lock.name, seat, lock.amount))
        return events

    def _pend(self, victim: int, source: str, by: int, amount: int) -> Event:
        self.seats[victim]["pending"].append({"source": source, "by": by, "amount": amount})
        return Event(f"{source}! {self.who(by)} makes {self.who(victim, cap=False)} lose "
                     f"{amount} health this phase (they choose when to take it).", "trigger",
                     data={"source": source, "by": by, "victim": victim, "amount": amount})

    # --- turn order (seed: "ROUND OVERVIEW"; rulings: "2 vs 2") --------------------------------
    def turn_order(self) -> list[int]:
        """1 vs 1: the first player, then the other. 2 vs 2: lowest health first; ties: the
        villain team's players first, then alternating teams, then seat order."""
        if self.duel:
            return [self.first, 1 - self.first]
        order: list[int] = []
        for h in sorted({p["health"] for p in self.seats}):
            tied = [s for s in range(self.players) if self.seats[s]["health"] == h]
            vil = [s for s in tied if self.seats[s]["side"] == "villain"]
            her = [s for s in tied if self.seats[s]["side"] == "hero"]
            while vil or her:
                if vil:
                    order.append(vil.pop(0))
                if her:
                    order.append(her.pop(0))
        return order

    # --- the protocol ----------------------------------------------------------------------------
    def _actors(self) -> list[Actor]:
        if self.stage == "roll" or self.rerolls:
            return [CHANCE]
        if self.stage == "assign":
            return [s for s in range(self.players) if not self.seats[s]["locked"]]
        return [self.order[self.turn]]

    def _chance(self) -> Chance:
        if self.rerolls:
            return Chance(tuple(faces(f"re-roll {i + 1}", slots(self.dice[d]))
                                for i, d in enumerate(self.rerolls)), "a secret re-roll")
        draws = []
        for s in range(self.players):
            for d in self.dice_of(s):
                die = self.dice[d]
                draws.append(faces(f"{d} {die['colour']} of {self.name(s)}", slots(die), s))
        return Chance(tuple(draws), f"round {self.round}: every die is rolled")

    def _apply(self, actor: Actor, move: str) -> list[Event]:
        if actor == CHANCE:
            tokens = self._chance().parse(move)
            if self.rerolls:
                return phase1.rerolled(self, tokens)
            return phase1.rolled(self, tokens)
        if not move.isascii():
            # The notation is ASCII (docs/notation/kaploom.md); case folding and the
            # punctuation-blind action names would otherwise read 'ſ' or the Kelvin sign as
            # letters of ours, or drop them silently.
            raise InvalidMoveError("Write moves with plain letters, digits and @ only (no "
                                   "accents, symbols or other alphabets). "
                                   + self._moves_help())
        tokens = move.split()
        found = split_verb(tokens, PHASE1_VERBS + PHASE3_VERBS + phase3.VERBS)
        if found is None:
            raise InvalidMoveError(f"{move!r} is not a KAPLOOM! move. {self._moves_help()}")
        verb, args = found
        if self.stage == "assign":
            if verb not in PHASE1_VERBS:
                raise IllegalMoveError(f"`{verb}` belongs to Phase 3 (Power Up); now is "
                                       f"Phase 1. {self._moves_help()}")
            return phase1.apply(self, actor, verb, args)
        if verb not in PHASE3_VERBS + phase3.VERBS:
            raise IllegalMoveError(f"`{verb}` belongs to Phase 1; now is Phase 3 (Power "
                                   f"Up). {self._moves_help()}")
        return phase3.apply(self, actor, verb, args)

    def _moves_help(self) -> str:
        """What can be typed now, in words (the panel's lists make every move; the notation
        itself is in docs/notation/kaploom.md and the form's example)."""
        if self.stage == "assign":
            return ("In Phase 1 you put dice on an action (assign, the action, your dice), take "
                    "them off (unassign), use TIME JUMP, QUICK FIX or PAUSE at once, point at "
                    "the opponent you attack (2 vs 2) and lock in.")
        return ("In Power Up you use an action with your choice (its name, then a colour or "
                "faces), attach or detach a face, give a Duo board die to an ally (2 vs 2), "
                "take a pending loss, and say done.")

    def _legal(self, player: int) -> list[str]:
        if self.stage == "assign":
            return phase1.legal(self, player)
        return phase3.legal(self, player)

    # --- timers, resigning -----------------------------------------------------------------------
    def timeout_move(self, player: int) -> str | None:
        """Phase 1: whatever is placed is locked (rulings: "Rulings on the round"). Power Up:
        `done` (unused actions are given up; pending losses apply at the end of the phase)."""
        if self.result is not None:
            return None
        if self.stage == "assign":
            return "lock"
        if self.stage == "power":
            return "done"
        return None

    def wait_seconds(self) -> int | None:
        if self.stage == "assign" and not self.rerolls and self.options["timer"] > 0:
            return int(self.options["timer"])
        return None

    def resign(self, player: int, ending: str = Ending.RESIGN) -> list[Event]:
        """1 vs 1: the opponent wins. 2 vs 2: the resigning player's team concedes."""
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        winners = self.opponents(player)
        who = join_names([self.who(s) for s in self.team_of(player)])
        what = "ran out of time" if ending == Ending.TIMEOUT else "resigned"
        return [self.finish(winners, f"{self.who(player, cap=False)} {what}"
                            + ("" if self.duel else f" for {who}"), ending)]

    # --- views -----------------------------------------------------------------------------------
    def _phase(self) -> str:
        return self.stage

    def _describe(self, move: str, seat: int) -> MoveText:
        return describe_mod.describe(self, move, seat)

    # --- what the screens ask (menu.py) ------------------------------------------------------
    def _menu(self, seat: int) -> list[MenuGroup]:
        return menu_mod.groups(self, seat)

    def _status(self) -> str:
        return menu_mod.status(self)

    def _todo(self, seat: int) -> str:
        return menu_mod.todo(self, seat)

    def _waiting(self, seat: int) -> str:
        return menu_mod.waiting(self, seat)

    def placement_form(self, seat: int) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """Phase 1 as one form: per unplaced die, the actions it may go on (form.py)."""
        return form_mod.fields(self, seat)

    def placement_moves(self, seat: int, picks: dict[str, str], lock_in: bool = False
                        ) -> list[str]:
        """The placements a form's answer (die -> action key) makes, in notation; then Lock
        In when `lock_in`."""
        return form_mod.moves(self, seat, picks) + (["lock"] if lock_in else [])

    @classmethod
    def rematch(cls, players, options):
        """Heroes and villains swap sides; the seats (and so a 2 vs 2's teams) stay."""
        options = dict(options)
        if "sides" in options:
            options["sides"] = "villain" if options["sides"] == "hero" else "hero"
        return list(range(players)), options

    def rated_sides(self) -> list[tuple[int, ...]]:
        teams = sorted({seat["team"] for seat in self.seats})
        return [tuple(s for s in range(self.players) if self.seats[s]["team"] == t)
                for t in teams]

    @classmethod
    def versus(cls, names: list[str], options: dict[str, Any] | None = None) -> str:
        """Who plays whom, by name: "Alice vs Bob"; in 2 vs 2 by team ("Alice and Bob vs
        Carol and Dave": seats 1-2 are one team, 3-4 the other)."""
        if (options or {}).get("mode") == "2v2" and len(names) == 4:
            return f"{join_names(names[:2])} vs {join_names(names[2:])}"
        return " vs ".join(names)

    def seat_lines(self, seat: int) -> list[str]:
        """What `seat`'s panel says of the game: its own facts only (view.seat_lines)."""
        return view_mod.seat_lines(self.view(seat))

    def ally_lines(self, seat: int) -> list[str]:
        """What `seat`'s ally has now, for its panel (view.ally_lines; [] in a duel)."""
        return view_mod.ally_lines(self.view(seat))

    def dice_lines(self, seats: list[int]) -> list[str]:
        """These players' dice as anyone may see them (view.dice_lines)."""
        return view_mod.dice_lines(self.view(None), seats)

    def reveal_lines(self, of_round: int | None = None) -> list[str]:
        """The last reveal, board by board (view.reveal_lines); [] before the first, or when
        the last is not `of_round`'s."""
        v = self.view(None)
        ok = v["combat"] and of_round in (None, v["combat"]["round"])
        return view_mod.reveal_lines(v) if ok else []

    @classmethod
    def board_supers(cls, board: str) -> tuple[str, ...]:
        """The super boards `board` (as board_sections takes it) shows."""
        sides = cls.super_sides()
        return tuple(sides) if board == "all" else ((board,) if board in sides else ())

    def picture_view(self, seat: int | None) -> dict[str, Any]:
        """What a picture of `seat`'s view draws (view.picture_view)."""
        return view_mod.picture_view(self.view(seat))

    def goal(self) -> str:
        """How to win, in words."""
        if self.duel:
            return "bring your opponent's health to 0"
        return ("bring the other team's health to 0: a team wins when both its opponents are "
                "knocked out")

    def view(self, player: int | None) -> dict[str, Any]:
        return view_mod.build(self, player)

    def text(self, player: int | None = None) -> str:
        return view_mod.text(self.view(player))

