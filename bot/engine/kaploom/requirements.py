"""The requirement matcher: which dice may feed an action, and why not.

Rulings: "Requirement symbols". A requirement is one symbol; most take one die, the pair
symbols take two. `accepts` is the one place that knows what a symbol accepts; `match` fits a
player's named dice to an action's requirements (any order) and, when they do not fit, says in
plain words which requirement failed; `combinations` lists every fitting choice from a set of
interchangeable dice classes, for `legal()`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from .data import BLANK, FACE_NAMES

TRAIT = "trait"
ACTION = "action"


@dataclass(frozen=True)
class Symbol:
    size: int
    text: str


SYMBOLS: dict[str, Symbol] = {
    "M": Symbol(1, "a die showing Might or Wild"),
    "E": Symbol(1, "a die showing Energy or Wild"),
    "T": Symbol(1, "a die showing Toughness or Wild"),
    "A": Symbol(1, "a die showing Agility or Wild"),
    "X": Symbol(1, "a die showing X-Factor or Wild"),
    "W": Symbol(1, "a die showing Wild"),
    "ANY": Symbol(1, "any die, any face, blank included"),
    "ACT": Symbol(1, "an action die, any face, blank included"),
    "ACT+": Symbol(1, "an action die showing a non-blank face"),
    "PAIR": Symbol(2, "two dice showing matching faces (blanks and Wilds may be used)"),
    "MATCH": Symbol(2, "an action die and any die matching its face (blanks and Wilds may "
                       "be used)"),
    "PAIR-ACT": Symbol(2, "two action dice showing matching faces (blanks and Wilds may be "
                          "used)"),
    "MATCH+": Symbol(2, "an action die showing a non-blank face and any die matching it "
                        "(Wilds may be used)"),
    "PAIR-ACT+": Symbol(2, "two action dice showing matching non-blank faces (Wilds may be "
                           "used)"),
}

# A die as the matcher sees it: (kind, face). Kind is "trait" or "action".
DieFace = tuple[str, str]


def faces_match(a: str, b: str) -> bool:
    """Two faces match: equal (two blanks, two Wilds), or a Wild with any non-blank face."""
    if a == b:
        return True
    return "W" in (a, b) and BLANK not in (a, b)


def accepts(symbol: str, dice: Sequence[DieFace]) -> bool:
    """Whether these dice (one, or two for the pair symbols) fill this requirement symbol."""
    if SYMBOLS[symbol].size != len(dice):
        return False
    if len(dice) == 1:
        die_type, face = dice[0]
        if symbol == "ANY":
            return True
        if symbol == "ACT":
            return die_type == ACTION
        if symbol == "ACT+":
            return die_type == ACTION and face != BLANK
        if symbol == "W":
            return face == "W"
        return face == symbol or face == "W"          # M E T A X: that face, or a Wild
    (k1, f1), (k2, f2) = dice
    if not faces_match(f1, f2):
        return False
    if symbol == "PAIR":
        return True
    if symbol == "PAIR-ACT":
        return k1 == ACTION and k2 == ACTION
    if symbol == "PAIR-ACT+":
        return k1 == ACTION and k2 == ACTION and BLANK not in (f1, f2)
    if symbol == "MATCH":
        return ACTION in (k1, k2)
    if symbol == "MATCH+":
        # the action die may not show a blank; a matching partner then cannot be blank either
        return ACTION in (k1, k2) and BLANK not in (f1, f2)
    raise KeyError(symbol)


def show(requires: Sequence[str]) -> str:
    return " ".join(requires)


def _order(requires: Sequence[str]) -> list[int]:
    """Pairs first, then the pickiest singles: the search fails fast and, when it fails,
    stops at the requirement a player would call the missing one."""
    pick = {"W": 0, "M": 1, "E": 1, "T": 1, "A": 1, "X": 1, "ACT+": 2, "ACT": 3, "ANY": 4}
    return sorted(range(len(requires)),
                  key=lambda i: (-SYMBOLS[requires[i]].size, pick.get(requires[i], 0),
                                 requires[i], i))


@dataclass(frozen=True)
class Fit:
    ok: bool
    roles: tuple[tuple[int, ...], ...] = ()   # per requirement, the indices of its dice
    reason: str = ""


def _label(die: tuple[str, str, str]) -> str:
    label, die_type, face = die
    return f"{label} ({FACE_NAMES[face]}{', action die' if die_type == ACTION else ''})"


def match(name: str, requires: Sequence[str], dice: Sequence[tuple[str, str, str]]) -> Fit:
    """Fit `dice` — (label, kind, face) each — to `requires` in any order. Every die must fill
    exactly one requirement. On failure `reason` says which requirement failed, for the player."""
    need = sum(SYMBOLS[s].size for s in requires)
    if len(dice) != need:
        return Fit(False, reason=f"{name} takes {need} {'die' if need == 1 else 'dice'} "
                                 f"({show(requires)}); you named {len(dice)}.")
    order = _order(requires)
    roles: list[tuple[int, ...]] = [()] * len(requires)
    used = [False] * len(dice)
    best: list = [-1, None, None]   # depth reached, roles then, used then

    def rec(k: int) -> bool:
        if k > best[0]:
            best[0], best[1], best[2] = k, list(roles), list(used)
        if k == len(order):
            return True
        i = order[k]
        sym = requires[i]
        free = [j for j in range(len(dice)) if not used[j]]
        if SYMBOLS[sym].size == 1:
            for j in free:
                if accepts(sym, [dice[j][1:]]):
                    used[j] = True
                    roles[i] = (j,)
                    if rec(k + 1):
                        return True
                    used[j] = False
        else:
            for x in range(len(free)):
                for y in range(x + 1, len(free)):
                    a, b = free[x], free[y]
                    if accepts(sym, [dice[a][1:], dice[b][1:]]):
                        used[a] = used[b] = True
                        roles[i] = (a, b)
                        if rec(k + 1):
                            return True
                        used[a] = used[b] = False
        roles[i] = ()
        return False

    found = rec(0)
    rec = None  # type: ignore[assignment]  # frees the self-referring closure without the GC
    if found:
        return Fit(True, tuple(roles))
    depth, broles, bused = best
    missing = requires[order[depth]]
    filled = [f"{' + '.join(dice[j][0] for j in broles[i])} fills {requires[i]}"
              for i in order[:depth]]
    left = [_label(dice[j]) for j in range(len(dice)) if not bused[j]]
    text = f"{name} needs {show(requires)}. "
    if filled:
        text += "; ".join(filled) + ". "
    text += (f"Nothing fits {missing} ({SYMBOLS[missing].text}): "
             f"left over {', '.join(left)}.")
    return Fit(False, reason=text)


# Every face a die can show, by kind.
DIE_FACES: tuple[DieFace, ...] = tuple((kind, face) for kind in (TRAIT, ACTION)
                                       for face in FACE_NAMES)


@lru_cache(maxsize=None)
def _accepted(symbol: str) -> frozenset[DieFace]:
    """Every (kind, face) a one-die symbol accepts, so the searches below test set
    membership instead of calling `accepts`."""
    return frozenset(d for d in DIE_FACES if accepts(symbol, (d,)))


@lru_cache(maxsize=None)
def _partners(symbol: str) -> dict[DieFace, frozenset[DieFace]]:
    """For a two-dice symbol: each (kind, face) it accepts first in a pair, and what it
    accepts beside it."""
    out = {a: frozenset(b for b in DIE_FACES if accepts(symbol, (a, b))) for a in DIE_FACES}
    return {a: bs for a, bs in out.items() if bs}


@lru_cache(maxsize=1 << 17)
def combinations(requires: tuple[str, ...],
                 classes: tuple[tuple[str, str, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to fill `requires` from dice grouped into interchangeable classes
    (kind, face, count), as count vectors over the classes (how many dice of each class).

    Dice of one class are interchangeable, so the listing stays small: one entry per distinct
    choice, not per permutation of die ids."""
    return tuple(sorted(search(requires, classes)))


