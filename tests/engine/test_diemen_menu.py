"""Crazy Die-Man's `menu()` and `prompt()` (issue #21): every legal move in exactly one group, as
a player chooses among them; whose step it is, what to do and why not you, in words — names,
never seat codes, and no notation."""
from __future__ import annotations

import itertools
import random
import re

import pytest

from bot.engine.core import CHANCE
from bot.engine.diemen import DieMen
from bot.engine.menu import Pick, Tone

SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")
KEY = re.compile(r"[a-z][a-z0-9]{0,11}")
NAMES = ["Ann", "Bea"]


def new_game(mode: str, first: int = 0) -> DieMen:
    g = DieMen.new(2, {"mode": mode}, names=NAMES)
    g.apply(0, "banners F1 F2 B1 B2")
    g.apply(1, "banners F2 F3 B2 B3")
    g.apply(CHANCE, f"roll {first + 1}")
    return g


def positions(mode: str, games: int = 4, seed: int = 0):
    """Every position of a few random games (with the seat codes' worst enemies: names)."""
    rng = random.Random(f"{mode}:{seed}")
    for _ in range(games):
        g = DieMen.new(2, {"mode": mode}, names=NAMES)
        for _ in range(400):
            yield g
            if g.outcome() is not None:
                break
            actor = rng.choice(g.actors())
            g.apply(actor, g.chance().sample(rng) if actor == CHANCE
                    else rng.choice(g.legal(actor)))


def words(g: DieMen, seat: int | None) -> list[str]:
    p = g.prompt(seat)
    return [p.status, p.todo, p.waiting]


@pytest.mark.parametrize("mode", ["physical", "simulated"])
def test_every_legal_move_is_in_exactly_one_group(mode):
    phases = set()
    for g in positions(mode):
        phases.add(g.current_phase())
        for seat in (0, 1):
            menu = g.menu(seat)
            moves = menu.moves()
            assert len(moves) == len(set(moves)), g.current_phase()
            legal = g.legal(seat) if seat in g.actors() else []
            assert set(moves) == set(legal), (g.current_phase(), set(moves) ^ set(legal))
            assert menu.secret == (g.current_phase() == "setup" and bool(legal))
            for group in menu.groups:
                assert KEY.fullmatch(group.key) and group.title and group.items
                assert not SEAT_CODE.search(group.title + group.hint)
                for item in group.items:
                    assert 0 < len(item.label) <= 80
                    assert not SEAT_CODE.search(item.label + item.effect), item
    assert {"setup", "move", "flick", "reposition"} <= phases


@pytest.mark.parametrize("mode", ["physical", "simulated"])
def test_prompts_name_players_and_say_no_notation(mode):
    for g in positions(mode):
        humans = [a for a in g.actors() if a != CHANCE]
        for seat in (None, 0, 1):
            for text in words(g, seat):
                assert not SEAT_CODE.search(text) and "`" not in text, text
        if g.outcome() is not None:
            continue
        if humans:
            assert any(n in g.prompt(None).status for n in NAMES)
        for seat in (0, 1):
            p = g.prompt(seat)
            if seat in humans:
                assert p.todo and not p.waiting, g.current_phase()
            else:
                assert p.waiting.startswith("It is not your move") and not p.todo


def test_the_banner_set_up_picks_4_of_6_at_once():
    g = DieMen.new(2, {"mode": "physical"}, names=NAMES)
    menu = g.menu(0)
    assert menu.secret
    spots = menu.group("bn")
    assert spots.pick == Pick.SEVERAL and spots.min_picks == spots.max_picks == 4
    assert [i.move for i in spots.items] == ["F1", "F2", "F3", "B1", "B2", "B3"]
    legal = set(g.legal(0))
    for four in itertools.combinations(["B3", "F1", "B1", "F3", "F2", "B2"], 4):
        assert spots.compose_move(four) in legal   # in any order picked
    assert set(menu.group("layout").moves()) == legal
    assert "4 of your 6 banner spots" in g.prompt(0).todo and "Bonus Flick" in g.prompt(0).todo
    g.apply(0, "banners F1 F2 B1 B2")
    assert not g.menu(0)
    assert g.prompt(0).waiting == ("It is not your move: your banners are set up; waiting for "
                                   "Bea to set up theirs in secret.")
    assert g.prompt(None).status == "Waiting for Bea to set up their banners in secret."


