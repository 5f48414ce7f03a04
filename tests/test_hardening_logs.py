"""#11.2: at LOG_LEVEL=DEBUG the log holds no game seed and no secret move.

Whole games run through the offline harness with the bot's own logging set-up at DEBUG; every
log record any logger produced is then searched for the games' seeds and for the notation of
every move made while it was secret."""
from __future__ import annotations

import io
import logging
import random

import pytest

from bot.engine.core import CHANCE
from bot.logs import QUIET, configure
from table_play import CHALLENGE_OPTIONS
from test_lobby_flow import pick, start_game


class Everything(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        self.texts.append(f"{record.name}: {text}")


@pytest.fixture
def debug_log():
    """The bot's logging at DEBUG with a handler that keeps every record; undone afterwards."""
    root = logging.getLogger()
    saved_root, saved_handlers = root.level, list(root.handlers)
    saved = {name: logging.getLogger(name).level for name in QUIET}
    everything = Everything()
    root.addHandler(everything)
    configure("DEBUG", stream=io.StringIO())
    try:
        yield everything
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_root)
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


async def play_to_the_end(fake, world, kind: str, seed: int = 5) -> tuple[object, set[str]]:
    """A whole game of `kind` through the table; the moves made in a secret step."""
    bot = fake.bot
    await fake.invoke(fake.slash(bot, f"{kind} challenge", user=world.alice, channel=world.games,
                                 opponent=world.bob, **CHALLENGE_OPTIONS.get(kind, {})))
    challenge = fake.messages_in(world.games)[-1]
    accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(challenge, accept, user=world.bob))
    row = (await bot.store.active_games())[-1]
    rng = random.Random(seed)
    secret: set[str] = set()
    now = bot.tables.clock()
    bot.tables.clock = lambda: now
    for _ in range(2000):
        row, game = await bot.tables.load(row.id)
        if row.status != "active":
            break
        actors = [a for a in game.actors() if a != CHANCE]
        if not actors:
            now = max(now, row.deadline or now) + 1
            await bot.tables.tick(row.id)
            await fake.settle()
            continue
        seat = rng.choice(actors)
        move = rng.choice(game.legal(seat))
        if game.is_secret(seat):
            secret.add(move)
        await bot.tables.play(row.id, row.players[seat], move, by=row.players[seat])
        await fake.settle()
    return row, secret


def leaks(texts: list[str], needles: set[str]) -> list[str]:
    return [f"{n!r} in {t[:200]!r}" for t in texts for n in needles if n in t]


@pytest.mark.parametrize("kind", ["slideslam", "deathbydice"])
async def test_debug_log_holds_no_seed_and_no_secret_move(fake, world, debug_log, kind):
    row, secret = await play_to_the_end(fake, world, kind)
    assert (await fake.bot.store.get_game(row.id)).status == "finished"
    assert secret, f"{kind}: the game had no secret move to look for"
    assert logging.getLogger("bot.tables").isEnabledFor(logging.DEBUG)
    assert leaks(debug_log.texts, {row.seed} | secret) == []


async def test_debug_log_holds_no_secret_picked_on_a_panel(fake, world, debug_log):
    row = await start_game(fake, world)
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call tails", world.alice))
    # The call is secret while bob has not called: nothing in the log may say it.
    assert leaks(debug_log.texts, {row.seed, "call tails"}) == []
    await fake.invoke(pick(fake, fake.dms_to(world.bob)[-1], "call heads", world.bob))
    assert leaks(debug_log.texts, {row.seed}) == []


async def test_the_scan_sees_a_library_left_at_debug(fake, world, debug_log):
    """The check above can fail: with aiosqlite left at DEBUG the seed reaches the log."""
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
    row = await start_game(fake, world)
    assert leaks(debug_log.texts, {row.seed})


def test_quiet_at_every_level():
    saved = {name: logging.getLogger(name).level for name in QUIET}
    try:
        for level in ("DEBUG", "INFO", "WARNING"):
            configure(level, stream=io.StringIO())
            assert not logging.getLogger("aiosqlite").isEnabledFor(logging.INFO)
            for name in ("discord.http", "discord.gateway", "discord.ui.view",
                         "discord.webhook.async_"):
                assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), (level, name)
    finally:
        root = logging.getLogger()
        root.handlers[:] = [h for h in root.handlers
                            if not getattr(h, "_dice_referee_handler", False)]
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
