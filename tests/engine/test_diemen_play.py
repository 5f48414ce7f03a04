"""Crazy Die-Man: random legal play in both modes, replays, and the scripted JSON records."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE, RuleError
from bot.engine.diemen import DieMen
from bot.engine.diemen import rules as R
from bot.engine.records import Record, entry_actor, replay, selfplay, start

RECORDS = sorted((Path(__file__).parent.parent / "records" / "diemen").glob("*.json"))


def check_invariants(g: DieMen, before: list[int] | None) -> list[int]:
    floor = g.floor
    dmg = [s["damage"] for s in floor["sides"]]
    assert all(d >= R.START_DAMAGE for d in dmg)
    if before is not None:
        assert dmg[0] >= before[0] and dmg[1] >= before[1]   # damage never goes down
    on_floor = 0
    for s in floor["sides"]:
        if g.phase not in ("setup",):
            assert len(s["banners"]) == 4
        up = [b["at"] for b in s["banners"] if b["up"] and b["at"] != "stand"]
        assert len(up) == len(set(up))                      # one standing banner per spot
        assert R.super_sale_up(s) <= R.MAX_SUPER_SALE
        assert len(s["customers"]) <= R.MAX_CUSTOMERS
        assert len(set(s["customers"])) == len(s["customers"])
        assert s["stand"] in ("S1", "S2", "S3")
        on_floor += len(s["customers"])
    assert on_floor + floor["supply"] == R.CUSTOMERS
    if g.result is None and g.phase not in ("setup", "first"):
        t = g.t
        assert t["declared"] is None or 0 <= t["resolved"] <= t["declared"] <= 3
        assert not (t["bonus"] and t["declared"] != 3)
    text = g.text(None)
    assert len(text) < 1500
    return dmg


def play_checked(mode: str, seed: int) -> tuple[Record, DieMen]:
    """Self-play with invariants after every move, and spot checks that listed moves apply."""
    record, final = selfplay("diemen", seed, {"mode": mode})
    rng = random.Random(seed)
    g = start(record)
    before = None
    for i, entry in enumerate(record.entries):
        actor = entry_actor(entry, 2)
        if actor != CHANCE and i % 5 == 0:
            for move in rng.sample(g.legal(actor), min(4, len(g.legal(actor)))):
                g.copy().apply(actor, move)   # every listed move is accepted
        g.apply(actor, entry["move"])
        before = check_invariants(g, before)
    assert g.to_json() == final.to_json()
    return record, final


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), mode=st.sampled_from(["physical", "simulated"]))
def test_random_play_always_ends_and_replays(seed, mode):
    record, final = play_checked(mode, seed)
    assert final.result is not None and final.actors() == []
    again = replay(Record.from_json(json.loads(record.dumps())))
    assert again.to_json() == final.to_json()
    assert DieMen.from_json(json.loads(json.dumps(final.to_json()))).to_json() == \
        final.to_json()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), vote=st.integers(10, 600))
def test_random_play_with_option_variations(seed, vote):
    record, final = selfplay("diemen", seed, {"mode": "simulated", "vote_seconds": vote})
    assert final.result is not None and record.options["vote_seconds"] == vote
    assert replay(record).to_json() == final.to_json()


def test_selfplay_is_deterministic():
    a, ga = selfplay("diemen", 7, {"mode": "physical"})
    b, gb = selfplay("diemen", 7, {"mode": "physical"})
    assert a.entries == b.entries and ga.to_json() == gb.to_json()


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_records_replay_with_expected_damage(path):
    data = json.loads(path.read_text())
    record = Record.from_json(data)
    g = start(record)
    checked = 0
    for i, entry in enumerate(record.entries):
        actor = entry_actor(entry, g.players)
        try:
            g.apply(actor, entry["move"])
        except RuleError as e:  # pragma: no cover - a failing record names its entry
            pytest.fail(f"{path.name} entry {i} {entry}: {e}")
        if "expect_damage" in entry:
            assert [s["damage"] for s in g.floor["sides"]] == entry["expect_damage"], (i, entry)
            checked += 1
    # Every resolved flick carries an expectation.
    assert checked >= g.flick_count
    assert g.result is not None
    assert replay(record).to_json() == g.to_json()


def test_records_exist():
    assert {p.stem for p in RECORDS} >= {"physical_damage_rules", "simulated_flicks",
                                         "switch_and_mid_turn_loss"}


VERBS = ["banners", "move", "flick", "oops", "mode", "agree", "refuse", "called", "aim", "mark",
         "result", "accept", "dispute", "reposition", "place", "supersale", "done", "customer",
         "end", "roll", "juggle"]
TOKENS = ["F1", "F2", "B3", "S1", "S2", "C1", "P1:F1", "P2:S2", "@2:B1", "stand", "middle",
          "1", "3", "7", "0", "bonus", "off", "hit=F1", "hit=F1,F1", "hit=", "hit=P1:S2,S2",
          "customers=1", "customers=x", "simulated", "physical", "F9", "x"]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), mode=st.sampled_from(["physical", "simulated"]))
def test_garbage_moves_are_refused_cleanly(seed, mode):
    """Random text from random actors: either a rule error with the state untouched, or a
    move the rules accept — never a crash."""
    record, _ = selfplay("diemen", seed, {"mode": mode})
    rng = random.Random(seed)
    g = start(record)
    for entry in record.entries:
        for _ in range(4):
            move = " ".join([rng.choice(VERBS)] + rng.sample(TOKENS, rng.randint(0, 3)))
            actor = rng.choice([0, 1, CHANCE])
            before = g.to_json()
            try:
                g.apply(actor, move)
            except RuleError:
                assert g.to_json() == before
            else:
                g = DieMen.from_json(before)   # accepted: back to the record's line
        g.apply(entry_actor(entry, 2), entry["move"])
