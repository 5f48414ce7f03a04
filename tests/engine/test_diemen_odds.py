"""The simulated flick: the odds table as data, `flick_odds`, and the chance draws behind it."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.core import CHANCE, IllegalMoveError
from bot.engine.diemen import DieMen, FLICK_TABLE, flick_odds
from bot.engine.diemen import board
from bot.engine.diemen.odds import OUTCOMES, band_of, odds_text


def new_sim(b1: str = "F1 F2 B2 B3", b2: str = "F1 F2 B2 B3") -> DieMen:
    g = DieMen.new(2, {"mode": "simulated"})
    g.apply(0, f"banners {b1}")
    g.apply(1, f"banners {b2}")
    g.apply(CHANCE, "roll 1")
    return g


def test_the_table_is_the_rulings_table():
    rows = {r["band"]: r for r in FLICK_TABLE}
    assert [rows["A"][o] for o in OUTCOMES + ("called",)] == [18, 4, 8, 4, 54, 12, 15]
    assert [rows["B"][o] for o in OUTCOMES + ("called",)] == [11, 3, 8, 4, 60, 14, 8]
    assert [rows["C"][o] for o in OUTCOMES + ("called",)] == [6, 2, 7, 4, 65, 16, 5]
    for r in FLICK_TABLE:
        assert sum(r[o] for o in OUTCOMES) == 100


def test_bands_and_distances():
    assert band_of(84.9)["band"] == "A"
    assert band_of(85)["band"] == "B" and band_of(100)["band"] == "B"
    assert band_of(100.1)["band"] == "C"
    # Rulings' coordinates: stands 60 from the middle line, front row 15, back row 35.
    assert board.distance(0, "S2", 1, "F2") == pytest.approx(75.0)
    assert board.distance(0, "S1", 1, "F1") == pytest.approx((50 ** 2 + 75 ** 2) ** 0.5)
    assert board.distance(0, "S1", 1, "F3") == pytest.approx(75.0)   # P2's F3 faces P1's F1
    assert board.distance(1, "S2", 0, "B2") == pytest.approx(95.0)
    assert board.distance(0, "S2", 1, "S2") == pytest.approx(120.0)
    assert board.spot_xy(0, "C1") == (25.0, 75.0) and board.spot_xy(1, "C1") == (75.0, 85.0)
    assert sorted(board.neighbours("F2")) == ["B2", "C2", "F1", "F3"]
    assert sorted(board.neighbours("B1")) == ["B2", "F1", "S1"]
    assert sorted(board.neighbours("S3")) == ["B3", "S2"]


def test_flick_odds_folds_impossible_outcomes():
    o = flick_odds(75.0)
    assert o["band"] == "A" and o["outcomes"] == dict(zip(OUTCOMES, (18, 4, 8, 4, 54, 12)))
    assert o["self_knock"] == 0
    called = flick_odds(75.0, called=True)["outcomes"]
    assert called["clean"] == 33 and called["miss"] == 39
    assert flick_odds(95.0, called=True)["outcomes"]["clean"] == 19
    assert flick_odds(120.0, called=True)["outcomes"]["clean"] == 11
    no_cust = flick_odds(75.0, customers=False)["outcomes"]
    assert no_cust["customer"] == 0 and no_cust["miss"] == 58
    no_nb = flick_odds(75.0, neighbours=False)["outcomes"]
    assert no_nb["pair"] == 0 and no_nb["neighbour"] == 0
    assert no_nb["clean"] == 22 and no_nb["miss"] == 62
    empty = flick_odds(75.0, target_standing=False)["outcomes"]
    assert empty["clean"] == 0 and empty["pair"] == 0 and empty["neighbour"] == 12
    assert empty["miss"] == 72
    empty_alone = flick_odds(75.0, target_standing=False, neighbours=False,
                             customers=False)["outcomes"]
    assert empty_alone == {"clean": 0, "pair": 0, "neighbour": 0, "customer": 0, "miss": 88,
                           "off": 12}
    middle = flick_odds(None, super_sale=True)
    assert middle["outcomes"]["miss"] == 100 and middle["self_knock"] == 12
    for d in (60.0, 90.0, 130.0):
        for kw in ({}, {"called": True}, {"neighbours": False}, {"customers": False},
                   {"target_standing": False}):
            assert sum(flick_odds(d, **kw)["outcomes"].values()) == 100
    with pytest.raises(ValueError):
        flick_odds(75.0, called=True, target_standing=False)
    assert "clean hit 33%" in odds_text(flick_odds(75.0, called=True))


def test_the_engine_draw_uses_flick_odds():
    g = new_sim()
    g.side(1)["customers"] = ["C2"]
    g.floor["supply"] = 3
    g.apply(0, "flick 1")
    shown = g.view(None)["odds"]["called"]["P2:F2"]
    g.apply(0, "called F2")
    flick, r = g.chance().draws
    assert dict(zip(flick.options, flick.weights)) == {
        o: p for o, p in shown["outcomes"].items() if p}
    assert r.options == tuple("123456")
    # Outcomes that cannot happen are not drawable.
    g2 = new_sim(b2="F1 F3 B1 B3")
    g2.apply(0, "flick 1")
    g2.apply(0, "aim F2")    # empty spot, no customers: only neighbours, misses, off
    assert set(g2.chance().draws[0].options) == {"neighbour", "miss", "off"}
    with pytest.raises(Exception):
        g2.apply(CHANCE, "roll clean 3")


def test_self_knock_of_a_super_sale_banner():
    g = new_sim()
    g.apply(0, "flick 1")
    g.apply(0, "aim middle")
    g.apply(CHANCE, "roll miss 2")
    g.apply(0, "supersale F1")
    g.apply(0, "done")
    g.apply(1, "flick 0")
    g.apply(1, "done")
    g.apply(0, "flick 1")
    g.apply(0, "aim B2")
    draws = g.chance().draws
    assert draws[2].label == "self-knock" and draws[2].weights == (12, 88)
    g.apply(CHANCE, "roll clean 3 yes")
    assert [s["damage"] for s in g.floor["sides"]] == [7, 4]
    last = g.flicks[-1]
    assert last["other"] == ["P1:S2"] and last["fell"] == ["P2:B2"]
    assert g.view(None)["sides"][0]["super_sale"] == {"up": 0, "down": 1}


def test_simulated_flick_refusals():
    g = new_sim()
    g.apply(0, "flick 1")
    with pytest.raises(IllegalMoveError):
        g.apply(0, "aim P1:F1")
    with pytest.raises(IllegalMoveError):
        g.apply(0, "aim S2")        # the enemy Stand carries no Super Sale Banner
    with pytest.raises(IllegalMoveError):
        g.apply(0, "result 3 hit=F1")
    with pytest.raises(IllegalMoveError):
        g.apply(0, "mark F1")


@pytest.mark.parametrize("target,called", [("F2", True), ("B1", False), ("F1", False)])
def test_sampled_flicks_match_flick_odds(target, called):
    """Thousands of flicks sampled from the chance distribution: the observed outcome and
    self-knock frequencies match `flick_odds` within a generous tolerance (4 s.d.)."""
    g = new_sim(b2="F1 F2 B1 B3")
    g.side(1)["customers"] = ["C1", "C3"]
    g.floor["supply"] = 2
    # P1's Stand carries a Super Sale Banner, so the 12 % self-knock is in play.
    g.side(0)["banners"][0]["at"] = "stand"
    g.apply(0, "flick 1")
    lab = f"P2:{target}"
    odds = g.odds(lab, called)
    g.apply(0, f"{'called' if called else 'aim'} {target}")
    rng = random.Random(20240607 + len(target) + called)
    n = 3000
    seen: Counter[str] = Counter()
    knocks = 0
    fell_counts: Counter[str] = Counter()
    customers: Counter[str] = Counter()
    for _ in range(n):
        c = g.copy()
        while CHANCE in c.actors() and c.result is None:
            c.apply(CHANCE, c.chance().sample(rng))
        rec = c.flicks[-1]
        seen[rec["outcome"]] += 1
        knocks += bool(rec["other"])
        fell_counts.update(rec["fell"])
        if rec["outcome"] == "customer":
            customers.update(rec["fell"])
    for outcome in OUTCOMES:
        p = odds["outcomes"][outcome] / 100
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(seen[outcome] / n - p) <= 4 * sd + 1e-9, (outcome, seen, odds)
    p = odds["self_knock"] / 100
    assert abs(knocks / n - p) <= 4 * (p * (1 - p) / n) ** 0.5
    # The target falls exactly on clean and pair outcomes.
    assert fell_counts[lab] == seen["clean"] + seen["pair"]
    # The customer outcome knocks one of the two customers, drawn evenly.
    assert sum(customers.values()) == seen["customer"]
    assert abs(customers["P2:C1"] - customers["P2:C3"]) <= 4 * (seen["customer"] ** 0.5)


def test_target_and_neighbour_knocks_a_neighbouring_banner_not_a_customer():
    """Rulings: "hit target and a neighbouring *banner*". Our ruling: with only customers
    beside the target, that outcome is a clean hit — in the odds shown and in what falls."""
    # P2's banners F2 B1 B3 F3... here F2 stands with no banner beside it (F1, F3, B2 empty),
    # only a customer on C2.
    g = new_sim(b2="F2 B1 B3 F3")
    g.side(1)["banners"] = [{"at": s, "up": s == "F2"} for s in ("F2", "B1", "B3", "F3")]
    g.side(1)["customers"] = ["C2"]
    g.floor["supply"] = 3
    g.apply(0, "flick 1 aim=F2")
    odds = g.odds("P2:F2")
    assert odds["outcomes"]["pair"] == 0
    assert odds["outcomes"]["clean"] == 18 + 4
    assert odds["outcomes"]["neighbour"] == 8     # the customer beside it may still fall
    assert "pair" not in g.chance().draws[0].options
    # With a banner beside the target, the pair knocks that banner and never the customer.
    g2 = new_sim(b2="F1 F2 B1 B3")
    g2.side(1)["customers"] = ["C2"]
    g2.floor["supply"] = 3
    g2.apply(0, "flick 1 aim=F2")
    assert g2.odds("P2:F2")["outcomes"]["pair"] == 4
    g2.apply(CHANCE, "roll pair 3")
    assert g2.flicks[-1]["fell"] == ["P2:F2", "P2:F1"]
    assert g2.side(1)["customers"] == ["C2"]


def test_declaring_with_the_first_shot_is_one_move():
    g = new_sim()
    g.apply(0, "flick 2 called=F2")
    v = g.view(0)
    assert v["turn_info"]["declared"] == 2 and v["flick"]["called"] == "P2:F2"
    assert g.actors() == [CHANCE]
    # A refused shot leaves the declaration unmade too (all or nothing).
    g2 = new_sim()
    before = g2.to_json()
    with pytest.raises(IllegalMoveError):
        g2.apply(0, "flick 1 called=F3")    # nothing stands on P2:F3
    assert g2.to_json() == before
