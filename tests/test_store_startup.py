"""Issue #11.7: start-up with a damaged or newer database gives a clear message and exit code 2:
no traceback, no hang, no connection left open."""
from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.store import SCHEMA_VERSION, Store, StoreError

ROOT = Path(__file__).resolve().parent.parent


def start(db: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEV_GUILD_ID")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="fake-token", DATABASE_PATH=str(db))
    # A hang (a connection's thread left running) fails by the timeout.
    return subprocess.run([sys.executable, "-m", "bot"], cwd=db.parent, env=env,
                          capture_output=True, text=True, timeout=60)


def newer(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")


def damaged(db: Path) -> None:
    """A healthy header and schema, and garbage in the middle of a table's b-tree pages: only
    a page check notices."""
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        conn.executemany("INSERT INTO t (v) VALUES (?)", [("x" * 50,) for _ in range(4000)])
        conn.execute("CREATE INDEX t_v ON t (v)")
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 20 * page
    for n in range(5, 20, 3):  # scribble over a few inner pages, leaving page 1 alone
        data[n * page + 8: n * page + 300] = os.urandom(292)
    db.write_bytes(bytes(data))
    with sqlite3.connect(db) as conn:  # the file still opens and shows its schema
        conn.execute("PRAGMA schema_version").fetchone()


def test_a_newer_schema_is_named_by_the_settings_check(tmp_path):
    db = tmp_path / "referee.db"
    newer(db)
    with pytest.raises(ConfigError, match="newer version of the bot"):
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(db)}, dotenv=None)


def test_a_damaged_database_is_caught_at_start(tmp_path):
    db = tmp_path / "referee.db"
    damaged(db)
    with pytest.raises(ConfigError, match="damaged"):
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(db)}, dotenv=None)


@pytest.mark.parametrize("spoil,words", [(newer, "newer version"), (damaged, "damaged")])
def test_python_m_bot_exits_2_with_a_message(tmp_path, spoil, words):
    db = tmp_path / "referee.db"
    spoil(db)
    result = start(db)
    assert result.returncode == 2, result.stderr[-2000:]
    assert words in result.stderr and "Traceback" not in result.stderr


async def test_store_open_refuses_a_newer_schema_and_closes_its_connection(tmp_path):
    db = tmp_path / "referee.db"
    newer(db)
    before = threading.active_count()
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(db)
    for _ in range(50):  # aiosqlite's thread ends once its connection is closed
        if threading.active_count() <= before:
            break
        await asyncio.sleep(0.02)
    assert threading.active_count() <= before


@pytest.mark.parametrize("env,expected", [
    ({}, (None, None, None)),
    ({"DATABASE_URL": "postgresql://u@h/db"}, ("postgresql://u@h/db", None, None)),
    ({"DATABASE_URL": "sqlite:///{tmp}/x.db"}, (None, None, None)),
    ({"SHARD_COUNT": "4"}, (None, 4, None)),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1,3"}, (None, 4, (0, 1, 3))),
])
def test_database_url_and_shard_settings(tmp_path, env, expected):
    env = {k: v.replace("{tmp}", str(tmp_path)) for k, v in env.items()}
    s = load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "d.db"), **env},
                      dotenv=None)
    assert (s.database_url, s.shard_count, s.shard_ids) == expected
    if "sqlite" in env.get("DATABASE_URL", ""):
        assert s.database == str(tmp_path / "x.db")


@pytest.mark.parametrize("env,expected", [
    ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL"),
    ({"SHARD_IDS": "0"}, "SHARD_COUNT is not"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "run from 0 to 1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "a,b"}, "SHARD_IDS"),
])
def test_bad_database_url_and_shard_settings_are_named(tmp_path, env, expected):
    with pytest.raises(ConfigError, match=expected):
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "d.db"), **env},
                      dotenv=None)


# ---- issue #27.9 and #27.11: bad databases and an in-memory URL, refused in words ------------------
def missing_a_table(db: Path) -> None:
    """The referee's database at the current schema, but its outbox table is gone."""
    async def make():
        await (await Store.open(db)).close()
    asyncio.run(make())
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE outbox")


def another_apps(db: Path) -> None:
    """Another program's SQLite file that happens to have a `games` table."""
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, score REAL)")
        conn.execute("INSERT INTO games (title, score) VALUES ('Tetris', 9.5)")


