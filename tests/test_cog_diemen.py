"""Crazy Die-Man in Discord, through discord.py's real parsing (tests/fakediscord.py): the secret
banner set-up, the Stand Cry vote, simulated flicks (odds first, then Flick!), physical reports
with Accept/Dispute, mode switches, Reposition, errors, and a whole game with commands and
buttons."""
from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

import bot.tables
from bot.engine.diemen import DieMen, board
from bot.engine.diemen.odds import flick_odds
from fakediscord import RefusedPayload

EPHEMERAL = 64
A_SPOTS = ["F1", "F2", "B1", "B2"]
B_SPOTS = ["F2", "F3", "B2", "B3"]


# ---- helpers -----------------------------------------------------------------------------------

@pytest.fixture
def fixed_dice(monkeypatch):
    """Reproducible chance: the table's rolls depend on the version only, not a random seed."""
    monkeypatch.setattr(bot.tables, "chance_rng",
                        lambda seed, version, purpose="roll": random.Random(
                            f"diemen-test:{version}:{purpose}"))


def users(world):
    return [world.alice, world.bob]


async def challenge(fake, world, **options):
    await fake.invoke(fake.slash(fake.bot, "diemen challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob, **options))
    msg = fake.messages_in(world.games)[-1]
    accept = next(c for c in msg.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(msg, accept, user=world.bob))
    return (await fake.bot.store.active_games())[-1]


def tag(cid: str) -> str:
    """The tag of a `g:<game>:<version>:<tag>[:<arg>]` component id ("" for other ids)."""
    parts = cid.split(":")
    return parts[3] if cid.startswith("g:") and len(parts) > 3 else ""


def arg(cid: str) -> str:
    parts = cid.split(":", 4)
    return parts[4] if len(parts) > 4 else ""


def key(cid: str) -> str:
    """What a component is for: a menu list's group key (`ms`/`mx`/`nw` ids carry it as their
    arg: `aim`, `bn`, `r`, `o`, `c`), else the component's own tag (`rp`, `mv`, `vt`...)."""
    return arg(cid) if tag(cid) in ("ms", "mx", "nw") and arg(cid) else tag(cid)


def thread_of(fake, row):
    return fake.channels[row.thread_id]


def thread_text(fake, row) -> str:
    return "\n".join(m.text() for m in fake.messages_in(row.thread_id))


def panel_of(fake, user, want="bn"):
    return [m for m in fake.dms_to(user) if any(key(c) == want for c in m.custom_ids)][-1]


async def set_banners(fake, user, spots, message=None):
    panel = message or panel_of(fake, user)
    cid = next(c for c in panel.custom_ids if key(c) == "bn")
    return await fake.invoke(fake.select(panel, cid, spots, user=user))


async def state(fake, row):
    return await fake.bot.tables.load(row.id)


def vote_message(fake, row):
    return [m for m in fake.messages_in(row.thread_id)
            if any(tag(c) == "vt" for c in m.custom_ids)][-1]


async def close_vote(fake, row):
    fresh = await fake.bot.store.get_game(row.id)
    assert fresh.deadline_kind == "vote"
    await fake.bot.tables.expire(row.id, fresh.version)
    await fake.settle()


async def ready(fake, world, mode="simulated", first=0, a=A_SPOTS, b=B_SPOTS, **options):
    """Challenge, accept, both set-ups, the crowd (carol) votes for `first`; P`first+1` to move."""
    row = await challenge(fake, world, mode=mode, **options)
    await set_banners(fake, world.alice, a)
    await set_banners(fake, world.bob, b)
    vote = vote_message(fake, row)
    choice = next(c for c in vote.custom_ids if c.endswith(f":{first + 1}"))
    await fake.invoke(fake.click(vote, choice, user=world.carol))
    await close_vote(fake, row)
    row, game = await state(fake, row)
    assert game.view(None)["active"] == first and game.view(None)["phase"] == "move"
    return row


async def slash(fake, row, path, user, **options):
    return await fake.invoke(fake.slash(fake.bot, f"diemen {path}", user=user,
                                        channel=thread_of(fake, row), **options))


async def play(fake, row, user, move):
    """A move typed in the notation (`/diemen play`)."""
    return await slash(fake, row, "play", user, move=move)


def ephemeral(new):
    return [r for r in new if r.ephemeral and r.content]


async def turn_msg(fake, row):
    fresh = await fake.bot.store.get_game(row.id)
    return fake.messages[fresh.extra["turn_message"]]


def button(msg, move):
    return next(c for c in msg.custom_ids if tag(c) == "mv" and arg(c) == move)


def buttons(msg) -> list[str]:
    return [arg(c) for c in msg.custom_ids if tag(c) == "mv"]


def select_id(msg, want):
    return next(c for c in msg.custom_ids if key(c) == want)


def options_of(msg, want):
    comp = next(c for c in msg.components() if key(c.get("custom_id", "")) == want)
    return [o["value"] for o in comp["options"]]


def labels_of(msg, want):
    comp = next(c for c in msg.components() if key(c.get("custom_id", "")) == want)
    return {o["value"]: o["label"] for o in comp["options"]}


async def click(fake, row, user, move):
    """Press the turn message's button for `move`."""
    msg = await turn_msg(fake, row)
    return await fake.invoke(fake.click(msg, button(msg, move), user=user))


async def choose(fake, row, user, group, values):
    """Pick `values` in the turn message's list `group` (`r`, `o`, `c`, `aim`, `rp`)."""
    msg = await turn_msg(fake, row)
    return await fake.invoke(fake.select(msg, select_id(msg, group), values, user=user))


def report_values(msg, rolled, *fell, off=False):
    """The report menu's values for a roll and what fell (the words, e.g. "Bob's banner on F2")."""
    labels = labels_of(msg, "rp")
    picked = [f"v{rolled}"] + (["off"] if off else [])
    for words in fell:
        picked.append(next(v for v, text in labels.items() if text == f"Fell: {words}"))
    return picked


async def report(fake, row, user, rolled, *fell, off=False):
    msg = await turn_msg(fake, row)
    return await fake.invoke(fake.select(msg, select_id(msg, "rp"),
                                         report_values(msg, rolled, *fell, off=off), user=user))


def last_ephemeral(fake, row, user, containing=""):
    return [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
            if m.audience == user.id and containing in m.text()][-1]


async def press_flick(fake, row, user):
    preview = last_ephemeral(fake, row, user, "Flick!")
    cid = next(c for c in preview.custom_ids if tag(c) == "mv")
    return await fake.invoke(fake.click(preview, cid, user=user))


async def shoot(fake, row, user, move):
    """A simulated shot from the turn message's target list: its chances, then Flick!."""
    await choose(fake, row, user, "aim", [move])
    return await press_flick(fake, row, user)


# ---- challenge and the command tree --------------------------------------------------------------

async def test_challenge_maps_its_options(fake, world):
    row = await challenge(fake, world, mode="simulated", vote_seconds=30)
    assert row.options == {"mode": "simulated", "vote_seconds": 30}
    assert row.players == [world.alice.id, world.bob.id]
    with pytest.raises(RefusedPayload):
        fake.slash(fake.bot, "diemen challenge", user=world.alice, channel=world.games,
                   opponent=world.bob, mode="telepathic")
    with pytest.raises(RefusedPayload):
        fake.slash(fake.bot, "diemen challenge", user=world.alice, channel=world.games,
                   opponent=world.bob, vote_seconds=5)


async def test_default_mode_is_physical(fake, world):
    row = await challenge(fake, world)
    assert row.options["mode"] == "physical"
    text = thread_text(fake, row)
    assert "game #" in text and "check your DMs" in text and "/diemen standcry" in text


# ---- the secret banner set-up -------------------------------------------------------------------

async def test_secret_banner_setup_reveals_nothing_before_both_are_done(fake, world):
    row = await challenge(fake, world, mode="simulated")
    panel_a = panel_of(fake, world.alice)
    comp = next(c for c in panel_a.components() if key(c.get("custom_id", "")) == "bn")
    assert comp["min_values"] == comp["max_values"] == 4
    assert [o["value"] for o in comp["options"]] == list(board.BANNER_SPOTS)
    assert "(Alice)" in panel_a.content and panel_a.files  # own view as a picture
    # the client never sends 3 of a 4-of-6 select
    with pytest.raises(RefusedPayload):
        fake.select(panel_a, comp["custom_id"], ["F1", "F2", "B1"], user=world.alice)

    # a second choice raced from the same panel before the first was answered
    raced = fake.select(panel_a, comp["custom_id"], ["F2", "F3", "B2", "B3"], user=world.alice)
    mark = len(fake.requests)
    await set_banners(fake, world.alice, ["F1", "F3", "B1", "B3"])
    bob_dm = fake.dm_channel(world.bob).id
    assert not [r for r in fake.requests[mark:] if r.args.get("channel_id") == bob_dm], \
        "Bob's panel is not touched when Alice sets up"
    # her panel has nothing left to offer: its select is gone
    assert not any(key(c) == "bn" for c in panel_a.custom_ids)
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "setup" and game.view(None)["sides"][0]["banners"] == []
    assert any("Your banners: F1 F3 B1 B3" in m.content for m in fake.dms_to(world.alice))
    text = thread_text(fake, row)
    assert "Alice has set up their banners in secret" in text
    assert "F1 F3 B1 B3" not in text and "revealed" not in text.lower()
    files = [f for m in fake.messages_in(row.thread_id) for f in m.files]
    assert files, "the thread shows the board"
    for f in files:
        assert "F1 F3" not in (f.description or "") and "Your banners" not in f.description
    # The public picture carries nothing of the choice: it is the same bytes whatever P1 chose.
    other = DieMen.new(2, {"mode": "simulated"}, names=["Alice", "Bob"])
    other.apply(0, "banners F2 F3 B2 B3")
    from rendering.diemen import render
    assert render(other.view(None)).png == files[-1].data
    # Bob's private panel did not change when Alice set up (only his own facts change it).
    _, game = await state(fake, row)
    cog = fake.bot.game_cogs["diemen"]
    before = DieMen.new(2, {"mode": "simulated"}, names=["Alice", "Bob"])
    fresh = await fake.bot.store.get_game(row.id)
    pic_now = await cog.picture(fresh, game, 1)
    pic_before = await cog.picture(fresh, before, 1)
    assert pic_now.png == pic_before.png and pic_now.alt == pic_before.alt
    # Bob's panel is still his to use; Alice's raced choice is refused as stale.
    new = await fake.invoke(raced)
    [refusal] = ephemeral(new)
    assert "your banners are set up; waiting for Bob" in refusal.content
    _, game = await state(fake, row)
    assert game.view(0)["my_setup"] == ["F1", "F3", "B1", "B3"]

    await set_banners(fake, world.bob, B_SPOTS)
    text = thread_text(fake, row)
    assert "Banners revealed: Alice F1 F3 B1 B3; Bob F2 F3 B2 B3" in text


async def test_typed_setup_errors_are_the_engines_words(fake, world):
    row = await challenge(fake, world)
    new = await fake.invoke(fake.slash(fake.bot, "diemen play", user=world.alice,
                                       channel=fake.dm_channel(world.alice),
                                       move="banners F1 F2"))
    [err] = ephemeral(new)
    assert "Name 4 different banner spots" in err.content
    new = await slash(fake, row, "play", world.alice, move="banners F1 F2 S1 B1")
    assert "Banners go on your banner spots" in ephemeral(new)[0].content
    _, game = await state(fake, row)
    assert game.view(0)["my_setup"] is None


async def test_closed_dms_get_the_secret_panel_in_the_thread(fake, world):
    fake.close_dms(world.bob)
    row = await challenge(fake, world)
    assert fake.dms_to(world.bob) == []
    [fallback] = [m for m in fake.messages_in(row.thread_id)
                  if any(tag(c) == "pn" for c in m.custom_ids) and world.bob.mention in m.content
                  and "secret panel is here" in m.content]
    new = await fake.invoke(fake.click(fallback, f"g:{row.id}:-:pn", user=world.carol))
    assert "not playing in this game" in ephemeral(new)[0].content
    await fake.invoke(fake.click(fallback, f"g:{row.id}:-:pn", user=world.bob))
    panel = [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
             if m.audience == world.bob.id and any(key(c) == "bn" for c in m.custom_ids)]
    assert panel and panel[-1].ephemeral and "(Bob)" in panel[-1].content
    await set_banners(fake, world.bob, B_SPOTS, message=panel[-1])
    _, game = await state(fake, row)
    assert game.view(None)["setup_done"] == [False, True]
    assert "F2 F3 B2 B3" not in thread_text(fake, row)


# ---- the Stand Cry and the crowd vote -----------------------------------------------------------

async def test_stand_cry_vote_picks_the_first_player(fake, world):
    row = await challenge(fake, world, mode="simulated", vote_seconds=30)
    new = await slash(fake, row, "standcry", world.alice, text="Dice so sharp they cut prices!")
    assert "posted" in ephemeral(new)[0].content
    assert "Alice's Stand Cry" in thread_text(fake, row)
    assert "as soon as both Die-Men have set up" in ephemeral(new)[0].content
    assert "Dice so sharp they cut prices!" in thread_text(fake, row)
    new = await slash(fake, row, "standcry", world.alice, text="Another one")
    assert "already shouted" in ephemeral(new)[0].content
    new = await slash(fake, row, "standcry", world.carol, text="I want to play too")
    assert "not playing" in ephemeral(new)[0].content
    with pytest.raises(RefusedPayload):
        fake.slash(fake.bot, "diemen standcry", user=world.bob, channel=thread_of(fake, row),
                   text="x" * 201)
    # Bob shouts his from the main channel: it still lands in the game's thread.
    await fake.invoke(fake.slash(fake.bot, "diemen standcry", user=world.bob,
                                 channel=world.games, text="@everyone Unbreakable deals!"))
    assert "Unbreakable deals!" in thread_text(fake, row)
    fresh = await fake.bot.store.get_game(row.id)
    assert fresh.extra["standcry_1"] == "Dice so sharp they cut prices!"
    assert fresh.extra["standcry_2"] == "@everyone Unbreakable deals!"
    assert not any(tag(c) == "vt" for m in fake.messages_in(row.thread_id)
                   for c in m.custom_ids), "no vote before both have set up"

    await set_banners(fake, world.alice, A_SPOTS)
    await set_banners(fake, world.bob, B_SPOTS)
    vote = vote_message(fake, row)
    assert "Dice so sharp they cut prices!" in vote.content and "Unbreakable deals!" in vote.content
    fresh = await fake.bot.store.get_game(row.id)
    assert fresh.deadline_kind == "vote" and 29 <= fresh.deadline - fresh.updated_at <= 31
    ids = {c.rsplit(":", 1)[1]: c for c in vote.custom_ids}
    new = await fake.invoke(fake.click(vote, ids["1"], user=world.alice))
    assert "can't vote for yourself" in ephemeral(new)[0].content
    await fake.invoke(fake.click(vote, ids["1"], user=world.bob))
    await fake.invoke(fake.click(vote, ids["2"], user=world.carol))
    new = await fake.invoke(fake.click(vote, ids["2"], user=world.carol))
    assert "already voted" in ephemeral(new)[0].content
    fresh = await fake.bot.store.get_game(row.id)
    await fake.bot.tables.expire(row.id, fresh.version)   # 1 : 1, a tie: chance decides
    await fake.settle()
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "move"
    first = game.view(None)["first_player"]
    assert f"{['Alice', 'Bob'][first]} has the best Stand Cry and goes first" in \
        thread_text(fake, row)
    new = await slash(fake, row, "standcry", world.alice, text="Too late?")
    assert "already shouted" in ephemeral(new)[0].content


async def test_vote_with_a_clear_winner_and_a_late_cry(fake, world):
    row = await challenge(fake, world, mode="simulated")
    await set_banners(fake, world.alice, A_SPOTS)
    await set_banners(fake, world.bob, B_SPOTS)
    vote = vote_message(fake, row)
    assert "no Stand Cry shouted" in vote.content
    assert "Alice's Stand Cry" in vote.text() and "Bob's Stand Cry" in vote.text()
    new = await slash(fake, row, "standcry", world.bob, text="Buy one, flick one free!")
    # Issue #12: the open vote shows the cry at once, and Bob is told the vote is open now.
    assert "voting right now" in ephemeral(new)[0].content
    vote = fake.messages[vote.id]
    assert "Buy one, flick one free!" in vote.content
    assert vote.content.count("no Stand Cry shouted") == 1   # Alice's is still missing
    ids = {c.rsplit(":", 1)[1]: c for c in vote.custom_ids}
    await fake.invoke(fake.click(vote, ids["2"], user=world.carol))
    await fake.invoke(fake.click(vote, ids["2"], user=world.alice))
    await close_vote(fake, row)
    _, game = await state(fake, row)
    assert game.view(None)["first_player"] == 1
    new = await slash(fake, row, "standcry", world.alice, text="Wait for me")
    assert "vote is over: Bob goes first" in ephemeral(new)[0].content


# ---- physical flicks: report, Accept, Dispute ---------------------------------------------------

async def test_physical_flick_report_and_accept(fake, world):
    row = await ready(fake, world, mode="physical")
    msg = await turn_msg(fake, row)
    assert {"flick 0", "flick 1", "flick 2", "move S1", "move S3"} <= set(buttons(msg))
    assert "flick 3 bonus" not in msg.text()  # never on the game's very first turn
    await play(fake, row, world.alice, "flick 1 called=F2")
    assert "Alice calls the shot: Bob's banner on F2" in thread_text(fake, row)
    _, game = await state(fake, row)
    assert game.view(None)["flick"]["called"] == "P2:F2"   # declared and called: one move
    # the report menu: what can have fallen, the rival's and her own, in words
    msg = await turn_msg(fake, row)
    fell = [text for text in labels_of(msg, "rp").values() if text.startswith("Fell: ")]
    assert fell[:4] == ["Fell: Bob's banner on F2", "Fell: Bob's banner on F3",
                        "Fell: Bob's banner on B2", "Fell: Bob's banner on B3"]
    assert "Fell: your banner on F1" in fell

    await report(fake, row, world.alice, 4, "Bob's banner on F2")
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "review"
    assert game.view(None)["sides"][1]["damage"] == 1   # counts only once accepted
    msg = await turn_msg(fake, row)
    assert "reports flick 1 of 1: rolled 4, fell: Bob's banner on F2" in msg.content
    assert "Bob to accept or dispute Alice's report" in msg.content
    fresh = await fake.bot.store.get_game(row.id)
    assert fresh.deadline - fresh.updated_at == pytest.approx(60, abs=1)
    # only the opponent may answer
    new = await fake.invoke(fake.click(msg, button(msg, "accept"), user=world.alice))
    assert "not your move" in ephemeral(new)[0].content
    assert "Bob is answering your report" in ephemeral(new)[0].content
    new = await fake.invoke(fake.click(msg, button(msg, "dispute"), user=world.carol))
    assert "not playing" in ephemeral(new)[0].content
    await fake.invoke(fake.click(msg, button(msg, "accept"), user=world.bob))
    _, game = await state(fake, row)
    v = game.view(None)
    assert v["sides"][1]["damage"] == 1 + 8 and v["phase"] == "reposition"
    assert "Called Shot hits Bob's banner on F2 (2 x 4): +8 to Bob" in thread_text(fake, row)
    # Reposition: a Done button; then Bob's turn
    await click(fake, row, world.alice, "done")
    _, game = await state(fake, row)
    assert game.view(None)["active"] == 1 and game.view(None)["phase"] == "move"
    # Bob's knocked F2 lies there until his own Reposition
    assert game.view(None)["sides"][1]["spots"]["F2"] == "down"


async def test_dispute_takes_the_flick_back_and_the_reflick_counts_at_once(fake, world):
    row = await ready(fake, world, mode="physical", first=1)
    await click(fake, row, world.bob, "flick 2")
    await play(fake, row, world.bob, "result 5 hit=F1,B1")
    await click(fake, row, world.alice, "dispute")
    text = thread_text(fake, row)
    assert "disputes the report: the flick is taken back" in text
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "flick" and game.view(None)["sides"][0]["damage"] == 1
    msg = await turn_msg(fake, row)
    assert "This is the reflick: it cannot be disputed" in msg.content
    await report(fake, row, world.bob, 2, off=True)
    _, game = await state(fake, row)
    v = game.view(None)
    assert v["phase"] == "flick" and v["flick"]["number"] == 2   # on to the second flick
    assert v["sides"][0]["damage"] == 1 and v["sides"][1]["damage"] == 1
    assert "The reflick cannot be disputed" in thread_text(fake, row)
    # the second flick: knocked own banner and an enemy banner; silence accepts after 60 s
    await report(fake, row, world.bob, 3, "Alice's banner on F1", "your banner on B2")
    fresh = await fake.bot.store.get_game(row.id)
    await fake.bot.tables.expire(row.id, fresh.version)
    await fake.settle()
    _, game = await state(fake, row)
    v = game.view(None)
    assert v["sides"][0]["damage"] == 4 and v["sides"][1]["damage"] == 4
    assert v["phase"] == "reposition" and "Time ran out" in thread_text(fake, row)
    # Bob's Reposition: his knocked B2 must go back before Done; the list shows open spots
    msg = await turn_msg(fake, row)
    assert [m for m in options_of(msg, "r") if m.startswith("place ")] == [
        "place F1", "place B1", "place B2"]   # no Super Sale after 2 flicks
    assert labels_of(msg, "r")["place B2"] == "Knocked banner → B2"
    assert "done" not in buttons(msg)
    assert "Put your 1 knocked banner back up first" in msg.content
    await choose(fake, row, world.bob, "r", ["place B2"])
    _, game = await state(fake, row)
    assert game.view(None)["sides"][1]["spots"]["B2"] == "up"
    await click(fake, row, world.bob, "done")
    _, game = await state(fake, row)
    assert game.view(None)["active"] == 0


async def test_oops_and_report_errors(fake, world):
    row = await ready(fake, world, mode="physical")
    msg = await turn_msg(fake, row)
    assert options_of(msg, "o") == [f"oops {s}" for s in A_SPOTS]
    new = await play(fake, row, world.alice, "oops B3")
    assert "No standing banner of yours is on B3" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "result 3")
    assert "Declare your flicks first" in ephemeral(new)[0].content
    await choose(fake, row, world.alice, "o", ["oops B1"])
    _, game = await state(fake, row)
    assert game.view(None)["sides"][0]["damage"] == 7
    assert "Alice knocked over their own B1 by other means: +6 to Alice" in thread_text(fake, row)
    await click(fake, row, world.alice, "flick 1")
    new = await play(fake, row, world.alice, "result 3 hit=B1")
    assert "Nothing stands on B1 of Bob's side" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "result 3 hit=P2:F2 customers=1")
    assert "customer" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "result 7")
    assert "A die shows 1 to 6" in ephemeral(new)[0].content
    msg = await turn_msg(fake, row)
    assert [v for v in options_of(msg, "rp") if v[:1] == "v"] == [f"v{n}" for n in range(1, 7)]
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "flick"   # nothing changed


