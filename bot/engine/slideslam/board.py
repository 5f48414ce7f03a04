"""The board's geometry: squares named like chess (`c3`), each player's half, the slide
search and the Slam / Super Slam areas. Pure functions over square names; no game state.

Rulings used: "Board" (columns a–…, rows 1–…, player 1 owns the lower half), "Turn" step 2
(orthogonal steps that may turn corners, never entering or passing a die) and step 3 (the slam
areas; a Super Slam's cross runs to the edges and nothing shields).
"""
from __future__ import annotations

import re
from functools import lru_cache

COLUMN_LETTERS = "abcdefghi"  # the widest board option has 9 columns

# Up, right, down, left: a fixed order so every search (and every recorded path) is repeatable.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))

# ASCII digits only: `\d` would also take '٣' or '３', and "a٣" would be a second a3.
_SQUARE = re.compile(r"([a-i])([0-9]{1,2})", re.ASCII)


def name(col: int, row: int) -> str:
    """0-based column and row to a square name: (2, 4) -> 'c5'."""
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def coords(square: str) -> tuple[int, int]:
    """A square name to 0-based (column, row); the name must be well formed."""
    m = _SQUARE.fullmatch(square)
    if not m:
        raise ValueError(f"not a square: {square!r}")
    return COLUMN_LETTERS.index(m.group(1)), int(m.group(2)) - 1


def looks_like_square(token: str) -> bool:
    return _SQUARE.fullmatch(token) is not None


def on_board(square: str, columns: int, rows: int) -> bool:
    if not looks_like_square(square):
        return False
    c, r = coords(square)
    return 0 <= c < columns and 0 <= r < rows


def describe(columns: int, rows: int) -> str:
    """'columns a–f, rows 1–8', for error messages."""
    return f"columns a–{COLUMN_LETTERS[columns - 1]}, rows 1–{rows}"


def home_rows(seat: int, rows: int) -> tuple[int, int]:
    """The 1-based first and last row of a player's half (player 1 the lower half)."""
    half = rows // 2
    return (1, half) if seat == 0 else (half + 1, rows)


def home_squares(seat: int, columns: int, rows: int) -> list[str]:
    lo, hi = home_rows(seat, rows)
    return [name(c, r - 1) for r in range(lo, hi + 1) for c in range(columns)]


def in_home(square: str, seat: int, rows: int) -> bool:
    lo, hi = home_rows(seat, rows)
    return lo <= coords(square)[1] + 1 <= hi


@lru_cache(maxsize=None)
def _neighbour_table(columns: int, rows: int) -> dict[str, tuple[str, ...]]:
    """Every square's orthogonal neighbours, in DIRECTIONS order (worked out once per board
    size: the slide search asks for them thousands of times a game)."""
    table = {}
    for c in range(columns):
        for r in range(rows):
            table[name(c, r)] = tuple(name(c + dc, r + dr) for dc, dr in DIRECTIONS
                                      if 0 <= c + dc < columns and 0 <= r + dr < rows)
    return table


def neighbours(square: str, columns: int, rows: int) -> list[str]:
    return list(_neighbour_table(columns, rows)[square])


def reach(start: str, steps: int, blocked: set[str], columns: int,
          rows: int) -> dict[str, list[str]]:
    """Every square a die on `start` can slide to in 1..`steps` orthogonal steps without
    entering a `blocked` square, each with one shortest path (start first, destination last).

    Breadth-first, so the first path found to a square is a shortest one: a square farther than
    `steps` by every open route is out of reach even if it is close as the crow flies."""
    table = _neighbour_table(columns, rows)
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    for _ in range(steps):
        nxt_frontier = []
        for sq in frontier:
            here = paths[sq]
            for nxt in table[sq]:
                if nxt in paths or nxt in blocked:
                    continue
                paths[nxt] = here + [nxt]
                nxt_frontier.append(nxt)
        if not nxt_frontier:
            break
        frontier = nxt_frontier
    del paths[start]
    return paths


def reach_squares(start: str, steps: int, blocked: set[str], columns: int,
                  rows: int) -> list[str]:
    """The squares of `reach` in the same (breadth-first) order, without their paths: what
    listing the legal slides needs, at a fraction of the cost."""
    table = _neighbour_table(columns, rows)
    seen = {start}
    out: list[str] = []
    frontier = [start]
    for _ in range(steps):
        nxt_frontier = []
        for sq in frontier:
            for nxt in table[sq]:
                if nxt not in seen and nxt not in blocked:
                    seen.add(nxt)
                    nxt_frontier.append(nxt)
        if not nxt_frontier:
            break
        out += nxt_frontier
        frontier = nxt_frontier
    return out


def can_move(start: str, blocked: set[str], columns: int, rows: int) -> bool:
    """Whether any slide at all is open (one free neighbour is enough: every die moves ≥ 1)."""
    return any(n not in blocked for n in _neighbour_table(columns, rows)[start])


def slam_area(square: str, super_slam: bool, columns: int, rows: int) -> list[str]:
    """The squares a slam from `square` reaches: the 4 orthogonal neighbours, or for a Super
    Slam the whole row and column out to the edges (dice in between shield nothing). Listed
    outward direction by direction (up, right, down, left)."""
    if not super_slam:
        return neighbours(square, columns, rows)
    c, r = coords(square)
    out = []
    for dc, dr in DIRECTIONS:
        nc, nr = c + dc, r + dr
        while 0 <= nc < columns and 0 <= nr < rows:
            out.append(name(nc, nr))
            nc, nr = nc + dc, nr + dr
    return out


def square_key(square: str) -> tuple[int, int]:
    """Sort squares in reading order from player 1's side: row, then column."""
    c, r = coords(square)
    return r, c