BAD = [(missing_a_table, "lacks table(s) outbox"), (another_apps, "another program's tables")]


@pytest.mark.parametrize("spoil,words", BAD)
def test_a_database_that_is_not_the_referees_is_named_by_the_settings_check(tmp_path, spoil,
                                                                            words):
    db = tmp_path / "referee.db"
    spoil(db)
    with pytest.raises(ConfigError, match=re.escape(words)) as caught:
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(db)}, dotenv=None)
    assert str(db) in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("spoil,words", BAD)
async def test_store_open_refuses_a_database_that_is_not_the_referees(tmp_path, spoil, words):
    db = tmp_path / "referee.db"
    await asyncio.to_thread(spoil, db)
    with pytest.raises(StoreError, match=re.escape(words)):
        await Store.open(db)
    with sqlite3.connect(db) as conn:  # and nothing was added to it
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "outbox" not in tables


@pytest.mark.parametrize("spoil,words", BAD)
def test_python_m_bot_exits_2_on_a_database_that_is_not_the_referees(tmp_path, spoil, words):
    db = tmp_path / "referee.db"
    spoil(db)
    result = start(db)
    assert result.returncode == 2, result.stderr[-2000:]
    assert words in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


async def test_another_programs_games_table_in_postgresql_is_refused():
    from test_store_tables import PG_URL, drop_schema, pg_schema, with_schema
    schema = await pg_schema()
    try:
        import asyncpg
        conn = await asyncpg.connect(with_schema(PG_URL, schema))
        await conn.execute("CREATE TABLE games (id SERIAL PRIMARY KEY, title TEXT)")
        await conn.close()
        with pytest.raises(StoreError, match=r"another program's tables \(games\)"):
            await Store.open(with_schema(PG_URL, schema))
    finally:
        await drop_schema(schema)


class Held:
    """A second bot holding the database: a connection with the file locked."""

    def __init__(self, db: Path):
        self.db = db

    def __enter__(self) -> "Held":
        self.conn = sqlite3.connect(self.db, isolation_level=None)
        self.conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        self.conn.execute("BEGIN EXCLUSIVE")
        self.conn.execute("INSERT INTO meta (key, value) VALUES ('held', '1')")
        self.conn.execute("COMMIT")  # exclusive locking mode: the lock stays after the commit
        return self

    def __exit__(self, *exc) -> None:
        self.conn.close()


def a_referee_database(db: Path) -> None:
    async def make():
        await (await Store.open(db)).close()
    asyncio.run(make())


IN_USE_WORDS = "in use by another process — is another bot running on it?"


def test_a_database_in_use_is_called_in_use_not_damaged(tmp_path):
    db = tmp_path / "referee.db"
    a_referee_database(db)
    with Held(db):
        with pytest.raises(ConfigError) as caught:
            load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(db)}, dotenv=None)
        result = start(db)
    assert IN_USE_WORDS in str(caught.value) and "damaged" not in str(caught.value)
    assert result.returncode == 2 and IN_USE_WORDS in result.stderr
    assert "damaged" not in result.stderr and "Traceback" not in result.stderr


async def test_store_open_calls_a_database_in_use_in_use(tmp_path):
    db = tmp_path / "referee.db"
    await asyncio.to_thread(a_referee_database, db)
    with Held(db):
        with pytest.raises(StoreError, match=IN_USE_WORDS):
            await Store.open(db)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:"])
def test_a_sqlite_url_without_a_file_is_refused(tmp_path, url):
    with pytest.raises(ConfigError, match="DATABASE_URL") as caught:
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url,
                       "DATABASE_PATH": str(tmp_path / "d.db")}, dotenv=None)
    assert "sqlite:///data/referee.db" in str(caught.value) and "memory" in str(caught.value)


async def test_only_the_explicit_memory_spelling_opens_an_in_memory_store(tmp_path):
    for url in ("sqlite://", "sqlite:///", "sqlite:"):
        with pytest.raises(StoreError, match="sqlite:///data/referee.db"):
            await Store.open(url)
    store = await Store.open(":memory:")  # what `python -m bot commands` opens, on purpose
    try:
        assert await store.active_games() == []
    finally:
        await store.close()


def test_python_m_bot_exits_2_on_a_sqlite_url_without_a_file(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_PATH", "DEV_GUILD_ID")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="fake-token", DATABASE_URL="sqlite://")
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "data").exists()
