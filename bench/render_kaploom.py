"""How long a KAPLOOM! picture takes to draw, canvas to PNG bytes (no assertions).

Cases: the compact public board (550 px) of a duel and of a 2 vs 2 table in Power Up, a seat's
panel picture in Phase 1 (duel, and 2 vs 2 with the ally's dice), the old full 2 vs 2 table
for comparison, and the printed action board (uncached: `render_action_board` draws it
once per process and then hands out the same Picture). Views come from seeded play through the
real engine. One warm-up call first: the first render loads fonts and fills the shape caches,
a once-per-process cost.

Run: `.venv/bin/python -m bench.render_kaploom`.
"""
from __future__ import annotations

import json
import random
from typing import Any

from bench.common import median_ms
from bot.engine.core import CHANCE
from bot.engine.kaploom import GAME
from rendering.kaploom import _action_board, public_picture, render, seat_picture

ROUNDS = 20


def _game(players: int, options: dict[str, Any], seed: int, round_: int, stage: str):
    """Seeded play that mostly uses actions, stopped at `stage` of round `round_`."""
    rng = random.Random(seed)
    g = GAME.new(players, options)
    while g.result is None and not (g.round >= round_ and g.stage == stage
                                    and CHANCE not in g.actors()):
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        actor = rng.choice(actors)
        moves = g.legal(actor)
        busy = [m for m in moves if m.split()[0] not in
                ("lock", "done", "unassign", "attach", "detach", "give")]
        g.apply(actor, rng.choice(busy) if busy and rng.random() < 0.9 else rng.choice(moves))
    return g


def bench(rounds: int = ROUNDS) -> dict[str, float]:
    duel = _game(2, {}, 7, 3, "power").view(None)
    secret = _game(2, {}, 7, 4, "assign").view(0)
    team = _game(4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"},
                 11, 3, "power").view(None)
    rows: dict[str, float] = {}
    team_seat = _game(4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,"
                                                   "Spoiler Alert!"}, 11, 3, "assign").view(0)
    for name, fn in (("public board", lambda: public_picture(duel)),
                     ("2v2 public board", lambda: public_picture(team)),
                     ("seat picture", lambda: seat_picture(secret)),
                     ("2v2 seat picture", lambda: seat_picture(team_seat)),
                     ("full table (before #13)", lambda: render(team)),
                     # drawn once per process, then cached: time the drawing itself
                     ("action board", lambda: _action_board.__wrapped__((), False))):
        rows[f"kaploom {name} render ms (median)"] = median_ms(fn, rounds)
        rows[f"kaploom {name} PNG KB"] = round(len(fn().png) / 1024, 1)
    return rows


if __name__ == "__main__":
    print(json.dumps(bench(), indent=2))
