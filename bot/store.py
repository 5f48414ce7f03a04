"""aiosqlite persistence: one file, WAL mode, versioned schema, one transaction per move.

A move's new state, its record entries and (when it ends the game) the results commit together
or not at all, so a crash at any point leaves the game as it was after its last committed move.
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

import aiosqlite

# Each entry moves the schema one version up (PRAGMA user_version). Never edit a shipped one:
# append a new migration instead.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        guild_id INTEGER, channel_id INTEGER, thread_id INTEGER,
        players TEXT NOT NULL,              -- JSON list of user ids, by seat
        options TEXT NOT NULL,              -- JSON
        seed TEXT NOT NULL,                 -- never shown to players while the game runs
        state TEXT NOT NULL,                -- the engine's JSON
        version INTEGER NOT NULL DEFAULT 0, -- moves applied, and the version a move names
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','finished','aborted')),
        deadline REAL, deadline_kind TEXT, reminded INTEGER NOT NULL DEFAULT 0,
        extra TEXT NOT NULL DEFAULT '{}',   -- the Discord side's notes: message ids, arguments
        created_at REAL NOT NULL, updated_at REAL NOT NULL
    );
    CREATE INDEX games_by_status ON games (status, guild_id);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,           -- the game's version after this entry
        actor TEXT NOT NULL,                -- 'chance' or the 1-based seat
        move TEXT NOT NULL,
        events TEXT NOT NULL,               -- JSON list of engine events
        created_at REAL NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER, kind TEXT NOT NULL, user_id INTEGER NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('win','loss','draw')),
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_by_guild ON results (guild_id, kind);
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL, guild_id INTEGER, channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        invited TEXT NOT NULL,              -- JSON list of user ids ([] = open to anyone)
        joined TEXT NOT NULL,               -- JSON list of user ids, host first
        options TEXT NOT NULL,
        min_players INTEGER NOT NULL, max_players INTEGER NOT NULL,
        message_id INTEGER,
        status TEXT NOT NULL DEFAULT 'open',
        game_id INTEGER,
        expires_at REAL NOT NULL, created_at REAL NOT NULL
    );
    CREATE TABLE votes (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        topic TEXT NOT NULL, voter_id INTEGER NOT NULL, choice TEXT NOT NULL,
        PRIMARY KEY (game_id, topic, voter_id)
    );
    """,
    """
    CREATE TABLE cards (
        user_id INTEGER NOT NULL, slot INTEGER NOT NULL,
        name TEXT NOT NULL, digits TEXT NOT NULL, zip TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (user_id, slot)
    );
    """,
    """
    -- When the running timer started: a simultaneous step keeps one clock across its moves,
    -- so the half-time reminder is measured from here, not from the last move.
    ALTER TABLE games ADD COLUMN timer_start REAL;
    -- A line the game adds under an open table (how teams are formed, how to pick a character).
    ALTER TABLE challenges ADD COLUMN note TEXT;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """Split a migration into whole statements (executescript would commit on its own, outside
    our transaction)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete SQL at the end of a migration: {buf.strip()[:80]!r}")
    return out


class StaleVersion(Exception):
    """The game moved on since the caller looked: the move is refused, never applied twice."""


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
    state: dict[str, Any]
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

    def seat_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None


@dataclass
class Entry:
    """One record entry to append with a move: actor is 'chance' or a 0-based seat."""
    actor: int | str
    move: str
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def actor_text(self) -> str:
        return self.actor if isinstance(self.actor, str) else str(self.actor + 1)


_GAME_COLUMNS = ("id, kind, guild_id, channel_id, thread_id, players, options, seed, state, "
                 "version, status, deadline, deadline_kind, reminded, extra, created_at, "
                 "updated_at, timer_start")


def _game(row: Iterable[Any]) -> GameRow:
    (gid, kind, guild, channel, thread, players, options, seed, state, version, status,
     deadline, deadline_kind, reminded, extra, created, updated, timer_start) = row
    return GameRow(gid, kind, guild, channel, thread, json.loads(players), json.loads(options),
                   seed, json.loads(state), version, status, deadline, deadline_kind,
                   bool(reminded), json.loads(extra), created, updated, timer_start)


