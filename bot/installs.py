"""Where the referee's commands work (issue #24): install types and interaction contexts.

Discord offers an application two ways in: added to a server (guild install, integration type
0: today's bot, a member of the server) and added to a person's account (user install, type 1:
the bot is a member of nothing; the person can use its commands in any server, in a group DM,
in a DM with a friend). A command also says where it can be typed: in a server (context 0), in
the DM with the bot (1), in other DMs and group DMs (2, "private channels").

Discord keeps both per TOP-LEVEL command only: a subcommand has no places of its own in the
synced payload. So, in one place:

* EVERYWHERE (the tree's defaults, set by bot/app.py): both installs, all three contexts. Every
  player command inherits it: challenge, practice, board, move, panel, help, rules, profile, ...
* `guild_install_only()`: a subcommand that needs a server which added the referee (its admin
  settings, its moderators). Marked with discord.py's own attributes, so `python -m bot
  commands` lists it as such, and refused at run time by a check, since Discord cannot.

`command_places(tree)` lists every command with where it works, for `bot/validate.py`.
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

import discord
from discord import app_commands

T = TypeVar("T")

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2


def everywhere_installs() -> app_commands.AppInstallationType:
    """The tree's default: installed to a server or to a person's account."""
    return app_commands.AppInstallationType(guild=True, user=True)


def everywhere_contexts() -> app_commands.AppCommandContext:
    """The tree's default: in servers, in the DM with the bot, in other DMs and group DMs."""
    return app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


NOT_HERE = ("This command works only in a server that added the referee (its moderators "
            "and settings live there), not through an app installed to your account.")


def in_guild_install(interaction: discord.Interaction) -> bool:
    """Typed in a server that added the referee (guild install), whoever else installed it."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def guild_install_only() -> Callable[[T], T]:
    """Guild install, server context only, for a command or subcommand: declared with
    discord.py's `allowed_installs`/`allowed_contexts` (every field explicit, so the tree's
    defaults cannot widen it when merged) and enforced by a check, because Discord applies
    places to top-level commands only."""
    installs = app_commands.allowed_installs(guilds=True, users=False)
    contexts = app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)

    def predicate(interaction: discord.Interaction) -> bool:
        if not in_guild_install(interaction):
            raise app_commands.CheckFailure(NOT_HERE)
        return True
    checked = app_commands.check(predicate)

    def decorate(command: T) -> T:
        command = checked(contexts(installs(command)))
        target = getattr(command, "callback", command)
        target.__referee_guild_install_only__ = True  # type: ignore[attr-defined]
        return command
    return decorate


def _merge(base: Any, *overrides: Any) -> Any:
    for over in overrides:
        if over is not None:
            base = base.merge(over)
    return base


def command_places(tree: app_commands.CommandTree) -> list[dict[str, Any]]:
    """Every slash command and subcommand with the installs and contexts it works in: the
    tree's defaults, overridden by its top-level command, its group and itself (as discord.py
    merges them). `synced` is what Discord enforces (the top-level command's places);
    `checked` says the referee refuses at run time where the command is narrower than that."""
    out: list[dict[str, Any]] = []

    def walk(node: Any, chain: list[Any], top: dict[str, Any] | None) -> None:
        chain = chain + [node]
        installs = _merge(tree.allowed_installs, *(n.allowed_installs for n in chain))
        contexts = _merge(tree.allowed_contexts, *(n.allowed_contexts for n in chain))
        entry = {"command": "/" + node.qualified_name,
                 "integration_types": installs.to_array(), "contexts": contexts.to_array(),
                 "guild_install_only": bool(getattr(getattr(node, "callback", None),
                                                    "__referee_guild_install_only__", False)),
                 "default_member_permissions": None if node.default_permissions is None
                 else str(node.default_permissions.value)}
        top = top or entry
        entry["synced"] = {k: top[k] for k in ("integration_types", "contexts")}
        entry["checked"] = any(getattr(c, "__qualname__", "").startswith("guild_install_only.")
                               for c in getattr(node, "checks", []))
        out.append(entry)
        for child in getattr(node, "commands", []):
            walk(child, chain, top)

    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        walk(command, [], None)
    return out


def describe_places(entry: dict[str, Any]) -> str:
    """One line for a person: `/games rating: guild install; server`."""
    installs = {GUILD_INSTALL: "guild install", USER_INSTALL: "user install"}
    contexts = {GUILD: "server", BOT_DM: "bot DM", PRIVATE_CHANNEL: "DMs and group DMs"}
    text = (f"{entry['command']}: " + " + ".join(installs[i] for i in entry["integration_types"])
            + "; " + ", ".join(contexts[c] for c in entry["contexts"]))
    if entry["guild_install_only"]:
        text += " (guild-install only" + (", checked by the referee)" if entry["checked"]
                                           else ")")
    return text
