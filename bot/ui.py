"""Buttons and selects that outlive the process, and the one way errors reach a user.

Every component is a `DynamicItem` whose custom_id carries what it needs (game id, state
version, the move), so a button sent before a restart still works after it. Callbacks only
parse and delegate: the game's cog (through the table) decides what happens.
"""
from __future__ import annotations

import logging
import re
import secrets
from typing import Any, Awaitable, Callable

import discord
from discord import app_commands

from .engine.core import RuleError

log = logging.getLogger("bot.errors")

CUSTOM_ID_MAX = 100


def error_ref() -> str:
    return secrets.token_hex(3).upper()


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction whether or not it was answered (deferred) already."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Rule errors: the rule's own words, privately. Anything else: a reference the host can
    find in the log, and never the exception text (it could hold another player's secret)."""
    original = getattr(error, "original", None) or error
    if isinstance(original, RuleError):
        text = f"❌ {original.message}"
    elif isinstance(error, app_commands.CheckFailure) and str(error):
        text = f"❌ {error}"
    elif isinstance(error, app_commands.CommandOnCooldown):
        text = f"❌ Slow down: try again in {error.retry_after:.0f} s."
    else:
        ref = error_ref()
        log.error("unexpected error (ref %s) in %s", ref, where(interaction), exc_info=original)
        text = (f"Something went wrong on our side (ref {ref}). The game is safe: look in the "
                "game thread to see whether your action went through.")
    try:
        await reply(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message to %s", interaction.user.id)


def where(interaction: discord.Interaction) -> str:
    """What was used, for the log, without what was chosen: a component's custom_id and values
    can hold a secret move, so only its kind and game id are kept."""
    command = getattr(interaction.command, "qualified_name", None)
    if command:
        return f"/{command}"
    custom_id = str((interaction.data or {}).get("custom_id", "?"))
    return "component " + ":".join(custom_id.split(":")[:2])


async def on_tree_error(interaction: discord.Interaction,
                        error: app_commands.AppCommandError) -> None:
    await report_error(interaction, error)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[Any]]) -> None:
    try:
        await work()
    except Exception as e:  # every component error ends as a reply, never a silent failure
        await report_error(interaction, e)


def _client_cog(interaction: discord.Interaction, name: str) -> Any:
    cog = interaction.client.get_cog(name)  # type: ignore[union-attr]
    if cog is None:
        raise RuleError("That part of the bot is not loaded right now; try again later.")
    return cog


async def _game_cog(interaction: discord.Interaction, game_id: int) -> Any:
    bot = interaction.client
    row = await bot.store.get_game(game_id)  # type: ignore[attr-defined]
    if row is None:
        raise RuleError(f"There is no game #{game_id}.")
    cog = bot.game_cogs.get(row.kind)  # type: ignore[attr-defined]
    if cog is None:
        raise RuleError("That game is not available right now; try again later.")
    return cog


def game_cog(interaction: discord.Interaction, kind: str, name: str = "That game") -> Any:
    """The loaded cog of the game `kind`; `name` says which game in the refusal when it is not
    loaded."""
    cog = getattr(interaction.client, "game_cogs", {}).get(kind)
    if cog is None:
        raise RuleError(f"{name} is not available right now; try again later.")
    return cog


def parse_version(text: str) -> int | str:
    """A custom_id's version: `p<n>` (a secret panel's) stays a string, else the game's int."""
    return text if text.startswith("p") else int(text)


def selected(interaction: discord.Interaction) -> list[str]:
    """The values picked in a select."""
    return (interaction.data or {}).get("values") or []


def first_selected(interaction: discord.Interaction, refusal: str) -> str:
    """The value picked in a single-choice select; RuleError(`refusal`) when there is none."""
    values = selected(interaction)
    if not values:
        raise RuleError(refusal)
    return values[0]


def move_id(game_id: int, version: int | str, move: str) -> str:
    cid = f"mv:{game_id}:{version}:{move}"
    if len(cid) > CUSTOM_ID_MAX:
        raise ValueError(f"move too long for a button: {move!r}")
    return cid


class MoveButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"mv:(?P<gid>\d+):(?P<ver>p?\d+):(?P<move>.+)"):
    """A move in one click: `mv:<game>:<version>:<move notation>` (version `p<n>` on a
    secret panel: see Tables._check_version)."""

    def __init__(self, game_id: int, version: int | str, move: str, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 emoji: str | None = None):
        self.game_id, self.version, self.move = game_id, version, move
        super().__init__(discord.ui.Button(label=(label or move)[:80], style=style, emoji=emoji,
                                           custom_id=move_id(game_id, version, move)))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), parse_version(match["ver"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            cog = await _game_cog(interaction, self.game_id)
            await cog.on_move_component(interaction, self.game_id, self.version, self.move)
        await guarded(interaction, work)


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"ms:(?P<gid>\d+):(?P<ver>p?\d+)(?::(?P<tag>[a-z0-9]+))?"):
    """Pick one move from a list: the option values are move notations. `tag` tells several
    selects on one message apart (slides and slams, the squares of a placement...)."""

    def __init__(self, game_id: int, version: int | str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "Choose your move", *, tag: str | None = None):
        self.game_id, self.version, self.tag = game_id, version, tag
        options = options or [discord.SelectOption(label="-", value="-")]
        custom_id = f"ms:{game_id}:{version}" + (f":{tag}" if tag else "")
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder[:150],
                                           options=options[:25]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), parse_version(match["ver"]), tag=match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            move = first_selected(interaction, "Pick a move from the list.")
            cog = await _game_cog(interaction, self.game_id)
            await cog.on_move_component(interaction, self.game_id, self.version, move)
        await guarded(interaction, work)


class TypeMoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tm:(?P<gid>\d+)"):
    """The text fallback: opens a form where the move is typed in the game's notation."""

    def __init__(self, game_id: int):
        self.game_id = game_id
        super().__init__(discord.ui.Button(label="Type a move", emoji="⌨️",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tm:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            cog = await _game_cog(interaction, self.game_id)
            await interaction.response.send_modal(MoveModal(cog, self.game_id))
        await guarded(interaction, work)


class MoveModal(discord.ui.Modal, title="Your move"):
    move = discord.ui.TextInput(label="Move (in the game's notation)", max_length=200,
                                placeholder="e.g. slide b2 b5")

    def __init__(self, cog: Any, game_id: int):
        super().__init__()
        self.cog, self.game_id = cog, game_id

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.cog.on_move_component(
            interaction, self.game_id, None, str(self.move.value)))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pn:(?P<gid>\d+)"):
    """'Open my secret panel': the ephemeral stand-in for a DM the player cannot receive."""

    def __init__(self, game_id: int):
        self.game_id = game_id
        super().__init__(discord.ui.Button(label="Open my secret panel", emoji="🔒",
                                           style=discord.ButtonStyle.success,
                                           custom_id=f"pn:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            cog = await _game_cog(interaction, self.game_id)
            await cog.open_panel(interaction, self.game_id)
        await guarded(interaction, work)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"vt:(?P<gid>\d+):(?P<topic>[\w-]+):(?P<choice>[\w-]+)"):
    """One crowd vote: `vt:<game>:<topic>:<choice>`."""

    def __init__(self, game_id: int, topic: str, choice: str, label: str | None = None):
        self.game_id, self.topic, self.choice = game_id, topic, choice
        super().__init__(discord.ui.Button(label=(label or choice)[:80], emoji="🗳️",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"vt:{game_id}:{topic}:{choice}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), match["topic"], match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            cog = await _game_cog(interaction, self.game_id)
            await cog.on_vote(interaction, self.game_id, self.topic, self.choice)
        await guarded(interaction, work)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"ch:(?P<cid>\d+):(?P<action>accept|decline|cancel|join|leave|start)"):
    """Answers to a challenge or an open table."""

    STYLES = {"accept": discord.ButtonStyle.success, "join": discord.ButtonStyle.success,
              "start": discord.ButtonStyle.primary, "decline": discord.ButtonStyle.danger,
              "cancel": discord.ButtonStyle.secondary, "leave": discord.ButtonStyle.secondary}

    def __init__(self, cid: int, action: str):
        self.cid, self.action = cid, action
        super().__init__(discord.ui.Button(label=action.capitalize(), style=self.STYLES[action],
                                           custom_id=f"ch:{cid}:{action}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["cid"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            lobby = _client_cog(interaction, "Games")
            await lobby.on_challenge_button(interaction, self.cid, self.action)
        await guarded(interaction, work)


class RulesPageButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"rl:(?P<kind>\w+):(?P<page>\d+):(?P<dir>prev|next)"):
    """Paging through a game's rules (ephemeral, so each reader pages alone)."""

    def __init__(self, kind: str, page: int, direction: str, disabled: bool = False):
        self.kind, self.page, self.direction = kind, page, direction
        super().__init__(discord.ui.Button(
            label="◀ Previous" if direction == "prev" else "Next ▶", disabled=disabled,
            style=discord.ButtonStyle.secondary, custom_id=f"rl:{kind}:{page}:{direction}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(match["kind"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            lobby = _client_cog(interaction, "Games")
            target = self.page - 1 if self.direction == "prev" else self.page + 1
            await lobby.show_rules(interaction, self.kind, target, edit=True)
        await guarded(interaction, work)


DYNAMIC_ITEMS = (MoveButton, MoveSelect, TypeMoveButton, PanelButton, VoteButton,
                 ChallengeButton, RulesPageButton)


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    """A view for sending dynamic items (timeout=None: they live on after the view object)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
