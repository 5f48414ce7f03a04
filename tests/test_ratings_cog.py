"""/games leaderboard, /games profile and /games rating through the offline Discord (issue #25):
what a player sees, within Discord's limits."""
from __future__ import annotations

import io

import discord
from PIL import Image

from bot.ratings import Standing
from rendering.fonts import MIN_DISPLAY_PX, displayed_px, recorded_sizes
from rendering.profile import render_rating_history
from test_games_cog import finish_by_resign
from test_lobby_flow import start_game


async def seed_ladder(store, guild_id: int, players: int, games_each: int = 6) -> list[int]:
    """Rated Slide and Slam results straight into the store: player k beats everyone after."""
    st = Standing("slideslam", ((0,), (1,)), (1, 2))
    users = list(range(9_000, 9_000 + players))
    t = 1_000.0
    for rnd in range(games_each):
        for i, winner in enumerate(users):
            loser = users[(i + 1 + rnd) % players]
            if loser == winner:
                continue
            t += 1
            res = {winner: "win", loser: "loss"}
            gid = await store.create_game("slideslam", guild_id, 1, 1, [winner, loser], {},
                                          "s", {})
            await store._results(gid, guild_id, "slideslam", res, t)
            await store._rate(gid, guild_id, [winner, loser], res, st, t)
    return users


async def test_a_finished_game_is_rated_and_the_profile_shows_it(fake, world):
    row = await finish_by_resign(fake, world)  # Bob resigns: Alice wins
    mine = await fake.bot.store.ratings_of(world.alice.id, world.guild.id)
    assert mine["coinflip"].games == 1 and mine["coinflip"].wins == 1
    assert (await fake.bot.store.ratings_of(world.bob.id, 0))["coinflip"].losses == 1
    new = await fake.invoke(fake.slash(fake.bot, "games profile", user=world.carol,
                                       channel=world.games, member=world.alice))
    reply = [r for r in new if r.files][-1]
    assert not reply.ephemeral
    text = reply.body.get("content", "")
    assert "Alice" in text and "Coin Flip" in text and "provisional: 4 more" in text
    assert "1 W" in text and "streak: 1 win in a row" in text and f"game #{row.id}" in text
    [pic] = reply.files
    img = Image.open(io.BytesIO(pic.data))
    assert img.width <= 550 and pic.description and "rating over the last 1 rated game" in \
        pic.description


async def test_profile_of_someone_without_games_and_of_a_bot(fake, world):
    [reply] = [r for r in await fake.invoke(fake.slash(
        fake.bot, "games profile", user=world.carol, channel=world.games)) if r.body]
    assert "No rated games yet" in str(reply.body)
    new = await fake.invoke(fake.slash(fake.bot, "games profile", user=world.carol,
                                       channel=world.games, member=world.robot))
    assert [r for r in new if r.ephemeral and "Bots don't" in str(r.body)]


async def test_leaderboard_pages_and_the_callers_place(fake, world):
    users = await seed_ladder(fake.bot.store, world.guild.id, 14)
    [reply] = await fake.invoke(fake.slash(fake.bot, "games leaderboard", user=world.alice,
                                           channel=world.games, game="slideslam"))
    assert reply.ephemeral
    msg = [m for m in fake.messages_in(world.games, include_ephemeral=True) if m.ephemeral][-1]
    assert "page 1/2" in msg.content and "14 ranked players" in msg.content
    assert "\n1. <@" in msg.content and "\n10. <@" in msg.content
    assert "You have no rated Slide and Slam: Dice Is Not Bend! games in this server" in msg.content
    assert len(msg.content) <= 2000
    nxt = next(c for c in msg.custom_ids if c.endswith(":next"))
    await fake.invoke(fake.click(msg, nxt, user=world.alice))
    assert "page 2/2" in msg.content and "11. <@" in msg.content
    # A ranked player sees their place, and a button to their page.
    last = users[-1]
    place, total = await fake.bot.store.leaderboard_place(world.guild.id, "slideslam", last)
    assert place is not None and total == 14
    # The global ladder has them too; another server's has nobody.
    top = await fake.bot.store.leaderboard(0, "slideslam")
    assert len(top) == 10


async def test_a_server_switches_rating_off_for_a_game(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, "games rating", user=world.alice,
                                       channel=world.games, game="slideslam", rated=False))
    assert [r for r in new if r.ephemeral and "Manage Server" in str(r.body)]
    boss = world.guild.add_member(fake.add_user("boss"), roles=[world.guild.add_role(
        "mods", discord.Permissions(manage_guild=True))])
    new = await fake.invoke(fake.slash(fake.bot, "games rating", user=boss,
                                       channel=world.games, game="slideslam", rated=False))
    assert [r for r in new if r.ephemeral and "not rated" in str(r.body)]
    assert await fake.bot.store.rating_off(world.guild.id, "slideslam")
    # (The test-only Coin Flip is no choice of the command: switched in the store.)
    await fake.bot.store.set_rating_off(world.guild.id, "coinflip", True)
    row = await finish_by_resign(fake, world)
    game = await fake.bot.store.get_game(row.id)
    assert game.extra.get("unrated") == "off"
    assert await fake.bot.store.ratings_of(world.alice.id, world.guild.id) == {}
    # Still counted in the plain stats.
    assert any(r[1] == world.alice.id for r in await fake.bot.store.stats(world.guild.id))
    await fake.bot.store.set_rating_off(world.guild.id, "coinflip", False)
    await finish_by_resign(fake, world)
    assert (await fake.bot.store.ratings_of(world.alice.id, world.guild.id))["coinflip"].games == 1


def test_the_rating_picture_fits_discord():
    points = [(1.7e9 + i * 3600, 740 + 13 * i - (i % 3) * 20, "win" if i % 3 else "loss")
              for i in range(120)]
    with recorded_sizes() as sizes:
        pic = render_rating_history("Death by Dice — Bosses & Minions — somebody", points, 740)
    img = Image.open(io.BytesIO(pic.png))
    assert img.width == 550 and img.height < 400
    assert min(displayed_px(s, img.width) for s in sizes) >= MIN_DISPLAY_PX
    assert "120 rated games" in pic.alt