# ---- the per-flick mode switch ------------------------------------------------------------------

async def test_mode_switch_needs_the_opponents_agreement(fake, world):
    row = await ready(fake, world, mode="physical")
    new = await play(fake, row, world.alice, "mode simulated")
    assert "not possible now (Move step)" in ephemeral(new)[0].content
    await click(fake, row, world.alice, "flick 2")
    await click(fake, row, world.alice, "mode simulated")
    msg = await turn_msg(fake, row)
    assert "Bob to agree or refuse: Alice proposes to let the referee roll" in msg.content
    new = await fake.invoke(fake.click(msg, button(msg, "agree"), user=world.alice))
    assert "not your move" in ephemeral(new)[0].content
    await fake.invoke(fake.click(msg, button(msg, "refuse"), user=world.bob))
    _, game = await state(fake, row)
    assert game.view(None)["flick_mode"] == "physical"
    new = await play(fake, row, world.alice, "mode simulated")
    assert "already proposed" in ephemeral(new)[0].content
    assert "mode simulated" not in buttons(await turn_msg(fake, row))
    await report(fake, row, world.alice, 1, off=True)
    await click(fake, row, world.bob, "accept")
    # second flick: switch, agreed, then it is simulated: the odds menu appears
    await click(fake, row, world.alice, "mode simulated")
    await click(fake, row, world.bob, "agree")
    _, game = await state(fake, row)
    assert game.view(None)["flick_mode"] == "simulated"
    msg = await turn_msg(fake, row)
    assert "aim middle" in options_of(msg, "aim")
    new = await play(fake, row, world.alice, "result 3")
    assert "This flick is simulated" in ephemeral(new)[0].content
    await shoot(fake, row, world.alice, "aim middle")
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "reposition"
    assert game.view(None)["last_flicks"][-1]["mode"] == "simulated"


