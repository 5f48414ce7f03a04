"""TradeShowdown — scripted fights for every rule and ruling (rulebook + rulings).

Fights are played through the real moves. Where a rule needs a card already worn down (a
defeat, a draw) the test says "arranged" and sets slashes on the cards before the round starts.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import load
from bot.engine.core import (CHANCE, IllegalMoveError, InvalidMoveError, NotYourTurnError,
                             OptionError, RuleError)
from bot.engine.records import Record, replay
from bot.engine.tradeshowdown import TradeShowdown
from bot.engine.tradeshowdown.cards import SAMPLE_CARDS, fair_digits

RECORDS = Path(__file__).resolve().parents[1] / "records" / "tradeshowdown"

# The base game: every optional special move off (each test turns on what it needs).
BASE = {"multiple_attacks": False, "intimidate": False, "tag_team": False, "combos": False}


def card(name: str, digits: str, zipcode: str = "99999") -> dict[str, str]:
    return {"name": name, "digits": digits, "zip": zipcode}


BLUE = card("Blue Ox Plumbing", "6035551234", "03038")
VIOLET = card("Violet Vase Co.", "2125550194", "10001")


def new(players: int = 2, cards: list[Any] | None = None, **options: Any) -> TradeShowdown:
    opts = {**BASE, **options}
    if cards is not None:
        opts["cards"] = cards
    return TradeShowdown.new(players, opts)


def play(g: TradeShowdown, *moves: tuple[Any, str]) -> list[Any]:
    events = []
    for actor, move in moves:
        events += g.apply(actor, move)
    return events


def texts(events) -> str:
    return "\n".join(e.text for e in events)


def slashes(g: TradeShowdown, seat: int, c: int | None = None) -> list[int]:
    s = g.seats[seat]
    return s["cards"][s["active"] if c is None else c]["slashes"]


def arrange(g: TradeShowdown, seat: int, marks: list[int], c: int = 0) -> None:
    """Arranged: the card already carries these slashes."""
    g.seats[seat]["cards"][c]["slashes"] = list(marks)


def round_trip(g: TradeShowdown) -> None:
    data = g.to_json()
    again = TradeShowdown.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data


# --- options and cards --------------------------------------------------------------------------

def test_defaults_match_the_rulings():
    g = TradeShowdown.new(2)
    o = g.options
    assert o["dice"] == "d4,d4,d6,d6,d8,d8,d10,d10,d10,d10"
    assert (o["fair_length"], o["round_limit"], o["choose_seconds"], o["window_seconds"]) == \
        (10, 30, 120, 60)
    assert all(o[k] for k in ("multiple_attacks", "intimidate", "tag_team", "combos"))
    # Built-in sample cards: two each under Tag Team.
    assert [c["name"] for c in g.seats[0]["cards"]] == [SAMPLE_CARDS[0]["name"],
                                                        SAMPLE_CARDS[1]["name"]]
    assert all(len(c["digits"]) == 10 for s in g.seats for c in s["cards"])
    assert TradeShowdown.MIN_PLAYERS == 2 and TradeShowdown.MAX_PLAYERS == 6
    assert load("tradeshowdown") is TradeShowdown
    for p in range(2, 7):
        round_trip(TradeShowdown.new(p))


def test_fair_length_crops_long_cards_and_repeats_short_ones():
    assert fair_digits("6035551234987", 10) == "6035551234"
    assert fair_digits("123456", 10) == "1234561234"
    g = new(cards=[card("Long", "60355512349876"), card("Short", "123456")])
    assert g.seats[0]["cards"][0]["digits"] == [6, 0, 3, 5, 5, 5, 1, 2, 3, 4]
    assert g.seats[1]["cards"][0]["digits"] == [1, 2, 3, 4, 5, 6, 1, 2, 3, 4]
    g = new(cards=[card("A", "123456789"), None], fair_length=6)
    assert g.seats[0]["cards"][0]["digits"] == [1, 2, 3, 4, 5, 6]
    # null: seat 2's built-in main card (without Tag Team every seat gets a main card)
    assert g.seats[1]["cards"][0]["name"] == SAMPLE_CARDS[2]["name"]


@pytest.mark.parametrize("cards, message", [
    ([card("A", "12345")], "6 to 40 digits"),
    ([card("A", "1" * 41)], "6 to 40 digits"),
    ([card("A", "555-1234")], "only the characters 0-9"),
    ([card("A", "５５５１２３４")], "only the characters 0-9"),
    ([card("A", "5551234", "0303")], "exactly 5 digits"),
    ([card("A", "5551234", "0303a")], "exactly 5 digits"),
    ([card("", "5551234")], "needs a name"),
    ([{"name": "A", "digits": "5551234", "zip": "03038", "phone": "1"}], "unknown field"),
    ([[card("A", "5551234"), card("B", "5551234"), card("C", "5551234")]], "give one card"),
    ([[]], "give one card"),
    ("A", "one entry per player"),
    ([5], "give one card"),
    ([[5]], "a card is"),
])
def test_bad_cards_are_refused_with_a_clear_message(cards, message):
    with pytest.raises(OptionError, match=message):
        new(cards=cards)


def test_card_counts_follow_tag_team_and_seats():
    with pytest.raises(OptionError, match="Tag Team is on, so player 1 needs two cards"):
        new(cards=[BLUE], tag_team=True)
    with pytest.raises(OptionError, match="two cards are for Tag Team"):
        new(cards=[[BLUE, VIOLET]])
    with pytest.raises(OptionError, match="cards for 3 players, but this game has 2"):
        new(cards=[BLUE, VIOLET, BLUE])
    g = new(cards=[[BLUE, VIOLET], None], tag_team=True)
    assert [c["name"] for c in g.seats[0]["cards"]] == ["Blue Ox Plumbing", "Violet Vase Co."]
    assert g.options["cards"][0][0]["digits"] == "6035551234"


def test_dice_supply_option():
    g = new(dice="2xd4, 2xd6, 2xd8, 4xd10")
    assert g.options["dice"] == "d4,d4,d6,d6,d8,d8,d10,d10,d10,d10"
    g = new(dice="d10,d10,d10,d10,d10,d10,d10,d10,d10,d10")
    assert g.legal(0) == [f"dice {' '.join(['d10'] * n)}" for n in range(10, 0, -1)]
    with pytest.raises(OptionError, match="d12 is not allowed"):
        new(dice="d12,d4,d4,d4,d4,d4,d4,d4,d4,d4")
    with pytest.raises(OptionError, match="exactly 10 dice, got 3"):
        new(dice="d4,d6,d8")
    with pytest.raises(OptionError, match="not a die"):
        new(dice="d4,d4,d6,d6,d8,d8,d10,d10,d10,banana")
    with pytest.raises(OptionError, match="Unknown option"):
        new(teleport=True)


# --- step 1: choosing dice -----------------------------------------------------------------------

def test_dice_choices_are_every_multiset_of_the_supply():
    g = new(cards=[BLUE, VIOLET])
    moves = g.legal(0)
    assert len(moves) == 3 * 3 * 3 * 5 - 1 == 134
    assert "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10" in moves and "dice d10" in moves
    assert all(m.startswith("dice ") for m in moves)  # two players: no target, no tag
    assert g.actors() == [0, 1]


def test_dice_choice_in_any_order_and_supply_limits():
    g = new(cards=[BLUE, VIOLET])
    g.apply(0, "dice d10 d4 D6")
    assert g.seats[0]["dice"] == [4, 6, 10]
    before = g.to_json()
    with pytest.raises(IllegalMoveError, match="do not have that many d4"):
        g.apply(1, "dice d4 d4 d4")
    with pytest.raises(IllegalMoveError, match="always the other one"):
        g.apply(1, "dice d4 @1")
    assert g.to_json() == before


def test_the_roll_is_one_chance_event_in_seat_then_size_order():
    g = new(cards=[BLUE, VIOLET])
    play(g, (0, "dice d10 d4"), (1, "dice d8 d6 d10"))
    assert g.actors() == [CHANCE]
    ch = g.chance()
    assert [d.label for d in ch.draws] == ["@1 d4", "@1 d10", "@2 d6", "@2 d8", "@2 d10"]
    assert ch.draws[1].options == tuple("0123456789")  # a d10 shows 0-9
    assert ch.draws[0].options == ("1", "2", "3", "4")
    with pytest.raises(InvalidMoveError, match="cannot be '0'"):
        g.apply(CHANCE, "roll 0 5 1 1 1")
    with pytest.raises(InvalidMoveError, match="needs 5 outcome"):
        g.apply(CHANCE, "roll 1 5 1 1")
    with pytest.raises(InvalidMoveError, match="cannot be '10'"):
        g.apply(CHANCE, "roll 1 10 1 1 1")


# --- the rulebook's worked example ---------------------------------------------------------------

def test_rulebook_example_record_replays_as_the_text_describes():
    data = json.loads((RECORDS / "rulebook_example.json").read_text())
    rec = Record.from_json(data)
    g = replay(rec)
    blue, violet = g.seats[0]["cards"][0], g.seats[1]["cards"][0]
    # Violet slashed a 6 and a 5 on blue; blue slashed a 2 and X'd the 4 on violet.
    assert blue["digits"] == [6, 0, 3, 5, 5, 5, 1, 2, 3, 4]
    assert blue["slashes"] == [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert violet["digits"] == [2, 1, 2, 5, 5, 5, 0, 1, 9, 4]
    assert violet["slashes"] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    assert g.round == 2 and g.phase == "choose" and g.result is None
    again = replay(Record.from_json(json.loads(json.dumps(data))))
    assert again.to_json() == g.to_json()


def test_rulebook_example_step_by_step():
    g = new(cards=[BLUE, VIOLET])
    play(g, (0, "dice d4 d4 d6 d8 d8 d10"), (1, "dice d6 d8 d10 d10"))
    ev = g.apply(CHANCE, "roll 1 4 6 8 8 8 6 6 8 0")
    assert "Player 1 rolls 1 4 6 8 8 8 (depth 6): 3×8." in texts(ev)
    assert "Player 2 rolls 6 6 8 0 (depth 4): 2×6." in texts(ev)
    # Blue: one set of depth 6, width 3, height 8. Violet: depth 4, width 2, height 6.
    assert g.seats[0]["attacks"][0] | {} == {"rolled": 8, "height": 8, "width": 3, "depth": 6,
                                             "clawed": False, "intimidated": 0}
    assert [(e["seat"], e["order"]) for e in g.attacks] == [(1, 4), (0, 6)]
    # Violet (lower depth) strikes first: 2 slashes, digits 6 or lower.
    assert g.actors() == [1]
    v = g.view(None)["pending"]
    facts = {k: v.pop(k) for k in ("moves", "slashable", "best")}
    assert v == {"seat": 1, "stage": "slash", "target": 0, "reach": 6, "slashes_left": 2,
                 "width": 2}
    # Derived by the rules for the screens: the digits in reach, and the best-first slashes.
    assert [d["position"] for d in facts["slashable"]] == list(range(10))
    assert facts["best"] == "slash 6 6" and facts["moves"]["best"] == ["slash 6 6"]
    assert facts["moves"]["slash"][:2] == ["slash 6", "slash 0"]
    assert "slash 8" not in g.legal(1) and "slash 6" in g.legal(1) and "slash 0" in g.legal(1)
    with pytest.raises(IllegalMoveError, match="up to 6"):
        g.apply(1, "slash 8")
    play(g, (1, "slash 6"), (1, "slash 5"))
    # Blue answers: 3 slashes up to 8. A slash on a 2, then X's the 4.
    assert g.actors() == [0] and g.view(None)["pending"]["slashes_left"] == 3
    ev = play(g, (0, "slash 2"), (0, "slash 4 4"))
    assert "(digit 10: 4/ → X)" in texts(ev)
    assert slashes(g, 1) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    assert "slash 4" not in g.legal(0)  # an X'd digit is out of play
    assert g.phase == "choose" and g.round == 2


def test_rulebook_defeat_when_every_digit_is_xd():
    """ "The violet player X'd out all of the blue player's digits, so the blue player is
    defeated. The violet player is victorious!" """
    g = new(cards=[card("Blue", "123456"), card("Violet", "999999")], fair_length=6)
    arrange(g, 0, [2, 2, 2, 2, 1, 1])  # arranged: blue has two slashes left
    play(g, (0, "dice d4 d4 d6 d6 d8"), (1, "dice d6 d6"))
    ev = g.apply(CHANCE, "roll 1 1 1 2 3 6 6")
    play(g, (1, "slash 5"))
    ev = g.apply(1, "slash 6")
    assert "Player 1's Blue is X'd out!" in texts(ev)
    assert "Player 1 is defeated." in texts(ev)
    assert g.outcome().winners == (1,) and g.outcome().reason == "last fighter standing"
    assert g.actors() == [] and g.legal(0) == []  # blue never strikes back
    with pytest.raises(IllegalMoveError, match="over"):
        g.apply(0, "slash 1")


