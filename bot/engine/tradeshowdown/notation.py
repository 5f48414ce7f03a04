"""TradeShowdown move notation (docs/notation/tradeshowdown.md): text <-> parsed moves.

A parsed move is a tuple `(verb, ...)`. Moves that may hold several steps (`slash 6 5`,
`intimidate 8 8`, `combo 3 0`) are shorthands for the one-step moves in a row; `steps()` splits
them, and each step is checked against the moves legal at that moment.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..core import InvalidMoveError, parse_seat
from .dice import dice_text, parse_sizes

DIMENSIONS = ("height", "width", "depth")
SPECIALS = ("number-cruncher", "snapping-pencil", "collating-claw", "hot-coffee-spout")

FORMS = ("`dice d4 d6 d10` (add `@2` for your target)", "`target @2`", "`tag`", "`set 8`",
         "`claw 8 height width`", "`intimidate 8`", "`intimidate partner 8`", "`combo 3`",
         "`undo`", "`done`", "`slash 6` or `slash 6#2`", "`special number-cruncher`",
         "`special snapping-pencil 8`", "`special collating-claw`",
         "`special hot-coffee-spout`", "`hold`")


def _value(tok: str, form: str) -> int:
    if not re.fullmatch(r"[0-9]", tok):
        raise InvalidMoveError(f"{tok!r} is not a digit 0-9; write {form}.")
    return int(tok)


def parse(move: str, players: int) -> tuple[Any, ...]:
    """Parse a player's move; InvalidMoveError names the right form."""
    if not move.isascii():
        # The notation is ASCII letters, digits and `@#-`; anything else (Arabic-Indic or
        # full-width digits, look-alike letters) is not a move, even if Python folds it.
        raise InvalidMoveError("Write moves with plain letters and the digits 0-9, e.g. "
                               "`dice d4 d6 d10` or `slash 6`.")
    parts = move.lower().split()
    if not parts:
        raise InvalidMoveError("Empty move.")
    verb, args = parts[0], parts[1:]
    if verb == "roll" and args and all(re.fullmatch(r"d[0-9]+|@[0-9]+", a) for a in args):
        # `roll d4 d4 d6 d10` from a player is the dice choice (the issue's own spelling);
        # the referee's roll answers with digits (`roll 1 4 6 8`), so the two never meet.
        verb = "dice"
    if verb == "dice":
        target = None
        if args and args[-1].startswith("@"):
            target = parse_seat(args.pop(), players)
        sizes = parse_sizes(args)
        if not args or sizes is None:
            raise InvalidMoveError(
                "Choose dice like `dice d4 d4 d6 d10`: one size per die (d4, d6, d8, d10), "
                "then `@2` if you must name a target.")
        return ("dice", sizes, target)
    if verb == "target":
        if len(args) != 1:
            raise InvalidMoveError("Name one target: `target @2`.")
        return ("target", parse_seat(args[0], players))
    if verb in ("tag", "undo", "done", "hold"):
        if args:
            raise InvalidMoveError(f"`{verb}` takes nothing after it.")
        return (verb,)
    if verb == "set":
        if len(args) != 1:
            raise InvalidMoveError("Pick a set by its height: `set 8`.")
        return ("set", _value(args[0], "`set 8`"))
    if verb == "claw":
        form = "`claw 8 height width` (two of height, width, depth)"
        if len(args) != 3 or args[1] not in DIMENSIONS or args[2] not in DIMENSIONS \
                or args[1] == args[2]:
            raise InvalidMoveError(f"Swap two dimensions of a set: {form}.")
        pair = tuple(d for d in DIMENSIONS if d in args[1:])
        return ("claw", _value(args[0], form), pair)
    if verb == "intimidate":
        partner = bool(args) and args[0] == "partner"
        values = args[1:] if partner else args
        form = "`intimidate 8` (or `intimidate partner 8`; `intimidate 8 8` for two)"
        if not values:
            raise InvalidMoveError(f"Say which digit to slash on your own card: {form}.")
        return ("intimidate", partner, [_value(v, form) for v in values])
    if verb == "combo":
        form = "`combo 3` (or `combo 3 0` for two dice)"
        if not args:
            raise InvalidMoveError(f"Say which die to set aside by its value: {form}.")
        return ("combo", [_value(v, form) for v in args])
    if verb == "slash":
        form = "`slash 6` (or `slash 6#2` for the second 6 on the card; `slash 6 5` for two)"
        if not args:
            raise InvalidMoveError(f"Say which digit to slash: {form}.")
        targets = []
        for tok in args:
            m = re.fullmatch(r"([0-9])(?:#([1-9][0-9]?))?", tok)
            if not m:
                raise InvalidMoveError(f"{tok!r} is not a digit; write {form}.")
            targets.append((int(m.group(1)), int(m.group(2)) if m.group(2) else None))
        return ("slash", targets)
    if verb == "special":
        # Accept `special snapping pencil 8` and `special snapping-pencil 8` alike.
        name, words = None, args
        for s in SPECIALS:
            n = s.count("-") + 1
            if "-".join(args[:n]) == s:
                name, words = s, args[n:]
                break
            if args and args[0] == s:
                name, words = s, args[1:]
                break
        if name is None:
            raise InvalidMoveError(
                "Name a special attack: " + ", ".join(f"`special {s}`" for s in SPECIALS)
                + " (snapping-pencil takes a digit: `special snapping-pencil 8`).")
        if name == "snapping-pencil":
            if len(words) != 1:
                raise InvalidMoveError("Name the digit to cripple: `special snapping-pencil 8`.")
            return ("special", name, _value(words[0], "`special snapping-pencil 8`"))
        if words:
            raise InvalidMoveError(f"`special {name}` takes nothing after it.")
        return ("special", name, None)
    if verb == "roll":
        raise InvalidMoveError("`roll ...` is the referee's dice roll; choose the dice you "
                               "roll with `dice d4 d6 d10`.")
    raise InvalidMoveError(f"{verb!r} is not a TradeShowdown move. Moves: " + ", ".join(FORMS)
                           + ".")


@lru_cache(maxsize=8192)
def read(move: str, players: int) -> tuple[Any, ...]:
    """`parse`, remembered, for readers that never change what they get (the words of a move,
    the menu): a 6-player dice choice lists some 800 moves, read again on every screen."""
    return parse(move, players)


def steps(move: str, players: int) -> list[str]:
    """The one-step moves a move stands for, in canonical spelling."""
    parsed = parse(move, players)
    verb = parsed[0]
    if verb == "intimidate":
        who = "intimidate partner" if parsed[1] else "intimidate"
        return [f"{who} {v}" for v in parsed[2]]
    if verb == "combo":
        return [f"combo {v}" for v in parsed[1]]
    if verb == "slash":
        return [slash_move(v, n) for v, n in parsed[1]]
    return [canonical(parsed)]


def canonical(parsed: tuple[Any, ...]) -> str:
    verb = parsed[0]
    if verb == "dice":
        text = f"dice {dice_text(parsed[1])}"
        return text + (f" @{parsed[2] + 1}" if parsed[2] is not None else "")
    if verb == "target":
        return f"target @{parsed[1] + 1}"
    if verb == "set":
        return f"set {parsed[1]}"
    if verb == "claw":
        return f"claw {parsed[1]} {parsed[2][0]} {parsed[2][1]}"
    if verb == "special":
        return f"special {parsed[1]}" + (f" {parsed[2]}" if parsed[2] is not None else "")
    return verb


def slash_move(value: int, n: int | None = None) -> str:
    return f"slash {value}" + (f"#{n}" if n is not None else "")
