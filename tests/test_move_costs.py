"""What one move costs the bot (issue #14): statements sent to the database, game-row reads,
and pictures drawn. Counted, never timed (`make bench` times them)."""
from __future__ import annotations

import asyncio
import re

import pytest

from bot.store import Entry, Store
from bot.tables import Tables
from test_store_tables import db_target, never, store  # noqa: F401  (fixtures)


# ---- the store ----------------------------------------------------------------------------------
async def _game(store: Store, extra=None) -> int:
    return await store.create_game("coinflip", 1, 2, None, [111, 222], {}, "seed",
                                   {"x": 1}, extra=extra)


async def test_notes_merge_key_by_key_and_values_are_replaced_whole(store):
    gid = await _game(store, {"turn": {"key": "a", "lines": [1, 2]}, "keep": 5})
    extra = await store.update_extra(gid, turn={"key": "b"}, turn_message=123)
    assert extra == {"turn": {"key": "b"}, "keep": 5, "turn_message": 123}
    assert (await store.get_game(gid)).extra == extra
    extra = await store.update_extra(gid, panels={"0": {"sig": "x"}}, dm_closed=[])
    assert extra["panels"] == {"0": {"sig": "x"}} and extra["dm_closed"] == []
    assert extra["turn"] == {"key": "b"} and extra["keep"] == 5
    assert await store.update_extra(gid) == extra
    # a value may be anything JSON holds, null included
    assert (await store.update_extra(gid, vote=None, text="« d'accord »"))["text"] == \
        "« d'accord »"
    assert (await store.get_game(gid)).extra["vote"] is None


async def test_notes_written_at_once_all_arrive(store):
    gid = await _game(store)
    await asyncio.gather(*(store.update_extra(gid, **{f"k{i}": i}) for i in range(20)))
    extra = (await store.get_game(gid)).extra
    assert all(extra[f"k{i}"] == i for i in range(20))


async def test_notes_of_a_missing_game_and_bad_keys(store):
    assert await store.update_extra(999_999, turn_message=1) == {"turn_message": 1}
    gid = await _game(store)
    with pytest.raises(ValueError):
        await store.update_extra(gid, **{'x"); DROP TABLE games; --': 1})
    assert (await store.get_game(gid)) is not None


async def test_a_seats_moves_are_counted_while_running_and_after_the_end(store):
    gid = await _game(store)
    entries = [Entry(0, "a"), Entry("chance", "roll 3"), Entry(1, "b"), Entry(0, "c")]
    await store.commit_move(gid, 0, entries, {"x": 2})
    assert [await store.seat_moves(gid, s) for s in (0, 1, 2)] == [2, 1, 0]
    assert await store.moves_by_seat(gid) == (4, {0: 2, 1: 1})  # every seat in one read
    await store.commit_move(gid, 4, [Entry(1, "d")], {"x": 3}, status="finished",
                            results={111: "win", 222: "loss"})
    assert [await store.seat_moves(gid, s) for s in (0, 1, 2)] == [2, 2, 0]
    assert await store.moves_by_seat(gid) == (5, {0: 2, 1: 2})  # from the packed record
    assert await store.seat_moves(999_999, 0) == 0
    assert await store.moves_by_seat(999_999) is None
    fresh = await _game(store)
    assert await store.moves_by_seat(fresh) == (0, {})


# ---- one move through the table ------------------------------------------------------------------
class Counted:
    """Every statement the SQLite connection runs (its trace: also those sent together)."""

    def __init__(self):
        self.sql: list[str] = []

    def __call__(self, sql: str) -> None:
        self.sql.append(re.sub(r"\s+", " ", sql).strip())


async def test_a_move_reads_the_game_row_once(tmp_path):
    from bot.engine import register
    from coinflip import CoinFlip
    register(CoinFlip)
    store = await Store.open(tmp_path / "m.db")
    tables = Tables(store, sleep=never)
    try:
        played = await tables.create("coinflip", [111, 222])
        counted = Counted()
        await store.set_trace_callback(counted)
        seat = next(a for a in played.game.actors() if a != "chance")
        move = played.game.legal(seat)[0]
        await tables.play(played.row.id, played.row.players[seat], move)
        # The one scheduler may wake for the new deadline: its look at the queue is not the
        # move's.
        sql = [s for s in counted.sql if not s.startswith("SELECT MIN(")]
        reads = [s for s in sql if s.startswith("SELECT id, kind,")]
        assert len(reads) == 1, reads
        # read; BEGIN, UPDATE, an event per entry, outbox, COMMIT; published
        entries = sum(s.startswith("INSERT INTO events") for s in sql)
        assert entries >= 1 and len(sql) == 6 + entries, sql
        assert sql[1] == "BEGIN IMMEDIATE" and sql[-2] == "COMMIT", sql
    finally:
        await tables.close()
        await store.close()


