"""Death by Dice parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play across player counts and modes; near misses are legal
moves mutated the way hands and keyboards mutate them: swapped, duplicated or dropped tokens,
Unicode digits ('٣' '３' '²'), huge numbers, case changes, stray punctuation."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.core import RuleError
from bot.engine.deathbydice import DeathByDice
from bot.engine.deathbydice import notation as N

from . import fuzzing as F

SETTINGS = F.settings(300)
TABLES = [(2, {}), (3, {"best_of": 1}), (2, {"mode": "boss"}), (4, {"mode": "boss"}),
          (6, {"best_of": 1})]
JUNK = ["", " ", "->", "+", "=", ":", "@", "@0", "@7", "@1.0", "@2.9", "@@1", "STR+", "+STR",
        "STR++FOR", "ſtr", "ＳＴＲ", "STR=", "=5", "LUCK=²", "→", "\u200b", "\t", "None",
        "special", "attack", "defend", "discard", "setup", "pass", "nospecial", "roll 1"]
TYPOS = F.Typos(
    JUNK, ["setup", "attack", "defend", "discard", "special", "pass"],
    lambda text: [text.upper(), text.lower(), text.replace("+", " + "), text.replace(":", " : "),
                  text.replace("=", " = "), text.replace("->", "-> ->"), text.replace("@", "")],
    "@.:+=-> xZ9٣²")


def new(seed: int) -> DeathByDice:
    players, options = TABLES[seed % len(TABLES)]
    return DeathByDice.new(players, options, names=[f"N{i}" for i in range(players)])


POSITIONS = [p for seed in range(10)
             for p in F.positions(new, seed, count=6, moves=400, keep=0.2)]


@settings(**SETTINGS)
@given(st.data())
def test_near_miss_moves_are_refused_cleanly(data):
    F.near_miss(data, POSITIONS, TYPOS)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("attackdefendsetupdiscardspecialpass STRAGIFORSMACONLUCK@.:+=->0123456789")
    + F.ODD_LETTERS), max_size=60))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    F.refused_or_played(game.copy(), seat, text)


@settings(**SETTINGS)
@given(st.text(max_size=40))
def test_the_parser_raises_only_rule_errors(text):
    for players in (2, 6):
        try:
            N.parse(text, players)
        except RuleError:
            pass


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
    game, seat = next((g, s) for g, s in POSITIONS if g.stage in ("setup", "declare"))
    game = game.copy()
    before = game.to_json()
    with pytest.raises(RuleError):
        game.apply(seat, typed)
    assert game.to_json() == before
    with pytest.raises(RuleError):
        N.parse(typed, 2)
