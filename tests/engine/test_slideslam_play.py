"""Slide and Slam: recorded games replayed, and random legal play (hypothesis) that never
crashes, always ends, keeps the invariants, hides the placement and replays identically."""
from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import records
from bot.engine.core import CHANCE, RuleError
from bot.engine.records import Record
from bot.engine.slideslam import SlideSlam

from .test_slideslam import round_trip

RECORDS = Path(__file__).resolve().parents[1] / "records" / "slideslam"

OPTION_VARIANTS = [
    {},
    {"stun": True},
    {"stalemate_turns": 0},
    {"columns": 5, "rows": 6, "stalemate_turns": 10},
    {"columns": 9, "rows": 10, "first_player": "random"},
    {"starting_values": "1,1,1,1,1,1"},
    {"starting_values": "6,6,6,6,6,6", "stun": True, "stalemate_turns": 200},
    {"starting_values": "2,2,1,1,3,5", "columns": 7, "rows": 6},
]


def load(name: str) -> Record:
    return Record.from_json(json.loads((RECORDS / name).read_text()))


# --- recorded games ---------------------------------------------------------------------------

def test_record_super_slam_sweep():
    """All dice at 1: a Super Slam down column f and along row 5 (one die bent), answered by
    another; player 1 awakens their last die; player 2 finishes it from f8."""
    rec = load("super_slam_sweep.json")
    g = records.replay(rec)
    assert g.result == rec.result == {"winners": [1], "reason": "player 1 has no dice left",
                                     "ending": "knockout"}
    assert g.removed == ["D", "C", "B", "E", "U", "F", "A"]
    assert g.tokens_used == [True, False] and g.awakened_used == [True, False]
    assert g.turn == 6
    assert g.view(None)["last_slam"]["hits"] == [
        {"die": "A", "square": "f3", "before": 1, "after": 0, "destroyed": True,
         "saved": False}]


def test_record_predict_then_stalemate():
    """Turn 1: `slam c4 predict` (no window), W 4 → 3; then ten quiet turns: the stalemate
    guard gives the game to the higher total health."""
    rec = load("predict_then_stalemate.json")
    g = records.replay(rec)
    assert g.result == rec.result
    assert g.result["winners"] == [0]
    assert g.result["reason"].endswith("higher total health (21 to 20)")
    assert g.dice["W"]["health"] == 3 and g.tokens_used == [True, False]
    assert g.quiet_turns == 10 and g.turn == 11


def test_record_selfplay_replays_to_the_same_end():
    rec = load("selfplay_seed2024_stun.json")
    g = records.replay(rec)
    assert g.result == rec.result
    again, g2 = records.selfplay("slideslam", rec.seed, rec.options)
    assert again.entries == rec.entries and g2.to_json() == g.to_json()


def test_every_record_replays_identically_twice():
    for path in sorted(RECORDS.glob("*.json")):
        rec = Record.from_json(json.loads(path.read_text()))
        a, b = records.replay(rec), records.replay(rec)
        assert a.to_json() == b.to_json() and a.result == rec.result, path.name
        assert a.result is not None


# --- random play --------------------------------------------------------------------------

def check_invariants(g: SlideSlam) -> None:
    squares = [d["square"] for d in g.dice.values() if d["square"] is not None]
    assert len(squares) == len(set(squares))
    for k, d in g.dice.items():
        assert 1 <= d["health"] <= d["start"] <= 6 or d["awakened"]
        if d["awakened"]:
            assert d["health"] == 1
        if d["square"] is not None:
            c, r = ord(d["square"][0]) - 97, int(d["square"][1:])
            assert 0 <= c < g.columns and 1 <= r <= g.rows
        assert k not in g.removed
    assert len(g.dice) + len(g.removed) == 12
    for seat in (0, 1):   # an awakened die may since have been destroyed
        awake = sum(1 for d in g.dice.values() if d["awakened"] and d["owner"] == seat)
        assert awake <= int(g.awakened_used[seat])
    if g.phase not in ("placement", "first_player"):
        assert all(d["square"] is not None for d in g.dice.values())
    if g.phase == "response":
        p = g.pending
        assert not g.tokens_used[p["defender"]] and p["targets"]
    if g.result is None and g.phase in ("slide", "slam", "response"):
        assert any(d["owner"] == 0 for d in g.dice.values())
        assert any(d["owner"] == 1 for d in g.dice.values())
    limit = g.options["stalemate_turns"]
    assert not limit or g.quiet_turns <= limit


