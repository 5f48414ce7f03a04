"""discord.py's real REST client, rate limits and all, against the offline fake Discord.

``tests/fakediscord.py`` replaces ``discord.http.HTTPClient.request`` wholesale, so discord.py's
own rate-limit handling (it sleeps on a 429, holds every request back on a *global* 429, logs,
retries up to 5 times, then raises) never runs. This module puts the real ``request`` back and
replaces one layer lower instead: the ``aiohttp.ClientSession`` the HTTPClient holds
(``client._HTTPClient__session``). Each request the real code makes is served by the fake's own
route table (``FakeDiscord._serve``: same records, same faults, same answers), or answered with a
global 429 while a throttle is on::

    fake = await start_bot(bot)
    session = FakeSession.install(fake)          # after login; undone by fake.stop()
    session.throttle(requests=6)                 # the next 6 REST requests: global 429s
    session.throttle(seconds=0.3)                # or every REST request for 0.3 s
    ... session.answered_429 / session.windows

A 429 answer is what Discord sends for the global limit: status 429, JSON
``{"message": "You are being rate limited.", "retry_after": 0.05, "global": true}``, headers
``Retry-After``, ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global`` and ``Via`` (without
``Via`` discord.py takes a 429 for a Cloudflare ban). A throttled request reaches nothing on the
fake server and is not in ``fake.requests``; it is listed in ``session.answered_429``.

Only the bot's REST goes through here: interaction replies (callbacks, follow-ups, @original)
use the webhook seam, which Discord does not bind to the global limit, and stay as the fake
serves them.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
import time
from dataclasses import dataclass
from typing import Any, Optional

import discord
from multidict import CIMultiDict

# The Route (and its body) of the request the real HTTPClient.request is making in this task:
# the session is handed only a method, a URL and encoded data, the fake serves by route.
_current: contextvars.ContextVar[Optional[tuple]] = contextvars.ContextVar('fake_session_route', default=None)

RATE_LIMITED = 'You are being rate limited.'
# discord.py's own HTTPClient.request, taken before any fake replaces it (a fake installs on the
# class, and a second fake would save the first one's seam as "the original").
_REAL_REQUEST = discord.http.HTTPClient.__dict__['request']
assert _REAL_REQUEST.__module__ == 'discord.http', 'import fake_session before installing a fake'


@dataclass
class Throttled:
    method: str
    url: str
    route: str
    at: float          # time.monotonic()
    retry_after: float
    window: int        # which throttle (0, 1, ...)


class _Answer:
    """Just what discord.py's HTTPClient.request reads from an aiohttp response."""

    def __init__(self, method: str, url: str, status: int, body: Any, headers: Optional[dict] = None):
        self.method, self.url, self.status = method, url, status
        self.reason = {200: 'OK', 204: 'No Content', 429: 'Too Many Requests'}.get(status, 'Error')
        self._text = '' if body is None else json.dumps(body)
        self.headers = CIMultiDict(headers or {})
        if body is not None:
            self.headers['Content-Type'] = 'application/json'

    async def text(self, encoding: str = 'utf-8') -> str:
        return self._text

    async def json(self, **kwargs) -> Any:
        return json.loads(self._text) if self._text else None

    async def read(self) -> bytes:
        return self._text.encode()

    async def __aenter__(self) -> '_Answer':
        return self

    async def __aexit__(self, *exc) -> None:
        return None


class _Pending:
    """``session.request(...)``: an awaitable async context manager, as aiohttp's is."""

    def __init__(self, coro):
        self._coro, self._answer = coro, None

    def __await__(self):
        return self._coro.__await__()

    async def __aenter__(self) -> _Answer:
        self._answer = await self._coro
        return self._answer

    async def __aexit__(self, *exc) -> None:
        return None


