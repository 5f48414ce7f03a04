"""KAPLOOM!: every action's effect, table-driven over ACTION_TABLE and SUPER_TABLE, and each
super's lock-in ability at work."""
from __future__ import annotations

import random

import pytest

from bot.engine.core import CHANCE
from bot.engine.kaploom.data import ACTION_TABLE, SUPER_TABLE, SUPERS, Action

from .test_kaploom import (HERO, VILLAIN, finish_power, health, lock_all, refused, rig,
                           until_turn)

# dice that fill each requirement symbol (see make_die in test_kaploom.py)
FILL = {"M": ["M"], "E": ["E"], "T": ["T"], "A": ["A"], "X": ["X"], "W": ["W"], "ANY": ["_"],
        "ACT": ["aW:_"], "ACT+": ["aM:M"], "PAIR": ["M", "red:M"], "MATCH": ["aM:M", "M"],
        "PAIR-ACT": ["aW:_", "aW:_"], "MATCH+": ["aM:M", "M"], "PAIR-ACT+": ["aM:M", "aM:M"]}

# what else the acting player places so the effect shows: a base under kickers/multipliers
SUPPORT = {"attack_kicker": (["M"], "JAB"), "attack_kicker_per_action_die": (["M"], "JAB"),
           "attack_multiplier": (["M"], "JAB"), "attack_multiplier_spoilers": (["M"], "JAB"),
           "defense_kicker": (["_", "T"], "BLOCK"), "defense_multiplier": (["_", "T"], "BLOCK"),
           "reroll": (["_"], None), "trade_face": (["aWM:_"], None)}

# what the opponent does: gain a die, gain a face, or land a hit (for DENT)
OPPONENT = {"punish_die_gain": (["X", "E"], "GROW"), "punish_face_gain": (["aW:_"], "UPGRADE"),
            "gain_face": (["M"], "JAB")}


def seat_for(action: Action) -> tuple[int, dict]:
    if action.board == "base":
        return VILLAIN, {}
    side = SUPERS[action.board].side
    seat = HERO if side == "hero" else VILLAIN
    supers = [action.board, "none"] if seat == HERO else ["none", action.board]
    return seat, {"supers": ",".join(supers)}


def dice_for(action: Action) -> list[str]:
    return [tok for sym in action.requires for tok in FILL[sym]]


def check(g, seat: int, opp: int, action: Action, start: int) -> None:
    """The effect, by its kind (the table's effect + amount)."""
    eff, n = action.effect, action.amount
    summary = (g.combat or {}).get("summary", {}).get(str(seat), {})
    atk = summary.get("attack", {}).get("total")
    dfn = summary.get("defense", {}).get("total")
    me = g.seats[seat]
    if eff == "attack_base":
        assert atk == n and g.seats[opp]["health"] == g.seats[opp]["max"] - n
    elif eff == "attack_kicker":
        assert atk == 1 + n
    elif eff == "attack_kicker_per_action_die":
        assert atk == 1 + n * g.action_dice_count(seat)
    elif eff == "attack_multiplier":
        assert atk == 1 * n
    elif eff == "attack_multiplier_spoilers":
        assert atk == 1 * (1 + 2) and me["spoilers"] == 0        # spent
    elif eff == "defense_base":
        assert dfn == n
    elif eff == "defense_kicker":
        assert dfn == 2 + n
    elif eff == "defense_multiplier":
        assert dfn == 2 * n
    elif eff == "heal_now":
        assert me["health"] == start + n
    elif eff in ("punish_die_gain", "punish_face_gain"):
        assert g.seats[opp]["health"] == g.seats[opp]["max"] - n
    elif eff == "heal":
        assert me["health"] == start + n
    else:
        raise AssertionError(eff)


