"""A move made by a click publishes through that click (issue #23 item 1): the turn message is
edited as the click's own answer, a new turn message is its follow-up, and none of it uses the
bot's own REST routes (bound to Discord's global rate limit). What the interaction cannot carry
(a token too old, a failed follow-up) goes over REST, and nothing is lost."""
from __future__ import annotations

import datetime as dt

import discord
import pytest

import bot.carrier as carrier
from table_play import _message
from test_lobby_flow import challenge_buttons, pick, start_game, thread_text


async def start(fake, world, pile=9):
    await fake.invoke(fake.slash(fake.bot, "takeaway challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob, pile=pile))
    msg = fake.messages_in(world.games)[-1]
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    return (await fake.bot.store.active_games())[-1]


def take(fake, msg, n, user):
    cid = next(c for c in msg.custom_ids if c.endswith(f":mv:take {n}"))
    return fake.click(msg, cid, user=user)


def rest_in(requests, channel_id):
    return [r for r in requests if r.seam == "rest" and r.args.get("channel_id") == channel_id]


async def test_a_click_publishes_through_its_own_interaction(fake, world):
    row = await start(fake, world)
    card = fake.messages_in(row.thread_id)[-1]
    assert world.alice.mention in card.content
    new = await fake.invoke(take(fake, card, 2, world.alice))
    assert rest_in(new, row.thread_id) == [], [(r.method, r.route) for r in new]
    callbacks = [r for r in new if r.route.endswith("/callback")]
    # The click's answer is the edit that takes the buttons off its card (UPDATE_MESSAGE);
    # the new card is its follow-up: two requests, none bound to the global limit.
    assert [r.callback_type for r in callbacks] == [7]
    assert len(new) == 2, [(r.method, r.route) for r in new]
    posts = fake.messages_in(row.thread_id)
    nxt = posts[-1]
    assert nxt.id != card.id and "Alice takes 2; 7 left." in nxt.content
    assert world.bob.mention in nxt.content and world.alice.mention not in nxt.content
    assert fake.messages[card.id].custom_ids == []  # the old card lost its buttons
    # Bob answers on the card the follow-up made: the same path again.
    new = await fake.invoke(take(fake, nxt, 3, world.bob))
    assert rest_in(new, row.thread_id) == []
    assert "Bob takes 3; 4 left." in fake.messages_in(row.thread_id)[-1].content


async def test_an_old_token_falls_back_to_rest_and_loses_nothing(fake, world, monkeypatch):
    row = await start(fake, world)
    monkeypatch.setattr(carrier, "TOKEN_LIFE", dt.timedelta(seconds=-1))
    card = fake.messages_in(row.thread_id)[-1]
    new = await fake.invoke(take(fake, card, 1, world.alice))
    # The old card loses its buttons first, then the new one is posted.
    assert [r.method for r in rest_in(new, row.thread_id)] == ["PATCH", "POST"]
    assert "Alice takes 1; 8 left." in fake.messages_in(row.thread_id)[-1].content
    assert fake.messages[card.id].custom_ids == []


async def test_a_failed_follow_up_is_posted_over_rest(fake, world, monkeypatch):
    row = await start(fake, world)
    real = discord.Webhook.send

    async def failing(self, *args, **kwargs):
        if not kwargs.get("ephemeral"):
            raise discord.HTTPException(type("R", (), {"status": 503, "reason": "down"})(),
                                        "the follow-up failed")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.Webhook, "send", failing)
    card = fake.messages_in(row.thread_id)[-1]
    new = await fake.invoke(take(fake, card, 3, world.alice))
    posted = [r for r in rest_in(new, row.thread_id) if r.method == "POST"]
    assert len(posted) == 1 and world.bob.mention in posted[0].content
    assert "Alice takes 3; 6 left." in fake.messages_in(row.thread_id)[-1].content


@pytest.mark.parametrize("pile", [12])
async def test_a_whole_game_by_clicks_needs_no_global_requests_after_the_start(fake, world,
                                                                               pile):
    row = await start(fake, world, pile)
    mark = len(fake.requests)
    moves = 0
    users = [world.alice, world.bob]
    while (await fake.bot.store.get_game(row.id)).status == "active":
        card = fake.messages_in(row.thread_id)[-1]
        await fake.invoke(take(fake, card, 1 + moves % 2, users[moves % 2]))
        moves += 1
    assert moves >= 6
    assert [r for r in fake.requests[mark:] if r.seam == "rest"] == []


# The book (bot/carrier.py): a click's token serves the game's later moves while it lives.
async def call_round(fake, world, row, alice="call heads", bob="call tails"):
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], alice, world.alice))
    await fake.invoke(pick(fake, fake.dms_to(world.bob)[-1], bob, world.bob))


def dm_posts(fake, requests, *users):
    dms = {fake.dm_channel(u).id for u in users}
    return [r for r in requests if r.method == "POST" and (
        r.args.get("channel_id") in dms)]


async def test_a_seats_next_panel_is_a_follow_up_of_its_own_last_click(fake, world):
    row = await start_game(fake, world, target=3)
    await call_round(fake, world, row)
    mark = len(fake.requests)
    await call_round(fake, world, row)   # round 2's panels went out with round 1's flip
    new = fake.requests[mark:]
    assert dm_posts(fake, new, world.alice, world.bob) == []   # no REST into a DM
    # Round 3's panel for Alice (who waited for Bob): a follow-up made with her own round-2
    # click. Bob's call ended the round: the panel he pressed became round 3's in place, as
    # his click's own answer (no new message, no old one to retire; issue #22).
    followups = [r for r in new if r.seam == "webhook" and r.method == "POST"
                 and not r.route.endswith("/callback")]
    owners = [fake.interactions[r.args["webhook_token"]].user.id for r in followups]
    assert owners == [world.alice.id]
    panel = fake.dms_to(world.alice)[-1]
    assert panel.token is not None and fake.interactions[panel.token].user.id == world.alice.id
    pressed = fake.dms_to(world.bob)[-1]
    assert len(fake.dms_to(world.bob)) == 1   # one panel the whole game so far
    for panel in (fake.dms_to(world.alice)[-1], pressed):
        assert "call heads" in " ".join(panel.custom_ids)