# ---- simulated flicks: the odds (from flick_odds) before Flick! ---------------------------------

async def test_simulated_flick_shows_flick_odds_then_flicks(fake, world, fixed_dice):
    row = await ready(fake, world, mode="simulated")
    await click(fake, row, world.alice, "flick 1")
    # the list of targets carries the odds
    msg = await turn_msg(fake, row)
    labels = labels_of(msg, "aim")
    assert [m for m in labels if m.startswith("called ")] == [f"called {s}" for s in B_SPOTS]
    assert "% to knock it" in labels["called F2"]
    await choose(fake, row, world.alice, "aim", ["called F2"])
    preview = last_ephemeral(fake, row, world.alice, "Flick!")
    assert preview.ephemeral
    # P1's Stand at S2 (x 50, y 20), P2's F2 at (50, 95): 75 units, band A; P2 has neighbours
    # of F2 standing and no customers.
    expected = flick_odds(board.distance(0, "S2", 1, "F2"), called=True, target_standing=True,
                          neighbours=True, customers=False, super_sale=False)
    assert f"{expected['outcomes']['clean']}% chance to knock F2 alone" in preview.content
    assert "Called Shot at F2" in preview.content
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "flick" and game.flicks == []  # nothing before Flick!
    await press_flick(fake, row, world.alice)
    _, game = await state(fake, row)
    [flick] = game.view(None)["last_flicks"]
    assert flick["called"] == "P2:F2" and flick["mode"] == "simulated"
    assert "flick 1 of 1 (Called Shot at Bob's banner on F2)" in thread_text(fake, row)


