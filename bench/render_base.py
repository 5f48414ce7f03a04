"""How long the smallest complete picture takes: a row of ten dice, canvas to PNG bytes.

DESIGN.md sets a target below 50 ms a picture; this measures it rather than asserting it, since
the figure depends on the machine. Most of the time goes to palette quantisation (a picture with
more than 256 colours, as soft edges of text and dice make, is quantised before encoding), which
every game board will pay too. One warm-up call first: the first render also loads fonts and
fills the shape caches, a once-per-process cost that would skew a median of a few runs.

Run: `.venv/bin/python -m bench.render_base`.
"""
from __future__ import annotations

import json

from bench.common import median_ms
from rendering import render_dice_row

ROUNDS = 30
CASES = {
    "render_dice_row_10d6_ms": ([1, 2, 3, 4, 5, 6, 6, 5, 4, 3], 6),
    "render_dice_row_10d20_ms": ([17, 20, 1, 8, 11, 14, 3, 19, 12, 5], 20),
}


def bench(rounds: int = ROUNDS) -> dict[str, float]:
    """Median milliseconds per picture for each case (no assertions), plus the PNG size."""
    result = {name: median_ms(lambda: render_dice_row(values, sides, "Bench"), rounds, 3) for name, (values, sides) in CASES.items()}
    result["render_dice_row_10d20_png_kb"] = round(
        len(render_dice_row(*CASES["render_dice_row_10d20_ms"], "Bench").png) / 1024, 2)
    return result


if __name__ == "__main__":
    print(json.dumps(bench(), indent=2))
