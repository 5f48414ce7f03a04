"""The Sales Floor: spot names, the referee's coordinates, neighbours and distances.

Rulings, "The Sales Floor": the map picture is missing, so the referee's map is the law. Each
side has, from the middle line outward, customer spots C1-C3 (5 units from the middle line), the
front area F1-F3 (15), the back area B1-B3 (35) and the stand spots S1-S3 (60), in columns at
x 25, 50, 75. Spots are numbered left to right *as seen by the side's owner*, so P1's F1 faces
P2's F3 across the middle line.

Floor coordinates: x 0-100 across, y 0-160 along; side 1 (P1) owns y 0-80 and is drawn at the
bottom (looking "up" the floor, its left is low x), side 2 (P2) owns y 80-160.
"""
from __future__ import annotations

import math
import re

from ..core import InvalidMoveError

SIDE_NAMES = ("P1", "P2")
FRONT_SPOTS = ("F1", "F2", "F3")
BACK_SPOTS = ("B1", "B2", "B3")
BANNER_SPOTS = FRONT_SPOTS + BACK_SPOTS
STAND_SPOTS = ("S1", "S2", "S3")
CUSTOMER_SPOTS = ("C1", "C2", "C3")
SPOTS = CUSTOMER_SPOTS + BANNER_SPOTS + STAND_SPOTS

FLOOR_WIDTH = 100
FLOOR_LENGTH = 160
MIDDLE_Y = 80
# Distance of each row from the middle line, in floor units (rulings, "The Sales Floor").
ROW_DEPTH = {"C": 5, "F": 15, "B": 35, "S": 60}
ROWS_FROM_MIDDLE = ("C", "F", "B", "S")
COLUMN_X = (25, 50, 75)

# ASCII only: with re.IGNORECASE alone, 'ſ' (long s) would read as S and 'K' (Kelvin) as K.
_SPOT_RE = re.compile(r"(?:(?:P|@)([12]):)?([CFBS][123])", re.IGNORECASE | re.ASCII)


def side_name(side: int) -> str:
    return SIDE_NAMES[side]


def label(side: int, spot: str) -> str:
    """`P2:F2`: a spot with its side, as the rulings name spots."""
    return f"{SIDE_NAMES[side]}:{spot}"


def split_label(token: str) -> tuple[int, str]:
    """`P2:F2` -> (1, "F2") for labels the engine itself wrote."""
    side, spot = token.split(":")
    return SIDE_NAMES.index(side), spot


def spot_xy(side: int, spot: str) -> tuple[float, float]:
    """Floor coordinates of a spot (see the module docstring for the frame)."""
    row, col = spot[0], int(spot[1])
    depth = ROW_DEPTH[row]
    if side == 0:
        return float(COLUMN_X[col - 1]), float(MIDDLE_Y - depth)
    # Side 2 faces the other way: its left-hand column 1 is at high x.
    return float(COLUMN_X[3 - col]), float(MIDDLE_Y + depth)


def distance(side_a: int, spot_a: str, side_b: int, spot_b: str) -> float:
    """Straight-line distance in floor units (the simulated flick's accuracy depends on it)."""
    xa, ya = spot_xy(side_a, spot_a)
    xb, yb = spot_xy(side_b, spot_b)
    return math.hypot(xa - xb, ya - yb)


def neighbours(spot: str) -> list[str]:
    """Rulings: the spots of the same row one column left or right, and the spot in the same
    column one row nearer to or farther from the middle line (customer - front - back - stand)."""
    row, col = spot[0], int(spot[1])
    out = [f"{row}{c}" for c in (col - 1, col + 1) if 1 <= c <= 3]
    i = ROWS_FROM_MIDDLE.index(row)
    for j in (i - 1, i + 1):
        if 0 <= j < len(ROWS_FROM_MIDDLE):
            out.append(f"{ROWS_FROM_MIDDLE[j]}{col}")
    return out


def parse_spot(token: str) -> tuple[int | None, str]:
    """`F2` -> (None, "F2"); `P2:F2` or `@2:f2` -> (1, "F2"). InvalidMoveError otherwise."""
    m = _SPOT_RE.fullmatch(token.strip()) if token.isascii() else None
    if not m:
        raise InvalidMoveError(
            f"{token!r} is not a spot: write F1-F3, B1-B3, S1-S3 or C1-C3, with P1: or P2: in "
            "front when you mean a particular side (e.g. P2:F2).")
    side = int(m.group(1)) - 1 if m.group(1) else None
    return side, m.group(2).upper()
