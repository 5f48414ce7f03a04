"""TradeShowdown: the fight, round by round.

A round (rulings "A round"): every standing player secretly chooses dice (and, with three or
more standing, a target); the dice are rolled (one chance event); a secret window collects
each player's post-roll choices (which set, Collating Claw, Intimidate, Combo set-asides),
revealed together; then attacks strike in order of depth, lowest first, equal depths together
(defeats are checked once a whole depth has struck, so fighters of equal depth may fall
together). The fight ends when one fighter (or team) stands, or by the judges' decision after
the round limit.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import (CHANCE, Actor, Chance, Ending, Event, Game, IllegalMoveError,
                    InvalidMoveError, MoveText, Option, OptionError)
from ..menu import MenuGroup
from . import notation
from .cards import (MAX_DIGITS, MIN_DIGITS, X, ZIP_DIGITS, check_card, deal_cards, sample_cards, CardsOption, down, instances, mark, new_fighter,
                    open_values, pick, random_card, room, room_for, typed_card)
from .dice import (DEFAULT_SUPPLY, SIZES, SUPPLY_SIZE, SupplyOption, choices, counts, dice_text, draw, find_sets,
                   parse_supply, remove)

COMBO_DICE = 5  # rulings "Combos": five set-aside dice fire a special attack
SWAPS = (("height", "width"), ("height", "depth"), ("width", "depth"))
SPECIAL_TITLES = {"number-cruncher": "Number Cruncher", "snapping-pencil": "Snapping Pencil",
                  "collating-claw": "Collating Claw", "hot-coffee-spout": "Hot Coffee Spout"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("sh") else "s")


@lru_cache(maxsize=1024)
def _dice_moves(available: tuple[int, ...], targets: tuple[int, ...],
                bare: bool) -> tuple[str, ...]:
    """Every dice choice from `available` (with `bare`, without a target too), each with every
    target in `targets`, then the `target @N` moves: the same few supplies and tables come back
    round after round, so they are spelled once (legal() was 40% of the engine's time)."""
    moves: list[str] = []
    for sizes in choices(list(available)):
        base = f"dice {dice_text(sizes)}"
        if bare:
            moves.append(base)
        moves.extend(f"{base} @{t + 1}" for t in targets)
    moves.extend(f"target @{t + 1}" for t in targets)
    return tuple(moves)


class TradeShowdown(Game):
    KIND = "tradeshowdown"
    SECRET_PHASES = frozenset({"choose", "window"})  # dice choices and post-roll plans
    # The window closes with every plan shown (sets, claw, intimidation, combo set-asides).
    # With no attack to slash it leads straight into the next round's secret dice choice, so
    # leaving it is the reveal.
    CLOSING_PHASES = frozenset({"window"})
    TITLE = "TradeShowdown"
    SCHEMA = 1
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    OPTIONS = (
        CardsOption("cards", [], "per player: a card {name, digits, zip}, a list of cards "
                    "(two with Tag Team), or null for built-in sample cards"),
        Option("fair_length", 10, "every card fights with this many digits", 6, 40),
        SupplyOption("dice", DEFAULT_SUPPLY, "each player's supply of ten dice"),
        Option("round_limit", 30, "judges' decision after this round", 1, 200),
        Option("choose_seconds", 120, "seconds to choose dice each round", 10, 3600),
        Option("window_seconds", 60, "seconds for the post-roll secret window", 10, 3600),
        Option("multiple_attacks", True, "every set is its own attack"),
        Option("intimidate", True, "slash your own digits to widen a set"),
        Option("tag_team", True, "each player fights with two cards"),
        Option("combos", True, "set aside zip-code dice for special attacks"),
    )

    # Business cards, for screens that take a player's card (checked here, by the rules).
    MIN_DIGITS, MAX_DIGITS, ZIP_DIGITS = MIN_DIGITS, MAX_DIGITS, ZIP_DIGITS
    SUPPLY_SIZE = SUPPLY_SIZE
    CARD_NOTE = ("Every card in a game fights with the same number of digits (10 unless the "
                 "game says otherwise): a longer card uses its first ones, a shorter one "
                 "repeats. Your card is shown to the other players of your games — a made-up "
                 "number is fine.")
    COMBO_DICE = COMBO_DICE
    check_card = staticmethod(check_card)
    typed_card = staticmethod(typed_card)
    random_card = staticmethod(random_card)
    deal_cards = staticmethod(deal_cards)

    # --- setup -------------------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        for s, given in enumerate(options["cards"]):
            if given is None:
                continue
            if options["tag_team"] and len(given) != 2:
                raise OptionError(f"Tag Team is on, so player {s + 1} needs two cards "
                                  "(or turn the tag_team option off).")
            if not options["tag_team"] and len(given) != 1:
                raise OptionError(f"Player {s + 1} gave {len(given)} cards; two cards are "
                                  "for Tag Team (turn the tag_team option on).")

    def setup(self) -> None:
        given = self.options["cards"]
        if len(given) > self.players:
            raise OptionError(f"Option `cards` has cards for {len(given)} players, but this "
                              f"game has {self.players}.")
        length = self.options["fair_length"]
        self.supply: list[int] = parse_supply(self.options["dice"])
        self.seats: list[dict[str, Any]] = []
        for s in range(self.players):
            cards = given[s] if s < len(given) and given[s] is not None else self._samples(s)
            self.seats.append({
                "cards": [new_fighter(c, length) for c in cards], "active": 0, "out": False,
                "combo": [], "crippled": [], "blinded": False, "claw_round": 0,
                "last_dice": None, "last_target": None})
            self._clear_round(self.seats[-1])
        self.round = 1
        self.phase = "choose"
        self.attacks: list[dict[str, Any]] = []
        self.at = 0
        self.stage: str | None = None
        self.left = 0

    def _samples(self, s: int) -> list[dict[str, str]]:
        return sample_cards(s, self.options["tag_team"])

    @staticmethod
    def _clear_round(seat: dict[str, Any]) -> None:
        seat.update({"dice": None, "target": None, "tag": False, "rolls": [], "sets": [],
                     "window": [], "done": False, "attacks": []})

    # --- small queries ---------------------------------------------------------------------------
    def standing(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if not seat["out"]]

    def fighter(self, s: int) -> dict[str, Any]:
        seat = self.seats[s]
        return seat["cards"][seat["active"]]

    def partner(self, s: int) -> int | None:
        """The card index of the active fighter's standing partner (Tag Team), or None."""
        seat = self.seats[s]
        for c, card in enumerate(seat["cards"]):
            if c != seat["active"] and not card["out"]:
                return c
        return None

    def available(self, s: int) -> list[int]:
        """The supply minus the dice set aside for a combo (rulings "Combos")."""
        return remove(self.supply, [d["size"] for d in self.seats[s]["combo"]])

    def need_target(self) -> bool:
        """Rulings "A round" step 3: with more than two fighters standing, each names a target."""
        return len(self.standing()) >= 3

    # ---- finishing places (ratings) ----
    @classmethod
    def falls(cls, players, options, entries):
        """With more than two fighters, a fighter knocked out later places higher."""
        if players <= 2:
            return None
        game = cls.new(players, options)
        fell: dict[int, int] = {}
        for i, (actor, move) in enumerate(entries):
            who = CHANCE if str(actor) == CHANCE else (
                int(actor) - 1 if isinstance(actor, str) else int(actor))
            game.table_move(who, move)
            fell.update({s: i for s, seat in enumerate(game.seats)
                         if seat["out"] and s not in fell})
        return fell

    def place_key(self, side, fell):
        """Standing at the end beats knocked out (fewer slashes taken first); of two knocked
        out, the later."""
        if self.players <= 2:
            return ()
        s = side[0]
        return (1, -fell[s]) if s in fell else (0, self.taken(s))

    def taken(self, s: int) -> int:
        return sum(sum(card["slashes"]) for card in self.seats[s]["cards"])

    def order_depth(self, s: int, depth: int) -> int:
        """Hot Coffee Spout: the blinded team's depth counts double for attack order."""
        return depth * 2 if self.seats[s]["blinded"] else depth

    # --- protocol --------------------------------------------------------------------------------
    def _actors(self) -> list[Actor]:
        if self.phase == "choose":
            return [s for s in self.standing() if self.seats[s]["dice"] is None]
        if self.phase == "roll":
            return [CHANCE]
        if self.phase == "window":
            return [s for s in self.standing() if not self.seats[s]["done"]]
        return [self.attacks[self.at]["seat"]]

    def _chance(self) -> Chance:
        draws = [draw(size, f"@{s + 1} d{size}", s)
                 for s in self.standing() for size in self.seats[s]["dice"]]
        return Chance(tuple(draws), f"The round {self.round} roll")

    def _legal(self, player: int) -> list[str]:
        if self.phase == "choose":
            return self._choose_moves(player)
        if self.phase == "window":
            seat = self.seats[player]
            return list(self.window_moves(player)) + (["undo"] if seat["window"] else []) \
                + ["done"]
        return self._attack_moves(player)

    def _apply(self, actor: Actor, move: str) -> list[Event]:
        if actor == CHANCE:
            return self._roll(move)
        parsed = notation.parse(move, self.players)
        if self.phase == "choose":
            return self._choose(actor, parsed)
        if self.phase == "window":
            return self._window(actor, move, parsed)
        return self._attack(actor, move, parsed)

    def _refuse(self, player: int, why: str) -> IllegalMoveError:
        """An IllegalMoveError saying what is wrong and what the player may do now."""
        return IllegalMoveError(f"{why} {self.now_text(player)}")

    def now_text(self, player: int) -> str:
        """What `player` may do now, in words with examples (only their own information)."""
        moves = self._legal(player)
        if self.phase == "choose":
            dice = next((m for m in moves if m.startswith("dice")), "dice d6 d6")
            extra = (["`target @N`"] if any(m.startswith("target") for m in moves) else []) \
                + (["`tag`"] if "tag" in moves else [])
            return (f"Now choose your dice in secret, e.g. `{dice}`"
                    + (f" (also: {', '.join(extra)})" if extra else "") + ".")
        if self.phase == "window":
            return "Now, before the attacks: " + ", ".join(f"`{m}`" for m in moves) + "."
        shown = moves if len(moves) <= 12 else moves[:12] + ["..."]
        return "Now: " + ", ".join(f"`{m}`" if m != "..." else m for m in shown) + "."

    # --- step 1: choose dice (secret) ------------------------------------------------------------
    def _choose_moves(self, s: int) -> list[str]:
        seat = self.seats[s]
        others = [t for t in self.standing() if t != s]
        need = self.need_target()
        named = seat["target"] is not None and not self.seats[seat["target"]]["out"]
        moves = list(_dice_moves(tuple(self.available(s)), tuple(others) if need else (),
                                 not need or named))
        if self.options["tag_team"] and self.partner(s) is not None:
            moves.append("tag")
        return moves

    def _check_target(self, s: int, t: int) -> None:
        if not self.need_target():
            raise self._refuse(s, "With two fighters standing your target is always the other "
                                  "one; leave the target out.")
        if t == s:
            raise self._refuse(s, "You cannot target yourself.")
        if self.seats[t]["out"]:
            raise self._refuse(s, f"{self.name(t)} is already defeated.")

    def _choose(self, s: int, parsed: tuple[Any, ...]) -> list[Event]:
        seat = self.seats[s]
        verb = parsed[0]
        if verb == "tag":
            if not self.options["tag_team"]:
                raise self._refuse(s, "Tag Team is not played in this game.")
            c = self.partner(s)
            if c is None:
                raise self._refuse(s, "Your partner is defeated; nobody can tag in.")
            seat["tag"] = not seat["tag"]
            name = seat["cards"][c]["name"] if seat["tag"] else self.fighter(s)["name"]
            text = (f"{name} will tag in when the dice are rolled." if seat["tag"]
                    else f"Tag cancelled: {name} stays in.")
            return [Event(text, "secret", to=(s,), data={"tag": seat["tag"]})]
        if verb == "target":
            self._check_target(s, parsed[1])
            seat["target"] = parsed[1]
            return [Event(f"Your target this round: {self.name(parsed[1])}.", "secret", to=(s,),
                          data={"target": parsed[1]})]
        if verb != "dice":
            raise self._refuse(s, "That move comes later in the round.")
        sizes, target = parsed[1], parsed[2]
        have = counts(self.available(s))
        want = counts(sizes)
        short = [f"d{k}" for k in want if want[k] > have[k]]
        if short:
            supply = ", ".join(f"{n}×d{k}" for k, n in have.items() if n) or "nothing"
            raise self._refuse(s, f"You do not have that many {', '.join(short)}: your "
                                  f"supply is {supply}.")
        if target is not None:
            self._check_target(s, target)
            seat["target"] = target
        elif self.need_target() and seat["target"] is None:
            raise self._refuse(s, "Name your target too: add `@N` to the dice, or first "
                                  "`target @N`.")
        elif self.need_target() and self.seats[seat["target"]]["out"]:
            raise self._refuse(s, f"Your target {self.name(seat['target'])} is defeated; name another.")
        seat["dice"] = sizes
        seat["last_dice"] = sizes
        if self.need_target():
            seat["last_target"] = seat["target"]
        events = [Event(f"{self.name(s)} has chosen their dice.", "chosen", data={"seat": s}),
                  Event(f"You will roll {dice_text(sizes)}"
                        + (f" at {self.name(seat['target'])}" if seat["target"] is not None else "")
                        + ".", "secret", to=(s,),
                        data={"dice": sizes, "target": seat["target"]})]
        if not self._actors():
            events += self._start_roll()
        return events

    def _start_roll(self) -> list[Event]:
        """Everyone has chosen: tags happen, choices and targets are revealed, dice are due."""
        events = []
        standing = self.standing()
        for s in standing:
            seat = self.seats[s]
            if seat["tag"]:
                old = self.fighter(s)["name"]
                seat["active"] = self.partner(s)
                seat["tag"] = False
                events.append(Event(f"{self.name(s)} tags in {self.fighter(s)['name']} ({old} steps "
                                    "out).", "tag", data={"seat": s, "card": seat["active"]}))
            if len(standing) == 2:
                seat["target"] = next(t for t in standing if t != s)
        parts = []
        for s in standing:
            seat = self.seats[s]
            parts.append(f"{self.name(s)} rolls {dice_text(seat['dice'])}"
                         + (f" at {self.name(seat['target'])}" if len(standing) > 2 else ""))
        events.append(Event("Dice chosen: " + "; ".join(parts) + ".", "dice_chosen", data={
            "dice": {str(s): self.seats[s]["dice"] for s in standing},
            "targets": {str(s): self.seats[s]["target"] for s in standing}}))
        self.phase = "roll"
        return events

    # --- step 2: the roll and sets ---------------------------------------------------------------
    def _roll(self, move: str) -> list[Event]:
        tokens = [int(t) for t in self._chance().parse(move)]
        events = []
        i = 0
        for s in self.standing():
            seat = self.seats[s]
            values = tokens[i:i + len(seat["dice"])]
            i += len(seat["dice"])
            seat["rolls"] = [{"size": size, "value": v} for size, v in zip(seat["dice"], values)]
            seat["sets"] = find_sets(values, seat["crippled"])
            sets = ", ".join(f"{x['width']}×{x['height']}" for x in seat["sets"]) or "no set"
            events.append(Event(
                f"{self.name(s)} rolls {' '.join(map(str, values))} (depth {len(values)}): {sets}.",
                "roll", data={"seat": s, "rolls": [dict(r) for r in seat["rolls"]],
                              "sets": [dict(x) for x in seat["sets"]]}))
        self.phase = "window"
        for s in self.standing():
            # Nothing to decide: no need to wait for this player.
            self.seats[s]["done"] = not self.window_moves(s)
        if not self._actors():
            events += self._reveal()
        return events

    # --- the post-roll secret window -------------------------------------------------------------
    def plan(self, s: int) -> dict[str, Any]:
        """The player's pending window choices, folded from their steps."""
        seat = self.seats[s]
        plan: dict[str, Any] = {"chosen": seat["sets"][0]["height"] if seat["sets"] else None,
                                "claw": None, "intimidate": [], "aside": []}
        for step in seat["window"]:
            if step["do"] == "set":
                plan["chosen"] = step["height"]
            elif step["do"] == "claw":
                plan["claw"] = {"set": step["set"], "swap": step["swap"]}
            elif step["do"] == "intimidate":
                plan["intimidate"].append({"card": step["card"], "value": step["value"]})
            else:
                plan["aside"].append(step["die"])
        return plan

    def plan_sets(self, s: int, plan: dict[str, Any]) -> list[dict[str, Any]]:
        """The attacks the plan gives: the set(s) used, Collating Claw applied, then each
        Intimidate slash adding 1 width to the set of that height."""
        seat = self.seats[s]
        raw = seat["sets"]
        use = raw if self.options["multiple_attacks"] else [
            x for x in raw if x["height"] == plan["chosen"]]
        out = []
        for x in use:
            a = {"rolled": x["height"], "height": x["height"], "width": x["width"],
                 "depth": len(seat["rolls"]), "clawed": False, "intimidated": 0}
            if plan["claw"] and plan["claw"]["set"] == x["height"]:
                d1, d2 = plan["claw"]["swap"]
                a[d1], a[d2] = a[d2], a[d1]
                a["clawed"] = True
            out.append(a)
        for i in plan["intimidate"]:
            # Two sets can share a height only after a claw swap: the clawed one is widened.
            match = sorted((a for a in out if a["height"] == i["value"]),
                           key=lambda a: not a["clawed"])
            if match:
                match[0]["width"] += 1
                match[0]["intimidated"] += 1
        out.sort(key=lambda a: (-a["width"], -a["height"]))
        return out

    def window_moves(self, s: int) -> dict[str, dict[str, Any]]:
        """Every one-step window choice open to the player now (notation -> step)."""
        seat = self.seats[s]
        plan = self.plan(s)
        raw = seat["sets"]
        moves: dict[str, dict[str, Any]] = {}
        untouched = plan["claw"] is None and not plan["intimidate"]
        # Rulings "A round" step 2: without Multiple Attacks, pick the set (before the claw and
        # intimidation, which change it).
        if not self.options["multiple_attacks"] and len(raw) >= 2 and untouched:
            for x in raw:
                if x["height"] != plan["chosen"]:
                    moves[f"set {x['height']}"] = {"do": "set", "height": x["height"]}
        # Collating Claw: "before you slash your own digits" -- so before any Intimidate.
        if self.options["combos"] and seat["claw_round"] == self.round and untouched:
            eligible = raw if self.options["multiple_attacks"] else [
                x for x in raw if x["height"] == plan["chosen"]]
            for x in eligible:
                for d1, d2 in SWAPS:
                    moves[f"claw {x['height']} {d1} {d2}"] = {
                        "do": "claw", "set": x["height"], "swap": [d1, d2]}
        if self.options["intimidate"] and raw:
            # Intimidation widens a set of its height; only a claw swap changes heights.
            heights = sorted({a["height"] for a in self.plan_sets(s, plan)
                              if 0 <= a["height"] <= 9} if plan["claw"] is not None
                             else {x["height"] for x in raw})
            for c, card in enumerate(seat["cards"]):
                if card["out"]:
                    continue
                mine = [i for i in plan["intimidate"] if i["card"] == c]
                if room(card) - len(mine) <= 1:
                    continue  # "You may not intimidate yourself to defeat."
                word = "intimidate" if c == seat["active"] else "intimidate partner"
                for v in heights:
                    if room_for(card, v) > sum(1 for i in mine if i["value"] == v):
                        moves[f"{word} {v}"] = {"do": "intimidate", "card": c, "value": v}
        if self.options["combos"] and len(seat["combo"]) + len(plan["aside"]) < COMBO_DICE:
            zipcode = self.fighter(s)["zip"]
            in_sets = {x["height"] for x in raw}
            for i, r in enumerate(seat["rolls"]):
                v = r["value"]
                if (v not in in_sets and str(v) in zipcode and i not in plan["aside"]
                        and f"combo {v}" not in moves):
                    moves[f"combo {v}"] = {"do": "combo", "die": i}
        return moves

    def _window(self, s: int, move: str, parsed: tuple[Any, ...]) -> list[Event]:
        seat = self.seats[s]
        verb = parsed[0]
        if verb == "done":
            seat["done"] = True
            events = [Event(f"{self.name(s)} is ready.", "ready", data={"seat": s})]
            if not self._actors():
                events += self._reveal()
            return events
        if verb == "undo":
            if not seat["window"]:
                raise self._refuse(s, "There is nothing to undo.")
            seat["window"].pop()
            return [Event("Undone. " + self._plan_text(s), "secret", to=(s,))]
        if verb not in ("set", "claw", "intimidate", "combo"):
            raise self._refuse(s, "That move is not part of the window after the roll.")
        for step in notation.steps(move, self.players):
            moves = self.window_moves(s)
            if step not in moves:
                raise self._refuse(s, self._window_why(s, verb) + f" `{step}` is not allowed.")
            seat["window"].append(moves[step])
        return [Event(self._plan_text(s), "secret", to=(s,), data={"plan": self.plan(s)})]

    def _window_why(self, s: int, verb: str) -> str:
        seat = self.seats[s]
        opt = {"set": "multiple_attacks", "claw": "combos", "intimidate": "intimidate",
               "combo": "combos"}[verb]
        if verb == "set" and self.options["multiple_attacks"]:
            return "With Multiple Attacks every set attacks; there is no set to pick."
        if verb != "set" and not self.options[opt]:
            return f"{'Intimidate' if verb == 'intimidate' else 'Combos'} are not played in " \
                   "this game."
        if verb == "claw" and seat["claw_round"] != self.round:
            return "You have no Collating Claw to use this round."
        if verb in ("set", "claw") and (self.plan(s)["claw"] or self.plan(s)["intimidate"]):
            return "Pick the set and the claw before intimidating (`undo` first)."
        if verb in ("set", "claw", "intimidate") and not seat["sets"]:
            return "You rolled no set."
        return "Not possible with this roll."

    def _plan_text(self, s: int) -> str:
        from .describe import plan_text
        return plan_text(self, s) + " Press Done when ready."

    def _reveal(self) -> list[Event]:
        """The window closes: every player's choices happen together, then the attacks."""
        events = []
        for s in self.standing():
            seat = self.seats[s]
            plan = self.plan(s)
            sets = self.plan_sets(s, plan)
            for i in plan["intimidate"]:
                card = seat["cards"][i["card"]]
                card["slashes"][pick(card, i["value"])] += 1
            for i in plan["aside"]:
                seat["combo"].append(dict(seat["rolls"][i]))
            seat["attacks"] = sets
            bits = []
            if plan["claw"]:
                d1, d2 = plan["claw"]["swap"]
                bits.append(f"Collating Claw swaps {d1} and {d2} of the {plan['claw']['set']}s")
            if plan["intimidate"]:
                by_card: dict[int, list[str]] = {}
                for i in plan["intimidate"]:
                    by_card.setdefault(i["card"], []).append(str(i["value"]))
                bits.append("intimidates: slashes " + " and ".join(
                    f"{' '.join(v)} on {seat['cards'][c]['name']}" for c, v in by_card.items())
                    + " (their own side)")
            for a in sets:
                bits.append(f"attacks with width {a['width']}, height {a['height']}, "
                            f"depth {a['depth']}")
            if plan["aside"]:
                bits.append("sets aside " + " ".join(
                    f"d{seat['rolls'][i]['size']}:{seat['rolls'][i]['value']}"
                    for i in plan["aside"]) + f" (combo {len(seat['combo'])}/{COMBO_DICE})")
            if not bits:
                bits.append("has no attack this round")
            events.append(Event(f"{self.name(s)} " + "; ".join(bits) + ".", "reveal", data={
                "seat": s, "attacks": [dict(a) for a in sets], "intimidate": plan["intimidate"],
                "claw": plan["claw"], "combo": [dict(d) for d in seat["combo"]]}))
        self._queue()
        if self.attacks:
            order = ", ".join(f"{self.name(e['seat'])} ({self._entry_text(e)})" for e in self.attacks)
            events.append(Event(f"Attack order: {order}.", "order",
                                data={"attacks": [dict(e) for e in self.attacks]}))
        self.phase = "attack"
        self.at, self.stage, self.left = 0, None, 0
        return events + self._advance()

    # --- step 3: attacks -------------------------------------------------------------------------
    @staticmethod
    def _entry_text(e: dict[str, Any]) -> str:
        what = "combo ready" if e["kind"] == "special" else \
            f"width {e['width']} height {e['height']}"
        return f"{what}, depth {e['order']}"

    def _queue(self) -> None:
        """Attack order: lowest depth first (Hot Coffee Spout doubles it); equal depths strike
        together, in seat order; a player's special comes before their sets, sets widest first."""
        entries = []
        for s in self.standing():
            seat = self.seats[s]
            if self.options["combos"] and len(seat["combo"]) >= COMBO_DICE:
                entries.append({"seat": s, "kind": "special", "card": seat["active"],
                                "height": None, "width": 0, "depth": len(seat["rolls"]),
                                "order": self.order_depth(s, len(seat["rolls"]))})
            for a in seat["attacks"]:
                entries.append({"seat": s, "kind": "set", "card": seat["active"],
                                "height": a["height"], "width": a["width"],
                                "depth": a["depth"], "order": self.order_depth(s, a["depth"])})
        for n, e in enumerate(entries):
            e["n"] = n
        entries.sort(key=lambda e: (e["order"], e["seat"], e["n"]))
        for e in entries:
            del e["n"]
            e["done"] = False
        self.attacks = entries

    def _advance(self) -> list[Event]:
        """Run the attack queue until a player must choose (or the round/fight ends)."""
        events: list[Event] = []
        while self.result is None and self.phase == "attack" and self.stage is None:
            if self.at >= len(self.attacks):
                events += self._end_round()
                break
            e = self.attacks[self.at]
            s = e["seat"]
            seat = self.seats[s]
            if seat["out"] or seat["active"] != e["card"]:
                # Rulings "A round" step 3: a defeated fighter does not attack later.
                name = seat["cards"][e["card"]]["name"]
                text = (f"{self.name(s)}'s {name} is down and does not attack."
                        if seat["cards"][e["card"]]["out"] else
                        f"{self.name(s)} has left the fight and does not attack.")
                events.append(Event(text, "skip", data={"seat": s}))
                events += self._next_entry()
                continue
            t = seat["target"]
            if t is None or self.seats[t]["out"]:
                others = [x for x in self.standing() if x != s]
                if len(others) > 1:
                    self.stage = "redirect"
                    break
                seat["target"] = others[0]
                events.append(Event(f"{self.name(s)}'s target is down: the attack goes to "
                                    f"{self.name(others[0])}.", "redirect",
                                    data={"seat": s, "target": others[0]}))
                t = others[0]
            if e["kind"] == "special":
                self.stage = "special"
                break
            target = self.fighter(t)
            if e["width"] <= 0:
                events.append(Event(f"{self.name(s)}'s set has width 0: no slashes.", "lost",
                                    data={"seat": s, "lost": 0}))
                events += self._next_entry()
                continue
            if not open_values(target, e["height"]):
                events.append(Event(
                    f"{self.name(s)} has no digit up to {e['height']} to slash on "
                    f"{target['name']}: {_plural(e['width'], 'slash')} lost.", "lost",
                    data={"seat": s, "lost": e["width"]}))
                events += self._next_entry()
                continue
            self.left = e["width"]
            self.stage = "slash"
        return events

    def _next_entry(self) -> list[Event]:
        prev = self.attacks[self.at]
        prev["done"] = True
        self.at += 1
        self.stage, self.left = None, 0
        if self.at >= len(self.attacks) or self.attacks[self.at]["order"] != prev["order"]:
            return self._resolve_depth()
        return []

    def _resolve_depth(self) -> list[Event]:
        """A whole depth has struck: now its defeats count, all at once (rulings step 3)."""
        events = []
        for s in self.standing():
            seat = self.seats[s]
            for card in seat["cards"]:
                if not card["out"] and down(card):
                    card["out"] = True
                    events.append(Event(f"{self.name(s)}'s {card['name']} is X'd out!", "knockout",
                                        data={"seat": s, "card": card["name"]}))
            if seat["cards"][seat["active"]]["out"]:
                c = self.partner(s)
                if c is not None:
                    seat["active"] = c
                    events.append(Event(f"{seat['cards'][c]['name']} tags in for {self.name(s)} at "
                                        "once.", "tag", data={"seat": s, "card": c}))
                else:
                    seat["out"] = True
                    events.append(Event(f"{self.name(s)} is defeated.", "defeat", data={"seat": s}))
        left = self.standing()
        if len(left) == 1:
            events.append(self.finish(left, "last fighter standing", Ending.KNOCKOUT))
        elif not left:
            events.append(self.finish([], "the last fighters fell together", Ending.KNOCKOUT))
        return events

    def _end_round(self) -> list[Event]:
        if self.round >= self.options["round_limit"]:
            return self._judges()
        self.round += 1
        self.phase = "choose"
        self.attacks, self.at, self.stage, self.left = [], 0, None, 0
        for s in self.standing():
            self._clear_round(self.seats[s])
        return [Event(f"Round {self.round}: choose your dice.", "round",
                      data={"round": self.round})]

    def _judges(self) -> list[Event]:
        """Rulings "A round" step 6: the fighter who has taken the fewest slashes wins."""
        left = self.standing()
        fewest = min(self.taken(s) for s in left)
        best = [s for s in left if self.taken(s) == fewest]
        tally = ", ".join(f"{self.name(s)} {self.taken(s)}" for s in left)
        if len(best) == 1:
            return [self.finish(best, f"judges' decision after round {self.round}: fewest "
                                      f"slashes taken ({tally})", Ending.JUDGES)]
        # "equal: a draw" -- with more players too, a shared lead is a draw, not a shared win.
        return [self.finish([], f"judges' decision after round {self.round}: "
                                + " and ".join(self.name(s) for s in best)
                                + f" tied for the fewest slashes taken ({tally})",
                             Ending.JUDGES)]

    def _slash_moves(self, s: int) -> dict[str, int]:
        """Slash choices on the target's card: `slash V` and, where the card has several Vs,
        `slash V#n` for the n-th V (notation -> digit position)."""
        e = self.attacks[self.at]
        card = self.fighter(self.seats[s]["target"])
        moves = {}
        for v in open_values(card, e["height"]):
            moves[notation.slash_move(v)] = pick(card, v)
            where = instances(card, v)
            if len(where) > 1:
                for n, i in enumerate(where, 1):
                    if card["slashes"][i] < X:
                        moves[notation.slash_move(v, n)] = i
        return moves

    def _special_moves(self, s: int) -> list[str]:
        t = self.seats[s]["target"]
        moves = ["special number-cruncher"]
        moves += [f"special snapping-pencil {v}" for v in range(10)
                  if v not in self.seats[t]["crippled"]]
        moves.append("special collating-claw")
        if not self.seats[t]["blinded"]:
            moves.append("special hot-coffee-spout")
        return moves + ["hold"]

    def _attack_moves(self, s: int) -> list[str]:
        if self.stage == "redirect":
            return [f"target @{t + 1}" for t in self.standing() if t != s]
        if self.stage == "special":
            return self._special_moves(s)
        return list(self._slash_moves(s))

    def _attack(self, s: int, move: str, parsed: tuple[Any, ...]) -> list[Event]:
        seat = self.seats[s]
        verb = parsed[0]
        if self.stage == "redirect":
            if verb != "target":
                raise self._refuse(s, "Your target is defeated: name a new one first.")
            t = parsed[1]
            if t == s or self.seats[t]["out"]:
                raise self._refuse(s, f"{self.name(t)} cannot be your target.")
            seat["target"] = t
            self.stage = None
            return [Event(f"{self.name(s)} turns on {self.name(t)}.", "redirect",
                          data={"seat": s, "target": t})] + self._advance()
        if self.stage == "special":
            if verb == "hold":
                events = [Event(f"{self.name(s)} holds their combo.", "hold", data={"seat": s})]
                return events + self._next_entry() + self._advance()
            if verb != "special":
                raise self._refuse(s, "Your combo is ready: fire a special attack or `hold`.")
            return self._special(s, parsed[1], parsed[2])
        if verb != "slash":
            raise self._refuse(s, "It is your attack.")
        events = []
        e = self.attacks[self.at]
        t = seat["target"]
        card = self.fighter(t)
        todo = notation.steps(move, self.players)
        for k, step in enumerate(todo):
            if self.stage != "slash" or e["done"]:
                raise IllegalMoveError(f"Your attack had only {_plural(k, 'slash')} left; "
                                       f"you wrote {len(todo)}.")
            moves = self._slash_moves(s)
            if step not in moves:
                raise self._refuse(s, f"You may slash digits up to {e['height']} that are not "
                                      f"X'd on {card['name']}; `{step}` is not one of them.")
            i = moves[step]
            before = "X" if card["slashes"][i] >= X else f"{card['digits'][i]}" + (
                "/" * card["slashes"][i])
            card["slashes"][i] += 1
            after = "X" if card["slashes"][i] >= X else f"{card['digits'][i]}/"
            self.left -= 1
            events.append(Event(
                f"{self.name(s)} slashes a {card['digits'][i]} on {card['name']} (digit {i + 1}: "
                f"{before} → {after}).", "slash",
                data={"seat": s, "target": t, "position": i, "digit": card["digits"][i],
                      "slashes": card["slashes"][i], "left": self.left}))
            if self.left <= 0:
                events += self._next_entry()
            elif not open_values(card, e["height"]):
                events.append(Event(f"Nothing left to slash up to {e['height']} on "
                                    f"{card['name']}: {_plural(self.left, 'slash')} lost.",
                                    "lost", data={"seat": s, "lost": self.left}))
                events += self._next_entry()
        return events + self._advance()

    def _special(self, s: int, name: str, value: int | None) -> list[Event]:
        seat = self.seats[s]
        t = seat["target"]
        foe = self.seats[t]
        title = SPECIAL_TITLES[name]
        if name == "snapping-pencil" and value in foe["crippled"]:
            raise self._refuse(s, f"{self.name(t)}'s {value}s are already crippled.")
        if name == "hot-coffee-spout" and foe["blinded"]:
            raise self._refuse(s, f"{self.name(t)} is already blinded (it does not stack).")
        mine = seat["cards"][self.attacks[self.at]["card"]]
        if name == "number-cruncher":
            zipcode = {int(ch) for ch in mine["zip"]}
            card = self.fighter(t)
            hit = [i for i, (d, n) in enumerate(zip(card["digits"], card["slashes"]))
                   if d in zipcode and n < X]
            for i in hit:
                card["slashes"][i] += 1
            text = (f"{self.name(s)} fires {title} (zip {mine['zip']}): {_plural(len(hit), 'slash')} on "
                    f"{card['name']} — {mark(card)}.")
            data = {"positions": hit}
        elif name == "snapping-pencil":
            foe["crippled"].append(value)
            foe["crippled"].sort()
            text = f"{self.name(s)} fires {title}: {self.name(t)}'s {value}s never count in sets again."
            data = {"value": value}
        elif name == "collating-claw":
            seat["claw_round"] = self.round + 1
            text = (f"{self.name(s)} fires {title}: on their next roll they may swap two dimensions "
                    "of a set.")
            data = {}
        else:
            foe["blinded"] = True
            text = (f"{self.name(s)} fires {title}: {self.name(t)} is blinded; their depth counts double "
                    "from the next roll on.")
            data = {}
        seat["combo"] = []  # the five dice return to the supply
        events = [Event(text, "special", data={"seat": s, "target": t, "special": name,
                                               **data})]
        return events + self._next_entry() + self._advance()

    # --- timers, resigning -----------------------------------------------------------------------
    def timeout_move(self, player: int) -> str | None:
        """Choose: the player's last dice (or the whole supply) at their last target; window:
        `done`; attack: the redirect to the first standing foe, `hold`, or a slash on the
        highest digit in reach."""
        if self.result is not None or player not in self._actors():
            return None
        seat = self.seats[player]
        if self.phase == "choose":
            avail = self.available(player)
            sizes = seat["last_dice"]
            ok = sizes is not None
            if ok:
                try:
                    remove(avail, sizes)
                except ValueError:
                    ok = False  # some of those dice are set aside now
            move = f"dice {dice_text(sizes if ok else avail)}"
            if self.need_target():
                others = [t for t in self.standing() if t != player]
                for t in (seat["target"], seat["last_target"]):
                    if t in others:
                        return f"{move} @{t + 1}"
                later = [t for t in others if t > player] or others
                return f"{move} @{later[0] + 1}"
            return move
        if self.phase == "window":
            return "done"
        if self.stage == "redirect":
            return self._attack_moves(player)[0]
        if self.stage == "special":
            return "hold"
        return max(self._slash_moves(player), key=lambda m: (int(m.split()[1][0]), -len(m)))

    def wait_seconds(self) -> int | None:
        if self.result is not None:
            return None
        if self.phase == "choose":
            return self.options["choose_seconds"]
        if self.phase == "window":
            return self.options["window_seconds"]
        return None

    def resign(self, player: int, ending: str = Ending.RESIGN) -> list[Event]:
        """The player's fighter leaves the fight; with others still standing the fight goes on
        without them (their attacks are skipped, attacks on them are redirected)."""
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        if self.seats[player]["out"]:
            raise IllegalMoveError(f"{self.name(player)} is already out of the fight.")
        current = self.attacks[self.at] if self.phase == "attack" and self.at < len(
            self.attacks) else None
        attacking = current is not None and current["seat"] == player
        victim = current is not None and not attacking and \
            self.seats[current["seat"]]["target"] == player
        self.seats[player]["out"] = True
        gone = ("runs out of time and leaves the fight" if ending == Ending.TIMEOUT
                else "resigns")
        events = [Event(f"{self.name(player)} {gone}.", "resign", data={"seat": player})]
        left = self.standing()
        if len(left) <= 1:
            what = "ran out of time" if ending == Ending.TIMEOUT else "resigned"
            return events + [self.finish(left, f"{self.name(player)} {what}", ending)]
        if self.phase == "choose" and not self._actors():
            events += self._start_roll()
        elif self.phase == "window" and not self._actors():
            events += self._reveal()
        elif attacking:
            events += self._next_entry() + self._advance()
        elif victim and self.stage == "slash":
            # Slashes on a fighter who has left the fight are lost.
            events.append(Event(f"{_plural(self.left, 'slash')} of {self.name(current['seat'])} "
                                "lost.", "lost", data={"seat": current["seat"],
                                                       "lost": self.left}))
            events += self._next_entry() + self._advance()
        elif victim or (self.stage == "redirect" and len(left) == 2):
            # Start the attack again: it is redirected (by its player, or at once when only
            # one foe is left).
            self.stage = None
            events += self._advance()
        return events

    # --- words and facts for the screens ---------------------------------------------------------
    def _describe(self, move: str, seat: int) -> MoveText:
        from .describe import describe
        return describe(self, move, seat)

    def window_step(self, s: int, move: str) -> dict[str, Any] | None:
        """The window step a one-step window move stands for now (None: not open)."""
        if self.phase != "window":
            return None
        return self.window_moves(s).get(move)

    def slash_position(self, s: int, value: int, nth: int | None = None) -> int | None:
        """The digit (0-based position on the target's card) `slash V` / `slash V#n` hits now;
        None when that slash is not open."""
        if self.phase != "attack" or self.stage != "slash":
            return None
        return self._slash_moves(s).get(notation.slash_move(value, nth))

    @staticmethod
    def dice_move(sizes: list[int], target: int | None = None) -> str:
        """The notation of a dice choice (for screens that pick dice one by one); OptionError-
        free: a count beyond any supply is refused before any text is built."""
        if not 1 <= len(sizes) <= SUPPLY_SIZE:
            raise InvalidMoveError(f"Choose 1 to {SUPPLY_SIZE} dice from your supply.")
        if any(s not in SIZES for s in sizes):
            raise InvalidMoveError("Dice are d4, d6, d8 or d10.")
        return f"dice {dice_text(sizes)}" + (f" @{target + 1}" if target is not None else "")

    def supply_words(self, s: int) -> list[tuple[str, str]]:
        """Each die `s` may roll now, one by one (a screen's dice to tick): its label ("d10
        (2nd of 4)") and what it shows ("shows 0-9")."""
        from .describe import ordinal
        dice = self.available(s)
        out = []
        for i, size in enumerate(dice):
            n, k = dice.count(size), dice[:i + 1].count(size)
            faces = "0-9" if size == 10 else f"1-{size}"
            out.append((f"d{size}" + (f" ({ordinal(k)} of {n})" if n > 1 else ""),
                        f"shows {faces}"))
        return out

    @staticmethod
    def counts_move(counts: dict[int, int], target: int | None = None) -> str:
        """The dice choice given as how many dice of each size (`{4: 1, 10: 2}`), checked as
        numbers before any list is built (a forged count of a billion is refused, not built)."""
        total = sum(counts.values())
        if not 1 <= total <= SUPPLY_SIZE or min(counts.values(), default=0) < 0:
            raise InvalidMoveError(f"Choose 1 to {SUPPLY_SIZE} dice from your supply: how many "
                                   "d4, d6, d8 and d10 you roll.")
        return TradeShowdown.dice_move([s for s, n in counts.items() for _ in range(n)], target)

    @staticmethod
    def target_move(t: int) -> str:
        """The notation naming seat `t` as the target."""
        return f"target @{t + 1}"

    def best_slashes(self, s: int) -> str | None:
        """The rest of the current attack played best-first (each slash on the highest digit in
        reach, as the timer would), as one move: `slash 8 8 6`; None when not slashing."""
        if self.phase != "attack" or self.stage != "slash" or self.attacks[self.at]["seat"] != s:
            return None
        card = self.fighter(self.seats[s]["target"])
        reach = self.attacks[self.at]["height"]
        marks = list(card["slashes"])
        trial = {"digits": card["digits"], "slashes": marks}
        chain = []
        for _ in range(self.left):
            values = open_values(trial, reach)
            if not values:
                break
            v = values[-1]
            marks[pick(trial, v)] += 1
            chain.append(str(v))
        return "slash " + " ".join(chain) if chain else None

    def move_groups(self, s: int) -> dict[str, list[str]]:
        """`s`'s legal moves sorted by what they do, for screens that give each kind its own
        buttons or menu: dice, target, tag, set, claw, intimidate, combo, undo, done, slash
        (one per digit), best, special, pencil, hold."""
        groups: dict[str, list[str]] = {}
        moves = self.legal(s)
        if not moves:
            return groups
        if self.phase == "attack" and self.stage == "slash":
            # One entry per digit: `slash 6#2` where the card has several 6s, else `slash 6`.
            card = self.fighter(self.seats[s]["target"])
            where = self._slash_moves(s)
            for m, i in where.items():
                several = len(instances(card, card["digits"][i])) > 1
                if several == ("#" in m):
                    groups.setdefault("slash", []).append(m)
            groups["slash"].sort(key=lambda m: where[m])
            best = self.best_slashes(s)
            if best is not None:
                groups["best"] = [best]
            return groups
        for m in moves:
            kind = m.partition(" ")[0]  # our own canonical spelling: the verb comes first
            if m.startswith("special snapping-pencil"):
                kind = "pencil"
            groups.setdefault(kind, []).append(m)
        if "combo" in groups:
            groups["combo"].sort()  # by the die's value (one digit), as a player looks for it
        return groups

    # --- what the screens ask: the moves grouped, and the words of the moment -------------------
    def _menu(self, seat: int) -> list[MenuGroup]:
        from .menu import build_menu
        return build_menu(self, seat)

    def _status(self) -> str:
        from .menu import status
        return status(self)

    def _todo(self, seat: int) -> str:
        from .menu import todo
        return todo(self, seat)

    def _waiting(self, seat: int) -> str:
        from .menu import waiting
        return waiting(self, seat)

    # --- views -----------------------------------------------------------------------------------
    def _phase(self) -> str:
        return self.phase

    def view(self, player: int | None) -> dict[str, Any]:
        from .view import build_view
        return build_view(self, player)

    def text(self, player: int | None = None) -> str:
        from .view import build_text
        return build_text(self.view(player))
