"""The Discord-side driver of practice opponents (issue #16): the bot's own user sits in a
game's seat(s), and when such a seat must act (a turn, a secret placement, a window, a defense)
the driver waits a short visible moment, works out the move off the event loop from what that
seat may see (its view and its own record: bot/policies), and plays it through `Tables.play`
like any person: recorded, timed, replayable.

Wiring: every game's publish path calls `after_publish(bot, played)` (bot/gamecog.py), the
lobby opens practice games (`/<game> practice`, or a challenge naming the bot) and calls
`resume(bot)` at start-up, so a practice game left waiting on the bot by a restart goes on.
Nothing here blocks the event loop: the search runs in a worker process (a thread when the bot
draws in threads too), and each bot seat's moves are one task of their own.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import random
import threading
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Awaitable, Callable

from .engine import CHANCE, load
from .engine.core import OptionError, RuleError
from .policies import LEVELS, make, seen_from_record
from .policies.match import default_options
from .policies.seen import Watch
from .tables import UNRATED

log = logging.getLogger(__name__)

DELAY = 1.5          # seconds a bot "thinks" at least before its move shows (a turn reads naturally)
# row.extra[PRACTICE_KEY] = the level of the bot seats; the key also makes the game unrated
PRACTICE_KEY = UNRATED
# What a person may choose (`random` is for offline matches and tests).
PLAYER_LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
# One person's open practice games at once: each costs the bot's thinking on every turn.
MAX_OPEN = 3
# A seat's move refused this many times in a row (a race lost again and again): the driver
# stops until the next publish; the turn timer still keeps the game moving.
REFUSALS = 3


def decide(kind: str, players: int, options: dict, names: list[str],
           record: list[tuple[Any, str]], seat: int, level: str, salt: str,
           view: dict, legal: list[str], follow: Any = None) -> str:
    """The bot seat's move, from its view and legal moves and the record as that seat saw it
    (hidden moves masked by `Watch`, as in `seen_from_record`). Picklable: runs in a thread or
    a process. The policy's rng never comes from the table's seed (which decides rolls).
    `follow` names the game and seat: what the seat saw is then kept between its decisions
    and only the new entries are watched (a whole replay per decision cost a KAPLOOM! bot a
    quarter of a second by mid-game)."""
    if follow is None:
        seen = seen_from_record(kind, players, options, names, record, seat)
    else:
        seen = _followed(follow, kind, players, options, names, record, seat)
    # salted with what the seat saw (`Seen.moves`), never the record's length: a rival's
    # unseen moves are entries of the record too, and their number is no bot's to know
    return make(level, seen).choose(view, legal, random.Random(f"{salt}:{seen.moves}"))


class _Follow:
    """One seat's watch over one game, in the process (or thread) that thinks for it."""

    def __init__(self, kind: str, players: int, options: dict, names: list[str], seat: int):
        self.game = load(kind).new(players, options, names)
        self.watch = Watch(self.game, [seat])
        self.record: list[tuple[Any, str]] = []
        self.table = (kind, players, options, list(names), seat)


FOLLOWED = 64   # seats followed at once; the least recently used is dropped (and rebuilt)
_follows: "OrderedDict[Any, _Follow]" = OrderedDict()
_follows_lock = threading.Lock()


def _followed(key: Any, kind: str, players: int, options: dict, names: list[str],
              record: list[tuple[Any, str]], seat: int) -> Any:
    with _follows_lock:
        f = _follows.pop(key, None)
    n = len(f.record) if f is not None else 0
    if (f is None or f.table != (kind, players, options, list(names), seat)
            or n > len(record) or record[:n] != f.record):
        f = _Follow(kind, players, options, names, seat)  # a restart, or another game
    for actor, move in record[len(f.record):]:
        note = f.watch.before(f.game, actor)
        events = (f.game.apply(actor, move) if actor == CHANCE
                  else f.game.table_move(actor, move))
        f.watch.after(f.game, actor, move, note, events)
        f.record.append((actor, move))
    with _follows_lock:
        _follows[key] = f
        while len(_follows) > FOLLOWED:
            _follows.popitem(last=False)
    return f.watch.seen[seat]


