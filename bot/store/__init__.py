"""Persistence: one store interface, two backends.

- `base`: `Store`, the interface, with every query written once over a few primitives
  (statements, queries, transactions) and `Store.open(target)`, which picks the backend from a
  path or a `DATABASE_URL`;
- `sqlite`: `SqliteStore`, the embedded default (aiosqlite: one file, WAL mode);
- `postgres`: `PgStore`, PostgreSQL through an asyncpg pool;
- `schema`: the migrations, written once, in each database's words;
- `rows`: what the store hands out (rows, record entries, errors) and its codecs.

Everything the rest of the bot uses is importable from here.
"""
from __future__ import annotations

from pathlib import Path

from .base import Store
from .rows import (Entry, GameRow, JSONText, OutboxItem, StaleVersion, StoreError, due_time,
                   pack_record, unpack_record)
from .schema import MIGRATIONS, PG_MIGRATIONS, SCHEMA_VERSION, Migration, statements
from .sqlite import IN_MEMORY, IN_USE, SqliteStore, file_problem, is_locked, sqlite_path


async def open_store(target: str | Path) -> Store:
    return await Store.open(target)


__all__ = ["Store", "SqliteStore", "StoreError", "StaleVersion", "GameRow", "JSONText", "Entry",
           "OutboxItem", "SCHEMA_VERSION", "MIGRATIONS", "PG_MIGRATIONS", "Migration",
           "statements", "open_store", "due_time", "pack_record", "unpack_record",
           "sqlite_path", "file_problem", "is_locked", "IN_USE", "IN_MEMORY"]
