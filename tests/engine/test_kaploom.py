"""KAPLOOM!: setup and options, the requirement matcher, the attack/defense formula, bad input,
secrets in Phase 1, views and the JSON round trip. The helpers here are shared by the other
test_kaploom_*.py files.

"Rigged" games replace a seat's starting dice with chosen dice before the first roll (the pool
is left alone, so those tests do not check pool conservation); the roll itself still goes
through the real chance move, which checks every face is on its die.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.core import (CHANCE, AmbiguousMoveError, IllegalMoveError, InvalidMoveError,
                             NotYourTurnError, OptionError)
from bot.engine.kaploom import Kaploom
from bot.engine.kaploom.combat import attack, defense, formula
from bot.engine.kaploom.data import (ACTION_TABLE, ALL_ACTIONS, DUO_TABLE, SUPER_TABLE,
                                     TRAIT_FACES)
from bot.engine.kaploom.dice import new_action, new_pool, new_trait
from bot.engine.kaploom.requirements import SYMBOLS, accepts, combinations, match
from bot.engine.records import Record

HERO, VILLAIN = 0, 1          # default `sides`: seat 1 (@1) is the hero
NATURAL = {"M": "red", "E": "yellow", "T": "purple", "A": "green", "X": "blue", "W": "red",
           "_": "red"}


# --- helpers (shared) --------------------------------------------------------------------------

class Script:
    """A game plus the record of every move made through it. Actors are 0-based seats or
    CHANCE, as in the engine API."""

    def __init__(self, options: dict[str, Any] | None = None, players: int = 2,
                 game: Kaploom | None = None):
        self.game = game or Kaploom.new(players, options)
        self.record: Record | None = Record("kaploom", self.game.options,
                             [f"player {i + 1}" for i in range(self.game.players)])
        self.events: list = []

    def __call__(self, actor, move: str):
        events = self.game.apply(actor, move)
        if self.record is not None:
            self.record.add(actor, move)
            self.record.result = self.game.result
        self.events += events
        return events


def make_die(seat: int, token: str) -> dict[str, Any]:
    """'M' a trait die of the face's colour showing it; 'blue:W' a blue die showing Wild;
    'aW:_' an action die with faces [W] showing blank; 'a:_' a bare action die."""
    faces, _, up = token.rpartition(":") if ":" in token else ("", "", token)
    if faces.startswith("a"):
        die = new_action(seat, list(faces[1:]))
    else:
        die = new_trait(seat, faces or NATURAL[up])
        assert up in TRAIT_FACES[die["colour"]], token
    die["up"] = up
    return die


def rig(dice: dict[int, list[str]], options: dict[str, Any] | None = None,
        players: int = 2, health: dict[int, int] | None = None, roll: bool = True) -> Script:
    """A game in Phase 1 of round 1 where each listed seat rolled exactly these dice (with
    `roll=False`: the same dice, the roll still to come)."""
    g = Kaploom.new(players, options)
    kept = {seat: [g.dice[d] for d in g.dice_of(seat)] for seat in range(players)}
    g.dice = {}
    g.next_die = 1            # dice are numbered d1, d2, ... in seat order, as at setup
    for seat in range(players):
        for die in ([make_die(seat, tok) for tok in dice[seat]] if seat in dice
                    else kept[seat]):
            g._add_die(die)
    for seat, h in (health or {}).items():
        g.seats[seat]["health"] = h
    s = Script(game=g)
    s.record = None  # rigged states cannot be replayed from a record
    if not roll:
        for die in g.dice.values():
            die["up"] = None
        return s
    ups = []
    for draw in g._chance().draws:
        d = draw.label.split()[0]
        up = g.dice[d]["up"] or draw.options[0]
        ups.append(up)
    s.game.apply(CHANCE, "roll " + " ".join(ups))
    return s


def ids(g: Kaploom, seat: int) -> list[str]:
    return g.dice_of(seat)


def lock_all(s: Script) -> None:
    for seat in range(s.game.players):
        if not s.game.seats[seat]["locked"] and s.game.result is None:
            s(seat, "lock")


def until_turn(s: Script, seat: int) -> None:
    """In Power Up, players before `seat` say `done`."""
    g = s.game
    while g.result is None and g.stage == "power" and g.actors() != [seat]:
        s(g.actors()[0], "done")


def finish_power(s: Script) -> None:
    g = s.game
    while g.result is None and g.stage == "power":
        s(g.actors()[0], "done")


def health(g: Kaploom) -> list[int]:
    return [p["health"] for p in g.seats]


def round_trip(g: Kaploom) -> None:
    again = Kaploom.from_json(json.loads(json.dumps(g.to_json())))
    assert again.to_json() == g.to_json()


def refused(g: Kaploom, actor, move: str, error=IllegalMoveError) -> str:
    """The move is refused with `error`, and the state is exactly as before."""
    before = json.dumps(g.to_json())
    with pytest.raises(error) as e:
        g.apply(actor, move)
    assert json.dumps(g.to_json()) == before
    return str(e.value)


def conservation(g: Kaploom) -> None:
    """Every trait die, action die and face is in the pool or with a player."""
    full = new_pool(2 if g.mode == "2v2" else 1)
    for c, n in full["trait"].items():
        owned = sum(1 for d in g.dice.values() if d["kind"] == "trait" and d["colour"] == c)
        assert owned + g.pool["trait"][c] == n and g.pool["trait"][c] >= 0
    owned = sum(1 for d in g.dice.values() if d["kind"] == "action")
    assert owned + g.pool["action"] == full["action"] and g.pool["action"] >= 0
    for f, n in full["faces"].items():
        have = sum(d["faces"].count(f) for d in g.dice.values() if d["kind"] == "action")
        have += sum(p["unattached"].count(f) for p in g.seats)
        assert have + g.pool["faces"][f] == n and g.pool["faces"][f] >= 0, f


# --- setup and options -------------------------------------------------------------------------

def test_setup_follows_the_seed():
    g = Kaploom.new(2)
    assert g.options == {"mode": "duel", "supers": "none", "sides": "hero", "timer": 180}
    hero, villain = g.seats
    assert (hero["side"], villain["side"]) == ("hero", "villain")
    assert health(g) == [30, 30] and hero["max"] == villain["max"] == 30
    assert [g.dice[d]["colour"] for d in ids(g, HERO)] == [
        "blue", "yellow", "purple", "green", "gray"]
    assert [g.dice[d]["colour"] for d in ids(g, VILLAIN)] == [
        "blue", "red", "yellow", "green", "gray"]
    assert g.dice["d5"]["faces"] == ["W"] and g.dice["d10"]["faces"] == ["W"]
    assert g.first == VILLAIN                               # the villain is first player
    # the starting dice and faces came out of the pool
    assert g.pool["action"] == 6 and g.pool["faces"]["W"] == 10
    assert g.pool["trait"] == {"red": 3, "yellow": 2, "blue": 2, "purple": 3, "green": 2}
    conservation(g)
    assert g.actors() == [CHANCE]
    assert len(g.chance().draws) == 10


def test_sides_option_swaps_seats():
    g = Kaploom.new(2, {"sides": "villain"})
    assert [p["side"] for p in g.seats] == ["villain", "hero"]
    assert g.first == 0
    assert g.dice["d2"]["colour"] == "red"


def test_supers_set_health_dice_and_first_player():
    g = Kaploom.new(2, {"supers": "tough nut, victor kane"})
    assert g.options["supers"] == "Tough Nut,Victor Kane"
    assert [p["health"] for p in g.seats] == [34, 32]     # Victor Kane's 32: our ruling
    # Tough Nut's blue die is our balance ruling (the rulings printed yellow)
    assert [g.dice[d]["colour"] for d in ids(g, 0)] == ["purple", "red", "blue", "green",
                                                        "gray"]
    assert [g.dice[d]["colour"] for d in ids(g, 1)] == ["red", "red", "yellow", "blue", "gray"]
    assert g.first == 1                                    # lowest health
    g = Kaploom.new(2, {"supers": "Timeout!,Spoiler Alert!"})
    assert g.dice["d5"]["faces"] == ["X", "W"] or sorted(g.dice["d5"]["faces"]) == ["W", "X"]
    assert health(g) == [30, 32] and g.first == 0           # the hero is lower here
    g = Kaploom.new(2, {"supers": "Timeout!,none"})
    assert health(g) == [30, 30] and g.first == 1          # tie: the villain
    conservation(g)


@pytest.mark.parametrize("options, players, text", [
    ({"supers": "Victor Kane,Tough Nut"}, 2, "Victor Kane is a villain super"),
    ({"supers": "Tough Nut,Victor Kane,none"}, 2, "at most 2 supers, one per seat"),
    ({"supers": "Batman,Victor Kane"}, 2, "not a super"),
    ({"mode": "3v3"}, 2, "one of duel, 2v2"),
    ({"timer": 99999}, 2, "must be from"),
    ({"colour": "red"}, 2, "Unknown option"),
    ({}, 4, "choose mode 2v2"),
    ({"mode": "2v2"}, 2, "for 4 players"),
])
def test_bad_options(options, players, text):
    with pytest.raises(OptionError) as e:
        Kaploom.new(players, options)
    assert text in str(e.value)


def test_2v2_setup_doubles_the_pool():
    g = Kaploom.new(4, {"mode": "2v2", "supers": "Tough Nut,none,Victor Kane,Spoiler Alert!"})
    assert [p["side"] for p in g.seats] == ["hero", "hero", "villain", "villain"]
    assert [p["team"] for p in g.seats] == [0, 0, 1, 1]
    assert g.pool["action"] == 16 - 4 and g.pool["faces"]["W"] == 24 - 4
    assert health(g) == [34, 30, 32, 32]
    assert g.order == [1, 2, 3, 0] and g.first == 1        # by health, lowest first
    conservation(g)


# --- the tables ----------------------------------------------------------------------------------

def test_tables_are_data_with_known_symbols_and_effects():
    effects = {"attack_base", "attack_kicker", "attack_kicker_per_action_die",
               "attack_multiplier", "attack_multiplier_spoilers", "defense_base",
               "defense_kicker", "defense_multiplier", "reroll", "heal_now",
               "punish_die_gain", "punish_face_gain", "gain_trait_die", "gain_action_die",
               "gain_face", "trade_face", "heal", "gain_spoiler", "lock_in",
               "team_attack_kicker", "cover", "hand_off", "revive"}
    assert len(ACTION_TABLE) == 29 and len(SUPER_TABLE) == 12 and len(DUO_TABLE) == 5
    for a in ACTION_TABLE + SUPER_TABLE + DUO_TABLE:
        assert a.effect in effects, a.name
        assert all(sym in SYMBOLS for sym in a.requires), a.name
        assert a.size in (1, 2, 4, 6), a.name     # "ACTIONS REQUIRE ONE, TWO, FOUR, OR SIX DICE"
    assert ALL_ACTIONS["POW"].amount == 3 and ALL_ACTIONS["BLOCK"].amount == 2


# --- requirement symbols --------------------------------------------------------------------------

T, A_ = "trait", "action"


@pytest.mark.parametrize("symbol, dice, ok", [
    ("M", [(T, "M")], True), ("M", [(T, "W")], True), ("M", [(A_, "M")], True),
    ("M", [(T, "E")], False), ("M", [(T, "_")], False),
    ("E", [(T, "E")], True), ("E", [(A_, "W")], True), ("E", [(T, "X")], False),
    ("T", [(T, "T")], True), ("T", [(T, "W")], True), ("T", [(T, "A")], False),
    ("A", [(T, "A")], True), ("A", [(T, "W")], True), ("A", [(T, "T")], False),
    ("X", [(T, "X")], True), ("X", [(T, "W")], True), ("X", [(T, "E")], False),
    ("W", [(T, "W")], True), ("W", [(A_, "W")], True), ("W", [(T, "M")], False),
    ("ANY", [(T, "_")], True), ("ANY", [(A_, "_")], True), ("ANY", [(T, "M")], True),
    ("ACT", [(A_, "_")], True), ("ACT", [(A_, "M")], True), ("ACT", [(T, "M")], False),
    ("ACT+", [(A_, "M")], True), ("ACT+", [(A_, "W")], True), ("ACT+", [(A_, "_")], False),
    ("ACT+", [(T, "M")], False),
    ("PAIR", [(T, "M"), (T, "M")], True), ("PAIR", [(T, "_"), (A_, "_")], True),
    ("PAIR", [(T, "W"), (T, "W")], True), ("PAIR", [(T, "W"), (T, "X")], True),
    ("PAIR", [(T, "W"), (T, "_")], False), ("PAIR", [(T, "M"), (T, "E")], False),
    ("MATCH", [(A_, "M"), (T, "M")], True), ("MATCH", [(A_, "_"), (T, "_")], True),
    ("MATCH", [(A_, "W"), (T, "T")], True), ("MATCH", [(T, "M"), (T, "M")], False),
    ("MATCH", [(A_, "M"), (T, "E")], False),
    ("PAIR-ACT", [(A_, "_"), (A_, "_")], True), ("PAIR-ACT", [(A_, "W"), (A_, "M")], True),
    ("PAIR-ACT", [(A_, "M"), (T, "M")], False), ("PAIR-ACT", [(A_, "M"), (A_, "E")], False),
    ("MATCH+", [(A_, "M"), (T, "M")], True), ("MATCH+", [(A_, "W"), (T, "A")], True),
    ("MATCH+", [(A_, "_"), (T, "_")], False), ("MATCH+", [(T, "M"), (T, "W")], False),
    ("PAIR-ACT+", [(A_, "X"), (A_, "X")], True), ("PAIR-ACT+", [(A_, "W"), (A_, "W")], True),
    ("PAIR-ACT+", [(A_, "W"), (A_, "E")], True), ("PAIR-ACT+", [(A_, "_"), (A_, "_")], False),
    ("PAIR-ACT+", [(A_, "X"), (T, "X")], False),
])
def test_each_symbol_accepts_and_refuses(symbol, dice, ok):
    assert accepts(symbol, dice) is ok
    if len(dice) == 2:
        assert accepts(symbol, list(reversed(dice))) is ok


def test_match_fits_in_any_order_and_says_what_failed():
    fit = match("POW", ("M", "E"), [("d2", T, "E"), ("d4", T, "M")])
    assert fit.ok and fit.roles == ((1,), (0,))
    # the Wild stands in for what is missing, wherever it is named
    assert match("POW", ("M", "E"), [("d2", T, "W"), ("d4", T, "E")]).ok
    fit = match("POW", ("M", "E"), [("d2", T, "E"), ("d4", T, "E")])
    assert not fit.ok
    assert "Nothing fits M" in fit.reason and "d2" in fit.reason or "d4" in fit.reason
    fit = match("POW", ("M", "E"), [("d2", T, "M")])
    assert not fit.ok and "takes 2 dice" in fit.reason and "named 1" in fit.reason
    fit = match("MEGATON", ("PAIR-ACT+", "X", "X"),
                [("d1", A_, "_"), ("d2", A_, "_"), ("d3", T, "X"), ("d4", T, "X")])
    assert not fit.ok and "PAIR-ACT+" in fit.reason
    # BLOCK in the play example: the blank for ANY, the Wild for T
    assert match("BLOCK", ("ANY", "T"), [("d5", A_, "_"), ("d3", T, "W")]).ok
    # a Wild must not be wasted on ANY when it is the only T
    assert match("BLOCK", ("ANY", "T"), [("d3", T, "W"), ("d5", T, "M")]).ok


def test_combinations_list_interchangeable_dice_once():
    classes = (("trait", "M", 3), ("trait", "E", 1), ("trait", "W", 1))
    got = combinations(("M", "E"), classes)
    assert set(got) == {(1, 1, 0), (0, 1, 1), (1, 0, 1)}
    assert combinations(("M", "M", "E", "E"), classes) == ((2, 1, 1),)
    assert combinations(("PAIR",), classes) == ((0, 1, 1), (1, 0, 1), (2, 0, 0))


# --- the formula ---------------------------------------------------------------------------------

def _acts(*names):
    return [ALL_ACTIONS[n] for n in names]


def test_attack_uses_the_higher_base_and_multiplier_and_stacks_kickers():
    c = attack(_acts("JAB", "POW", "WIND-UP", "FOLLOW-THROUGH", "DOUBLE TROUBLE", "MEGATON"),
               action_dice=1, spoilers=0)
    assert c["base"] == {"name": "POW", "value": 3}
    assert c["multiplier"] == {"name": "MEGATON", "value": 3}
    assert c["total"] == (3 + 1 + 1) * 3
    assert formula(c) == "(POW 3 + WIND-UP 1 + FOLLOW-THROUGH 1) × MEGATON 3 = 15"
    assert attack(_acts("WIND-UP", "DOUBLE TROUBLE"), action_dice=1, spoilers=0)["total"] == 0
    c = attack(_acts("HAYMAKER", "KAPLOOM!", "BODY SLAM"), action_dice=1, spoilers=0)
    assert c["total"] == 12 and len(c["bases"]) == 2
    assert attack(_acts("JAB", "PUNISH"), action_dice=3, spoilers=0)["total"] == 4


def test_defense_formula_and_lock_in_bonuses():
    c = defense(_acts("BLOCK", "FLIP", "BRACE", "DODGE", "IRON SKIN"), locked_in=[],
                spoilers=0)
    assert c["total"] == (4 + 2 + 3) * 2
    assert defense(_acts("BRACE", "FORCE FIELD"), locked_in=[], spoilers=0)["total"] == 0
    c = defense(_acts("BLOCK", "FORCE FIELD"), locked_in=_acts("HARD TO BREAK", "PLOT ARMOR"),
                spoilers=2)
    assert c["total"] == (2 + 2 + 2) * 3 and formula(c).startswith("(BLOCK 2 + HARD TO BREAK")
    assert defense(_acts("BRACE"), locked_in=_acts("HARD TO BREAK"), spoilers=0)["total"] == 0


def test_the_twist_spends_only_when_it_is_the_multiplier_used():
    c = attack(_acts("JAB", "THE TWIST"), action_dice=1, spoilers=2)
    assert c["total"] == 3 and c["spends_spoilers"]
    c = attack(_acts("JAB", "THE TWIST", "MEGATON"), action_dice=1, spoilers=2)
    assert c["multiplier"]["name"] == "MEGATON" and not c["spends_spoilers"]   # tie keeps
    c = attack(_acts("JAB", "THE TWIST", "DOUBLE TROUBLE"), action_dice=1, spoilers=2)
    assert c["multiplier"]["name"] == "THE TWIST" and c["spends_spoilers"]
    assert not attack(_acts("THE TWIST"), action_dice=1, spoilers=2)["spends_spoilers"]


# --- moves, errors and secrets -------------------------------------------------------------------

def example_roll() -> Script:
    s = Script()
    s(CHANCE, "roll X E W A _ _ M E A _")
    return s


def test_errors_of_each_kind_leave_the_state_unchanged():
    s = example_roll()
    g = s.game
    refused(g, HERO, "fly away", InvalidMoveError)
    refused(g, HERO, "assign", InvalidMoveError)
    refused(g, HERO, "assign BATARANG d1", InvalidMoveError)
    refused(g, HERO, "assign POW x1", InvalidMoveError)
    refused(g, HERO, "assign S d4", AmbiguousMoveError)
    msg = refused(g, HERO, "assign POW d1 d2")                    # X and E: no Might
    assert "Nothing fits M" in msg
    msg = refused(g, HERO, "assign POW d7 d8")                    # the villain's dice
    assert "not your die" in msg and "Might" not in msg           # no secret in the error
    refused(g, HERO, "assign GROW d1 d1")
    refused(g, HERO, "grow purple")                                # a Power Up move now
    refused(g, HERO, "point @2")                                   # 2 vs 2 only
    refused(g, HERO, "assign TEAM-UP d1 d2")                       # Duo board: 2 vs 2 only
    refused(g, HERO, "assign PUNISH d1 d2")                        # a super's action
    refused(g, CHANCE, "roll X", NotYourTurnError)
    s(HERO, "assign GROW d1 d2")
    msg = refused(g, HERO, "assign BLOCK d1 d3")
    assert "already on GROW" in msg
    refused(g, HERO, "assign GROW d3 d4")                          # once a round
    refused(g, HERO, "unassign POW")
    s(HERO, "assign sucker d4")                                    # a unique beginning is enough
    s(HERO, "unassign SUCKER PUNCH")
    assert "SUCKER PUNCH" not in g.seats[HERO]["board"]
    s(HERO, "lock")
    refused(g, HERO, "assign SUCKER PUNCH d4", NotYourTurnError)
    round_trip(g)


def test_immediate_dice_cannot_move_and_reroll_waits_for_chance():
    s = example_roll()
    g = s.game
    refused(g, VILLAIN, "timejump d10 reroll d10")
    refused(g, VILLAIN, "timejump d10 reroll d1")                  # not the villain's die
    refused(g, VILLAIN, "timejump d10", InvalidMoveError)
    s(VILLAIN, "timejump d10 reroll d6")
    assert g.actors() == [CHANCE] and g.chance().draws[0].options == tuple("XXXEW_")
    refused(g, HERO, "assign GROW d1 d2", NotYourTurnError)
    refused(g, CHANCE, "roll M", InvalidMoveError)                 # blue has no Might
    s(CHANCE, "roll E")
    assert g.dice["d6"]["up"] == "E"
    refused(g, VILLAIN, "unassign TIME JUMP")
    refused(g, VILLAIN, "timejump d7 reroll d8")                   # once a round
    assert set(g.actors()) == {HERO, VILLAIN}


def test_phase1_secrets_stay_behind_the_screen():
    s = example_roll()
    g = s.game
    s(HERO, "assign GROW d1 d2")
    s(VILLAIN, "assign POW d7 d8")
    s(VILLAIN, "timejump d10 reroll d6")
    s(CHANCE, "roll X")
    s(HERO, "lock")
    for viewer in (None, VILLAIN):
        v = g.view(viewer)
        hero = v["players"][HERO]
        assert hero["hidden"] and hero["board"] is None
        assert all(d["up"] is None for d in hero["dice"])
        assert hero["locked"] is True
        blob = json.dumps({k: x for k, x in hero.items() if k != "action_names"})
        assert "GROW" not in blob
    for viewer in (None, HERO):
        villain = g.view(viewer)["players"][VILLAIN]
        assert villain["announced"] == ["TIME JUMP"] and not villain["locked"]
        assert villain["board"] is None and all(d["up"] is None for d in villain["dice"])
        assert "POW" not in json.dumps({k: x for k, x in villain.items()
                                        if k != "action_names"})
    mine = g.view(HERO)["players"][HERO]
    assert [b["action"] for b in mine["board"]] == ["GROW"]
    assert [d["up"] for d in mine["dice"]] == ["X", "E", "W", "A", "_"]
    # public events name the immediate action only; the rest goes to its player
    public = [e.text for e in s.events if e.public]
    assert any("activates TIME JUMP" in t for t in public)
    assert not any("GROW" in t or "POW" in t or "re-roll" in t or "X-Factor" in t
                   for t in public)
    assert all(e.to == (HERO,) for e in s.events if "GROW" in e.text)
    assert "GROW" not in g.text(None) and "GROW" not in g.text(VILLAIN)
    s(VILLAIN, "lock")                                              # the reveal
    v = g.view(None)
    assert [b["action"] for b in v["players"][HERO]["board"]] == ["GROW"]
    assert v["players"][VILLAIN]["dice"][0]["up"] == "X"


def test_view_keys_and_text():
    s = example_roll()
    v = s.game.view(HERO)
    for key in ("kind", "mode", "round", "round_limit", "phase", "stage", "first", "order",
                "turn", "players", "duo", "pools", "pool_totals", "combat", "result",
                "rerolling", "you"):
        assert key in v
    for key in ("health", "max_health", "dice", "unattached", "locked_in", "spoilers",
                "announced", "locked", "board", "pointer", "todo", "pending", "super"):
        assert key in v["players"][0]
    assert v["players"][0]["dice"][4]["faces"] == ["W", "_", "_", "_", "_", "_"]
    text = s.game.text(HERO)
    assert "round 1/30" in text and "30/30" in text and len(text) < 1500
    json.dumps(v)


def test_timers():
    s = example_roll()
    g = s.game
    assert g.timeout_move(HERO) == "lock" and g.wait_seconds() == 180
    s(HERO, "assign GROW d1 d2")
    s(HERO, g.timeout_move(HERO))
    s(VILLAIN, g.timeout_move(VILLAIN))
    assert g.stage == "power" and g.timeout_move(VILLAIN) == "done"
    assert g.wait_seconds() is None
    s(VILLAIN, "done")
    s(HERO, g.timeout_move(HERO))          # GROW is given up
    assert len(g.dice_of(HERO)) == 5 and g.stage == "roll"
    assert Kaploom.new(2, {"timer": 0}).wait_seconds() is None


def test_resign():
    g = Kaploom.new(2)
    g.resign(HERO)
    assert g.result["winners"] == [VILLAIN]
    g = Kaploom.new(4, {"mode": "2v2"})
    g.resign(1)
    assert g.result["winners"] == [2, 3]


# --- the documents agree with the tables ----------------------------------------------------------

DOCS = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs"


def test_rules_page_lists_every_action_and_pages_fit():
    text = (DOCS / "rules" / "kaploom.md").read_text()
    flat = " ".join(text.split())
    for a in ACTION_TABLE + SUPER_TABLE + DUO_TABLE:
        assert f"{a.name} ({' '.join(a.requires)}" in flat, a.name
    sections = text.split("\n## ")
    assert "Referee rulings (ours)" in text
    for section in sections:
        assert len(section) < 1500, section.splitlines()[0]


def test_notation_page_shows_every_verb():
    from bot.engine.kaploom.notation import PHASE1_VERBS, PHASE3_VERBS
    from bot.engine.kaploom.phase3 import VERBS
    text = (DOCS / "notation" / "kaploom.md").read_text()
    for verb in PHASE1_VERBS + PHASE3_VERBS + VERBS:
        assert f"`{verb}" in text, verb


def test_a_saved_schema_1_state_loads_with_its_last_reveal():
    """Schema 2 keeps the last reveal as one JSON string (the per-move snapshot copies a
    string instead of re-encoding it); a game saved before loads with its reveal intact."""
    import random as _random
    g = Kaploom.new(2, {})
    rng = _random.Random(2)
    while g.combat is None:
        actors = g.actors()
        if actors == [CHANCE]:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        seat = rng.choice(actors)
        g.apply(seat, rng.choice(g.legal(seat)))
    saved = g.to_json()
    assert saved["schema"] == 2 and isinstance(saved["state"]["combat_json"], str)
    state = dict(saved["state"])
    state["combat"] = json.loads(state.pop("combat_json"))
    old = Kaploom.from_json({"kind": "kaploom", "schema": 1, "state": state})
    assert old.to_json() == saved and old.combat == g.combat
    assert old.view(None)["combat"]["round"] == 1
