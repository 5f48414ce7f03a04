"""TradeShowdown's parser and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play across player counts and options, in every phase
(choosing dice, the window after the roll, attacks, specials); near misses are legal moves
mutated the way hands and keyboards mutate them: swapped, duplicated or dropped tokens, Unicode
digits ('٣' '３' '²'), huge numbers, case changes, stray punctuation, empty tokens."""
from __future__ import annotations

import pytest

from bot.engine.core import OptionError, RuleError
from bot.engine.tradeshowdown import TradeShowdown
from bot.engine.tradeshowdown import notation as N
from bot.engine.tradeshowdown.dice import parse_supply

from . import fuzzing as F

FUZZ = F.EngineFuzz(
    TradeShowdown,
    tables=[(2, {}), (3, {}), (2, {"multiple_attacks": False, "fair_length": 6}),
            (4, {"tag_team": False}), (6, {"fair_length": 12})],
    typos=F.Typos(
        junk=["", " ", "@", "@0", "@7", "@1.0", "@@1", "#", "#2", "d", "d0", "d3", "d12", "d٤",
              "ｄ4", "ſlash", "ＳＬＡＳＨ", "→", "\u200b", "\t", "None", "partner", "height", "depth",
              "width", "special", "hold", "roll", "roll 1", "snapping", "pencil", "-"],
        verbs=["dice", "target", "tag", "set", "claw", "intimidate", "combo", "undo", "done",
               "slash", "special", "hold", "roll"],
        spellings=lambda text: [text.upper(), text.title(), text.replace("@", ""),
                                text.replace("#", " # "), text.replace("-", " "),
                                text.replace(" ", ""), text.replace("d", "D")],
        stray="@#.-xZ9٣²ｄ ",
        odd_digits=(*F.ODD_DIGITS, "10", "#0", "#99")),
    alphabet="dicetargslhwpnumbrko @#-0123456789ｄ×",
    examples=250, moves=1500, keep=0.08)


def test_positions_cover_every_phase():
    assert {g.phase for g, _ in FUZZ.positions} >= {"choose", "window", "attack"}
    assert {g.stage for g, _ in FUZZ.positions if g.phase == "attack"} >= {"slash"}


test_near_miss_moves_are_refused_cleanly = FUZZ.near_miss_test()
test_junk_text_is_refused_cleanly = FUZZ.junk_text_test()


@pytest.mark.parametrize("text", [
    "dice d٤", "dice d４", "dice d4 @٢", "slash ٣", "slash 6#٢", "set ３", "combo ²",
    "slash 1" + "0" * 4400, "dice d" + "4" * 5000, "target @" + "9" * 30, "slash 6#" + "9" * 12,
    "ſlash 6", "SLASH 6", "dice D4", "  ", "slash", "slash #2", "slash 6#0", "slash 6 #2",
    "special snapping-pencil ٣", "intimidate partner", "claw 8 height height", "roll d4 @٣",
])
def test_known_near_misses_in_every_phase(text):
    for game, seat in FUZZ.positions[::3]:
        F.refused_or_played(game.copy(), seat, text)


def test_unicode_digits_never_parse_as_ours():
    for text in ("slash ٣", "dice d４", "set ²", "target @３"):
        with pytest.raises(RuleError):
            N.parse(text, 6)


@pytest.mark.parametrize("supply", [
    "10000000xd4", "d4:10000000", "1099511627776xd4", "d" + "4" * 50, "3xd4," * 400,
    "2×d٤", "11xd4", "2xd4,2xd6,2xd8,5xd10", "١٠xd4",
])
def test_supply_option_is_refused_before_any_work(supply):
    """Issue #11 item 10: a huge count costs nothing (checked as text, then against ten)."""
    with pytest.raises(OptionError):
        parse_supply(supply)
    with pytest.raises(OptionError):
        TradeShowdown.new(2, {"dice": supply})


def test_dice_move_counts_are_checked_before_any_text_is_built():
    with pytest.raises(RuleError):
        TradeShowdown.dice_move([4] * 11)  # more than any supply
    with pytest.raises(RuleError):
        TradeShowdown.dice_move([])
    with pytest.raises(RuleError):
        TradeShowdown.dice_move([12])
    assert TradeShowdown.dice_move([10, 4], 2) == "dice d4 d10 @3"


def test_describe_answers_any_move_in_any_position():
    """A stale button or a typed move from another step is described, never a crash; a legal
    move is described in words, never echoed back."""
    moves = sorted({m for g, s in FUZZ.positions for m in g.legal(s)})
    for game, seat in FUZZ.positions[::4]:
        legal = set(game.legal(seat))
        for move in moves[::7] + ["target @9", "roll 1 2", "slash 6#2"]:
            said = game.describe(move, seat)
            assert said.label and len(said.label) <= 80
            if move in legal:
                assert said.label != move and "not possible" not in said.effect
