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

It is also kept in the game's **book** for the rest of its token's life, so a later move can use
it: a move made in a DM changes the thread through the last click there, and another seat's new
DM panel goes out as a follow-up of that seat's own last click in its DM. A busy table then
publishes nearly everything through interactions; only a table nobody touched for 14 minutes
(or another process's outbox) needs REST. The book is per process and forgets on restart: a
token is only a shortcut, never the only way.
"""
from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import weakref
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable

import discord

from . import unread_edits

log = logging.getLogger(__name__)

# Discord keeps an interaction's token for 15 minutes; leave a margin for the request itself.
TOKEN_LIFE = dt.timedelta(minutes=14)


@dataclass(frozen=True)
class Carrier:
    game_id: int | None   # None: a game about to start (its id is not known yet)
    interaction: discord.Interaction
    # Messages this interaction's follow-ups made: its webhook may edit them too.
    sent: set[int] = field(default_factory=set)
    # When Discord made it (its token's age is asked several times a move; discord.py works
    # `created_at` out of the snowflake anew each time)
    made: dt.datetime = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "made", self.interaction.created_at)


_current: ContextVar[Carrier | None] = ContextVar("carrier", default=None)
# Per client (one bot: a test may run several in one process), game id -> channel id -> the
# newest interactions made there (newest last). Bounded: a few per channel, games forgotten
# oldest first past BOOK_GAMES, and stale tokens dropped as met.
Book = OrderedDict[int, dict[int, list[Carrier]]]
_books: "weakref.WeakKeyDictionary[Any, Book]" = weakref.WeakKeyDictionary()
PER_CHANNEL = 4
SENDERS = 4
BOOK_GAMES = 20_000


def carry(game_id: int | None, interaction: discord.Interaction) -> None:
    """The interaction of this task may publish game `game_id`'s moves (and, while its token
    lives, later moves of that game in its channel). `game_id=None`: the game this task is
    starting (it joins that game's book once it carried a message of it)."""
    c = Carrier(game_id, interaction)
    _current.set(c)
    if game_id is not None:
        _remember(c)


def _remember(c: Carrier) -> None:
    interaction, game_id = c.interaction, c.game_id
    if interaction.channel_id is None:
        return
    book = _books.setdefault(interaction.client, OrderedDict())
    channels = book.pop(game_id, None) or {}
    book[game_id] = channels
    kept = [k for k in channels.get(interaction.channel_id, []) if _fresh(k)] + [c]
    # The newest few, and those whose follow-ups made messages (a turn card is edited only
    # through the token that made it, however many clicks came since).
    senders = [k for k in kept if k.sent][-SENDERS:]
    channels[interaction.channel_id] = [k for k in kept if k in senders
                                        or k in kept[-PER_CHANNEL:]]
    while len(book) > BOOK_GAMES:
        book.popitem(last=False)


def _channels(client: Any, game_id: int) -> dict[int, list[Carrier]]:
    return _books.get(client, {}).get(game_id, {})


def _fresh(c: Carrier) -> bool:
    return discord.utils.utcnow() - c.made <= TOKEN_LIFE


def carrier_for(game_id: int) -> Carrier | None:
    """What may carry game `game_id`'s messages now, if anything."""
    c = _current.get()
    if c is None or c.game_id not in (game_id, None) or not _fresh(c):
        return None
    return c


def _candidates(client: Any, game_id: int, channel_id: int | None = None) -> list[Carrier]:
    """This task's own interaction first, then the book's, newest first (in `channel_id`,
    else in any channel of the game)."""
    out = [c] if (c := carrier_for(game_id)) is not None else []
    channels = _channels(client, game_id)
    for cid in ([channel_id] if channel_id is not None else list(channels)):
        out += [k for k in reversed(channels.get(cid, [])) if _fresh(k) and k not in out]
    return out


Make = Callable[[], dict[str, Any]]
# Answers after which `@original` is the message the component was on (a "thinking" answer
# makes a message of its own).
ANSWERS_ON_MESSAGE = (discord.InteractionResponseType.deferred_message_update,
                      discord.InteractionResponseType.message_update)
# Answers after which a follow-up is a message of its own (after a "thinking" answer the first
# follow-up would fill that message, private to the one who asked).
ANSWERS_BEFORE_FOLLOWUPS = ANSWERS_ON_MESSAGE + (discord.InteractionResponseType.channel_message,)


async def send(client: Any, game_id: int, channel: Any, make: Make,
               rest: Callable[[Make], Awaitable[discord.Message]]) -> discord.Message:
    """A new message in `channel`: a follow-up of an interaction made in that very channel and
    answered in a way that leaves follow-ups their own (this task's first, then the book's),
    else `rest(make)`."""
    current = carrier_for(game_id)
    for c in _candidates(client, game_id, getattr(channel, "id", None)):
        ix = c.interaction
        if ix.channel_id != getattr(channel, "id", None):
            continue
        try:
            if c is current and ix.response.type is None and _clicked_in_channel(ix):
                # A click not answered yet (its answer was to be the edit of the message it
                # was on): answered now as "that message will change", so it can carry
                # the new message too.
                await ix.response.defer()
            if ix.response.type not in ANSWERS_BEFORE_FOLLOWUPS:
                continue
            kwargs = make()
            message = await ix.followup.send(wait=True, **kwargs)
            if message.flags.ephemeral and not kwargs.get("ephemeral"):
                # The server lets a user-installed app answer its user alone ("Use External
                # Apps" is off): only that person saw it; it is not the table's message.
                log.info("game %s: a follow-up was made private by the server", game_id)
                raise PrivateOnly()
            c.sent.add(message.id)
            if c.game_id is None:
                # The game it started: from now on this task carries that game, and the
                # game's book keeps it (once).
                bound = Carrier(game_id, ix, c.sent)
                _remember(bound)
                if _current.get() is c:
                    _current.set(bound)
            return message
        except PrivateOnly:
            continue
        except discord.HTTPException as e:
            _spent(client, c, e)
            log.info("game %s: a follow-up failed (%s %s); trying another way", game_id, e.status, e.text)
    return await rest(make)


# Discord drops an interaction not answered within 3 seconds: a click whose answer is to be
# the move's own edit of the clicked message is answered as "deferred" after this long.
ANSWER_WITHIN = 2.0


@contextlib.asynccontextmanager
async def answered_in_time(interaction: discord.Interaction, *,
                           thinking: bool = False) -> AsyncIterator[None]:
    """Around work that is to answer the interaction itself when it is done (its edit of the
    clicked message, a command's reply): one request where "deferred" first and then the
    answer were two. If the work takes ANSWER_WITHIN without answering, it is answered as
    deferred (`thinking`: a command's private "thinking…", which its reply then fills)."""
    late = asyncio.get_running_loop().call_later(
        ANSWER_WITHIN, lambda: asyncio.ensure_future(_acknowledge(interaction, thinking)))
    try:
        yield
    finally:
        late.cancel()


@contextlib.asynccontextmanager
async def answered_by_the_move(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Around a click's move, when the move's publishing is to answer the click: its edit of
    the clicked message (a turn card, a DM panel) is the answer itself (UPDATE_MESSAGE).
    Answered as deferred in time (`answered_in_time`), and when the move is done without
    answering it (nothing it showed was on that message). An error is answered by whoever
    reports it."""
    async with answered_in_time(interaction):
        yield
    await _acknowledge(interaction)


async def reply(interaction: discord.Interaction, text: str) -> None:
    """The private reply to a command run under `answered_in_time(..., thinking=True)`."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def _acknowledge(interaction: discord.Interaction, thinking: bool = False) -> None:
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=thinking, thinking=thinking)
    except (discord.HTTPException, discord.InteractionResponded):
        pass  # answered meanwhile, or Discord let it go: the move stands either way


def _clicked_in_channel(ix: discord.Interaction) -> bool:
    """A component on a message everyone sees (not an ephemeral one: the cog answers those)."""
    message = getattr(ix, "message", None)
    return (ix.type == discord.InteractionType.component and message is not None
            and not message.flags.ephemeral)


class PrivateOnly(Exception):
    """A follow-up Discord turned ephemeral: it reached its user only."""


def _spent(client: Any, c: Carrier, e: discord.HTTPException) -> None:
    """A token Discord refused (expired, its follow-ups used up: a user-installed app gets 5
    an interaction in a server that did not add it) leaves the book; a passing fault (429,
    5xx) does not."""
    if 400 <= e.status < 500 and e.status != 429:
        for carriers in _channels(client, c.game_id).values():
            if c in carriers:
                carriers.remove(c)


async def edit(client: Any, game_id: int, message_id: int, make: Make,
               rest: Callable[[Make], Awaitable[Any]] | None,
               channel_id: int | None = None) -> None:
    """Edit message `message_id` through an interaction that can: one whose follow-up made it,
    or whose component is on it and was answered by updating it (not an ephemeral one: the cog
    answers those itself); this task's first, then the book's (in `channel_id` when given).
    Else `rest(make)` (`rest=None`: only if an interaction can; a nicety not worth a request
    bound to the global limit). `make()` gives edit arguments (`attachments`, not `file`)."""
    current = carrier_for(game_id)
    for c in _candidates(client, game_id, channel_id):
        ix = c.interaction
        message = getattr(ix, "message", None)
        try:
            if message_id in c.sent:
                await unread_edits.edit_followup(ix, message_id, **make())
                return
            if message is None or message.id != message_id or message.flags.ephemeral:
                continue
            answered = ix.response.type
            if answered is None and c is current:
                await ix.response.edit_message(**make())
                return
            if answered in ANSWERS_ON_MESSAGE:  # `@original` is the clicked message itself
                await unread_edits.edit_original(ix, message_id, **make())
                return
        except discord.HTTPException as e:
            _spent(client, c, e)
            log.info("game %s: an edit through an interaction failed (%s); trying another way",
                     game_id, e.status)
    if rest is not None:
        await rest(make)