@pytest.mark.parametrize("action", ACTION_TABLE + SUPER_TABLE, ids=lambda a: a.name)
def test_every_action_does_what_its_row_says(action: Action):
    seat, options = seat_for(action)
    opp = 1 - seat
    mine = dice_for(action)
    extra, support = SUPPORT.get(action.effect, ([], None))
    theirs, their_action = OPPONENT.get(action.effect, (["_"], None))
    start = 20
    s = rig({seat: mine + extra, opp: theirs}, options, health={seat: start})
    g = s.game
    if action.effect == "attack_multiplier_spoilers":
        g.seats[seat]["spoilers"] = 2
    dice = g.dice_of(seat)
    used, rest = dice[:len(mine)], dice[len(mine):]
    if action.effect == "reroll":
        verb = action.name.replace(" ", "").lower()
        before = g.dice[rest[0]]["up"]
        s(seat, f"{verb} {' '.join(used)} reroll {rest[0]}")
        assert g.seats[seat]["announced"] == [action.name]
        assert g.actors() == [CHANCE] and len(g.chance().draws) == 1
        s(CHANCE, "roll W")
        assert (before, g.dice[rest[0]]["up"]) == ("_", "W")
        return
    if action.effect == "heal_now":
        s(seat, f"{action.name.replace(' ', '').lower()} {' '.join(used)}")
        check(g, seat, opp, action, start)
        return
    s(seat, f"assign {action.name} {' '.join(used)}")
    if support:
        s(seat, f"assign {support} {' '.join(rest)}")
    if their_action:
        s(opp, f"assign {their_action} {' '.join(g.dice_of(opp))}")
    lock_all(s)
    assert g.result is None
    if action.panel != "power up":
        check(g, seat, opp, action, start)
        return
    # Power Up: the opponent (if first) makes their gain, then we resolve ours
    if their_action in ("GROW", "UPGRADE"):
        until_turn(s, opp)
        s(opp, "grow red" if their_action == "GROW" else "upgrade T")
    until_turn(s, seat)
    eff = action.effect
    me = g.seats[seat]
    dice_before = len(g.dice_of(seat))
    faces_before = sorted(me["unattached"])
    choices = [m for m in g.legal(seat) if m.split()[0] == action.name.replace(" ", "").lower()]
    if eff in ("punish_die_gain", "punish_face_gain"):
        assert not choices                    # nothing to resolve: it watches the opponent
        finish_power(s)
        check(g, seat, opp, action, start)
        return
    assert choices, action.name
    move = choices[0]
    s(seat, move)
    if eff == "gain_trait_die":
        colour = move.split()[-1]
        new = g.dice_of(seat)[-1]
        assert len(g.dice_of(seat)) == dice_before + 1
        assert g.dice[new]["kind"] == "trait" and g.dice[new]["colour"] == colour
    elif eff == "gain_action_die":
        new = g.dice_of(seat)[-1]
        assert g.dice[new]["kind"] == "action"
        want = [action.face] if action.face else move.split()[1:]
        assert sorted(g.dice[new]["faces"]) == sorted(want) and len(want) == action.amount
    elif eff == "gain_face":
        gained = action.face or move.split()[1]
        assert sorted(me["unattached"]) == sorted(faces_before + [gained])
        if action.face is None:
            assert gained != "W"
    elif eff == "trade_face":
        give, take = move.split()[1:]
        assert give != take and take in me["unattached"]
    elif eff == "heal":
        check(g, seat, opp, action, start)
    elif eff == "gain_spoiler":
        assert me["spoilers"] == action.amount
    elif eff == "lock_in":
        assert me["locked_in"] == [action.name]
    else:
        raise AssertionError(eff)
    assert action.name not in me["todo"]
    refused(g, seat, move)                       # each action once a round


# --- super abilities ---------------------------------------------------------------------------

def test_hard_to_break_adds_to_every_defense_with_a_base():
    s = rig({HERO: ["_", "T", "T", "T", "T"], VILLAIN: ["M", "E", "M", "E", "M", "M"]},
            {"supers": "Tough Nut,none"})
    g = s.game
    g.seats[HERO]["locked_in"] = ["HARD TO BREAK"]
    s(HERO, "assign BLOCK d1 d2")
    s(HERO, "assign WELDED SHUT d3 d4")
    refused(g, HERO, "assign HARD TO BREAK d5 d5 d5 d5")
    s(VILLAIN, "assign HAYMAKER d6 d7 d8 d9")
    lock_all(s)
    dfn = g.combat["summary"]["0"]["defense"]
    assert dfn["total"] == 2 + 2 + 3 and dfn["bonuses"] == [{"name": "HARD TO BREAK",
                                                           "value": 2}]
    assert health(g) == [34, 30]                     # HAYMAKER 6 against 7: nothing lost


def test_dent_needs_a_loss_this_round():
    s = rig({HERO: ["T"], VILLAIN: ["_"]}, {"supers": "Tough Nut,none"})
    g = s.game
    s(HERO, "assign DENT d1")
    lock_all(s)
    until_turn(s, HERO)
    assert "dent" not in g.legal(HERO)
    assert "lost health" in refused(g, HERO, "dent")


def test_hard_to_break_locks_in_once_a_game():
    s = rig({HERO: ["T", "T", "T", "X"], VILLAIN: ["_"]}, {"supers": "Tough Nut,none"})
    g = s.game
    s(HERO, "assign HARD TO BREAK d1 d2 d3 d4")
    lock_all(s)
    until_turn(s, HERO)
    s(HERO, "hardtobreak")
    finish_power(s)
    assert g.view(None)["players"][HERO]["locked_in"][0]["name"] == "HARD TO BREAK"
    s(CHANCE, "roll T T T X _")
    assert "already locked in" in refused(g, HERO, "assign HARD TO BREAK d1 d2 d3 d4")
    assert not any(m.startswith("assign HARD TO BREAK") for m in g.legal(HERO))


