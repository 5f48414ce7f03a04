"""Issue #14.2 and #15.4: an existing database (made by schema 3, the one shipped before this
change) is converted without losing a game, and `python -m bot migrate --to postgresql://...`
copies a SQLite database into PostgreSQL and says what it copied."""
from __future__ import annotations

import asyncio
import json
import sqlite3

from bot.__main__ import main
from bot.engine.records import Record, replay, selfplay
from bot.store import MIGRATIONS, Store, statements
from bot.tables import Tables
from test_store_tables import PG_URL, Clock, drop_schema, never, pg_schema, with_schema

OLD_SCHEMA = 3


def old_database(path, finished: int = 3) -> dict:
    """A database as the previous bot left it: schema 3, a row (and a JSON list of events) per
    record entry. Holds finished Slide and Slam games, one running game with a deadline, a
    result per player, a card and an open challenge."""
    conn = sqlite3.connect(path, isolation_level=None)
    # One transaction for the whole fixture: a commit per row made this test wait on the disk
    # for most of its time (the conversion under test runs on the file as it is left).
    conn.execute("BEGIN")
    for number in range(OLD_SCHEMA):
        for st in statements(MIGRATIONS[number]):
            conn.execute(st)
    conn.execute(f"PRAGMA user_version={OLD_SCHEMA}")
    made = {"finished": {}, "running": None}

    def add(kind, players, record, game, status, deadline=None):
        cur = conn.execute(
            "INSERT INTO games (kind, guild_id, channel_id, thread_id, players, options, seed,"
            " state, version, status, deadline, deadline_kind, extra, created_at, updated_at,"
            " timer_start) VALUES (?, 7, 8, ?, ?, ?, 'seed', ?, ?, ?, ?, ?, '{}', 100, 200, ?)",
            (kind, 900 + len(made["finished"]), json.dumps(players), json.dumps(record.options),
             json.dumps(game.to_json()), len(record.entries), status, deadline,
             "turn" if deadline else None, 150 if deadline else None))
        gid = cur.lastrowid
        for v, e in enumerate(record.entries, 1):
            actor = str(e["actor"])  # records count seats from 1, as the store does
            conn.execute("INSERT INTO events (game_id, version, actor, move, events, created_at)"
                         " VALUES (?, ?, ?, ?, ?, 150)", (gid, v, actor, e["move"],
                                                          json.dumps([{"text": "x" * 200}])))
        return gid

    for seed in range(finished):
        record, game = selfplay("slideslam", seed)
        players = [10 + seed, 20 + seed]
        gid = add("slideslam", players, record, game, "finished")
        for seat, uid in enumerate(players):
            res = "win" if seat in game.outcome().winners else "loss"
            conn.execute("INSERT INTO results VALUES (?, 7, 'slideslam', ?, ?, 300)",
                         (gid, uid, res))
        made["finished"][gid] = (record, game)
    record, game = selfplay("slideslam", 99)
    half = Record(record.kind, record.options, record.players, None,
                  record.entries[: len(record.entries) // 2])
    running = replay(half)
    made["running"] = (add("slideslam", [1, 2], half, running, "active", deadline=5e9), half)
    conn.execute("INSERT INTO cards VALUES (1, 0, 'Ace', '123', '00000', 1)")
    conn.execute("INSERT INTO challenges (kind, guild_id, channel_id, host_id, invited, joined,"
                 " options, min_players, max_players, expires_at, created_at) VALUES"
                 " ('coinflip', 7, 8, 1, '[]', '[1]', '{}', 2, 4, 5e9, 1)")
    conn.execute("COMMIT")
    conn.close()
    return made


async def test_an_old_database_converts_without_losing_a_game(tmp_path):
    path = tmp_path / "old.db"
    made = old_database(path, finished=5)
    before = path.stat().st_size
    store = await Store.open(path)
    try:
        for gid, (record, game) in made["finished"].items():
            entries = await store.entries(gid)
            assert [m for _, m in entries] == [e["move"] for e in record.entries]
            row = await store.get_game(gid)
            assert row.state == game.to_json() and row.status == "finished"
            rebuilt = Record("slideslam", row.options, record.players, None,
                             [{"actor": a if a == "chance" else int(a), "move": m}
                              for a, m in entries])
            assert replay(rebuilt).to_json() == row.state
        # the record rows of finished games are packed; "my games", history and stats answer
        (rows,) = await store._one("SELECT COUNT(*) FROM events WHERE game_id IN (%s)" % ",".join(
            str(g) for g in made["finished"]))
        assert rows == 0
        assert len(await store.games_of_user(10, status="finished")) == 1
        assert len(await store.finished_of_user(10)) == 1
        assert sum(w + l for _, _, w, l, _ in await store.stats(7)) == 10
        assert len(await store.open_challenges()) == 1 and await store.cards_of(1)
        # the running game goes on, with its timer
        gid, half = made["running"]
        tables = Tables(store, clock=Clock(1000.0), sleep=never)
        assert await tables.resume() == 1 and tables.armed() == {gid}
        row, game = await tables.load(gid)
        seat = next(a for a in game.actors() if a != "chance")
        played = await tables.play(gid, None, sorted(game.legal(seat))[0], actor=seat)
        assert played.row.version > len(half.entries)
        assert (await store.games_of_user(1))[0].id == gid
        await tables.close()
    finally:
        await store.close()
    assert path.stat().st_size < before  # the per-move events are gone, and their space


def test_python_m_bot_migrate_copies_sqlite_into_postgresql(tmp_path, capsys):
    schema = asyncio.run(pg_schema())
    url = with_schema(PG_URL, schema)
    path = tmp_path / "referee.db"

    async def fill():
        store = await Store.open(path)
        tables = Tables(store, clock=Clock(), sleep=never)
        from bot.engine import register
        from coinflip import CoinFlip
        register(CoinFlip)
        done = (await tables.create("coinflip", [1, 2], guild_id=7)).row.id
        await tables.resign(done, 2)
        running = (await tables.create("coinflip", [1, 3], guild_id=7)).row.id
        await tables.play(running, 1, "call heads")
        await store.save_card(1, 0, "Ace", "123", "00000")
        await store.create_challenge("coinflip", 7, 8, 1, [], {}, 2, 4, 5e9)
        await store.set_rating_off(7, "slideslam", True)
        await store.set_turn_notice(3, "dm")
        await tables.close()
        await store.close()
        return done, running

    try:
        done, running = asyncio.run(fill())
        assert main(["migrate", "--from", str(path), "--to", url]) == 0
        out = capsys.readouterr().out
        assert "games" in out and "open timers" in out and "cards" in out

        async def check():
            src, dst = await Store.open(path), await Store.open(url)
            try:
                for gid in (done, running):
                    assert await dst.get_game(gid) == await src.get_game(gid)
                    assert await dst.entries(gid) == await src.entries(gid)
                assert await dst.stats(7) == await src.stats(7)
                assert await dst.cards_of(1) == await src.cards_of(1)
                # ratings, their history and the players' and servers' settings come along
                assert await dst.ratings_of(1, 7) == await src.ratings_of(1, 7) != {}
                assert await dst.rating_history(1, 7, "coinflip") == await src.rating_history(
                    1, 7, "coinflip")
                assert await dst.rating_off(7, "slideslam") and await dst.turn_notice(3) == "dm"
                assert await dst.active_game_ids() == [running]
                assert len(await dst.open_challenges()) == 1
                # new rows continue after the copied ids
                new = await dst.create_game("coinflip", 7, 8, 9, [5, 6], {}, "s", {})
                assert new > running
            finally:
                await src.close()
                await dst.close()
        asyncio.run(check())
        # a second copy into the same database is refused: nothing mixes
        assert main(["migrate", "--from", str(path), "--to", url]) == 2
        assert "already holds" in capsys.readouterr().err
    finally:
        asyncio.run(drop_schema(schema))
