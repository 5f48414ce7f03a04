"""Death by Dice: `menu(seat)` holds every legal move exactly once, grouped as a player chooses,
and `prompt(seat)` says whose step it is, what to do and why not you — in names and words,
never seat codes or notation — through random play of every variant."""
from __future__ import annotations

import random
import re

import pytest

from bot.engine.core import CHANCE
from bot.engine.deathbydice import DeathByDice
from bot.engine.menu import Pick, Tone

from .test_deathbydice_play import VARIANTS

NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fox"]
# Seat codes and notation a player should never read in a prompt.
CODES = re.compile(r"@\d|\bP\d\b|Player \d|->|\b[A-Z]{2,4}=\d|\bsetup \b|\battack (ability|"
                   r"boosted|complex)\b|\bdefend (none|boosted|linked)\b|special [a-z]+-")
KEY = re.compile(r"[a-z][a-z0-9]{0,11}")


def check(g: DeathByDice) -> set[str]:
    """The menu and prompt contracts for every seat of `g` now; the stages seen."""
    prompt = g.prompt(None)
    assert prompt.status and not CODES.search(prompt.status), prompt.status
    for seat in range(g.players):
        menu = g.menu(seat)
        p = g.prompt(seat)
        for text in (p.status, p.todo, p.waiting):
            assert not CODES.search(text), text
        if g.result is None and seat in g.actors():
            assert p.todo and not p.waiting
            moves = menu.moves()
            assert len(moves) == len(set(moves)), "a move in two groups"
            assert set(moves) == set(g.legal(seat))
            assert menu.secret == g.is_secret(seat)
            keys = [grp.key for grp in menu.groups]
            assert len(keys) == len(set(keys)) and all(KEY.fullmatch(k) for k in keys), keys
            for grp in menu.groups:
                assert grp.pick != Pick.SEVERAL and grp.items
                assert not CODES.search(grp.title), grp.title
                for item in grp.items:
                    assert 0 < len(item.label) <= 80 and not CODES.search(item.label), item
                    assert not CODES.search(item.step), item.step
        else:
            assert not menu and (p.waiting or g.result is not None) and not p.todo
    return {g.current_phase()}


@pytest.mark.parametrize("players,options", VARIANTS)
def test_menu_covers_legal_and_prompts_name_people(players, options):
    rng = random.Random(players * 7 + len(options))
    stages: set[str] = set()
    for game in range(2):
        g = DeathByDice.new(players, dict(options), NAMES[:players])
        for _ in range(3000):
            if g.result is not None:
                break
            stages |= check(g)
            actor = rng.choice(g.actors())
            if actor == CHANCE:
                g.apply(CHANCE, g.chance().sample(rng))
            else:
                g.apply(actor, rng.choice(g.menu(actor).moves()))
        assert g.result is not None
        check(g)
    assert {"setup", "declare"} <= stages


def test_groups_tones_and_steps():
    g = DeathByDice.new(2, {"characters": "Malice,Mayhem", "best_of": 1}, ["Ada", "Ben"])
    g.apply(CHANCE, "roll 1 1 1 1 1 12 8 8 8 10")
    menu = g.menu(0)
    [su] = menu.groups
    assert su.key == "su" and su.title == "Place Malice's rolled values" and su.tone == Tone.GOOD
    g.apply(0, g.legal(0)[0])
    g.apply(1, g.legal(1)[0])
    assert g.current_phase() == "declare" and g.actors() == [0]
    menu = g.menu(0)
    at, sp = menu.groups
    assert at.key == "at" and at.pick == Pick.SELECT and at.title == "Declare your attack"
    assert {i.step for i in at.items} >= {"Complex · STR+FOR (d8+d10)",
                                          "Boosted · AGI d6 +2 from STR"}
    assert sp.key == "sp" and sp.tone == Tone.RISKY and sp.moves() == ["special cheap-shot"]
    prompt = g.prompt(0)
    assert prompt.status == "Malice (Ada) to attack."
    assert "you must" in prompt.todo and "Cheap Shot is ready" in prompt.todo
    assert g.prompt(1).waiting.startswith("It is not your step: Malice (Ada), the attacker")
    g.apply(0, "special cheap-shot")
    assert g.menu(0).groups[0].title.startswith("Cheap Shot")
    assert all(m.startswith("attack boosted") for m in g.menu(0).moves())


def test_setup_prompts_and_a_player_running_two_minions():
    g = DeathByDice.new(2, {"mode": "boss"}, ["Ada", "Ben"])
    g.apply(CHANCE, g.chance().sample(random.Random(1)))
    assert g.prompt(None).status == ("Waiting for Boss Malice (Ada), Mayhem (Ben) and "
                                     "The Accountant (Ben) to place their dice in secret.")
    [su] = g.menu(1).groups
    assert {i.step for i in su.items} == {"Mayhem", "The Accountant"}
    assert "Mayhem and The Accountant's board" in g.prompt(1).todo
    g.apply(0, g.legal(0)[0])
    assert g.prompt(0).waiting.startswith("Your set-up is in. Waiting for Mayhem (Ben) and "
                                          "The Accountant (Ben)")


def test_defend_groups_none_is_quiet():
    g = DeathByDice.new(2, {"characters": "Malice,Mayhem", "best_of": 1}, ["Ada", "Ben"])
    g.apply(CHANCE, "roll 1 1 1 1 1 12 8 8 8 10")
    g.apply(0, g.legal(0)[0])
    g.apply(1, g.legal(1)[0])
    g.apply(0, "attack complex STR+FOR -> @2:STR")
    assert g.current_phase() == "defend"
    keys = {grp.key: grp for grp in g.menu(1).groups}
    assert keys["none"].tone == Tone.QUIET and keys["none"].moves() == ["defend none"]
    assert keys["df"].pick == Pick.BUTTONS
    todo = g.prompt(1).todo
    assert todo.startswith("Your STR (12) on Mayhem is attacked by Malice (Ada)")
    assert "No answer in time = no defense" in todo
    assert "the defender" in g.prompt(0).waiting
