"""The shared player-facing flow, through discord.py's real parsing: challenge, thread, secret
panel (DM and ephemeral fallback), stale and double clicks, errors."""
from __future__ import annotations

import pytest

from fakediscord import RefusedPayload

EPHEMERAL = 64


def challenge_buttons(msg):
    return {cid.split(":")[-1]: cid for cid in msg.custom_ids}


async def open_challenge(fake, world, opponent=None, **options):
    opponent = opponent or world.bob
    await fake.invoke(fake.slash(fake.bot, "coinflip challenge", user=world.alice,
                                 channel=world.games, opponent=opponent, **options))
    return fake.messages_in(world.games)[-1]


async def start_game(fake, world, **options):
    msg = await open_challenge(fake, world, **options)
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    row = (await fake.bot.store.active_games())[-1]
    return row


def pick(fake, msg, move, user):
    """The payload of choosing `move` on a message: its button, or its select."""
    for cid in msg.custom_ids:
        if cid.split(":")[3:4] == ["mv"] and cid.split(":", 4)[4] == move:
            return fake.click(msg, cid, user=user)
    select = next(c for c in msg.custom_ids if c.split(":")[3:4] == ["ms"])
    return fake.select(msg, select, [move], user=user)


def thread_text(fake, row) -> str:
    return "\n".join(m.text() for m in fake.messages_in(row.thread_id))


def ephemeral_replies(requests):
    return [r for r in requests if r.ephemeral]


async def test_challenge_accept_creates_thread_and_game(fake, world):
    msg = await open_challenge(fake, world, target=3)
    assert world.bob.mention in msg.content and "Coin Flip" in msg.content
    assert "target=3" in msg.content and not msg.ephemeral
    assert set(challenge_buttons(msg)) == {"accept", "decline", "cancel"}
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    [row] = await fake.bot.store.active_games()
    assert row.players == [world.alice.id, world.bob.id] and row.options == {"target": 3}
    assert row.thread_id is not None and row.channel_id == world.games.id
    text = thread_text(fake, row)
    assert "game #1" in text and "check your DMs" in text
    edited = fake.messages_in(world.games)[-1]
    assert "is on in" in edited.content and edited.custom_ids == []


async def test_only_the_challenged_can_accept(fake, world):
    msg = await open_challenge(fake, world)
    new = await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.carol))
    [refusal] = ephemeral_replies(new)
    assert "for <@" in refusal.content and await fake.bot.store.active_games() == []
    new = await fake.invoke(fake.click(msg, challenge_buttons(msg)["cancel"], user=world.bob))
    assert "Only the challenger" in ephemeral_replies(new)[0].content


async def test_decline_and_cancel_close_the_challenge(fake, world):
    msg = await open_challenge(fake, world)
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["decline"], user=world.bob))
    closed = fake.messages_in(world.games)[-1]
    assert "declined" in closed.content and closed.custom_ids == []
    msg = await open_challenge(fake, world)
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["cancel"], user=world.alice))
    assert "Cancelled" in fake.messages_in(world.games)[-1].content
    assert await fake.bot.store.active_games() == []


async def test_challenge_expires(fake, world):
    msg = await open_challenge(fake, world)
    buttons = challenge_buttons(msg)
    cid = int(buttons["accept"].split(":")[1])
    assert await fake.bot.lobby.expire(cid) is True
    assert "Expired" in fake.messages_in(world.games)[-1].content
    assert await fake.bot.lobby.expire(cid) is False  # only once


@pytest.mark.parametrize("who,expected", [("alice", "yourself"), ("robot", "Bots"),
                                          ("carol", "can't see this channel")])
async def test_refused_challenges(fake, world, who, expected):
    new = await fake.invoke(fake.slash(fake.bot, "coinflip challenge", user=world.alice,
                                       channel=world.secret_room, opponent=getattr(world, who)))
    [reply] = new
    assert reply.ephemeral and expected in reply.content
    assert fake.messages_in(world.secret_room) == []


async def test_payload_builder_refuses_out_of_range_options(fake, world):
    with pytest.raises(RefusedPayload):
        fake.slash(fake.bot, "coinflip challenge", user=world.alice, channel=world.games,
                   opponent=world.bob, target=99)


