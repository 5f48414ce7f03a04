"""The table manager: the one path every move takes, and the timers that keep games moving.

play() = load the game, apply the move under the game's lock, roll any dice the engine asks
for from the game's secret seed, commit state + record entries in one transaction, re-arm the
timer, then hand the result to the game's listener (its cog) to publish. Moves name the state
version they were made against, so a stale or double click is refused instead of applied twice.
"""
from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

from .engine import load
from .engine.core import CHANCE, Chance, Event, Game, IllegalMoveError, RuleError
from .store import Entry, GameRow, StaleVersion, Store

log = logging.getLogger(__name__)


class StaleMove(IllegalMoveError):
    """The move was made against an earlier state of the game."""


class NotAPlayer(IllegalMoveError):
    """Someone who is not seated in the game tried to move."""


class GameClosed(IllegalMoveError):
    """The game is finished or aborted."""


STALE_TEXT = ("That button belongs to an earlier moment of the game, which has moved on since. "
              "Use the newest message in the game thread.")


@dataclass
class Played:
    """What one call to the table did: the game after it, the entries it recorded, and every
    event (the player's move and any rolls that followed)."""

    row: GameRow
    game: Game
    entries: list[Entry]
    events: list[Event] = field(default_factory=list)
    cause: str = "move"          # move | timeout | resign | start | vote | abort
    by: int | None = None        # the user whose action this was (None: a timer, the bot)

    @property
    def finished(self) -> bool:
        return self.game.outcome() is not None


class Listener(Protocol):
    """What a game's cog offers the table (all optional on the default listener)."""

    async def publish(self, played: Played) -> None: ...

    async def remind(self, row: GameRow, game: Game) -> None: ...

    def vote_seconds(self, row: GameRow, game: Game, chance: Chance) -> int | None: ...

    async def vote_result(self, row: GameRow, game: Game, rng: random.Random) -> str: ...


class QuietListener:
    """Used when no cog is listening (offline tools, tests of the core)."""

    async def publish(self, played: Played) -> None:
        return None

    async def remind(self, row: GameRow, game: Game) -> None:
        return None

    def vote_seconds(self, row: GameRow, game: Game, chance: Chance) -> int | None:
        return None

    async def vote_result(self, row: GameRow, game: Game, rng: random.Random) -> str:
        return game.chance().sample(rng)


def chance_rng(seed: str, version: int, purpose: str = "roll") -> random.Random:
    """The RNG for the roll made at `version`: fixed by the secret seed, so a retried commit
    rolls the same dice, and unknowable without it."""
    return random.Random(f"{seed}:{version}:{purpose}")