async def test_aim_menu_preview_is_for_the_flicker_only(fake, world, fixed_dice):
    row = await ready(fake, world, mode="simulated")
    await click(fake, row, world.alice, "flick 2")
    b2 = flick_odds(board.distance(0, "S2", 1, "B2"), customers=False)
    msg = await turn_msg(fake, row)
    assert labels_of(msg, "aim")["aim B2"] == (
        f"Flick at B2: {b2['outcomes']['clean'] + b2['outcomes']['pair']}% to knock it")
    values = options_of(msg, "aim")
    assert values[:4] == [f"called {s}" for s in B_SPOTS]
    assert set(values[4:]) == {f"aim {s}" for s in board.BANNER_SPOTS} | {"aim middle"}
    new = await fake.invoke(fake.select(msg, select_id(msg, "aim"), ["aim B2"],
                                        user=world.carol))
    assert "not playing" in ephemeral(new)[0].content
    new = await fake.invoke(fake.select(msg, select_id(msg, "aim"), ["aim B2"], user=world.bob))
    assert "not your move" in ephemeral(new)[0].content
    old_menu = select_id(msg, "aim")
    await fake.invoke(fake.select(msg, old_menu, ["aim B2"], user=world.alice))
    preview = last_ephemeral(fake, row, world.alice, "Flick!")
    assert "Flick at B2" in preview.content and "% chance to knock B2" in preview.content
    assert not preview.files   # the chart is drawn only when asked for
    new = await fake.invoke(fake.click(preview, select_id(preview, "oc"), user=world.alice))
    [chart] = [r for r in new if r.files]
    assert chart.ephemeral and Image.open(io.BytesIO(chart.files[0].data)).format == "PNG"
    assert "Bob's B2" in chart.files[0].description
    flick_button = next(c for c in preview.custom_ids if tag(c) == "mv")
    first = fake.click(preview, flick_button, user=world.alice)
    double = fake.click(preview, flick_button, user=world.alice)   # a double click
    await fake.invoke(first)
    _, game = await state(fake, row)
    assert game.view(None)["last_flicks"][-1]["to"] == "P2:B2"
    assert preview.custom_ids == []   # the pressed preview is retired
    # the double click is stale; the old menu is gone from the old turn message
    new = await fake.invoke(double)
    assert any("earlier moment" in r.content for r in ephemeral(new))
    assert len(game.view(None)["last_flicks"]) == 1
    # the turn message now offers the second flick's targets, under a new version
    msg = await turn_msg(fake, row)
    assert select_id(msg, "aim") != old_menu


