"""Slide and Slam: Dice Is Not Bend! through Discord (the offline harness, discord.py real):
the challenge, the Wall of Unknowing in secret panels, the argument and the crowd vote, turns
by buttons and commands, the response window, the three phrase commands (and the typed
phrase), the errors, and whole games to a win."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.engine.slideslam import SlideSlam
from bot.engine.slideslam.data import INVOCATION
from rendering.slideslam import render
from fakediscord import RefusedPayload

EPHEMERAL = 64

# A quick position for the response window: player 1's C (health 4) on c4 slides to c5 and
# slams b5, c6 and d5, three of player 2's dice.
P1 = "place a1=6 b1=5 c4=4 d1=3 e1=2 f1=1"
P2 = "place a8=6 b5=5 c6=4 d5=3 e8=2 f8=1"


# ---- helpers ----------------------------------------------------------------------------------

def users(world):
    return [world.alice, world.bob]


def ephemeral(new):
    return [r for r in new if r.ephemeral]


def error(new):
    """The one reply with text to the interaction just made; it must be ephemeral (not the edit
    that retires a clicked old DM panel: it keeps its text, without rows; nor another
    interaction's follow-up: the next turn's message, carried by an earlier click in the
    thread)."""
    token = next(r.args["webhook_token"] for r in new if r.route.endswith("/callback"))
    [reply] = [r for r in new if r.seam == "webhook" and r.content and r.method == "POST"
               and r.callback_type != 7 and r.args.get("webhook_token") == token]
    assert reply.ephemeral, reply.content
    return reply


def said(new) -> str:
    return "\n".join(r.content for r in new if r.content)


async def game_of(fake, row):
    return await fake.bot.tables.load(row.id)


def thread_of(fake, row):
    return fake.channels[row.thread_id]


def thread_messages(fake, row):
    return fake.messages_in(row.thread_id)


def thread_text(fake, row) -> str:
    return "\n".join(m.text() for m in thread_messages(fake, row))


def thread_everything(fake, row) -> str:
    """What anyone in the thread can see: texts, components, attachment descriptions."""
    parts = []
    for m in thread_messages(fake, row):
        parts.append(m.text())
        parts += [a.get("description") or "" for a in m.payload.get("attachments", [])]
        parts += [f.description or "" for f in m.files]
    return "\n".join(parts)


def assert_png(sent_file):
    assert sent_file.filename.endswith(".png") and sent_file.description
    with Image.open(io.BytesIO(sent_file.data)) as img:
        img.verify()
    with Image.open(io.BytesIO(sent_file.data)) as img:
        assert img.format == "PNG" and img.size[0] > 100


async def challenge(fake, world, **options):
    await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob, **options))
    return fake.messages_in(world.games)[-1]


async def start(fake, world, **options):
    msg = await challenge(fake, world, **options)
    accept = next(c for c in msg.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(msg, accept, user=world.bob))
    return (await fake.bot.store.active_games())[-1]


async def slash(fake, row, path, user, **options):
    return await fake.invoke(fake.slash(fake.bot, path, user=user, channel=thread_of(fake, row),
                                        options=options))


def taken_back(panel) -> set[str]:
    """The dice a placement panel offers to take back (so: the dice placed), as moves."""
    return {o["value"] for c in components(panel, "ms") if arg_of(c["custom_id"]) == "un"
            for o in c["options"]}


def panel_of(fake, user):
    """The newest DM panel (a message with components) of `user`."""
    return [m for m in fake.dms_to(user) if m.custom_ids][-1]


GAME_ID = re.compile(r"g:[0-9]+:[^:]+:(?P<tag>[a-z0-9]+)(?::(?P<arg>.*))?")


def tag_of(cid: str) -> str:
    m = GAME_ID.fullmatch(cid)
    return m["tag"] if m else ""


def arg_of(cid: str) -> str:
    m = GAME_ID.fullmatch(cid)
    return (m["arg"] or "") if m else ""


def components(msg, tag):
    """The components of `msg` with this GameItem tag (`g:<game>:<version>:<tag>...`)."""
    return [c for c in msg.components() if tag_of(c.get("custom_id", "")) == tag]


def tagged(msg, tag):
    return next(c for c in msg.custom_ids if tag_of(c) == tag)


def select_with(msg, move):
    """The custom_id of the select on `msg` offering `move`."""
    for c in msg.components():
        if c.get("type") == 3 and any(o["value"] == move for o in c.get("options", [])):
            return c["custom_id"]
    raise AssertionError(f"no select offers {move!r}; selects: "
                         f"{[c['custom_id'] for c in msg.components() if c.get('type') == 3]}")


def button_for(msg, move):
    return next(c for c in msg.custom_ids if tag_of(c) == "mv" and arg_of(c) == move)


def choose(fake, msg, move, user):
    """The payload of picking `move` on `msg`: its button, else the select offering it."""
    for cid in msg.custom_ids:
        if tag_of(cid) == "mv" and arg_of(cid) == move:
            return fake.click(msg, cid, user=user)
    return fake.select(msg, select_with(msg, move), [move], user=user)


async def typed(fake, row, user, move):
    return await slash(fake, row, "slideslam move", user, move=move)


async def place_typed(fake, row, world, p1=P1, p2=P2):
    await typed(fake, row, world.alice, p1)
    await typed(fake, row, world.alice, "confirm")
    await typed(fake, row, world.bob, p2)
    await typed(fake, row, world.bob, "confirm")


async def turn_message(fake, row):
    """The game's current turn message (the base keeps its id in the game's extra)."""
    fresh = await fake.bot.store.get_game(row.id)
    return fake.messages[fresh.extra["turn_message"]]


async def ready(fake, world, first="1", p1=P1, p2=P2, **options):
    """A game past the wall with `first` going first (the crowd vote answered directly)."""
    options.setdefault("first_player", "argue")
    row = await start(fake, world, **options)
    await place_typed(fake, row, world, p1, p2)
    if options["first_player"] == "argue":
        await fake.bot.tables.play(row.id, None, f"roll {first}", actor="chance")
        await fake.settle()
    return await fake.bot.store.get_game(row.id)


def last_ephemeral(fake, row, user, containing=""):
    return [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
            if m.ephemeral and m.audience == user.id and containing in m.content][-1]


def user_message(fake, channel, user, content):
    """A member typing in a channel: MESSAGE_CREATE through discord.py's own parser."""
    payload = {
        "id": str(fake.snowflake()), "channel_id": str(channel.id), "type": 0,
        "content": content, "author": user.payload(), "embeds": [], "components": [],
        "attachments": [], "mentions": [], "mention_roles": [], "mention_everyone": False,
        "pinned": False, "tts": False, "timestamp": "2025-01-01T00:00:00+00:00",
        "edited_timestamp": None, "flags": 0, "guild_id": str(channel.guild.id),
        "member": {k: v for k, v in channel.guild.member_payload(user.id).items() if k != "user"},
    }
    fake.bot._connection.parse_message_create(payload)


# ---- the challenge -----------------------------------------------------------------------------

