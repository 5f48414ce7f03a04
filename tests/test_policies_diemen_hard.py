"""The hard Die-Man player (bot/policies/diemen.py `hard_choose`): it judges by chances to win
where the normal plan judges by expected damage."""
from __future__ import annotations

import random

from bot.engine import CHANCE, load
from bot.policies import diemen, playable
from bot.policies.match import play_game
from bot.policies.seen import clone


def _last_flick(ours: int, theirs: int):
    """A simulated game at the last flick of a two-flick turn, both sides on F1 F3 B1 B2, the
    flicker at `ours` Property Damage and the rival at `theirs`."""
    g = load("diemen").new(2, {"mode": "simulated"}, ["Ann", "Bea"])
    g.apply(0, "banners F1 F3 B1 B2")
    g.apply(1, "banners F1 F3 B1 B2")
    g.apply(CHANCE, g.chance().sample(random.Random(0)))
    seat = g.active
    g.apply(seat, "flick 2")
    g.t["resolved"] = 1
    g.floor["sides"][seat]["damage"] = ours
    g.floor["sides"][1 - seat]["damage"] = theirs
    return g, seat


class _Seen:
    """A seat's record standing for a game whose floor is all public (after the set-up)."""

    def __init__(self, g, seat):
        self.g, self.seat = g, seat

    def determinize(self, rng):
        return clone(self.g)


class _Hard:
    def __init__(self, g, seat):
        self.seen = _Seen(g, seat)
        self.screen = None


def _choices(ours: int, theirs: int) -> tuple[str, str]:
    g, seat = _last_flick(ours, theirs)
    legal = playable(g.legal(seat))
    careful = diemen.careful_plan(diemen.floor_of(g, seat), seat, legal, random.Random(1))
    hard = diemen.hard_choose(_Hard(g, seat), {}, legal, random.Random(1))
    return careful, hard


def test_hard_gambles_on_a_called_shot_when_the_rival_is_ahead():
    # At 16 we are one rival turn from losing; the rival at 12 is out of reach of a plain
    # flick (R <= 6) but not of a Called Shot (2R): the gamble is worth its +R on a miss.
    careful, hard = _choices(16, 12)
    assert careful == "aim F1"
    assert hard == "called F1"


def test_hard_keeps_the_plain_flick_when_comfortably_ahead():
    # Far from the line ourselves, the Called Shot's blame costs more than its 2R brings.
    careful, hard = _choices(1, 16)
    assert careful == hard == "aim F1"


def test_normal_aims_by_rule_of_thumb_where_hard_reads_the_table():
    # The rival's B1 has two banners beside it (F1, B2): the casual normal player goes for
    # the pair, a band further (98 units: 11 clean hits in 100) than F1 (79 units: 18).
    # Hard, and the careful plan, take the front banner; neither plays a Called Shot here.
    g, seat = _last_flick(1, 5)
    legal = playable(g.legal(seat))
    normal = diemen.decide(clone(g), seat, legal, random.Random(1))
    careful, hard = _choices(1, 5)
    assert normal == "aim B1"
    assert careful == hard == "aim F1"
    assert diemen.flick_value(g.floor, seat, "S2", "F1") > \
        diemen.flick_value(g.floor, seat, "S2", "B1")


def test_race_table_favours_less_damage_for_us_and_more_for_the_rival():
    ours, theirs = diemen._play_table()
    for r in range(4):
        for x in range(diemen.GOAL):
            row = ours[r][x]
            assert all(0.0 <= v <= 1.0 for v in row)
            assert all(a <= b + 1e-9 for a, b in zip(row, row[1:]))
        for y in range(diemen.GOAL):
            col = [theirs[r][x][y] for x in range(diemen.GOAL)]
            assert all(a >= b - 1e-9 for a, b in zip(col, col[1:]))


def test_called_shots_pay_in_the_race_only_where_a_plain_flick_falls_short():
    # The race without Called Shots is the same race with fewer choices: never better, and
    # worse at 19 (us) against 12 on the turn's last flick: the rival's next turn all but
    # ends us, and only a 2R hit (R >= 4) ends the rival first.
    ours, _ = diemen._play_table()
    plain, _ = diemen._play_table(calls=False)
    for r in range(4):
        for x in range(diemen.GOAL):
            assert all(p <= c + 1e-9 for p, c in zip(plain[r][x], ours[r][x]))
    assert ours[1][19][12] > plain[1][19][12] + 0.03


def test_a_hard_game_plays_to_its_end():
    result = play_game("diemen", ["hard", "normal"], 3)
    assert not result.capped and result.winners