async def test_simulated_rule_errors(fake, world, fixed_dice):
    """Bonus Flick on the first turn / without a front banner, a fourth flick, a stand with a
    Super Sale Banner, a banner on an occupied spot: refused, ephemeral, the engine's words."""
    row = await ready(fake, world, mode="simulated", b=["F1", "B1", "B2", "B3"])
    alice, bob = world.alice, world.bob
    new = await play(fake, row, alice, "flick 3 bonus")
    assert "No Bonus Flick on the game's very first turn" in ephemeral(new)[0].content
    msg = await turn_msg(fake, row)
    assert "declare your flicks: 0, 1 or 2 dice." in msg.content
    assert "Bonus Flick" not in msg.content   # not on the first turn
    new = await play(fake, row, bob, "flick 1")
    assert "not your move" in ephemeral(new)[0].content
    assert "it is Alice's turn (declaring flicks)" in ephemeral(new)[0].content
    new = await play(fake, row, alice, "flick 1 aim=F2 called=F3")
    assert "give `called=` alone" in ephemeral(new)[0].content
    new = await play(fake, row, alice, "flick 1 called=F3")
    assert "F3 on Bob's side is not one" in ephemeral(new)[0].content
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "move"   # all or nothing: nothing was declared
    # Alice: 1 flick at the middle, then her F1 up on the Stand as a Super Sale Banner
    await click(fake, row, alice, "flick 1")
    await shoot(fake, row, alice, "aim middle")
    new = await play(fake, row, alice, "reposition F1 F2")
    assert "F2 is taken: a banner of yours already stands there" in ephemeral(new)[0].content
    msg = await turn_msg(fake, row)
    assert [m for m in options_of(msg, "r") if m.startswith("reposition F1 ")] == [
        "reposition F1 F3", "reposition F1 B3", "reposition F1 S2"]
    assert "put up to 2 banners on your Stand as Super Sale Banners" in msg.content
    await choose(fake, row, alice, "r", ["reposition F1 S2"])
    _, game = await state(fake, row)
    assert game.view(None)["sides"][0]["super_sale"]["up"] == 1
    await click(fake, row, alice, "done")
    # Bob passes
    await click(fake, row, bob, "flick 0")
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "reposition"
    await click(fake, row, bob, "done")
    # Alice's Stand is locked: she started the turn with a Super Sale Banner up
    msg = await turn_msg(fake, row)
    assert not [m for m in buttons(msg) if m.startswith("move ")]
    assert "Your Stand stays put this turn" in msg.content
    new = await play(fake, row, alice, "move S1")
    assert ("You started this turn with a Super Sale Banner standing on your Stand, so it "
            "stays at S2 this turn") in ephemeral(new)[0].content
    # three flicks (a Bonus Flick: her F2 stands in front), then a fourth is refused
    await click(fake, row, alice, "flick 3 bonus")
    for _ in range(3):
        await play(fake, row, alice, "aim middle")
    _, game = await state(fake, row)
    if game.outcome() is None:   # a self-knock of the Super Sale Banner cannot end it (+6 x3)
        assert game.view(None)["turn_info"]["resolved"] == 3
        new = await play(fake, row, alice, "result 1")
        assert "You declared 3 flicks this turn and all are resolved: no more flicks" \
            in ephemeral(new)[0].content
        new = await play(fake, row, alice, "flick 1")
        assert "You already declared 3 flicks this turn" in ephemeral(new)[0].content
        new = await play(fake, row, alice, "aim middle")
        assert ephemeral(new)[0].content.startswith("❌")


