"""KAPLOOM! speaks for its rules (issue #10), in the duel and in 2 vs 2: every legal move of
every phase in a player's words, players by name, the sums and the move menu in the view."""
import random
import re

import pytest

from bot.engine.core import CHANCE, Ending
from bot.engine.kaploom import Kaploom

NAMES = ["Ada Lovelace", "Bartholomew", "Chidi", "Dolores"]
SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")
TABLES = [(2, {}), (4, {"mode": "2v2"}),
          (2, {"supers": "Timeout!,Spoiler Alert!"}),
          (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})]


def play(players, options, seed, steps=500):
    g = Kaploom.new(players, options, names=NAMES[:players])
    rng = random.Random(seed)
    for _ in range(steps):
        yield g
        actors = g.actors()
        if not actors:
            return
        if actors == [CHANCE]:
            events = g.apply(CHANCE, g.chance().sample(rng))
        else:
            seat = rng.choice(actors)
            events = g.apply(seat, rng.choice(g.legal(seat)))
        for e in events:
            assert not SEAT_CODE.search(e.text), e.text


@pytest.mark.parametrize("players, options", TABLES)
def test_every_legal_move_has_words_and_a_menu_place(players, options):
    verbs = set()
    checked = 0
    for seed in range(2):
        for step, g in enumerate(play(players, options, seed, steps=250)):
            assert not SEAT_CODE.search(g.text(None))
            for seat in [a for a in g.actors() if a != CHANCE]:
                legal = g.legal(seat)
                if step % 5 == 0:
                    offered = g.menu(seat).moves()
                    assert sorted(offered) == sorted(legal)  # every move has its place
                for move in random.Random(checked).sample(legal, min(len(legal), 8)):
                    checked += 1
                    said = g.describe(move, seat)
                    assert said.label and len(said.label) <= 80 and said.label != move
                    assert not SEAT_CODE.search(str(said)), (move, str(said))
                    assert not said.label.startswith("Move:"), move
                    verbs.add(move.split()[0])
    assert {"assign", "lock"} <= verbs and ({"done"} & verbs)


def test_words_say_what_a_move_does():
    g = Kaploom.new(2, names=["Ada", "Bo"])
    g.apply(CHANCE, "roll X E W A _ _ M E A _")
    said = g.describe("assign POW d7 d8", 1)
    assert said.label == "POW: d7 Might + d8 Energy"
    assert "attack base 3" in said.effect and "your attack would be 3" in said.effect
    assert g.describe("timejump d10 reroll d6", 1).label.startswith("TIME JUMP: use d10")
    assert g.describe("lock", 0).label == "Lock In"
    g.apply(1, "assign POW d7 d8")
    view = g.view(1)
    assert view["players"][1]["attack"]["total"] == 3
    assert view["players"][1]["attack"]["text"] == "POW 3 = 3"
    assert view["players"][0]["attack"] is None              # behind the other screen
    assert view["players"][1]["free"] == ["d6", "d9", "d10"]
    assert view["players"][0]["name"] == "Ada" and view["players"][0]["code"] == "@1"


def test_endings_are_data():
    for players, options in TABLES[:2]:
        endings = set()
        for seed in range(1):
            g = None
            for g in play(players, options, seed, steps=3000):
                pass
            if g.outcome() is not None:
                endings.add(g.outcome().ending)
                assert not SEAT_CODE.search(g.outcome().reason)
        assert endings and endings <= {Ending.KNOCKOUT, Ending.ROUND_LIMIT}
    g = Kaploom.new(4, {"mode": "2v2"}, names=NAMES)
    [event] = g.resign(2, Ending.TIMEOUT)
    assert g.outcome().ending == Ending.TIMEOUT and g.outcome().winners == (0, 1)
    assert "Chidi ran out of time for Chidi and Dolores" in event.text
