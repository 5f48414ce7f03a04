"""Death by Dice through the offline Discord harness: challenge → secret set-up in DMs →
attacks, defenses, specials and discards from the turn messages → the result. Plus the roster,
character picks at open tables, the commands' errors, and the set-up's secrecy."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from bot.engine.deathbydice import DeathByDice
from rendering.deathbydice import live_board, render
from test_lobby_flow import challenge_buttons

KIND = "deathbydice"


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    """Every game's secret dice seed is the same, so each run plays the same dice."""
    monkeypatch.setattr("bot.tables.secrets.token_hex", lambda n=16: "5eed" * (n // 2))


def tagged(custom_id: str, *tags: str) -> bool:
    """Is this one of our components (`g:<game>:<version>:<tag>[:<arg>]`) with one of `tags`?"""
    parts = custom_id.split(":")
    return len(parts) >= 4 and parts[0] == "g" and parts[3] in tags


def users(world):
    return {u.id: u for u in (world.alice, world.bob, world.carol)}


def ephemeral(new):
    return [r for r in new if r.ephemeral]


async def game_of(fake, row):
    row = await fake.bot.store.get_game(row.id)
    return row, DeathByDice.from_json(row.state)


def thread_messages(fake, row):
    return fake.messages_in(row.thread_id)


def thread_text(fake, row) -> str:
    return "\n".join(m.text() + "\n" + "\n".join(f.description or "" for f in m.files)
                     for m in thread_messages(fake, row))


def assert_png(sent_file):
    assert sent_file.description, "every picture carries alt text"
    with Image.open(io.BytesIO(sent_file.data)) as img:
        img.verify()
    assert sent_file.filename.endswith(".png")


async def challenge(fake, world, **options):
    options.setdefault("character", "Malice")
    await fake.invoke(fake.slash(fake.bot, f"{KIND} challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob, **options))
    return [m for m in fake.messages_in(world.games) if m.custom_ids][-1]


async def start(fake, world, **options):
    msg = await challenge(fake, world, **options)
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    return (await fake.bot.store.active_games())[-1]


def panel_of(fake, user, row=None):
    """The user's newest secret panel: in DMs, else the newest ephemeral one they got."""
    found = [m for m in fake.dms_to(user) if any(tagged(c, "su", "mv")
                                                 for c in m.custom_ids)]
    if row is not None:
        found += [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
                  if m.audience == user.id and any(tagged(c, "su") for c in m.custom_ids)]
    return found[-1] if found else None


async def confirm_setup(fake, user, row, choice=0):
    """Arrange with the panel's select (if any), then press Confirm."""
    panel = panel_of(fake, user, row)
    select = next((c for c in panel.custom_ids if tagged(c, "su")), None)
    if select is not None:
        options = next(c for c in panel.components() if c.get("custom_id") == select)["options"]
        value = options[choice % len(options)]["value"]
        await fake.invoke(fake.select(panel, select, [value], user=user))
        panel = fake.messages[panel.id]
        assert "Confirm" in panel.text() and "press Confirm" in panel.content
    confirm = next(c for c in panel.custom_ids if tagged(c, "mv") and ":setup" in c)
    return await fake.invoke(fake.click(panel, confirm, user=user))


async def set_up_everyone(fake, world, row):
    _, game = await game_of(fake, row)
    for seat in sorted(set(game.actors())):
        await confirm_setup(fake, users(world)[row.players[seat]], row)


async def take_turn(fake, world, row, rng):
    """The acting player makes one choice through the turn message's components."""
    row, game = await game_of(fake, row)
    if game.view(None)["stage"] == "setup":   # a new combat, or equal totals: set up again
        await set_up_everyone(fake, world, row)
        return "setup"
    [seat] = game.actors()
    user = users(world)[row.players[seat]]
    turn = fake.messages[row.extra["turn_message"]]
    ids = turn.custom_ids
    narrow = next((c for c in ids if tagged(c, "nw")), None)
    selects = [c for c in ids if tagged(c, "ms")]
    buttons = [c for c in ids if tagged(c, "mv")]
    if narrow is not None and rng.random() < 0.8:
        options = next(c for c in turn.components() if c.get("custom_id") == narrow)["options"]
        new = await fake.invoke(fake.select(turn, narrow, [rng.choice(options)["value"]],
                                            user=user))
        [answer] = ephemeral(new)
        assert "pick the move" in answer.content
        offer = [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
                 if m.audience == user.id][-1]
        targets = [c for c in offer.custom_ids if tagged(c, "mv", "ms")]
        target = rng.choice(targets)
        if tagged(target, "mv"):
            await fake.invoke(fake.click(offer, target, user=user))
        else:
            options = next(c for c in offer.components()
                           if c.get("custom_id") == target)["options"]
            await fake.invoke(fake.select(offer, target, [rng.choice(options)["value"]],
                                          user=user))
        return "attack"
    if selects and (not buttons or rng.random() < 0.7):
        select = rng.choice(selects)
        options = next(c for c in turn.components() if c.get("custom_id") == select)["options"]
        await fake.invoke(fake.select(turn, select, [rng.choice(options)["value"]], user=user))
        return "select"
    if buttons:
        await fake.invoke(fake.click(turn, rng.choice(buttons), user=user))
        return "button"
    # only the narrowing list and a special: type the move after all
    move = rng.choice([m for m in game.legal(seat)])
    await fake.invoke(fake.slash(fake.bot, f"{KIND} move", user=user,
                                 channel=fake.channels[row.thread_id], move=move))
    return "typed"


async def play_out(fake, world, row, rng, limit=400):
    kinds = []
    for _ in range(limit):
        current = await fake.bot.store.get_game(row.id)
        if current.status != "active":
            return kinds
        kinds.append(await take_turn(fake, world, row, rng))
    raise AssertionError("the game did not end")


# --- the whole match --------------------------------------------------------------------------

async def test_whole_single_combat_match(fake, world):
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    assert row.options["characters"] == "Malice,Mayhem" and row.options["best_of"] == 1
    text = thread_text(fake, row)
    assert "Death by Dice" in text and "set-up dice are rolled in secret" in text
    assert "Malice (Alice)" in text and "Mayhem (Bob)" in text
    await set_up_everyone(fake, world, row)
    text = thread_text(fake, row)
    assert "goes first" in text and "set up:" in text
    kinds = await play_out(fake, world, row, random.Random(3))
    assert "attack" in kinds or "select" in kinds
    row, game = await game_of(fake, row)
    assert row.status == "finished" and game.outcome() is not None
    assert sum(len(m.files) for m in thread_messages(fake, row)) >= 3
    last = thread_messages(fake, row)[-1]
    assert ("wins" in last.content or "Draw" in last.content)
    assert [c for c in last.custom_ids if not c.startswith("rm:")] == []  # only Rematch
    for m in thread_messages(fake, row):
        for f in m.files:
            assert_png(f)
    # every move the table recorded came from a button, a select or a command of ours
    entries = await fake.bot.store.entries(row.id)
    assert any(move.startswith("attack") for _, move in entries)


async def test_best_of_three_starts_and_runs_into_combat_two(fake, world):
    row = await start(fake, world, character="Knuckles", opponent_character="Lucky Lou")
    assert row.options == {"characters": "Knuckles,Lucky Lou", "best_of": 3, "mode": "duel"}
    text = thread_text(fake, row)
    assert "best of 3" in text
    await set_up_everyone(fake, world, row)
    rng = random.Random(5)
    for _ in range(300):
        row, game = await game_of(fake, row)
        if game.view(None)["combat"] > 1 or row.status != "active":
            break
        await take_turn(fake, world, row, rng)
    row, game = await game_of(fake, row)
    assert game.view(None)["combat"] == 2 and row.status == "active"
    assert "Combat 1 is over" in thread_text(fake, row)
    # the new combat's set-up is secret again, and each player got a fresh panel
    assert game.view(None)["stage"] == "setup"
    for user in (world.alice, world.bob):
        assert "combat 2" in panel_of(fake, user).content


# --- the secret set-up ------------------------------------------------------------------------

async def test_setup_is_secret_until_everyone_confirms(fake, world):
    row = await start(fake, world, opponent_character="Madame Vex", best_of=1)
    _, game = await game_of(fake, row)
    secret = {}
    for seat, user in ((0, world.alice), (1, world.bob)):
        you = game.view(seat)["you"]["setup"][0]
        secret[seat] = [r["value"] for r in you["rolled"]]
        panel = panel_of(fake, user)
        assert "only you see it" in panel.content and panel.files
        assert_png(panel.files[0])
        # the owner sees their own values, by die size
        for value in secret[seat]:
            assert str(value) in panel.content
    moves_a = game.legal(0)
    await confirm_setup(fake, world.alice, row)
    row, game = await game_of(fake, row)
    assert game.view(None)["stage"] == "setup"  # Bob has not confirmed yet
    text = thread_text(fake, row)
    assert "Malice (Alice) is set up (secret until everyone is)" in text
    for move in moves_a + game.legal(1):
        body = move.split(" ", 1)[1]          # "STR=5 AGI=2 ...": no arrangement shows
        assert body not in text
    for seat in (0, 1):                       # no die with a value, the way boards show them
        f = game.fighters[seat]
        for a, size in f["dice"].items():
            for v in secret[seat]:
                assert f"{a} d{size}{f['colours'][a]} {v}" not in text
    assert "Your set-up" not in text and "rolled —" not in text and "set up:" not in text
    # the public picture is exactly the public view's picture (no values: "?" dice), as the
    # live board draws it during the set-up (no one's progress: issue #22)
    public = [f for m in thread_messages(fake, row) for f in m.files][-1]
    assert public.data == render(live_board(game.view(None))).png
    assert "?" in public.description
    # Alice's confirmation went to her alone, and her old panel lost its buttons
    assert any("Your set-up for Malice (Alice)" in m.content for m in fake.dms_to(world.alice))
    assert not any(tagged(c, "su") for m in fake.dms_to(world.alice) for c in m.custom_ids)
    await confirm_setup(fake, world.bob, row)
    text = thread_text(fake, row)
    assert "Malice (Alice) set up:" in text and "Madame Vex (Bob) set up:" in text


async def test_setup_preview_is_refused_when_stale(fake, world):
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    panel = panel_of(fake, world.bob)
    select = next(c for c in panel.custom_ids if tagged(c, "su"))
    options = next(c for c in panel.components() if c.get("custom_id") == select)["options"]
    payload = fake.select(panel, select, [options[0]["value"]], user=world.bob)
    await confirm_setup(fake, world.bob, row)
    new = await fake.invoke(payload)
    assert "earlier moment" in ephemeral(new)[0].content


async def test_closed_dms_setup_through_the_ephemeral_panel(fake, world):
    fake.close_dms(world.bob)
    row = await start(fake, world, opponent_character="The Accountant", best_of=1)
    assert fake.dms_to(world.bob) == []
    fallback = next(m for m in thread_messages(fake, row)
                    if any(tagged(c, "pn") for c in m.custom_ids))
    new = await fake.invoke(fake.click(fallback, f"g:{row.id}:-:pn", user=world.bob))
    [panel] = ephemeral(new)
    assert "only you see it" in panel.content
    await confirm_setup(fake, world.bob, row)
    _, game = await game_of(fake, row)
    assert game.view(None)["fighters"][1]["ready"] is True
    # nothing of Bob's roll reached a channel message anyone else can see
    assert "Your set-up" not in thread_text(fake, row)
    new = await fake.invoke(fake.click(fallback, f"g:{row.id}:-:pn", user=world.carol))
    assert "not playing in this game" in ephemeral(new)[0].content


# --- turns: attacks, defenses, who may click ----------------------------------------------------

async def advance_to(fake, world, row, stage, rng, limit=200):
    for _ in range(limit):
        row, game = await game_of(fake, row)
        if row.status != "active":
            return None
        if game.view(None)["stage"] == stage:
            return row
        await take_turn(fake, world, row, rng)
    return None


async def test_defend_prompt_only_the_defender_may_click(fake, world):
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await set_up_everyone(fake, world, row)
    found = await advance_to(fake, world, row, "defend", random.Random(11))
    assert found is not None, "no defense was ever possible"
    row, game = await game_of(fake, found)
    [defender] = game.actors()
    attacker = 1 - defender
    turn = fake.messages[row.extra["turn_message"]]
    buttons = [c for c in turn.custom_ids if tagged(c, "mv")]
    assert {c.split(":", 4)[4] for c in buttons} == set(game.legal(defender))
    assert any(":defend none" in c for c in buttons)
    assert "No answer" in turn.content and "= no defense" in turn.content
    assert users(world)[row.players[defender]].mention in turn.content
    none = next(c for c in buttons if c.endswith(":defend none"))
    new = await fake.invoke(fake.click(turn, none, user=users(world)[row.players[attacker]]))
    [refusal] = ephemeral(new)
    assert "not you" in refusal.content and "defender" in refusal.content
    new = await fake.invoke(fake.click(turn, none, user=world.carol))
    assert "not playing" in ephemeral(new)[0].content
    assert (await fake.bot.store.get_game(row.id)).version == row.version
    other = [c for c in buttons if not c.endswith(":defend none")][0]
    await fake.invoke(fake.click(turn, other, user=users(world)[row.players[defender]]))
    row2, game2 = await game_of(fake, row)
    assert row2.version > row.version
    assert game2.view(None)["last_attack"]["defense"] is not None or \
        game2.view(None)["attack"] is not None
    # the stale defend buttons are gone from the old turn message: it lost its buttons (the
    # turn passed), or it is the card of the defender's own next step (the turn stayed with
    # them), with controls of the new version only
    left = fake.messages[turn.id].custom_ids
    assert not any(c.startswith(f"g:{row.id}:{row.version}:") or ":defend " in c
                   for c in left), left
    assert not left or row2.extra["turn_message"] == turn.id


async def test_defend_timeout_is_no_defense(fake, world):
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await set_up_everyone(fake, world, row)
    found = await advance_to(fake, world, row, "defend", random.Random(11))
    row, game = await game_of(fake, found)
    await fake.bot.tables.expire(row.id, row.version)
    await fake.settle()
    assert "does not defend" in thread_text(fake, row)
    assert "Time ran out" in thread_text(fake, row)


async def test_move_command_autocomplete_in_words_and_errors(fake, world):
    """`/deathbydice move` lists the mover's legal moves in the engine's words (from the
    menu), nothing to the other player; refusals are ephemeral and in the rules' words."""
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await set_up_everyone(fake, world, row)
    row, game = await game_of(fake, row)
    [seat] = game.actors()
    me, other = users(world)[row.players[seat]], users(world)[row.players[1 - seat]]
    thread = fake.channels[row.thread_id]
    legal = game.legal(seat)
    payload = fake.autocomplete(fake.bot, f"{KIND} move", user=me, channel=thread,
                                focused="move", move="boosted")
    await fake.invoke(payload)
    offered = fake.autocomplete_choices(payload)
    assert offered and {c["value"] for c in offered} <= set(legal)
    assert any(c["name"].startswith("Boosted · ") for c in offered)
    assert all("boosted" in c["name"].lower() for c in offered)
    # the other player gets no suggestions: it is not their move
    payload = fake.autocomplete(fake.bot, f"{KIND} move", user=other, channel=thread,
                                focused="move", move="")
    await fake.invoke(payload)
    assert fake.autocomplete_choices(payload) == []
    # errors, all ephemeral, in the rule's own words
    async def typed(user, move):
        new = await fake.invoke(fake.slash(fake.bot, f"{KIND} move", user=user,
                                           channel=thread, move=move))
        return ephemeral(new)[-1].content
    refusal = await typed(other, f"attack ability STR -> @{seat + 1}:STR")
    assert "not your step" in refusal and "the attacker" in refusal
    assert "Ability Attack rolls one die" in await typed(
        me, f"attack ability STR+FOR -> @{2 - seat}:STR")
    assert "not a player" in await typed(me, "attack complex STR+FOR -> @9:STR")
    assert "not playing in this game" in await typed(world.carol, "attack ability STR -> @2:STR")
    assert "defense is not possible now" in await typed(me, "defend none")
    assert (await fake.bot.store.get_game(row.id)).version == row.version
    assert "✅" in await typed(me, [m for m in legal if m.startswith("attack")][-1])
    assert "declares" in thread_text(fake, row)


async def test_attack_group_select_refuses_the_other_player(fake, world):
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await set_up_everyone(fake, world, row)
    row, game = await game_of(fake, row)
    [seat] = game.actors()
    turn = fake.messages[row.extra["turn_message"]]
    control = next(c for c in turn.custom_ids if tagged(c, "nw", "ms"))
    options = next(c for c in turn.components() if c.get("custom_id") == control)["options"]
    other = users(world)[row.players[1 - seat]]
    new = await fake.invoke(fake.select(turn, control, [options[0]["value"]], user=other))
    assert "not you" in ephemeral(new)[0].content and "attacker" in ephemeral(new)[0].content
    new = await fake.invoke(fake.select(turn, control, [options[0]["value"]], user=world.carol))
    assert "not playing" in ephemeral(new)[0].content
    assert (await fake.bot.store.get_game(row.id)).version == row.version


# --- characters, challenges, open tables ---------------------------------------------------------

async def test_characters_command_shows_the_roster(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} characters", user=world.carol,
                                       channel=world.games))
    [answer] = [r for r in new if r.files]
    assert answer.ephemeral
    body = json.dumps(answer.json)
    for name in ("Malice", "Mayhem", "The Accountant", "Knuckles", "Lucky Lou", "Madame Vex"):
        assert name in body
    assert "Cheap Shot" in body and "d12 B" in body
    msg = fake.messages_in(world.games, include_ephemeral=True)[-1]
    assert_png(msg.files[0])
    assert "Malice: STR d8 red" in msg.files[0].description
    await fake.invoke(fake.slash(fake.bot, f"{KIND} characters", user=world.carol,
                                 channel=world.games, public=True))
    assert not fake.messages_in(world.games)[-1].ephemeral


async def test_challenge_without_opponent_character_and_a_pick(fake, world):
    msg = await challenge(fake, world, character="Knuckles")
    note = fake.messages_in(world.games)[-1]
    assert "/deathbydice pick" in note.content and "**Malice**" in note.content
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} pick", user=world.bob,
                                       channel=world.games, character="Knuckles"))
    assert "will play **Knuckles**" in new[-1].content and not new[-1].ephemeral
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    row = (await fake.bot.store.active_games())[-1]
    assert row.options["characters"] == "Knuckles,Knuckles"  # a mirror match is allowed


