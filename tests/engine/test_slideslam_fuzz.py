"""Slide and Slam parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play over several board options (placement, slide, slam and
the response window all occur); near misses are legal moves mutated the way hands and keyboards
mutate them: swapped, duplicated or dropped tokens, Unicode digits ('٣' '３' '²'), letters that
case-fold to ours, huge numbers, empty tokens."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.slideslam import SlideSlam
from bot.engine.slideslam import notation as N

SETTINGS = dict(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
TABLES = [{}, {"columns": 9, "rows": 10}, {"starting_values": "1,1,1,1,1,1"},
          {"columns": 5, "rows": 6, "stun": True}]
ODD_DIGITS = ["٣", "３", "²", "߂", "𝟙", "Ⅳ", "½", "0" * 12, "99999999999", "-1", "1e3", "0x1"]
JUNK = ["", " ", "=", "==", "a", "a0", "j1", "z", "ı", "ſ", "\u212a", "ＡＢ", "→", "\u200b",
        "predict", "PREDICT", "place", "slide", "slam", "bend", "pass", "end", "awaken", "roll 1",
        "a1=", "=6", "a1=6=6", "None"]
VERBS = ["place", "unplace", "confirm", "slide", "slam", "end", "bend", "pass", "awaken"]


def positions(seed: int, count: int = 8) -> list[tuple[SlideSlam, int]]:
    """Games part-way through random legal play, with a seat that may act (chance resolved)."""
    rng = random.Random(seed)
    g = SlideSlam.new(2, TABLES[seed % len(TABLES)], names=["Ada", "Bo"])
    found = []
    for _ in range(400):
        actors = g.actors()
        if not actors:
            break
        if actors == [CHANCE]:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        seat = rng.choice(actors)
        if rng.random() < 0.25:
            found.append((g.copy(), seat))
            if len(found) >= count:
                break
        g.apply(seat, rng.choice(g.legal(seat)))
    return found


POSITIONS = [p for seed in range(12) for p in positions(seed)]


def test_the_positions_cover_every_phase():
    assert {g.phase for g, _ in POSITIONS} >= {"placement", "slide", "slam", "response"}


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
        return rng.choice([text.upper(), text.lower(), text.replace("=", " = "),
                           text.replace("=", "=="), text.replace(" ", "")])
    elif kind == 6:                                        # a character replaced
        text = " ".join(tokens)
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("=. xZ9٣²ıſ\u212a") + text[i + 1:]
    elif kind == 7:                                        # empty / whitespace token
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(["", "\u3000", "\u00a0"]))
    else:                                                  # another verb's arguments
        tokens[0] = rng.choice(VERBS)
    return " ".join(tokens)


def refused_or_played(game: SlideSlam, actor, text: str) -> None:
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
    actor = data.draw(st.sampled_from([seat, 1 - seat]))
    refused_or_played(game, actor, text)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("placeunconfirmslidebndpswkt abcdefghiuvwxyzABCUVZ=0123456789")
    + ["٣", "３", "²", "ſ", "ı", "\u212a", "\u200b", "İ"]), max_size=60))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    refused_or_played(game.copy(), seat, text)


@settings(**SETTINGS)
@given(st.text(max_size=40))
def test_the_parser_raises_only_rule_errors(text):
    for columns, rows in ((5, 6), (9, 10)):
        try:
            N.parse(text, columns, rows)
        except RuleError:
            pass


def placing() -> SlideSlam:
    return SlideSlam.new(2, names=["Ada", "Bo"])


def test_issue_11_two_dice_on_a3_through_an_arabic_indic_digit():
    """`/slideslam move place a٣=6 a3=5 …` was accepted: `a٣` and `a3` were two squares, so two
    dice stood on a3. Now the whole move is refused and nothing is placed."""
    g = placing()
    before = g.to_json()
    with pytest.raises(RuleError):
        g.apply(0, "place a٣=6 a3=5 b1=4 c1=3 d1=2 e1=1")
    assert g.to_json() == before
    with pytest.raises(RuleError):
        N.parse("place a٣=6", 6, 8)


@pytest.mark.parametrize("typed", ["place a３=6", "place a3=٦", "place a²=6", "place A٣=6",
                                   "unplace a٣", "place a3=99999999999999999999",
                                   "place ａ3=6", "place a3=6 ı", "slide ſ a4",
                                   "slide \u212a1 a2", "awaken a1 My Dice resonate İ"])
def test_issue_11_non_ascii_digits_and_letters_are_refused(typed):
    g = placing()
    g.apply(0, "place a1=6")
    before = g.to_json()
    with pytest.raises(RuleError):
        g.apply(0, typed)
    assert g.to_json() == before


def test_ascii_squares_still_read_in_any_case():
    g = placing()
    g.apply(0, "place A1=6 b2=5")
    assert g.dice["A"]["square"] == "a1" and g.dice["B"]["square"] == "b2"
    g.apply(0, "unplace a")   # a die letter, any case
    assert g.dice["A"]["square"] is None