async def test_challenge_maps_its_options(fake, world):
    msg = await challenge(fake, world, columns=5, rows=6, starting_values="1,1,1,1,1,1",
                          response_window=30, first_player="random", vote_seconds=20,
                          stalemate_turns=0, stun=False)
    assert "Slide and Slam" in msg.content and world.bob.mention in msg.content
    for text in ("columns=5", "rows=6", "starting_values=1,1,1,1,1,1", "response_window=30",
                 "first_player=random", "stalemate_turns=0", "stun=False"):
        assert text in msg.content
    accept = next(c for c in msg.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(msg, accept, user=world.bob))
    [row] = await fake.bot.store.active_games()
    assert row.kind == "slideslam" and row.players == [world.alice.id, world.bob.id]
    assert row.options["columns"] == 5 and row.options["stun"] is False
    assert row.options["first_player"] == "random" and row.options["vote_seconds"] == 20


async def test_challenge_refuses_bad_options(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                       channel=world.games, opponent=world.bob,
                                       stalemate_turns=5))
    err = error(new)
    assert "stalemate_turns" in err.content and "10 to 200" in err.content
    new = await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                       channel=world.games, opponent=world.bob,
                                       starting_values="7,1"))
    err = error(new)
    assert "six numbers from 1 to 6" in err.content and "6,5,4,3,2,1" in err.content
    assert fake.messages_in(world.games) == []
    # the options come from the engine's own table (bot/options.py): odd rows are refused
    new = await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                       channel=world.games, opponent=world.bob, rows=7))
    assert "must be even" in error(new).content
    with pytest.raises(RefusedPayload):
        fake.slash(fake.bot, "slideslam challenge", user=world.alice, channel=world.games,
                   opponent=world.bob, columns=12)


# ---- the Wall of Unknowing ----------------------------------------------------------------------

SQUARE_RE = re.compile(r"\b[a-f][1-8]\b")


async def test_wall_of_unknowing_in_secret_panels(fake, world):
    row = await start(fake, world)
    text = thread_text(fake, row)
    assert "game #1" in text and "Wall of Unknowing" in text and "check your DMs" in text
    panel = panel_of(fake, world.alice)
    assert "(Alice, white dice)" in panel.content and "rows 1–4" in panel.content
    # its half as the text board, no picture (issue #22: one after every placement)
    assert panel.files == [] and "Wall of Unknowing" in panel.content
    assert "Your placement: in progress." in panel.content
    # the die select (the engine's menu names the die of each place move), then its square
    [value_select] = components(panel, "pv")
    assert [o["label"] for o in value_select["options"]] == [
        f"Die {k} (health {v})" for k, v in zip("ABCDEF", (6, 5, 4, 3, 2, 1))]
    await fake.invoke(fake.select(panel, value_select["custom_id"], ["2"], user=world.alice))
    panel = panel_of(fake, world.alice)
    assert "Now placing **Die C (health 4)**" in panel.content
    [squares] = [c for c in components(panel, "ms") if c["custom_id"].endswith(":q")]
    assert len(squares["options"]) == 24 and squares["options"][0]["value"] == "place a1=4"
    await fake.invoke(fake.select(panel, squares["custom_id"], ["place c4=4"], user=world.alice))
    panel = panel_of(fake, world.alice)
    assert taken_back(panel) == {"unplace c4"}
    assert "Now placing **Die A (health 6)**" in panel.content  # back to the highest left
    # the take-back select offers it, in the engine's words
    [back] = components(panel, "ms")[-1:]
    assert [(o["value"], o["label"]) for o in back["options"]] == [
        ("unplace c4", "Take back die C (health 4) from c4")]
    await fake.invoke(choose(fake, panel, "unplace c4", world.alice))
    panel = panel_of(fake, world.alice)
    assert taken_back(panel) == set()
    # place all six through the panel: the value select, then the square
    for sq, v in (("a1", 6), ("b1", 5), ("c4", 4), ("d1", 3), ("e1", 2), ("f2", 1)):
        [vs] = components(panel, "pv") or [None]
        if vs is not None:
            [pick] = [o["value"] for o in vs["options"] if f"(health {v})" in o["label"]]
            await fake.invoke(fake.select(panel, vs["custom_id"], [pick], user=world.alice))
            panel = panel_of(fake, world.alice)
        await fake.invoke(choose(fake, panel, f"place {sq}={v}", world.alice))
        panel = panel_of(fake, world.alice)
    # take one back with the take-back select and put it elsewhere
    await fake.invoke(choose(fake, panel, "unplace f2", world.alice))
    panel = panel_of(fake, world.alice)
    await fake.invoke(choose(fake, panel, "place f1=1", world.alice))
    panel = panel_of(fake, world.alice)
    assert "All six are placed" in panel.content
    await fake.invoke(fake.click(panel, button_for(panel, "confirm"), user=world.alice))
    assert "Alice has finished placing" in thread_text(fake, row)
    # the thread's picture is the one any other placement would give
    other = SlideSlam.new(2, {}, names=["Alice", "Bob"])
    other.apply(0, "place a2=6 b2=5 c2=4 d2=3 e2=2 f2=1")
    other.apply(0, "confirm")
    shown = [m for m in thread_messages(fake, row) if m.files][-1].files[-1]  # the newest
    assert shown.data == render(other.view(None)).png
    # the confirmed panel keeps its preview but loses its controls
    assert "the game goes on in its thread" in fake.dms_to(world.alice)[-1].content
    assert fake.dms_to(world.alice)[-1].custom_ids == []
    # Bob places by typing; his view never shows Alice's dice, the thread shows neither
    await typed(fake, row, world.bob, P2)
    bob_panel = panel_of(fake, world.bob)
    assert "c4" not in bob_panel.content.split("Typed:")[0]
    assert bob_panel.files == []
    during = thread_everything(fake, row)
    for secret in ("a1", "b1", "c4", "d1", "e1", "f1", "b5", "c6", "d5", "a8"):
        assert not re.search(rf"\b{secret}\b", during), secret
    assert not re.search(r"[a-f]\d=\d", during) and "You placed" not in during
    assert not re.search(r"\b[A-FU-Z][1-6]\b", during)        # no cell of a text board
    assert all(SQUARE_RE.search(d) is None for d in
               [a.get("description") or "" for m in thread_messages(fake, row)
                for a in m.payload.get("attachments", [])])
    await typed(fake, row, world.bob, "confirm")
    after = thread_text(fake, row)
    assert "The Wall of Unknowing comes down!" in after
    # the placement's message now tells the wall coming down, with the board (its newest file)
    board = [m for m in thread_messages(fake, row) if m.files][-1].files[-1]
    assert_png(board)
    for placed in ("A 6 at a1", "C 4 at c4", "W 4 at c6", "V 5 at b5"):
        assert placed in board.description
    # the vote is on (first_player=argue by default)
    assert any(tag_of(c) == "vt" for m in thread_messages(fake, row) for c in m.custom_ids)


async def test_placement_errors_are_private_and_say_what_is_allowed(fake, world):
    row = await start(fake, world)
    new = await typed(fake, row, world.alice, "place a8=6")
    err = error(new)
    assert "a8 is not on your half" in err.content and "rows 1–4" in err.content
    new = await typed(fake, row, world.alice, "confirm")
    err = error(new)
    assert "Place all six dice" in err.content and "6, 5, 4, 3, 2, 1" in err.content
    new = await typed(fake, row, world.alice, "slide a1 a2")
    err = error(new)
    assert "cannot slide now" in err.content and "place your dice" in err.content
    assert "secret panel" in err.content or "panel" in err.content
    new = await slash(fake, row, "slideslam argue", world.alice, text="My dice rule")
    err = error(new)
    assert "after the Wall of Unknowing comes down" in err.content
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread_of(fake, row)))
    err = error(new)
    assert "no slam of your opponent's for you to answer" in err.content
    assert "a8" not in thread_text(fake, row)


