"""The practice driver plays the bot's seats through the table, like a person: a whole game
per kind against a random 'person', every bot move recorded and replayable; a bot seat that
must act twice in a row, or again while its own move is still being published, is never
left waiting."""
from __future__ import annotations

import random
import threading

import pytest

import asyncio

from bot.engine import CHANCE, KINDS, load, register
from bot.policies import playable
from bot.practice import PRACTICE_KEY, PracticeDriver, decide
from bot.policies.match import default_options
from bot.store import Store
from bot.tables import QuietListener, Tables
from coinflip import CoinFlip

register(CoinFlip)


@register
class CoinFlipThree(CoinFlip):
    """Coin Flip for up to three: a person and two bot seats."""
    KIND = "coinflip3"
    MAX_PLAYERS = 3

PERSON, BOT = 111, 999


class Relay(QuietListener):
    """A publish path that calls the practice hook, as the integrator's will."""

    def __init__(self):
        self.driver: PracticeDriver | None = None
        self.published = 0

    async def publish(self, played):
        self.published += 1
        await self.driver.after_publish(played)


async def _never(_s):
    return None


@pytest.fixture
async def tables(tmp_path):
    store = await Store.open(str(tmp_path / "p.db"))
    t = Tables(store, turn_timer=100000, sleep=_never)
    yield t
    await t.close()
    await store.close()


@pytest.mark.parametrize("kind", KINDS)
async def test_a_person_plays_a_whole_game_against_the_bot(tables, kind):
    relay = Relay()
    tables.listeners[kind] = relay
    driver = PracticeDriver(tables, BOT, delay=0)
    relay.driver = driver
    played = await tables.create(kind, [PERSON, BOT], default_options(kind),
                                 extra={PRACTICE_KEY: "easy"}, names=["Ann", "Referee"])
    gid = played.row.id
    rng = random.Random(3)
    bot_moves = 0
    for _ in range(3000):
        await driver.idle()
        row, game = await tables.load(gid)
        if game.outcome() is not None:
            break
        assert 0 in game.actors() or 1 in game.actors() or CHANCE in game.actors()
        if 0 in game.actors():
            await tables.play(gid, PERSON, rng.choice(playable(game.legal(0))))
        else:
            # only the bot can be waited for now; its task must have played or be running
            assert 1 in game.actors(), game.actors()
            pytest.fail("the bot seat must act but no move came")
    row, game = await tables.load(gid)
    assert game.outcome() is not None
    record = await tables.store.entries(gid)
    bot_moves = sum(1 for a, _ in record if a == "2")
    assert bot_moves > 0
    # the record replays to the same end: the bot's moves went through the table
    replay = load(kind).new(2, row.options, ["Ann", "Referee"])
    for a, m in record:
        replay.table_move(CHANCE if a == "chance" else int(a) - 1, m)
    assert replay.outcome() == game.outcome()


async def test_the_bot_thinks_off_the_event_loop(tables, monkeypatch):
    seen_threads = []
    import bot.practice as practice

    def spy(*args, **kwargs):
        seen_threads.append(threading.current_thread() is threading.main_thread())
        return decide(*args, **kwargs)

    monkeypatch.setattr(practice, "decide", spy)
    relay = Relay()
    tables.listeners["slideslam"] = relay
    relay.driver = PracticeDriver(tables, BOT, delay=0)
    await tables.create("slideslam", [PERSON, BOT], {}, extra={PRACTICE_KEY: "random"},
                        names=["Ann", "Referee"])
    await relay.driver.idle()
    assert seen_threads and not any(seen_threads)


async def test_the_visible_delay_is_waited_before_the_move(tables):
    waited = []

    async def sleep(s):
        waited.append(s)

    relay = Relay()
    tables.listeners["slideslam"] = relay
    relay.driver = PracticeDriver(tables, BOT, delay=1.5, sleep=sleep)
    await tables.create("slideslam", [PERSON, BOT], {}, extra={PRACTICE_KEY: "random"},
                        names=["Ann", "Referee"])
    await relay.driver.idle()
    assert waited and all(w == 1.5 for w in waited)


async def test_a_game_without_practice_is_left_alone(tables):
    relay = Relay()
    tables.listeners["slideslam"] = relay
    relay.driver = PracticeDriver(tables, BOT, delay=0)
    played = await tables.create("slideslam", [PERSON, BOT], {}, names=["Ann", "Bob"])
    await relay.driver.idle()
    row, game = await tables.load(played.row.id)
    assert 1 in game.actors()  # Bob (a person who happens to have id BOT) was not played for
    assert not [m for a, m in await tables.store.entries(played.row.id) if a == "2"]
    assert not relay.driver._tasks


def first_legal(kind, players, options, names, record, seat, level, salt, view, legal,
                follow=None):
    return legal[0]


class GatedRelay(Relay):
    """The bot's own publishes wait at a gate: the person moves while the bot's move is still
    being published (Discord is slow), and only then does that publish reach the hook."""

    def __init__(self):
        super().__init__()
        self.gate = asyncio.Event()
        self.held = 0

    async def publish(self, played):
        self.published += 1
        if played.cause == "move" and played.entries[0].actor == 1:  # the bot's move
            self.held += 1
            await self.gate.wait()
        await self.driver.after_publish(played)


