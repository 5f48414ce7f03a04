"""Settings from the environment and `.env`, checked up front with messages a host can act on.

Every setting is documented in `.env.example`. A bad setting raises ConfigError, which
`python -m bot` prints without a traceback and exits with code 2.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

DEFAULT_DATABASE = "data/referee.db"
DEFAULT_TURN_TIMER = 3600  # an hour: long enough for a lunch break, short enough to keep games alive
DEFAULT_PRACTICE_DELAY = 1.5  # seconds: a bot move shows after a beat, as a person's would
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

TOKEN_HELP = (
    "DISCORD_TOKEN is not set. The bot needs its Discord bot token to log in.\n"
    "  1. Open https://discord.com/developers/applications, pick (or create) your application,\n"
    "     go to 'Bot' and press 'Reset Token' to get a token.\n"
    "  2. Copy .env.example to .env and put the token after DISCORD_TOKEN=\n"
    "     (or export DISCORD_TOKEN in the environment).\n"
    "See README.md, 'Create the Discord application', for the invite link and permissions."
)


class ConfigError(Exception):
    """A setting is missing or wrong; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    turn_timer: int
    # DATABASE_URL=postgresql://...: the PostgreSQL backend (database_path is then unused).
    database_url: str | None = None
    # SHARD_COUNT / SHARD_IDS: this process runs these shards of that many (AutoShardedBot).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # READ_MESSAGES=1: read typed phrases in threads (needs the Message Content intent).
    read_messages: bool = False
    # RENDER_PROCESSES: pictures are drawn in this many worker processes (0: in a thread of the
    # bot's own process). load_settings defaults it to the CPU count on a multi-core machine;
    # built directly (tests, offline tools) it stays 0, which starts no processes.
    render_processes: int = 0
    # The running bot (load_settings) takes its start-up heap out of the garbage collector's
    # view once started (bot/app.py); a process that starts many bots (the tests) must not,
    # or every old bot would stay in memory.
    freeze_boot_heap: bool = False
    # PRACTICE_DELAY_SECONDS: how long a practice bot "thinks" before its move shows, so a
    # turn reads naturally (0 in tests; its search runs meanwhile).
    practice_delay: float = DEFAULT_PRACTICE_DELAY
    # How many clicks a second one person's buttons and lists are served (a burst of twice as
    # many first): far above a person's pace, it keeps a click storm from slowing every table.
    # 0: no limit (the tests click at machine speed).
    clicks_per_second: float = 8.0

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL, or the SQLite file."""
        return self.database_url or str(self.database_path)


def _read_dotenv(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values  # only needed when a .env exists
    return {k: v for k, v in dotenv_values(path).items() if v is not None}


def load_settings(env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env"),
                  *, require_token: bool = True) -> Settings:
    """Settings from `env` (default os.environ) over the `.env` file (environment wins)."""
    values = _read_dotenv(dotenv) if dotenv is not None else {}
    values.update(os.environ if env is None else env)

    token = values.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(TOKEN_HELP)

    url = values.get("DATABASE_URL", "").strip()
    database_url = None
    if url.startswith(("postgresql://", "postgres://")):
        database_url = url
        db = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    elif url.startswith("sqlite:"):
        from .store import StoreError, sqlite_path
        try:
            db = Path(sqlite_path(url))
        except StoreError as e:  # no file named: a database in memory, lost at every restart
            raise ConfigError(str(e)) from None
        check_database_path(db)
    elif url:
        raise ConfigError(f"DATABASE_URL={url!r} is neither sqlite:///path/to/file.db nor "
                          "postgresql://user@host/database. Leave it empty for the default "
                          f"SQLite file {DEFAULT_DATABASE!r}.")
    else:
        db = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
        check_database_path(db)
    shard_count, shard_ids = _shards(values.get("SHARD_COUNT", "").strip(),
                                     values.get("SHARD_IDS", "").strip())

    guild_raw = values.get("DEV_GUILD_ID", "").strip()
    guild = None
    if guild_raw:
        if not guild_raw.isdigit() or not 15 <= len(guild_raw) <= 21:
            raise ConfigError(
                f"DEV_GUILD_ID={guild_raw!r} is not a Discord server id. It is a number of 17-20 "
                "digits: in Discord, turn on Developer Mode (User Settings > Advanced), then "
                "right-click the server icon > Copy Server ID. Leave it empty to sync commands "
                "globally.")
        guild = int(guild_raw)

    level = (values.get("LOG_LEVEL", "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL={level!r} is not one of {', '.join(LOG_LEVELS)}.")

    timer_raw = values.get("TURN_TIMER_SECONDS", "").strip() or str(DEFAULT_TURN_TIMER)
    try:
        timer = int(timer_raw)
    except ValueError:
        timer = -1
    if not 30 <= timer <= 7 * 86400:
        raise ConfigError(
            f"TURN_TIMER_SECONDS={timer_raw!r} must be a whole number of seconds from 30 to "
            f"604800 (7 days); the default is {DEFAULT_TURN_TIMER}.")
    read_messages = _switch("READ_MESSAGES", values.get("READ_MESSAGES", ""))
    render = _render_processes(values.get("RENDER_PROCESSES", "").strip())
    delay = _practice_delay(values.get("PRACTICE_DELAY_SECONDS", "").strip())
    return Settings(token, db, guild, level, timer, database_url, shard_count, shard_ids,
                    read_messages, render, freeze_boot_heap=True, practice_delay=delay)


def _practice_delay(raw: str) -> float:
    if not raw:
        return DEFAULT_PRACTICE_DELAY
    try:
        delay = float(raw) if raw.isascii() else -1.0
    except ValueError:
        delay = -1.0
    if not 0 <= delay <= 10:
        raise ConfigError(f"PRACTICE_DELAY_SECONDS={raw!r} must be a number of seconds from 0 to "
                          f"10: how long the practice bot pauses before its move shows. Leave it "
                          f"empty for {DEFAULT_PRACTICE_DELAY:g}.")
    return delay


def default_render_processes() -> int:
    """One worker per core when there is more than one: threads would share the bot's core
    through the GIL, so a 2-core machine would draw at the speed of one. On one core a worker
    process only adds copying, so pictures are drawn in a thread."""
    cpus = os.cpu_count() or 1
    return cpus if cpus > 1 else 0


def _render_processes(raw: str) -> int:
    if not raw:
        return default_render_processes()
    if not raw.isascii() or not raw.isdigit() or int(raw) > 64:
        raise ConfigError(f"RENDER_PROCESSES={raw!r} must be a whole number from 0 to 64: how "
                          "many worker processes draw the pictures (0: draw in the bot's own "
                          f"process). Leave it empty for one per CPU ({default_render_processes()}"
                          " here).")
    return int(raw)


def _switch(name: str, raw: str) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off (empty: off)."""
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("", "0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name}={raw.strip()!r} is neither on (1, true, yes, on) nor off (0, "
                      "false, no, off, or empty).")