def _warm() -> None:
    """In the decision process: import the engines and policies before the first turn."""
    import importlib

    from .engine import KINDS
    for kind in KINDS:
        try:
            load(kind)
            importlib.import_module(f"{__package__}.policies.{kind}")
        except ImportError:  # imported on first use instead
            pass


def _actor(a: str | int) -> int | str:
    if isinstance(a, int) or a == CHANCE:
        return a
    return int(a) - 1


def practice_options(kind: str, players: int, given: dict[str, Any] | None = None
                     ) -> dict[str, Any]:
    """The options of a practice game: what the person chose, over what suits playing alone
    (the game's own `solo_options`)."""
    return load(kind).solo_options(players, {**default_options(kind), **(given or {})})


def check_players(kind: str, players: int | None) -> int:
    """How many seats a practice game has (the person's and the bot's), or a RuleError in the
    game's words when that many cannot play it."""
    cls = load(kind)
    n = cls.MIN_PLAYERS if players is None else players
    try:
        cls.check_players(n)
    except OptionError as e:
        raise RuleError(e.message) from None
    return n


def check_level(level: str | None) -> str:
    level = (level or DEFAULT_LEVEL).strip().lower()
    if level not in PLAYER_LEVELS:
        raise RuleError(f"The practice levels are {', '.join(PLAYER_LEVELS[:-1])} and "
                        f"{PLAYER_LEVELS[-1]}; not “{level[:20]}”.")
    return level


