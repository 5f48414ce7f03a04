"""#27.14: a newcomer's README: a line and a picture per game, what is stored and for how
long, and a licence."""
from __future__ import annotations

import re
from pathlib import Path

from bot.engine import KINDS, load

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    return README.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_every_game_has_a_line_and_a_picture_that_exists():
    games = section("The games")
    for kind in KINDS:
        row = next((line for line in games.splitlines() if f"`/{kind}`" in line), None)
        assert row is not None, f"no line for {kind}"
        cls = load(kind)
        count = (f"{cls.MIN_PLAYERS}" if cls.MIN_PLAYERS == cls.MAX_PLAYERS
                 else f"{cls.MIN_PLAYERS}–{cls.MAX_PLAYERS}")
        assert f"| {count}" in row, f"{kind}: the players column should say {count}"
        [picture] = re.findall(r'src="([^"]+)"', row)
        assert (ROOT / picture).is_file() and picture.startswith(f"docs/pictures/{kind}/")
        assert 'alt="' in row


def test_the_readme_says_what_is_stored_and_for_how_long():
    data = section("What the bot stores, and for how long")
    for what in ("games", "records", "stats", "votes", "business cards", "challenges"):
        assert what in data, what
    assert "deleted a day after" in data


def test_there_is_an_mit_licence():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 Dice Referee contributors" in text
    assert "[LICENSE](LICENSE)" in README
