"""One character's board in play: which Ability boxes hold a die, the standing values, links.

A fighter is a plain JSON dict (the game state holds a list of them):

    id            "@1", or "@2.1" when a seat runs several characters (Bosses & Minions)
    seat, side    who moves it, and which side it fights for (duel: side = seat)
    character     roster name; role "duel" | "boss" | "minion"
    special       key into SPECIAL_TABLE; special_used: spent this combat
    dice          {ability: die size} for every box that holds a die (a Boss's are one larger)
    colours       {ability: colour letter} for the same boxes
    values        {ability: standing value | None}: None = discarded (or not yet revealed)
    rolled        set-up roll in box order while the set-up is secret, else None
    arranged      the secret set-up {ability: value} once confirmed, until all reveal
    turns         turns taken this combat
"""
from __future__ import annotations

from itertools import combinations, permutations, product
from typing import Any, Iterable

from .data import ABILITIES, UNLINKED, Character, adjacent, boss_size

Fighter = dict[str, Any]


def new_fighter(character: Character, fid: str, seat: int, side: int, role: str) -> Fighter:
    dice: dict[str, int] = {}
    colours: dict[str, str] = {}
    for box in character.boxes:
        if box.size is None:
            continue
        dice[box.ability] = boss_size(box.size) if role == "boss" else box.size
        colours[box.ability] = box.colour or UNLINKED
    return {"id": fid, "seat": seat, "side": side, "character": character.name, "role": role,
            "special": character.special, "special_used": False, "dice": dice,
            "colours": colours, "values": {a: None for a in dice}, "rolled": None,
            "arranged": None, "turns": 0}


def boxes(f: Fighter) -> list[str]:
    """Abilities with a printed die, in ring order."""
    return [a for a in ABILITIES if a in f["dice"]]


def standing(f: Fighter) -> list[str]:
    """Abilities whose die is still in play, in ring order."""
    return [a for a in ABILITIES if f["values"].get(a) is not None]


def is_standing(f: Fighter, ability: str) -> bool:
    return f["values"].get(ability) is not None


def total(f: Fighter) -> int:
    return sum(v for v in f["values"].values() if v is not None)


def linked(f: Fighter, ability: str) -> list[str]:
    """Standing dice Linked to `ability`: same colour, not white, not the die itself."""
    colour = f["colours"].get(ability)
    if colour is None or colour == UNLINKED:
        return []
    return [a for a in standing(f) if a != ability and f["colours"][a] == colour]


def neighbours(f: Fighter, ability: str) -> list[str]:
    """Standing dice next to `ability` on the ring (for a boost: +2 whatever they show)."""
    return [a for a in dict.fromkeys(adjacent(ability)) if is_standing(f, a)]


def boosted_pairs(f: Fighter) -> list[tuple[str, str]]:
    """(attacking die, assisting die) for every Boosted Ability Attack the board allows."""
    return [(a, b) for a in standing(f) for b in neighbours(f, a)]


def complex_sets(f: Fighter) -> list[tuple[str, ...]]:
    """Every set of 2+ standing dice that are all Linked to each other, in ring order."""
    groups: dict[str, list[str]] = {}
    for a in standing(f):
        if f["colours"][a] != UNLINKED:
            groups.setdefault(f["colours"][a], []).append(a)
    out: list[tuple[str, ...]] = []
    for members in groups.values():
        for k in range(2, len(members) + 1):
            out.extend(combinations(members, k))
    return sorted(out, key=lambda s: (len(s), [ABILITIES.index(a) for a in s]))


def can_attack(f: Fighter, opponents: Iterable[Fighter]) -> bool:
    """Rulings, "End of combat": an Ability Attack needs an opponent's die of the same
    ability; a Boosted one needs an adjacent assist; a Complex one two Linked dice."""
    return can_attack_sets(f, set(standing(f)), [set(standing(o)) for o in opponents])


def can_attack_sets(f: Fighter, mine: set[str], theirs: list[set[str]]) -> bool:
    """`can_attack` with the standing dice already gathered (the victory check after every
    attack asks it of every character, so it shares one gathering between them)."""
    if not mine or not any(theirs):
        return False
    colours: set[str] = set()
    for a in mine:
        if any(b in mine for b in adjacent(a)):
            return True                        # a Boosted Ability Attack: any target
        c = f["colours"][a]
        if c != UNLINKED:
            if c in colours:
                return True                    # a Complex Attack: any target
            colours.add(c)
    return any(a in t for a in mine for t in theirs)


def arrangements(f: Fighter) -> list[dict[str, int]]:
    """Every way to place the rolled set-up values on boxes of the same die size.

    Few by construction: no board has more than three boxes of one size, so at most 6."""
    order = boxes(f)
    by_size: dict[int, list[str]] = {}
    for a in order:
        by_size.setdefault(f["dice"][a], []).append(a)
    rolled = dict(zip(order, f["rolled"]))
    choices = []
    for size, abilities in by_size.items():
        values = [rolled[a] for a in abilities]
        perms = list(dict.fromkeys(permutations(values)))
        choices.append([dict(zip(abilities, p)) for p in perms])
    out = []
    for combo in product(*choices):
        placed: dict[str, int] = {}
        for part in combo:
            placed.update(part)
        out.append({a: placed[a] for a in order})
    return out


def same_size_values(f: Fighter, size: int) -> list[int]:
    """The set-up values rolled on this fighter's dice of one size (their own secret)."""
    return sorted(v for a, v in zip(boxes(f), f["rolled"]) if f["dice"][a] == size)
