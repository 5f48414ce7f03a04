"""TradeShowdown through Discord (the offline harness): business cards, the challenge and the
open table, the secret dice choice and window in the panels, the public attacks with their
select and "best" buttons, secrets, errors, and the DM-closed fallback."""
from __future__ import annotations

import io
import random
import re
from collections import Counter

from PIL import Image
from table_play import _message

import bot.tables
from bot.engine.tradeshowdown.cards import SAMPLE_CARDS
from bot.engine.tradeshowdown import TradeShowdown
from rendering.tradeshowdown import live_board, public_picture

EPHEMERAL = 64
KIND = "tradeshowdown"
SEAT_CODE_RE = re.compile(r"@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")


# --- helpers ----------------------------------------------------------------------------------

def ephemeral_texts(requests) -> str:
    return "\n".join(r.content for r in requests if r.ephemeral)


def challenge_buttons(msg):
    return {cid.split(":")[-1]: cid for cid in msg.custom_ids}


def parse_id(cid: str) -> tuple[str, str] | None:
    """(tag, arg) of one of the games' components (`g:<game>:<version>:<tag>[:<arg>]`)."""
    parts = str(cid).split(":", 4)
    if len(parts) < 4 or parts[0] != "g":
        return None
    return parts[3], (parts[4] if len(parts) > 4 else "")


def tag_of(cid: str) -> str:
    parsed = parse_id(cid)
    return parsed[0] if parsed else ""


def arg_of(cid: str) -> str:
    parsed = parse_id(cid)
    return parsed[1] if parsed else ""


def ours(cid: str) -> bool:
    return tag_of(cid) in ("mv", "ms", "dice", "tm")


def panel_of(fake, user):
    """The user's newest DM that carries game components (their current panel)."""
    for msg in reversed(fake.dms_to(user)):
        if any(ours(c) and tag_of(c) != "tm" for c in msg.custom_ids):
            return msg
    raise AssertionError(f"no panel in {user.name}'s DMs")


def component(msg, tag: str) -> dict:
    """The first component of `msg` with this tag (`dice`, `ms` ...)."""
    return next(c for c in msg.components() if tag_of(c.get("custom_id", "")) == tag)


def pick_dice(select: dict, wanted: list[str]) -> list[str]:
    """The dice menu's values for `["d8.1", "d10.3"]` (the 1st d8, the 3rd d10 of the supply):
    the menu lists the supply die by die, labelled `d8 (1st of 2)`."""
    by_size: dict[str, list[str]] = {}
    for o in select["options"]:
        by_size.setdefault(o["label"].split()[0], []).append(o["value"])
    out = []
    for w in wanted:
        size, k = w.split(".")
        out.append(by_size[size][int(k) - 1])
    return out


def button(msg, *, move: str | None = None, label: str | None = None) -> str:
    for c in msg.components():
        cid = c.get("custom_id", "")
        if c.get("type") != 2:
            continue
        if move is not None and tag_of(cid) == "mv" and arg_of(cid) == move:
            return cid
        if label is not None and label in (c.get("label") or ""):
            return cid
    raise AssertionError(f"no button {move or label!r} on the message: {msg.custom_ids}")


def labels(msg) -> list[str]:
    return [c.get("label") or "" for c in msg.components() if c.get("type") == 2]


def thread_text(fake, row) -> str:
    parts = []
    for m in fake.messages_in(row.thread_id):
        parts.append(m.text())
        parts += [f.description or "" for f in m.files]
    return "\n".join(parts)


def turn_message(fake, row):
    """The newest thread message with move components (the attacker's turn message)."""
    for msg in reversed(fake.messages_in(row.thread_id)):
        if any(tag_of(c) in ("mv", "ms") for c in msg.custom_ids):
            return msg
    raise AssertionError("no turn message in the thread")


def assert_png(f):
    with Image.open(io.BytesIO(f.data)) as img:
        img.verify()
    assert f.filename.endswith(".png") and f.description


async def game(fake, gid):
    return await fake.bot.tables.load(gid)


async def save(fake, user, slot, name, digits, zip_code):
    await fake.bot.store.save_card(user.id, slot, name, digits, zip_code)


async def challenge(fake, world, **options):
    await fake.invoke(fake.slash(fake.bot, f"{KIND} challenge", user=world.alice,
                                 channel=world.games, opponent=world.bob, **options))
    msg = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    return msg


async def start_two(fake, world, **options):
    msg = await challenge(fake, world, **options)
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    return (await fake.bot.store.active_games())[-1]


class Scripted:
    """Stands in for the table's seeded RNG: die values from a script, then seeded ones."""

    def __init__(self, values, seed=7):
        self.values, self.rng = list(values), random.Random(seed)

    def choice(self, options):
        if self.values:
            v = str(self.values.pop(0))
            assert v in options, (v, options)
            return v
        return self.rng.choice(options)


def script_rolls(monkeypatch, values):
    rng = Scripted(values)
    monkeypatch.setattr(bot.tables, "chance_rng", lambda *a, **k: rng)
    return rng


# --- business cards ---------------------------------------------------------------------------

