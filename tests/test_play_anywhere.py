"""Play anywhere (issue #24): the referee installed to a user's account plays a whole game in a
group DM, or in a server that never added it, through interactions alone — no thread, no DM,
no request of the bot's own to that channel. Secret moves go through the 🔒 ephemeral panel,
the timer is enforced by the next interaction (or Claim timeout), and a card that could not
go out is drawn again by the next interaction."""
from __future__ import annotations

import pytest

from bot import place
from table_play import SHORT, people, play_table, start_table

KINDS = ["slideslam", "tradeshowdown", "deathbydice", "diemen", "kaploom"]
CAP = {"kaploom": 60}   # KAPLOOM! has no short game: its first rounds


def rest_to(fake, channel, mark=0):
    return [r for r in fake.requests[mark:] if r.seam == "rest" and (
        r.args.get("channel_id") == channel.id)]


def where(fake, world, kind_of_place, players):
    users = people(fake, world, players)
    fake.user_install(users[0])          # the host added the app; the others need nothing
    if kind_of_place == "group DM":
        return fake.add_group_dm(users, name="dice night")
    elsewhere = fake.add_guild("Elsewhere", bot_member=False)
    for user in users:
        elsewhere.add_member(user)
    return elsewhere.add_text_channel("lounge")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("kind_of_place", ["group DM", "server without the bot"])
async def test_a_whole_game_by_clicks_never_asks_the_channel(fake, world, kind, kind_of_place):
    channel = where(fake, world, kind_of_place, 2)
    fake.user_install(*people(fake, world, 2))   # the clicker may type a move as a last resort
    count = await play_table(fake, world, kind, seed=3, options=SHORT.get(kind),
                             max_moves=CAP.get(kind, 3000), channel=channel)
    row = await fake.bot.store.latest_game_in(channel.id, kind)
    assert row.thread_id is None and place.of_row(row) == place.HERE
    assert count.moves > 0 and (count.finished or kind in CAP)
    asked = rest_to(fake, channel)
    assert asked == [], [(r.method, r.route) for r in asked][:5]
    assert count.stray_pings == 0 and count.seat_codes_shown == 0, count.stray_examples[:3]
    dms = {fake.dm_channel(u).id for u in people(fake, world, 2)}
    assert not [m for m in fake.messages.values() if m.channel_id in dms], "a DM was sent"
    assert [m for m in fake.messages_in(channel) if m.payload.get("webhook_id")]
    if kind != "slideslam":   # its set-up is the only secret step, and a click reaches it
        assert count.paths["panel_button_clicks"] > 0   # secret steps: the 🔒 panel


async def test_practice_in_a_group_dm(fake, world):
    gdm = where(fake, world, "group DM", 2)
    new = await fake.invoke(fake.slash(fake.bot, "slideslam practice", user=world.alice,
                                       channel=gdm, level="easy"))
    [row] = await fake.bot.store.active_games()
    assert place.of_row(row) == place.HERE and fake.bot.user.id in row.players
    assert any(r.ephemeral and "the table is below" in r.content for r in new)
    assert card(fake, gdm).custom_ids
    assert rest_to(fake, gdm) == []


async def start_here(fake, world, kind="slideslam", **options):
    gdm = where(fake, world, "group DM", 2)
    row, users = await start_table(fake, world, kind, options=options or SHORT.get(kind),
                                   channel=gdm)
    return gdm, row, users


async def takeaway_here(fake, world, channel):
    """Alice challenges Bob to the test game in `channel`, he accepts: the game's row."""
    await fake.invoke(fake.slash(fake.bot, "takeaway challenge", user=world.alice,
                                 channel=channel, opponent=world.bob, pile=9))
    lobby = fake.messages_in(channel)[-1]
    await fake.invoke(fake.click(lobby, next(c for c in lobby.custom_ids
                                             if c.endswith(":accept")), user=world.bob))
    return await fake.bot.store.latest_game_in(channel.id, "takeaway")


def card(fake, gdm):
    return next(m for m in reversed(fake.messages_in(gdm)) if m.custom_ids and any(
        ":ct" in c or ":mv:" in c or ":pn" in c for c in m.custom_ids))


