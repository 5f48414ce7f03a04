"""Issue #23 item 3: a global 429 is survivable. With Discord's global rate limit hit again and
again (429, ``"global": true``, ``X-RateLimit-Global``) while people play by clicks, no move is
lost or applied twice, every board catches up, and the log holds one line per global throttle,
not two per request.

discord.py's own REST client runs for real here (tests/fake_session.py): it sleeps out each
429, holds every request back on a global one, retries, and gives up after 5 tries; only the
bytes on the wire are fake. Interaction replies are not throttled (Discord does not bind them to
the global limit)."""
from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter

import discord
import pytest

from bot.logs import GLOBAL_HIT, RATE_LIMITED, GlobalThrottleLog, collapse_global_throttle_lines
from clicker import Clicker
from conftest import World, boot
from fake_session import FakeSession
from table_play import SHORT, play_table

QUIET = 0.05   # the filter's quiet time in these tests (the bot's default is 0.25 s)
BEGAN = "global rate limit was hit"
OVER = "global rate limit is over"


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def texts(self, level: int = logging.INFO) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= level]


@pytest.fixture
def http_log():
    """discord.http at INFO (the bot's floor for it) with the bot's throttle filter on it."""
    logger = logging.getLogger("discord.http")
    saved_level, saved_filters = logger.level, list(logger.filters)
    logger.filters[:] = [f for f in logger.filters if not isinstance(f, GlobalThrottleLog)]
    throttle_log = GlobalThrottleLog(quiet=QUIET)
    logger.addFilter(throttle_log)
    lines = Lines()
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    try:
        yield throttle_log, lines
    finally:
        logger.removeHandler(lines)
        logger.filters[:] = saved_filters
        logger.setLevel(saved_level)


