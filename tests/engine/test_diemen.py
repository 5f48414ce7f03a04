"""Crazy Die-Man is Unbreakable!: the rules, move by move (rulebook seeds/000 + rulings)."""
from __future__ import annotations

import json

import pytest

from bot.engine import load
from bot.engine.core import (CHANCE, AmbiguousMoveError, IllegalMoveError, InvalidMoveError,
                             NotYourTurnError, OptionError)
from bot.engine.diemen import DieMen
from bot.engine.diemen import rules as R


# --- helpers ------------------------------------------------------------------------------------

def new_game(mode: str = "physical", b1: str = "F1 F2 B2 B3", b2: str = "F1 F2 B2 B3",
             first: int = 1) -> DieMen:
    g = DieMen.new(2, {"mode": mode})
    g.apply(0, f"banners {b1}")
    g.apply(1, f"banners {b2}")
    g.apply(CHANCE, f"roll {first}")
    return g


def run(g: DieMen, *lines: str) -> list:
    """`"1 flick 2"`, `"2 accept"`, `"c roll clean 4"`: apply each; return the last events."""
    events = []
    for line in lines:
        who, move = line.split(" ", 1)
        events = g.apply(CHANCE if who == "c" else int(who) - 1, move)
    return events


def dmg(g: DieMen) -> list[int]:
    return [s["damage"] for s in g.floor["sides"]]


def standing(g: DieMen, seat: int) -> list[str]:
    return R.standing_floor(g.side(seat))


def roundtrip(g: DieMen) -> None:
    again = DieMen.from_json(json.loads(json.dumps(g.to_json())))
    assert again.to_json() == g.to_json()


def unchanged_after(g: DieMen, actor, move: str, error: type) -> Exception:
    before = g.to_json()
    with pytest.raises(error) as info:
        g.apply(actor, move)
    assert g.to_json() == before
    return info.value


# --- set-up -------------------------------------------------------------------------------------

def test_options_and_defaults():
    g = DieMen.new(2)
    assert g.options == {"mode": "physical", "vote_seconds": 60}
    assert DieMen.new(2, {"mode": "simulated"}).options["mode"] == "simulated"
    with pytest.raises(OptionError):
        DieMen.new(2, {"mode": "telepathic"})
    with pytest.raises(OptionError):
        DieMen.new(3)
    assert load("diemen") is DieMen


def test_start_property_damage_and_secret_setup():
    g = DieMen.new(2)
    assert dmg(g) == [1, 1]
    assert g.actors() == [0, 1]
    events = g.apply(0, "banners F1 F3 B2 B3")
    public = [e for e in events if e.public]
    assert all("F3" not in e.text and "B2" not in e.text for e in public)
    assert all("spots" not in e.data for e in public)
    private = [e for e in events if not e.public]
    assert private[0].to == (0,) and "F1 F3 B2 B3" in private[0].text
    # The choice is seen by its owner only: nothing the others see or read depends on it.
    assert g.view(0)["my_setup"] == ["F1", "F3", "B2", "B3"]
    other = DieMen.new(2)
    other.apply(0, "banners F1 F2 B1 B2")
    for who in (1, None):
        assert g.view(who) == other.view(who)
        assert g.text(who) == other.text(who)
        assert g.view(who)["my_setup"] is None and g.view(who)["sides"][0]["banners"] == []
        assert g.view(who)["setup_done"] == [True, False]
    assert g.actors() == [1]
    for bad in ("banners F1 F1 B2 B3", "flick 1", "banners F1"):
        e1 = unchanged_after(g, 1, bad, (InvalidMoveError, IllegalMoveError))
        e2 = unchanged_after(other, 1, bad, (InvalidMoveError, IllegalMoveError))
        assert str(e1) == str(e2)
    roundtrip(g)
    events = g.apply(1, "banners F2 B1, B2 F3")
    revealed = [e for e in events if e.kind == "setup_revealed"][0]
    assert revealed.public and revealed.data["banners"] == [["F1", "F3", "B2", "B3"],
                                                            ["F2", "F3", "B1", "B2"]]
    assert g.actors() == [CHANCE]
    assert g.wait_seconds() == 60
    ch = g.chance()
    assert ch.draws[0].label == "first player" and ch.draws[0].options == ("1", "2")
    g.apply(CHANCE, "roll 2")
    assert g.active == 1 and g.turn == 1 and g.phase == "move"
    assert standing(g, 0) == ["F1", "F3", "B2", "B3"]
    assert g.side(0)["stand"] == g.side(1)["stand"] == "S2"