async def test_card_set_show_and_errors(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} card set", user=world.alice,
                                       channel=world.games, name="  Ace   Accounting ",
                                       digits="(603) 555-0142", zip="03038"))
    [ok] = [r for r in new if r.content]
    assert ok.ephemeral and "Saved in slot 1" in ok.content and "6035550142" in ok.content
    assert ok.files and all(f.description for f in ok.files)
    assert_png(ok.files[0])
    assert await fake.bot.store.cards_of(world.alice.id) == [
        {"slot": 1, "name": "Ace Accounting", "digits": "6035550142", "zip": "03038"}]

    bad = [
        (dict(digits="555-CALL-NOW", zip="03038"), "0-9"),
        (dict(digits="12345", zip="03038"), "6 to 40 digits"),
        (dict(digits="1" * 41, zip="03038"), "this one has 41"),
        (dict(digits="6035550142", zip="0303"), "exactly 5 digits"),
        (dict(digits="6035550142", zip="03038-1234"), "exactly 5 digits"),
        (dict(digits="6035550142", zip="ABCDE"), "exactly 5 digits"),
    ]
    for given, expected in bad:
        new = await fake.invoke(fake.slash(fake.bot, f"{KIND} card set", user=world.alice,
                                           channel=world.games, name="Broken", **given))
        [err] = [r for r in new if r.content]
        assert err.ephemeral and expected in err.content, (given, err.content)
        if "zip" not in expected and "exactly" not in expected:
            assert "dashes" in err.content  # says the separators are stripped
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} card set", user=world.alice,
                                       channel=world.games, name="N" * 41, digits="6035550142",
                                       zip="03038"))
    assert "at most 40" in ephemeral_texts(new)
    # nothing broken was saved
    assert [c["name"] for c in await fake.bot.store.cards_of(world.alice.id)] == [
        "Ace Accounting"]

    # slot 2, and show
    await fake.invoke(fake.slash(fake.bot, f"{KIND} card set", user=world.alice,
                                 channel=world.games, name="Blue Ox", digits="212 555 0187",
                                 zip="10001", slot=2))
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} card show", user=world.bob,
                                       channel=world.games, options={"user": world.alice}))
    [shown] = [r for r in new if r.content]
    assert shown.ephemeral and "Ace Accounting" in shown.content and "Blue Ox" in shown.content
    assert [f.filename for f in shown.files] == ["card-1.png", "card-2.png"]
    assert all(f.description for f in shown.files)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} card show", user=world.carol,
                                       channel=world.games))
    assert "no business card yet" in ephemeral_texts(new)
    assert fake.messages_in(world.games) == []  # all of it was private


async def test_card_random_deals_and_saves(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} card random", user=world.carol,
                                       channel=world.games, slot=2))
    [dealt] = [r for r in new if r.content]
    assert dealt.ephemeral and "slot 2" in dealt.content and dealt.files
    [card] = await fake.bot.store.cards_of(world.carol.id)
    assert card["slot"] == 2 and card["digits"].isdigit() and 6 <= len(card["digits"]) <= 40
    assert len(card["zip"]) == 5 and card["name"] in dealt.content


# --- a game through panels and buttons --------------------------------------------------------

async def act_once(fake, row, game_state, users, seen: set[str]) -> None:
    """One player action, the way a player would make it: a panel component in the DM for the
    secret steps, a component under the thread's turn message for the attacks."""
    g = game_state
    view = g.view(None)
    phase = view["phase"]
    standing = sum(f["standing"] for f in view["fighters"])
    if phase == "choose":
        seat = g.actors()[0]
        user = users[seat]
        panel = panel_of(fake, user)
        own = g.view(seat)["fighters"][seat]
        if standing >= 3 and own["target"] is None:
            target = next(c for c in panel.custom_ids if arg_of(c).startswith("target @"))
            await fake.invoke(fake.click(panel, target, user=user))
            return
        dice = component(panel, "dice")
        if seat % 2 == 0 or "roll-all" in seen:
            values = [o["value"] for o in dice["options"]]
            await fake.invoke(fake.select(panel, dice["custom_id"], values, user=user))
        else:
            seen.add("roll-all")
            await fake.invoke(fake.click(panel, button(panel, label="Roll all"), user=user))
        return
    if phase == "window":
        seat = g.actors()[0]
        user = users[seat]
        panel = panel_of(fake, user)
        for verb in ("intimidate", "combo"):
            if verb in seen:
                continue
            cids = [c for c in panel.custom_ids
                    if tag_of(c) == "mv" and arg_of(c).startswith(f"{verb} ")]
            if cids:
                seen.add(verb)
                await fake.invoke(fake.click(panel, cids[0], user=user))
                return
            sel = [c for c in panel.custom_ids if tag_of(c) == "ms" and arg_of(c) == verb]
            if sel:
                seen.add(verb)
                opts = [o["value"] for o in component(panel, sel[0])["options"]]
                await fake.invoke(fake.select(panel, sel[0], [opts[0]], user=user))
                return
        await fake.invoke(fake.click(panel, button(panel, move="done"), user=user))
        return
    assert phase == "attack", phase
    p = view["pending"]
    user = users[p["seat"]]
    msg = turn_message(fake, row)
    if p["stage"] == "slash":
        if "slash-select" not in seen:
            seen.add("slash-select")
            sel = component(msg, "ms")
            await fake.invoke(fake.select(msg, sel["custom_id"], [sel["options"][0]["value"]],
                                          user=user))
        else:
            seen.add("all-best")
            await fake.invoke(fake.click(msg, button(msg, label="Best first"), user=user))
    elif p["stage"] == "special":
        seen.add("special")
        await fake.invoke(fake.click(msg, button(msg, label="Number Cruncher"), user=user))
    else:
        seen.add("redirect")
        await fake.invoke(fake.click(msg, button(msg, label=" instead"), user=user))


async def play_out(fake, row, users, seen=None, limit=600):
    seen = set() if seen is None else seen
    for _ in range(limit):
        row, g = await game(fake, row.id)
        if row.status != "active":
            return row, g, seen
        await act_once(fake, row, g, users, seen)
    raise AssertionError("the game did not end")