async def test_the_timer_is_enforced_by_the_next_interaction(fake, world):
    gdm, row, users = await start_here(fake, world, "slideslam")
    tables = fake.bot.tables
    row = await fake.bot.store.get_game(row.id)
    assert row.deadline is not None
    assert "anyone may claim it" in card(fake, gdm).content
    # The scheduler cannot post here: when time runs out, nothing happens by itself...
    later = row.deadline + 1
    tables.clock = lambda: later
    mark = len(fake.requests)
    await tables.run_due()
    await fake.settle()
    assert fake.requests[mark:] == [] and (await fake.bot.store.get_game(row.id)).version \
        == row.version
    # ... until someone interacts: Claim timeout settles the late turn first.
    current = card(fake, gdm)
    claim = next(c for c in current.custom_ids if c.endswith(":ct"))
    new = await fake.invoke(fake.click(current, claim, user=users[1]))
    after = await fake.bot.store.get_game(row.id)
    assert after.version > row.version
    assert "Time ran out" in "\n".join(m.content for m in fake.messages_in(gdm))
    assert any(r.ephemeral and "Time had run out" in r.content for r in new)
    assert rest_to(fake, gdm, mark) == []


async def test_claim_timeout_before_time_is_refused_with_when(fake, world):
    gdm, row, users = await start_here(fake, world, "slideslam")
    current = card(fake, gdm)
    claim = next(c for c in current.custom_ids if c.endswith(":ct"))
    new = await fake.invoke(fake.click(current, claim, user=users[1]))
    [answer] = [r for r in new if r.content]
    assert answer.ephemeral and "Time runs out <t:" in answer.content
    assert (await fake.bot.store.get_game(row.id)).version == row.version


async def test_a_lost_follow_up_is_drawn_by_the_next_interaction(fake, world):
    gdm = where(fake, world, "group DM", 2)
    row = await takeaway_here(fake, world, gdm)
    first = card(fake, gdm)
    assert "game #" in first.content
    # Every token the table holds goes stale (16 minutes of Discord's clock): the move stands,
    # but its card cannot reach the group DM.
    fake.advance(minutes=16)
    before = len(fake.messages_in(gdm))
    await fake.bot.tables.play(row.id, world.alice.id, "take 2", by=world.alice.id)
    await fake.settle()
    assert len(fake.messages_in(gdm)) == before
    owed = await fake.bot.store.get_game(row.id)
    assert owed.extra.get("owed") and owed.version > row.version
    # The next click on the game (here, Bob's on the old card) draws the current card,
    # through itself, and tells him what happened.
    take = next(c for c in first.custom_ids if c.endswith(":mv:take 1"))
    new = await fake.invoke(fake.click(first, take, user=world.bob))
    latest = fake.messages_in(gdm)[-1]
    assert len(fake.messages_in(gdm)) == before + 1 and "Alice takes 2; 7 left." in latest.content
    assert any(r.ephemeral and "drawn again" in r.content for r in new)
    assert not (await fake.bot.store.get_game(row.id)).extra.get("owed")
    assert (await fake.bot.store.get_game(row.id)).version == owed.version   # his stale click
    assert rest_to(fake, gdm) == []


async def test_replies_made_private_by_the_server_leave_the_game_intact(fake, world):
    """'Use External Apps' turned off mid-game: Discord shows a user-installed app's replies to
    their user only. The table's card is not the table's then; the game stands, and a click is
    told what to do instead of seeing nothing."""
    lounge = where(fake, world, "server without the bot", 2)
    row = await takeaway_here(fake, world, lounge)
    first = card(fake, lounge)
    fake.external_apps_off(lounge)
    take = next(c for c in first.custom_ids if c.endswith(":mv:take 2"))
    await fake.invoke(fake.click(first, take, user=world.alice))
    moved = await fake.bot.store.get_game(row.id)
    assert moved.version > row.version and moved.extra.get("owed")   # the move stands
    assert card(fake, lounge).id == first.id   # no public card: Alice alone saw the new one
    mine = [m for m in fake.messages.values() if m.channel_id == lounge.id and m.ephemeral
            and m.audience == world.alice.id and "Alice takes 2" in m.content]
    assert mine
    new = await fake.invoke(fake.click(first, next(c for c in first.custom_ids
                                                   if c.endswith(":mv:take 1")), user=world.bob))
    assert any(r.ephemeral and "/takeaway board" in r.content for r in new)
    assert (await fake.bot.store.get_game(row.id)).version == moved.version
    assert rest_to(fake, lounge) == []