def check_options(kind: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The options checked as the table will check them (an OptionError in words)."""
    cls = load(kind)
    try:
        cls.new(players, options)
    except OptionError:
        raise
    except RuleError as e:  # a rule refusing the set-up: same words, same privacy
        raise OptionError(e.message) from None
    return cls.parse_options(options)


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
        # Seats whose running task must look again before it ends: a publish came while it
        # was busy (its own move's, or another seat's that gave it something new to do).
        self._again: set[tuple[int, int]] = set()

    def bot_seats(self, row: Any) -> list[int]:
        return [i for i, u in enumerate(row.players) if u == self.bot_user_id]

    async def after_publish(self, played: Any) -> None:
        """After every publish: each bot seat that must act now gets (or keeps) its mover."""
        row, game = played.row, played.game
        level = (row.extra or {}).get(PRACTICE_KEY)
        if level not in LEVELS or game.outcome() is not None or row.status != "active":
            return
        for seat in self.bot_seats(row):
            if seat in game.actors():
                self.wake(row.id, seat, level)

    def wake(self, game_id: int, seat: int, level: str) -> None:
        key = (game_id, seat)
        task = self._tasks.get(key)
        if task is not None and not task.done():
            # It is busy (this publish may even come from inside it, its own move's): it
            # looks at the game again before it ends, so a second move in a row is not lost.
            self._again.add(key)
            return
        self._tasks[key] = asyncio.create_task(self._run(game_id, seat, level),
                                               name=f"practice-{game_id}-{seat}")

    async def _run(self, game_id: int, seat: int, level: str) -> None:
        """One seat's mover: moves while the seat must act, then ends. The check of `_again`
        and the end are one step of the event loop, so a publish either finds this task
        running (and is seen here) or finished (and starts a new one): none is missed."""
        key = (game_id, seat)
        refused = 0
        try:
            while True:
                self._again.discard(key)
                done = await self._act(game_id, seat, level)
                if done == "moved":
                    refused = 0
                    continue
                if done == "refused":
                    refused += 1
                    if refused < REFUSALS:
                        continue
                if key not in self._again:
                    return
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]

    async def _act(self, game_id: int, seat: int, level: str) -> str:
        """One move of the seat if it must act now: 'moved', 'idle' (nothing to do) or
        'refused'. It thinks while the visible delay runs: the move shows after the longer
        of the two."""
        try:
            row, game = await self.tables.load(game_id)
            if row.status != "active" or seat not in game.actors():
                return "idle"
            record = [(_actor(a), m) for a, m in await self.tables.store.entries(game_id)]
            think = functools.partial(
                decide, row.kind, game.players, dict(row.options), list(game.names), record,
                seat, level, f"{game_id}:{seat}", game.view(seat),
                game.legal(seat), follow=(self.bot_user_id, game_id, seat))
            if self.executor is not None:
                thinking = asyncio.get_running_loop().run_in_executor(self.executor, think)
            else:
                thinking = asyncio.ensure_future(asyncio.to_thread(think))
            try:
                if self.delay:
                    await self.sleep(self.delay)
                move = await thinking
            finally:
                thinking.cancel()  # only if the wait above was cancelled (a shutdown)
            await self.tables.play(game_id, self.bot_user_id, move, actor=seat, by=None)
            return "moved"
        except RuleError as e:
            # Someone moved first (the game ended, the step moved on): look again.
            log.info("practice game %s seat %s: move refused: %s", game_id, seat + 1, e)
            return "refused"
        except Exception:
            log.exception("practice game %s seat %s: the bot could not move", game_id, seat + 1)
            return "refused"

    async def idle(self) -> None:
        """Wait until no bot move is under way (tests; a clean shutdown)."""
        while True:
            running = [t for t in self._tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        if isinstance(self.executor, ProcessPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


def driver(bot: Any) -> PracticeDriver:
    """The bot's practice driver, made on first use. It thinks in a process of its own when
    the bot draws its pictures in processes (a multi-core machine), else in a thread."""
    d = getattr(bot, "practice_driver", None)
    if d is None:
        settings = getattr(bot, "settings", None)
        executor = None
        if getattr(settings, "render_processes", 0):
            # spawn: a fork of a process with an event loop and threads is not safe.
            executor = ProcessPoolExecutor(max_workers=1, initializer=_warm,
                                           mp_context=multiprocessing.get_context("spawn"))
        d = PracticeDriver(bot.tables, bot.user.id, executor=executor,
                           delay=getattr(settings, "practice_delay", DELAY))
        bot.practice_driver = d
    return d


async def after_publish(bot: Any, played: Any) -> None:
    """The hook of the publish path: bot seats that must act now get their move. Never
    raises: publishing must not fail because of a practice opponent."""
    try:
        user = getattr(bot, "user", None)
        if user is None or user.id not in played.row.players:
            return
        await driver(bot).after_publish(played)
    except Exception:
        log.exception("game %s: the practice hook failed", played.row.id)


async def resume(bot: Any) -> int:
    """At start-up: every practice game whose bot seat must act gets its mover again (a move
    committed before a restart was published; the bot's answer to it was never made).
    Returns how many seats were woken."""
    user = getattr(bot, "user", None)
    if user is None:
        return 0
    woken = 0
    for row in await bot.store.games_of_user(user.id, limit=1000):
        level = (row.extra or {}).get(PRACTICE_KEY)
        if level not in LEVELS:
            continue
        try:
            game = load(row.kind).from_json(row.state)
        except Exception:
            log.exception("practice game %s could not be read", row.id)
            continue
        if game.outcome() is not None:
            continue
        d = driver(bot)
        for seat in d.bot_seats(row):
            if seat in game.actors():
                d.wake(row.id, seat, level)
                woken += 1
    return woken


async def cast_vote(bot: Any, row: Any, game: Any, choices: list[tuple[str, str]]
                    ) -> str | None:
    """The bot's vote in a crowd vote of a practice game it plays in: one vote, as any player
    has, and never for one of its own seats (the rules forbid voting for yourself), so it goes
    to the person. What the vote message says of it, or None (no bot seat here, nothing it
    may vote for, or it has voted already). Never raises: a vote must not stop a game."""
    try:
        user = getattr(bot, "user", None)
        if user is None or (row.extra or {}).get(PRACTICE_KEY) not in LEVELS:
            return None
        mine = [i for i, u in enumerate(row.players) if u == user.id]
        allowed = [(tok, label) for tok, label in choices if tok not in {str(i + 1) for i in mine}]
        if not mine or not allowed:
            return None
        token, label = allowed[0]
        if not await bot.store.vote(row.id, f"v{row.version}", user.id, token):
            return None
        return f"🤖 {game.name(mine[0])} votes for {label}."
    except Exception:
        log.exception("game %s: the practice bot could not vote", row.id)
        return None


def close(bot: Any) -> None:
    d = getattr(bot, "practice_driver", None)
    if d is not None:
        d.close()