async def test_two_player_fight_to_the_end(fake, world, monkeypatch):
    script_rolls(monkeypatch, [])  # seeded dice: the same fight every run
    await save(fake, world.alice, 1, "Ace Accounting", "6035550142", "03038")
    await save(fake, world.bob, 1, "Old Card", "1111111", "11111")
    msg = await challenge(fake, world, tag_team=False, fair_length=6, round_limit=12)
    assert "fair_length=6" in msg.content and "cards" not in msg.content
    # Bob changes his card between the challenge and the accept: the new one fights.
    await fake.invoke(fake.slash(fake.bot, f"{KIND} card set", user=world.bob,
                                 channel=world.games, name="Blue Ox Plumbing",
                                 digits="212-555-0187", zip="10001"))
    await fake.invoke(fake.click(msg, challenge_buttons(msg)["accept"], user=world.bob))
    [row] = await fake.bot.store.active_games()
    assert row.options["cards"] == [
        [{"name": "Ace Accounting", "digits": "6035550142", "zip": "03038"}],
        [{"name": "Blue Ox Plumbing", "digits": "2125550187", "zip": "10001"}]]
    users = [world.alice, world.bob]
    text = thread_text(fake, row)
    assert "Ace Accounting" in text and "Blue Ox Plumbing" in text and "check your DMs" in text

    # Round 1 by hand: Alice ticks three dice in her panel; nothing of it reaches the thread.
    panel = panel_of(fake, world.alice)
    # The panel is words only (issue #22): the board is the thread's card, its secrets are text.
    assert not panel.files and "— Alice, fighting with" in panel.content
    dice = component(panel, "dice")
    assert len(dice["options"]) == 10 and dice["max_values"] == 10
    await fake.invoke(fake.select(panel, dice["custom_id"], pick_dice(component(panel, "dice"), ["d4.1", "d8.2", "d10.3"]),
                                  user=world.alice))
    row, g = await game(fake, row.id)
    assert g.view(0)["fighters"][0]["dice"] == [4, 8, 10]
    text = thread_text(fake, row)
    assert "Alice has chosen their dice" in text
    assert "d4 d8 d10" not in text and "will roll" not in text and "dice d4" not in text
    assert any("You will roll d4 d8 d10" in m.content for m in fake.dms_to(world.alice))
    assert not any("d4 d8 d10" in m.text() for m in fake.dms_to(world.bob))
    assert not any("Tag in" in x for x in labels(panel_of(fake, world.bob)))  # tag_team off
    # Bob may not roll dice he does not have (typed), and a stranger may not play at all.
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} move", user=world.bob,
                                       channel=fake.channels[row.thread_id],
                                       move="dice d4 d4 d4"))
    assert "do not have that many d4" in ephemeral_texts(new)
    bob_panel = panel_of(fake, world.bob)
    new = await fake.invoke(fake.click(bob_panel, button(bob_panel, label="Roll all"),
                                       user=world.bob))
    text = thread_text(fake, row)
    assert "Dice chosen: Alice rolls d4 d8 d10" in text and "Alice rolls" in text

    row, g, seen = await play_out(fake, row, users)
    assert row.status == "finished"
    assert {"slash-select", "all-best", "roll-all"} <= seen, seen
    last = fake.messages_in(row.thread_id)[-1]
    assert "wins" in last.content or "Draw" in last.content
    for m in fake.messages_in(row.thread_id):
        for f in m.files:
            assert_png(f)
    assert all(not m.ephemeral for m in fake.messages_in(row.thread_id))


async def test_three_player_open_table_with_targets(fake, world, monkeypatch):
    # Text only (as when the renderer fails): the cog still works, faster.
    from conftest import break_renderer
    failures = break_renderer(fake, monkeypatch, KIND, "public_picture", "render_card")
    script_rolls(monkeypatch, [])
    await save(fake, world.alice, 1, "Ace Accounting", "6035550142", "03038")
    await fake.invoke(fake.slash(fake.bot, f"{KIND} card random", user=world.carol,
                                 channel=world.games))
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} open", user=world.alice,
                                       channel=world.games, fair_length=6, round_limit=2))
    assert "Tip" not in ephemeral_texts(new)  # Alice has a card
    msg = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    ids = challenge_buttons(msg)
    assert set(ids) == {"join", "leave", "start", "cancel"}
    await fake.invoke(fake.click(msg, ids["join"], user=world.bob))
    await fake.invoke(fake.click(msg, ids["join"], user=world.carol))
    assert world.carol.mention in fake.messages_in(world.games)[-1].content
    await fake.invoke(fake.click(msg, ids["start"], user=world.alice))
    [row] = await fake.bot.store.active_games()
    assert row.players == [world.alice.id, world.bob.id, world.carol.id]
    [carol_card] = await fake.bot.store.cards_of(world.carol.id)
    plain = {k: carol_card[k] for k in ("name", "digits", "zip")}
    # Tag Team (default): a saved card gets a sample partner that no sample seat uses; Bob has
    # no card, so he fights with the samples of seat 2.
    assert row.options["cards"] == [
        [{"name": "Ace Accounting", "digits": "6035550142", "zip": "03038"}, SAMPLE_CARDS[0]],
        None, [plain, SAMPLE_CARDS[1]]]
    users = [world.alice, world.bob, world.carol]

    # Alice ticks dice before naming a target: told what to do first.
    panel = panel_of(fake, world.alice)
    targets = [arg_of(c) for c in panel.custom_ids if arg_of(c).startswith("target @")]
    assert targets == ["target @2", "target @3"]
    assert "Roll all" not in " ".join(labels(panel))  # not before a target is named
    dice = component(panel, "dice")
    new = await fake.invoke(fake.select(panel, dice["custom_id"], pick_dice(component(panel, "dice"), ["d10.1"]), user=world.alice))
    assert "Pick your target first" in ephemeral_texts(new)
    before = len(fake.messages_in(row.thread_id))
    await fake.invoke(fake.click(panel, button(panel, move="target @3"), user=world.alice))
    panel = panel_of(fake, world.alice)
    assert "Your target: Carol." in panel.content and "Roll all" in " ".join(labels(panel))
    assert len(fake.messages_in(row.thread_id)) == before  # a secret step: nothing posted
    # The tag button is there (Tag Team), and toggles in secret.
    await fake.invoke(fake.click(panel, button(panel, move="tag"), user=world.alice))
    panel = panel_of(fake, world.alice)
    assert "Cancel the tag" in labels(panel)
    await fake.invoke(fake.click(panel, button(panel, label="Roll all"), user=world.alice))
    # Bob types his choice with counts and a member as the target.
    thread = fake.channels[row.thread_id]
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.bob, channel=thread,
                                       d10=2, d4=1, target=world.robot))
    assert "not in this game" in ephemeral_texts(new)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.bob, channel=thread,
                                       d10=2, d4=1, target=world.alice))
    assert "Roll 3 dice: d4 d10 d10 at Alice" in ephemeral_texts(new)
    text = thread_text(fake, row)
    assert "target" not in text.lower() and "tags in" not in text and "d4 d10 d10" not in text
    row, g, seen = await play_out(fake, row, users)
    assert row.status == "finished"
    text = thread_text(fake, row)
    assert "Bob rolls d4 d10 d10 at Alice" in text and "tags in" in text
    assert not any(m.files for m in fake.messages_in(row.thread_id))
    assert failures  # each failed picture was logged


