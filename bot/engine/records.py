"""Game records: options + seed + every entry (actor, move in notation), and their replay.

A record is the game (OpenSpiel's habit): replaying its entries through the engine rebuilds
the state exactly, chance outcomes included. Format: docs/records.md.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from . import load
from .core import CHANCE, Actor, Game, RuleError

FORMAT = "dice-referee-record"
VERSION = 1


@dataclass
class Record:
    kind: str
    options: dict[str, Any]
    players: list[str]
    seed: int | None = None
    entries: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def add(self, actor: Actor, move: str) -> None:
        self.entries.append({"actor": actor if actor == CHANCE else actor + 1, "move": move})

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "kind": self.kind,
                "options": self.options, "players": self.players, "seed": self.seed,
                "entries": [dict(e) for e in self.entries], "result": self.result}

    @classmethod
    def from_json(cls, d: Any) -> "Record":
        """A record read from JSON, checked whole before anything is replayed: RecordError
        (a ValueError) says in one line what is wrong with it."""
        if not isinstance(d, dict):
            raise RecordError(f"a record is a JSON object, not {_what(d)}")
        if d.get("format") != FORMAT:
            raise RecordError(f"not a game record (format should be {FORMAT!r})")
        version = d.get("version")
        if type(version) is not int or version != VERSION:  # `true == 1` is no version
            raise RecordError(f"record version {version!r} is not supported (only {VERSION})")
        for key in ("kind", "players", "entries"):
            if key not in d:
                raise RecordError(f"record has no {key!r}")
        kind = d["kind"]
        if not isinstance(kind, str):
            raise RecordError(f"'kind' is a game's name, not {_what(kind)}")
        try:
            engine = load(kind)
        except KeyError as e:
            raise RecordError(e.args[0]) from None
        players = d["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("'players' is a list of names (text), one per seat")
        if not engine.MIN_PLAYERS <= len(players) <= engine.MAX_PLAYERS:
            span = (f"{engine.MIN_PLAYERS}" if engine.MIN_PLAYERS == engine.MAX_PLAYERS
                    else f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS}")
            raise RecordError(f"{engine.TITLE or kind} is for {span} players; the record "
                              f"names {len(players)}")
        options = d.get("options")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError(f"'options' is an object of option names, not {_what(options)}")
        try:
            engine.parse_options(options)
        except RuleError as e:
            raise RecordError(f"bad options: {e}") from None
        seed = d.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise RecordError(f"'seed' is a number, text or null, not {_what(seed)}")
        entries = d["entries"]
        if not isinstance(entries, list):
            raise RecordError(f"'entries' is a list of entries, not {_what(entries)}")
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise RecordError(f"entry {i} is an object with 'actor' and 'move', "
                                  f"not {_what(entry)}")
            actor, move = entry.get("actor"), entry.get("move")
            if actor != CHANCE and (type(actor) is not int
                                    or not 1 <= actor <= len(players)):
                raise RecordError(f"entry {i}: 'actor' is 'chance' or a player number "
                                  f"1..{len(players)}, not {_short(actor)}")
            if not isinstance(move, str):
                raise RecordError(f"entry {i}: 'move' is text, not {_what(move)}")
        result = d.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError(f"'result' is an object or null, not {_what(result)}")
        return cls(kind, options, list(players), seed, list(entries), result)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


class RecordError(ValueError):
    """The file is not a record this bot can replay (shape, kind, players, options)."""


def _what(value: Any) -> str:
    """A value's JSON type in words, for refusals that must not echo a huge value."""
    if value is None:
        return "null"
    for t, word in ((bool, "true/false"), (int, "a number"), (float, "a number"),
                    (str, "text"), (list, "a list"), (dict, "an object")):
        if isinstance(value, t):
            return word
    return type(value).__name__


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, (int, str)) and not isinstance(value, bool) \
        else _what(value)
    return text if len(text) <= 40 else text[:37] + "..."


