"""The table manager: the one path every move takes, and the timers that keep games moving.

play() = read the game row once, apply the move, roll any dice the engine asks for from the
game's secret seed, commit state + record entries + an outbox row in one transaction (only if
the game is still at the version that was read: compare-and-set through the database, so several
processes can share games), then hand the result to the game's listener (its cog) to publish and
delete the outbox row. Moves name the state version they were made against, so a stale or double
click is refused instead of applied twice; a move that lost a race it was not stale for (another
seat's secret choice, a typed move) is tried again on the new state.

Timers: one scheduler task per process sleeps until the earliest `due_at` in the database (a
turn's half-time reminder or its deadline), claims what is due with a lease so exactly one
process acts on it, and also replays publishing that a crashed process never finished.
"""
from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import random
import secrets
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterator, Protocol

from . import place, ratings
from .memo import Bounded
from .engine import load
from .engine.core import CHANCE, Chance, Event, Game, IllegalMoveError, RuleError
from .store import Entry, GameRow, JSONText, OutboxItem, StaleVersion, Store, due_time

log = logging.getLogger(__name__)


class StaleMove(IllegalMoveError):
    """The move was made against an earlier state of the game."""


# row.extra key of a game whose result is not recorded (bot/practice.py sets it: the level).
UNRATED = "practice"


class PublishIncomplete(Exception):
    """Publishing reached Discord only in part (a fault a later try may not meet): the move's
    outbox row stays, so the scheduler publishes it again once its lease has passed (a few
    tries at most, and a newer move's publishing supersedes it)."""


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
    replayed: bool = False       # published again from the outbox after a crash
    # Marked published by its publisher, in the write that stored its notes (one round trip
    # fewer a move); else the table marks it when the publisher is done.
    published: bool = False

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


# What publishing asks of a committed position again and again, remembered while it is
# published: who acts, and each seat's view, legal moves and menu. Lists are handed out as
# copies.
REMEMBERED = ("view", "legal", "_legal", "menu", "actors", "_actors")


@contextmanager
def views_remembered(game: Game) -> Iterator[None]:
    """While a committed position is published, who acts and each seat's view, legal moves
    and menu are worked out once. Publishing asks for the same ones many times (the turn key,
    the status line, the signatures that decide whether a message changed, a panel's key and
    then the panel, the pictures), and building them is most of the event loop's work for a
    move. The position does not change meanwhile; callers read them and never change them (a
    list is handed out as a copy all the same)."""
    memos: dict[str, dict[Any, Any]] = {}

    def remembered(name: str) -> Callable[..., Any]:
        real = getattr(game, name)
        memo = memos[name] = {}

        def once(*seat: Any) -> Any:  # (seat) or, for who acts, ()
            try:
                found = memo[seat]
            except KeyError:
                found = memo[seat] = real(*seat)
            return list(found) if type(found) is list else found
        return once
    try:
        for name in REMEMBERED:
            setattr(game, name, remembered(name))
    except AttributeError:  # a game without an instance dict: worked out as asked
        yield
        return
    try:
        yield
    finally:
        for name in REMEMBERED:
            game.__dict__.pop(name, None)


def game_of(row: GameRow) -> Game:
    """The game a stored row holds, its state decoded once for it (the row keeps its own
    copy undecoded until something reads `row.state`)."""
    return load(row.kind).from_json(row.own_state(), owned=True)


def reset(game: Game, row: GameRow) -> None:
    """Put `game` back as `row` holds it (the table applies moves without the engine's undo
    copy: this is the undo, paid only when a move fails)."""
    game.__dict__.clear()
    game.__dict__.update(game_of(row).__dict__)


def chance_rng(seed: str, version: int, purpose: str = "roll") -> random.Random:
    """The RNG for the roll made at `version`: fixed by the secret seed, so a retried commit
    rolls the same dice, and unknowable without it."""
    return random.Random(f"{seed}:{version}:{purpose}")