async def test_the_last_choice_turns_its_own_panel_into_the_window(fake, world, monkeypatch):
    """Issue #22: the player whose choice ends the step is looking at the panel they pressed:
    it becomes their window panel in place (one DM request, no new message, nothing to
    retire). The one who waited gets a new message (it tells them), and no panel carries a
    picture (the board is the thread's card)."""
    script_rolls(monkeypatch, [5, 1, 2, 3, 4, 3, 3])
    await save(fake, world.alice, 1, "Zip Fighter", "678901", "12345")
    await save(fake, world.bob, 1, "Triple Threes", "333444", "99999")  # 3 3: intimidation
    row = await start_two(fake, world, tag_team=False, fair_length=6, round_limit=2)
    dm_a, dm_b = (fake.dm_channel(u).id for u in (world.alice, world.bob))
    for user, picks in ((world.alice, ["d8.1", "d10.1", "d10.2", "d10.3", "d10.4"]),
                        (world.bob, ["d4.1", "d4.2"])):
        pressed = panel_of(fake, user)
        mark, before = len(fake.requests), len(fake.dms_to(user))
        await fake.invoke(fake.select(pressed, component(pressed, "dice")["custom_id"],
                                      pick_dice(component(pressed, "dice"), picks), user=user))
        if user == world.alice:
            # The thread's card says she has chosen; its board (the live board) is the same
            # picture, not uploaded again.
            assert "Alice has chosen their dice" in thread_text(fake, row)
            assert not any(r.files for r in fake.requests[mark:])
    row, g = await game(fake, row.id)
    assert g.phase == "window" and set(g.actors()) == {0, 1}
    # Bob's click: his pressed panel is now his window panel, edited once, not sent anew.
    assert len(fake.dms_to(world.bob)) == before and panel_of(fake, world.bob).id == pressed.id
    assert "Intimidate" in " ".join(labels(panel_of(fake, world.bob)))
    # (his click's own answer, UPDATE_MESSAGE, is that edit)
    to_bob = [r for r in fake.requests[mark:] if (_message(r) or {}).get("channel_id") == str(dm_b)
              or r.args.get("channel_id") == dm_b]
    assert len(to_bob) == 1, [(r.method, r.route) for r in to_bob]
    # Alice waited: her window panel is a new message; no DM carries a file.
    assert panel_of(fake, world.alice).id != panel_of(fake, world.bob).id
    assert any(r.method == "POST" and ((r.response or {}).get("channel_id") == str(dm_a))
               for r in fake.requests[mark:])
    assert not any(m.files for u in (world.alice, world.bob) for m in fake.dms_to(u))


