"""Edits whose answer nobody reads: over the bot's REST route and through an interaction.

discord.py's `PartialMessage.edit`, `Interaction.edit_original_response` and
`Webhook.edit_message` (what `interaction.followup` is) each build a `discord.Message` from the
reply: its components, attachments and author parsed into objects, a third of the edit's own
work on the event loop. The turn cards, DM panels and vote messages (bot/gamecog.py, through
the carrier, bot/carrier.py) only need the edit done. So these make the very request those
methods make (the same parameters through `handle_message_parameters`, the same HTTP client or
webhook adapter, the same view bookkeeping) and leave the reply unread.

This reaches below discord.py's public API (its HTTP client, webhook adapter and the
interaction's session), here alone: should a discord.py release move them, or an edit ask for
more than `KEYS`, the public methods are used.
"""
from __future__ import annotations

from typing import Any

import discord

try:
    from discord.webhook.async_ import async_context, handle_message_parameters
except ImportError:  # another discord.py: the public methods only
    async_context = handle_message_parameters = None  # type: ignore[assignment]

MISSING = discord.utils.MISSING
# The edits these cover: a card's or panel's content, components, pictures and mentions.
KEYS = frozenset({"content", "attachments", "view", "allowed_mentions"})


def _covered(interaction: discord.Interaction, kwargs: dict[str, Any]) -> bool:
    return (async_context is not None and kwargs.keys() <= KEYS
            and getattr(interaction, "_session", None) is not None
            and getattr(interaction, "_state", None) is not None)


def _params(interaction: discord.Interaction, kwargs: dict[str, Any]):
    return handle_message_parameters(
        content=kwargs.get("content", MISSING), attachments=kwargs.get("attachments", MISSING),
        view=kwargs.get("view", MISSING), allowed_mentions=kwargs.get("allowed_mentions"),
        previous_allowed_mentions=interaction._state.allowed_mentions)


def _keep_view(state: Any, kwargs: dict[str, Any], message_id: int) -> None:
    # As the public methods do: a view with live components is dispatched for that message.
    view = kwargs.get("view")
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


async def rest_edit(channel: Any, message_id: int, **kwargs: Any) -> None:
    """`channel.get_partial_message(message_id).edit(**kwargs)`, its reply unread (the same
    route, rate-limit handling and view bookkeeping)."""
    message = channel.get_partial_message(message_id)
    state = getattr(message, "_state", None)
    if (not isinstance(message, discord.PartialMessage) or state is None
            or not kwargs.keys() <= KEYS):
        # not a channel of Discord's (place.Unreachable), or an edit this does not cover
        await message.edit(**kwargs)
        return
    view = kwargs.get("view", MISSING)
    if view is not MISSING:
        state.prevent_view_updates_for(message_id)
    with discord.http.handle_message_parameters(
            content=kwargs.get("content", MISSING), attachments=kwargs.get("attachments", MISSING),
            view=view, allowed_mentions=kwargs.get("allowed_mentions", MISSING),
            previous_allowed_mentions=state.allowed_mentions if "content" in kwargs else None,
    ) as params:
        await state.http.edit_message(message.channel.id, message_id, params=params)
    _keep_view(state, kwargs, message_id)


async def edit_original(interaction: discord.Interaction, message_id: int,
                        **kwargs: Any) -> None:
    """`interaction.edit_original_response(**kwargs)`, its reply unread. `message_id`: the
    message `@original` is (the one the interaction's component is on)."""
    if not _covered(interaction, kwargs):
        await interaction.edit_original_response(**kwargs)
        return
    http = interaction._state.http
    with _params(interaction, kwargs) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session,
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files)
    _keep_view(interaction._state, kwargs, message_id)


async def edit_followup(interaction: discord.Interaction, message_id: int,
                        **kwargs: Any) -> None:
    """`interaction.followup.edit_message(message_id, **kwargs)`, its reply unread."""
    if not _covered(interaction, kwargs):
        await interaction.followup.edit_message(message_id, **kwargs)
        return
    http = interaction._state.http
    with _params(interaction, kwargs) as params:
        await async_context.get().edit_webhook_message(
            interaction.application_id, interaction.token, message_id,
            session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files,
            with_components=bool(kwargs.get("view")))
    _keep_view(interaction._state, kwargs, message_id)
