"""Crazy Die-Man's parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play in both modes (physical and simulated); near misses are
legal moves mutated the way hands and keyboards mutate them: swapped, duplicated or dropped
tokens, Unicode digits ('٣' '３' '²'), huge numbers, letters that case-fold to ours ('ſ' for
s, the Kelvin sign for k), empty and space tokens, stray punctuation."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.core import CHANCE
from bot.engine.diemen import DieMen
from bot.engine.diemen import board, notation as N

from . import fuzzing as F

FUZZ = F.EngineFuzz(
    DieMen,
    tables=[(2, {"mode": "physical"}), (2, {"mode": "simulated"})],
    typos=F.Typos(
        junk=["", " ", ",", ",,", "=", ":", "@", "@0", "@3", "P3:F1", "P1:", ":F2", "F4", "F0",
              "X1", "hit=", "hit=,", "customers=", "customers=0", "aim=", "called=", "off", "bonus",
              "ſ2", "\u212a", "Ｆ2", "→", "\u200b", "\t", "None", "stand", "middle", "roll 1"],
        verbs=list(N.VERBS),
        spellings=lambda text: [text.upper(), text.lower(), text.replace(",", " , "),
                                text.replace(":", " : "), text.replace("=", " = "),
                                text.replace("=", "=="), text.replace("P", "@")],
        stray="@.:,=- xZ9٣²ſ\u212a"),
    alphabet="bannersmoveflickoopsaimcalledmarkresultplacerepositionsupersaledonecustomerend "
             "FBSCP123@:,=hitoffbonusmiddle0123456789",
    examples=250, junk_size=50)


def test_positions_cover_the_turn():
    phases = {g.current_phase() for g, _ in FUZZ.positions}
    assert {"setup", "move", "flick", "reposition"} <= phases, phases


test_near_miss_moves_are_refused_cleanly = FUZZ.near_miss_test()
test_junk_text_is_refused_cleanly = FUZZ.junk_text_test()
test_the_parsers_raise_only_rule_errors = FUZZ.parsers_test(
    lambda text: N.report(text.split()), lambda text: N.declare(text.split()), N.spot_list,
    board.parse_spot)


@FUZZ.settings
@given(st.data())
def test_junk_chance_answers_are_refused_cleanly(data):
    """The roll answers a table or record gives are parsed too."""
    game, _ = data.draw(st.sampled_from(FUZZ.positions))
    game = game.copy()
    tokens = data.draw(st.lists(st.sampled_from(
        ["roll", "clean", "pair", "neighbour", "customer", "miss", "off", "yes", "no", "1",
         "6", "7", "٣", "F2", "C1", "B2", ""]), max_size=5))
    F.refused_or_played(game, CHANCE, " ".join(tokens))


@pytest.mark.parametrize("typed", ["result ٣ hit=F2", "result ３", "result ² off",
                                   "result 4 customers=٢", "flick ١", "flick ²",
                                   "oops ſ2", "called \u212a", "called Ｆ2", "aim ſ1",
                                   "flick 1 called=ſ1", "result 4 hit=F2,ſ1",
                                   "supersale ２", "oops 99999999999999"])
def test_issue_11_unicode_digits_and_letters_are_refused(typed):
    for game, seat in FUZZ.positions:
        F.refused(game.copy(), seat, typed)
