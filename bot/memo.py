"""What a process remembers to spare itself a read, within a bound."""
from __future__ import annotations

from typing import Any


class Bounded(dict):
    """A dict holding at most `limit` keys: a new key when it is full empties it first (what
    was there is simply read again when next asked). Remembering is never needed to be right,
    only to be quick, so the bound matters more than which entries survive it."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self and len(self) >= self.limit:
            self.clear()
        super().__setitem__(key, value)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default   # through the bound (dict's own setdefault goes round it)
        return self[key]
