"""Logging set-up that is safe at every level: a referee's log never holds a game's secrets.

At DEBUG, libraries log what passes through them: aiosqlite each SQL call with its values
(the game seeds, which predict every roll; secret moves; whole states), discord.py each HTTP
request body (the DM panels), each gateway event (the moves picked in a select) and the
custom_ids of components (which carry moves). Those loggers are held at a level where they
only report problems, whatever LOG_LEVEL says, so a host can turn on DEBUG for the bot's own
loggers without leaking a game.
"""
from __future__ import annotations

import logging
import sys
from typing import TextIO

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# Logger -> the lowest level it may log at. Their DEBUG (and, for aiosqlite, INFO) records carry
# SQL values or Discord payloads; what they log at these levels is only connection news and errors.
QUIET: dict[str, int] = {
    "aiosqlite": logging.WARNING,
    "asyncpg": logging.WARNING,
    "discord": logging.INFO,            # http bodies, gateway events, component ids at DEBUG
    "discord.http": logging.INFO,
    "discord.gateway": logging.INFO,
    "discord.webhook": logging.INFO,
    "discord.ui": logging.INFO,
    "discord.state": logging.INFO,
    "discord.client": logging.INFO,
}

_HANDLER_MARK = "_dice_referee_handler"


def quiet_secret_loggers(level: int) -> None:
    """Hold every logger that could print a secret at or above its safe level."""
    for name, floor in QUIET.items():
        logging.getLogger(name).setLevel(max(level, floor))


def silence_voice_warnings() -> None:
    """discord.py warns at every start that PyNaCl/davey are missing so voice will not work;
    the referee never joins a voice channel, so the warning only alarms hosts."""
    import discord
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False


def configure(level: str | int = "INFO", stream: TextIO | None = None) -> None:
    """The bot's logging: one handler on the root logger at `level` (LOG_LEVEL), the secret-
    carrying library loggers held quiet, and no voice warnings. Safe to call twice."""
    numeric = level if isinstance(level, int) else getattr(logging, str(level).upper())
    root = logging.getLogger()
    root.setLevel(numeric)
    if not any(getattr(h, _HANDLER_MARK, False) for h in root.handlers):
        handler = logging.StreamHandler(stream or sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        setattr(handler, _HANDLER_MARK, True)
        root.addHandler(handler)
    quiet_secret_loggers(numeric)
    silence_voice_warnings()
