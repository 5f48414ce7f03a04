"""Issue #24, install modes: every command says which installs (guild, user) and contexts
(server, bot DM, private channels) it works in; `python -m bot commands` prints and checks it."""
from __future__ import annotations

import json

import discord
import pytest

from bot.__main__ import _tree_and_places
from bot.installs import NOT_HERE
from bot.validate import validate, validate_places
from test_cli_config import run_bot

EVERYWHERE = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
GUILD_ONLY = {"integration_types": [0], "contexts": [0]}
PLAYER_COMMANDS = [
    "/games list", "/games resign", "/games abort", "/games rules", "/games history",
    "/games export", "/games stats", "/games leaderboard", "/games profile", "/games mine",
    "/games notify", "/games replay", "/help", "/dice-is-not-bend"] + [
    f"/{kind} {sub}" for kind in ("slideslam", "tradeshowdown", "deathbydice", "diemen",
                                  "kaploom")
    for sub in ("challenge", "practice", "board", "panel", "help")]


@pytest.fixture(scope="module")
def places():
    import asyncio
    return asyncio.run(_tree_and_places())


def test_every_top_level_command_says_where_it_works(places):
    tree, _ = places
    assert validate(tree) == []
    for cmd in tree:
        assert {k: cmd[k] for k in EVERYWHERE} == EVERYWHERE, cmd["name"]


def test_player_commands_everywhere_admin_commands_guild_install_only(places):
    _, listed = places
    by_name = {e["command"]: e for e in listed}
    assert validate_places(listed) == []
    for name in PLAYER_COMMANDS:
        entry = by_name[name]
        assert {k: entry[k] for k in EVERYWHERE} == EVERYWHERE, name
        assert not entry["guild_install_only"], name
    rating = by_name["/games rating"]
    assert {k: rating[k] for k in GUILD_ONLY} == GUILD_ONLY
    assert rating["guild_install_only"] and rating["checked"]
    # Discord keeps places per top-level command: /games is offered everywhere, so the
    # referee itself refuses /games rating outside a server that added it.
    assert rating["synced"] == EVERYWHERE
    assert [e["command"] for e in listed if e["guild_install_only"]] == ["/games rating"]


def test_the_cli_prints_and_checks_installs_and_contexts():
    result = run_bot("commands")
    assert result.returncode == 0, result.stderr
    tree = json.loads(result.stdout)
    assert all(c["integration_types"] and c["contexts"] for c in tree)
    err = result.stderr
    assert "where: /games: guild install + user install; server, bot DM, DMs and group DMs" in err
    assert "where: /games rating: guild install; server (guild-install only, checked" in err
    assert "installs and contexts declared for all" in err and "1 guild-install only" in err


def test_the_validator_names_each_place_violation():
    base = {"description": "d", "type": 1, "options": []}
    bad = [
        {"name": "nowhere", **base},
        {"name": "odd", **base, "integration_types": [0, 2], "contexts": [0, 3]},
        {"name": "twice", **base, "integration_types": [0, 0], "contexts": [1]},
        {"name": "admin", **base, "integration_types": [0, 1], "contexts": [0],
         "default_member_permissions": "32"},
        {"name": "fine", **base, **EVERYWHERE},
        {"name": "mod", **base, **GUILD_ONLY, "default_member_permissions": "32"},
    ]
    problems = "\n".join(validate(bad))
    for expected in ("/nowhere: no integration_types", "/nowhere: no contexts",
                     "/odd: integration_types [0, 2]", "/odd: contexts [0, 3]",
                     "/twice: integration_types [0, 0]", "/admin: needs member permissions"):
        assert expected in problems, expected
    assert "/fine" not in problems and "/mod" not in problems