async def test_combo_intimidate_slash_errors_and_special(fake, world, monkeypatch):
    await save(fake, world.alice, 1, "Zip Fighter", "678901", "12345")
    await save(fake, world.bob, 1, "Triple Threes", "333444", "99999")
    # Alice rolls d8 d10 d10 d10 d10 -> 5 1 2 3 4 (no set, all in her zip); Bob d4 d4 -> 3 3.
    script_rolls(monkeypatch, [5, 1, 2, 3, 4, 3, 3])
    row = await start_two(fake, world, tag_team=False, fair_length=6, round_limit=2)
    users = [world.alice, world.bob]
    thread = fake.channels[row.thread_id]
    panel = panel_of(fake, world.alice)
    dice = component(panel, "dice")
    await fake.invoke(fake.select(panel, dice["custom_id"], pick_dice(component(panel, "dice"), ["d8.1", "d10.1", "d10.2", "d10.3", "d10.4"]), user=world.alice))
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.bob, channel=thread,
                                       d4=2))
    assert "Roll 2 dice: d4 d4" in ephemeral_texts(new)
    posted = len(fake.messages_in(thread))

    # The window: Alice's panel offers the five combo dice as buttons, Bob's the intimidation.
    a = panel_of(fake, world.alice)
    assert [x for x in labels(a) if x.startswith("Set aside")] == [
        f"Set aside the {v} for a combo (1/5)" for v in (1, 2, 3, 4, 5)]
    assert not any("Intimidate" in x for x in labels(a))
    for v in (1, 2, 3, 4, 5):
        a = panel_of(fake, world.alice)
        await fake.invoke(fake.click(a, button(a, move=f"combo {v}"), user=world.alice))
    a = panel_of(fake, world.alice)
    assert "Combo: 5 of 5 dice" in a.content and not any("Set aside" in x for x in labels(a))
    b = panel_of(fake, world.bob)
    assert labels(b)[0] == "Intimidate: slash your own 3 (+1 slash)"
    assert not any("Set aside" in x for x in labels(b))
    await fake.invoke(fake.click(b, button(b, move="intimidate 3"), user=world.bob))
    assert "Your plan: 3 slashes on digits up to 3" in panel_of(fake, world.bob).content
    # Secret window choices: nothing posted, nothing said in the thread.
    assert len(fake.messages_in(thread)) == posted
    assert "intimidat" not in thread_text(fake, row) and "aside" not in thread_text(fake, row)
    for user in users:
        p = panel_of(fake, user)
        await fake.invoke(fake.click(p, button(p, move="done"), user=user))
    text = thread_text(fake, row)
    assert "intimidates: slashes 3 on Triple Threes" in text and "combo 5/5" in text
    assert "Attack order: Bob (width 3 height 3, depth 2), Alice (combo ready" in text

    # Bob's attack, in the thread: a select of eligible digits and the best buttons.
    msg = turn_message(fake, row)
    sel = component(msg, "ms")
    assert [o["label"] for o in sel["options"]] == ["Slash a 0 on Zip Fighter",
                                                    "Slash a 1 on Zip Fighter"]
    assert "digit 5 of 6" in sel["options"][0]["description"]
    assert "Best first: Slash 1 1 0 on Zip Fighter" in labels(msg)
    best = button(msg, label="Best first")
    new = await fake.invoke(fake.click(msg, best, user=world.carol))
    assert "not playing in this game" in ephemeral_texts(new)
    new = await fake.invoke(fake.click(msg, best, user=world.alice))
    assert "not your move" in ephemeral_texts(new)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} move", user=world.bob, channel=thread,
                                       move="slash 9"))
    assert "up to 3" in ephemeral_texts(new) and "`slash 9` is not one of them" in \
        ephemeral_texts(new)
    board_then, mark = msg.files[-1].data, len(fake.requests)
    await fake.invoke(fake.select(msg, sel["custom_id"], ["slash 0"], user=world.bob))
    msg = turn_message(fake, row)
    sel = component(msg, "ms")
    assert sel["options"][0]["label"] == "Slash a 0 on Zip Fighter (X it out)"
    await fake.invoke(fake.select(msg, sel["custom_id"], ["slash 0"], user=world.bob))
    # Issue #22: the board drawn as the attack began stays while its slashes are placed (the
    # card's lines and the slash list say each); it is drawn again when the attack is done.
    assert not [f for r in fake.requests[mark:] for f in r.files or []]
    assert turn_message(fake, row).files[-1].data == board_then
    assert "1 slash left" in turn_message(fake, row).content
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} move", user=world.bob, channel=thread,
                                       move="slash 0"))
    assert "not X'd" in ephemeral_texts(new)
    msg = turn_message(fake, row)
    await fake.invoke(fake.select(msg, component(msg, "ms")["custom_id"], ["slash 1"],
                                  user=world.bob))
    row, g = await game(fake, row.id)
    assert g.view(None)["fighters"][0]["cards"][0]["slashes"] == [0, 0, 0, 0, 2, 1]
    assert turn_message(fake, row).files[-1].data == public_picture(live_board(g.view(None))).png

    # Alice's special attack: buttons, and the Snapping Pencil as a select of values.
    msg = turn_message(fake, row)
    assert {"Collating Claw: swap dimensions next roll", "Hot Coffee Spout: blind Bob",
            "Hold the combo"} <= set(labels(msg))
    # Number Cruncher says how many of Bob's digits are in Alice's zip 12345 (his 3s and 4s)
    [cruncher] = [x for x in labels(msg) if x.startswith("Number Cruncher")]
    row, g = await game(fake, row.id)
    card = g.view(None)["fighters"][1]["cards"][0]
    hits = sum(1 for d, n in zip(card["digits"], card["slashes"]) if d in (1, 2, 3, 4, 5)
               and n < 2)
    assert cruncher == f"Number Cruncher: {hits} slash{'es' if hits != 1 else ''} on Triple Threes"
    assert "five combo dice" in msg.content
    sel = component(msg, "ms")
    assert len(sel["options"]) == 10
    await fake.invoke(fake.select(msg, sel["custom_id"], ["special snapping-pencil 3"],
                                  user=world.alice))
    assert "fires Snapping Pencil: Bob's 3s never count" in thread_text(fake, row)
    row, g, _ = await play_out(fake, row, users)
    assert row.status == "finished"


async def test_dice_errors_stale_panel_and_typed_moves(fake, world):
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} challenge", user=world.alice,
                                       channel=world.games, opponent=world.bob,
                                       dice="2xd4,8xd12"))
    assert "d12 is not allowed" in ephemeral_texts(new) and not fake.messages_in(world.games)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} challenge", user=world.alice,
                                       channel=world.games, opponent=world.bob))
    assert "no business card saved" in ephemeral_texts(new)  # the tip, for Alice only
    await fake.invoke(fake.click(fake.messages_in(world.games)[-1],
                                 label="Accept", user=world.bob))
    [row] = await fake.bot.store.active_games()
    thread = fake.channels[row.thread_id]
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.alice,
                                       channel=thread))
    assert "Choose 1 to 10 dice" in ephemeral_texts(new)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.alice,
                                       channel=thread, d4=3))
    assert "do not have that many d4" in ephemeral_texts(new) and "2×d4" in ephemeral_texts(new)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.alice,
                                       channel=thread, d10=1, target=world.bob))
    assert "target is always the other one" in ephemeral_texts(new)
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.carol,
                                       channel=thread, d10=1))
    assert "no TradeShowdown game" in ephemeral_texts(new) or "not playing" in \
        ephemeral_texts(new)
    # The typed fallback of the panel (a modal): a die size that does not exist.
    panel = panel_of(fake, world.alice)
    opened = fake.click(panel, f"g:{row.id}:-:tm", user=world.alice)
    await fake.invoke(opened)
    modal = fake.interactions[opened["token"]].modal
    field = next(c["custom_id"] for c in modal["components"][0]["components"])
    new = await fake.invoke(fake.submit_modal(opened, {field: "dice d12 d10"}))
    assert "d4, d6, d8, d10" in ephemeral_texts(new)
    # Autocomplete of the move command offers only this player's legal moves.
    ac = fake.autocomplete(fake.bot, f"{KIND} move", user=world.alice, channel=thread,
                           focused="move", move="d10 d10 d10 d10")
    await fake.invoke(ac)
    choices = fake.autocomplete_choices(ac)
    assert choices and all("d10 d10 d10 d10" in c["value"] for c in choices)
    # A choice, and a second click raced from the same panel: the second is stale.
    raced = fake.click(panel, button(panel, label="Roll all"), user=world.alice)
    await fake.invoke(fake.select(panel, component(panel, "dice")["custom_id"], pick_dice(component(panel, "dice"), ["d6.1"]),
                                  user=world.alice))
    new = await fake.invoke(raced)
    assert "earlier moment" in ephemeral_texts(new)
    row, g = await game(fake, row.id)
    assert g.view(0)["fighters"][0]["dice"] == [6]
    assert "d6" not in thread_text(fake, row).replace("2×d6", "")