class ReplayError(Exception):
    def __init__(self, index: int, entry: dict[str, Any], error: Exception):
        super().__init__(f"entry {index}: {entry.get('actor')!r} {entry.get('move')!r}: {error}")
        self.index, self.entry, self.error = index, entry, error


def entry_actor(entry: dict[str, Any], players: int) -> Actor:
    actor = entry.get("actor")
    if actor == CHANCE:
        return CHANCE
    if type(actor) is int and 1 <= actor <= players:  # not `true`
        return actor - 1
    raise RuleError(f"actor must be 'chance' or a player number 1..{players}, not {actor!r}")


def start(record: Record) -> Game:
    return load(record.kind).new(len(record.players), record.options, names=record.players)


def replay(record: Record) -> Game:
    """The game after every entry; ReplayError names the first entry the rules refuse."""
    game = start(record)
    for i, entry in enumerate(record.entries):
        try:
            actor = entry_actor(entry, game.players)
            move = entry.get("move")
            if not isinstance(move, str):
                raise RuleError(f"move must be text, not {move!r}")
            game.table_move(actor, move)
        except RuleError as e:
            raise ReplayError(i, entry, e) from e
    return game


def selfplay(kind: str, seed: int, options: dict[str, Any] | None = None,
             players: int = 2, max_moves: int = 20000) -> tuple[Record, Game]:
    """One whole game of uniformly random legal moves (a generic player over the protocol)."""
    cls = load(kind)
    names = [f"Player {i + 1}" for i in range(players)]
    game = cls.new(players, options, names=names)
    rng = random.Random(seed)
    record = Record(kind, game.options, names, seed)
    for _ in range(max_moves):
        actors = game.actors()
        if not actors:
            break
        if CHANCE in actors:
            actor: Actor = CHANCE
            move = game.chance().sample(rng)
        else:
            actor = rng.choice(actors)
            moves = game.legal(actor)
            if not moves:
                raise RuntimeError(f"{kind}: player {actor + 1} must act but has no legal move")
            move = rng.choice(moves)
        game.apply(actor, move)
        record.add(actor, move)
    else:
        raise RuntimeError(f"{kind}: no end after {max_moves} moves (seed {seed})")
    record.result = game.result
    return record, game


# Table moves that end a game whatever the position: kept at the end of a published record.
ENDING_MOVES = ("resign", "timeout")


def _secret_pending(game: Game) -> bool:
    """Does someone hold something the others have not seen yet? True inside a secret step
    (a placement, a private roll, a plan): leaving that step is what reveals it."""
    if game.result is not None:
        return False
    return game.current_phase() in game.SECRET_PHASES or any(
        game.is_secret(seat) for seat in range(game.players))


