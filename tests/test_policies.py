"""Practice opponents: they decide from what their seat may see, and their rebuilt games agree
with that view (issue #16, "It plays fair")."""
from __future__ import annotations

import random

import pytest

from bot.engine import CHANCE, KINDS, load
from bot.policies import LEVELS, make, playable, seen_from_record
from bot.policies.match import default_options
from bot.policies.seen import Watch

# a small search keeps these tests quick; the decision rule is the same at any budget
SMALL = {"budget": 8}


def _policy(level, seen):
    p = make(level, seen)
    for k, v in SMALL.items():
        if hasattr(p, k):
            setattr(p, k, v)
    return p


def _random_until(kind, seed, stop):
    """Random legal play (seeded) until `stop(game)`; returns the game and its record."""
    g = load(kind).new(2, default_options(kind), ["Ann", "Bob"])
    return g, play_randomly(g, random.Random(seed), stop)


def play_randomly(g, rng, stop) -> list:
    """Random legal moves on `g` (the last of several actors moves; chance samples) until it
    ends or `stop(g)`, at most 3,000; the (actor, move) record."""
    record = []
    for _ in range(3000):
        if g.outcome() is not None or stop(g):
            break
        actors = g.actors()
        if actors == [CHANCE]:
            actor, move = CHANCE, g.chance().sample(rng)
        else:
            actor = actors[-1] if len(actors) > 1 else actors[0]
            move = rng.choice(playable(g.legal(actor)))
        g.apply(actor, move)
        record.append((actor, move))
    return record


def _seen(kind, g, record, seat):
    return seen_from_record(kind, g.players, g.options, g.names, record, seat)


def _both_secret(g):
    return len([a for a in g.actors() if a != CHANCE]) > 1


def _twin_secret_moves(kind, seed):
    """Two games that differ only in a secret move seat 1 just made, while seat 0 must still
    make its own: seat 0's view is the same in both."""
    for s in range(seed, seed + 40):
        g, rec = _random_until(kind, s, _both_secret)
        if not _both_secret(g) or 1 not in g.actors():
            continue
        legal = g.legal(1)
        base = g.copy()
        base.apply(1, legal[0])
        for other in legal[1:]:
            alt = g.copy()
            alt.apply(1, other)
            if 0 in alt.actors() and 0 in base.actors() and alt.view(0) == base.view(0) \
                    and alt.to_json() != base.to_json():
                return (base, rec + [(1, legal[0])]), (alt, rec + [(1, other)])
    pytest.skip(f"{kind}: no twin secret position found")


def _twin_private_rolls(kind, seed):
    """Two games that differ only in seat 1's private roll (KAPLOOM!'s Phase 1 roll, Death by
    Dice's set-up roll)."""
    for s in range(seed, seed + 40):
        g, rec = _random_until(kind, s, lambda g: g.actors() == [CHANCE] and any(
            d.owner == 1 for d in g.chance().draws) and any(
            d.owner == 0 for d in g.chance().draws))
        if g.outcome() is not None:
            continue
        ch = g.chance()
        rng = random.Random(s)
        a = ch.sample(rng).split()[1:]
        b = list(a)
        for i, d in enumerate(ch.draws):
            if d.owner == 1:
                b[i] = next((o for o in d.options if o != a[i]), a[i])
        ga, gb = g.copy(), g.copy()
        ev_a = ga.apply(CHANCE, "roll " + " ".join(a))
        gb.apply(CHANCE, "roll " + " ".join(b))
        if any(e.public is False for e in ev_a) and 0 in ga.actors() and a != b \
                and ga.view(0) == gb.view(0):
            return ((ga, rec + [(CHANCE, "roll " + " ".join(a))]),
                    (gb, rec + [(CHANCE, "roll " + " ".join(b))]))
    pytest.skip(f"{kind}: no private roll found")


