"""Abandoned seats (issue #25): a player of a team game whose time runs out with no move the
referee could make: the others are offered to let the bot finish the seat; accepted, the bot
plays it and the game counts for nobody; unanswered, the seat forfeits as before."""
from __future__ import annotations

import random

from bot.engine.core import CHANCE
from bot.tables import Tables


async def boss_game_at_a_minions_attack(fake, world, seed: int = 3):
    """Bosses & Minions for three people, played at random until a Minion must attack (an
    idle attacker has no default move: they would forfeit for their side)."""
    players = [world.alice.id, world.bob.id, world.carol.id]
    played = await fake.bot.tables.create(
        "deathbydice", players, {"mode": "boss", "best_of": 1}, guild_id=world.guild.id,
        channel_id=world.games.id, names=["alice", "bob", "carol"])
    gid = played.row.id
    rng = random.Random(seed)
    for _ in range(3000):
        row, game = await fake.bot.tables.load(gid)
        assert row.status == "active", "the game ended before a Minion had to attack"
        actors = [a for a in game.actors() if a != CHANCE]
        if (len(actors) == 1 and actors[0] in (1, 2) and game.timeout_move(actors[0]) is None):
            await fake.settle()
            return row, game, actors[0]
        seat = rng.choice(actors)
        await fake.bot.tables.play(gid, row.players[seat], rng.choice(game.legal(seat)))
    raise AssertionError("no Minion attack")


def offer_message(fake, world):
    for msg in reversed(fake.messages_in(world.games)):
        if any(c.startswith("zb:") for c in msg.custom_ids):
            return msg
    raise AssertionError("no offer")


async def test_the_others_let_the_bot_finish_the_seat(fake, world):
    row, game, seat = await boss_game_at_a_minions_attack(fake, world)
    other = {1: world.carol, 2: world.bob}[seat]
    assert await fake.bot.tables.expire(row.id, row.version) is None
    await fake.settle()
    after = await fake.bot.store.get_game(row.id)
    assert after.status == "active" and after.deadline > row.deadline
    msg = offer_message(fake, world)
    assert f"<@{other.id}>" in msg.content and "counts for nobody" in msg.content
    # The one who left cannot hand their own seat over.
    gone = {1: world.bob, 2: world.carol}[seat]
    new = await fake.invoke(fake.click(msg, msg.custom_ids[0], user=gone))
    assert [r for r in new if r.ephemeral and "other players" in str(r.body)]
    await fake.invoke(fake.click(msg, msg.custom_ids[0], user=other))
    await fake.bot.practice_driver.idle()
    await fake.settle()
    after = await fake.bot.store.get_game(row.id)
    assert after.players[seat] == fake.bot.user.id
    assert after.extra["practice"] == "normal" and after.extra["unrated"] == "zombie"
    assert after.version > row.version  # the bot made the seat's move
    assert "let the bot finish" in msg.content and not msg.custom_ids
    # Played to the end by resignations: nobody's stats or ratings move.
    while after.status == "active":
        _, g = await fake.bot.tables.load(row.id)
        humans = [s for s in range(3) if after.players[s] != fake.bot.user.id]
        await fake.bot.tables.resign(row.id, after.players[humans[0]])
        await fake.bot.practice_driver.idle()
        after = await fake.bot.store.get_game(row.id)
    assert await fake.bot.store.stats(world.guild.id) == []
    assert await fake.bot.store.ratings_of(world.alice.id, world.guild.id) == {}


async def test_unanswered_the_seat_forfeits_for_its_side(fake, world):
    row, game, seat = await boss_game_at_a_minions_attack(fake, world, seed=5)
    assert await fake.bot.tables.expire(row.id, row.version) is None
    row = await fake.bot.store.get_game(row.id)
    played = await fake.bot.tables.expire(row.id, row.version)
    assert played is not None and played.game.outcome().winners == (0,)  # the Boss
    assert (await fake.bot.store.get_game(row.id)).status == "finished"


async def test_a_free_for_all_goes_on_without_asking(fake, world):
    """Three fighters of TradeShowdown: a timed-out fighter leaves, the fight goes on."""
    players = [world.alice.id, world.bob.id, world.carol.id]
    t: Tables = fake.bot.tables
    offers = []

    async def spy(row, game, seat, until):
        offers.append(seat)
        return True
    t.on_abandon = spy
    played = await t.create("tradeshowdown", players, {}, guild_id=world.guild.id,
                            channel_id=world.games.id, names=["alice", "bob", "carol"])
    await fake.settle()
    row, game = await t.load(played.row.id)
    await t.expire(row.id, row.version)
    await fake.settle()
    assert offers == []
