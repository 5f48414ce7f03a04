"""TradeShowdown's `menu(seat)` and `prompt(seat)` (issue #21): every legal move in exactly one
group, for every seat in random play with 2 to 6 players; lists a screen can lay out (keys fit a
component id, long lists narrow by a step of at most 75 moves, at most 25 steps); and words
that name players, never seat codes or notation."""
from __future__ import annotations

import random
import re

import pytest

from bot.engine.core import CHANCE
from bot.engine.menu import Pick, Tone
from bot.engine.tradeshowdown import TradeShowdown

SEAT_CODE = re.compile(r"@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b|`")
KEY = re.compile(r"[a-z][a-z0-9]{0,11}")
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]


def new(players: int, **options) -> TradeShowdown:
    return TradeShowdown.new(players, {"round_limit": 4, **options}, names=NAMES[:players])


def words_of(game: TradeShowdown, seat: int) -> list[str]:
    menu = game.menu(seat)
    out = [t for g in menu.groups for t in (g.title, g.hint)]
    out += [t for g in menu.groups for i in g.items for t in (i.label, i.effect, i.step)]
    p = game.prompt(seat)
    return out + [p.status, p.todo, p.waiting, game.prompt(None).status]


def check(game: TradeShowdown, players: int) -> None:
    actors = game.actors()
    for seat in range(players):
        menu = game.menu(seat)
        legal = game.legal(seat) if seat in actors else []
        moves = menu.moves()
        assert len(moves) == len(set(moves)), game.phase
        assert set(moves) == set(legal), (game.phase, set(moves) ^ set(legal))
        for group in menu.groups:
            assert group.pick != Pick.SEVERAL and KEY.fullmatch(group.key), group.key
            assert all(len(i.label) <= 80 for i in group.items)
            if len(group.items) > 75:
                steps = [i.step for i in group.items]
                assert all(steps) and len(set(steps)) <= 25
                assert max(steps.count(s) for s in set(steps)) <= 75
        assert menu.secret == game.is_secret(seat)
        prompt = game.prompt(seat)
        assert bool(prompt.todo) == (seat in actors) and bool(prompt.waiting) != (seat in actors)
        for text in words_of(game, seat):
            assert not SEAT_CODE.search(text), text


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_menu_covers_legal_and_prompts_name_players(players):
    for seed in range(3 if players < 6 else 1):
        rng = random.Random(seed * 10 + players)
        game = new(players)
        for _ in range(800):
            if game.outcome() is not None:
                break
            actors = game.actors()
            if actors == [CHANCE]:
                game.apply(CHANCE, "roll " + " ".join(rng.choice(d.options)
                                                      for d in game.chance().draws))
                continue
            check(game, players)
            seat = rng.choice(actors)
            game.apply(seat, rng.choice(game.legal(seat)))
        assert game.outcome() is not None


def test_groups_and_words_of_each_moment():
    game = new(3)
    menu = game.menu(0)
    assert [g.key for g in menu.groups] == ["target", "tag", "dice2", "dice3"]
    assert menu.group("target").pick == Pick.BUTTONS
    assert [i.label for i in menu.group("target").items][0].startswith("Target Bob")
    dice = menu.group("dice3")
    assert dice.title == "Choose your dice and attack Carol" and dice.items[0].step == "Roll 10 dice"
    assert game.prompt(None).status == ("Waiting for Alice, Bob and Carol to choose their dice "
                                         "in secret")
    assert "First pick your target" in game.prompt(0).todo
    game.apply(0, "target @3")
    assert "Your target: Carol." in game.prompt(0).todo
    assert [g.key for g in game.menu(0).groups] == ["target", "tag", "dice", "dice2", "dice3"]
    assert game.menu(0).group("dice").title == "Choose your dice at Carol"
    game.apply(0, "dice d10 d10")
    assert game.prompt(0).waiting == ("It is not your move: you have chosen your dice; waiting "
                                      "for Bob and Carol to choose theirs.")


def test_attack_menus_say_who_and_what():
    game = new(2, tag_team=False, combos=False, intimidate=False, multiple_attacks=False)
    game.apply(0, "dice d10 d10")
    game.apply(1, "dice d4 d4")
    game.apply(CHANCE, "roll 9 9 1 2")
    assert game.phase == "attack"
    [slash] = game.menu(0).groups
    assert slash.key == "slash" and slash.pick == Pick.SELECT and slash.emoji == "⚔️"
    assert slash.items[0].label.startswith("Slash ")
    status = game.prompt(None).status
    assert status.startswith("Alice slashes Bob's ") and "2 slashes left" in status
    assert game.prompt(1).waiting.startswith("It is not your move: Alice is slashing your ")
    assert "strike best first" in game.prompt(0).todo


def test_window_groups_and_tones():
    game = new(2, tag_team=False)
    game.apply(0, "dice d8 d10 d10 d10 d10")
    game.apply(1, "dice d4 d4")
    game.apply(CHANCE, "roll 5 1 2 3 4 3 3")
    groups = {g.key: g for g in game.menu(0).groups}
    assert groups["done"].tone == Tone.GOOD and "combo" in groups
    game.apply(0, groups["combo"].items[0].move)
    groups = {g.key: g for g in game.menu(0).groups}
    assert groups["undo"].tone == Tone.QUIET
    todo = game.prompt(0).todo
    assert "Your plan:" in todo and "Combo: 1 of 5 dice set aside" in todo
    assert "`" not in todo