# ---- who goes first: arguments and the crowd vote ----------------------------------------------

def vote_message(fake, row):
    return [m for m in thread_messages(fake, row) if "Who goes first?" in m.content][-1]


async def test_arguments_and_the_crowd_vote(fake, world):
    row = await start(fake, world, vote_seconds=30)
    await place_typed(fake, row, world)
    row = await fake.bot.store.get_game(row.id)
    assert row.deadline_kind == "vote"
    vote = vote_message(fake, row)
    assert "`/slideslam argue` once" in vote.content
    assert [c.split(":")[-1] for c in vote.custom_ids] == ["1", "2"]
    assert 25 < row.deadline - row.updated_at <= 31      # the game's vote_seconds option
    # one argument each, players only, shown in the thread and on the vote
    new = await slash(fake, row, "slideslam argue", world.alice,
                      text="My dice were forged in the fire of a thousand board game nights.")
    assert "posted" in error(new).content
    assert "argues: “My dice were forged" in thread_text(fake, row)
    new = await slash(fake, row, "slideslam argue", world.alice, text="And another thing")
    assert "already argued" in error(new).content
    new = await slash(fake, row, "slideslam argue", world.carol, text="Pick me")
    assert "Only the players" in error(new).content
    with pytest.raises(RefusedPayload):
        fake.slash(fake.bot, "slideslam argue", user=world.bob, channel=thread_of(fake, row),
                   text="x" * 201)
    await slash(fake, row, "slideslam argue", world.bob, text="Black dice. Enough said.")
    vote = vote_message(fake, row)
    assert "argues: “Black dice. Enough said.”" in thread_text(fake, row)
    # nobody moves while the crowd votes
    new = await typed(fake, row, world.alice, "slide a1 a2")
    assert "crowd is voting" in error(new).content
    # votes: not for yourself, once each
    ids = {c.split(":")[-1]: c for c in vote.custom_ids}
    new = await fake.invoke(fake.click(vote, ids["1"], user=world.alice))
    assert "can't vote for yourself" in error(new).content
    new = await fake.invoke(fake.click(vote, ids["2"], user=world.alice))
    assert "Vote counted" in error(new).content
    await fake.invoke(fake.click(vote, ids["2"], user=world.carol))
    new = await fake.invoke(fake.click(vote, ids["1"], user=world.carol))
    assert "already voted" in error(new).content
    await fake.invoke(fake.click(vote, ids["1"], user=world.bob))
    # the vote closes: two votes to one, player 2 goes first
    await fake.bot.tables.expire(row.id, row.version)
    await fake.settle()
    _, game = await game_of(fake, row)
    assert game.view(None)["first_player"] == 1 and game.view(None)["current"] == 1
    assert "Bob goes first." in thread_text(fake, row)
    closed = [m for m in thread_messages(fake, row) if "Voting is closed" in m.content][-1]
    assert "Bob goes first." in closed.content
    assert closed.custom_ids == []
    turn = await turn_message(fake, row)
    assert any(tag_of(c) == "nw" for c in turn.custom_ids)   # Bob's slide: the die first
    new = await slash(fake, row, "slideslam argue", world.bob, text="Too late")
    assert "already decided" in error(new).content


async def test_random_first_player_needs_no_vote(fake, world):
    row = await start(fake, world, first_player="random")
    await place_typed(fake, row, world)
    row = await fake.bot.store.get_game(row.id)
    assert row.deadline_kind == "turn"
    text = thread_text(fake, row)
    assert "The first player is drawn." in text and "goes first." in text
    assert not any(tag_of(c) == "vt" for m in thread_messages(fake, row) for c in m.custom_ids)
    new = await slash(fake, row, "slideslam argue", world.alice, text="But my dice!")
    assert "at random" in error(new).content


# ---- turns: the turn message, the commands, the errors -----------------------------------------

async def test_turn_by_buttons_die_picker_then_slam_select(fake, world):
    row = await ready(fake, world)
    turn = await turn_message(fake, row)
    assert "Turn 1: Alice to play." in turn.content and world.alice.mention in turn.content
    # The board is the card's above it (the wall's, showing the dice it revealed): a new
    # turn's card shows none until its turn changes the board (issue #22).
    assert turn.files == []
    above = [m for m in thread_messages(fake, row) if m.files][-1]
    assert_png(above.files[-1]) and above.id < turn.id
    game = (await game_of(fake, row))[1]
    assert above.files[-1].data == render(game.view(None)).png   # the board as it stands
    # the slides: lists the generic layout makes from the engine's menu (by die when long)
    [picker] = components(turn, "nw") or [None]
    slides = [c for c in components(turn, "ms") if arg_of(c["custom_id"]).startswith("sl")]
    legal = {m for m in (await game_of(fake, row))[1].legal(0) if m.startswith("slide ")}
    if picker is None:
        assert {o["value"] for c in slides for o in c["options"]} == legal
        labels = {o["value"]: o["label"] for c in slides for o in c["options"]}
        assert labels["slide c4 c5"] == "Slide C (4) c4 → c5"
        tries = [(fake.select, turn, select_with(turn, "slide c4 c5"), ["slide c4 c5"])]
    else:
        labels = [o["label"] for o in picker["options"]]
        assert [label.split(" — ")[0] for label in labels][2] == "C (4) on c4"
        tries = [(fake.select, turn, picker["custom_id"], ["2"])]
    # Bob (not his turn) and Carol (not a player) are refused, politely and privately
    pick, msg, cid, value = tries[0]
    new = await fake.invoke(pick(msg, cid, value, user=world.bob))
    assert "It is not your turn: Alice is to slide" in error(new).content
    new = await fake.invoke(pick(msg, cid, value, user=world.carol))
    assert "You are not playing" in error(new).content
    # Alice slides C to c5 (picking the die first when the list is long)
    await play_by_components(fake, row, world.alice, "slide c4 c5")
    assert "Alice slides die C from c4 to c5 (1 step)." in thread_text(fake, row)
    # the slam select names what each slam would hit; End turn is a button
    turn = await turn_message(fake, row)
    slams, predictions = components(turn, "ms")     # the slams, then the power phrase's
    assert arg_of(slams["custom_id"]) == "sm" and arg_of(predictions["custom_id"]) == "pr"
    by_move = {o["value"]: o["label"] for c in (slams, predictions) for o in c["options"]}
    assert by_move["slam c5"] == "Slam with C (4) at c5: hits W (4→3), X (3→2) and V (5→4)"
    assert "Now you're going to say" in by_move["slam c5 predict"]
    assert "slam f1" not in by_move                   # no Super Slam on the first turn
    first = fake.click(turn, button_for(turn, "end"), user=world.alice)
    double = fake.click(turn, button_for(turn, "end"), user=world.alice)   # a double click
    await fake.invoke(first)
    assert "Alice ends the turn without slamming." in thread_text(fake, row)
    assert turn.custom_ids == []           # the old turn message lost its components
    new = await fake.invoke(double)
    assert "earlier moment" in error(new).content
    _, game = await game_of(fake, row)
    assert game.view(None)["current"] == 1 and game.view(None)["phase"] == "slide"


