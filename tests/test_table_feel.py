"""Whole games played as people play them (issues #12, #22, #23): every move a click or a pick
on what the bot offers the seat that must act — the turn message, the DM panel, the 🔒
ephemeral panel — step by step (tests/clicker.py), duels of every game and the biggest tables
(KAPLOOM! 2 vs 2, a 4-player TradeShowdown with one player's DMs closed, a 4-player Death by
Dice). Counted per seat turn as a player feels the table, and held to issue #22's goals:

- thread posts ≤ 1.1 and pings ≤ 1 per seat turn, never a ping to the one who just moved;
- DM sends + edits ≤ 1.5 and PNG uploads ≤ 1.5 per seat turn;
- no seat codes in anything a person reads — texts, labels, alt texts, words drawn in pictures.

A goal a game misses today is marked xfail(strict) with the measured figure: it must pass (and
the mark go) when the game is fixed. Each game is played once per session; the goal tests read
its counts.
"""
from __future__ import annotations

import pytest
from PIL import ImageDraw

import rendering.picture

from table_play import INLINE_CODE, SEAT_CODE, SHORT, TableCount, play_table

# name: (game, players, seats with closed DMs, move cap (None: to the end))
TABLES = {
    "slideslam": ("slideslam", 2, (), None),
    "tradeshowdown": ("tradeshowdown", 2, (), None),
    "deathbydice": ("deathbydice", 2, (), None),
    "diemen": ("diemen", 2, (), None),
    # KAPLOOM! has no option for a short game: its first rounds (a whole game takes 70 s)
    "kaploom": ("kaploom", 2, (), 90),
    "kaploom-2v2": ("kaploom", 4, (), 90),
    "tradeshowdown-4": ("tradeshowdown", 4, (3,), None),
    "deathbydice-4": ("deathbydice", 4, (), None),
}

_played: dict[str, tuple[TableCount, list[str]]] = {}


class GoalMissed(AssertionError):
    pass


@pytest.fixture
def drawn_words(monkeypatch):
    """Every text drawn into a picture (the harness draws in this process). The picture
    cache starts empty: a board an earlier test drew is drawn again, so its words are seen."""
    monkeypatch.setattr(rendering.picture, "_cache", type(rendering.picture._cache)())
    monkeypatch.setattr(rendering.picture, "_cached_bytes", 0)
    words: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        words.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return words


async def played(name: str, fake, world, drawn: list[str]) -> tuple[TableCount, list[str]]:
    if name not in _played:
        kind, players, closed, cap = TABLES[name]
        count = await play_table(fake, world, kind, seed=3, players=players, closed=closed,
                                 options=SHORT.get(kind), max_moves=cap or 3000)
        _played[name] = (count, list(drawn))
    return _played[name]


@pytest.mark.parametrize("name", TABLES)
async def test_a_whole_game_is_played_by_clicks(fake, world, name, drawn_words):
    count, drawn = await played(name, fake, world, drawn_words)
    kind, players, closed, cap = TABLES[name]
    if cap is None:
        assert count.finished, f"{name}: the game did not end in {count.moves} moves"
    assert count.players == players and count.moves > 0
    paths = count.paths
    # A person reaches (nearly) every move by a click; the command is the last resort.
    assert paths["moves_by_component"] >= 0.75 * count.moves, (paths, count.unreached)
    assert count.stray_pings == 0, count.stray_examples
    assert count.stray_dms == 0, count.stray_examples
    assert count.pngs > 0 and drawn, "no picture was drawn in this process"
    codes = [w for w in drawn if SEAT_CODE.search(INLINE_CODE.sub("", w))]
    assert not codes, codes[:5]
    if closed:
        assert paths["panel_button_clicks"] > 0, "the player with closed DMs never used 🔒"


# Goals a game misses today, with the measured figure (seed 3, the games in TABLES).
# Issue #22's DM goal is below what its own feel rules allow (the issue is marked blocked on
# it): a seat turn needs its panel to change (a new step's panel; an edit counts as one) and
# its click to be answered by showing the choice (UPDATE_MESSAGE, one more), but where the
# click that ends one step opens the next in place: at least 2 - 1/players a seat turn, more
# where a step takes several clicks (a plan, then Done). `dm_answers_to_own_clicks_per_seat_turn`
# and `dm_unasked_per_seat_turn` (bench/table.py) split the figure.
FLOOR = "below the floor of a changed panel + an answered click a seat turn (issue #22, blocked)"

