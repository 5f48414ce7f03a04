"""KAPLOOM!: random legal play (hypothesis) for 1 vs 1, 2 vs 2 and supers — never crashes,
always ends, keeps the invariants, hides Phase 1 from the other team, and the record replays
to the identical final state."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import records
from bot.engine.core import CHANCE
from bot.engine.kaploom import Kaploom
from bot.engine.records import Record

from .test_kaploom import conservation, round_trip

VARIANTS = [
    ({}, 2),
    ({"sides": "villain", "supers": "Victor Kane,Tough Nut"}, 2),
    ({"supers": "Timeout!,Spoiler Alert!"}, 2),
    ({"mode": "2v2"}, 4),
    ({"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"}, 4),
]
PHASE1_PUBLIC = {"immediate", "lock", "heal"}


def invariants(g: Kaploom) -> None:
    conservation(g)
    placed = [d for p in g.seats for place in p["board"].values() for d in place["dice"]]
    placed += [d for board in g.duo for place in board.values() for d in place["dice"]]
    assert len(placed) == len(set(placed))
    for p in g.seats:
        assert p["health"] <= p["max"] and 0 <= p["spoilers"] <= 2
        assert len(set(p["locked_in"])) == len(p["locked_in"])
    for die in g.dice.values():
        assert die["kind"] == "trait" or len(die["faces"]) <= 6
    assert g.round <= 30


def secrets_hidden(g: Kaploom) -> None:
    if g.stage != "assign" or g.result is not None:
        return
    for viewer in [None] + list(range(g.players)):
        v = g.view(viewer)
        for p in v["players"]:
            mine = viewer is not None and g.seats[viewer]["team"] == p["team"]
            if not mine:
                assert p["board"] is None and p["pointer"] is None
                assert all(d["up"] is None for d in p["dice"])
        for team in v["duo"]:
            if viewer is None or g.seats[viewer]["team"] != team["team"]:
                assert team["board"] is None


def play(seed: int, options: dict, players: int, low_health: int | None = None,
         keen: bool = False) -> Kaploom:
    """Uniform random legal play (or `keen`: prefer actions over lock/done), checking every
    step; `low_health` starts everyone lower so knock-outs happen."""
    g = Kaploom.new(players, options)
    if low_health:
        for p in g.seats:
            p["health"] = p["max"] = min(p["health"], low_health)
    rng = random.Random(seed)
    for _ in range(20000):
        actors = g.actors()
        if not actors:
            break
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
        else:
            actor = rng.choice(actors)
            moves = g.legal(actor)
            assert moves and moves[-1] in ("lock", "done")
            assert len(moves) < 6000   # enumerable, never exploding (a late 2 vs 2 reaches ~3,300)
            if keen and rng.random() < 0.9:
                busy = [m for m in moves if m.split()[0] not in (
                    "lock", "done", "unassign", "attach", "detach", "give", "point")]
                move = rng.choice(busy or moves)
            else:
                move = rng.choice(moves)
            stage = g.stage
            events = g.apply(actor, move)
            if stage == "assign" and g.stage == "assign":
                assert {e.kind for e in events if e.public} <= PHASE1_PUBLIC, move
        invariants(g)
        secrets_hidden(g)
    assert g.result is not None
    return g


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(range(len(VARIANTS))))
def test_selfplay_ends_and_replays_identically(seed, variant):
    options, players = VARIANTS[variant]
    record, game = records.selfplay("kaploom", seed, options, players=players)
    assert game.result is not None and game.actors() == []
    invariants(game)
    again = records.replay(Record.from_json(json.loads(record.dumps())))
    assert again.to_json() == game.to_json()
    round_trip(game)
    assert len(game.text(None)) <= 1500


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(range(len(VARIANTS))),
       keen=st.booleans())
def test_random_play_to_a_knock_out_keeps_every_invariant(seed, variant, keen):
    options, players = VARIANTS[variant]
    g = play(seed, options, players, low_health=7, keen=keen)
    round_trip(g)
    reason = g.result["reason"]
    assert "knocked out" in reason or "round limit" in reason or "everyone" in reason


def test_each_variant_plays_to_the_end_once():
    for i, (options, players) in enumerate(VARIANTS):
        g = play(1000 + i, options, players, keen=True)
        invariants(g)
