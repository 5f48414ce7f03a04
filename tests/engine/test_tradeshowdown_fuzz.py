"""TradeShowdown's parser and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play across player counts and options, in every phase
(choosing dice, the window after the roll, attacks, specials); near misses are legal moves
mutated the way hands and keyboards mutate them: swapped, duplicated or dropped tokens, Unicode
digits ('٣' '３' '²'), huge numbers, case changes, stray punctuation, empty tokens."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, OptionError, RuleError
from bot.engine.tradeshowdown import TradeShowdown
from bot.engine.tradeshowdown import notation as N
from bot.engine.tradeshowdown.dice import parse_supply

SETTINGS = dict(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
TABLES = [(2, {}), (3, {}), (2, {"multiple_attacks": False, "fair_length": 6}),
          (4, {"tag_team": False}), (6, {"fair_length": 12})]
ODD_DIGITS = ["٣", "３", "²", "߂", "𝟙", "Ⅳ", "½", "0" * 12, "99999999999", "-1", "1e3", "0x1",
              "10", "#0", "#99"]
JUNK = ["", " ", "@", "@0", "@7", "@1.0", "@@1", "#", "#2", "d", "d0", "d3", "d12", "d٤", "ｄ4",
        "ſlash", "ＳＬＡＳＨ", "→", "\u200b", "\t", "None", "partner", "height", "depth",
        "width", "special", "hold", "roll", "roll 1", "snapping", "pencil", "-"]
VERBS = ["dice", "target", "tag", "set", "claw", "intimidate", "combo", "undo", "done",
         "slash", "special", "hold", "roll"]


def positions(seed: int, count: int = 8) -> list[tuple[TradeShowdown, int]]:
    """Games part-way through random legal play, with a seat that may act (chance resolved)."""
    rng = random.Random(seed)
    players, options = TABLES[seed % len(TABLES)]
    g = TradeShowdown.new(players, options, names=[f"N{i}" for i in range(players)])
    found = []
    for _ in range(1500):
        actors = g.actors()
        if not actors:
            break
        if actors == [CHANCE]:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        seat = rng.choice(actors)
        if rng.random() < 0.08:
            found.append((g.copy(), seat))
            if len(found) >= count:
                break
        g.apply(seat, rng.choice(g.legal(seat)))
    return found


POSITIONS = [p for seed in range(10) for p in positions(seed)]


def test_positions_cover_every_phase():
    assert {g.phase for g, _ in POSITIONS} >= {"choose", "window", "attack"}
    assert {g.stage for g, _ in POSITIONS if g.phase == "attack"} >= {"slash"}


def mutate(move: str, rng: random.Random) -> str:
    tokens = move.split()
    kind = rng.randrange(9)
    if kind == 0 and len(tokens) > 1:                      # swap two tokens
        i, j = rng.sample(range(len(tokens)), 2)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 1:                                        # duplicate a token
        i = rng.randrange(len(tokens))
        tokens.insert(i, tokens[i])
    elif kind == 2 and len(tokens) > 1:                    # drop a token
        tokens.pop(rng.randrange(len(tokens)))
    elif kind == 3:                                        # a digit that is not 0-9, or huge
        text = " ".join(tokens)
        digits = [i for i, ch in enumerate(text) if ch.isdigit()]
        odd = rng.choice(ODD_DIGITS)
        if digits:
            i = rng.choice(digits)
            return text[:i] + odd + text[i + 1:]
        return text + " " + odd
    elif kind == 4:                                        # junk token somewhere
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(JUNK))
    elif kind == 5:                                        # case and separators
        text = " ".join(tokens)
        return rng.choice([text.upper(), text.title(), text.replace("@", ""),
                           text.replace("#", " # "), text.replace("-", " "),
                           text.replace(" ", ""), text.replace("d", "D")])
    elif kind == 6:                                        # a character replaced
        text = " ".join(tokens)
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("@#.-xZ9٣²ｄ ") + text[i + 1:]
    elif kind == 7:                                        # empty / whitespace token
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(["", "\u3000", "\u00a0"]))
    else:                                                  # another verb's arguments
        tokens[0] = rng.choice(VERBS)
    return " ".join(tokens)


def refused_or_played(game: TradeShowdown, actor, text: str) -> None:
    """Only a rule error may come back, and a refused move changes nothing."""
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(actor, text)
    except RuleError:
        assert json.dumps(game.to_json(), sort_keys=True) == before, text
    # anything else propagates and fails the test


@settings(**SETTINGS)
@given(st.data())
def test_near_miss_moves_are_refused_cleanly(data):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    game = game.copy()
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    text = mutate(rng.choice(game.legal(seat)), rng)
    actor = data.draw(st.sampled_from([seat, (seat + 1) % game.players]))
    refused_or_played(game, actor, text)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("dicetargslhwpnumbrko @#-0123456789") + ["٣", "３", "²", "ſ", "\u212a", "\u200b",
                                                   "İ", "ｄ", "×"]), max_size=60))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    refused_or_played(game.copy(), seat, text)


@pytest.mark.parametrize("text", [
    "dice d٤", "dice d４", "dice d4 @٢", "slash ٣", "slash 6#٢", "set ３", "combo ²",
    "slash 1" + "0" * 4400, "dice d" + "4" * 5000, "target @" + "9" * 30, "slash 6#" + "9" * 12,
    "ſlash 6", "SLASH 6", "dice D4", "  ", "slash", "slash #2", "slash 6#0", "slash 6 #2",
    "special snapping-pencil ٣", "intimidate partner", "claw 8 height height", "roll d4 @٣",
])
def test_known_near_misses_in_every_phase(text):
    for game, seat in POSITIONS[::3]:
        refused_or_played(game.copy(), seat, text)


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
    moves = sorted({m for g, s in POSITIONS for m in g.legal(s)})
    for game, seat in POSITIONS[::4]:
        legal = set(game.legal(seat))
        for move in moves[::7] + ["target @9", "roll 1 2", "slash 6#2"]:
            said = game.describe(move, seat)
            assert said.label and len(said.label) <= 80
            if move in legal:
                assert said.label != move and "not possible" not in said.effect
