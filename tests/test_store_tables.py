"""The store and the table: transactions, versions, seeded chance, timers and resume — on both
backends (a real SQLite file; a real PostgreSQL server, a fresh schema per test), with the
test-only Coin Flip game.

PostgreSQL comes from TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test).
When no server answers, its half of the suite is skipped with the reason printed, except under
CI=true, where an unreachable server fails the run."""
from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys
import uuid

import pytest

from bot.engine import register
from bot.engine.core import IllegalMoveError, NotYourTurnError, RuleError
from bot.engine.records import Record, replay
from bot.store import SCHEMA_VERSION, Entry, StaleVersion, Store, statements
from bot.tables import NotAPlayer, StaleMove, Tables
from coinflip import CoinFlip

register(CoinFlip)
ALICE, BOB = 111, 222


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


async def never(_seconds: float) -> None:
    """Timers in these tests are driven by tick(), not by sleeping."""
    await asyncio.Event().wait()


PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
_pg_reason: list[str | None] = []


async def pg_unavailable() -> str | None:
    """Why PostgreSQL tests cannot run here (None: they can). Asked once per run."""
    if not _pg_reason:
        try:
            import asyncpg
        except ImportError:
            _pg_reason.append("asyncpg is not installed")
        else:
            try:
                conn = await asyncpg.connect(PG_URL, timeout=3)
                await conn.close()
                _pg_reason.append(None)
            except Exception as e:  # refused, unknown host, auth: all mean "no server for us"
                _pg_reason.append(f"no PostgreSQL at {PG_URL} ({type(e).__name__}: {e})")
    return _pg_reason[0]


def with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def pg_schema() -> str:
    """A fresh schema (dropped by drop_schema): each test starts from an empty database."""
    reason = await pg_unavailable()
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and {reason}")
        print(f"skipping a PostgreSQL test: {reason}", file=sys.stderr)
        pytest.skip(reason)
    import asyncpg
    schema = f"referee_test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(PG_URL)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema


async def drop_schema(schema: str) -> None:
    import asyncpg
    conn = await asyncpg.connect(PG_URL)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_target(request, db_path):
    """Where a store opens: a SQLite file, or a PostgreSQL URL with its own schema."""
    if request.param == "sqlite":
        yield str(db_path)
        return
    schema = await pg_schema()
    try:
        yield with_schema(PG_URL, schema)
    finally:
        await drop_schema(schema)


@pytest.fixture
async def store(db_target):
    s = await Store.open(db_target)
    yield s
    await s.close()


def integrity_errors() -> tuple[type[BaseException], ...]:
    errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
    try:
        import asyncpg
        errors += (asyncpg.IntegrityConstraintViolationError,)
    except ImportError:
        pass
    return errors


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def tables(store, clock):
    t = Tables(store, turn_timer=100, clock=clock, sleep=never)
    yield t
    await t.close()


async def test_schema_is_migrated_in_wal_mode(store, db_target):
    assert await store.schema_version() == SCHEMA_VERSION
    if store.backend == "sqlite":
        assert (await store._one("PRAGMA journal_mode"))[0] == "wal"
        tables = {r[0] for r in await store._all(
            "SELECT name FROM sqlite_master WHERE type='table'")}
    else:
        tables = {r[0] for r in await store._all(
            "SELECT table_name FROM information_schema.tables WHERE table_schema="
            "current_schema()")}
    assert {"games", "events", "results", "challenges", "votes", "cards", "meta",
            "game_players", "player_stats", "outbox"} <= tables
    # re-opening runs no migration twice
    again = await Store.open(db_target)
    assert await again.migrate() == SCHEMA_VERSION
    await again.close()


def test_migration_statements_are_whole():
    from bot.store import MIGRATIONS
    for script in MIGRATIONS:
        if callable(script):
            continue  # a Python step (packing finished games' records)
        for st in statements(script):
            assert sqlite3.complete_statement(st)
    with pytest.raises(ValueError):
        statements("CREATE TABLE x (a INT")