async def test_challenge_defaults_the_opponent_to_the_first_free_character(fake, world):
    row = await start(fake, world, character="Malice")
    assert row.options["characters"] == "Malice,Mayhem"


async def test_open_table_three_players_picks_and_defaults(fake, world):
    await fake.invoke(fake.slash(fake.bot, f"{KIND} open", user=world.alice,
                                 channel=world.games, character="Madame Vex", best_of=1))
    table = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    note = fake.messages_in(world.games)[-1]
    assert "first free one in roster order" in note.content
    ids = challenge_buttons(table)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} pick", user=world.bob,
                                       channel=world.games, character="Lucky Lou"))
    assert "not at an open Death by Dice table" in ephemeral(new)[0].content
    await fake.invoke(fake.click(table, ids["join"], user=world.bob))
    await fake.invoke(fake.click(table, ids["join"], user=world.carol))
    await fake.invoke(fake.slash(fake.bot, f"{KIND} pick", user=world.bob,
                                 channel=world.games, character="Lucky Lou"))
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} pick", user=world.alice,
                                       channel=world.games, character="Lucky Lou"))
    assert "cancel it and open a new one" in ephemeral(new)[0].content
    await fake.invoke(fake.click(table, ids["start"], user=world.alice))
    row = (await fake.bot.store.active_games())[-1]
    assert row.options["characters"] == "Madame Vex,Lucky Lou,Malice"
    text = thread_text(fake, row)
    assert "Malice (Carol)" in text and world.carol.mention in text
    await set_up_everyone(fake, world, row)
    kinds = await play_out(fake, world, row, random.Random(1))
    assert (await fake.bot.store.get_game(row.id)).status == "finished" and kinds


