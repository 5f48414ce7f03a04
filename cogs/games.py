"""`/games`: the lobby side every game shares — list, resign, abort, rules, history, export,
stats — and the answers to challenge buttons."""
from __future__ import annotations

import io
import json
import re
from datetime import datetime, timezone
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import KINDS, load
from bot.engine.core import RuleError
from bot.engine.records import Record
from bot.lobby import Lobby
from bot.store import GameRow
from bot.ui import RulesPageButton, reply, view_of

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
GAME_CHOICES = [app_commands.Choice(name=k, value=k) for k in KINDS]


def title(kind: str) -> str:
    try:
        return load(kind).TITLE
    except (KeyError, ModuleNotFoundError):
        return kind


def rules_pages(kind: str) -> list[str]:
    """The game's rules doc cut at its `##` headings, each page within a message."""
    path = RULES_DIR / f"{kind}.md"
    if not path.is_file():
        return [f"The rules of {title(kind)} are not written up yet."]
    text = path.read_text(encoding="utf-8")
    parts = [p.strip() for p in re.split(r"(?m)^(?=## )", text) if p.strip()]
    pages = []
    for part in parts:
        while len(part) > 1800:  # a long section continues on the next page
            cut = part.rfind("\n", 0, 1800)
            cut = cut if cut > 0 else 1800
            pages.append(part[:cut])
            part = part[cut:].strip()
        pages.append(part)
    return pages or ["(empty)"]


def game_line(row: GameRow) -> str:
    players = " vs ".join(f"<@{u}>" for u in row.players)
    where = f" in <#{row.where}>" if row.where else ""
    return f"#{row.id} **{title(row.kind)}** — {players}{where}"