async def test_a_move_made_in_a_dm_changes_the_thread_through_the_last_click_there(fake,
                                                                                   world):
    row = await start_game(fake, world, target=3)
    card = fake.messages_in(row.thread_id)[-1]
    lock = next(c for c in card.custom_ids if c.endswith(":pn"))
    await fake.invoke(fake.click(card, lock, user=world.alice))   # her panel, in the thread
    await call_round(fake, world, row)   # both call in their DMs; the flip is public
    # The new card is a follow-up of her click (the first card, posted over REST when the
    # game started, could only lose its buttons over REST).
    second = fake.messages_in(row.thread_id)[-1]
    assert "The coin shows" in second.content and second.token is not None
    mark = len(fake.requests)
    await call_round(fake, world, row)
    new = fake.requests[mark:]
    assert rest_in(new, row.thread_id) == [], [(r.method, r.route) for r in new]
    assert fake.messages_in(row.thread_id)[-1].id != second.id
    assert fake.messages[second.id].custom_ids == []   # lost its buttons through her token
    assert thread_text(fake, row).count("The coin shows") == 2


async def test_a_spent_token_leaves_the_book_and_rest_carries_the_move(fake, world, monkeypatch):
    row = await start_game(fake, world, target=3)
    await call_round(fake, world, row)
    monkeypatch.setattr(carrier, "TOKEN_LIFE", dt.timedelta(seconds=-1))
    mark = len(fake.requests)
    await call_round(fake, world, row)
    new = fake.requests[mark:]
    assert len(dm_posts(fake, new, world.alice, world.bob)) == 2   # both panels over REST
    for user in (world.alice, world.bob):
        assert "call heads" in " ".join(fake.dms_to(user)[-1].custom_ids)


async def test_a_slow_move_is_answered_in_time_and_still_carried(fake, world, monkeypatch):
    """Discord drops a click unanswered for 3 s: a move that takes longer than ANSWER_WITHIN
    is answered "deferred" first, and its publishing still rides on the click."""
    row = await start(fake, world)
    monkeypatch.setattr(carrier, "ANSWER_WITHIN", 0.01)
    play = fake.bot.tables.play
    mark = len(fake.requests)
    answered_before_the_move: list = []

    async def slow(*args, **kwargs):
        await __import__("asyncio").sleep(0.05)
        answered_before_the_move.extend(r.callback_type for r in fake.requests[mark:])
        return await play(*args, **kwargs)
    monkeypatch.setattr(fake.bot.tables, "play", slow)
    card = fake.messages_in(row.thread_id)[-1]
    new = await fake.invoke(take(fake, card, 2, world.alice))
    assert answered_before_the_move == [6]
    assert [r.callback_type for r in new if r.route.endswith("/callback")] == [6]
    assert rest_in(new, row.thread_id) == []
    assert "Alice takes 2; 7 left." in fake.messages_in(row.thread_id)[-1].content


async def test_a_typed_move_is_answered_once(fake, world, monkeypatch):
    """`/<game> move` answers with its private reply alone, after the move (no "thinking…"
    first); a slow one says "thinking…" in time and the reply fills it."""
    row = await start(fake, world)
    thread = fake.channels[row.thread_id]
    new = await fake.invoke(fake.slash(fake.bot, "takeaway move", user=world.alice,
                                       channel=thread, move="take 1"))
    callbacks = [r for r in new if r.route.endswith("/callback")]
    assert [r.callback_type for r in callbacks] == [4]
    assert int(_message(callbacks[0])["flags"]) & 64  # private
    assert "Alice takes 1; 8 left." in fake.messages_in(row.thread_id)[-1].content
    monkeypatch.setattr(carrier, "ANSWER_WITHIN", 0.01)
    play = fake.bot.tables.play

    async def slow(*args, **kwargs):
        await __import__("asyncio").sleep(0.05)
        return await play(*args, **kwargs)
    monkeypatch.setattr(fake.bot.tables, "play", slow)
    new = await fake.invoke(fake.slash(fake.bot, "takeaway move", user=world.bob,
                                       channel=thread, move="take 1"))
    assert [r.callback_type for r in new if r.route.endswith("/callback")] == [5]
    private = [m for m in map(_message, new) if m and int(m.get("flags") or 0) & 64]
    # one private message: the "thinking…" the reply then filled
    assert len({m["id"] for m in private}) == 1 and "take 1" in private[-1]["content"].lower()
    assert "Bob takes 1; 7 left." in fake.messages_in(row.thread_id)[-1].content


async def test_a_publish_ends_its_outbox_row_with_its_notes(fake, world, monkeypatch):
    """One write as a publish finishes: its notes and its outbox row's end together
    (`save_published`), not a write for each."""
    row = await start(fake, world)
    store, calls = fake.bot.store, []
    for name in ("published", "save_published", "update_extra"):
        original = getattr(store, name)

        async def spy(*args, _name=name, _original=original, **kwargs):
            calls.append(_name)
            return await _original(*args, **kwargs)
        monkeypatch.setattr(store, name, spy)
    await fake.invoke(take(fake, fake.messages_in(row.thread_id)[-1], 2, world.alice))
    assert calls == ["save_published"]
    assert await store._all("SELECT id FROM outbox WHERE game_id=?", (row.id,)) == []
