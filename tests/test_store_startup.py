"""Issue #11.7: start-up with a damaged or newer database gives a clear message and exit code 2:
no traceback, no hang, no connection left open."""
from __future__ import annotations

import asyncio
import os
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
