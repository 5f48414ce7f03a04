"""Death by Dice: recorded combats replayed, JSON round trips, and random legal play
(hypothesis) across option sets that never crashes, always ends, keeps the invariants, hides
the set-up and replays to the identical state."""
from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import records
from bot.engine.core import CHANCE, RuleError
from bot.engine.deathbydice import GAME as G
from bot.engine.deathbydice import board as B
from bot.engine.records import Record

from .test_deathbydice import round_trip

RECORDS = Path(__file__).resolve().parents[1] / "records" / "deathbydice"

# (players, options)
VARIANTS = [
    (2, {}),
    (2, {"best_of": 1}),
    (2, {"characters": "Lucky Lou,Knuckles"}),
    (2, {"characters": "Madame Vex,The Accountant", "best_of": 1}),
    (2, {"characters": "Mayhem,Mayhem"}),
    (3, {}),
    (4, {"characters": "Knuckles,Lucky Lou,Madame Vex,The Accountant", "best_of": 1}),
    (2, {"mode": "boss"}),
    (2, {"mode": "boss", "characters": "Lucky Lou,Knuckles,Madame Vex,Mayhem"}),
    (3, {"mode": "boss", "characters": "Knuckles,Malice,The Accountant", "best_of": 1}),
    (4, {"mode": "boss"}),
    (6, {"best_of": 1}),
]


def load_record(name: str) -> Record:
    return Record.from_json(json.loads((RECORDS / name).read_text()))


# --- recorded combats -------------------------------------------------------------------------

def test_record_lou_vs_vex_short_combat():
    """Lou's Boosted Attack takes Vex's FOR; Vex's Complex Attack fails against a Linked
    Defense and she drops LUCK; Lou's three green dice roll 1-1-1 against 4: lost with
    doubles, all three go, and Lou (STR, FOR) can attack nothing: the totals decide."""
    rec = load_record("lou_vs_vex_short_combat.json")
    g = records.replay(rec)
    assert g.result == rec.result == {"winners": [1], "reason": "Madame Vex (Vex's player) won "
                                      "the combat", "ending": "knockout"}
    assert g.combats == [{"combat": 1, "winner": 1, "totals": [6, 13],
                          "reason": "Lucky Lou (Lou's player) cannot attack; highest total 13"}]
    assert g.fighters[0]["values"] == {"STR": 4, "AGI": None, "FOR": 2, "CON": None,
                                       "LUCK": None}
    assert g.fighters[1]["values"] == {"AGI": 9, "FOR": None, "SMA": 2, "CON": 2,
                                       "LUCK": None}
    last = g.view(None)["last_attack"]
    assert (last["total"], last["against"], last["result"]) == (3, 4, "lost")
    assert [d["die"] for d in last["discarded"]] == ["@1:AGI", "@1:CON", "@1:LUCK"]
    assert last["rerolled"] == [{"die": "@2:SMA", "from": 6, "to": 2}]
    assert g.turn == 3
    round_trip(g)


def test_record_mayhem_vs_knuckles_specials():
    """A set-up tie (20-20) re-rolls everything; Mayhem's Complex Attack beats a Linked
    Defense, Thick Skull keeps FOR (6 → 10), the Linked die re-rolls, and Rampage's extra
    Ability Attack wins on equal against a Boosted Defense."""
    rec = load_record("mayhem_vs_knuckles_specials.json")
    g = records.replay(rec)
    assert g.result is None and g.stage == "declare" and g.active == 1 and g.turn == 2
    assert g.fighters[0]["values"] == {"STR": 9, "AGI": 5, "FOR": 5, "CON": 5, "LUCK": 6}
    assert g.fighters[1]["values"] == {"STR": 3, "AGI": 2, "FOR": 10, "CON": None, "LUCK": 8}
    assert [f["special_used"] for f in g.fighters] == [True, True]
    last = g.view(None)["last_attack"]
    assert last["rampage"] and last["type"] == "ability" and last["result"] == "won"
    assert (last["total"], last["against"]) == (5, 5)
    round_trip(g)


def test_records_are_the_game():
    """A record's last entry replays onto the same state as applying it live."""
    rec = load_record("lou_vs_vex_short_combat.json")
    partial = Record(rec.kind, rec.options, rec.players, None, rec.entries[:-1])
    g = records.replay(partial)
    g.apply(CHANCE, rec.entries[-1]["move"])
    assert g.to_json() == records.replay(rec).to_json()


# --- random play ------------------------------------------------------------------------------

def check_invariants(g, seen_gone: dict[str, set[str]], combat: int) -> None:
    """Values fit their dice; a discarded die stays discarded for the rest of the combat;
    the set-up is hidden from the public until it is revealed; someone can always act."""
    v = g.view(None)
    json.dumps(v)
    assert len(g.text(None)) < 1500
    secret = g.stage in ("setup_roll", "setup") and g.result is None
    for f, vf in zip(g.fighters, v["fighters"]):
        for a, size in f["dice"].items():
            value = f["values"][a]
            assert value is None or 1 <= value <= size
        if secret:
            assert all(c["value"] is None for c in vf["board"])
            assert vf["total"] is None
        else:
            gone = seen_gone.setdefault(f["id"], set())
            now_gone = {a for a in f["dice"] if f["values"][a] is None}
            assert gone <= now_gone, (f["id"], gone, now_gone)
            gone |= now_gone
    assert len(g.combats) <= 5 and sum(g.score) == sum(c["winner"] is not None
                                                       for c in g.combats)
    assert g.turn <= g.turn_limit
    if g.result is None:
        actors = g.actors()
        assert actors
        for a in actors:
            if a != CHANCE:
                assert g.legal(a), (g.stage, a)


