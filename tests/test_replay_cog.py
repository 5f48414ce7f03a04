"""#26 in Discord, through the offline harness: `/games replay` (the GIF and the step-through),
its buttons (the presser's only, after a restart too, never another seat's secret), "What
happened?" on a running game's turn message, and a slow game's ping summary."""
from __future__ import annotations

import io
import json

from PIL import Image

from bot.engine.core import CHANCE
from bot.engine.records import entry_actor, start
from bot.replay import record_of
from conftest import boot

P1 = "place a1=6 b1=5 c4=4 d1=3 e1=2 f1=1"
P2 = "place a8=6 b5=5 c6=4 d5=3 e8=2 f8=1"
SECRET_SQUARES = ("c4=4", "a1=6", "place a1")


def ephemeral(new):
    return [r for r in new if r.ephemeral]


async def start_slideslam(fake, world, **options):
    await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob,
                                 first_player="random", **options))
    msg = fake.messages_in(world.games)[-1]
    accept = next(c for c in msg.custom_ids if c.endswith(":accept"))
    await fake.invoke(fake.click(msg, accept, user=world.bob))
    return (await fake.bot.store.active_games())[-1]


async def play(fake, row, seat, move):
    await fake.bot.tables.play(row.id, None, move, actor=seat)
    await fake.settle()


async def play_some(fake, row, turns: int):
    """Both walls, then `turns` plain moves of whoever is to move (their first legal one)."""
    await play(fake, row, 0, P1)
    await play(fake, row, 0, "confirm")
    await play(fake, row, 1, P2)
    await play(fake, row, 1, "confirm")
    for _ in range(turns):
        _, game = await fake.bot.tables.load(row.id)
        seat = next(a for a in game.actors() if a != CHANCE)
        legal = game.legal(seat)
        move = next((m for m in legal if m.startswith("slide")), None) or (
            "end" if "end" in legal else legal[0])
        await play(fake, row, seat, move)


async def finished_game(fake, world, turns=4):
    row = await start_slideslam(fake, world)
    await play_some(fake, row, turns)
    await fake.invoke(fake.slash(fake.bot, "games resign", user=world.bob, channel=world.games,
                                 game=row.id))
    return await fake.bot.store.get_game(row.id)


def step_message(fake, user):
    """The newest step-through message `user` sees."""
    return [m for m in fake.messages_in(fake.channels[m_channel(fake, user)],
                                        include_ephemeral=True)
            if m.audience == user.id and any(c.startswith("rp:") for c in m.custom_ids)][-1]


def m_channel(fake, user):
    return fake._last_channel[user.id]


async def replay_cmd(fake, user, channel, game_id, **extra):
    payload = fake.slash(fake.bot, "games replay", user=user, channel=channel, game=game_id)
    payload.update(extra)
    fake._last_channel = getattr(fake, "_last_channel", {})
    fake._last_channel[user.id] = channel.id
    return await fake.invoke(payload)


def button(msg, act):
    return next(c for c in msg.custom_ids if c.startswith("rp:") and c.endswith(":" + act))


def gif_frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        for i in range(gif.n_frames):
            gif.seek(i)
            gif.load()
        return gif.n_frames


async def test_replay_of_a_finished_game_posts_the_gif_and_a_private_step_through(fake, world):
    row = await finished_game(fake, world)
    new = await replay_cmd(fake, world.carol, world.games, row.id)  # carol did not play
    [gif_post] = [r for r in new if any(f.filename.endswith(".gif") for f in r.files)]
    assert not gif_post.ephemeral and f"game #{row.id}" in gif_post.content
    [gif] = gif_post.files
    assert gif.description.startswith("Animated replay of")
    frames = gif_frames(gif.data)
    steps = [r for r in ephemeral(new) if "step 0 of" in r.content]
    assert steps and steps[0].files and steps[0].files[0].filename.endswith(".png")
    total = int(steps[0].content.split("step 0 of ")[1].split(" ")[0])
    assert frames == total + 2  # title, every step, end
    msg = step_message(fake, world.carol)
    await fake.invoke(fake.click(msg, button(msg, "next"), user=world.carol))
    assert f"step 1 of {total}" in msg.content
    await fake.invoke(fake.click(msg, button(msg, "last"), user=world.carol))
    assert f"step {total} of {total}" in msg.content and "🏁" in msg.content
    assert "resigned" in msg.content
    await fake.invoke(fake.click(msg, button(msg, "tprev"), user=world.carol))
    assert f"step {total} of" not in msg.content
    await fake.invoke(fake.click(msg, button(msg, "first"), user=world.carol))
    assert f"step 0 of {total}" in msg.content and "The start." in msg.content
    # In the game's own thread it works the same.
    new = await replay_cmd(fake, world.alice, fake.channels[row.thread_id], row.id)
    assert [r for r in new if r.files and r.files[0].filename.endswith(".gif")]


