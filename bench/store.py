"""Storage at scale (issues #14 and #15): a store holding 100k finished games and 10k open ones,
generated quickly by direct inserts from real self-played games (not by playing 100k games).

Keys:
- `store.bytes_per_finished_game`: file growth per finished game (rows, record blob, indexes);
- `store.max_query_ms_at_100k`: the slowest median of every per-request query (the /games
  queries, the thread's game, the move's row read, the scheduler's queue), with
  `store.query_ms.<name>` for each;
- `boot.seconds_with_10k_open`: open the store and resume the tables (median of 3);
- `store.leaderboard_ms_at_100k`, `store.profile_ms_at_100k`: every store call of /games
  leaderboard and /games profile, with 100k rated finished games and 10k rated players;
- `store.<backend>.commits_per_s` and `store.<backend>.move_ms_p50/p99` for SQLite and
  PostgreSQL (TEST_DATABASE_URL, a fresh schema; None when no server answers).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bot.engine import KINDS, load
from bot.engine.core import CHANCE
from bot.engine.records import selfplay
from bot.store import Entry, Store, pack_record

FINISHED = 100_000
OPEN = 10_000
USERS = 5_000
GUILDS = 100
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


def _templates() -> list[tuple[str, int, dict, bytes, list[tuple[str, str]]]]:
    """Real finished games of every kind and player count: (kind, players, final state,
    packed record, entries)."""
    out = []
    for kind in KINDS:
        cls = load(kind)
        for players in sorted({cls.MIN_PLAYERS, min(cls.MAX_PLAYERS, 4)}):
            for seed in range(3):
                try:
                    rec, game = selfplay(kind, seed, players=players)
                except Exception:
                    continue
                entries = [(str(e["actor"]), e["move"]) for e in rec.entries]
                out.append((kind, players, game.to_json(), pack_record(entries), entries))
    return out


def _fill(path: Path, templates, open_games: int = OPEN,
          finished: int = FINISHED) -> tuple[float, dict[str, Any]]:
    """Insert `open_games` running games, then `finished` finished ones; bytes per finished game
    and the ids the queries use."""
    OPEN, FINISHED = open_games, finished  # noqa: N806 - the module's sizes, overridden
    rng = random.Random(1)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    now = time.time()
    games, players_rows, events = [], [], []
    for i in range(OPEN):
        kind, n, state, _, entries = templates[i % len(templates)]
        gid = i + 1
        users = rng.sample(range(1, USERS + 1), n)
        half = entries[: len(entries) // 2]
        deadline = now + rng.uniform(600, 7200)
        games.append((gid, kind, gid % GUILDS + 1, 5000 + gid % GUILDS, 10_000_000 + gid,
                      json.dumps(users), "{}", "seed", json.dumps(state), len(half), "active",
                      deadline, "turn", 0, "{}", now, now, now, (now + deadline) / 2, None))
        players_rows += [(gid, s, u, "active", now) for s, u in enumerate(users)]
        events += [(gid, v, a, m, now) for v, (a, m) in enumerate(half, 1)]
    cols = ("id, kind, guild_id, channel_id, thread_id, players, options, seed, state, version,"
            " status, deadline, deadline_kind, reminded, extra, created_at, updated_at,"
            " timer_start, due_at, record")
    marks = ", ".join("?" * 20)
    if games:
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO games ({cols}) VALUES ({marks})", games)
        conn.executemany("INSERT INTO game_players VALUES (?, ?, ?, ?, ?)", players_rows)
        conn.executemany("INSERT INTO events (game_id, version, actor, move, created_at)"
                         " VALUES (?, ?, ?, ?, ?)", events)
        conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = path.stat().st_size
    heavy = 1  # one very active player: in 2% of all games
    for start in range(0, FINISHED, 10_000):
        games, players_rows, results = [], [], []
        for i in range(start, min(FINISHED, start + 10_000)):
            kind, n, state, blob, entries = templates[i % len(templates)]
            gid = OPEN + i + 1
            users = rng.sample(range(2, USERS + 1), n)
            if i % 50 == 0:
                users[0] = heavy
            guild = gid % GUILDS + 1
            t = now - (FINISHED - i) * 60
            games.append((gid, kind, guild, 5000 + guild, 10_000_000 + gid, json.dumps(users),
                          "{}", "seed", json.dumps(state), len(entries), "finished", None, None,
                          0, "{}", t - 3600, t, t, None, blob))
            players_rows += [(gid, s, u, "finished", t) for s, u in enumerate(users)]
            winner = (state.get("state", {}).get("result") or {}).get("winners") or []
            results += [(gid, guild, kind, u, "win" if s in winner else "loss", t)
                        for s, u in enumerate(users)]
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO games ({cols}) VALUES ({marks})", games)
        conn.executemany("INSERT INTO game_players VALUES (?, ?, ?, ?, ?)", players_rows)
        conn.executemany("INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?)", results)
        conn.execute("COMMIT")
    conn.execute("INSERT INTO player_stats SELECT COALESCE(guild_id, 0), kind, user_id,"
                 " SUM(result = 'win'), SUM(result = 'loss'), SUM(result = 'draw')"
                 " FROM results GROUP BY 1, 2, 3")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    after = path.stat().st_size
    conn.execute("ANALYZE")
    conn.close()
    return (after - before) / max(1, FINISHED), {"heavy": heavy, "finished": OPEN + FINISHED // 2,
                                         "open": OPEN // 2}


RATED_PLAYERS = 10_000


def _fill_ratings(path: Path, templates) -> None:
    """Ratings as 100k rated finished games leave them: every finished game's two to four
    players (of RATED_PLAYERS) with a history line per scope (its server, global), and each
    player's row per scope and ladder, numbers drawn as the model spreads them."""
    from bot.ratings import shown
    rng = random.Random(5)
    conn = sqlite3.connect(path, isolation_level=None)
    rows: dict[tuple[int, str, int], list] = {}
    history = []
    now = time.time()
    for i in range(FINISHED):
        kind, n, _, _, _ = templates[i % len(templates)]
        gid = OPEN + i + 1
        guild = gid % GUILDS + 1
        t = now - (FINISHED - i) * 60
        for place, uid in enumerate(rng.sample(range(1, RATED_PLAYERS + 1), n), 1):
            for scope in (guild, 0):
                r = rows.setdefault((scope, kind, uid), [25.0, 25 / 3, 0, 0])
                r[0] += rng.uniform(-1.5, 1.6)
                r[1] = max(1.2, r[1] * 0.93)
                r[2] += 1
                r[3] += place == 1
                history.append((gid, scope, kind, uid, "win" if place == 1 else "loss", place,
                                shown(25.0, 25 / 3), r[0], r[1], shown(r[0], r[1]), t))
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO ratings (scope, ladder, user_id, mu, sigma, shown, games, wins, losses,"
        " updated_at, ranked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(s, k, u, mu, sg, shown(mu, sg), g, w, g - w, now, int(g >= 5))
         for (s, k, u), (mu, sg, g, w) in rows.items()])
    conn.executemany("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     history)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def _rating_queries(path: Path) -> dict[str, float]:
    """What /games leaderboard and /games profile ask the store (bot/profile.py), in full."""
    from bot.profile import leaderboard_message, profile_data
    store = await Store.open(path)
    rng = random.Random(6)
    kinds = sorted(KINDS)
    try:
        async def board(i: int) -> None:
            scope = 0 if i % 2 else rng.randint(1, GUILDS)
            await leaderboard_message(store, scope or None, kinds[i % len(kinds)],
                                      "global" if not scope else "server", rng.randint(0, 50),
                                      rng.randint(1, RATED_PLAYERS))

        async def profile(i: int) -> None:
            await profile_data(store, rng.randint(1, RATED_PLAYERS),
                               0 if i % 2 else rng.randint(1, GUILDS))
        return {"leaderboard": await _time(board), "profile": await _time(profile)}
    finally:
        await store.close()


async def _time(fn, rounds: int = 50) -> float:
    await fn(0)
    times = []
    for i in range(rounds):
        t0 = time.perf_counter()
        await fn(i)
        times.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(times), 3)


