"""The PostgreSQL backend (`DATABASE_URL=postgresql://...`): the store's queries sent through
an asyncpg pool.

Statements are written once (in `bot.store.base`) with `?` / `?N` parameters; here they become
`$N`. A transaction holds one pooled connection, found through a context variable by every
statement the task runs inside it; a statement outside a transaction borrows a connection for
itself. Several processes may share the database: migrations take an advisory lock, and every
read-modify-write in the store holds its row (`FOR UPDATE`) or compares and sets.
"""
from __future__ import annotations

import contextvars
import re
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from ..engine import jsontext
from .base import Store
from .rows import StoreError
from .schema import PG_MIGRATIONS, columns_by_table

try:
    import asyncpg
except ImportError:  # pragma: no cover - only when PostgreSQL is asked for without the driver
    asyncpg = None

_current: contextvars.ContextVar[Any] = contextvars.ContextVar("referee_pg_conn", default=None)
_PARAM = re.compile(r"\?(\d*)")
MIGRATION_LOCK = 0x7265_6665  # pg_advisory_xact_lock key: one process migrates at a time


def pg_sql(sql: str) -> str:
    """`?` and `?N` parameters as `$N`."""
    counter = 0

    def number(m: re.Match) -> str:
        nonlocal counter
        if m.group(1):
            return f"${m.group(1)}"
        counter += 1
        return f"${counter}"
    return _PARAM.sub(number, sql)


def _rowcount(status: str) -> int:
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class PgStore(Store):
    backend = "postgresql"
    FOR_UPDATE = " FOR UPDATE"
    MIGRATIONS = PG_MIGRATIONS
    _WHOLE_DATABASE = False  # a schema other programs may share: only the referee's names count

    def __init__(self, pool: Any, url: str):
        self.pool = pool
        self.path = url
        self._sql: dict[str, str] = {}

    @classmethod
    async def open(cls, target: str, *, min_size: int = 1, max_size: int = 10) -> "PgStore":
        if asyncpg is None:
            raise StoreError("DATABASE_URL asks for PostgreSQL, but the asyncpg driver is not "
                             "installed: pip install asyncpg")
        try:
            pool = await asyncpg.create_pool(target, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError) as e:
            raise StoreError(f"cannot connect to PostgreSQL at {_redact(target)}: {e}") from None
        store = cls(pool, target)
        try:
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self.pool.close()

    def _described(self) -> str:
        return f"the PostgreSQL database at {_redact(self.path)}"

    def _merge_extra(self, changes: dict[str, Any]) -> tuple[str, tuple]:
        # jsonb `||` replaces top-level keys whole, as dict.update does.
        return "(extra::jsonb || ?::jsonb)::text", (jsontext.dumps(changes),)

    def _q(self, sql: str) -> str:
        out = self._sql.get(sql)
        if out is None:
            out = self._sql[sql] = pg_sql(sql)
        return out

    # ---- schema ----------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        await self._exec("CREATE TABLE IF NOT EXISTS referee_schema (version INTEGER NOT NULL)")
        row = await self._one("SELECT version FROM referee_schema")
        return row[0] if row else 0

    async def _set_schema_version(self, version: int) -> None:
        await self._exec("DELETE FROM referee_schema")
        await self._exec("INSERT INTO referee_schema (version) VALUES (?)", (version,))

    async def _tables(self) -> dict[str, frozenset[str]]:
        return columns_by_table(await self._all(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()"))

    async def _run_script(self, script: str) -> None:
        # A whole script in one message: PostgreSQL splits it itself.
        await self.current_connection().execute(script)

    @asynccontextmanager
    async def _migrating(self) -> AsyncIterator[None]:
        # Several processes starting at once: the first migrates, the others wait and find
        # nothing left to do.
        async with self.transaction():
            await self._exec(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            yield

    # ---- statements ------------------------------------------------------------------------------
    def current_connection(self) -> Any:
        """The asyncpg connection of the transaction this task has open."""
        conn = _current.get()
        if conn is None:
            raise RuntimeError("no transaction is open")
        return conn

    @asynccontextmanager
    async def _borrow(self) -> AsyncIterator[Any]:
        conn = _current.get()
        if conn is not None:
            yield conn
            return
        async with self.pool.acquire() as conn:
            yield conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        outer = _current.get()
        if outer is not None:  # nested: part of the transaction already open
            yield outer
            return
        async with self.pool.acquire() as conn:
            token = _current.set(conn)
            try:
                async with conn.transaction():
                    yield conn
            finally:
                _current.reset(token)

    async def _exec(self, sql: str, args: tuple | dict = ()) -> int:
        async with self._borrow() as conn:
            return _rowcount(await conn.execute(self._q(sql), *args))

    async def _one(self, sql: str, args: tuple | dict = ()) -> Any:
        async with self._borrow() as conn:
            return await conn.fetchrow(self._q(sql), *args)

    async def _all(self, sql: str, args: tuple | dict = ()) -> list[Any]:
        async with self._borrow() as conn:
            return list(await conn.fetch(self._q(sql), *args))


def _redact(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


__all__ = ["PgStore", "PG_MIGRATIONS", "pg_sql"]
