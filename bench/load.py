"""Load (issue #14): 1,000 open games of every kind, random legal moves offered at a fixed rate
through the table (engine, commit, board pictures, thread messages and panels through the
offline Discord), step by step from 10 to 200 moves/s. Per step: moves done per second, p50 and
p99 latency from arrival to published, resident memory. The saturation point is the most moves
per second done at any step. Pictures are drawn in worker processes, as the bot does.

Moves arrive as Discord sends them (issue #23 item 4): each is an interaction payload — the
seat's player clicking the move's button or picking it in a list on their DM panel or the newest
message of the game's thread (tests/clicker.py reads them), or, when neither offers it, typing
`/<game> move` (Die-Men: `/diemen play`) there — fed through discord.py's gateway parser, and
done when the task discord.py started for it is; so the latency, the requests
and the CPU are those of the real path. Per move the requests are split into those bound to
Discord's global rate limit (the bot's own REST) and interaction requests (callback, follow-ups,
@original edits: free of it), and the bot-wide ceiling is `50 / global-bound requests per move`.
`--direct` moves through `tables.play` instead, as this bench did before.

A last step makes moves back to back (each as soon as the last is done): the bot's CPU a move
without the pacing's waits, which cost every part of the process alike (issue #23).

Keys: `load.steps`, `load.saturation_moves_per_s`, `load.p99_ms_at_50`, `memory.mb_1000_open`,
`load.bot_cpu_ms_per_move_at_50`, `load.bot_cpu_ms_per_move_back_to_back`,
`load.global_requests_per_move`, `load.interaction_requests_per_move`,
`load.bot_wide_ceiling_moves_per_s`, `load.moves_as`, and the same under
`load.at_100k_finished.*` for a store that already holds 100k finished games (inserted directly
by bench/store.py, not played).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import multiprocessing
import os
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import rendering
from bot.engine import KINDS
from bot.engine.core import CHANCE, RuleError

OPEN_GAMES = 1000
# 0: back to back, each move as soon as the last is done (BACK_TO_BACK_MOVES of them)
RATES = (10, 25, 50, 100, 200, 0)
BACK_TO_BACK_MOVES = 600
STEP_SECONDS = 4.0
OPTIONS = {"diemen": {"mode": "simulated"}, "slideslam": {"first_player": "random"}}
TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item",
                 "discord-ui-modal-dispatch")   # where discord.py runs an interaction's work
GLOBAL_LIMIT = 50   # Discord's global rate limit: requests per second for the whole bot
NOTATION = {"diemen": "play"}   # the command that takes any move (Die-Men's `move` is the Stand)


def _rss_mb(pid: int | str = "self") -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of another process (a render worker) so far."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


class Meter:
    """What the bench itself and the offline Discord cost, kept apart from the bot's work: the
    players choosing their moves (legal() on the bench's copy of each game) and the fake
    server answering requests (OwnCPU) both run in the bot's process, which a real bot would
    not carry: `bot_process` is the process's CPU less these two. Also counts SQL statements
    sent to the database."""

    def __init__(self, fake) -> None:
        self.played: dict[int, Any] = {}   # game id -> the last Played (interaction moves)
        self.clicks = self.commands = 0    # how the interaction moves came
        self.choosing = 0.0
        self.serving = 0.0
        self.statements = 0
        serve = fake._serve
        fake._serve = lambda *args: OwnCPU(serve(*args), self, "serving")

    @contextlib.contextmanager
    def new_tasks(self):
        """The tasks started meanwhile (discord.py's for a fed interaction), seen as they are
        made: comparing `asyncio.all_tasks()` before and after cost the player time in
        proportion to every task alive, which grew with the backlog when moves came faster
        than they were done, and took the event loop from the bot just at saturation."""
        loop = asyncio.get_running_loop()
        started: list[asyncio.Task] = []
        factory = loop.get_task_factory()

        def recording(loop, coro, **kwargs):
            task = (factory(loop, coro, **kwargs) if factory is not None
                    else asyncio.Task(coro, loop=loop, **kwargs))
            started.append(task)
            return task
        loop.set_task_factory(recording)
        try:
            yield started
        finally:
            loop.set_task_factory(factory)

    async def count_statements(self, store) -> None:
        """Count what the SQLite connection runs (its trace sees statements sent together)."""
        if getattr(store, "backend", "") == "sqlite":
            await getattr(store, "set_trace_callback", store.db.set_trace_callback)(
                self._statement)   # (every connection the store has)

    def _statement(self, _sql: str) -> None:
        self.statements += 1



class OwnCPU:
    """Await a coroutine and add to `meter.<field>` the CPU its own frames took: thread time
    measured only while it runs, never while it waits (other tasks run then). The offline
    Discord answering a request is Discord's work, not the bot's; timing it by the wall clock
    across its awaits would count whatever else ran meanwhile."""

    def __init__(self, coro, meter: "Meter", field: str) -> None:
        self.coro, self.meter, self.field = coro, meter, field

    def __await__(self):
        coro, send, error = self.coro, None, None
        while True:
            t = time.thread_time()
            try:
                waiting = coro.throw(error) if error is not None else coro.send(send)
            except StopIteration as done:
                self._add(t)
                return done.value
            except BaseException:
                self._add(t)
                raise
            self._add(t)
            send = error = None
            try:
                send = yield waiting
            except BaseException as e:  # cancelled, or a failed future: into the coroutine
                error = e

    def _add(self, since: float) -> None:
        setattr(self.meter, self.field, getattr(self.meter, self.field)
                + time.thread_time() - since)


def _fill_store(path: str, finished: int) -> None:
    from bench.store import _fill, _templates
    _fill(Path(path), _templates(), open_games=0, finished=finished)


async def _move(bot, gid: int, rng: random.Random, known: dict[int, Any],
                meter: Meter) -> bool:
    """One random legal move in game `gid`, published; False when it was refused or over.
    The player's side (which moves are legal) uses the bench's copy of the game from its last
    move, as a person looks at the board they were shown; only a refused move reads it anew."""
    if gid not in known:
        row, game = await bot.tables.load(gid)
        known[gid] = (row, game)
    row, game = known[gid]
    t = time.perf_counter()
    actors = [a for a in game.actors() if a != CHANCE] if row.status == "active" else []
    moves = game.legal(seat := rng.choice(actors)) if actors else []
    move = rng.choice(moves) if moves else None
    meter.choosing += time.perf_counter() - t
    if move is None:
        return False
    try:
        played = await bot.tables.play(gid, row.players[seat], move, version=row.version,
                                       by=row.players[seat])
    except RuleError:
        known.pop(gid, None)  # another move got there first: look again next time
        return False
    known[gid] = (played.row, played.game)
    return True


def _thread(fake, parent, name: str):
    """A game thread in the offline Discord (as the lobby's thread creation leaves it), without
    a request: the bench's set-up, not the bot's work."""
    from fakediscord import Channel
    tid = fake.snowflake()
    thread = Channel(tid, 11, name, guild=parent.guild, parent_id=parent.id,
                     owner_id=fake.me.id, members={fake.me.id})
    fake.channels[tid] = thread
    parent.guild.channels[tid] = thread
    fake.bot._connection.parse_thread_create(thread.payload() | {"newly_created": True})
    return thread


def _click_for(fake, row, game, seat: int, move: str, users: dict[int, Any], thread):
    """The click (or pick) that makes `move` on the seat's DM panel or the newest message of
    the game's thread, as a person makes it there (tests/clicker.py's reading of buttons and
    move lists): (payload, message, plan, person), or None when neither offers a control for
    it (then the player types the command)."""
    from clicker import Clicker
    person = Clicker(fake, row.kind, [users[u] for u in row.players], thread.id, row.id)
    # The seat's DM panel (the bot keeps which DM message it is), then the thread's newest.
    panel = (row.extra.get("panels") or {}).get(str(seat)) or {}
    for mid in (panel.get("message"), thread.last_message_id):
        msg = fake.messages.get(mid or 0)
        if msg is None or msg.deleted or not msg.payload.get("components"):
            continue
        plan = person.plan(msg, game, seat, move)
        if plan is not None and plan[0] != "narrow":
            return person._payload(msg, plan, users[row.players[seat]]), msg, plan, person
    return None


def _confirm_for(fake, click, game, seat: int, move: str, user):
    """A pick that only previewed the move (Death by Dice's set-up, Die-Men's aim): the
    Confirm a person clicks next, on the message the pick edited or on its answer; None when
    the pick was refused."""
    payload, msg, plan, person = click
    if plan[0] != "select":
        return None
    for seen in [*reversed(person._answers(payload, user)), fake.messages.get(msg.id)]:
        if seen is None or seen.deleted:
            continue
        again = person.plan(seen, game, seat, move, skip=plan[1])
        if again is not None and again[0] != "narrow":
            return person._payload(seen, again, user)
    return None


async def _feed(fake, payload: dict, meter: Meter) -> None:
    """Send an interaction as Discord does and wait for the task discord.py starts for it."""
    with meter.new_tasks() as started:
        fake.feed(payload)
    t = time.perf_counter()
    tasks = [task for task in started if task.get_name().startswith(TASK_PREFIXES)]
    meter.choosing += time.perf_counter() - t
    await asyncio.gather(*tasks)


async def _move_by_interaction(fake, bot, gid: int, rng: random.Random, known: dict[int, Any],
                               meter: Meter, threads: dict[int, Any], users: dict[int, Any]
                               ) -> bool:
    """One random legal move in game `gid` as its player sends it: a click or pick on their
    DM panel or the thread's newest message, a preview's Confirm after it, or `/<game> move`
    in the game's thread; each an INTERACTION_CREATE through discord.py's parser, done when
    the task discord.py started for it is. The player's side (choosing, building the payload,
    looking at the result) is metered apart from the bot's."""
    if gid not in known:
        known[gid] = await bot.tables.load(gid)
    row, game = known[gid]
    t = time.perf_counter()
    actors = [a for a in game.actors() if a != CHANCE] if row.status == "active" else []
    moves = game.legal(seat := rng.choice(actors)) if actors else []
    move = rng.choice(moves) if moves else None
    if move is None:
        meter.choosing += time.perf_counter() - t
        return False
    user = users[row.players[seat]]
    click = _click_for(fake, row, game, seat, move, users, threads[gid])
    if click is None:
        meter.commands += 1
        payload = fake.slash(bot, f"{row.kind} {NOTATION.get(row.kind, 'move')}",
                             user=user, channel=threads[gid], move=move)
    else:
        meter.clicks += 1
        payload = click[0]
    meter.choosing += time.perf_counter() - t
    await _feed(fake, payload, meter)
    played = meter.played.pop(gid, None)   # what the player sees next: the published game
    if played is None and click is not None:
        t = time.perf_counter()
        confirm = _confirm_for(fake, click, game, seat, move, user)
        meter.choosing += time.perf_counter() - t
        if confirm is not None:
            await _feed(fake, confirm, meter)
            played = meter.played.pop(gid, None)
    if played is None:   # refused (another move got there first): look again next time
        known.pop(gid, None)
        return False
    known[gid] = (played.row, played.game)
    return True


async def run(open_games: int = OPEN_GAMES, rates=RATES, seconds: float = STEP_SECONDS,
              workers: int = 2, finished: int = 0, direct: bool = False,
              profile=None) -> dict[str, Any]:
    """`profile`: a cProfile.Profile enabled only while the steps run (not while the games are
    set up)."""
    from conftest import World, boot
    rng = random.Random(14)
    with tempfile.TemporaryDirectory() as tmp:
        if finished:
            from bot.store import Store
            await (await Store.open(Path(tmp) / "load.db")).close()
            # Filled by another process: the memory it takes is no part of the bot's.
            with concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn")) as filler:
                await asyncio.get_running_loop().run_in_executor(
                    filler, _fill_store, str(Path(tmp) / "load.db"), finished)
        # as the bot runs in production (load_settings): its start-up heap frozen, full
        # collections rare
        fake = await boot(Path(tmp) / "load.db", render_processes=workers,
                          freeze_boot_heap=True)
        try:
            world = World(fake)
            bot = fake.bot
            players = [world.alice.id, world.bob.id]
            users = {world.alice.id: world.alice, world.bob.id: world.bob}
            games = []
            known: dict[int, Any] = {}
            threads: dict[int, Any] = {}
            for i in range(open_games):
                kind = KINDS[i % len(KINDS)]
                thread = None if direct else _thread(fake, world.games, f"{kind} {i}")
                played = await bot.tables.create(kind, players, OPTIONS.get(kind),
                                                 guild_id=world.guild.id,
                                                 channel_id=world.games.id,
                                                 thread_id=thread and thread.id,
                                                 # the opening and turn card in each thread:
                                                 # what a player clicks on
                                                 publish=not direct,
                                                 names=["Alice", "Bob"])
                games.append(played.row.id)
                known[played.row.id] = (played.row, played.game)
                if thread is not None:
                    threads[played.row.id] = thread
            pids = rendering.worker_pids()
            memory = _rss_mb() + sum(_rss_mb(p) for p in pids)
            # The bench's own copies of the games are no part of the bot: the garbage
            # collector should not walk them as it walks the bot's objects (the bot froze its
            # own at start).
            gc.collect()
            gc.freeze()
            meter = Meter(fake)
            if not direct:
                play = bot.tables.play

                async def kept(game_id, *args, **kwargs):
                    """The table's answer to each move, kept as the player's next view."""
                    played = await play(game_id, *args, **kwargs)
                    meter.played[game_id] = played
                    return played
                bot.tables.play = kept
            await meter.count_statements(bot.store)
            steps = []
            if profile is not None:
                profile.enable()
            for rate in rates:
                latencies: list[float] = []
                done = 0
                tasks = []
                fake.requests.clear()  # the fake keeps every request; a real gateway does not
                meter.choosing = meter.serving = 0.0
                meter.clicks = meter.commands = 0
                meter.statements = 0
                pids = rendering.worker_pids()
                cpu0, workers0 = time.process_time(), sum(_cpu_s(p) for p in pids)

                async def one():
                    nonlocal done
                    start = time.perf_counter()
                    gid = rng.choice(games)
                    if await (_move(bot, gid, rng, known, meter) if direct else
                              _move_by_interaction(fake, bot, gid, rng, known, meter, threads,
                                                   users)):
                        done += 1
                        latencies.append((time.perf_counter() - start) * 1000)

                t0 = time.perf_counter()
                if not rate:
                    # The bot's CPU a move where nothing else decides it: at a paced rate the
                    # same moves cost 20-30% more CPU than back to back, the bench's own
                    # players and the collector's passes as much as the bot (the process
                    # waits between moves, and wakes slower), so this is the bot's own figure.
                    for _ in range(BACK_TO_BACK_MOVES):
                        await one()
                else:
                    for k in range(int(rate * seconds)):
                        delay = t0 + k / rate - time.perf_counter()
                        if delay > 0:
                            await asyncio.sleep(delay)
                        tasks.append(asyncio.create_task(one()))
                    await asyncio.gather(*tasks)
                elapsed = time.perf_counter() - t0
                per = max(done, 1)
                main_ms = (time.process_time() - cpu0) * 1000 / per
                # The process also runs the players and the offline Discord's server side:
                # the bot's own share is what is left (see Meter).
                players_ms = meter.choosing * 1000 / per
                fake_ms = meter.serving * 1000 / per
                render_ms = (sum(_cpu_s(p) for p in rendering.worker_pids()) - workers0) \
                    * 1000 / per
                steps.append({"offered_per_s": rate or "back to back", "done_per_s": round(done / elapsed, 1),
                              "p50_ms": round(_pct(latencies, 50), 1),
                              "p99_ms": round(_pct(latencies, 99), 1),
                              "rss_mb": round(_rss_mb() + sum(_rss_mb(p) for p in
                                                              rendering.worker_pids()), 1),
                              "http_per_move": round(len(fake.requests) / per, 2),
                              "global_per_move": round(sum(
                                  r.seam == "rest" for r in fake.requests) / per, 2),
                              "interaction_per_move": round(sum(
                                  r.seam == "webhook" for r in fake.requests) / per, 2),
                              "sql_per_move": round(meter.statements / per, 1),
                              "moves_by_click": meter.clicks,
                              "moves_by_command": meter.commands,
                              "cpu_ms_per_move": {
                                  "bot_process": round(main_ms - (players_ms + fake_ms), 2),
                                  "render_workers": round(render_ms, 2),
                                  "process_total": round(main_ms, 2),
                                  "of_which_bench_players": round(players_ms, 2),
                                  "of_which_fake_discord": round(fake_ms, 2)}})
            if profile is not None:
                profile.disable()
        finally:
            await fake.stop(check=False)
            gc.unfreeze()
    paced = [s for s in steps if s["offered_per_s"] != "back to back"] or steps
    at_50 = next((s for s in paced if s["offered_per_s"] == 50), paced[-1])
    back = next((s for s in steps if s["offered_per_s"] == "back to back"), None)
    return {"load.steps": steps,
            "load.saturation_moves_per_s": max(s["done_per_s"] for s in paced),
            "load.bot_cpu_ms_per_move_at_50": at_50["cpu_ms_per_move"]["bot_process"],
            "load.bot_cpu_ms_per_move_back_to_back": back and back["cpu_ms_per_move"][
                "bot_process"],
            "load.p99_ms_at_50": at_50["p99_ms"],
            "load.http_per_move": round(statistics.median(s["http_per_move"] for s in steps), 2),
            "load.global_requests_per_move": (g := round(statistics.median(
                s["global_per_move"] for s in steps), 2)),
            "load.interaction_requests_per_move": round(statistics.median(
                s["interaction_per_move"] for s in steps), 2),
            "load.bot_wide_ceiling_moves_per_s": round(GLOBAL_LIMIT / g, 1) if g else None,
            "load.moves_as": "tables.play" if direct else "interactions",
            "memory.mb_1000_open": round(memory, 1)}


def measure() -> dict[str, Any]:
    out = asyncio.run(run())
    full = asyncio.run(run(finished=100_000))
    out.update({k.replace("load.", "load.at_100k_finished.", 1): v for k, v in full.items()
                if k.startswith("load.")})
    return out


def keyed() -> dict[str, Any]:
    """The figures from a process of their own: `make bench` has run engines and renderers in
    its own process by now, and render workers forked from it would carry that memory too, so
    `memory.mb_1000_open` would count the bench, not the bot."""
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "bench.load"], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parent.parent)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    """`python -m bench.load` runs both stores (what `make bench` keeps); `--quick` a short
    run for iteration; `--profile FILE` writes a cProfile of the event loop's process while the
    steps run (the games' set-up left out)."""
    import argparse
    import json
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    ap = argparse.ArgumentParser(prog="python -m bench.load")
    ap.add_argument("--quick", action="store_true",
                    help="200 open games, steps of 3 s at 25/50/100/150 moves/s, no 100k store")
    ap.add_argument("--open", type=int, help="open games (default 1,000; quick 200)")
    ap.add_argument("--rates", help="comma-separated offered moves/s")
    ap.add_argument("--seconds", type=float, help="length of each step")
    ap.add_argument("--workers", type=int, help="render processes (0: threads)")
    ap.add_argument("--finished", type=int, default=0, help="finished games already stored")
    ap.add_argument("--profile", help="write a cProfile of the run to this file")
    ap.add_argument("--direct", action="store_true",
                    help="move through tables.play, not as interactions (as before issue #23)")
    args = ap.parse_args(argv)
    if not (args.quick or args.open or args.rates or args.seconds or args.workers is not None
            or args.finished or args.profile or args.direct):
        print(json.dumps(measure(), indent=1))
        return 0
    kw: dict[str, Any] = {}
    if args.quick:
        kw.update(open_games=200, rates=(25, 50, 100, 150), seconds=3.0)
    if args.open:
        kw["open_games"] = args.open
    if args.rates:
        kw["rates"] = tuple(int(r) for r in args.rates.split(","))
    if args.seconds:
        kw["seconds"] = args.seconds
    if args.workers is not None:
        kw["workers"] = args.workers
    kw["finished"] = args.finished
    kw["direct"] = args.direct
    if args.profile:
        import cProfile
        prof = cProfile.Profile(time.thread_time)  # CPU of the event loop, not waits
        out = asyncio.run(run(**kw, profile=prof))
        prof.dump_stats(args.profile)
    else:
        out = asyncio.run(run(**kw))
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
