"""#11.9 and #11.10 through the harness: exports hold only what was revealed, and forged
component ids and out-of-range options get a clear, private refusal."""
from __future__ import annotations

import json

import pytest

from test_games_cog import ephemeral
from test_lobby_flow import challenge_buttons, open_challenge, pick, start_game

NOT_MINE = "not one of mine"


# ---- #11.9 exports ----------------------------------------------------------------------------

async def test_an_aborted_game_cannot_be_exported(fake, world):
    row = await start_game(fake, world)
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call tails", world.alice))
    for user in (world.alice, world.bob):
        await fake.invoke(fake.slash(fake.bot, "games abort", user=user, channel=world.games,
                                     game=row.id))
    assert (await fake.bot.store.get_game(row.id)).status == "aborted"
    new = await fake.invoke(fake.slash(fake.bot, "games export", user=world.carol,
                                       channel=world.games, game=row.id))
    [answer] = ephemeral(new)
    assert "aborted" in answer.content and not answer.files
    assert "call tails" not in json.dumps([r.body for r in fake.requests[-len(new):]])


async def test_a_secret_never_revealed_is_not_exported(fake, world):
    """Alice calls in secret, then Bob resigns: her call was never shown, so the record
    anyone may download stops before it and still says how the game ended."""
    row = await start_game(fake, world)
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call tails", world.alice))
    await fake.invoke(fake.slash(fake.bot, "games resign", user=world.bob, channel=world.games,
                                 game=row.id))
    new = await fake.invoke(fake.slash(fake.bot, "games export", user=world.carol,
                                       channel=world.games, game=row.id))
    [export] = [r for r in new if r.files]
    record = json.loads(export.files[0].data)
    assert "call tails" not in export.files[0].data.decode()
    assert record["entries"] == [{"actor": 2, "move": "resign"}]
    assert record["result"]["winners"] == [0] and record["seed"] is None
    assert "python -m bot" not in export.content


async def test_a_game_played_to_its_end_exports_every_move(fake, world):
    row = await start_game(fake, world)
    for _ in range(5):  # alice calls heads, bob tails: one of them reaches 2 points
        if (await fake.bot.store.get_game(row.id)).status != "active":
            break
        await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call heads", world.alice))
        await fake.invoke(pick(fake, fake.dms_to(world.bob)[-1], "call tails", world.bob))
    assert (await fake.bot.store.get_game(row.id)).status == "finished"
    new = await fake.invoke(fake.slash(fake.bot, "games export", user=world.carol,
                                       channel=world.games, game=row.id))
    [export] = [r for r in new if r.files]
    entries = json.loads(export.files[0].data)["entries"]
    assert [e["move"] for e in entries] == [m for _, m in await fake.bot.store.entries(row.id)]
    assert "call heads" in export.files[0].data.decode()


# ---- #11.10 forged component ids ---------------------------------------------------------------

def forged(fake, msg, user, custom_id):
    """A click on `msg` whose custom_id was edited by a hostile client."""
    payload = fake.click(msg, msg.custom_ids[0], user=user)
    payload["data"]["custom_id"] = custom_id
    return payload


@pytest.mark.parametrize("custom_id", [
    "g:123456789012345678901234567890:1:mv:call heads",   # a game id above 64 bits
    "g:1:1:mv:" + "x" * 120,                               # over 100 characters
    "g:1:99999999999999999999:mv:call heads",              # a version above 64 bits
    "nonsense",
    "rl:slideslam:1:sideways",
])
async def test_a_forged_id_gets_a_polite_private_answer(fake, world, custom_id):
    msg = await open_challenge(fake, world)
    new = await fake.invoke(forged(fake, msg, world.carol, custom_id))
    answers = ephemeral(new)
    assert len(answers) == 1 and NOT_MINE in answers[0].content


async def test_a_real_button_is_not_answered_twice(fake, world):
    msg = await open_challenge(fake, world)
    new = await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    assert not any(NOT_MINE in (r.body or {}).get("data", {}).get("content", "") for r in new
                   if r.body)
    assert (await fake.bot.store.active_games())


async def test_a_forged_move_in_a_valid_id_is_refused(fake, world):
    """The id reads like a real one but is not on the message: discord.py drops such clicks
    silently, so the bot answers them itself, and nothing is played."""
    row = await start_game(fake, world)
    panel = fake.dms_to(world.alice)[-1]
    real = next(c for c in panel.custom_ids if c.endswith(":call heads"))
    new = await fake.invoke(forged(fake, panel, world.alice,
                                   real.replace("call heads", "call sideways")))
    [answer] = [r for r in new if r.route.endswith("/callback")]
    assert NOT_MINE in answer.body["content"] and answer.body["flags"] & 64
    assert (await fake.bot.store.get_game(row.id)).state["state"]["calls"] == [None, None]


# ---- #11.10 options out of range ---------------------------------------------------------------

def forged_option(payload, name, value):
    for opt in payload["data"]["options"][0]["options"]:
        if opt["name"] == name:
            opt["value"] = value
            return payload
    payload["data"]["options"][0]["options"].append({"name": name, "type": 4, "value": value})
    return payload


@pytest.mark.parametrize("value,expected", [
    (10_000_000, "must be from 1 to 9"),
    (2 ** 70, "must be from 1 to 9"),
    (0, "must be from 1 to 9"),
    ("9", "takes a number"),
])
async def test_an_option_out_of_range_is_refused(fake, world, value, expected):
    payload = fake.slash(fake.bot, "coinflip challenge", user=world.alice, channel=world.games,
                         opponent=world.bob, target=3)
    new = await fake.invoke(forged_option(payload, "target", value))
    [answer] = ephemeral(new)
    assert answer.content.startswith("❌") and expected in answer.content
    assert not fake.messages_in(world.games), "the challenge was made anyway"


async def test_a_forged_game_number_above_64_bits_is_refused(fake, world):
    await start_game(fake, world)
    payload = fake.slash(fake.bot, "games export", user=world.alice, channel=world.games, game=1)
    payload["data"]["options"][0]["options"][0]["value"] = 2 ** 64
    [answer] = ephemeral(await fake.invoke(payload))
    assert answer.content.startswith("❌")


async def test_a_forged_challenge_id_above_64_bits_is_refused_politely(fake, world):
    msg = await open_challenge(fake, world)
    big = "ch:99999999999999999999999:accept"
    payload = fake.click(msg, msg.custom_ids[0], user=world.carol)
    payload["data"]["custom_id"] = big
    payload["message"]["components"][0]["components"][0]["custom_id"] = big
    new = await fake.invoke(payload, check=False)
    errors, fake.errors[:] = list(fake.errors), []
    assert not errors
    [answer] = ephemeral(new)
    assert NOT_MINE in answer.content
