"""`make bench`: measure, print a summary, write bench/results.local.json (ignored by git;
`--save` writes the tracked bench/results.json). Numbers are medians (and p99 where a tail
matters) on this machine; nothing here asserts a time.

Rows: the core (one interaction end to end through the offline Discord, store commits, resume
of 1,000 open games) and every game's `bench/engine_<kind>.py` / `bench/render_<kind>.py`.
"""
from __future__ import annotations

import asyncio
import importlib
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the offline Discord harness lives with the tests


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


async def interaction_latency(rounds: int = 150) -> dict[str, float]:
    """Payload in → final response out, through discord.py's real parsing: a typed move in a
    Slide and Slam game (engine, DB commit, board image, thread message)."""
    from conftest import World, boot
    with tempfile.TemporaryDirectory() as tmp:
        fake = await boot(Path(tmp) / "bench.db")
        try:
            world = World(fake)
            bot = fake.bot
            timings: list[float] = []
            row = None
            while len(timings) < rounds:
                if row is None or (await bot.store.get_game(row.id)).status != "active":
                    played = await bot.tables.create(
                        "slideslam", [world.alice.id, world.bob.id],
                        {"first_player": "random"}, guild_id=world.guild.id,
                        channel_id=world.games.id)
                    row = played.row
                    game = played.game
                    # Both walls up: place all dice straight through the table.
                    for seat in (0, 1):
                        while seat in game.actors():
                            move = sorted(game.legal(seat))[0]
                            played = await bot.tables.play(row.id, None, move, actor=seat)
                            game = played.game
                    await fake.settle()
                current = await bot.store.get_game(row.id)
                game = bot.game_cogs["slideslam"].engine.from_json(current.state)
                seat = next(a for a in game.actors() if a != "chance")
                user = world.alice if seat == 0 else world.bob
                move = game.legal(seat)[0]
                payload = fake.slash(bot, "slideslam move", user=user, channel=world.games,
                                     move=move)
                start = time.perf_counter()
                await fake.invoke(payload)
                timings.append((time.perf_counter() - start) * 1000)
        finally:
            await fake.stop()
    return {"interaction → final response ms (median)": statistics.median(timings),
            "interaction → final response ms (p99)": percentile(timings, 99)}


async def store_rates(commits: int = 1000, open_games: int = 1000) -> dict[str, float]:
    from bot.engine.slideslam import GAME
    from bot.store import Entry, Store
    from bot.tables import Tables
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "rates.db")
        state = GAME.new(2).to_json()
        gid = await store.create_game("slideslam", 1, 2, 3, [10, 20], {}, "seed", state)
        start = time.perf_counter()
        for v in range(commits):
            await store.commit_move(gid, v, [Entry(0, "bench")], state)
        rate = commits / (time.perf_counter() - start)
        for i in range(open_games):
            await store.create_game("slideslam", 1, 2, 3, [10 + i, 20 + i], {}, "seed", state,
                                    deadline=time.time() + 3600, deadline_kind="turn")
        await store.close()

        async def never(_):
            await asyncio.Event().wait()

        runs = []
        for _ in range(5):
            store = await Store.open(Path(tmp) / "rates.db")
            tables = Tables(store, sleep=never)
            start = time.perf_counter()
            resumed = await tables.resume()
            runs.append((time.perf_counter() - start) * 1000)
            await tables.close()
            await store.close()
    return {"store commits/s (one move per transaction)": rate,
            f"resume {resumed} open games ms (median of 5)": statistics.median(runs)}


def module_rows() -> dict[str, float]:
    rows: dict[str, float] = {}
    for path in sorted((ROOT / "bench").glob("*.py")):
        if path.stem.startswith(("engine_", "render_")):
            module = importlib.import_module(f"bench.{path.stem}")
            rows.update(module.bench())
    return rows


def keyed_rows() -> dict[str, Any]:
    """Figures under fixed dotted keys (`table.slideslam.turns`, `load.p99_ms_at_50`, ...), so
    runs can be compared by program: every bench module with a `keyed()` function adds its own."""
    rows: dict[str, Any] = {}
    for path in sorted((ROOT / "bench").glob("*.py")):
        if path.stem in ("__main__", "__init__", "common"):
            continue
        module = importlib.import_module(f"bench.{path.stem}")
        if hasattr(module, "keyed"):
            rows.update(module.keyed())
    return rows


def nest(flat: dict[str, Any]) -> dict[str, Any]:
    """`{"a.b.c": 1}` as `{"a": {"b": {"c": 1}}}`."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        *path, last = key.split(".")
        node = out
        for part in path:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def _number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        text = str(value)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"


def summary_lines(rows: dict[str, Any]) -> list[tuple[str, str]]:
    """(measure, value) lines to read: nested figures under dotted keys, a list of steps one
    line per step with its figures as `name=value`, never a whole structure on one line."""
    out: list[tuple[str, str]] = []
    for key, value in rows.items():
        if isinstance(value, dict):
            out += summary_lines({f"{key}.{k}": v for k, v in value.items()})
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for i, item in enumerate(value, 1):
                flat = dict(summary_lines({k: v for k, v in item.items()}))
                text = ", ".join(f"{k}={v}" for k, v in flat.items())
                out.append((f"{key}[{i}]", text if len(text) <= 110 else text[:107] + "..."))
        elif isinstance(value, list):
            text = ", ".join(_number(v) for v in value)
            out.append((key, text if len(text) <= 60 else text[:57] + "..."))
        else:
            out.append((key, _number(value)))
    return out


RESULTS = ROOT / "bench" / "results.json"              # tracked: the figures in the docs
LOCAL_RESULTS = ROOT / "bench" / "results.local.json"  # ignored by git: any other run


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def main(argv: list[str] | None = None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m bench", description="Measure latency, "
                                 "throughput and render times; print a summary.")
    ap.add_argument("--save", action="store_true",
                    help=f"write {_shown(RESULTS)} (the tracked figures) instead of "
                         f"{_shown(LOCAL_RESULTS)}")
    ap.add_argument("--out", metavar="FILE", help="write the results to FILE instead")
    args = ap.parse_args(argv)
    out = Path(args.out) if args.out else RESULTS if args.save else LOCAL_RESULTS
    results: dict[str, float] = {}
    steps = (("interaction latency", lambda: asyncio.run(interaction_latency())),
             ("store commits and resume", lambda: asyncio.run(store_rates())),
             ("engines and pictures", module_rows))
    for i, (name, step) in enumerate(steps, 1):
        print(f"bench: {i}/{len(steps) + 1} {name} ...", file=sys.stderr, flush=True)
        results.update(step())
    print(f"bench: {len(steps) + 1}/{len(steps) + 1} keyed figures (tables, load) ...",
          file=sys.stderr, flush=True)
    keyed = keyed_rows()
    lines = summary_lines(results) + summary_lines(nest(keyed))
    width = min(60, max(len(k) for k, _ in lines))
    print(f"{'measure'.ljust(width)}  value")
    print(f"{'-' * width}  -----")
    for key, value in lines:
        print(f"{key.ljust(width)}  {value}")
    out.write_text(json.dumps({"machine": platform.platform(), "python": platform.python_version(),
                               **nest(keyed), "results": results}, indent=1) + "\n")
    print(f"\nwritten to {_shown(out)}" + ("" if args.save or args.out else
                                           f" (--save writes {_shown(RESULTS)})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