async def test_open_table_join_and_start(fake, world):
    await fake.invoke(fake.slash(fake.bot, "coinflip open", user=world.alice,
                                 channel=world.games))
    msg = fake.messages_in(world.games)[-1]
    ids = challenge_buttons(msg)
    assert set(ids) == {"join", "leave", "start", "cancel"}
    new = await fake.invoke(fake.click(msg, ids["start"], user=world.alice))
    assert "At least 2 players" in ephemeral_replies(new)[0].content
    await fake.invoke(fake.click(msg, ids["join"], user=world.bob))
    assert world.bob.mention in fake.messages_in(world.games)[-1].content
    new = await fake.invoke(fake.click(msg, ids["join"], user=world.bob))
    assert "already" in ephemeral_replies(new)[0].content
    new = await fake.invoke(fake.click(msg, ids["start"], user=world.bob))
    assert "Only the host" in ephemeral_replies(new)[0].content
    await fake.invoke(fake.click(msg, ids["start"], user=world.alice))
    [row] = await fake.bot.store.active_games()
    assert row.players == [world.alice.id, world.bob.id]


async def test_secret_panel_by_dm_and_no_secret_in_thread(fake, world):
    row = await start_game(fake, world)
    [panel_a] = fake.dms_to(world.alice)
    [panel_b] = fake.dms_to(world.bob)
    assert "(Alice)" in panel_a.content and "(Bob)" in panel_b.content
    await fake.invoke(pick(fake, panel_a, "call tails", world.alice))
    assert "tails" not in thread_text(fake, row).lower()
    assert "Alice has called" in thread_text(fake, row)
    # the old panel's components are gone, a fresh panel says the call privately
    assert panel_a.custom_ids == [] or fake.dms_to(world.alice)[-1] is not panel_a
    assert any("You called tails" in m.content for m in fake.dms_to(world.alice))
    await fake.invoke(pick(fake, panel_b, "call heads", world.bob))
    text = thread_text(fake, row)
    assert "The coin shows" in text  # the flip happened at once, from the seeded RNG
    entries = await fake.bot.store.entries(row.id)
    assert [a for a, _ in entries] == ["1", "2", "chance"]


async def test_closed_dms_fall_back_to_an_ephemeral_panel(fake, world):
    fake.close_dms(world.bob)
    row = await start_game(fake, world)
    assert fake.dms_to(world.bob) == []
    fallback = [m for m in fake.messages_in(row.thread_id)
                if "your secret panel is here" in (m.content or "")]
    assert len(fallback) == 1 and world.bob.mention in fallback[0].content
    assert f"g:{row.id}:-:pn" in fallback[0].custom_ids
    # told, not pinged again: the game's first card, just above, pinged him for this turn
    said = [r for r in fake.requests if r.args.get("channel_id") == row.thread_id
            and "your secret panel is here" in (r.body.get("content") or "")]
    mentions = said[0].body["allowed_mentions"] if said else {}
    assert said and not mentions.get("users") and "users" not in mentions.get("parse", [])
    card = next(m for m in fake.messages_in(row.thread_id) if m.id != fallback[0].id)
    assert world.bob.mention in card.content
    new = await fake.invoke(fake.click(fallback[0], f"g:{row.id}:-:pn", user=world.bob))
    [panel] = [r for r in new if r.ephemeral]
    assert "(Bob)" in panel.content
    panel_msg = [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
                 if m.ephemeral and "(Bob)" in m.content][-1]
    await fake.invoke(pick(fake, panel_msg, "call heads", world.bob))
    game_row = await fake.bot.store.get_game(row.id)
    assert game_row.state["state"]["calls"][1] == "heads"
    # the next round's secret step says it no more: the turn card's own button opens his panel
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call tails", world.alice))
    posts = fake.messages_in(row.thread_id)
    assert "The coin shows" in posts[-1].content  # the next round's card
    assert sum("your secret panel is here" in (m.content or "") for m in posts) == 1
    assert f"g:{row.id}:-:pn" in posts[-1].custom_ids
    # someone else may not open Bob's panel
    new = await fake.invoke(fake.click(fallback[0], f"g:{row.id}:-:pn", user=world.carol))
    assert "not playing in this game" in ephemeral_replies(new)[0].content


