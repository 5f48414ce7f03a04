"""Move text to a `Move`, and the forms a player may write (docs/notation/slideslam.md).

A die is named by its square (`b5`) or by its letter (`C`, any case). Whether the die is
yours, and whether the move is allowed now, is the game's business; this module only checks the
shape, and that squares are on the board.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..core import InvalidMoveError
from . import board
from .data import INVOCATION, LETTERS

FORMS = ("place a1=6 [b2=5 ...]", "unplace a1", "confirm", "slide b2 b5", "slam b5",
         "slam b5 predict", "end", "bend c6", "pass", f"awaken b5 {INVOCATION}")

_ALL_LETTERS = "".join(LETTERS)
_PAIR = re.compile(r"([a-z][0-9]{1,2})=([0-9]+)", re.ASCII)  # ASCII digits only (issue #11)


@dataclass(frozen=True)
class Move:
    verb: str
    refs: tuple[str, ...] = ()                  # squares ('b5') or die letters ('C')
    pairs: tuple[tuple[str, int], ...] = ()     # place: (square, value)
    predict: bool = False
    phrase: str = ""


def forms_text() -> str:
    return "; ".join(f"`{f}`" for f in FORMS[:-1]) + "; `awaken b5 <the invocation>`"


def parse_ref(token: str, columns: int, rows: int) -> str:
    """A square ('b5') or a die letter ('c' -> 'C')."""
    t = token.strip()
    if not t.isascii():
        # Case folding must not turn another alphabet into ours ('ı'.upper() is 'I').
        raise InvalidMoveError(
            f"{t!r} is not a square or a die: squares are written with the letters a–i and the "
            f"digits 0-9 ({board.describe(columns, rows)}), dice with A–F / U–Z.")
    if len(t) == 1 and t.upper() in _ALL_LETTERS:
        return t.upper()
    low = t.lower()
    if board.looks_like_square(low):
        if not board.on_board(low, columns, rows):
            raise InvalidMoveError(
                f"{t} is not on the board ({board.describe(columns, rows)}).")
        return low
    raise InvalidMoveError(
        f"{t!r} is not a square or a die: name a square like b5 "
        f"({board.describe(columns, rows)}) or a die letter A–F / U–Z.")


# A menu words every legal move, and each is read several times on the way (its group, its
# die, its words): 144 placements were 600 parses, most of a panel's cost. A Move is frozen
# and parsing is pure, so a move read before is looked up; a refused text raises each time.
@functools.lru_cache(maxsize=4096)
def parse(text: str, columns: int, rows: int) -> Move:
    parts = text.split()
    if not parts:
        raise InvalidMoveError(f"Empty move. Moves: {forms_text()}.")
    verb = parts[0].lower() if parts[0].isascii() else parts[0]
    args = parts[1:]
    if verb == "place":
        if not args:
            raise InvalidMoveError("Write `place a1=6` (square=health); several pairs are "
                                   "allowed: `place a1=6 b2=5`.")
        pairs = []
        for a in args:
            m = _PAIR.fullmatch(a.lower())
            if not m:
                raise InvalidMoveError(
                    f"{a!r} is not square=health: write `place a1=6` (several pairs allowed).")
            sq = parse_ref(m.group(1), columns, rows)
            pairs.append((sq, int(m.group(2))))
        return Move("place", pairs=tuple(pairs))
    if verb in ("unplace", "bend"):
        if len(args) != 1:
            raise InvalidMoveError(f"Write `{verb} a1`: one square (or die letter).")
        return Move(verb, (parse_ref(args[0], columns, rows),))
    if verb in ("confirm", "end", "pass"):
        if args:
            raise InvalidMoveError(f"`{verb}` takes nothing after it.")
        return Move(verb)
    if verb == "slide":
        if len(args) not in (1, 2):
            raise InvalidMoveError(
                "Write `slide b2 b5`: the die's square (or letter), then where it goes.")
        refs = tuple(parse_ref(a, columns, rows) for a in args)
        if not board.looks_like_square(refs[-1]):
            raise InvalidMoveError("The slide ends on a square: write `slide b2 b5`.")
        return Move("slide", refs)
    if verb == "slam":
        if len(args) == 2 and args[1].lower() == "predict":
            return Move("slam", (parse_ref(args[0], columns, rows),), predict=True)
        if len(args) != 1:
            raise InvalidMoveError(
                "Write `slam b5`, or `slam b5 predict` to say \"Now you're going to say: "
                "DICE IS NOT BEND!\".")
        return Move("slam", (parse_ref(args[0], columns, rows),))
    if verb == "awaken":
        if not args:
            raise InvalidMoveError(f"Write `awaken b5 {INVOCATION}`.")
        phrase = " ".join(args[1:])
        if any(not ch.isascii() and ch.isalnum() for ch in phrase):
            # The invocation is spoken in our alphabet; letters of others would vanish from the
            # comparison (phrase_key keeps a-z only) and let a different text pass.
            raise InvalidMoveError(f"Speak the invocation as it is written: `awaken b5 "
                                   f"{INVOCATION}`.")
        return Move("awaken", (parse_ref(args[0], columns, rows),), phrase=phrase)
    raise InvalidMoveError(f"{parts[0]!r} is not a Slide and Slam move. Moves: {forms_text()}.")
