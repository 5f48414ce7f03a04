"""Death by Dice: the rules as a state machine over plain JSON state.

Stages (the seed's "Sequence of Play" with the rulings' decisions in between):

    setup_roll  (chance)  every die of every character is rolled; values go to their owners
    setup       (seats)   each player secretly places their values (`setup ...`); reveal when
                          all have; lowest total first, any tie: everyone re-rolls everything
    declare     attacker  steps 1-2: `attack ...` (also `special cook-the-books ...` and
                          `special cheap-shot` at the start of the turn)
    defend      defender  step 3: `defend ...` or `special misdirection X` (skipped when
                          `defend none` is the only choice)
    attack_roll (chance)  step 4: the attacking dice
    loaded      attacker  Lucky Lou only: `special loaded-dice X` or `pass`
    loaded_roll (chance)
    thick_skull defender  Knuckles only, when the target would be discarded: use it or `pass`
    skull_roll  (chance)
    discard     attacker  a Complex Attack's discards when the attacker has a choice
    assist_roll (chance)  step 6: every assisting die is re-rolled (step 7: kept)
    rampage     attacker  Mayhem only, after a won Complex Attack: `special rampage` or `pass`

Step 8 (victory) is checked after every attack and before every turn (rulings, "End of
combat, match"); step 9 passes the turn in set-up order (Bosses & Minions: sides alternate).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import (CHANCE, AmbiguousMoveError, Chance, Draw, Ending, Event, Game,
                    IllegalMoveError, MoveText, Option, OptionError, die, join_names)
from ..menu import MenuGroup
from . import board as B
from . import notation as N
from .attack import AttackSequence
from .data import (ABILITIES, ABILITY_NAMES, CHARACTER_TABLE, COLOURS, MAX_COMBATS, ROSTER,
                   ROSTER_NAMES, SPECIAL_TABLE, TURNS_EACH, find_character)
from .setup_phase import SecretSetup
from .specials import Specials
from . import menu as M
from .describe import describe_move
from .view import board_text, build_view

PLAYER_STAGES = ("setup", "declare", "defend", "loaded", "thick_skull", "discard", "rampage")
CHANCE_STAGES = ("setup_roll", "attack_roll", "loaded_roll", "skull_roll", "assist_roll")

@lru_cache(maxsize=1024)
def _draw(size: int, label: str, owner: int) -> Draw:
    """A die roll's Draw (frozen, so one per size, label and owner serves every game)."""
    return die(size, label, owner=owner)


ROSTER_TEXT = "The roster: " + ", ".join(ROSTER_NAMES) + "."


