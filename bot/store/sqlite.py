"""The SQLite backend (the embedded default): one file, WAL mode, one aiosqlite connection.

One connection means one transaction at a time: a transaction holds the connection's turn (an
asyncio lock), and a statement sent while nobody holds it goes straight to the database thread.
"""
from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import aiosqlite

from ..engine import jsontext
from .base import _EVENT_SQL, _OUTBOX_SQL, _PUBLISHED_SQL, Store
from .rows import StaleVersion, StoreError
from .schema import MIGRATIONS, TABLE_COLUMNS_SQL, columns_by_table, schema_problem, statements

log = logging.getLogger(__name__)

IN_MEMORY = ":memory:"  # the one spelling of a database that is gone when the bot stops


def sqlite_path(target: str, setting: str = "DATABASE_URL") -> str:
    """The file `sqlite:///relative/path`, `sqlite:////absolute/path` or a plain path names.
    A URL without a path (`sqlite://`, `sqlite:///`, `sqlite:`) is refused: it would be a
    database in memory, every game lost at the next restart; `:memory:` asks for one."""
    m = re.match(r"^sqlite:(//)?/?(.*)$", target)
    if not m:
        return target
    if not m.group(2):
        raise StoreError(f"{setting}={target!r} names no database file, so every game would be "
                         "kept in memory and lost at the next restart. Give the file: "
                         "sqlite:///data/referee.db (three slashes, then a path relative to "
                         "the working folder; four for an absolute one).")
    return m.group(2)


def is_locked(error: BaseException) -> bool:
    """SQLite's answer when another connection holds the database (and went on holding it
    for the whole busy timeout)."""
    return isinstance(error, sqlite3.OperationalError) and any(
        words in str(error) for words in ("database is locked", "database table is locked",
                                          "database is busy"))


# What follows the database's name when another process holds it.
IN_USE = ("is in use by another process — is another bot running on it? Stop that one first, "
          "or give this bot a database file of its own.")


def is_damaged(error: BaseException) -> bool:
    """SQLite's answer for a file that is not a database, or a damaged one."""
    return isinstance(error, sqlite3.DatabaseError) and any(
        words in str(error) for words in ("not a database", "malformed", "corrupt"))


def file_problem(conn: sqlite3.Connection) -> str | None:
    """Why the SQLite database open on `conn` is not one this bot can use, or None (the end of
    a sentence naming it): another program's tables, or the referee's with tables missing. A
    newer schema is for the caller to word."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    found = columns_by_table(conn.execute(TABLE_COLUMNS_SQL).fetchall())
    return schema_problem(version, found, whole_database=True)


# ---- a move in one trip ------------------------------------------------------------------------
# The running game's usual move is one transaction of a few statements. Sent one by one, each is
# a trip to the database thread and back through the event loop, and the connection (one
# transaction at a time) stays held for all of them: under load, when the loop answers late,
# that held connection was what limited moves per second. So they run as one call in the
# database thread, through public API only: the connection is made by sqlite3's documented
# `factory` (aiosqlite passes it on), and aiosqlite's `execute_fetchall(sql)` calls
# `connection.execute(sql, ())` in its thread, where `_Connection.execute` recognises a `_Batch`
# and runs it. (The public alternative, statement by statement, costs four more trips per move;
# SQL alone cannot do it in one: a script takes no parameters and a trigger hides the statements
# from the trace the cost tests read.) Should a later aiosqlite stop calling `execute` there,
# sqlite3 refuses the `_Batch` loudly, and tests/test_store_tables.py counts the one trip.
class _Batch:
    """A function of the sqlite3 connection, run in the database thread; its result is the one
    row `execute_fetchall` returns."""
    __slots__ = ("fn", "result")

    def __init__(self, fn: Callable[[sqlite3.Connection], Any]):
        self.fn = fn

    def fetchall(self) -> list[Any]:
        return [self.result]


class _Connection(sqlite3.Connection):
    """sqlite3's connection, which also runs a `_Batch` given in place of SQL."""

    def execute(self, sql: Any, parameters: Any = (), /) -> Any:
        if type(sql) is _Batch:
            sql.result = sql.fn(self)
            return sql
        return super().execute(sql, parameters)


def _in_one_transaction(fn: Callable[[sqlite3.Connection], Any]
                        ) -> Callable[[sqlite3.Connection], Any]:
    """`fn`, run inside BEGIN IMMEDIATE and COMMIT, undone when it fails."""
    def run(conn: sqlite3.Connection) -> Any:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result
    return run