async def test_a_challenge_only_its_author_can_see_is_called_off(fake, world):
    lounge = where(fake, world, "server without the bot", 2)
    fake.external_apps_off(lounge)
    new = await fake.invoke(fake.slash(fake.bot, "takeaway challenge", user=world.alice,
                                       channel=lounge, opponent=world.bob, pile=9))
    assert any(r.ephemeral and "nobody else can see" in r.content for r in new)
    assert await fake.bot.store.open_challenges() == []


async def test_records_ratings_and_replays_work_the_same_there(fake, world):
    gdm = where(fake, world, "group DM", 2)
    fake.user_install(world.bob)
    count = await play_table(fake, world, "slideslam", seed=3, options=SHORT.get("slideslam"),
                             channel=gdm)
    assert count.finished
    row = await fake.bot.store.latest_game_in(gdm.id, "slideslam")
    mark = len(fake.requests)
    for path, options in (("games export", {"game": row.id}), ("games history", {}),
                          ("games profile", {}), ("games replay", {"game": row.id})):
        new = await fake.invoke(fake.slash(fake.bot, path, user=world.alice, channel=gdm,
                                           **options))
        answers = [r for r in new if r.content or r.files]
        assert answers and all(r.seam == "webhook" for r in new), (path, new)
    exported = [r for r in fake.requests[mark:] if any(
        str(getattr(f, "filename", "")).endswith(".json") for f in r.files or [])]
    assert exported, "the record was not exported"
    assert rest_to(fake, gdm) == []
    rated = await fake.bot.store._all("SELECT COUNT(*) FROM ratings")
    assert rated and rated[0][0] >= 2   # both players rated, as anywhere


async def test_a_token_past_its_five_follow_ups_leaves_the_book(fake, world):
    """Discord gives a user-installed app 5 follow-ups an interaction in a server that did not
    add it: the sixth is refused, that token is dropped, and what it could not carry falls to
    the next way (here none: the card is owed, and the next interaction draws it)."""
    import discord
    from bot import carrier
    lounge = where(fake, world, "server without the bot", 2)
    row = await takeaway_here(fake, world, lounge)
    unreachable = place.Unreachable(lounge.id)
    sent = []
    with pytest.raises(discord.Forbidden):
        for i in range(7):
            sent.append(await carrier.send(fake.bot, row.id, unreachable,
                                           lambda i=i: {"content": f"note {i}"},
                                           lambda make: unreachable.send(**make())))
    # the Accept click had made one follow-up (the first card): four more, then refused
    assert [m.content for m in sent] == [f"note {i}" for i in range(4)]
    assert carrier._candidates(fake.bot, row.id, lounge.id) == []
    assert rest_to(fake, lounge) == []


async def test_a_typed_move_there_answers_in_one_message_and_carries_the_card(fake, world):
    gdm = where(fake, world, "group DM", 2)
    fake.user_install(world.bob)
    await takeaway_here(fake, world, gdm)
    new = await fake.invoke(fake.slash(fake.bot, "takeaway move", user=world.bob, channel=gdm,
                                       move="take 3"))
    assert any("not your move" in r.content for r in new if r.route.endswith("@original"))
    answers = [m for m in fake.messages.values() if m.audience == world.bob.id]
    assert len(answers) == 1 and "not your move" in answers[0].content   # in place of "⏳"
    new = await fake.invoke(fake.slash(fake.bot, "takeaway move", user=world.alice,
                                       channel=gdm, move="take 3"))
    assert "Alice takes 3; 6 left." in fake.messages_in(gdm)[-1].content
    assert rest_to(fake, gdm) == []