async def test_closed_dms_fall_back_to_the_ephemeral_panel(fake, world):
    fake.close_dms(world.bob)
    row = await start_two(fake, world)
    assert fake.dms_to(world.bob) == []
    fallback = [m for m in fake.messages_in(row.thread_id)
                if any(tag_of(c) == "pn" for c in m.custom_ids) and "direct messages" in m.content]
    assert len(fallback) == 1 and world.bob.mention in fallback[0].content
    new = await fake.invoke(fake.click(fallback[0], f"g:{row.id}:-:pn", user=world.carol))
    assert "You are not playing in this game" in ephemeral_texts(new)
    new = await fake.invoke(fake.click(fallback[0], f"g:{row.id}:-:pn", user=world.bob))
    [panel_reply] = [r for r in new if r.ephemeral and r.content]
    assert "— Bob, fighting with" in panel_reply.content and not panel_reply.files
    panel = [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
             if m.ephemeral and "— Bob, fighting with" in m.content][-1]
    dice = component(panel, "dice")
    await fake.invoke(fake.select(panel, dice["custom_id"], pick_dice(component(panel, "dice"), ["d8.1", "d8.2"]), user=world.bob))
    row, g = await game(fake, row.id)
    assert g.view(1)["fighters"][1]["dice"] == [8, 8]
    assert "d8 d8" not in thread_text(fake, row)


async def test_timer_plays_for_the_idle_player_then_rolls(fake, world, monkeypatch):
    script_rolls(monkeypatch, [])
    row = await start_two(fake, world)
    panel = panel_of(fake, world.alice)
    await fake.invoke(fake.select(panel, component(panel, "dice")["custom_id"], pick_dice(component(panel, "dice"), ["d10.1", "d10.2"]), user=world.alice))
    row, _ = await game(fake, row.id)
    assert row.deadline is not None
    await fake.bot.tables.expire(row.id, row.version)
    await fake.settle()
    text = thread_text(fake, row)
    assert "Time ran out" in text
    assert "Dice chosen: Alice rolls d10 d10; Bob rolls d4 d4 d6 d6 d8 d8 d10 d10 d10 d10" \
        in text and "Bob rolls" in text


async def test_picking_the_set_without_multiple_attacks(fake, world, monkeypatch):
    script_rolls(monkeypatch, [2, 2, 3, 3, 1, 1])  # Alice 2 2 3 3, Bob 1 1
    row = await start_two(fake, world, multiple_attacks=False, combos=False, intimidate=False)
    panel = panel_of(fake, world.alice)
    await fake.invoke(fake.select(panel, component(panel, "dice")["custom_id"], pick_dice(component(panel, "dice"), ["d10.1", "d10.2", "d10.3", "d10.4"]), user=world.alice))
    panel = panel_of(fake, world.bob)
    await fake.invoke(fake.select(panel, component(panel, "dice")["custom_id"], pick_dice(component(panel, "dice"), ["d4.1", "d4.2"]), user=world.bob))
    a = panel_of(fake, world.alice)
    assert "Your plan: 2 slashes on digits up to 3" in a.content  # ties go to the highest
    assert labels(a)[0] == "Attack with the pair of 2s"
    assert not any(x.startswith(("Intimidate", "Combo")) for x in labels(a))
    await fake.invoke(fake.click(a, button(a, move="set 2"), user=world.alice))
    assert "Your plan: 2 slashes on digits up to 2" in panel_of(fake, world.alice).content
    a = panel_of(fake, world.alice)
    await fake.invoke(fake.click(a, button(a, move="done"), user=world.alice))
    assert "Alice attacks with width 2, height 2" in thread_text(fake, row)


# --- a component for every move (issue #13) -------------------------------------------------------

def offered(msg) -> tuple[set[str], list[dict]]:
    """The moves a message's components make in one step (buttons and menu entries), and its
    dice menus."""
    moves, dice = set(), []
    for c in msg.components():
        cid = c.get("custom_id", "")
        if tag_of(cid) == "mv":
            moves.add(arg_of(cid))
        elif tag_of(cid) == "ms":
            moves |= {o["value"] for o in c.get("options", [])}
        elif tag_of(cid) == "dice":
            dice.append(c)
    return moves, dice


