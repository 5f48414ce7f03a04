"""Where a game is played (issue #24).

- In a **thread** of its own: the app is installed in the server (the bot is a member), today's
  table.
- In the **DM with the bot**: the bot may post there, but there is no thread to make.
- **Here**, in a channel the bot is not in: a group DM, a DM between two people, or a server that
  installed nothing (the app was installed to a user's account). The bot cannot post or edit
  there with its own REST routes; it speaks only through interactions (the answer to a click or
  command and its follow-ups, for 15 minutes). So the table there never posts on its own: the
  timer is enforced when someone next interacts, secret moves go through ephemeral panels, and a
  message that could not go out is drawn again by the next interaction.
"""
from __future__ import annotations

from typing import Any

import discord

THREAD, BOT_DM, HERE = "thread", "dm", "here"
KEY = "place"   # row.extra: BOT_DM or HERE (a thread game has none)

# Discord's integration types in `authorizing_integration_owners`: the server's install, and a
# user's.
GUILD_INSTALL, USER_INSTALL = 0, 1


def place_of(interaction: discord.Interaction) -> str:
    """Where a game started by this interaction is played."""
    context = interaction.context
    if context.private_channel:
        return HERE
    if context.dm_channel or interaction.guild_id is None:
        return BOT_DM
    owners = getattr(interaction, "_integration_owners", {}) or {}
    # Discord names who authorized the app for every interaction; with the server's install
    # absent, the bot is not a member there (an interaction that names nobody comes from an
    # older client or a test, and the bot is assumed in).
    if owners and owners.get(GUILD_INSTALL) != interaction.guild_id:
        return HERE
    return THREAD


def of_row(row: Any) -> str:
    """Where game `row` is played."""
    return (getattr(row, "extra", None) or {}).get(KEY) or THREAD


def only_interactions(row: Any) -> bool:
    """Can the bot reach game `row`'s channel only through interactions?"""
    return of_row(row) == HERE


def missing_access() -> discord.Forbidden:
    """What Discord answers the bot's REST in a channel it is not in (403, Missing Access)."""
    response = type("Refused", (), {"status": 403, "reason": "Forbidden"})()
    return discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})


class Unreachable:
    """A channel the bot is not in, as the table sees it: anything asked of it over REST is
    refused as Discord would refuse it, without spending a request on it. Only an interaction
    (bot/carrier.py) reaches it."""

    def __init__(self, channel_id: int):
        self.id = channel_id

    async def send(self, *args: Any, **kwargs: Any) -> discord.Message:
        raise missing_access()

    def get_partial_message(self, message_id: int) -> "Unreachable":
        return self

    async def edit(self, *args: Any, **kwargs: Any) -> None:
        raise missing_access()
