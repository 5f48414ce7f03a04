"""KAPLOOM! 2 vs 2 (seed: "2 VS. 2 RULE ADDITIONS & CHANGES"; rulings: "2 vs 2"): a scripted game
to the end, secret pointers, the turn order by health, carried-over defense, every Duo board
action, KO'd players on the Duo board only, REVIVE, and a draw when both teams fall at once.

Seats: @1 and @2 (seats 0, 1) are the hero team, @3 and @4 (seats 2, 3) the villain team.
"""
from __future__ import annotations

import json

from bot.engine.core import CHANCE, InvalidMoveError
from bot.engine.kaploom import Kaploom

from .test_kaploom import (Script, conservation, finish_power, health, lock_all, refused, rig,
                           round_trip, until_turn)

A, B, C, D = 0, 1, 2, 3
TWO = {"mode": "2v2"}
DICE = {A: ["red:_", "yellow:_", "blue:_", "purple:_"],          # d1-d4
        B: ["red:_", "yellow:_", "blue:_", "purple:_"],          # d5-d8
        C: ["blue:_", "blue:_", "purple:_", "red:_"],            # d9-d12
        D: ["blue:_", "blue:_", "purple:_", "red:_", "green:_"]}  # d13-d17


def roll(s: Script, faces: dict[str, str]) -> None:
    """The round's roll: the named dice show these faces, every other die a blank."""
    g = s.game
    s(CHANCE, "roll " + " ".join(faces.get(draw.label.split()[0], "_")
                                 for draw in g.chance().draws))


def test_a_2v2_game_to_the_end():
    s = rig(DICE, TWO, players=4, health={C: 2, D: 8}, roll=False)
    g = s.game
    # --- round 1: carried-over defense knocks @3 out; their Duo die goes to @4
    roll(s, {"d1": "M", "d5": "M", "d6": "E", "d10": "_", "d11": "T", "d12": "_", "d16": "M"})
    s(A, "assign JAB d1")
    s(A, "point @3")
    s(B, "assign POW d5 d6")
    s(B, "point @3")
    s(C, "assign BLOCK d12 d11")
    s(C, "assign HAND-OFF d10")
    s(D, "assign JAB d16")
    s(D, "point @1")
    v = g.view(C)
    assert v["players"][A]["pointer"] is None and v["players"][A]["board"] is None
    assert g.view(B)["players"][A]["pointer"] == C          # an ally sees it
    assert g.view(D)["duo"][1]["board"][0]["action"] == "HAND-OFF"
    assert g.view(A)["duo"][1]["board"] is None
    lock_all(s)
    assert g.order == [C, D, A, B]                           # by health; ties: villain first
    jab, pow_ = g.combat["attacks"][2], g.combat["attacks"][3]
    assert (jab["attack"]["total"], jab["defense_left"], jab["loss"]) == (1, 2, 0)
    assert (pow_["attack"]["total"], pow_["defense_left"], pow_["loss"]) == (3, 1, 2)
    assert health(g) == [29, 30, 0, 8] and g.seats[C]["ko"] and g.result is None
    assert g.actors() == [D]                                 # a KO'd player has no turn
    finish_power(s)
    assert g.dice["d10"]["owner"] == D                       # Duo dice go to the survivor
    assert g.first == D                                      # lowest health standing
    # --- round 2: the KO'd player may only use the Duo board; REVIVE
    roll(s, {"d9": "W", "d11": "T", "d12": "M", "d10": "W", "d13": "X", "d14": "X",
             "d15": "T", "d1": "M", "d2": "E", "d5": "M"})
    assert "Duo board" in refused(g, C, "assign JAB d12")
    refused(g, C, "point @1")
    assert not any(m.startswith("point") for m in g.legal(C))
    s(D, "assign REVIVE d9 d10 d11 d13 d14 d15")            # with @3's dice too
    s(A, "assign POW d1 d2")
    s(A, "point @4")
    s(B, "assign JAB d5")
    s(B, "point @4")
    lock_all(s)
    assert g.seats[D]["pointer"] == A                        # locked without pointing
    assert health(g)[D] == 4
    assert not g.seats[C]["ko"] and g.seats[C]["health"] == 6    # REVIVE in Power Up
    assert g.actors() == [C]
    s(C, "done")
    assert "give d9 @4" in g.legal(D)
    s(D, "give d9 @4")
    assert g.dice["d9"]["owner"] == D
    refused(g, D, "give d12 @4")
    finish_power(s)
    assert g.first == D
    # --- round 3: both villains fall
    roll(s, {"d1": "M", "d2": "E", "d3": "X", "d4": "W", "d5": "M", "d6": "E", "d7": "X",
             "d8": "W"})
    s(A, "assign POW d1 d2")
    s(A, "assign DOUBLE TROUBLE d3 d4")
    s(A, "point @3")
    s(B, "assign POW d5 d6")
    s(B, "assign DOUBLE TROUBLE d7 d8")
    s(B, "point @4")
    lock_all(s)
    assert g.result["winners"] == [A, B]
    assert health(g) == [29, 30, 0, -2]
    round_trip(g)