# --- attack rulings ------------------------------------------------------------------------------

def test_equal_depths_strike_together_and_may_fall_together():
    g = new(cards=[card("A", "111111"), card("B", "111111")], fair_length=6)
    arrange(g, 0, [2, 2, 2, 2, 2, 1])
    arrange(g, 1, [2, 2, 2, 2, 2, 1])
    play(g, (0, "dice d4 d4"), (1, "dice d6 d6"), (CHANCE, "roll 1 1 1 1"))
    ev = g.apply(0, "slash 1")
    # B is X'd out, but it is not defeated until depth 2 is over: it still strikes back.
    assert g.result is None and g.actors() == [1]
    ev += g.apply(1, "slash 1")
    assert "A is X'd out" in texts(ev) and "B is X'd out" in texts(ev)
    assert g.outcome().draw and "fell together" in g.outcome().reason


def test_lower_depth_defeats_before_the_other_attacks():
    g = new(cards=[card("A", "111111"), card("B", "111111")], fair_length=6)
    arrange(g, 0, [2, 2, 2, 2, 2, 1])
    arrange(g, 1, [2, 2, 2, 2, 2, 1])
    play(g, (0, "dice d4 d4"), (1, "dice d6 d6 d8"), (CHANCE, "roll 1 1 1 1 5"))
    g.apply(0, "slash 1")
    assert g.outcome().winners == (0,)