def reachable(move: str, g, seat: int, moves: set[str], dice: list[dict]) -> bool:
    if move in moves:
        return True
    parsed = TradeShowdown  # the engine's own reading of the move, never the test's guess
    from bot.engine.tradeshowdown import notation
    verb, *rest = notation.parse(move, g.players)
    if verb == "dice" and dice:
        sizes, target = rest
        menu = Counter(o["label"].split()[0] for o in dice[0]["options"])
        fits = not Counter(f"d{s}" for s in sizes) - menu
        me = g.view(seat)["fighters"][seat]
        aimed = target is None or me["target"] == target or \
            parsed.target_move(target) in moves
        return fits and aimed and (target is not None or not g.need_target()
                                   or me["target"] is not None)
    if verb == "slash" and len(rest[0]) == 1 and rest[0][0][1] is None:
        # `slash 6` on a card with several 6s: the menu names each 6; the least slashed one
        # (what `slash 6` means) is among them.
        i = g.slash_position(seat, rest[0][0][0])
        return any(g.slash_position(seat, *notation.parse(m, g.players)[1][0]) == i
                   for m in moves if m.startswith("slash ") and len(m.split()) == 2)
    return False


async def test_every_legal_move_is_reachable_from_a_component(fake, world, monkeypatch):
    from conftest import break_renderer
    break_renderer(fake, monkeypatch, KIND, "public_picture", "render_card")
    script_rolls(monkeypatch, [])
    await fake.invoke(fake.slash(fake.bot, f"{KIND} open", user=world.alice,
                                 channel=world.games, round_limit=3))
    msg = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    ids = challenge_buttons(msg)
    await fake.invoke(fake.click(msg, ids["join"], user=world.bob))
    await fake.invoke(fake.click(msg, ids["join"], user=world.carol))
    await fake.invoke(fake.click(msg, ids["start"], user=world.alice))
    [row] = await fake.bot.store.active_games()
    users = [world.alice, world.bob, world.carol]
    seen: set[str] = set()
    checked = Counter()
    for _ in range(400):
        row, g = await game(fake, row.id)
        if row.status != "active":
            break
        for seat in [a for a in g.actors() if a != "chance"]:
            msg = panel_of(fake, users[seat]) if g.is_secret(seat) else turn_message(fake, row)
            moves, dice = offered(msg)
            for move in g.legal(seat):
                assert reachable(move, g, seat, moves, dice), (g.phase, move, sorted(moves))
                checked[g.phase] += 1
        await act_once(fake, row, g, users, seen)
    assert row.status == "finished"
    assert checked["choose"] and checked["window"] and checked["attack"], checked


async def test_another_players_choice_never_touches_my_panel(fake, world, monkeypatch):
    """Issue #12 item 4: Bob choosing his dice (and target) neither re-sends nor edits Alice's
    panel, so a choice she is making there is never cleared; her own step does update it."""
    script_rolls(monkeypatch, [])
    await fake.invoke(fake.slash(fake.bot, f"{KIND} open", user=world.alice,
                                 channel=world.games, round_limit=3))
    msg = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    ids = challenge_buttons(msg)
    await fake.invoke(fake.click(msg, ids["join"], user=world.bob))
    await fake.invoke(fake.click(msg, ids["join"], user=world.carol))
    await fake.invoke(fake.click(msg, ids["start"], user=world.alice))
    [row] = await fake.bot.store.active_games()
    panel = panel_of(fake, world.alice)
    dms = len(fake.dms_to(world.alice))

    def touches(msg_id):
        return [r for r in fake.requests if r.method == "PATCH" and r.args.get("message_id") == msg_id]
    before = len(touches(panel.id))
    bob = panel_of(fake, world.bob)
    await fake.invoke(fake.click(bob, button(bob, move="target @1"), user=world.bob))
    bob = panel_of(fake, world.bob)
    await fake.invoke(fake.click(bob, button(bob, label="Roll all"), user=world.bob))
    row, g = await game(fake, row.id)
    assert g.view(1)["fighters"][1]["dice"] is not None          # Bob has chosen
    assert len(fake.dms_to(world.alice)) == dms and len(touches(panel.id)) == before
    await fake.invoke(fake.click(panel, button(panel, move="target @3"), user=world.alice))
    assert "Your target: Carol." in panel_of(fake, world.alice).content


# --- issue #22: what a full play-through found ------------------------------------------------

def ephemeral_panels(fake, row, user):
    """The user's ephemeral panels in the game's thread, newest last."""
    return [m for m in fake.messages_in(row.thread_id, include_ephemeral=True)
            if m.ephemeral and f"— {user.name.title()}, fighting with" in m.content]


async def open_panel(fake, row, user):
    """Bob's way with closed DMs: the thread's 🔒 Open my secret panel button (on the newest
    message that has it), answered with an ephemeral panel."""
    msg = next(m for m in reversed(fake.messages_in(row.thread_id))
               if f"g:{row.id}:-:pn" in m.custom_ids)
    new = await fake.invoke(fake.click(msg, f"g:{row.id}:-:pn", user=user))
    assert "went wrong" not in ephemeral_texts(new), ephemeral_texts(new)
    return ephemeral_panels(fake, row, user)[-1]


def rows_of(msg) -> list[list[dict]]:
    return [c["components"] for c in msg.components() if c.get("type") == 1]


