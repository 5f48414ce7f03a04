"""Hard edges of publishing (issue #27 items 1, 2, 6, 7, 10): an outage never drops a move's
board, a failed post keeps its story lines, a seat no panel reached is tried again, the answer
to a move that stands is never "something went wrong", and one person's click storm is served
at a person's pace without growing the bot."""
from __future__ import annotations

import gc
import logging

import discord

from conftest import boot
from test_carrier import start, take
from test_lobby_flow import pick, start_game

OUTAGE = (500,)


async def run_outbox_until(fake, later):
    fake.bot.tables.clock = lambda: later
    await fake.bot.tables.replay_outbox()
    await fake.settle(check=False)


async def test_an_outage_of_minutes_ends_with_the_board_posted_and_the_next_player_pinged(
        fake, world, caplog):
    row = await start(fake, world)
    tables = fake.bot.tables
    now = tables.clock()
    fake.inject_faults(1.0, kinds=OUTAGE, seams=("rest",))
    await tables.play(row.id, world.alice.id, "take 2", by=world.alice.id)
    await fake.settle(check=False)
    # Ten minutes of outage, tried at every sweep: nothing is dropped, and the log says so.
    with caplog.at_level(logging.INFO, logger="bot.tables"):
        for minutes in range(1, 11):
            await run_outbox_until(fake, now + 60 * minutes)
    assert await fake.bot.store._all("SELECT attempts FROM outbox WHERE game_id=?", (row.id,))
    assert any("still not published" in r.getMessage() for r in caplog.records)
    assert "Alice takes 2" not in fake.messages_in(row.thread_id)[-1].content
    fake.stop_faults()
    await run_outbox_until(fake, now + 3600)
    card = fake.messages_in(row.thread_id)[-1]
    assert "Alice takes 2; 7 left." in card.content and world.bob.mention in card.content
    assert await fake.bot.store._all("SELECT id FROM outbox WHERE game_id=?", (row.id,)) == []


async def test_a_failed_post_keeps_its_story_lines_for_the_next_one(fake, world):
    row = await start(fake, world)
    tables = fake.bot.tables
    fake.inject_faults(1.0, kinds=OUTAGE, seams=("rest",))
    await tables.play(row.id, world.alice.id, "take 1", by=world.alice.id)
    await fake.settle(check=False)
    fake.stop_faults()
    # The next move comes before any sweep: its message tells both moves.
    await tables.play(row.id, world.bob.id, "take 3", by=world.bob.id)
    await fake.settle()
    card = fake.messages_in(row.thread_id)[-1].content
    assert "Alice takes 1; 8 left." in card and "Bob takes 3; 5 left." in card
    # and the outbox, trying the first move again, does not tell it twice
    await run_outbox_until(fake, tables.clock() + 3600)
    text = "\n".join(m.content for m in fake.messages_in(row.thread_id))
    assert text.count("Alice takes 1; 8 left.") == 1


async def test_a_seat_no_panel_reached_is_tried_again(fake, world, monkeypatch):
    row = await start_game(fake, world)
    cog = fake.bot.game_cogs["coinflip"]
    real_dm, real_offer = cog.dm, cog._offer_panel_in_thread

    async def no_dm(uid, game_id, **kwargs):
        raise discord.HTTPException(type("R", (), {"status": 503, "reason": "down"})(), "down")

    async def no_offer(*args, **kwargs):
        return False

    monkeypatch.setattr(cog, "dm", no_dm)
    monkeypatch.setattr(cog, "_offer_panel_in_thread", no_offer)
    before = len(fake.dms_to(world.bob))
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call heads", world.alice))
    await fake.bot.tables.play(row.id, world.bob.id, "call tails", by=world.bob.id)
    await fake.settle(check=False)
    assert len(fake.dms_to(world.bob)) == before  # round 2's panel reached nobody
    monkeypatch.setattr(cog, "dm", real_dm)
    monkeypatch.setattr(cog, "_offer_panel_in_thread", real_offer)
    await run_outbox_until(fake, fake.bot.tables.clock() + 3600)
    assert len(fake.dms_to(world.bob)) > before  # repaired by the outbox
    assert "call" in " ".join(fake.dms_to(world.bob)[-1].text().lower().split())


async def test_a_lost_answer_to_a_move_that_stands_is_no_error(fake, world, monkeypatch):
    row = await start(fake, world)
    real = discord.Webhook.send

    async def lost(self, *args, **kwargs):
        if kwargs.get("ephemeral"):
            raise discord.HTTPException(type("R", (), {"status": 404, "reason": "gone"})(),
                                        "Unknown Webhook")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.Webhook, "send", lost)
    new = await fake.invoke(fake.slash(fake.bot, "takeaway move", user=world.alice,
                                       channel=fake.channels[row.thread_id], move="take 2"))
    assert (await fake.bot.store.get_game(row.id)).version > row.version  # it stands
    said = " ".join((r.body or {}).get("content") or "" for r in new)
    assert "went wrong" not in said
    assert fake.errors == []  # no ERROR, no traceback


async def test_a_click_storm_is_served_at_a_persons_pace(db_path, monkeypatch):
    from conftest import World
    fake = await boot(db_path, clicks_per_second=8)
    try:
        world = World(fake)
        row = await start(fake, world)
        card = fake.messages_in(row.thread_id)[-1]
        answers = []
        for _ in range(40):  # Bob hammers Alice's button: each click would read the game
            answers += await fake.invoke(take(fake, card, 1, world.bob))
        slow = [r for r in answers if "Slow down" in ((r.body or {}).get("content") or "")]
        assert len(slow) >= 40 - 2 * 8 - 2  # past the burst, refused without a look at the game
    finally:
        await fake.stop()


async def test_the_lock_of_a_game_is_not_kept_for_ever(fake, world):
    row = await start(fake, world)
    for user, n in ((world.alice, 1), (world.bob, 1)):
        await fake.bot.tables.play(row.id, user.id, f"take {n}", by=user.id)
    await fake.settle()
    gc.collect()
    assert len(fake.bot.tables._locks) == 0