async def _queries(path: Path, ids: dict[str, Any]) -> dict[str, float]:
    store = await Store.open(path)
    rng = random.Random(2)
    users = [rng.randint(2, USERS) for _ in range(64)]
    try:
        row = await store.get_game(ids["open"])
        queries = {
            "move_row": lambda i: store.get_game(rng.randint(1, OPEN)),
            "thread_game": lambda i: store.active_game_in(10_000_000 + rng.randint(1, OPEN),
                                                          row.kind),
            "my_games": lambda i: store.games_of_user(users[i % 64]),
            "my_finished_games": lambda i: store.games_of_user(users[i % 64], "finished"),
            "heavy_player_finished": lambda i: store.games_of_user(ids["heavy"], "finished"),
            "games_here": lambda i: store.games_in_guild(rng.randint(1, GUILDS)),
            "history": lambda i: store.finished_of_user(users[i % 64]),
            "heavy_history": lambda i: store.finished_of_user(ids["heavy"]),
            "stats": lambda i: store.stats(rng.randint(1, GUILDS), top=10, user_id=users[i % 64]),
            "stats_all_rows": lambda i: store.stats(rng.randint(1, GUILDS)),
            "export_entries": lambda i: store.entries(OPEN + rng.randint(1, FINISHED)),
            "open_challenges": lambda i: store.open_challenges(),
            "seat_moves": lambda i: store.seat_moves(rng.randint(1, OPEN), 0),
            "next_due": lambda i: store.next_due(),
            "claim_due": lambda i: store.claim_due(time.time(), 60),
        }
        return {name: await _time(fn) for name, fn in queries.items()}
    finally:
        await store.close()


