"""The store's one interface: every query, written once, over a few primitives each backend
implements (`bot.store.sqlite.SqliteStore`: aiosqlite, one file; `bot.store.postgres.PgStore`:
asyncpg, a pool).

The primitives: `_exec` (a statement; the rows it changed), `_one` / `_all` (a query's first
row / all its rows), `transaction()` (what runs inside commits together or not at all; nested,
it is part of the outer one), `_run_script` (one migration's SQL), the schema version and the
tables found, and `close`. Queries use `?` or `?N` parameters and the SQL both databases
understand (`IS NOT DISTINCT FROM`, `ON CONFLICT`, `RETURNING`); what one database spells its
own way is a small hook (`_merge_extra`, `FOR_UPDATE`), and what one does faster a hook with a
plain default (`_commit_running_move`).

A move's new state, its record entries, its outbox row (what it still has to publish) and (when
it ends the game) the results commit together or not at all, so a crash at any point leaves the
game as it was after its last committed move, with its publishing still to do.

Several processes may share one database: a move commits only against the version it was made
on (compare-and-set), deadlines are claimed with a lease on `due_at` by exactly one process,
reminders are marked with compare-and-set, and nothing read-modify-writes outside a transaction.
"""
from __future__ import annotations

import abc
import functools
import re
import time
from contextlib import AbstractAsyncContextManager, nullcontext
from pathlib import Path
from typing import Any, Iterable

from ..engine import jsontext
from ..memo import Bounded
from .rows import (_CHALLENGE_COLUMNS, _CHALLENGE_JSON, _GAME_COLUMNS, Entry, GameRow,
                   OutboxItem, StaleVersion, StoreError, _challenge, _game, due_time,
                   pack_record, unpack_record)
from .schema import SCHEMA_VERSION, Migration, schema_problem

_EXTRA_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EVENT_SQL = ("INSERT INTO events (game_id, version, actor, move, created_at)"
              " VALUES (?, ?, ?, ?, ?)")
_PUBLISHED_SQL = "DELETE FROM outbox WHERE game_id=? AND version<=?"
_OUTBOX_SQL = ("INSERT INTO outbox (game_id, version, cause, by_user, entries, publish_after,"
               " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")


KINDS_KEPT = 100_000  # games whose kind a store remembers (kind_of)


