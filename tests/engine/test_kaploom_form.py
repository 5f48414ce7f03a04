"""KAPLOOM!'s Phase 1 form (issue #22 item 2): per unplaced die, the actions a legal placement
of a die like it fills (never one that happens at once: its re-roll changes the rest), and the
form's answer as the engine's own moves, which the rules then judge, in random play of a duel
and a 2 vs 2."""
import random

import pytest

from bot.engine.core import RuleError
from bot.engine.kaploom import Kaploom
from bot.engine.kaploom.form import MAX_ACTIONS, MAX_DICE
from random_turns import random_turns

NAMES = ["Ada", "Bo", "Cy", "Di"]


def phase1(players, options, seed, steps=400):
    """Each moment a seat may place dice in random play: (game, seat)."""
    game = Kaploom.new(players, options, names=NAMES[:players])
    rng = random.Random(seed)
    for seat in random_turns(game, rng, steps):
        if game.stage == "assign":
            yield game, seat
        game.apply(seat, rng.choice(game.legal(seat)))


@pytest.mark.parametrize("players, options", [
    (2, {}), (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})])
def test_the_form_offers_what_fits_and_its_answers_are_judged_by_the_rules(players, options):
    asked = placed = refused = 0
    for game, seat in phase1(players, options, seed=players):
        fields = game.placement_form(seat)
        placeable = {m.split()[1] for m in game.legal(seat) if m.startswith("assign ")}
        assert len(fields) <= MAX_DICE
        assert bool(fields) <= bool(placeable)
        for die, words, choices in fields:
            assert words.startswith(die) and 0 < len(choices) <= MAX_ACTIONS
            assert not {name for _, name in choices} & {"TIME JUMP", "QUICK FIX", "PAUSE"}
        if not fields:
            continue
        asked += 1
        # A legal placement said through the form is that very move.
        legal = [m for m in game.legal(seat) if m.startswith("assign ") and "@" not in m]
        if legal:
            move = legal[0]
            trial = game.from_json(game.to_json())
            key = next(k for die, _, choices in fields for k, name in choices
                       if f" {name} " in f" {move} ")
            dice = [d for d in move.split() if d in {f[0] for f in fields}]
            if len(dice) == len([t for t in move.split() if t[:1] == "d" and t[1:].isdigit()]):
                assert trial.placement_moves(seat, {d: key for d in dice}) == [move]
                placed += 1
        # Every die on the first action offered: the rules accept it or say why.
        picks = {die: choices[0][0] for die, _, choices in fields}
        trial = game.from_json(game.to_json())
        try:
            for m in trial.placement_moves(seat, picks, lock_in=True):
                trial.apply(seat, m)
        except RuleError as e:
            assert str(e)
            refused += 1
    assert asked and placed and refused


def test_a_die_not_unplaced_or_an_unknown_action_is_refused():
    game = next(g for g, s in phase1(2, {}, seed=5) if g.placement_form(s))
    seat = next(s for s in game.actors() if game.placement_form(s))
    die, _, choices = game.placement_form(seat)[0]
    with pytest.raises(RuleError, match="no action"):
        game.placement_moves(seat, {die: "frobnicate"})
    other = next(d for d in game.dice if game.dice[d]["owner"] != seat)
    with pytest.raises(RuleError, match="not one of your unplaced dice"):
        game.placement_moves(seat, {other: choices[0][0]})
    assert game.placement_moves(seat, {die: ""}) == []
    assert game.placement_moves(seat, {}, lock_in=True) == ["lock"]