def test_time_loop_rerolls_once_a_round_and_pause_up_to_two():
    s = rig({HERO: ["X", "blue:_", "blue:_", "blue:_"], VILLAIN: ["_"]},
            {"supers": "Timeout!,none"})
    g = s.game
    g.seats[HERO]["locked_in"] = ["TIME LOOP"]
    assert "timeloop reroll d2" in g.legal(HERO)
    events = s(HERO, "timeloop reroll d2")
    assert [e.text for e in events if e.public] == ["Player 1 activates TIME LOOP!"]
    s(CHANCE, "roll X")
    refused(g, HERO, "timeloop reroll d3")
    s(HERO, "pause d1 reroll d3 d4")
    assert len(g.chance().draws) == 2
    s(CHANCE, "roll X E")
    assert [g.dice[d]["up"] for d in ("d2", "d3", "d4")] == ["X", "X", "E"]
    assert g.seats[HERO]["announced"] == ["TIME LOOP", "PAUSE"]
    refused(g, HERO, "pause d2 reroll d3")
    lock_all(s)
    finish_power(s)
    s(CHANCE, "roll X _ _ _ _")
    assert "timeloop reroll d2" in g.legal(HERO)            # a new round


def test_quick_study_takes_two_dice():
    s = rig({HERO: ["_", "aW:_"], VILLAIN: ["_"]}, {"supers": "Timeout!,none"})
    g = s.game
    s(HERO, "assign QUICK STUDY d1 d2")
    lock_all(s)
    until_turn(s, HERO)
    refused(g, HERO, "quickstudy W")
    s(HERO, "quickstudy A")
    assert g.seats[HERO]["unattached"] == ["A"]


def test_tyrant_costs_the_opponent_one_health_once_a_phase():
    s = rig({HERO: ["_"], VILLAIN: ["X", "E", "X", "A", "X", "E"]},
            {"supers": "none,Victor Kane"})
    g = s.game
    g.seats[VILLAIN]["locked_in"] = ["TYRANT"]
    s(VILLAIN, "assign GROW d2 d3")
    s(VILLAIN, "assign POWER ON d4 d5")
    s(VILLAIN, "assign MORE POWER d6 d7")
    lock_all(s)
    until_turn(s, VILLAIN)
    s(VILLAIN, "grow red")
    assert g.seats[HERO]["pending"] == [{"source": "TYRANT", "by": VILLAIN, "amount": 1}]
    s(VILLAIN, "poweron A")
    s(VILLAIN, "morepower")
    assert len(g.seats[HERO]["pending"]) == 1
    finish_power(s)
    assert health(g) == [29, 32]


def test_punish_counts_action_dice():
    s = rig({HERO: ["_"], VILLAIN: ["M", "X", "M", "a:_", "a:_"]},
            {"supers": "none,Victor Kane"})
    g = s.game
    s(VILLAIN, "assign PUNISH d2 d3")
    s(VILLAIN, "assign JAB d4")
    lock_all(s)
    assert g.combat["summary"]["1"]["attack"]["total"] == 1 + 2
    assert health(g) == [27, 32]


def test_spoiler_tokens_cap_plot_armor_and_the_twist():
    s = rig({HERO: ["M", "E", "M", "E"], VILLAIN: ["_", "T", "T"]},
            {"supers": "none,Spoiler Alert!"})
    g = s.game
    g.seats[VILLAIN]["locked_in"] = ["PLOT ARMOR"]
    g.seats[VILLAIN]["spoilers"] = 1
    s(HERO, "assign HAYMAKER d1 d2 d3 d4")
    s(VILLAIN, "assign BLOCK d5 d6")
    s(VILLAIN, "assign FORESHADOW d7")
    lock_all(s)
    dfn = g.combat["summary"]["1"]["defense"]
    assert dfn["total"] == 2 + 1 and health(g) == [30, 32 - 3]
    until_turn(s, VILLAIN)
    s(VILLAIN, "foreshadow")
    assert g.seats[VILLAIN]["spoilers"] == 2
    finish_power(s)
    s(CHANCE, "roll M E M E _ T T")
    s(VILLAIN, "assign FORESHADOW d7")
    lock_all(s)
    until_turn(s, VILLAIN)
    assert "foreshadow" not in g.legal(VILLAIN)
    assert "already hold 2" in refused(g, VILLAIN, "foreshadow")
    assert g.seats[VILLAIN]["spoilers"] == 2


def test_every_action_is_listed_when_its_dice_are_there():
    """legal() offers each action whose requirements the rolled dice fill."""
    for action in ACTION_TABLE:
        seat, options = seat_for(action)
        extra = ["_"] if action.effect == "reroll" else []
        s = rig({seat: dice_for(action) + extra, 1 - seat: ["_"]}, options)
        verb = action.name.replace(" ", "").lower()
        listed = [m for m in s.game.legal(seat)
                  if m.startswith(f"assign {action.name} ") or m.startswith(verb + " ")]
        assert listed, action.name
        for m in listed:
            s.game.copy().apply(seat, m)


def test_random_rolls_never_list_a_move_that_fails():
    rng = random.Random(7)
    for _ in range(30):
        s = rig({HERO: [rng.choice(["M", "E", "T", "A", "X", "W", "_", "aW:_", "aMX:M"])
                        for _ in range(7)], VILLAIN: ["_"]},
                {"supers": "Timeout!,none"})
        for m in s.game.legal(HERO):
            s.game.copy().apply(HERO, m)