def test_the_schema_is_written_once_for_both_databases():
    from bot.store.schema import MIGRATIONS, PG_MIGRATIONS, SOURCE
    assert len(MIGRATIONS) == len(PG_MIGRATIONS) == len(SOURCE) == SCHEMA_VERSION
    for lite, pg in zip(MIGRATIONS, PG_MIGRATIONS):
        if callable(lite):
            assert lite is pg
            continue
        assert "/*" not in lite + pg  # every dialect-only clause resolved
        assert "BYTEA" not in lite and "DOUBLE PRECISION" not in lite and "BIGINT" not in lite
        assert "AUTOINCREMENT" not in pg and "json_each" not in pg and " BLOB" not in pg


async def test_a_move_and_its_entries_commit_together_or_not_at_all(tables, store):
    played = await tables.create("coinflip", [ALICE, BOB])
    gid = played.row.id
    before = await store.get_game(gid)
    # A failure in the middle of the commit (the second entry collides with an existing
    # version): nothing of the move may remain.
    await store._exec("INSERT INTO events (game_id, version, actor, move, created_at) "
                      "VALUES (?, ?, '1', 'x', 0)", (gid, before.version + 2))
    with pytest.raises(integrity_errors()):
        await store.commit_move(gid, before.version, [Entry(0, "call heads"), Entry(1, "b")],
                                {"broken": True})
    after = await store.get_game(gid)
    assert after.state == before.state and after.version == before.version
    assert await store.entries(gid) == [("1", "x")]


async def test_stale_version_is_refused(tables, store):
    played = await tables.create("coinflip", [ALICE, BOB])
    gid, v = played.row.id, played.row.version
    await tables.play(gid, ALICE, "call heads", version=v)
    with pytest.raises(StaleMove):
        await tables.play(gid, BOB, "call tails", version=v)
    with pytest.raises(StaleVersion):
        await store.commit_move(gid, v, [], {"x": 1})


async def test_concurrent_double_click_applies_once(tables, store):
    played = await tables.create("coinflip", [ALICE, BOB])
    gid, v = played.row.id, played.row.version
    results = await asyncio.gather(tables.play(gid, ALICE, "call heads", version=v),
                                   tables.play(gid, ALICE, "call heads", version=v),
                                   return_exceptions=True)
    assert sum(isinstance(r, StaleMove) for r in results) == 1
    assert [a for a, _ in await store.entries(gid)] == ["1"]


async def test_not_a_player_and_rule_errors_leave_the_game_alone(tables, store):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    with pytest.raises(NotAPlayer):
        await tables.play(gid, 999, "call heads")
    await tables.play(gid, ALICE, "call heads")
    with pytest.raises(NotYourTurnError):
        await tables.play(gid, ALICE, "call tails")
    row = await store.get_game(gid)
    assert row.version == 1 and row.state["state"]["calls"] == ["heads", None]


async def test_a_seats_moves_together_stand_all_or_none(tables, store):
    """A form's answer: several moves of one seat in one commit. None, a clock's move among
    them, or one the rules refuse: nothing is applied."""
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    with pytest.raises(RuleError, match="No move was made"):
        await tables.play(gid, ALICE, ())
    with pytest.raises(RuleError, match="referee's clock"):
        await tables.play(gid, ALICE, ("call heads", "timeout"))
    with pytest.raises(NotYourTurnError):   # the second call is refused: the first goes too
        await tables.play(gid, ALICE, ("call heads", "call tails"))
    row = await store.get_game(gid)
    assert row.version == 0 and row.state["state"]["calls"] == [None, None]
    assert await store.entries(gid) == []


async def test_chance_is_rolled_from_the_secret_seed_and_recorded(tables, store):
    gid = (await tables.create("coinflip", [ALICE, BOB], {"target": 1})).row.id
    await tables.play(gid, ALICE, "call heads")
    played = await tables.play(gid, BOB, "call tails")
    entries = await store.entries(gid)
    assert entries[-1][0] == "chance" and entries[-1][1] in ("roll heads", "roll tails")
    assert played.finished and played.row.status == "finished"
    row = await store.get_game(gid)
    assert len(row.seed) == 32  # 128 bits from `secrets`
    # the record replays to the same state
    record = Record("coinflip", row.options, ["Player 1", "Player 2"], None,
                    [{"actor": a if a == "chance" else int(a), "move": m} for a, m in entries])
    assert replay(record).to_json() == row.state
    # results are written for stats
    res = await store._all("SELECT user_id, result FROM results WHERE game_id=?", (gid,))
    assert sorted(r for _, r in res) in (["loss", "win"], ["draw", "draw"])


