"""Rematch (issue #25): the end message's button, through the offline Discord — every former
player accepts, strangers are refused, it expires, the practice bot accepts at once; seats
rotated (KAPLOOM!: sides swapped)."""
from __future__ import annotations

import time

from bot.rematch import rotated
from test_games_cog import finish_by_resign


def rematch_button(fake, channel):
    for msg in reversed(fake.messages_in(channel)):
        for cid in msg.custom_ids:
            if cid.startswith("rm:"):
                return msg, cid
    raise AssertionError("no Rematch button")


def challenge_message(fake, channel):
    return next(m for m in reversed(fake.messages_in(channel))
                if any(c.startswith("ch:") for c in m.custom_ids))


def button(msg, action):
    return next(c for c in msg.custom_ids if c.endswith(":" + action))


def test_seats_rotate_and_kaploom_swaps_sides():
    import take_cog  # noqa: F401 (registers the test-only Take Away game, a 3-player game)
    assert rotated("slideslam", [1, 2], {"rows": 8}) == ([2, 1], {"rows": 8})
    assert rotated("takeaway", [1, 2, 3], {"cards": ["a", "b", "c"]}) == (
        [2, 3, 1], {"cards": ["b", "c", "a"]})
    assert rotated("deathbydice", [1, 2, 3], {"characters": "A, B, C", "mode": "duel"})[1][
        "characters"] == "B, C, A"
    assert rotated("deathbydice", [1, 2], {"characters": "A, B, C", "mode": "boss"})[1][
        "characters"] == "A, B, C"
    assert rotated("kaploom", [1, 2, 3, 4], {"mode": "2v2", "sides": "hero"}) == (
        [1, 2, 3, 4], {"mode": "2v2", "sides": "villain"})


async def test_every_former_player_accepts_and_strangers_are_refused(fake, world):
    dave = world.guild.add_member(fake.add_user("dave"))
    players = [world.alice.id, world.bob.id, world.carol.id]
    played = await fake.bot.tables.create(
        "takeaway", players, {"pile": 3}, guild_id=world.guild.id, channel_id=world.games.id,
        names=["alice", "bob", "carol"])
    await fake.settle()
    await fake.bot.tables.play(played.row.id, world.alice.id, "take 3")
    await fake.settle()
    msg, rm = rematch_button(fake, world.games)
    new = await fake.invoke(fake.click(msg, rm, user=dave))
    assert [r for r in new if r.ephemeral and "Only the players of game" in str(r.body)]
    await fake.invoke(fake.click(msg, rm, user=world.alice))
    ask = challenge_message(fake, world.games)
    assert "rematch" in ask.content and "<@%d>" % world.bob.id in ask.content
    # A second click while it is open is refused.
    new = await fake.invoke(fake.click(msg, rm, user=world.bob))
    assert [r for r in new if r.ephemeral and "already on" in str(r.body)]
    new = await fake.invoke(fake.click(ask, button(ask, "accept"), user=dave))
    assert [r for r in new if r.ephemeral and "for the players of the last game" in str(r.body)]
    await fake.invoke(fake.click(ask, button(ask, "accept"), user=world.bob))
    assert len(await fake.bot.store.active_games()) == 0  # Carol has not accepted yet
    accepted = ask.content.split("Accepted: ")[1].split(".")[0]
    assert str(world.alice.id) in accepted and str(world.bob.id) in accepted
    new = await fake.invoke(fake.click(ask, button(ask, "accept"), user=world.bob))
    assert [r for r in new if r.ephemeral and "accepted already" in str(r.body)]
    await fake.invoke(fake.click(ask, button(ask, "accept"), user=world.carol))
    [row] = await fake.bot.store.active_games()
    assert row.players == [world.bob.id, world.carol.id, world.alice.id]
    assert row.options == {"pile": 3} and row.thread_id and row.id != played.row.id
    assert "is on in" in ask.content and not ask.custom_ids


async def test_a_rematch_expires_and_can_be_asked_again(fake, world):
    old = await finish_by_resign(fake, world)
    msg, rm = rematch_button(fake, old.thread_id)
    await fake.invoke(fake.click(msg, rm, user=world.bob))
    ask = challenge_message(fake, world.games)
    cid = int(button(ask, "accept").split(":")[1])
    await fake.bot.store.update_challenge(cid, expires_at=time.time() - 1)
    await fake.bot.lobby.expire_due()
    await fake.settle()
    assert "Expired" in ask.content and not ask.custom_ids
    await fake.invoke(fake.click(msg, rm, user=world.alice))
    again = challenge_message(fake, world.games)
    assert again.id != ask.id
    await fake.invoke(fake.click(again, button(again, "accept"), user=world.bob))
    [row] = await fake.bot.store.active_games()
    assert row.players == [world.bob.id, world.alice.id] and row.kind == "coinflip"


async def test_the_practice_bot_accepts_at_once(fake, world):
    await fake.invoke(fake.slash(fake.bot, "slideslam practice", user=world.alice,
                                 channel=world.games))
    [row] = await fake.bot.store.active_games()
    await fake.invoke(fake.slash(fake.bot, "games resign", user=world.alice, channel=world.games,
                                 game=row.id))
    await fake.settle()
    msg, rm = rematch_button(fake, row.thread_id)
    await fake.invoke(fake.click(msg, rm, user=world.alice))
    [new] = await fake.bot.store.active_games()
    assert new.id != row.id and new.players == [fake.bot.user.id, world.alice.id]
    assert new.extra.get("practice") == row.extra.get("practice")
    assert new.thread_id != row.thread_id