class Tables:
    # How long a claimed deadline or lost publish belongs to the process that claimed it; if
    # that process dies mid-way, another takes it over after this.
    LEASE = 60.0
    # The scheduler looks again at least this often: another process may have added an earlier
    # deadline, or died holding one.
    POLL = 30.0
    # A move that lost a race it was not stale for is tried this many times.
    RETRIES = 8
    # A publish still failing after this many tries is a warning in the log (an outage).
    OUTBOX_WARN_AFTER = 3
    # Games whose seats' move counts (the versions of secret panels) are remembered.
    MOVES_MADE_KEPT = 100_000

    def __init__(self, store: Store, *, turn_timer: int = 3600,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep):
        self.store = store
        self.turn_timer = turn_timer
        self.clock = clock
        self.sleep = sleep
        self.listeners: dict[str, Listener] = {}
        self.quiet = QuietListener()
        # Only spares this process's own double clicks a wasted apply: correctness comes from
        # the version compare-and-set in the database, which holds across processes.
        # Weak: a game's lock lives while someone holds or awaits it, not for every game the
        # process ever touched.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._armed: set[int] = set()      # games with a deadline, as far as this process knows
        # game id -> (version, seat -> moves made by then): see seat_moves
        self._moves_made: Bounded = Bounded(self.MOVES_MADE_KEPT)
        self._scheduler: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._next_at: float | None = None  # when the scheduler will look next
        # Other deadlines the one scheduler serves (the lobby's challenge expiry): each is
        # called with the time at every pass and claims its own work.
        self.due_hooks: list[Callable[[], Awaitable[Any]]] = []
        # Abandoned seats (issue #25): asked (row, game, seat, until) when a player's timeout
        # would make other players lose with them (a 2 vs 2 team); True when the others were
        # offered to let the bot finish that seat (bot/zombie.py).
        self.on_abandon: Callable[[GameRow, Game, int, float], Awaitable[bool]] | None = None

    def listener(self, kind: str) -> Listener:
        return self.listeners.get(kind, self.quiet)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # starting ----------------------------------------------------------------------------------
    async def create(self, kind: str, players: list[int], options: dict[str, Any] | None = None,
                     *, guild_id: int | None = None, channel_id: int | None = None,
                     thread_id: int | None = None, extra: dict[str, Any] | None = None,
                     publish: bool = True, names: list[str] | None = None) -> Played:
        cls = load(kind)
        game = cls.new(len(players), options, names=names)
        seed = secrets.token_hex(16)
        now = self.clock()
        row = GameRow(0, kind, guild_id, channel_id, thread_id, list(players), game.options,
                      seed, {}, 0, "active", None, None, False, dict(extra or {}), now, now)
        entries, events, deadline, deadline_kind = self._advance(row, game, [])
        state = game.to_text()
        gid = await self.store.create_game(kind, guild_id, channel_id, thread_id, players,
                                           game.options, seed, state, entries, extra,
                                           deadline, deadline_kind, now=now, outbox=publish)
        row.id, row.state, row.version = gid, JSONText(state), len(entries)
        row.deadline, row.deadline_kind = deadline, deadline_kind
        row.timer_start = now if deadline is not None else None
        self._remember_moves(gid, 0, {})
        self._moves_committed(dataclasses.replace(row, version=0), entries, row.version)
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
        return row, game_of(row)

    async def play(self, game_id: int, user_id: int | None, move: str | tuple[str, ...], *,
                   version: int | str | None = None, actor: int | str | None = None,
                   cause: str = "move", by: int | None = None,
                   seen: tuple[GameRow, Game] | None = None) -> Played:
        """Apply `move` for the player `user_id` (or an explicit `actor`: a seat or CHANCE).
        RuleError (state unchanged) when the rules, the version or the seat say no.
        A tuple of moves: the seat's moves in that order, one commit (a form's answer): all
        of them stand or none does.
        `seen`: the game as the caller just read it (a command that looked it up), tried
        first instead of reading it again; the commit's compare-and-set still decides, and a
        game that moved on meanwhile is read afresh."""
        async with self.lock(game_id):
            for attempt in range(self.RETRIES):
                if seen is not None and attempt == 0 and seen[0].id == game_id:
                    row, game = seen
                else:
                    row, game = await self.load(game_id)
                if row.status != "active":
                    raise GameClosed(f"Game #{game_id} is over.")
                seat = actor
                if seat is None:
                    seat = row.seat_of(user_id)
                    if seat is None:
                        raise NotAPlayer("You are not playing in this game.")
                await self.check_version(row, seat, version)
                moves = (move,) if isinstance(move, str) else tuple(move)
                if not moves:
                    raise IllegalMoveError("No move was made.")
                if any(m.startswith("timeout") for m in moves):
                    raise IllegalMoveError("Only the referee's clock can run out a player's "
                                           "time.")
                waiting = set(game.actors())
                try:
                    # No undo copy in the engine: a move refused (or a commit that fails)
                    # puts the game back from the row it was read from, below.
                    events, first = [], []
                    for one in moves:
                        made = game.table_move(seat, one, undo=False)
                        first.append(Entry(seat, one, [e.to_json() for e in made]))
                        events += made
                    played = await self._commit(row, game, first, events, cause, waiting, by)
                    break
                except BaseException as e:
                    # The caller's `seen` game is theirs to use again: as it was read, as the
                    # engine's own undo left it before.
                    reset(game, row)
                    if not isinstance(e, StaleMove):
                        raise
                    # A public button named the version that just went by: truly stale.
                    if isinstance(version, int) or (isinstance(version, str)
                                                    and version.isdigit()):
                        raise
                    # Another seat's move (or another process) got in first: try again on the
                    # new state; the rules or the panel's own version decide then.
                    await asyncio.sleep(0.005 * attempt)
            else:
                raise StaleMove(STALE_TEXT)
        await self._publish(played)
        return played

    async def panel_version(self, game_id: int, seat: int, at: int | None = None) -> str:
        """The version a secret panel's components carry: `p<n>`, the moves its seat made
        (`at`: by that version of the game, the one the panel shows)."""
        return f"p{await self.seat_moves(game_id, seat, at)}"

    async def seat_moves(self, game_id: int, seat: int, at: int | None = None) -> int:
        """How many moves `seat` has made by version `at` of the game (None: by now). The
        count at a version never changes, so it is remembered: a move's commit works out the
        next one from its own entries, and the panels of every seat, the check of a panel's
        click and the next move's panels need no statement of their own. Not remembered: read
        (every seat at once) with the game's version now."""
        known = self._moves_made.get(game_id)
        if known is not None and at is not None and known[0] == at:
            return known[1].get(seat, 0)
        found = await self.store.moves_by_seat(game_id)
        if found is None:
            return 0
        if known is None or found[0] >= known[0]:
            self._remember_moves(game_id, *found)
        return found[1].get(seat, 0)

    def _remember_moves(self, game_id: int, version: int, counts: dict[int, int]) -> None:
        self._moves_made[game_id] = (version, counts)

    def _moves_committed(self, row: GameRow, entries: list[Entry], version: int) -> None:
        """The seats' move counts after a commit, from the counts before it (when known)."""
        known = self._moves_made.get(row.id)
        if known is None or known[0] != row.version:
            return
        counts = dict(known[1])
        for entry in entries:
            if entry.actor != CHANCE:
                counts[entry.actor] = counts.get(entry.actor, 0) + 1
        self._remember_moves(row.id, version, counts)

    async def check_version(self, row: GameRow, actor: int | str,
                            version: int | str | None) -> None:
        """A public button names the game's version; a secret panel names `p<n>`, how many
        moves its seat had made, so only that seat's own moves make it stale. StaleMove when
        the component belongs to an earlier moment."""
        if version is None:
            return
        if isinstance(version, str) and version.startswith("p") and isinstance(actor, int):
            if int(version[1:]) == await self.seat_moves(row.id, actor, row.version):
                return
        elif int(version) == row.version:
            return
        raise StaleMove(STALE_TEXT)

    async def resign(self, game_id: int, user_id: int, version: int | None = None) -> Played:
        return await self.play(game_id, user_id, "resign", version=version, cause="resign",
                               by=user_id)

    async def abort(self, game_id: int) -> GameRow:
        row = await self.store.get_game(game_id)
        if row is None or row.status != "active":
            raise GameClosed(f"Game #{game_id} is not running.")
        # Compare-and-set on the status: of two aborts at once, one does it.
        if not await self.store.set_status(game_id, "aborted", now=self.clock()):
            raise GameClosed(f"Game #{game_id} is not running.")
        self._cancel(game_id)
        row.status = "aborted"
        row.deadline = None
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
            # No undo copy: a failure here fails the whole move, and its game is put back
            # from the row (play) or thrown away (create, expire).
            new = game.apply(CHANCE, move, undo=False)
            entries.append(Entry(CHANCE, move, [e.to_json() for e in new]))
            events.extend(new)
            version += 1
            rolled = True
        if not game.actors():
            return entries, events, None, None
        humans = set(game.actors())
        if (waiting and len(waiting) > 1 and humans <= waiting and not rolled
                and row.waits_for("turn") and row.deadline is not None):
            # Still the same simultaneous step (secret choices): one player's move must not
            # restart everyone's clock, or the step could be stretched for ever.
            return entries, events, row.deadline, "turn"
        seconds = game.wait_seconds() or self.turn_timer
        return entries, events, self.clock() + seconds, "turn"

    async def _commit(self, row: GameRow, game: Game, entries: list[Entry], events: list[Event],
                      cause: str, waiting: set | None = None, by: int | None = None) -> Played:
        entries, more, deadline, deadline_kind = self._advance(row, game, entries, waiting)
        events = events + more
        outcome = game.outcome()
        results = None
        status = "active"
        if outcome is not None:
            status = "finished"
            # A practice game against the bot is not a rated result: it never counts in the
            # server's stats or anyone's history (the record stays, for export and replay).
            if not (row.extra or {}).get(UNRATED):
                results = {uid: ("draw" if outcome.draw else
                                 "win" if seat in outcome.winners else "loss")
                           for seat, uid in enumerate(row.players)}
        standing = None
        if results is not None and not (row.extra or {}).get(ratings.UNRATED_KEY):
            standing = await self._standing(row, game, entries)
        now = self.clock()
        state = game.to_text()  # the one encode of the move's state
        try:
            version = await self.store.commit_move(
                row.id, row.version, entries, state, status, deadline, deadline_kind, results,
                now=now, cause=cause, by=by, row=row, standing=standing)
        except StaleVersion:
            raise StaleMove(STALE_TEXT) from None
        self._moves_committed(row, entries, version)
        # The row after the commit, without reading it again: the same rules as the UPDATE.
        same_clock = deadline == row.deadline
        new = dataclasses.replace(
            row, state=JSONText(state), version=version, status=status, deadline=deadline,
            deadline_kind=deadline_kind, updated_at=now,
            reminded=row.reminded if same_clock else False,
            timer_start=row.timer_start if same_clock else now)
        self._arm(new)
        return Played(new, game, entries, events, cause, by)

    async def _standing(self, row: GameRow, game: Game,
                        entries: list[Entry]) -> "ratings.Standing | None":
        """The finishing places a rated game's result carries (bot/ratings.py): from the final
        state, and for TradeShowdown's free-for-all from its whole record (replayed in a
        thread: who fell when). A failure leaves the game unrated, never unfinished; a
        rebuild meets the same failure and leaves it unrated too."""
        try:
            record: list[tuple[Any, str]] = []
            if ratings.needs_record(row.kind, len(row.players)):
                record = list(await self.store.entries(row.id))
                record += [(e.actor_text, e.move) for e in entries]
                return await asyncio.to_thread(ratings.standing, row.kind, len(row.players),
                                               row.options, game.to_json(), record)
            return ratings.standing(row.kind, len(row.players), row.options, game.to_json())
        except Exception:
            log.exception("game %s: its finishing places could not be worked out; unrated",
                          row.id)
            return None

    async def _publish(self, played: Played) -> None:
        # The move is committed whatever happens here: a failed message must not turn a
        # successful move into an error for the player who made it.
        try:
            with views_remembered(played.game):
                await self.listener(played.row.kind).publish(played)
        except PublishIncomplete as e:
            log.warning("game %s version %s: published in part (%s); it will be published "
                        "again", played.row.id, played.row.version, e)
            return
        except Exception:
            log.exception("publishing game %s version %s failed", played.row.id,
                          played.row.version)
        # Done, or failed in a way a repeat would not mend: only a crash leaves it to replay.
        if played.published:
            return
        try:
            await self.store.published(played.row.id, played.row.version)
        except Exception:
            log.exception("game %s: could not mark version %s published", played.row.id,
                          played.row.version)

    async def replay_outbox(self) -> int:
        """Publish again what a crashed process committed but never confirmed publishing (the
        listener's publish tolerates a repeat). Returns how many were published."""
        done = 0
        for item in await self.store.claim_outbox(self.clock(), self.LEASE):
            try:
                if await self._replay(item):
                    done += 1
            except Exception:
                log.exception("replaying the publishing of game %s version %s failed",
                              item.game_id, item.version)
        return done

    async def _replay(self, item: OutboxItem) -> bool:
        row = await self.store.get_game(item.game_id)
        if row is None or row.version != item.version:
            # A later move exists: its own outbox row (or its publish) shows the newer state.
            await self.store.drop_outbox(item.id)
            return False
        game = game_of(row)
        events = [Event.from_json(e) for entry in item.entries for e in entry.events]
        played = Played(row, game, item.entries, events, item.cause, item.by, replayed=True)
        if item.attempts >= self.OUTBOX_WARN_AFTER:
            log.warning("game %s: version %s is still not published after %s tries (is Discord "
                        "failing?); it is kept and tried again, less often", row.id,
                        row.version, item.attempts)
        else:
            log.info("game %s: publishing version %s again (try %s)", row.id, row.version,
                     item.attempts)
        await self._publish(played)
        return True

    # timers --------------------------------------------------------------------------------------
    def _cancel(self, game_id: int) -> None:
        self._armed.discard(game_id)

    def _arm(self, row: GameRow) -> None:
        """Tell the scheduler about the game's (new) deadline."""
        if row.status != "active" or row.deadline is None:
            self._armed.discard(row.id)
            return
        self._armed.add(row.id)
        due = due_time(row.deadline, row.deadline_kind, row.reminded,
                       row.timer_start if row.timer_start is not None else row.updated_at)
        self._ensure_scheduler()
        if due is not None and (self._next_at is None or due < self._next_at):
            self._wake.set()

    def armed(self) -> set[int]:
        """The games whose timers this process knows of (it acts on any game's that is due)."""
        return set(self._armed)

    def _ensure_scheduler(self) -> None:
        if self._scheduler is None or self._scheduler.done():
            # A context of its own: the task must not inherit the interaction of whatever
            # move first started it (bot/carrier.py), its messages are its own.
            self._scheduler = asyncio.get_running_loop().create_task(
                self._schedule(), name="referee-scheduler", context=contextvars.Context())

    async def _schedule(self) -> None:
        """The one timer task: sleep until the earliest due time (or a wake-up from a commit
        with an earlier one), then do what is due."""
        while True:
            try:
                self._wake.clear()
                nxt = await self.store.next_due()
                now = self.clock()
                delay = self.POLL if nxt is None else min(self.POLL, max(0.0, nxt - now))
                self._next_at = now + delay
                sleeper = asyncio.ensure_future(self.sleep(delay))
                waker = asyncio.ensure_future(self._wake.wait())
                try:
                    await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    sleeper.cancel()
                    waker.cancel()
                self._next_at = None
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the scheduler failed; trying again")
                await asyncio.sleep(1)

    async def run_due(self) -> int:
        """Claim and do everything due now (deadlines, reminders, lost publishing); how many
        games were handled. Each due item is claimed by exactly one process."""
        handled = 0
        while True:
            claimed = await self.store.claim_due(self.clock(), self.LEASE)
            for gid, version in claimed:
                try:
                    if await self.tick(gid, version) != "done":
                        await self.store.reschedule(gid, version)
                except Exception:
                    log.exception("timer of game %s failed", gid)
                handled += 1
            if len(claimed) < 100:
                break
        await self.replay_outbox()
        for hook in list(self.due_hooks):
            try:
                await hook()
            except Exception:
                log.exception("a scheduled task failed")
        return handled

    def wake_at(self, when: float) -> None:
        """Something (a challenge) falls due at `when`: make sure the scheduler looks then."""
        self._ensure_scheduler()
        if self._next_at is None or when < self._next_at:
            self._wake.set()

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
        if place.only_interactions(row):
            # Nothing can be posted there unprompted: its deadline is enforced by the next
            # interaction with the game (`enforce_deadline`), and it has no reminder.
            return "done"
        now = self.clock()
        if now >= row.deadline:
            await self.expire(game_id, row.version)
            return "done"
        if not row.reminded and now >= self.reminder_time(row):
            # Compare-and-set: of several processes, one marks it and sends the reminder.
            if not await self.store.mark_reminded(game_id, row.version):
                return "waiting"
            if row.deadline_kind != "turn":
                return "waiting"  # votes and windows need no reminder
            row.reminded = True
            game = game_of(row)
            try:
                await self.listener(row.kind).remind(row, game)
            except Exception:
                log.exception("reminder for game %s failed", game_id)
            return "reminded"
        return "waiting"

    async def enforce_deadline(self, game_id: int) -> Played | None:
        """A game played where nothing is posted unprompted (bot/place.py): when its deadline
        has passed, the late player's default move (or forfeit) is made now, before the
        interaction that asks."""
        row = await self.store.get_game(game_id)
        if (row is None or row.status != "active" or row.deadline is None
                or self.clock() < row.deadline):
            return None
        return await self.expire(game_id, row.version)

    async def expire(self, game_id: int, version: int) -> Played | None:
        """The deadline passed: a vote is counted, or each idle player's timeout move is made
        (an idle player without one forfeits)."""
        async with self.lock(game_id):
            row, game = await self.load(game_id)
            if row.status != "active" or row.version != version:
                return None
            if row.waits_for("vote") and game.actors() == [CHANCE]:
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
                if await self._offer_seat(row, game, idle):
                    return None  # the others are asked first (abandoned seats, below)
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
            try:
                played = await self._commit(row, game, entries, events, cause)
            except StaleMove:
                return None  # a move (or another process) got there first
        await self._publish(played)
        return played

    # abandoned seats (issue #25, bot/zombie.py) ---------------------------------------------
    ABANDON_KEY = "abandoned"  # row.extra: {seat: until} of the seats offered to the bot

    async def _offer_seat(self, row: GameRow, game: Game, idle: list[int]) -> bool:
        """A player of a game of more than two ran out of time with no move the referee could
        make: where the game goes on without them (the rules allow it), it does. Where their
        forfeit would make others lose with them (their team), those others are first offered
        to let the bot finish the seat, for one more turn's time; unanswered, the seat
        forfeits at the next expiry as before. True when such an offer was made."""
        if self.on_abandon is None or game.players <= 2 or (row.extra or {}).get(UNRATED):
            return False
        asked = dict((row.extra or {}).get(self.ABANDON_KEY) or {})
        for seat in idle:
            if game.timeout_move(seat) or str(seat) in asked:
                continue
            trial = game.copy()
            try:
                trial.table_move(seat, "timeout")
            except RuleError:
                continue
            outcome = trial.outcome()
            if outcome is None:
                continue  # the game goes on without them
            dragged = [s for s in range(game.players) if s != seat and s not in idle
                       and s not in outcome.winners and row.players[s] != row.players[seat]]
            if not dragged:
                continue
            now = self.clock()
            until = now + self.turn_timer
            try:
                if not await self.on_abandon(row, game, seat, until):
                    continue
            except Exception:
                log.exception("game %s: offering seat %s to the bot failed", row.id, seat)
                continue
            asked[str(seat)] = until
            row.extra = await self.store.update_extra(row.id, **{self.ABANDON_KEY: asked})
            await self.store.set_deadline(row.id, until, "turn", now=now)
            self._arm(dataclasses.replace(row, deadline=until, deadline_kind="turn",
                                          reminded=False, timer_start=now))
            return True
        return False

    async def take_seat(self, game_id: int, seat: int, bot_user_id: int, by: int,
                        level: str = "normal") -> GameRow:
        """The bot finishes an abandoned seat (offered by `_offer_seat`), asked by another
        player of the game: the seat is the bot's from now on (a practice seat at `level`) and
        the game counts for nobody. RuleError when the offer is not open."""
        async with self.lock(game_id):
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                raise GameClosed(f"Game #{game_id} is over.")
            asked = (row.extra or {}).get(self.ABANDON_KEY) or {}
            if str(seat) not in asked or row.players[seat] == bot_user_id:
                raise IllegalMoveError("That seat is not waiting for the bot any more.")
            if by not in row.players or row.players.index(by) == seat or by == row.players[seat]:
                raise NotAPlayer("Only the other players of this game can hand the seat to "
                                 "the bot.")
            zombies = sorted(set((row.extra or {}).get("zombie") or []) | {seat})
            row = await self.store.replace_seat(game_id, seat, bot_user_id, {
                UNRATED: level, "zombie": zombies, ratings.UNRATED_KEY: "zombie",
                self.ABANDON_KEY: {k: v for k, v in asked.items() if k != str(seat)}})
            now = self.clock()
            deadline = now + self.turn_timer
            await self.store.set_deadline(game_id, deadline, "turn", now=now)
            row.deadline, row.deadline_kind, row.timer_start = deadline, "turn", now
            row.reminded = False
            self._arm(row)
            return row

    async def resume(self) -> int:
        """After a restart: do what fell due while nobody was running (deadlines, lost
        publishing), then let the one scheduler wait for the rest. No game state is parsed
        here, so boot time does not grow with the open games. Returns how many games have a
        timer."""
        ids = await self.store.active_game_ids()
        self._armed.update(ids)
        await self.run_due()
        self._ensure_scheduler()
        return len(ids)

    async def close(self) -> None:
        task, self._scheduler = self._scheduler, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        await asyncio.sleep(0)
