"""/games mine and the per-player turn notice (issue #25), through the offline Discord."""
from __future__ import annotations

from test_lobby_flow import start_game


def mentions(fake, channel) -> list[str]:
    return [m.content for m in fake.messages_in(channel)]


async def test_mine_lists_my_games_whose_turn_time_left_and_a_link(fake, world):
    row = await start_game(fake, world)
    players = [world.alice.id, world.bob.id, world.carol.id]
    take = await fake.bot.tables.create("takeaway", players, {"pile": 9},
                                        guild_id=world.guild.id, channel_id=world.games.id,
                                        names=["alice", "bob", "carol"])
    await fake.settle()
    [reply] = await fake.invoke(fake.slash(fake.bot, "games mine", user=world.alice,
                                           channel=world.games))
    assert reply.ephemeral
    text = reply.body["content"]
    assert f"#{row.id} **Coin Flip**" in text and f"#{take.row.id} **Take Away**" in text
    # Take Away: Alice (seat 1) moves first: it is her move, listed first, with its link.
    mine, waiting = text.split("Waiting for others") if "Waiting for others" in text else (
        text, "")
    assert f"#{take.row.id} **Take Away** — to move: **you**" in mine
    turn_msg = (await fake.bot.store.get_game(take.row.id)).extra["turn_message"]
    assert f"/{world.guild.id}/{world.games.id}/{turn_msg}" in mine
    assert "time runs out <t:" in text
    [reply] = await fake.invoke(fake.slash(fake.bot, "games mine", user=world.carol,
                                           channel=world.games))
    assert f"to move: <@{world.alice.id}>" in reply.body["content"]
    assert f"#{row.id} **Coin Flip**" not in reply.body["content"]


async def test_the_turn_notice_setting_changes_who_is_pinged_or_dmed(fake, world):
    players = [world.alice.id, world.bob.id]
    await fake.invoke(fake.slash(fake.bot, "games notify", user=world.bob, channel=world.games,
                                 how="dm"))
    assert await fake.bot.store.turn_notice(world.bob.id) == "dm"
    await fake.invoke(fake.slash(fake.bot, "games notify", user=world.alice,
                                 channel=world.games, how="none"))
    game = await fake.bot.tables.create("takeaway", players, {"pile": 9},
                                        guild_id=world.guild.id, channel_id=world.games.id,
                                        names=["alice", "bob"])
    await fake.settle()
    first = fake.messages_in(world.games)[-1]
    assert f"<@{world.alice.id}>" not in first.content  # Alice asked for nothing
    mark = len(fake.requests)
    await fake.bot.tables.play(game.row.id, world.alice.id, "take 1")
    await fake.settle()
    turn = fake.messages_in(world.games)[-1]
    assert f"<@{world.bob.id}>" not in turn.content  # Bob asked for a DM instead
    dms = [r for r in fake.requests[mark:] if r.method == "POST" and "/channels/" in r.route
           and "Your turn" in str(r.json)]
    assert dms and f"/{world.games.id}/{turn.id}" in str(dms[-1].json)
    # Back to pings: Bob is mentioned again on his next turn.
    await fake.invoke(fake.slash(fake.bot, "games notify", user=world.bob, channel=world.games,
                                 how="ping"))
    await fake.bot.tables.play(game.row.id, world.bob.id, "take 1")
    await fake.bot.tables.play(game.row.id, world.alice.id, "take 1")
    await fake.settle()
    assert f"<@{world.bob.id}>" in fake.messages_in(world.games)[-1].content


async def test_the_half_time_reminder_pings_only_who_asked_for_pings(fake, world):
    await fake.invoke(fake.slash(fake.bot, "games notify", user=world.alice,
                                 channel=world.games, how="none"))
    game = await fake.bot.tables.create("takeaway", [world.alice.id, world.bob.id],
                                        {"pile": 9}, guild_id=world.guild.id,
                                        channel_id=world.games.id, names=["alice", "bob"])
    await fake.settle()
    row, state = await fake.bot.tables.load(game.row.id)
    mark = len(fake.requests)
    await fake.bot.game_cogs["takeaway"].remind(row, state)
    [sent] = [r for r in fake.requests[mark:] if r.method == "POST"]
    assert f"<@{world.alice.id}>" in sent.body["content"]  # named, as ever
    assert str(world.alice.id) not in [str(u) for u in
                                      sent.body["allowed_mentions"].get("users", [])]