class Tables:
    def __init__(self, store: Store, *, turn_timer: int = 3600,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep):
        self.store = store
        self.turn_timer = turn_timer
        self.clock = clock
        self.sleep = sleep
        self.listeners: dict[str, Listener] = {}
        self.quiet = QuietListener()
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._timers: dict[int, asyncio.Task] = {}

    def listener(self, kind: str) -> Listener:
        return self.listeners.get(kind, self.quiet)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    # starting ----------------------------------------------------------------------------------
    async def create(self, kind: str, players: list[int], options: dict[str, Any] | None = None,
                     *, guild_id: int | None = None, channel_id: int | None = None,
                     thread_id: int | None = None, extra: dict[str, Any] | None = None,
                     publish: bool = True, names: list[str] | None = None) -> Played:
        cls = load(kind)
        game = cls.new(len(players), options, names=names)
        seed = secrets.token_hex(16)
        row = GameRow(0, kind, guild_id, channel_id, thread_id, list(players), game.options,
                      seed, {}, 0, "active", None, None, False, dict(extra or {}), 0.0, 0.0)
        entries, events, deadline, deadline_kind = self._advance(row, game, [])
        gid = await self.store.create_game(kind, guild_id, channel_id, thread_id, players,
                                           game.options, seed, game.to_json(), entries, extra,
                                           deadline, deadline_kind, now=self.clock())
        row = await self.store.get_game(gid)
        played = Played(row, game, entries, events, "start")
        self._arm(row)
        if publish:
            await self._publish(played)
        return played

    # moving --------------------------------------------------------------------------------------
    async def load(self, game_id: int) -> tuple[GameRow, Game]:
        row = await self.store.get_game(game_id)
        if row is None:
            raise GameClosed(f"There is no game #{game_id}.")
        return row, load(row.kind).from_json(row.state)

    async def play(self, game_id: int, user_id: int | None, move: str, *,
                   version: int | str | None = None, actor: int | str | None = None,
                   cause: str = "move", by: int | None = None) -> Played:
        """Apply `move` for the player `user_id` (or an explicit `actor`: a seat or CHANCE).
        RuleError (state unchanged) when the rules, the version or the seat say no."""
        async with self.lock(game_id):
            row, game = await self.load(game_id)
            if row.status != "active":
                raise GameClosed(f"Game #{game_id} is over.")
            if actor is None:
                actor = row.seat_of(user_id)
                if actor is None:
                    raise NotAPlayer("You are not playing in this game.")
            await self._check_version(row, actor, version)
            waiting = set(game.actors())
            if move.startswith("timeout"):
                raise IllegalMoveError("Only the referee's clock can run out a player's time.")
            events = game.table_move(actor, move)
            first = [Entry(actor, move, [e.to_json() for e in events])]
            played = await self._commit(row, game, first, events, cause, waiting)
            played.by = by
        await self._publish(played)
        return played

    async def _check_version(self, row: GameRow, actor: int | str,
                             version: int | str | None) -> None:
        """A public button names the game's version; a secret panel names `p<n>`, how many
        moves its seat had made, so only that seat's own moves make it stale."""
        if version is None:
            return
        if isinstance(version, str) and version.startswith("p") and isinstance(actor, int):
            if int(version[1:]) == await self.store.seat_moves(row.id, actor):
                return
        elif int(version) == row.version:
            return
        raise StaleMove(STALE_TEXT)

    async def resign(self, game_id: int, user_id: int, version: int | None = None) -> Played:
        return await self.play(game_id, user_id, "resign", version=version, cause="resign",
                               by=user_id)

    async def abort(self, game_id: int) -> GameRow:
        async with self.lock(game_id):
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                raise GameClosed(f"Game #{game_id} is not running.")
            await self.store.set_status(game_id, "aborted")
            self._cancel(game_id)
            row.status = "aborted"
        return row

    def _advance(self, row: GameRow, game: Game, entries: list[Entry],
                 waiting: set | None = None
                 ) -> tuple[list[Entry], list[Event], float | None, str | None]:
        """Roll every die the engine asks for, unless the cog wants a vote to decide; then work
        out the next deadline. `waiting`: who could act before this move."""
        events: list[Event] = []
        rolled = False
        version = row.version + len(entries)
        while game.actors() == [CHANCE]:
            chance = game.chance()
            seconds = self.listener(row.kind).vote_seconds(row, game, chance)
            if seconds:
                return entries, events, self.clock() + seconds, "vote"
            move = chance.sample(chance_rng(row.seed, version))
            new = game.apply(CHANCE, move)
            entries.append(Entry(CHANCE, move, [e.to_json() for e in new]))
            events.extend(new)
            version += 1
            rolled = True
        if not game.actors():
            return entries, events, None, None
        humans = set(game.actors())
        if (waiting and len(waiting) > 1 and humans <= waiting and not rolled
                and row.deadline_kind == "turn" and row.deadline is not None):
            # Still the same simultaneous step (secret choices): one player's move must not
            # restart everyone's clock, or the step could be stretched for ever.
            return entries, events, row.deadline, "turn"
        seconds = game.wait_seconds() or self.turn_timer
        return entries, events, self.clock() + seconds, "turn"

    async def _commit(self, row: GameRow, game: Game, entries: list[Entry], events: list[Event],
                      cause: str, waiting: set | None = None) -> Played:
        entries, more, deadline, deadline_kind = self._advance(row, game, entries, waiting)
        events = events + more
        outcome = game.outcome()
        results = None
        status = "active"
        if outcome is not None:
            status = "finished"
            results = {uid: ("draw" if outcome.draw else
                             "win" if seat in outcome.winners else "loss")
                       for seat, uid in enumerate(row.players)}
        try:
            await self.store.commit_move(row.id, row.version, entries, game.to_json(), status,
                                         deadline, deadline_kind, results, now=self.clock())
        except StaleVersion:
            raise StaleMove(STALE_TEXT) from None
        row = await self.store.get_game(row.id)
        self._arm(row)
        return Played(row, game, entries, events, cause)

    async def _publish(self, played: Played) -> None:
        # The move is committed whatever happens here: a failed message must not turn a
        # successful move into an error for the player who made it.
        try:
            await self.listener(played.row.kind).publish(played)
        except Exception:
            log.exception("publishing game %s version %s failed", played.row.id,
                          played.row.version)

    # timers --------------------------------------------------------------------------------------
    def _cancel(self, game_id: int) -> None:
        task = self._timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _arm(self, row: GameRow) -> None:
        self._cancel(row.id)
        if row.status != "active" or row.deadline is None:
            return
        self._timers[row.id] = asyncio.get_running_loop().create_task(
            self._run_timer(row.id, row.version), name=f"referee-timer-{row.id}")

    def armed(self) -> set[int]:
        return {gid for gid, t in self._timers.items() if not t.done()}

    async def _run_timer(self, game_id: int, version: int) -> None:
        try:
            while True:
                row = await self.store.get_game(game_id)
                if row is None or row.version != version or row.deadline is None:
                    return
                due = self.reminder_time(row) if not row.reminded else row.deadline
                await self.sleep(max(0.0, due - self.clock()))
                if await self.tick(game_id, version) == "done":
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer of game %s failed", game_id)

    @staticmethod
    def reminder_time(row: GameRow) -> float:
        start = row.timer_start if row.timer_start is not None else row.updated_at
        return start + (row.deadline - start) / 2

    async def tick(self, game_id: int, version: int | None = None) -> str:
        """Do what is due now for this game: the half-time reminder or the expiry.
        Returns 'waiting', 'reminded' or 'done'. Tests drive timers through this."""
        row = await self.store.get_game(game_id)
        if (row is None or row.status != "active" or row.deadline is None
                or (version is not None and row.version != version)):
            return "done"
        now = self.clock()
        if now >= row.deadline:
            await self.expire(game_id, row.version)
            return "done"
        if not row.reminded and now >= self.reminder_time(row) and row.deadline_kind == "turn":
            await self.store.mark_reminded(game_id)
            row, game = await self.load(game_id)
            try:
                await self.listener(row.kind).remind(row, game)
            except Exception:
                log.exception("reminder for game %s failed", game_id)
            return "reminded"
        if not row.reminded and now >= self.reminder_time(row):
            await self.store.mark_reminded(game_id)  # votes and windows need no reminder
        return "waiting"

    async def expire(self, game_id: int, version: int) -> Played | None:
        """The deadline passed: a vote is counted, or each idle player's timeout move is made
        (an idle player without one forfeits)."""
        async with self.lock(game_id):
            row, game = await self.load(game_id)
            if row.status != "active" or row.version != version:
                return None
            if row.deadline_kind == "vote" and game.actors() == [CHANCE]:
                rng = chance_rng(row.seed, row.version, "vote")
                move = await self.listener(row.kind).vote_result(row, game, rng)
                events = game.apply(CHANCE, move)
                entries = [Entry(CHANCE, move, [e.to_json() for e in events])]
                cause = "vote"
            else:
                entries, events, cause = [], [], "timeout"
                idle = [a for a in game.actors() if a != CHANCE]
                if len(idle) == game.players and not any(game.timeout_move(s) for s in idle):
                    # Everyone at the table let their time run out: nobody beat anybody.
                    move = "timeout " + " ".join(f"@{s + 1}" for s in idle)
                    events = game.table_move(idle[0], move)
                    entries.append(Entry(idle[0], move, [e.to_json() for e in events]))
                    idle = []
                for seat in idle:
                    if seat not in game.actors():
                        continue  # an earlier timeout move already settled this seat
                    move = game.timeout_move(seat) or "timeout"
                    try:
                        new = game.table_move(seat, move)
                    except RuleError:
                        # not the move itself: it may be a secret choice
                        log.exception("timeout move of seat %s in game %s refused", seat,
                                      game_id)
                        move, new = "timeout", game.table_move(seat, "timeout")
                    entries.append(Entry(seat, move, [e.to_json() for e in new]))
                    events.extend(new)
                    if game.outcome() is not None:
                        break
            played = await self._commit(row, game, entries, events, cause)
        await self._publish(played)
        return played

    async def resume(self) -> int:
        """After a restart: re-arm the timer of every open game. Returns how many games."""
        rows = await self.store.active_games()
        for row in rows:
            self._arm(row)
        return len(rows)

    async def close(self) -> None:
        for gid in list(self._timers):
            self._cancel(gid)
        await asyncio.sleep(0)
