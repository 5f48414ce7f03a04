"""KAPLOOM! parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play in the duel and in 2 vs 2, with and without supers, in
Phase 1 and in Power Up; near misses are legal moves mutated the way hands and keyboards
mutate them: swapped, duplicated or dropped tokens, Unicode digits ('٣' '３' '²'), huge
numbers, letters that case-fold to ours, empty and space tokens."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.kaploom import Kaploom
from bot.engine.kaploom import notation as N

SETTINGS = dict(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
TABLES = [(2, {}), (4, {"mode": "2v2"}), (2, {"supers": "Timeout!,Spoiler Alert!"}),
          (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})]
ODD_DIGITS = ["٣", "３", "²", "߂", "𝟙", "Ⅳ", "½", "0" * 12, "99999999999", "-1", "1e3", "0x1"]
JUNK = ["", " ", "@", "@0", "@9", "@1.0", "@@1", "d", "d0", "d-1", "dd1", "reroll", "ſ",
        "\u212a", "İ", "ＰＯＷ", "→", "\u200b", "\t", "None", "assign", "lock", "done", "take",
        "grow", "point", "attach", "M", "W", "X-Factor", "purple", "POW", "TIME"]


def positions(seed: int, count: int = 8) -> list[tuple[Kaploom, int]]:
    """Games part-way through random legal play, with a seat that may act (chance resolved)."""
    rng = random.Random(seed)
    players, options = TABLES[seed % len(TABLES)]
    g = Kaploom.new(players, options, names=[f"N{i}" for i in range(players)])
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


POSITIONS = [p for seed in range(8) for p in positions(seed)]


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
    elif kind == 5:                                        # case and spacing
        text = " ".join(tokens)
        return rng.choice([text.upper(), text.lower(), text.replace(" ", ""),
                           text.replace("d", "D"), text.replace("@", "")])
    elif kind == 6:                                        # a character replaced
        text = " ".join(tokens)
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("@.:+=-> xZ9٣²ſ") + text[i + 1:]
    elif kind == 7:                                        # empty / whitespace token
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(["", "\u3000", "\u00a0"]))
    else:                                                  # another verb's arguments
        tokens[0] = rng.choice(["assign", "unassign", "timejump", "quickfix", "point", "lock",
                                "grow", "poweron", "tradein", "attach", "give", "take"])
    return " ".join(tokens)


def refused_or_played(game: Kaploom, actor, text: str) -> None:
    """Only a rule error may come back, and a refused move changes nothing."""
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(actor, text)
    except RuleError:
        assert json.dumps(game.to_json(), sort_keys=True) == before, text
    # anything else propagates and fails the test


def test_positions_cover_both_phases_and_both_modes():
    stages = {(g.mode, g.stage) for g, _ in POSITIONS}
    assert {("duel", "assign"), ("duel", "power"), ("2v2", "assign"), ("2v2", "power")} <= stages


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
    list("assignunassigntimejumpquickfixpointlockdonetakegrowpoweronattachgive POWBLOCK"
         "METAXW@d0123456789-") + ["٣", "３", "²", "ſ", "\u212a", "\u200b", "İ"]),
    max_size=60))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    refused_or_played(game.copy(), seat, text)


@settings(**SETTINGS)
@given(st.text(max_size=30))
def test_the_notation_helpers_raise_only_rule_errors(text):
    tokens = text.split() or [text]
    for fn in (N.die_id, N.face, N.colour):
        try:
            fn(tokens[0])
        except RuleError:
            pass
    try:
        N.action_named(tokens)
    except RuleError:
        pass


@pytest.mark.parametrize("typed", ["assign GROW d١ d2", "assign GROW d1 d²", "assign GROW d１ d2",
                                   "assign GROW d1 d99999999999999999999", "aſſign GROW d1 d2",
                                   "loc\u212a", "assign ＧＲＯＷ d1 d2", "assign GROW d1 d2 @٢"])
def test_issue_11_unicode_digits_and_letters_are_refused(typed):
    game = Kaploom.new(2, names=["Ada", "Bo"])
    game.apply(CHANCE, "roll X E W A _ _ M E A _")
    before = game.to_json()
    with pytest.raises(RuleError):
        game.apply(0, typed)
    assert game.to_json() == before
    game.apply(0, "assign GROW d1 d2")               # the ASCII move itself is fine
