"""Abandoned seats (issue #25, Board Game Arena's "zombie" mode). When a player of a game of
more than two runs out of time with no move the referee can make for them, the game goes on
without them where the rules allow it (TradeShowdown: their fighter leaves the fight; Death by
Dice free-for-all: the others win). Where their forfeit would make others lose with them — their
team in KAPLOOM! 2 vs 2, the other Minions in Bosses & Minions — the table (bot/tables.py
`_offer_seat`) first asks those others here: **let the bot finish this seat**. One of them
presses the button and the practice bot plays that seat at `normal` from then on; the game then
counts for nobody (no stats, no rating). Unanswered for a turn's time, the seat forfeits as before.
"""
from __future__ import annotations

import logging
import re
from typing import Any

import discord

from . import carrier, place, practice
from .engine import load
from .engine.core import RuleError
from .ui import guarded, view_of

log = logging.getLogger(__name__)

LEVEL = "normal"


class TakeSeatButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=r"zb:(?P<gid>[0-9]{1,18}):(?P<seat>[0-9]{1,2})"):
    """"Let the bot finish this seat" (works after a restart)."""

    def __init__(self, game_id: int, seat: int, label: str = "Let the bot finish this seat"):
        self.game_id, self.seat = game_id, seat
        super().__init__(discord.ui.Button(label=label[:80], emoji="🤖",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"zb:{game_id}:{seat}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await take(interaction, self.game_id, self.seat)
        await guarded(interaction, work)


async def offer(bot: Any, row: Any, game: Any, seat: int, until: float) -> bool:
    """The table's question to the others (Tables.on_abandon): posted in the game's thread."""
    if bot.user is None:
        return False
    channel = (place.Unreachable(row.where) if place.only_interactions(row) else
               bot.get_channel(row.where) or bot.get_partial_messageable(row.where))
    others = [u for i, u in enumerate(row.players)
              if i != seat and u != row.players[seat] and u != bot.user.id]
    if channel is None or not others:
        return False
    name = game.name(seat)
    text = (f"⏰ **{name}** ran out of time and cannot be played for. "
            + " ".join(f"<@{u}>" for u in dict.fromkeys(others))
            + f": let the bot finish {name}'s seat (it plays at {LEVEL}; the game then counts "
              f"for nobody)? If nobody does, {name} forfeits <t:{int(until)}:R>.")
    def make() -> dict[str, Any]:
        return dict(content=text, view=view_of(TakeSeatButton(
            row.id, seat, f"Let the bot finish {name}'s seat")), allowed_mentions=(
            discord.AllowedMentions(users=[discord.Object(u) for u in dict.fromkeys(others)])))
    try:  # through the interaction at hand when one can carry it (bot/carrier.py)
        await carrier.send(bot, row.id, channel, make, lambda make: channel.send(**make()))
    except discord.HTTPException:
        log.info("game %s: could not offer seat %s to the bot", row.id, seat)
        return False
    return True


async def take(interaction: discord.Interaction, game_id: int, seat: int) -> None:
    bot = interaction.client
    if bot.user is None:
        raise RuleError("I am not ready yet; try again in a moment.")
    row = await bot.tables.take_seat(game_id, seat, bot.user.id, interaction.user.id, LEVEL)
    game = load(row.kind).from_json(row.state)
    name = game.name(seat)
    await interaction.response.edit_message(
        content=f"🤖 {interaction.user.mention} let the bot finish **{name}**'s seat: it plays "
                f"at {LEVEL} from now on. Game #{row.id} now counts for nobody.",
        view=None, allowed_mentions=discord.AllowedMentions.none())
    if seat in game.actors():
        practice.driver(bot).wake(row.id, seat, LEVEL)


DYNAMIC_ITEMS = (TakeSeatButton,)

__all__ = ["offer", "take", "TakeSeatButton", "DYNAMIC_ITEMS"]
