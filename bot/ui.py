"""Buttons and selects that outlive the process, and the one way errors reach a user.

Every component is a `DynamicItem` whose custom_id carries what it needs (game id, state
version, the move), so a button sent before a restart still works after it. Callbacks only
parse and delegate: the game's cog (through the table) decides what happens.
"""
from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import discord
from discord import app_commands

from .engine.core import RuleError

log = logging.getLogger("bot.errors")

CUSTOM_ID_MAX = 100


def error_ref() -> str:
    return secrets.token_hex(3).upper()


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, wait: bool = False, **kwargs: Any) -> Any:
    """Answer an interaction whether or not it was answered (deferred) already. With `wait`,
    the message sent (None when Discord did not say which)."""
    if interaction.response.is_done():
        return await interaction.followup.send(content, ephemeral=ephemeral, wait=wait,
                                               **kwargs)
    answer = await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
    return getattr(answer, "resource", None) if wait else None


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
    kind = await bot.store.kind_of(game_id)  # type: ignore[attr-defined]
    if kind is None:
        raise RuleError(f"There is no game #{game_id}.")
    cog = bot.game_cogs.get(kind)  # type: ignore[attr-defined]
    if cog is None:
        raise RuleError("That game is not available right now; try again later.")
    return cog


def game_cog(interaction: discord.Interaction, kind: str, name: str = "That game") -> Any:
    """The loaded cog of the game `kind`; `name` says which game in the refusal when it is not
    loaded."""
    cog = interaction.client.game_cogs.get(kind)  # type: ignore[attr-defined]
    if cog is None:
        raise RuleError(f"{name} is not available right now; try again later.")
    return cog


def selected(interaction: discord.Interaction) -> list[str]:
    """The values picked in a select."""
    return (interaction.data or {}).get("values") or []


def first_selected(interaction: discord.Interaction, refusal: str) -> str:
    """The value picked in a single-choice select; RuleError(`refusal`) when there is none."""
    values = selected(interaction)
    if not values:
        raise RuleError(refusal)
    return values[0]


# --- one persistent component family for every game ----------------------------------------------

# `g:<game>:<version>:<tag>[:<arg>]`. The game id is capped at 18 digits (it always fits a
# 64-bit row id), the version is the game's (`5`), a secret panel's (`p3`) or none (`-`), the
# tag names what the component does, and the arg carries its detail (a move, a vote).
GAME_ID = re.compile(r"g:(?P<gid>[0-9]{1,18}):(?P<ver>p?[0-9]{1,9}|-):(?P<tag>[a-z][a-z0-9]{0,11})"
                     r"(?::(?P<arg>[^\n]{0,80}))?")
# Ids sent by earlier versions of the bot (mv, ms, tm, pn, vt), still answered after an update.
LEGACY_ID = re.compile(r"(?P<tag>mv|ms|tm|pn|vt):(?P<gid>[0-9]{1,18})"
                       r"(?::(?P<ver>p?[0-9]{1,9}))?(?::(?P<arg>[^\n]{0,80}))?")


@dataclass(frozen=True)
class ComponentCall:
    """A pressed button or a made selection, as the game's cog receives it."""

    game_id: int
    version: int | str | None
    tag: str
    arg: str = ""
    values: tuple[str, ...] = ()

    @property
    def value(self) -> str:
        """The single value picked; RuleError when nothing was picked."""
        if not self.values:
            raise RuleError("Pick one entry from the list.")
        return self.values[0]


def component_id(game_id: int, version: int | str | None, tag: str, arg: str = "") -> str:
    cid = f"g:{game_id}:{'-' if version is None else version}:{tag}" + (f":{arg}" if arg else "")
    if len(cid) > CUSTOM_ID_MAX or not GAME_ID.fullmatch(cid):
        raise ValueError(f"not a component id: {cid!r}")
    return cid


def parse_version(text: str | None) -> int | str | None:
    """A custom_id's version: `p<n>` (a secret panel's) stays a string, `-` is none, else the
    game's int."""
    if text is None or text == "-":
        return None
    return text if text.startswith("p") else int(text)


