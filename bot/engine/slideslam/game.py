"""Slide and Slam: Dice Is Not Bend! — the rules, in the rulebook's order: the Wall of
Unknowing (secret placement), who goes first, then turns of awakening → slide → slam (with the
Power Token's response window) → win check → stalemate guard → next player.

Law: seeds/002 (the rulebook) + rules/slideslam.md (our referee's rulings, cited by heading)
+ the "Referee rulings (ours)" section of docs/rules/slideslam.md.

State (all JSON-native, see `setup`):
- `dice`: letter -> {owner, start, health, square (None until placed), awakened, stunned};
  a die leaves `dice` when destroyed (its letter goes to `removed`).
- `phase`: placement | first_player | slide | slam | response | over.
"""
from __future__ import annotations

from typing import Any

from ..core import (CHANCE, Actor, AmbiguousMoveError, Chance, Ending, Event, Game,
                    IllegalMoveError, MoveText, Option, OptionError, faces, phrase_key)
from ..menu import MenuGroup
from . import board
from .data import (AWAKEN_MAX_DICE, AWAKENED_STEPS, BEND_PHRASE, DEFAULT_VALUES, INVOCATION,
                   INVOCATION_KEY, LETTERS, NORMAL_DAMAGE, PREDICT_PHRASE, SUPER_DAMAGE,
                   SUPER_SLAM_HEALTH, parse_values)
from . import menu as menus
from .describe import describe as describe_move
from .notation import Move, parse
from .view import build_view, build_text