class DeathByDice(SecretSetup, AttackSequence, Specials, Game):
    KIND = "deathbydice"
    # Only the set-up is secret; one player still arranging is as secret as two.
    SECRET_PHASES = frozenset({"setup_roll", "setup"})
    TITLE = "Death by Dice"
    SCHEMA = 1
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    OPTIONS = (
        Option("characters", "",
               "characters, comma separated, one per seat in seat order (boss mode: the Boss "
               "first, then 2-3 Minions); empty = the roster in order: "
               + ", ".join(ROSTER_NAMES)),
        Option("best_of", 3, "3: best 2 of 3 combats (draws replayed, at most 5); "
               "1: a single combat", 1, 3, choices=(1, 3)),
        Option("mode", "duel", "duel: each for themselves (2-6 players); boss: the host's "
               "Boss against Minions (2-4)",
               choices=("duel", "boss")),
    )

    ROSTER_NAMES = ROSTER_NAMES

    # --- the roster, for screens ----------------------------------------------------------------
    @classmethod
    def roster(cls) -> list[dict[str, Any]]:
        """The characters as plain data: [{name, special: {key, name, when, what}, board: six
        {ability, name, die (size or None), colour (letter or None)}}]."""
        return [{"name": c.name,
                 "special": dict(zip(("key", "name", "when", "what"),
                                     (c.special, *SPECIAL_TABLE[c.special]))),
                 "board": [{"ability": b.ability, "name": ABILITY_NAMES[b.ability],
                            "die": b.size, "colour": b.colour} for b in c.boxes]}
                for c in ROSTER]

    @classmethod
    def find_character(cls, name: str) -> dict[str, Any] | None:
        """The roster entry a typed name means (case, spaces and a leading "The" ignored)."""
        c = find_character(name)
        return None if c is None else next(r for r in cls.roster() if r["name"] == c.name)

    @classmethod
    def roster_text(cls) -> str:
        """The roster as a monospace table, the colours and the specials, for a chat message."""
        head = f"{'Character':<15}" + "".join(f"{a:<6}" for a in ABILITIES) + "Special"
        lines = [head, "-" * len(head)]
        for row in CHARACTER_TABLE:
            cells = "".join(f"{c:<6}" for c in row[1:7])
            lines.append(f"{row[0]:<15}{cells}{SPECIAL_TABLE[row[7]][0]}")
        legend = ("Colours: " + ", ".join(f"{k} {v}" for k, v in COLOURS.items())
                  + " (white links nothing); — = no die. Same colour = Linked. A Boss's dice "
                  "are one size larger.")
        specials = [f"• **{SPECIAL_TABLE[c.special][0]}** ({c.name}) — "
                    f"{SPECIAL_TABLE[c.special][1]}: {SPECIAL_TABLE[c.special][2]}. Once per "
                    "combat." for c in ROSTER]
        return ("**Death by Dice — the characters**\n```\n" + "\n".join(lines) + "\n```\n"
                + legend + "\n" + "\n".join(specials))

    # --- options and set-up -------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        if options["best_of"] not in (1, 3):
            raise OptionError(f"Option `best_of` is 1 or 3, not {options['best_of']}.")
        raw = options["characters"]
        if not isinstance(raw, str):
            raise OptionError("Option `characters` is a comma-separated list of names. "
                              + ROSTER_TEXT)
        names = [n.strip() for n in raw.split(",")] if raw.strip() else []
        canonical = []
        for name in names:
            character = find_character(name) if name else None
            if character is None:
                raise OptionError(f"{name!r} is not a Death by Dice character. " + ROSTER_TEXT)
            canonical.append(character.name)
        options["characters"] = ",".join(canonical)

    @classmethod
    def character_seats(cls, mode: str, players: int) -> list[int]:
        """The seat that runs each character, in the order `characters` names them, when the
        table names no characters itself: one each in a duel; in Bosses & Minions the Boss
        (seat 1) then the Minions (two players: seat 2 runs all three's two Minions)."""
        if mode != "boss":
            return list(range(players))
        if not 2 <= players <= 4:
            raise OptionError(f"Bosses & Minions is for 2 to 4 players (the Boss, then one "
                              f"player for all Minions or one per Minion); {players} joined. "
                              "Someone should leave, or open a duel table.")
        return [0, 1, 1] if players == 2 else list(range(players))

    def _character_names(self) -> list[str]:
        raw = self.options["characters"]
        names = raw.split(",") if raw else []
        mode, n = self.options["mode"], self.players
        if mode == "duel":
            if not names:
                return [ROSTER_NAMES[i % len(ROSTER_NAMES)] for i in range(n)]
            if len(names) != n:
                raise OptionError(f"Name one character per player: {n} players, "
                                  f"{len(names)} character(s) given. " + ROSTER_TEXT)
            return names
        if not 2 <= n <= 4:
            raise OptionError(f"Bosses & Minions is for 2 to 4 players (the Boss, then one "
                              f"player for all Minions or one per Minion), not {n}.")
        if not names:
            return list(ROSTER_NAMES[: 3 if n == 2 else n])
        minions = len(names) - 1
        if not 2 <= minions <= 3:
            raise OptionError("Bosses & Minions needs the Boss and 2 or 3 Minions: name 3 or "
                              f"4 characters, the Boss first ({len(names)} given). "
                              + ROSTER_TEXT)
        if n not in (2, minions + 1):
            raise OptionError(f"With {minions} Minions play with 2 players (one runs every "
                              f"Minion) or {minions + 1} (one per Minion), not {n}.")
        return names

    # ---- finishing places (ratings) ----
    def _boss(self) -> bool:
        return self.options.get("mode") == "boss"

    def ladder(self) -> str:
        # Bosses & Minions is a game of its own: the Boss is built to match two or three.
        return f"{self.KIND}.boss" if self._boss() else self.KIND

    def rated_sides(self) -> list[tuple[int, ...]]:
        if self._boss():
            return [(0,), tuple(range(1, self.players))]
        return super().rated_sides()

    def mean_sides(self) -> bool:
        return self._boss()

    def place_key(self, side: tuple[int, ...], fell: dict[int, int]) -> tuple:
        """Nobody is knocked out of a match: after the winner, by combats won, then by the
        last combat's totals."""
        outcome = self.outcome()
        if self._boss() or self.players <= 2 or outcome is None or outcome.draw:
            return ()
        i = next(i for i, sd in enumerate(self.sides) if side[0] in sd["seats"])
        totals = self.combats[-1]["totals"] if self.combats else [0] * len(self.sides)
        return (-self.score[i], -totals[i])

    @classmethod
    def rematch(cls, players, options):
        """Characters named per seat follow their players (not in Bosses & Minions, whose
        seats are the Boss and the Minions)."""
        order, options = super().rematch(players, options)
        chars = options.get("characters")
        if isinstance(chars, str) and options.get("mode") != "boss":
            names = [c.strip() for c in chars.split(",") if c.strip()]
            if len(names) == players:
                options["characters"] = ", ".join(names[i] for i in order)
        return order, options

    def setup(self) -> None:
        names = self._character_names()
        by_name = {c.name: c for c in ROSTER}
        self.fighters: list[dict[str, Any]] = []
        self.sides: list[dict[str, Any]] = []
        if self.options["mode"] == "duel":
            for seat, name in enumerate(names):
                fid = f"@{seat + 1}"
                self.fighters.append(B.new_fighter(by_name[name], fid, seat, seat, "duel"))
                self.sides.append({"name": f"{fid} {name}", "seats": [seat],
                                   "fighters": [seat]})
        else:
            self.fighters.append(B.new_fighter(by_name[names[0]], "@1", 0, 0, "boss"))
            for k, name in enumerate(names[1:]):
                if self.players == 2:
                    seat, fid = 1, f"@2.{k + 1}"
                else:
                    seat, fid = k + 1, f"@{k + 2}"
                self.fighters.append(B.new_fighter(by_name[name], fid, seat, 1, "minion"))
            self.sides = [
                {"name": f"Boss {names[0]}", "seats": [0], "fighters": [0]},
                {"name": "Minions", "seats": list(range(1, self.players)),
                 "fighters": list(range(1, len(names)))}]
        self.combat = 1
        self.score = [0] * len(self.sides)
        self.combats: list[dict[str, Any]] = []
        self.stage = "setup_roll"
        self.side_order: list[int] = []
        self.turn = 0
        # Twenty turns each: per character, or per side when the sides alternate.
        self.turn_limit = TURNS_EACH * len(self.sides)
        self.active: int | None = None
        self.next_minion = 0
        self.armed: str | None = None  # "cheap-shot" or "rampage" restricts the next attack
        self.attack: dict[str, Any] | None = None
        self.last_attack: dict[str, Any] | None = None

    # --- small lookups ------------------------------------------------------------------------
    @property
    def boss_mode(self) -> bool:
        return self.options["mode"] == "boss"

    def fid(self, fi: int) -> str:
        return self.fighters[fi]["id"]

    def label(self, fi: int) -> str:
        """A character as people read it: "Malice (Ada)", "Boss Knuckles (Ada)". The fighter
        id (`@2`, `@2.1`) is notation and stays in moves and records."""
        f = self.fighters[fi]
        return f"{'Boss ' if f['role'] == 'boss' else ''}{f['character']} ({self.name(f['seat'])})"

    def side_name(self, side: int) -> str:
        """A side as people read it: its character in a duel; the Boss, or the Minions and
        who runs them, in Bosses & Minions."""
        members = self.sides[side]["fighters"]
        if len(members) == 1:
            return self.label(members[0])
        return "the Minions (" + join_names([self.name(s) for s in self.sides[side]["seats"]]) + ")"

    def seat_fighters(self, seat: int) -> list[int]:
        return [i for i, f in enumerate(self.fighters) if f["seat"] == seat]

    def opponents(self, fi: int) -> list[int]:
        side = self.fighters[fi]["side"]
        return [i for i, f in enumerate(self.fighters) if f["side"] != side]

    def can_attack(self, fi: int) -> bool:
        return B.can_attack(self.fighters[fi], [self.fighters[o] for o in self.opponents(fi)])

    def side_totals(self) -> list[int]:
        return [sum(B.total(self.fighters[fi]) for fi in s["fighters"]) for s in self.sides]

    def special_ready(self, fi: int | None, key: str) -> bool:
        if fi is None:
            return False
        f = self.fighters[fi]
        return f["special"] == key and not f["special_used"]

    def resolve_ref(self, ref: tuple[int, int | None] | list[Any], what: str) -> int:
        """A typed `@2` / `@2.1` -> fighter index; ambiguous when the seat runs several."""
        seat, sub = ref
        mine = self.seat_fighters(seat)
        if sub is None:
            if len(mine) == 1:
                return mine[0]
            raise AmbiguousMoveError(
                f"{self.name(seat)} runs several characters; say which {what}: "
                + ", ".join(f"{self.fighters[i]['character']} (`{self.fid(i)}`)" for i in mine)
                + ".")
        if sub >= len(mine):
            raise IllegalMoveError(f"{self.name(seat)} has no character number {sub + 1} "
                                   f"(`@{seat + 1}.{sub + 1}`).")
        return mine[sub]

    # --- whose move ---------------------------------------------------------------------------
    def _actors(self) -> list[Any]:
        if self.stage in CHANCE_STAGES:
            return [CHANCE]
        if self.stage == "setup":
            return sorted({f["seat"] for f in self.fighters if f["arranged"] is None})
        if self.stage not in PLAYER_STAGES:
            return []  # "between": only ever seen inside a move, or after the end
        a = self.attack
        if self.stage in ("defend", "thick_skull"):
            return [self.fighters[a["target"]]["seat"]]
        return [self.fighters[self.active]["seat"]]

    def _chance(self) -> Chance:
        if self.stage == "setup_roll":
            draws = [_draw(f["dice"][a], f"{f['id']} d{f['dice'][a]}", f["seat"])
                     for f in self.fighters for a in B.boxes(f)]
            return Chance(tuple(draws), "the secret set-up rolls")
        a = self.attack
        if self.stage == "attack_roll":
            return Chance(tuple(self._die(a["attacker"], d) for d in a["dice"]), "the attack")
        if self.stage == "loaded_roll":
            return Chance((self._die(a["attacker"], a["loaded"]["die"]),), "Loaded Dice")
        if self.stage == "skull_roll":
            return Chance((self._die(a["target"], a["ability"]),), "Thick Skull")
        if self.stage == "assist_roll":
            return Chance(tuple(self._die(fi, d) for fi, d in a["assists"]),
                          "the assisting dice")
        raise AssertionError(self.stage)

    def _die(self, fi: int, ability: str) -> Draw:
        size = self.fighters[fi]["dice"][ability]
        return _draw(size, f"{self.fid(fi)}:{ability} d{size}", self.fighters[fi]["seat"])

    # --- legal moves --------------------------------------------------------------------------
    def _legal(self, player: int) -> list[str]:
        st = self.stage
        if st == "setup":
            out = []
            mine = self.seat_fighters(player)
            for fi in mine:
                f = self.fighters[fi]
                if f["arranged"] is None:
                    prefix = f["id"] if len(mine) > 1 else None
                    out += [N.fmt_setup(prefix, arr) for arr in B.arrangements(f)]
            return out
        if st == "declare":
            return self.attack_moves(self.active, self.armed) + self.turn_specials()
        if st == "defend":
            return self.defend_moves() + self.misdirection_moves()
        if st == "loaded":
            return [N.fmt_special("loaded-dice", [d]) for d in self.attack["dice"]] + ["pass"]
        if st == "thick_skull":
            return [N.fmt_special("thick-skull"), "pass"]
        if st == "discard":
            return [N.fmt_discard(list(s)) for s in self.discard_options()]
        if st == "rampage":
            return [N.fmt_special("rampage"), "pass"]
        return []

    # --- applying moves -----------------------------------------------------------------------
    def _apply(self, actor: Any, move: str) -> list[Event]:
        if actor == CHANCE:
            values = [int(t) for t in self._chance().parse(move)]
            if self.stage == "setup_roll":
                return self.setup_rolled(values)
            return self.attack_rolled(values)
        p = N.parse(move, self.players)
        handler = getattr(self, "_move_" + p["verb"])
        return handler(actor, p)

    def refuse(self, actor: int, reason: str) -> IllegalMoveError:
        return IllegalMoveError(f"{reason} {self.allowed_hint(actor)}")

    def allowed_hint(self, actor: int) -> str:
        moves = self._legal(actor)
        if not moves:
            return ""
        if len(moves) <= 8:
            return "Allowed now: " + ", ".join(f"`{m}`" for m in moves) + "."
        groups: dict[str, list[str]] = {}
        for m in moves:
            groups.setdefault(" ".join(m.split()[:2]), []).append(m)
        return (f"Allowed now: {len(moves)} moves, such as "
                + ", ".join(f"`{ms[0]}`" for ms in groups.values()) + ".")

    def stage_hint(self) -> str:
        return {"setup": "the secret set-up is under way",
                "declare": "the attacker is declaring an attack",
                "defend": "the defender is choosing a defense",
                "loaded": "Loaded Dice may be used now",
                "thick_skull": "Thick Skull may be used now",
                "discard": "the attacker is choosing dice to discard",
                "rampage": "Rampage may be used now"}.get(self.stage, "dice are rolling")

    def not_now(self, actor: int, what: str) -> IllegalMoveError:
        return self.refuse(actor, f"{what} is not possible now: {self.stage_hint()}.")

    # --- turns, combats, the match ------------------------------------------------------------
    def next_turn(self) -> list[Event]:
        self.armed = None
        if self.turn >= self.turn_limit:
            return self.end_combat(*self.by_totals(f"{TURNS_EACH} turns each are over"),
                                   ending=Ending.ROUND_LIMIT)
        self.turn += 1
        side = self.side_order[(self.turn - 1) % len(self.side_order)]
        members = self.sides[side]["fighters"]
        if len(members) == 1:
            fi = members[0]
        else:
            # Bosses & Minions: the Minions take the side's turns in order; one that cannot
            # attack is skipped (the side loses only when none can).
            k = next(j % len(members) for j in range(self.next_minion,
                                                     self.next_minion + len(members))
                     if self.can_attack(members[j % len(members)]))
            fi = members[k]
            self.next_minion = (k + 1) % len(members)
        self.active = fi
        self.fighters[fi]["turns"] += 1
        self.stage = "declare"
        return [Event(f"Turn {self.turn} of {self.turn_limit}: {self.label(fi)} attacks.",
                      "turn", data={"turn": self.turn, "fighter": self.fid(fi)})]

    def combat_over(self) -> tuple[int | None, str] | None:
        """Rulings, "End of combat": a character that cannot make any legal attack ends the
        combat, highest total wins. Bosses & Minions: a side that cannot attack loses."""
        if self.boss_mode:
            # A side with no dice at all leaves the other side nothing to target; name the
            # real reason rather than "neither side can attack".
            for side, name in ((1, "the Minions have"), (0, "the Boss has")):
                if not any(B.standing(self.fighters[fi]) for fi in self.sides[side]["fighters"]):
                    return 1 - side, f"{name} no dice left"  # (KNOCKOUT, end_combat's default)
            boss_can = any(self.can_attack(fi) for fi in self.sides[0]["fighters"])
            minions_can = any(self.can_attack(fi) for fi in self.sides[1]["fighters"])
            if not boss_can and not minions_can:
                return self.by_totals("neither side can attack")
            if not boss_can:
                return 1, "the Boss cannot attack"
            if not minions_can:
                return 0, "no Minion can attack"
            return None
        stand = [set(B.standing(f)) for f in self.fighters]
        unable = [fi for fi, f in enumerate(self.fighters)
                  if not B.can_attack_sets(f, stand[fi], [stand[o] for o in self.opponents(fi)])]
        if unable:
            who = ", ".join(self.label(fi) for fi in unable)
            return self.by_totals(f"{who} cannot attack")
        return None

    def by_totals(self, reason: str) -> tuple[int | None, str]:
        totals = self.side_totals()
        best = max(totals)
        top = [s for s, t in enumerate(totals) if t == best]
        if len(top) == 1:
            return top[0], f"{reason}; highest total {best}"
        return None, f"{reason}; equal highest totals ({best})"

    def end_combat(self, winner: int | None, reason: str,
                   ending: str = Ending.KNOCKOUT) -> list[Event]:
        """A combat is over: by a knock-out (someone cannot attack: their dice are beaten),
        or by the turn limit (`ending=ROUND_LIMIT`). The match's ending is its last combat's;
        five combats without a match winner end on the round limit."""
        totals = self.side_totals()
        self.combats.append({"combat": self.combat, "winner": winner, "totals": totals,
                             "reason": reason})
        if winner is not None:
            self.score[winner] += 1
        self.stage = "between"
        self.active = None
        self.attack = None
        sums = ", ".join(f"{self.side_name(s)} {t}" for s, t in enumerate(totals))
        verdict = f"{self.side_name(winner)} wins it" if winner is not None else "a draw"
        events = [Event(f"Combat {self.combat} is over ({reason}): {verdict}. Totals: {sums}.",
                        "combat_over", data=self.combats[-1])]
        need = 1 if self.options["best_of"] == 1 else 2
        score = "–".join(map(str, self.score))
        if winner is not None and self.score[winner] >= need:
            if need == 1:
                what = "the combat"
            elif len(self.score) == 2:
                what = f"the match {self.score[winner]}–{self.score[1 - winner]}"
            else:
                what = f"the match with {self.score[winner]} combats (score {score})"
            events.append(self.finish(self.sides[winner]["seats"],
                                      f"{self.side_name(winner)} won {what}", ending))
        elif self.options["best_of"] == 1:
            events.append(self.finish([], "the combat ended with equal totals", ending))
        elif self.combat >= MAX_COMBATS:
            events.append(self.finish([], f"no one won 2 combats in {MAX_COMBATS} "
                                          f"(score {score})", Ending.ROUND_LIMIT))
        else:
            events += self.new_combat()
        return events

    def new_combat(self) -> list[Event]:
        """Each combat after the first starts over with a fresh secret set-up and every
        special unused (rulings: "once per combat (one game of the match)")."""
        self.combat += 1
        for f in self.fighters:
            f.update(values={a: None for a in f["dice"]}, rolled=None, arranged=None,
                     special_used=False, turns=0)
        self.stage = "setup_roll"
        self.side_order = []
        self.turn = 0
        self.next_minion = 0
        self.armed = None
        self.last_attack = None
        return [Event(f"Combat {self.combat} begins (score "
                      + "–".join(map(str, self.score)) + ").", "combat",
                      data={"combat": self.combat, "score": self.score})]

    # --- timers, resigning --------------------------------------------------------------------
    def timeout_move(self, player: int) -> str | None:
        if self.result is not None or player not in self._actors():
            return None
        if self.stage == "defend":
            return "defend none"
        if self.stage in ("loaded", "thick_skull", "rampage"):
            return "pass"
        if self.stage in ("setup", "discard"):
            return self._legal(player)[0]
        return None  # an idle attacker forfeits: there is no passing on an attack

    def resign(self, player: int, ending: str = Ending.RESIGN) -> list[Event]:
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        if self.boss_mode:
            side = 0 if player == 0 else 1
            what = "ran out of time" if ending == Ending.TIMEOUT else "resigned"
            role = "the Boss" if side == 0 else "the Minions"
            reason = f"{self.name(player)} {what} for {role}"
            return [self.finish(self.sides[1 - side]["seats"], reason, ending)]
        return super().resign(player, ending)

    # --- views --------------------------------------------------------------------------------
    def _phase(self) -> str:
        return self.stage

    def _describe(self, move: str, seat: int) -> MoveText:
        return describe_move(self, move, seat)

    def view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    # --- what a seat can do, in words (menu.py) ----------------------------------------------
    def _menu(self, seat: int) -> list[MenuGroup]:
        return M.menu_groups(self, seat)

    def _status(self) -> str:
        return M.status(self)

    def _todo(self, seat: int) -> str:
        return M.todo(self, seat)

    def _waiting(self, seat: int) -> str:
        return M.waiting(self, seat)

    def text(self, player: int | None = None) -> str:
        return board_text(self.view(player))