async def test_buttons_answer_their_presser_only(fake, world):
    row = await finished_game(fake, world)
    await replay_cmd(fake, world.carol, world.games, row.id)
    msg = step_message(fake, world.carol)
    payload = fake.click(msg, button(msg, "next"), user=world.carol)
    # The same button pressed by someone else (Discord shows an ephemeral message to its
    # owner only: a forged press, or a client that shows it to another).
    payload["member"]["user"] = json.loads(json.dumps(payload["member"]["user"]))
    payload["member"]["user"]["id"] = str(world.alice.id)
    payload["member"]["user"]["username"] = "alice"
    new = await fake.invoke(payload)
    [refusal] = ephemeral(new)
    assert "someone else's" in refusal.content
    assert "step 0 of" in msg.content  # unchanged


async def test_step_through_survives_a_restart(fake, world, db_path):
    row = await finished_game(fake, world)
    await replay_cmd(fake, world.carol, world.games, row.id)
    msg = step_message(fake, world.carol)
    payload = fake.click(msg, button(msg, "next"), user=world.carol)
    await fake.stop()
    for guild in fake.guilds.values():
        guild.published = False
    fake2 = await boot(db_path, fake=fake)
    try:
        await fake2.invoke(payload)  # a button sent before the restart
        assert "step 1 of" in msg.content
    finally:
        await fake2.stop()
        fake.bot = None


def enabled(msg, act) -> bool:
    cid = button(msg, act)
    return not next(c for c in msg.components() if c.get("custom_id") == cid).get("disabled")


async def walk_all(fake, msg, user) -> list[str]:
    """Every step's text, from the start to the end, pressing ⏮ then ▶."""
    seen = [msg.content]
    if enabled(msg, "first"):
        await fake.invoke(fake.click(msg, button(msg, "first"), user=user))
        seen.append(msg.content)
    while enabled(msg, "next"):
        await fake.invoke(fake.click(msg, button(msg, "next"), user=user))
        seen.append(msg.content)
    return seen


async def test_a_running_game_steps_through_your_own_seat_only(fake, world):
    row = await start_slideslam(fake, world)
    await play(fake, row, 0, P1)  # alice's placement: secret until the wall comes down
    await play(fake, row, 0, "confirm")
    await play(fake, row, 1, "place a8=6")  # bob starts his own
    new = await replay_cmd(fake, world.carol, world.games, row.id)
    assert "only its players" in ephemeral(new)[0].content
    new = await replay_cmd(fake, world.bob, world.games, row.id)
    assert not [r for r in new if any(f.filename.endswith(".gif") for f in r.files)]
    bob = step_message(fake, world.bob)
    assert "as Bob saw it" in bob.content and "where the game stands now" in bob.content
    seen = await walk_all(fake, bob, world.bob)
    assert len(seen) >= 3 and "finished placing" in "".join(seen)
    assert not any(s in text for s in SECRET_SQUARES for text in seen)
    assert "a8" in "".join(seen)  # his own placement, in his own words
    # Alice's own step-through has her placement, and not bob's.
    await replay_cmd(fake, world.alice, world.games, row.id)
    alice = step_message(fake, world.alice)
    assert "as Alice saw it" in alice.content
    words = "".join(await walk_all(fake, alice, world.alice))
    assert "c4" in words and "a8" not in words


async def test_what_happened_lists_the_public_events_since_your_last_move(fake, world):
    row = await start_slideslam(fake, world)
    await play_some(fake, row, 6)
    row = await fake.bot.store.get_game(row.id)
    turn_msg = fake.messages[row.extra["turn_message"]]
    wh = next(c for c in turn_msg.custom_ids if c.startswith("wh:"))
    # The player to move asks; what happened since their last entry, by the record,
    # independently of the cog.
    _, now = await fake.bot.tables.load(row.id)
    seat = next(a for a in now.actors() if a != CHANCE)
    user = [world.alice, world.bob][seat]
    entries = await fake.bot.store.entries(row.id)
    names = fake.bot.game_cogs["slideslam"].engine.from_json(row.state).names
    record = record_of("slideslam", row.options, names, entries)
    last = max(i for i, e in enumerate(record.entries) if e["actor"] == seat + 1)
    game = start(record)
    expected = []
    for i, e in enumerate(record.entries):
        events = game.table_move(entry_actor(e, game.players), e["move"])
        if i > last:
            expected += [ev.text for ev in events if ev.to is None]
    assert expected
    new = await fake.invoke(fake.click(turn_msg, wh, user=user))
    [answer] = [r for r in ephemeral(new) if r.content]
    listed = [line[2:] for line in answer.content.splitlines() if line.startswith("• ")]
    assert listed == expected
    assert "since your last move" in answer.content
    assert [f.filename.split("-")[0] for f in answer.files] == ["before", "now"]
    for f in answer.files:
        with Image.open(io.BytesIO(f.data)) as img:
            assert img.format == "PNG"
    # A spectator is told it is for the players.
    new = await fake.invoke(fake.click(turn_msg, wh, user=world.carol))
    assert "not playing" in ephemeral(new)[0].content
    # Nothing secret in any answer: bob's placement squares never show before the wall.


