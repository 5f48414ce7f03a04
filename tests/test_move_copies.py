"""What one move costs in copies of its state (issue #23 item 5): the table decodes the stored
state once and encodes it once, takes no undo copy (pickle) of it, and still leaves nothing
half-applied: a refused move puts the game back as the row held it."""
from __future__ import annotations

import json
import random

import pytest

from bot.engine import KINDS, load, register
from bot.engine import core
from bot.engine.core import CHANCE, IllegalMoveError
from bot.tables import Tables
from coinflip import CoinFlip
from test_store_tables import ALICE, BOB, db_target, never, store  # noqa: F401  (fixtures)


class Clumsy(CoinFlip):
    """Changes its state in place before it refuses a call of `edge`."""
    KIND = "clumsy"

    def _apply(self, actor, move):
        if move == "call edge":
            self.score[0] += 5
            self.calls[0] = "edge"
            raise IllegalMoveError("A coin has no edge to call.")
        return super()._apply(actor, move)


register(CoinFlip)
register(Clumsy)


@pytest.fixture
async def tables(store):
    t = Tables(store, turn_timer=100, sleep=never)
    yield t
    await t.close()


@pytest.mark.parametrize("kind", KINDS)
def test_to_text_is_the_text_of_to_json(kind):
    """The one encode the table stores is byte for byte what encoding `to_json()` gave."""
    rng = random.Random(5)
    game = load(kind).new(2)
    for _ in range(60):
        assert json.loads(game.to_text()) == game.to_json()
        actors = game.actors()
        if not actors:
            break
        actor = rng.choice(actors)
        move = (game.chance().sample(rng) if actor == CHANCE
                else rng.choice(game.legal(actor)))
        game.apply(actor, move)
    again = load(kind).from_json(json.loads(game.to_text()), owned=True)
    assert again.to_text() == game.to_text()


async def test_a_move_decodes_once_encodes_once_and_pickles_nothing(tables, store,
                                                                      monkeypatch):
    gid = (await tables.create("coinflip", [ALICE, BOB], {"target": 3})).row.id
    counts = {"to_json": 0, "to_text": 0, "from_json": 0}
    for name, owner in (("to_json", core.Game), ("to_text", core.Game)):
        real = getattr(owner, name)

        def counted(self, *a, _real=real, _name=name, **kw):
            counts[_name] += 1
            return _real(self, *a, **kw)
        monkeypatch.setattr(owner, name, counted)
    real_from = core.Game.from_json.__func__

    def from_json(cls, data, **kw):
        counts["from_json"] += 1
        assert kw.get("owned"), "the table's game is built from a copy of its own"
        return real_from(cls, data, **kw)
    monkeypatch.setattr(core.Game, "from_json", classmethod(from_json))

    def no_pickle(*a, **kw):
        raise AssertionError("the table takes no undo copy of the state")
    monkeypatch.setattr(core.pickle, "dumps", no_pickle)
    await tables.play(gid, ALICE, "call heads")
    played = await tables.play(gid, BOB, "call tails")  # and the coin is flipped (chance)
    assert counts == {"to_json": 0, "to_text": 2, "from_json": 2}
    assert played.row.state == played.game.to_json()
    assert (await store.get_game(gid)).state == played.game.to_json()


async def test_a_refused_move_leaves_the_callers_game_as_it_was(tables, store):
    """The engine changed its state before refusing: the table puts it back from the row (the
    engine's own undo copy is not taken), so a caller's `seen` game is as it was read."""
    played = await tables.create("clumsy", [ALICE, BOB])
    gid = played.row.id
    seen = await tables.load(gid)
    before = seen[1].to_text()
    with pytest.raises(IllegalMoveError):
        await tables.play(gid, ALICE, "call edge", seen=seen)
    assert seen[1].to_text() == before
    row = await store.get_game(gid)
    assert row.version == seen[0].version and row.state == json.loads(before)
    # and the game plays on from there, from the same objects
    played = await tables.play(gid, ALICE, "call heads", seen=seen)
    assert played.game.calls == ["heads", None] and played.game.score == [0, 0]


def test_the_engines_own_apply_still_undoes_in_place():
    game = load("clumsy").new(2)
    before = game.to_text()
    with pytest.raises(IllegalMoveError):
        game.apply(0, "call edge")
    assert game.to_text() == before
