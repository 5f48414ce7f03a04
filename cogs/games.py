"""`/games`: the lobby side every game shares — list, resign, abort, rules, history, export,
stats — and the answers to challenge buttons."""
from __future__ import annotations

import asyncio
import functools
import io
import json
import logging
from datetime import datetime, timezone

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import KINDS, load
from bot.engine.core import RuleError
from bot import guide
from bot.panel import clip, split_message
from bot.engine.records import Record, ReplayError, public_record
from bot.installs import guild_install_only
from bot.lobby import Lobby
from bot.practice import PRACTICE_KEY
from bot.store import GameRow
from bot.tables import GameClosed
from bot.ui import RulesPageButton, reply, view_of
from bot import profile as ratings_ui
from bot import turns, zombie

log = logging.getLogger(__name__)
GAME_CHOICES = [app_commands.Choice(name=k, value=k) for k in KINDS]


def title(kind: str) -> str:
    try:
        return load(kind).TITLE
    except (KeyError, ModuleNotFoundError):
        return kind


def rules_pages(kind: str) -> list[str]:
    """The game's rules written for Discord (bot.guide: package data, short pages, rulings
    marked ⚖️)."""
    return guide.pages(kind) or [f"The rules of {title(kind)} are not written up yet."]


UNKNOWN_COMPONENT = ("❌ This button is not one of mine, or it is out of date. Use the newest "
                     "message in the game's thread, or `/games list` to find your games.")
DISCORD_INT = 2 ** 53  # Discord's integer options run from -2^53 to 2^53


def _message_ids(message: discord.Message | None) -> set[str] | None:
    """The custom_ids on the message a component was used on (None: no message came along)."""
    if message is None:
        return None
    found: set[str] = set()
    todo = list(message.components)
    while todo:
        comp = todo.pop()
        todo.extend(getattr(comp, "children", None) or [])
        if getattr(comp, "accessory", None) is not None:  # a v2 section's button
            todo.append(comp.accessory)
        if getattr(comp, "custom_id", None):
            found.add(comp.custom_id)
    return found


def is_known_component(bot: commands.Bot, interaction: discord.Interaction) -> bool:
    """Will one of the bot's components answer this click: a view it listens to, or a
    persistent (dynamic) template of the bot or a cog that reads the custom_id (discord.py
    only runs one when that custom_id is really on the message)?"""
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    if not custom_id or len(custom_id) > 100:
        return False
    store = getattr(getattr(bot, "_connection", None), "_view_store", None)
    if store is None:  # discord.py moved its internals: never refuse what may be ours
        return True
    if any(key[1] == custom_id for items in getattr(store, "_views", {}).values()
           for key in items):
        return True
    on_message = _message_ids(interaction.message)
    if on_message is not None and custom_id not in on_message:
        return False
    return any(p.fullmatch(custom_id) for p in getattr(store, "_dynamic_items", {}))


def option_refusal(tree: app_commands.CommandTree, data: dict) -> str | None:
    """Why these command options could not have come from Discord's client (out of range, too
    long, not a choice, unknown), or None when they are fine."""
    try:
        command, options = tree._get_app_command_options(data)
    except Exception:  # unknown command: the tree answers that itself
        return None
    spec = {o["name"]: o for o in command.to_dict(tree).get("options") or []}
    for opt in options:
        name, value = opt.get("name"), opt.get("value")
        s = spec.get(name)
        if s is None:
            return f"`/{command.qualified_name}` has no option `{str(name)[:32]}`."
        kind = s.get("type")
        if kind in (4, 10):  # integer, number
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return f"`{name}` takes a number."
            low, high = s.get("min_value", -DISCORD_INT), s.get("max_value", DISCORD_INT)
            if not low <= value <= high:
                return f"`{name}` must be from {low} to {high}."
        elif kind == 3:  # string
            if not isinstance(value, str):
                return f"`{name}` takes text."
            low, high = s.get("min_length", 0), s.get("max_length", 6000)
            if not low <= len(value) <= high:
                return f"`{name}` must be {low} to {high} characters long."
        if s.get("choices") and value not in [c["value"] for c in s["choices"]]:
            return f"`{name}` must be one of the choices offered."
    return None


