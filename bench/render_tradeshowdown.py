"""How long a TradeShowdown round picture takes, view to PNG bytes (no assertions).

Views come from real fights (random legal play, fixed seeds) in the attack phase, where the
picture holds the most: cards with slashes, every roll, sets, combo dice and the attack order.
Two fighters (full panels, 550 px wide), four and six (compact tiles, two to a row), Tag Team
on; and a seat's own panel picture (its fighter in full). Most of
the time is the base's palette quantisation, which grows with the picture's area. One warm-up
call first (fonts, shape caches). Run: `.venv/bin/python -m bench.render_tradeshowdown`.
"""
from __future__ import annotations

import json
import random
from typing import Any

from bench.common import median_ms
from bot.engine.core import CHANCE
from bot.engine.tradeshowdown import TradeShowdown
from rendering.tradeshowdown import public_picture, render_card, seat_picture

ROUNDS = 15


def _attack_view(players: int, seed: int = 4) -> dict[str, Any]:
    g = TradeShowdown.new(players)
    rng = random.Random(seed)
    while g.actors() and not (g.round >= 3 and g.phase == "attack"):
        if CHANCE in g.actors():
            g.apply(CHANCE, g.chance().sample(rng))
        else:
            p = rng.choice(g.actors())
            g.apply(p, rng.choice(g.legal(p)))
    return g


def bench(rounds: int = ROUNDS) -> dict[str, float]:
    out: dict[str, float] = {}
    for n in (2, 4, 6):
        game = _attack_view(n)
        view = game.view(None)
        tag = "" if n == 2 else f", {n} fighters"     # two fighters: the headline figure
        out[f"tradeshowdown board render ms (median{tag})"] = median_ms(lambda: public_picture(view), rounds)
        out[f"tradeshowdown board PNG KB{' (' + tag[2:] + ')' if tag else ''}"] = round(
            len(public_picture(view).png) / 1024, 1)
        if n == 6:
            own = game.view(0)
            out["tradeshowdown seat picture render ms (median, 6 fighters)"] = median_ms(
                lambda: seat_picture(own), rounds)
    card = {"name": "Ace Accounting", "digits": "6035550142", "zip": "03038"}
    out["tradeshowdown card render ms (median)"] = median_ms(lambda: render_card(card), rounds)
    out["tradeshowdown card PNG KB"] = round(len(render_card(card).png) / 1024, 1)
    return out


if __name__ == "__main__":
    print(json.dumps(bench(), indent=2))