def public_record(record: Record) -> Record:
    """The record of a finished game as anyone may read it: exactly what the table saw.

    Inside a secret step (a placement, a private roll, a window plan) a seat may change its
    mind (`undo`, a plan replaced) and a die may be rolled again before anyone saw it. What the
    table saw of such a step is its public events and the position it revealed when it closed,
    so each closed secret step is exported in a canonical form that shows the same: entries
    that change nothing at the step's end are left out (a plan and its `undo`), and a die
    face that nobody ever saw is written as its die's first face (`_hide_faces`). Two games
    that differ only in what was never shown export the same record, and it replays to the
    same public events, position and outcome.

    A game that ended inside a secret step (a resignation during the placement, a timeout with
    a private roll in hand) holds entries nobody else saw: the published record stops at the
    last moment nothing was secret and then gives the table moves that ended the game
    (`resign`, `timeout ...`), which replay to the same outcome. The live seed is never
    published. ReplayError when the record does not replay; ValueError when its ending cannot
    be told without a secret."""
    game = start(record)
    kind = record.kind
    clean = 0  # entries[:clean] hold nothing unrevealed
    last_clean_state = game.to_json()
    public: list[dict[str, Any]] = []  # entries[:clean], closed secret steps canonical
    for i, entry in enumerate(record.entries):
        actor = entry_actor(entry, game.players)
        move = entry.get("move")
        if not isinstance(move, str):
            raise ReplayError(i, entry, RuleError(f"move must be text, not {move!r}"))
        ending = actor != CHANCE and move.split(" ", 1)[0] in ENDING_MOVES
        try:
            game.table_move(actor, move)
        except RuleError as e:
            raise ReplayError(i, entry, e) from e
        # A resignation ends the game but reveals nothing: it does not make earlier secrets
        # public.
        if not ending and not _secret_pending(game):
            step = [dict(e) for e in record.entries[clean:i + 1]]
            public += _canonical_step(kind, last_clean_state, step) if len(step) > 1 else step
            clean = i + 1
            last_clean_state = game.to_json()
    if clean == len(record.entries):
        return Record(record.kind, dict(record.options), list(record.players), None,
                      public, game.result)
    # Ended inside a secret step: the revealed part, then how the table ended the game.
    tail = [dict(e) for e in record.entries[clean:]
            if e.get("actor") != CHANCE and e.get("move", "").split(" ", 1)[0] in ENDING_MOVES]
    out = Record(record.kind, dict(record.options), list(record.players), None,
                 public + tail, None)
    again = replay(out)
    if again.result is None or again.result.get("winners") != (game.result or {}).get("winners"):
        raise ValueError("this game ended inside a secret step in a way its public part "
                         "cannot show")
    out.result = again.result
    return out


# A secret step longer than this is exported as played (the search below grows with its square).
_CANONICAL_MAX = 400
_REACH = 6  # an entry may be cancelled by up to this many later entries of the same seat


class _Step:
    """A closed secret step replayed from the clean position before it: after each entry, the
    position and the public events so far (what a variant must reproduce)."""

    def __init__(self, kind: str, state: dict[str, Any], entries: list[dict[str, Any]]):
        self.kind, self.start, self.entries = kind, state, entries
        self.states: list[str] = []      # the position after entries[:i], as JSON text
        self.seen: list[int] = []        # how many public events entries[:i] made
        self.events: list[Any] = []
        self._views: dict[tuple[int, int], str] = {}
        game = load(kind).from_json(state)
        self._mark(game)
        for entry in entries:
            for e in game.table_move(entry_actor(entry, game.players), entry["move"]):
                if e.public:
                    self.events.append(json.loads(json.dumps([e.text, e.kind, e.data])))
            self._mark(game)

    def _mark(self, game: Game) -> None:
        self.states.append(json.dumps(game.to_json()))
        self.seen.append(len(self.events))

    def view(self, i: int, seat: int) -> str:
        """What `seat` itself saw after entries[:i]."""
        if (i, seat) not in self._views:
            game = load(self.kind).from_json(json.loads(self.states[i]))
            self._views[i, seat] = json.dumps(game.view(seat), sort_keys=True, default=str)
        return self._views[i, seat]

    def same_without(self, drop: set[int], change: dict[int, str] | None = None) -> bool:
        """Would the table see the same if the entries `drop` were left out and the moves
        `change` played instead? Replayed from the first entry touched; as soon as a variant
        reaches the very position and events of the original, the rest is the same."""
        change = change or {}
        touched = drop | set(change)
        first, last = min(touched), max(touched)
        game = load(self.kind).from_json(json.loads(self.states[first]))
        events = self.seen[first]
        try:
            for i in range(first, len(self.entries)):
                if i not in drop:
                    entry = self.entries[i]
                    move = change.get(i, entry["move"])
                    for e in game.table_move(entry_actor(entry, game.players), move):
                        if e.public:
                            if events >= len(self.events) or json.loads(json.dumps(
                                    [e.text, e.kind, e.data])) != self.events[events]:
                                return False
                            events += 1
                if i >= last and events == self.seen[i + 1] and \
                        json.dumps(game.to_json()) == self.states[i + 1]:
                    return True
        except RuleError:
            return False
        return False