class SlideSlam(Game):
    KIND = "slideslam"
    SECRET_PHASES = frozenset({"placement"})  # the Wall of Unknowing
    # The spoken phrases, for the screens that let players say them.
    BEND_PHRASE = BEND_PHRASE
    PREDICT_PHRASE = PREDICT_PHRASE
    INVOCATION = INVOCATION
    TITLE = "Slide and Slam: Dice Is Not Bend!"
    SCHEMA = 1
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPTIONS = (
        Option("columns", 6, "board columns (5–9)", 5, 9),
        Option("rows", 8, "board rows (6–10, even); each player owns half", 6, 10),
        Option("starting_values", DEFAULT_VALUES,
               "the six small dice's starting health, six numbers 1–6 like 6,5,4,3,2,1"),
        Option("response_window", 60,
               "seconds the defender has to say DICE IS NOT BEND! (10–600)", 10, 600),
        Option("first_player", "argue", "who goes first: argue (crowd vote) or random",
               choices=("argue", "random")),
        # The crowd vote itself is run by the bot; the engine only receives its result.
        Option("vote_seconds", 60, "how long the crowd votes on who goes first (argue mode)",
               10, 600),
        Option("stalemate_turns", 20,
               "turns in a row without damage that end the game (10–200, 0 = off)", 0, 200),
        Option("stun", True,
               "a die just reduced to 1 health cannot slam on its owner's next turn"),
    )

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        if options["rows"] % 2:
            raise OptionError(
                f"Option `rows` must be even (each player owns half); got {options['rows']}.")
        if 0 < options["stalemate_turns"] < 10:
            raise OptionError("Option `stalemate_turns` is 0 (off) or from 10 to 200; "
                              f"got {options['stalemate_turns']}.")
        parse_values(options["starting_values"])

    # --- set up -------------------------------------------------------------------------------
    @classmethod
    def solo_options(cls, players: int, chosen: dict[str, Any]) -> dict[str, Any]:
        # Nobody to argue with or vote: who goes first is drawn, unless the person chose.
        return {"first_player": "random", **chosen}

    def setup(self) -> None:
        self.columns: int = self.options["columns"]
        self.rows: int = self.options["rows"]
        values = parse_values(self.options["starting_values"])
        self.dice: dict[str, dict[str, Any]] = {}
        for seat, letters in enumerate(LETTERS):
            for letter, v in zip(letters, values):
                self.dice[letter] = {"owner": seat, "start": v, "health": v, "square": None,
                                     "awakened": False, "stunned": False}
        self.removed: list[str] = []
        self.confirmed = [False, False]
        self.phase = "placement"
        self.first_player: int | None = None
        self.current: int | None = None
        self.turn = 0                       # 1 = the first player's first turn
        self.awaken_open = False            # nothing done yet this turn ("start of your turn")
        self.tokens_used = [False, False]
        self.awakened_used = [False, False]
        self.slide_skipped = False
        self.last_slide: dict[str, Any] | None = None
        self.last_slam: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.damage_this_turn = False
        self.quiet_turns = 0                # turns in a row without damage (stalemate guard)

    # --- small queries ------------------------------------------------------------------------
    def _occupied(self) -> dict[str, str]:
        return {d["square"]: k for k, d in self.dice.items() if d["square"] is not None}

    def _dice_of(self, seat: int) -> list[str]:
        return [k for k, d in self.dice.items() if d["owner"] == seat and d["square"]]

    def _name(self, letter: str) -> str:
        d = self.dice[letter]
        return f"{'awakened die' if d['awakened'] else 'die'} {letter} at {d['square']}"

    def _steps(self, letter: str) -> int:
        d = self.dice[letter]
        return AWAKENED_STEPS if d["awakened"] else d["health"]

    def _reach(self, letter: str) -> dict[str, list[str]]:
        d = self.dice[letter]
        blocked = set(self._occupied())
        return board.reach(d["square"], self._steps(letter), blocked, self.columns, self.rows)

    def _can_slide(self, seat: int) -> bool:
        blocked = set(self._occupied())
        return any(board.can_move(self.dice[k]["square"], blocked, self.columns, self.rows)
                   for k in self._dice_of(seat))

    def _is_super(self, letter: str) -> bool:
        return self.dice[letter]["health"] == SUPER_SLAM_HEALTH

    def _area(self, letter: str) -> list[str]:
        d = self.dice[letter]
        return board.slam_area(d["square"], self._is_super(letter), self.columns, self.rows)

    def slam_targets(self, letter: str) -> list[str]:
        """Enemy dice the slam would damage, in area order (own dice are never damaged)."""
        occ = self._occupied()
        owner = self.dice[letter]["owner"]
        return [occ[sq] for sq in self._area(letter)
                if sq in occ and self.dice[occ[sq]]["owner"] != owner]

    def _slam_refusal(self, letter: str) -> str | None:
        """Why this die may not slam now (None: it may)."""
        if self.turn == 1 and self._is_super(letter):
            return ("the first player may not Super Slam on their first turn "
                    "(a normal slam is allowed)")
        if self.options["stun"] and self.dice[letter]["stunned"]:
            return f"die {letter} is stunned: it was just reduced to 1 health"
        return None

    def _can_awaken(self, seat: int) -> str | None:
        """Why `seat` may not awaken now (None: it may)."""
        if self.awakened_used[seat]:
            return "you have already awakened a die this game (once per game)"
        if not self.awaken_open or self.current != seat or self.phase not in ("slide", "slam"):
            return "a die awakens only at the very start of your turn, before the slide"
        n = len(self._dice_of(seat))
        if n > AWAKEN_MAX_DICE:
            return f"you control {n} dice; awakening needs {AWAKEN_MAX_DICE} or fewer"
        return None

    def _resolve_die(self, ref: str, seat: int, what: str) -> str:
        """A square or letter naming one of `seat`'s dice on the board."""
        if len(ref) == 1:
            d = self.dice.get(ref)
            if d is None and ref in LETTERS[seat]:
                raise IllegalMoveError(f"Your die {ref} has been destroyed: {what} "
                                       f"{self._own_list(seat)}.")
            if d is None or d["owner"] != seat:
                raise IllegalMoveError(f"Die {ref} is not yours: {what} {self._own_list(seat)}.")
            if d["square"] is None:
                raise IllegalMoveError(f"Die {ref} is not on the board: "
                                       f"{what} {self._own_list(seat)}.")
            return ref
        k = self._occupied().get(ref)
        if k is None or self.dice[k]["owner"] != seat:
            raise IllegalMoveError(f"You have no die on {ref}: {what} {self._own_list(seat)}.")
        return k

    def _own_list(self, seat: int) -> str:
        dice = sorted(self._dice_of(seat))
        return ", ".join(f"{k} at {self.dice[k]['square']}" for k in dice) or "none"

    # --- whose move ---------------------------------------------------------------------------
    def _actors(self) -> list[Actor]:
        if self.phase == "placement":
            return [p for p in range(2) if not self.confirmed[p]]
        if self.phase == "first_player":
            return [CHANCE]
        if self.phase == "response":
            return [self.pending["defender"]]  # type: ignore[index]
        if self.phase in ("slide", "slam"):
            return [self.current]  # type: ignore[list-item]
        return []

    def _chance(self) -> Chance:
        how = "the crowd vote" if self.options["first_player"] == "argue" else "random"
        return Chance((faces("first player", ["1", "2"]),), f"who goes first ({how})")

    def timeout_move(self, player: int) -> str | None:
        # Only the response window has a default: silence means the slam resolves in full.
        if self.result is None and self.phase == "response" and player in self._actors():
            return "pass"
        return None

    def wait_seconds(self) -> int | None:
        if self.result is None and self.phase == "response":
            return int(self.options["response_window"])
        return None

    # --- legal moves --------------------------------------------------------------------------
    def _legal(self, player: int) -> list[str]:
        if self.phase == "placement":
            return self._legal_placement(player)
        if self.phase == "response":
            assert self.pending is not None
            bends = [f"bend {self.dice[k]['square']}" for k in self.pending["targets"]]
            return bends + ["pass"]
        moves: list[str] = []
        if self._can_awaken(player) is None:
            moves += [f"awaken {self.dice[k]['square']} {INVOCATION}"
                      for k in sorted(self._dice_of(player))]
        if self.phase == "slide":
            blocked = set(self._occupied())
            for k in sorted(self._dice_of(player)):
                src = self.dice[k]["square"]
                moves += [f"slide {src} {dst}" for dst in board.reach_squares(
                    src, self._steps(k), blocked, self.columns, self.rows)]
        elif self.phase == "slam":
            can_predict = not self.tokens_used[player] and not self.tokens_used[1 - player]
            for k in sorted(self._dice_of(player)):
                if self._slam_refusal(k) is not None:
                    continue
                sq = self.dice[k]["square"]
                moves.append(f"slam {sq}")
                if can_predict and self.slam_targets(k):
                    moves.append(f"slam {sq} predict")
            moves.append("end")
        return moves

    def _legal_placement(self, player: int) -> list[str]:
        occ = self._occupied()
        mine = [k for k in LETTERS[player]]
        unplaced = sorted({self.dice[k]["start"] for k in mine if self.dice[k]["square"] is None},
                          reverse=True)
        moves = [f"place {sq}={v}" for sq in board.home_squares(player, self.columns, self.rows)
                 if sq not in occ for v in unplaced]
        moves += [f"unplace {self.dice[k]['square']}" for k in mine
                  if self.dice[k]["square"] is not None]
        if not unplaced:
            moves.append("confirm")
        return moves

    # --- moves --------------------------------------------------------------------------------
    def _apply(self, actor: Actor, move: str) -> list[Event]:
        if actor == CHANCE:
            return self._choose_first(move)
        seat = int(actor)
        mv = parse(move, self.columns, self.rows)
        handler = {
            "place": self._place, "unplace": self._unplace, "confirm": self._confirm,
            "slide": self._slide, "slam": self._slam, "end": self._end,
            "bend": self._bend, "pass": self._pass, "awaken": self._awaken,
        }[mv.verb]
        return handler(seat, mv)

    def _allowed_now(self, seat: int) -> str:
        """What `seat` may do now, in words, for the end of an IllegalMoveError."""
        if self.phase == "placement":
            return "now you place your dice in your secret panel, then confirm"
        if self.phase == "response":
            return (f"now {self.name(self.pending['defender'])} answers the slam "  # type: ignore[index]
                    f"({BEND_PHRASE} or take the hit)")
        if self.phase == "slide":
            extra = " (or awaken one first)" if self._can_awaken(seat) is None else ""
            return f"now you slide one of your dice{extra}"
        extra = ", or awaken a die" if self._can_awaken(seat) is None else ""
        return f"now you slam with one of your dice or end your turn{extra}"

    def _require_phase(self, seat: int, verb: str, *phases: str) -> None:
        if self.phase not in phases:
            raise IllegalMoveError(f"You cannot {verb} now: {self._allowed_now(seat)}.")

    # The Wall of Unknowing ("Board": secret placement on your own half) ------------------------
    def _place(self, seat: int, mv: Move) -> list[Event]:
        self._require_phase(seat, "place dice", "placement")
        lo, hi = board.home_rows(seat, self.rows)
        done = []
        for sq, value in mv.pairs:
            if not board.in_home(sq, seat, self.rows):
                raise IllegalMoveError(f"{sq} is not on your half: you place on rows {lo}–{hi}.")
            occ = self._occupied()
            if sq in occ:
                raise IllegalMoveError(
                    f"Your die {occ[sq]} already stands on {sq}: `unplace {sq}` first.")
            free = [k for k in LETTERS[seat]
                    if self.dice[k]["square"] is None and self.dice[k]["start"] == value]
            if not free:
                left = sorted((self.dice[k]["start"] for k in LETTERS[seat]
                               if self.dice[k]["square"] is None), reverse=True)
                raise IllegalMoveError(
                    f"You have no unplaced die with health {value}; unplaced: "
                    + (", ".join(map(str, left)) if left else "none (`confirm` when ready)")
                    + ".")
            self.dice[free[0]]["square"] = sq
            done.append(f"die {free[0]} ({value}) on {sq}")
        left = sum(1 for k in LETTERS[seat] if self.dice[k]["square"] is None)
        tail = " All six are placed: `confirm` when ready." if not left else f" {left} to go."
        return [Event("You placed " + ", ".join(done) + "." + tail, "placed", to=(seat,),
                      data={"placement": self._placement_of(seat)})]

    def _placement_of(self, seat: int) -> dict[str, int]:
        return {self.dice[k]["square"]: self.dice[k]["start"] for k in LETTERS[seat]
                if self.dice[k]["square"] is not None}

    def _unplace(self, seat: int, mv: Move) -> list[Event]:
        self._require_phase(seat, "unplace dice", "placement")
        ref = mv.refs[0]
        if len(ref) == 1:
            k = ref if ref in LETTERS[seat] and self.dice[ref]["square"] else None
        else:
            k = self._occupied().get(ref)
        if k is None or self.dice[k]["owner"] != seat:
            placed = ", ".join(sorted(self._placement_of(seat), key=board.square_key)) or "none"
            what = f"die {ref}" if len(ref) == 1 else f"a die on {ref}"
            raise IllegalMoveError(f"You have not placed {what}; your placed dice stand on: "
                                   f"{placed}.")
        sq = self.dice[k]["square"]
        self.dice[k]["square"] = None
        return [Event(f"You took die {k} ({self.dice[k]['start']}) back from {sq}.", "placed",
                      to=(seat,), data={"placement": self._placement_of(seat)})]

    def _confirm(self, seat: int, mv: Move) -> list[Event]:
        self._require_phase(seat, "confirm", "placement")
        left = [k for k in LETTERS[seat] if self.dice[k]["square"] is None]
        if left:
            vals = ", ".join(str(self.dice[k]["start"]) for k in left)
            raise IllegalMoveError(f"Place all six dice before you confirm; still to place: "
                                   f"{vals}.")
        self.confirmed[seat] = True
        events = [Event(f"{self.name(seat)} has finished placing behind the Wall of Unknowing.",
                        "confirmed", data={"seat": seat})]
        if all(self.confirmed):
            self.phase = "first_player"
            how = ("Argue who goes first: the crowd decides."
                   if self.options["first_player"] == "argue" else "The first player is drawn.")
            events.append(Event("The Wall of Unknowing comes down! " + how, "wall_down",
                                data={"dice": build_view(self, None)["dice"]}))
        return events

    # First player ("First player": a chance draw, answered by the crowd vote or at random) --
    def _choose_first(self, move: str) -> list[Event]:
        (tok,) = self._chance().parse(move)
        self.first_player = int(tok) - 1
        events = [Event(f"{self.name(self.first_player)} goes first.", "first_player",
                        data={"seat": self.first_player})]
        return events + self._start_turn(self.first_player)

    # Turn flow -------------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> list[Event]:
        self.current = seat
        self.turn += 1
        self.awaken_open = True
        self.damage_this_turn = False
        self.pending = None
        events = [Event(f"Turn {self.turn}: {self.name(seat)} to play.", "turn",
                        data={"turn": self.turn, "seat": seat})]
        if self._can_slide(seat):
            self.phase = "slide"
            self.slide_skipped = False
        else:
            # "Turn" step 2: none of your dice can move, so the slide is skipped (announced).
            self.phase = "slam"
            self.slide_skipped = True
            events.append(Event(f"None of {self.name(seat)}'s dice can move: the slide is skipped.",
                                "slide_skipped", data={"seat": seat}))
        return events

    def _end_turn(self) -> list[Event]:
        seat = self.current
        assert seat is not None
        # "Turn" step 7 (stun): the stunned die has now sat out its owner's turn.
        for k in self._dice_of(seat):
            self.dice[k]["stunned"] = False
        self.quiet_turns = 0 if self.damage_this_turn else self.quiet_turns + 1
        limit = self.options["stalemate_turns"]
        if limit and self.quiet_turns >= limit:
            return [self._stalemate(limit)]
        return self._start_turn(1 - seat)

    def _stalemate(self, limit: int) -> Event:
        """"Turn" step 5: more dice wins, then higher total health, else a draw."""
        self.phase = "over"
        counts = [len(self._dice_of(p)) for p in range(2)]
        totals = [sum(self.dice[k]["health"] for k in self._dice_of(p)) for p in range(2)]
        why = f"{limit} turns in a row without damage"
        if counts[0] != counts[1]:
            w = 0 if counts[0] > counts[1] else 1
            return self.finish([w], f"{why}; more dice left ({counts[w]} to {counts[1 - w]})",
                               Ending.STALEMATE)
        if totals[0] != totals[1]:
            w = 0 if totals[0] > totals[1] else 1
            return self.finish([w], f"{why}; equal dice, higher total health "
                                    f"({totals[w]} to {totals[1 - w]})", Ending.STALEMATE)
        return self.finish([], f"{why}; equal dice and equal total health", Ending.STALEMATE)

    # Dice Awakening: Final Form! --------------------------------------------------------------
    def _awaken(self, seat: int, mv: Move) -> list[Event]:
        self._require_phase(seat, "awaken", "slide", "slam")
        why = self._can_awaken(seat)
        if why is not None:
            raise IllegalMoveError(f"You cannot awaken: {why}; {self._allowed_now(seat)}.")
        k = self._resolve_die(mv.refs[0], seat, "your dice are")
        if phrase_key(mv.phrase) != INVOCATION_KEY:
            raise IllegalMoveError(
                f"The invocation must be spoken in full: `awaken {self.dice[k]['square']} "
                f"{INVOCATION}` (case, spacing and punctuation do not matter).")
        d = self.dice[k]
        before = d["health"]
        # The small die leaves the board; the awakened die takes its square (and its letter).
        d.update(health=1, awakened=True, stunned=False)
        self.awakened_used[seat] = True
        self.awaken_open = False
        return [Event(f"{self.name(seat)}: \"{INVOCATION}\" Die {k} at {d['square']} (health "
                      f"{before}) is replaced by the awakened die: health 1, moves up to "
                      f"{AWAKENED_STEPS}, always Super Slams.", "awaken",
                      data={"seat": seat, "die": k, "square": d["square"]})]

    # Slide ----------------------------------------------------------------------------------
    def _slide(self, seat: int, mv: Move) -> list[Event]:
        if self.phase == "slam" and self.slide_skipped:
            raise IllegalMoveError(f"None of your dice can move this turn; "
                                   f"{self._allowed_now(seat)}.")
        self._require_phase(seat, "slide", "slide")
        dst = mv.refs[-1]
        if len(mv.refs) == 2:
            k = self._resolve_die(mv.refs[0], seat, "your dice are")
        else:
            can = [k for k in sorted(self._dice_of(seat)) if dst in self._reach(k)]
            if not can:
                raise IllegalMoveError(f"None of your dice can reach {dst}; "
                                       f"{self._allowed_now(seat)}.")
            if len(can) > 1:
                raise AmbiguousMoveError(
                    f"More than one of your dice can reach {dst}: " + " or ".join(
                        f"`slide {self.dice[k]['square']} {dst}` (die {k})" for k in can) + ".")
            k = can[0]
        d = self.dice[k]
        paths = self._reach(k)
        if dst not in paths:
            if dst == d["square"]:
                why = "a slide must end on a different square"
            elif dst in self._occupied():
                why = f"{dst} holds a die"
            else:
                why = (f"it slides at most {self._steps(k)} step(s), orthogonally, and never "
                       "through a die")
            reach = ", ".join(sorted(paths, key=board.square_key)) or "nowhere"
            raise IllegalMoveError(f"Die {k} at {d['square']} cannot slide to {dst}: {why}. "
                                   f"It can reach: {reach}.")
        src = d["square"]
        d["square"] = dst
        self.last_slide = {"die": k, "owner": seat, "from": src, "to": dst,
                           "path": paths[dst], "turn": self.turn}
        self.phase = "slam"
        self.awaken_open = False
        steps = len(paths[dst]) - 1
        what = "the awakened die" if d["awakened"] else "die"
        return [Event(f"{self.name(seat)} slides {what} {k} from {src} to {dst} "
                      f"({steps} step{'s' if steps != 1 else ''}).", "slide",
                      data=dict(self.last_slide))]

    # Slam -----------------------------------------------------------------------------------
    def _slam(self, seat: int, mv: Move) -> list[Event]:
        if self.phase == "slide":
            raise IllegalMoveError(f"Slide first: the slide is mandatory; "
                                   f"{self._allowed_now(seat)}.")
        self._require_phase(seat, "slam", "slam")
        k = self._resolve_die(mv.refs[0], seat, "your dice are")
        why = self._slam_refusal(k)
        if why is not None:
            raise IllegalMoveError(f"Die {k} cannot slam: {why}. Slam with another die or "
                                   "`end` your turn.")
        targets = self.slam_targets(k)
        foe = 1 - seat
        if mv.predict:
            if self.tokens_used[seat]:
                raise IllegalMoveError("Your Power Token is already spent: `slam "
                                       f"{self.dice[k]['square']}` without predict.")
            if self.tokens_used[foe]:
                raise IllegalMoveError(f"{self.name(foe)} has no Power Token left, so there is "
                                       f"nothing to predict: `slam {self.dice[k]['square']}`.")
            if not targets:
                raise IllegalMoveError("You may predict only when the slam would damage an "
                                       f"enemy die; this one hits none: "
                                       f"`slam {self.dice[k]['square']}`.")
            self.tokens_used[seat] = True
            self.awaken_open = False
            events = [Event(f"{self.name(seat)} points at {self.name(foe)}: \"{PREDICT_PHRASE}\" "
                            f"({self.name(seat)}'s Power Token is spent; {self.name(foe)} cannot answer "
                            "this slam.)", "predict", data={"seat": seat, "die": k})]
            return events + self._resolve_slam(k, bent=None, predicted=True)
        self.awaken_open = False
        if targets and not self.tokens_used[foe]:
            # "Power Token": a response window before damage, only for a defender who can answer.
            sup = self._is_super(k)
            self.pending = {
                "attacker": seat, "defender": foe, "die": k, "square": self.dice[k]["square"],
                "super": sup, "damage": SUPER_DAMAGE if sup else NORMAL_DAMAGE,
                "area": self._area(k), "targets": targets}
            self.phase = "response"
            hit = ", ".join(f"{t} at {self.dice[t]['square']}" for t in targets)
            secs = self.options["response_window"]
            return [Event(f"{self.name(seat)}: \"SLAM!\" {self._kind_word(k)} by {self._name(k)} "
                          f"would hit {hit}. {self.name(foe)}, say \"{BEND_PHRASE}\" (`bend <square>`, "
                          f"spends your Power Token) or `pass`, within {secs} s.",
                          "response_window", data=dict(self.pending))]
        return self._resolve_slam(k, bent=None, predicted=False)

    def _kind_word(self, letter: str) -> str:
        return "Super Slam" if self._is_super(letter) else "Slam"

    def _bend(self, seat: int, mv: Move) -> list[Event]:
        self._require_phase(seat, "say DICE IS NOT BEND!", "response")
        p = self.pending
        assert p is not None
        ref = mv.refs[0]
        k = ref if len(ref) == 1 else self._occupied().get(ref)
        if k not in p["targets"]:
            opts = " or ".join(f"`bend {self.dice[t]['square']}`" for t in p["targets"])
            raise IllegalMoveError(f"{ref} is not one of your dice this slam would hit: "
                                   f"{opts}, or `pass`.")
        self.tokens_used[seat] = True
        events = [Event(f"{self.name(seat)}: \"{BEND_PHRASE}\" Die {k} at {self.dice[k]['square']} "
                        "takes no damage from this slam (Power Token spent).", "bend",
                        data={"seat": seat, "die": k})]
        return events + self._resolve_slam(p["die"], bent=k, predicted=False)

    def _pass(self, seat: int, mv: Move) -> list[Event]:
        self._require_phase(seat, "pass", "response")
        p = self.pending
        assert p is not None
        events = [Event(f"{self.name(seat)} keeps the Power Token.", "pass", data={"seat": seat})]
        return events + self._resolve_slam(p["die"], bent=None, predicted=False)

    def _end(self, seat: int, mv: Move) -> list[Event]:
        if self.phase == "slide":
            raise IllegalMoveError(f"Slide first: the slide is mandatory; "
                                   f"{self._allowed_now(seat)}.")
        self._require_phase(seat, "end the turn", "slam")
        return [Event(f"{self.name(seat)} ends the turn without slamming.", "end",
                      data={"seat": seat})] + self._end_turn()

    def _resolve_slam(self, letter: str, bent: str | None, predicted: bool) -> list[Event]:
        """Apply a declared slam: damage, removal at 0, stun, then the win check and the end of
        the turn ("Turn" steps 3–5)."""
        d = self.dice[letter]
        seat = d["owner"]
        sup = self._is_super(letter)
        dmg = SUPER_DAMAGE if sup else NORMAL_DAMAGE
        area = self._area(letter)
        hits = []
        parts = []
        for t in self.slam_targets(letter):
            td = self.dice[t]
            sq, before = td["square"], td["health"]
            if t == bent:
                hits.append({"die": t, "square": sq, "before": before, "after": before,
                             "destroyed": False, "saved": True})
                parts.append(f"{t} at {sq} takes no damage ({BEND_PHRASE})")
                continue
            after = before - dmg
            self.damage_this_turn = True
            if after <= 0:
                td["square"] = None
                del self.dice[t]
                self.removed.append(t)
                parts.append(f"{t} at {sq} is destroyed ({before} → 0)")
            else:
                td["health"] = after
                if self.options["stun"] and after == SUPER_SLAM_HEALTH:
                    td["stunned"] = True
                parts.append(f"{t} at {sq} loses {dmg} ({before} → {after})"
                             + (", stunned" if td.get("stunned") else ""))
            hits.append({"die": t, "square": sq, "before": before, "after": max(after, 0),
                         "destroyed": after <= 0, "saved": False})
        self.last_slam = {"die": letter, "owner": seat, "square": d["square"], "super": sup,
                          "damage": dmg, "area": area, "hits": hits, "predicted": predicted,
                          "bent": bent, "turn": self.turn}
        self.pending = None
        self.phase = "slam"
        what = "Super Slams" if sup else "slams"
        text = (f"{self._name(letter)} {what} ({dmg} damage): " + "; ".join(parts) + "."
                if parts else f"{self._name(letter)} {what}: no enemy die is hit.")
        events = [Event(text[0].upper() + text[1:], "slam", data=dict(self.last_slam))]
        foe = 1 - seat
        if not self._dice_of(foe):
            self.phase = "over"
            events.append(self.finish([seat], f"{self.name(foe)} has no dice left",
                                      Ending.KNOCKOUT))
            return events
        return events + self._end_turn()

    # --- views -------------------------------------------------------------------------------
    def resign(self, player: int, ending: str = Ending.RESIGN) -> list[Event]:
        events = super().resign(player, ending)
        self.phase = "over"
        self.pending = None
        return events

    def _phase(self) -> str:
        return self.phase

    def _describe(self, move: str, seat: int) -> MoveText:
        return describe_move(self, move, seat)

    # --- what a seat can do now, and what to do (bot/engine/slideslam/menu.py) -----------------
    def _menu(self, seat: int) -> list[MenuGroup]:
        return menus.menu(self, seat)

    def _status(self) -> str:
        return menus.status(self)

    def _todo(self, seat: int) -> str:
        return menus.todo(self, seat)

    def _waiting(self, seat: int) -> str:
        return menus.waiting(self, seat)

    def bend_refusal(self, seat: int) -> str:
        """Why `seat` cannot say DICE IS NOT BEND! now, and what to do instead."""
        return menus.bend_refusal(self, seat)

    def argue_refusal(self, seat: int) -> str:
        """Why `seat` may not argue who goes first now; "" while the crowd decides."""
        return menus.argue_refusal(self, seat)

    def squares(self, move: str) -> tuple[str, ...]:
        """The squares a move names, in order (a die named by its letter: its square), for
        screens that ask for the die first and then where it goes."""
        mv = parse(move, self.columns, self.rows)
        return tuple(self.square_of(r) for r in mv.refs) + tuple(sq for sq, _ in mv.pairs)

    def square_of(self, ref: str) -> str:
        """A die's square from its letter (any case) or square; else `ref` as given."""
        d = self.dice.get(ref.strip().upper()) if len(ref.strip()) == 1 else None
        return d["square"] if d and d["square"] else ref.strip().lower()

    def view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    def text(self, player: int | None = None) -> str:
        return build_text(self.view(player))