def test_slashes_with_no_legal_target_are_lost():
    # Violet's card has nothing up to 1 but its single 1 and 0.
    g = new(cards=[card("Low", "555555"), card("High", "987610")], fair_length=6)
    play(g, (0, "dice d4 d4 d6 d6"), (1, "dice d8 d10 d10 d10 d10"),
         (CHANCE, "roll 1 1 1 1 2 0 4 6 8"))
    # Low: width 4, height 1, depth 4 -> the 1 and the 0 take 2 slashes each, no more.
    assert g.legal(0) == ["slash 0", "slash 1"]
    ev = play(g, (0, "slash 1 1 0"))
    assert g.actors() == [0] and g.legal(0) == ["slash 0"]
    ev = g.apply(0, "slash 0")
    assert slashes(g, 1) == [0, 0, 0, 0, 2, 2]
    # High rolled no set: no attack; the round is over.
    assert g.phase == "choose" and g.round == 2
    # A set whose height reaches nothing loses every slash at once.
    g = new(cards=[card("Low", "555555"), card("High", "987654")], fair_length=6)
    ev = play(g, (0, "dice d4 d4"), (1, "dice d4"), (CHANCE, "roll 2 2 3"))
    assert "no digit up to 2 to slash on High: 2 slashes lost" in texts(ev)
    assert g.round == 2


def test_slash_positions_and_the_least_slashed_rule():
    g = new(cards=[card("A", "999999"), card("B", "161616")], fair_length=6)
    play(g, (0, "dice d6 d6 d8 d8"), (1, "dice d4"), (CHANCE, "roll 6 6 6 6 4"))
    moves = g.legal(0)
    assert moves == ["slash 1", "slash 1#1", "slash 1#2", "slash 1#3",
                     "slash 6", "slash 6#1", "slash 6#2", "slash 6#3"]
    g.apply(0, "slash 6#2")  # the second 6 (digit 4)
    assert slashes(g, 1) == [0, 0, 0, 1, 0, 0]
    g.apply(0, "slash 6")  # least slashed, first on a tie: the first 6 (digit 2)
    assert slashes(g, 1) == [0, 1, 0, 1, 0, 0]
    g.apply(0, "slash 6#2")  # X's digit 4
    assert slashes(g, 1) == [0, 1, 0, 2, 0, 0]
    assert "slash 6#2" not in g.legal(0) and "slash 6#1" in g.legal(0)
    with pytest.raises(IllegalMoveError):
        g.apply(0, "slash 6#4")
    g.apply(0, "slash 1")
    assert slashes(g, 1) == [1, 1, 0, 2, 0, 0]


def test_no_set_no_attack():
    g = new(cards=[BLUE, VIOLET])
    ev = play(g, (0, "dice d4 d6"), (1, "dice d8"), (CHANCE, "roll 1 2 3"))
    assert "has no attack this round" in texts(ev)
    assert g.round == 2 and g.phase == "choose"
    assert all(sum(slashes(g, s)) == 0 for s in (0, 1))