def _canonical_step(kind: str, state: dict[str, Any],
                    step: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The shortest form of a closed secret step that the table could not tell from it: the
    same public events and the same position when it closed. A die face nobody saw (rolled
    again before it showed) becomes its die's first face; a seat's entries that together
    change nothing (a plan and its `undo`) are left out."""
    if len(step) > _CANONICAL_MAX:
        return step
    step = [dict(e) for e in step]
    try:
        replayed = _Step(kind, state, step)
    except RuleError:
        return step
    change: dict[int, str] = {}
    game = load(kind).from_json(state)
    for k, entry in enumerate(step):  # faces nobody saw
        if entry.get("actor") == CHANCE and (chance := game.chance()) is not None:
            tokens = entry["move"].split()[1:]
            for t, draw in enumerate(chance.draws):
                if t < len(tokens) and tokens[t] != draw.options[0]:
                    trial = tokens[:t] + [draw.options[0]] + tokens[t + 1:]
                    if replayed.same_without(set(), {**change, k: "roll " + " ".join(trial)}):
                        tokens = trial
                        change[k] = "roll " + " ".join(tokens)
        game.table_move(entry_actor(entry, game.players), change.get(k, entry["move"]))
    if change:
        step = [dict(e, move=change.get(k, e["move"])) for k, e in enumerate(step)]
        replayed = _Step(kind, state, step)
    # A seat's own entries j..k that bring its own view back to what it was before j (a plan
    # and its undo), each checked whole by replaying.
    dropped: set[int] = set()
    for j, entry in enumerate(step):
        actor = entry.get("actor")
        if (j in dropped or actor == CHANCE or replayed.seen[j + 1] != replayed.seen[j]):
            continue
        mine = [k for k in range(j, len(step))
                if step[k].get("actor") == actor and k not in dropped][:_REACH + 1]
        for n, k in enumerate(mine):
            if replayed.view(k + 1, actor - 1) == replayed.view(j, actor - 1) and \
                    replayed.same_without(dropped | set(mine[:n + 1])):
                dropped |= set(mine[:n + 1])
                break
    return [e for i, e in enumerate(step) if i not in dropped]
    step = [dict(e) for e in step]
    try:
        replayed = _Step(kind, state, step)
    except RuleError:
        return step
    game = load(kind).from_json(state)
    for k, entry in enumerate(step):  # faces nobody saw
        if entry.get("actor") == CHANCE:
            chance = game.chance()
            tokens = entry["move"].split()[1:]
            for t, draw in enumerate(chance.draws if chance is not None else ()):
                if t < len(tokens) and tokens[t] != draw.options[0]:
                    trial = tokens[:t] + [draw.options[0]] + tokens[t + 1:]
                    if replayed.same_without(set(), {k: "roll " + " ".join(trial)}):
                        tokens = trial
            if tokens != entry["move"].split()[1:]:
                entry["move"] = "roll " + " ".join(tokens)
                replayed = _Step(kind, state, step)
        game.table_move(entry_actor(entry, game.players), entry["move"])
    j = 0
    while j < len(step):  # entries that change nothing the table saw, alone or with their undo
        actor = step[j].get("actor")
        if actor == CHANCE or replayed.seen[j + 1] != replayed.seen[j]:
            j += 1
            continue
        # Candidates: the seat's own entries from j to k when its own view after k is as
        # before j (a plan and its undo), each checked whole by replaying.
        mine = [k for k in range(j, len(step)) if step[k].get("actor") == actor][:_REACH + 1]
        for n, k in enumerate(mine):
            if replayed.views[k + 1][actor] == replayed.views[j][actor]:
                drop = set(mine[:n + 1])
                if replayed.same_without(drop):
                    step = [e for i, e in enumerate(step) if i not in drop]
                    replayed = _Step(kind, state, step)
                    break
        else:
            j += 1
    return step
