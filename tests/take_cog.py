"""A test-only cog for the test-only Take Away game: a public turn played on the turn message."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import register
from bot.gamecog import GameCog
from bot.options import engine_options
from takeaway import TakeAway

register(TakeAway)


class TakeCog(GameCog, group_name="takeaway", group_description="Test-only take-away game"):
    KIND = "takeaway"
    MOVE_EXAMPLE = "take 2"

    @app_commands.command(name="challenge", description="Challenge someone to take away")
    @app_commands.describe(opponent="Who you challenge")
    @engine_options(TakeAway, "pile")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TakeCog(bot))
