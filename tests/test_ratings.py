"""Ratings (issue #25): the updates checked against Plackett-Luce worked by hand (Weng & Lin
2011, Algorithm 4, written out below without the library), the finishing places read from real
games, and a property test that `ratings rebuild` over random stored games gives exactly the
numbers live play wrote — on SQLite and PostgreSQL."""
from __future__ import annotations

import json
import math
import random

import pytest

from bot import ratings
from bot.engine import load
from bot.engine.core import CHANCE
from bot.ratings import (BOSS_LADDER, MU, SIGMA, PlayerRating, Standing, new_ratings,
                         rate_game, shown, standing)
from bot.store import Store
from bot.tables import Tables
from test_store_tables import Clock, db_target, never, pg_schema, drop_schema  # noqa: F401

BETA = MU / 6
TAU = MU / 300
KAPPA = 0.0001


def by_hand(teams: list[list[tuple[float, float]]], ranks: list[int]
            ) -> list[list[tuple[float, float]]]:
    """Plackett-Luce (Algorithm 4), as the paper writes it: a team's mu and sigma^2 are its
    players' sums; c^2 = sum of (sigma_i^2 + beta^2); C_q = teams placed no better than q;
    A_q = teams tied with q; gamma = sigma_i / c. tau is added to every sigma first."""
    teams = [[(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in team] for team in teams]
    t_mu = [sum(m for m, _ in t) for t in teams]
    t_s2 = [sum(s * s for _, s in t) for t in teams]
    c = math.sqrt(sum(s2 + BETA * BETA for s2 in t_s2))
    k = len(teams)
    e = [math.exp(m / c) for m in t_mu]
    sum_q = [sum(e[i] for i in range(k) if ranks[i] >= ranks[q]) for q in range(k)]
    a = [sum(1 for i in range(k) if ranks[i] == ranks[q]) for q in range(k)]
    out = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        omega *= t_s2[i] / c
        delta *= t_s2[i] / c ** 2 * (math.sqrt(t_s2[i]) / c)
        out.append([(mu + s * s / t_s2[i] * omega,
                     s * math.sqrt(max(1 - s * s / t_s2[i] * delta, KAPPA)))
                    for mu, s in teams[i]])
    return out


def close(a, b):
    assert len(a) == len(b)
    for (m1, s1), (m2, s2) in zip(a, b):
        assert m1 == pytest.approx(m2, abs=1e-9) and s1 == pytest.approx(s2, abs=1e-9)


NEW = (MU, SIGMA)


def test_a_duel_between_newcomers_worked_by_hand():
    # sigma^2 = (25/3)^2 + (1/12)^2 = 69.4514; c^2 = 2 (69.4514 + 17.3611) = 173.625;
    # each side's chance was 1/2: omega = +-1/2 * 69.4514 / 13.1767 = +-2.6354;
    # delta = 1/4 * 69.4514 / 173.625 * 8.3338 / 13.1767 = 0.063246.
    after = new_ratings(Standing("slideslam", ((0,), (1,)), (1, 2)), [NEW, NEW])
    assert after[0][0] == pytest.approx(27.6354, abs=1e-4)
    assert after[1][0] == pytest.approx(22.3646, abs=1e-4)
    assert after[0][1] == after[1][1] == pytest.approx(8.0659, abs=1e-4)
    close(after, [p for t in by_hand([[NEW], [NEW]], [1, 2]) for p in t])
    # Shown: 740 + 40 (mu - 3 sigma): the winner 878, the loser 667 (a newcomer shows 740).
    assert shown(*after[0]) == 878 and shown(*after[1]) == 667 and shown(MU, SIGMA) == 740


def test_a_duel_between_unequal_players():
    strong, weak = (32.0, 2.5), (20.0, 4.0)
    upset = new_ratings(Standing("diemen", ((0,), (1,)), (2, 1)), [strong, weak])
    close(upset, [p for t in by_hand([[strong], [weak]], [2, 1]) for p in t])
    expected = new_ratings(Standing("diemen", ((0,), (1,)), (1, 2)), [strong, weak])
    # Beating the favourite moves more than losing to them.
    assert upset[1][0] - weak[0] > expected[0][0] - strong[0] > 0


def test_four_players_by_finishing_place():
    before = [(25.0, 8.0), (27.0, 6.0), (22.0, 7.0), (30.0, 3.0)]
    places = (3, 1, 4, 2)
    after = new_ratings(Standing("tradeshowdown", ((0,), (1,), (2,), (3,)), places), before)
    close(after, [p for t in by_hand([[b] for b in before], list(places)) for p in t])
    assert after[1][0] > before[1][0] and after[2][0] < before[2][0]


def test_two_against_two_as_teams():
    before = [(25.0, 8.0), (28.0, 5.0), (24.0, 6.0), (26.0, 7.0)]
    st = Standing("kaploom", ((0, 1), (2, 3)), (2, 1))
    after = new_ratings(st, before)
    worked = by_hand([[before[0], before[1]], [before[2], before[3]]], [2, 1])
    close(after, worked[0] + worked[1])
    # Both winners gain, both losers lose: a team win credits every member.
    assert after[2][0] > before[2][0] and after[3][0] > before[3][0]
    assert after[0][0] < before[0][0] and after[1][0] < before[1][0]


def test_a_draw_is_a_tie():
    after = new_ratings(Standing("slideslam", ((0,), (1,)), (1, 1)), [NEW, NEW])
    close(after, [p for t in by_hand([[NEW], [NEW]], [1, 1]) for p in t])
    assert after[0][0] == pytest.approx(MU) and after[1][0] == pytest.approx(MU)
    assert after[0][1] < SIGMA  # a draw still teaches the model something


def test_bosses_and_minions_play_as_one_side_of_their_mean():
    boss, m1, m2 = (30.0, 4.0), (20.0, 6.0), (24.0, 2.0)
    after = new_ratings(Standing(BOSS_LADDER, ((0,), (1, 2)), (2, 1), mean_teams=True),
                        [boss, m1, m2])
    side = (22.0, math.sqrt((36 + 4) / 2))
    worked = by_hand([[boss], [side]], [2, 1])
    close(after[:1], worked[0])
    gain = worked[1][0][0] - side[0]
    assert after[1][0] - m1[0] == pytest.approx(gain) == after[2][0] - m2[0]
    assert after[1][1] == pytest.approx(m1[1] * worked[1][0][1] / side[1])


# ---- finishing places from real games -------------------------------------------------------
def play_out(game, rng: random.Random, entries: list, limit: int = 20000) -> None:
    for _ in range(limit):
        actors = game.actors()
        if not actors:
            return
        if CHANCE in actors:
            move = game.chance().sample(rng)
            game.apply(CHANCE, move)
            entries.append(("chance", move))
        else:
            seat = rng.choice(actors)
            move = rng.choice(game.legal(seat))
            game.apply(seat, move)
            entries.append((str(seat + 1), move))
    raise AssertionError("no end")


def test_a_resignation_places_last_even_below_those_knocked_out_later():
    for seed in range(4):
        rng = random.Random(seed)
        game = load("tradeshowdown").new(4)
        entries: list = []
        while True:  # play until it is the first choice of dice, then seat 3 resigns
            actors = game.actors()
            if actors != [CHANCE]:
                break
            move = game.chance().sample(rng)
            game.apply(CHANCE, move)
            entries.append(("chance", move))
        game.table_move(2, "resign")
        entries.append(("3", "resign"))
        play_out(game, rng, entries)
        st = standing("tradeshowdown", 4, game.options, game.to_json(), entries)
        assert st.place_of(2) == max(st.places)
        assert all(st.place_of(s) < st.place_of(2) for s in range(4) if s != 2)
        assert st.place_of(game.outcome().winners[0]) == 1


def test_a_duel_resign_and_a_timeout_place_the_leaver_second():
    for move, seat in (("resign", 0), ("timeout", 1)):
        game = load("slideslam").new(2)
        game.table_move(seat, move)
        st = standing("slideslam", 2, game.options, game.to_json(), [(str(seat + 1), move)])
        assert st.place_of(seat) == 2 and st.place_of(1 - seat) == 1


def test_team_and_boss_ladders_from_real_games():
    game = load("kaploom").new(4, {"mode": "2v2"})
    game.table_move(0, "resign")
    st = standing("kaploom", 4, game.options, game.to_json(), [("1", "resign")])
    assert st.teams == ((0, 1), (2, 3)) and st.places == (2, 1) and st.ladder == "kaploom"
    game = load("deathbydice").new(3, {"mode": "boss"})
    game.table_move(1, "resign")
    st = standing("deathbydice", 3, game.options, game.to_json(), [("2", "resign")])
    assert st.ladder == BOSS_LADDER and st.teams == ((0,), (1, 2)) and st.places == (1, 2)
    assert st.mean_teams


def test_tradeshowdown_free_for_all_places_follow_the_knock_outs():
    from bot.engine.records import selfplay
    for seed in range(3):
        rec, game = selfplay("tradeshowdown", seed, players=5)
        entries = [(str(e["actor"]), e["move"]) for e in rec.entries]
        st = standing("tradeshowdown", 5, game.options, game.to_json(), entries)
        fell = type(game).falls(5, game.options, entries)
        for a in range(5):
            for b in range(5):
                if a in fell and b in fell and fell[a] < fell[b]:
                    assert st.place_of(a) > st.place_of(b)
        for w in game.outcome().winners:
            assert st.place_of(w) == 1


def test_streaks_best_win_and_provisional():
    st = Standing("slideslam", ((0,), (1,)), (1, 2))
    a = b = None
    for gid in range(1, 7):
        done = rate_game(gid, st, [1, 2], {1: "win", 2: "loss"},
                         {u: r for u, r in ((1, a), (2, b)) if r})
        a, b = done.after[1], done.after[2]
    assert a.games == 6 and a.wins == 6 and a.streak == 6 and a.best_streak == 6
    assert b.streak == -6 and b.losses == 6 and not a.provisional
    assert a.best_win == 1 and a.best_win_over == 740  # a newcomer is the best they beat
    assert PlayerRating(3, games=4).provisional


# ---- live play and a rebuild agree ------------------------------------------------------------
KINDS = [("slideslam", 2, {}), ("diemen", 2, {"mode": "simulated"}), ("kaploom", 4, {"mode": "2v2"}),
         ("deathbydice", 3, {"best_of": 1}), ("deathbydice", 3, {"mode": "boss", "best_of": 1}),
         ("tradeshowdown", 3, {}), ("kaploom", 2, {})]
USERS = list(range(1001, 1009))
GUILDS = [501, 502, None]


async def snapshot(store: Store) -> tuple[list, list]:
    rows = await store._all("SELECT scope, ladder, user_id, mu, sigma, shown, games, wins,"
                            " losses, draws, streak, best_streak, best_win, best_win_over, peak"
                            " FROM ratings WHERE games > 0 ORDER BY scope, ladder, user_id")
    hist = await store._all("SELECT game_id, scope, ladder, user_id, result, place,"
                            " shown_before, mu, sigma, shown FROM rating_history"
                            " ORDER BY game_id, scope, user_id")
    return [tuple(r) for r in rows], [tuple(r) for r in hist]


async def random_game(tables: Tables, clock: Clock, rng: random.Random) -> int:
    kind, n, opts = rng.choice(KINDS)
    try:
        load(kind).new(n, opts)
    except Exception:
        opts = {}
    users = rng.sample(USERS, n)
    extra = rng.choice([None, None, None, {"practice": "normal"}, {"unrated": "off"}])
    played = await tables.create(kind, users, opts, guild_id=rng.choice(GUILDS), extra=extra,
                                 publish=False)
    gid = played.row.id
    steps = rng.choice([0, 5, 30, 300])  # 300: most short games end on their own
    for _ in range(steps):
        clock.t += 1
        row, game = await tables.load(gid)
        if row.status != "active":
            return gid
        actors = [a for a in game.actors() if a != CHANCE]
        if not actors:
            return gid
        seat = rng.choice(actors)
        await tables.play(gid, None, rng.choice(game.legal(seat)), actor=seat)
    row, game = await tables.load(gid)
    clock.t += 1
    if row.status == "active":
        end = rng.choice(["resign", "timeout", "abort"])
        if end == "abort":
            await tables.abort(gid)
        elif end == "timeout":
            await tables.expire(gid, row.version)
        else:
            await tables.play(gid, None, "resign", actor=rng.choice(range(n)), cause="resign")
    row, game = await tables.load(gid)
    # A free-for-all goes on without whoever left: finish it by resignations.
    while row.status == "active":
        clock.t += 1
        actors = [a for a in game.actors() if a != CHANCE] or [0]
        await tables.play(gid, None, "resign", actor=actors[0], cause="resign")
        row, game = await tables.load(gid)
    return gid


@pytest.mark.parametrize("seed", [1, 2])
async def test_rebuild_gives_the_numbers_live_play_gave(db_target, seed):  # noqa: F811
    store = await Store.open(db_target)
    clock = Clock()
    tables = Tables(store, turn_timer=100, clock=clock, sleep=never)
    try:
        rng = random.Random(seed)
        for _ in range(12):
            await random_game(tables, clock, rng)
        live = await snapshot(store)
        assert live[0], "some games were rated"
        assert {r[1] for r in live[0]} - {"slideslam"}, "more than duels were rated"
        # Practice, aborted and switched-off games moved nobody.
        for gid, extra, status in await store._all("SELECT id, extra, status FROM games"):
            rated = any(h[0] == gid for h in live[1])
            if json.loads(extra) or status != "finished":
                assert not rated
        # The server-only rebuild keeps the global ladders and rebuilds the server's.
        await ratings.rebuild(store, guild_id=501)
        assert await snapshot(store) == live
        await store._exec("UPDATE ratings SET mu = mu + 1")
        await store._exec("DELETE FROM rating_history")
        counted = await ratings.rebuild(store)
        assert await snapshot(store) == live
        assert counted["games"] == len({h[0] for h in live[1]})
    finally:
        await tables.close()
        await store.close()


async def test_leaderboard_and_place(db_target):  # noqa: F811
    store = await Store.open(db_target)
    try:
        st = Standing("slideslam", ((0,), (1,)), (1, 2))
        gid = 0
        for winner, loser in [(1, 2)] * 6 + [(3, 2)] * 6 + [(1, 3)] * 2 + [(4, 1)]:
            gid = await store.create_game("slideslam", 9, 9, 9, [winner, loser], {}, "s", {})
            await store._results(gid, 9, "slideslam", {winner: "win", loser: "loss"}, gid)
            await store._rate(gid, 9, [winner, loser], {winner: "win", loser: "loss"}, st, gid)
        top = await store.leaderboard(9, "slideslam")
        assert [u for u, *_ in top] == [1, 3, 2]  # 4 has one game: provisional, not ranked
        assert await store.leaderboard_place(9, "slideslam", 3) == (2, 3)
        assert await store.leaderboard_place(9, "slideslam", 4) == (None, 3)
        assert [u for u, *_ in await store.leaderboard(0, "slideslam", offset=1)] == [3, 2]
        mine = await store.ratings_of(1, 9)
        assert mine["slideslam"].games == 9 and mine["slideslam"].streak == -1
        hist = await store.rating_history(1, 9, "slideslam")
        assert len(hist) == 9 and hist[-1][3] == "loss"
    finally:
        await store.close()


async def test_the_rebuild_command(tmp_path, capsys):
    """`python -m bot ratings rebuild --database FILE [--guild ID]`: exit 0, what it did, and
    the numbers live play wrote."""
    import asyncio

    from bot.__main__ import main
    path = tmp_path / "r.db"
    store = await Store.open(path)
    game = load("slideslam").new(2)
    game.table_move(1, "resign")
    gid = await store.create_game("slideslam", 7, 7, 7, [1, 2], game.options, "s",
                                  game.to_json())
    await store.set_status(gid, "finished")
    st = standing("slideslam", 2, game.options, game.to_json(), [("2", "resign")])
    await store._results(gid, 7, "slideslam", {1: "win", 2: "loss"}, 5.0)
    await store._rate(gid, 7, [1, 2], {1: "win", 2: "loss"}, st, 5.0)
    live = await snapshot(store)
    await store.close()
    code = await asyncio.to_thread(main, ["ratings", "rebuild", "--database", str(path),
                                          "--guild", "7"])
    assert code == 0 and "server 7: 1 rated games" in capsys.readouterr().err
    code = await asyncio.to_thread(main, ["ratings", "rebuild", "--database", str(path)])
    assert code == 0 and "every server" in capsys.readouterr().err
    store = await Store.open(path)
    try:
        assert await snapshot(store) == live and live[0]
    finally:
        await store.close()