def search(requires: tuple[str, ...], classes: tuple[tuple[str, str, int], ...]
           ) -> set[tuple[int, ...]]:
    """The ways to fill `requires` from `classes` as count vectors, unsorted and uncached
    (`combinations`)."""
    order = _order(requires)
    syms = [requires[i] for i in order]
    counts = [c for _, _, c in classes]
    faces = [(k, f) for k, f, _ in classes]
    n = len(classes)
    # What each requirement accepts is read once per search, not at every node: on a cache
    # miss the search is most of a legal() call.
    steps = []
    for k, sym in enumerate(syms):
        same_as_prev = k > 0 and syms[k - 1] == sym
        if SYMBOLS[sym].size == 1:
            ok = _accepted(sym)
            steps.append((True, same_as_prev, [c for c in range(n) if faces[c] in ok]))
        else:
            partners = _partners(sym)
            pairs = []
            for a in range(n):
                beside = partners.get(faces[a])
                if beside:
                    pairs += [(a, b) for b in range(a, n) if faces[b] in beside]
            steps.append((False, same_as_prev, pairs))
        if not steps[-1][2]:
            return set()   # nothing fills this requirement: no way at all
    out: set[tuple[int, ...]] = set()
    used = [0] * n
    last = len(steps)

    def rec(k: int, floor: tuple[int, ...]) -> None:
        if k == last:
            out.add(tuple(used))
            return
        single, same_as_prev, cands = steps[k]
        # identical requirements next to each other: choose classes in non-decreasing order
        if single:
            lo = floor[0] if same_as_prev else 0
            for c in cands:
                if c >= lo and used[c] < counts[c]:
                    used[c] += 1
                    rec(k + 1, (c,))
                    used[c] -= 1
        else:
            lo = floor if same_as_prev and len(floor) == 2 else (0, 0)
            for a, b in cands:
                if (a, b) < lo:
                    continue
                if a == b:
                    if used[a] + 2 > counts[a]:
                        continue
                elif used[a] >= counts[a] or used[b] >= counts[b]:
                    continue
                used[a] += 1
                used[b] += 1
                rec(k + 1, (a, b))
                used[a] -= 1
                used[b] -= 1

    rec(0, (0,))
    # `rec` refers to itself: dropping it here frees the search at once; left to the cycle
    # collector, these searches made KAPLOOM! self-play spend a quarter of its time in GC.
    rec = None  # type: ignore[assignment]
    return out
