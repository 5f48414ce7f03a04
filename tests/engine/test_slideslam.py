"""Slide and Slam: Dice Is Not Bend! — scripted games for every rule and ruling.

Positions are reached through the real moves (placement, confirm, the first-player draw, slides).
Where placement alone cannot reach a rule (a die walled in, dice already lost) the test says
"arranged" and moves dice between the confirms and the draw, before the first turn begins.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.core import (CHANCE, Ending, AmbiguousMoveError, IllegalMoveError, InvalidMoveError,
                             NotYourTurnError, OptionError)
from bot.engine.records import Record
from bot.engine.slideslam import SlideSlam

NAMES = ("Ada", "Bo")

INVOCATION = ("My Dice resonate with the fire in my heart! Its burning beat is razor sharp! "
              "Final Form! DICE AWAKENING!")

# With the default values 6,5,4,3,2,1 the letters go by value: A=6 B=5 C=4 D=3 E=2 F=1 for
# player 1, U=6 V=5 W=4 X=3 Y=2 Z=1 for player 2.
P1_BACK = "a1=6 b1=5 c1=4 d1=3 e1=2 f1=1"
P2_BACK = "a8=6 b8=5 c8=4 d8=3 e8=2 f8=1"


# --- helpers (also used by test_slideslam_play.py) ------------------------------------------

class Script:
    """A game plus the record of every move made through it."""

    def __init__(self, options: dict[str, Any] | None = None):
        self.game = SlideSlam.new(2, options, names=NAMES)
        self.record = Record("slideslam", self.game.options, list(NAMES))

    def __call__(self, actor, move: str):
        events = self.game.apply(actor, move)
        self.record.add(actor, move)
        self.record.result = self.game.result
        return events


def start(p1: str = P1_BACK, p2: str = P2_BACK, first: int = 1, *,
          arrange: dict[str, str] | None = None, remove: tuple[str, ...] = (),
          **options: Any) -> Script:
    """Both players place, confirm, and the draw names `first` (1 or 2). `arrange` (letter ->
    square) and `remove` set up an arranged position before the first turn begins."""
    s = Script(options)
    s(0, "place " + p1)
    s(1, "place " + p2)
    s(0, "confirm")
    s(1, "confirm")
    g = s.game
    for k, sq in (arrange or {}).items():
        g.dice[k]["square"] = sq
    for k in remove:
        del g.dice[k]
        g.removed.append(k)
    s(CHANCE, f"roll {first}")
    return s


def health(g: SlideSlam, letter: str) -> int | None:
    d = g.dice.get(letter)
    return None if d is None else d["health"]


def reach(g: SlideSlam, square: str) -> set[str]:
    return {m.split()[2] for m in g.legal(g.current) if m.startswith(f"slide {square} ")}


def round_trip(g: SlideSlam) -> None:
    again = SlideSlam.from_json(json.loads(json.dumps(g.to_json())))
    assert again.to_json() == g.to_json()


def refused(g: SlideSlam, actor, move: str, error=IllegalMoveError) -> str:
    """The move is refused with `error`, and the state is exactly as before."""
    before = json.dumps(g.to_json())
    with pytest.raises(error) as e:
        g.apply(actor, move)
    assert json.dumps(g.to_json()) == before
    return str(e.value)


# --- options --------------------------------------------------------------------------------

def test_default_options_are_the_rulings():
    g = SlideSlam.new()
    assert g.options == {"columns": 6, "rows": 8, "starting_values": "6,5,4,3,2,1",
                         "response_window": 60, "first_player": "argue", "vote_seconds": 60,
                         "stalemate_turns": 20, "stun": True}
    assert (g.columns, g.rows) == (6, 8)


@pytest.mark.parametrize("bad", [
    {"columns": 4}, {"columns": 10}, {"rows": 7}, {"rows": 12}, {"rows": 4},
    {"stalemate_turns": 5}, {"stalemate_turns": 201}, {"starting_values": "6,5,4,3,2"},
    {"starting_values": "7,5,4,3,2,1"}, {"starting_values": "a,b,c,d,e,f"},
    {"first_player": "coin"}, {"stun": "maybe"}, {"colour": "red"}])
def test_bad_options_refused(bad):
    with pytest.raises(OptionError):
        SlideSlam.new(2, bad)


def test_option_variants_accepted():
    g = SlideSlam.new(2, {"columns": 9, "rows": 10, "starting_values": "6, 6, 6, 1, 1, 1",
                          "stalemate_turns": 0, "stun": "on", "first_player": "random"})
    assert [g.dice[k]["start"] for k in "ABCDEF"] == [6, 6, 6, 1, 1, 1]
    assert g.options["stun"] is True
    assert "place i5=6" in g.legal(0) and "place i6=6" not in g.legal(0)
    assert "place i6=1" in g.legal(1)


# --- the Wall of Unknowing (secret placement) ------------------------------------------------

def test_placement_is_secret_incremental_and_checked():
    g = SlideSlam.new()
    assert sorted(g.actors()) == [0, 1]
    legal = g.legal(0)
    assert len(legal) == 24 * 6 and "confirm" not in legal and "place a1=6" in legal
    assert "place a5=6" not in legal
    ev = g.apply(0, "place a1=6 b2=5")
    assert all(e.to == (0,) for e in ev)
    assert g.dice["A"]["square"] == "a1" and g.dice["B"]["square"] == "b2"
    # nobody else sees it: not the opponent, not the public, not the text board
    for who in (1, None):
        v = g.view(who)
        assert v["dice"] == [] and v["placement"]["mine"] in (None, {})
        assert "a1" not in json.dumps(v["dice"]) and "A6" not in g.text(who)
    assert g.view(0)["placement"]["mine"] == {"a1": 6, "b2": 5}
    assert g.view(0)["placement"]["unplaced"] == [4, 3, 2, 1]
    assert "A6" in g.text(0)
    assert "your half: you place on rows 1–4" in refused(g, 0, "place a5=4")
    assert "already stands on a1" in refused(g, 0, "place a1=4")
    assert "unplaced: 4, 3, 2, 1" in refused(g, 0, "place c1=6")
    assert "still to place: 4, 3, 2, 1" in refused(g, 0, "confirm")
    refused(g, 0, "place c1=4 c1=3")          # all or nothing: c1 stays empty
    assert g.dice["C"]["square"] is None
    g.apply(0, "unplace b2")
    assert g.dice["B"]["square"] is None
    g.apply(0, "place b2=5")
    g.apply(0, "unplace B")                   # by letter too
    assert "not placed a die on c3; your placed dice stand on: a1" in refused(g, 0, "unplace c3")
    assert "not placed die U" in refused(g, 0, "unplace U")
    g.apply(0, "place b1=5 c1=4 d1=3 e1=2 f1=1")
    assert sorted(g.legal(0)) == sorted(["confirm"] + [f"unplace {c}1" for c in "abcdef"])
    ev = g.apply(0, "confirm")
    assert ev[0].public and "a1" not in ev[0].text and not ev[0].data.get("dice")
    assert g.actors() == [1]
    with pytest.raises(NotYourTurnError):
        g.apply(0, "unplace a1")
    assert g.view(None)["placement"]["confirmed"] == [True, False]
    assert g.view(1)["dice"] == []
    # player 2's own half is the top half
    assert "rows 5–8" in refused(g, 1, "place a4=6")
    g.apply(1, "place " + P2_BACK)
    ev = g.apply(1, "confirm")
    assert ev[-1].kind == "wall_down" and len(ev[-1].data["dice"]) == 12
    assert len(g.view(None)["dice"]) == 12 and g.phase == "first_player"


def test_letters_follow_value_order_also_with_repeated_values():
    s = start(P1_BACK, P2_BACK)
    g = s.game
    assert [(k, g.dice[k]["start"], g.dice[k]["square"]) for k in "ABCDEF"] == [
        ("A", 6, "a1"), ("B", 5, "b1"), ("C", 4, "c1"), ("D", 3, "d1"), ("E", 2, "e1"),
        ("F", 1, "f1")]
    assert [g.dice[k]["start"] for k in "UVWXYZ"] == [6, 5, 4, 3, 2, 1]
    g = SlideSlam.new(2, {"starting_values": "1,5,5,6,6,2"})
    g.apply(0, "place c1=5")
    g.apply(0, "place d1=5")
    g.apply(0, "place a1=1")
    assert (g.dice["C"]["square"], g.dice["D"]["square"], g.dice["F"]["square"]) == (
        "c1", "d1", "a1")
    assert sorted({int(m.split("=")[1]) for m in g.legal(0) if m.startswith("place")}) == [2, 6]


@pytest.mark.parametrize("mode,how", [("argue", "crowd vote"), ("random", "random")])
def test_first_player_is_a_chance_draw_after_both_confirm(mode, how):
    g = SlideSlam.new(2, {"first_player": mode})
    g.apply(0, "place " + P1_BACK)
    g.apply(1, "place " + P2_BACK)
    g.apply(0, "confirm")
    assert g.chance() is None
    g.apply(1, "confirm")
    assert g.actors() == [CHANCE]
    ch = g.chance()
    assert [d.label for d in ch.draws] == ["first player"]
    assert ch.draws[0].options == ("1", "2") and how in ch.reason
    with pytest.raises(InvalidMoveError):
        g.apply(CHANCE, "roll 3")
    ev = g.apply(CHANCE, "roll 2")
    assert g.first_player == 1 and g.current == 1 and g.turn == 1 and g.phase == "slide"
    assert ev[0].text == "Player 2 goes first."  # no names given: the table's defaults
    assert g.actors() == [1]


# --- slide ------------------------------------------------------------------------------------

def test_rulebook_slide_examples():
    g = start().game
    # a die at 2 health moves up to 2 spaces (here d1 and f1 hold dice: around, never through)
    assert reach(g, "e1") == {"e2", "e3", "d2", "f2"}
    # a die at 6 health moves up to 6, across the middle line (a7 is 6 steps; a8 holds a die)
    assert "a7" in reach(g, "a1") and "a8" not in reach(g, "a1")
    # 5 health: up 2, then right 3 (5 steps); one more is too far
    assert "e3" in reach(g, "b1") and "f3" not in reach(g, "b1")
    assert "at most 5 step(s)" in refused(g, 0, "slide b1 f3")
    ev = g.apply(0, "slide b1 e3")
    assert g.dice["B"]["square"] == "e3" and g.phase == "slam"
    assert ev[0].text == "Ada slides die B from b1 to e3 (5 steps)."
    path = g.view(None)["last_slide"]["path"]
    assert path[0] == "b1" and path[-1] == "e3" and len(path) == 6


def test_slide_blocked_and_around_corners():
    # D (3) on a1, walled by its own A on b1 and B on a3.
    s = start("a1=3 b1=6 a3=5 c1=4 e1=2 f1=1")
    g = s.game
    assert reach(g, "a1") == {"a2", "b2", "c2", "b3"}    # c2 and b3 only around the corner
    assert "b1 holds a die" in refused(g, 0, "slide a1 b1")
    assert "never through a die" in refused(g, 0, "slide a1 a4")
    assert "different square" in refused(g, 0, "slide a1 a1")
    assert "Die U is not yours" in refused(g, 0, "slide U a7")
    assert "no die on c5" in refused(g, 0, "slide c5 c4")
    s(0, "slide a1 c2")
    assert g.view(None)["last_slide"]["path"] == ["a1", "a2", "b2", "c2"]


def test_slide_is_mandatory_and_comes_first():
    g = start().game
    assert "Slide first" in refused(g, 0, "slam a1")
    assert "Slide first" in refused(g, 0, "end")
    assert all(m.startswith("slide ") for m in g.legal(0))
    g.apply(0, "slide a1 a2")
    assert "cannot slide now" in refused(g, 0, "slide a2 a3")
    assert "end" in g.legal(0)


def test_slide_skipped_when_no_die_can_move():
    # Arranged: player 2 keeps Y (e8) and Z (f8), walled in by A (d8), B (e7), C (f7).
    s = start(arrange={"A": "d8", "B": "e7", "C": "f7"}, remove=("U", "V", "W", "X"))
    g = s.game
    s(0, "slide d1 d2")
    ev = s(0, "end")
    assert [e.kind for e in ev] == ["end", "turn", "slide_skipped"]
    assert "None of Bo's dice can move: the slide is skipped." in ev[-1].text
    assert g.phase == "slam" and g.slide_skipped and g.current == 1
    assert not any(m.startswith("slide") for m in g.legal(1))
    assert "None of your dice can move" in refused(g, 1, "slide e8 e7")
    # nothing has happened yet this turn, so with 2 dice player 2 may still awaken
    assert f"awaken e8 {INVOCATION}" in g.legal(1)
    assert {"slam e8", "slam f8", "end"} <= set(g.legal(1))


def test_shorthand_slide_by_letter_and_by_destination():
    g = start().game
    with pytest.raises(AmbiguousMoveError) as e:
        g.apply(0, "slide b2")                 # A (a1) and B (b1) and C (c1) reach b2
    assert "`slide a1 b2` (die A)" in str(e.value)
    g.apply(0, "slide c d3")                   # die C by its letter
    assert g.dice["C"]["square"] == "d3"


# --- slam ---------------------------------------------------------------------------------

def test_normal_slam_with_response_window_and_pass():
    s = start("a1=6 b4=5 c4=4 d1=3 e1=2 f1=1", "a8=6 b8=5 c5=4 d8=3 e8=2 f8=1")
    g = s.game
    s(0, "slide a1 a2")
    ev = s(0, "slam c4")
    assert ev[0].kind == "response_window"
    assert g.phase == "response" and g.actors() == [1]
    assert g.legal(1) == ["bend c5", "pass"] and g.legal(0) == []
    assert g.wait_seconds() == 60 and g.timeout_move(1) == "pass"
    v = g.view(None)
    assert v["pending"]["targets"] == [{"die": "W", "square": "c5", "health": 4, "after": 3}]
    assert v["pending"]["area"] == ["c5", "d4", "c3", "b4"] and not v["pending"]["super"]
    with pytest.raises(NotYourTurnError):
        g.apply(0, "end")
    ev = s(1, "pass")
    assert ev[1].text == "Die C at c4 slams (1 damage): W at c5 loses 1 (4 → 3)."
    assert health(g, "W") == 3 and health(g, "B") == 5       # own die B (b4) never damaged
    assert g.current == 1 and g.turn == 2 and g.phase == "slide"
    assert g.tokens_used == [False, False]
    assert g.view(None)["last_slam"]["area"] == ["c5", "d4", "c3", "b4"]
    assert g.timeout_move(1) is None and g.wait_seconds() is None


SUPER_P1 = "a1=6 b1=5 c4=4 f4=3 c2=2 c1=1"      # A a1, B b1, C c4, D f4, E c2, F c1
SUPER_P2 = "a8=6 b8=5 c6=4 d8=3 e5=2 c5=1"      # U a8, V b8, W c6, X d8, Y e5, Z c5


def super_setup(**options) -> Script:
    s = start(SUPER_P1, SUPER_P2, **options)
    s(0, "slide f4 f5")        # D crosses the middle line into row 5
    s(0, "end")
    s(1, "slide a8 a7")
    return s


def test_super_slam_crosses_the_board_and_nothing_shields():
    s = super_setup()
    g = s.game
    s(1, "slam c5")
    p = g.view(None)["pending"]
    assert p["super"] and p["damage"] == 2
    assert p["area"] == ["c6", "c7", "c8", "d5", "e5", "f5", "c4", "c3", "c2", "c1", "b5", "a5"]
    assert [t["die"] for t in p["targets"]] == ["D", "C", "E", "F"]
    ev = s(0, "pass")
    assert ev[1].text == ("Die Z at c5 Super Slams (2 damage): "
                          "D at f5 loses 2 (3 → 1), stunned; "
                          "C at c4 loses 2 (4 → 2); E at c2 is destroyed (2 → 0); "
                          "F at c1 is destroyed (1 → 0).")
    # C on c4 did not shield E and F behind it; P2's own Y (e5) did not shield D; W untouched
    assert (health(g, "D"), health(g, "C"), health(g, "E"), health(g, "F")) == (1, 2, None, None)
    assert (health(g, "W"), health(g, "Y")) == (4, 2)
    assert g.removed == ["E", "F"]
    assert {d["letter"] for d in g.view(None)["dice"]} == set("ABCD") | set("UVWXYZ")
    assert g.quiet_turns == 0 and g.current == 0


def test_dice_is_not_bend_saves_one_die_and_spends_the_token():
    s = super_setup()
    g = s.game
    s(1, "slam c5")
    assert "not one of your dice this slam would hit" in refused(g, 0, "bend a1")
    ev = s(0, "bend c4")
    assert ev[0].kind == "bend" and "DICE IS NOT BEND!" in ev[0].text
    assert health(g, "C") == 4 and health(g, "D") == 1 and g.removed == ["E", "F"]
    assert g.tokens_used == [True, False]
    hits = {h["die"]: h for h in g.view(None)["last_slam"]["hits"]}
    assert hits["C"]["saved"] and g.view(None)["last_slam"]["bent"] == "C"
    # the token is gone: the next slam against player 1 opens no window
    s(0, "slide a1 a2")
    s(0, "end")
    s(1, "slide a7 a6")
    ev = s(1, "slam c5")
    assert g.phase == "slide" and g.current == 0 and ev[0].kind == "slam"
    assert health(g, "C") == 2 and health(g, "D") is None and g.removed == ["E", "F", "D"]


def test_predict_suppresses_the_window():
    s = super_setup()
    g = s.game
    assert "slam c5 predict" in g.legal(1)
    assert "slam a7 predict" not in g.legal(1) and "slam a7" in g.legal(1)   # hits nothing
    assert "hits none" in refused(g, 1, "slam a7 predict")
    ev = s(1, "slam c5 predict")
    assert ev[0].kind == "predict" and "Now you're going to say" in ev[0].text
    assert g.phase == "slide" and g.current == 0       # no window was opened
    assert g.tokens_used == [False, True]
    assert g.removed == ["E", "F"] and health(g, "C") == 2
    assert "Your die E has been destroyed" in refused(g, 0, "slide E c3")


def test_predict_needs_both_tokens():
    s = super_setup()
    g = s.game
    s(1, "slam c5")
    s(0, "bend c4")                       # player 1's token is spent
    s(0, "slide a1 a2")
    s(0, "end")
    s(1, "slide a7 a6")
    assert "slam c5 predict" not in g.legal(1)
    assert "no Power Token left" in refused(g, 1, "slam c5 predict")
    # and the predicting player's own token must be unspent
    s2 = super_setup()
    s2(1, "slam c5 predict")
    g2 = s2.game
    s2(0, "slide a1 a2")
    s2(0, "end")
    s2(1, "slide a6 a7" if g2.dice["U"]["square"] == "a6" else "slide a7 a6")
    assert "already spent" in refused(g2, 1, "slam c5 predict")


def test_no_window_when_nothing_would_be_damaged():
    s = super_setup()
    g = s.game
    ev = s(1, "slam a7")
    assert [e.kind for e in ev][:2] == ["slam", "turn"]
    assert ev[0].text == "Die U at a7 slams: no enemy die is hit."
    assert g.tokens_used == [False, False] and g.quiet_turns == 2


def test_window_timeout_and_its_length_option():
    s = super_setup(response_window=30)
    g = s.game
    s(1, "slam c5")
    assert g.wait_seconds() == 30 and g.view(None)["pending"]["seconds"] == 30
    move = g.timeout_move(0)
    assert move == "pass"
    assert g.timeout_move(1) is None
    s(0, move)
    assert g.tokens_used == [False, False] and g.removed == ["E", "F"]


def test_opening_first_player_may_not_super_slam_on_the_first_turn():
    s = start()
    g = s.game
    assert g.view(None)["no_super_slam"]
    s(0, "slide a1 a2")
    assert "slam f1" not in g.legal(0) and "slam e1" in g.legal(0)
    assert "may not Super Slam on their first turn" in refused(g, 0, "slam f1")
    s(0, "slam e1")                        # a normal slam is allowed (hits nothing here)
    assert not g.view(None)["no_super_slam"]
    s(1, "slide a8 a7")
    assert "slam f8" in g.legal(1)          # player 2's first turn: Super Slam allowed
    s(1, "end")
    s(0, "slide a2 a3")
    ev = s(0, "slam f1")                    # turn 3: player 1's Super Slam, column f to f8
    assert g.phase == "response" and g.view(None)["pending"]["targets"][0]["die"] == "Z"
    s(1, "pass")
    assert g.removed == ["Z"]


# --- Dice Awakening: Final Form! ----------------------------------------------------------

def awaken_setup() -> Script:
    # Arranged: player 2 has already lost U, V and W.
    s = start(remove=("U", "V", "W"))
    s(0, "slide a1 a2")
    return s


def test_awakening_refused_with_more_than_three_dice():
    s = start()
    g = s.game
    assert not any(m.startswith("awaken") for m in g.legal(0))
    assert "you control 6 dice" in refused(g, 0, f"awaken a1 {INVOCATION}")


def test_awakening_allowed_moves_two_and_super_slams():
    s = awaken_setup()
    g = s.game
    s(0, "end")
    assert g.view(None)["can_awaken"]
    assert [m for m in g.legal(1) if m.startswith("awaken")] == [
        f"awaken {sq} {INVOCATION}" for sq in ("d8", "e8", "f8")]
    msg = refused(g, 1, "awaken d8 Dice awakening!")
    assert INVOCATION in msg
    assert "needs 3 or fewer" not in msg
    refused(g, 1, "awaken d8")
    # case, spacing and punctuation do not matter
    ev = s(1, "awaken d8 my dice resonate with the fire in my heart its burning beat is "
              "razor sharp   FINAL form, dice awakening")
    assert ev[0].kind == "awaken"
    x = g.dice["X"]
    assert x["awakened"] and x["health"] == 1 and x["square"] == "d8"
    assert g.awakened_used == [False, True] and not g.view(None)["can_awaken"]
    assert "already awakened" in refused(g, 1, f"awaken e8 {INVOCATION}")
    assert reach(g, "d8") == {"c8", "b8", "c7", "d7", "d6", "e7"}   # 2 steps, not 1
    assert "at most 2 step(s)" in refused(g, 1, "slide d8 d5")
    s(1, "slide d8 d6")
    assert "X1*" in g.text(None)
    s(1, "slam d6")                           # always a Super Slam: column d down to d1
    p = g.view(None)["pending"]
    assert p["super"] and [t["die"] for t in p["targets"]] == ["D"]
    s(0, "pass")
    assert health(g, "D") == 1
    # once per game: refused again at the start of a later turn
    s(0, "slide a2 a1")
    s(0, "end")
    assert not any(m.startswith("awaken") for m in g.legal(1))
    assert "once per game" in refused(g, 1, f"awaken e8 {INVOCATION}")


def test_awakening_only_at_the_start_of_the_turn():
    s = awaken_setup()
    g = s.game
    s(0, "end")
    s(1, "slide d8 d7")
    assert not any(m.startswith("awaken") for m in g.legal(1))
    assert "only at the very start of your turn" in refused(g, 1, f"awaken d7 {INVOCATION}")
    assert "Die A is not yours" not in refused(g, 1, f"awaken A {INVOCATION}")


def test_awaken_names_your_own_die():
    s = awaken_setup()
    g = s.game
    s(0, "end")
    assert "Die A is not yours" in refused(g, 1, f"awaken A {INVOCATION}")
    assert "no die on c4" in refused(g, 1, f"awaken c4 {INVOCATION}")


# --- stun option ------------------------------------------------------------------------------

STUN_P1 = "a1=6 b1=5 c4=4 d1=3 e1=2 f1=1"
STUN_P2 = "a8=6 b8=5 c8=4 d8=3 c5=2 f8=1"     # Y (2) on c5, facing C (c4)


def test_stun_option_stops_a_die_just_reduced_to_one():
    s = start(STUN_P1, STUN_P2, stun=True)
    g = s.game
    s(0, "slide a1 a2")
    s(0, "slam c4")
    ev = s(1, "pass")
    assert "Y at c5 loses 1 (2 → 1), stunned" in ev[1].text
    assert g.dice["Y"]["stunned"]
    assert "slam c5" not in g.legal(1)
    s(1, "slide a8 a7")
    assert "slam c5" not in g.legal(1)
    assert "stunned" in refused(g, 1, "slam c5")
    s(1, "end")
    assert not g.dice["Y"]["stunned"]          # it sat out its owner's turn
    s(0, "slide a2 a1")
    s(0, "end")
    s(1, "slide a7 a8")
    assert "slam c5" in g.legal(1)
    s(1, "slam c5")                            # now a Super Slam down column c
    s(0, "pass")
    assert health(g, "C") == 2


def test_without_stun_the_reduced_die_slams_at_once():
    s = start(STUN_P1, STUN_P2, stun=False)
    g = s.game
    s(0, "slide a1 a2")
    s(0, "slam c4")
    s(1, "pass")
    assert not g.dice["Y"]["stunned"]
    s(1, "slide a8 a7")
    assert "slam c5" in g.legal(1)


# --- stalemate guard and winning -----------------------------------------------------------

def shuffle_turns(s: Script, n: int) -> None:
    """n turns of sliding the corner die back and forth without slamming."""
    for _ in range(n):
        g = s.game
        p = g.current
        sq = {"a1": "a2", "a2": "a1", "a8": "a7", "a7": "a8", "b8": "b7", "b7": "b8"}
        die = "A" if p == 0 else ("U" if "U" in g.dice else "V")
        src = g.dice[die]["square"]
        s(p, f"slide {src} {sq[src]}")
        s(p, "end")


def test_stalemate_draw_after_ten_quiet_turns():
    s = start(stalemate_turns=10)
    g = s.game
    shuffle_turns(s, 9)
    assert g.result is None and g.quiet_turns == 9
    assert "Turns without damage: 9/10." in g.text(None)
    shuffle_turns(s, 1)
    assert g.result == {"winners": [],
                        "reason": "10 turns in a row without damage; equal dice and equal "
                                  "total health", "ending": Ending.STALEMATE}
    assert g.actors() == [] and g.legal(0) == [] and g.phase == "over"
    with pytest.raises(IllegalMoveError):
        g.apply(0, "end")


def test_stalemate_more_dice_wins():
    s = start(stalemate_turns=10, remove=("U",))   # arranged: player 2 lost U
    shuffle_turns(s, 10)
    assert s.game.result["winners"] == [0]
    assert "more dice left (6 to 5)" in s.game.result["reason"]


def test_stalemate_counter_resets_on_damage_then_higher_health_wins():
    s = start("a1=6 b4=5 c4=4 d1=3 e1=2 f1=1", "a8=6 b8=5 c5=4 d8=3 e8=2 f8=1",
              stalemate_turns=10)
    g = s.game
    s(0, "slide a1 a2")
    s(0, "slam c4")
    s(1, "pass")
    assert g.quiet_turns == 0
    shuffle_turns(s, 9)
    assert g.result is None
    shuffle_turns(s, 1)
    assert g.result["winners"] == [0]
    assert "higher total health (21 to 20)" in g.result["reason"]


def test_stalemate_guard_off():
    s = start(stalemate_turns=0)
    shuffle_turns(s, 40)
    assert s.game.result is None and s.game.quiet_turns == 40
    assert "Turns without damage" not in s.game.text(None)


def test_a_win_when_the_last_enemy_die_is_destroyed():
    # Arranged: player 2 is down to Z (f8, health 1); player 1's C waits on f6.
    s = start(arrange={"C": "f6"}, remove=("U", "V", "W", "X", "Y"))
    g = s.game
    s(0, "slide f6 f7")
    s(0, "slam f7")                            # a normal slam: Z loses 1 (1 → 0)
    ev = s(1, "pass")
    assert ev[-1].kind == "game_over"
    assert g.result == {"winners": [0], "reason": "Bo has no dice left",
                        "ending": Ending.KNOCKOUT}
    assert ev[-1].text == "Winner: Ada (Bo has no dice left)"
    assert g.actors() == [] and g.phase == "over"
    assert "game over, Ada wins" in g.text(None)


def test_bend_can_save_the_last_die():
    s = start(arrange={"C": "f6"}, remove=("U", "V", "W", "X", "Y"))
    g = s.game
    s(0, "slide f6 f7")
    s(0, "slam f7")
    s(1, "bend f8")
    assert g.result is None and health(g, "Z") == 1 and g.quiet_turns == 1


def test_resign():
    s = start()
    ev = s.game.resign(0)
    assert s.game.result == {"winners": [1], "reason": "Ada resigned", "ending": Ending.RESIGN}
    assert ev[0].kind == "game_over"


# --- bad input and errors -----------------------------------------------------------------

@pytest.mark.parametrize("move", [
    "jump a1 a2", "slide", "slide a1 a2 a3", "slide a1 z9", "slide a1 g1", "slam",
    "slam a1 maybe", "slam a9", "place a1", "place a1=x", "end now", "bend", "awaken",
    "slide a1 B"])
def test_unparseable_moves(move):
    g = start().game
    refused(g, 0, move, InvalidMoveError)


def test_error_kinds_and_messages():
    g = start().game
    assert "not a Slide and Slam move" in refused(g, 0, "jump a1", InvalidMoveError)
    assert "not on the board (columns a–f, rows 1–8)" in refused(g, 0, "slide a1 g1",
                                                                InvalidMoveError)
    assert "cannot place dice now" in refused(g, 0, "place a2=6")
    assert "cannot say DICE IS NOT BEND! now" in refused(g, 0, "bend a8")
    assert "cannot pass now" in refused(g, 0, "pass")
    with pytest.raises(NotYourTurnError):
        g.apply(1, "slide a8 a7")
    refused(g, 0, "slide b2", AmbiguousMoveError)


def test_json_round_trip_at_every_stage():
    g = SlideSlam.new()
    round_trip(g)
    g.apply(0, "place a1=6 b1=5")
    round_trip(g)
    s = super_setup()
    round_trip(s.game)
    s(1, "slam c5")
    round_trip(s.game)                          # with a pending response window
    s(0, "bend c4")
    round_trip(s.game)


def test_text_board_is_short_and_readable():
    s = super_setup()
    t = s.game.text(None)
    assert len(t) < 1500
    assert "turn 2, Bo to slam or end the turn." in t
    assert "Player" not in t and "P1" not in t
    assert " 5   .   .  Z1   .  Y2  D3 " in t
    big = SlideSlam.new(2, {"columns": 9, "rows": 10})
    assert len(big.text(0)) < 1500


# --- the engine speaks for its rules (issue #10) ---------------------------------------------

RESPONSE_P1 = "a1=6 b1=5 c4=4 d1=3 e1=2 f1=1"   # C (4) on c4 slides to c5 ...
RESPONSE_P2 = "a8=6 b5=5 c6=4 d5=3 e8=2 f8=1"   # ... next to V b5, W c6, X d5


def test_describe_words_every_kind_of_move():
    g = SlideSlam.new(2, names=NAMES)
    said = g.describe("place c3=4", 0)
    assert said.label == "Place die C (health 4) on c3" and "5 more to place" in said.effect
    g.apply(0, "place " + RESPONSE_P1)
    assert g.describe("unplace c4", 0).label == "Take back die C (health 4) from c4"
    assert "comes down when Bo confirms too" in g.describe("confirm", 0).effect
    g.apply(1, "place " + RESPONSE_P2)
    g.apply(0, "confirm")
    g.apply(1, "confirm")
    g.apply(CHANCE, "roll 1")
    said = g.describe("slide b1 e3", 0)
    assert said.label == "Slide B (5) b1 → e3" and "moves 5 steps" in said.effect
    g.apply(0, "slide c4 c5")
    said = g.describe("slam c5", 0)
    assert said.label == "Slam with C (4) at c5: hits W (4→3), X (3→2) and V (5→4)"
    assert "Bo may answer DICE IS NOT BEND!" in said.effect
    assert "Bo cannot save a die" in g.describe("slam c5 predict", 0).effect
    assert g.describe("slam a1", 0).label == "Slam with A (6) at a1: hits nothing"
    assert "this would be 1 of 20 in a row" in g.describe("end", 0).effect
    g.apply(0, "slam c5")
    said = g.describe("bend d5", 1)
    assert said.label == "DICE IS NOT BEND! Save X at d5 (3→2 avoided)"
    assert "still hit: W (4→3), V (5→4)" in said.effect
    assert "hits W (4→3), X (3→2) and V (5→4)" in g.describe("pass", 1).effect


def test_the_menu_holds_the_choices_the_screens_show():
    s = start(RESPONSE_P1, RESPONSE_P2)
    g = s.game
    assert "choices" not in g.view(None)          # one shape: the menu (issue #21)
    [slides] = g.menu(0).groups
    assert slides.key == "sl" and set(slides.moves()) == set(g.legal(0))
    c5 = next(i for i in slides.items if i.move == "slide c4 c5")
    assert c5.label == "Slide C (4) c4 → c5" and c5.step.startswith("C (4) on c4 — ")
    s(0, "slide c4 c5")
    groups = {grp.key: grp for grp in g.menu(0).groups}
    assert [i.label for i in groups["sm"].items if i.move == "slam c5"] == [
        "Slam with C (4) at c5: hits W (4→3), X (3→2) and V (5→4)"]
    assert groups["pr"].moves() == ["slam c5 predict"]
    assert "slam f1" not in groups["sm"].moves() and groups["end"].moves() == ["end"]
    s(0, "slam c5")
    groups = {grp.key: grp for grp in g.menu(1).groups}
    assert groups["bd"].moves() == ["bend c6", "bend d5", "bend b5"]
    assert groups["pass"].moves() == ["pass"]
    placing = SlideSlam.new(2)
    placing.apply(0, "place a1=6")
    mine = placing.view(0)["placement"]
    assert mine["next_letter"] == {"5": "B", "4": "C", "3": "D", "2": "E", "1": "F"}
    assert "a1" not in mine["free"] and len(mine["free"]) == 23
    assert placing.view(None)["placement"]["free"] is None   # nothing of a seat's half leaks
