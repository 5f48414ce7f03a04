"""The practice opponents read games only through the engines' public protocol (issue #21
item 4): `view(seat)`, `legal`, `menu`, `actors`, `outcome`, `current_phase`, ... -- never an
engine's raw state (`g.dice`, `g.fighters`, `g.__dict__`) or its underscored hooks.

A runtime guard, not a text search: while a seeded practice game of each kind is played by
every level, every attribute read on a `Game` made from code in `bot/policies/` is checked
against the protocol (whatever name the policy gives the game, however it got it). A read
outside it is recorded and raised as a `BaseException`, so no `except Exception` in a
policy swallows it. (Written before the policies were converted: every kind then failed it,
on seen.py's pickled `__dict__` copies and each policy's raw reads.)"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import bot.policies
from bot.engine import KINDS
from bot.engine.core import Game
from bot.policies.match import play_seeded

POLICIES = str(Path(bot.policies.__file__).resolve().parent)

# The public protocol of bot/engine/core.py `Game`: what a policy may read on a game.
PROTOCOL = frozenset({
    "view", "legal", "menu", "prompt", "actors", "apply", "outcome", "describe", "copy",
    "fork", "chance", "current_phase", "players", "options", "names", "name", "is_secret",
    "secret_seats", "team_of", "text", "timeout_move", "table_move", "simulate",
})


class Breach(BaseException):
    """A policy read a game's state outside the protocol."""


def allowed(game: Game, name: str) -> bool:
    # class constants (KIND, SECRET_PHASES, HIDDEN_PHASES, ...) are the engine's declared words
    return name in PROTOCOL or name.isupper()


@pytest.fixture
def guard(monkeypatch):
    breaches: list[str] = []

    def guarded(self, name):
        caller = sys._getframe(1).f_code.co_filename
        if caller.startswith(POLICIES) and not allowed(self, name):
            where = f"{Path(caller).name}:{sys._getframe(1).f_lineno}"
            breaches.append(f"{where} reads {type(self).__name__}.{name}")
            raise Breach(breaches[-1])
        return object.__getattribute__(self, name)

    monkeypatch.setattr(Game, "__getattribute__", guarded)
    return breaches


# Level pairs that between them reach every policy path: evaluations (greedy, normal
# play-outs), the games' own plans (normal), the searches (hard).
PAIRS = (("greedy", "normal"), ("hard", "easy"))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_policies_read_games_through_the_protocol(kind, guard):
    for levels in PAIRS:
        game, moves, _ = play_seeded(kind, list(levels), seed=3)
        assert game.outcome() is not None, (kind, levels, moves)
    assert guard == []


def test_the_guard_catches_a_raw_read(guard):
    """The guard itself: a raw read from policy code is caught, the protocol is not."""
    from bot.engine import load
    from bot.policies import seen
    g = load("slideslam").new(2)
    code = compile("g.view(None); g.__dict__", seen.__file__, "exec")
    with pytest.raises(Breach):
        exec(code, {"g": g})
    assert guard == ["seen.py:1 reads SlideSlam.__dict__"]
