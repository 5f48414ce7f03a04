"""KAPLOOM! for the screens: `menu(seat)` groups exactly the legal moves (each in one group,
keys fit a component id, labels fit a button), and `prompt(seat)` names players in words —
never a seat code or notation — for every seat, in random play of a duel and a 2 vs 2."""
import random
import re

import pytest

from bot.engine.core import CHANCE
from bot.engine.kaploom import Kaploom
from bot.engine.menu import Pick

NAMES = ["Ada", "Bo", "Cy", "Di"]
SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b|\b[Ss]eat [1-9]\b")
KEY = re.compile(r"[a-z][a-z0-9]{0,11}")


def play(players, options, seed, steps=500):
    game = Kaploom.new(players, options, names=NAMES[:players])
    rng = random.Random(seed)
    for _ in range(steps):
        actors = game.actors()
        if not actors:
            return
        yield game
        if actors == [CHANCE]:
            game.apply(CHANCE, game.chance().sample(rng))
            continue
        seat = rng.choice(actors)
        game.apply(seat, rng.choice(game.legal(seat)))


@pytest.mark.parametrize("players, options", [
    (2, {}), (2, {"supers": "Timeout!,Spoiler Alert!"}),
    (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"})])
def test_menu_is_the_legal_moves_grouped_and_prompt_speaks_in_names(players, options):
    checked = 0
    for n, game in enumerate(play(players, options, seed=players)):
        if n % 3:
            continue
        actors = [a for a in game.actors() if a != CHANCE]
        for seat in range(players):
            menu = game.menu(seat)
            if seat not in actors:
                assert not menu
                continue
            moves = menu.moves()
            assert sorted(moves) == sorted(game.legal(seat))
            assert len(moves) == len(set(moves)), "a move in two groups"
            keys = [g.key for g in menu.groups]
            assert len(keys) == len(set(keys)) and all(KEY.fullmatch(k) for k in keys), keys
            for g in menu.groups:
                assert g.pick != Pick.SEVERAL and g.items and g.title
                assert all(0 < len(i.label) <= 80 for i in g.items)
                for said in (g.title, g.hint, *(i.label for i in g.items),
                             *(i.effect for i in g.items), *(i.step for i in g.items)):
                    assert not SEAT_CODE.search(said), said
            checked += 1
        for seat in [None, *range(players)]:
            prompt = game.prompt(seat)
            for said in (prompt.status, prompt.todo, prompt.waiting):
                assert not SEAT_CODE.search(said) and "`" not in said, said
            if seat is not None and seat in actors:
                assert prompt.todo and not prompt.waiting
            elif seat is not None:
                assert prompt.waiting and not prompt.todo
    assert checked > 30


def test_phase1_groups_by_action_and_pages_by_first_die():
    game = Kaploom.new(2, {}, names=["Ada", "Bo"])
    game.apply(CHANCE, "roll X E W A _ _ M E A _")
    menu = game.menu(0)
    keys = [g.key for g in menu.groups]
    assert keys[-1] == "lock" and "grow" in keys and "timejump" in keys
    fight = [g.key for g in menu.groups if g.emoji in ("⚔️", "🛡️")]
    assert fight == keys[:len(fight)] and "block" in fight and "grow" not in fight
    grow = menu.group("grow")
    assert grow.title.startswith("GROW — ") and grow.hint == "needs X E"
    ways = {i.move: (i.label, i.step) for i in grow.items}
    assert ways["assign GROW d1 d2"] == ("GROW: d1 X-Factor + d2 Energy", "d1 blue (X-Factor)")
    assert ways["assign GROW d2 d3"] == ("GROW: d2 Energy + d3 Wild", "d2 yellow (Energy)")
    lock = menu.group("lock")
    assert lock.pick == Pick.BUTTONS and lock.tone == "good"


def test_prompt_says_whose_step_what_to_do_and_why_not_you():
    game = Kaploom.new(2, {}, names=["Ada", "Bo"])
    assert game.prompt(None).status == "The dice are rolling."
    game.apply(CHANCE, "roll X E W A _ _ M E A _")
    assert game.prompt(None).status == "Waiting for Ada and Bo to place their dice in secret."
    todo = game.prompt(0).todo
    assert "TIME JUMP and QUICK FIX happen at once" in todo and "Lock In" in todo
    game.apply(0, "lock")
    assert game.prompt(None).status == ("Waiting for Bo to place their dice in secret; Ada is "
                                        "locked in.")
    assert game.prompt(0).waiting == "You are locked in for this round; the reveal waits for Bo."
    game.apply(1, "lock")
    first, second = game.order
    assert game.prompt(None).status == (f"Waiting for {game.name(first)} to finish powering "
                                        f"up (then {game.name(second)}).")
    assert "powers up" not in game.prompt(None).status
    assert game.prompt(second).waiting.startswith(
        f"It is {game.name(first)}'s Power Up (turn order: {game.name(first)} → "
        f"{game.name(second)}); yours comes after.")
    assert game.prompt(first).todo.startswith("Your Power Up: use your actions")


def test_options_words_for_the_screens():
    assert Kaploom.versus(["A", "B", "C", "D"], {"mode": "2v2"}) == "A and B vs C and D"
    assert Kaploom.new(4, {"mode": "2v2"}).goal().startswith("bring the other team's health")
    assert Kaploom.new(2).goal() == "bring your opponent's health to 0"
    assert Kaploom.parse_options({"supers": "Tough Nut"})["supers"] == "Tough Nut,none"
    assert "teams go by who joins" in Kaploom.table_note({"mode": "2v2", "sides": "villain"})
    assert Kaploom.table_note({"mode": "duel"}) == ""
    values = [v for _, v in Kaploom.supers_choices("duel", "villain")]
    assert values[0] == "none" and "Victor Kane, Tough Nut" in values
