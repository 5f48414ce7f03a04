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
    """The record of a finished game as anyone may read it: nothing that was never revealed.

    A game that ended inside a secret step (a resignation during the placement, a timeout with
    a private roll in hand) holds entries nobody else saw: the published record stops at the
    last moment nothing was secret and then gives the table moves that ended the game
    (`resign`, `timeout ...`), which replay to the same outcome. The live seed is never
    published. ReplayError when the record does not replay; ValueError when its ending cannot
    be told without a secret."""
    game = start(record)
    clean = 0  # entries[:clean] hold nothing unrevealed
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
            clean = i + 1
    if clean == len(record.entries):
        return Record(record.kind, dict(record.options), list(record.players), None,
                      [dict(e) for e in record.entries], game.result)
    # Ended inside a secret step: the revealed part, then how the table ended the game.
    tail = [dict(e) for e in record.entries[clean:]
            if e.get("actor") != CHANCE and e.get("move", "").split(" ", 1)[0] in ENDING_MOVES]
    public = Record(record.kind, dict(record.options), list(record.players), None,
                    [dict(e) for e in record.entries[:clean]] + tail, None)
    again = replay(public)
    if again.result is None or again.result.get("winners") != (game.result or {}).get("winners"):
        raise ValueError("this game ended inside a secret step in a way its public part "
                         "cannot show")
    public.result = again.result
    return public
