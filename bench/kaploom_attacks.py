"""KAPLOOM!: how often each policy attacks, what it deals, and how long it thinks (issue #28:
"hard attacks 3.1 times a round against the greedy player's 5.4: it over-builds").

The same games as `python -m bot match kaploom A B --games N --seed S` (game i seed
S·100003 + i, seats alternated), with each round's reveal read from the game's combat
record: rounds in which a policy's attack had a base, its attack totals and the health its
attacks took, and each policy's decision times (wall, this machine as loaded at the time).

    python -m bench.kaploom_attacks hard greedy --games 30 --seed 11
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from bot.policies import LEVELS
from bot.policies.match import GameResult, play_seeded, seats_for, summarize


def measure(a: str, b: str, games: int, seed: int) -> dict[str, Any]:
    tally = {lv: {"rounds": 0, "attacks": 0, "total": 0, "dealt": 0} for lv in (a, b)}
    results = []
    for i in range(games):
        levels = seats_for(a, b, 2, i)
        counted: set[int] = set()

        def note(g: Any) -> None:
            # the combat record is replaced whole at each reveal: count each round once
            c = g.combat
            if not c or c["round"] in counted:
                return
            counted.add(c["round"])
            for lv in levels:
                tally[lv]["rounds"] += 1
            for e in c["attacks"]:
                t = tally[levels[e["attacker"]]]
                t["attacks"] += e["attack"]["base"] is not None
                t["total"] += e["attack"]["total"]
                t["dealt"] += e["loss"] or 0

        g, moves, think = play_seeded("kaploom", levels, seed * 100003 + i, None, True, note)
        out = g.outcome()
        results.append(GameResult(out.winners, out.ending, moves, levels, think) if out
                       else GameResult((), "capped", moves, levels, think, capped=True))
        print(f"{i + 1}/{games} games", file=sys.stderr, flush=True)
    return {"match": summarize("kaploom", a, b, results), "tally": tally}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.kaploom_attacks", description=__doc__)
    p.add_argument("policy_a", choices=LEVELS)
    p.add_argument("policy_b", choices=LEVELS)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args(argv)
    t0 = time.process_time()
    m = measure(args.policy_a, args.policy_b, args.games, args.seed)
    res = m["match"]
    print(f"kaploom {args.policy_a} vs {args.policy_b}, {res.games} games, seed {args.seed}: "
          f"wins {res.wins}, draws {res.draws}, endings {res.endings}")
    for lv, t in m["tally"].items():
        r = max(1, t["rounds"])
        print(f"  {lv}: attacked in {t['attacks']} of {t['rounds']} rounds "
              f"({t['attacks'] / r:.2f} a round), attack {t['total'] / r:.2f} a round, "
              f"damage dealt {t['dealt']}")
    for lv, ts in res.think.items():
        ts = sorted(ts)
        print(f"  {lv}: {len(ts)} decisions, median {1000 * statistics.median(ts):.1f} ms, "
              f"p99 {1000 * ts[int(0.99 * (len(ts) - 1))]:.0f} ms, longest {1000 * ts[-1]:.0f} ms")
    print(f"  {time.process_time() - t0:.0f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
