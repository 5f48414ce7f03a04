"""TradeShowdown — random legal play (hypothesis): never crashes, always ends, keeps every
invariant, hides secrets, and the record replays to the identical final state."""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core import CHANCE
from bot.engine.records import Record, replay, selfplay
from bot.engine.tradeshowdown import TradeShowdown

SPECIALS = ("multiple_attacks", "intimidate", "tag_team", "combos")

options_strategy = st.fixed_dictionaries({
    "multiple_attacks": st.booleans(), "intimidate": st.booleans(),
    "tag_team": st.booleans(), "combos": st.booleans(),
    "fair_length": st.sampled_from([6, 10, 13]),
    "round_limit": st.sampled_from([3, 12, 30]),
    "dice": st.sampled_from(["d4,d4,d6,d6,d8,d8,d10,d10,d10,d10",
                             "d4,d4,d4,d4,d6,d6,d6,d8,d8,d10",
                             "d10,d10,d10,d10,d10,d10,d10,d10,d10,d10"]),
})


def check_invariants(g: TradeShowdown) -> None:
    assert 1 <= g.round <= g.options["round_limit"]
    for s, seat in enumerate(g.seats):
        for card in seat["cards"]:
            assert all(0 <= n <= 2 for n in card["slashes"])
            assert len(card["digits"]) == g.options["fair_length"]
            if card["out"]:
                assert all(n == 2 for n in card["slashes"])
        assert len(seat["combo"]) <= 5
        assert Counter(g.available(s)) + Counter(d["size"] for d in seat["combo"]) == \
            Counter(g.supply)
        if not seat["out"] and g.result is None:
            assert not seat["cards"][seat["active"]]["out"]
    if g.result is None:
        actors = g.actors()
        assert actors
        if CHANCE not in actors:
            for p in actors:
                moves = g.legal(p)
                assert moves and len(moves) < 1000
                assert len(set(moves)) == len(moves)
    # Secrets: before the roll nobody else sees a player's dice or target.
    if g.phase == "choose":
        for viewer in [None, *range(g.players)]:
            v = g.view(viewer)
            for f in v["fighters"]:
                if f["seat"] != viewer:
                    assert f["dice"] is None and f["target"] is None
                    assert "tag_pending" not in f and "plan" not in f
    json.dumps(g.view(None))
    assert len(g.text(None)) <= 1500


def play_out(players: int, options: dict[str, Any], seed: int) -> tuple[Record, TradeShowdown]:
    """Random legal play with invariants checked after every move; the timer's move is
    sometimes played instead, as the bot would for an idle player."""
    names = [f"p{i + 1}" for i in range(players)]
    g = TradeShowdown.new(players, options, names=names)
    rng = random.Random(seed)
    rec = Record("tradeshowdown", g.options, names, seed)
    for _ in range(20000):
        actors = g.actors()
        if not actors:
            break
        if CHANCE in actors:
            actor: Any = CHANCE
            move = g.chance().sample(rng)
        else:
            actor = rng.choice(actors)
            move = g.timeout_move(actor) if rng.random() < 0.1 else rng.choice(g.legal(actor))
            assert move is not None
        g.apply(actor, move)
        rec.add(actor, move)
        check_invariants(g)
    else:
        raise AssertionError("no end")
    rec.result = g.result
    return rec, g


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), options=options_strategy, seed=st.integers(0, 2**32))
def test_random_play_ends_keeps_invariants_and_replays(players, options, seed):
    rec, g = play_out(players, options, seed)
    assert g.result is not None and g.actors() == []
    out = g.outcome()
    assert all(0 <= w < players for w in out.winners)
    again = replay(Record.from_json(json.loads(rec.dumps())))
    assert again.to_json() == g.to_json()
    assert TradeShowdown.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), on=st.booleans(), seed=st.integers(0, 2**32))
def test_generic_selfplay_all_options_on_or_off(players, on, seed):
    options = {k: on for k in SPECIALS}
    rec, g = selfplay("tradeshowdown", seed, options, players=players)
    assert g.result is not None
    again = replay(Record.from_json(json.loads(rec.dumps())))
    assert again.to_json() == g.to_json()
    # The same seed plays the same game.
    rec2, g2 = selfplay("tradeshowdown", seed, options, players=players)
    assert rec2.entries == rec.entries and g2.to_json() == g.to_json()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), resign_at=st.integers(0, 60))
def test_resigning_midway_in_a_four_player_fight(seed, resign_at):
    g = TradeShowdown.new(4)
    rng = random.Random(seed)
    moves = 0
    resigned = []
    triggers = {resign_at, resign_at * 2 + 7}
    while g.result is None and moves < 5000:
        if moves in triggers:
            triggers.discard(moves)
            p = rng.choice(g.standing())
            g.resign(p)
            resigned.append(p)
            check_invariants(g)
            continue
        actors = g.actors()
        actor = CHANCE if CHANCE in actors else rng.choice(actors)
        move = g.chance().sample(rng) if actor == CHANCE else rng.choice(g.legal(actor))
        g.apply(actor, move)
        moves += 1
        check_invariants(g)
    assert g.result is not None
    assert not set(resigned) & set(g.outcome().winners)
