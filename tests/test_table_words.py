"""What the table says around the moves (issue #22 items 5, 6, 13): the practice bot's seat
shows nobody its controls, a pick is answered in words rather than notation, and the end says
who won in grammar and what to do next."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from bot.engine.core import Ending, Outcome
from bot.gamecog import GameCog
from table_play import _message
from test_lobby_flow import pick, start_game
from test_practice_discord import play_out, start, table  # noqa: F401 (fixture)


def placeholders(body) -> list[str]:
    """Every select placeholder and button label in a request body."""
    out, todo = [], list((body or {}).get("components") or [])
    while todo:
        c = todo.pop(0)
        out += [c[k] for k in ("placeholder", "label") if c.get(k)]
        todo += c.get("components") or []
    return out


@pytest.mark.parametrize("kind", ["slideslam", "deathbydice"])
async def test_practice_never_shows_the_bots_controls(fake, table, kind):
    world = table
    row = await start(fake, world, kind, level="easy")
    mark = len(fake.requests)
    await play_out(fake, world, row)
    bot_name = (await fake.bot.tables.load(row.id))[1].name(1)
    # in the thread, over REST or as an interaction's answer (its callback, its follow-ups)
    in_thread = [r for r in fake.requests[mark:] if r.method in ("POST", "PATCH") and (
        r.args.get("channel_id") == row.thread_id
        or (_message(r) or {}).get("channel_id") == str(row.thread_id))]
    bodies = [r.body["data"] if isinstance((r.body or {}).get("data"), dict) else r.body
              for r in in_thread]
    shown = [text for body in bodies for text in placeholders(body)]
    assert shown, "no component was ever shown: the check below would be empty"
    assert not [t for t in shown if t.startswith(f"{bot_name}:")]
    texts = [(body or {}).get("content") or "" for body in bodies]
    assert not [t for t in texts if f"{bot_name}: check your DMs" in t]


async def test_an_ephemeral_pick_is_answered_in_words(fake, world):
    fake.close_dms(world.bob)
    row = await start_game(fake, world)
    offer = next(m for m in fake.messages_in(row.thread_id)
                 if "your secret panel is here" in (m.content or ""))
    await fake.invoke(fake.click(offer, f"g:{row.id}:-:pn", user=world.bob))
    panel = [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
             if m.ephemeral and "(Bob)" in m.content][-1]
    new = await fake.invoke(pick(fake, panel, "call heads", world.bob))
    said = [r.content for r in new if r.content]
    assert "✅ Done: Call heads." in said
    assert not [s for s in said if "`call heads`" in s]  # no notation echo


async def test_a_typed_move_is_confirmed_in_words(fake, world):
    row = await start_game(fake, world)
    new = await fake.invoke(fake.slash(fake.bot, "coinflip move", user=world.alice,
                                       channel=fake.channels[row.thread_id], move="call tails"))
    said = [r.content for r in new if r.content]
    assert "✅ Done: Call tails." in said


def test_the_end_names_the_winners_in_grammar_and_says_what_next():
    cog = GameCog.__new__(GameCog)
    cog.KIND = "kaploom"
    game = SimpleNamespace(name=lambda s: ["Alice", "Bob", "Carol", "Dave"][s])
    row = SimpleNamespace(deadline=None)
    for winners, verb in (((0,), "Alice wins"), ((0, 2), "Alice and Carol win")):
        game.outcome = lambda w=winners: Outcome(w, "knock-out", Ending.KNOCKOUT)
        line = GameCog.status_line(cog, row, game)
        assert f"**{verb}**" in line
        assert "`/kaploom challenge`" in line and "What next?" in line


def test_a_challenge_to_an_exclaimed_title_says_it_once():
    from bot.lobby import Lobby
    lobby = Lobby.__new__(Lobby)
    ch = {"kind": "kaploom", "options": {}, "expires_at": 0, "invited": [2], "host_id": 1}
    assert "**KAPLOOM!** Accept" in lobby.challenge_text(ch)
    ch["kind"] = "deathbydice"
    assert "**Death by Dice**! Accept" in lobby.challenge_text(ch)


async def test_a_new_turn_pings_who_must_act_but_not_who_just_moved(fake, world):
    row = await start_game(fake, world)
    await fake.invoke(pick(fake, fake.dms_to(world.alice)[-1], "call heads", world.alice))
    mark = len(fake.requests)
    await fake.invoke(pick(fake, fake.dms_to(world.bob)[-1], "call tails", world.bob))
    posts = [r for r in fake.requests[mark:] if r.method == "POST"
             and r.args.get("channel_id") == row.thread_id]
    [card] = [r for r in posts if "The coin shows" in r.content]
    pinged = {int(u) for u in (card.body.get("allowed_mentions") or {}).get("users") or []}
    assert world.alice.id in pinged and world.bob.id not in pinged
