"""KAPLOOM! parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play in the duel and in 2 vs 2, with and without supers, in
Phase 1 and in Power Up; near misses are legal moves mutated the way hands and keyboards
mutate them: swapped, duplicated or dropped tokens, Unicode digits ('٣' '３' '²'), huge
numbers, letters that case-fold to ours, empty and space tokens."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.kaploom import Kaploom
from bot.engine.kaploom import notation as N

from . import fuzzing as F

SETTINGS = F.settings(250)
TABLES = [(2, {}), (4, {"mode": "2v2"}), (2, {"supers": "Timeout!,Spoiler Alert!"}),
          (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})]
JUNK = ["", " ", "@", "@0", "@9", "@1.0", "@@1", "d", "d0", "d-1", "dd1", "reroll", "ſ",
        "\u212a", "İ", "ＰＯＷ", "→", "\u200b", "\t", "None", "assign", "lock", "done", "take",
        "grow", "point", "attach", "M", "W", "X-Factor", "purple", "POW", "TIME"]
TYPOS = F.Typos(
    JUNK, ["assign", "unassign", "timejump", "quickfix", "point", "lock", "grow", "poweron",
           "tradein", "attach", "give", "take"],
    lambda text: [text.upper(), text.lower(), text.replace(" ", ""), text.replace("d", "D"),
                  text.replace("@", "")],
    "@.:+=-> xZ9٣²ſ")


def new(seed: int) -> Kaploom:
    players, options = TABLES[seed % len(TABLES)]
    return Kaploom.new(players, options, names=[f"N{i}" for i in range(players)])


POSITIONS = [p for seed in range(8)
             for p in F.positions(new, seed, count=8, moves=1500, keep=0.08)]


def test_positions_cover_both_phases_and_both_modes():
    stages = {(g.mode, g.stage) for g, _ in POSITIONS}
    assert {("duel", "assign"), ("duel", "power"), ("2v2", "assign"), ("2v2", "power")} <= stages


@settings(**SETTINGS)
@given(st.data())
def test_near_miss_moves_are_refused_cleanly(data):
    F.near_miss(data, POSITIONS, TYPOS)


@settings(**SETTINGS)
@given(st.data(), st.text(alphabet=st.sampled_from(
    list("assignunassigntimejumpquickfixpointlockdonetakegrowpoweronattachgive POWBLOCK"
         "METAXW@d0123456789-") + F.ODD_LETTERS),
    max_size=60))
def test_junk_text_is_refused_cleanly(data, text):
    game, seat = data.draw(st.sampled_from(POSITIONS))
    F.refused_or_played(game.copy(), seat, text)


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
