"""KAPLOOM!'s hard player (bot/policies/kaploom.py `hard_choose`): it plans its Phase 1
placement and Power Up from the rebuilt game, and it is stronger than the normal player (400 of
400 over make balance's seeds; here two seeded games, one from each seat)."""
from __future__ import annotations

import random

import pytest

from bot.engine import CHANCE, load
from bot.policies import make, playable
from bot.policies.match import play_game
from bot.policies.seen import Watch


@pytest.mark.parametrize("levels", [["hard", "normal"], ["normal", "hard"]])
def test_hard_beats_normal_from_either_seat(levels):
    result = play_game("kaploom", levels, 11 * 7919 + levels.index("hard"))
    assert not result.capped
    assert [levels[w] for w in result.winners] == ["hard"]


def test_hard_never_takes_a_step_back_and_its_games_end_by_knock_out():
    """Every hard decision is a move it may make and never a step back (detach, undo: the
    normal player once looped on attach/detach to the move cap), and a game of hard against
    itself ends by knock-out, not at the round limit."""
    game = load("kaploom").new(2, {}, ["A", "B"])
    watch = Watch(game)
    bots = [make("hard", watch.seen[s]) for s in range(2)]
    chance, rngs = random.Random("c"), [random.Random(f"s{s}") for s in range(2)]
    moves = 0
    while game.outcome() is None and moves < 1500:
        [actor] = game.actors()[:1]
        if actor == CHANCE:
            move = game.chance().sample(chance)
        else:
            legal = game.legal(actor)
            move = bots[actor].choose(game.view(actor), legal, rngs[actor])
            assert move in playable(legal)
            assert move.split()[0] not in ("detach", "undo", "unassign")
        note = watch.before(game, actor)
        watch.after(game, actor, move, note, game.apply(actor, move))
        moves += 1
    assert game.outcome() is not None and game.outcome().ending == "knockout"
