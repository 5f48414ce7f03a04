"""How long a Death by Dice board takes to draw, canvas to PNG bytes (no assertions).

Cases: the compact public board of a duel mid-combat with a finished attack, and of a
six-player free-for-all (six rows, the largest picture), a seat's own ring picture, plus the
roster card. Views come
from seeded random play through the real engine. One warm-up call first: the first render
loads fonts and fills the shape caches, a once-per-process cost.

Run: `.venv/bin/python -m bench.render_deathbydice`.
"""
from __future__ import annotations

import json
import random
from typing import Any

from bench.common import median_ms
from bot.engine.core import CHANCE
from bot.engine.deathbydice import GAME
from rendering.deathbydice import public_picture, render_roster, seat_picture

ROUNDS = 20


def _game(players: int, options: dict[str, Any], seed: int, turns: int):
    """A public view after random legal play reaches `turns` turns with an attack behind it."""
    rng = random.Random(seed)
    g = GAME.new(players, options)
    while g.result is None and not (g.turn >= turns and g.last_attack is not None
                                    and g.stage == "declare"):
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
        else:
            actor = rng.choice(actors)
            g.apply(actor, rng.choice(g.legal(actor)))
    return g


def bench(rounds: int = ROUNDS) -> dict[str, float]:
    g = _game(2, {}, 3, 4)
    duel, own = g.view(None), g.view(0)
    six = _game(6, {"best_of": 1}, 5, 4).view(None)
    return {
        "deathbydice board render ms (median)": median_ms(lambda: public_picture(duel), rounds),
        "deathbydice board PNG KB": round(len(public_picture(duel).png) / 1024, 1),
        "deathbydice 6-board render ms (median)": median_ms(lambda: public_picture(six),
                                                            rounds),
        "deathbydice 6-board PNG KB": round(len(public_picture(six).png) / 1024, 1),
        "deathbydice seat picture render ms (median)": median_ms(lambda: seat_picture(own),
                                                                 rounds),
        "deathbydice roster render ms (median)": median_ms(render_roster, rounds),
        "deathbydice roster PNG KB": round(len(render_roster().png) / 1024, 1),
    }


if __name__ == "__main__":
    print(json.dumps(bench(), indent=2))
