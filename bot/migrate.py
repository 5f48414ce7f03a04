"""`python -m bot migrate --to postgresql://...`: move house from the SQLite file to PostgreSQL.

Both databases are first brought to the current schema (the same migrations, one per backend),
then every table is copied as it is, in one PostgreSQL transaction: games (running ones with
their state, seed, deadline and outbox), their records, results and stats, challenges, votes,
TradeShowdown cards and the bot's notes. Nothing is copied into a database that already holds
games, so running it twice cannot mix two histories. Stop the bot before copying.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from .store import Store, StoreError, sqlite_path

# Parents before children (foreign keys), each with the columns both schemas share.
TABLES: tuple[tuple[str, str], ...] = (
    ("meta", "key, value"),
    ("games", "id, kind, guild_id, channel_id, thread_id, players, options, seed, state, version,"
              " status, deadline, deadline_kind, reminded, extra, created_at, updated_at,"
              " timer_start, due_at, record"),
    ("game_players", "game_id, seat, user_id, status, sort_at"),
    ("events", "id, game_id, version, actor, move, created_at"),
    ("results", "game_id, guild_id, kind, user_id, result, finished_at"),
    ("player_stats", "guild_key, kind, user_id, wins, losses, draws"),
    ("challenges", "id, kind, guild_id, channel_id, host_id, invited, joined, options,"
                   " min_players, max_players, message_id, status, game_id, expires_at,"
                   " created_at, note"),
    ("votes", "game_id, topic, voter_id, choice"),
    ("cards", "user_id, slot, name, digits, zip, updated_at"),
    ("outbox", "id, game_id, version, cause, by_user, entries, attempts, publish_after,"
               " created_at"),
    ("ratings", "scope, ladder, user_id, mu, sigma, shown, games, wins, losses, draws, streak,"
                " best_streak, best_win, best_win_over, peak, updated_at, ranked"),
    ("rating_history", "game_id, scope, ladder, user_id, result, place, shown_before, mu,"
                       " sigma, shown, finished_at"),
    ("rating_off", "guild_id, kind, since"),
    ("player_prefs", "user_id, turn_notice, updated_at"),
)
IDENTITY_TABLES = ("games", "events", "challenges", "outbox")
FLOAT_COLUMNS = {"deadline", "created_at", "updated_at", "timer_start", "due_at", "sort_at",
                 "finished_at", "expires_at", "publish_after", "mu", "sigma", "since"}


class MigrateError(Exception):
    """Refused before copying anything; the message says why."""


async def copy_to_postgres(source: str | Path, target: str,
                           say: Callable[[str], None] = print) -> dict[str, int]:
    """Copy the SQLite database at `source` into the PostgreSQL database at `target`.
    Returns the number of rows copied per table (and 'open timers')."""
    if not target.startswith(("postgresql://", "postgres://")):
        raise MigrateError(f"--to must be a postgresql:// URL, not {target!r}.")
    path = Path(sqlite_path(str(source), setting="--from"))
    if not path.is_file():
        raise MigrateError(f"there is no SQLite database at {str(path)!r} (give it with --from).")
    src = await Store.open(path)
    try:
        dst = await Store.open(target)
    except StoreError:
        await src.close()
        raise
    counts: dict[str, int] = {}
    try:
        (already,) = await dst._one("SELECT COUNT(*) FROM games")
        if already:
            raise MigrateError(f"the PostgreSQL database already holds {already} game(s); "
                               "copy into an empty database.")
        async with dst.transaction():
            conn = dst.current_connection()
            for table, columns in TABLES:
                cols = [c.strip() for c in columns.split(",")]
                rows = await src._all(f"SELECT {', '.join(cols)} FROM {table}")
                floats = [i for i, c in enumerate(cols) if c in FLOAT_COLUMNS]
                records = []
                for row in rows:
                    values = list(row)
                    for i in floats:  # SQLite keeps 5.0 as 5 when it was written as an int
                        if values[i] is not None:
                            values[i] = float(values[i])
                    records.append(tuple(values))
                if records:
                    await conn.copy_records_to_table(table, records=records, columns=cols)
                counts[table] = len(records)
            for table in IDENTITY_TABLES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
        (timers,) = await src._one("SELECT COUNT(*) FROM games WHERE due_at IS NOT NULL")
        counts["open timers"] = timers
        (finished,) = await src._one("SELECT COUNT(*) FROM games WHERE record IS NOT NULL")
        counts["finished records"] = finished
    finally:
        await src.close()
        await dst.close()
    say(f"copied {path} into PostgreSQL:")
    for name, n in counts.items():
        say(f"  {name:18} {n}")
    return counts
