"""Every engine speaks for its rules (issue #10): each legal move of every phase has words a
player reads, from the engine alone, with players named as the table named them; how a game
ended is data; the engine's texts never show seat codes."""
import random
import re

import pytest

from bot.engine import KINDS, load
from bot.engine.core import CHANCE, Ending

NAMES = ["Ada Lovelace", "Bartholomew", "Chidi", "Dolores", "Eun-ji", "Farouk"]
SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")
PLAYERS = {"tradeshowdown": (2, 4), "deathbydice": (2, 4), "kaploom": (2, 4)}
# Tables that need an option to seat that many (KAPLOOM! with four is the 2 vs 2).
OPTIONS = {("kaploom", 4): {"mode": "2v2"}}
# A random KAPLOOM! game runs to its round limit: about a thousand moves.
MAX_MOVES = {"kaploom": 3000}


def games(kind):
    for players in PLAYERS.get(kind, (2,)):
        for seed in range(3):
            yield players, seed


def play(kind, players, seed):
    """Random legal play, yielding the game before each step (and at the end)."""
    max_moves = MAX_MOVES.get(kind, 600)
    game = load(kind).new(players, OPTIONS.get((kind, players), {}), names=NAMES[:players])
    rng = random.Random(seed)
    for _ in range(max_moves):
        yield game
        actors = game.actors()
        if not actors:
            return
        if actors == [CHANCE]:
            game.apply(CHANCE, game.chance().sample(rng))
            continue
        seat = rng.choice(actors)
        game.apply(seat, rng.choice(game.legal(seat)))
    yield game


@pytest.mark.parametrize("kind", KINDS)
def test_every_legal_move_is_described_in_a_players_words(kind):
    checked = 0
    for players, seed in games(kind):
        for step, game in enumerate(play(kind, players, seed)):
            if step >= 600:
                break
            for seat in [a for a in game.actors() if a != CHANCE]:
                moves = game.legal(seat)
                for move in random.Random(checked).sample(moves, min(len(moves), 12)):
                    said = game.describe(move, seat)
                    checked += 1
                    assert said.label and len(said.label) <= 80, (move, said)
                    assert said.label != move, f"{kind}: {move!r} is only echoed back"
                    words = str(said)
                    assert not SEAT_CODE.search(words), (move, words)
    assert checked > 50


@pytest.mark.parametrize("kind", KINDS)
def test_texts_name_players_and_endings_are_data(kind):
    endings = set()
    for players, seed in games(kind):
        game = None
        for step, game in enumerate(play(kind, players, seed)):
            if step >= 600 and step % 25:
                continue  # a long game's later texts: a sample is enough
            text = game.text(None)
            assert not SEAT_CODE.search(text), text
            for seat in range(game.players):
                assert not SEAT_CODE.search(game.text(seat))
        outcome = game.outcome()
        if outcome is not None:
            assert outcome.ending in Ending.ALL and outcome.ending != Ending.UNSPECIFIED, outcome
            assert not SEAT_CODE.search(outcome.reason), outcome.reason
            endings.add(outcome.ending)
    assert endings, f"{kind}: no random game ended"


@pytest.mark.parametrize("kind", KINDS)
def test_events_name_players(kind):
    cls = load(kind)
    game = cls.new(2, names=NAMES[:2])
    rng = random.Random(5)
    for _ in range(400):
        actors = game.actors()
        if not actors:
            break
        if actors == [CHANCE]:
            events = game.apply(CHANCE, game.chance().sample(rng))
        else:
            seat = rng.choice(actors)
            events = game.apply(seat, rng.choice(game.legal(seat)))
        for e in events:
            assert not SEAT_CODE.search(e.text), (kind, e.text)


@pytest.mark.parametrize("kind", KINDS)
def test_resign_and_timeout_say_so(kind):
    game = load(kind).new(2, names=NAMES[:2])
    [event] = [e for e in game.resign(0, Ending.TIMEOUT) if e.kind == "game_over"]
    assert game.outcome().ending == Ending.TIMEOUT
    assert "Ada Lovelace" in event.text or "Bartholomew" in event.text
    both = load(kind).new(2, names=NAMES[:2])
    both.forfeit([0, 1])
    assert both.outcome().draw and both.outcome().ending == Ending.TIMEOUT
