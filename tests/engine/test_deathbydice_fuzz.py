"""Death by Dice parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play across player counts and modes; near misses are legal
moves mutated the way hands and keyboards mutate them: swapped, duplicated or dropped tokens,
Unicode digits ('٣' '３' '²'), huge numbers, case changes, stray punctuation."""
from __future__ import annotations

import pytest

from bot.engine.core import RuleError
from bot.engine.deathbydice import DeathByDice
from bot.engine.deathbydice import notation as N

from . import fuzzing as F

FUZZ = F.EngineFuzz(
    DeathByDice,
    tables=[(2, {}), (3, {"best_of": 1}), (2, {"mode": "boss"}), (4, {"mode": "boss"}),
            (6, {"best_of": 1})],
    typos=F.Typos(
        junk=["", " ", "->", "+", "=", ":", "@", "@0", "@7", "@1.0", "@2.9", "@@1", "STR+", "+STR",
              "STR++FOR", "ſtr", "ＳＴＲ", "STR=", "=5", "LUCK=²", "→", "\u200b", "\t", "None",
              "special", "attack", "defend", "discard", "setup", "pass", "nospecial", "roll 1"],
        verbs=["setup", "attack", "defend", "discard", "special", "pass"],
        spellings=lambda text: [text.upper(), text.lower(), text.replace("+", " + "),
                                text.replace(":", " : "), text.replace("=", " = "),
                                text.replace("->", "-> ->"), text.replace("@", "")],
        stray="@.:+=-> xZ9٣²"),
    alphabet="attackdefendsetupdiscardspecialpass STRAGIFORSMACONLUCK@.:+=->0123456789",
    examples=300, count=6, keep=0.2)

test_near_miss_moves_are_refused_cleanly = FUZZ.near_miss_test()
test_junk_text_is_refused_cleanly = FUZZ.junk_text_test()
test_the_parser_raises_only_rule_errors = FUZZ.parsers_test(lambda text: N.parse(text, 2),
                                                            lambda text: N.parse(text, 6))


@pytest.mark.parametrize("typed", ["setup STR=² AGI=2 FOR=4 SMA=3 CON=9",
                                   "setup STR=٣ AGI=2 FOR=4 SMA=3 CON=9",
                                   "setup STR=３ AGI=2 FOR=4 SMA=3 CON=9",
                                   "setup ſtr=5 AGI=2 FOR=4 SMA=3 CON=9",
                                   "setup STR=5 AGI=2 FOR=4 SMA=3 CON=99999999999999999999",
                                   "attack ability STR -> @٢:STR",
                                   "attac\u212a ability STR -> @2:STR"])  # Kelvin sign
def test_issue_11_unicode_digits_and_letters_are_refused(typed):
    """`/deathbydice move setup STR=² …` crashed ("Something went wrong"): '²' passed
    `str.isdigit()` and then broke `int()`. Now it, and its cousins, are plain refusals."""
    game, seat = next((g, s) for g, s in FUZZ.positions if g.stage in ("setup", "declare"))
    F.refused(game.copy(), seat, typed)
    with pytest.raises(RuleError):
        N.parse(typed, 2)