async def test_a_move_due_while_the_bots_own_publish_runs_is_made(tables, monkeypatch):
    """Both call each round in secret. The bot calls; while its publish is still on the way,
    the person calls, the coin is flipped and a new round asks the bot again. The person's
    publish finds the bot's mover busy; the bot's publish speaks of the old round. The bot
    must still call in the new round."""
    import bot.practice as practice
    monkeypatch.setattr(practice, "decide", first_legal)
    relay = GatedRelay()
    tables.listeners["coinflip"] = relay
    relay.driver = PracticeDriver(tables, BOT, delay=0)
    played = await tables.create("coinflip", [PERSON, BOT], {"target": 9},
                                 extra={PRACTICE_KEY: "random"}, names=["Ann", "Referee"])
    gid = played.row.id
    for _ in range(500):
        if relay.held:
            break
        await asyncio.sleep(0.01)
    assert relay.held == 1  # the bot has called round 1; its publish waits
    await tables.play(gid, PERSON, "call tails")
    _, game = await tables.load(gid)
    assert game.round == 2 and 1 in game.actors()
    relay.gate.set()
    await relay.driver.idle()
    _, game = await tables.load(gid)
    assert game.round == 2 and game.calls[1] == "heads"  # called again, in the new round
    moves = [(a, m) for a, m in await tables.store.entries(gid) if a == "2"]
    assert moves == [("2", "call heads"), ("2", "call heads")]


async def test_a_bot_seat_acting_twice_in_a_row_gets_both_moves(tables, monkeypatch):
    """Three seats, two of them the bot's: each round both bot seats call, one after the
    other, and every round after a chance flip."""
    import bot.practice as practice
    monkeypatch.setattr(practice, "decide", first_legal)
    relay = Relay()
    tables.listeners["coinflip3"] = relay
    relay.driver = PracticeDriver(tables, BOT, delay=0)
    played = await tables.create("coinflip3", [PERSON, BOT, BOT], {"target": 3},
                                 extra={PRACTICE_KEY: "random"},
                                 names=["Ann", "Referee 1", "Referee 2"])
    gid = played.row.id
    for _ in range(10):
        await relay.driver.idle()
        row, game = await tables.load(gid)
        if game.outcome() is not None:
            break
        assert game.actors() == [0], game.actors()  # the bot seats have called
        await tables.play(gid, PERSON, "call tails")
    assert game.outcome() is not None


async def test_a_refused_move_is_tried_again_then_left_to_the_clock(tables, monkeypatch):
    import bot.practice as practice
    calls = []

    def nonsense(*args, **kwargs):
        calls.append(args[5])
        return "call edge"

    monkeypatch.setattr(practice, "decide", nonsense)
    relay = Relay()
    tables.listeners["coinflip"] = relay
    relay.driver = PracticeDriver(tables, BOT, delay=0)
    played = await tables.create("coinflip", [PERSON, BOT], {}, extra={PRACTICE_KEY: "random"},
                                 names=["Ann", "Referee"])
    await relay.driver.idle()
    assert calls == [1] * practice.REFUSALS
    _, game = await tables.load(played.row.id)
    assert 1 in game.actors() and not relay.driver._tasks


@pytest.mark.parametrize("kind", KINDS)
def test_a_followed_seat_decides_as_a_full_replay_would(kind):
    """The driver keeps what a bot seat saw between its decisions: each decision equals the
    one made from the whole record replayed afresh."""
    import bot.practice as practice
    cls = load(kind)
    options = practice.practice_options(kind, 2)
    names = ["Ann", "Referee"]
    game = cls.new(2, options, names)
    rng = random.Random(11)
    record, compared = [], 0
    key = ("test", kind)
    while game.outcome() is None and compared < 25 and len(record) < 400:
        actors = game.actors()
        if actors == [CHANCE]:
            move = game.chance().sample(rng)
            game.apply(CHANCE, move)
            record.append((CHANCE, move))
            continue
        seat = actors[-1]
        if seat == 1:
            args = (kind, 2, options, names, list(record), 1, "easy", f"s{len(record)}",
                    game.view(1), game.legal(1))
            move = decide(*args, follow=key)
            assert move == decide(*args), (kind, len(record))
            compared += 1
        else:
            move = rng.choice(playable(game.legal(seat)))
        game.table_move(seat, move)
        record.append((seat, move))
    assert compared >= 5


async def test_the_bot_can_think_in_a_process_of_its_own(tables):
    """What multi-core hosts do: the decision is made in a spawned worker process."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import bot.practice as practice
    pool = ProcessPoolExecutor(max_workers=1, initializer=practice._warm,
                               mp_context=multiprocessing.get_context("spawn"))
    try:
        relay = Relay()
        tables.listeners["slideslam"] = relay
        relay.driver = PracticeDriver(tables, BOT, delay=0, executor=pool)
        played = await tables.create("slideslam", [PERSON, BOT], {},
                                     extra={PRACTICE_KEY: "easy"}, names=["Ann", "Referee"])
        await relay.driver.idle()
        moves = [m for a, m in await tables.store.entries(played.row.id) if a == "2"]
        assert moves  # the placement step: the bot placed its dice
        assert pool._processes  # and it was thought out there
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