async def test_reminder_then_timeout_move(tables, store, clock):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    row = await store.get_game(gid)
    assert row.deadline == clock.t + 100 and row.deadline_kind == "turn"
    assert await tables.tick(gid) == "waiting"
    clock.t += 51
    assert await tables.tick(gid) == "reminded"
    assert await tables.tick(gid) == "waiting"  # reminded once only
    clock.t += 50
    assert await tables.tick(gid) == "done"
    entries = await store.entries(gid)
    # both idle players got their timeout move (`call heads`), then the coin was flipped
    assert entries[:2] == [("1", "call heads"), ("2", "call heads")]
    assert entries[2][0] == "chance"


async def test_a_simultaneous_step_keeps_one_clock(tables, store, clock):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    deadline = (await store.get_game(gid)).deadline
    clock.t += 60
    assert await tables.tick(gid) == "reminded"
    await tables.play(gid, ALICE, "call heads")  # Bob still has to call: same step
    row = await store.get_game(gid)
    assert row.deadline == deadline and row.reminded  # same clock, no second reminder
    assert await tables.tick(gid) == "waiting"
    await tables.play(gid, BOB, "call tails")    # the coin is flipped: a new round, a new clock
    assert (await store.get_game(gid)).deadline == clock.t + 100


async def test_idle_player_without_a_timeout_move_forfeits(tables, store, clock, monkeypatch):
    monkeypatch.setattr(CoinFlip, "timeout_move", lambda self, seat: None)
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    await tables.play(gid, ALICE, "call heads")
    clock.t += 101
    await tables.tick(gid)
    row = await store.get_game(gid)
    assert row.status == "finished"
    assert row.state["state"]["result"]["winners"] == [0]
    assert (await store.entries(gid))[-1] == ("2", "timeout")


async def test_resume_after_restart_rearms_timers(db_target, clock):
    store = await Store.open(db_target)
    t1 = Tables(store, turn_timer=100, clock=clock, sleep=never)
    gid = (await t1.create("coinflip", [ALICE, BOB])).row.id
    await t1.close()
    await store.close()
    # a new process on the same file
    store2 = await Store.open(db_target)
    t2 = Tables(store2, turn_timer=100, clock=clock, sleep=never)
    assert await t2.resume() == 1 and t2.armed() == {gid}
    clock.t += 101
    await t2.tick(gid)
    assert len(await store2.entries(gid)) >= 2
    await t2.close()
    await store2.close()


async def test_abort_stops_the_game_and_its_timer(tables, store):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    await tables.abort(gid)
    assert (await store.get_game(gid)).status == "aborted" and gid not in tables.armed()
    with pytest.raises(IllegalMoveError):
        await tables.play(gid, ALICE, "call heads")


async def test_stats_and_history_queries(tables, store):
    for _ in range(2):
        gid = (await tables.create("coinflip", [ALICE, BOB], guild_id=5)).row.id
        await tables.resign(gid, BOB)
    stats = await store.stats(5)
    assert ("coinflip", ALICE, 2, 0, 0) in [tuple(r) for r in stats]
    history = await store.finished_of_user(BOB)
    assert len(history) == 2 and all(r[2] == "loss" for r in history)
    assert await store.games_of_user(ALICE) == []


async def test_votes_one_per_member(tables, store):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    assert await store.vote(gid, "v0", 5, "1") is True
    assert await store.vote(gid, "v0", 5, "2") is False
    await store.vote(gid, "v0", 6, "2")
    await store.vote(gid, "v0", 7, "2")
    assert await store.tally(gid, "v0") == {"1": 1, "2": 2}
    assert json.loads(json.dumps(await store.tally(gid, "v1"))) == {}


