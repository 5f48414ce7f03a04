"""The rulebook's tables as data: the six abilities, the die sizes, the roster, the specials.

The character boards are missing from the seed, so the roster is the referee's (rulings,
"Characters"). Every other module reads these tables; nothing else repeats a number from them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import phrase_key

# The six Ability boxes in the order they sit around the board; the ring wraps, so Luck and
# Strength are neighbours ("Boosted Ability Attack": the board wraps).
ABILITIES: tuple[str, ...] = ("STR", "AGI", "FOR", "SMA", "CON", "LUCK")
ABILITY_NAMES: dict[str, str] = {
    "STR": "Strength", "AGI": "Agility", "FOR": "Fortitude",
    "SMA": "Smarts", "CON": "Conniving", "LUCK": "Luck",
}

# Die sizes in increasing order; a Boss's die is the next one up, and a d20 stays a d20
# (rulings, "Bosses & Minions").
DIE_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)

# Colour letters on the boards. White never links ("Linked Abilities": other than white).
COLOURS: dict[str, str] = {"R": "red", "B": "blue", "G": "green", "W": "white"}
UNLINKED = "W"

# Rulings, "Characters": die size and colour per ability, `—` = no die; then the special.
# Our rulings (docs/rules/deathbydice.md) changed five dice of the referee's roster to keep
# every character inside the 45-57% band with the practice opponents: Malice SMA d6 -> d8,
# Lucky Lou LUCK d20 -> d12 and CON d8 -> d10 (whole games), Madame Vex FOR and LUCK d6 -> d8
# (still a pair for Misdirection).
# Change a number only with new figures.
CHARACTER_TABLE: tuple[tuple[str, str, str, str, str, str, str, str], ...] = (
    # character        STR      AGI      FOR      SMA      CON      LUCK     special
    ("Malice",         "d8 R",  "d6 W",  "d10 R", "d8 B",  "d12 B", "—",     "cheap-shot"),
    ("Mayhem",         "d12 R", "d8 R",  "d8 W",  "—",     "d8 G",  "d10 G", "rampage"),
    ("The Accountant", "d4 W",  "d6 B",  "d6 W",  "d12 B", "d10 B", "d8 W",  "cook-the-books"),
    ("Knuckles",       "d10 R", "d4 W",  "d12 R", "—",     "d6 W",  "d8 R",  "thick-skull"),
    ("Lucky Lou",      "d4 W",  "d8 G",  "d4 W",  "—",     "d10 G", "d12 G", "loaded-dice"),
    ("Madame Vex",     "—",     "d10 B", "d8 W",  "d10 B", "d12 R", "d8 R",  "misdirection"),
)

# Rulings, "Specials": each once per combat. key -> (name, when it is offered, what it does).
SPECIAL_TABLE: dict[str, tuple[str, str, str]] = {
    "cheap-shot": ("Cheap Shot", "declared before a Boosted Ability Attack",
                   "that Boosted Ability Attack adds +4 instead of +2"),
    "rampage": ("Rampage", "right after a successful Complex Attack",
                "make one extra Ability Attack"),
    "cook-the-books": ("Cook the Books", "at the start of your turn",
                       "swap the standing values of two of your dice of the same size"),
    "thick-skull": ("Thick Skull", "when an attack would discard one of your dice",
                    "re-roll that die instead and keep it (the attack still counts as won)"),
    "loaded-dice": ("Loaded Dice", "right after your attack roll",
                    "re-roll one attacking die and keep the new result"),
    "misdirection": ("Misdirection", "when you are targeted, before you defend",
                     "move the attack to another of your dice of the same size"),
}

TURNS_EACH = 20          # rulings, "End of combat": after 20 turns each the combat ends
MAX_COMBATS = 5          # rulings: best 2 of 3, draws replayed, at most 5 combats
BOOST = 2                # "Boosted Ability Attack" / "Boosted Defense": +2
CHEAP_SHOT_BOOST = 4     # Cheap Shot: +4 instead of +2


@dataclass(frozen=True)
class Box:
    """One Ability box of a board: its die size (None: grayed out) and colour letter."""

    ability: str
    size: int | None
    colour: str | None


@dataclass(frozen=True)
class Character:
    name: str
    boxes: tuple[Box, ...]
    special: str

    @property
    def special_name(self) -> str:
        return SPECIAL_TABLE[self.special][0]


def _box(ability: str, cell: str) -> Box:
    if cell == "—":
        return Box(ability, None, None)
    size, colour = cell.split()
    return Box(ability, int(size[1:]), colour)


ROSTER: tuple[Character, ...] = tuple(
    Character(row[0], tuple(_box(a, c) for a, c in zip(ABILITIES, row[1:7])), row[7])
    for row in CHARACTER_TABLE)
ROSTER_NAMES: tuple[str, ...] = tuple(c.name for c in ROSTER)


def _name_key(name: str) -> str:
    key = phrase_key(name)
    return key[3:] if key.startswith("the") and len(key) > 3 else key


_BY_KEY = {_name_key(c.name): c for c in ROSTER}


def find_character(name: str) -> Character | None:
    """The roster entry for a typed name (case, spaces and a leading "The" ignored)."""
    return _BY_KEY.get(_name_key(name))


def boss_size(size: int) -> int:
    """A Boss's die: one size larger; a d20 stays a d20."""
    i = DIE_SIZES.index(size)
    return DIE_SIZES[min(i + 1, len(DIE_SIZES) - 1)]


def parse_ability(token: str) -> str | None:
    """`STR`, `str`, `Strength` -> `STR`; None when it names no ability."""
    if not token.isascii():  # "ſtr".upper() is "STR": only plain letters name an ability
        return None
    t = token.strip().upper()
    if t in ABILITY_NAMES:
        return t
    for abbr, name in ABILITY_NAMES.items():
        if t == name.upper():
            return abbr
    return None


def adjacent(ability: str) -> tuple[str, str]:
    """The two neighbours on the ring (the board wraps)."""
    i = ABILITIES.index(ability)
    return ABILITIES[(i - 1) % 6], ABILITIES[(i + 1) % 6]
