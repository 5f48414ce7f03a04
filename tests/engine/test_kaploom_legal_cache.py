"""KAPLOOM! legal() lists each action's ways through caches keyed by smaller things than the
dice (only the dice an action can use, each face by a stand-in the action treats alike, counts
capped at what it takes, one lookup per grouping for the whole board). None of that may change
a listing: here every grouping met in seeded self-play (duel, 2 vs 2, every super) is listed
both ways, the cached one against the plain search over all the groups, same ways in the same
order."""
from __future__ import annotations

import pytest

from bot.engine import records
from bot.engine.core import CHANCE
from bot.engine.kaploom import phase1
from bot.engine.kaploom.requirements import combinations

TABLES = [
    (2, {}),
    (2, {"supers": "Timeout!,Victor Kane"}),
    (4, {"mode": "2v2", "supers": "Tough Nut,Timeout!,Victor Kane,Spoiler Alert!"}),
]


def plain_ways(action, groups):
    """The listing without any cut: the search over every group, whole counts."""
    sig = tuple((k[1], k[3], len(ids)) for k, ids in groups)
    out = []
    for vec in combinations(action.requires, sig):
        chosen = [d for (_, ids), n in zip(groups, vec) for d in ids[:n]]
        out.append(sorted(chosen, key=lambda d: int(d[1:])))
    return out


def groupings(players, options, seeds):
    """(board, grouped dice) for every Phase 1 listing a seat meets in these games."""
    for seed in seeds:
        rec, _ = records.selfplay("kaploom", seed, options, players=players)
        g = records.start(rec)
        for entry in rec.entries:
            actor = records.entry_actor(entry, players)
            if actor != CHANCE and g.stage == "assign":
                placed = g.placed_dice()
                mine = [d for d in g.dice_of(actor) if d not in placed]
                yield g.seats[actor]["super"], phase1._groups(g, mine, by_owner=False)
                if not g.duel:
                    team = g.team_of(actor)
                    pool = [d for s in team for d in g.dice_of(s) if d not in placed]
                    yield "duo", phase1._groups(g, pool, by_owner=True)
            g.apply(actor, entry["move"])


@pytest.mark.parametrize("players,options", TABLES)
def test_cached_listing_is_the_plain_search(players, options):
    checked = 0
    for board, groups in groupings(players, options, seeds=(0, 1)):
        cached = {a.name: ways for a, ways in phase1._fits(board, groups)}
        for action in phase1._board(board):
            assert cached.get(action.name, []) == plain_ways(action, groups), \
                (board, action.name, groups)
            checked += 1
    assert checked > 1000   # the games reached Phase 1 often, with many groupings


def test_a_die_id_past_nine_sorts_by_number():
    """Ways are written in id order by number: d9 before d10 (not as text)."""
    from bot.engine.kaploom.dice import in_order
    assert in_order(["d10", "d9", "d100", "d2", "d11"]) == ["d2", "d9", "d10", "d11", "d100"]