async def test_open_boss_table_for_two(fake, world):
    await fake.invoke(fake.slash(fake.bot, f"{KIND} open", user=world.alice,
                                 channel=world.games, character="Mayhem", mode="boss",
                                 best_of=1))
    table = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    assert "Boss" in fake.messages_in(world.games)[-1].content
    ids = challenge_buttons(table)
    await fake.invoke(fake.click(table, ids["join"], user=world.bob))
    await fake.invoke(fake.slash(fake.bot, f"{KIND} pick", user=world.bob,
                                 channel=world.games, character="Knuckles"))
    await fake.invoke(fake.click(table, ids["start"], user=world.alice))
    row = (await fake.bot.store.active_games())[-1]
    assert row.options["characters"] == "Mayhem,Knuckles,Malice"
    assert row.options["mode"] == "boss"
    # Bob runs both Minions: his panel sets them up one after the other
    await confirm_setup(fake, world.bob, row)
    _, game = await game_of(fake, row)
    assert 1 in game.actors()
    assert " rolled — " in panel_of(fake, world.bob).content
    await set_up_everyone(fake, world, row)
    _, game = await game_of(fake, row)
    assert game.view(None)["stage"] != "setup"


async def test_challenge_errors(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} challenge", user=world.alice,
                                       channel=world.games, opponent=world.alice,
                                       character="Malice"))
    assert "yourself" in ephemeral(new)[0].content
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} challenge", user=world.alice,
                                       channel=world.games, opponent=world.robot,
                                       character="Malice"))
    assert "Bots" in ephemeral(new)[0].content
    assert not any(m.custom_ids for m in fake.messages_in(world.games))


