"""Replays (issue #26): how long a game's animated GIF takes to make and how big it is, and how
fast a step-through click answers.

Games: for each kind, GAMES games between two `normal` practice bots (what a played game looks
like; random self-play games run far longer than people play), recorded move by move; the
game of median length (in steps that changed the public board) is the one measured.

Keys:
- `replay.<game>.gif_seconds`: CPU seconds of one build of that game's GIF (the replay, every
  board, the encoding: all a render worker does; the game's palette is chosen once per process,
  before). Goal: ≤ 3 s. `gif_wall_seconds`: the same by the wall clock.
- `replay.<game>.gif_bytes`: its size. Goal: ≤ 2 MB (the longest games ≤ 8 MB).
- `replay.<game>.steps`, `replay.<game>.frames`: what it holds.
- `replay.step_p99_ms`: a step-through click of `/games replay` with the game's steps built
  from its record and their boards' layouts in the animated replay (as the first click after a
  restart does; later ones read the cog's cache: `replay.step_cached_p99_ms`) plus one board
  picture in its layout, p99 over 12 clicks on each median game, CPU milliseconds. Goal:
  ≤ 300 ms.

`make bench` runs it with the other keyed figures (bench/__main__.py reads every bench module's
`keyed()`); alone: `.venv/bin/python -m bench.replay`. It plays its games first (about two
minutes: the bots think).
"""
from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from bot.engine import CHANCE, KINDS, load
from bot.engine.records import Record

GAMES = 3
LEVEL = "normal"


def policy_record(kind: str, seed: int, level: str = LEVEL, players: int = 2) -> Record:
    """One game between two `level` bots as a record (bot.policies.match's way of playing)."""
    from bot.policies import make
    from bot.policies.match import MOVE_CAP, default_options
    from bot.policies.seen import Watch
    cls = load(kind)
    names = [f"{level.title()} {i + 1}" for i in range(players)]
    game = cls.new(players, default_options(kind), names)
    record = Record(kind, dict(game.options), names, seed)
    watch = Watch(game)
    policies = [make(level, watch.seen[s]) for s in range(players)]
    chance_rng = random.Random(f"{seed}:chance")
    rngs = [random.Random(f"{seed}:seat{s}") for s in range(players)]
    while game.outcome() is None and len(record.entries) < MOVE_CAP:
        actors = game.actors()
        if actors == [CHANCE]:
            actor, move = CHANCE, game.chance().sample(chance_rng)
        else:
            actor = actors[0]
            move = policies[actor].choose(game.view(actor), game.legal(actor), rngs[actor])
        note = watch.before(game, actor)
        events = game.apply(actor, move)
        watch.after(game, actor, move, note, events)
        record.add(actor, move)
    record.result = game.result
    return record


def median_game(kind: str, games: int = GAMES) -> tuple[Record, list[int]]:
    """The game of median length (in public steps) of `games` bot games, and every length."""
    from bot.replay import walk
    played = []
    for seed in range(games):
        record = policy_record(kind, seed)
        played.append((len(walk(record, None, keep_views=False).steps) - 1, seed, record))
    played.sort(key=lambda t: (t[0], t[1]))
    return played[len(played) // 2][2], [n for n, _, _ in played]


def gif_figures(kind: str, record: Record) -> dict[str, Any]:
    """One build of the GIF, after a warm-up (the renderer's fonts and the game's palette,
    which a render worker pays once): its CPU seconds (what a render worker spends; the
    machine may be shared, so CPU time, not the wall clock, is the figure) and its size."""
    from rendering.gif import kind_palette, replay_gif
    kind_palette(kind)
    data = record.to_json()
    t0, c0 = time.perf_counter(), time.process_time()
    gif = replay_gif(data)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    return {f"replay.{kind}.gif_seconds": round(cpu, 2),
            f"replay.{kind}.gif_wall_seconds": round(wall, 2),
            f"replay.{kind}.gif_bytes": len(gif.png),
            f"replay.{kind}.steps": gif.steps, f"replay.{kind}.frames": gif.frames}


def step_clicks(records: list[Record], clicks: int = 12) -> tuple[list[float], list[float]]:
    """Milliseconds per step-through click, CPU time: cold (the game's steps built from its
    record, as the first click after a restart does, with their boards' layouts in the
    animated replay, and one board picture in its layout) and warm (the steps and layouts from
    the cog's cache, one picture)."""
    from bot.render_cli import layouts_of, renderers
    from bot.replay import walk
    rng = random.Random(26)
    cold, warm = [], []
    for record in records:
        draw, _ = renderers(record.kind)

        def picture(replay, layouts, number: int) -> None:
            draw(replay.boards[number], *(() if layouts is None else (layouts[number],)))

        replay = walk(record, None)
        picture(replay, None, 0)  # fonts
        for _ in range(clicks):
            c0 = time.process_time()
            replay = walk(record, None)
            layouts = layouts_of(record.kind, replay.boards)
            picture(replay, layouts, replay.step_at(rng.randrange(len(replay.steps))).number)
            cold.append((time.process_time() - c0) * 1000)
            c0 = time.process_time()
            picture(replay, layouts, replay.step_at(rng.randrange(len(replay.steps))).number)
            warm.append((time.process_time() - c0) * 1000)
    return cold, warm


def keyed() -> dict[str, Any]:
    from bench.__main__ import percentile
    rows: dict[str, Any] = {}
    records = []
    for kind in KINDS:
        try:
            record, lengths = median_game(kind)
            rows[f"replay.{kind}.game_steps"] = lengths
            rows.update(gif_figures(kind, record))
            records.append(record)
        except Exception as e:  # a renderer mid-change: say so, measure the others
            rows[f"replay.{kind}.error"] = f"{type(e).__name__}: {e}"[:100]
    cold, warm = step_clicks(records)
    rows["replay.step_p99_ms"] = round(percentile(cold, 99), 1)
    rows["replay.step_median_ms"] = round(statistics.median(cold), 1)
    rows["replay.step_cached_p99_ms"] = round(percentile(warm, 99), 1)
    return rows


if __name__ == "__main__":
    print(json.dumps(keyed(), indent=1))
