"""KAPLOOM!'s printed content as data: faces, trait dice, pools, starting dice, the action
board, the four super boards and the Duo board.

Everything here is copied from the referee's board (rules/kaploom.md: "Faces and dice",
"The board", "Super boards", "2 vs 2"). The rules code reads these tables and never names an
action: an action is (panel, name, requirements, effect kind + number), so a board can be
printed, rendered and checked against the rulings page from this one module.
"""
from __future__ import annotations

from dataclasses import dataclass

# --- faces and dice (rulings: "Faces and dice") --------------------------------------------

BLANK = "_"
NON_WILD = ("M", "E", "T", "A", "X")
FACES = NON_WILD + ("W",)
FACE_NAMES = {"M": "Might", "E": "Energy", "T": "Toughness", "A": "Agility", "X": "X-Factor",
              "W": "Wild", BLANK: "blank"}
FACE_COLOURS = {"M": "red", "E": "yellow", "T": "purple", "A": "green", "X": "blue",
                "W": "white", BLANK: "none"}

COLOURS = ("red", "yellow", "blue", "purple", "green")
TRAIT_FACES: dict[str, tuple[str, ...]] = {
    "red": ("M", "M", "M", "E", "W", BLANK),
    "yellow": ("E", "E", "E", "M", "W", BLANK),
    "purple": ("T", "T", "T", "A", "W", BLANK),
    "green": ("A", "A", "A", "T", "W", BLANK),
    "blue": ("X", "X", "X", "E", "W", BLANK),
}
ACTION_SLOTS = 6  # an action die has six face slots; an empty slot rolls blank
ACTION_COLOUR = "gray"

# One copy of the base game. 2 vs 2 plays with two copies: every count doubles.
POOL_TRAIT_DICE = 4          # of each colour
POOL_ACTION_DICE = 8
POOL_FACES = {"W": 12, "M": 10, "E": 10, "T": 8, "A": 8, "X": 8}

SPOILER_CAP = 2              # Spoiler Alert! holds at most 2 spoiler tokens (super rulings)
ROUND_LIMIT = 30             # our ruling: the game always ends (docs/rules/kaploom.md)
REVIVE_HEALTH = 6


@dataclass(frozen=True)
class Start:
    """Health and starting dice of a side or a super."""

    side: str
    health: int
    trait: tuple[str, ...]
    action_faces: tuple[str, ...]   # the faces on the single starting action die


# Setup (seed): 30 health each; the starting dice as printed, in the printed order.
SIDES: dict[str, Start] = {
    "hero": Start("hero", 30, ("blue", "yellow", "purple", "green"), ("W",)),
    "villain": Start("villain", 30, ("blue", "red", "yellow", "green"), ("W",)),
}

# Super boards (optional, advanced): health and starting dice. Tough Nut's third die is blue,
# not the rulings' yellow (our balance ruling, docs/rules/kaploom.md): HARD TO BREAK needs an
# X-Factor face and without a blue die the hard bots' Tough Nut won 28-30%; 4 more health did
# not help. Victor Kane's 32 health (the rulings': 28) is ours too: the plain hero beat it in
# 62% of games. Change a number only with new figures.
SUPERS: dict[str, Start] = {
    "Tough Nut": Start("hero", 34, ("purple", "red", "blue", "green"), ("W",)),
    "Timeout!": Start("hero", 30, ("blue", "yellow", "green", "purple"), ("W", "X")),
    "Victor Kane": Start("villain", 32, ("red", "red", "yellow", "blue"), ("W",)),
    "Spoiler Alert!": Start("villain", 32, ("blue", "purple", "green", "red"), ("W",)),
}


# --- actions ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Action:
    """One action of a board. `effect` is the kind of effect, `amount` its number; the other
    fields qualify a few kinds (a fixed face, how many chosen faces may be Wild, a condition,
    the ability a lock-in grants)."""

    board: str                      # "base", a super's name, or "duo"
    panel: str                      # "attack base", ..., "immediate", "power up", "duo"
    name: str
    requires: tuple[str, ...]
    effect: str
    amount: int = 0
    face: str | None = None         # the face gained / fixed by the effect
    wilds: int = 0                  # how many of the chosen faces may be Wild
    condition: str | None = None    # "hurt": only if you lost health this round
    ability: str | None = None      # what a lock-in grants for the rest of the game
    lock_in: bool = False
    one_each: bool = False          # Duo: one die from each ally
    names_ally: bool = False        # Duo: the placing player names an ally at placement
    text: str = ""

    @property
    def immediate(self) -> bool:
        return self.panel == "immediate"

    @property
    def size(self) -> int:
        """How many dice the action takes."""
        from .requirements import SYMBOLS
        return sum(SYMBOLS[s].size for s in self.requires)