# --- scripted dice: the two-step attack menu, a special's button, the discard select ----------

class ScriptedDice:
    """Stands in for the table's RNG: answers each die with the next scripted value."""

    def __init__(self, values):
        self.values = list(values)

    def choice(self, options):
        value = str(self.values.pop(0))
        assert value in options, (value, options)
        return value


async def test_attack_menu_cheap_shot_button_and_discard_select(fake, world, monkeypatch):
    dice = ScriptedDice([1, 1, 1, 1, 1,          # Malice's set-up: total 5, she goes first
                         12, 8, 8, 8, 10,        # Mayhem's set-up
                         1, 2])                  # Malice's Complex Attack: STR 1 + FOR 2
    monkeypatch.setattr("bot.tables.chance_rng", lambda *a, **k: dice)
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await set_up_everyone(fake, world, row)
    row, game = await game_of(fake, row)
    assert game.actors() == [0] and len(game.legal(0)) > 25
    turn = fake.messages[row.extra["turn_message"]]
    # Malice's special is a (red) button; her attacks fill the lists, each in words
    assert f"g:{row.id}:{row.version}:mv:special cheap-shot" in turn.custom_ids
    assert "Cheap Shot: this turn's Boosted Attack adds +4" in turn.text()
    assert "Cheap Shot is ready" in turn.content
    lists = {c["custom_id"]: {o["value"]: o for o in c["options"]}
             for c in turn.components() if tagged(c.get("custom_id", ""), "ms")}
    move = "attack complex STR+FOR -> @2:STR"
    [select] = [cid for cid, options in lists.items() if move in options]
    assert set().union(*lists.values()) == set(game.legal(0)) - {"special cheap-shot"}
    option = lists[select][move]
    assert option["label"] == "Complex · STR+FOR (d8+d10) → STR 12 of Mayhem (Bob)"
    assert not option["description"].endswith("…") or option["description"][-2] != " "
    await fake.invoke(fake.select(turn, select, [move], user=world.alice))
    # Mayhem may defend STR (AGI and LUCK are next to it): he declines with his button
    row, game = await game_of(fake, row)
    turn = fake.messages[row.extra["turn_message"]]
    await fake.invoke(fake.click(turn, f"g:{row.id}:{row.version}:mv:defend none",
                                 user=world.bob))
    # 1 + 2 = 3 against 12: lost without doubles, so Malice chooses the die she gives up
    row, game = await game_of(fake, row)
    assert game.view(None)["stage"] == "discard"
    turn = fake.messages[row.extra["turn_message"]]
    select = next(c for c in turn.custom_ids if tagged(c, "ms"))
    labels = {o["value"]: o["label"] for o in next(
        c for c in turn.components() if c.get("custom_id") == select)["options"]}
    assert labels == {"discard STR": "Discard STR 1", "discard FOR": "Discard FOR 2"}
    new = await fake.invoke(fake.select(turn, select, ["discard FOR"], user=world.bob))
    assert "not you" in ephemeral(new)[0].content
    await fake.invoke(fake.select(turn, select, ["discard FOR"], user=world.alice))
    assert "Malice (Alice) discards FOR" in thread_text(fake, row)
    row, game = await game_of(fake, row)
    assert game.view(None)["stage"] == "declare" and game.actors() == [1]