def test_without_multiple_attacks_the_widest_set_then_highest_unless_picked():
    g = new(cards=[BLUE, VIOLET])
    play(g, (0, "dice d4 d4 d6 d6 d8 d8 d10"), (1, "dice d4"),
         (CHANCE, "roll 2 2 3 3 3 7 7 1"))
    # 3×3 is widest; 2×2 and 2×7 tie below it.
    assert g.phase == "window" and g.actors() == [0]
    assert g.legal(0) == ["set 7", "set 2", "done"]
    g.apply(0, "set 7")
    assert g.view(0)["fighters"][0]["plan"]["attacks"][0]["height"] == 7
    with pytest.raises(IllegalMoveError):
        g.apply(0, "set 7")  # already chosen
    play(g, (0, "undo"), (0, "set 2"), (0, "done"))
    assert [(a["height"], a["width"]) for a in g.seats[0]["attacks"]] == [(2, 2)]
    # Ties between equal widths go to the highest.
    g = new(cards=[BLUE, VIOLET])
    play(g, (0, "dice d4 d4 d8 d8"), (1, "dice d4"), (CHANCE, "roll 2 2 7 7 1"))
    assert g.legal(0) == ["set 2", "done"]
    g.apply(0, "done")
    assert g.seats[0]["attacks"][0]["height"] == 7


def test_multiple_attacks_every_set_widest_first_at_the_same_depth():
    g = new(cards=[card("A", "999999"), card("B", "1234567890")], multiple_attacks=True)
    ev = play(g, (0, "dice d4 d4 d6 d6 d8 d8 d10"), (1, "dice d10"),
              (CHANCE, "roll 1 1 5 5 5 7 7 9"))
    assert [(e["kind"], e["height"], e["width"], e["order"]) for e in g.attacks] == \
        [("set", 5, 3, 7), ("set", 7, 2, 7), ("set", 1, 2, 7)]
    assert g.view(None)["pending"]["reach"] == 5
    play(g, (0, "slash 5 4 3"))
    assert g.view(None)["pending"]["reach"] == 7
    play(g, (0, "slash 7 6"))
    assert g.view(None)["pending"]["reach"] == 1
    with pytest.raises(IllegalMoveError, match="only 2 slashes left"):
        g.apply(0, "slash 1 1 0")
    play(g, (0, "slash 1 1"))
    assert slashes(g, 1) == [2, 0, 1, 1, 1, 1, 1, 0, 0, 0]
    assert g.round == 2


# --- three or more players -----------------------------------------------------------------------

def three(**options: Any) -> TradeShowdown:
    return new(3, [card("A", "1234567890"), card("B", "1234567890"), card("C", "1234567890")],
               **options)


def test_targets_are_required_and_secret_until_the_roll():
    g = three()
    assert "target @2" in g.legal(0) and "target @1" not in g.legal(0)
    assert "dice d4 @2" in g.legal(0) and "dice d4" not in g.legal(0)
    with pytest.raises(IllegalMoveError, match="Name your target"):
        g.apply(0, "dice d4 d4")
    with pytest.raises(IllegalMoveError, match="cannot target yourself"):
        g.apply(0, "target @1")
    with pytest.raises(InvalidMoveError, match="not a player"):
        g.apply(0, "target @4")
    ev = g.apply(0, "target @3")
    assert all(e.to == (0,) for e in ev)
    assert "dice d4" in g.legal(0)  # target set: the dice alone will do
    ev = g.apply(0, "dice d4 d4")
    public = [e for e in ev if e.to is None]
    assert public and not any("@3" in e.text or "Player 3" in e.text or "d4" in e.text
                              for e in public)
    for viewer in (None, 1, 2):
        f0 = g.view(viewer)["fighters"][0]
        assert f0["dice"] is None and f0["target"] is None and f0["chosen"] is True
    assert g.view(0)["fighters"][0]["dice"] == [4, 4]
    assert g.view(0)["fighters"][0]["target"] == 2
    ev = play(g, (1, "dice d6 d6 @3"), (2, "dice d8 d8 @1"))
    assert "Player 1 rolls d4 d4 at Player 3" in texts(ev)
    assert g.view(None)["fighters"][0]["target"] == 2


def test_equal_depth_attackers_on_one_target_slash_in_seat_order():
    g = three()
    play(g, (0, "dice d4 d4 @3"), (1, "dice d6 d6 @3"), (2, "dice d8 d8 @1"),
         (CHANCE, "roll 4 4 6 6 8 8"))
    assert [(e["seat"], e["order"]) for e in g.attacks] == [(0, 2), (1, 2), (2, 2)]
    assert g.actors() == [0]
    play(g, (0, "slash 4 4"))
    assert g.actors() == [1]
    assert "slash 4" not in g.legal(1)  # seat 1 slashes the card as seat 0 left it
    play(g, (1, "slash 6 6"), (2, "slash 8 8"))
    assert slashes(g, 2) == [0, 0, 0, 2, 0, 2, 0, 0, 0, 0]


def test_three_players_defeat_redirect_and_the_last_one_standing():
    g = three()
    arrange(g, 2, [2, 2, 2, 2, 2, 2, 2, 2, 1, 2])  # arranged: C has one slash left (a 9)
    play(g, (0, "dice d10 d10 @3"), (1, "dice d6 d6 d8 d8 @3"), (2, "dice d4 @1"))
    ev = g.apply(CHANCE, "roll 9 9 3 3 3 3 1")
    ev = g.apply(0, "slash 9")
    assert "Nothing left to slash up to 9 on C: 1 slash lost." in texts(ev)
    # Seat 0 X'd C at depth 2; C is defeated and seat 1's attack (depth 4) turns on A at once.
    assert "Player 3 is defeated." in texts(ev)
    assert "Player 2's target is down: the attack goes to Player 1." in texts(ev)
    assert g.actors() == [1] and g.view(None)["pending"]["target"] == 0
    play(g, (1, "slash 3 3 2 1"))
    assert g.round == 2 and g.standing() == [0, 1]
    # Two fighters left: targets are automatic again.
    assert "dice d4" in g.legal(0) and not any("@" in m for m in g.legal(0))