class Games(commands.GroupCog, group_name="games",
            group_description="Dice games: list, rules, resign, history and stats"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.lobby: Lobby = bot.lobby
        super().__init__()

    async def cog_load(self) -> None:
        await self.lobby.resume()

    async def cog_unload(self) -> None:
        self.lobby.close()

    # ---- helpers ---------------------------------------------------------------------------
    async def _my_game(self, interaction: discord.Interaction, game_id: int) -> GameRow:
        row = await self.bot.store.get_game(game_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise RuleError(f"There is no game #{game_id} in this server.")
        return row

    async def _game_autocomplete(self, interaction: discord.Interaction, current: str,
                                 status: str) -> list[app_commands.Choice[int]]:
        rows = await self.bot.store.games_of_user(interaction.user.id, status=status)
        out = []
        for r in rows:
            label = f"#{r.id} {title(r.kind)}"
            if current and current.lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label[:100], value=r.id))
        return out[:25]

    # ---- commands ----------------------------------------------------------------------------
    @app_commands.command(name="list", description="Open games in this server, and yours")
    async def list_games(self, interaction: discord.Interaction) -> None:
        here = await self.bot.store.games_in_guild(interaction.guild_id)
        mine = await self.bot.store.games_of_user(interaction.user.id)
        lines = ["**Open games here**"] + ([game_line(r) for r in here] or ["none"])
        lines += ["", "**Your games**"] + ([game_line(r) for r in mine] or [
            "none — start one with `/<game> challenge`, e.g. `/slideslam challenge`"])
        await reply(interaction, "\n".join(lines)[:2000], ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="resign", description="Give up one of your games")
    @app_commands.describe(game="Your game (its number)")
    async def resign(self, interaction: discord.Interaction, game: int) -> None:
        row = await self._my_game(interaction, game)
        if row.seat_of(interaction.user.id) is None:
            raise RuleError("You are not playing in that game.")
        if row.status != "active":
            raise RuleError(f"Game #{row.id} is over already.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.resign(row.id, interaction.user.id)
        await interaction.followup.send(f"🏳️ You resigned game #{row.id}.", ephemeral=True)

    @resign.autocomplete("game")
    async def resign_autocomplete(self, interaction, current: str):
        return await self._game_autocomplete(interaction, current, "active")

    @app_commands.command(name="abort", description="Stop a game without a result (all "
                                                    "players agree, or a moderator)")
    @app_commands.describe(game="The game's number")
    async def abort(self, interaction: discord.Interaction, game: int) -> None:
        row = await self._my_game(interaction, game)
        if row.status != "active":
            raise RuleError(f"Game #{row.id} is not running.")
        perms = getattr(interaction, "permissions", None)
        moderator = bool(perms and perms.manage_threads)
        uid = interaction.user.id
        if not moderator and row.seat_of(uid) is None:
            raise RuleError("Only the game's players (all of them agreeing) or a member with "
                            "Manage Threads can abort a game.")
        asked = set(row.extra.get("abort_requests", [])) | ({uid} if not moderator else set())
        channel = self.bot.get_channel(row.where) if row.where else None
        if moderator or asked >= set(row.players):
            await self.bot.tables.abort(row.id)
            note = f"🛑 Game #{row.id} was aborted" + (
                f" by moderator {interaction.user.mention}." if moderator else
                " by agreement of all players.") + " It counts for nobody."
            await reply(interaction, note, ephemeral=True)
            if channel is not None:
                await channel.send(note)
            return
        await self.bot.store.update_extra(row.id, abort_requests=sorted(asked))
        waiting = " ".join(f"<@{u}>" for u in row.players if u not in asked)
        await reply(interaction, f"Your request to abort game #{row.id} is noted; it stops "
                                 "when every player has asked.", ephemeral=True)
        if channel is not None:
            await channel.send(f"🛑 {interaction.user.mention} asks to abort this game. "
                               f"{waiting}: use `/games abort game:{row.id}` to agree.")

    @abort.autocomplete("game")
    async def abort_autocomplete(self, interaction, current: str):
        return await self._game_autocomplete(interaction, current, "active")

    @app_commands.command(name="rules", description="A game's rules and the referee's rulings")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await self.show_rules(interaction, game, 0)

    async def show_rules(self, interaction: discord.Interaction, kind: str, page: int,
                         edit: bool = False) -> None:
        if kind not in KINDS:
            raise RuleError(f"There is no game {kind!r}.")
        pages = rules_pages(kind)
        page = max(0, min(page, len(pages) - 1))
        content = f"**{title(kind)} — rules, page {page + 1}/{len(pages)}**\n\n{pages[page]}"
        view = view_of(RulesPageButton(kind, page, "prev", disabled=page == 0),
                       RulesPageButton(kind, page, "next", disabled=page >= len(pages) - 1))
        if edit:
            await interaction.response.edit_message(content=content[:2000], view=view)
        else:
            await reply(interaction, content[:2000], ephemeral=True, view=view)

    @app_commands.command(name="history", description="Your last finished games")
    async def history(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.store.finished_of_user(interaction.user.id)
        if not rows:
            await reply(interaction, "You have no finished games yet.", ephemeral=True)
            return
        icon = {"win": "🏆 win", "loss": "loss", "draw": "🤝 draw"}
        lines = ["**Your last games**"]
        for gid, kind, result, finished, players in rows:
            others = [f"<@{u}>" for u in json.loads(players) if u != interaction.user.id]
            day = datetime.fromtimestamp(finished, timezone.utc).strftime("%Y-%m-%d")
            lines.append(f"#{gid} {title(kind)} vs {', '.join(others)} — {icon[result]} ({day})")
        await reply(interaction, "\n".join(lines)[:2000], ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="export", description="Download a finished game's record")
    @app_commands.describe(game="The finished game's number")
    async def export(self, interaction: discord.Interaction, game: int) -> None:
        row = await self._my_game(interaction, game)
        if row.status == "active":
            # A running game's record holds secrets (placements, rolls to come): never export.
            raise RuleError(f"Game #{row.id} is still running; records are exported once a "
                            "game is over.")
        record = Record(row.kind, row.options, [str(u) for u in row.players], None)
        for actor, move in await self.bot.store.entries(row.id):
            record.entries.append({"actor": actor if actor == "chance" else int(actor),
                                   "move": move})
        record.result = row.state.get("state", {}).get("result")
        data = (record.dumps() + "\n").encode()
        await reply(interaction, f"📄 Record of game #{row.id} ({title(row.kind)}). Replay it "
                                 "with `python -m bot replay`.", ephemeral=True,
                    file=discord.File(io.BytesIO(data), f"game-{row.id}-{row.kind}.json"))

    @export.autocomplete("game")
    async def export_autocomplete(self, interaction, current: str):
        return await self._game_autocomplete(interaction, current, "finished")

    @app_commands.command(name="stats", description="Wins and losses per game in this server")
    async def stats(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.store.stats(interaction.guild_id)
        if not rows:
            await reply(interaction, "No finished games in this server yet.", ephemeral=True)
            return
        lines, last = [], None
        shown: dict[str, int] = {}
        for kind, uid, wins, losses, draws in rows:
            if kind != last:
                lines.append(f"\n**{title(kind)}**")
                last = kind
            shown[kind] = shown.get(kind, 0) + 1
            if shown[kind] <= 10 or uid == interaction.user.id:
                lines.append(f"<@{uid}> — {wins} W · {losses} L · {draws} D")
        await reply(interaction, "\n".join(lines).strip()[:2000], ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Games(bot))
