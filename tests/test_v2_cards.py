"""Issue #23 item 2: one Components V2 card per turn, private panels the same way, and an
offline fake that refuses what Discord refuses of V2 messages; every payload of a whole game
of each of the five kinds conforms to Discord's OpenAPI spec (tests/discord_spec.py)."""
from __future__ import annotations

import discord
import pytest
from discord.http import Route

from bot.engine.core import CHANCE
from discord_spec import SpecCheck
from fakediscord import COMPONENTS_V2
from rendering.colours import accent
from table_play import SHORT, play_table, start_table


def container(msg) -> dict:
    """The card's one top-level component: its Container."""
    [top] = msg.payload["components"]
    assert top["type"] == 17, top
    return top


def kinds(msg) -> list[int]:
    return [c["type"] for c in container(msg)["components"]]


def gallery_shows_its_picture(msg) -> None:
    """The card's MediaGallery names one of its own attachments, with that picture's alt."""
    [gallery] = [c for c in container(msg)["components"] if c["type"] == 12]
    [item] = gallery["items"]
    name = item["media"]["url"].removeprefix("attachment://")
    [att] = [a for a in msg.payload["attachments"] if a["filename"] == name]
    assert item["description"] and item["description"] == att["description"]


def cards_in(fake, thread_id: int) -> list:
    return [m for m in fake.messages_in(thread_id) if m.v2 and m.payload["components"]]


async def test_the_turn_card_is_one_v2_message_per_turn(fake, world):
    """Each turn is one V2 card (flag, Container with the colour of who must act, text, the
    board in a gallery with its alt text, action rows); the turns before keep their text and
    picture and have no buttons left."""
    await play_table(fake, world, "slideslam", seed=3, max_moves=40, options=SHORT["slideslam"])
    row = (await fake.bot.store.active_games())[-1]
    _, game = await fake.bot.tables.load(row.id)
    cards = cards_in(fake, row.thread_id)
    assert len(cards) >= 3, [m.content[:60] for m in fake.messages_in(row.thread_id)]
    live = [m for m in cards if m.custom_ids]
    assert [m.id for m in live] == [row.extra["turn_message"]]
    card = live[0]
    assert card.flags & COMPONENTS_V2 and card.payload["content"] == "" and not card.embeds
    assert kinds(card)[0] == 10 and kinds(card)[-1] == 1
    # the board: on this card, or (a turn that has not changed it yet) on the card above
    gallery_shows_its_picture(card if 12 in kinds(card) else [m for m in cards
                                                              if 12 in kinds(m)][-1])
    assert card.content.strip() and "\n" in card.content  # its story and its status line
    acting = [a for a in game.actors() if a != CHANCE]
    if len(acting) == 1:
        assert container(card)["accent_color"] == accent(acting[0])
    for old in cards[:-1]:
        assert not old.custom_ids and 1 not in kinds(old), old.payload["components"]
        assert 10 in kinds(old) and old.content.strip()
        if any(c["type"] == 12 for c in container(old)["components"]):
            gallery_shows_its_picture(old)
    # the cards were edited in place within a turn, and no V2 card was ever sent with content
    sent = [r for r in fake.requests if r.v2]
    assert sent and not [r for r in sent if r.body.get("content")]


async def test_a_private_panel_is_a_v2_card_in_its_seats_colour(fake, world):
    """Slide and Slam's placement: each seat's DM panel is a V2 card of its own colour."""
    row, users = await start_table(fake, world, "slideslam", 2, SHORT["slideslam"])
    for seat, user in enumerate(users):
        panel = fake.dms_to(user)[-1]
        assert panel.v2 and panel.payload["content"] == ""
        assert container(panel)["accent_color"] == accent(seat)
        assert kinds(panel)[0] == 10 and kinds(panel)[-1] == 1 and panel.custom_ids
        assert f"game #{row.id}" in panel.content


async def _post(fake, channel, body: dict):
    return await fake.bot.http.request(
        Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id), json=body)