class FakeSession:
    """Stands in for the aiohttp.ClientSession of a discord.py HTTPClient."""

    def __init__(self, fake, real_session=None):
        self.fake = fake
        self._real = real_session        # the ClientSession static_login made; closed with us
        self.closed = False
        self.answered_429: list[Throttled] = []
        self.served = 0                  # requests that reached the fake's routes
        self.windows = 0                 # throttles started
        self._until: Optional[float] = None   # time-window throttle: monotonic end
        self._armed: Optional[float] = None   # a time window that starts at the next request
        self._left = 0                   # request-count throttle: 429s still to give
        self._retry_after = 0.05

    # ------------------------------------------------------------------------- install
    @classmethod
    def install(cls, fake) -> 'FakeSession':
        """Put discord.py's real ``HTTPClient.request`` back for ``fake.bot`` with this session
        under it. Call after ``start_bot`` (login went through the fake's seam); ``fake.stop()``
        (``uninstall``) undoes it."""
        http_cls = discord.http.HTTPClient
        real = _REAL_REQUEST
        seam = http_cls.__dict__['request']   # the fake's replacement, restored by uninstall

        async def request(client, route, *, files=None, form=None, **kwargs):
            token = _current.set((route, files, form, kwargs.get('json'), kwargs.get('params')))
            try:
                return await real(client, route, files=files, form=form, **kwargs)
            finally:
                _current.reset(token)

        fake._saved.append((http_cls, 'request', seam))
        http_cls.request = request
        http = fake.bot.http
        session = cls(fake, http._HTTPClient__session)
        http._HTTPClient__session = session
        return session

    # ------------------------------------------------------------------------- throttles
    def throttle(self, *, seconds: Optional[float] = None, requests: Optional[int] = None,
                 retry_after: float = 0.05, from_next_request: bool = False) -> None:
        """A global rate limit starts now (``from_next_request``: when the next REST request
        comes, as if that request hit it). ``seconds``: every REST request is answered 429 until
        they pass (``retry_after`` is the time left, as Discord says when the limit resets, but
        at least 1 ms); ``requests``: the next ``requests`` REST requests are answered 429, each
        with ``retry_after``."""
        if (seconds is None) == (requests is None):
            raise ValueError('throttle(seconds=...) or throttle(requests=...)')
        self.windows += 1
        self._retry_after = retry_after
        self._until, self._armed, self._left = None, None, 0
        if requests is not None:
            self._left = requests
        elif from_next_request:
            self._armed = seconds
        else:
            self._until = time.monotonic() + seconds

    def stop_throttle(self) -> None:
        self._until, self._armed, self._left = None, None, 0

    @property
    def throttling(self) -> bool:
        """A throttle is on, or armed for the next request."""
        return (self._left > 0 or self._armed is not None
                or (self._until is not None and time.monotonic() < self._until))

    @property
    def window_hit(self) -> bool:
        """The newest throttle answered at least one 429."""
        return any(t.window == self.windows - 1 for t in self.answered_429[-1:])

    async def wait_window_out(self) -> None:
        """Until a time window that started has passed (an armed one is left armed)."""
        while self._until is not None and time.monotonic() < self._until:
            await asyncio.sleep(min(0.01, max(self._until - time.monotonic(), 0)))

    def _limited(self, method: str, url: str, route: str) -> Optional[float]:
        """The retry_after of a 429 for this request, or None to serve it."""
        now = time.monotonic()
        if self._armed is not None:
            self._until, self._armed = now + self._armed, None
        if self._left > 0:
            self._left -= 1
            wait = self._retry_after
        elif self._until is not None and now < self._until:
            wait = max(0.001, self._until - now)
        else:
            return None
        self.answered_429.append(Throttled(method, url, route, now, wait, self.windows - 1))
        return wait

    # ------------------------------------------------------------------------- the session
    def request(self, method: str, url: str, **kwargs) -> _Pending:
        return _Pending(self._request(method, url, **kwargs))

    async def _request(self, method: str, url: str, **kwargs) -> _Answer:
        current = _current.get()
        if current is None:
            self.fake.errors.append(f'fake session: {method} {url} outside HTTPClient.request')
            raise AssertionError(f'{method} {url}: only HTTPClient.request may use the fake session')
        route, files, form, body, params = current
        await asyncio.sleep(0)   # a real request suspends
        wait = self._limited(method, url, route.path)
        if wait is not None:
            return _Answer(method, url, 429,
                           {'message': RATE_LIMITED, 'retry_after': wait, 'global': True},
                           {'Retry-After': f'{wait:.3f}', 'X-RateLimit-Global': 'true',
                            'X-RateLimit-Scope': 'global', 'Via': '1.1 google'})
        # The fake's own serving: records, faults, route table. Its errors are the exceptions
        # discord.py raises for them, and pass straight out of HTTPClient.request as before.
        data = await self.fake._serve('rest', route, body, files, form, params)
        self.served += 1
        return _Answer(method, url, 200 if data is not None else 204, data)

    def get(self, url: str, **kwargs) -> _Pending:
        return self.request('GET', url, **kwargs)

    async def close(self) -> None:
        self.closed = True
        if self._real is not None and not self._real.closed:
            await self._real.close()
