"""How much room Crazy Die-Man leaves for skill (issue #28: `hard` to beat `normal` >= 60%).

Two measurements, printed (not part of `make bench`):

- **Head start**: `normal` against `normal` with one seat's rival starting at 1 + k Property
  Damage instead of 1 (seats alternated, 95% Wilson interval). It turns a win rate into points
  of damage: whatever `hard` does better is worth the head start that gives the same rate.
- **The race solved**: the race to 20 as `hard` models it (`_play_table`: per-flick odds of the
  flick table's band A, a Bonus Flick kept 85% of the time) solved exactly for a player that
  may make each flick plain, a Called Shot or at the middle against a rival who flicks plainly,
  and the same with plain flicks only: what choosing when to call is worth, at best, in a game
  of flicks alone.

The head-start games give a seat's plan the seat's own view of the real game (`decide` on it):
after the set-up nothing of a simulated game is hidden, and normal's set-up reads only its own
side; a game rebuilt from the record (what the practice players do) would not know of the
head start.

    python -m bench.diemen_ceiling [--games N] [--seed S] [--k 1 2 3 4 5]
"""
from __future__ import annotations

import argparse
import random

from bench.balance import wilson
from bot.engine import CHANCE, load
from bot.policies import diemen as plan, playable


def _normal(g, seat: int, rng: random.Random) -> str:
    legal = g.legal(seat)
    move = plan._decide(plan.Floor(g.view(seat)), seat, legal, rng)
    return move if move in legal else rng.choice(playable(legal))


def head_start_game(seed: str, start: tuple[int, int]) -> tuple[int, ...]:
    """One normal-vs-normal game with the seats' starting Property Damage `start`: winners."""
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
            g.simulate(s, _normal(g, s, rngs[s]))
    return g.outcome().winners


def head_start(k: int, games: int, seed: int) -> int:
    """Games (of `games`, seats alternated) won by the seat whose rival starts k points up."""
    won = 0
    for i in range(games):
        ahead = i % 2
        start = [1 + k, 1 + k]
        start[ahead] = 1
        won += ahead in head_start_game(f"{seed}:{i}", (start[0], start[1]))
    return won


def race_values() -> dict[str, float]:
    """The solved race's chance to win from 1-1 (the average of moving first and second),
    with Called Shots allowed and with plain flicks only."""
    calls, plain = plan._play_table(), plan._play_table(calls=False)

    def start(table):
        ours, theirs = table
        return (ours[2][1][1] + theirs[2][1][1]) / 2
    return {"with_calls": start(calls), "plain_only": start(plain)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--k", type=int, nargs="*", default=[1, 2, 3, 4, 5])
    args = ap.parse_args(argv)
    race = race_values()
    print(f"race solved, from 1-1: with Called Shots {100 * race['with_calls']:.2f}%, "
          f"plain flicks only {100 * race['plain_only']:.2f}%")
    for k in args.k:
        won = head_start(k, args.games, args.seed)
        lo, hi = wilson(won, args.games)
        print(f"normal vs normal, the rival starting at {1 + k}: {won}/{args.games} "
              f"({100 * won / args.games:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}])", flush=True)


if __name__ == "__main__":
    main()
