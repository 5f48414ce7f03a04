"""Practice opponents answer in every phase of every game (issue #16, "every phase: secret
placements, simultaneous picks, reactions and windows"), and the normal players' plans choose
what a sensible player would in the clear cases."""
from __future__ import annotations

import random

import pytest

from bot.engine import CHANCE, load
from bot.policies import LEVELS, make, playable, seen_from_record
from bot.policies.match import default_options

# Every phase a seat decides in, per game (Die-Men in simulated mode: a bot cannot flick a
# real die, so its physical report and dispute steps are never the bot's). The options pick
# characters whose specials open Death by Dice's extra windows.
CASES = [
    ("slideslam", {}, {"placement", "slide", "slam", "response"}),
    ("tradeshowdown", {}, {"choose", "window", "attack"}),
    ("deathbydice", {}, {"setup", "declare", "defend"}),
    ("deathbydice", {"characters": "Lucky Lou,Knuckles"}, {"loaded", "thick_skull"}),
    ("deathbydice", {"characters": "Mayhem,Madame Vex"}, {"rampage", "defend"}),
    ("diemen", {}, {"setup", "move", "flick", "reposition"}),
    ("kaploom", {}, {"assign", "power"}),
]

SMALL = {"budget": 2, "width": 3, "plies": 6}


def _policy(level, seen):
    p = make(level, seen)
    for k, v in SMALL.items():
        if hasattr(p, k):
            setattr(p, k, v)
    return p


def _positions(kind, options, want, seeds=range(12)):
    """The first position of each wanted phase (per seat) met in seeded random games, with
    the record that led there."""
    found = {}
    for seed in seeds:
        g = load(kind).new(2, {**default_options(kind), **options}, ["Ann", "Bob"])
        rng = random.Random(seed)
        record = []
        for _ in range(3000):
            if g.outcome() is not None:
                break
            actors = g.actors()
            if actors == [CHANCE]:
                move = g.chance().sample(rng)
                g.apply(CHANCE, move)
                record.append((CHANCE, move))
                continue
            phase = g.current_phase()
            for seat in actors:
                if phase in want and (phase, seat) not in found:
                    found[(phase, seat)] = (g.copy(), list(record))
            actor = actors[-1]
            move = rng.choice(playable(g.legal(actor)))
            g.apply(actor, move)
            record.append((actor, move))
        if {p for p, _ in found} >= want:
            break
    return found


@pytest.mark.parametrize("kind,options,want", CASES,
                         ids=[f"{k}-{','.join(sorted(w))}" for k, _, w in CASES])
def test_every_level_answers_in_every_phase(kind, options, want):
    found = _positions(kind, options, want)
    assert {p for p, _ in found} >= want, f"{kind}: phases not reached {want - {p for p, _ in found}}"
    for (phase, seat), (g, record) in sorted(found.items(), key=lambda kv: str(kv[0])):
        if phase not in want:
            continue
        legal = g.legal(seat)
        for level in LEVELS:
            seen = seen_from_record(kind, g.players, g.options, g.names, record, seat)
            move = _policy(level, seen).choose(g.view(seat), legal, random.Random(3))
            assert move in legal, (kind, phase, level, move)


def _diemen_after_setup(seed=1):
    g = load("diemen").new(2, {"mode": "simulated"}, ["Ann", "Bob"])
    g.apply(0, "banners F1 B1 B2 B3")
    g.apply(1, "banners F1 F2 F3 B2")
    g.apply(CHANCE, "roll 1")
    return g