def test_setup_bad_input():
    g = DieMen.new(2)
    for bad in ("banners F1 F2 B2", "banners F1 F2 B2 B3 B1", "banners F1 F2 S2 B3",
                "banners F1 F2 B2 X9", "banners P2:F1 F2 B2 B3"):
        unchanged_after(g, 0, bad, InvalidMoveError)
    g.apply(0, "banners F1 F2 B2 B3")
    unchanged_after(g, 0, "banners F1 F2 B2 B3", NotYourTurnError)
    assert len(g.legal(1)) == 15


# --- the turn -----------------------------------------------------------------------------------

def test_move_stand_and_flick_declarations():
    g = new_game()
    assert sorted(g.legal(0)) == sorted(["move S1", "move S3", "flick 0", "flick 1", "flick 2",
                                         "oops F1", "oops F2", "oops B2", "oops B3"])
    run(g, "1 move S3")
    assert g.side(0)["stand"] == "S3"
    unchanged_after(g, 0, "move S1", IllegalMoveError)  # once per turn
    unchanged_after(g, 0, "move S4", InvalidMoveError)
    # No Bonus Flick on the game's very first turn, even with front banners standing.
    err = unchanged_after(g, 0, "flick 3 bonus", IllegalMoveError)
    assert "very first turn" in str(err) and "declare 1 or 2 flicks;" in str(err)
    assert "flick no dice" in str(err) and "`" not in str(err)
    err = unchanged_after(g, 0, "flick 4", IllegalMoveError)
    assert "3 as a Bonus Flick" in str(err)
    unchanged_after(g, 0, "flick two", InvalidMoveError)
    unchanged_after(g, 0, "flick 2 bonus", InvalidMoveError)
    run(g, "1 flick 0")
    assert g.phase == "reposition"
    unchanged_after(g, 0, "flick 1", IllegalMoveError)
    run(g, "1 done")
    assert g.active == 1 and g.turn == 2
    # Turn 2: a front banner stands, so the Bonus Flick is offered.
    assert "flick 3 bonus" in g.legal(1)
    run(g, "2 flick 3")
    assert g.t["declared"] == 3 and g.t["bonus"]


def test_bonus_flick_needs_a_standing_front_banner():
    g = new_game(b2="F1 B1 B2 B3")
    run(g, "1 flick 1", "1 result 2 hit=F1", "2 accept")
    run(g, "1 done")
    # Player 2's only front banner lies knocked until their own Reposition.
    assert "flick 3 bonus" not in g.legal(1)
    err = unchanged_after(g, 1, "flick 3 bonus", IllegalMoveError)
    assert "front area" in str(err)
    # Eligibility is checked once, when declaring: losing the front banner later changes
    # nothing, and the third flick still happens.
    g2 = new_game()
    run(g2, "1 flick 0", "1 done", "2 flick 3 bonus", "2 oops F1,F2")
    assert g2.phase == "flick" and g2.t["declared"] == 3
    assert dmg(g2) == [1, 13]


def test_stand_with_super_sale_banners_cannot_move():
    g = new_game()
    run(g, "1 flick 1", "1 result 1", "2 accept", "1 supersale F1", "1 done",
        "2 flick 0", "2 done")
    assert g.t["ssb_at_start"] == 1
    assert not any(m.startswith("move") for m in g.legal(0))
    err = unchanged_after(g, 0, "move S1", IllegalMoveError)
    assert "Super Sale Banner" in str(err) and "stays at S2" in str(err)
    # Knocked off during the opponent's turn: the Stand is free again next turn.
    run(g, "1 flick 0", "1 done", "1 end", "2 flick 1", "2 result 2 hit=S2", "1 accept")
    assert dmg(g) == [3, 1]
    run(g, "2 done", "1 move S1")
    assert g.side(0)["stand"] == "S1"


# --- damage ---------------------------------------------------------------------------------------

def one_flick(report: str, called: str | None = None, b2: str = "F1 F2 B2 B3") -> DieMen:
    g = new_game(b2=b2)
    run(g, "1 flick 2")
    if called:
        run(g, f"1 called {called}")
    run(g, f"1 {report}")
    assert g.phase == "review"
    assert dmg(g) == [1, 1]   # counts only when accepted
    run(g, "2 accept")
    return g