def _a(board: str, panel: str, name: str, requires: str, effect: str, amount: int = 0,
       text: str = "", **kw) -> Action:
    return Action(board, panel, name, tuple(requires.split()), effect, amount, text=text, **kw)


# The board (same for hero and villain). Rulings: "The board".
ACTION_TABLE: tuple[Action, ...] = (
    _a("base", "attack base", "JAB", "M", "attack_base", 1, "attack base 1"),
    _a("base", "attack base", "POW", "M E", "attack_base", 3, "attack base 3"),
    _a("base", "attack base", "HAYMAKER", "M M E E", "attack_base", 6, "attack base 6"),
    _a("base", "attack base", "KAPLOOM!", "M M E E X W", "attack_base", 10, "attack base 10"),
    _a("base", "attack kicker", "WIND-UP", "E", "attack_kicker", 1, "+1 attack"),
    _a("base", "attack kicker", "FOLLOW-THROUGH", "PAIR", "attack_kicker", 1, "+1 attack"),
    _a("base", "attack kicker", "BODY SLAM", "MATCH+", "attack_kicker", 2, "+2 attack"),
    _a("base", "attack multiplier", "DOUBLE TROUBLE", "X M", "attack_multiplier", 2,
       "attack ×2"),
    _a("base", "attack multiplier", "MEGATON", "PAIR-ACT+ X X", "attack_multiplier", 3,
       "attack ×3"),
    _a("base", "defense base", "BLOCK", "ANY T", "defense_base", 2, "defense base 2"),
    _a("base", "defense base", "FLIP", "A T", "defense_base", 4, "defense base 4"),
    _a("base", "defense base", "BRICK WALL", "T T A A", "defense_base", 7, "defense base 7"),
    _a("base", "defense base", "UNBREAKABLE", "T T T A A X", "defense_base", 10,
       "defense base 10"),
    _a("base", "defense kicker", "BRACE", "T", "defense_kicker", 2, "+2 defense"),
    _a("base", "defense kicker", "DODGE", "A ACT", "defense_kicker", 3, "+3 defense"),
    _a("base", "defense multiplier", "IRON SKIN", "T X", "defense_multiplier", 2,
       "defense ×2"),
    _a("base", "defense multiplier", "FORCE FIELD", "PAIR-ACT X W", "defense_multiplier", 3,
       "defense ×3"),
    _a("base", "immediate", "TIME JUMP", "ANY", "reroll", 1,
       "at once re-roll one other unplaced die of yours"),
    _a("base", "immediate", "QUICK FIX", "ANY T", "heal_now", 2, "at once gain 2 health"),
    _a("base", "power up", "SUCKER PUNCH", "A", "punish_die_gain", 2,
       "if the opponent gains any die this phase, they lose 2 health"),
    _a("base", "power up", "FACE OFF", "X", "punish_face_gain", 2,
       "if the opponent gains any face this phase, they lose 2 health"),
    _a("base", "power up", "GROW", "X E", "gain_trait_die", 1,
       "gain 1 trait die of a colour you choose"),
    _a("base", "power up", "POWER ON", "X A", "gain_action_die", 1,
       "gain 1 action die with 1 non-Wild face you choose"),
    _a("base", "power up", "UPGRADE", "ACT", "gain_face", 1, "gain 1 non-Wild face you choose"),
    _a("base", "power up", "SUPERCHARGE", "PAIR-ACT+", "gain_face", 1, "gain 1 Wild face",
       face="W"),
    _a("base", "power up", "TRADE IN", "ANY", "trade_face", 1,
       "return one of your non-Wild faces, take a different non-Wild face"),
    _a("base", "power up", "RECOVER", "T T", "heal", 4, "gain 4 health"),
    _a("base", "power up", "SECOND WIND", "PAIR T E", "heal", 6, "gain 6 health"),
    _a("base", "power up", "BIG BANG", "E T A X", "gain_action_die", 2,
       "gain 1 action die with 2 faces you choose (at most one Wild)", wilds=1),
)

