"""What the store hands out and takes in: its errors, rows and record entries, and the codecs
between them and the columns (JSON texts, the packed record of a finished game). Shared by both
backends; nothing here talks to a database."""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..engine import jsontext


class StoreError(Exception):
    """The database cannot be used as it is (newer schema, damaged file, another program's
    tables, in use by another process): a message for the host, printed without a
    traceback."""


class StaleVersion(Exception):
    """The game moved on since the caller looked: the move is refused, never applied twice."""


class _Raw:
    """A JSON text not decoded yet."""
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


# Public name: a row's state given as the text the store holds (the table, after a commit).
JSONText = _Raw


class _LazyJSON:
    """A dataclass field decoded from JSON on first use: lists of games (/games list, "my
    games") read many rows and look at few states."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = "_lazy_" + name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.attr)  # no default: the field stays required
        value = obj.__dict__[self.attr]
        if isinstance(value, _Raw):
            value = obj.__dict__[self.attr] = jsontext.loads(value.text)
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.attr] = value


@dataclass
class GameRow:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    players: list[int]
    options: dict[str, Any]
    seed: str
    state: dict[str, Any] = _LazyJSON()  # type: ignore[assignment]
    version: int
    status: str
    deadline: float | None
    deadline_kind: str | None
    reminded: bool
    extra: dict[str, Any]
    created_at: float
    updated_at: float
    timer_start: float | None = None

    @property
    def where(self) -> int | None:
        """The channel the game is played in (its thread when it has one)."""
        return self.thread_id or self.channel_id

    def waits_for(self, deadline: str) -> bool:
        """Is the running clock of this kind (`turn`, `vote`, ...)?"""
        return deadline == self.deadline_kind

    def seat_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    def own_state(self) -> dict[str, Any]:
        """The state decoded for a caller that keeps it and may change it (a Game: see
        `Game.from_json(..., owned=True)`): decoded from the stored text, which `state` keeps
        undecoded (so a move decodes its state once); a deep copy once `state` was read."""
        value = self.__dict__["_lazy_state"]
        if isinstance(value, _Raw):
            return jsontext.loads(value.text)
        return jsontext.copy(value)


@dataclass
class Entry:
    """One record entry to append with a move: actor is 'chance' or a 0-based seat."""
    actor: int | str
    move: str
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def actor_text(self) -> str:
        return self.actor if isinstance(self.actor, str) else str(self.actor + 1)


@dataclass
class OutboxItem:
    """A committed move whose publishing was not confirmed."""
    id: int
    game_id: int
    version: int
    cause: str
    by: int | None
    entries: list[Entry]
    attempts: int = 1   # this try included


_GAME_COLUMNS = ("id, kind, guild_id, channel_id, thread_id, players, options, seed, state, "
                 "version, status, deadline, deadline_kind, reminded, extra, created_at, "
                 "updated_at, timer_start")
_CHALLENGE_COLUMNS = ("id, kind, guild_id, channel_id, host_id, invited, joined, options, "
                      "min_players, max_players, message_id, status, game_id, expires_at, "
                      "created_at, note")
_CHALLENGE_JSON = ("invited", "joined", "options")


def _game(row: Iterable[Any]) -> GameRow:
    (gid, kind, guild, channel, thread, players, options, seed, state, version, status,
     deadline, deadline_kind, reminded, extra, created, updated, timer_start) = row
    return GameRow(gid, kind, guild, channel, thread, jsontext.loads(players), jsontext.loads(options),
                   seed, _Raw(state), version, status, deadline, deadline_kind,
                   bool(reminded), jsontext.loads(extra), created, updated, timer_start)


def _challenge(row: Iterable[Any]) -> dict[str, Any]:
    d = dict(zip([c.strip() for c in _CHALLENGE_COLUMNS.split(",")], row))
    for key in _CHALLENGE_JSON:
        d[key] = jsontext.loads(d[key])
    return d


def due_time(deadline: float | None, clock: str | None, reminded: bool,
             timer_start: float | None) -> float | None:
    """When the scheduler must next look at a game: a turn's half-time reminder, then its
    deadline (votes and windows have no reminder)."""
    if deadline is None:
        return None
    if clock == "turn" and not reminded and timer_start is not None:
        return timer_start + (deadline - timer_start) / 2
    return deadline


def pack_record(entries: list[tuple[str, str]]) -> bytes:
    return zlib.compress(jsontext.dumpb(entries), 9)


def unpack_record(blob: bytes) -> list[tuple[str, str]]:
    return [(a, m) for a, m in jsontext.loads(zlib.decompress(bytes(blob)))]


__all__ = ["StoreError", "StaleVersion", "GameRow", "JSONText", "Entry", "OutboxItem", "due_time",
           "pack_record", "unpack_record"]
