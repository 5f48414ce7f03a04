"""The Discord-side driver of practice opponents (issue #16): the bot's own user sits in a
game's seat(s), and when such a seat must act (a turn, a secret placement, a window, a defense)
the driver waits a short visible moment, works out the move in a worker thread from what that
seat may see (its view and its own record: bot/policies), and plays it through
`Tables.play` like any person: recorded, timed, replayable.

Wiring (for the integrator): call `await after_publish(bot, played)` from the publish path of
every game (after the turn message is sent), and offer `/<game> practice [level]` through
`start_practice`. Nothing here blocks the event loop: the search runs in `asyncio.to_thread`
(or the executor given), and every bot move is a task of its own.
"""
from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import Executor
from typing import Any, Awaitable, Callable

from .engine import CHANCE, load
from .engine.core import RuleError
from .policies import LEVELS, make, seen_from_record
from .policies.match import default_options

log = logging.getLogger(__name__)

DELAY = 1.5          # seconds a bot "thinks" before its move shows (a turn reads naturally)
PRACTICE_KEY = "practice"   # row.extra[PRACTICE_KEY] = the level of the bot seats


def decide(kind: str, players: int, options: dict, names: list[str],
           record: list[tuple[Any, str]], seat: int, level: str, salt: str,
           view: dict, legal: list[str]) -> str:
    """The bot seat's move, from its view and legal moves and the record as that seat saw it
    (hidden moves masked by `seen_from_record`). Pure and picklable: runs in a thread or a
    process. The policy's rng never comes from the table's seed (which decides rolls)."""
    seen = seen_from_record(kind, players, options, names, record, seat)
    return make(level, seen).choose(view, legal, random.Random(salt))


def _actor(a: str | int) -> int | str:
    if isinstance(a, int) or a == CHANCE:
        return a
    return int(a) - 1


class PracticeDriver:
    """Plays the seats of `bot_user_id` in practice games (row.extra["practice"] = level)."""

    def __init__(self, tables: Any, bot_user_id: int, *, delay: float = DELAY,
                 executor: Executor | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        self.tables = tables
        self.bot_user_id = bot_user_id
        self.delay = delay
        self.executor = executor
        self.sleep = sleep
        self._tasks: dict[tuple[int, int], asyncio.Task] = {}

    def bot_seats(self, row: Any) -> list[int]:
        return [i for i, u in enumerate(row.players) if u == self.bot_user_id]

    async def after_publish(self, played: Any) -> None:
        """After every publish: start a move for each bot seat that must act now."""
        row, game = played.row, played.game
        level = (row.extra or {}).get(PRACTICE_KEY)
        if level not in LEVELS or game.outcome() is not None or row.status != "active":
            return
        acting = [s for s in self.bot_seats(row) if s in game.actors()]
        for seat in acting:
            key = (row.id, seat)
            task = self._tasks.get(key)
            # the bot's own move publishes from inside its task: its next move is a new task
            if task is not None and not task.done() and task is not asyncio.current_task():
                continue
            self._tasks[key] = asyncio.create_task(self._act(row.id, seat, level),
                                                   name=f"practice-{row.id}-{seat}")

    async def _act(self, game_id: int, seat: int, level: str) -> None:
        try:
            if self.delay:
                await self.sleep(self.delay)
            row, game = await self.tables.load(game_id)
            if row.status != "active" or seat not in game.actors():
                return
            record = [(_actor(a), m) for a, m in await self.tables.store.entries(game_id)]
            args = (row.kind, game.players, dict(row.options), list(game.names), record, seat,
                    level, f"{game_id}:{len(record)}:{seat}", game.view(seat), game.legal(seat))
            loop = asyncio.get_running_loop()
            if self.executor is not None:
                move = await loop.run_in_executor(self.executor, decide, *args)
            else:
                move = await asyncio.to_thread(decide, *args)
            await self.tables.play(game_id, self.bot_user_id, move, actor=seat, by=None)
        except RuleError as e:
            # Someone moved first (a stale version, the game ended): the next publish will
            # bring the bot back if it still has to act.
            log.info("practice game %s seat %s: move refused: %s", game_id, seat, e)
        except Exception:
            log.exception("practice game %s seat %s: the bot could not move", game_id, seat)

    async def idle(self) -> None:
        """Wait until no bot move is under way (tests; a clean shutdown)."""
        while True:
            running = [t for t in self._tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)


def driver(bot: Any) -> PracticeDriver:
    """The bot's practice driver, made on first use."""
    d = getattr(bot, "practice_driver", None)
    if d is None:
        d = PracticeDriver(bot.tables, bot.user.id,
                           delay=getattr(getattr(bot, "settings", None), "practice_delay", DELAY))
        bot.practice_driver = d
    return d


async def after_publish(bot: Any, played: Any) -> None:
    """The hook for the publish path: bot seats that must act now get their move."""
    if bot.user is None or bot.user.id not in played.row.players:
        return
    await driver(bot).after_publish(played)


async def start_practice(bot: Any, interaction: Any, kind: str, level: str,
                         players: int | None) -> Any:
    """Create a practice game: the caller in seat 1, the bot in every other seat (a
    multi-player game's empty seats are filled by the bot). Die-Men is played in simulated
    mode (a bot cannot flick a real die). Returns the table's `Played` (cause "start");
    the caller's cog opens the thread and answers the interaction as for any new game."""
    if level not in LEVELS:
        raise RuleError(f"The practice levels are {', '.join(LEVELS)}; not {level!r}.")
    cls = load(kind)
    n = players or cls.MIN_PLAYERS
    if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
        raise RuleError(f"{cls.TITLE} is for {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players.")
    me = interaction.user
    bot_user = bot.user
    ids = [me.id] + [bot_user.id] * (n - 1)
    bot_name = getattr(bot_user, "display_name", None) or "Referee"
    names = [me.display_name] + ([bot_name] if n == 2 else
                                 [f"{bot_name} {i}" for i in range(1, n)])
    channel = interaction.channel
    played = await bot.tables.create(
        kind, ids, default_options(kind), guild_id=getattr(interaction, "guild_id", None),
        channel_id=getattr(channel, "id", None), extra={PRACTICE_KEY: level}, names=names)
    await after_publish(bot, played)
    return played