def test_the_validator_names_subcommand_place_violations():
    def entry(name, own, synced=EVERYWHERE, **kw):
        return {"command": name, **own, "synced": synced, "checked": False,
                "guild_install_only": False, "default_member_permissions": None, **kw}
    bad = [
        entry("/g wide", EVERYWHERE, synced=GUILD_ONLY),
        entry("/g unchecked", GUILD_ONLY),
        entry("/g checked", GUILD_ONLY, checked=True, guild_install_only=True),
        entry("/g perms", EVERYWHERE, default_member_permissions="32"),
        entry("/g marked", {"integration_types": [0], "contexts": [0, 1]}, checked=True,
              guild_install_only=True),
        entry("/g empty", {"integration_types": [], "contexts": [0]}),
    ]
    problems = "\n".join(validate_places(bad))
    for expected in ("/g wide: works in more places", "/g unchecked: narrower",
                     "/g perms: guild-install only", "/g marked: guild-install only",
                     "/g empty: no integration_types"):
        assert expected in problems, expected
    assert "/g checked" not in problems


# ---- the real referee behind the offline fake, used through a user install -------------------

def seen_interactions(fake) -> list:
    seen = []

    async def record(interaction):
        seen.append(interaction)
    fake.bot.add_listener(record, "on_interaction")
    return seen


async def test_help_from_a_user_install_group_dm(fake, world):
    seen = seen_interactions(fake)
    fake.user_install(world.alice)
    gdm = fake.add_group_dm([world.alice, world.bob, world.carol], name="dice night")
    new = await fake.invoke(fake.slash(fake.bot, "help", user=world.alice, channel=gdm))
    [ix] = seen
    assert ix.context.private_channel and not ix.context.guild and ix.guild_id is None
    assert ix.is_user_integration() and not ix.is_guild_integration()
    assert isinstance(ix.channel, discord.GroupChannel)
    # The answer goes through the interaction; nothing was asked of the channel over REST.
    assert [r.seam for r in new] == ["webhook"] and new[0].ephemeral and "/slideslam" in new[0].content
    with pytest.raises(discord.Forbidden) as refused:
        await ix.channel.send("the bot is not in this group DM")
    assert refused.value.status == 403 and refused.value.code == 50001
    assert fake.messages_in(gdm) == []


async def test_the_bot_dm_takes_practice_but_no_challenge(fake, world):
    """A DM with the bot has room for one player: a challenge there is refused with what to
    do instead; practice plays there, its table the DM itself (no thread)."""
    fake.user_install(world.alice)
    dm = fake.dm_channel(world.alice)
    new = await fake.invoke(fake.slash(fake.bot, "slideslam challenge", user=world.alice,
                                       channel=dm, opponent=world.bob))
    [answer] = new
    assert answer.ephemeral and "Only you and I are in this DM" in answer.content
    assert await fake.bot.store.open_challenges() == []
    await fake.invoke(fake.slash(fake.bot, "slideslam practice", user=world.alice, channel=dm))
    [row] = await fake.bot.store.active_games()
    assert row.thread_id is None and row.channel_id == dm.id
    assert any(m.custom_ids for m in fake.messages_in(dm))   # the table is in the DM


async def test_rating_switch_needs_a_server_that_added_the_referee(fake, world):
    owner = world.guild.owner
    fake.user_install(owner)
    elsewhere = fake.add_guild("Elsewhere", owner=owner, bot_member=False)
    lounge = elsewhere.add_text_channel("lounge")
    [answer] = await fake.invoke(fake.slash(fake.bot, "games rating", user=owner, channel=lounge,
                                            game="slideslam", rated=False))
    assert answer.ephemeral and NOT_HERE in answer.content
    assert not await fake.bot.store.rating_off(elsewhere.id, "slideslam")
    # Where the server added it, the same owner (with the app on their account too) may.
    [answer] = await fake.invoke(fake.slash(fake.bot, "games rating", user=owner,
                                            channel=world.games, game="slideslam", rated=False))
    assert NOT_HERE not in answer.content
    assert await fake.bot.store.rating_off(world.guild.id, "slideslam")
