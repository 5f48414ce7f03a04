"""How much room Crazy Die-Man leaves for skill (issue #28: `hard` to beat `normal` >= 60%).

Measurements, printed (not part of `make bench`). `normal` here is the careful plan
(`careful_plan`, the normal level until 26 Nov, when normal became a casual player): the
figures in docs/balance.md's 26 Nov note were measured with it.

- **Head start**: `normal` against `normal` with one seat's rival starting at 1 + k Property
  Damage instead of 1 (seats alternated, 95% Wilson interval). It turns a win rate into points
  of damage: whatever `hard` does better is worth the head start that gives the same rate.
- **Where hard's edge is** (`--pairings`): `hard` and `hard` barred from Called Shots
  (`hard-nocalls`) against `normal`, on the same game seeds.
- **The race solved**: the race to 20 as `hard` models it (`_play_table`) solved exactly for a
  player that may make each flick plain, a Called Shot or at the middle against a rival who
  flicks plainly, and the same with plain flicks only, at the model's calibrated rates
  (`RATE_SCALE`) and at band A's own.

Every seat is played on the real game through its own view (`decide` / `hard_choose` on a
copy): after the set-up nothing of a simulated game is hidden, and the set-up view shows no
rival banner; a game rebuilt from the record (what the practice players do) would not know of
the head start. Game i is seeded "S:i" here, not as `python -m bot match` seeds it.

    python -m bench.diemen_ceiling [--games N] [--seed S] [--k 1 2 3 4 5] [--pairings]
"""
from __future__ import annotations

import argparse
import random
from typing import Callable

from bench.balance import wilson
from bot.engine import CHANCE, load
from bot.policies import diemen as plan, playable


def _normal(g, seat: int, legal: list[str], rng: random.Random) -> str:
    move = plan.careful_plan(plan.Floor(g.view(seat)), seat, legal, rng)
    return move if move in legal else rng.choice(playable(legal))


class _Shown:
    """`hard_choose`'s seat record, standing for the real game seen from the seat."""

    def __init__(self, g, seat: int):
        self.g, self.seat = g, seat

    def determinize(self, rng):
        return self.g.fork()


class _Hard:
    def __init__(self, g, seat: int):
        self.seen = _Shown(g, seat)


def _hard(g, seat: int, legal: list[str], rng: random.Random) -> str:
    move = plan.hard_choose(_Hard(g, seat), g.view(seat), legal, rng)
    return move if move in legal else rng.choice(playable(legal))


def _hard_nocalls(g, seat: int, legal: list[str], rng: random.Random) -> str:
    return _hard(g, seat, [m for m in legal if not m.startswith("called ")] or legal, rng)


PLAYERS: dict[str, Callable] = {"normal": _normal, "hard": _hard, "hard-nocalls": _hard_nocalls}


def play(players: tuple[Callable, Callable], seed: str, start: tuple[int, int] = (1, 1)
         ) -> tuple[int, ...]:
    """One game, seat i played by `players[i]`, starting at Property Damage `start`: winners."""
    cls = load("diemen")
    saved = cls.new(2, {"mode": "simulated"}, ["A", "B"]).to_json()
    # the head start written into the saved state (rules.START_DAMAGE is 1 for both)
    for s in (0, 1):
        saved["state"]["floor"]["sides"][s]["damage"] = start[s]
    g = cls.from_json(saved)
    chance = random.Random(f"{seed}:chance")
    rngs = [random.Random(f"{seed}:seat{s}") for s in (0, 1)]
    while g.outcome() is None:
        actors = g.actors()
        if actors == [CHANCE]:
            g.simulate(CHANCE, g.chance().sample(chance))
        else:
            s = actors[0]
            g.simulate(s, players[s](g, s, g.legal(s), rngs[s]))
    return g.outcome().winners


def pairing(a: str, b: str, games: int, seed: int, k: int = 0) -> int:
    """Games (of `games`, seats alternated) won by `a` against `b`, b starting k points up."""
    won = 0
    for i in range(games):
        seat = i % 2
        players = [PLAYERS[b], PLAYERS[b]]
        players[seat] = PLAYERS[a]
        start = [1 + k, 1 + k]
        start[seat] = 1
        won += seat in play((players[0], players[1]), f"{seed}:{i}", (start[0], start[1]))
    return won


def race_values(scale: float | None = None) -> dict[str, float]:
    """The solved race's chance to win from 1-1 (the average of moving first and second),
    with Called Shots allowed and with plain flicks only, at hit rates `scale` (None: the
    model's own RATE_SCALE)."""
    saved = plan.RATE_SCALE
    try:
        if scale is not None:
            plan.RATE_SCALE = scale
            plan._play_table.cache_clear()
        calls, plain = plan._play_table(), plan._play_table(calls=False)
    finally:
        if scale is not None:
            plan.RATE_SCALE = saved
            plan._play_table.cache_clear()

    def start(table):
        ours, theirs = table
        return (ours[2][1][1] + theirs[2][1][1]) / 2
    return {"with_calls": start(calls), "plain_only": start(plain)}


def _line(what: str, won: int, games: int) -> str:
    lo, hi = wilson(won, games)
    return f"{what}: {won}/{games} ({100 * won / games:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}])"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--k", type=int, nargs="*", default=[1, 2, 3, 4, 5])
    ap.add_argument("--pairings", action="store_true",
                    help="also hard and hard-nocalls against normal")
    args = ap.parse_args(argv)
    for label, scale in (("RATE_SCALE", None), ("band A's own rates", 1.0)):
        race = race_values(scale)
        print(f"race solved at {label}, from 1-1: with Called Shots "
              f"{100 * race['with_calls']:.2f}%, plain flicks only "
              f"{100 * race['plain_only']:.2f}%")
    for k in args.k:
        print(_line(f"normal vs normal, the rival starting at {1 + k}",
                    pairing("normal", "normal", args.games, args.seed, k), args.games),
              flush=True)
    if args.pairings:
        for a in ("hard", "hard-nocalls"):
            print(_line(f"{a} vs normal", pairing(a, "normal", args.games, args.seed),
                        args.games), flush=True)


if __name__ == "__main__":
    main()