async def test_a_slow_games_ping_says_what_happened_since_your_last_move(fake, world):
    row = await start_slideslam(fake, world)
    await play_some(fake, row, 6)
    row = await fake.bot.store.get_game(row.id)
    pings = [m for m in fake.messages_in(row.thread_id) if "Since your last move" in m.content]
    assert pings, "a slow game's new turn message carries the summary"
    last = pings[-1]
    line = next(ln for ln in last.content.splitlines() if "Since your last move" in ln)
    assert len(line) <= 400


async def test_a_quick_games_ping_has_no_summary(fake, world):
    fake.bot.tables.turn_timer = 600  # ten-minute turns: players are at the table
    row = await start_slideslam(fake, world)
    await play_some(fake, row, 6)
    assert not [m for m in fake.messages_in(row.thread_id) if "Since your last move" in m.content]
    row = await fake.bot.store.get_game(row.id)
    assert "wh:%d" % row.id in fake.messages[row.extra["turn_message"]].custom_ids


async def test_the_gif_fits_the_upload_limit(fake, world):
    row = await finished_game(fake, world, turns=8)
    new = await replay_cmd(fake, world.carol, world.games, row.id)
    [whole] = [f for r in new for f in r.files if f.filename.endswith(".gif")]
    limit = len(whole.data) * 2 // 3 + 64 * 1024
    new = await replay_cmd(fake, world.carol, world.games, row.id,
                           attachment_size_limit=limit)
    [post] = [r for r in new if any(f.filename.endswith(".gif") for f in r.files)]
    [small] = post.files
    assert len(small.data) <= limit - 64 * 1024 < len(whole.data)
    assert gif_frames(small.data) < gif_frames(whole.data)
    assert "steps shown" in post.content


async def test_what_happened_never_tells_a_secret_move(fake, world):
    row = await start_slideslam(fake, world)
    await play(fake, row, 0, P1)
    await play(fake, row, 0, "confirm")
    await play(fake, row, 1, P2)  # bob places behind the wall: nothing public yet
    row = await fake.bot.store.get_game(row.id)
    turn_msg = fake.messages[row.extra["turn_message"]]
    wh = next(c for c in turn_msg.custom_ids if c.startswith("wh:"))
    new = await fake.invoke(fake.click(turn_msg, wh, user=world.alice))
    [answer] = [r for r in ephemeral(new) if r.content]
    assert "Nothing has happened since your last move" in answer.content
    assert not any(sq in answer.content for sq in ("b5", "c6", "d5"))
    await play(fake, row, 1, "confirm")  # the wall comes down: now it is public
    row = await fake.bot.store.get_game(row.id)
    turn_msg = fake.messages[row.extra["turn_message"]]
    wh = next(c for c in turn_msg.custom_ids if c.startswith("wh:"))
    new = await fake.invoke(fake.click(turn_msg, wh, user=world.alice))
    [answer] = [r for r in ephemeral(new) if r.content]
    assert "finished placing" in answer.content and "Wall of Unknowing comes down" in answer.content


async def test_a_finished_games_steps_are_drawn_as_in_its_animated_replay():
    """The step-through of a game that is over draws each board in the replay's layout (as
    the GIF posted with it and `render --at N --replay-layout`), so the board holds still from
    click to click; a player's steps of a running game stay the board the thread showed."""
    from pathlib import Path
    from types import SimpleNamespace

    from bot.engine.records import Record
    from bot.render_cli import layouts_of, position, replay_board, renderers
    from bot.replay import walk
    from cogs.replay import Replays
    path = Path(__file__).parent / "records" / "deathbydice" / "lou_vs_vex_short_combat.json"
    record = Record.from_json(json.loads(path.read_text()))
    replay = walk(record, None)
    cog = Replays(None)
    layouts = await cog.layouts(replay)
    assert layouts == layouts_of(record.kind, replay.views)
    assert await cog.layouts(replay) is layouts                   # kept for the next click
    assert await cog.layouts(walk(record, 0)) is None             # a seat's own steps
    row = SimpleNamespace(id=7, kind=record.kind)
    live = renderers(record.kind)[0]
    differs = 0
    for number in (1, len(replay.steps) // 2, len(replay.steps) - 1):
        _, files, _ = await cog.step_message(row, replay, number, uid=1)
        got = files[0].fp.getvalue()
        at = replay.steps[number].at
        view = position(record, at)[0].view(None)
        assert got == replay_board(record, at)(view).png, f"step {number}"
        differs += got != live(view).png
    assert differs   # the replay's layout is not the live board's at these steps