def test_enemy_banner_knocked_blames_the_enemy_r():
    g = one_flick("result 4 hit=F2")
    assert dmg(g) == [1, 5]
    assert "F2" not in standing(g, 1)
    last = g.view(None)["last_flicks"][-1]
    assert last["from"] == "P1:S2" and last["to"] == "P2:F2" and last["value"] == 4
    assert last["fell"] == ["P2:F2"] and last["added"] == [0, 4]


def test_one_die_knocking_two_banners_blames_r_each():
    assert dmg(one_flick("result 4 hit=F2,B2")) == [1, 9]


def test_called_shot_that_hits_is_double():
    assert dmg(one_flick("result 3 hit=F2", called="F2")) == [1, 7]


def test_called_shot_hitting_the_call_and_another():
    assert dmg(one_flick("result 3 hit=F2,B2", called="F2")) == [1, 10]


def test_called_shot_that_misses_blames_the_flicker():
    assert dmg(one_flick("result 5", called="F2")) == [6, 1]


def test_called_shot_that_misses_but_hits_another():
    g = new_game()
    run(g, "1 flick 2", "1 called F2", "1 result 3 hit=F1")
    events = run(g, "2 accept")
    assert dmg(g) == [4, 4]
    flick = next(e for e in events if e.kind == "flick")
    assert "Player 2's banner on F1 knocked down (rolled 3): +3 to Player 2" in flick.text
    assert "missed Called Shot at Player 2's banner on F2 (rolled 3): +3 to Player 1" \
        in flick.text


def test_own_banner_knocked_by_the_die():
    g = one_flick("result 2 hit=P1:F1,F2")
    assert dmg(g) == [3, 3]
    assert "F1" not in standing(g, 0)


def test_off_the_floor_counts_nothing_but_a_called_shot_is_missed():
    g = one_flick("result 5 off")
    assert dmg(g) == [1, 1] and standing(g, 1) == ["F1", "F2", "B2", "B3"]
    g = one_flick("result 5 off", called="B2")
    assert dmg(g) == [6, 1] and standing(g, 1) == ["F1", "F2", "B2", "B3"]
    # Marks made before learning it flew off are stood back up too.
    g = new_game()
    run(g, "1 flick 1", "1 mark F1", "1 result 2 off", "2 accept")
    assert dmg(g) == [1, 1] and "F1" in standing(g, 1)
    unchanged_after(new_game(), 0, "result 5 off hit=F1", InvalidMoveError)


def test_oops_other_means_is_six_per_banner():
    g = new_game()
    events = run(g, "1 oops F1")
    assert dmg(g) == [7, 1] and events[0].data["added"] == 6
    run(g, "1 flick 1")
    run(g, "1 oops B2,B3")
    assert dmg(g) == [19, 1]
    assert standing(g, 0) == ["F2"]
    # A count is accepted only when it names one thing.
    err = unchanged_after(g, 0, "oops 2", IllegalMoveError)
    run(g, "1 oops 1")   # only F2 stands: unambiguous -> 25, out
    assert g.result == {"winners": [1], "reason": g.result["reason"], "ending": "knockout"}
    assert "25" in g.result["reason"]
    g = new_game()
    err = unchanged_after(g, 0, "oops 1", AmbiguousMoveError)
    assert "oops F1" in str(err) and "oops B3" in str(err)
    unchanged_after(g, 0, "oops P2:F1", IllegalMoveError)
    unchanged_after(g, 0, "oops B1", IllegalMoveError)
    # Only on a real table.
    s = new_game("simulated")
    unchanged_after(s, 0, "oops F1", IllegalMoveError)
    assert not any(m.startswith("oops") for m in s.legal(0))


