"""Random legal play for tests that look at a game between moves."""
from __future__ import annotations

import random
from typing import Iterator

from bot.engine.core import CHANCE, Game


def random_turns(game: Game, rng: random.Random, steps: int) -> Iterator[int]:
    """Up to `steps` times: chance rolled with `rng` until a seat may act, then one acting
    seat chosen with `rng` is yielded; the caller makes that seat's move before the next.
    Ends when nobody may act."""
    for _ in range(steps):
        actors = game.actors()
        if not actors:
            return
        if actors == [CHANCE]:
            game.apply(CHANCE, game.chance().sample(rng))
            continue
        yield rng.choice(actors)
