"""The screen protocol's contract (issue #21 item 5): in random legal play of every game, at
every player count, each seat's `menu()` offers exactly its `legal()` moves, each once, in
groups a screen can lay out; `prompt()` words whose step it is and why not you with names,
never seat codes; and the menu's secrecy is the engine's."""
from __future__ import annotations

import random
import re

import pytest

from bot.engine import KINDS, load
from bot.engine.core import CHANCE, OptionError
from bot.engine.menu import Pick
from random_turns import random_turns
from table_play import SEAT_CODE

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
KEY = re.compile(r"[a-z][a-z0-9]{0,11}")
STEPS = 160


def counts(kind):
    cls = load(kind)
    out = []
    for n in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
        try:
            cls.new(n, names=NAMES[:n])
        except OptionError:
            continue
        out.append(n)
    return out


CASES = [(kind, n, seed) for kind in KINDS for n in counts(kind) for seed in (1, 2)]


def check_seat(game, seat):
    menu = game.menu(seat)
    legal = game.legal(seat)
    offered = menu.moves()
    assert sorted(offered) == sorted(legal), (
        f"{game.KIND} seat {seat} phase {game.current_phase()}: menu and legal differ: "
        f"only in menu {sorted(set(offered) - set(legal))[:5]}, "
        f"only legal {sorted(set(legal) - set(offered))[:5]}")
    assert len(offered) == len(set(offered)), "a move is offered twice"
    assert bool(menu) == bool(legal)
    if legal:
        assert menu.secret == game.is_secret(seat)
    for group in menu.groups:
        assert KEY.fullmatch(group.key), group.key
        assert group.title and not SEAT_CODE.search(group.title), group.title
        assert not SEAT_CODE.search(group.hint), group.hint
        assert group.pick in (Pick.BUTTONS, Pick.SELECT, Pick.SEVERAL)
        for item in group.items:
            assert item.label and len(item.label) <= 80, item.label
            assert not SEAT_CODE.search(item.label), item.label
    prompt = game.prompt(seat)
    for text in (prompt.status, prompt.todo, prompt.waiting):
        assert not SEAT_CODE.search(text), text
    if seat in game.actors():
        assert not prompt.waiting and prompt.todo
    elif game.outcome() is None:
        assert prompt.waiting and not prompt.todo


@pytest.mark.parametrize("kind,players,seed", CASES)
def test_menu_is_legal_and_prompt_names_players(kind, players, seed):
    rng = random.Random(seed)
    game = load(kind).new(players, names=NAMES[:players])
    for seat in random_turns(game, rng, STEPS):
        public = game.prompt(None)
        assert public.status and not SEAT_CODE.search(public.status), public.status
        assert set(public.actors) == {a for a in game.actors() if a != CHANCE}
        for each in range(players):
            check_seat(game, each)
        game.apply(seat, rng.choice(game.legal(seat)))


@pytest.mark.parametrize("kind", KINDS)
def test_menu_words_are_the_state_it_was_built_from(kind):
    """Menu items are worded when first read (`MenuItem.worded`): a menu read after a move
    says what it said before that move, and every item's words are `describe()`'s."""
    rng = random.Random(7)
    game = load(kind).new(2 if 2 >= load(kind).MIN_PLAYERS else load(kind).MIN_PLAYERS,
                          names=NAMES)
    checked = 0
    for seat in random_turns(game, rng, STEPS):
        menu = game.menu(seat)
        said = {i.move: (game.describe(i.move, seat).label, game.describe(i.move, seat).effect)
                for g in menu.groups for i in g.items if g.pick != Pick.SEVERAL}
        before = game.menu(seat)  # built from the same state, read only after the move
        move = rng.choice(game.legal(seat))
        game.apply(seat, move)
        for group in before.groups:
            for item in group.items:
                if group.pick != Pick.SEVERAL:
                    assert (item.label, item.effect) == said[item.move], (kind, item.move)
                    checked += 1
    assert checked > 20
