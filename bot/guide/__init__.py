"""How to play, written for Discord: one Markdown file per game (package data, so an installed
bot has it too) and the general `/help` page.

A game's file is a list of pages separated by a line `---`, each short enough for one message
(no tables, no file paths). Page 1 is the game's help: its first line is the goal ("🎯
**Goal:** ..."), its second what to do first; then how a turn goes and the buttons and
commands. The referee's own rulings are marked ⚖️ so players can tell them from the rulebook.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

PAGE_BREAK = "---"
FIRST_STEPS = "**What to do first:**"


@lru_cache(maxsize=None)
def _text(name: str) -> str | None:
    try:
        return (resources.files(__name__) / f"{name}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError, ValueError):
        return None


def has_guide(kind: str) -> bool:
    return kind.isidentifier() and _text(kind) is not None


def pages(kind: str) -> list[str]:
    """The game's rules pages, in order (empty when the game has no guide)."""
    text = _text(kind) if kind.isidentifier() else None
    if text is None:
        return []
    out, page = [], []
    for line in text.splitlines():
        if line.strip() == PAGE_BREAK:
            out.append("\n".join(page).strip())
            page = []
        else:
            page.append(line)
    out.append("\n".join(page).strip())
    return [p for p in out if p]


def goal(kind: str) -> str:
    """How to win, in one line ("🎯 **Goal:** ..."); "" for a game without a guide."""
    first = pages(kind)[:1]
    return first[0].splitlines()[0] if first else ""


def first_steps(kind: str) -> str:
    """What a new player does first, in one line; "" for a game without a guide."""
    first = pages(kind)[:1]
    for line in first[0].splitlines() if first else []:
        if line.startswith(FIRST_STEPS):
            return line
    return ""


def game_help(kind: str) -> str:
    """`/help game:<kind>`: the goal, what to do first, a turn, the buttons and commands."""
    first = pages(kind)[:1]
    return first[0] if first else ""


def general_help() -> str:
    """`/help`: what the bot does, how to start, play and learn a game."""
    return (_text("help") or "").strip()