async def test_bonus_flick_needs_a_standing_front_banner(fake, world):
    row = await ready(fake, world, mode="physical", b=["F1", "B1", "B2", "B3"])
    await click(fake, row, world.alice, "flick 1")
    await report(fake, row, world.alice, 2, "Bob's banner on F1")
    await click(fake, row, world.bob, "accept")
    await click(fake, row, world.alice, "done")
    msg = await turn_msg(fake, row)
    assert "flick 3 bonus" not in buttons(msg)
    new = await play(fake, row, world.bob, "flick 3 bonus")
    assert ("A Bonus Flick needs one of your banners standing in your front area (F1-F3)"
            in ephemeral(new)[0].content)
    # Alice has one: on her next turn the button is there
    await click(fake, row, world.bob, "flick 0")
    await choose(fake, row, world.bob, "r", ["place F1"])
    await click(fake, row, world.bob, "done")
    msg = await turn_msg(fake, row)
    assert "or 3 as a Bonus Flick" in msg.content
    await click(fake, row, world.alice, "flick 3 bonus")
    _, game = await state(fake, row)
    assert game.view(None)["turn_info"]["bonus"] is True


# ---- a whole game, with buttons and lists only --------------------------------------------------

async def test_full_simulated_game_through_buttons_and_lists(fake, world, fixed_dice):
    row = await ready(fake, world, mode="simulated")
    people = users(world)
    turns = set()
    used = set()
    for step in range(600):
        _, game = await state(fake, row)
        if game.outcome() is not None:
            break
        v = game.view(None)
        seat = v["active"]
        user = people[seat]
        legal = game.legal(seat)
        msg = await turn_msg(fake, row)
        phase = v["phase"]
        turns.add(v["turn"])
        if phase == "move":
            stand = [m for m in buttons(msg) if m.startswith("move ")]
            if v["turn"] % 4 == 1 and stand:
                await click(fake, row, user, stand[0])
                used.add("stand")
            else:
                n = "flick 3 bonus" if "flick 3 bonus" in legal else (
                    "flick 1" if v["turn"] % 3 == 0 else "flick 2")
                await click(fake, row, user, n)
                used.add("flick-button")
        elif phase == "flick":
            values = options_of(msg, "aim")
            called = [x for x in values if x.startswith("called ")]
            # aim at a standing banner (a Called Shot now and then), else at the middle
            choice = ("aim " + called[0].split()[1] if called else "aim middle") \
                if v["turn"] % 5 else (called or ["aim middle"])[0]
            await shoot(fake, row, user, choice)
            used.add("called" if choice.startswith("called ") else "aim-menu")
        elif phase == "reposition":
            ti = v["turn_info"]
            mine = v["sides"][seat]
            standing = [s for s, st in mine["spots"].items() if st == "up"]
            places = [m for m in options_of(msg, "r") if m.startswith("place ")] \
                if any(m.startswith("place ") for m in legal) else []
            if places:
                await choose(fake, row, user, "r", [places[0]])
                used.add("place-select")
            elif ti["super_sale_allowed"] and mine["super_sale"]["up"] == 0 and standing \
                    and f"reposition {standing[-1]} {mine['stand']}" in legal:
                await choose(fake, row, user, "r", [f"reposition {standing[-1]} {mine['stand']}"])
                used.add("super-sale")
            else:
                await click(fake, row, user, "done")
        elif phase == "customers":
            move = next(m for m in legal if m.startswith("customer ")) \
                if v["turn"] % 2 else "end"
            await click(fake, row, user, move)
            used.add("customers")
        else:
            raise AssertionError(f"unexpected phase {phase}")
    row, game = await state(fake, row)
    outcome = game.outcome()
    assert outcome is not None and row.status == "finished"
    # (the dice are fixed: this game also puts up a Super Sale Banner and places customers)
    assert {"stand", "flick-button", "aim-menu", "called", "place-select"} <= used
    text = thread_text(fake, row)
    assert ("wins" in text or "Draw" in text) and outcome.reason in text
    last = fake.messages_in(row.thread_id)[-1]
    # the final board, no buttons but Rematch (issue #25)
    assert [c for c in last.custom_ids if not c.startswith("rm:")] == [] and last.files
    # every picture in the thread is a real PNG with alt text
    files = [f for m in fake.messages_in(row.thread_id) for f in m.files]
    assert len(files) >= len(turns)
    for f in files:
        assert Image.open(io.BytesIO(f.data)).format == "PNG"
        assert f.description and len(f.description) <= 1024
    # nothing from a seat's own view ever reached the thread
    assert "Your banners" not in text and "Your planned banners" not in text


# ---- generic commands, the Reposition list, the renderer wired defensively ----------------------