async def test_turn_commands_with_autocomplete_and_errors(fake, world):
    row = await ready(fake, world)
    thread = thread_of(fake, row)
    # autocomplete (the generic one, from the engine's menu) offers only legal moves, in the
    # engine's words, and only to the player whose turn it is
    payload = fake.autocomplete(fake.bot, "slideslam move", user=world.alice, focused="move",
                                channel=thread, move="slide f1")
    await fake.invoke(payload)
    assert [(c["value"], c["name"]) for c in fake.autocomplete_choices(payload)] == [
        ("slide f1 f2", "Slide F (1) f1 → f2 · slide f1 f2")]
    payload = fake.autocomplete(fake.bot, "slideslam move", user=world.bob, focused="move",
                                channel=thread, move="")
    await fake.invoke(payload)
    assert fake.autocomplete_choices(payload) == []
    # errors: wrong player, wrong phase, off the board, not your die, out of reach
    new = await typed(fake, row, world.bob, "slide a8 a7")
    assert "It is not your turn" in error(new).content and "to slide" in error(new).content
    new = await typed(fake, row, world.alice, "slam c4")
    assert "Slide first" in error(new).content and "slide one of your dice" in error(new).content
    new = await typed(fake, row, world.alice, "end")
    assert "Slide first" in error(new).content
    new = await typed(fake, row, world.alice, "slide z9 a2")
    assert "is not a square or a die" in error(new).content
    new = await typed(fake, row, world.alice, "slide a1 a9")
    assert "a9 is not on the board" in error(new).content and "rows 1–8" in error(new).content
    new = await typed(fake, row, world.alice, "slide a8 a7")
    assert "You have no die on a8" in error(new).content and "A at a1" in error(new).content
    new = await typed(fake, row, world.alice, "slide f1 f3")
    err = error(new).content
    assert "cannot slide to f3" in err and "at most 1 step" in err and "It can reach: f2" in err
    new = await typed(fake, row, world.carol, "slide a1 a2")
    assert "You are not playing" in error(new).content
    # the slide by letter, then the slam command with its autocomplete
    new = await typed(fake, row, world.alice, "slide C c5")
    assert "✅" in error(new).content
    payload = fake.autocomplete(fake.bot, "slideslam move", user=world.alice, focused="move",
                                channel=thread, move="slam")
    await fake.invoke(payload)
    choices = {c["value"]: c["name"] for c in fake.autocomplete_choices(payload)}
    assert "slam f1" not in choices
    assert "hits W (4→3), X (3→2) and V (5→4)" in choices["slam c5"]
    new = await typed(fake, row, world.alice, "slam f1")
    assert "may not Super Slam on their first turn" in error(new).content
    new = await typed(fake, row, world.alice, "slam c5")
    assert "✅" in error(new).content
    text = thread_text(fake, row)
    assert "would hit W at c6, X at d5, V at b5" in text and "within 60 s" in text
    # the response window: only Bob answers; Alice may not end or pass for him
    new = await typed(fake, row, world.alice, "pass")
    assert "is answering the slam" in error(new).content
    new = await typed(fake, row, world.bob, "pass")
    assert "take the hit" in error(new).content.lower()
    assert "W at c6 loses 1 (4 → 3)" in thread_text(fake, row)
    new = await typed(fake, row, world.bob, "pass")
    assert "cannot pass now" in error(new).content and "slide" in error(new).content


# ---- the Power Token: DICE IS NOT BEND! and the prediction --------------------------------------

async def slam_three(fake, world, row):
    """Player 1 slides C to c5 and slams: W, X and V would be hit; the window opens."""
    await typed(fake, row, world.alice, "slide c4 c5")
    await typed(fake, row, world.alice, "slam c5")
    _, game = await game_of(fake, row)
    assert game.view(None)["phase"] == "response"


async def test_bend_button_asks_which_die_and_is_the_defenders_alone(fake, world):
    row = await ready(fake, world)
    await slam_three(fake, world, row)
    turn = await turn_message(fake, row)
    assert "DICE IS NOT BEND!" in turn.text() and world.bob.mention in turn.content
    # one DICE IS NOT BEND! button per die the slam would hit, in the engine's words
    bends = [c for c in turn.components() if tag_of(c.get("custom_id", "")) == "mv"
             and arg_of(c["custom_id"]).startswith("bend ")]
    assert [c["label"] for c in bends] == [
        "DICE IS NOT BEND! Save W at c6 (4→3 avoided)",
        "DICE IS NOT BEND! Save X at d5 (3→2 avoided)",
        "DICE IS NOT BEND! Save V at b5 (5→4 avoided)"]
    new = await fake.invoke(fake.click(turn, button_for(turn, "bend d5"), user=world.alice))
    assert "Bob is answering the slam" in error(new).content
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.alice,
                                       channel=thread_of(fake, row)))
    assert "Only Bob can say DICE IS NOT BEND!" in error(new).content
    new = await fake.invoke(fake.click(turn, button_for(turn, "bend d5"), user=world.carol))
    assert "not playing" in error(new).content
    # the phrase command with three dice hit and none named: which one?
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread_of(fake, row)))
    assert "which die do you save?" in error(new).content
    assert "buttons on the turn message" in error(new).content     # no second set of buttons
    await fake.invoke(fake.click(turn, button_for(turn, "bend d5"), user=world.bob))
    text = thread_text(fake, row)
    assert "Bob: \"DICE IS NOT BEND!\" Die X at d5 takes no damage" in text
    assert "X at d5 takes no damage" in text and "W at c6 loses 1 (4 → 3)" in text
    _, game = await game_of(fake, row)
    assert game.view(None)["tokens_used"] == [False, True]
    # the token is spent: later the phrase is refused with the reason
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread_of(fake, row)))
    assert "already spent" in error(new).content
    # and the prediction has nothing to predict any more
    await typed(fake, row, world.bob, "slide a8 a7")
    new = await fake.invoke(fake.slash(fake.bot, "now-youre-going-to-say", user=world.bob,
                                       channel=thread_of(fake, row), die="c6"))
    assert "Power Token is already spent" in error(new).content
    new = await typed(fake, row, world.bob, "slam c6 predict")
    assert "Power Token is already spent" in error(new).content
    new = await typed(fake, row, world.bob, "slam c6")
    assert "✅" in error(new).content and "Bob: \"SLAM!\"" in thread_text(fake, row)


async def test_bend_button_saves_the_only_die_at_once(fake, world):
    row = await ready(fake, world, p2="place a8=6 b8=5 c6=4 d8=3 e8=2 f8=1")
    await typed(fake, row, world.alice, "slide c4 c5")
    turn = await turn_message(fake, row)
    await fake.invoke(choose(fake, turn, "slam c5", world.alice))
    assert "would hit W at c6" in thread_text(fake, row)
    turn = await turn_message(fake, row)
    await fake.invoke(fake.click(turn, button_for(turn, "bend c6"), user=world.bob))
    text = thread_text(fake, row)
    assert "Die W at c6 takes no damage from this slam" in text
    assert "Die C at c5 slams (1 damage): W at c6 takes no damage (DICE IS NOT BEND!)." in text
    _, game = await game_of(fake, row)
    view = game.view(None)
    assert view["tokens_used"] == [False, True] and view["current"] == 1
    assert [d["health"] for d in view["dice"] if d["letter"] == "W"] == [4]


