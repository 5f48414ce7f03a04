"""Dice, faces and the shared pool, as JSON-native data.

A die is a dict in `game.dice`, keyed by its stable id ("d1", "d2", ... numbered across all
players in the order they come into play, so an id never changes, even when a die passes to
an ally):
  trait die:  {"owner": 0, "kind": "trait", "colour": "blue", "up": "X" | None}
  action die: {"owner": 0, "kind": "action", "colour": "gray", "faces": ["W"], "up": ...}
An action die lists only its attached faces; its other slots are blank (rulings: "Faces and
dice": "empty slots are blank"). `up` is the face showing this round (None between rounds).

The pool: {"trait": {colour: n}, "action": n, "faces": {face: n}} (rulings: finite, doubled
in 2 vs 2). A gain pays what the pool still has.
"""
from __future__ import annotations

from typing import Any

from .data import (ACTION_COLOUR, ACTION_SLOTS, BLANK, COLOURS, FACE_NAMES, POOL_ACTION_DICE,
                   POOL_FACES, POOL_TRAIT_DICE, TRAIT_FACES)

Die = dict[str, Any]


def num(die_id: str) -> int:
    """Sort key of a die id ("d12" -> 12)."""
    return int(die_id[1:])


def in_order(ids: list[str]) -> list[str]:
    """Sorts die ids by number in place ("d2" before "d10") and returns them: by text, then
    by length, which is that order without a Python call per id (legal() sorts a lot)."""
    ids.sort()
    ids.sort(key=len)
    return ids


def slots(die: Die) -> list[str]:
    """The six faces a die rolls."""
    if die["kind"] == "trait":
        return list(TRAIT_FACES[die["colour"]])
    return list(die["faces"]) + [BLANK] * (ACTION_SLOTS - len(die["faces"]))


def signature(die: Die) -> str:
    """What makes two dice roll alike: a trait die's colour, an action die's faces."""
    if die["kind"] == "trait":
        return die["colour"]
    return "".join(sorted(die["faces"]))


def describe(die_id: str, die: Die, show_up: bool = True) -> str:
    """'d7 red: Might' / 'd5 action die [W]: blank' / 'd3 purple'."""
    what = die["colour"] if die["kind"] == "trait" else (
        "action die [" + " ".join(die["faces"]) + "]" if die["faces"] else "action die []")
    if show_up and die.get("up") is not None:
        return f"{die_id} {what}: {FACE_NAMES[die['up']]}"
    return f"{die_id} {what}"


def new_pool(copies: int) -> dict[str, Any]:
    return {"trait": {c: POOL_TRAIT_DICE * copies for c in COLOURS},
            "action": POOL_ACTION_DICE * copies,
            "faces": {f: n * copies for f, n in POOL_FACES.items()}}


def add_face(faces: list[str], face: str) -> None:
    """Keep a face list sorted in table order, so equal states serialise equally."""
    order = "METAXW"
    faces.append(face)
    faces.sort(key=order.index)


def new_trait(owner: int, colour: str) -> Die:
    return {"owner": owner, "kind": "trait", "colour": colour, "up": None}


def new_action(owner: int, faces: list[str]) -> Die:
    die: Die = {"owner": owner, "kind": "action", "colour": ACTION_COLOUR, "faces": [],
                "up": None}
    for f in faces:
        add_face(die["faces"], f)
    return die
