"""Issue #11.8 through the offline Discord: a crash between a move's commit and its messages is
repaired after the restart (the thread no longer says "Waiting for ..."), exactly once."""
from __future__ import annotations

import time

import pytest

from conftest import boot
from test_lobby_flow import pick, start_game, thread_text


class Crash(BaseException):
    """The process dies here (not an error anybody handles)."""


async def test_a_move_committed_before_a_crash_is_published_after_the_restart(fake, world,
                                                                               db_path,
                                                                               monkeypatch):
    row = await start_game(fake, world)
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call heads", world.alice))
    cog = fake.bot.game_cogs["coinflip"]

    async def crash(played):
        raise Crash

    monkeypatch.setattr(cog, "publish", crash)
    with pytest.raises(Crash):
        await fake.bot.tables.play(row.id, world.bob.id, "call tails")
    assert (await fake.bot.store.get_game(row.id)).version == 3  # both calls and the flip
    assert "The coin shows" not in thread_text(fake, row)
    await fake.stop()
    for guild in fake.guilds.values():
        guild.published = False
    fake2 = await boot(db_path, fake=fake)
    try:
        # The dead process had OUTBOX_GRACE seconds to publish; once they are over, the new
        # process publishes what it left behind.
        later = time.time() + fake2.bot.store.OUTBOX_GRACE + 1
        fake2.bot.tables.clock = lambda: later
        await fake2.bot.tables.run_due()
        await fake2.settle()
        text = thread_text(fake2, row)
        assert text.count("The coin shows") == 1
        await fake2.bot.tables.run_due()
        await fake2.settle()
        assert thread_text(fake2, row).count("The coin shows") == 1  # not twice
    finally:
        await fake2.stop()
        fake.bot = None