async def reply_long(interaction: discord.Interaction, text: str) -> None:
    """A private answer of any length, cut where gamecog cuts messages (one splitter)."""
    for chunk in split_message(text):
        await reply(interaction, chunk, ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())


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
        # Abandoned seats (issue #25): the table asks the others through bot/zombie.py.
        self.bot.tables.on_abandon = functools.partial(zombie.offer, self.bot)
        await self.lobby.resume()
        # Every slash command passes this check first: a forged payload (Discord's client
        # would never send it) is refused in words before any command sees its options.
        self.bot.tree.interaction_check = self.check_options

    async def cog_unload(self) -> None:
        self.bot.tables.on_abandon = None
        self.lobby.close()
        self.bot.tree.__dict__.pop("interaction_check", None)

    # ---- what no template or range allows ------------------------------------------------------
    async def check_options(self, interaction: discord.Interaction) -> bool:
        """Options outside the ranges, lengths and choices the command declares (Discord's
        client enforces them, discord.py does not) get a clear refusal instead of a run."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        refusal = option_refusal(self.bot.tree, interaction.data or {})
        if refusal is None:
            return True
        await reply(interaction, f"❌ {refusal}", ephemeral=True)
        return False

    @commands.Cog.listener()
    async def on_command_error(self, ctx: commands.Context, error: Exception) -> None:
        """The bot has no text commands, but its prefix is a mention: "@Referee hello" is no
        command, not an error to log. (With this listener discord.py leaves the rest to us.)"""
        if isinstance(error, commands.CommandNotFound):
            return
        log.error("text command %s failed", ctx.command, exc_info=error)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button or select whose id none of the bot's components can read (forged, or from
        a version of the bot that no longer exists) gets a polite answer instead of silence."""
        if interaction.type is not discord.InteractionType.component:
            return
        if is_known_component(self.bot, interaction):
            return
        try:
            await reply(interaction, UNKNOWN_COMPONENT, ephemeral=True)
        except discord.HTTPException:  # answered already, or the token expired
            pass

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
        await reply_long(interaction, "\n".join(lines))

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
        moderator = await self._moderates(interaction, row)
        uid = interaction.user.id
        if not moderator and row.seat_of(uid) is None:
            raise RuleError("Only the game's players (all of them agreeing) or a member with "
                            "Manage Threads can abort a game.")
        # One atomic store step per request: two players asking at the same moment both count.
        asked = set(row.players) if moderator else set(
            await self.bot.store.request_abort(row.id, uid))
        if row.extra.get(PRACTICE_KEY) and self.bot.user is not None:
            asked.add(self.bot.user.id)  # the practice opponent always agrees to stop
        channel = self.bot.get_channel(row.where) if row.where else None
        if moderator or asked >= set(row.players):
            try:
                await self.bot.tables.abort(row.id)
            except GameClosed:  # the other player's request stopped it a moment ago
                await reply(interaction, f"Game #{row.id} is stopped already.", ephemeral=True)
                return
            note = f"🛑 Game #{row.id} was aborted" + (
                f" by moderator {interaction.user.mention}." if moderator else
                " by agreement of all players.") + " It counts for nobody."
            await reply(interaction, note, ephemeral=True)
            if channel is not None:
                await channel.send(note)
            return
        waiting = " ".join(f"<@{u}>" for u in row.players if u not in asked)
        await reply(interaction, f"Your request to abort game #{row.id} is noted; it stops "
                                 "when every player has asked.", ephemeral=True)
        if channel is not None:
            await channel.send(f"🛑 {interaction.user.mention} asks to abort this game. "
                               f"{waiting}: use `/games abort game:{row.id}` to agree.")

    async def _moderates(self, interaction: discord.Interaction, row: GameRow) -> bool:
        """Whether the member may stop `row` as a moderator: Manage Threads in the game's own
        thread (its parent channel's), never merely where the command was typed."""
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        for place in (row.thread_id, row.channel_id):
            if not place:
                continue
            channel = self.bot.get_channel(place)
            if channel is None:
                try:  # another shard's channel, or not cached: ask Discord
                    channel = await self.bot.fetch_channel(place)
                except discord.HTTPException:
                    continue
            if hasattr(channel, "permissions_for"):
                return channel.permissions_for(member).manage_threads
        return False

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
        content = clip(f"📖 **{title(kind)} — rules, page {page + 1}/{len(pages)}**\n\n"
                       f"{pages[page]}")
        view = view_of(RulesPageButton(kind, page, "prev", disabled=page == 0),
                       RulesPageButton(kind, page, "next", disabled=page >= len(pages) - 1))
        if edit:
            await interaction.response.edit_message(content=content, view=view)
        else:
            await reply(interaction, content, ephemeral=True, view=view)

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
        await reply_long(interaction, "\n".join(lines))

    @app_commands.command(name="export", description="Download a finished game's record")
    @app_commands.describe(game="The finished game's number")
    async def export(self, interaction: discord.Interaction, game: int) -> None:
        row = await self._my_game(interaction, game)
        if row.status != "finished":
            # A running game's record holds secrets (placements, rolls to come), and an aborted
            # one can stop in the middle of a secret step: only finished games are exported.
            raise RuleError(f"Game #{row.id} is still running; records are exported once a "
                            "game is over." if row.status == "active" else
                            f"Game #{row.id} was aborted; only finished games have a record "
                            "to export.")
        record = Record(row.kind, row.options, [str(u) for u in row.players], None)
        for actor, move in await self.bot.store.entries(row.id):
            record.entries.append({"actor": actor if actor == "chance" else int(actor),
                                   "move": move})
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            # Only what the table saw: undone secret plans and faces nobody saw are left out,
            # and a game that ended inside a secret step (a resignation during the placement)
            # is cut back to its last public moment. Replaying a long game takes a moment: in a
            # thread, so other games' moves are not kept waiting.
            record = await asyncio.to_thread(public_record, record)
        except (ReplayError, ValueError):
            log.exception("game %s: its record does not replay; not exported", row.id)
            raise RuleError(f"The record of game #{row.id} cannot be exported.") from None
        data = (record.dumps() + "\n").encode()
        await reply(interaction, f"📄 The record of game #{row.id} ({title(row.kind)}): every "
                                 "move in order, in the game's notation, to keep or to study.",
                    ephemeral=True,
                    file=discord.File(io.BytesIO(data), f"game-{row.id}-{row.kind}.json"))

    @export.autocomplete("game")
    async def export_autocomplete(self, interaction, current: str):
        return await self._game_autocomplete(interaction, current, "finished")

    @app_commands.command(name="stats", description="Wins and losses per game in this server")
    async def stats(self, interaction: discord.Interaction) -> None:
        # Each game's top ten read from the index (and the caller's own line), however many
        # people have played here: the query stays small at any size.
        rows = await self.bot.store.stats(interaction.guild_id, top=10,
                                          user_id=interaction.user.id)
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
        await reply_long(interaction, "\n".join(lines).strip())


    # ---- ratings (bot/profile.py, docs/ratings.md) ----------------------------------------------
    @app_commands.command(name="leaderboard", description="A game's rating leaderboard: the top "
                                                          "ten and your place")
    @app_commands.describe(game="Which game", scope="This server (default) or all servers")
    @app_commands.choices(game=ratings_ui.ladder_choices(), scope=[
        app_commands.Choice(name="this server", value="server"),
        app_commands.Choice(name="all servers", value="global")])
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          scope: str | None = None) -> None:
        await ratings_ui.show_leaderboard(interaction, game, scope)

    @app_commands.command(name="profile", description="A player's ratings, results and form, "
                                                      "game by game")
    @app_commands.describe(member="Whose profile (default: yours)",
                           scope="This server (default) or all servers")
    @app_commands.choices(scope=[app_commands.Choice(name="this server", value="server"),
                                 app_commands.Choice(name="all servers", value="global")])
    async def profile(self, interaction: discord.Interaction,
                      member: discord.User | None = None, scope: str | None = None) -> None:
        await ratings_ui.show_profile(interaction, member, scope)

    # ---- my games and my turns (bot/turns.py) ---------------------------------------------------
    @app_commands.command(name="mine", description="Your running games: whose turn, time left, "
                                                   "a link to each")
    async def mine(self, interaction: discord.Interaction) -> None:
        await turns.show_mine(interaction)

    @app_commands.command(name="notify", description="How you are told it is your turn: a ping, "
                                                     "a DM, or nothing")
    @app_commands.describe(how="ping in the game's thread (default), a direct message, or nothing")
    @app_commands.choices(how=[app_commands.Choice(name="ping in the thread", value="ping"),
                               app_commands.Choice(name="direct message", value="dm"),
                               app_commands.Choice(name="nothing", value="none")])
    async def notify(self, interaction: discord.Interaction, how: str) -> None:
        await turns.set_notice(interaction, how)

    @app_commands.command(name="rating", description="Switch rating on or off for a game in "
                                                     "this server (Manage Server)")
    @app_commands.describe(game="Which game", rated="Rate its games from now on?")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @guild_install_only()
    async def rating(self, interaction: discord.Interaction, game: str, rated: bool) -> None:
        await ratings_ui.set_rating(interaction, game, rated)


async def setup(bot: commands.Bot) -> None:
    from bot import rematch
    bot.add_dynamic_items(*ratings_ui.DYNAMIC_ITEMS, *rematch.DYNAMIC_ITEMS,
                          *zombie.DYNAMIC_ITEMS)
    await bot.add_cog(Games(bot))
    # /help comes with the lobby until bot/app.py lists "cogs.help" among its extensions.
    if "cogs.help" not in bot.extensions:
        await bot.load_extension("cogs.help")
    # /games replay and "What happened?" (issue #26) live in their own cog, under this group.
    if "cogs.replay" not in bot.extensions:
        await bot.load_extension("cogs.replay")
