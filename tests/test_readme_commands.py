"""#27.12: every slash command README.md names exists in the command tree the bot registers
(`python -m bot commands`), with its subcommands: a newcomer who types what the README says
finds it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import _tree
from bot.engine import KINDS

README = Path(__file__).resolve().parent.parent / "README.md"
SUB = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP
WORD = re.compile(r"^[a-z0-9_-]+$")


def named_commands(text: str) -> list[list[str]]:
    """Each `/command sub ...` in backticks, as its words (up to the first option, `[...]`,
    `<...>` or `|`); `/<game>` stands for every game's command."""
    found = []
    for code in re.findall(r"`(/[^`\n]+)`", text):
        words = code[1:].split()
        path = [words[0]]
        for w in words[1:]:
            if not WORD.match(w):
                break
            path.append(w)
        if path[0] == "<game>":
            found += [[kind] + path[1:] for kind in KINDS]
        else:
            found.append(path)
    return found


def missing(tree: list[dict], path: list[str]) -> str | None:
    """Why `path` is not a command in `tree` (None: it is)."""
    node = {"options": tree, "type": 0}
    for i, word in enumerate(path):
        children = [o for o in node.get("options", []) if (i == 0 or o["type"] in SUB)]
        match = [c for c in children if c["name"] == word]
        if not match:
            have = ", ".join(sorted(c["name"] for c in children)) or "no subcommands"
            return f"/{' '.join(path)}: no {word!r} (there is: {have})"
        node = match[0]
    return None  # a group alone (`/games`) names the whole family


@pytest.fixture(scope="module")
def tree():
    import asyncio
    return asyncio.run(_tree())


def test_the_readme_names_commands():
    named = named_commands(README.read_text())
    assert ["games", "export"] in named and ["slideslam", "challenge"] in named


def test_every_command_the_readme_names_exists(tree):
    named = named_commands(README.read_text())
    problems = sorted({p for path in named if (p := missing(tree, path))})
    assert not problems, "README.md names commands that do not exist:\n" + "\n".join(problems)


def test_a_wrong_name_is_caught(tree):
    """The check itself: the README's old mistakes are found."""
    for wrong in ("`/<game> open`", "`/<game> move`", "`/tradeshowdown card deal`"):
        assert any(missing(tree, p) for p in named_commands(wrong)), wrong
