"""The `greedy` baseline (issue #28 item 3): one ply by the game's own evaluation, beside
`random`, for `python -m bot match` and `make balance`; never offered to players."""
from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.engine import KINDS
from bot.policies import LEVELS
from bot.policies.match import play_game, run_match
from bot.practice import PLAYER_LEVELS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_plays_every_game_to_the_end_from_every_seat(kind, seat):
    levels = ["random", "random"]
    levels[seat] = "greedy"
    r = play_game(kind, levels, 1)
    assert not r.capped and r.ending and r.moves > 0


def test_greedy_beats_random():
    res = run_match("slideslam", "greedy", "random", 12, seed=2)
    assert res.wins["greedy"] >= 9, res.wins


def test_greedy_is_a_measuring_level_not_a_players_one(capsys):
    assert "greedy" in LEVELS and "greedy" not in PLAYER_LEVELS
    assert main(["match", "deathbydice", "greedy", "normal", "--games", "2", "--quiet"]) == 0
    assert "greedy wins" in capsys.readouterr().out


def test_tradeshowdown_normal_never_rolls_one_die_when_it_may_roll_more():
    from bot.policies.tradeshowdown import sensible
    legal = ["dice d4 d6 d8 d10 d10", "dice d4 d6 d8", "dice d4 d6", "dice d10", "dice d4",
             "done"]
    assert sensible(legal) == ["dice d4 d6 d8 d10 d10", "dice d4 d6 d8", "dice d4 d6", "done"]
    assert sensible(["dice d6", "dice d6 @2"]) == ["dice d6", "dice d6 @2"]  # one die is all


def test_slide_and_slam_bots_take_a_slam_that_destroys():
    """A slam costs the slammer nothing; one that destroys an enemy die is never passed up."""
    import random

    from bot.engine import CHANCE, load
    from bot.policies import make, playable, seen_from_record
    from bot.policies.match import default_options
    from bot.policies.slideslam import must
    found = 0
    for seed in range(60):
        g = load("slideslam").new(2, default_options("slideslam"), ["Ann", "Bob"])
        rng, record = random.Random(seed), []
        while g.outcome() is None and len(record) < 400:
            actors = g.actors()
            actor = CHANCE if actors == [CHANCE] else actors[-1]
            if actor != CHANCE and g.phase == "slam" and must(g, actor, g.legal(actor)):
                break
            move = (g.chance().sample(rng) if actor == CHANCE
                    else rng.choice(playable(g.legal(actor))))
            g.apply(actor, move)
            record.append((actor, move))
        else:
            continue
        seat = g.actors()[0]
        kill = must(g, seat, g.legal(seat))
        for level in ("normal", "hard"):   # (easy slips now and then by design)
            seen = seen_from_record("slideslam", 2, g.options, g.names, record, seat)
            move = make(level, seen).choose(g.view(seat), g.legal(seat), random.Random(seed))
            assert move == kill, (seed, level, move, kill)
        found += 1
        if found >= 6:
            break
    assert found >= 3


def test_kaploom_normal_knocks_out_random_placing_first():
    """Issue #28: as the first to place (seat 1 here, as the bot always is in Discord) the
    normal player used to lock in at random and run to the round limit."""
    for i in range(2):
        r = play_game("kaploom", ["normal", "random"], 2000 + i)
        assert r.winners == (0,) and r.ending == "knockout", (i, r.ending)


def test_slide_and_slam_normal_beats_greedy():
    """The greedy baseline's Super Slams beat the old generic normal player (2 of 12, seed 3);
    the turn plan keeps the rival's best reply in view."""
    res = run_match("slideslam", "normal", "greedy", 12, seed=3)
    assert res.wins["normal"] >= 9, res.wins


def test_slide_and_slam_threat_counts_a_super_slam_line():
    """A 1-health die Super Slams its whole row and column: a die of ours in that line is
    threatened, one out of it and out of reach is not."""
    from bot.engine import load
    from bot.policies.slideslam import threat
    g = load("slideslam").new(2, {}, ["Ann", "Bob"])
    # two dice in play (the policy reads the board through the public view, which shows
    # nothing behind the Wall of Unknowing: the position is set up after placement)
    g.dice = {"A": {"owner": 0, "square": "a1", "health": 3, "start": 3, "stunned": False,
                    "awakened": False},
              "Z": {"owner": 1, "square": "f8", "health": 1, "start": 1, "stunned": False,
                    "awakened": False}}
    g.phase, g.current = "slide", 0
    assert threat(g, 1) == 0.0           # a1 is out of f8's row and column, and of its reach
    g.dice["A"]["square"] = "a8"
    assert threat(g, 1) == 2.0           # the Super Slam along row 8: 2 damage
    g.dice["A"]["health"] = 2
    assert threat(g, 1) == 1000.0        # ... and our last die destroyed