async def test_abort_requests_made_at_once_all_count(tables, store):
    """Issue #11.4: `/games abort` by every player at the same moment: each request is added
    in one atomic step, so the last answer names everyone."""
    players = list(range(1, 11))
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    answers = await asyncio.gather(*(store.request_abort(gid, u) for u in players))
    assert max(answers, key=len) == players
    assert (await store.get_game(gid)).extra["abort_requests"] == players


async def test_join_and_leave_are_atomic(store):
    cid = await store.create_challenge("coinflip", 1, 2, ALICE, [], {}, 2, 6, 2e9)
    outcomes = await asyncio.gather(*(store.join_challenge(cid, u) for u in range(1, 11)))
    assert sorted(o for o, _ in outcomes) == ["full"] * 5 + ["joined"] * 5
    ch = await store.get_challenge(cid)
    assert len(ch["joined"]) == 6 and len(set(ch["joined"])) == 6
    joined = [u for u in ch["joined"] if u != ALICE]
    outcomes = await asyncio.gather(*(store.leave_challenge(cid, u) for u in joined + [ALICE]))
    assert sorted(o for o, _ in outcomes) == ["host"] + ["left"] * 5
    assert (await store.get_challenge(cid))["joined"] == [ALICE]
    assert (await store.join_challenge(cid, ALICE))[0] == "already"
    await store.claim_challenge(cid, "open", "cancelled")
    assert (await store.join_challenge(cid, BOB))[0] == "closed"


class Recorder:
    """A listener that notes what it published, reminded and counted."""

    def __init__(self, vote: int | None = None):
        self.vote = vote
        self.log: list[tuple] = []

    async def publish(self, played):
        self.log.append(("publish", played.row.version, played.cause, played.replayed,
                         played.row.deadline_kind))

    async def remind(self, row, game):
        self.log.append(("remind", row.version))

    def vote_seconds(self, row, game, chance):
        return self.vote

    async def vote_result(self, row, game, rng):
        self.log.append(("count", row.version))
        return "roll heads"


async def test_a_crash_between_commit_and_publish_is_repaired_after_restart(db_target, clock):
    """Issue #11.8: the move commits with its outbox row; the process dies before publishing.
    After a restart the move is published (once), and the crowd vote it opened is posted and
    then counted when due."""
    store = await Store.open(db_target)
    t1 = Tables(store, turn_timer=100, clock=clock, sleep=never)
    gid = (await t1.create("coinflip", [ALICE, BOB])).row.id
    await t1.play(gid, ALICE, "call heads")

    class Crash(BaseException):
        pass

    async def crash(played):
        raise Crash  # the process stops between the commit and the publish

    dying = Recorder(vote=300)
    dying.publish = crash
    t1.listeners["coinflip"] = dying
    with pytest.raises(Crash):
        await t1.play(gid, BOB, "call tails")
    await t1.close()
    await store.close()

    store2 = await Store.open(db_target)
    t2 = Tables(store2, turn_timer=100, clock=clock, sleep=never)
    seen = Recorder(vote=300)
    t2.listeners["coinflip"] = seen
    clock.t += store2.OUTBOX_GRACE + 1
    await t2.resume()
    row = await store2.get_game(gid)
    assert row.version == 2 and row.deadline_kind == "vote"  # the commit stood
    assert seen.log == [("publish", 2, "move", True, "vote")]  # published again: vote posted
    await t2.run_due()
    assert seen.log == [("publish", 2, "move", True, "vote")]  # and only once
    clock.t = row.deadline + 1
    await t2.run_due()
    assert ("count", 2) in seen.log  # the due vote was counted
    assert (await store2.entries(gid))[-1] == ("chance", "roll heads")
    await t2.close()
    await store2.close()


async def test_a_published_move_leaves_no_outbox_row(tables, store, clock):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    await tables.play(gid, ALICE, "call heads")
    assert await store._all("SELECT id FROM outbox") == []
    clock.t += 1000
    assert await store.claim_outbox(clock()) == []