async def test_panel_versions_are_worked_out_from_the_commits(tmp_path):
    """A secret panel's version (`p<n>`: its seat's moves) at the version a panel shows is
    known from the table's own commits: no statement for it after the game's start, and the
    same count the database holds. A table that did not see the moves reads them once."""
    from bot.engine import register
    from coinflip import CoinFlip
    register(CoinFlip)
    store = await Store.open(tmp_path / "p.db")
    tables = Tables(store, sleep=never)
    other = Tables(store, sleep=never)  # another process sharing the database
    try:
        played = await tables.create("coinflip", [111, 222])
        gid = played.row.id
        counted = Counted()
        await store.set_trace_callback(counted)
        moved = 0
        for _ in range(3):
            row, game = played.row, played.game
            if game.outcome() is not None:
                break
            assert [await tables.panel_version(gid, s, row.version) for s in (0, 1)] == [
                f"p{await store.seat_moves(gid, s)}" for s in (0, 1)]
            seat = next(a for a in game.actors() if a != "chance")
            played = await tables.play(gid, row.players[seat], game.legal(seat)[0],
                                       version=f"p{await store.seat_moves(gid, seat)}")
            moved += 1
        # (the comparison's own counts are the old statement, `COUNT(*)`)
        assert moved and not [s for s in counted.sql if "COUNT(e.id)" in s], counted.sql
        counted.sql.clear()
        row = played.row
        assert [await other.panel_version(gid, s, row.version) for s in (0, 1)] == [
            f"p{await store.seat_moves(gid, s)}" for s in (0, 1)]
        assert sum("COUNT(e.id)" in s for s in counted.sql) == 1, counted.sql
    finally:
        await tables.close()
        await other.close()
        await store.close()


async def test_publishing_builds_each_view_once(tmp_path):
    """The listener may ask for a view as often as it likes while the move is published; it
    is built once per seat, and the game is itself again afterwards."""
    from bot.engine import register
    from coinflip import CoinFlip
    register(CoinFlip)
    built: list = []
    real = CoinFlip.view

    def counted(self, player):
        built.append(player)
        return real(self, player)

    asked: list = []

    class Listener:
        async def publish(self, played):
            for seat in (None, 0, None, 1, 0, None):
                asked.append(played.game.view(seat) == real(played.game, seat))
            played.game.text(None)

    store = await Store.open(tmp_path / "v.db")
    tables = Tables(store, sleep=never)
    tables.listeners["coinflip"] = Listener()
    try:
        CoinFlip.view = counted
        played = await tables.create("coinflip", [111, 222])
        assert sorted(built, key=str) == [0, 1, None] and asked == [True] * 6
        assert not {"view", "legal", "_legal", "menu"} & set(vars(played.game))
        played.game.view(None)
        assert len(built) == 4  # outside publishing: built when asked
    finally:
        CoinFlip.view = real
        await tables.close()
        await store.close()


async def test_a_statement_never_joins_another_tasks_open_transaction(tmp_path):
    """Statements skip the connection's turn when nobody holds it; while a transaction is
    open they still wait for it, so a transaction rolled back never takes them along."""
    store = await Store.open(tmp_path / "t.db")
    try:
        gid = await _game(store)
        inside, release = asyncio.Event(), asyncio.Event()

        class Undo(Exception):
            pass

        async def rolled_back():
            with pytest.raises(Undo):
                async with store.transaction():
                    await store._exec("UPDATE games SET thread_id=5 WHERE id=?", (gid,))
                    inside.set()
                    await release.wait()
                    raise Undo

        task = asyncio.create_task(rolled_back())
        await inside.wait()
        other = asyncio.create_task(store.update_extra(gid, seen=1))
        await asyncio.sleep(0.05)
        assert not other.done()  # waits for the open transaction
        release.set()
        await task
        assert (await other)["seen"] == 1
        row = await store.get_game(gid)
        assert row.extra["seen"] == 1 and row.thread_id is None
        # and with nobody holding the turn, many at once all land
        await asyncio.gather(*(store.update_extra(gid, **{f"n{i}": i}) for i in range(10)),
                             *(store.get_game(gid) for _ in range(10)))
        extra = (await store.get_game(gid)).extra
        assert all(extra[f"n{i}"] == i for i in range(10))
    finally:
        await store.close()


async def test_a_game_the_caller_already_read_is_not_read_again(tmp_path):
    from bot.engine import register
    from coinflip import CoinFlip
    register(CoinFlip)
    store = await Store.open(tmp_path / "s.db")
    tables = Tables(store, sleep=never)
    try:
        played = await tables.create("coinflip", [111, 222])
        gid = played.row.id
        counted = Counted()
        await store.set_trace_callback(counted)
        seen = await tables.load(gid)
        seat = next(a for a in seen[1].actors() if a != "chance")
        counted.sql.clear()
        first = await tables.play(gid, seen[0].players[seat], seen[1].legal(seat)[0], seen=seen)
        assert not [s for s in counted.sql if s.startswith("SELECT id, kind,")]
        # a look that the game has moved on since: the commit refuses it, a fresh read wins
        stale = await tables.load(gid)
        stale[0].version -= 1
        seat = next(a for a in first.game.actors() if a != "chance")
        counted.sql.clear()
        second = await tables.play(gid, first.row.players[seat],
                                   first.game.legal(seat)[0], seen=stale)
        assert second.row.version > first.row.version
        assert len([s for s in counted.sql if s.startswith("SELECT id, kind,")]) == 1
    finally:
        await tables.close()
        await store.close()