async def throttle_over(throttle_log: GlobalThrottleLog, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while throttle_log.throttling:
        assert loop.time() < end, "the throttle's end was never logged"
        await asyncio.sleep(0.01)


# ---- the log ------------------------------------------------------------------------------------

async def test_the_log_collapses_a_global_throttle_into_one_line():
    """discord.py's two warnings per 429'd request (fed here as it logs them) become one
    WARNING when a global throttle begins and one INFO when it is over; a route's own 429
    keeps its line."""
    logger = logging.getLogger("test.global429.http")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    throttle_log = GlobalThrottleLog(quiet=QUIET, logger=logger.name)
    logger.addFilter(throttle_log)
    lines = Lines()
    logger.addHandler(lines)

    def global_429(i: int) -> None:   # what HTTPClient.request logs, back to back
        logger.warning(RATE_LIMITED, "POST", f"https://discord.com/api/v10/channels/{i}/messages", 0.05)
        logger.debug("Rate limit is being handled by bucket hash %s with %r major parameters", None, "")
        logger.warning(GLOBAL_HIT, 0.05)

    try:
        for throttle in range(2):
            for i in range(12):   # twelve requests meet the same throttle
                global_429(i)
                await asyncio.sleep(0.005)
            await throttle_over(throttle_log)
        logger.warning(RATE_LIMITED, "PATCH", "https://discord.com/api/v10/channels/7/messages/8", 0.3)
        await asyncio.sleep(0)   # held for one turn of the loop (a global line would follow)
        await asyncio.sleep(0)
    finally:
        logger.removeHandler(lines)
        logger.removeFilter(throttle_log)
        logger.propagate = True
    warnings = lines.texts(logging.WARNING)
    assert [w for w in warnings if BEGAN in w] == [
        "Discord's global rate limit was hit: every request waits (retry after 0.05 s); its "
        "further 429s are not logged one by one"] * 2
    over = [t for t in lines.texts(logging.INFO) if OVER in t]
    assert len(over) == 2 and all("(12 answers 429)" in t for t in over), over
    # no per-request line of a global 429 is left; the route's own 429 is told as discord.py tells it
    assert [w for w in warnings if "We are being rate limited" in w] == [
        "We are being rate limited. PATCH https://discord.com/api/v10/channels/7/messages/8 "
        "responded with 429. Retrying in 0.30 seconds."]
    assert len(warnings) == 3 and throttle_log.throttles == 2


def test_the_bots_logging_installs_the_filter_once():
    import io

    from bot.logs import QUIET as QUIET_LOGGERS, configure
    root, http = logging.getLogger(), logging.getLogger("discord.http")
    saved_handlers, saved_level = list(root.handlers), root.level
    saved_filters = list(http.filters)
    saved_levels = {n: logging.getLogger(n).level for n in QUIET_LOGGERS}
    try:
        configure("INFO", stream=io.StringIO())
        configure("INFO", stream=io.StringIO())
        assert sum(isinstance(f, GlobalThrottleLog) for f in http.filters) == 1
        assert collapse_global_throttle_lines() in http.filters
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        http.filters[:] = saved_filters
        for n, level in saved_levels.items():
            logging.getLogger(n).setLevel(level)


async def test_requests_in_flight_through_a_global_429_each_arrive_once(fake, http_log):
    """Twenty messages sent at once meet a global throttle: discord.py's real client waits it
    out; each message is posted exactly once, and the log says one line, not forty."""
    throttle_log, lines = http_log
    world = World(fake)
    session = FakeSession.install(fake)
    channel = fake.bot.get_channel(world.games.id)
    session.throttle(seconds=0.15)
    sent = await asyncio.gather(*(channel.send(f"message {i}") for i in range(20)))
    await throttle_over(throttle_log)
    texts = [m.content for m in fake.messages_in(world.games)]
    assert sorted(texts) == sorted(f"message {i}" for i in range(20))
    assert len({m.id for m in sent}) == 20
    assert len(session.answered_429) >= 1 and session.served >= 20
    began = [t for t in lines.texts(logging.WARNING) if BEGAN in t]
    assert len(began) == 1, lines.texts()
    assert lines.texts(logging.WARNING) == began   # no per-request lines
    assert [t for t in lines.texts() if OVER in t] == [
        t for t in lines.texts() if OVER in t and f"({len(session.answered_429)} answers 429)" in t]


async def test_discord_py_giving_up_on_a_long_throttle_is_a_429_error_the_bot_can_retry(fake, http_log):
    """Past 5 tries discord.py raises HTTPException(429): the bot's retrying() and the outbox
    count on that (a 429 is retried, not taken as a refusal)."""
    world = World(fake)
    session = FakeSession.install(fake)
    channel = fake.bot.get_channel(world.games.id)
    session.throttle(requests=5, retry_after=0.01)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("lost?")
    assert info.value.status == 429
    assert fake.messages_in(world.games) == []   # nothing was posted
    assert (await channel.send("again")).content == "again"


# ---- whole games by clicks ------------------------------------------------------------------------

def readable(fake, world, messages) -> list[str]:
    """What the messages show, each person's mention as their name and times as <t:…> (runs
    differ in ids, and in when they started)."""
    names = {str(u.id): u.name for u in fake.users.values()}
    out = []
    for m in messages:
        text = m.text()
        text = re.sub(r"<@!?(\d+)>", lambda h: f"@{names.get(h.group(1), '?')}", text)
        out.append(re.sub(r"<t:\d+(:\w)?>", "<t:…>", text))
    return out


async def played(fake, world, kind: str, seed: int, session=None, throttle_log=None,
                 harsh: bool = False):
    """A whole game by clicks (tests/table_play.py). With a `session`, global throttles come one
    after another, alternately for a time (0.12 s from the request that hits it) and for a number
    of requests (4; or 16 when `harsh`: more than discord.py's 5 tries, and than the bot's own
    3 tries of those, so the move's publishing fails and the outbox must carry it); one is
    armed until a REST request meets it, and over (its end logged) before the next is armed.
    Most of a click's answer goes through the interaction webhook, which the limit spares: the
    bot's REST (new turn messages, DM panels) is what meets it."""
    real_play = Clicker.play

    async def play(self, row, game, seat, move, others):
        if session is not None and not session.throttling:
            if session.windows % 2:
                session.throttle(seconds=0.12, from_next_request=True)
            else:
                session.throttle(requests=16 if harsh else 4, retry_after=0.01 if harsh else 0.05)
        result = await real_play(self, row, game, seat, move, others)
        if session is not None and session.window_hit:
            await session.wait_window_out()
            session.stop_throttle()
            await fake.settle()
            await throttle_over(throttle_log)
        return result

    Clicker.play = play
    try:
        count = await play_table(fake, world, kind, seed=seed, options=SHORT.get(kind))
    finally:
        Clicker.play = real_play
    if session is not None:
        session.stop_throttle()
        await throttle_over(throttle_log)
    return count


async def clean_run(tmp_path, kind: str, seed: int):
    """The same game with no throttle: its count and where it ends (to compare with)."""
    fake = await boot(tmp_path / "clean.db")
    try:
        world = World(fake)
        count = await played(fake, world, kind, seed)
        return count, await final(fake, world, 1)
    finally:
        await fake.stop()


async def final(fake, world, game_id: int) -> dict:
    store = fake.bot.store
    row = await store.get_game(game_id)
    thread = fake.messages_in(row.thread_id)
    return {"version": row.version, "status": row.status, "state": row.state,
            "entries": await store.entries(game_id),
            "outbox": await store._all("SELECT id FROM outbox WHERE game_id=?", (game_id,)),
            "thread": readable(fake, world, thread),
            "dms": {u.name: readable(fake, world, fake.dms_to(u))[-1:]
                    for u in (world.alice, world.bob) if fake.dms_to(u)}}


@pytest.mark.parametrize("kind,seed", [("slideslam", 5), ("deathbydice", 5)])
async def test_a_game_by_clicks_through_global_throttles_ends_as_a_clean_one(
        tmp_path, http_log, kind, seed):
    throttle_log, lines = http_log
    clean, expected = await clean_run(tmp_path, kind, seed)

    throttled = await boot(tmp_path / "throttled.db")
    try:
        tworld = World(throttled)
        session = FakeSession.install(throttled)
        count = await played(throttled, tworld, kind, seed, session, throttle_log)
        got = await final(throttled, tworld, 1)
    finally:
        await throttled.stop()
    print(kind, {"moves": count.moves, "windows": session.windows,
                 "answered_429": len(session.answered_429), "served": session.served,
                 "throttles_logged": throttle_log.throttles})
    assert count.finished and clean.finished
    # Every move applied once, in the same order, to the same end: the record is the clean run's.
    assert got["entries"] == expected["entries"] and got["version"] == expected["version"]
    assert got["state"] == expected["state"] and got["status"] == "finished"
    # Every board caught up: the thread (and each DM panel) shows what the clean run shows,
    # message for message, and nothing is owed.
    assert got["thread"] == expected["thread"]
    assert got["dms"] == expected["dms"]
    assert got["outbox"] == []
    # Throttles met: at least 2 (the bot's REST is a few requests a game), each request waited once per window at most (4 < 5 tries).
    hit = {t.window for t in session.answered_429}
    assert len(hit) >= 2 and len(session.answered_429) >= len(hit)
    # One line per throttle, none per request.
    began = [t for t in lines.texts(logging.WARNING) if BEGAN in t]
    assert len(began) == len(hit) == throttle_log.throttles, lines.texts()
    assert len([t for t in lines.texts() if OVER in t]) == len(hit)
    assert not [t for t in lines.texts() if "We are being rate limited" in t
                or t.startswith("Global rate limit has been hit")]


PINGS = re.compile(r"^((<@\d+>|@\w+)\s+)+")


async def test_a_throttle_longer_than_every_retry_leaves_the_move_to_the_outbox(
        tmp_path, http_log, caplog):
    """16 global 429s in a row: discord.py gives up after 5 tries, the bot's retrying() after 3
    of those, so a board or a panel does not get out with its move. The move stands (applied
    once), the outbox row stays, and its sweep, once the throttle is gone, brings the board to
    where a clean run ends; no story line is told twice."""
    throttle_log, lines = http_log
    # the bot's own tries wait up to 0.1 s between them: the throttle is over after 0.25 s (the
    # bot's default), not 0.05 s, or each try of a window would count as a throttle
    throttle_log.quiet = 0.25
    kind, seed = "deathbydice", 5
    _, expected = await clean_run(tmp_path, kind, seed)
    throttled = await boot(tmp_path / "throttled.db")
    try:
        tworld = World(throttled)
        session = FakeSession.install(throttled)
        with caplog.at_level(logging.WARNING, logger="bot.tables"):
            count = await played(throttled, tworld, kind, seed, session, throttle_log, harsh=True)
        tables = throttled.bot.tables
        owed = len(await throttled.bot.store._all("SELECT id FROM outbox"))
        for sweep in range(1, 6):   # the scheduler's sweeps, once each lease has passed
            if not await throttled.bot.store._all("SELECT id FROM outbox"):
                break
            later = tables.clock() + tables.LEASE * 2 ** sweep + 1
            tables.clock = lambda later=later: later
            await tables.replay_outbox()
            await throttled.settle()
        got = await final(throttled, tworld, 1)
    finally:
        await throttled.stop()
    in_part = [r.getMessage() for r in caplog.records if "published in part" in r.getMessage()]
    print({"moves": count.moves, "windows": session.windows, "answered_429": len(session.answered_429),
           "published_in_part": len(in_part), "owed_after_game": owed, "sweeps": sweep})
    assert count.finished and in_part, "no publishing failed: the throttle was not long enough"
    assert got["entries"] == expected["entries"] and got["state"] == expected["state"]
    assert got["outbox"] == []
    assert got["thread"][-1] == expected["thread"][-1]   # the last board is the clean run's
    # no line of the game's story is told more often than in the clean run (a board's status
    # line -- 👉 / 🔒 who must act -- may show once more: a board that failed is posted later)
    # (a turn message's leading pings go when it is next edited: a board posted late by the
    # outbox, and not edited after, keeps them -- the same line, not a second telling)
    def lines_of(thread):
        return Counter(PINGS.sub("", ln) for text in thread for ln in text.splitlines()
                       if ln.strip() and not ln.startswith(("👉", "🔒")))
    clean_lines, got_lines = lines_of(expected["thread"]), lines_of(got["thread"])
    assert not {ln: n for ln, n in got_lines.items() if n > clean_lines[ln]
                and "secret panel is here" not in ln}
    # one begin line per throttle that answered 429s, none per request
    hit = {t.window for t in session.answered_429}
    assert len([t for t in lines.texts(logging.WARNING) if BEGAN in t]) == len(hit)
    assert not [t for t in lines.texts() if "We are being rate limited" in t]
