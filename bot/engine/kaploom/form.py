"""KAPLOOM! Phase 1 as one form: each of a seat's unplaced dice and the action it goes on, so
a whole placement is one answer rather than an action, then its dice, per action.

`fields(g, seat)`: per unplaced die (at most `MAX_DICE`, in die order), what to ask — the
die in words and the actions it may go on (any action a legal placement of a die like it
fills: the same kind, colour and face showing). Actions that happen at once (they re-roll or
heal on the spot) and the TIME LOOP ability are not in the form: their outcome changes what
the other dice can do, so they stay one at a time in the panel.
`moves(g, seat, picks)`: the placements a form's answer makes (die -> action key, "" for
none), in notation, one per action with its dice in die order. Legality is not judged here:
the table plays them in order and the engine refuses what the rules refuse.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import IllegalMoveError
from .data import ALL_ACTIONS
from .describe import die_words, read
from .dice import in_order
from .menu import key_of

if TYPE_CHECKING:
    from .game import Kaploom

MAX_DICE = 5          # a form holds five questions
MAX_ACTIONS = 24      # a list holds 25 entries: one is "not now"


def _like(g: "Kaploom", d: str) -> tuple:
    die = g.dice[d]
    return (die["kind"], die["colour"], die["up"])


def unplaced(g: "Kaploom", seat: int) -> list[str]:
    placed = g.placed_dice()
    return [d for d in g.dice_of(seat) if d not in placed]


def fields(g: "Kaploom", seat: int) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(die id, the die in words, [(action key, action name)]) per unplaced die."""
    if g.stage != "assign" or seat not in g.actors():
        return []
    fits: dict[str, set[tuple]] = {}    # action name -> the kinds of dice its ways use
    for move in g.legal(seat):
        m = read(g, move)
        if m["verb"] == "assign" and m["action"] is not None and not m["action"].immediate:
            fits.setdefault(m["action"].name, set()).update(
                _like(g, d) for d in m["dice"] if d in g.dice)
    out = []
    for d in unplaced(g, seat)[:MAX_DICE]:
        like = _like(g, d)
        names = [n for n, kinds in fits.items() if like in kinds][:MAX_ACTIONS]
        if names:
            out.append((d, die_words(g, d), [(key_of(n), n) for n in names]))
    return out


def moves(g: "Kaploom", seat: int, picks: dict[str, str]) -> list[str]:
    """The placements `picks` (die id -> action key, "" for none) make, in notation."""
    names = {key_of(n): n for n in ALL_ACTIONS}
    mine = set(unplaced(g, seat))
    chosen: dict[str, list[str]] = {}
    for d, key in picks.items():
        if not key:
            continue
        if d not in mine:
            raise IllegalMoveError(f"{d} is not one of your unplaced dice.")
        if key not in names:
            raise IllegalMoveError(f"There is no action {key!r}.")
        chosen.setdefault(names[key], []).append(d)
    return [f"assign {name} {' '.join(in_order(dice))}" for name, dice in chosen.items()]