async def test_dice_is_not_bend_command(fake, world):
    row = await ready(fake, world)
    thread = thread_of(fake, row)
    await slam_three(fake, world, row)
    payload = fake.autocomplete(fake.bot, "dice-is-not-bend", user=world.bob, focused="die",
                                channel=thread, die="")
    await fake.invoke(payload)
    assert [c["value"] for c in fake.autocomplete_choices(payload)] == ["c6", "d5", "b5"]
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.alice,
                                       channel=thread, die="c5"))
    assert "Only Bob can say DICE IS NOT BEND!" in error(new).content
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread, die="a8"))
    err = error(new).content
    assert "a8 is not one of your dice this slam would hit" in err and "`pass`" in err
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread))
    assert "which die do you save?" in error(new).content
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread, die="c6"))
    assert "DICE IS NOT BEND!" in error(new).content
    text = thread_text(fake, row)
    assert "Die W at c6 takes no damage" in text and "X at d5 loses 1 (3 → 2)" in text


async def test_now_youre_going_to_say(fake, world):
    row = await ready(fake, world)
    thread = thread_of(fake, row)
    await typed(fake, row, world.alice, "slide c4 c5")
    payload = fake.autocomplete(fake.bot, "now-youre-going-to-say", user=world.alice,
                                focused="die", channel=thread, die="")
    await fake.invoke(payload)
    assert [c["value"] for c in fake.autocomplete_choices(payload)] == ["c5"]
    new = await fake.invoke(fake.slash(fake.bot, "now-youre-going-to-say", user=world.alice,
                                       channel=thread, die="a1"))
    assert "may predict only when the slam would damage an enemy die" in error(new).content
    new = await fake.invoke(fake.slash(fake.bot, "now-youre-going-to-say", user=world.bob,
                                       channel=thread, die="c6"))
    assert "It is not your turn" in error(new).content
    new = await fake.invoke(fake.slash(fake.bot, "now-youre-going-to-say", user=world.alice,
                                       channel=thread, die="c5"))
    assert "Now you're going to say" in error(new).content
    text = thread_text(fake, row)
    assert "points at Bob: \"Now you're going to say: DICE IS NOT BEND!\"" in text
    assert "V at b5 loses 1 (5 → 4)" in text
    _, game = await game_of(fake, row)
    view = game.view(None)
    assert view["tokens_used"] == [True, False] and view["phase"] == "slide"  # no window
    assert view["current"] == 1
    # Bob can no longer be predicted against (Alice's token is gone) nor answer past slams
    new = await fake.invoke(fake.slash(fake.bot, "dice-is-not-bend", user=world.bob,
                                       channel=thread))
    assert "no slam of your opponent's" in error(new).content and "slide" in error(new).content


async def test_typed_phrase_in_the_thread(fake, world):
    fake.bot.read_messages = True
    row = await ready(fake, world)
    thread = thread_of(fake, row)
    await slam_three(fake, world, row)
    # a spectator shouting along is ignored; the attacker is told why not
    user_message(fake, thread, world.carol, "DICE IS NOT BEND!")
    await fake.settle()
    user_message(fake, thread, world.alice, "dice is not bend!!!")
    await fake.settle()
    assert f"{world.alice.mention} ❌ Only Bob can say" in thread_text(fake, row)
    # several dice would be hit, none named: the bot asks which, in the thread
    user_message(fake, thread, world.bob, "Dice... is NOT bend!")
    await fake.settle()
    ask = thread_messages(fake, row)[-1]
    assert "which die do you save?" in ask.content and world.bob.mention in ask.content
    assert ask.custom_ids == []           # the turn message's buttons answer it (#22.13)
    turn = await turn_message(fake, row)
    new = await fake.invoke(choose(fake, turn, "bend c6", world.alice))
    assert "is answering the slam" in error(new).content
    # naming the die in the message works as well
    user_message(fake, thread, world.bob, "DICE IS NOT BEND! b5")
    await fake.settle()
    text = thread_text(fake, row)
    assert "Die V at b5 takes no damage" in text and "W at c6 loses 1 (4 → 3)" in text
    # chatter that merely starts like the phrase is not a move, and gets no answer
    count = len(thread_messages(fake, row))
    user_message(fake, thread, world.bob, "dice is not bend, what a game")
    await fake.settle()
    assert len(thread_messages(fake, row)) == count


async def test_typed_phrase_is_ignored_without_read_messages(fake, world):
    row = await ready(fake, world)
    await slam_three(fake, world, row)
    count = len(thread_messages(fake, row))
    user_message(fake, thread_of(fake, row), world.bob, "DICE IS NOT BEND!")
    await fake.settle()
    assert len(thread_messages(fake, row)) == count
    _, game = await game_of(fake, row)
    assert game.view(None)["phase"] == "response"


# ---- Dice Awakening: Final Form! -----------------------------------------------------------------

ONES = "1,1,1,1,1,1"
COLUMN_A = "place a1=1 a2=1 a3=1 a4=1 b1=1 c1=1"     # A–D on column a, E on b1, F on c1
BACK_ROW = "place a8=1 b8=1 c8=1 d8=1 e8=1 f8=1"


async def lose_four(fake, world, row):
    """Turn 1 Alice slides and ends (no Super Slam yet); turn 2 Bob Super Slams column a from
    a8, Alice takes it: A–D are destroyed, E and F are left."""
    await typed(fake, row, world.alice, "slide b1 b2")
    await typed(fake, row, world.alice, "end")
    await typed(fake, row, world.bob, "slide b8 b7")
    await typed(fake, row, world.bob, "slam a8")
    await typed(fake, row, world.alice, "pass")
    _, game = await game_of(fake, row)
    assert sorted(game.view(None)["removed"]) == ["A", "B", "C", "D"]