class Store(abc.ABC):
    """A database holding the referee's games. `Store.open(target)` picks the backend."""

    backend: str  # "sqlite" or "postgresql": for messages and tests, never for a query's SQL
    # Appended to a SELECT whose row the transaction is about to change: PostgreSQL locks the
    # row; SQLite needs nothing (a write transaction holds the whole database).
    FOR_UPDATE = ""
    MIGRATIONS: tuple[Migration, ...]  # the schema's migrations in this backend's words
    path: str  # the file or the URL, for messages

    @classmethod
    async def open(cls, target: str | Path) -> "Store":
        """Open (and migrate) the database at `target`: a file path, `sqlite:///path`, or a
        `postgresql://` URL."""
        target = str(target)
        if target.startswith(("postgresql://", "postgres://")):
            from .postgres import PgStore
            return await PgStore.open(target)
        from .sqlite import SqliteStore
        return await SqliteStore.open(target)

    @abc.abstractmethod
    async def close(self) -> None: ...

    # ---- primitives ------------------------------------------------------------------------------
    @abc.abstractmethod
    async def _exec(self, sql: str, args: tuple = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abc.abstractmethod
    async def _one(self, sql: str, args: tuple = ()) -> Any:
        """A query's first row (a tuple-like record), or None."""

    @abc.abstractmethod
    async def _all(self, sql: str, args: tuple = ()) -> list[Any]:
        """A query's rows."""

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Any]:
        """Everything inside commits together or not at all (re-entrant within a task)."""

    @abc.abstractmethod
    async def _run_script(self, script: str) -> None:
        """Run one migration's SQL, inside the transaction that is open."""

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    @abc.abstractmethod
    async def _set_schema_version(self, version: int) -> None: ...

    @abc.abstractmethod
    async def _tables(self) -> dict[str, frozenset[str]]:
        """The tables this database holds (where the referee's would be), with their
        columns."""

    @abc.abstractmethod
    def _merge_extra(self, changes: dict[str, Any]) -> tuple[str, tuple]:
        """SQL for `extra` with each key of `changes` set (shallow: a key's value is replaced
        whole, as dict.update does), and its arguments."""

    def _migrating(self) -> AbstractAsyncContextManager[Any]:
        """Held while migrating (PostgreSQL: one transaction with a lock, so that of several
        processes starting at once one migrates and the others find nothing left to do)."""
        return nullcontext()

    async def _after_packing(self) -> None:
        """A migration packed old records (SQLite gives the space back)."""

    _WHOLE_DATABASE = True  # every table found counts (a file); False: a shared schema

    def _described(self) -> str:
        return f"the database {self.path!r}"

    # ---- schema ----------------------------------------------------------------------------------
    async def migrate(self) -> int:
        async with self._migrating():
            version = await self.schema_version()
            if version > SCHEMA_VERSION:
                raise StoreError(f"the database has schema version {version}, newer than this "
                                 f"bot understands ({SCHEMA_VERSION}). Update the bot, or point "
                                 "it at the right database.")
            problem = schema_problem(version, await self._tables(),
                                     whole_database=self._WHOLE_DATABASE)
            if problem:
                raise StoreError(f"{self._described()} {problem}")
            packed = False
            for number in range(version, SCHEMA_VERSION):
                step = self.MIGRATIONS[number]
                async with self.transaction():
                    if callable(step):
                        await step(self)
                        packed = True
                    else:
                        await self._run_script(step)
                    await self._set_schema_version(number + 1)
        if packed:
            await self._after_packing()
        return SCHEMA_VERSION

    async def _insert(self, sql: str, args: tuple = ()) -> int:
        """An INSERT ... RETURNING id: the new row's id."""
        return (await self._one(sql + " RETURNING id", args))[0]

    # ---- a running game's move -------------------------------------------------------------------
    async def _commit_running_move(self, update: str, update_args: tuple, events: list[tuple],
                                   outbox: tuple | None, game_id: int) -> None:
        """The usual move (the game goes on, no results): the compare-and-set UPDATE, its
        record entries and its outbox row, in one transaction; StaleVersion when the UPDATE
        finds the game moved on. A backend may send it all at once."""
        async with self.transaction():
            if await self._exec(update, update_args) != 1:
                raise StaleVersion(game_id)
            for event in events:
                await self._exec(_EVENT_SQL, event)
            if outbox is not None:
                await self._exec(_OUTBOX_SQL, outbox)

    # ---- meta ------------------------------------------------------------------------------------
    async def meta_get(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key=?", (key,))
        return row[0] if row else None

    async def meta_set(self, key: str, value: str) -> None:
        await self._exec("INSERT INTO meta (key, value) VALUES (?, ?) "
                         "ON CONFLICT (key) DO UPDATE SET value=excluded.value", (key, value))

    # ---- games -----------------------------------------------------------------------------------
    async def create_game(self, kind: str, guild_id: int | None, channel_id: int | None,
                          thread_id: int | None, players: list[int], options: dict[str, Any],
                          seed: str, state: dict[str, Any] | str,
                          entries: list[Entry] = (), extra: dict[str, Any] | None = None,
                          deadline: float | None = None, deadline_kind: str | None = None,
                          now: float | None = None, outbox: bool = False) -> int:
        """A new game with its first entries, its first deadline and (outbox=True) its
        publishing still to do, in one transaction."""
        now = time.time() if now is None else now
        start = now if deadline is not None else None
        async with self.transaction():
            gid = await self._insert(
                "INSERT INTO games (kind, guild_id, channel_id, thread_id, players, options, seed,"
                " state, version, extra, deadline, deadline_kind, timer_start, due_at, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (kind, guild_id, channel_id, thread_id, jsontext.dumps(players), jsontext.dumps(options),
                 seed, _text(state), len(entries), jsontext.dumps(extra or {}), deadline,
                 deadline_kind, start, due_time(deadline, deadline_kind, False, start), now, now))
            for seat, user in enumerate(players):
                await self._exec("INSERT INTO game_players (game_id, seat, user_id, status,"
                                 " sort_at) VALUES (?, ?, ?, 'active', ?)", (gid, seat, user, now))
            await self._append(gid, 0, entries, now)
            if outbox:
                await self._outbox(gid, len(entries), "start", None, entries, now)
        self._know_kind(gid, kind)
        return gid

    async def _append(self, game_id: int, version: int, entries: Iterable[Entry],
                      now: float) -> int:
        for entry in entries:
            version += 1
            await self._exec(_EVENT_SQL, (game_id, version, entry.actor_text, entry.move, now))
        return version

    async def kind_of(self, game_id: int) -> str | None:
        """The game's kind (None: no such game). A kind never changes, so it is read once: a
        click finds its game's cog without reading the whole row first."""
        kind = self._kinds.get(game_id)
        if kind is None:
            row = await self._one("SELECT kind FROM games WHERE id=?", (game_id,))
            if row is None:
                return None
            kind = self._know_kind(game_id, row[0])
        return kind

    @functools.cached_property
    def _kinds(self) -> Bounded:
        return Bounded(KINDS_KEPT)

    def _know_kind(self, game_id: int, kind: str) -> str:
        """Remember a game's kind, as read or made (its first click then reads nothing)."""
        self._kinds.setdefault(game_id, kind)
        return kind

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?", (game_id,))
        if not row:
            return None
        game = _game(row)
        self._know_kind(game.id, game.kind)
        return game

    async def commit_move(self, game_id: int, seen_version: int, entries: list[Entry],
                          state: dict[str, Any] | str, status: str = "active",
                          deadline: float | None = None, deadline_kind: str | None = None,
                          results: dict[int, str] | None = None, now: float | None = None,
                          *, cause: str | None = None, by: int | None = None,
                          row: GameRow | None = None, standing: Any = None) -> int:
        """Append the entries and write the new state in one transaction; StaleVersion when the
        game is no longer at `seen_version` (compare-and-set: safe with many processes). With
        `cause`, an outbox row for the publishing commits too. `row` (the game as the caller
        read it) saves reading it again for results. With `results` and `standing` (the
        finishing places, bot.ratings.Standing), the players' ratings move in the same
        transaction. Returns the new version."""
        now = time.time() if now is None else now
        new_version = seen_version + len(entries)
        # An unchanged deadline is the same clock: keep its start and its reminder.
        if status != "active" or deadline is None:
            due = "NULL"
        elif deadline_kind != "turn":
            due = "?1"
        else:
            due = ("CASE WHEN deadline IS NOT DISTINCT FROM ?1 THEN (CASE WHEN reminded = 1"
                   " THEN ?1 ELSE COALESCE(timer_start, updated_at) + (?1 - COALESCE("
                   "timer_start, updated_at)) / 2 END) ELSE ?4 + (?1 - ?4) / 2 END")
        update = ("UPDATE games SET"
                  " reminded=CASE WHEN deadline IS NOT DISTINCT FROM ?1 THEN reminded ELSE 0 END,"
                  " timer_start=CASE WHEN deadline IS NOT DISTINCT FROM ?1 THEN timer_start"
                  " ELSE ?4 END,"
                  f" due_at={due},"
                  " state=?5, version=?6, status=?7, deadline=?1, deadline_kind=?2,"
                  " updated_at=?4 WHERE id=?3 AND version=?8 AND status='active'")
        update_args = (deadline, deadline_kind, game_id, now, _text(state), new_version,
                       status, seen_version)
        if status == "active" and not results:
            await self._commit_running_move(update, update_args, [
                (game_id, seen_version + i + 1, e.actor_text, e.move, now)
                for i, e in enumerate(entries)],
                None if cause is None else self._outbox_args(game_id, new_version, cause, by,
                                                             entries, now), game_id)
            return new_version
        async with self.transaction():
            changed = await self._exec(update, update_args)
            if changed != 1:
                raise StaleVersion(game_id)
            await self._append(game_id, seen_version, entries, now)
            if cause is not None:
                await self._outbox(game_id, new_version, cause, by, entries, now)
            if status != "active":
                await self._close_game(game_id, status, now)
            if results:
                if row is None:
                    guild_id, kind = await self._one(
                        "SELECT guild_id, kind FROM games WHERE id=?", (game_id,))
                else:
                    guild_id, kind = row.guild_id, row.kind
                await self._results(game_id, guild_id, kind, results, now)
                if standing is not None:
                    players = row.players if row is not None else jsontext.loads((await self._one(
                        "SELECT players FROM games WHERE id=?", (game_id,)))[0])
                    await self._rate(game_id, guild_id, players, results, standing, now)
        return new_version

    async def _results(self, game_id: int, guild_id: int | None, kind: str,
                       results: dict[int, str], now: float) -> None:
        for user_id, result in results.items():
            await self._exec(
                "INSERT INTO results (game_id, guild_id, kind, user_id, result, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
                (game_id, guild_id, kind, user_id, result, now))
            col = {"win": "wins", "loss": "losses", "draw": "draws"}[result]
            await self._exec(
                "INSERT INTO player_stats (guild_key, kind, user_id, wins, losses, draws)"
                f" VALUES (?, ?, ?, {int(col == 'wins')}, {int(col == 'losses')},"
                f" {int(col == 'draws')}) ON CONFLICT (guild_key, kind, user_id)"
                f" DO UPDATE SET {col} = player_stats.{col} + 1",
                (guild_id or 0, kind, user_id))

    # ---- ratings (bot/ratings.py; docs/ratings.md) ----------------------------------------------
    _RATING_COLS = ("user_id, mu, sigma, games, wins, losses, draws, streak, best_streak,"
                    " best_win, best_win_over, peak")

    async def _rate(self, game_id: int, guild_id: int | None, players: list[int],
                    results: dict[int, str], standing: Any, now: float) -> None:
        """Inside the result's transaction: each scope's ratings of the players move by
        bot.ratings.rate_game (the rows held while they change: FOR UPDATE on PostgreSQL)."""
        from ..ratings import scopes
        users = sorted(set(players))
        for scope in scopes(guild_id):
            # The rows exist before they are held, so two games ending at once for a newcomer
            # wait for each other instead of both starting from nothing.
            await self._exec(
                "INSERT INTO ratings (scope, ladder, user_id, mu, sigma, shown, updated_at)"
                " VALUES " + ", ".join("(?, ?, ?, ?, ?, ?, ?)" for _ in users)
                + " ON CONFLICT (scope, ladder, user_id) DO NOTHING",
                tuple(v for u in users for v in _new_rating(scope, standing.ladder, u, now)))
            before = await self._rating_rows(scope, standing.ladder, users, lock=True)
            await self._apply_rating(game_id, scope, standing, players, results, before, now)

    async def _apply_rating(self, game_id: int, scope: int, standing: Any, players: list[int],
                            results: dict[int, str], before: dict[int, Any],
                            now: float) -> dict[int, Any]:
        from ..ratings import rate_game
        rated = rate_game(game_id, standing, players, results, before)
        await self._write_ratings(scope, standing.ladder, list(rated.after.values()), now)
        await self._write_history(scope, standing.ladder, rated.history, now)
        return rated.after

    async def _rating_rows(self, scope: int, ladder: str, users: list[int],
                           lock: bool = False) -> dict[int, Any]:
        from ..ratings import PlayerRating
        marks = ", ".join("?" * len(users))
        rows = await self._all(
            f"SELECT {self._RATING_COLS} FROM ratings WHERE scope=? AND ladder=? AND user_id IN"
            f" ({marks}) ORDER BY user_id{self.FOR_UPDATE if lock else ''}",
            (scope, ladder, *users))
        return {r[0]: PlayerRating(*r) for r in rows}

    async def _write_ratings(self, scope: int, ladder: str, ratings: list[Any],
                             now: float) -> None:
        if not ratings:
            return
        cols = ("scope, ladder, user_id, mu, sigma, shown, games, wins, losses, draws, streak,"
                " best_streak, best_win, best_win_over, peak, updated_at, ranked")
        sets = ", ".join(f"{c.strip()}=excluded.{c.strip()}" for c in cols.split(",")[3:])
        for chunk in _chunks(ratings, 50):
            await self._exec(
                f"INSERT INTO ratings ({cols}) VALUES "
                + ", ".join("(" + ", ".join("?" * 17) + ")" for _ in chunk)
                + f" ON CONFLICT (scope, ladder, user_id) DO UPDATE SET {sets}",
                tuple(v for r in chunk for v in (
                    scope, ladder, r.user_id, r.mu, r.sigma, r.shown, r.games, r.wins, r.losses,
                    r.draws, r.streak, r.best_streak, r.best_win, r.best_win_over, r.peak, now,
                    int(not r.provisional))))

    async def _write_history(self, scope: int, ladder: str, history: list[tuple],
                             now: float) -> None:
        from ..ratings import shown
        for chunk in _chunks(history, 60):
            await self._exec(
                "INSERT INTO rating_history (game_id, scope, ladder, user_id, result, place,"
                " shown_before, mu, sigma, shown, finished_at) VALUES "
                + ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in chunk)
                + " ON CONFLICT (game_id, scope, user_id) DO NOTHING",
                tuple(v for (gid, uid, result, place, before, mu, sigma, *at) in chunk
                      for v in (gid, scope, ladder, uid, result, place, before, mu, sigma,
                                shown(mu, sigma), at[0] if at else now)))

    async def rating(self, scope: int, ladder: str, user_id: int) -> Any:
        """A player's rating on a ladder (bot.ratings.PlayerRating), or None."""
        return (await self._rating_rows(scope, ladder, [user_id])).get(user_id)

    async def leaderboard(self, scope: int, ladder: str, offset: int = 0,
                          limit: int = 10) -> list[tuple[int, int, int, int]]:
        """(user, shown, games, wins) of the ranked players (5 rated games or more), best
        first, read from the ratings_ranking index."""
        return [tuple(r) for r in await self._all(
            "SELECT user_id, shown, games, wins FROM ratings WHERE scope=? AND ladder=? AND"
            " ranked=1 ORDER BY shown DESC, user_id LIMIT ? OFFSET ?",
            (scope, ladder, limit, offset))]

    async def leaderboard_place(self, scope: int, ladder: str, user_id: int
                                ) -> tuple[int | None, int]:
        """(the player's place, counted from 1, or None when not ranked; how many are
        ranked), each counted in the index."""
        row = await self._one(
            "SELECT shown, ranked, (SELECT COUNT(*) FROM ratings WHERE scope=?1 AND ladder=?2"
            " AND ranked=1) FROM ratings WHERE scope=?1 AND ladder=?2 AND user_id=?3",
            (scope, ladder, user_id))
        if row is None:
            (total,) = await self._one("SELECT COUNT(*) FROM ratings WHERE scope=? AND"
                                       " ladder=? AND ranked=1", (scope, ladder))
            return None, total
        shown_, ranked, total = row
        if not ranked:
            return None, total
        # Those above: a range of the index (a higher number, or the same and a lower id).
        (ahead,) = await self._one(
            "SELECT (SELECT COUNT(*) FROM ratings WHERE scope=?1 AND ladder=?2 AND ranked=1"
            " AND shown > ?3) + (SELECT COUNT(*) FROM ratings WHERE scope=?1 AND ladder=?2"
            " AND ranked=1 AND shown = ?3 AND user_id < ?4)",
            (scope, ladder, shown_, user_id))
        return ahead + 1, total

    async def ratings_of(self, user_id: int, scope: int) -> dict[str, Any]:
        """Ladder -> the player's rating there (ratings_by_user)."""
        from ..ratings import PlayerRating
        rows = await self._all(f"SELECT ladder, {self._RATING_COLS} FROM ratings WHERE"
                               " user_id=? AND scope=? AND games > 0 ORDER BY ladder",
                               (user_id, scope))
        return {r[0]: PlayerRating(*r[1:]) for r in rows}

    async def rating_history(self, user_id: int, scope: int, ladder: str,
                             limit: int = 200) -> list[tuple[int, float, int, str, str, int]]:
        """The player's last `limit` rated games on a ladder, oldest first: (game, finished
        at, shown after, result, the game's options as JSON, shown before)."""
        rows = await self._all(
            "SELECT h.game_id, h.finished_at, h.shown, h.result, g.options, h.shown_before"
            " FROM rating_history h"
            " JOIN games g ON g.id = h.game_id WHERE h.user_id=? AND h.scope=? AND h.ladder=?"
            " ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ?",
            (user_id, scope, ladder, limit))
        return [tuple(r) for r in reversed(rows)]

    async def set_rating_off(self, guild_id: int, kind: str, off: bool) -> None:
        if off:
            await self._exec("INSERT INTO rating_off (guild_id, kind, since) VALUES (?, ?, ?)"
                             " ON CONFLICT (guild_id, kind) DO NOTHING",
                             (guild_id, kind, time.time()))
        else:
            await self._exec("DELETE FROM rating_off WHERE guild_id=? AND kind=?",
                             (guild_id, kind))

    async def rating_off(self, guild_id: int | None, kind: str) -> bool:
        if not guild_id:
            return False
        return await self._one("SELECT 1 FROM rating_off WHERE guild_id=? AND kind=?",
                               (guild_id, kind)) is not None

    async def rated_games(self, guild_id: int | None = None) -> list[tuple]:
        """Every finished game with results, in the order they finished: (id, kind, guild,
        players JSON, options JSON, state JSON, extra JSON, finished at, [(user, result)])."""
        where = "" if guild_id is None else " AND g.guild_id=?"
        rows = await self._all(
            "SELECT g.id, g.kind, g.guild_id, g.players, g.options, g.state, g.extra,"
            " r.finished_at, r.user_id, r.result FROM games g JOIN results r ON"
            f" r.game_id = g.id WHERE g.status='finished'{where}"
            " ORDER BY r.finished_at, g.id", () if guild_id is None else (guild_id,))
        out: dict[int, list] = {}
        for gid, kind, guild, players, options, state, extra, at, uid, result in rows:
            if gid not in out:
                out[gid] = [gid, kind, guild, players, options, state, extra, at, []]
            out[gid][8].append((uid, result))
        return [tuple(v) for v in out.values()]

    async def replace_ratings(self, scopes: list[int] | None, ratings: dict[tuple, Any],
                              history: list[tuple], now: float) -> None:
        """A rebuild: the ratings and history of `scopes` (None: all) replaced, in one
        transaction. ratings: (scope, ladder, user) -> PlayerRating; history: (scope, ladder,
        game, user, result, place, shown before, mu, sigma, finished at)."""
        async with self.transaction():
            if scopes is None:
                await self._exec("DELETE FROM ratings")
                await self._exec("DELETE FROM rating_history")
            else:
                for scope in scopes:
                    await self._exec("DELETE FROM ratings WHERE scope=?", (scope,))
                    await self._exec("DELETE FROM rating_history WHERE scope=?", (scope,))
            by_ladder: dict[tuple, list] = {}
            for (scope, ladder, _), r in ratings.items():
                by_ladder.setdefault((scope, ladder), []).append(r)
            for (scope, ladder), rs in by_ladder.items():
                await self._write_ratings(scope, ladder, rs, now)
            grouped: dict[tuple, list] = {}
            for scope, ladder, *line in history:
                grouped.setdefault((scope, ladder), []).append(tuple(line))
            for (scope, ladder), lines in grouped.items():
                await self._write_history(scope, ladder, lines, now)

    async def replace_seat(self, game_id: int, seat: int, user_id: int,
                           extra: dict[str, Any]) -> GameRow:
        """A running game's seat changes hands (the bot finishes an abandoned seat), with the
        game's notes merged, in one transaction holding the row."""
        async with self.transaction():
            row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?"
                                  f"{self.FOR_UPDATE}", (game_id,))
            game = _game(row)
            game.players[seat] = user_id
            game.extra.update(extra)
            await self._exec("UPDATE games SET players=?, extra=? WHERE id=?",
                             (jsontext.dumps(game.players), jsontext.dumps(game.extra), game_id))
            await self._exec("UPDATE game_players SET user_id=? WHERE game_id=? AND seat=?",
                             (user_id, game_id, seat))
        return game

    # ---- a player's settings ---------------------------------------------------------------------
    async def turn_notice(self, user_id: int) -> str:
        """How the player is told it is their turn: 'ping' (the default), 'dm' or 'none'."""
        row = await self._one("SELECT turn_notice FROM player_prefs WHERE user_id=?",
                              (user_id,))
        return row[0] if row else "ping"

    async def turn_notices(self, user_ids: Iterable[int]) -> dict[int, str]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._all("SELECT user_id, turn_notice FROM player_prefs WHERE user_id IN"
                               f" ({', '.join('?' * len(ids))})", tuple(ids))
        found = {u: n for u, n in rows}
        return {u: found.get(u, "ping") for u in ids}

    async def set_turn_notice(self, user_id: int, notice: str) -> None:
        if notice not in ("ping", "dm", "none"):
            raise ValueError(f"not a way to be told: {notice!r}")
        await self._exec("INSERT INTO player_prefs (user_id, turn_notice, updated_at)"
                         " VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                         " turn_notice=excluded.turn_notice, updated_at=excluded.updated_at",
                         (user_id, notice, time.time()))

    async def _close_game(self, game_id: int, status: str, now: float) -> None:
        """Inside a transaction: the game ended; its players' lists and its record follow."""
        await self._exec("UPDATE game_players SET status=?, sort_at=? WHERE game_id=?",
                         (status, now, game_id))
        await self._pack(game_id)

    async def _pack(self, game_id: int) -> None:
        """Move a game's record rows into one compressed blob on the game (inside a
        transaction)."""
        rows = await self._all("SELECT actor, move FROM events WHERE game_id=? ORDER BY version",
                               (game_id,))
        await self._exec("UPDATE games SET record=? WHERE id=?",
                         (pack_record([(a, m) for a, m in rows]), game_id))
        await self._exec("DELETE FROM events WHERE game_id=?", (game_id,))

    async def set_status(self, game_id: int, status: str, now: float | None = None) -> bool:
        """End a running game (abort); False when it was not running any more."""
        now = time.time() if now is None else now
        async with self.transaction():
            changed = await self._exec(
                "UPDATE games SET status=?, deadline=NULL, due_at=NULL, updated_at=?"
                " WHERE id=? AND status='active'", (status, now, game_id))
            if changed == 1 and status != "active":
                await self._close_game(game_id, status, now)
        return changed == 1

    async def set_deadline(self, game_id: int, deadline: float | None, kind: str | None,
                           now: float | None = None) -> None:
        now = time.time() if now is None else now
        await self._exec("UPDATE games SET deadline=?, deadline_kind=?, reminded=0, timer_start=?,"
                         " due_at=? WHERE id=? AND status='active'",
                         (deadline, kind, now, due_time(deadline, kind, False, now), game_id))

    async def mark_reminded(self, game_id: int, version: int | None = None) -> bool:
        """Compare-and-set: True for the one caller that marked it (and so sends the
        reminder)."""
        sql = ("UPDATE games SET reminded=1, due_at=deadline WHERE id=? AND reminded=0"
               " AND status='active'")
        args: tuple = (game_id,)
        if version is not None:
            sql += " AND version=?"
            args += (version,)
        return await self._exec(sql, args) == 1

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        await self._exec("UPDATE games SET thread_id=? WHERE id=?", (thread_id, game_id))

    async def update_extra(self, game_id: int, **changes: Any) -> dict[str, Any]:
        """Merge keys into the game's Discord-side notes (message ids and the like): one
        statement, atomic on its own (publishing does this after every move, so a
        transaction's four statements were a quarter of a move's). Returns them all."""
        if not changes:
            return await self.extra(game_id)
        rows = await self._all(*self._extra_update(game_id, changes))
        return self._merged(rows[0] if rows else None, changes)

    def _extra_update(self, game_id: int, changes: dict[str, Any]) -> tuple[str, tuple]:
        """The statement merging `changes` into a game's notes, returning them all."""
        for key in changes:
            if not _EXTRA_KEY.fullmatch(key):
                raise ValueError(f"not a key for a game's notes: {key!r}")
        sql, args = self._merge_extra(changes)
        return f"UPDATE games SET extra={sql} WHERE id=? RETURNING extra", args + (game_id,)

    @staticmethod
    def _merged(row: Any, changes: dict[str, Any]) -> dict[str, Any]:
        return jsontext.loads(row[0]) if row else jsontext.copy(changes)

    async def save_published(self, game_id: int, version: int,
                             changes: dict[str, Any]) -> dict[str, Any]:
        """`update_extra(game_id, **changes)` and `published(game_id, version)`: a publish's
        notes and its outbox row's end, written as it finishes (a backend may do both in one
        round trip). Returns the notes."""
        extra = await self.update_extra(game_id, **changes)
        await self.published(game_id, version)
        return extra

    async def extra(self, game_id: int) -> dict[str, Any]:
        row = await self._one("SELECT extra FROM games WHERE id=?", (game_id,))
        return jsontext.loads(row[0]) if row else {}

    async def request_abort(self, game_id: int, user_id: int) -> list[int]:
        """Add `user_id` to the game's abort requests atomically (two players asking at once
        both count); returns everyone who has asked so far."""
        async with self.transaction():
            row = await self._one(f"SELECT extra FROM games WHERE id=?{self.FOR_UPDATE}",
                                  (game_id,))
            extra = jsontext.loads(row[0]) if row else {}
            asked = sorted(set(extra.get("abort_requests", [])) | {user_id})
            extra["abort_requests"] = asked
            await self._exec("UPDATE games SET extra=? WHERE id=?", (jsontext.dumps(extra), game_id))
        return asked

    async def active_games(self) -> list[GameRow]:
        rows = await self._all(f"SELECT {_GAME_COLUMNS} FROM games WHERE status='active'"
                               " ORDER BY id")
        return [_game(r) for r in rows]

    async def active_game_ids(self) -> list[int]:
        """The running games' ids (no state parsed: cheap at boot)."""
        return [r[0] for r in await self._all(
            "SELECT id FROM games WHERE status='active' AND due_at IS NOT NULL")]

    async def games_in_guild(self, guild_id: int | None, status: str = "active",
                             limit: int = 25) -> list[GameRow]:
        # `=` (or IS NULL), not IS NOT DISTINCT FROM: the planner uses games_by_status for it.
        where = "guild_id IS NULL" if guild_id is None else "guild_id=?"
        args = (status,) + (() if guild_id is None else (guild_id,)) + (limit,)
        rows = await self._all(f"SELECT {_GAME_COLUMNS} FROM games WHERE status=? AND {where}"
                               " ORDER BY id DESC LIMIT ?", args)
        return [_game(r) for r in rows]

    async def active_game_in(self, channel_id: int, kind: str) -> GameRow | None:
        """The running game of `kind` played in this channel or thread (games_by_place)."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status='active' AND"
            " COALESCE(thread_id, channel_id)=? AND kind=? ORDER BY id DESC LIMIT 1",
            (channel_id, kind))
        return _game(row) if row else None

    async def latest_game_in(self, channel_id: int, kind: str) -> GameRow | None:
        """The latest game of `kind` played in this channel or thread, running or not
        (games_by_place_any): a finished game's thread still answers for it."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE COALESCE(thread_id, channel_id)=? AND"
            " kind=? ORDER BY id DESC LIMIT 1", (channel_id, kind))
        return _game(row) if row else None

    async def games_of_user(self, user_id: int, status: str = "active",
                            limit: int = 25) -> list[GameRow]:
        """The user's games with this status, latest first (started, or ended). The ids come
        from the game_players index in order, so only `limit` game rows are read."""
        ids = [r[0] for r in await self._all(
            "SELECT game_id FROM game_players WHERE user_id=? AND status=?"
            " ORDER BY sort_at DESC LIMIT ?", (user_id, status, limit))]
        ids = list(dict.fromkeys(ids))  # a player seated twice (tests, practice): listed once
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        rows = {r[0]: r for r in await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN ({marks})", tuple(ids))}
        return [_game(rows[i]) for i in ids if i in rows]

    async def entries(self, game_id: int) -> list[tuple[str, str]]:
        row = await self._one("SELECT record FROM games WHERE id=?", (game_id,))
        if row and row[0] is not None:
            return unpack_record(row[0])
        return [(a, m) for a, m in await self._all(
            "SELECT actor, move FROM events WHERE game_id=? ORDER BY version", (game_id,))]

    async def seat_moves(self, game_id: int, seat: int) -> int:
        """How many record entries this seat has made: the version of a secret panel, which
        the other players' moves must not make stale. One statement: a running game counts
        its event rows, a finished one its packed record."""
        row = await self._one("SELECT record, (SELECT COUNT(*) FROM events WHERE game_id=?1"
                              " AND actor=?2) FROM games WHERE id=?1", (game_id, str(seat + 1)))
        if row is None:
            return 0
        if row[0] is not None:
            return sum(a == str(seat + 1) for a, _ in unpack_record(row[0]))
        return row[1]

    async def moves_by_seat(self, game_id: int) -> tuple[int, dict[int, int]] | None:
        """The game's version and how many record entries each seat has made by then (seat ->
        count; a seat that made none is left out), read together in one statement: the
        versions of every secret panel of the game at once. None when there is no such
        game."""
        rows = await self._all(
            "SELECT g.version, g.record, e.actor, COUNT(e.id) FROM games g LEFT JOIN events e"
            " ON e.game_id = g.id AND e.actor <> 'chance' WHERE g.id=?"
            " GROUP BY g.version, g.record, e.actor", (game_id,))
        if not rows:
            return None
        version, record = rows[0][0], rows[0][1]
        counts: dict[int, int] = {}
        if record is not None:
            for actor, _ in unpack_record(record):
                if actor.isdigit():
                    counts[int(actor) - 1] = counts.get(int(actor) - 1, 0) + 1
            return version, counts
        for _, _, actor, n in rows:
            if actor is not None and actor.isdigit():
                counts[int(actor) - 1] = n
        return version, counts

    async def finished_of_user(self, user_id: int, limit: int = 10) -> list[tuple]:
        return [tuple(r) for r in await self._all(
            "SELECT r.game_id, r.kind, r.result, r.finished_at, g.players FROM results r "
            "JOIN games g ON g.id=r.game_id WHERE r.user_id=? ORDER BY r.finished_at DESC, "
            "r.game_id DESC LIMIT ?", (user_id, limit))]

    async def stats(self, guild_id: int | None, top: int | None = None,
                    user_id: int | None = None) -> list[tuple[str, int, int, int, int]]:
        """(kind, user, wins, losses, draws), by game, most wins first. With `top`: only each
        game's first `top` players (read from the index, however many played) plus `user_id`'s
        own rows."""
        key = guild_id or 0
        if top is None:
            return [tuple(r) for r in await self._all(
                "SELECT kind, user_id, wins, losses, draws FROM player_stats WHERE guild_key=? "
                "ORDER BY kind, wins DESC, losses ASC, user_id", (key,))]
        kinds = [r[0] for r in await self._all(
            "SELECT DISTINCT kind FROM player_stats WHERE guild_key=? ORDER BY kind", (key,))]
        out: list[tuple[str, int, int, int, int]] = []
        for kind in kinds:
            rows = [tuple(r) for r in await self._all(
                "SELECT kind, user_id, wins, losses, draws FROM player_stats WHERE guild_key=?"
                " AND kind=? ORDER BY wins DESC, losses ASC, user_id LIMIT ?", (key, kind, top))]
            if user_id is not None and all(r[1] != user_id for r in rows):
                rows += [tuple(r) for r in await self._all(
                    "SELECT kind, user_id, wins, losses, draws FROM player_stats WHERE"
                    " guild_key=? AND kind=? AND user_id=?", (key, kind, user_id))]
            out += rows
        return out

    # ---- the scheduler's queue -------------------------------------------------------------------
    async def next_due(self) -> float | None:
        """The earliest moment anything needs doing: a deadline, a reminder, a lost publish."""
        (games,) = await self._one("SELECT MIN(due_at) FROM games WHERE due_at IS NOT NULL")
        (outbox,) = await self._one("SELECT MIN(publish_after) FROM outbox")
        (challenge,) = await self._one("SELECT MIN(expires_at) FROM challenges"
                                       " WHERE status='open'")
        times = [t for t in (games, outbox, challenge) if t is not None]
        return min(times) if times else None

    async def claim_due(self, now: float, lease: float, limit: int = 100) -> list[tuple[int, int]]:
        """Games whose due time has come, each claimed by this caller alone: its due_at moves
        `lease` seconds ahead (if this process dies, another takes it over then)."""
        rows = await self._all("SELECT id, version FROM games WHERE due_at <= ? ORDER BY due_at"
                               " LIMIT ?", (now, limit))
        claimed = []
        for gid, version in rows:
            if await self._exec("UPDATE games SET due_at=? WHERE id=? AND version=? AND"
                                " due_at <= ?", (now + lease, gid, version, now)) == 1:
                claimed.append((gid, version))
        return claimed

    async def reschedule(self, game_id: int, version: int) -> None:
        """Put a claimed game back in the queue at its true due time (nothing was due yet)."""
        row = await self._one("SELECT deadline, deadline_kind, reminded, timer_start, updated_at"
                              " FROM games WHERE id=? AND version=? AND status='active'",
                              (game_id, version))
        if row is None:
            return
        deadline, kind, reminded, start, updated = row
        await self._exec("UPDATE games SET due_at=? WHERE id=? AND version=?",
                         (due_time(deadline, kind, bool(reminded),
                                   start if start is not None else updated), game_id, version))

    # ---- outbox ----------------------------------------------------------------------------------
    # A live process publishes within this many seconds; after that any process may.
    OUTBOX_GRACE = 30.0

    async def _outbox(self, game_id: int, version: int, cause: str, by: int | None,
                      entries: Iterable[Entry], now: float) -> None:
        await self._exec(_OUTBOX_SQL, self._outbox_args(game_id, version, cause, by, entries,
                                                        now))

    def _outbox_args(self, game_id: int, version: int, cause: str, by: int | None,
                     entries: Iterable[Entry], now: float) -> tuple:
        return (game_id, version, cause, by, jsontext.dumps(
            [[e.actor if isinstance(e.actor, str) else e.actor, e.move, e.events]
             for e in entries]), now + self.OUTBOX_GRACE, now)

    async def published(self, game_id: int, version: int) -> None:
        """The move at `version` (and anything older) is published."""
        await self._exec(_PUBLISHED_SQL, (game_id, version))

    async def claim_outbox(self, now: float, lease: float = 60.0, limit: int = 50,
                           backoff_cap: float = 1800.0) -> list[OutboxItem]:
        """Publishing that nobody confirmed in time, each claimed by this caller alone. Nothing
        is dropped for failing: each try waits twice as long as the last (`lease`, doubled,
        up to `backoff_cap`), so an outage of any length ends with the board published; only
        publishing it or a newer move of the game retires an item."""
        rows = await self._all("SELECT id, game_id, version, cause, by_user, entries, attempts"
                               " FROM outbox WHERE publish_after <= ? ORDER BY id LIMIT ?",
                               (now, limit))
        out = []
        for oid, gid, version, cause, by, entries, tried in rows:
            wait = min(lease * 2 ** min(tried, 16), backoff_cap)
            if await self._exec("UPDATE outbox SET publish_after=?, attempts=attempts+1"
                                " WHERE id=? AND publish_after <= ?", (now + wait, oid, now)):
                out.append(OutboxItem(oid, gid, version, cause, by,
                                      [Entry(a, m, ev) for a, m, ev in jsontext.loads(entries)],
                                      tried + 1))
        return out

    async def drop_outbox(self, item_id: int) -> None:
        await self._exec("DELETE FROM outbox WHERE id=?", (item_id,))

    # ---- challenges ------------------------------------------------------------------------------
    async def create_challenge(self, kind: str, guild_id: int | None, channel_id: int,
                               host_id: int, invited: list[int], options: dict[str, Any],
                               min_players: int, max_players: int, expires_at: float,
                               note: str | None = None) -> int:
        return await self._insert(
            "INSERT INTO challenges (kind, guild_id, channel_id, host_id, invited, joined,"
            " options, min_players, max_players, expires_at, created_at, note)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, guild_id, channel_id, host_id, jsontext.dumps(invited), jsontext.dumps([host_id]),
             jsontext.dumps(options), min_players, max_players, float(expires_at), time.time(),
             note))

    async def get_challenge(self, cid: int) -> dict[str, Any] | None:
        row = await self._one(f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id=?", (cid,))
        return _challenge(row) if row else None

    async def update_challenge(self, cid: int, **changes: Any) -> None:
        allowed = {c.strip() for c in _CHALLENGE_COLUMNS.split(",")} - {"id"}
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"unknown challenge columns: {sorted(unknown)}")
        cols = ", ".join(f"{k}=?" for k in changes)
        vals = [jsontext.dumps(v) if k in _CHALLENGE_JSON else v for k, v in changes.items()]
        await self._exec(f"UPDATE challenges SET {cols} WHERE id=?", (*vals, cid))

    async def claim_challenge(self, cid: int, from_status: str, to_status: str) -> bool:
        """Move a challenge between states only if nobody else did first (double clicks)."""
        return await self._exec("UPDATE challenges SET status=? WHERE id=? AND status=?",
                                (to_status, cid, from_status)) == 1

    async def join_challenge(self, cid: int, user_id: int, now: float | None = None
                             ) -> tuple[str, dict[str, Any] | None]:
        """Seat `user_id` at an open table, atomically (twenty simultaneous clicks: each is
        stored or refused, none lost). Returns (outcome, the table after it): 'joined',
        'closed', 'already' or 'full'."""
        now = time.time() if now is None else now
        async with self.transaction():
            row = await self._one(f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id=?"
                                  f"{self.FOR_UPDATE}", (cid,))
            ch = _challenge(row) if row else None
            if ch is None or ch["status"] != "open" or ch["expires_at"] <= now:
                return "closed", ch
            if user_id in ch["joined"]:
                return "already", ch
            if len(ch["joined"]) >= ch["max_players"]:
                return "full", ch
            ch["joined"] = ch["joined"] + [user_id]
            await self._exec("UPDATE challenges SET joined=? WHERE id=?",
                             (jsontext.dumps(ch["joined"]), cid))
        return "joined", ch

    async def leave_challenge(self, cid: int, user_id: int, now: float | None = None
                              ) -> tuple[str, dict[str, Any] | None]:
        """Take `user_id` off an open table, atomically: 'left', 'closed', 'host' or 'absent'."""
        now = time.time() if now is None else now
        async with self.transaction():
            row = await self._one(f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id=?"
                                  f"{self.FOR_UPDATE}", (cid,))
            ch = _challenge(row) if row else None
            if ch is None or ch["status"] != "open" or ch["expires_at"] <= now:
                return "closed", ch
            if user_id == ch["host_id"]:
                return "host", ch
            if user_id not in ch["joined"]:
                return "absent", ch
            ch["joined"] = [u for u in ch["joined"] if u != user_id]
            await self._exec("UPDATE challenges SET joined=? WHERE id=?",
                             (jsontext.dumps(ch["joined"]), cid))
        return "left", ch

    async def due_challenges(self, now: float, limit: int = 50) -> list[int]:
        """Open challenges whose time is up (challenges_by_status)."""
        return [r[0] for r in await self._all(
            "SELECT id FROM challenges WHERE status='open' AND expires_at <= ?"
            " ORDER BY expires_at LIMIT ?", (now, limit))]

    async def stuck_challenges(self, before: float, limit: int = 50) -> list[int]:
        """Challenges a process left 'starting' with no game (it died between the claim and
        the game), whose time ended before `before` (challenges_by_status)."""
        return [r[0] for r in await self._all(
            "SELECT id FROM challenges WHERE status='starting' AND game_id IS NULL"
            " AND expires_at <= ? ORDER BY expires_at LIMIT ?", (before, limit))]

    async def open_challenges_of(self, host_id: int, now: float) -> tuple[int, int]:
        """How many open challenges `host_id` has made: (to a named opponent, open tables)."""
        rows = await self._all("SELECT invited FROM challenges WHERE status='open'"
                               " AND expires_at > ? AND host_id=?", (now, host_id))
        tables = sum(1 for (invited,) in rows if not jsontext.loads(invited))
        return len(rows) - tables, tables

    async def purge_challenges(self, before: float) -> int:
        """Delete answered, cancelled and expired challenges whose time ended before
        `before`; how many."""
        return await self._exec(
            "DELETE FROM challenges WHERE status IN ('accepted','declined','cancelled',"
            "'expired') AND expires_at < ?", (before,))

    async def open_challenges(self) -> list[dict[str, Any]]:
        rows = await self._all(f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status='open'"
                               " ORDER BY expires_at")
        return [_challenge(r) for r in rows]

    # ---- votes -----------------------------------------------------------------------------------
    async def vote(self, game_id: int, topic: str, voter_id: int, choice: str) -> bool:
        """Record a vote; False when this member already voted on this topic."""
        return await self._exec(
            "INSERT INTO votes (game_id, topic, voter_id, choice) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, topic, voter_id) DO NOTHING",
            (game_id, topic, voter_id, choice)) == 1

    async def tally(self, game_id: int, topic: str) -> dict[str, int]:
        rows = await self._all("SELECT choice, COUNT(*) FROM votes WHERE game_id=? AND topic=?"
                               " GROUP BY choice", (game_id, topic))
        return {c: n for c, n in rows}

    # ---- cards (TradeShowdown business cards) ----------------------------------------------------
    async def save_card(self, user_id: int, slot: int, name: str, digits: str, zip_code: str):
        await self._exec(
            "INSERT INTO cards (user_id, slot, name, digits, zip, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, slot) DO UPDATE SET"
            " name=excluded.name, digits=excluded.digits, zip=excluded.zip,"
            " updated_at=excluded.updated_at", (user_id, slot, name, digits, zip_code,
                                                time.time()))

    async def cards_of(self, user_id: int) -> list[dict[str, Any]]:
        rows = await self._all("SELECT slot, name, digits, zip FROM cards WHERE user_id=? "
                               "ORDER BY slot", (user_id,))
        return [{"slot": s, "name": n, "digits": d, "zip": z} for s, n, d, z in rows]


def _new_rating(scope: int, ladder: str, user_id: int, now: float) -> tuple:
    from ..ratings import MU, SIGMA, shown
    return (scope, ladder, user_id, MU, SIGMA, shown(MU, SIGMA), now)


def _text(state: dict[str, Any] | str) -> str:
    """A game's state for its column: already encoded (`Game.to_text`, what the table
    passes: one encode per move), or a dict to encode."""
    return state if isinstance(state, str) else jsontext.dumps(state)


def _chunks(items: list, size: int) -> Iterable[list]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


__all__ = ["Store"]
