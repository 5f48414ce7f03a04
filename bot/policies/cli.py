"""`python -m bot match GAME POLICY_A POLICY_B --games N [--players K] [--option k=v]
[--json]`: N seeded games between two policies, seats alternated."""
from __future__ import annotations

import argparse
import json
import sys

from bot.engine import KINDS
from bot.engine.core import RuleError

from . import LEVELS
from .match import Progress, run_match


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=KINDS, metavar="GAME", help="which game: " + ", ".join(KINDS))
    p.add_argument("policy_a", choices=LEVELS, metavar="POLICY_A",
                   help="the first practice opponent: " + ", ".join(LEVELS))
    p.add_argument("policy_b", choices=LEVELS, metavar="POLICY_B",
                   help="the second one (seats alternate game by game)")
    p.add_argument("--games", type=int, default=20, metavar="N",
                   help="how many games (default: 20)")
    p.add_argument("--players", type=int, default=2, metavar="K",
                   help="players per game; with more than two the seats alternate A, B, A, ... "
                        "(default: 2)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, as in a record (repeat for several), e.g. "
                        "--option columns=8")
    p.add_argument("--seed", type=int, default=1,
                   help="the run's seed: game i uses seed*100003+i (default: 1)")
    p.add_argument("--processes", type=int, default=1, metavar="P",
                   help="games played at once in P worker processes (default: 1)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object on stdout instead of the summary")
    p.add_argument("--quiet", action="store_true",
                   help="no progress lines on stderr")


def run(args: argparse.Namespace) -> int:
    """The match; 0 done, 1 refused (bad options: one line on stderr)."""
    options = {}
    for pair in args.option:
        key, sep, value = pair.partition("=")
        if not sep:
            print(f"--option takes key=value, not {pair!r}", file=sys.stderr)
            return 1
        options[key] = value
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 1
    if args.processes < 1:
        print("--processes must be at least 1", file=sys.stderr)
        return 1
    progress = None if args.quiet else Progress(
        f"{args.game} {args.policy_a} vs {args.policy_b}", args.games)
    try:
        res = run_match(args.game, args.policy_a, args.policy_b, args.games, args.players,
                        options, seed=args.seed, processes=args.processes, progress=progress)
    except RuleError as e:
        print(f"cannot play {args.game}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(res.to_json()))
        return 0
    lengths = sorted(res.lengths)
    print(f"{args.game}: {res.games} games, {args.players} players, seats alternated")
    for name, n in res.wins.items():
        print(f"  {name:>7} wins {n:4d} ({100 * n / res.games:5.1f}%)")
    print(f"  draws        {res.draws:4d} ({100 * res.draws / res.games:5.1f}%)")
    print(f"  moves: median {res.median_moves}, shortest {lengths[0]}, longest {lengths[-1]}")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(res.endings.items())))
    return 0


def main(argv: list[str] | None = None) -> int:
    from bot.cliparse import Parser  # a refused command line exits 1, as in `python -m bot`
    p = Parser(prog="python -m bot match", description=__doc__)
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
