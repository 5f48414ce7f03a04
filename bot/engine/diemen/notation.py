"""Parsing the move texts of Crazy Die-Man (docs/notation/diemen.md): shapes only, no rules.

Each parser returns plain values or raises InvalidMoveError saying the right form; whether the
move is allowed now is the game's business.
"""
from __future__ import annotations

import re
from typing import Any

from ..core import InvalidMoveError
from . import board

VERBS = ("banners", "move", "flick", "oops", "mode", "agree", "refuse", "called", "aim", "mark",
         "result", "accept", "dispute", "reposition", "place", "supersale", "done", "customer",
         "end")

REPORT_FORM = ("`result 4` (with the spots you marked), `result 4 hit=F2,B1` "
               "(own spots as P1:F1, customers by spot or `customers=1`), or `result 5 off`")


def spot_list(text: str) -> list[tuple[int | None, str]]:
    """`F2,B1,P1:S2` (commas; spaces already removed) -> [(None,"F2"), (None,"B1"), (0,"S2")]."""
    parts = [p for p in text.split(",") if p]
    if not parts:
        raise InvalidMoveError("Name at least one spot, e.g. F2 or F2,B1.")
    return [board.parse_spot(p) for p in parts]


_NUMBER = re.compile(r"[0-9]{1,9}")


def is_number(token: str) -> bool:
    """ASCII digits only: `str.isdigit()` also says yes to '٣', '３' and '²'."""
    return bool(_NUMBER.fullmatch(token))


def number(token: str, what: str, form: str) -> int:
    if not is_number(token):
        raise InvalidMoveError(f"{what} is a number: write {form}.")
    return int(token)


def report(args: list[str]) -> dict[str, Any]:
    """`result V [off] [hit=LIST] [customers=N]` -> {"value", "off", "hit", "customers"}."""
    if not args:
        raise InvalidMoveError(f"Say what the die rolled: {REPORT_FORM}.")
    value = number(args[0], "The rolled value", REPORT_FORM)
    out: dict[str, Any] = {"value": value, "off": False, "hit": None, "customers": None}
    for a in args[1:]:
        low = a.lower() if a.isascii() else a
        if low in ("off", "offfloor", "off-floor"):
            out["off"] = True
        elif low.startswith("hit="):
            if out["hit"] is not None:
                raise InvalidMoveError("Give `hit=` once, with commas: hit=F2,B1.")
            out["hit"] = spot_list(a[4:])
        elif low.startswith("customers="):
            if out["customers"] is not None:
                raise InvalidMoveError("Give `customers=` once.")
            out["customers"] = number(a[10:], "customers=", "customers=1")
        else:
            raise InvalidMoveError(f"{a!r} is not part of a report. Write {REPORT_FORM}.")
    if out["off"] and (out["hit"] or out["customers"]):
        raise InvalidMoveError(
            "A die off the floor counts for nothing (what it knocked is stood back up): "
            f"write just `result {value} off`.")
    return out


DECLARE_FORM = ("`flick 0`, `flick 1`, `flick 2` or `flick 3 bonus`, with the first flick's "
                "shot if you like: `flick 1 aim=F2`, `flick 2 called=B1`")


def declare(args: list[str]) -> dict[str, Any]:
    """`flick N [bonus] [aim=SPOT|aim=middle] [called=SPOT]` -> {"count", "bonus", "aim",
    "called"} (spots as written; the game checks them)."""
    if not args or not is_number(args[0]):
        raise InvalidMoveError(f"Declare your flicks: {DECLARE_FORM}.")
    out: dict[str, Any] = {"count": int(args[0]), "bonus": False, "aim": None, "called": None}
    for a in args[1:]:
        low = a.lower() if a.isascii() else a
        if low == "bonus" and not out["bonus"]:
            out["bonus"] = True
        elif low.startswith("aim=") and out["aim"] is None and len(a) > 4:
            out["aim"] = a[4:]
        elif low.startswith("called=") and out["called"] is None and len(a) > 7:
            out["called"] = a[7:]
        else:
            raise InvalidMoveError(f"{a!r} is not part of a declaration: {DECLARE_FORM}.")
    if out["bonus"] and out["count"] != 3:
        raise InvalidMoveError(f"A Bonus Flick is 3 dice: {DECLARE_FORM}.")
    if out["aim"] is not None and out["called"] is not None:
        raise InvalidMoveError("A Called Shot is flicked at the called banner: give `called=` "
                               "alone, not with `aim=`.")
    return out
