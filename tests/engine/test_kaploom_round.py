"""KAPLOOM!: the round — the rulebook's play example (scripted and as a JSON record), attacks
and mid-round KOs, SUCKER PUNCH / FACE OFF timing, the pool running out, healing, the first
player and the round limit."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine.core import CHANCE, IllegalMoveError, InvalidMoveError
from bot.engine.kaploom import Kaploom
from bot.engine.records import Record, replay

from .test_kaploom import (HERO, VILLAIN, Script, conservation, finish_power, health, lock_all,
                           refused, rig, round_trip, until_turn)

RECORDS = Path(__file__).resolve().parents[1] / "records" / "kaploom"


# --- the play example (seed: "PLAY EXAMPLE") ----------------------------------------------------

def play_example() -> Script:
    """Hero: X-Factor, Wild, Energy, Agility and a blank on the action die. Villain: two blanks,
    Might, Agility, Energy. Dice: hero d1 blue, d2 yellow, d3 purple, d4 green, d5 action;
    villain d6 blue, d7 red, d8 yellow, d9 green, d10 action."""
    s = Script()
    g = s.game
    s(CHANCE, "roll X E W A _ _ M E A _")
    s(HERO, "assign GROW d1 d2")            # X-Factor and Energy for GROW
    s(HERO, "assign BLOCK d5 d3")           # the blank for ANY, the Wild for T
    s(HERO, "assign SUCKER PUNCH d4")       # the Agility
    s(VILLAIN, "assign POW d7 d8")          # Might and Energy on POW
    s(VILLAIN, "timejump d10 reroll d6")    # one blank on TIME JUMP re-rolls the other blank
    assert g.actors() == [CHANCE]
    s(CHANCE, "roll X")                     # ... getting an X-Factor
    s(VILLAIN, "assign POWER ON d6 d9")     # X-Factor with the Agility
    return s


def test_play_example_move_by_move():
    s = play_example()
    g = s.game
    s(HERO, "lock")
    assert health(g) == [30, 30]                       # after Phase 1
    assert g.seats[VILLAIN]["announced"] == ["TIME JUMP"]
    s(VILLAIN, "lock")                                 # Phase 2 runs by itself
    assert health(g) == [29, 30]                       # after Phase 2
    fight = g.combat["attacks"]
    assert fight[0]["attacker"] == VILLAIN and fight[0]["attack"]["total"] == 3
    assert fight[0]["defense"]["base"] == {"name": "BLOCK", "value": 2}
    assert fight[0]["loss"] == 1 and fight[0]["health"] == [30, 29]
    assert fight[1]["attacker"] == HERO and fight[1]["attack"]["base"] is None  # no attack back
    assert g.stage == "power" and g.actors() == [VILLAIN]   # the first player powers up first
    events = s(VILLAIN, "poweron M")                   # a non-Wild face of their choice
    assert any("SUCKER PUNCH" in e.text for e in events)
    assert g.dice["d11"]["faces"] == ["M"] and g.dice["d11"]["owner"] == VILLAIN
    assert g.seats[VILLAIN]["pending"] == [{"source": "SUCKER PUNCH", "by": HERO, "amount": 2}]
    s(VILLAIN, "take")
    assert health(g) == [29, 28]
    s(VILLAIN, "done")
    s(HERO, "grow red")                                # a trait die of their choice
    assert g.dice["d12"] == {"owner": HERO, "kind": "trait", "colour": "red", "up": None}
    s(HERO, "done")
    assert health(g) == [29, 28]                       # after Phase 3
    assert g.first == VILLAIN                          # Phase 4: the villain keeps the token
    assert g.round == 2 and g.stage == "roll"
    conservation(g)
    round_trip(g)


def test_play_example_record_replays_exactly():
    data = json.loads((RECORDS / "rulebook_play_example.json").read_text())
    record = Record.from_json(data)
    g = replay(record)
    assert health(g) == [29, 28] and g.first == VILLAIN and g.round == 2
    s = play_example()
    s(HERO, "lock")
    s(VILLAIN, "lock")
    for move in ("poweron M", "take", "done"):
        s(VILLAIN, move)
    s(HERO, "grow red")
    s(HERO, "done")
    assert g.names == ["hero", "villain"]              # the record's players name the seats
    s.game.names = g.names
    assert s.game.to_json() == g.to_json()
    # health after every phase, replaying the record entry by entry
    seen = {}
    g = Kaploom.new(2, record.options)
    for entry in record.entries:
        actor = "chance" if entry["actor"] == "chance" else entry["actor"] - 1
        g.apply(actor, entry["move"])
        seen.setdefault(g.stage, health(g))
    assert seen == {"assign": [30, 30], "power": [29, 30], "roll": [29, 28]}


# --- attacks --------------------------------------------------------------------------------------

def test_mid_round_ko_ends_the_game_at_once():
    s = rig({HERO: ["M", "E", "X", "E"], VILLAIN: ["M", "E", "X", "E"]}, health={HERO: 3})
    g = s.game
    s(HERO, "assign POW d1 d2")
    s(HERO, "assign GROW d3 d4")
    s(VILLAIN, "assign POW d5 d6")
    s(VILLAIN, "assign GROW d7 d8")
    s(HERO, "lock")
    events = s(VILLAIN, "lock")
    assert g.result == {"winners": [VILLAIN], "reason": "Player 1 knocked out",
                        "ending": "knockout"}
    assert health(g) == [0, 30]                     # the hero never attacked back
    assert [a["attacker"] for a in g.combat["attacks"]] == [VILLAIN]
    assert events[-1].kind == "game_over" and g.actors() == []
    assert g.view(None)["stage"] == "over"


def test_defense_above_attack_loses_nothing():
    s = rig({HERO: ["M"], VILLAIN: ["T", "A", "T", "X"]})
    g = s.game
    s(HERO, "assign JAB d1")
    s(VILLAIN, "assign FLIP d2 d3")
    s(VILLAIN, "assign IRON SKIN d4 d5")
    lock_all(s)
    hero_attack = g.combat["attacks"][1]
    assert hero_attack["attack"]["total"] == 1 and hero_attack["defense"]["total"] == 8
    assert hero_attack["loss"] == 0 and health(g) == [30, 30]


def test_higher_base_is_used_and_multipliers_apply():
    s = rig({HERO: ["M", "E", "M", "M", "E", "E", "X", "W"], VILLAIN: ["_"]})
    g = s.game
    s(HERO, "assign POW d1 d2")
    s(HERO, "assign HAYMAKER d3 d4 d5 d6")
    s(HERO, "assign DOUBLE TROUBLE d7 d8")
    lock_all(s)
    atk = g.combat["summary"]["0"]["attack"]
    assert [b["name"] for b in atk["bases"]] == ["POW", "HAYMAKER"]
    assert atk["base"]["value"] == 6 and atk["total"] == 12
    assert health(g) == [30, 18]


# --- SUCKER PUNCH, FACE OFF (rulings: "Rulings on the round") -------------------------------------

def punch_setup(victim_health: int = 30) -> Script:
    """The hero holds SUCKER PUNCH and FACE OFF; the villain (first in turn order) GROWs,
    POWERs ON and RECOVERs."""
    s = rig({HERO: ["A", "X"], VILLAIN: ["X", "E", "X", "A", "T", "T"]},
            health={VILLAIN: victim_health})
    s(HERO, "assign SUCKER PUNCH d1")
    s(HERO, "assign FACE OFF d2")
    s(VILLAIN, "assign GROW d3 d4")
    s(VILLAIN, "assign POWER ON d5 d6")
    s(VILLAIN, "assign RECOVER d7 d8")
    lock_all(s)
    return s


def test_sucker_punch_and_face_off_fire_once_each_and_the_victim_chooses_when():
    s = punch_setup()
    g = s.game
    assert g.actors() == [VILLAIN]
    assert "take" not in g.legal(VILLAIN)
    s(VILLAIN, "grow purple")                              # a die: SUCKER PUNCH
    assert [x["source"] for x in g.seats[VILLAIN]["pending"]] == ["SUCKER PUNCH"]
    s(VILLAIN, "poweron T")                                # a die (again) and a face
    assert [x["source"] for x in g.seats[VILLAIN]["pending"]] == ["SUCKER PUNCH", "FACE OFF"]
    assert health(g) == [30, 30] and "take" in g.legal(VILLAIN)
    s(VILLAIN, "take")                                     # taken before healing ...
    assert health(g) == [30, 26]
    s(VILLAIN, "recover")                                  # ... so RECOVER is not wasted
    assert health(g) == [30, 30]
    finish_power(s)
    assert health(g) == [30, 30]


def test_untaken_losses_apply_at_the_end_of_the_phase():
    s = punch_setup()
    g = s.game
    s(VILLAIN, "recover")                                  # healing at the maximum is wasted
    assert health(g) == [30, 30]
    s(VILLAIN, "poweron X")
    s(VILLAIN, "done")
    assert health(g) == [30, 30] and g.seats[VILLAIN]["pending"]
    s(HERO, "done")
    assert health(g) == [30, 26]                           # applied at the end of Power Up
    assert any("End of Power Up" in e.text for e in s.events)
    assert g.first == VILLAIN


def test_taking_a_loss_can_knock_yourself_out():
    s = punch_setup(victim_health=2)
    g = s.game
    s(VILLAIN, "grow red")
    s(VILLAIN, "take")
    assert g.result["winners"] == [HERO] and g.actors() == []


def test_both_out_at_the_end_of_power_up_is_a_draw():
    s = rig({HERO: ["A", "X", "E"], VILLAIN: ["A", "X", "E"]}, health={HERO: 2, VILLAIN: 2})
    s(HERO, "assign SUCKER PUNCH d1")
    s(HERO, "assign GROW d2 d3")
    s(VILLAIN, "assign SUCKER PUNCH d4")
    s(VILLAIN, "assign GROW d5 d6")
    lock_all(s)
    s(VILLAIN, "grow red")
    s(VILLAIN, "done")
    s(HERO, "grow red")
    s(HERO, "done")
    assert s.game.result == {"winners": [], "reason": "everyone is knocked out at once",
                        "ending": "knockout"}


def test_trade_in_counts_as_gaining_a_face_and_a_refused_gain_counts_for_nothing():
    s = rig({HERO: ["X"], VILLAIN: ["_", "X", "A", "aWM:_"]})
    g = s.game
    s(HERO, "assign FACE OFF d1")
    s(VILLAIN, "assign TRADE IN d2")
    s(VILLAIN, "assign POWER ON d3 d4")
    lock_all(s)
    g.pool["action"] = 0
    g.pool["faces"] = {f: 0 for f in g.pool["faces"]}
    assert g.legal(VILLAIN) == ["detach d5 M", "detach d5 W", "done"]
    refused(g, VILLAIN, "poweron")                  # nothing left to pay: it gains nothing
    refused(g, VILLAIN, "tradein M X")
    assert not g.seats[VILLAIN]["pending"]
    g.pool["faces"]["X"] = 1
    s(VILLAIN, "tradein M X")
    assert g.dice["d5"]["faces"] == ["W"] and g.seats[VILLAIN]["unattached"] == ["X"]
    assert g.pool["faces"]["M"] == 1
    assert [x["source"] for x in g.seats[VILLAIN]["pending"]] == ["FACE OFF"]


# --- the pool, faces, healing ---------------------------------------------------------------------

def test_pool_exhaustion_pays_what_it_can():
    s = rig({HERO: ["_"], VILLAIN: ["X", "E", "X", "A", "E", "T", "A", "X"]})
    g = s.game
    s(VILLAIN, "assign GROW d2 d3")
    s(VILLAIN, "assign POWER ON d4 d5")
    s(VILLAIN, "assign BIG BANG d6 d7 d8 d9")
    lock_all(s)
    g.pool["trait"] = {"red": 0, "yellow": 0, "blue": 0, "purple": 1, "green": 0}
    assert [m for m in g.legal(VILLAIN) if m.startswith("grow")] == ["grow purple"]
    msg = refused(g, VILLAIN, "grow red")
    assert "no red" in msg and "purple" in msg
    refused(g, VILLAIN, "grow pink", InvalidMoveError)
    s(VILLAIN, "grow purple")
    g.pool["action"] = 0                                   # POWER ON: the face alone
    s(VILLAIN, "poweron E")
    assert g.seats[VILLAIN]["unattached"] == ["E"]
    assert s.events[-1].text == ("Player 2 gains face E (unattached) from POWER ON "
                                 "(the pool has run out of action dice).")
    g.pool["action"] = 1
    g.pool["faces"] = {"W": 3, "M": 1, "E": 0, "T": 0, "A": 0, "X": 0}
    assert sorted(m for m in g.legal(VILLAIN) if m.startswith("bigbang")) == [
        "bigbang M W"]                                      # at most one Wild
    refused(g, VILLAIN, "bigbang W W")
    refused(g, VILLAIN, "bigbang M", InvalidMoveError)
    s(VILLAIN, "bigbang W M")
    new = g.dice_of(VILLAIN)[-1]
    assert g.dice[new]["faces"] == ["M", "W"] and g.pool["action"] == 0


def test_faces_move_freely_in_power_up():
    s = rig({HERO: ["_"], VILLAIN: ["a:_", "aMEWX:_", "_"]})
    g = s.game
    s(VILLAIN, "assign UPGRADE d2")
    lock_all(s)
    s(VILLAIN, "upgrade T")
    assert g.seats[VILLAIN]["unattached"] == ["T"]
    s(VILLAIN, "attach d2 T")
    s(VILLAIN, "detach d3 X")
    s(VILLAIN, "attach d2 X")
    assert g.dice["d2"]["faces"] == ["T", "X"] and g.dice["d3"]["faces"] == ["M", "E", "W"]
    g.dice["d2"]["faces"] = ["M", "M", "E", "E", "T", "X"]
    s(VILLAIN, "detach d3 W")
    msg = refused(g, VILLAIN, "attach d2 W")
    assert "no blank slot" in msg
    refused(g, VILLAIN, "attach d4 W")                     # not an action die
    refused(g, VILLAIN, "detach d3 X")
    refused(g, VILLAIN, "attach d2", InvalidMoveError)


def test_quick_fix_heals_at_once_capped_at_the_maximum():
    s = rig({HERO: ["_", "T", "E", "T"], VILLAIN: ["_"]}, health={HERO: 29})
    g = s.game
    events = s(HERO, "quickfix d1 d2")
    assert health(g) == [30, 30]
    assert [e.text for e in events if e.public][0] == "Player 1 activates QUICK FIX!"
    refused(g, HERO, "unassign QUICK FIX")
    refused(g, HERO, "quickfix d3 d4")                     # once a round


def test_second_wind_and_recover_heal():
    s = rig({HERO: ["_"], VILLAIN: ["M", "M", "T", "E", "T", "T"]}, health={VILLAIN: 10})
    g = s.game
    s(VILLAIN, "assign SECOND WIND d2 d3 d4 d5")
    s(VILLAIN, "assign RECOVER d6 d7")
    lock_all(s)
    s(VILLAIN, "secondwind")
    s(VILLAIN, "recover")
    assert health(g) == [30, 20]
    refused(g, VILLAIN, "recover")                         # used


# --- phase 4 and the end --------------------------------------------------------------------------

def test_first_player_is_the_lowest_health_and_a_tie_keeps_the_token():
    s = rig({HERO: ["_"], VILLAIN: ["M"]})
    g = s.game
    s(VILLAIN, "assign JAB d2")
    lock_all(s)
    finish_power(s)
    assert health(g) == [29, 30] and g.first == HERO
    g.seats[VILLAIN]["health"] = 29
    s(CHANCE, g.chance().sample(__import__("random").Random(1)))
    lock_all(s)
    finish_power(s)
    assert g.first == HERO                                 # equal health: the token stays


@pytest.mark.parametrize("hero, villain, winners", [(20, 25, [VILLAIN]), (7, 7, [])])
def test_round_limit_ends_the_game_on_health(hero, villain, winners):
    s = rig({HERO: ["_"], VILLAIN: ["_"]}, health={HERO: hero, VILLAIN: villain})
    g = s.game
    g.round = 30
    lock_all(s)
    finish_power(s)
    assert g.result["winners"] == winners and "round limit" in g.result["reason"]


def test_power_up_only_in_your_turn_and_only_what_you_activated():
    s = punch_setup()
    g = s.game
    refused(g, HERO, "done", __import__("bot.engine.core", fromlist=["x"]).NotYourTurnError)
    msg = refused(g, VILLAIN, "upgrade T")
    assert "no UPGRADE" in msg and "GROW" in msg
    refused(g, VILLAIN, "assign POW d1 d2")                # a Phase 1 move
    refused(g, VILLAIN, "grow", InvalidMoveError)
    refused(g, VILLAIN, "poweron W")                       # no Wild from POWER ON
    until_turn(s, HERO)
    assert g.legal(HERO)[-1] == "done"


def test_legal_moves_all_apply():
    """Every listed move applies (checked on copies), in Phase 1 and Power Up."""
    s = play_example()
    g = s.game
    for seat in (HERO, VILLAIN):
        for move in g.legal(seat):
            g.copy().apply(seat, move)
    s(HERO, "lock")
    s(VILLAIN, "lock")
    for move in g.legal(VILLAIN):
        g.copy().apply(VILLAIN, move)
    with pytest.raises(IllegalMoveError):
        g.copy().apply(VILLAIN, "grow red")
