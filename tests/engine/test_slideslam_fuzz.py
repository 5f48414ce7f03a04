"""Slide and Slam parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play over several board options (placement, slide, slam and
the response window all occur); near misses are legal moves mutated the way hands and keyboards
mutate them: swapped, duplicated or dropped tokens, Unicode digits ('٣' '３' '²'), letters that
case-fold to ours, huge numbers, empty tokens."""
from __future__ import annotations

import pytest

from bot.engine.core import RuleError
from bot.engine.slideslam import SlideSlam
from bot.engine.slideslam import notation as N

from . import fuzzing as F

FUZZ = F.EngineFuzz(
    SlideSlam,
    tables=[(2, {}), (2, {"columns": 9, "rows": 10}), (2, {"starting_values": "1,1,1,1,1,1"}),
            (2, {"columns": 5, "rows": 6, "stun": True})],
    typos=F.Typos(
        junk=["", " ", "=", "==", "a", "a0", "j1", "z", "ı", "ſ", "\u212a", "ＡＢ", "→", "\u200b",
              "predict", "PREDICT", "place", "slide", "slam", "bend", "pass", "end", "awaken",
              "roll 1", "a1=", "=6", "a1=6=6", "None"],
        verbs=["place", "unplace", "confirm", "slide", "slam", "end", "bend", "pass", "awaken"],
        spellings=lambda text: [text.upper(), text.lower(), text.replace("=", " = "),
                                text.replace("=", "=="), text.replace(" ", "")],
        stray="=. xZ9٣²ıſ\u212a"),
    alphabet="placeunconfirmslidebndpswkt abcdefghiuvwxyzABCUVZ=0123456789ı",
    examples=300, seeds=12)


def test_the_positions_cover_every_phase():
    assert {g.phase for g, _ in FUZZ.positions} >= {"placement", "slide", "slam", "response"}


test_near_miss_moves_are_refused_cleanly = FUZZ.near_miss_test()
test_junk_text_is_refused_cleanly = FUZZ.junk_text_test()
test_the_parser_raises_only_rule_errors = FUZZ.parsers_test(
    lambda text: N.parse(text, 5, 6), lambda text: N.parse(text, 9, 10))


def placing() -> SlideSlam:
    return SlideSlam.new(2, names=["Ada", "Bo"])


def test_issue_11_two_dice_on_a3_through_an_arabic_indic_digit():
    """`/slideslam move place a٣=6 a3=5 …` was accepted: `a٣` and `a3` were two squares, so two
    dice stood on a3. Now the whole move is refused and nothing is placed."""
    F.refused(placing(), 0, "place a٣=6 a3=5 b1=4 c1=3 d1=2 e1=1")
    with pytest.raises(RuleError):
        N.parse("place a٣=6", 6, 8)


@pytest.mark.parametrize("typed", ["place a３=6", "place a3=٦", "place a²=6", "place A٣=6",
                                   "unplace a٣", "place a3=99999999999999999999",
                                   "place ａ3=6", "place a3=6 ı", "slide ſ a4",
                                   "slide \u212a1 a2", "awaken a1 My Dice resonate İ"])
def test_issue_11_non_ascii_digits_and_letters_are_refused(typed):
    g = placing()
    g.apply(0, "place a1=6")
    F.refused(g, 0, typed)


def test_ascii_squares_still_read_in_any_case():
    g = placing()
    g.apply(0, "place A1=6 b2=5")
    assert g.dice["A"]["square"] == "a1" and g.dice["B"]["square"] == "b2"
    g.apply(0, "unplace a")   # a die letter, any case
    assert g.dice["A"]["square"] is None