def v2_body(n_buttons: int = 1, **extra) -> dict:
    rows = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": f"b{r}.{i}", "custom_id": f"b{r}.{i}"}
        for i in range(min(5, n_buttons - 5 * r))]} for r in range(-(-n_buttons // 5))]
    return {"flags": COMPONENTS_V2, "components": [{"type": 17, "components": [
        {"type": 10, "content": "hello"}, *rows]}], **extra}


async def test_the_fake_refuses_what_discord_refuses_of_v2(fake, world):
    assert (await _post(fake, world.games, v2_body(3)))["flags"] & COMPONENTS_V2
    refused = {
        "content beside V2": v2_body(content="hi"),
        "embeds beside V2": v2_body(embeds=[{"title": "x"}]),
        # 1 container + 1 text + 8 rows + 38 buttons = 48 components
        "more than 40 components": v2_body(38),
        "a row of 6 buttons": {"flags": COMPONENTS_V2, "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"} for i in range(6)]}]},
        "over 4000 characters of text": {"flags": COMPONENTS_V2, "components": [
            {"type": 10, "content": "x" * 2500}, {"type": 10, "content": "y" * 2500}]},
        "an empty gallery": {"flags": COMPONENTS_V2, "components": [{"type": 12, "items": []}]},
        "a picture it does not have": {"flags": COMPONENTS_V2, "components": [
            {"type": 12, "items": [{"media": {"url": "attachment://nope.png"}}]}]},
        "no components": {"flags": COMPONENTS_V2, "components": []},
        "a text display without V2": {"content": "hi", "components": [
            {"type": 10, "content": "hello"}]},
    }
    for why, body in refused.items():
        with pytest.raises(discord.HTTPException) as e:
            await _post(fake, world.games, body)
        assert e.value.code in (50035, 50006), why
    # an edit can't take the flag away: content on a V2 message is still refused
    sent = await _post(fake, world.games, v2_body(1))
    with pytest.raises(discord.HTTPException) as e:
        await fake.bot.http.request(Route(
            "PATCH", "/channels/{channel_id}/messages/{message_id}",
            channel_id=world.games.id, message_id=int(sent["id"])),
            json={"content": "plain again", "components": [], "flags": 0})
    assert e.value.code in (50035, 50006)
    assert fake.messages[int(sent["id"])].v2


def test_the_spec_check_catches_a_bad_card():
    """The OpenAPI check itself: a good V2 body passes, a broken one is named."""
    check = SpecCheck()

    class Req:
        method, route, json = "POST", "/channels/{channel_id}/messages", v2_body(3)
    assert check(Req) == []
    Req.json = v2_body(3)
    Req.json["components"][0]["components"].append({"type": 99})
    Req.json["components"][0]["accent_color"] = 1 << 25
    found = check(Req)
    assert any("accent_color" in f for f in found) and any("99" in f for f in found), found


@pytest.mark.parametrize("kind", ["slideslam", "tradeshowdown", "deathbydice", "diemen",
                                  "kaploom"])
async def test_a_whole_game_conforms_to_discords_openapi_spec(fake, world, kind):
    """Every request body of a whole game played by clicks (message creates and edits,
    interaction callbacks, follow-ups, webhook edits) validates against the spec."""
    fake.spec = check = SpecCheck()
    count = await play_table(fake, world, kind, seed=5, options=SHORT.get(kind))
    assert count.finished, f"{kind}: the game did not end in {count.moves} moves"
    assert check.checked > count.moves
    assert fake.spec_violations == [], "\n".join(fake.spec_violations[:20])


def test_a_turn_card_holds_twice_a_plain_message_before_the_story_is_cut():
    """A V2 card's text may be 4,000 characters: a long reveal up to that is one card, not a
    plain message and a card (a thread post fewer per long turn); beyond it, the start goes
    first in plain messages of at most 2,000."""
    from bot.panel import V2_TEXT_LIMIT, split_card
    story = "\n".join(f"line {i}: " + "x" * 80 for i in range(40))   # ~3,500 characters
    assert split_card(story) == [story]
    longer = "\n".join([story] * 3)
    *before, card = split_card(longer)
    assert before and all(len(b) <= 2000 for b in before)
    assert len(card) <= V2_TEXT_LIMIT - 100 and "\n".join(before + [card]) == longer