async def test_dice_awakening_command_and_form(fake, world):
    row = await ready(fake, world, p1=COLUMN_A, p2=BACK_ROW, starting_values=ONES)
    thread = thread_of(fake, row)
    new = await fake.invoke(fake.slash(fake.bot, "dice-awakening", user=world.alice,
                                       channel=thread, die="b1", invocation=INVOCATION))
    assert "you control 6 dice" in error(new).content
    await lose_four(fake, world, row)
    assert "Super Slams (2 damage)" in thread_text(fake, row)
    payload = fake.autocomplete(fake.bot, "dice-awakening", user=world.alice, focused="die",
                                channel=thread, die="", invocation="x")
    await fake.invoke(payload)
    assert [c["value"] for c in fake.autocomplete_choices(payload)] == ["b2", "c1"]
    new = await fake.invoke(fake.slash(fake.bot, "dice-awakening", user=world.bob,
                                       channel=thread, die="a8", invocation=INVOCATION))
    assert "It is not your turn" in error(new).content
    # a wrong invocation is refused with the right text shown
    new = await fake.invoke(fake.slash(fake.bot, "dice-awakening", user=world.alice,
                                       channel=thread, die="c1",
                                       invocation="My dice are cool! DICE AWAKENING!"))
    err = error(new).content
    assert "must be spoken in full" in err and INVOCATION in err
    # the turn message's form: the die and the invocation (case and punctuation free)
    turn = await turn_message(fake, row)
    [awaken] = components(turn, "aw")
    assert [o["value"] for o in awaken["options"]] == ["b2", "c1"]
    new = await fake.invoke(fake.select(turn, awaken["custom_id"], ["c1"], user=world.bob))
    assert "It is not your turn" in error(new).content
    opened = fake.select(turn, awaken["custom_id"], ["c1"], user=world.alice)
    await fake.invoke(opened)
    spoken = INVOCATION.lower().replace("!", "").replace(".", "")
    await fake.invoke(fake.submit_modal(opened, {"awaken-invocation": spoken}))
    text = thread_text(fake, row)
    assert "Die F at c1 (health 1) is replaced by the awakened die" in text
    _, game = await game_of(fake, row)
    [f] = [d for d in game.view(None)["dice"] if d["letter"] == "F"]
    assert f["awakened"] and game.view(None)["awakened_used"] == [True, False]
    new = await fake.invoke(fake.slash(fake.bot, "dice-awakening", user=world.alice,
                                       channel=thread, die="b2", invocation=INVOCATION))
    assert "once per game" in error(new).content
    # the awakened die slides 2
    payload = fake.autocomplete(fake.bot, "slideslam move", user=world.alice, focused="move",
                                channel=thread, move="slide c1")
    await fake.invoke(payload)
    assert "slide c1 c3" in [c["value"] for c in fake.autocomplete_choices(payload)]


# ---- whole games ---------------------------------------------------------------------------------

def enemy_health(game, seat) -> int:
    return sum(d["health"] for d in game.view(None)["dice"] if d["owner"] != seat)


def damage_of(game, seat, move) -> int:
    after = game.copy()
    after.apply(seat, move)
    if after.view(None)["phase"] == "response":
        after.apply(1 - seat, "pass")
    return enemy_health(game, seat) - enemy_health(after, seat)


def greedy(game, seat) -> str:
    """A keen player: the slide that sets up the hardest slam, then that slam."""
    legal = game.legal(seat)
    phase = game.view(None)["phase"]
    if phase == "slam":
        slams = [m for m in legal if m.startswith("slam ") and not m.endswith("predict")]
        best = max(slams, key=lambda m: damage_of(game, seat, m), default=None)
        return best if best and damage_of(game, seat, best) > 0 else "end"

    def setup_value(slide):
        after = game.copy()
        after.apply(seat, slide)
        return max((damage_of(after, seat, m) for m in after.legal(seat)
                    if m.startswith("slam ") and not m.endswith("predict")), default=0)
    return max((m for m in legal if m.startswith("slide ")), key=setup_value)


async def play_by_components(fake, row, user, move):
    """Make `move` with the turn message's components, as a player clicking would."""
    turn = await turn_message(fake, row)
    if move.startswith("slide ") and components(turn, "nw"):
        [picker] = components(turn, "nw")        # the die first, then where it goes
        [die] = [o["value"] for o in picker["options"]
                 if f" on {move.split()[1]} — " in o["label"]]
        await fake.invoke(fake.select(turn, picker["custom_id"], [die], user=user))
        turn = last_ephemeral(fake, row, user, "pick the move")
    await fake.invoke(choose(fake, turn, move, user))


def pngs(requests) -> int:
    return sum(1 for r in requests for f in r.files or [] if f.filename.endswith(".png"))


async def test_a_turn_whose_slam_changes_nothing_uploads_its_board_once(fake, world):
    """Issue #22: the slide and the slam each uploaded the board, and the next turn's card
    uploaded it once more. The slide's board is now a quiet turn's one upload: the next
    card shows none, the board being the one on the card just above it."""
    row = await ready(fake, world)
    first = await turn_message(fake, row)
    mark = len(fake.requests)
    await play_by_components(fake, row, world.alice, "slide c4 c5")
    await play_by_components(fake, row, world.alice, "end")
    assert pngs(fake.requests[mark:]) == 1
    second = await turn_message(fake, row)
    assert second.id != first.id and second.files == [] and "Bob" in second.content
    # the first card lost its buttons and still shows the slide's board (the board as it
    # stands: the slam moved nothing)
    shown = fake.messages[first.id]
    [upload] = [f for r in fake.requests[mark:] for f in r.files or []]
    assert shown.custom_ids == [] and shown.files[-1].data == upload.data


async def test_a_new_card_shows_the_board_when_the_card_above_is_gone(fake, world):
    """Someone deleted the turn's card: the board that was to stay above is gone, so the next
    turn's card shows it (as it would on any new card)."""
    row = await ready(fake, world)
    await play_by_components(fake, row, world.alice, "slide c4 c5")
    first = await turn_message(fake, row)
    fake.messages[first.id].deleted = True
    await typed(fake, row, world.alice, "end")
    second = await turn_message(fake, row)
    game = (await game_of(fake, row))[1]
    assert second.id != first.id and second.files[-1].data == render(game.view(None)).png


async def test_a_slam_that_hits_puts_its_board_on_the_card_it_was_answered_on(fake, world):
    row = await ready(fake, world)
    await play_by_components(fake, row, world.alice, "slide c4 c5")
    await play_by_components(fake, row, world.alice, "slam c5")
    answer = await turn_message(fake, row)      # Bob's: DICE IS NOT BEND! or pass
    mark = len(fake.requests)
    assert answer.files == [] and "DICE IS NOT BEND" in answer.content
    await play_by_components(fake, row, world.bob, "pass")
    game = (await game_of(fake, row))[1]
    assert game.view(None)["last_slam"]["damage"] == 1
    # Bob's answer leaves the turn with him: the card he answered on is his turn's, and
    # shows the slam's damage (one upload from the slam on)
    resolved = await turn_message(fake, row)
    assert resolved.id == answer.id and pngs(fake.requests[mark:]) == 1
    assert resolved.files[-1].data == render(game.view(None)).png
    assert "Bob to slide" in resolved.content


async def place_by_panel(fake, user, squares):
    for sq in squares:
        panel = panel_of(fake, user)
        await fake.invoke(choose(fake, panel, f"place {sq}=1", user))
    panel = panel_of(fake, user)
    await fake.invoke(fake.click(panel, button_for(panel, "confirm"), user=user))