def _decisions(kind, twin, level):
    out = []
    for g, rec in twin:
        seen = _seen(kind, g, rec, 0)
        out.append(_policy(level, seen).choose(g.view(0), g.legal(0), random.Random(7)))
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_decision_ignores_the_other_seats_secret_move(kind, level):
    twin = _twin_secret_moves(kind, 11)
    (g1, _), (g2, _) = twin
    assert g1.to_json()["state"] != g2.to_json()["state"]  # the secrets really differ
    a, b = _decisions(kind, twin, level)
    assert a == b
    assert a in g1.legal(0)


@pytest.mark.parametrize("kind", ["kaploom", "deathbydice"])
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_decision_ignores_the_other_seats_private_roll(kind, level):
    twin = _twin_private_rolls(kind, 3)
    (g1, _), (g2, _) = twin
    assert g1.to_json()["state"] != g2.to_json()["state"]
    a, b = _decisions(kind, twin, level)
    assert a == b


def test_a_policy_that_peeks_is_caught():
    """The twin check can fail: a 'policy' reading the real game tells the twins apart."""
    (g1, _), (g2, _) = _twin_secret_moves("slideslam", 11)
    assert g1.view(0) == g2.view(0)
    assert str(g1.to_json()) != str(g2.to_json())


@pytest.mark.parametrize("kind", KINDS)
def test_rebuilt_game_shows_the_seat_what_it_saw(kind):
    """At many points of random games, for both seats, the determinized game's view of the
    seat equals the real view, and its legal moves are the real ones."""
    rng = random.Random(5)
    checked = 0
    for seed in range(2):
        g, rec = _random_until(kind, seed, lambda g: False)
        cuts = sorted(rng.sample(range(1, len(rec)), min(4, len(rec) - 1)))
        for cut in cuts:
            part = rec[:cut]
            real = load(kind).new(2, default_options(kind), ["Ann", "Bob"])
            for actor, move in part:
                real.apply(actor, move)
            for seat in (0, 1):
                seen = _seen(kind, real, part, seat)
                det = seen.determinize(random.Random(cut))
                assert det.view(seat) == real.view(seat), (kind, cut, seat)
                assert det.legal(seat) == real.legal(seat)
                checked += 1
    assert checked >= 8


@pytest.mark.parametrize("kind", KINDS)
def test_every_level_answers_a_legal_move(kind):
    count = iter(range(10 ** 6))
    g, rec = _random_until(kind, 2, lambda g: next(count) > 30 and len(g.actors()) == 1
                           and g.actors() != [CHANCE])
    assert g.outcome() is None
    seat = g.actors()[0]
    for level in LEVELS:
        seen = _seen(kind, g, rec, seat)
        move = _policy(level, seen).choose(g.view(seat), g.legal(seat), random.Random(1))
        assert move in g.legal(seat)


@pytest.mark.parametrize("kind", ["kaploom", "deathbydice", "tradeshowdown"])
def test_private_draws_belong_to_their_owner(kind):
    """The engine says whose die a draw is (the bots read it; nobody parses labels)."""
    options = {"character": "Malice", "opponent_character": "Mayhem"} if (
        kind == "deathbydice") else {}
    g = load(kind).new(2, {k: v for k, v in options.items()
                           if k in {o.name for o in load(kind).OPTIONS}}, ["Ann", "Bob"])
    rng = random.Random(1)
    while g.actors() != [CHANCE]:
        seat = g.actors()[0]
        g.apply(seat, rng.choice(g.legal(seat)))
    draws = g.chance().draws
    assert {d.owner for d in draws} == {0, 1}
    for d in draws:
        name = ["Ann", "Bob"][d.owner]
        assert d.label.startswith(f"@{d.owner + 1}") or d.label.endswith(f"of {name}")


def test_bots_never_take_back_their_own_steps():
    assert playable(["undo", "done", "combo 3"]) == ["done", "combo 3"]
    assert playable(["mode physical", "aim F1", "oops F2"]) == ["aim F1"]
    assert playable(["undo"]) == ["undo"]
    assert playable(["attach d6 M", "detach d3 M", "done"]) == ["attach d6 M", "done"]