async def test_a_publish_stores_its_notes_and_ends_its_outbox_row_in_one_write(tables, store):
    """`save_published`: the notes merged as `update_extra` merges them, and the outbox rows
    of that version and older gone; a newer version's row stays."""
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    row = await store.get_game(gid)
    await store.update_extra(gid, kept=1, turn={"a": 1})
    await store.commit_move(gid, row.version, [Entry(1, "call heads", [])], row.state,
                            cause="move", by=ALICE)
    await store.commit_move(gid, row.version + 1, [Entry(2, "call tails", [])], row.state,
                            cause="move", by=BOB)
    assert len(await store._all("SELECT id FROM outbox WHERE game_id=?", (gid,))) == 2
    extra = await store.save_published(gid, row.version + 1, {"turn": {"b": 2}, "new": [3]})
    assert extra == {"kept": 1, "turn": {"b": 2}, "new": [3]} == await store.extra(gid)
    left = await store._all("SELECT version FROM outbox WHERE game_id=?", (gid,))
    assert [v for (v,) in left] == [row.version + 2]
    with pytest.raises(ValueError):
        await store.save_published(gid, row.version + 2, {"bad key": 1})
    assert len(await store._all("SELECT id FROM outbox WHERE game_id=?", (gid,))) == 1


async def test_one_read_of_the_game_row_per_move(tables, store, monkeypatch):
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    reads = []
    original = store.get_game

    async def counting(game_id):
        reads.append(game_id)
        return await original(game_id)

    monkeypatch.setattr(store, "get_game", counting)
    played = await tables.play(gid, ALICE, "call heads")
    assert reads == [gid]
    assert played.row == await original(gid)  # the row passed along is the committed one


async def test_the_scheduler_fires_due_timers_by_itself(db_target):
    """One scheduler task per process, sleeping until the earliest due time."""
    store = await Store.open(db_target)
    now = [1_000_000.0]
    woke = asyncio.Event()

    async def sleep(seconds):
        now[0] += seconds  # time passes exactly as long as the scheduler asked to sleep
        woke.set()
        await asyncio.sleep(0)

    tables = Tables(store, turn_timer=100, clock=lambda: now[0], sleep=sleep)
    seen = Recorder()
    tables.listeners["coinflip"] = seen
    gid = (await tables.create("coinflip", [ALICE, BOB])).row.id
    for _ in range(2000):  # the scheduler runs on its own; give it time on a busy machine
        if any(e[0] == "publish" and e[2] == "timeout" for e in seen.log):
            break
        await asyncio.sleep(0.005)
    assert ("remind", 0) in seen.log
    assert [e[2] for e in seen.log if e[0] == "publish"][:2] == ["start", "timeout"]
    timers = [t for t in asyncio.all_tasks() if t.get_name().startswith("referee-")]
    assert [t.get_name() for t in timers] == ["referee-scheduler"]  # one task, not one per game
    await tables.close()
    await store.close()


async def test_stats_top_players_per_game_and_the_callers_own_row(store):
    for user, wins in ((1, 5), (2, 3), (3, 1), (4, 0)):
        for n in range(wins):
            gid = await store.create_game("coinflip", 9, 1, 2, [user, 99], {}, "s", {})
            await store.commit_move(gid, 0, [], {}, "finished", results={user: "win", 99: "loss"})
    everyone = await store.stats(9)
    assert [r[1] for r in everyone] == [1, 2, 3, 99]  # most wins first; 99 lost all nine
    assert [r[1] for r in await store.stats(9, top=2)] == [1, 2]
    assert [r[1] for r in await store.stats(9, top=2, user_id=99)] == [1, 2, 99]
    assert (await store.stats(9, top=2, user_id=99))[-1] == ("coinflip", 99, 0, 9, 0)


def trips_to_the_database_thread(store) -> list[str]:
    """The calls made to the SQLite store's database thread from now on (public aiosqlite
    API), listed by name."""
    trips: list[str] = []
    for name in ("execute", "execute_fetchall", "executemany"):
        real = getattr(store.db, name)

        def counted(*args, _real=real, _name=name, **kw):
            trips.append(_name)
            return _real(*args, **kw)
        setattr(store.db, name, counted)
    return trips


