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
    return problems
