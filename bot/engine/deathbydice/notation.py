"""Move notation: text -> a small parsed dict, and the canonical text of every move.

Forms (docs/notation/deathbydice.md has the examples):

    setup [@2.1] STR=5 AGI=2 FOR=7 ...        your secret set-up (one value per die)
    attack ability STR -> @2:STR              attack type, attacking die/dice, target
    attack boosted AGI+STR -> @2:CON          attacking die + the adjacent assisting die
    attack complex STR+FOR -> @2:CON          2+ Linked dice rolled together
    defend none | defend boosted LUCK | defend linked FOR
    discard FOR | discard STR+FOR | discard STR+FOR+LUCK
    special cheap-shot | special rampage | special thick-skull
    special cook-the-books AGI+FOR | special loaded-dice STR | special misdirection AGI
    pass                                      (also written `nospecial`)

Abilities: STR AGI FOR SMA CON LUCK (full names are read too). A target is a player `@2`,
or `@2.1` for the first of several characters one player runs, then `:` and the ability.
"""
from __future__ import annotations

import re
from typing import Any

from ..core import NUMBER_MAX, InvalidMoveError, parse_seat
from .data import ABILITIES, ABILITY_NAMES, SPECIAL_TABLE, parse_ability

ATTACK_TYPES = ("ability", "boosted", "complex")
DEFENSES = ("none", "boosted", "linked")

ATTACK_FORM = ("Write an attack as `attack ability STR -> @2:STR`, "
               "`attack boosted AGI+STR -> @2:CON` (attacking die + adjacent assisting die) "
               "or `attack complex STR+FOR -> @2:CON`.")
SETUP_FORM = ("Write your set-up as `setup STR=5 AGI=2 ...`: one ABILITY=value for each of "
              "your dice (abilities: " + " ".join(ABILITIES) + ").")
DEFEND_FORM = "Write `defend none`, `defend boosted LUCK` or `defend linked FOR`."
DISCARD_FORM = "Write `discard FOR`, or several dice joined by +: `discard STR+FOR`."
SPECIAL_FORM = ("Write `special <name> [dice]`: " + ", ".join(
    ["special cheap-shot", "special rampage", "special thick-skull",
     "special cook-the-books AGI+FOR", "special loaded-dice STR",
     "special misdirection AGI"]) + "; or `pass` to let the moment go.")
ALL_FORMS = ("Moves: `setup ...`, `attack ...`, `defend ...`, `discard ...`, `special ...`, "
             "`pass`.")

# ASCII digits only: `\d` would also read Arabic-Indic or full-width digits as numbers.
_REF = re.compile(r"@([0-9]+)(?:\.([0-9]+))?")
_NUMBER = re.compile(r"[0-9]+")


def ability_or_error(token: str, form: str) -> str:
    a = parse_ability(token)
    if a is None:
        raise InvalidMoveError(
            f"{token!r} is not an ability; use one of {' '.join(ABILITIES)}. {form}")
    return a


def dice_list(token: str, form: str) -> list[str]:
    parts = token.split("+")
    if any(not p for p in parts):
        raise InvalidMoveError(f"Join dice with + and no spaces, like STR+FOR. {form}")
    return [ability_or_error(p, form) for p in parts]


def parse_ref(token: str, players: int) -> tuple[int, int | None]:
    """`@2` -> (1, None); `@2.1` -> (1, 0). Seats are 0-based, characters too."""
    m = _REF.fullmatch(token)
    if not m:
        raise InvalidMoveError(f"{token!r} is not a player: write @1 to @{players} "
                               "(or @2.1 for a player's first character).")
    seat = parse_seat("@" + m.group(1), players)
    sub = int(m.group(2)) - 1 if m.group(2) else None
    if sub is not None and sub < 0:
        raise InvalidMoveError(f"{token!r}: characters are counted from 1, as in @2.1.")
    return seat, sub


def parse_target(token: str, players: int) -> tuple[tuple[int, int | None], str]:
    ref, sep, ability = token.partition(":")
    if not sep:
        raise InvalidMoveError(f"The target {token!r} needs a die: write it like @2:CON. "
                               + ATTACK_FORM)
    return parse_ref(ref, players), ability_or_error(ability, ATTACK_FORM)