async def test_stale_and_double_clicks_are_refused(fake, world):
    row = await start_game(fake, world)
    [panel_a] = fake.dms_to(world.alice)
    # A double click: two interactions built from the same message before either is answered.
    first = pick(fake, panel_a, "call tails", world.alice)
    second = pick(fake, panel_a, "call tails", world.alice)
    await fake.invoke(first)
    version = (await fake.bot.store.get_game(row.id)).version
    new = await fake.invoke(second)
    assert any("earlier moment" in r.content for r in new if r.ephemeral)
    assert (await fake.bot.store.get_game(row.id)).version == version


async def test_other_players_button_is_refused_politely(fake, world):
    row = await start_game(fake, world)
    [panel_a] = fake.dms_to(world.alice)
    await fake.invoke(pick(fake, panel_a, "call tails", world.alice))
    # Alice again, while only Bob has to call: told whom the game waits for, by name.
    new = await fake.invoke(fake.slash(fake.bot, "coinflip move", user=world.alice,
                                       channel=fake.channels[row.thread_id], move="call heads"))
    assert any(f"waiting for {world.bob.name}" in (r.content or "").lower() for r in new)
    # Carol (not a player) types a move:
    new = await fake.invoke(fake.slash(fake.bot, "coinflip move", user=world.carol,
                                       channel=fake.channels[row.thread_id], move="call heads"))
    assert any("not playing" in r.content or "no Coin Flip game" in r.content
               for r in new if r.ephemeral)


async def test_unexpected_errors_get_a_reference(fake, world, monkeypatch, caplog):
    row = await start_game(fake, world)

    async def boom(*a, **k):
        raise RuntimeError("secret: tails")

    monkeypatch.setattr(fake.bot.tables, "play", boom)
    new = await fake.invoke(fake.slash(fake.bot, "coinflip move", user=world.alice,
                                       channel=fake.channels[row.thread_id], move="call heads"),
                            check=False)
    assert len(fake.errors) == 1  # logged once, with its reference; then cleared on purpose
    fake.errors.clear()
    [reply] = [r for r in new if r.content and "ref" in r.content]
    assert reply.ephemeral and "Something went wrong" in reply.content
    assert "tails" not in reply.content
    ref = reply.content.split("ref ")[1].split(")")[0]
    [logged] = [rec.getMessage() for rec in caplog.records if ref in rec.getMessage()]
    assert "/coinflip move" in logged and "call heads" not in logged  # the move stays private


# ---- races (issue #11.4) ------------------------------------------------------------------------

async def test_twenty_simultaneous_joins_are_all_stored_or_refused(fake, world):
    """Twenty Join clicks arrive before any is answered: every one who was told 'joined' is
    at the table, and the rest were refused (the table seats at most max_players)."""
    await fake.invoke(fake.slash(fake.bot, "coinflip open", user=world.alice,
                                 channel=world.games))
    msg = fake.messages_in(world.games)[-1]
    join = challenge_buttons(msg)["join"]
    cid = int(join.split(":")[1])
    # A bigger table than Coin Flip's own limit, so that every click has room.
    await fake.bot.store.update_challenge(cid, max_players=30)
    players = [world.guild.add_member(fake.add_user(f"player{i}")) for i in range(20)]
    for user in players:
        fake.feed(fake.click(msg, join, user=user))
    requests = await fake.settle()
    refused = [r for r in requests if r.ephemeral]
    assert refused == []
    ch = await fake.bot.store.get_challenge(cid)
    assert sorted(ch["joined"]) == sorted([world.alice.id] + [u.id for u in players])


async def test_simultaneous_joins_past_a_full_table_are_refused_not_lost(fake, world):
    await fake.invoke(fake.slash(fake.bot, "coinflip open", user=world.alice,
                                 channel=world.games))
    msg = fake.messages_in(world.games)[-1]
    join = challenge_buttons(msg)["join"]
    cid = int(join.split(":")[1])
    await fake.bot.store.update_challenge(cid, max_players=5)
    players = [world.guild.add_member(fake.add_user(f"player{i}")) for i in range(20)]
    for user in players:
        fake.feed(fake.click(msg, join, user=user))
    requests = await fake.settle()
    full = [r for r in requests if r.ephemeral and "full" in (r.content or "")]
    ch = await fake.bot.store.get_challenge(cid)
    assert len(ch["joined"]) == 5 and len(full) == 16