def random_game(players: int, options: dict, seed: int, check_every: int = 1):
    rng = random.Random(seed)
    names = [f"p{i + 1}" for i in range(players)]
    g = G.new(players, options, names=names)
    rec = Record(G.KIND, g.options, names, seed)
    seen_gone: dict[str, set[str]] = {}
    combat = g.combat
    for step in range(20000):
        if g.result is not None:
            break
        if g.combat != combat or g.stage in ("setup_roll", "setup"):
            seen_gone, combat = {}, g.combat
        actors = g.actors()
        if CHANCE in actors:
            actor, move = CHANCE, g.chance().sample(rng)
        else:
            actor = rng.choice(actors)
            moves = g.legal(actor)
            assert len(moves) < 1000
            move = rng.choice(moves)
            if step % 7 == 0:
                # A move outside the list is refused and changes nothing.
                before = g.to_json()
                try:
                    g.apply(actor, "attack complex STR -> @1:STR")
                except RuleError:
                    pass
                assert g.to_json() == before
        g.apply(actor, move)
        rec.add(actor, move)
        if step % check_every == 0:
            check_invariants(g, seen_gone, combat)
    else:
        raise AssertionError("no end")
    rec.result = g.result
    return rec, g


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(range(len(VARIANTS))))
def test_random_play_ends_keeps_invariants_and_replays(seed, variant):
    players, options = VARIANTS[variant]
    rec, g = random_game(players, options, seed)
    assert g.result is not None
    assert g.actors() == []
    again = records.replay(Record.from_json(json.loads(rec.dumps())))
    assert again.to_json() == g.to_json()
    round_trip(g)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_generic_selfplay_replays_identically(seed):
    for players, options in (VARIANTS[0], VARIANTS[5], VARIANTS[8]):
        rec, g = records.selfplay(G.KIND, seed, options, players=players)
        assert g.result is not None
        assert records.replay(rec).to_json() == g.to_json()


def test_every_listed_move_is_accepted():
    """At many states along random games, each legal move applies cleanly on a copy."""
    rng = random.Random(7)
    for players, options in VARIANTS[:6] + VARIANTS[7:9]:
        g = G.new(players, options)
        steps = 0
        while g.result is None and steps < 400:
            actors = g.actors()
            if CHANCE in actors:
                g.apply(CHANCE, g.chance().sample(rng))
            else:
                actor = rng.choice(actors)
                moves = g.legal(actor)
                for m in moves if steps % 5 == 0 else []:
                    c = g.copy()
                    c.apply(actor, m)
                g.apply(actor, rng.choice(moves))
            steps += 1


def test_secret_setup_never_public_in_random_games():
    rng = random.Random(3)
    for players, options in VARIANTS:
        g = G.new(players, options)
        events = g.apply(CHANCE, g.chance().sample(rng))
        assert all("rolled" not in e.data for e in events if e.public)
        for f in g.fighters:
            mine = [e for e in events if e.to == (f["seat"],) and e.data.get("fighter") == f["id"]]
            assert mine and mine[0].data["rolled"]
        # Everyone but the last seat sets up; nobody else sees anything of it.
        seats = sorted({f["seat"] for f in g.fighters})
        for seat in seats[:-1]:
            while seat in g.actors():
                for e in g.apply(seat, g.legal(seat)[0]):
                    if e.public:
                        assert "values" not in e.data
        for viewer in [None, seats[-1]]:
            v = g.view(viewer)
            assert all(c["state"] in ("hidden", "none") for f in v["fighters"]
                       for c in f["board"])
            if viewer is not None:
                assert {s["fighter"] for s in v["you"]["setup"]} == {
                    f["id"] for f in g.fighters if f["seat"] == viewer}


def test_timeouts_never_forfeit_a_decision_but_the_attack():
    rng = random.Random(11)
    g = G.new(2, {"characters": "Lucky Lou,Knuckles"})
    seen = set()
    while g.result is None:
        actors = g.actors()
        if CHANCE in actors:
            g.apply(CHANCE, g.chance().sample(rng))
            continue
        actor = actors[0]
        t = g.timeout_move(actor)
        if g.stage == "declare":
            assert t is None
            g.apply(actor, rng.choice(g.legal(actor)))
        else:
            assert t in g.legal(actor)
            seen.add(g.stage)
            g.apply(actor, t)
    assert {"setup", "defend"} <= seen


def test_board_helpers_match_the_table():
    g = G.new(2, {"characters": "Madame Vex,The Accountant"})
    vex, acc = g.fighters
    for f in (vex, acc):
        f["values"] = {a: 1 for a in f["dice"]}
    assert B.complex_sets(vex) == [("AGI", "SMA"), ("CON", "LUCK")]
    assert B.complex_sets(acc) == [("AGI", "SMA"), ("AGI", "CON"), ("SMA", "CON"),
                                   ("AGI", "SMA", "CON")]
    assert ("LUCK", "STR") in B.boosted_pairs(acc)               # the ring wraps
    assert B.linked(acc, "FOR") == []                           # white links nothing
