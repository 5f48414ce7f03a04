"""Practice opponents' strength and thinking time, a small sample for `make bench` (issue #16).

Keys, per game: `strength.<game>.normal_vs_random`, `strength.<game>.hard_vs_normal` and
`strength.<game>.normal_vs_greedy` (against the one-ply baseline of issue #28): the first
level's share of the games, seats alternated, draws counting half, with the games played
under `..._games`, and `strength.<game>.normal_ms` / `strength.<game>.hard_ms` (median decision
time over every decision of those games, two games at once on the 2 cores; KAPLOOM!'s hard
figure from its first 20 decisions of one game, no hard game being played here). The samples here are tiny so that `make bench` stays short: the issue's figures
(400 games a pairing) come from `make balance BALANCE_ARGS="--strength 400 --hard 400"`.

    python -m bench.strength [--games N] [--hard N]    # a bigger run, printed
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
from typing import Any

from bot.engine import KINDS
from bot.policies.match import GameResult, play_game, summarize

GAMES = 4        # normal vs random per game (KAPLOOM!: half, its games are ten times longer)
HARD_GAMES = 2   # hard vs normal per game; fewer where a hard game takes minutes:
HARD_SHARE = {"tradeshowdown": 0.5, "kaploom": 0.0}   # (KAPLOOM!: timed decisions only)


def _job(args) -> GameResult:
    kind, levels, seed = args
    return play_game(kind, levels, seed, None, timed=True)


def pairing(pool, kind: str, a: str, b: str, games: int, seed: int = 23) -> dict[str, Any]:
    jobs = [(kind, [a, b] if i % 2 == 0 else [b, a], seed * 7919 + i) for i in range(games)]
    res = summarize(kind, a, b, pool.map(_job, jobs, chunksize=1)) if jobs else None
    if res is None:
        return {"share": None, "games": 0, "ms": {}}
    share = (res.wins[a] + 0.5 * res.draws) / games
    ms = {lv: round(1000 * statistics.median(ts), 1) for lv, ts in res.think.items() if ts}
    return {"share": round(share, 3), "games": games, "ms": ms}


def measure(games: int = GAMES, hard: int = HARD_GAMES, kinds=KINDS) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with mp.get_context("fork").Pool(2) as pool:
        for kind in kinds:
            n = max(1, games // 2) if kind == "kaploom" else games
            h = int(hard * HARD_SHARE.get(kind, 1.0) + 0.5) if hard else 0
            nr = pairing(pool, kind, "normal", "random", n)
            hn = pairing(pool, kind, "hard", "normal", h)
            out[f"strength.{kind}.normal_vs_random"] = nr["share"]
            out[f"strength.{kind}.normal_vs_random_games"] = nr["games"]
            out[f"strength.{kind}.hard_vs_normal"] = hn["share"]
            out[f"strength.{kind}.hard_vs_normal_games"] = hn["games"]
            # the one-ply greedy baseline of issue #28 (normal should beat it)
            ng = pairing(pool, kind, "normal", "greedy", n)
            out[f"strength.{kind}.normal_vs_greedy"] = ng["share"]
            out[f"strength.{kind}.normal_vs_greedy_games"] = ng["games"]
            normal = [nr["ms"].get("normal"), hn["ms"].get("normal")]
            normal = [x for x in normal if x is not None]
            out[f"strength.{kind}.normal_ms"] = statistics.median(normal) if normal else None
            out[f"strength.{kind}.hard_ms"] = hn["ms"].get("hard") or sample_ms(kind, "hard")
    return out


def sample_ms(kind: str, level: str, decisions: int = 20, seed: int = 5) -> float:
    """Median ms of `level`'s first `decisions` real decisions (more than one playable move)
    in a seeded game against `normal`: a hard figure where a whole hard game is too long."""
    import random
    import time

    from bot.engine import CHANCE, load
    from bot.policies import make, playable
    from bot.policies.match import default_options
    from bot.policies.seen import Watch
    g = load(kind).new(2, default_options(kind), ["Normal 1", "Hard 2"])
    watch = Watch(g)
    pols = [make("normal", watch.seen[0]), make(level, watch.seen[1])]
    rng, chance = random.Random(seed), random.Random(seed + 1)
    times: list[float] = []
    while g.outcome() is None and len(times) < decisions:
        actors = g.actors()
        if actors == [CHANCE]:
            actor, move = CHANCE, g.chance().sample(chance)
        else:
            actor = actors[0]
            t0 = time.perf_counter()
            move = pols[actor].choose(g.view(actor), g.legal(actor), rng)
            if actor == 1 and len(playable(g.legal(actor))) > 1:
                times.append(time.perf_counter() - t0)
        note = watch.before(g, actor)
        events = g.apply(actor, move)
        watch.after(g, actor, move, note, events)
    return round(1000 * statistics.median(times), 1) if times else None


def keyed() -> dict[str, Any]:
    return measure()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.strength")
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--hard", type=int, default=HARD_GAMES)
    ap.add_argument("--only", nargs="*", default=list(KINDS))
    args = ap.parse_args(argv)
    for k, v in measure(args.games, args.hard, args.only).items():
        print(f"{k:45} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