MISSED: dict[tuple[str, str], str] = {
    ("tradeshowdown", "dm_sends_edits"):
        "3.1 DM sends+edits/seat turn (goal ≤ 1.5): 2.0 answer the seat's own clicks; " + FLOOR,
    ("kaploom", "dm_sends_edits"):
        "3.24 DM sends+edits/seat turn (goal ≤ 1.5): 2.22 answer the seat's own clicks; " + FLOOR,
    ("kaploom-2v2", "dm_sends_edits"):
        "3.88 DM sends+edits/seat turn (goal ≤ 1.5): 2.33 answer the seat's own clicks; "
        + FLOOR,
    ("tradeshowdown-4", "dm_sends_edits"):
        "2.42 DM sends+edits/seat turn (goal ≤ 1.5): 0.62 answer the seat's own clicks, 1.81 "
        "unasked (a player who acts on 🔒 has the DM panel kept up too); " + FLOOR,
}

GOALS = {
    "thread_posts": ("thread_posts_per_seat_turn", 1.1, "issue #22 item 4"),
    "pings": ("pings_per_seat_turn", 1.0, "issue #22 item 4"),
    "pings_to_mover": ("pings_to_mover", 0, "issue #22 item 4"),
    "dm_sends_edits": ("dm_sends_edits_per_seat_turn", 1.5, "issue #22 item 2"),
    "pngs": ("pngs_per_seat_turn", 1.5, "issue #22 item 2"),
    "seat_codes": ("seat_codes_shown", 0, "issue #22 item 10"),
}


def _cases():
    for name in TABLES:
        for goal in GOALS:
            marks = []
            if (name, goal) in MISSED:
                marks.append(pytest.mark.xfail(strict=True, raises=GoalMissed,
                                               reason=MISSED[(name, goal)]))
            yield pytest.param(name, goal, marks=marks, id=f"{name}-{goal}")


@pytest.mark.parametrize("name,goal", list(_cases()))
async def test_goal(fake, world, name, goal, drawn_words):
    count, _ = await played(name, fake, world, drawn_words)
    key, limit, item = GOALS[goal]
    figure = count.per_turn()[key]
    if figure > limit:
        extra = count.mover_ping_examples[:2] if goal == "pings_to_mover" else (
            count.seat_code_examples[:3] if goal == "seat_codes" else "")
        raise GoalMissed(f"{name}: {key} = {figure} > {limit} ({item}) {extra}")


# Issue #23: a whole bot stays under Discord's global limit of 50 requests/s only if moves
# publish through interactions. The goal, 0.5 of the bot's own REST requests per move over
# whole games (a bot-wide ceiling of 100 moves/s; a move is a seat's move in the game's record:
# a form's submit makes several), is measured on full-length games by
# `python -m bench.table` (0.40 there). These tables are short games (or a game's first 90
# moves), where a start's fixed cost weighs more (the thread, the first turn message, each
# seat's first DM): 0.55 today, held at 0.6 (it was 1.0 before the book of tokens).
GLOBAL_PER_MOVE, GLOBAL_PER_MOVE_ANY_TABLE = 0.6, 1.0


async def test_moves_publish_through_interactions_under_the_global_budget(fake, world,
                                                                          drawn_words):
    counts = {name: (await played(name, fake, world, drawn_words))[0] for name in TABLES}
    moves = sum(c.seat_moves for c in counts.values())
    rest = sum(c.global_requests for c in counts.values())
    per_table = {n: round(c.global_requests / max(c.seat_moves, 1), 2)
                 for n, c in counts.items()}
    assert rest / moves <= GLOBAL_PER_MOVE, (round(rest / moves, 2), per_table)
    assert max(per_table.values()) <= GLOBAL_PER_MOVE_ANY_TABLE, per_table
    assert all(c.interaction_requests > c.global_requests for c in counts.values()), per_table