CHECKPOINT_EVERY = 200   # commits on the event loop's connection between two checkpoints


def _open_here(path: str) -> sqlite3.Connection:
    """The event loop's own connection (see SqliteStore._here_now)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in ("foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=0",
                   "wal_autocheckpoint=0", "mmap_size=1073741824", "cache_size=-8192"):
        conn.execute(f"PRAGMA {pragma}")
    return conn


class SqliteStore(Store):
    backend = "sqlite"
    MIGRATIONS = MIGRATIONS

    def __init__(self, db: aiosqlite.Connection, path: str):
        self.db = db
        self.path = path
        # One connection means one transaction at a time: every statement waits its turn, so a
        # vote cast while a move commits can neither join nor break that move's transaction.
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None
        # A second connection, used in the event loop's own thread for a move's few quick
        # statements when nothing can make them wait (`_here_now`). A trip to the database
        # thread cost both threads ~85 us of CPU a statement, three times what the
        # statements themselves took (issue #23).
        self._here: sqlite3.Connection | None = None
        self._here_commits = 0
        self._checkpoint: asyncio.Future | None = None

    @classmethod
    async def open(cls, target: str | Path) -> "SqliteStore":
        path = sqlite_path(str(target))
        if path != IN_MEMORY:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is exactly
        # what `transaction()` wraps and nothing commits behind our back.
        try:
            db = await aiosqlite.connect(path, isolation_level=None, factory=_Connection)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the SQLite database {path!r} ({e}).") from None
        store = cls(db, path)
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across crashes
            await db.execute("PRAGMA busy_timeout=10000")  # another process may be committing
            # Reads through a memory map and a 32 MB page cache: lists of games at 100k games
            # stay well under a millisecond instead of paging the file in through read().
            await db.execute("PRAGMA mmap_size=1073741824")
            await db.execute("PRAGMA cache_size=-32768")
            await store.migrate()
            if path != IN_MEMORY:  # another connection to ":memory:" is another database
                store._here = _open_here(path)
        except sqlite3.DatabaseError as e:
            await db.close()
            if is_locked(e):
                raise StoreError(f"the SQLite database {path!r} {IN_USE}") from None
            if is_damaged(e):
                raise StoreError(f"{path!r} is not an SQLite database, or it is damaged ({e}). "
                                 "Restore it from a backup, or point the bot at a new file.") \
                    from None
            raise
        except BaseException:
            # A refused database must not leave the connection's thread running: the process
            # would hang at exit instead of printing the message.
            await db.close()
            raise
        return store

    async def close(self) -> None:
        if self._checkpoint is not None and not self._checkpoint.done():
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._here is not None:
            self._here.close()
            self._here = None
        await self.db.close()

    async def set_trace_callback(self, callback: Callable[[str], Any] | None) -> None:
        """Every statement either connection runs, to `callback` (tests and benches count
        them)."""
        await self.db.set_trace_callback(callback)
        if self._here is not None:
            self._here.set_trace_callback(callback)

    def _here_now(self, fn: Callable[[sqlite3.Connection], Any]) -> tuple[bool, Any]:
        """`fn(connection)` run now, in the event loop's own thread, if nothing can make it
        wait: nobody holds a transaction, and the database is free at once (busy_timeout 0
        on this connection: a database another connection or process is writing is left to
        the database thread, which waits for it). (True, its result); (False, None): send it
        to the database thread. A transaction `fn` begins, it ends, failing or not
        (`_in_one_transaction`)."""
        here = self._here
        if here is None or self._lock.locked():
            return False, None
        try:
            return True, fn(here)
        except sqlite3.OperationalError as e:
            if is_locked(e):
                return False, None
            raise

    def _committed_here(self) -> None:
        """This connection never checkpoints by itself (a checkpoint writes the log into the
        database and syncs the file: not on the event loop); the database thread does, every
        CHECKPOINT_EVERY commits made here."""
        self._here_commits += 1
        if self._here_commits % CHECKPOINT_EVERY == 0 and (
                self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.ensure_future(self._checkpoint_log())

    async def _checkpoint_log(self) -> None:
        try:
            await self._exec("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception as e:  # the next one tries again; the log only grows meanwhile
            log.warning("SQLite checkpoint failed: %s", e)

    def _described(self) -> str:
        return f"the SQLite database {self.path!r}"

    # ---- schema ----------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        (version,) = await self._one("PRAGMA user_version")
        return version

    async def _set_schema_version(self, version: int) -> None:
        await self._exec(f"PRAGMA user_version={int(version)}")

    async def _tables(self) -> dict[str, frozenset[str]]:
        return columns_by_table(await self._all(TABLE_COLUMNS_SQL))

    async def _run_script(self, script: str) -> None:
        for statement in statements(script):
            await self._exec(statement)

    async def _after_packing(self) -> None:
        if self.path != IN_MEMORY:
            async with self._turn():
                await self.db.execute("VACUUM")  # give back the space the old events took

    def _merge_extra(self, changes: dict[str, Any]) -> tuple[str, tuple]:
        parts = ", ".join(f"'$.\"{key}\"', json(?)" for key in changes)
        return (f"json_set(extra, {parts})",
                tuple(jsontext.dumps(v) for v in changes.values()))

    # ---- statements ------------------------------------------------------------------------------
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
    async def transaction(self) -> AsyncIterator[Any]:
        if self._owner is asyncio.current_task():  # nested: part of the one already open
            yield self.db
            return
        async with self._turn():
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            else:
                await self.db.execute("COMMIT")

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[None]:
        """The turn of one statement (or of one call that is a whole transaction). The
        database thread runs what it is sent in order, and a transaction is only ever open
        while someone holds the connection's turn; so when nobody holds it, a statement sent
        now runs before any later BEGIN and needs no turn of its own. Only when a transaction
        is open (or about to be) does it wait: no statement waits on the event loop getting
        back to whoever holds the turn, which under load was most of a move's time."""
        if self._owner is asyncio.current_task() or not self._lock.locked():
            yield  # sent before this task's next await: nothing can come in between
            return
        async with self._turn():
            yield

    async def _exec(self, sql: str, args: tuple | dict = ()) -> int:
        async with self._statement():
            return (await self.db.execute(sql, args)).rowcount

    # A query and its rows in one trip to the database thread (execute, then fetch, was two:
    # each trip is a hand-over between threads, and a move makes many).
    async def _one(self, sql: str, args: tuple | dict = ()) -> Any:
        if sql.startswith("SELECT"):  # a one-row read (by key): here, when nothing waits
            done, row = self._here_now(lambda conn: conn.execute(sql, args).fetchone())
            if done:
                return row
        async with self._statement():
            rows = await self.db.execute_fetchall(sql, args)
        return rows[0] if rows else None

    async def _all(self, sql: str, args: tuple | dict = ()) -> list[Any]:
        async with self._statement():
            return list(await self.db.execute_fetchall(sql, args))

    async def save_published(self, game_id: int, version: int,
                             changes: dict[str, Any]) -> dict[str, Any]:
        """The notes and the outbox row's end in one transaction, in one trip to the database
        thread (each trip costs both threads more than the statements themselves)."""
        if not changes or self._owner is asyncio.current_task():
            return await super().save_published(game_id, version, changes)
        update, args = self._extra_update(game_id, changes)

        def both(conn: sqlite3.Connection) -> Any:
            row = conn.execute(update, args).fetchone()
            conn.execute(_PUBLISHED_SQL, (game_id, version))
            return row
        return self._merged(await self._transaction_call(both), changes)

    async def _transaction_call(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """`fn(connection)` as a whole transaction of its own (BEGIN IMMEDIATE, COMMIT; a
        ROLLBACK when it fails): here, when nothing can make it wait, else in one trip to the
        database thread."""
        fn = _in_one_transaction(fn)
        done, result = self._here_now(fn)
        if done:
            self._committed_here()
            return result
        async with self._statement():
            [result] = await self.db.execute_fetchall(_Batch(fn))
        return result

    async def _commit_running_move(self, update: str, update_args: tuple, events: list[tuple],
                                   outbox: tuple | None, game_id: int) -> None:
        if self._owner is asyncio.current_task():
            # Inside a transaction this task already holds: that one commits as a whole.
            await super()._commit_running_move(update, update_args, events, outbox, game_id)
            return

        def commit(conn: sqlite3.Connection) -> int:
            changed = conn.execute(update, update_args).rowcount
            if changed == 1:  # else a stale move: nothing written, nothing to undo
                conn.executemany(_EVENT_SQL, events)
                if outbox is not None:
                    conn.execute(_OUTBOX_SQL, outbox)
            return changed
        if await self._transaction_call(commit) != 1:
            raise StaleVersion(game_id)


__all__ = ["SqliteStore", "sqlite_path", "file_problem", "is_locked", "is_damaged", "IN_USE",
           "IN_MEMORY"]