# --- every move from a component (issue #13), and typed junk (issue #11) -----------------------

async def reachable(fake, message, user) -> set[str]:
    """Every move the components of `message` lead to: buttons, select options, and through
    a narrowing list (which dice?), the moves it answers with."""
    moves: set[str] = set()
    for comp in message.components():
        cid = comp.get("custom_id", "")
        if tagged(cid, "mv"):
            moves.add(cid.split(":", 4)[4])
        elif tagged(cid, "ms", "su"):
            moves |= {o["value"] for o in comp["options"]}
        elif tagged(cid, "nw"):
            for o in comp["options"]:
                await fake.invoke(fake.select(message, cid, [o["value"]], user=user))
                offer = [m for m in fake.messages_in(message.channel_id, include_ephemeral=True)
                         if m.audience == user.id][-1]
                moves |= await reachable(fake, offer, user)
    return moves


@pytest.mark.parametrize("options", [
    {"opponent_character": "Mayhem", "best_of": 1},
    {"character": "Madame Vex", "opponent_character": "Lucky Lou", "best_of": 1},
    {"character": "Mayhem", "opponent_character": "Madame Vex", "best_of": 1},
])
async def test_every_legal_move_is_reachable_from_a_component(fake, world, options):
    """Through a whole combat: at every step, each legal move of whoever acts is on a
    button, a select or the attack-group select of the turn message or their panel — no move
    needs typing."""
    row = await start(fake, world, **options)
    rng = random.Random(5)
    checked, phases = 0, set()
    for _ in range(300):
        row, game = await game_of(fake, row)
        if row.status != "active":
            break
        for seat in [a for a in game.actors() if a != "chance"]:
            user = users(world)[row.players[seat]]
            if game.is_secret(seat):
                message = panel_of(fake, user, row)
            else:
                message = fake.messages[row.extra["turn_message"]]
            missing = set(game.legal(seat)) - await reachable(fake, message, user)
            assert not missing, (game.current_phase(), sorted(missing)[:5])
            checked += 1
            phases.add(game.current_phase())
        await take_turn(fake, world, row, rng)
    assert checked >= 6 and {"setup", "declare"} <= phases, (checked, phases)
    assert (await fake.bot.store.get_game(row.id)).status == "finished"