def test_redirect_is_chosen_when_several_foes_stand():
    g = new(4, [card(n, "1234567890") for n in "ABCD"])
    arrange(g, 3, [2] * 9 + [1])  # arranged: D has one slash left (a 0)
    play(g, (0, "dice d10 d10 @4"), (1, "dice d6 d6 d8 @4"), (2, "dice d4 @1"),
         (3, "dice d4 @1"), (CHANCE, "roll 0 0 3 3 3 1 2"))
    ev = g.apply(0, "slash 0")
    assert "Player 4 is defeated." in texts(ev)
    assert g.view(None)["pending"]["stage"] == "redirect"
    assert g.legal(1) == ["target @1", "target @3"]
    with pytest.raises(IllegalMoveError, match="cannot be your target"):
        g.apply(1, "target @4")
    with pytest.raises(IllegalMoveError, match="name a new one"):
        g.apply(1, "slash 3")
    ev = g.apply(1, "target @3")
    assert "Player 2 turns on Player 3." in texts(ev)
    play(g, (1, "slash 3 3 2"))
    assert slashes(g, 2) == [0, 1, 2, 0, 0, 0, 0, 0, 0, 0]


def test_resigning_with_three_keeps_the_fight_going():
    g = three()
    play(g, (0, "dice d4 d4 @2"), (1, "dice d6 d6 @1"))
    ev = g.resign(2)
    assert g.result is None and g.standing() == [0, 1] and g.actors() == [CHANCE]
    g.apply(CHANCE, "roll 3 3 5 5")
    assert g.actors() == [0]
    ev = g.resign(1)
    assert g.outcome().winners == (0,) and "resigned" in g.outcome().reason


def test_resigning_target_mid_attack_loses_the_rest_and_a_pending_target_lapses():
    g = three()
    play(g, (0, "dice d4 d4 @3"), (1, "dice d6 d6 @3"), (2, "dice d8 d8 d10 @1"),
         (CHANCE, "roll 4 4 6 6 8 8 1"))
    g.apply(0, "slash 4")
    ev = g.resign(2)
    assert "1 slash of Player 1 lost." in texts(ev)
    # Player 2's attack (same depth) turns on player 1, the only foe left.
    assert "Player 2's target is down: the attack goes to Player 1." in texts(ev)
    play(g, (1, "slash 6 5"))
    assert g.round == 2 and "dice d4" in g.legal(0)
    g = new(3, [card(n, "1234567890") for n in "ABC"])
    g.apply(0, "target @3")
    g.resign(2)
    g.apply(0, "dice d4")  # two left: the lapsed target does not matter
    assert g.seats[0]["dice"] == [4]


# --- Intimidate ----------------------------------------------------------------------------------

def test_intimidate_widens_the_set_and_is_secret_until_revealed():
    g = new(cards=[card("A", "8812345670"), card("B", "8765432109")], intimidate=True)
    play(g, (0, "dice d8 d8 d10 d4"), (1, "dice d4"), (CHANCE, "roll 1 8 8 8 2"))
    assert g.legal(0) == ["intimidate 8", "done"]
    ev = g.apply(0, "intimidate 8 8")
    assert all(e.to == (0,) for e in ev)
    assert g.view(0)["fighters"][0]["plan"]["attacks"][0]["width"] == 5
    # Nobody else sees the plan, nor the self-slashes before the reveal.
    for viewer in (None, 1):
        f0 = g.view(viewer)["fighters"][0]
        assert "plan" not in f0 and f0["cards"][0]["slashes"] == [0] * 10
    ev = g.apply(0, "done")
    assert "intimidates: slashes 8 8 on A (their own side)" in texts(ev)
    assert slashes(g, 0) == [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]  # least slashed first
    assert g.seats[0]["attacks"][0]["width"] == 5
    assert g.view(None)["pending"]["slashes_left"] == 5


def test_intimidate_only_on_set_heights_and_never_to_defeat():
    g = new(cards=[card("A", "888888"), card("B", "123456")], intimidate=True, fair_length=6)
    arrange(g, 0, [2, 2, 2, 2, 1, 0])  # arranged: three slashes left on A
    play(g, (0, "dice d8 d8 d4"), (1, "dice d4"), (CHANCE, "roll 1 8 8 2"))
    with pytest.raises(IllegalMoveError):
        g.apply(0, "intimidate 1")  # 1 is not the height of a set
    g.apply(0, "intimidate 8 8")
    assert g.legal(0) == ["undo", "done"]  # a third would X the last digit: defeat
    with pytest.raises(IllegalMoveError):
        g.apply(0, "intimidate 8")
    g.apply(0, "done")
    assert slashes(g, 0) == [2, 2, 2, 2, 2, 1]


def test_intimidate_is_not_offered_without_the_option_or_a_set():
    g = new(cards=[card("A", "8812345670"), card("B", "8765432109")])
    ev = play(g, (0, "dice d8 d8"), (1, "dice d4"), (CHANCE, "roll 8 8 1"))
    assert g.phase == "attack"  # nothing to decide: no window wait
    g = new(cards=[card("A", "8812345670"), card("B", "8765432109")], intimidate=True)
    play(g, (0, "dice d8 d8"), (1, "dice d4"), (CHANCE, "roll 8 7 1"))
    assert g.round == 2


# --- Tag Team ------------------------------------------------------------------------------------

def tag_cards() -> list[Any]:
    return [[card("A1", "111111"), card("A2", "888888")],
            [card("B1", "111111"), card("B2", "222222")]]


