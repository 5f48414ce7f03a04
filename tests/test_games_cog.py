"""`/games` commands, crowd votes, reminders and resume after a restart, through the harness."""
from __future__ import annotations

import json

from conftest import boot
from test_lobby_flow import pick, start_game, thread_text


def ephemeral(new):
    return [r for r in new if r.ephemeral]


async def finish_by_resign(fake, world):
    row = await start_game(fake, world)
    await fake.invoke(fake.slash(fake.bot, "games resign", user=world.bob, channel=world.games,
                                 game=row.id))
    return row


async def test_list_shows_open_games_and_yours(fake, world):
    row = await start_game(fake, world)
    [reply] = await fake.invoke(fake.slash(fake.bot, "games list", user=world.carol,
                                           channel=world.games))
    assert reply.ephemeral and f"#{row.id} **Coin Flip**" in reply.content
    assert "Your games**\nnone" in reply.content


async def test_resign_ends_the_game_for_the_opponent(fake, world):
    row = await finish_by_resign(fake, world)
    game = await fake.bot.store.get_game(row.id)
    assert game.status == "finished" and game.state["state"]["result"]["winners"] == [0]
    assert "wins" in thread_text(fake, row) and "resigned" in thread_text(fake, row)
    new = await fake.invoke(fake.slash(fake.bot, "games resign", user=world.bob,
                                       channel=world.games, game=row.id))
    assert "is over" in ephemeral(new)[0].content


async def test_resign_autocomplete_offers_your_games(fake, world):
    row = await start_game(fake, world)
    payload = fake.autocomplete(fake.bot, "games resign", user=world.alice, focused="game",
                                game="")
    await fake.invoke(payload)
    assert [c["value"] for c in fake.autocomplete_choices(payload)] == [row.id]


async def test_abort_needs_every_player_or_a_moderator(fake, world):
    row = await start_game(fake, world)
    new = await fake.invoke(fake.slash(fake.bot, "games abort", user=world.carol,
                                       channel=world.games, game=row.id))
    assert "Only the game's players" in ephemeral(new)[0].content
    await fake.invoke(fake.slash(fake.bot, "games abort", user=world.alice, channel=world.games,
                                 game=row.id))
    assert (await fake.bot.store.get_game(row.id)).status == "active"
    assert "asks to abort" in thread_text(fake, row)
    await fake.invoke(fake.slash(fake.bot, "games abort", user=world.bob, channel=world.games,
                                 game=row.id))
    assert (await fake.bot.store.get_game(row.id)).status == "aborted"
    assert "aborted by agreement" in thread_text(fake, row)


async def test_rules_are_paged(fake, world):
    [reply] = await fake.invoke(fake.slash(fake.bot, "games rules", user=world.alice,
                                           channel=world.games, game="slideslam"))
    assert reply.ephemeral and "page 1/" in reply.content
    msg = [m for m in fake.messages_in(world.games, include_ephemeral=True) if m.ephemeral][-1]
    nxt = next(c for c in msg.custom_ids if c.endswith(":next"))
    await fake.invoke(fake.click(msg, nxt, user=world.alice))
    assert "page 2/" in msg.content


async def test_history_stats_and_export(fake, world):
    running = await start_game(fake, world)
    new = await fake.invoke(fake.slash(fake.bot, "games export", user=world.alice,
                                       channel=world.games, game=running.id))
    assert "still running" in ephemeral(new)[0].content and not ephemeral(new)[0].files
    await fake.invoke(fake.slash(fake.bot, "games resign", user=world.bob, channel=world.games,
                                 game=running.id))
    [hist] = await fake.invoke(fake.slash(fake.bot, "games history", user=world.alice,
                                          channel=world.games))
    assert f"#{running.id} Coin Flip" in hist.content and "win" in hist.content
    [stats] = await fake.invoke(fake.slash(fake.bot, "games stats", user=world.carol,
                                           channel=world.games))
    assert "1 W · 0 L" in stats.content and "0 W · 1 L" in stats.content
    new = await fake.invoke(fake.slash(fake.bot, "games export", user=world.carol,
                                       channel=world.games, game=running.id))
    [export] = [r for r in new if r.files]
    [file] = export.files
    record = json.loads(file.data)
    assert record["format"] == "dice-referee-record" and record["kind"] == "coinflip"
    assert record["entries"][-1] == {"actor": 2, "move": "resign"}
    assert record["seed"] is None


