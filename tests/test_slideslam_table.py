"""Slide and Slam as a player feels the table (issue #22 items 4, 7, 10, 12, 13): one thread
message per turn, edited as the turn goes (slide, then slam, then end), pings only for who must
act and never for who just moved; true refusals on an old placement panel; words, not notation,
outside the "Type a move" form; help that says where turns are played; no live buttons left on
an answered question; list descriptions cut at a word's end."""
from __future__ import annotations

import re

from bot import guide
from bot.gamecog import GameCog
from table_play import _creates, _message, _pinged
from test_cog_slideslam import (P1, P2, choose, components, error, greedy, last_ephemeral,
                                panel_of, play_by_components, ready, start, thread_messages,
                                thread_of, turn_message, typed, user_message, users)

NOTATION = re.compile(r"\b(place|unplace|slide|slam|bend|awaken) [a-i]\d|\b[a-i]\d=\d|`(confirm|"
                      r"end|pass)`")


def thread_posts(fake, row, since: int) -> list:
    """New messages in the game's thread (by REST or as an interaction's follow-up)."""
    return [r for r in fake.requests[since:] if _creates(r) and not r.ephemeral
            and str((_message(r) or {}).get("channel_id")) == str(row.thread_id)]


async def play_out(fake, world, row, bend_once=True):
    """The whole game by the turn message's components; per move, (mover, new thread posts)."""
    players, out, bent = users(world), [], not bend_once
    for _ in range(400):
        _, game = await fake.bot.tables.load(row.id)
        if game.outcome() is not None:
            return game, out
        [seat] = game.actors()
        since = len(fake.requests)
        if game.current_phase() == "response":
            turn = await turn_message(fake, row)
            bends = game.menu(seat).group("bd")
            move = bends.items[0].move if not bent else "pass"
            bent = True
            await fake.invoke(choose(fake, turn, move, players[seat]))
        else:
            await play_by_components(fake, row, players[seat], greedy(game, seat))
        out.append((players[seat], thread_posts(fake, row, since)))
    raise AssertionError("no winner after 400 moves")


async def test_one_message_per_turn_edited_as_it_goes_and_no_ping_for_the_mover(fake, world):
    """#22.4: the slide posted a new message that pinged the one who had just slid (2.2 posts
    and 2 pings per turn). Now a turn is one message: the slide and the slam edit it; the next
    turn (or a slam's answer, which the defender's own turn then continues) posts the next one,
    pinging only who must act."""
    row = await ready(fake, world)
    game, moves = await play_out(fake, world, row)
    turns = game.view(None)["turn"]
    posts = [p for _, ps in moves for p in ps]
    pings = [u for p in posts for u in _pinged(p.body)]
    to_mover = [(mover.name, p.content[:60]) for mover, ps in moves for p in ps
                if mover.id in _pinged(p.body)]
    assert turns >= 8, turns
    assert len(posts) / turns <= 1.1, (len(posts), turns)
    assert len(pings) / turns <= 1, (len(pings), turns)
    assert to_mover == []
    # a slide never posts: it edits the turn message
    slides = [ps for mover, ps in moves[:1]]
    assert slides == [[]]


async def test_an_old_placement_panel_says_the_placement_is_over(fake, world):
    """#22.7: an old placement panel clicked on your own turn said "Your placement is over: It
    is not your turn: Alice is to slide"."""
    fake.close_dms(world.alice)
    row = await start(fake, world, first_player="random")
    [fallback] = [m for m in thread_messages(fake, row) if "can't send you direct" in m.content]
    pn = next(c for c in fallback.custom_ids if c.endswith(":pn"))
    await fake.invoke(fake.click(fallback, pn, user=world.alice))
    old = last_ephemeral(fake, row, world.alice, "(Alice, white dice)")
    [die] = components(old, "pv")
    for who, move in ((world.alice, P1), (world.alice, "confirm"), (world.bob, P2),
                      (world.bob, "confirm")):
        await typed(fake, row, who, move)
    _, game = await fake.bot.tables.load(row.id)
    me = world.alice if game.actors() == [0] else world.bob
    if me is world.bob:  # Bob goes first: his move, then Alice's own turn comes
        await typed(fake, row, world.bob, "slide a8 a7")
        await typed(fake, row, world.bob, "end")
    new = await fake.invoke(fake.select(old, die["custom_id"], ["1"], user=world.alice))
    said = error(new).content
    assert "The placement is over: the game is on in its thread" in said
    assert "not your turn" not in said


