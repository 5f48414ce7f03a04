"""TradeShowdown's hard player (issue #16): its own plan (bot/policies/tradeshowdown.py,
`hard_choose`) plays for slashes landed, answers legal moves under every option, and beats the
normal player. Decisions are read from a game rebuilt from the seat's record; the fairness
tests of every level are in tests/test_policies.py."""
from __future__ import annotations

import random

import pytest

from bot.engine import CHANCE, load
from bot.policies import make, playable
from bot.policies import tradeshowdown as plan
from bot.policies.match import play_game, run_match
from bot.policies.seen import Watch

KIND = "tradeshowdown"


def _game(players=2, **options):
    return load(KIND).new(players, options, [f"P{i + 1}" for i in range(players)])


def _to_window(g, rolls):
    """Both seats roll their whole supply; the roll shows `rolls` (seat 0's ten, then seat
    1's), in the engine's die order (d4 d4 d6 d6 d8 d8 d10 d10 d10 d10)."""
    whole = "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10"
    g.apply(0, whole)
    g.apply(1, whole)
    g.apply(CHANCE, "roll " + " ".join(map(str, rolls)))
    assert g.phase == "window"
    return g


def test_landed_slashes_the_highest_digit_in_reach_first():
    card = {"digits": [2, 7, 8, 5, 5, 5, 0, 1, 4, 9], "slashes": [0] * 10}
    # height 8, width 3: the 8 twice, then the 7 (not the low digits a low set could reach)
    assert plan.landed(card, [(8, 3)]) == 3
    # height 1 reaches the 0 and the 1 only: four slashes at most, the rest are lost
    assert plan.landed(card, [(1, 6)]) == 4
    # the first attack took the 1 and the 0 once each; the second finds two slashes' room
    assert plan.landed(card, [(1, 2), (1, 5)]) == 4


def test_hard_rolls_its_whole_supply():
    g = _game()
    watch = Watch(g)
    hard = make("hard", watch.seen[0])
    move = hard.choose(g.view(0), g.legal(0), random.Random(1))
    assert move == "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10"


def test_hard_slashes_the_highest_digit_in_reach():
    assert plan._slash(["slash 0", "slash 2", "slash 5", "slash 5#2", "slash 4"]) == "slash 5"


def test_claw_swaps_the_dimensions_that_land_most():
    g = _to_window(_game(), [1, 1, 2, 3, 4, 5, 6, 7, 8, 9] + [1, 2, 3, 4, 5, 6, 7, 8, 9, 0])
    g.seats[0]["claw_round"] = g.round  # a Collating Claw fired last round
    # seat 0 holds one set, two 1s (width 2, depth 10): as rolled it lands two slashes (the 1
    # X'd); height and depth swapped, two anywhere; width and depth swapped, ten slashes up
    # to 1, of which the rival's 0 and 1 take four.
    assert plan._window(g, 0, g.legal(0)) == "claw 1 width depth"


def test_hard_intimidates_only_to_finish_the_rival():
    rolls = [1, 2, 3, 4, 5, 6, 8, 8, 0, 9] + [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]
    g = _to_window(_game(combos=False), rolls)
    assert plan._window(g, 0, g.legal(0)) == "done"  # two slashes land: no finish in sight
    rival = g.seats[1]["cards"][0]
    rival["slashes"] = [2 if d != 8 else 0 for d in rival["digits"]]
    rival["slashes"][rival["digits"].index(7)] = 1  # three slashes of room left, up to 8
    # the set of 8s lands two; one intimidation makes it three and the card is X'd out
    assert plan._window(g, 0, g.legal(0)) == "intimidate 8"


@pytest.mark.parametrize("players,options", [
    (2, {"tag_team": True}), (2, {"multiple_attacks": False}), (2, {"combos": False}),
    (3, {}), (4, {"tag_team": True})])
def test_hard_plan_answers_a_legal_move_under_every_option(monkeypatch, players, options):
    misses = []
    own = plan.hard_choose

    def checked(policy, view, legal, rng):
        move = own(policy, view, legal, rng)
        if move not in legal:
            misses.append((view.get("phase"), move))
        return move
    monkeypatch.setattr(plan, "hard_choose", checked)
    levels = ["hard" if s % 2 == 0 else "random" for s in range(players)]
    for seed in range(2):
        result = play_game(KIND, levels, seed, options)
        assert not result.capped
    assert misses == []


def test_hard_beats_normal_in_a_short_seeded_match():
    res = run_match(KIND, "hard", "normal", 6, seed=7)
    assert res.wins["hard"] >= 5, res.wins


def test_every_window_step_of_the_plan_is_playable():
    """The plan's window steps go one at a time (the engine checks each); a full window ends
    with `done`, never with a step the window no longer offers."""
    g = _to_window(_game(), [1, 1, 2, 2, 3, 3, 4, 4, 0, 9] + [2, 2, 6, 5, 5, 7, 7, 0, 0, 9])
    for _ in range(12):
        move = plan._window(g, 0, playable(g.legal(0)))
        assert move in g.legal(0)
        g.apply(0, move)
        if move == "done":
            break
    assert g.seats[0]["done"]