def test_customers_arrive_shield_and_leave():
    g = new_game()
    # P1 flicks exactly one die, then puts a Super Sale Banner up.
    run(g, "1 flick 1", "1 result 1", "2 accept")
    assert g.view(None)["turn_info"]["super_sale_allowed"]
    run(g, "1 supersale F1", "1 done")
    assert g.side(0)["customers"] == []   # none yet: the banner was not up at turn start
    run(g, "2 flick 0", "2 done")
    # P1 started this turn with one Super Sale Banner standing: one customer comes.
    run(g, "1 flick 0", "1 done")
    assert g.phase == "customers" and g.t["attract"] == 1
    assert g.legal(0) == ["customer C1", "customer C2", "customer C3", "end"]
    run(g, "1 customer C2")
    assert g.side(0)["customers"] == ["C2"] and g.floor["supply"] == 3
    assert g.active == 1
    # P2 knocks the customer over: the flicker is blamed, the customer goes back to supply.
    run(g, "2 flick 1", "2 result 4 hit=C2,F2", "1 accept")
    assert dmg(g) == [5, 5]
    assert g.side(0)["customers"] == [] and g.floor["supply"] == 4
    run(g, "2 done")
    # Another customer comes at the end of P1's turn (the banner still stands) ...
    run(g, "1 flick 0", "1 place F2", "1 done", "1 customer C1")
    assert g.side(0)["customers"] == ["C1"]
    # ... and leaves once P1 starts a turn without a Super Sale Banner standing.
    run(g, "2 flick 1", "2 result 1 hit=S2", "1 accept")
    run(g, "2 done")
    events = [e.kind for e in g.apply(0, "flick 0") or []]
    assert g.side(0)["customers"] == [] and g.floor["supply"] == 4
    assert g.turn == 7 and events == ["declare"]


def test_customer_count_in_a_report():
    g = new_game()
    g.side(1)["customers"] = ["C1", "C3"]
    g.side(0)["customers"] = ["C2"]
    g.floor["supply"] = 1
    run(g, "1 flick 1")
    err = unchanged_after(g, 0, "result 3 customers=1", AmbiguousMoveError)
    assert "P2:C1" in str(err)
    unchanged_after(g, 0, "result 3 customers=4", IllegalMoveError)
    run(g, "1 result 3 hit=C1,C3 customers=1", "2 accept")
    assert dmg(g) == [10, 1] and g.floor["supply"] == 4


def test_super_sale_only_after_exactly_one_flick():
    # After two flicks: no new Super Sale Banners.
    g = new_game()
    run(g, "1 flick 2", "1 result 1", "2 accept", "1 result 1", "2 accept")
    assert not any("S2" in m for m in g.legal(0))
    err = unchanged_after(g, 0, "supersale F1", IllegalMoveError)
    assert "exactly 1 die" in str(err)
    run(g, "1 done")
    # After a Bonus Flick (3 dice): none either; after zero flicks: none.
    run(g, "2 flick 3 bonus", "2 result 1", "1 accept", "2 result 1", "1 accept",
        "2 result 1", "1 accept")
    unchanged_after(g, 1, "reposition F1 S2", IllegalMoveError)
    run(g, "2 done", "1 flick 0")
    unchanged_after(g, 0, "supersale F1", IllegalMoveError)
    run(g, "1 done")
    # After exactly one: up to 2, never 3.
    run(g, "2 flick 1", "2 result 1", "1 accept")
    err = unchanged_after(g, 1, "supersale 2", IllegalMoveError)   # no knocked banners
    assert "supersale F1" in str(err)
    run(g, "2 supersale F1", "2 reposition F2 S2")
    assert R.super_sale_up(g.side(1)) == 2
    err = unchanged_after(g, 1, "supersale B2", IllegalMoveError)
    assert "2 Super Sale Banners" in str(err)
    # Taking one down in the same Reposition is not allowed for one put up now...
    unchanged_after(g, 1, "reposition S2 F1", IllegalMoveError)
    run(g, "2 done")
    assert g.view(None)["sides"][1]["super_sale"] == {"up": 2, "down": 0}


def test_reposition_rules():
    g = new_game()
    run(g, "1 flick 1", "1 result 2 hit=P1:F1,P1:B2", "2 accept")
    assert dmg(g) == [5, 1]
    # A banner never goes on an occupied spot.
    err = unchanged_after(g, 0, "reposition F2 B3", IllegalMoveError)
    assert "B3 is taken" in str(err)
    unchanged_after(g, 0, "place F2", IllegalMoveError)
    unchanged_after(g, 0, "reposition F1 F3", IllegalMoveError)   # F1's banner lies knocked
    # All knocked banners must be placed before `done`.
    err = unchanged_after(g, 0, "done", IllegalMoveError)
    assert "2 knocked" in str(err)
    run(g, "1 place F1", "1 reposition F2 F3")
    # Each banner moves once per Reposition.
    unchanged_after(g, 0, "reposition F3 B1", IllegalMoveError)
    unchanged_after(g, 0, "reposition F1 B1", IllegalMoveError)
    run(g, "1 place B1", "1 done")
    assert standing(g, 0) == ["F1", "F3", "B1", "B3"]
    assert g.active == 1


