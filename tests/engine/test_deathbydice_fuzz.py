"""Death by Dice parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play across player counts and modes; near misses are legal
moves mutated the way hands and keyboards mutate them: swapped, duplicated or dropped tokens,
Unicode digits ('٣' '３' '²'), huge numbers, case changes, stray punctuation."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.deathbydice import DeathByDice
from bot.engine.deathbydice import notation as N

SETTINGS = dict(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
TABLES = [(2, {}), (3, {"best_of": 1}), (2, {"mode": "boss"}), (4, {"mode": "boss"}),
          (6, {"best_of": 1})]
ODD_DIGITS = ["٣", "３", "²", "߂", "𝟙", "Ⅳ", "½", "0" * 12, "99999999999", "-1", "1e3", "0x1"]
JUNK = ["", " ", "->", "+", "=", ":", "@", "@0", "@7", "@1.0", "@2.9", "@@1", "STR+", "+STR",
        "STR++FOR", "ſtr", "ＳＴＲ", "STR=", "=5", "LUCK=²", "→", "\u200b", "\t", "None",
        "special", "attack", "defend", "discard", "setup", "pass", "nospecial", "roll 1"]


def positions(seed: int, count: int = 6) -> list[tuple[DeathByDice, int]]:
    """Games part-way through random legal play, with a seat that may act (chance resolved)."""
    rng = random.Random(seed)
    players, options = TABLES[seed % len(TABLES)]
    g = DeathByDice.new(players, options, names=[f"N{i}" for i in range(players)])
    found = []
    for _ in range(400):
        actors = g.actors()
        if not actors:
            break
        if actors == [CHANCE]:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        seat = rng.choice(actors)
        if rng.random() < 0.2:
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
        return rng.choice([text.upper(), text.lower(), text.replace("+", " + "),
                           text.replace(":", " : "), text.replace("=", " = "),
                           text.replace("->", "-> ->"), text.replace("@", "")])
    elif kind == 6:                                        # a character replaced
        text = " ".join(tokens)
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("@.:+=-> xZ9٣²") + text[i + 1:]
    elif kind == 7:                                        # empty / whitespace token
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(["", "\u3000", "\u00a0"]))
    else:                                                  # another verb's arguments
        tokens[0] = rng.choice(["setup", "attack", "defend", "discard", "special", "pass"])
    return " ".join(tokens)


def refused_or_played(game: DeathByDice, actor, text: str) -> None:
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
    legal = game.legal(seat)
    text = mutate(rng.choice(legal), rng)
    actor = data.draw(st.sampled_from([seat, (seat + 1) % game.players]))
    refused_or_played(game, actor, text)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("attackdefendsetupdiscardspecialpass STRAGIFORSMACONLUCK@.:+=->0123456789")
    + ["٣", "３", "²", "ſ", "\u212a", "\u200b", "İ"]), max_size=60))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    refused_or_played(game.copy(), seat, text)


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