async def test_board_panel_and_play_commands(fake, world):
    row = await ready(fake, world, mode="simulated")
    new = await slash(fake, row, "board", world.carol)
    [board_reply] = [r for r in new if r.files]
    assert board_reply.ephemeral and board_reply.files[0].description
    assert Image.open(io.BytesIO(board_reply.files[0].data)).size[0] > 100
    new = await slash(fake, row, "panel", world.bob)
    assert "(Bob)" in ephemeral(new)[0].content
    ac = fake.autocomplete(fake.bot, "diemen play", user=world.alice, focused="move",
                           channel=thread_of(fake, row), move="flick")
    await fake.invoke(ac)
    choices = fake.autocomplete_choices(ac)
    assert [c["value"] for c in choices] == ["flick 0", "flick 1", "flick 2"]
    assert choices[1]["name"].startswith("Flick 1 die")   # the engine's words first
    msg = await turn_msg(fake, row)
    assert [m for m in buttons(msg) if m.startswith("move ")] == ["move S1", "move S3"]
    new = await play(fake, row, world.alice, "move S2")
    assert "already at S2" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "move F1")
    assert "one of your stand spots" in ephemeral(new)[0].content
    await click(fake, row, world.alice, "move S3")
    assert "moves their Stand from S2 to S3" in thread_text(fake, row)
    new = await play(fake, row, world.alice, "move S1")
    assert "already moved your Stand this turn" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "reposition F1 F3")
    assert "Repositioning a banner is not possible now (Move step)" in ephemeral(new)[0].content
    new = await play(fake, row, world.carol, "flick 1")
    assert "not playing" in ephemeral(new)[0].content


async def test_reposition_list(fake, world, fixed_dice):
    row = await ready(fake, world, mode="simulated")
    await click(fake, row, world.alice, "flick 0")
    msg = await turn_msg(fake, row)
    _, game = await state(fake, row)
    assert set(options_of(msg, "r")) == set(game.legal(0)) - {"done"}
    assert "done" in buttons(msg)
    assert {"Banner B2 → F3", "Banner B2 → B3"} <= set(labels_of(msg, "r").values())
    await choose(fake, row, world.alice, "r", ["reposition B2 F3"])
    _, game = await state(fake, row)
    assert game.view(None)["sides"][0]["spots"]["F3"] == "up"
    msg = await turn_msg(fake, row)
    assert not [m for m in options_of(msg, "r") if m.startswith("reposition F3 ")]
    new = await play(fake, row, world.alice, "reposition F3 B2")
    assert "already moved this Reposition" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "reposition F1 S2")
    assert "Super Sale Banners go up only after a turn in which you flicked exactly 1 die" \
        in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "place B2")
    assert "None of your banners is knocked down" in ephemeral(new)[0].content


async def test_text_only_when_the_renderer_fails(fake, world, monkeypatch):
    from conftest import break_renderer
    failures = break_renderer(fake, monkeypatch, "diemen", "render", "render_odds")
    row = await challenge(fake, world, mode="simulated")
    first = fake.messages_in(row.thread_id)[0]
    assert "game #" in first.content and first.files == []
    assert [m for m in fake.dms_to(world.alice) if "(Alice)" in m.content]
    assert failures  # each failed picture is logged, and the message goes out as text


async def test_banner_select_works_after_a_restart(fake, world, db_path):
    from conftest import boot
    row = await challenge(fake, world)
    panel = panel_of(fake, world.bob)
    payload = fake.select(panel, select_id(panel, "bn"), B_SPOTS, user=world.bob)
    await fake.stop()
    for guild in fake.guilds.values():   # a new process on the same database and Discord
        guild.published = False
    fake2 = await boot(db_path, fake=fake)
    try:
        await fake2.invoke(payload)
        _, game = await fake2.bot.tables.load(row.id)
        assert game.view(None)["setup_done"] == [False, True]
        assert any("Your banners: F2 F3 B2 B3" in m.content for m in fake2.dms_to(world.bob))
    finally:
        await fake2.stop()
        fake.bot = None


async def test_flick_before_the_game_is_under_way(fake, world):
    row = await challenge(fake, world, mode="simulated")
    new = await play(fake, row, world.alice, "flick 1")
    assert "Declaring flicks is not possible now (banner set-up)" in ephemeral(new)[0].content
    new = await play(fake, row, world.alice, "result 3")
    assert "not possible now (banner set-up)" in ephemeral(new)[0].content
    await set_banners(fake, world.alice, A_SPOTS)
    new = await play(fake, row, world.alice, "flick 1")
    assert "your banners are set up; waiting for Bob" in ephemeral(new)[0].content
    await set_banners(fake, world.bob, B_SPOTS)
    new = await play(fake, row, world.bob, "flick 1")
    assert "the crowd is voting" in ephemeral(new)[0].content


# ---- every legal move has a component (issue #13) -----------------------------------------------

def reachable(msg) -> set[str]:
    """The moves the components of a message can make: buttons and move menus carry moves;
    the report menu makes `result V`, `result V off` and `result V hit=<what fell>`."""
    out: set[str] = set()
    for comp in msg.components():
        cid = comp.get("custom_id", "")
        if tag(cid) == "mv":
            out.add(arg(cid))
        elif tag(cid) in ("ms", "aim"):
            out |= {o["value"] for o in comp["options"]}
        elif tag(cid) == "rp":
            values = [o["value"] for o in comp["options"]]
            rolls = [v[1:] for v in values if v[:1] == "v"]
            fell = [v[1:].split("#")[0] for v in values if v[:1] == "h"]
            assert "off" in values and rolls == list("123456")
            for r in rolls:
                out |= {f"result {r}", f"result {r} off"} | {f"result {r} hit={x}" for x in fell}
    return out


@pytest.mark.parametrize("mode", ["physical", "simulated"])
async def test_every_legal_move_is_on_a_component(fake, world, fixed_dice, mode):
    row = await ready(fake, world, mode=mode)
    people = users(world)
    rng = random.Random(7)
    checked = 0
    for _ in range(80):
        _, game = await state(fake, row)
        if game.outcome() is not None:
            break
        seat = next(a for a in game.actors() if a != "chance")
        legal = game.legal(seat)
        msg = await turn_msg(fake, row)
        offered = reachable(msg)
        missing = set(legal) - offered
        assert not missing, (game.current_phase(), sorted(missing)[:5])
        checked += len(legal)
        # report with the menu now and then (one `result` move), else any legal move typed
        move = rng.choice(legal)
        await slash(fake, row, "play", people[seat], move=move)
    assert checked > 100