# Super boards: each adds its actions to its owner's board. Rulings: "Super boards".
SUPER_TABLE: tuple[Action, ...] = (
    _a("Tough Nut", "defense kicker", "WELDED SHUT", "T T", "defense_kicker", 3,
       "+3 defense"),
    _a("Tough Nut", "power up", "DENT", "T", "gain_face", 1,
       "if you lost health this round, gain 1 Toughness face", face="T", condition="hurt"),
    _a("Tough Nut", "power up", "HARD TO BREAK", "T T T X", "lock_in", 2,
       "lock in: from now on +2 to every defense that has a base",
       ability="defense_bonus", lock_in=True),
    _a("Timeout!", "immediate", "PAUSE", "X", "reroll", 2,
       "at once re-roll up to 2 other unplaced dice"),
    _a("Timeout!", "power up", "QUICK STUDY", "ANY ANY", "gain_face", 1,
       "gain 1 non-Wild face"),
    _a("Timeout!", "power up", "TIME LOOP", "X X A E", "lock_in", 1,
       "lock in: from now on, once a round, re-roll one unplaced die for free (immediate)",
       ability="free_reroll", lock_in=True),
    _a("Victor Kane", "attack kicker", "PUNISH", "M X", "attack_kicker_per_action_die", 1,
       "+1 attack per action die you own"),
    _a("Victor Kane", "power up", "MORE POWER", "X E", "gain_action_die", 1,
       "gain 1 action die with a Might face", face="M"),
    _a("Victor Kane", "power up", "TYRANT", "M M X X", "lock_in", 1,
       "lock in: from now on, each die you gain costs the opponent 1 health",
       ability="tyrant", lock_in=True),
    _a("Spoiler Alert!", "power up", "FORESHADOW", "T", "gain_spoiler", 1,
       "gain 1 spoiler token (at most 2)"),
    _a("Spoiler Alert!", "attack multiplier", "THE TWIST", "X W",
       "attack_multiplier_spoilers", 1, "attack × (1 + spoiler tokens); spends them all"),
    _a("Spoiler Alert!", "power up", "PLOT ARMOR", "T A X X", "lock_in", 1,
       "lock in: from now on +1 defense base per spoiler token held",
       ability="plot_armor", lock_in=True),
)

# The Duo board between allies (2 vs 2). Rulings: "2 vs 2".
DUO_TABLE: tuple[Action, ...] = (
    _a("duo", "duo", "TEAM-UP", "PAIR", "team_attack_kicker", 2,
       "+2 attack kicker for both allies this round (one die from each ally)", one_each=True),
    _a("duo", "duo", "COVER", "T A", "cover", 3,
       "+3 defense kicker for the ally named at placement", names_ally=True),
    _a("duo", "duo", "HAND-OFF", "ANY", "hand_off", 0,
       "the die goes to either ally in Power Up"),
    _a("duo", "duo", "SHARE THE LOAD", "X X", "gain_trait_die", 1,
       "gain 1 trait die for either ally"),
    _a("duo", "duo", "REVIVE", "W W X X T T", "revive", REVIVE_HEALTH,
       "a KO'd ally returns with 6 health in Power Up"),
)

# Abilities a lock-in grants, for views and events.
ABILITY_TEXT = {
    "defense_bonus": "+2 to every defense that has a base",
    "free_reroll": "once a round, re-roll one unplaced die for free",
    "tyrant": "each die you gain costs the opponent 1 health",
    "plot_armor": "+1 defense base per spoiler token held",
}

ALL_ACTIONS: dict[str, Action] = {a.name: a for a in ACTION_TABLE + SUPER_TABLE + DUO_TABLE}


def board_actions(super_name: str | None) -> tuple[Action, ...]:
    """The actions on one player's board: the base board plus their super's actions."""
    if super_name is None:
        return ACTION_TABLE
    return ACTION_TABLE + tuple(a for a in SUPER_TABLE if a.board == super_name)


def trait_faces(colour: str) -> tuple[str, ...]:
    return TRAIT_FACES[colour]