def test_a_fourth_flick_and_extra_reports_are_refused():
    g = new_game()
    run(g, "1 flick 0", "1 done", "2 flick 3 bonus")
    for _ in range(3):
        run(g, "2 result 1", "1 accept")
    assert g.phase == "reposition"
    err = unchanged_after(g, 1, "result 4 hit=F1", IllegalMoveError)
    assert "declared 3 flicks" in str(err)
    unchanged_after(g, 1, "flick 1", IllegalMoveError)


def test_reports_are_checked_against_the_floor():
    g = new_game(b2="F1 F3 B1 B2")
    run(g, "1 flick 1")
    err = unchanged_after(g, 0, "result 4 hit=F2", IllegalMoveError)
    assert "Nothing stands on F2 of Player 2's side" in str(err) and "F1, F3, B1, B2" in str(err)
    unchanged_after(g, 0, "result 7 hit=F1", IllegalMoveError)
    unchanged_after(g, 0, "result 0", IllegalMoveError)
    unchanged_after(g, 0, "result x", InvalidMoveError)
    unchanged_after(g, 0, "result 3 hit=F1,F1", IllegalMoveError)
    unchanged_after(g, 0, "result 3 hit=Q7", InvalidMoveError)
    unchanged_after(g, 0, "result 3 hit=S2", IllegalMoveError)   # no Super Sale Banner there
    unchanged_after(g, 0, "result 3 smashed=F1", InvalidMoveError)
    unchanged_after(g, 0, "called P1:F1", IllegalMoveError)
    unchanged_after(g, 0, "called C1", IllegalMoveError)
    unchanged_after(g, 0, "aim F1", IllegalMoveError)   # physical: report, don't aim
    unchanged_after(g, 0, "juggle", InvalidMoveError)
    unchanged_after(g, 1, "accept", NotYourTurnError)
    # Incremental marks build the same report.
    run(g, "1 called F3", "1 mark F1", "1 mark P1:F2")
    unchanged_after(g, 0, "mark F1", IllegalMoveError)
    unchanged_after(g, 0, "called F1", IllegalMoveError)   # too late to call
    run(g, "1 result 2", "2 accept")
    assert dmg(g) == [5, 3]


# --- disputes and mode switches ------------------------------------------------------------------

def test_dispute_takes_the_flick_back_once():
    g = new_game()
    run(g, "1 flick 2", "1 called F2", "1 result 6 hit=F2")
    assert g.actors() == [1] and sorted(g.legal(1)) == ["accept", "dispute"]
    assert g.timeout_move(1) == "accept" and g.wait_seconds() == 60
    assert g.view(None)["flick"]["report"] == {"value": 6, "off": False, "fell": ["P2:F2"]}
    events = run(g, "2 dispute")
    assert "taken back" in events[0].text
    assert dmg(g) == [1, 1] and "F2" in standing(g, 1) and g.t["resolved"] == 0
    assert g.t["flick"]["called"] == "P2:F2"   # the call stands for the reflick
    # The reflick's report is applied at once: no second dispute.
    run(g, "1 result 2 hit=F1")
    assert g.phase == "flick" and g.actors() == [0]
    assert dmg(g) == [3, 3]
    # The next flick can be disputed again.
    run(g, "1 result 1 hit=B2")
    assert g.phase == "review"
    run(g, "2 accept")
    assert dmg(g) == [3, 4] and g.phase == "reposition"


def test_mode_switch_for_one_flick():
    g = new_game()
    run(g, "1 flick 2", "1 called F1", "1 mode simulated")
    assert g.actors() == [1] and g.legal(1) == ["agree", "refuse"]
    assert g.timeout_move(1) == "refuse" and g.wait_seconds() == 60
    run(g, "2 agree")
    # The Called Shot stays and becomes the simulated target: the referee rolls at once.
    assert g.actors() == [CHANCE] and g.flick_mode() == "simulated"
    assert g.chance().draws[0].label == "flick"
    run(g, "c roll clean 3")
    assert dmg(g) == [1, 7]
    # The next flick is physical again; a refused proposal keeps it physical, once per flick.
    assert g.flick_mode() == "physical"
    run(g, "1 mode simulated", "2 refuse")
    assert g.flick_mode() == "physical"
    unchanged_after(g, 0, "mode simulated", IllegalMoveError)
    unchanged_after(g, 0, "mode physical", IllegalMoveError)
    unchanged_after(g, 0, "mode psychic", InvalidMoveError)
    # A simulated game can switch a flick to physical the same way.
    s = new_game("simulated")
    run(s, "1 flick 1", "1 mode physical", "2 agree", "1 result 5 hit=B3", "2 accept")
    assert dmg(s) == [1, 6]