async def test_a_running_games_move_is_one_trip_to_the_sqlite_thread(tmp_path):
    """BEGIN, the compare-and-set UPDATE, the entries, the outbox row and COMMIT go to the
    database thread as one call (through public aiosqlite and sqlite3 API); a stale move is
    one call too, and leaves nothing behind."""
    store = await Store.open(tmp_path / "trip.db")
    store._here.close()
    store._here = None  # the database thread's path (the loop's own: the next test)
    try:
        gid = await store.create_game("coinflip", None, 1, None, [ALICE, BOB], {}, "s", {})
        trips = trips_to_the_database_thread(store)
        version = await store.commit_move(gid, 0, [Entry(0, "a"), Entry(1, "b")], {"n": 2},
                                          cause="move")
        assert version == 2 and len(trips) == 1
        with pytest.raises(StaleVersion):
            await store.commit_move(gid, 0, [Entry(0, "c")], {"n": 3}, cause="move")
        assert len(trips) == 2
        assert await store.entries(gid) == [("1", "a"), ("2", "b")]
        assert len(await store._all("SELECT id FROM outbox WHERE game_id=?", (gid,))) == 1
        # inside a transaction the caller holds, the move is part of it (rolled back with it)
        with pytest.raises(ZeroDivisionError):
            async with store.transaction():
                await store.commit_move(gid, 2, [Entry(0, "d")], {"n": 3})
                1 / 0
        assert (await store.get_game(gid)).version == 2
    finally:
        await store.close()


async def test_a_move_commits_in_the_loops_thread_unless_the_database_is_busy(tmp_path):
    """A move's commit, its publish's notes and a game's read run on the event loop's own
    connection, no trip to the database thread; while another connection (another process)
    writes, they go to the database thread, which waits for it, and commit once."""
    import sqlite3
    store = await Store.open(tmp_path / "here.db")
    try:
        gid = await store.create_game("coinflip", None, 1, None, [ALICE, BOB], {}, "s", {})
        trips = trips_to_the_database_thread(store)
        version = await store.commit_move(gid, 0, [Entry(0, "a")], {"n": 1}, cause="move")
        extra = await store.save_published(gid, version, {"turn": 1})
        row = await store.get_game(gid)
        assert trips == [] and row.version == 1 and extra == {"turn": 1} == row.extra
        other = sqlite3.connect(tmp_path / "here.db", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process writing
        commit = asyncio.ensure_future(store.commit_move(gid, 1, [Entry(1, "b")], {"n": 2},
                                                         cause="move"))
        await asyncio.sleep(0.05)
        assert not commit.done() and trips  # sent to the database thread, which waits
        other.execute("COMMIT")
        other.close()
        assert await commit == 2
        assert await store.entries(gid) == [("1", "a"), ("2", "b")]
        assert len(await store._all("SELECT id FROM outbox WHERE game_id=?", (gid,))) == 1
    finally:
        await store.close()


async def test_the_loops_connection_leaves_checkpoints_to_the_database_thread(tmp_path,
                                                                              monkeypatch):
    """The event loop's own connection never checkpoints (a checkpoint syncs the file); after
    CHECKPOINT_EVERY of its commits the database thread does."""
    import bot.store.sqlite as sqlite_store
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 3)
    store = await Store.open(tmp_path / "ckpt.db")
    try:
        assert store._here.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        sent: list[str] = []
        real = store._exec

        async def spy(sql, *args):
            sent.append(sql)
            return await real(sql, *args)
        monkeypatch.setattr(store, "_exec", spy)
        gid = await store.create_game("coinflip", None, 1, None, [ALICE, BOB], {}, "s", {})
        for v in range(6):
            await store.commit_move(gid, v, [Entry(0, f"m{v}")], {"n": v}, cause="move")
            await asyncio.sleep(0.01)  # (one at a time: none is sent while one is running)
        assert sent.count("PRAGMA wal_checkpoint(PASSIVE)") == 2
    finally:
        await store.close()