async def test_both_players_asking_to_abort_at_once_abort_the_game(fake, world):
    """Each `/games abort` adds its player to the requests in one atomic store step
    (store.request_abort), so two requests at the same moment both count."""
    row = await start_game(fake, world)
    thread = fake.channels[row.thread_id]
    for user in (world.alice, world.bob):
        fake.feed(fake.slash(fake.bot, "games abort", user=user, channel=thread, game=row.id))
    await fake.settle()
    assert (await fake.bot.store.get_game(row.id)).status == "aborted"


async def test_a_challenge_expires_through_the_one_scheduler(fake, world):
    """No task per challenge: the table's scheduler expires it, once, whichever process looks."""
    import asyncio
    msg = await open_challenge(fake, world)
    cid = int(challenge_buttons(msg)["accept"].split(":")[1])
    await fake.bot.store.update_challenge(cid, expires_at=1.0)  # its ten minutes are over
    await fake.bot.tables.run_due()
    await fake.settle()
    assert "Expired" in fake.messages_in(world.games)[-1].content
    assert (await fake.bot.store.get_challenge(cid))["status"] == "expired"
    assert not [t for t in asyncio.all_tasks()
                if t.get_name().startswith("referee-challenge")]


# ---- issue #27.3: an Accept whose reply fails is not stuck ---------------------------------------

