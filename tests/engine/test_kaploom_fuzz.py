"""KAPLOOM! parsers and `apply()` against junk and near-miss text (issue #11): whatever a
player types, the engine answers with a rule error (InvalidMoveError, IllegalMoveError,
AmbiguousMoveError) and leaves the state exactly as it was — never another exception.

Positions come from random legal play in the duel and in 2 vs 2, with and without supers, in
Phase 1 and in Power Up; near misses are legal moves mutated the way hands and keyboards
mutate them: swapped, duplicated or dropped tokens, Unicode digits ('٣' '３' '²'), huge
numbers, letters that case-fold to ours, empty and space tokens."""
from __future__ import annotations

import pytest

from bot.engine.core import CHANCE
from bot.engine.kaploom import Kaploom
from bot.engine.kaploom import notation as N

from . import fuzzing as F

FUZZ = F.EngineFuzz(
    Kaploom,
    tables=[(2, {}), (4, {"mode": "2v2"}), (2, {"supers": "Timeout!,Spoiler Alert!"}),
            (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})],
    typos=F.Typos(
        junk=["", " ", "@", "@0", "@9", "@1.0", "@@1", "d", "d0", "d-1", "dd1", "reroll", "ſ",
              "\u212a", "İ", "ＰＯＷ", "→", "\u200b", "\t", "None", "assign", "lock", "done", "take",
              "grow", "point", "attach", "M", "W", "X-Factor", "purple", "POW", "TIME"],
        verbs=["assign", "unassign", "timejump", "quickfix", "point", "lock", "grow", "poweron",
               "tradein", "attach", "give", "take"],
        spellings=lambda text: [text.upper(), text.lower(), text.replace(" ", ""),
                                text.replace("d", "D"), text.replace("@", "")],
        stray="@.:+=-> xZ9٣²ſ"),
    alphabet="assignunassigntimejumpquickfixpointlockdonetakegrowpoweronattachgive POWBLOCK"
             "METAXW@d0123456789-",
    examples=250, seeds=8, moves=1500, keep=0.08)


def _first(text: str) -> str:
    return (text.split() or [text])[0]


def test_positions_cover_both_phases_and_both_modes():
    stages = {(g.mode, g.stage) for g, _ in FUZZ.positions}
    assert {("duel", "assign"), ("duel", "power"), ("2v2", "assign"), ("2v2", "power")} <= stages


test_near_miss_moves_are_refused_cleanly = FUZZ.near_miss_test()
test_junk_text_is_refused_cleanly = FUZZ.junk_text_test()
test_the_notation_helpers_raise_only_rule_errors = FUZZ.parsers_test(
    lambda text: N.die_id(_first(text)), lambda text: N.face(_first(text)),
    lambda text: N.colour(_first(text)), lambda text: N.action_named(text.split() or [text]),
    max_size=30)


@pytest.mark.parametrize("typed", ["assign GROW d١ d2", "assign GROW d1 d²", "assign GROW d１ d2",
                                   "assign GROW d1 d99999999999999999999", "aſſign GROW d1 d2",
                                   "loc\u212a", "assign ＧＲＯＷ d1 d2", "assign GROW d1 d2 @٢"])
def test_issue_11_unicode_digits_and_letters_are_refused(typed):
    game = Kaploom.new(2, names=["Ada", "Bo"])
    game.apply(CHANCE, "roll X E W A _ _ M E A _")
    F.refused(game, 0, typed)
    game.apply(0, "assign GROW d1 d2")               # the ASCII move itself is fine