def test_2v2_selfplay_shaped_game_keeps_the_pool():
    s = Script(TWO, players=4)
    g = s.game
    conservation(g)
    s(CHANCE, "roll " + " ".join(d.options[0] for d in g.chance().draws))
    assert set(g.actors()) == {A, B, C, D}
    lock_all(s)
    finish_power(s)
    conservation(g)
    assert g.round == 2


def test_team_up_takes_one_die_from_each_ally_and_kicks_both():
    s = rig({A: ["M", "E"], B: ["M", "red:M"], C: ["_"], D: ["_"]}, TWO, players=4)
    g = s.game
    msg = refused(g, B, "assign TEAM-UP d3 d4")
    assert "one die from each ally" in msg
    assert "assign TEAM-UP d2 d3" not in g.legal(A)          # E and M do not match
    s(A, "assign TEAM-UP d1 d4")                             # the ally's die, named by id
    refused(g, B, "assign JAB d4")                           # already on the Duo board
    s(B, "assign JAB d3")
    s(A, "assign WIND-UP d2")
    s(A, "lock")
    refused(g, B, "unassign TEAM-UP")                        # @1 locked: their die stays
    lock_all(s)
    assert g.combat["summary"]["1"]["attack"]["total"] == 1 + 2
    assert g.combat["summary"]["0"]["attack"]["total"] == 0  # a kicker without a base
    assert sum(health(g)[2:]) == 60 - 3


def test_cover_guards_the_named_ally():
    s = rig({A: ["T", "A"], B: ["_"], C: ["M", "E"], D: ["_"]}, TWO, players=4)
    g = s.game
    assert {"assign COVER d1 d2 @1", "assign COVER d1 d2 @2"} <= set(g.legal(A))
    refused(g, A, "assign COVER d1 d2 @3")
    s(A, "assign COVER d1 d2 @2")
    s(C, "assign POW d4 d5")
    s(C, "point @2")
    lock_all(s)
    # COVER is a kicker: with no base under it the defense is still 0
    assert g.combat["summary"]["1"]["defense"]["kickers"] == [{"name": "COVER", "value": 3}]
    assert health(g)[B] == 27


def test_share_the_load_gains_for_either_ally_and_counts_as_a_gain():
    s = rig({A: ["X", "blue:X"], B: ["_"], C: ["A"], D: ["_"]}, TWO, players=4)
    g = s.game
    s(A, "assign SHARE THE LOAD d1 d2")
    s(C, "assign SUCKER PUNCH d4")
    s(C, "point @2")
    lock_all(s)
    until_turn(s, A)
    assert "sharetheload @2 green" in g.legal(A)
    s(A, "sharetheload @2 green")
    assert g.dice[g.dice_of(B)[-1]]["colour"] == "green"
    assert g.seats[B]["pending"][0]["source"] == "SUCKER PUNCH"
    finish_power(s)
    assert health(g)[B] == 28
    assert g.dice["d1"]["owner"] == A                       # undecided Duo dice go home


def test_turn_order_ties_alternate_from_the_villain_team():
    g = Kaploom.new(4, TWO)
    assert g.turn_order() == [C, A, D, B]
    for seat, h in enumerate([20, 20, 20, 25]):
        g.seats[seat]["health"] = h
    assert g.turn_order() == [C, A, B, D]
    g = Kaploom.new(4, {"mode": "2v2", "sides": "villain"})
    assert g.turn_order() == [A, C, B, D]


def test_both_teams_out_at_once_is_a_draw():
    s = rig({A: ["A", "X", "E"], B: ["_"], C: ["A", "X", "E"], D: ["_"]}, TWO, players=4,
            health={A: 2, C: 2, B: 0, D: 0})
    g = s.game
    g.seats[B]["ko"] = g.seats[D]["ko"] = True
    s(A, "assign SUCKER PUNCH d1")
    s(A, "assign GROW d2 d3")
    s(C, "assign SUCKER PUNCH d5")
    s(C, "assign GROW d6 d7")
    lock_all(s)
    assert g.seats[A]["pointer"] == C and g.seats[C]["pointer"] == A
    until_turn(s, C)
    s(C, "grow red")
    until_turn(s, A)
    s(A, "grow red")
    finish_power(s)
    assert g.result == {"winners": [], "reason": "everyone is knocked out at once",
                        "ending": "knockout"}


def test_attack_at_a_knocked_out_player_is_lost():
    s = rig({A: ["M", "E"], B: ["M"], C: ["_"], D: ["_"]}, TWO, players=4, health={C: 3})
    g = s.game
    s(A, "assign POW d1 d2")
    s(A, "point @3")
    s(B, "assign JAB d3")
    s(B, "point @3")
    lock_all(s)
    assert g.combat["attacks"][-1]["note"].startswith("the target is already knocked out")
    assert health(g) == [30, 30, 0, 30] and g.result is None
    v = json.dumps(g.view(None))
    assert '"ko": true' in v


def test_pointer_errors():
    s = rig({A: ["_"], B: ["_"], C: ["_"], D: ["_"]}, TWO, players=4)
    g = s.game
    refused(g, A, "point @2")
    s(A, "point @4")
    assert "point @4" not in g.legal(A) and "point @3" in g.legal(A)
    assert "@1" in refused(g, A, "point me", InvalidMoveError)