def test_tag_in_is_secret_until_the_roll():
    g = new(cards=tag_cards(), tag_team=True, fair_length=6)
    assert "tag" in g.legal(0)
    ev = g.apply(0, "tag")
    assert [e.to for e in ev] == [(0,)]
    assert g.view(0)["fighters"][0]["tag_pending"] is True
    assert "tag_pending" not in g.view(1)["fighters"][0]
    assert g.view(None)["fighters"][0]["active"] == 0
    play(g, (0, "tag"), (0, "tag"))  # toggles: tag, cancel, tag
    g.apply(0, "dice d4")
    ev = g.apply(1, "dice d4")
    assert "Player 1 tags in A2 (A1 steps out)." in texts(ev)
    assert g.seats[0]["active"] == 1


def test_partner_may_intimidate_for_the_active_fighter():
    g = new(cards=[[card("A1", "111111"), card("A2", "888888")],
                   [card("B1", "123456"), card("B2", "222222")]],
            tag_team=True, intimidate=True, fair_length=6)
    play(g, (0, "dice d8 d8"), (1, "dice d4"), (CHANCE, "roll 8 8 1"))
    assert g.legal(0) == ["intimidate partner 8", "done"]
    play(g, (0, "intimidate partner 8 8"), (0, "done"))
    assert slashes(g, 0, 1) == [1, 1, 0, 0, 0, 0] and slashes(g, 0, 0) == [0] * 6
    assert g.seats[0]["attacks"][0]["width"] == 4


def test_auto_tag_in_on_defeat_and_the_team_falls_with_both_cards():
    g = new(cards=tag_cards(), tag_team=True, fair_length=6)
    arrange(g, 1, [2, 2, 2, 2, 2, 1], 0)  # arranged: B1 has one slash left
    play(g, (0, "dice d4 d4"), (1, "dice d4 d4 d6"), (CHANCE, "roll 1 1 2 2 2"))
    ev = g.apply(0, "slash 1")
    assert "Player 2's B1 is X'd out!" in texts(ev)
    assert "B2 tags in for Player 2 at once." in texts(ev)
    # B1 rolled the dice and is down: the team's attack this round is lost.
    assert "Player 2's B1 is down and does not attack." in texts(ev)
    assert g.seats[1]["active"] == 1 and g.result is None and g.round == 2
    assert "tag" not in g.legal(1)  # nobody left to tag in
    arrange(g, 1, [2, 2, 2, 2, 2, 1], 1)  # arranged: B2 has one slash left too
    play(g, (0, "dice d4 d4"), (1, "dice d4 d4 d6"), (CHANCE, "roll 2 2 1 1 1"))
    ev = g.apply(0, "slash 2")
    assert "Player 2 is defeated." in texts(ev) and g.outcome().winners == (0,)


# --- Combos and the four special attacks ---------------------------------------------------------

def combo_game(foe_digits: str = "1234567890", **options: Any) -> TradeShowdown:
    """Round 1: player 1 (zip 12345) rolls 1 2 3 4 5 - no set, five zip dice - and sets them
    all aside; player 2 rolls a pair of 1s at depth 2 and strikes first."""
    g = new(cards=[card("Zip", "1234567890", "12345"), card("Foe", foe_digits, "67890")],
            combos=True, **options)
    play(g, (0, "dice d6 d6 d10 d10 d10"), (1, "dice d4 d4"), (CHANCE, "roll 1 2 3 4 5 1 1"))
    assert g.actors() == [0]
    assert g.legal(0) == ["combo 1", "combo 2", "combo 3", "combo 4", "combo 5", "done"]
    ev = g.apply(0, "combo 1 2 3 4 5")
    assert g.legal(0) == ["undo", "done"]  # five is the most
    assert g.view(1)["fighters"][0]["combo"] == []  # secret until revealed
    ev = g.apply(0, "done")
    assert "(combo 5/5)" in texts(ev)
    assert g.view(None)["fighters"][0]["supply"] == {"d4": 2, "d6": 0, "d8": 2, "d10": 1}
    assert [(e["seat"], e["kind"], e["order"]) for e in g.attacks] == \
        [(1, "set", 2), (0, "special", 5)]
    g.apply(1, "slash 1 1")
    assert g.view(None)["pending"]["stage"] == "special"
    return g


def test_combo_set_aside_rules():
    g = new(cards=[card("Zip", "1234567890", "12345"), card("Foe", "1234567890")],
            combos=True)
    play(g, (0, "dice d4 d4 d6 d10"), (1, "dice d4"), (CHANCE, "roll 3 3 4 9 1"))
    # The 3s are a set; the 4 matches the zip; the 9 does not.
    assert g.legal(0) == ["combo 4", "done"]
    with pytest.raises(IllegalMoveError):
        g.apply(0, "combo 3")
    play(g, (0, "combo 4"), (0, "done"))
    assert g.seats[0]["combo"] == [{"size": 6, "value": 4}]
    assert g.available(0).count(6) == 1
    play(g, (0, "slash 3 3"))
    # The set-aside die stays out of the supply next round.
    assert "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10" not in g.legal(0)
    assert "dice d4 d4 d6 d8 d8 d10 d10 d10 d10" in g.legal(0)


def test_number_cruncher():
    g = combo_game("1234512345")
    assert "hold" in g.legal(0) and "special number-cruncher" in g.legal(0)
    ev = g.apply(0, "special number-cruncher")
    assert "fires Number Cruncher (zip 12345): 10 slashes" in texts(ev)
    assert slashes(g, 1) == [1] * 10
    assert g.seats[0]["combo"] == [] and g.available(0) == g.supply  # dice return
    assert g.round == 2


def test_snapping_pencil_cripples_a_value_for_every_later_roll():
    g = combo_game()
    ev = g.apply(0, "special snapping pencil 8")
    assert g.seats[1]["crippled"] == [8] and g.seats[0]["combo"] == []
    play(g, (0, "dice d4"), (1, "dice d8 d8 d10 d10"))
    ev = g.apply(CHANCE, "roll 2 8 8 3 3")
    assert g.seats[1]["sets"] == [{"height": 3, "width": 2}]  # the 8s do not count


