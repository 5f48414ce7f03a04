"""The dice: each player's supply, the secret dice choice, and sets in a roll.

Rulings "Dice" and "A round" step 2: a supply of ten dice from d4, d6, d8, d10 (a d10 shows
0-9, the others 1..N); a set is every die showing one value, 2 or more of them; depth = dice
rolled, width = dice in the set, height = their value.
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import product
from typing import Any

from ..core import Draw, Option, OptionError, die

SIZES: tuple[int, ...] = (4, 6, 8, 10)
SUPPLY_SIZE = 10
# Rulings "Dice": why four d10s (with two, a card's 9s were nearly unreachable).
DEFAULT_SUPPLY = "d4,d4,d6,d6,d8,d8,d10,d10,d10,d10"

_TOKEN = re.compile(r"(?:([0-9]+)\s*[x×*]?\s*)?d([0-9]+)")


def parse_supply(text: str) -> list[int]:
    """`"d4,d4,d6"` or `"2xd4, 2xd6, ..."` -> sorted sizes; OptionError when it is not ten dice
    of sizes d4/d6/d8/d10."""
    if isinstance(text, str):
        text = text.replace("×", "x")  # `2×d4` is the rulebook's own spelling
    if not isinstance(text, str) or not text.strip() or not text.isascii() or len(text) > 200:
        raise OptionError(f"Option `dice` lists the supply, e.g. {DEFAULT_SUPPLY!r}.")
    sizes: list[int] = []
    for raw in re.split(r"[,\s]+", text.strip().lower()):
        if not raw:
            continue
        m = _TOKEN.fullmatch(raw)
        if not m:
            raise OptionError(
                f"Option `dice`: {raw!r} is not a die; write d4, d6, d8 or d10 (or 2xd4).")
        # Checked as text before any int() or list is built: `d4:10000000` must cost
        # nothing (a supply is ten dice; sizes are at most two digits).
        if (m.group(1) and len(m.group(1).lstrip("0")) > 2) or len(m.group(2).lstrip("0")) > 2:
            raise OptionError(f"Option `dice`: {raw!r} is far more than a supply of "
                              f"{SUPPLY_SIZE} dice of sizes d4, d6, d8 and d10.")
        count = int(m.group(1)) if m.group(1) else 1
        size = int(m.group(2))
        if len(sizes) + count > SUPPLY_SIZE:
            raise OptionError(f"Option `dice`: a supply is exactly {SUPPLY_SIZE} dice; "
                              f"{text.strip()!r} has more.")
        if size not in SIZES:
            raise OptionError(
                f"Option `dice`: d{size} is not allowed; the supply uses d4, d6, d8 and d10.")
        sizes.extend([size] * count)
    if len(sizes) != SUPPLY_SIZE:
        raise OptionError(
            f"Option `dice`: a supply is exactly {SUPPLY_SIZE} dice, got {len(sizes)}.")
    return sorted(sizes)


def supply_text(sizes: list[int]) -> str:
    return ",".join(f"d{s}" for s in sorted(sizes))


class SupplyOption(Option):
    """The `dice` option: checked and written back in canonical form (`d4,d4,...`)."""

    def check(self, value: Any) -> Any:
        return supply_text(parse_supply(value))


def faces(size: int) -> range:
    return range(0, 10) if size == 10 else range(1, size + 1)


@lru_cache(maxsize=256)
def draw(size: int, label: str, owner: int) -> Draw:
    """One die of the roll (a Draw is immutable: the same few are made once)."""
    return die(size, label, zero=size == 10, owner=owner)


def dice_text(sizes: list[int]) -> str:
    """`[4, 4, 10]` -> `d4 d4 d10` (the order the dice are rolled in: smallest first)."""
    return " ".join(f"d{s}" for s in sorted(sizes))


def counts(sizes: list[int]) -> dict[int, int]:
    return {s: sizes.count(s) for s in SIZES}


def remove(sizes: list[int], taken: list[int]) -> list[int]:
    """`sizes` without one die of each size in `taken` (which must be there)."""
    left = list(sizes)
    for s in taken:
        left.remove(s)
    return sorted(left)


def choices(available: list[int]) -> list[list[int]]:
    """Every dice choice from `available`: each non-empty sub-multiset once, most dice first.
    With the default supply that is 3*3*3*5 - 1 = 134 choices."""
    have = counts(available)
    out = []
    for pick in product(*(range(have[s], -1, -1) for s in SIZES)):
        sizes = [s for s, n in zip(SIZES, pick) for _ in range(n)]
        if sizes:
            out.append(sizes)
    out.sort(key=lambda c: (-len(c), c))
    return out


def parse_sizes(tokens: list[str]) -> list[int] | None:
    """`["d4", "d10"]` -> `[4, 10]`; None when a token is not a die size."""
    sizes = []
    for tok in tokens:
        m = re.fullmatch(r"d([0-9]{1,2})", tok)
        if not m or int(m.group(1)) not in SIZES:
            return None
        sizes.append(int(m.group(1)))
    return sorted(sizes)


def find_sets(values: list[int], crippled: list[int]) -> list[dict[str, int]]:
    """Sets in a roll: every value shown by 2+ dice, except crippled values (Snapping Pencil:
    those dice never count in sets). Widest first, ties to the highest."""
    sets = []
    for v in set(values):
        n = values.count(v)
        if n >= 2 and v not in crippled:
            sets.append({"height": v, "width": n})
    sets.sort(key=lambda s: (-s["width"], -s["height"]))
    return sets


def unmatched(values: list[int], crippled: list[int]) -> list[int]:
    """Indexes of the dice that are in no set (Combos may set these aside)."""
    in_sets = {s["height"] for s in find_sets(values, crippled)}
    return [i for i, v in enumerate(values) if v not in in_sets]