class Store:
    def __init__(self, db: aiosqlite.Connection, path: str):
        self.db = db
        self.path = path
        # One connection means one transaction at a time: every statement waits its turn, so a
        # vote cast while a move commits can neither join nor break that move's transaction.
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is exactly
        # what `transaction()` wraps and nothing commits behind our back.
        db = await aiosqlite.connect(path, isolation_level=None)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
        store = cls(db, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> int:
        (version,) = await self._one("PRAGMA user_version")
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this bot "
                               f"({SCHEMA_VERSION}); update the bot")
        for number in range(version, SCHEMA_VERSION):
            async with self.transaction():
                for statement in statements(MIGRATIONS[number]):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version={number + 1}")
        return SCHEMA_VERSION

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """Hold the connection (re-entrant within the task that holds it)."""
        if self._owner is asyncio.current_task():
            yield
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._turn():
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            else:
                await self.db.execute("COMMIT")

    async def _exec(self, sql: str, args: tuple = ()) -> aiosqlite.Cursor:
        async with self._turn():
            return await self.db.execute(sql, args)

    async def _one(self, sql: str, args: tuple = ()) -> Any:
        async with self._turn():
            return await (await self.db.execute(sql, args)).fetchone()

    async def _all(self, sql: str, args: tuple = ()) -> list[Any]:
        async with self._turn():
            return list(await (await self.db.execute(sql, args)).fetchall())

    # meta ----------------------------------------------------------------------------------------
    async def meta_get(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key=?", (key,))
        return row[0] if row else None

    async def meta_set(self, key: str, value: str) -> None:
        await self._exec("INSERT INTO meta (key, value) VALUES (?, ?) "
                              "ON CONFLICT (key) DO UPDATE SET value=excluded.value", (key, value))

    # games ---------------------------------------------------------------------------------------
    async def create_game(self, kind: str, guild_id: int | None, channel_id: int | None,
                          thread_id: int | None, players: list[int], options: dict[str, Any],
                          seed: str, state: dict[str, Any],
                          entries: list[Entry] = (), extra: dict[str, Any] | None = None,
                          deadline: float | None = None, deadline_kind: str | None = None,
                          now: float | None = None) -> int:
        """A new game with its first entries and its first deadline, in one transaction."""
        now = time.time() if now is None else now
        async with self.transaction():
            cur = await self._exec(
                "INSERT INTO games (kind, guild_id, channel_id, thread_id, players, options, seed,"
                " state, version, extra, deadline, deadline_kind, timer_start, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (kind, guild_id, channel_id, thread_id, json.dumps(players), json.dumps(options),
                 seed, json.dumps(state), len(entries), json.dumps(extra or {}), deadline,
                 deadline_kind, now if deadline is not None else None, now, now))
            gid = cur.lastrowid
            await self._append(gid, 0, entries, now)
        return gid

    async def _append(self, game_id: int, version: int, entries: Iterable[Entry],
                      now: float) -> int:
        for entry in entries:
            version += 1
            await self._exec(
                "INSERT INTO events (game_id, version, actor, move, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, version, entry.actor_text, entry.move, json.dumps(entry.events), now))
        return version

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?", (game_id,))
        return _game(row) if row else None

    async def commit_move(self, game_id: int, seen_version: int, entries: list[Entry],
                          state: dict[str, Any], status: str = "active",
                          deadline: float | None = None, deadline_kind: str | None = None,
                          results: dict[int, str] | None = None, now: float | None = None) -> int:
        """Append the entries and write the new state in one transaction; StaleVersion when the
        game is no longer at `seen_version`. Returns the new version. `now` is the table's
        clock: the timer's half-time reminder is measured from updated_at."""
        now = time.time() if now is None else now
        async with self.transaction():
            new_version = await self._append(game_id, seen_version, entries, now)
            # An unchanged deadline is the same clock: keep its start and its reminder.
            cur = await self._exec(
                "UPDATE games SET state=:state, version=:version, status=:status,"
                " reminded=CASE WHEN deadline IS :deadline THEN reminded ELSE 0 END,"
                " timer_start=CASE WHEN deadline IS :deadline THEN timer_start ELSE :now END,"
                " deadline=:deadline, deadline_kind=:kind, updated_at=:now"
                " WHERE id=:id AND version=:seen AND status='active'",
                {"state": json.dumps(state), "version": new_version, "status": status,
                 "deadline": deadline, "kind": deadline_kind, "now": now, "id": game_id,
                 "seen": seen_version})
            if cur.rowcount != 1:
                raise StaleVersion(game_id)
            if results:
                row = await self._one("SELECT guild_id, kind FROM games WHERE id=?", (game_id,))
                for user_id, result in results.items():
                    await self._exec(
                        "INSERT OR REPLACE INTO results (game_id, guild_id, kind, user_id,"
                        " result, finished_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, row[0], row[1], user_id, result, now))
        return new_version

    async def set_status(self, game_id: int, status: str) -> None:
        async with self.transaction():
            await self._exec("UPDATE games SET status=?, deadline=NULL, updated_at=?"
                                  " WHERE id=?", (status, time.time(), game_id))

    async def set_deadline(self, game_id: int, deadline: float | None, kind: str | None,
                           now: float | None = None) -> None:
        await self._exec("UPDATE games SET deadline=?, deadline_kind=?, reminded=0, timer_start=?"
                         " WHERE id=?", (deadline, kind, time.time() if now is None else now,
                                         game_id))

    async def mark_reminded(self, game_id: int) -> None:
        await self._exec("UPDATE games SET reminded=1 WHERE id=?", (game_id,))

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        await self._exec("UPDATE games SET thread_id=? WHERE id=?", (thread_id, game_id))

    async def update_extra(self, game_id: int, **changes: Any) -> dict[str, Any]:
        """Merge keys into the game's Discord-side notes (message ids and the like)."""
        async with self.transaction():
            row = await self._one("SELECT extra FROM games WHERE id=?", (game_id,))
            extra = json.loads(row[0]) if row else {}
            extra.update(changes)
            await self._exec("UPDATE games SET extra=? WHERE id=?",
                                  (json.dumps(extra), game_id))
        return extra

    async def active_games(self) -> list[GameRow]:
        rows = await self._all(f"SELECT {_GAME_COLUMNS} FROM games WHERE status='active'"
                               " ORDER BY id")
        return [_game(r) for r in rows]

    async def games_in_guild(self, guild_id: int | None, status: str = "active",
                             limit: int = 25) -> list[GameRow]:
        rows = await self._all(f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id IS ? AND "
                               "status=? ORDER BY id DESC LIMIT ?", (guild_id, status, limit))
        return [_game(r) for r in rows]

    async def active_game_in(self, channel_id: int, kind: str) -> GameRow | None:
        """The running game of `kind` played in this channel or thread."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status='active' AND kind=? AND"
            " COALESCE(thread_id, channel_id)=? ORDER BY id DESC LIMIT 1", (kind, channel_id))
        return _game(row) if row else None

    async def games_of_user(self, user_id: int, status: str = "active",
                            limit: int = 25) -> list[GameRow]:
        # players is a JSON list of ints; json_each keeps the match exact (no substring hits).
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status=? AND EXISTS (SELECT 1 FROM "
            "json_each(games.players) WHERE value=?) ORDER BY updated_at DESC LIMIT ?",
            (status, user_id, limit))
        return [_game(r) for r in rows]

    async def entries(self, game_id: int) -> list[tuple[str, str]]:
        return [(a, m) for a, m in await self._all(
            "SELECT actor, move FROM events WHERE game_id=? ORDER BY version", (game_id,))]

    async def seat_moves(self, game_id: int, seat: int) -> int:
        """How many record entries this seat has made: the version of a secret panel, which
        the other players' moves must not make stale."""
        (n,) = await self._one("SELECT COUNT(*) FROM events WHERE game_id=? AND actor=?",
                               (game_id, str(seat + 1)))
        return n

    async def finished_of_user(self, user_id: int, limit: int = 10) -> list[tuple]:
        return await self._all(
            "SELECT r.game_id, r.kind, r.result, r.finished_at, g.players FROM results r "
            "JOIN games g ON g.id=r.game_id WHERE r.user_id=? ORDER BY r.finished_at DESC, "
            "r.game_id DESC LIMIT ?", (user_id, limit))

    async def stats(self, guild_id: int | None) -> list[tuple[str, int, int, int, int]]:
        """(kind, user, wins, losses, draws), most wins first."""
        return await self._all(
            "SELECT kind, user_id, SUM(result='win'), SUM(result='loss'), SUM(result='draw') "
            "FROM results WHERE guild_id IS ? GROUP BY kind, user_id "
            "ORDER BY kind, SUM(result='win') DESC, SUM(result='loss') ASC", (guild_id,))

    # challenges ----------------------------------------------------------------------------------
    async def create_challenge(self, kind: str, guild_id: int | None, channel_id: int,
                               host_id: int, invited: list[int], options: dict[str, Any],
                               min_players: int, max_players: int, expires_at: float) -> int:
        cur = await self._exec(
            "INSERT INTO challenges (kind, guild_id, channel_id, host_id, invited, joined,"
            " options, min_players, max_players, expires_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, guild_id, channel_id, host_id, json.dumps(invited), json.dumps([host_id]),
             json.dumps(options), min_players, max_players, expires_at, time.time()))
        return cur.lastrowid

    async def get_challenge(self, cid: int) -> dict[str, Any] | None:
        async with self._turn():
            cur = await self.db.execute("SELECT * FROM challenges WHERE id=?", (cid,))
            row = await cur.fetchone()
        if not row:
            return None
        d = dict(zip([c[0] for c in cur.description], row))
        for key in ("invited", "joined", "options"):
            d[key] = json.loads(d[key])
        return d

    async def update_challenge(self, cid: int, **changes: Any) -> None:
        cols = ", ".join(f"{k}=?" for k in changes)
        vals = [json.dumps(v) if k in ("invited", "joined", "options") else v
                for k, v in changes.items()]
        await self._exec(f"UPDATE challenges SET {cols} WHERE id=?", (*vals, cid))

    async def claim_challenge(self, cid: int, from_status: str, to_status: str) -> bool:
        """Move a challenge between states only if nobody else did first (double clicks)."""
        cur = await self._exec("UPDATE challenges SET status=? WHERE id=? AND status=?",
                                    (to_status, cid, from_status))
        return cur.rowcount == 1

    async def open_challenges(self) -> list[dict[str, Any]]:
        rows = await self._all("SELECT id FROM challenges WHERE status='open'")
        return [await self.get_challenge(r[0]) for r in rows]

    # votes ---------------------------------------------------------------------------------------
    async def vote(self, game_id: int, topic: str, voter_id: int, choice: str) -> bool:
        """Record a vote; False when this member already voted on this topic."""
        cur = await self._exec(
            "INSERT OR IGNORE INTO votes (game_id, topic, voter_id, choice) VALUES (?, ?, ?, ?)",
            (game_id, topic, voter_id, choice))
        return cur.rowcount == 1

    async def tally(self, game_id: int, topic: str) -> dict[str, int]:
        rows = await self._all("SELECT choice, COUNT(*) FROM votes WHERE game_id=? AND topic=?"
                               " GROUP BY choice", (game_id, topic))
        return {c: n for c, n in rows}

    # cards (TradeShowdown business cards) ---------------------------------------------------------
    async def save_card(self, user_id: int, slot: int, name: str, digits: str, zip_code: str):
        await self._exec(
            "INSERT OR REPLACE INTO cards (user_id, slot, name, digits, zip, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)", (user_id, slot, name, digits, zip_code, time.time()))

    async def cards_of(self, user_id: int) -> list[dict[str, Any]]:
        rows = await self._all("SELECT slot, name, digits, zip FROM cards WHERE user_id=? "
                               "ORDER BY slot", (user_id,))
        return [{"slot": s, "name": n, "digits": d, "zip": z} for s, n, d, z in rows]