async def test_the_panel_opened_mid_attack_holds_many_slash_choices(fake, world, monkeypatch):
    """Issue #22 item 1: the attacker (DMs closed) opens their panel while slashing, with more
    than 4 digits to choose from, by `/tradeshowdown panel` and by the 🔒 button: the panel
    comes (no "Something went wrong"), its list and the Type a move button in rows of their
    own, and a pick from it slashes."""
    script_rolls(monkeypatch, [9, 9, 1, 2])  # Alice d10 d10 -> 9 9 (a pair of 9s); Bob 1 2
    fake.close_dms(world.alice)
    row = await start_two(fake, world, tag_team=False, combos=False, intimidate=False)
    thread = fake.channels[row.thread_id]
    await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.alice, channel=thread,
                                 d10=2))
    await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.bob, channel=thread, d4=2))
    row, g = await game(fake, row.id)
    assert g.view(None)["pending"]["stage"] == "slash" and len(g.legal(0)) > 4
    new = await fake.invoke(fake.slash(fake.bot, f"{KIND} panel", user=world.alice,
                                       channel=thread))
    assert "went wrong" not in ephemeral_texts(new), ephemeral_texts(new)
    by_command = ephemeral_panels(fake, row, world.alice)[-1]
    by_button = await open_panel(fake, row, world.alice)
    for panel in (by_command, by_button):
        rows = rows_of(panel)
        [select_row] = [r for r in rows if r[0]["type"] == 3]
        assert len(select_row) == 1 and len(select_row[0]["options"]) > 4
        assert any(c.get("label") == "Type a move" for r in rows for c in r if r != select_row)
        assert all(len(r) <= 5 for r in rows) and len(rows) <= 5
        assert "Alice slashes Bob's" not in panel.content  # the panel says what to do, to Alice
        assert "Pick a digit to slash" in panel.content
    sel = component(by_button, "ms")
    await fake.invoke(fake.select(by_button, sel["custom_id"], [sel["options"][0]["value"]],
                                  user=world.alice))
    row, g = await game(fake, row.id)
    assert g.view(None)["fighters"][1]["slashes_taken"] == 1


async def test_number_cruncher_counts_its_slashes_in_words(fake, world, monkeypatch):
    """Issue #22 item 13: "2 slash(es)" reads as "2 slashes" (and "1 slash")."""
    await save(fake, world.alice, 1, "Zip Fighter", "678901", "12345")
    await save(fake, world.bob, 1, "Triple Threes", "333444", "99999")
    script_rolls(monkeypatch, [5, 1, 2, 3, 4, 3, 3])
    row = await start_two(fake, world, tag_team=False, fair_length=6, round_limit=2)
    thread = fake.channels[row.thread_id]
    await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.alice, channel=thread,
                                 d8=1, d10=4))
    await fake.invoke(fake.slash(fake.bot, f"{KIND} dice", user=world.bob, channel=thread, d4=2))
    for v in (1, 2, 3, 4, 5):
        a = panel_of(fake, world.alice)
        await fake.invoke(fake.click(a, button(a, move=f"combo {v}"), user=world.alice))
    for user in (world.alice, world.bob):
        p = panel_of(fake, user)
        await fake.invoke(fake.click(p, button(p, move="done"), user=user))
    for _ in range(3):  # Bob's pair of 3s strikes first
        msg = turn_message(fake, row)
        if any(x.startswith("Number Cruncher") for x in labels(msg)):
            break
        await fake.invoke(fake.click(msg, button(msg, label="Best first"), user=world.bob))
    await fake.invoke(fake.click(msg, button(msg, label="Number Cruncher"), user=world.alice))
    text = thread_text(fake, row)
    assert "fires Number Cruncher (zip 12345): 6 slashes on Triple Threes" in text
    assert "(es)" not in text and "(s)" not in text


async def test_a_four_player_fight_by_clicks_alone(fake, world, monkeypatch):
    """Issue #22: a 4-player table, one of them with closed DMs, played to its end through
    components only (panels in DMs or the 🔒 ephemeral panel, the turn message's lists and
    buttons); every legal move of the one who must act is on what they look at."""
    from conftest import break_renderer
    break_renderer(fake, monkeypatch, KIND, "public_picture", "render_card")
    script_rolls(monkeypatch, [])
    dave = world.guild.add_member(fake.add_user("dave"))
    fake.close_dms(dave)
    await fake.invoke(fake.slash(fake.bot, f"{KIND} open", user=world.alice,
                                 channel=world.games, round_limit=3))
    msg = [m for m in fake.messages_in(world.games) if m.custom_ids][-1]
    ids = challenge_buttons(msg)
    for user in (world.bob, world.carol, dave):
        await fake.invoke(fake.click(msg, ids["join"], user=user))
    await fake.invoke(fake.click(msg, ids["start"], user=world.alice))
    [row] = await fake.bot.store.active_games()
    users = [world.alice, world.bob, world.carol, dave]
    assert row.players == [u.id for u in users]
    seen: set[str] = set()
    for _ in range(600):
        row, g = await game(fake, row.id)
        if row.status != "active":
            break
        seat = next(a for a in g.actors() if a != "chance")
        if g.is_secret(seat):
            user = users[seat]
            msg = (await open_panel(fake, row, user)) if user is dave else panel_of(fake, user)
            moves, dice = offered(msg)
            for move in g.legal(seat):
                assert reachable(move, g, seat, moves, dice), (g.phase, move)
            if user is dave:
                await act_in_panel(fake, g, seat, user, msg)
                continue
        await act_once(fake, row, g, users, seen)
    assert row.status == "finished"
    text = thread_text(fake, row)
    assert "Dave" in text and not SEAT_CODE_RE.search(text.replace("`", ""))
    # Issue #22 item 10: words, not notation, in what the players read.
    read = [m.text() for m in fake.messages_in(row.thread_id, include_ephemeral=True)]
    read += [m.text() for u in users for m in fake.dms_to(u)]
    inline = [m for t in read for m in re.findall(r"`[^`\n]+`", re.sub(r"```.*?```", "", t,
                                                                    flags=re.S))]
    assert not [m for m in inline if not m.startswith("`/")], inline[:5]


async def act_in_panel(fake, g, seat, user, panel):
    """One secret step in an ephemeral panel: a target, then all the dice; in the window, done."""
    if g.phase == "choose":
        own = g.view(seat)["fighters"][seat]
        if g.need_target() and own["target"] is None:
            target = next(c for c in panel.custom_ids if arg_of(c).startswith("target @"))
            await fake.invoke(fake.click(panel, target, user=user))
            return
        dice = component(panel, "dice")
        await fake.invoke(fake.select(panel, dice["custom_id"],
                                      [o["value"] for o in dice["options"]], user=user))
        return
    await fake.invoke(fake.click(panel, button(panel, move="done"), user=user))