def test_collating_claw_swaps_dimensions_on_the_next_roll_only():
    g = combo_game()
    g.apply(0, "special collating-claw")
    assert g.view(None)["fighters"][0]["claw_ready"] is True
    play(g, (0, "dice d4 d4 d10 d10 d10 d10"), (1, "dice d4 d4 d6"),
         (CHANCE, "roll 2 2 1 3 5 7 4 4 4"))
    assert "claw 2 height depth" in g.legal(0)
    with pytest.raises(IllegalMoveError):
        g.apply(0, "claw 3 height depth")
    g.apply(0, "claw 2 depth height")  # either order
    ev = g.apply(0, "done")
    assert "Collating Claw swaps height and depth of the 2s" in texts(ev)
    a = g.seats[0]["attacks"][0]
    assert (a["height"], a["width"], a["depth"]) == (6, 2, 2)
    assert [(e["seat"], e["order"]) for e in g.attacks][0] == (0, 2)  # strikes first now
    play(g, (0, "slash 6 5"), (1, "slash 4 4 3"))
    # The round after, the claw is gone.
    play(g, (0, "dice d4 d4"), (1, "dice d4"), (CHANCE, "roll 2 2 1"))
    assert g.view(None)["fighters"][0]["claw_ready"] is False
    assert not any(m.startswith("claw") for m in g.legal(0) or [])


def test_claw_height_above_nine_reaches_every_digit():
    g = combo_game("9999999999")
    g.apply(0, "special collating-claw")
    play(g, (0, "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10"), (1, "dice d4"))
    g.apply(CHANCE, "roll 2 2 1 3 4 5 6 7 8 9 1")
    play(g, (0, "claw 2 height depth"), (0, "done"))
    assert g.view(None)["pending"]["reach"] == 10
    assert g.legal(0) == ["slash 9"] + [f"slash 9#{n}" for n in range(1, 11)]


def test_hot_coffee_spout_doubles_depth_from_the_next_roll():
    g = combo_game()
    ev = g.apply(0, "special hot-coffee-spout")
    assert g.seats[1]["blinded"] is True
    play(g, (0, "dice d4 d4 d6"), (1, "dice d4 d4"), (CHANCE, "roll 1 1 1 2 2"))
    # Player 2 rolled 2 dice but counts as depth 4: player 1 (depth 3) strikes first.
    assert [(e["seat"], e["depth"], e["order"]) for e in g.attacks] == [(0, 3, 3), (1, 2, 4)]


def test_a_full_combo_may_be_held_and_fires_without_a_set():
    g = combo_game()
    g.apply(0, "hold")
    assert len(g.seats[0]["combo"]) == 5 and g.round == 2
    play(g, (0, "dice d4"), (1, "dice d4 d4"), (CHANCE, "roll 3 1 1"))
    # No set for player 1, yet its special comes at depth 1 before player 2's depth 2.
    pending = g.view(None)["pending"]
    moves = pending.pop("moves")
    assert pending == {"seat": 0, "stage": "special", "target": 1,
                       "reach": None, "slashes_left": 0, "width": 0}
    assert moves["hold"] == ["hold"] and len(moves["pencil"]) == 10
    with pytest.raises(IllegalMoveError, match="fire a special attack or `hold`"):
        g.apply(0, "slash 1")
    with pytest.raises(InvalidMoveError, match="Name a special attack"):
        g.apply(0, "special teleport")


def test_specials_stick_to_the_team_under_tag_team():
    g = new(cards=[[card("Zip", "1234567890", "12345"), card("Zip2", "1234567890", "12345")],
                   [card("Foe", "1234567890"), card("Foe2", "1234567890")]],
            combos=True, tag_team=True)
    play(g, (0, "dice d6 d6 d10 d10 d10"), (1, "dice d4 d4"), (CHANCE, "roll 1 2 3 4 5 1 1"),
         (0, "combo 1 2 3 4 5"), (0, "done"), (1, "slash 1 1"),
         (0, "special snapping-pencil 3"))
    play(g, (0, "dice d4"), (1, "tag"), (1, "dice d4 d4"))
    g.apply(CHANCE, "roll 1 3 3")
    assert g.seats[1]["active"] == 1 and g.seats[1]["sets"] == []


# --- the judges' decision -----------------------------------------------------------------------

def test_judges_decide_at_the_round_limit():
    g = new(cards=[BLUE, VIOLET], round_limit=1)
    play(g, (0, "dice d4 d4"), (1, "dice d4"), (CHANCE, "roll 1 1 2"))
    ev = g.apply(0, "slash 1 1")
    assert g.outcome().winners == (0,)
    assert "judges' decision after round 1" in g.outcome().reason


def test_judges_tie_is_a_draw():
    g = new(cards=[BLUE, VIOLET], round_limit=2)
    play(g, (0, "dice d4"), (1, "dice d4"), (CHANCE, "roll 1 2"))
    assert g.round == 2 and g.result is None
    play(g, (0, "dice d4"), (1, "dice d4"), (CHANCE, "roll 1 2"))
    assert g.outcome().draw and "tied for the fewest" in g.outcome().reason


# --- bad input, secrets, serialisation, timers --------------------------------------------------