async def test_crowd_vote(fake, world, monkeypatch):
    cog = fake.bot.game_cogs["coinflip"]
    monkeypatch.setattr(cog, "wants_vote", lambda row, game, chance: True)
    monkeypatch.setattr(cog, "vote_choices",
                        lambda row, game, chance: [("heads", "Heads"), ("tails", "Tails")])
    row = await start_game(fake, world)
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call heads", world.alice))
    await fake.invoke(pick(fake, fake.dms_to(world.bob)[-1], "call tails", world.bob))
    vote_msg = next(m for m in fake.messages_in(row.thread_id)
                    if any(c.split(":")[3:4] == ["vt"] for c in m.custom_ids))
    assert "Vote below" in vote_msg.content
    ids = {c.split(":")[-1]: c for c in vote_msg.custom_ids}
    await fake.invoke(fake.click(vote_msg, ids["tails"], user=world.carol))
    new = await fake.invoke(fake.click(vote_msg, ids["heads"], user=world.carol))
    assert "already voted" in ephemeral(new)[0].content
    game = await fake.bot.store.get_game(row.id)
    assert game.deadline_kind == "vote"
    fake.bot.tables.clock = lambda: game.deadline + 1
    await fake.bot.tables.tick(row.id)
    await fake.settle()
    assert (await fake.bot.store.entries(row.id))[-1] == ("chance", "roll tails")
    assert "The coin shows tails" in thread_text(fake, row)


async def test_reminder_is_posted_in_the_thread(fake, world):
    row = await start_game(fake, world)
    game = await fake.bot.store.get_game(row.id)
    fake.bot.tables.clock = lambda: game.deadline - 10
    assert await fake.bot.tables.tick(row.id) == "reminded"
    await fake.settle()
    text = thread_text(fake, row)
    assert "⏰" in text and "the referee moves for you" in text


async def test_resume_after_restart_with_a_working_button(fake, world, db_path):
    row = await start_game(fake, world)
    panel = fake.dms_to(world.alice)[-1]
    payload = pick(fake, panel, "call tails", world.alice)
    await fake.stop()
    # A new process on the same database, talking to the same (fake) Discord.
    for guild in fake.guilds.values():
        guild.published = False
    fake2 = await boot(db_path, fake=fake)
    try:
        assert row.id in fake2.bot.tables.armed()
        await fake2.invoke(payload)  # the button sent before the restart
        game = await fake2.bot.store.get_game(row.id)
        assert game.state["state"]["calls"][0] == "tails"
    finally:
        await fake2.stop()
        fake.bot = None


async def test_sync_only_when_the_tree_changed(fake, world):
    bot = fake.bot
    first = await bot.sync_commands()
    assert first in ("global", "unchanged")
    assert await bot.sync_commands() == "unchanged"
    await bot.store.meta_set("command_tree_hash", "old")
    assert await bot.sync_commands() == "global"


async def test_abort_by_a_moderator_of_another_channel_is_refused(fake, world):
    """#27.4: Manage Threads counts in the game's own channel, not where `/games abort` is
    typed: Dave moderates only his own room, and cannot stop a game in #games from there."""
    import discord
    dave = world.guild.add_member(fake.add_user("dave"))
    room = world.guild.add_text_channel(
        "daves-room", overwrites={dave: discord.PermissionOverwrite(manage_threads=True)})
    row = await start_game(fake, world)
    new = await fake.invoke(fake.slash(fake.bot, "games abort", user=dave, channel=room,
                                       game=row.id))
    assert "Only the game's players" in ephemeral(new)[0].content
    assert (await fake.bot.store.get_game(row.id)).status == "active"
    # A moderator of #games may, wherever they type it.
    mod = world.guild.add_member(fake.add_user("mod"))
    world.games.overwrites.append({"id": str(mod.id), "type": 1, "allow": str(
        discord.Permissions(manage_threads=True).value), "deny": "0"})
    fake.bot._connection.parse_channel_update(world.games.payload())
    await fake.invoke(fake.slash(fake.bot, "games abort", user=mod, channel=room,
                                 game=row.id))
    assert (await fake.bot.store.get_game(row.id)).status == "aborted"
    assert "by moderator" in thread_text(fake, row)


async def test_a_failed_text_command_is_logged_not_a_crash(fake, world, caplog):
    """cogs/games.py logged through a `log` it never defined (a NameError on the error path)."""
    from types import SimpleNamespace
    cog = fake.bot.get_cog("Games")
    with caplog.at_level("ERROR", logger="cogs.games"):
        await cog.on_command_error(SimpleNamespace(command="hello"), RuntimeError("boom"))
    assert any("text command hello failed" in r.getMessage() for r in caplog.records)
    fake.errors.clear()