async def test_full_game_from_challenge_to_a_win(fake, world):
    players = users(world)
    # the challenge, accepted with the button
    row = await start(fake, world, starting_values=ONES, vote_seconds=20)
    assert row.thread_id is not None
    # the Wall of Unknowing, through the DM panels
    await place_by_panel(fake, world.alice, ["a1", "b1", "c1", "d1", "e1", "f1"])
    assert not re.search(r"\b[a-f]1\b", thread_everything(fake, row))
    await place_by_panel(fake, world.bob, ["a8", "b8", "c8", "d8", "e8", "f8"])
    # each retired panel said the truth when it was retired: Alice's while Bob still placed
    assert "goes on in its thread" in fake.dms_to(world.alice)[-1].content
    assert "goes on in its thread" in fake.dms_to(world.bob)[-1].content
    assert all(m.custom_ids == [] for u in players for m in fake.dms_to(u)[-1:])
    # the argument and the vote: Carol likes Alice's case
    await slash(fake, row, "slideslam argue", world.alice, text="Six ones. Six Super Slams.")
    await slash(fake, row, "slideslam argue", world.bob, text="Mine are ones too, but darker.")
    vote = vote_message(fake, row)
    await fake.invoke(fake.click(vote, next(c for c in vote.custom_ids if c.endswith(":1")),
                                 user=world.carol))
    row = await fake.bot.store.get_game(row.id)
    await fake.bot.tables.expire(row.id, row.version)
    await fake.settle()
    assert "Alice goes first." in thread_text(fake, row)
    # turns with the buttons of each turn message, until somebody has no dice left
    bent = False
    for _ in range(120):
        _, game = await game_of(fake, row)
        if game.outcome() is not None:
            break
        [seat] = game.actors()
        view = game.view(None)
        if view["phase"] == "response" and not bent:
            turn = await turn_message(fake, row)
            bend = next(c for c in turn.custom_ids if arg_of(c).startswith("bend "))
            await fake.invoke(fake.click(turn, bend, user=players[seat]))
            bent = True
            continue
        move = "pass" if view["phase"] == "response" else greedy(game, seat)
        await play_by_components(fake, row, players[seat], move)
    else:
        pytest.fail("no winner after 120 actions")
    outcome = game.outcome()
    assert len(outcome.winners) == 1 and "has no dice left" in outcome.reason
    winner = players[outcome.winners[0]]
    text = thread_text(fake, row)
    assert f"🏆 **{game.name(outcome.winners[0])} wins**" in text and "DICE IS NOT BEND!" in text
    assert "Super Slams" in text
    finished = await fake.bot.store.get_game(row.id)
    assert finished.status == "finished"
    last = thread_messages(fake, row)[-1]
    # no game component left on the last message (a rematch button may be there)
    assert not [c for c in last.custom_ids if c.startswith("g:")] and last.files
    for m in thread_messages(fake, row):
        for f in m.files:
            assert_png(f)
    new = await typed(fake, row, winner, "end")
    assert f"Game #{row.id} is over" in error(new).content
    # names, never seat codes, in everything a person read: thread, alt texts, DMs, components
    seen = [thread_everything(fake, row)]
    for user in players:
        for m in fake.dms_to(user):
            seen.append(m.text())
            seen += [f.description or "" for f in m.files]
    for m in thread_messages(fake, row):
        seen += [c.get("label", "") for c in m.components()]
    codes = re.compile(r"(?<![\w<`])@[12]\b|\b[Pp]layer [12]\b|\bP[12]\b")
    assert not [t for t in seen if codes.search(t)][:3]


async def test_closed_dms_fall_back_to_the_ephemeral_panel(fake, world):
    fake.close_dms(world.bob)
    row = await start(fake, world)
    assert fake.dms_to(world.bob) == []
    [fallback] = [m for m in thread_messages(fake, row)
                  if any(tag_of(c) == "pn" for c in m.custom_ids)
                  and "can't send you direct messages" in m.content]
    assert world.bob.mention in fallback.content
    new = await fake.invoke(fake.click(fallback, tagged(fallback, "pn"), user=world.carol))
    assert "You are not playing in this game" in error(new).content
    await fake.invoke(fake.click(fallback, tagged(fallback, "pn"), user=world.bob))
    panel = last_ephemeral(fake, row, world.bob, "(Bob, black dice)")
    assert panel.files == [] and "rows 5–8" in panel.content and "Wall of Unknowing" in (
        panel.content)
    # the value select edits the ephemeral panel in place
    [vs] = components(panel, "pv")
    await fake.invoke(fake.select(panel, vs["custom_id"], ["3"], user=world.bob))
    panel = last_ephemeral(fake, row, world.bob, "(Bob, black dice)")
    assert "Now placing **Die X (health 3)**" in panel.content
    await fake.invoke(choose(fake, panel, "place d5=3", world.bob))
    panel = last_ephemeral(fake, row, world.bob, "(Bob, black dice)")
    assert taken_back(panel) == {"unplace d5"}
    await typed(fake, row, world.bob, "place a8=6 b8=5 c8=4 e8=2 f8=1")
    await fake.invoke(fake.click(fallback, tagged(fallback, "pn"), user=world.bob))
    panel = last_ephemeral(fake, row, world.bob, "(Bob, black dice)")
    await fake.invoke(fake.click(panel, button_for(panel, "confirm"), user=world.bob))
    assert "Bob has finished placing" in thread_text(fake, row)
    everything = thread_everything(fake, row)
    assert not re.search(r"\b(d5|a8|b8|c8|e8|f8)\b", everything)
    # one fallback offer for the placement, not one per move
    assert len([m for m in thread_messages(fake, row)
                if "can't send you direct messages" in m.content]) == 1


async def test_command_tree_is_valid(fake):
    from bot.validate import validate
    tree = fake.bot.tree_payload()
    assert validate(tree) == []
    names = {c["name"] for c in tree}
    assert {"slideslam", "dice-is-not-bend", "now-youre-going-to-say",
            "dice-awakening"} <= names
    [group] = [c for c in tree if c["name"] == "slideslam"]
    assert {o["name"] for o in group["options"]} >= {
        "challenge", "argue", "board", "panel", "move", "help", "practice"}


async def test_big_board_splits_the_squares_and_board_command(fake, world):
    row = await start(fake, world, columns=9, rows=10, starting_values="6,6,5,5,1,1")
    panel = panel_of(fake, world.alice)
    [vs] = components(panel, "pv")
    assert [o["label"] for o in vs["options"]] == [
        "Die A (health 6)", "Die C (health 5)", "Die E (health 1)"]
    selects = [c for c in components(panel, "ms") if ":q" in c["custom_id"]]
    assert [len(c["options"]) for c in selects] == [25, 20]        # 45 squares, 25 at most
    assert "(1 of 2)" in selects[0]["placeholder"] and "(2 of 2)" in selects[1]["placeholder"]
    await fake.invoke(choose(fake, panel, "place i5=6", world.alice))
    panel = panel_of(fake, world.alice)
    assert taken_back(panel) == {"unplace i5"}
    assert "Now placing **Die B (health 6)**" in panel.content
    new = await slash(fake, row, "slideslam board", world.carol)
    reply = [r for r in new if r.content][-1]
    assert reply.ephemeral and "the Wall of Unknowing hides both sides" in reply.content
    assert "i5" not in reply.content


async def test_response_window_times_out_to_a_pass(fake, world):
    row = await ready(fake, world, response_window=15)
    await slam_three(fake, world, row)
    row = await fake.bot.store.get_game(row.id)
    assert row.deadline_kind == "turn" and 10 < row.deadline - row.updated_at <= 16
    # Bob's own panel offers the same answer, privately
    await slash(fake, row, "slideslam panel", world.bob)
    panel = last_ephemeral(fake, row, world.bob, "Your move")
    assert button_for(panel, "bend c6") and button_for(panel, "pass")
    await fake.bot.tables.expire(row.id, row.version)
    await fake.settle()
    text = thread_text(fake, row)
    assert "⏰ Time ran out." in text and "Bob keeps the Power Token." in text
    assert "W at c6 loses 1 (4 → 3)" in text
    _, game = await game_of(fake, row)
    assert game.view(None)["current"] == 1 and game.view(None)["tokens_used"] == [False, False]


