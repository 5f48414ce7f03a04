"""Logging set-up that is safe at every level: a referee's log never holds a game's secrets.

At DEBUG, libraries log what passes through them: aiosqlite each SQL call with its values
(the game seeds, which predict every roll; secret moves; whole states), discord.py each HTTP
request body (the DM panels), each gateway event (the moves picked in a select) and the
custom_ids of components (which carry moves). Those loggers are held at a level where they
only report problems, whatever LOG_LEVEL says, so a host can turn on DEBUG for the bot's own
loggers without leaking a game.
"""
from __future__ import annotations

import asyncio
import logging
import sys
import time
from typing import Callable, TextIO

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


# discord.http's warnings for a 429 (discord/http.py, HTTPClient.request, 2.7.x): the first for
# every 429, the second after it when the 429 was the global limit's.
RATE_LIMITED = "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds."
GLOBAL_HIT = "Global rate limit has been hit. Retrying in %.2f seconds."
_RELEASED = "_dice_referee_released"


class GlobalThrottleLog(logging.Filter):
    """One log line per global throttle, not two per request.

    When Discord answers a global 429, discord.py holds every REST request back until the limit
    lifts, and each request that was already on its way meets the 429 too; for each one it logs
    two warnings ("We are being rate limited. <method> <url> responded with 429...", then "Global
    rate limit has been hit..."). A busy bot gets dozens of lines for one throttle. On
    `discord.http`, this filter turns the first global 429 into one WARNING saying the throttle
    began, drops the repeats (both lines of each), and logs one INFO line when no global 429 came
    for `quiet` seconds past the last retry_after: how long it lasted, how many 429 answers.

    A 429 that was not global (one route's bucket) keeps discord.py's own line: its first line
    is held until the event loop's next turn, by when the global line would have followed it
    (discord.py logs the two back to back)."""

    def __init__(self, quiet: float = 0.25, clock: Callable[[], float] = time.monotonic,
                 logger: str = "discord.http") -> None:
        super().__init__()
        self.quiet, self.clock, self.logger = quiet, clock, logger
        self._held: logging.LogRecord | None = None
        self._since: float | None = None   # when the throttle began (None: none is on)
        self._until = 0.0                  # it is over if no global 429 came by then
        self._answers = 0                  # global 429 answers in this throttle
        self.throttles = 0                 # throttles seen (started)

    @property
    def throttling(self) -> bool:
        """A global throttle began and its end is not logged yet."""
        return self._since is not None

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, _RELEASED, False):
            return True
        if record.msg == RATE_LIMITED:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return True
            self._release()
            self._held = record
            loop.call_soon(self._release)
            return False
        if record.msg == GLOBAL_HIT:
            self._held = None   # that 429 was the global limit's: this line tells it
            retry_after = float(record.args[0]) if record.args else 0.0
            now = self.clock()
            self._until = max(self._until, now + retry_after + self.quiet)
            self._answers += 1
            if self._since is not None:
                return False
            self._since, self._answers = now, 1
            self.throttles += 1
            record.msg = ("Discord's global rate limit was hit: every request waits (retry after "
                          "%.2f s); its further 429s are not logged one by one")
            record.args = (retry_after,)
            self._watch(retry_after + self.quiet)
            return True
        return True

    def _release(self) -> None:
        record, self._held = self._held, None
        if record is not None:
            setattr(record, _RELEASED, True)
            logging.getLogger(record.name).handle(record)

    def _watch(self, delay: float) -> None:
        try:
            asyncio.get_running_loop().call_later(max(delay, 0.0), self._check_over)
        except RuntimeError:
            pass

    def _check_over(self) -> None:
        if self._since is None:
            return
        now = self.clock()
        if now < self._until:
            self._watch(self._until - now)
            return
        lasted, answers = self._until - self.quiet - self._since, self._answers
        self._since, self._answers = None, 0
        logging.getLogger(self.logger).info(
            "Discord's global rate limit is over: it held requests back for %.2f s "
            "(%d answers 429)", max(lasted, 0.0), answers)


def collapse_global_throttle_lines(logger: str = "discord.http") -> GlobalThrottleLog:
    """Install GlobalThrottleLog on `logger` (once: a second call returns the first filter)."""
    target = logging.getLogger(logger)
    for f in target.filters:
        if isinstance(f, GlobalThrottleLog):
            return f
    f = GlobalThrottleLog(logger=logger)
    target.addFilter(f)
    return f


def configure(level: str | int = "INFO", stream: TextIO | None = None) -> None:
    """The bot's logging: one handler on the root logger at `level` (LOG_LEVEL), the secret-
    carrying library loggers held quiet, one line per global rate limit (not two per request),
    and no voice warnings. Safe to call twice."""
    numeric = level if isinstance(level, int) else getattr(logging, str(level).upper())
    root = logging.getLogger()
    root.setLevel(numeric)
    if not any(getattr(h, _HANDLER_MARK, False) for h in root.handlers):
        handler = logging.StreamHandler(stream or sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        setattr(handler, _HANDLER_MARK, True)
        root.addHandler(handler)
    quiet_secret_loggers(numeric)
    collapse_global_throttle_lines()
    silence_voice_warnings()
