"""Shared fixtures: a real RefereeBot on a real SQLite file, behind the offline fake Discord."""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
import pytest_asyncio

from bot.app import RefereeBot
from bot.config import Settings
from fakediscord import FakeDiscord, start_bot

# Errors logged by our own code count as failures too (a swallowed publish error, a timer crash).
LOUD = ("discord", "bot", "cogs")


def make_settings(db: Path, **over) -> Settings:
    base = dict(token="fake-token", database_path=db, dev_guild_id=None, log_level="INFO",
                turn_timer=3600, practice_delay=0,  # tests never wait for a bot to "think"
                clicks_per_second=0)  # and click at machine speed, not a person's
    base.update(over)
    return Settings(**base)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "referee.db"


async def boot(db: Path, fake: FakeDiscord | None = None, **settings) -> FakeDiscord:
    bot = RefereeBot(make_settings(db, **settings), extra_extensions=("coin_cog", "take_cog"))
    fake = fake or FakeDiscord(loud_loggers=LOUD)
    return await start_bot(bot, fake)


@pytest_asyncio.fixture
async def fake(db_path: Path):
    f = await boot(db_path)
    try:
        yield f
    finally:
        await f.stop()


class World:
    def __init__(self, fake: FakeDiscord):
        self.guild = fake.add_guild("Dice Hall")
        self.alice, self.bob, self.carol = (self.guild.add_member(fake.add_user(n))
                                            for n in ("alice", "bob", "carol"))
        self.games = self.guild.add_text_channel("games")
        self.secret_room = self.guild.add_text_channel("staff", hidden_from=[self.carol])
        self.robot = self.guild.add_member(fake.add_user("robot", bot=True))


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    return World(fake)


BROKEN_RENDERER = "the renderer is broken"


def break_renderer(fake: FakeDiscord, monkeypatch, kind: str, *names: str) -> list[str]:
    """Make the `kind` cog's render functions `names` raise: the cog sends text only and logs
    each failure (GameCog.draw, at ERROR). Those expected errors are taken out of `fake.errors`
    at every check and collected in the returned list; any other error still fails the test."""
    module = sys.modules[type(fake.bot.game_cogs[kind]).__module__]

    def boom(*args, **kwargs):
        raise RuntimeError(BROKEN_RENDERER)

    for name in names:
        monkeypatch.setattr(module, name, boom)
    failures: list[str] = []
    check = fake.check

    def check_all_but_the_pictures() -> None:
        expected = [e for e in fake.errors
                    if "game picture boom failed; sending text only" in e and BROKEN_RENDERER in e]
        failures.extend(expected)
        fake.errors[:] = [e for e in fake.errors if e not in expected]
        check()

    monkeypatch.setattr(fake, "check", check_all_but_the_pictures)
    return failures


@pytest.fixture(autouse=True)
def _quiet_hypothesis_logs():
    logging.getLogger("hypothesis").setLevel(logging.WARNING)