async def _boot(path: Path) -> float:
    from bot.tables import Tables
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        store = await Store.open(path)
        tables = Tables(store)
        await tables.resume()
        runs.append(time.perf_counter() - t0)
        await tables.close()
        await store.close()
    return round(statistics.median(runs), 3)


async def scale() -> dict[str, Any]:
    templates = _templates()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scale.db"
        store = await Store.open(path)
        await store.close()
        per_game, ids = _fill(path, templates)
        times = await _queries(path, ids)
        boot = await _boot(path)
        _fill_ratings(path, templates)
        rated = await _rating_queries(path)
    out: dict[str, Any] = {"store.bytes_per_finished_game": round(per_game),
                           # stats_all_rows: every player of a server, what /games stats asks
                           # for until it passes top= (kept apart: not a per-request query then)
                           "store.max_query_ms_at_100k": max(
                               v for k, v in times.items() if k != "stats_all_rows"),
                           "boot.seconds_with_10k_open": boot}
    out.update({f"store.query_ms.{k}": v for k, v in times.items()})
    # /games leaderboard and /games profile, every store call each makes (issue #25: <= 5 ms
    # at 100k rated finished games and 10k rated players).
    out["store.leaderboard_ms_at_100k"] = rated["leaderboard"]
    out["store.profile_ms_at_100k"] = rated["profile"]
    return out


async def _pg_target() -> tuple[str, str] | None:
    try:
        import asyncpg
        conn = await asyncpg.connect(PG_URL, timeout=3)
    except Exception:
        return None
    schema = f"referee_bench_{uuid.uuid4().hex[:10]}"
    await conn.execute(f"CREATE SCHEMA {schema}")
    await conn.close()
    return f"{PG_URL}{'&' if '?' in PG_URL else '?'}search_path={schema}", schema


async def _rates(target: str, commits: int = 500, moves: int = 300) -> dict[str, float]:
    """Commits per second (one move per transaction, back to back) and a move's latency through
    the table (read the row, apply, commit with its outbox row, mark it published)."""
    from bot.tables import Tables
    store = await Store.open(target)
    try:
        state = load("slideslam").new(2).to_json()
        gid = await store.create_game("slideslam", 1, 2, 3, [10, 20], {}, "seed", state)
        t0 = time.perf_counter()
        for v in range(commits):
            await store.commit_move(gid, v, [Entry(0, "bench")], state)
        rate = commits / (time.perf_counter() - t0)
        tables = Tables(store)
        rng = random.Random(3)
        times: list[float] = []
        game_id, game = None, None
        while len(times) < moves:
            if game is None or game.outcome() is not None:
                played = await tables.create("slideslam", [1, 2], {"first_player": "random"})
                game_id, game = played.row.id, played.game
            seat = next(a for a in game.actors() if a != CHANCE)
            move = rng.choice(sorted(game.legal(seat)))
            t0 = time.perf_counter()
            played = await tables.play(game_id, None, move, actor=seat)
            times.append((time.perf_counter() - t0) * 1000)
            game = played.game
        await tables.close()
        times.sort()
        return {"commits_per_s": round(rate, 1),
                "move_ms_p50": round(statistics.median(times), 2),
                "move_ms_p99": round(times[int(0.99 * (len(times) - 1))], 2)}
    finally:
        await store.close()


async def backends() -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k, v in (await _rates(str(Path(tmp) / "rates.db"))).items():
            out[f"store.sqlite.{k}"] = v
    pg = await _pg_target()
    if pg is None:
        for k in ("commits_per_s", "move_ms_p50", "move_ms_p99"):
            out[f"store.postgresql.{k}"] = None
        return out
    url, schema = pg
    try:
        for k, v in (await _rates(url)).items():
            out[f"store.postgresql.{k}"] = v
    finally:
        import asyncpg
        conn = await asyncpg.connect(PG_URL)
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()
    return out


def keyed() -> dict[str, Any]:
    out = asyncio.run(scale())
    out.update(asyncio.run(backends()))
    return out


def merge(found: dict[str, Any]) -> Path:
    """Write these keys into bench/results.json (nested as `make bench` does), leaving every
    other figure in it alone: `python -m bench.store` refreshes the storage rows alone."""
    from bench.__main__ import ROOT, nest
    out = ROOT / "bench" / "results.json"
    data = json.loads(out.read_text()) if out.exists() else {}

    def deep(into: dict, new: dict) -> None:
        for k, v in new.items():
            if isinstance(v, dict) and isinstance(into.get(k), dict):
                deep(into[k], v)
            else:
                into[k] = v
    deep(data, nest(found))
    out.write_text(json.dumps(data, indent=1) + "\n")
    return out


if __name__ == "__main__":
    found = keyed()
    for key, value in found.items():
        print(f"{key:40} {value}")
    print(f"written to {merge(found)}")
