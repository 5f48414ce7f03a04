"""Reading KAPLOOM! moves (docs/notation/kaploom.md).

Moves are a verb and arguments. Action names may be typed in any case, with or without their
spaces and punctuation (`assign SUCKER PUNCH d4`, `assign suckerpunch d4`); dice are named by
their stable ids (`d4`); faces by letter (M E T A X W) or name; trait colours by name; players
as `@1`..`@4`.
"""
from __future__ import annotations

import re
from typing import Iterable

from ..core import AmbiguousMoveError, InvalidMoveError, phrase_key
from .data import ALL_ACTIONS, COLOURS, FACE_NAMES, Action

DIE = re.compile(r"d\d+")

# Phase 1 verbs beside `assign`: the immediate actions, and the TIME LOOP ability.
PHASE1_VERBS = ("assign", "unassign", "timejump", "quickfix", "pause", "timeloop", "point",
                "lock")
PHASE3_VERBS = ("take", "done", "attach", "detach", "give")

_FACE_WORDS = {phrase_key(name): f for f, name in FACE_NAMES.items() if f != "_"}
_FACE_WORDS.update({f.lower(): f for f in FACE_NAMES if f != "_"})
_FACE_WORDS["xfactor"] = "X"


def verb(action: Action) -> str:
    """The verb that resolves an action in notation: its name without spaces or punctuation
    ("POWER ON" -> "poweron")."""
    return phrase_key(action.name)


ACTIONS_BY_KEY: dict[str, Action] = {phrase_key(a.name): a for a in ALL_ACTIONS.values()}


def is_die(token: str) -> bool:
    return DIE.fullmatch(token.lower()) is not None


def die_id(token: str) -> str:
    if not is_die(token):
        raise InvalidMoveError(f"{token!r} is not a die: dice are named by id, like d4.")
    return "d" + str(int(token[1:]))


def face(token: str, allowed: Iterable[str] | None = None) -> str:
    f = _FACE_WORDS.get(phrase_key(token))
    if f is None:
        raise InvalidMoveError(
            f"{token!r} is not a face: write M (Might), E (Energy), T (Toughness), "
            f"A (Agility), X (X-Factor) or W (Wild).")
    return f


def colour(token: str) -> str:
    c = token.lower()
    if c not in COLOURS:
        raise InvalidMoveError(f"{token!r} is not a trait die colour: write one of "
                               f"{', '.join(COLOURS)}.")
    return c


def action_named(words: list[str]) -> Action | None:
    """The action whose name these words spell, ignoring case, spaces and punctuation; a
    unique beginning is enough (`assign sucker d4`), several are ambiguous."""
    key = phrase_key("".join(words))
    if key in ACTIONS_BY_KEY:
        return ACTIONS_BY_KEY[key]
    starts = [a for k, a in ACTIONS_BY_KEY.items() if key and k.startswith(key)]
    if len(starts) > 1:
        raise AmbiguousMoveError(f"{' '.join(words)!r} could be "
                                 + ", ".join(a.name for a in starts) + ": write the full name.")
    return starts[0] if starts else None


def split_verb(tokens: list[str], verbs: Iterable[str]) -> tuple[str, list[str]] | None:
    """Read the longest leading run of tokens that spells a known verb (`power on X` is
    `poweron X`)."""
    known = set(verbs)
    for k in range(len(tokens), 0, -1):
        key = phrase_key("".join(tokens[:k]))
        if key in known:
            return key, tokens[k:]
    return None
