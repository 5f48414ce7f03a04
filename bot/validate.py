"""Discord's documented limits on application commands, checked before anything is synced.

Used by `python -m bot commands` and the tests, so a command that Discord would reject fails
here, offline, naming the command and the limit.
"""
from __future__ import annotations

import unicodedata
from typing import Any

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
CHAT_INPUT = 1
MAX_TOP_LEVEL = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARS = 8000
INTEGRATION_TYPES = {0, 1}  # guild install, user install
CONTEXTS = {0, 1, 2}  # server, the bot's DM, other DMs and group DMs ("private channels")


def _name_ok(name: str) -> bool:
    return (1 <= len(name) <= 32 and name == name.lower() and all(
        ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name))


def _chars(node: dict[str, Any]) -> int:
    """Characters that count toward the 8,000 limit: names, descriptions, choices, nested."""
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for opt in node.get("options") or []:
        total += _chars(opt)
    return total


def _check_named(where: str, node: dict[str, Any], seen: set[str], what: str,
                 problems: list[str]) -> None:
    """The rules a command and an option share: a unique, well-formed name and a description."""
    name = node.get("name", "")
    if name in seen:
        problems.append(f"{where}: duplicate {what} name")
    seen.add(name)
    if not _name_ok(name):
        problems.append(f"{where}: name must be 1-32 lowercase letters, digits, - or _")
    desc = node.get("description", "")
    if not 1 <= len(desc) <= 100:
        problems.append(f"{where}: description must be 1-100 characters ({len(desc)})")


def _check_options(path: str, options: list[dict[str, Any]], problems: list[str],
                   depth: int) -> None:
    if len(options) > MAX_OPTIONS:
        problems.append(f"{path}: {len(options)} options (at most {MAX_OPTIONS})")
    kinds = {o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options}
    if len(kinds) > 1:
        problems.append(f"{path}: subcommands mixed with plain options")
    seen_optional = False
    names: set[str] = set()
    for opt in options:
        where = f"{path} {opt.get('name', '')}"
        _check_named(where, opt, names, "option", problems)
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{where}: {len(choices)} choices (at most {MAX_CHOICES})")
        for c in choices:
            if not 1 <= len(str(c.get("name", ""))) <= 100:
                problems.append(f"{where}: choice name must be 1-100 characters")
        if opt.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if opt.get("type") == SUB_COMMAND_GROUP and depth >= 1:
                problems.append(f"{where}: subcommand groups cannot nest")
            _check_options(where, opt.get("options") or [], problems, depth + 1)
        else:
            if opt.get("required"):
                if seen_optional:
                    problems.append(f"{where}: required option after an optional one")
            else:
                seen_optional = True


def validate(commands: list[dict[str, Any]]) -> list[str]:
    """Every violation of Discord's limits, as readable lines (empty: all good)."""
    problems: list[str] = []
    slash = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(slash) > MAX_TOP_LEVEL:
        problems.append(f"{len(slash)} top-level slash commands (at most {MAX_TOP_LEVEL})")
    names: set[str] = set()
    for cmd in slash:
        path = f"/{cmd.get('name', '')}"
        _check_named(path, cmd, names, "command", problems)
        _check_options(path, cmd.get("options") or [], problems, 0)
        chars = _chars(cmd)
        if chars > MAX_COMMAND_CHARS:
            problems.append(f"{path}: {chars} characters (at most {MAX_COMMAND_CHARS})")
        _check_places(path, cmd, problems)
    return problems


def _places_of(path: str, node: dict[str, Any], problems: list[str]) -> bool:
    """Both lists present, non-empty, and only values Discord knows."""
    ok = True
    for key, known in (("integration_types", INTEGRATION_TYPES), ("contexts", CONTEXTS)):
        values = node.get(key)
        if not values:  # None or missing: Discord would fall back to its defaults, unsaid
            problems.append(f"{path}: no {key} (say where the command works)")
            ok = False
        elif not set(values) <= known or len(set(values)) != len(values):
            problems.append(f"{path}: {key} {values} (each once, from {sorted(known)})")
            ok = False
    return ok


def _check_places(path: str, cmd: dict[str, Any], problems: list[str]) -> None:
    """Issue #24: a top-level command says which installs and contexts it works in; one that
    needs member permissions only makes sense where the referee was added to a server."""
    if not _places_of(path, cmd, problems):
        return
    if cmd.get("default_member_permissions") is not None and (
            set(cmd["integration_types"]) != {0} or set(cmd["contexts"]) != {0}):
        problems.append(f"{path}: needs member permissions, so guild install and server "
                        "context only (integration_types [0], contexts [0])")


def validate_places(places: list[dict[str, Any]]) -> list[str]:
    """Every command and subcommand's places (bot/installs.command_places): Discord enforces
    only the top-level command's, so a subcommand narrower than that must be checked by the
    referee, and a subcommand that needs member permissions or is marked guild-install only
    must be exactly guild install, server context."""
    problems: list[str] = []
    for entry in places:
        path = entry["command"]
        if not _places_of(path, entry, problems):
            continue
        own = (set(entry["integration_types"]), set(entry["contexts"]))
        synced = (set(entry["synced"]["integration_types"]), set(entry["synced"]["contexts"]))
        if not (own[0] <= synced[0] and own[1] <= synced[1]):
            problems.append(f"{path}: works in more places than its top-level command, which "
                            "Discord does not offer there")
        elif own != synced and not entry.get("checked"):
            problems.append(f"{path}: narrower than its top-level command but nothing refuses "
                            "it elsewhere (Discord keeps places per top-level command only)")
        if (entry.get("guild_install_only") or entry.get("default_member_permissions")) \
                and own != ({0}, {0}):
            problems.append(f"{path}: guild-install only (member permissions or server "
                            "settings): integration_types [0], contexts [0]")
    return problems