# --- the end -------------------------------------------------------------------------------------

def test_loss_at_20_in_the_middle_of_a_turn():
    g = new_game()
    g.side(1)["damage"] = 17
    run(g, "1 flick 2", "1 result 3 hit=F2")
    assert g.result is None       # not until accepted
    events = run(g, "2 accept")
    assert events[-1].kind == "game_over"
    assert g.outcome().winners == (0,) and g.actors() == [] and dmg(g) == [1, 20]
    assert g.view(None)["phase"] == "over"
    with pytest.raises(IllegalMoveError):
        g.apply(0, "result 1")


def test_both_at_20_from_one_flick_higher_total_loses():
    g = new_game()
    g.side(0)["damage"] = 18
    g.side(1)["damage"] = 18
    run(g, "1 flick 1", "1 called F2", "1 result 2 hit=F1,P1:F1", "2 accept")
    # P2 +2 -> 20; P1 +2 (own) +2 (missed call) -> 22: the higher total loses.
    assert dmg(g) == [22, 20] and g.outcome().winners == (1,)


def test_both_at_20_equal_totals_the_flicker_loses():
    g = new_game()
    g.side(0)["damage"] = 18
    g.side(1)["damage"] = 16
    run(g, "1 flick 1", "1 result 2 hit=F2,B2,P1:F1", "2 accept")
    assert dmg(g) == [20, 20] and g.outcome().winners == (1,)
    assert "flicker loses" in g.result["reason"]


def test_self_blame_can_lose_alone():
    g = new_game()
    g.side(0)["damage"] = 15
    run(g, "1 flick 1", "1 called F1", "1 result 5", "2 accept")
    assert dmg(g) == [20, 1] and g.outcome().winners == (1,)


def test_turn_limit_ends_the_game():
    from bot.engine.diemen.base import ROUND_LIMIT
    g = new_game()
    for _ in range(2 * ROUND_LIMIT - 1):
        run(g, f"{g.active + 1} flick 0", f"{g.active + 1} done")
    assert g.result is None and g.turn == 2 * ROUND_LIMIT
    g.side(1)["damage"] = 2
    run(g, f"{g.active + 1} flick 0", f"{g.active + 1} done")
    assert g.outcome().winners == (0,) and "30 rounds" in g.result["reason"]
    g = new_game()
    for _ in range(2 * ROUND_LIMIT):
        run(g, f"{g.active + 1} flick 0", f"{g.active + 1} done")
    assert g.outcome().draw


def test_resign_and_timeouts():
    g = DieMen.new(2)
    assert g.timeout_move(0) == "banners F2 B1 B2 B3"
    g.apply(0, g.timeout_move(0))
    g.apply(1, g.timeout_move(1))
    assert g.wait_seconds() == 60 and DieMen.new(2, {"vote_seconds": 90}).options[
        "vote_seconds"] == 90
    g.apply(CHANCE, "roll 1")
    assert g.timeout_move(0) == "flick 0" and g.timeout_move(1) is None
    run(g, "1 flick 1", "1 called F2")
    assert g.timeout_move(0) == "result 1 off"
    g.apply(0, g.timeout_move(0))
    g.apply(1, g.timeout_move(1))
    assert dmg(g) == [2, 1]
    g.apply(0, g.timeout_move(0))
    assert g.active == 1
    events = g.resign(1)
    assert events[0].kind == "game_over" and g.outcome().winners == (0,)


# --- views and records ---------------------------------------------------------------------------

