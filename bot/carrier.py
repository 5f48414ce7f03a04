"""The interaction that caused a move carries what that move publishes (issue #23).

Discord limits a bot to 50 requests a second across all its shards, on its own REST routes; the
answer to an interaction and the interaction's webhook (follow-ups, `@original` edits) are not
bound to that limit. So a move made by a click publishes through that click: the message the
click was on is edited as the click's own answer, and a new turn message is the click's
follow-up. Everything else (timers, votes, another seat's DM, a thread changed by a move made in
a DM) goes over REST, as does anything the interaction could not carry (an expired token, a
failed follow-up): a message is never lost for want of an interaction.

`carry(game_id, interaction)` marks the interaction of the running task (a context variable, so
it follows the move through the table into the publish, and into the practice bot's task that
the move wakes: a bot's answer right after a person's click rides on it too).
"""
from __future__ import annotations

import datetime as dt
import logging
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import discord

log = logging.getLogger(__name__)

# Discord keeps an interaction's token for 15 minutes; leave a margin for the request itself.
TOKEN_LIFE = dt.timedelta(minutes=14)


@dataclass(frozen=True)
class Carrier:
    game_id: int
    interaction: discord.Interaction
    # Messages this interaction's follow-ups made: its webhook may edit them too.
    sent: set[int] = field(default_factory=set)


_current: ContextVar[Carrier | None] = ContextVar("carrier", default=None)


def carry(game_id: int, interaction: discord.Interaction) -> None:
    """The interaction of this task may publish game `game_id`'s moves."""
    _current.set(Carrier(game_id, interaction))


def carrier_for(game_id: int) -> Carrier | None:
    """What may carry game `game_id`'s messages now, if anything."""
    c = _current.get()
    if c is None or c.game_id != game_id:
        return None
    if discord.utils.utcnow() - c.interaction.created_at > TOKEN_LIFE:
        return None
    return c


Make = Callable[[], dict[str, Any]]
# Answers after which `@original` is the message the component was on (a "thinking" answer
# makes a message of its own).
ANSWERS_ON_MESSAGE = (discord.InteractionResponseType.deferred_message_update,
                      discord.InteractionResponseType.message_update)
# Answers after which a follow-up is a message of its own (after a "thinking" answer the first
# follow-up would fill that message, private to the one who asked).
ANSWERS_BEFORE_FOLLOWUPS = ANSWERS_ON_MESSAGE + (discord.InteractionResponseType.channel_message,)


async def send(game_id: int, channel: Any, make: Make,
               rest: Callable[[Make], Awaitable[discord.Message]]) -> discord.Message:
    """A new message in `channel`: the interaction's follow-up when it was made in that very
    channel and answered in a way that leaves follow-ups their own, else `rest(make)`."""
    c = carrier_for(game_id)
    ix = c.interaction if c is not None else None
    if ix is not None and ix.channel_id == getattr(channel, "id", None) and (
            ix.response.type in ANSWERS_BEFORE_FOLLOWUPS):
        try:
            message = await ix.followup.send(wait=True, **make())
            c.sent.add(message.id)
            return message
        except discord.HTTPException as e:
            log.info("game %s: a follow-up failed (%s); posting it over REST", game_id, e.status)
    return await rest(make)


async def edit(game_id: int, message_id: int, make: Make,
               rest: Callable[[Make], Awaitable[Any]] | None) -> None:
    """Edit message `message_id`: as the interaction's own answer when it is the message the
    interaction's component is on (and not ephemeral: the cog answers those itself), else
    `rest(make)` (`rest=None`: only if the interaction can; a nicety not worth a request
    bound to the global limit). `make()` gives edit arguments (`attachments`, not `file`)."""
    c = carrier_for(game_id)
    ix = c.interaction if c is not None else None
    message = getattr(ix, "message", None)
    if ix is not None and message_id in c.sent:
        try:
            await ix.followup.edit_message(message_id, **make())
            return
        except discord.HTTPException as e:
            log.info("game %s: a follow-up's edit failed (%s); editing over REST", game_id,
                     e.status)
    elif ix is not None and message is not None and message.id == message_id and not (
            message.flags.ephemeral):
        answered = ix.response.type
        try:
            if answered is None:
                await ix.response.edit_message(**make())
                return
            if answered in ANSWERS_ON_MESSAGE:  # `@original` is the clicked message itself
                await ix.edit_original_response(**make())
                return
        except discord.HTTPException as e:
            log.info("game %s: an answer by edit failed (%s); editing over REST", game_id,
                     e.status)
    if rest is not None:
        await rest(make)