@pytest.mark.parametrize("status,code", [(500, 0), (404, 10062)])
async def test_an_accept_whose_reply_fails_leaves_the_challenge_open(fake, world, status, code):
    """Discord fails the Accept click's reply (an outage; the 3 s window missed): no game was
    made, so the challenge is open again: a second Accept starts the game."""
    msg = await open_challenge(fake, world)
    accept = challenge_buttons(msg)["accept"]
    cid = int(accept.split(":")[1])
    fake.fail_next("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                   status=status, code=code, times=2)  # the defer, and the error reply
    await fake.invoke(fake.click(msg, accept, user=world.bob), check=False)
    fake.errors.clear()  # the failed reply is logged (with its reference) on purpose
    assert (await fake.bot.store.get_challenge(cid))["status"] == "open"
    assert await fake.bot.store.active_games() == []
    new = await fake.invoke(fake.click(msg, accept, user=world.bob))
    assert not [r for r in new if r.ephemeral and "no longer open" in (r.content or "")]
    [row] = await fake.bot.store.active_games()
    assert row.players == [world.alice.id, world.bob.id]
    assert (await fake.bot.store.get_challenge(cid))["status"] == "accepted"


async def test_an_accept_that_fails_still_lets_the_challenge_expire(fake, world):
    msg = await open_challenge(fake, world)
    accept = challenge_buttons(msg)["accept"]
    cid = int(accept.split(":")[1])
    fake.fail_next("POST", "/interactions/{webhook_id}/{webhook_token}/callback", times=2)
    await fake.invoke(fake.click(msg, accept, user=world.bob), check=False)
    fake.errors.clear()
    await fake.bot.store.update_challenge(cid, expires_at=1.0)
    await fake.bot.tables.run_due()
    await fake.settle()
    assert (await fake.bot.store.get_challenge(cid))["status"] == "expired"
    closed = fake.messages_in(world.games)[-1]
    assert "Expired" in closed.content and closed.custom_ids == []


async def test_a_challenge_left_starting_by_a_dead_process_is_repaired(fake, world):
    """A process killed between the claim and the game: the sweep finds the challenge still
    'starting', with no game, well past its time, and closes it (message and buttons too)."""
    msg = await open_challenge(fake, world)
    cid = int(challenge_buttons(msg)["accept"].split(":")[1])
    assert await fake.bot.store.claim_challenge(cid, "open", "starting")
    await fake.bot.store.update_challenge(cid, expires_at=1.0)
    await fake.bot.tables.run_due()
    await fake.settle()
    assert (await fake.bot.store.get_challenge(cid))["status"] == "expired"
    closed = fake.messages_in(world.games)[-1]
    assert "Expired" in closed.content and closed.custom_ids == []


async def test_a_failed_edit_after_the_game_started_still_retires_the_buttons(fake, world):
    """The game exists; only the interaction's edit failed: the message is edited by REST."""
    msg = await open_challenge(fake, world)
    accept = challenge_buttons(msg)["accept"]
    fake.fail_next("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    await fake.invoke(fake.click(msg, accept, user=world.bob))
    [row] = await fake.bot.store.active_games()
    edited = fake.messages_in(world.games)[-1]
    assert "is on in" in edited.content and edited.custom_ids == []


# ---- issue #27.10: one user cannot flood a channel with challenges and tables -------------------

async def test_at_most_three_open_challenges_per_user(fake, world):
    msgs = [await open_challenge(fake, world) for _ in range(3)]
    new = await fake.invoke(fake.slash(fake.bot, "coinflip challenge", user=world.alice,
                                       channel=world.games, opponent=world.bob))
    [refusal] = new
    assert refusal.ephemeral and "3 challenges" in refusal.content and "Cancel" in refusal.content
    assert len(fake.messages_in(world.games)) == 3  # nothing posted, nobody pinged
    # Someone else may still challenge; and once one is answered, Alice may again.
    await fake.invoke(fake.click(msgs[0], challenge_buttons(msgs[0])["cancel"], user=world.alice))
    await open_challenge(fake, world)
    assert len([m for m in fake.messages_in(world.games) if m.custom_ids]) == 3


async def test_at_most_two_open_tables_per_user(fake, world):
    for _ in range(2):
        await fake.invoke(fake.slash(fake.bot, "coinflip open", user=world.alice,
                                     channel=world.games))
    new = await fake.invoke(fake.slash(fake.bot, "coinflip open", user=world.alice,
                                       channel=world.games))
    [refusal] = new
    assert refusal.ephemeral and "2 open tables" in refusal.content
    assert len(fake.messages_in(world.games)) == 2
    # A table does not count against challenges, nor another user's.
    await open_challenge(fake, world)
    await fake.invoke(fake.slash(fake.bot, "coinflip open", user=world.bob, channel=world.games))
    assert len(fake.messages_in(world.games)) == 4


async def test_challenges_over_for_a_day_are_purged(fake, world):
    import time
    from bot.lobby import PURGE_EVERY
    ids = []
    for _ in range(3):
        msg = await open_challenge(fake, world)
        ids.append(int(challenge_buttons(msg)["accept"].split(":")[1]))
    old, recent, still_open = ids
    store = fake.bot.store
    await store.update_challenge(old, status="expired", expires_at=time.time() - 2 * 86400)
    await store.update_challenge(recent, status="declined", expires_at=time.time() - 3600)
    fake.bot.lobby._purged_at -= PURGE_EVERY  # the last purge (at start) was an hour ago
    await fake.bot.tables.run_due()
    await fake.settle()
    assert await store.get_challenge(old) is None
    assert (await store.get_challenge(recent))["status"] == "declined"
    assert (await store.get_challenge(still_open))["status"] == "open"


async def test_a_game_that_cannot_be_made_reopens_the_challenge(fake, world, monkeypatch):
    """The thread was made, then the game could not be (the database failed): the challenge
    is open again, the thread says nothing will happen there, the player gets a reference."""
    msg = await open_challenge(fake, world)
    accept = challenge_buttons(msg)["accept"]
    cid = int(accept.split(":")[1])
    create = fake.bot.tables.create

    async def broken(*a, **k):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(fake.bot.tables, "create", broken)
    new = await fake.invoke(fake.click(msg, accept, user=world.bob), check=False)
    assert len(fake.errors) == 1  # logged once, with its reference
    fake.errors.clear()
    assert any("Something went wrong" in (r.content or "") for r in new if r.ephemeral)
    assert (await fake.bot.store.get_challenge(cid))["status"] == "open"
    [thread] = [c for c in fake.channels.values() if c.is_thread]
    assert "could not start" in fake.messages_in(thread)[-1].content
    monkeypatch.setattr(fake.bot.tables, "create", create)
    await fake.invoke(fake.click(msg, accept, user=world.bob))
    [row] = await fake.bot.store.active_games()
    assert (await fake.bot.store.get_challenge(cid))["game_id"] == row.id