def test_view_keys_and_text():
    g = new_game("simulated")
    run(g, "1 flick 2")
    v = g.view(None)
    for key in ("mode", "flick_mode", "phase", "turn", "round", "active", "sides", "supply",
                "turn_info", "flick", "odds", "last_flicks", "result", "waiting_for"):
        assert key in v
    side = v["sides"][1]
    assert side["spots"] == {"F1": "up", "F2": "up", "F3": None, "B1": None, "B2": "up",
                             "B3": "up"}
    assert side["stand"] == "S2" and side["damage"] == 1 and side["customers"] == []
    assert v["turn_info"]["declared"] == 2 and v["turn_info"]["remaining"] == 2
    assert v["flick"]["number"] == 1 and v["flick"]["mode"] == "simulated"
    assert set(v["odds"]["aim"]) == {"P2:F1", "P2:F2", "P2:F3", "P2:B1", "P2:B2", "P2:B3",
                                     "middle"}
    assert v["odds"]["called"]["P2:F2"]["outcomes"]["clean"] == 33
    run(g, "1 called F2", "c roll pair 4")
    v = g.view(None)
    assert v["flick"]["pending"]["choose"] == "neighbour"
    assert v["flick"]["pending"]["options"] == ["F1", "B2"]
    run(g, "c roll B2")
    last = g.view(None)["last_flicks"][-1]
    assert last["fell"] == ["P2:F2", "P2:B2"] and last["added"] == [0, 12]
    assert last["outcome"] == "pair" and last["to"] == "P2:F2"
    assert g.view(None)["sides"][1]["spots"]["F2"] == "down"
    text = g.text(None)
    assert "Property Damage 13" in text and "F2 DOWN" in text and len(text) < 1500
    roundtrip(g)


def test_json_round_trip_everywhere():
    g = DieMen.new(2)
    roundtrip(g)
    g.apply(0, "banners F1 F2 B2 B3")
    roundtrip(g)
    g.apply(1, "banners F1 F2 B2 B3")
    g.apply(CHANCE, "roll 1")
    for line in ("1 flick 2", "1 called F1", "1 mark F1", "1 result 2", "2 dispute",
                 "1 mode simulated", "2 agree", "c roll neighbour 3"):
        run(g, line)
        roundtrip(g)
    g2 = g.copy()
    assert g2.to_json() == g.to_json() and g2.view(None) == g.view(None)


def test_super_sale_banners_put_up_taken_down_and_targeted():
    g = new_game("simulated", b1="F1 F2 B1 B3")
    run(g, "1 flick 0", "1 done", "2 flick 1", "2 called F1", "c roll pair 2")
    assert g.actors() == [CHANCE] and g.chance().draws[0].options == ("F2", "B1")
    run(g, "c roll F2")
    assert dmg(g) == [7, 1]
    # P2 flicked exactly one die: a Super Sale Banner goes up.
    run(g, "2 supersale F1", "2 done")
    # P1 has F1 and F2 knocked: they stay down through P1's flicks.
    assert g.view(None)["sides"][0]["spots"]["F1"] == "down"
    assert not g.view(None)["sides"][0]["front_standing"]
    run(g, "1 flick 1")
    assert "aim S2" in g.legal(0) and "called S2" in g.legal(0)
    odds = g.view(None)["odds"]["aim"]["P2:S2"]
    assert odds["band"] == "C" and odds["distance"] == 120.0
    run(g, "1 aim S2", "c roll clean 5")
    assert dmg(g) == [7, 6] and g.view(None)["sides"][1]["super_sale"] == {"up": 0, "down": 1}
    # Exactly one flick: both knocked banners may go straight up on the Stand.
    run(g, "1 supersale 2", "1 done")
    assert R.super_sale_up(g.side(0)) == 2
    assert "Your banners" not in g.text(0)
    run(g, "2 flick 0", "2 place F1", "2 done")
    # Next P1 turn: the Stand is locked; taking a Super Sale Banner down is a Reposition move.
    run(g, "1 flick 0", "1 reposition S2 F1")
    assert R.super_sale_up(g.side(0)) == 1 and "F1" in standing(g, 0)
    unchanged_after(g, 0, "reposition S2 F1", IllegalMoveError)   # F1 is taken now
    run(g, "1 reposition S2 F2", "1 done")
    assert R.super_sale_up(g.side(0)) == 0
    # Two Super Sale Banners stood at the start of the turn: two customers come.
    assert g.t["attract"] == 2
    run(g, "1 customer C1", "1 customer C3")
    assert g.side(0)["customers"] == ["C1", "C3"] and g.active == 1