async def test_placement_panel_and_prompts_speak_words_not_notation(fake, world):
    """#22.10: the placement panel said 'Typed: `place a1=6` …'; notation belongs to the "Type
    a move" form and the records only."""
    row = await start(fake, world)
    panel = panel_of(fake, world.alice)
    assert "Typed:" not in panel.content and not NOTATION.search(panel.content)
    await typed(fake, row, world.alice, P1)
    panel = panel_of(fake, world.alice)
    own = "\n".join(line for line in panel.content.split("\n") if not line.startswith("• "))
    assert "All six are placed" in own and not NOTATION.search(own)   # (• the engine's note)


async def test_the_turn_message_speaks_words_not_notation(fake, world):
    row = await ready(fake, world)
    turn = await turn_message(fake, row)
    status = turn.content.split("\n")[-3:]
    assert not [line for line in status if NOTATION.search(line)], status


def test_help_says_turns_are_played_on_the_thread_message_in_one_voice():
    """#22.12: the help said the secret panel 'has buttons and lists for every move', while
    turns are played on the thread's turn message; the bot speaks as "I", as in other guides."""
    text = guide.game_help("slideslam")
    assert "buttons and lists for every move" not in text
    assert "one message in the game thread for each turn" in text and "Placing" in text
    everything = "\n".join(guide.pages("slideslam"))
    assert not re.search(r"\b(the bot|the referee)\b", everything, re.I)


async def test_the_which_die_question_leaves_no_buttons_behind(fake, world):
    """#22.13: the public "which die do you save?" message kept live buttons after the
    answer. It now points to the turn message's own buttons, so none are left behind."""
    fake.bot.read_messages = True
    row = await ready(fake, world)
    await typed(fake, row, world.alice, "slide c4 c5")
    await typed(fake, row, world.alice, "slam c5")
    user_message(fake, thread_of(fake, row), world.bob, "DICE IS NOT BEND!")
    await fake.settle()
    ask = thread_messages(fake, row)[-1]
    assert "which die do you save?" in ask.content and ask.custom_ids == []
    await fake.invoke(choose(fake, await turn_message(fake, row), "bend c6", world.bob))
    assert ask.custom_ids == []


async def test_list_descriptions_end_at_a_word(fake, world):
    """#22.13: select descriptions were cut mid-word ("… counts aga")."""
    row = await ready(fake, world)
    await typed(fake, row, world.alice, "slide c4 c5")
    turn = await turn_message(fake, row)
    cut = [o["description"] for c in turn.components() for o in c.get("options", [])
           if (o.get("description") or "").endswith("…")]
    assert cut
    for d in cut:
        assert d[:-1] == d[:-1].rstrip(), d
        full = next(i.effect for g in (await fake.bot.tables.load(row.id))[1].menu(0).groups
                    for i in g.items if i.effect.startswith(d[:-1]))
        assert full[len(d) - 1] in " ,;:—-", (d, full)


def test_the_cog_keeps_only_what_is_discords_own():
    """#21: the turn, the waiting words and the refusals come from the engine's menu and
    prompt through the generic layer; the cog no longer lays out turns by hand."""
    from cogs.slideslam import SlideSlamCog
    for name in ("turn_items", "waiting_text", "_post_vote", "on_move_component"):
        assert getattr(SlideSlamCog, name) is getattr(GameCog, name), name


async def test_the_wall_comes_down_in_the_placements_own_message(fake, world):
    """#22.4: the wall coming down posted a message of its own before the vote's; the
    placement's message (the one that called both players) now tells it, with the board."""
    row = await start(fake, world)
    await typed(fake, row, world.alice, P1)
    await typed(fake, row, world.alice, "confirm")
    await typed(fake, row, world.bob, P2)
    since = len(fake.requests)
    await typed(fake, row, world.bob, "confirm")
    posts = thread_posts(fake, row, since)
    assert [p.content[:30] for p in posts] == ["🗳️ **Who goes first?** The pla"]
    opening = thread_messages(fake, row)[0]
    assert "The Wall of Unknowing comes down!" in opening.content
