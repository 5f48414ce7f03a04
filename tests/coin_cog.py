"""A test-only cog for the test-only Coin Flip game: exercises GameCog and the lobby."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import register
from bot.gamecog import GameCog
from bot.options import engine_options
from coinflip import CoinFlip

register(CoinFlip)


class CoinCog(GameCog, group_name="coinflip", group_description="Test-only coin flip game"):
    KIND = "coinflip"
    MOVE_EXAMPLE = "call heads"

    @app_commands.command(name="challenge", description="Challenge someone to a coin flip")
    @app_commands.describe(opponent="Who you challenge")
    @engine_options(CoinFlip, "target")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

    @app_commands.command(name="open", description="Open a coin flip table")
    async def open_table(self, interaction: discord.Interaction) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, None, {})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CoinCog(bot))
