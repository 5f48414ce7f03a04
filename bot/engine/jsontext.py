"""JSON text for what the bot encodes and decodes on every move: a game's state, its notes, a
view's signature. orjson writes and reads the same values as the standard library's `json` in
a fraction of its time (issue #23: they were a tenth of a move's CPU). Its text is compact (no
space after `,` and `:`), which every reader of it — `json.loads`, SQLite's and PostgreSQL's
JSON functions — reads alike. Numbers as keys are written as text, as `json` writes them; what
orjson will not write at all (an integer wider than 64 bits) `json` writes, as before."""
from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

import orjson


def dumpb(value: Any, *, sort_keys: bool = False,
          default: Callable[[Any], Any] | None = None) -> bytes:
    """`value` as JSON text in UTF-8 (what a hash takes); `sort_keys`: the same value always
    gives the same text (for a signature)."""
    option = orjson.OPT_SORT_KEYS if sort_keys else 0
    try:
        return orjson.dumps(value, default=default, option=option)
    except orjson.JSONEncodeError:
        pass
    try:  # a number (or None, True) as a dict's key: orjson asks to be told
        return orjson.dumps(value, default=default, option=option | orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=sort_keys, default=default,
                          separators=(",", ":")).encode()


def dumps(value: Any, *, sort_keys: bool = False,
          default: Callable[[Any], Any] | None = None) -> str:
    return dumpb(value, sort_keys=sort_keys, default=default).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def copy(value: Any) -> Any:
    """A deep copy of a JSON value, as a JSON round trip makes it (tuples come back lists,
    numbers as keys come back text)."""
    return orjson.loads(dumpb(value))


def digest(value: Any) -> str:
    """A short fingerprint of a JSON value (a view): equal values, equal digests; anything
    JSON cannot hold is taken by its `str`."""
    return hashlib.sha1(dumpb(value, sort_keys=True, default=str)).hexdigest()[:16]