def test_die_men_plan_flicks_hard_and_aims_close():
    from bot.policies import diemen
    g = _diemen_after_setup()
    rng = random.Random(0)
    legal = g.legal(0)
    # the very first turn has no Bonus Flick: two flicks (or a Stand move first)
    move = diemen.decide(g, 0, legal, rng)
    assert move == "flick 2" or move.startswith("move ")
    g.apply(0, "flick 2")
    aim = diemen.decide(g, 0, g.legal(0), rng)
    # the rival's front row is band A from S2 and full: aim at a front banner, never the
    # middle, and no Called Shot (it costs more than it adds at this range on average)
    assert aim in ("aim F1", "aim F2", "aim F3"), aim
    assert diemen.flick_value(g.floor, 0, "S2", "F2") > diemen.flick_value(g.floor, 0, "S2", "B2")
    assert diemen.flick_value(g.floor, 0, "S2", None) == 0.0


def test_die_men_layout_keeps_a_front_banner():
    from bot.policies import diemen
    g = load("diemen").new(2, {"mode": "simulated"}, ["Ann", "Bob"])
    move = diemen.decide(g, 0, g.legal(0), random.Random(0))
    spots = move.split()[1:]
    assert len(spots) == 4 and any(s.startswith("F") for s in spots)


def test_death_by_dice_attack_values_are_exact():
    from bot.policies import deathbydice as D
    g = load("deathbydice").new(2, {"characters": "Malice,Mayhem", "best_of": 1},
                                ["Ann", "Bob"])
    # reach the first declaration by setting both boards up as rolled
    rng = random.Random(4)
    while g.current_phase() != "declare":
        actors = g.actors()
        if actors == [CHANCE]:
            g.apply(CHANCE, g.chance().sample(rng))
        else:
            g.apply(actors[0], g.legal(actors[0])[0])
    from bot.engine.deathbydice import board
    fi = g.active
    f = g.fighters[fi]
    target = g.opponents(fi)[0]
    tf = g.fighters[target]
    common = [x for x in board.standing(f) if board.is_standing(tf, x)]
    assert common
    for a in common:
        # an Ability Attack with a d`s` showing v against t, no defense: it wins on s-t+1 of
        # s rolls (equal or greater), takes t and the die; our die shows its roll afterwards
        s, v, t = f["dice"][a], f["values"][a], tf["values"][a]
        p_win = max(0, min(s, s - t + 1)) / s
        expected = ((s + 1) / 2 - v) + p_win * (t + D.DIE)
        got = D.attack_value(g, fi, "ability", [a], None, 0, target, a, None)
        assert got == pytest.approx(expected)
    # a Boosted defense (+2) never makes the attack better for the attacker
    a = common[0]
    for d in board.neighbours(tf, a):
        boosted = D.attack_value(g, fi, "ability", [a], None, 0, target, a, ("boosted", d))
        plain = D.attack_value(g, fi, "ability", [a], None, 0, target, a, None)
        reroll = (tf["dice"][d] + 1) / 2 - tf["values"][d]
        assert boosted <= plain - reroll + 1e-9


def test_death_by_dice_defender_takes_the_defense_that_hurts_most():
    from bot.policies import deathbydice as D
    for seed in range(30):
        g = load("deathbydice").new(2, {"best_of": 1}, ["Ann", "Bob"])
        rng = random.Random(seed)
        for _ in range(400):
            if g.outcome() is not None or g.current_phase() == "defend":
                break
            actors = g.actors()
            if actors == [CHANCE]:
                g.apply(CHANCE, g.chance().sample(rng))
            else:
                g.apply(actors[0], rng.choice(playable(g.legal(actors[0]))))
        if g.current_phase() != "defend":
            continue
        seat = g.actors()[0]
        legal = g.legal(seat)
        move = D.decide(g, seat, legal, rng)
        a = g.attack
        vals = {}
        for m in legal:
            if m.startswith("defend"):
                kind = m.split()[1]
                d = None if kind == "none" else (kind, m.split()[2])
                vals[m] = D.attack_value(g, a["attacker"], a["type"], a["dice"], a["assist"],
                                         a["bonus"], a["target"], a["ability"], d)
        if move in vals:
            assert vals[move] == pytest.approx(min(vals.values()))
            return
    pytest.skip("no defense window met")