async def test_typed_superscript_digit_is_a_clean_refusal(fake, world):
    """Issue #11: `/deathbydice move setup STR=² …` answered "Something went wrong"."""
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    thread = fake.channels[row.thread_id]
    for typed in ("setup STR=² AGI=3 FOR=4 SMA=2 CON=9", "setup STR=٣ AGI=3 FOR=4 SMA=2 CON=9",
                  "setup STR=99999999999999 AGI=3 FOR=4 SMA=2 CON=9"):
        new = await fake.invoke(fake.slash(fake.bot, f"{KIND} move", user=world.alice,
                                           channel=thread, move=typed))
        answer = ephemeral(new)[-1]
        assert answer.content.startswith("❌") and "went wrong" not in answer.content
        assert "0-9" in answer.content or "too large" in answer.content
    _, game = await game_of(fake, row)
    assert game.view(None)["stage"] == "setup" and 0 in game.actors()


async def test_a_half_made_setup_choice_survives_the_others_confirmation(fake, world):
    """Issue #12: another player's move never re-draws my panel or clears my choice. Alice
    previews an arrangement; Bob confirms his set-up; Alice's panel is untouched."""
    row = await start(fake, world, character="The Accountant", opponent_character="Mayhem",
                      best_of=1)
    panel = panel_of(fake, world.alice, row)
    select = next(c for c in panel.custom_ids if tagged(c, "su"))
    options = next(c for c in panel.components() if c.get("custom_id") == select)["options"]
    await fake.invoke(fake.select(panel, select, [options[-1]["value"]], user=world.alice))
    chosen = fake.messages[panel.id].content
    assert "press Confirm" in chosen
    edited = fake.messages[panel.id].payload["edited_timestamp"]
    await confirm_setup(fake, world.bob, row)
    _, game = await game_of(fake, row)
    assert game.actors() == [0]                     # Alice is still choosing
    assert fake.messages[panel.id].content == chosen
    assert fake.messages[panel.id].payload["edited_timestamp"] == edited
    assert panel_of(fake, world.alice, row).id == panel.id   # no new DM either