class GameItem(discord.ui.DynamicItem[discord.ui.Item], template=GAME_ID):
    """Every game component: a button or a select whose custom_id says which game, which
    moment (version) and what it does (tag, arg). The callback only parses and hands the call
    to the game's cog (`GameCog.on_component`), which decides with the table."""

    def __init__(self, item: discord.ui.Item, call: ComponentCall):
        self.call = call
        super().__init__(item)

    @classmethod
    def button(cls, game_id: int, version: int | str | None, tag: str, arg: str = "", *,
               label: str, style: discord.ButtonStyle = discord.ButtonStyle.primary,
               emoji: str | None = None, disabled: bool = False,
               row: int | None = None) -> "GameItem":
        button = discord.ui.Button(label=label[:80], style=style, emoji=emoji, disabled=disabled,
                                   custom_id=component_id(game_id, version, tag, arg), row=row)
        return cls(button, ComponentCall(game_id, version, tag, arg))

    @classmethod
    def select(cls, game_id: int, version: int | str | None, tag: str,
               options: list[discord.SelectOption], *, placeholder: str = "Choose",
               arg: str = "", min_values: int = 1, max_values: int = 1,
               row: int | None = None) -> "GameItem":
        options = options[:25] or [discord.SelectOption(label="-", value="-")]
        select = discord.ui.Select(custom_id=component_id(game_id, version, tag, arg),
                                   placeholder=placeholder[:150], options=options,
                                   min_values=min(min_values, len(options)),
                                   max_values=min(max_values, len(options)), row=row)
        return cls(select, ComponentCall(game_id, version, tag, arg))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(item, ComponentCall(int(match["gid"]), parse_version(match["ver"]),
                                       match["tag"], match["arg"] or ""))

    async def callback(self, interaction: discord.Interaction) -> None:
        call = ComponentCall(self.call.game_id, self.call.version, self.call.tag, self.call.arg,
                             tuple(selected(interaction)))
        await guarded(interaction, lambda: _dispatch(interaction, call))


class LegacyGameItem(GameItem, template=LEGACY_ID):
    """Buttons posted before the one-family ids (`mv:`, `ms:`, ...): read into the same call."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        tag, arg = match["tag"], match["arg"] or ""
        if tag == "ms":
            arg = ""  # the old select tag only told selects apart
        return cls(item, ComponentCall(int(match["gid"]), parse_version(match["ver"]), tag,
                                       arg))


async def _dispatch(interaction: discord.Interaction, call: ComponentCall) -> None:
    cog = await _game_cog(interaction, call.game_id)
    await cog.on_component(interaction, call)


def MoveButton(game_id: int, version: int | str | None, move: str, label: str | None = None,
               style: discord.ButtonStyle = discord.ButtonStyle.primary,
               emoji: str | None = None) -> GameItem:
    """A move in one click (version `p<n>` on a secret panel: see Tables.check_version)."""
    return GameItem.button(game_id, version, "mv", move, label=label or move, style=style,
                           emoji=emoji)


def MoveSelect(game_id: int, version: int | str | None,
               options: list[discord.SelectOption] | None = None,
               placeholder: str = "Choose your move", *, tag: str | None = None) -> GameItem:
    """Pick one move from a list: the option values are move notations. `tag` tells several
    selects on one message apart (slides and slams, the squares of a placement...)."""
    return GameItem.select(game_id, version, "ms", list(options or []), placeholder=placeholder,
                           arg=tag or "")


def TypeMoveButton(game_id: int) -> GameItem:
    """The text fallback: opens a form where the move is typed in the game's notation."""
    return GameItem.button(game_id, None, "tm", label="Type a move", emoji="⌨️",
                           style=discord.ButtonStyle.secondary)


def PanelButton(game_id: int) -> GameItem:
    """'Open my secret panel': the ephemeral stand-in for a DM the player cannot receive."""
    return GameItem.button(game_id, None, "pn", label="Open my secret panel", emoji="🔒",
                           style=discord.ButtonStyle.success)


def ClaimTimeoutButton(game_id: int) -> GameItem:
    """Where nothing is posted unprompted (bot/place.py), anyone may end a turn whose time ran
    out: the late player's default move, or their forfeit, is made then."""
    return GameItem.button(game_id, None, "ct", label="Claim timeout", emoji="⏰",
                           style=discord.ButtonStyle.secondary)


def VoteButton(game_id: int, topic: str, choice: str, label: str | None = None) -> GameItem:
    """One crowd vote on `topic`."""
    return GameItem.button(game_id, None, "vt", f"{topic}:{choice}", label=label or choice,
                           emoji="🗳️", style=discord.ButtonStyle.secondary)


class MoveModal(discord.ui.Modal, title="Your move"):
    move = discord.ui.TextInput(label="Move (in the game's notation)", max_length=200)

    def __init__(self, cog: Any, game_id: int, example: str = ""):
        super().__init__()
        self.cog, self.game_id = cog, game_id
        if example:
            self.move.placeholder = f"e.g. {example}"[:100]

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.cog.on_move_component(
            interaction, self.game_id, None, str(self.move.value)))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"ch:(?P<cid>[0-9]{1,18}):(?P<action>accept|decline|cancel|join|leave|start)"):
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
            await interaction.client.lobby.on_button(interaction, self.cid, self.action)
        await guarded(interaction, work)


class RulesPageButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"rl:(?P<kind>[a-z]{1,20}):(?P<page>[0-9]{1,3}):(?P<dir>prev|next)"):
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


DYNAMIC_ITEMS = (GameItem, LegacyGameItem, ChallengeButton, RulesPageButton)


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    """A view for sending dynamic items (timeout=None: they live on after the view object)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