# ---- the right words at the end, and a component for every move ---------------------------------

async def test_resign_during_placement_retires_the_panels_with_the_true_reason(fake, world):
    """Issue #12: after a resign during placement both DMs said "Your placement is confirmed.
    The wall is down". The panel that was still open now says the game is over and why."""
    row = await start(fake, world)
    await typed(fake, row, world.alice, P1)
    await typed(fake, row, world.alice, "confirm")
    assert "goes on in its thread" in fake.dms_to(world.alice)[-1].content
    await typed(fake, row, world.bob, "place a8=6 b8=5")
    await fake.invoke(fake.slash(fake.bot, "games resign", user=world.bob, channel=world.games,
                                 game=row.id))
    bob_last = fake.dms_to(world.bob)[-1]
    assert "game is over" in bob_last.content and "Bob resigned" in bob_last.content
    assert bob_last.custom_ids == []
    for user in users(world):
        for m in fake.dms_to(user):
            assert "The wall is down" not in m.content
    assert "Bob resigned" in thread_text(fake, row)


def offered_moves(items) -> set[str]:
    """The moves a player can make straight from these components (button args, select
    values of the move tags)."""
    out = set()
    for item in items:
        c = getattr(item, "item", item)
        cid = c.custom_id
        if tag_of(cid) == "mv":
            out.add(arg_of(cid))
        elif tag_of(cid) == "ms":
            out.update(o.value for o in c.options)
    return out


async def test_every_legal_move_is_reachable_from_a_component(fake, world):
    """Issue #13: no move needs typing. Through a seeded random game, every legal move of the
    player to act is offered by the turn message or their panel (a die picker or the awakening
    select leading to it counts), each with words, not notation."""
    import random
    rng = random.Random(7)
    row = await start(fake, world, first_player="random", starting_values="3,3,2,2,1,1")
    cog = fake.bot.game_cogs["slideslam"]
    players = users(world)
    checked = 0
    phases = set()
    for _ in range(70):
        row = await fake.bot.store.get_game(row.id)
        _, game = await game_of(fake, row)
        if game.outcome() is not None:
            break
        seat = next(a for a in game.actors() if a != "chance")
        legal = set(game.legal(seat))
        phase = game.current_phase()
        phases.add(phase)
        if phase == "placement":
            offered = set()
            place = game.menu(seat).group("q")
            for pick in (dict.fromkeys(i.step for i in place.items) if place else [None]):
                panel = cog.panel(row, game, seat, "p0", pick=pick)
                offered |= offered_moves(panel.items)
        else:
            turn = await turn_message(fake, row)
            offered = {arg_of(c) for c in turn.custom_ids if tag_of(c) == "mv"}
            offered |= {o["value"] for c in components(turn, "ms") for o in c["options"]}
            for picker in components(turn, "nw"):
                for o in picker["options"]:
                    await fake.invoke(fake.select(turn, picker["custom_id"], [o["value"]],
                                                  user=players[seat]))
                    dests = last_ephemeral(fake, row, players[seat], "pick the move")
                    offered |= {o2["value"] for c in components(dests, "ms")
                                for o2 in c["options"]}
            for awaken in components(turn, "aw"):
                offered |= {f"awaken {o['value']} {INVOCATION}" for o in awaken["options"]}
            labels = [c.get("label", "") for c in turn.components()]
            labels += [o["label"] for c in turn.components() for o in c.get("options", [])]
            assert not any(re.search(r"\b[Pp]layer [12]\b|@[12]\b", t) for t in labels), labels
        assert legal <= offered, (phase, sorted(legal - offered)[:5])
        checked += len(legal)
        move = rng.choice(sorted(legal))
        if phase == "placement" and rng.random() < 0.6:
            move = next((m for m in sorted(legal) if m.startswith("place ")), move)
        await typed(fake, row, players[seat], move)
    assert {"placement", "slide", "slam"} <= phases and checked > 200


async def test_the_other_players_placement_never_touches_my_panel(fake, world):
    """Issue #12: a private panel changes only when its owner's options or private facts
    change. Bob placing and confirming neither re-sends nor edits Alice's panel (nor redraws
    its picture), and Alice's half-made choice (the die she picked) survives."""
    row = await start(fake, world)
    panel = panel_of(fake, world.alice)
    [vs] = components(panel, "pv")
    await fake.invoke(fake.select(panel, vs["custom_id"], ["3"], user=world.alice))
    panel = panel_of(fake, world.alice)
    assert "Now placing **Die D (health 3)**" in panel.content
    dms = len(fake.dms_to(world.alice))

    def touches(msg_id):
        return [r for r in fake.requests if r.method == "PATCH"
                and r.args.get("message_id") == msg_id]
    before = len(touches(panel.id))
    await typed(fake, row, world.bob, P2)
    await typed(fake, row, world.bob, "confirm")
    assert "Bob has finished placing" in thread_text(fake, row)
    assert len(fake.dms_to(world.alice)) == dms
    assert len(touches(panel.id)) == before
    # her own next step still finds her choice: the squares offered are for die D (health 3)
    panel = panel_of(fake, world.alice)
    assert "Now placing **Die D (health 3)**" in panel.content
    await fake.invoke(choose(fake, panel, "place a1=3", world.alice))
    assert taken_back(panel_of(fake, world.alice)) == {"unplace a1"}


async def test_an_unchanged_panel_is_never_edited(fake, world):
    """After my own move edits my panel, other players' moves leave it alone (the stored
    panel signature must be saved, not changed on a shared copy: bot/gamecog.py)."""
    row = await start(fake, world)
    panel = panel_of(fake, world.alice)

    def touches():
        return [r for r in fake.requests if r.method == "PATCH"
                and r.args.get("message_id") == panel.id]
    await typed(fake, row, world.alice, "place a1=6")     # her own move: her panel is edited
    assert taken_back(panel_of(fake, world.alice)) == {"unplace a1"}
    edits = len(touches())
    await typed(fake, row, world.bob, "place a8=6")
    await typed(fake, row, world.bob, "place b8=5")
    await typed(fake, row, world.bob, "place c8=4")
    assert len(touches()) == edits


async def test_both_players_timing_out_in_placement_ends_with_no_winner(fake, world):
    """Issue #12: when both players let the placement clock run out, the thread said
    "Winner: player 2 (player 1 resigned)". Now it says both ran out of time, nobody wins, and
    both secret panels are retired saying so."""
    row = await start(fake, world)
    assert {p for p in fake.dms_to(world.alice) + fake.dms_to(world.bob) if p.custom_ids}
    row = await fake.bot.store.get_game(row.id)
    await fake.bot.tables.expire(row.id, row.version)
    await fake.settle()
    row = await fake.bot.store.get_game(row.id)
    assert row.status == "finished"
    text = thread_text(fake, row)
    assert "resigned" not in text and "Winner" not in text
    assert "Draw** — Alice and Bob ran out of time, so nobody wins." in text
    assert text.count("ran out of time") == 1
    for user in users(world):
        last = fake.dms_to(user)[-1]
        assert last.custom_ids == [] and "game is over" in last.content
        assert "resigned" not in last.content