def test_the_move_step():
    g = new_game("physical")
    menu = g.menu(0)
    assert [gr.key for gr in menu.groups] == ["stand", "flick", "noflick", "o"]
    assert menu.group("flick").moves() == ["flick 1", "flick 2"]   # no Bonus on turn 1
    assert menu.group("noflick").tone == Tone.QUIET and menu.group("o").tone == Tone.RISKY
    assert g.prompt(None).status == "Ann to declare flicks"
    assert g.prompt(0).todo == ("Move your Stand if you like, then declare your flicks: 0, 1 "
                                "or 2 dice.")
    assert g.prompt(1).waiting == ("It is not your move: it is Ann's turn (declaring flicks); "
                                   "yours comes next.")
    g.apply(0, "flick 0")
    g.apply(0, "done")
    g.apply(1, "flick 0")
    g.apply(1, "done")
    assert "flick 3 bonus" in g.menu(0).group("flick").moves()
    assert "or 3 as a Bonus Flick" in g.prompt(0).todo


def test_the_physical_flick_and_its_review():
    g = new_game("physical")
    g.apply(0, "flick 2")
    menu = g.menu(0)
    assert [gr.key for gr in menu.groups] == ["c", "rp", "o", "mode"]
    report = menu.group("rp")
    assert [s for s in dict.fromkeys(i.step for i in report.items)] == [
        f"Rolled {n}" for n in range(1, 7)]
    assert g.prompt(None).status == "Ann to flick a real die for flick 1 of 2 and report it"
    g.apply(0, "result 4 hit=F2")
    assert [gr.key for gr in g.menu(1).groups] == ["accept", "dispute"]
    assert g.menu(1).group("accept").tone == Tone.GOOD
    assert g.menu(1).group("dispute").tone == Tone.RISKY
    assert g.prompt(None).status == "Bea to accept or dispute Ann's report"
    assert "Bea is answering your report" in g.prompt(0).waiting
    g.apply(1, "dispute")
    assert "This is the reflick: it cannot be disputed." in g.prompt(0).todo


def test_the_simulated_flick_lists_targets_with_their_chances():
    g = new_game("simulated")
    g.apply(0, "flick 1")
    aim = g.menu(0).group("aim")
    moves = aim.moves()
    assert moves[:4] == ["called F2", "called F3", "called B2", "called B3"]
    assert "aim middle" in moves and all("%" in i.label or i.move == "aim middle"
                                         or "empty" in i.effect for i in aim.items)
    g.apply(0, "aim middle")
    assert g.prompt(None).status == "The referee rolls Ann's flick 1 of 1."
    assert g.prompt(1).waiting == "It is not your move: the referee is rolling Ann's flick 1 of 1."


def test_reposition_narrows_by_banner_and_refusals_say_what_you_may():
    g = new_game("simulated")
    g.apply(0, "flick 0")
    r = g.menu(0).group("r")
    assert {i.step for i in r.items} == {"Banner F1", "Banner F2", "Banner B1", "Banner B2"}
    assert g.menu(0).group("done").tone == Tone.GOOD
    with pytest.raises(Exception) as err:
        g.apply(0, "reposition F1 F2")
    assert str(err.value).endswith("Now you may: reposition a banner; finish your Reposition.")


def test_plurals_are_proper():
    g = new_game("physical")
    events = g.apply(0, "flick 2")
    assert events[0].text == "Ann declares 2 flicks."
    g = new_game("physical")
    assert g.apply(0, "flick 1")[0].text == "Ann declares 1 flick."
    with pytest.raises(Exception) as err:
        g.apply(0, "jump")
    assert "`/games rules game:diemen`" in str(err.value)