def test_a_kaploom_partner_sees_its_teammates_dice_and_placements():
    """KAPLOOM! 2 vs 2: a team rolls and places in the open between partners, so a bot seat
    knows its partner's dice and steps as they happen (it had guessed them, failed every
    sample and thought ten times longer), while the rival team's stay hidden until the
    reveal."""
    game = load("kaploom").new(4, {"mode": "2v2"}, ["A", "B", "C", "D"])
    watch = Watch(game)
    rng = random.Random(7)
    while game.actors() == [CHANCE]:
        move = game.chance().sample(rng)
        note = watch.before(game, CHANCE)
        watch.after(game, CHANCE, move, note, game.apply(CHANCE, move))
    assert game.stage == "assign"
    [partner] = [t for t in game.team_of(0) if t != 0]
    [rival] = [t for t in range(4) if t not in game.team_of(0)][:1]
    for mover in (partner, rival):
        move = next(m for m in game.legal(mover) if m.startswith("assign"))
        note = watch.before(game, mover)
        watch.after(game, mover, move, note, game.apply(mover, move))
    seen = watch.seen[0]
    [roll] = [e for e in seen._open if e.actor == CHANCE]
    owners = [s for s in range(4) for _ in range(5)]
    assert [tok is not None for tok in roll.tokens] == [o in game.team_of(0) for o in owners]
    # the partner's placement is an entry; the rival's showed nothing, so it is none (not
    # even a mark that it happened: issue #28), while the seat knows it is in a secret step
    assert [e.move is not None for e in seen._open if e.actor != CHANCE] == [True]
    assert seen.in_secret
    assert seen.determinize(random.Random(1)).view(0) == game.view(0)


def test_a_rebuilt_kaploom_game_keeps_the_rivals_announced_placement_possible():
    """KAPLOOM! seed 4100004 (normal vs hard), move 91: the rival's unseen placements must leave
    the dice its announced Quick Fix used; sampled move by move, 8 tries found no such game for
    2 of 71 decisions and the bot went on from one that was not what it saw. Every decision's
    rebuilt game now shows each seat exactly its real view."""
    seed, levels = 4100004, ["normal", "hard"]
    game = load("kaploom").new(2, {}, ["A", "B"])
    watch = Watch(game)
    bots = [make(lv, watch.seen[s]) for s, lv in enumerate(levels)]
    chance = random.Random(f"{seed}:chance")
    rngs = [random.Random(f"{seed}:seat{s}") for s in range(2)]
    moves = 0
    while game.outcome() is None and moves < 130:
        for s in range(2):
            rebuilt = watch.seen[s].determinize(random.Random(moves * 7 + s))
            assert rebuilt.view(s) == game.view(s), (moves, s)
        [actor] = game.actors()[:1]
        move = (game.chance().sample(chance) if actor == CHANCE
                else bots[actor].choose(game.view(actor), game.legal(actor), rngs[actor]))
        note = watch.before(game, actor)
        watch.after(game, actor, move, note, game.apply(actor, move))
        moves += 1
    assert moves > 91


def test_rebuilt_game_sees_the_set_asides_of_a_window_that_closes_into_the_dice_choice():
    """TradeShowdown without Tag Team: a window with no attack to slash closes straight into
    the next round's secret dice choice. Its plans (combo set-asides) were shown as it closed,
    so the rebuilt game must hold them; it used to keep sampling them and lose the set-asides."""
    kind = "tradeshowdown"
    opts = dict(default_options(kind), tag_team=False)
    g = load(kind).new(2, opts, ["Ann", "Bob"])
    rng = random.Random(1)
    record, closings = [], 0
    for _ in range(3000):
        if g.outcome() is not None:
            break
        actors = g.actors()
        if actors == [CHANCE]:
            actor, move = CHANCE, g.chance().sample(rng)
        else:
            actor = actors[-1] if len(actors) > 1 else actors[0]
            move = rng.choice(playable(g.legal(actor)))
        before = g.current_phase()
        g.apply(actor, move)
        record.append((actor, move))
        if before == "window" and g.current_phase() == "choose":
            closings += 1
            for seat in (0, 1):
                det = _seen(kind, g, record, seat).determinize(random.Random(len(record)))
                assert det.view(seat) == g.view(seat), (len(record), seat)
                assert det.legal(seat) == g.legal(seat)
    assert closings >= 3