# --- issue #22: after the game, words not notation, small glitches ---------------------------

def cut_at_a_word(description: str, effect: str) -> bool:
    """A list entry's description is the move's whole effect, or its start cut after a whole
    word with an ellipsis — never mid-word."""
    if description == effect:
        return True
    body = description[:-1]
    return (description.endswith("…") and effect.startswith(body)
            and effect[len(body)] in " ,;:—-")


def select_options(message):
    return [o for c in message.components() if c.get("options") for o in c["options"]]


async def test_select_descriptions_are_cut_at_a_word(fake, world):
    """Issue #22.13: "miss it and the roll counts aga" — the set-up list and the attack lists
    cut long effects after a whole word."""
    row = await start(fake, world, character="The Accountant", opponent_character="Mayhem",
                      best_of=1)
    _, game = await game_of(fake, row)
    panel = panel_of(fake, world.alice, row)
    options = select_options(panel)
    assert options and any(o["description"].endswith("…") for o in options)
    for o in options:
        assert cut_at_a_word(o["description"], game.describe(o["value"], 0).effect), o
    await set_up_everyone(fake, world, row)
    row, game = await game_of(fake, row)
    [seat] = game.actors()
    turn = fake.messages[row.extra["turn_message"]]
    narrow = next((c for c in turn.custom_ids if tagged(c, "nw")), None)
    if narrow is not None:                  # a long list: first "which dice?", then the moves
        user = users(world)[row.players[seat]]
        await fake.invoke(fake.select(turn, narrow, ["0"], user=user))
        turn = [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
                if m.audience == user.id][-1]
    options = [o for o in select_options(turn) if o["value"] in game.legal(seat)]
    assert options and any(o["description"].endswith("…") for o in options)
    for o in options:
        assert cut_at_a_word(o["description"], game.describe(o["value"], seat).effect), o


