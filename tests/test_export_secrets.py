"""#27.5: an exported record holds exactly what the table saw. Two games that differ only in
what was never shown (a window plan later undone, a die face rolled again before anyone saw
it) export the same record, and it replays to the same public events and outcome."""
from __future__ import annotations

import json

import pytest

from bot.engine import load
from bot.engine.core import CHANCE
from bot.engine.records import Record, entry_actor, public_record, replay, selfplay


def public_story(record: Record) -> tuple:
    """Every public event in order, and the outcome."""
    game = load(record.kind).new(len(record.players), record.options, names=record.players)
    events = []
    for entry in record.entries:
        for e in game.table_move(entry_actor(entry, game.players), entry["move"]):
            if e.public:
                events.append(json.dumps([e.text, e.kind, e.data], sort_keys=True))
    return events, game.result


def exported(record: Record) -> str:
    return public_record(record).dumps()


def copy(record: Record, entries: list) -> Record:
    return Record(record.kind, dict(record.options), list(record.players), None,
                  [dict(e) for e in entries], record.result)


def with_an_undone_plan(record: Record) -> Record:
    """The same TradeShowdown game, but before one window plan its player first planned
    something else in secret and took it back (`undo`)."""
    game = load(record.kind).new(len(record.players), record.options, names=record.players)
    for r, entry in enumerate(record.entries):
        actor = entry_actor(entry, game.players)
        if (actor != CHANCE and game.current_phase() == "window"
                and entry["move"] not in ("undo", "done")):
            before = json.dumps(game.view(actor), sort_keys=True, default=str)
            for other in game.legal(actor):
                if other in ("undo", "done", entry["move"]):
                    continue
                trial = load(record.kind).from_json(game.to_json())
                trial.table_move(actor, other)
                trial.table_move(actor, "undo")
                if json.dumps(trial.view(actor), sort_keys=True, default=str) == before:
                    extra = [{"actor": actor + 1, "move": other},
                             {"actor": actor + 1, "move": "undo"}]
                    return copy(record, record.entries[:r] + extra + record.entries[r:])
        game.table_move(actor, entry["move"])
    raise AssertionError("no window plan in this game")


def with_another_unseen_face(record: Record) -> Record:
    """The same KAPLOOM! game, but a die that its owner rolled again in secret (TIME JUMP)
    first showed another face, one nobody but its owner ever saw."""
    game = load(record.kind).new(len(record.players), record.options, names=record.players)
    last_roll: dict[str, tuple[int, int, tuple[str, ...]]] = {}  # die -> (entry, token, faces)
    for r, entry in enumerate(record.entries):
        actor = entry_actor(entry, game.players)
        move = entry["move"]
        if actor == CHANCE:
            chance = game.chance()
            for t, draw in enumerate(chance.draws):
                last_roll[draw.label.split()[0]] = (r, t, draw.options)
        elif " reroll " in move:
            die = move.split()[-1]
            i, t, options = last_roll[die]
            tokens = record.entries[i]["move"].split()
            for face in dict.fromkeys(options):
                if face == tokens[t + 1]:
                    continue
                entries = [dict(e) for e in record.entries]
                entries[i]["move"] = " ".join(tokens[:t + 1] + [face] + tokens[t + 2:])
                variant = copy(record, entries)
                try:
                    replay(variant)
                except Exception:
                    continue
                return variant
        game.table_move(actor, move)
    raise AssertionError("no secret re-roll in this game")


@pytest.mark.parametrize("seed", [0, 1])
def test_a_plan_undone_in_secret_is_not_exported(seed):
    record, _ = selfplay("tradeshowdown", seed)
    variant = with_an_undone_plan(record)
    assert variant.entries != record.entries
    assert exported(variant) == exported(record)
    assert public_story(public_record(variant)) == public_story(record)


@pytest.mark.parametrize("seed", [0])
def test_a_face_rolled_again_unseen_is_not_exported(seed):
    record, _ = selfplay("kaploom", seed)
    variant = with_another_unseen_face(record)
    assert variant.entries != record.entries
    assert exported(variant) == exported(record)
    assert public_story(public_record(variant)) == public_story(record)


@pytest.mark.parametrize("kind", ["tradeshowdown", "kaploom", "slideslam", "deathbydice",
                                  "diemen"])
def test_the_export_replays_to_what_the_table_saw(kind):
    record, game = selfplay(kind, 1)
    public = public_record(record)
    assert public_story(public) == public_story(record)
    again = replay(public)
    assert again.result == game.result
    assert json.dumps(again.view(None), sort_keys=True, default=str) == json.dumps(
        game.view(None), sort_keys=True, default=str)
    assert public.seed is None