def test_bad_input_errors_and_state_unchanged():
    g = new(cards=[BLUE, VIOLET])
    before = g.to_json()
    for move, err in [("fly", InvalidMoveError), ("dice d7", InvalidMoveError),
                      ("roll 1 2", InvalidMoveError),
                      ("dice", InvalidMoveError), ("target 2", InvalidMoveError),
                      ("slash x", InvalidMoveError), ("claw 8 height height", InvalidMoveError),
                      ("intimidate", InvalidMoveError), ("tag now", InvalidMoveError),
                      ("slash 6", IllegalMoveError), ("done", IllegalMoveError),
                      ("tag", IllegalMoveError), ("dice d8 d8 d8", IllegalMoveError)]:
        with pytest.raises(err) as info:
            g.apply(0, move)
        assert info.value.message and "Traceback" not in info.value.message
        assert g.to_json() == before
    with pytest.raises(NotYourTurnError):
        g.apply(CHANCE, "roll 1")
    play(g, (0, "dice d4 d4 d6 d8 d8 d10"), (1, "dice d6 d8 d10 d10"))
    with pytest.raises(NotYourTurnError, match="waiting for a roll"):
        g.apply(0, "dice d4")
    g.apply(CHANCE, "roll 1 4 6 8 8 8 6 6 8 0")
    with pytest.raises(NotYourTurnError, match="waiting for Player 2"):
        g.apply(0, "slash 2")
    before = g.to_json()
    with pytest.raises(IllegalMoveError, match="only 2 slashes left"):
        g.apply(1, "slash 6 5 4")  # the first two steps are taken back too
    with pytest.raises(IllegalMoveError, match="Now: `slash"):
        g.apply(1, "slash 9")
    with pytest.raises(IllegalMoveError, match="It is your attack"):
        g.apply(1, "done")
    assert g.to_json() == before
    with pytest.raises(RuleError):
        g.apply(1, "")


def test_secrets_absent_from_other_views_and_public_events():
    g = new(3, [card("A", "8812345670", "12345"), card("B", "1234567890"),
                card("C", "1234567890")], intimidate=True, combos=True)
    ev = play(g, (0, "target @2"), (0, "dice d8 d8 d4 d4"))
    for e in ev:
        if e.to is None:
            assert "@2" not in e.text and "d8" not in e.text and "Player 2" not in e.text
    other = json.dumps(g.view(1)) + json.dumps(g.view(None)) + g.text(1) + g.text(None)
    assert '"dice": [4, 4, 8, 8]' not in other and '"target": 1' not in other
    assert json.dumps(g.view(0)).count('"dice": [4, 4, 8, 8]') == 1
    play(g, (1, "dice d4 @1"), (2, "dice d4 @1"), (CHANCE, "roll 1 2 8 8 3 4"))
    ev = g.apply(0, "intimidate 8")
    ev += g.apply(0, "combo 1")
    assert all(e.to == (0,) for e in ev)
    for viewer in (None, 1, 2):
        f0 = g.view(viewer)["fighters"][0]
        assert "plan" not in f0 and f0["combo"] == [] and f0["cards"][0]["slashes"] == [0] * 10
    assert g.view(0)["fighters"][0]["plan"]["aside"] == [0]


def test_json_round_trip_in_every_phase():
    g = new(3, None, multiple_attacks=True, intimidate=True, combos=True, tag_team=True)
    round_trip(g)
    play(g, (0, "tag"), (0, "target @2"))
    round_trip(g)
    play(g, (0, "dice d4 d4 d6"), (1, "dice d4 d4 @1"), (2, "dice d4 @1"))
    round_trip(g)
    g.apply(CHANCE, "roll 1 1 2 3 3 4")
    round_trip(g)
    assert TradeShowdown.from_json(g.to_json()).view(0) == g.view(0)


def test_timeouts_and_waits():
    g = new(3, [card("A", "1234567890"), card("B", "1234567890"), card("C", "1234567890")],
            intimidate=True)
    assert g.wait_seconds() == 120
    assert g.timeout_move(0) == "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10 @2"
    assert g.timeout_move(2) == "dice d4 d4 d6 d6 d8 d8 d10 d10 d10 d10 @1"
    play(g, (0, "dice d4 d4 @3"), (1, "dice d4 d4 @3"), (2, g.timeout_move(2)))
    assert g.timeout_move(0) is None
    g.apply(CHANCE, "roll 2 2 1 1 " + "1 2 3 4 5 6 7 8 9 0")
    assert g.wait_seconds() == 60 and g.timeout_move(0) == "done"
    play(g, (0, "done"), (1, "done"))
    assert g.wait_seconds() is None
    assert g.timeout_move(0) == "slash 2"
    play(g, (0, g.timeout_move(0)), (0, g.timeout_move(0)), (1, "slash 1 1"))
    # Next round: the last choice, at the last target.
    assert g.timeout_move(0) == "dice d4 d4 @3"


def test_timeout_falls_back_to_the_whole_supply_when_dice_are_set_aside():
    g = combo_game()
    g.apply(0, "hold")
    assert g.timeout_move(0) == "dice d4 d4 d8 d8 d10"


def test_text_board_is_short_and_readable():
    g = TradeShowdown.new(6)
    assert len(g.text(None)) < 1500 and "round 1 of 30" in g.text(None)
    g = new(cards=[BLUE, VIOLET])
    play(g, (0, "dice d4 d4 d6 d8 d8 d10"), (1, "dice d6 d8 d10 d10"),
         (CHANCE, "roll 1 4 6 8 8 8 6 6 8 0"), (1, "slash 6"))
    t = g.text(None)
    assert "Player 1 — Blue Ox Plumbing: 6/ 0 3 5 5 5 1 2 3 4" in t
    assert "Now: Player 2 slashes Player 1's card — 1 slash left, on digits up to 6" in t


def test_roll_with_die_sizes_is_the_players_dice_choice():
    """`roll d4 d4 d6 d10` (the spelling the issue uses) chooses dice like `dice ...`."""
    a, b = TradeShowdown.new(2), TradeShowdown.new(2)
    a.apply(0, "roll d4 d4 d6 d10")
    b.apply(0, "dice d4 d4 d6 d10")
    assert a.to_json() == b.to_json()
    with pytest.raises(InvalidMoveError, match="referee's dice roll"):
        a.apply(1, "roll 1 2 3")
