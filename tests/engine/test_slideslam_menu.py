"""Slide and Slam's menu and prompt (issue #21): every legal move in exactly one group, in the
game's words; whose step it is, what to do and why not you, by name, never seat codes or
notation."""
import random
import re

import pytest

from bot.engine.core import CHANCE
from bot.engine.menu import Pick, Tone
from bot.engine.slideslam import SlideSlam

CODES = re.compile(r"(?<![\w<`])@[12]\b|\b[Pp]layer [12]\b|\bP[12]\b")
NOTATION = re.compile(r"`|\b(place|unplace|slide|slam|bend|awaken) [a-i]\d|\b[a-i]\d=\d")
P1 = "place a1=6 b1=5 c4=4 d1=3 e1=2 f1=1"
P2 = "place a8=6 b5=5 c6=4 d5=3 e8=2 f8=1"


def placed(**options):
    g = SlideSlam.new(2, {"first_player": "random", **options}, names=["Alice", "Bob"])
    for seat, p in enumerate((P1, P2)):
        g.apply(seat, p)
        g.apply(seat, "confirm")
    g.apply(CHANCE, "roll 1")
    return g


@pytest.mark.parametrize("seed", range(12))
def test_menu_covers_legal_exactly_and_prompts_speak_names(seed):
    rng = random.Random(seed)
    values = rng.choice(["6,5,4,3,2,1", "1,1,1,1,1,1", "3,3,2,2,1,1", "6,6,5,5,1,1"])
    g = SlideSlam.new(2, {"starting_values": values}, names=["Alice", "Bob"])
    keys = set()
    for _ in range(300):
        if g.outcome() is not None:
            break
        for seat in (0, 1):
            menu = g.menu(seat)
            moves = menu.moves()
            assert len(moves) == len(set(moves))
            assert set(moves) == (set(g.legal(seat)) if seat in g.actors() else set())
            assert all(grp.pick != Pick.SEVERAL for grp in menu.groups)
            for grp in menu.groups:
                keys.add(grp.key)
                assert re.fullmatch(r"[a-z][a-z0-9]{0,11}", grp.key)
                assert not CODES.search(grp.title + grp.hint)
                for item in grp.items:
                    assert 0 < len(item.label) <= 80 and not CODES.search(item.label)
            prompt = g.prompt(seat)
            for text in (prompt.status, prompt.todo, prompt.waiting):
                assert not CODES.search(text) and not NOTATION.search(text), text
            assert bool(prompt.todo) == (seat in g.actors())
        actor = g.actors()[0]
        if actor == CHANCE:
            g.apply(CHANCE, rng.choice(["roll 1", "roll 2"]))
        else:
            g.apply(actor, rng.choice(g.legal(actor)))
    assert {"q", "un", "confirm", "sl", "sm", "end"} <= keys


def test_groups_keys_and_tones_of_a_turn():
    g = placed()
    menu = g.menu(0)
    assert [grp.key for grp in menu.groups] == ["sl"] and not menu.secret
    [slides] = menu.groups
    assert slides.items[0].step.startswith("A (6) on a1 — ")
    g.apply(0, "slide c4 c5")
    groups = {grp.key: grp for grp in g.menu(0).groups}
    assert list(groups) == ["sm", "pr", "end"]
    assert groups["pr"].tone == Tone.RISKY and groups["end"].tone == Tone.QUIET
    assert [i.move for i in groups["pr"].items] == ["slam c5 predict"]
    g.apply(0, "slam c5")
    groups = {grp.key: grp for grp in g.menu(1).groups}
    assert list(groups) == ["bd", "pass"] and groups["bd"].pick == Pick.BUTTONS
    assert [i.label for i in groups["bd"].items][0] == "DICE IS NOT BEND! Save W at c6 (4→3 avoided)"
    assert g.menu(0).groups == ()


def test_placement_menu_is_secret_and_narrows_by_die():
    g = SlideSlam.new(2, {}, names=["Alice", "Bob"])
    menu = g.menu(0)
    assert menu.secret and [grp.key for grp in menu.groups] == ["q"]
    steps = list(dict.fromkeys(i.step for i in menu.groups[0].items))
    assert steps == [f"Die {k} (health {v})" for k, v in zip("ABCDEF", (6, 5, 4, 3, 2, 1))]


def test_prompt_words():
    g = SlideSlam.new(2, {}, names=["Alice", "Bob"])
    assert g.prompt(None).status.startswith("Waiting for Alice and Bob to place their dice")
    assert "rows 1–4" in g.prompt(0).todo and "rows 5–8" in g.prompt(1).todo
    g.apply(0, P1)
    g.apply(0, "confirm")
    assert "comes down when Bob confirms too" in g.prompt(0).waiting
    g.apply(1, P2)
    g.apply(1, "confirm")
    g.apply(CHANCE, "roll 2")
    assert g.prompt(None).status == "Bob to slide"
    assert g.prompt(0).waiting == "It is not your turn: Bob is to slide. Your turn comes next."
    assert "slide one of your dice (you must)" in g.prompt(1).todo
    g.apply(1, "slide c6 c5")
    assert g.prompt(None).status == "Bob to slam or end the turn"
    g.apply(1, "slam c5")
    assert g.prompt(None).status == "Alice to answer Bob's slam: DICE IS NOT BEND! or take the hit"
    assert "Alice is answering the slam" in g.prompt(1).waiting
    assert "60 seconds" in g.prompt(0).todo
    assert g.bend_refusal(1) == ("Only Alice can say DICE IS NOT BEND! now: it is their dice "
                                 "being slammed.")
    g.apply(0, "bend c4")
    assert "already spent" in g.bend_refusal(0)
    assert "no slam of your opponent's" in g.bend_refusal(1)


def test_squares_name_dice_by_square():
    g = placed()
    assert g.squares("slide c4 c5") == ("c4", "c5")
    assert g.squares("place a1=6 b2=5") == ("a1", "b2")
    assert g.square_of("C") == "c4" and g.square_of("c") == "c4" and g.square_of("d5") == "d5"


def test_argue_refusal_says_when_arguing_is_over_or_not_yet():
    g = SlideSlam.new(2, {}, names=["Alice", "Bob"])
    assert "after the Wall of Unknowing comes down" in g.argue_refusal(0)
    for seat, p in enumerate((P1, P2)):
        g.apply(seat, p)
        g.apply(seat, "confirm")
    assert g.argue_refusal(0) == "" and g.argue_refusal(1) == ""
    g.apply(CHANCE, "roll 1")
    assert g.argue_refusal(0).startswith("Who goes first is already decided. Your turn: slide")
    assert g.argue_refusal(1) == "Who goes first is already decided."
    assert "at random" in placed().argue_refusal(0)