def _shards(count_raw: str, ids_raw: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (total shards, all processes together) and SHARD_IDS (this process's, e.g.
    `0,1` or `0-3`). Both empty: one process, no sharding."""
    if not count_raw:
        if ids_raw:
            raise ConfigError("SHARD_IDS is set but SHARD_COUNT is not: give the total number "
                              "of shards in SHARD_COUNT.")
        return None, None
    if not count_raw.isascii() or not count_raw.isdigit() or not 1 <= int(count_raw) <= 4096:
        raise ConfigError(f"SHARD_COUNT={count_raw!r} must be a whole number from 1 to 4096 "
                          "(Discord needs one shard per 2,500 servers at most).")
    count = int(count_raw)
    if not ids_raw:
        return count, None  # this process runs every shard
    ids: list[int] = []
    for part in ids_raw.replace(" ", "").split(","):
        low, sep, high = part.partition("-")
        try:
            if not (low.isascii() and high.isascii()):
                raise ValueError
            ids += list(range(int(low), int(high) + 1)) if sep else [int(low)]
        except ValueError:
            raise ConfigError(f"SHARD_IDS={ids_raw!r} is not a list of shard numbers such as "
                              "'0,1' or '0-3'.") from None
    bad = [i for i in ids if not 0 <= i < count]
    if bad or not ids:
        raise ConfigError(f"SHARD_IDS={ids_raw!r}: shard numbers run from 0 to {count - 1} "
                          f"(SHARD_COUNT={count}).")
    return count, tuple(sorted(set(ids)))


def check_database_path(db: Path) -> None:
    """Fail early, in words, when the database file cannot be created or opened."""
    if str(db) == ":memory:":
        return
    if db.exists() and db.is_dir():
        raise ConfigError(f"DATABASE_PATH={str(db)!r} is a directory; give a file path such as "
                          f"{DEFAULT_DATABASE!r}.")
    parent = db.parent if str(db.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"DATABASE_PATH={str(db)!r}: cannot create the folder {str(parent)!r} "
                          f"({e.strerror}). Choose a path in a folder the bot may write.")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"DATABASE_PATH={str(db)!r}: the folder {str(parent)!r} is not "
                          "writable by this user. Choose a writable folder or fix its rights.")
    if db.exists():
        if not os.access(db, os.R_OK | os.W_OK):
            raise ConfigError(f"DATABASE_PATH={str(db)!r} exists but is not readable and "
                              "writable by this user.")
        check_database_file(db)


def check_database_file(db: Path) -> None:
    """An existing database must be SQLite, undamaged, and not from a newer bot. Damage inside
    the file (a torn page) is found by `PRAGMA quick_check`, not by opening it."""
    from .store import SCHEMA_VERSION
    conn = None
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        conn.execute("PRAGMA schema_version").fetchone()
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise ConfigError(
                f"DATABASE_PATH={str(db)!r} was written by a newer version of the bot (schema "
                f"{version}; this one understands up to {SCHEMA_VERSION}). Update the bot, or "
                "point DATABASE_PATH at the right file.")
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
        if problems != ["ok"]:
            raise ConfigError(
                f"DATABASE_PATH={str(db)!r} is damaged ({'; '.join(problems)[:300]}). Restore "
                "it from a backup, or try `sqlite3 FILE '.recover' | sqlite3 NEW.db` and point "
                "DATABASE_PATH at the new file.")
        from .store import file_problem  # another program's tables, or the referee's cut short
        problem = file_problem(conn)
        if problem:
            raise ConfigError(f"DATABASE_PATH={str(db)!r} {problem}")
    except sqlite3.DatabaseError as e:
        from .store import IN_USE, is_locked
        if is_locked(e):  # held by another process for the whole timeout: not damage
            raise ConfigError(f"DATABASE_PATH={str(db)!r} {IN_USE}") from None
        raise ConfigError(f"DATABASE_PATH={str(db)!r} is not an SQLite database, or it is "
                          f"damaged ({e}). Point it at a new file or restore the right one.")
    finally:
        if conn is not None:
            conn.close()


def configure_logging(level: str) -> None:
    """LOG_LEVEL for the bot; the loggers that would print secrets stay quiet (bot/logs.py)."""
    from .logs import configure
    configure(level)
