"""The game's fixed words and numbers: die letters, the spoken phrases, the slam damage.

Rulings: "Starting values" (letters A–F / U–Z), "Power Token" (the two phrases),
"Dice Awakening: Final Form!" (the invocation), "Turn" step 3 (damage 1 or 2).
"""
from __future__ import annotations

from ..core import OptionError, phrase_key

# Stable die letters per seat; the k-th letter goes with the k-th highest starting value.
LETTERS: tuple[str, str] = ("ABCDEF", "UVWXYZ")
DICE_PER_PLAYER = 6

INVOCATION = ("My Dice resonate with the fire in my heart! Its burning beat is razor sharp! "
              "Final Form! DICE AWAKENING!")
INVOCATION_KEY = phrase_key(INVOCATION)
BEND_PHRASE = "DICE IS NOT BEND!"
PREDICT_PHRASE = "Now you're going to say: DICE IS NOT BEND!"

NORMAL_DAMAGE = 1
SUPER_DAMAGE = 2
AWAKENED_STEPS = 2      # the awakened die moves up to 2 although its health is 1
AWAKEN_MAX_DICE = 3     # awakening is allowed with 3 or fewer dice left
SUPER_SLAM_HEALTH = 1   # a die at exactly 1 health Super Slams

DEFAULT_VALUES = "6,5,4,3,2,1"


def parse_values(text: str) -> list[int]:
    """The `starting_values` option ('6,5,4,3,2,1') as six healths, highest first.
    OptionError says the right form."""
    parts = [p for p in str(text).replace(" ", ",").split(",") if p]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != DICE_PER_PLAYER or not all(1 <= v <= 6 for v in values):
        raise OptionError(
            "Option `starting_values` is six numbers from 1 to 6 separated by commas, "
            f"like {DEFAULT_VALUES}; got {text!r}.")
    return sorted(values, reverse=True)