def parse(move: str, players: int) -> dict[str, Any]:
    """Parse a player's move; InvalidMoveError (with the right form) when it does not parse.
    The alphabet is ASCII: letters (any case), digits 0-9, `@ . : + = ->` and spaces; anything
    else (a superscript ², a Kelvin sign that lower-cases to k) is refused here, not guessed."""
    if not move.isascii():
        bad = next(ch for ch in move if not ch.isascii())
        raise InvalidMoveError(f"{bad!r} is not part of a Death by Dice move: write moves with "
                               f"plain letters and the digits 0-9. {ALL_FORMS}")
    tokens = move.split()
    if not tokens:
        raise InvalidMoveError("Empty move. " + ALL_FORMS)
    verb = tokens[0].lower()
    args = tokens[1:]
    if verb == "setup":
        ref = None
        if args and args[0].startswith("@"):
            ref = parse_ref(args[0], players)
            args = args[1:]
        if not args:
            raise InvalidMoveError(SETUP_FORM)
        values: dict[str, int] = {}
        for arg in args:
            name, eq, number = arg.partition("=")
            if not eq or not _NUMBER.fullmatch(number):
                raise InvalidMoveError(f"{arg!r} is not ABILITY=value. {SETUP_FORM}")
            if len(number) > NUMBER_MAX:
                raise InvalidMoveError(f"{number} is far larger than any die shows. "
                                       f"{SETUP_FORM}")
            a = ability_or_error(name, SETUP_FORM)
            if a in values:
                raise InvalidMoveError(f"{a} is given twice. {SETUP_FORM}")
            values[a] = int(number)
        return {"verb": "setup", "ref": ref, "values": values}
    if verb == "attack":
        args = [t for t in args if t != "->"]
        if len(args) != 3 or args[0].lower() not in ATTACK_TYPES:
            raise InvalidMoveError(ATTACK_FORM)
        type_ = args[0].lower()
        dice = dice_list(args[1], ATTACK_FORM)
        ref, ability = parse_target(args[2], players)
        return {"verb": "attack", "type": type_, "dice": dice, "ref": ref, "ability": ability}
    if verb == "defend":
        if not args or args[0].lower() not in DEFENSES:
            raise InvalidMoveError(DEFEND_FORM)
        type_ = args[0].lower()
        if type_ == "none":
            if len(args) != 1:
                raise InvalidMoveError(DEFEND_FORM)
            return {"verb": "defend", "type": "none", "die": None}
        if len(args) != 2:
            raise InvalidMoveError(DEFEND_FORM)
        return {"verb": "defend", "type": type_, "die": ability_or_error(args[1], DEFEND_FORM)}
    if verb == "discard":
        if len(args) != 1:
            raise InvalidMoveError(DISCARD_FORM)
        return {"verb": "discard", "dice": dice_list(args[0], DISCARD_FORM)}
    if verb == "special":
        if not args:
            raise InvalidMoveError(SPECIAL_FORM)
        name = args[0].lower()
        if name not in SPECIAL_TABLE:
            raise InvalidMoveError(f"{args[0]!r} is not a special. {SPECIAL_FORM}")
        if len(args) > 2:
            raise InvalidMoveError(SPECIAL_FORM)
        dice = dice_list(args[1], SPECIAL_FORM) if len(args) == 2 else []
        return {"verb": "special", "name": name, "dice": dice}
    if verb in ("pass", "nospecial"):           # `nospecial` reads as `pass`
        if args:
            raise InvalidMoveError(f"`{verb}` takes nothing after it.")
        return {"verb": "pass"}
    raise InvalidMoveError(f"{tokens[0]!r} is not a Death by Dice move. {ALL_FORMS}")


# --- canonical text ------------------------------------------------------------------------

def ring_sorted(dice: list[str]) -> list[str]:
    return sorted(dice, key=ABILITIES.index)


def fmt_setup(prefix: str | None, values: dict[str, int]) -> str:
    body = " ".join(f"{a}={values[a]}" for a in ABILITIES if a in values)
    return f"setup {prefix} {body}" if prefix else f"setup {body}"


def fmt_attack(type_: str, dice: list[str], target_id: str, ability: str) -> str:
    if type_ == "complex":
        dice = ring_sorted(dice)
    return f"attack {type_} {'+'.join(dice)} -> {target_id}:{ability}"


def fmt_defend(type_: str, die: str | None = None) -> str:
    return "defend none" if type_ == "none" else f"defend {type_} {die}"


def fmt_discard(dice: list[str]) -> str:
    return "discard " + "+".join(ring_sorted(dice))


def fmt_special(name: str, dice: list[str] | None = None) -> str:
    if not dice:
        return f"special {name}"
    if name == "cook-the-books":
        dice = ring_sorted(dice)
    return f"special {name} {'+'.join(dice)}"


def die_name(fid: str, ability: str) -> str:
    """`@2:CON` — how events and views name one die."""
    return f"{fid}:{ability}"


def ability_name(ability: str) -> str:
    return ABILITY_NAMES[ability]
