"""The Bot: opens the store, loads the cogs, registers the persistent buttons, resumes games."""
from __future__ import annotations

import gc
import hashlib
import importlib.util
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rendering

from .config import Settings
from .installs import everywhere_contexts, everywhere_installs
from .lobby import Lobby
from .engine import KINDS
from .store import Store
from .tables import Tables

log = logging.getLogger(__name__)

FULL_COLLECTION_AFTER = 100   # collections of the middle generation (Python: 10)
TREE_HASH_KEY = "command_tree_hash"


def extensions() -> list[str]:
    """The lobby cog and every game cog that is present."""
    return ["cogs.games"] + [f"cogs.{k}" for k in KINDS
                             if importlib.util.find_spec(f"cogs.{k}") is not None]


def intents(read_messages: bool = False) -> discord.Intents:
    # Guilds and members-in-guild events come with the defaults; message content is privileged
    # and only needed for typed phrases ("DICE IS NOT BEND!"), so it is opt-in.
    it = discord.Intents.default()
    it.message_content = read_messages
    return it


class RefereeBot(commands.Bot):
    store: Store
    tables: Tables
    lobby: Lobby
    # The loaded game cogs by game kind: components and the lobby find a game's cog here.
    game_cogs: dict[str, Any]

    def __new__(cls, settings: Settings, *args: Any, **kwargs: Any):
        # SHARD_COUNT set: the same bot, on discord.py's AutoShardedBot (this process runs the
        # shards SHARD_IDS names, or all of them). Chosen here so callers need not know.
        if cls is RefereeBot and getattr(settings, "shard_count", None):
            cls = ShardedRefereeBot
        return super().__new__(cls)

    def __init__(self, settings: Settings, *, read_messages: bool = False,
                 sync_commands: bool = True, extra_extensions: tuple[str, ...] = ()):
        shards: dict[str, Any] = {}
        if isinstance(self, commands.AutoShardedBot):
            shards = {"shard_count": settings.shard_count,
                      "shard_ids": list(settings.shard_ids) if settings.shard_ids else None}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(read_messages),
                         help_command=None, allowed_mentions=discord.AllowedMentions(
                             everyone=False, roles=False, users=True),
                         # Issue #24: every command says where it works; these are the player
                         # commands' places, narrowed per command by installs.guild_install_only.
                         allowed_installs=everywhere_installs(),
                         allowed_contexts=everywhere_contexts(), **shards)
        self.settings = settings
        self.read_messages = read_messages
        self.sync_on_start = sync_commands
        self.extra_extensions = extra_extensions
        self.game_cogs = {}
        self._render_pool = False  # this bot started the render processes (and stops them)

    async def prepare(self) -> None:
        """Everything short of Discord: the store, the table, the cogs and their buttons."""
        # DATABASE_URL (PostgreSQL) or the SQLite file: one store interface either way.
        self.store = await Store.open(getattr(self.settings, "database", None)
                                      or self.settings.database_path)
        workers = getattr(self.settings, "render_processes", 0)
        if workers:
            rendering.use_processes(workers)
            self._render_pool = True
        self.tables = Tables(self.store, turn_timer=self.settings.turn_timer)
        self.lobby = Lobby(self)
        from . import ui  # registers the persistent (dynamic) buttons
        self.add_dynamic_items(*ui.DYNAMIC_ITEMS)
        self.tree.on_error = ui.on_tree_error
        for ext in extensions() + list(self.extra_extensions):
            await self.load_extension(ext)

    async def setup_hook(self) -> None:
        await self.prepare()
        resumed = await self.tables.resume()
        log.info("resumed %d open game(s)", resumed)
        if self.sync_on_start:
            await self.sync_commands()
        if getattr(self.settings, "freeze_boot_heap", False):
            # What is alive now (modules, discord.py's state, the cogs) lives as long as the
            # process: taken out of the garbage collector's view, a full collection no longer
            # walks it, which under load was a pause of 100-250 ms in every few hundred moves.
            gc.collect()
            gc.freeze()
            # A full collection walks every game, card and cache the bot holds since: under
            # load it came every ~250 moves and took ~40 ms (0.23 ms a move, bench/load.py).
            # After 100 collections of the middle generation instead of 10, it comes ten times
            # more rarely; the young generations are collected as before.
            young, middle, _ = gc.get_threshold()
            gc.set_threshold(young, middle, FULL_COLLECTION_AFTER)

    def tree_payload(self) -> list[dict]:
        return [c.to_dict(self.tree) for c in self.tree.get_commands()]

    async def sync_commands(self) -> str:
        """Sync to the dev guild at once when set; globally only when the tree changed."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            return "guild"
        digest = hashlib.sha256(json.dumps(self.tree_payload(), sort_keys=True)
                                .encode()).hexdigest()
        if await self.store.meta_get(TREE_HASH_KEY) == digest:
            return "unchanged"
        await self.tree.sync()
        await self.store.meta_set(TREE_HASH_KEY, digest)
        return "global"

    async def close(self) -> None:
        tables = getattr(self, "tables", None)
        if tables is not None:
            await tables.close()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        if self._render_pool:
            rendering.shutdown_processes()
            self._render_pool = False


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """RefereeBot on several shards. Games live in the database, not in a shard's cache, so a
    move, a DM or a button is served by whichever process receives it, and publishing goes
    through REST (channels are fetched when this process's cache does not hold them)."""


async def command_tree_bot() -> RefereeBot:
    """A bot with every cog's commands registered, for offline inspection (no login)."""
    from pathlib import Path
    bot = RefereeBot(Settings("", Path(":memory:"), None, "INFO", 3600), sync_commands=False)
    await bot.prepare()
    return bot


__all__ = ["RefereeBot", "ShardedRefereeBot", "extensions", "app_commands"]
