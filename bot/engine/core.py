"""The protocol every game engine speaks, and the small vocabulary it uses.

A game is a plain object whose whole state is JSON-native data (dicts with string keys, lists,
str, int, float, bool, None), so saving, loading, undoing a failed move and replaying a record
are all the same operation: dump and load. Engines never roll dice: when a roll is due,
`actors()` returns `[CHANCE]` and `chance()` describes the roll; whoever drives the game (the
table with a seeded RNG, a replayed record, a test) answers with `apply(CHANCE, "roll ...")`.

Seats are 0-based ints in the API (`apply(0, ...)`); in move notation players are 1-based
(`@1`, `@2`), as people count.
"""
from __future__ import annotations

import json
import pickle
import random
import re
import unicodedata
import weakref
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, Iterable, Sequence

from . import jsontext
from .menu import Menu, MenuGroup, MenuItem, Prompt, pick_for

CHANCE = "chance"
Actor = int | str  # a seat index, or CHANCE


# --- errors a player can read -------------------------------------------------------------

class RuleError(Exception):
    """Any refusal by the rules. `str(err)` is written for the player who made the move."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvalidMoveError(RuleError):
    """The text does not parse as a move of this game."""


class IllegalMoveError(RuleError):
    """The move parses, but the rules do not allow it now."""


class AmbiguousMoveError(RuleError):
    """The move could mean more than one thing; the message lists the readings."""


class NotYourTurnError(IllegalMoveError):
    """Someone else must act now."""


class OptionError(RuleError):
    """A game option is unknown or out of range."""


# --- value objects -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Event:
    """Something that happened, as plain data. `to=None` is public; otherwise only those seats
    may see it (a private roll, a secret confirmation)."""

    text: str
    kind: str = "info"
    to: tuple[int, ...] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.to is None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "kind": self.kind,
                "to": list(self.to) if self.to is not None else None, "data": self.data}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Event":
        to = d.get("to")
        return cls(d["text"], d.get("kind", "info"), tuple(to) if to is not None else None,
                   d.get("data") or {})


class Ending:
    """How a game ended, as data (python-chess's `Termination`), so stats can group endings."""

    KNOCKOUT = "knockout"        # a player (or side) was beaten down: health, banners, dice
    GOAL = "goal"                # the game's own winning condition other than a knock-out
    ROUND_LIMIT = "round_limit"  # the referee's round or turn limit was reached
    JUDGES = "judges"            # TradeShowdown's judges decided
    STALEMATE = "stalemate"      # nobody could make progress
    RESIGN = "resign"            # a player gave up
    TIMEOUT = "timeout"          # a player's (or every player's) timer ran out
    UNSPECIFIED = "unspecified"  # an engine that has not said (a test keeps this from happening)

    ALL = (KNOCKOUT, GOAL, ROUND_LIMIT, JUDGES, STALEMATE, RESIGN, TIMEOUT, UNSPECIFIED)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: who won (none: a draw), why in words, and `ending` (an `Ending`)."""

    winners: tuple[int, ...]
    reason: str
    ending: str = Ending.UNSPECIFIED

    @property
    def draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "ending": self.ending}

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> "Outcome | None":
        if d is None:
            return None
        return cls(tuple(d["winners"]), d["reason"], d.get("ending", Ending.UNSPECIFIED))


@dataclass(frozen=True)
class MoveText:
    """A legal move in a player's words (OpenSpiel's `action_to_string`): `label` fits a
    button or a select option (at most 80 characters), `effect` says what it will do."""

    label: str
    effect: str = ""

    def __str__(self) -> str:
        return f"{self.label}: {self.effect}" if self.effect else self.label


# --- chance ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    """One random draw: a die, or any weighted choice. Outcomes are tokens without spaces."""

    label: str
    options: tuple[str, ...]
    weights: tuple[float, ...] | None = None
    # Whose die it is (a seat), when it is one player's own: its result is theirs to see
    # first (a secret roll), and a practice bot reads whose it is from here.
    owner: int | None = None

    def probability(self, token: str) -> float:
        if token not in self.options:
            return 0.0
        if self.weights is None:
            return self.options.count(token) / len(self.options)
        total = sum(self.weights)
        return sum(w for o, w in zip(self.options, self.weights) if o == token) / total


def die(sides: int, label: str | None = None, *, zero: bool = False,
        owner: int | None = None) -> Draw:
    """A fair die; `zero=True` numbers it 0..sides-1 (a d10 showing 0-9); `owner`: whose."""
    start = 0 if zero else 1
    return Draw(label or f"d{sides}", tuple(str(v) for v in range(start, start + sides)),
                owner=owner)


def faces(label: str, tokens: Sequence[str], owner: int | None = None) -> Draw:
    """A fair die with named faces (repeats allowed: a face printed twice is twice as likely)."""
    return Draw(label, tuple(tokens), owner=owner)


@dataclass(frozen=True)
class Chance:
    """The rolls the engine is waiting for, in order. Answered by the move `roll t1 t2 ...`."""

    draws: tuple[Draw, ...]
    reason: str = ""

    def sample(self, rng: random.Random) -> str:
        picks = []
        for d in self.draws:
            if d.weights is None:
                picks.append(rng.choice(d.options))
            else:
                picks.append(rng.choices(d.options, weights=d.weights, k=1)[0])
        return "roll " + " ".join(picks)

    def parse(self, move: str) -> list[str]:
        """The tokens of a `roll` move, checked against the draws; InvalidMoveError if not."""
        parts = move.split()
        if not parts or parts[0] != "roll":
            raise InvalidMoveError(f"A chance outcome is written `roll ...`, not {move!r}.")
        tokens = parts[1:]
        if len(tokens) != len(self.draws):
            raise InvalidMoveError(
                f"{self.reason or 'This roll'} needs {len(self.draws)} outcome(s), "
                f"got {len(tokens)}.")
        for i, (tok, d) in enumerate(zip(tokens, self.draws)):
            if d.probability(tok) <= 0:
                raise InvalidMoveError(
                    f"Outcome {i + 1} ({d.label}) cannot be {tok!r}; "
                    f"it is one of {', '.join(dict.fromkeys(d.options))}.")
        return tokens


# --- options --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """A game option chosen at creation: an int in a range, a bool, or one of some choices."""

    name: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None

    def check(self, value: Any) -> Any:
        d = self.default
        if isinstance(d, bool):
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            if isinstance(value, bool):
                return value
            raise OptionError(f"Option `{self.name}` is on or off, not {value!r}.")
        if isinstance(d, int):
            try:
                v = int(value)
                if isinstance(value, float) and v != value:
                    raise ValueError(value)  # 5.5 is not 5
            except (TypeError, ValueError, OverflowError):  # inf, -inf, 1e400: OverflowError
                raise OptionError(f"Option `{self.name}` takes a whole number, not {value!r}.")
            if (self.minimum is not None and v < self.minimum) or (
                    self.maximum is not None and v > self.maximum):
                raise OptionError(
                    f"Option `{self.name}` must be from {self.minimum} to {self.maximum}; "
                    f"got {v}.")
            return v
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(
                    f"Option `{self.name}` is one of {', '.join(self.choices)}; got {value!r}.")
            return value
        if not isinstance(value, type(d)):
            raise OptionError(f"Option `{self.name}` has the wrong type: {value!r}.")
        return value


# --- the game protocol ----------------------------------------------------------------------------

# Game -> its menus (weakly) whose items are still to be worded from its state (MenuItem.worded):
# they are worded before a move changes that state. Weak both ways: a menu nobody holds, or a
# game gone, leaves nothing behind.
_UNWORDED: "weakref.WeakKeyDictionary[Game, list[weakref.ref[Menu]]]" = (
    weakref.WeakKeyDictionary())


class Game:
    """Base of every engine. Subclasses keep their whole state in JSON-native attributes, set up
    in `setup()`, and implement the underscored hooks. The public methods add the checks every
    game shares (game over, whose turn, all-or-nothing moves)."""

    KIND: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    SCHEMA: ClassVar[int] = 1
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    # Phases (see `current_phase`) whose moves are secret: made in the player's own panel,
    # never offered in the thread. A step where several players act at once is always secret.
    SECRET_PHASES: ClassVar[frozenset[str]] = frozenset()
    # Phases whose moves the other seats cannot see (None: the secret phases). A secret
    # phase may be public in what it does (KAPLOOM!'s Power Up is chosen in a panel, but
    # every step of it is announced); a step may be hidden without being chosen (its roll).
    HIDDEN_PHASES: ClassVar[frozenset[str] | None] = None
    # Hidden phases whose every move is shown the moment the phase is left, even when the
    # next phase is hidden too (TradeShowdown's window: its plans are the reveal).
    CLOSING_PHASES: ClassVar[frozenset[str]] = frozenset()

    players: int
    options: dict[str, Any]
    result: dict[str, Any] | None
    # What the table calls each seat (display names in Discord, the record's player names
    # offline); every text a person reads names players with these, never as seat codes.
    names: list[str]

    # construction and serialisation -----------------------------------------------------------
    @classmethod
    def parse_options(cls, given: dict[str, Any] | None) -> dict[str, Any]:
        given = dict(given or {})
        known = {o.name: o for o in cls.OPTIONS}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise OptionError(
                f"Unknown option(s) for {cls.TITLE or cls.KIND}: {', '.join(unknown)}. "
                f"Known: {', '.join(known) or 'none'}.")
        out = {}
        for name, opt in known.items():
            out[name] = opt.check(given[name]) if name in given else opt.default
        cls.check_options(out)
        return out

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        """Cross-option checks; raise OptionError. Default: none."""

    @classmethod
    def check_players(cls, players: int) -> None:
        """OptionError, in the game's words, when `players` cannot play it."""
        if not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
            raise OptionError(
                f"{cls.TITLE or cls.KIND} is for {cls.MIN_PLAYERS}"
                + (f" to {cls.MAX_PLAYERS}" if cls.MAX_PLAYERS != cls.MIN_PLAYERS else "")
                + f" players, not {players}.")

    @classmethod
    def solo_options(cls, players: int, chosen: dict[str, Any]) -> dict[str, Any]:
        """The options of a game against the practice bot: what the person `chosen`, over
        what suits playing alone (nobody else to argue or vote, no real die to flick).
        Default: as chosen."""
        return dict(chosen)

    @classmethod
    def versus(cls, names: Sequence[str], options: dict[str, Any] | None = None) -> str:
        """Who plays whom, by name ("Alice vs Bob"; a team game says its teams)."""
        return " vs ".join(names)

    # how a finished game places its players (ratings read this) ---------------------------
    def ladder(self) -> str:
        """The ladder this game is rated on: its kind, unless a mode is a game of its own."""
        return self.KIND

    def rated_sides(self) -> list[tuple[int, ...]]:
        """The sides that finish in places: one per seat, or a game's teams."""
        return [(s,) for s in range(self.players)]

    def mean_sides(self) -> bool:
        """Is a side's strength its members' mean (one side built to match several players)
        rather than their sum?"""
        return False

    @classmethod
    def falls(cls, players: int, options: dict[str, Any],
              entries: Sequence[tuple[Any, str]]) -> dict[int, int] | None:
        """Seat -> the index of the record entry after which it was knocked out, where a
        game's places depend on that order (read by replaying `entries`); None otherwise."""
        return None

    def place_key(self, side: tuple[int, ...], fell: dict[int, int]) -> tuple:
        """How a side that neither won nor left ranks among the others (smaller is better):
        by default they tie."""
        return ()

    @classmethod
    def rematch(cls, players: int, options: dict[str, Any]
                ) -> tuple[list[int], dict[str, Any]]:
        """The same game again: which old seat sits in each new seat, and its options. By
        default each player moves one seat on (seat 1 last) and an option given per seat (a
        list) follows its player."""
        order = list(range(1, players)) + [0]
        options = dict(options)
        for key, value in list(options.items()):
            if isinstance(value, list) and len(value) == players:
                options[key] = [value[i] for i in order]
        return order, options

    # Options every game the bots play needs (a bot cannot do what a person does at a table).
    BOT_OPTIONS: ClassVar[dict[str, Any]] = {}
    # Said when a practice game starts, when playing against the bot differs from the table.
    PRACTICE_NOTE: ClassVar[str] = ""

    @classmethod
    def new(cls, players: int = 2, options: dict[str, Any] | None = None,
            names: Sequence[str] | None = None) -> "Game":
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"The number of players is a whole number, not {players!r}.")
        cls.check_players(players)
        game = cls.__new__(cls)
        game.players = players
        game.options = cls.parse_options(options)
        game.result = None
        game.names = seat_names(players, names)
        game.setup()
        return game

    def setup(self) -> None:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        # A JSON round trip doubles as the deep copy, and proves the state is JSON-native.
        return {"kind": self.KIND, "schema": self.SCHEMA,
                "state": jsontext.copy(self.__dict__)}

    def to_text(self) -> str:
        """`to_json()` as JSON text, in one encode (no copy on the way): what the table stores
        after a move (bot/engine/jsontext.py)."""
        return jsontext.dumps({"kind": self.KIND, "schema": self.SCHEMA, "state": self.__dict__})

    @classmethod
    def from_json(cls, data: dict[str, Any], *, owned: bool = False) -> "Game":
        """The game saved as `data`. The game changes its state in place, so it takes a deep
        copy, unless `owned`: `data` was decoded for this game alone (a stored row's text,
        bot.store.GameRow.own_state) and nobody else holds it."""
        if data.get("kind") != cls.KIND:
            raise ValueError(f"not a {cls.KIND} state: {data.get('kind')!r}")
        state = cls.migrate(data.get("schema", 1), data["state"])
        game = cls.__new__(cls)
        game.__dict__.update(state if owned else jsontext.copy(state))
        if "names" not in game.__dict__:  # saved before players had names
            game.names = seat_names(game.players)
        return game

    @classmethod
    def migrate(cls, schema: int, state: dict[str, Any]) -> dict[str, Any]:
        if schema != cls.SCHEMA:
            raise ValueError(f"{cls.KIND}: no migration from schema {schema} to {cls.SCHEMA}")
        return state

    def copy(self) -> "Game":
        # One encode and one decode (to_json then from_json copied it twice).
        return type(self).from_json(jsontext.loads(self.to_text()), owned=True)

    def fork(self) -> "Game":
        """A private copy for simulation (a practice bot's search, which copies thousands of
        times per decision): a pickle of the state, ten times faster than `copy()`'s JSON
        round trip, and the same game."""
        new = type(self).__new__(type(self))
        new.__dict__ = pickle.loads(pickle.dumps(self.__dict__, pickle.HIGHEST_PROTOCOL))
        return new

    # whose move --------------------------------------------------------------------------------
    def actors(self) -> list[Actor]:
        """Who may act now: [] when over, [CHANCE] when a roll is due, else one or more seats
        (several at once for simultaneous secret moves)."""
        if self.result is not None:
            return []
        return self._actors()

    def chance(self) -> Chance | None:
        if self.result is not None or CHANCE not in self._actors():
            return None
        return self._chance()

    def legal(self, player: int) -> list[str]:
        """Every legal move for `player` now, in notation (empty when they may not act)."""
        if self.result is not None or player not in self._actors():
            return []
        return self._legal(player)

    def apply(self, actor: Actor, move: str, *, undo: bool = True) -> list[Event]:
        """Apply a move; returns events, or raises RuleError leaving the state as it was.
        `undo=False`: no copy is taken to put the state back, for a caller that throws the
        game away (or loads it again) when the move fails — the table, whose game is a copy
        of the stored state; a refused move may then leave this object half-changed."""
        self._settle()
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        move = " ".join(str(move).split())
        if not move:
            raise InvalidMoveError("Empty move.")
        check_move_text(move)
        current = self._actors()
        if actor not in current:
            raise NotYourTurnError(self.waiting_text(current))
        # The undo copy is a pickle, not JSON: it is taken on every move and read back only
        # when a move is refused, and pickling the same plain data costs a fifth of encoding
        # it as JSON (a third of all engine time went here). `to_json` still proves the
        # state JSON-native whenever it is saved.
        if not undo:
            return self._apply(actor, move)
        saved = pickle.dumps(self.__dict__, pickle.HIGHEST_PROTOCOL)
        try:
            return self._apply(actor, move)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(pickle.loads(saved))
            raise

    def simulate(self, actor: Actor, move: str) -> list[Event]:
        """A legal move applied to a throwaway copy (a practice bot's simulation): no copy is
        kept for undo, so a refused move leaves this game broken — only for copies."""
        self._settle()
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        return self._apply(actor, move)

    def waiting_text(self, current: list[Actor] | None = None) -> str:
        current = self._actors() if current is None else current
        if CHANCE in current:
            return ("It is not your move right now: the referee is waiting for a roll or for "
                    "the crowd's vote.")
        names = ", ".join(self.name(p) for p in current if p != CHANCE)
        return f"It is not your move: waiting for {names}."

    def outcome(self) -> Outcome | None:
        return Outcome.from_json(self.result)

    def finish(self, winners: Iterable[int], reason: str,
               ending: str = Ending.UNSPECIFIED) -> Event:
        """End the game (called by engines); returns the public event announcing it.
        `reason` is in words (players by name); `ending` is one of `Ending`."""
        if ending not in Ending.ALL:
            raise ValueError(f"unknown ending {ending!r}")
        outcome = Outcome(tuple(sorted(winners)), reason, ending)
        self.result = outcome.to_json()
        text = ("Draw: " + reason) if outcome.draw else (
            "Winner: " + ", ".join(self.name(w) for w in outcome.winners) + f" ({reason})")
        return Event(text, "game_over", data=outcome.to_json())

    def resign(self, player: int, ending: str = Ending.RESIGN) -> list[Event]:
        """The player gives up (`ending` RESIGN), or forfeits when their time ran out with no
        default move (TIMEOUT). Default: every other seat wins."""
        self._settle()
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        winners = [p for p in range(self.players) if p != player]
        what = "ran out of time" if ending == Ending.TIMEOUT else "resigned"
        return [self.finish(winners, f"{self.name(player)} {what}", ending)]

    def forfeit(self, seats: Iterable[int]) -> list[Event]:
        """`seats` ran out of time with no default move: the others win; when nobody is left,
        nobody wins (a draw), rather than one idle player beating another."""
        self._settle()
        if self.result is not None:
            raise IllegalMoveError("The game is over.")
        idle = sorted(set(seats))
        winners = [p for p in range(self.players) if p not in idle]
        who = join_names([self.name(p) for p in idle])
        reason = f"{who} ran out of time" + ("" if winners else ", so nobody wins")
        return [self.finish(winners, reason, Ending.TIMEOUT)]

    def table_move(self, actor: Actor, move: str, *, undo: bool = True) -> list[Event]:
        """A move as the table records it: the engine's own moves, and the table's words for
        what happens to a player outside the rules: `resign`, `timeout` (that player's time ran
        out with no default move), `timeout @1 @2` (every player's did: nobody wins).
        `undo`: passed on to `apply`."""
        if actor != CHANCE and move == "resign":
            return self.resign(actor)
        if actor != CHANCE and move == "timeout":
            return self.resign(actor, Ending.TIMEOUT)
        if actor != CHANCE and move.startswith("timeout "):
            return self.forfeit([parse_seat(t, self.players) for t in move.split()[1:]])
        return self.apply(actor, move, undo=undo)

    # players, phases and words -------------------------------------------------------------
    def name(self, seat: int) -> str:
        """What a person reads for `seat`."""
        return self.names[seat]

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats on `seat`'s side that see what it sees: itself (a team game's engine adds
        its partners)."""
        return (seat,)

    def current_phase(self) -> str:
        """The name of the current step (e.g. "placement", "assign", "flick"); "" when the game
        has no phases, "over" when it has ended."""
        if self.result is not None:
            return "over"
        return self._phase()

    def is_secret(self, seat: int) -> bool:
        """Is `seat`'s move now a secret one (made in their own panel, never in the thread)?"""
        humans = [a for a in self.actors() if a != CHANCE]
        if seat not in humans:
            return False
        return len(humans) > 1 or self.current_phase() in self.SECRET_PHASES

    def secret_seats(self) -> list[int]:
        """The seats whose current move is secret."""
        return [a for a in self.actors() if a != CHANCE and self.is_secret(a)]

    def describe(self, move: str, seat: int) -> MoveText:
        """A legal move of `seat`, in plain words: what it is and what it will do ("Slam with
        B at e8: hits X (3→2) and W (4→3)"). Players are named by `name()`; the screens show
        this and never word a rule of their own."""
        return self._describe(" ".join(str(move).split()), seat)

    # what a seat can do, and what it should do (bot/engine/menu.py) ----------------------------
    def menu(self, seat: int) -> Menu:
        """`seat`'s legal moves grouped as a player chooses among them (empty when they may
        not act). Every move of `legal(seat)` is in exactly one group."""
        if self.result is not None or seat not in self._actors():
            return Menu(seat)
        menu = Menu(seat, tuple(self._menu(seat)), self.is_secret(seat))
        if menu.unworded():  # worded when read (MenuItem.worded), or before a move (_settle)
            _UNWORDED.setdefault(self, []).append(weakref.ref(menu))
        return menu

    def menu_item(self, move: str, seat: int, step: str = "") -> MenuItem:
        """A legal move of `seat` as a menu item, worded by `describe` when first shown
        (`MenuItem.worded`; `menu` words what is left before the next move)."""
        return MenuItem.worded(move, partial(self.describe, move, seat), step)

    def _settle(self) -> None:
        """Word what this game's menus have left unworded, before the state they speak of
        changes (every move comes through here)."""
        if not _UNWORDED:
            return
        menus = _UNWORDED.pop(self, None)
        for ref in menus or ():
            menu = ref()
            for item in menu.unworded() if menu is not None else ():
                item._said()

    def prompt(self, seat: int | None = None) -> Prompt:
        """In words, for `seat` (None: anyone watching): whose step it is, what to do, why not
        you. Players by name, never by seat code."""
        if self.result is not None:
            return Prompt((), "The game is over.",
                          waiting="The game is over." if seat is not None else "")
        humans = tuple(a for a in self._actors() if a != CHANCE)
        todo = waiting = ""
        if seat is not None:
            if seat in humans:
                todo = self._todo(seat)
            else:
                waiting = self._waiting(seat)
        return Prompt(humans, self._status(), todo, waiting)

    def _menu(self, seat: int) -> list[MenuGroup]:
        """Default: one group of every legal move, worded by `describe`."""
        items = tuple(self.menu_item(m, seat) for m in self._legal(seat))
        return [MenuGroup("moves", "Choose your move", items, pick_for(len(items)))]

    def _status(self) -> str:
        """Whose step it is, for everyone."""
        humans = [a for a in self._actors() if a != CHANCE]
        if not humans:
            return "The dice are rolling."
        who = join_names([self.name(s) for s in humans])
        if all(self.is_secret(s) for s in humans):
            return f"Waiting for {who} to choose in secret."
        return f"{who} to move."

    def _todo(self, seat: int) -> str:
        """What `seat`, who must act, should do now."""
        if self.is_secret(seat):
            return "Make your choice in your secret panel."
        return "Your move: pick it below."

    def _waiting(self, seat: int) -> str:
        """Why `seat` cannot act now."""
        return self.waiting_text()

    # timers --------------------------------------------------------------------------------------
    def timeout_move(self, player: int) -> str | None:
        """The move made for `player` when their timer runs out, or None: they forfeit."""
        return None

    def wait_seconds(self) -> int | None:
        """How long the current wait may last, when the game sets it (a response window);
        None: the table's default turn timer."""
        return None

    # views ---------------------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        """What `player` may see (None: the public). Secrets of others are stripped here and
        only here."""
        raise NotImplementedError

    def text(self, player: int | None = None) -> str:
        """The board as text (alt text, `/... board`), built from `view(player)`."""
        return json.dumps(self.view(player), indent=1)

    # hooks for subclasses --------------------------------------------------------------------------
    def _actors(self) -> list[Actor]:
        raise NotImplementedError

    def _chance(self) -> Chance:
        raise NotImplementedError

    def _legal(self, player: int) -> list[str]:
        raise NotImplementedError

    def _apply(self, actor: Actor, move: str) -> list[Event]:
        raise NotImplementedError

    def _phase(self) -> str:
        return ""

    def _describe(self, move: str, seat: int) -> MoveText:
        return MoveText(move)


# --- small shared helpers -------------------------------------------------------------------------

MOVE_MAX = 400        # characters: longer than any move of any game, typed or recorded
NUMBER_MAX = 9        # digits: no count, value or roll in these games comes near it
_LONG_NUMBER = re.compile(r"[0-9]{%d,}" % (NUMBER_MAX + 1))


def check_move_text(move: str) -> None:
    """Refuse text no game's notation accepts, before any parser sees it: digits other than
    0-9 (Arabic-Indic, full-width and superscript digits look like numbers but are not ours),
    numbers longer than any game uses, and moves longer than any move is."""
    if len(move) > MOVE_MAX:
        raise InvalidMoveError(f"That move is too long ({len(move)} characters); no move of "
                               f"this game needs more than {MOVE_MAX}.")
    if not move.isascii():  # every move a button or the engine writes is ASCII
        for ch in move:
            if not ch.isascii() and (ch.isdigit() or ch.isnumeric()
                                     or unicodedata.category(ch) == "Nd"):
                raise InvalidMoveError(f"Write numbers with the digits 0-9 only, not {ch!r}.")
    if _LONG_NUMBER.search(move):
        raise InvalidMoveError(f"That number is far too large: no number in this game has "
                               f"more than {NUMBER_MAX} digits.")


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """The players' names by seat: the ones given (blank ones filled in), else "Player N"."""
    given = list(names or [])
    out = []
    for i in range(players):
        name = str(given[i]).strip() if i < len(given) and given[i] is not None else ""
        out.append(name or f"Player {i + 1}")
    return out


def join_names(names: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


_NOT_WORD = re.compile(r"[^0-9a-z]+")


def phrase_key(text: str) -> str:
    """A spoken phrase with case, spacing and punctuation ignored."""
    return _NOT_WORD.sub("", text.lower().replace("’", "'").replace("'", ""))


def parse_seat(token: str, players: int) -> int:
    """`@2` -> seat 1. InvalidMoveError with the right form when it is not a player."""
    m = re.fullmatch(r"@(\d+)", token)
    if not m or not 1 <= int(m.group(1)) <= players:
        raise InvalidMoveError(
            f"{token!r} is not a player: write @1" + (f" to @{players}" if players > 1 else "")
            + ".")
    return int(m.group(1)) - 1