def check_placement_secret(g: SlideSlam) -> None:
    if g.phase != "placement":
        return
    for viewer, other in ((0, 1), (1, 0), (None, None)):
        shown = g.view(viewer)["dice"]
        assert all(d["owner"] == viewer for d in shown)
    assert g.view(None)["dice"] == []


def play_checked(seed: int, options: dict) -> SlideSlam:
    """Random legal play checking, at every step, the invariants, the secret, that a few legal
    moves each apply on a copy, and that a move made for the wrong seat is refused."""
    rng = random.Random(seed)
    g = SlideSlam.new(2, options)
    for _ in range(5000):
        check_invariants(g)
        check_placement_secret(g)
        actors = g.actors()
        if not actors:
            return g
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        actor = rng.choice(actors)
        moves = g.legal(actor)
        assert moves and len(moves) < 1000
        for m in rng.sample(moves, min(3, len(moves))):
            c = g.copy()
            c.apply(actor, m)
        others = [p for p in (0, 1) if p not in actors]
        for p in others:
            assert g.legal(p) == []
        for p in (0, 1):
            t = g.timeout_move(p)
            assert t is None or (p in actors and t in g.legal(p))
        g.apply(actor, rng.choice(moves))
    raise AssertionError("no end")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(OPTION_VARIANTS))
def test_random_play_ends_and_replays(seed, variant):
    rec, g = records.selfplay("slideslam", seed, variant)
    assert g.result is not None
    check_invariants(g)
    again = records.replay(Record.from_json(json.loads(rec.dumps())))
    assert again.to_json() == g.to_json()
    round_trip(g)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(OPTION_VARIANTS))
def test_random_play_checked_step_by_step(seed, variant):
    g = play_checked(seed, variant)
    assert g.result is not None


def test_public_events_never_show_placement():
    """During placement the only public events are 'has finished placing' (no squares) and,
    once both have confirmed, the wall coming down with the whole board."""
    for seed in range(5):
        rng = random.Random(seed)
        g = SlideSlam.new()
        while g.phase == "placement":
            actor = rng.choice(g.actors())
            for e in g.apply(actor, rng.choice(g.legal(actor))):
                if e.kind == "wall_down":
                    assert g.phase == "first_player" and all(g.confirmed)
                elif e.public:
                    assert e.kind == "confirmed" and not any(ch.isdigit() for ch in e.text
                                                             if ch not in "12")
                    assert e.data == {"seat": actor}
                else:
                    assert e.to == (actor,) and e.kind == "placed"


def test_errors_leave_state_unchanged_in_random_positions():
    rng = random.Random(11)
    bad = ["slide a1 a1", "slam f9", "bend a1", "pass", "confirm", "place a1=9", "end",
           "unplace h1", "awaken a1 hello", "slide zz", "slam", "slide U a1"]
    for seed in range(6):
        rec, _ = records.selfplay("slideslam", seed)
        g = SlideSlam.new(2, rec.options)
        for entry in rec.entries:
            actor = records.entry_actor(entry, 2)
            if actor != CHANCE:
                c = g.copy()
                before = json.dumps(c.to_json())
                for move in rng.sample(bad, 3):
                    try:
                        c.apply(actor, move)
                    except RuleError as e:
                        assert e.message and "Traceback" not in e.message
                        assert json.dumps(c.to_json()) == before
                    else:
                        break       # legal here (e.g. `end`): nothing more to check
            g.apply(actor, entry["move"])
