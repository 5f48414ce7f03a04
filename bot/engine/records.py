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
    def from_json(cls, d: dict[str, Any]) -> "Record":
        if d.get("format") != FORMAT:
            raise ValueError(f"not a game record (format should be {FORMAT!r})")
        if d.get("version") != VERSION:
            raise ValueError(f"record version {d.get('version')!r} is not supported")
        for key in ("kind", "players", "entries"):
            if key not in d:
                raise ValueError(f"record has no {key!r}")
        return cls(d["kind"], d.get("options") or {}, list(d["players"]), d.get("seed"),
                   list(d["entries"]), d.get("result"))

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


class ReplayError(Exception):
    def __init__(self, index: int, entry: dict[str, Any], error: Exception):
        super().__init__(f"entry {index}: {entry.get('actor')!r} {entry.get('move')!r}: {error}")
        self.index, self.entry, self.error = index, entry, error


def entry_actor(entry: dict[str, Any], players: int) -> Actor:
    actor = entry.get("actor")
    if actor == CHANCE:
        return CHANCE
    if isinstance(actor, int) and 1 <= actor <= players:
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