async def test_the_opening_does_not_ask_for_a_character_already_picked(fake, world):
    """Issue #22.13: both characters are chosen before the game starts; the opening says what
    to do first: the secret set-up."""
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    opening = thread_messages(fake, row)[0].content
    assert "Malice (Alice)" in thread_text(fake, row) and "Mayhem (Bob)" in thread_text(fake, row)
    assert "pick your character" not in opening.lower()
    assert "secret" in opening


async def test_no_notation_in_the_thread_or_the_panels(fake, world):
    """Issue #22.10: the set-up is told in words ("STR 5, AGI 2"), never as a move to type
    (`setup STR=5 AGI=2 ...`); notation stays in the Type a move form's own help."""
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await set_up_everyone(fake, world, row)
    texts = [m.content for m in thread_messages(fake, row)]
    texts += [m.content for u in (world.alice, world.bob) for m in fake.dms_to(u)]
    for text in texts:
        assert "setup " not in text and "=" not in text.replace("<t:", ""), text
        assert "@2" not in text and "->" not in text, text
    # the form's own help may show the notation, explained in words
    row, game = await game_of(fake, row)
    turn = fake.messages[row.extra["turn_message"]]
    [seat] = game.actors()
    user = users(world)[row.players[seat]]
    payload = fake.click(turn, f"g:{row.id}:-:tm", user=user)
    new = await fake.invoke(payload)
    [form] = [r for r in new if r.json.get("type") == 9] or [None]
    placeholder = json.dumps(form.json) if form is not None else json.dumps(payload)
    assert "your Strength against their Strength" in placeholder


async def test_board_in_a_finished_games_thread(fake, world):
    """Issue #22.6: `/deathbydice board` in a finished game's thread shows that game's board
    instead of "You have no Death by Dice game running"."""
    row = await start(fake, world, opponent_character="Mayhem", best_of=1)
    await fake.bot.tables.resign(row.id, world.alice.id)
    await fake.settle()
    assert (await fake.bot.store.get_game(row.id)).status == "finished"
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} board", user=world.carol,
                                       channel=fake.channels[row.thread_id]))
    answer = [r for r in new if r.ephemeral][-1]
    assert "no Death by Dice game" not in answer.content
    assert f"game #{row.id}" in json.dumps(answer.json) and "Over:" in json.dumps(answer.json)


async def test_a_players_set_up_does_not_redraw_the_thread_board(fake, world):
    """During the secret set-up the thread's board leaves out who has set up (the card's
    status line says it): one player's confirmation uploads no new board (issue #22)."""
    row = await start(fake, world)
    mark = len(fake.requests)
    await confirm_setup(fake, world.alice, row)
    _, game = await game_of(fake, row)
    assert game.stage == "setup"  # Bob has not set up yet
    in_thread = [r for r in fake.requests[mark:]
                 if r.args.get("channel_id") == row.thread_id
                 or str((r.response or {}).get("channel_id")) == str(row.thread_id)]
    assert in_thread and not any(r.files for r in in_thread)
    await confirm_setup(fake, world.bob, row)
    # The combat's board, with the dice both set up, goes on the set-up's card; the first
    # attacker's card below it shows none of its own (issue #22: the board just above)
    _, game = await game_of(fake, row)
    newest, shown = thread_messages(fake, row)[-1], [m for m in thread_messages(fake, row)
                                                     if m.files][-1]
    assert newest.files == [] and shown.id < newest.id
    assert shown.files[-1].data == render(live_board(game.view(None))).png
