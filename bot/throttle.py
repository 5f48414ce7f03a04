"""How fast one person's clicks are served: a token bucket per user, in memory.

A click costs the bot a database read (and a panel's own picks a write); one person clicking a
list fifty times a second must not slow every other table. Well above any person's real pace,
so a player never meets it."""
from __future__ import annotations

import time
from typing import Callable


class Throttle:
    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic, keep: int = 10_000):
        self.rate, self.burst, self.clock, self.keep = rate, burst, clock, keep
        self._buckets: dict[int, tuple[float, float]] = {}  # user -> (tokens, when)

    def allow(self, user_id: int) -> bool:
        """Take one click from `user_id`'s bucket; False when it is empty."""
        now = self.clock()
        tokens, when = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if len(self._buckets) >= self.keep:  # forget full buckets: they say nothing
            self._buckets = {u: b for u, b in self._buckets.items()
                             if b[0] + (now - b[1]) * self.rate < self.burst}
        if tokens < 1:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - 1, now)
        return True
