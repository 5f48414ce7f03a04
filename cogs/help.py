"""`/help`: what the referee does and how to start, play and learn a game — and, with a game,
that game's goal, first step, turn, buttons and commands (from bot.guide)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import guide
from bot.engine import KINDS, load
from bot.panel import clip
from bot.ui import reply

GAME_CHOICES = [app_commands.Choice(name=load(k).TITLE[:100], value=k) for k in KINDS]


def help_for(kind: str | None = None) -> str:
    """The text of `/help` (no game) or of one game's help, within one message."""
    if not kind:
        return clip(guide.general_help())
    title = load(kind).TITLE
    return clip(f"❓ **{title} — how to play**\n\n{guide.game_help(kind)}")


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="help", description="How to start and play the dice games "
                                                    "(pick a game for its own help)")
    @app_commands.describe(game="A game: its goal, a turn, the buttons and commands")
    @app_commands.choices(game=GAME_CHOICES)
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await reply(interaction, help_for(game), ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
