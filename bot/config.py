"""Settings from the environment and `.env`, checked up front with messages a host can act on.

Every setting is documented in `.env.example`. A bad setting raises ConfigError, which
`python -m bot` prints without a traceback and exits with code 2.
"""
from __future__ import annotations

import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

DEFAULT_DATABASE = "data/referee.db"
DEFAULT_TURN_TIMER = 3600  # an hour: long enough for a lunch break, short enough to keep games alive
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

    db = Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    check_database_path(db)

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
    return Settings(token, db, guild, level, timer)


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
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                conn.execute("PRAGMA schema_version").fetchone()
        except sqlite3.DatabaseError as e:
            raise ConfigError(f"DATABASE_PATH={str(db)!r} is not an SQLite database ({e}). "
                              "Point it at a new file or restore the right one.")


def configure_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
