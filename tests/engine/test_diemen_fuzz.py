"""Crazy Die-Man's parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play in both modes (physical and simulated); near misses are
legal moves mutated the way hands and keyboards mutate them: swapped, duplicated or dropped
tokens, Unicode digits ('٣' '３' '²'), huge numbers, letters that case-fold to ours ('ſ' for
s, the Kelvin sign for k), empty and space tokens, stray punctuation."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.diemen import DieMen
from bot.engine.diemen import board, notation as N

from . import fuzzing as F

SETTINGS = F.settings(250)
JUNK = ["", " ", ",", ",,", "=", ":", "@", "@0", "@3", "P3:F1", "P1:", ":F2", "F4", "F0", "X1",
        "hit=", "hit=,", "customers=", "customers=0", "aim=", "called=", "off", "bonus",
        "ſ2", "\u212a", "Ｆ2", "→", "\u200b", "\t", "None", "stand", "middle", "roll 1"]
TYPOS = F.Typos(
    JUNK, list(N.VERBS),
    lambda text: [text.upper(), text.lower(), text.replace(",", " , "), text.replace(":", " : "),
                  text.replace("=", " = "), text.replace("=", "=="), text.replace("P", "@")],
    "@.:,=- xZ9٣²ſ\u212a")


def new(seed: int) -> DieMen:
    return DieMen.new(2, {"mode": ("physical", "simulated")[seed % 2]}, names=["Ann", "Bea"])


POSITIONS = [p for seed in range(10)
             for p in F.positions(new, seed, count=8, moves=400, keep=0.25)]


def test_positions_cover_the_turn():
    phases = {g.current_phase() for g, _ in POSITIONS}
    assert {"setup", "move", "flick", "reposition"} <= phases, phases


@settings(**SETTINGS)
@given(st.data())
def test_near_miss_moves_are_refused_cleanly(data):
    F.near_miss(data, POSITIONS, TYPOS)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("bannersmoveflickoopsaimcalledmarkresultplacerepositionsupersaledonecustomerend "
         "FBSCP123@:,=hitoffbonusmiddle0123456789")
    + F.ODD_LETTERS), max_size=50))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    F.refused_or_played(game.copy(), seat, text)


@settings(**SETTINGS)
@given(st.data())
def test_junk_chance_answers_are_refused_cleanly(data):
    """The roll answers a table or record gives are parsed too."""
    game, _ = data.draw(st.sampled_from(POSITIONS))
    game = game.copy()
    tokens = data.draw(st.lists(st.sampled_from(
        ["roll", "clean", "pair", "neighbour", "customer", "miss", "off", "yes", "no", "1",
         "6", "7", "٣", "F2", "C1", "B2", ""]), max_size=5))
    F.refused_or_played(game, CHANCE, " ".join(tokens))


@settings(**SETTINGS)
@given(st.text(max_size=40))
def test_the_parsers_raise_only_rule_errors(text):
    args = text.split()
    for parse in (lambda: N.report(args), lambda: N.declare(args),
                  lambda: N.spot_list(text), lambda: board.parse_spot(text)):
        try:
            parse()
        except RuleError:
            pass


@pytest.mark.parametrize("typed", ["result ٣ hit=F2", "result ３", "result ² off",
                                   "result 4 customers=٢", "flick ١", "flick ²",
                                   "oops ſ2", "called \u212a", "called Ｆ2", "aim ſ1",
                                   "flick 1 called=ſ1", "result 4 hit=F2,ſ1",
                                   "supersale ２", "oops 99999999999999"])
def test_issue_11_unicode_digits_and_letters_are_refused(typed):
    for game, seat in POSITIONS:
        game = game.copy()
        before = game.to_json()
        with pytest.raises(RuleError):
            game.apply(seat, typed)
        assert game.to_json() == before
