"""Crazy Die-Man's parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play in both modes (physical and simulated); near misses are
legal moves mutated the way hands and keyboards mutate them: swapped, duplicated or dropped
tokens, Unicode digits ('٣' '３' '²'), huge numbers, letters that case-fold to ours ('ſ' for
s, the Kelvin sign for k), empty and space tokens, stray punctuation."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.diemen import DieMen
from bot.engine.diemen import board, notation as N

SETTINGS = dict(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
ODD_DIGITS = ["٣", "３", "²", "߂", "𝟙", "Ⅳ", "½", "0" * 12, "99999999999", "-1", "1e3", "0x1"]
JUNK = ["", " ", ",", ",,", "=", ":", "@", "@0", "@3", "P3:F1", "P1:", ":F2", "F4", "F0", "X1",
        "hit=", "hit=,", "customers=", "customers=0", "aim=", "called=", "off", "bonus",
        "ſ2", "\u212a", "Ｆ2", "→", "\u200b", "\t", "None", "stand", "middle", "roll 1"]
VERBS = list(N.VERBS)


def positions(seed: int, count: int = 8) -> list[tuple[DieMen, int]]:
    """Games part-way through random legal play, with a seat that may act (chance resolved)."""
    rng = random.Random(seed)
    mode = ("physical", "simulated")[seed % 2]
    g = DieMen.new(2, {"mode": mode}, names=["Ann", "Bea"])
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


POSITIONS = [p for seed in range(10) for p in positions(seed)]


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
        return rng.choice([text.upper(), text.lower(), text.replace(",", " , "),
                           text.replace(":", " : "), text.replace("=", " = "),
                           text.replace("=", "=="), text.replace("P", "@")])
    elif kind == 6:                                        # a character replaced
        text = " ".join(tokens)
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("@.:,=- xZ9٣²ſ\u212a") + text[i + 1:]
    elif kind == 7:                                        # empty / whitespace token
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(["", "\u3000", "\u00a0"]))
    else:                                                  # another verb's arguments
        tokens[0] = rng.choice(VERBS)
    return " ".join(tokens)


def refused_or_played(game: DieMen, actor, text: str) -> None:
    """Only a rule error may come back, and a refused move changes nothing."""
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(actor, text)
    except RuleError:
        assert json.dumps(game.to_json(), sort_keys=True) == before, text
    # anything else propagates and fails the test


def test_positions_cover_the_turn():
    phases = {g.current_phase() for g, _ in POSITIONS}
    assert {"setup", "move", "flick", "reposition"} <= phases, phases


@settings(**SETTINGS)
@given(st.data())
def test_near_miss_moves_are_refused_cleanly(data):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    game = game.copy()
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    legal = game.legal(seat)
    text = mutate(rng.choice(legal), rng)
    actor = data.draw(st.sampled_from([seat, 1 - seat]))
    refused_or_played(game, actor, text)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("bannersmoveflickoopsaimcalledmarkresultplacerepositionsupersaledonecustomerend "
         "FBSCP123@:,=hitoffbonusmiddle0123456789")
    + ["٣", "３", "²", "ſ", "\u212a", "\u200b", "İ"]), max_size=50))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    refused_or_played(game.copy(), seat, text)


@settings(**SETTINGS)
@given(st.data())
def test_junk_chance_answers_are_refused_cleanly(data):
    """The roll answers a table or record gives are parsed too."""
    game, _ = data.draw(st.sampled_from(POSITIONS))
    game = game.copy()
    tokens = data.draw(st.lists(st.sampled_from(
        ["roll", "clean", "pair", "neighbour", "customer", "miss", "off", "yes", "no", "1",
         "6", "7", "٣", "F2", "C1", "B2", ""]), max_size=5))
    refused_or_played(game, CHANCE, " ".join(tokens))


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