async def test_physical_report_from_the_menu_is_one_move(fake, world):
    """Issue #13: the physical report has a menu: the number rolled and everything that fell,
    sent as one `result` move (no typing)."""
    row = await ready(fake, world, mode="physical")
    msg = await turn_msg(fake, row)
    await fake.invoke(fake.click(msg, button(msg, "flick 1"), user=world.alice))
    msg = await turn_msg(fake, row)
    comp = next(c for c in msg.components() if tag(c.get("custom_id", "")) == "rp")
    labels = {o["value"]: o["label"] for o in comp["options"]}
    assert labels["v4"] == "Rolled 4" and labels["off"] == "Off the floor"
    assert "Fell: Bob's banner on F2" in labels.values()
    assert "Fell: your banner on F1" in labels.values()
    f2 = next(v for v, text in labels.items() if text == "Fell: Bob's banner on F2")
    b3 = next(v for v, text in labels.items() if text == "Fell: Bob's banner on B3")
    # two numbers at once, or a number with "off" and what fell: refused, nothing played
    new = await fake.invoke(fake.select(msg, comp["custom_id"], ["v4", "v5", f2],
                                        user=world.alice))
    assert "exactly one number" in ephemeral(new)[0].content
    new = await fake.invoke(fake.select(msg, comp["custom_id"], ["v4", "off", f2],
                                        user=world.alice))
    assert "counts for nothing" in ephemeral(new)[0].content
    _, game = await state(fake, row)
    assert game.view(None)["phase"] == "flick"
    await fake.invoke(fake.select(msg, comp["custom_id"], ["v4", f2, b3], user=world.alice))
    _, game = await state(fake, row)
    v = game.view(None)
    assert v["phase"] == "review" and v["flick"]["report"] == {
        "value": 4, "off": False, "fell": ["P2:F2", "P2:B3"]}
    assert "reports flick 1 of 1: rolled 4, fell: Bob's banner on F2 and Bob's banner on B3" \
        in thread_text(fake, row)


async def test_move_example_is_a_real_move(fake, world):
    from cogs.diemen import DieMenCog
    g = DieMen.new(2, {"mode": "physical"}, names=["Ann", "Bea"])
    g.apply(0, "banners F1 F2 B1 B2")
    g.apply(1, "banners F1 F2 B1 B2")
    g.apply("chance", "roll 1")
    g.apply(0, "flick 1")
    g.apply(0, DieMenCog.MOVE_EXAMPLE)
    assert g.view(None)["flick"]["report"]["fell"] == ["P2:F2", "P2:B1"]


# ---- words, not notation (issue #22 items 10 and 13; issue #21's rule facts) -----------------

SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")


async def test_an_unknown_move_points_to_the_rules_command_by_its_real_name(fake, world):
    row = await ready(fake, world, mode="physical")
    new = await play(fake, row, world.alice, "jump F2")
    [refusal] = ephemeral(new)
    assert "`/games rules game:diemen`" in refusal.content
    assert "rules diemen)" not in refusal.content


async def test_a_declaration_says_flicks_in_a_proper_plural(fake, world):
    row = await ready(fake, world, mode="physical")
    await click(fake, row, world.alice, "flick 2")
    text = thread_text(fake, row)
    assert "Alice declares 2 flicks." in text and "(s)" not in text
    new = await play(fake, row, world.alice, "flick 1")
    assert "You already declared 2 flicks this turn" in ephemeral(new)[0].content


async def test_the_turn_message_and_refusals_speak_words_not_notation(fake, world):
    row = await ready(fake, world, mode="physical")
    msg = await turn_msg(fake, row)
    assert "Alice to declare flicks" in msg.content
    assert "Move your Stand if you like, then declare your flicks: 0, 1 or 2 dice." in msg.content
    assert "`" not in msg.content and not SEAT_CODE.search(msg.text())
    # a refusal says what may be done instead, in words
    new = await play(fake, row, world.alice, "move S2")
    [refusal] = ephemeral(new)
    assert ("Now you may: move your Stand; declare 1 or 2 flicks; flick no dice; report a "
            "banner of yours knocked by accident.") in refusal.content
    assert "`" not in refusal.content
    # the flick step: what to do, and everything on the message named in words
    await click(fake, row, world.alice, "flick 1")
    msg = await turn_msg(fake, row)
    assert "Alice to flick a real die for flick 1 of 1 and report it" in msg.content
    assert "then report the number and everything that fell" in msg.content
    assert "`" not in msg.content and not SEAT_CODE.search(msg.text())
    # Bob, who waits, is told why in words
    new = await play(fake, row, world.bob, "accept")
    assert "it is Alice's turn (making flick 1 of 1); yours comes next" in \
        ephemeral(new)[0].content


async def test_one_message_and_one_board_per_seat_turn(fake, world, fixed_dice):
    """Issue #22 (items 2 and 4): a whole turn edits one message, which pinged its player once,
    and its board is drawn once; the rival's answer to a report opens the rival's message."""
    row = await ready(fake, world, mode="physical")
    first = await turn_msg(fake, row)
    mark = len(fake.requests)
    await click(fake, row, world.alice, "move S1")
    await click(fake, row, world.alice, "flick 2")
    await choose(fake, row, world.alice, "c", ["called F2"])
    assert (await turn_msg(fake, row)).id == first.id   # the same message, edited
    posts = [r for r in fake.requests[mark:] if r.method == "POST" and r.files]
    assert posts == []   # no new picture for steps within the turn
    await report(fake, row, world.alice, 4, "Bob's banner on F2")
    answer = await turn_msg(fake, row)
    assert answer.id != first.id and world.bob.mention in answer.content
    assert world.alice.mention not in answer.content   # never a ping to the one who moved
    await click(fake, row, world.bob, "accept")
    back = await turn_msg(fake, row)
    assert back.id != answer.id and world.alice.mention in back.content and back.files
    await click(fake, row, world.alice, "mode simulated")
    switch = await turn_msg(fake, row)
    assert switch.id != back.id and world.bob.mention in switch.content   # Bob answers


async def test_the_set_up_and_its_reveal_share_one_message(fake, world):
    row = await challenge(fake, world, mode="simulated")
    await set_banners(fake, world.alice, A_SPOTS)
    await set_banners(fake, world.bob, B_SPOTS)
    posted = [m for m in fake.messages_in(row.thread_id) if "Banners revealed" in m.content]
    assert len(posted) == 1 and "game #" in posted[0].content   # the opening message, edited
