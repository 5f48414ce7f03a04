"""An in-memory fake Discord server for offline tests (see ../shared/TESTING.md).

All of discord.py stays real. Only the two places where bytes leave the process are replaced:

* ``discord.http.HTTPClient.request``                 -- every REST call (login, messages, threads, sync)
* ``discord.webhook.async_.AsyncWebhookAdapter.request`` -- every interaction reply (callback, followups,
  ``@original``)

and ``aiohttp.ClientSession._request`` is blocked so nothing can quietly reach the network. Gateway
events are fed through discord.py's own parsers (``parse_guild_create``, ``parse_interaction_create``,
...), so option transformers, checks, error handlers and view dispatch all run for real.

Typical use (see tests/test_fakediscord.py)::

    fake = await start_bot(bot)                  # installs the fake, bot.login() -> setup_hook
    guild = fake.add_guild("Tavern")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    guild.add_member(alice); guild.add_member(bob)
    games = guild.add_text_channel("games", hidden_from=[bob])
    await fake.invoke(fake.slash(bot, "game start", user=alice, channel=games, opponent=bob))
    assert fake.interaction_responses()[-1].ephemeral
    await fake.stop()                            # closes the bot, uninstalls, fails on logged errors

User install (issue #24): ``fake.user_install(alice)`` adds the app to alice's account;
``fake.add_group_dm([alice, bob])`` and ``fake.add_guild(..., bot_member=False)`` are places the bot
is not in. Interactions from there carry ``context`` 2 / 0 and ``authorizing_integration_owners``
{"1": alice}; every REST request the bot makes to such a channel or guild answers 403 Missing
Access (50001), only the interaction's own webhook works. The fake has its own clock: after
``fake.advance(minutes=16)`` an interaction's token is dead (callback 404 10062 after 3 s,
follow-ups and @original 401 50027 after 15 minutes).

Caveats: this relies on discord.py internals (pinned to 2.7.x; test_seams fails loudly if they move);
rate limits are not modelled.
"""
from __future__ import annotations

import asyncio
import datetime
import inspect
import json
import logging
import mimetypes
import random
import re
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Union

import aiohttp
import discord
from discord.http import Route

EPHEMERAL, LOADING, HAS_THREAD, COMPONENTS_V2 = 64, 128, 32, 1 << 15
# Components V2 (https://discord.com/developers/docs/components/reference): what may sit where.
V2_TOP = {1, 9, 10, 12, 13, 14, 17}          # action row, section, text, gallery, file, separator, container
V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}
SELECTS = {3, 5, 6, 7, 8}
V2_MAX_COMPONENTS, V2_TEXT_LIMIT, GALLERY_ITEMS = 40, 4000, 10
FILE_LIMIT = 10 * 1024 * 1024  # what a non-boosted guild allows; also sent as attachment_size_limit
# discord.py's own task names for work it spawns from a gateway event; settle() waits for these.
TASK_PREFIXES = ('CommandTree-invoker', 'discord-ui-view-dispatch', 'discord-ui-dynamic-item',
                 'discord-ui-modal-dispatch', 'discord-ui-view-timeout', 'discord.py: ')
EVERYONE_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    embed_links=True, attach_files=True, add_reactions=True, read_message_history=True,
    use_application_commands=True, use_external_emojis=True)
BOT_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    create_private_threads=True, manage_threads=True, manage_messages=True, embed_links=True,
    attach_files=True, add_reactions=True, read_message_history=True, use_external_emojis=True)
# What Discord reports as app_permissions where the app is there only through a user install
# (a group DM, a server without the bot): what an interaction reply may carry, nothing more.
USER_INSTALL_PERMS = discord.Permissions(
    attach_files=True, embed_links=True, mention_everyone=True, use_external_emojis=True)
# Interaction deadlines, in seconds of the fake's clock: the first answer, then the token.
CALLBACK_WINDOW, TOKEN_LIFETIME = 3, 15 * 60
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CONTEXT = 0, 1, 2


# Faults `inject_faults` can draw: HTTP statuses, 10062 (Unknown interaction: the 3 s window was
# missed) and 429 (rate limited: the request is served, late).
FAULT_KINDS = (500, 503, 403, 404, 10062, 429)
# Login and command sync are not faulted: a bot that cannot log in is not the point of the test.
UNFAULTED = {('GET', '/users/@me'), ('GET', '/oauth2/applications/@me'),
             ('PUT', '/applications/{application_id}/commands'),
             ('PUT', '/applications/{application_id}/guilds/{guild_id}/commands')}


MAX_USER_APP_FOLLOWUPS = 5


class UnknownRoute(AssertionError):
    """The bot called an endpoint the fake does not model: add it, don't let it pass silently."""


class NetworkBlocked(AssertionError):
    """Something tried to open a real HTTP connection during a test."""


class RefusedPayload(ValueError):
    """The Discord client would never send this interaction (unknown option, out of range, ...)."""


class UnhandledErrors(AssertionError):
    """discord.py (or the fake) logged an exception that nobody handled."""


class HttpError(Exception):
    """Raised by route handlers; turned into the exception discord.py raises for that status."""

    def __init__(self, status: int, code: int, message: str):
        super().__init__(f'{status} {code} {message}')
        self.status, self.code, self.message = status, code, message


def _iso(dt: Optional[datetime.datetime] = None) -> str:
    return (dt or discord.utils.utcnow()).isoformat()


# --------------------------------------------------------------------------------------------- model

@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True      # False: sending to their DM channel -> 403 / 50007
    user_install: bool = False  # the app is installed to this user's account (fake.user_install)
    locale: str = 'en-US'

    @property
    def mention(self) -> str:
        return f'<@{self.id}>'

    def payload(self) -> dict:
        return {'id': str(self.id), 'username': self.name, 'global_name': self.name.title(),
                'discriminator': '0', 'avatar': None, 'bot': self.bot, 'public_flags': 0, 'flags': 0}


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: discord.Permissions
    position: int = 0
    managed: bool = False

    def payload(self) -> dict:
        return {'id': str(self.id), 'name': self.name, 'permissions': str(self.permissions.value),
                'position': self.position, 'color': 0, 'hoist': False, 'managed': self.managed,
                'mentionable': False, 'icon': None, 'unicode_emoji': None, 'flags': 0}


@dataclass(eq=False)
class Channel:
    id: int
    type: int                               # 0 text, 1 DM, 3 group DM, 11 public thread, 12 private thread
    name: str = ''
    guild: Optional['Guild'] = None
    parent_id: Optional[int] = None
    owner_id: Optional[int] = None
    recipient: Optional[User] = None       # DM channels
    recipients: list = field(default_factory=list)  # group DMs (the bot is never one of them)
    overwrites: list = field(default_factory=list)
    members: set = field(default_factory=set)  # thread members (user ids)
    position: int = 0
    last_message_id: Optional[int] = None
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f'<#{self.id}>'

    def payload(self) -> dict:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == 1:
            return {'id': str(self.id), 'type': 1, 'last_message_id': last, 'flags': 0,
                    'recipients': [self.recipient.payload()]}
        if self.type == 3:
            return {'id': str(self.id), 'type': 3, 'name': self.name or None, 'icon': None, 'flags': 0,
                    'last_message_id': last, 'owner_id': str(self.owner_id),
                    'recipients': [u.payload() for u in self.recipients]}
        base = {'id': str(self.id), 'type': self.type, 'guild_id': str(self.guild.id), 'name': self.name,
                'last_message_id': last, 'rate_limit_per_user': 0, 'flags': 0, 'nsfw': False}
        if not self.is_thread:
            return base | {'position': self.position, 'permission_overwrites': self.overwrites,
                           'parent_id': None, 'topic': None, 'default_auto_archive_duration': 1440}
        return base | {
            'parent_id': str(self.parent_id), 'owner_id': str(self.owner_id),
            'message_count': self.message_count, 'total_message_sent': self.message_count,
            'member_count': len(self.members), 'applied_tags': [],
            'thread_metadata': {'archived': False, 'auto_archive_duration': 1440, 'locked': False,
                                'archive_timestamp': _iso(discord.utils.snowflake_time(self.id)),
                                'create_timestamp': _iso(discord.utils.snowflake_time(self.id)),
                                'invitable': True}}


class Guild:
    """A guild in the fake's model. Changes after the bot saw it are pushed as gateway events."""

    def __init__(self, fake: 'FakeDiscord', gid: int, name: str, owner: User, bot_permissions,
                 bot_member: bool = True):
        self.fake, self.id, self.name, self.owner = fake, gid, name, owner
        self.bot_member = bot_member   # False: the app reaches it only through a user install
        self.everyone = Role(gid, '@everyone', EVERYONE_PERMS)
        self.bot_role = Role(fake.snowflake(), fake.me.name, bot_permissions, position=1, managed=True) \
            if bot_member else None
        self.roles: dict[int, Role] = {r.id: r for r in (self.everyone, self.bot_role) if r}
        self.members: dict[int, dict] = {}   # user id -> {'user': User, 'roles': [ids], 'nick': str}
        self.channels: dict[int, Channel] = {}
        self.published = False
        self.add_member(owner)
        if bot_member:
            self.add_member(fake.me, roles=[self.bot_role])

    def _state(self):
        return self.fake.bot._connection if self.published else None

    def add_role(self, name: str, permissions=discord.Permissions.none()) -> Role:
        role = Role(self.fake.snowflake(), name, permissions, position=len(self.roles))
        self.roles[role.id] = role
        if state := self._state():
            state.parse_guild_role_create({'guild_id': str(self.id), 'role': role.payload()})
        return role

    def add_member(self, user: User, *, roles: Iterable[Role] = (), nick: Optional[str] = None) -> User:
        self.members[user.id] = {'user': user, 'roles': [r.id for r in roles], 'nick': nick}
        if state := self._state():
            state.parse_guild_member_add(self.member_payload(user.id) | {'guild_id': str(self.id)})
        return user

    def member_payload(self, user_id: int) -> dict:
        m = self.members[user_id]
        joined = _iso(discord.utils.snowflake_time(self.id))
        return {'user': m['user'].payload(), 'roles': [str(r) for r in m['roles']], 'nick': m['nick'],
                'joined_at': joined, 'deaf': False, 'mute': False, 'flags': 0, 'pending': False,
                'avatar': None, 'premium_since': None, 'communication_disabled_until': None}

    def add_text_channel(self, name: str, *, hidden_from: Iterable[Union[User, Role]] = (),
                         overwrites: Optional[dict] = None) -> Channel:
        """``overwrites``: {User|Role: discord.PermissionOverwrite}; ``hidden_from`` denies View Channel."""
        ows = dict(overwrites or {})
        for target in hidden_from:
            ows[target] = discord.PermissionOverwrite(view_channel=False)
        raw = []
        for target, ow in ows.items():
            allow, deny = ow.pair()
            raw.append({'id': str(target.id), 'type': 0 if isinstance(target, Role) else 1,
                        'allow': str(allow.value), 'deny': str(deny.value)})
        ch = Channel(self.fake.snowflake(), 0, name, guild=self, overwrites=raw, position=len(self.channels))
        self.channels[ch.id] = ch
        self.fake.channels[ch.id] = ch
        if state := self._state():
            state.parse_channel_create(ch.payload())
        return ch

    def payload(self) -> dict:
        members = [self.member_payload(uid) for uid in self.members]
        return {
            'id': str(self.id), 'name': self.name, 'icon': None, 'owner_id': str(self.owner.id),
            'roles': [r.payload() for r in self.roles.values()], 'emojis': [], 'stickers': [],
            'features': [], 'members': members, 'member_count': len(members), 'large': False,
            'channels': [c.payload() for c in self.channels.values() if not c.is_thread],
            'threads': [c.payload() for c in self.channels.values() if c.is_thread],
            'voice_states': [], 'presences': [], 'stage_instances': [], 'guild_scheduled_events': [],
            'soundboard_sounds': [], 'joined_at': _iso(), 'preferred_locale': 'en-US',
            'verification_level': 0, 'default_message_notifications': 0, 'explicit_content_filter': 0,
            'mfa_level': 0, 'nsfw_level': 0, 'premium_tier': 0, 'afk_timeout': 300, 'system_channel_id': None}


@dataclass
class SentFile:
    filename: str
    data: bytes
    description: Optional[str] = None   # alt text


@dataclass(eq=False)
class Message:
    """A message as Discord stores it: ``payload`` is exactly what the fake answers with."""
    payload: dict
    files: list = field(default_factory=list)
    audience: Optional[int] = None   # ephemeral messages are visible to this user only
    token: Optional[str] = None      # interaction token that created it (followup/@original routes)
    deleted: bool = False

    id = property(lambda self: int(self.payload['id']))
    channel_id = property(lambda self: int(self.payload['channel_id']))
    # What a reader sees as the message's text: a V2 message has no content, its text is in
    # its TextDisplays (joined by newlines, in order).
    content = property(lambda self: v2_text(self.payload) if self.v2 else self.payload.get('content') or '')
    flags = property(lambda self: self.payload.get('flags', 0))
    v2 = property(lambda self: bool(self.flags & COMPONENTS_V2))
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    embeds = property(lambda self: self.payload.get('embeds', []))

    def components(self) -> list[dict]:
        """Every component (buttons, selects, ...) however deeply nested (v1 rows or v2 layouts)."""
        out, todo = [], list(self.payload.get('components', []))
        while todo:
            c = todo.pop(0)
            out.append(c)
            todo.extend(c.get('components', []))
            todo.extend(c[k] for k in ('accessory', 'component') if isinstance(c.get(k), dict))
        return out

    @property
    def custom_ids(self) -> list[str]:
        return [c['custom_id'] for c in self.components() if 'custom_id' in c]

    def text(self) -> str:
        """Everything a reader sees as text: content, embeds and text-bearing components."""
        # (a V2 message's text is in its TextDisplays, read below with the other components)
        parts = [self.payload.get('content') or '', json.dumps(self.embeds, ensure_ascii=False)]
        parts += [str(c.get(k, '')) for c in self.components() for k in ('content', 'label', 'placeholder')]
        parts += [o.get('label', '') for c in self.components() for o in c.get('options', [])]
        return '\n'.join(parts)


def walk_components(components: list) -> list[dict]:
    """Every component however deeply nested (rows, containers, sections' accessories), in
    reading order; media gallery items are not components."""
    out = []
    for c in components or ():
        out.append(c)
        out += walk_components(c.get('components', []))
        out += walk_components([c[k] for k in ('accessory', 'component') if isinstance(c.get(k), dict)])
    return out


def v2_text(body: dict) -> str:
    """The text of a V2 message: its TextDisplays' contents, joined by newlines."""
    return '\n'.join(c.get('content') or '' for c in walk_components(body.get('components') or [])
                     if c.get('type') == 10)


@dataclass
class Request:
    seam: str                 # 'rest' (HTTPClient) or 'webhook' (interaction replies)
    method: str
    route: str                # discord.py's route template, e.g. '/channels/{channel_id}/messages'
    args: dict                # path arguments, snowflakes as int
    json: Any
    files: list
    params: Optional[dict]
    status: int = 200
    response: Any = None

    @property
    def body(self) -> dict:
        """The message-ish part: ``data`` of an interaction callback, else the JSON body."""
        if self.route.endswith('/callback'):
            return (self.json or {}).get('data') or {}
        return self.json if isinstance(self.json, dict) else {}

    flags = property(lambda self: self.body.get('flags') or 0)
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    v2 = property(lambda self: bool(self.flags & COMPONENTS_V2))
    content = property(lambda self: v2_text(self.body) if self.v2 else self.body.get('content') or '')
    callback_type = property(lambda self: (self.json or {}).get('type') if self.route.endswith('/callback') else None)

    def __repr__(self) -> str:
        return f'<Request {self.method} {self.route} {self.args} -> {self.status}>'


@dataclass(eq=False)
class _Interaction:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    message_id: Optional[int] = None   # component interactions: the message clicked
    name: str = ''
    response: Optional[int] = None     # callback type once acknowledged
    original: Optional[int] = None     # message id behind @original
    loading: bool = False              # deferred (type 5): first followup fills @original
    choices: Optional[list] = None     # autocomplete answer
    modal: Optional[dict] = None
    born: float = 0.0                  # the fake's clock when it was created (tokens expire)
    owners: Optional[dict] = None      # its authorizing_integration_owners
    followups: int = 0                 # follow-ups made (user-installed apps may make 5)


class _Response:
    """Just enough of an aiohttp response for discord.HTTPException's constructor."""

    def __init__(self, status: int, method: str, url: str):
        self.status, self.method, self.url = status, method, url
        self.reason = {400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 413: 'Payload Too Large',
                       500: 'Internal Server Error'}.get(status, 'Error')
        self.headers: dict = {}


def http_exception(status: int, code: int, message: str, method='GET', url='') -> discord.HTTPException:
    """The exception discord.py raises for this response (after its retries, for 5xx)."""
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        cls = discord.DiscordServerError
    return cls(_Response(status, method, url), {'code': code, 'message': message})


class _ErrorLog(logging.Handler):
    def __init__(self, sink: list):
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(f'[{record.name}] {self.format(record)}')


# ------------------------------------------------------------------------------------------ the fake

class FakeDiscord:
    def __init__(self, *, bot_name: str = 'Referee', loud_loggers: Iterable[str] = ('discord',)):
        self._last_id = 0
        self.me = User(self.snowflake(), bot_name, bot=True)
        self.app_id = self.me.id          # modern applications share the bot user's id
        self.owner = User(self.snowflake(), 'app-owner')
        self.bot: Optional[discord.Client] = None
        self.users: dict[int, User] = {self.me.id: self.me}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, _Interaction] = {}
        self.private_replies: set[int] = set()   # channels where app replies are forced private
        self.commands: dict[Optional[int], list[dict]] = {}   # guild id (None = global) -> synced
        self.requests: list[Request] = []
        self.errors: list[str] = []
        self.task_prefixes = list(TASK_PREFIXES)   # extend with your own task-name prefixes
        self._tracked: set[asyncio.Task] = set()
        self._failures: list[tuple] = []
        self._faults: Optional[dict] = None
        self.injected: list[tuple[str, str, int]] = []   # (method, route, fault) drawn so far
        # Set to a callable (tests/discord_spec.py SpecCheck) to check every request body
        # against Discord's OpenAPI spec; what it finds is kept in spec_violations.
        self.spec: Optional[Callable[['Request'], list]] = None
        self.spec_violations: list[str] = []
        self._settled_at = 0
        self.clock = 0.0   # seconds; only advance() moves it (interaction tokens age by it)
        self._saved: list = []
        self._loud_loggers = tuple(loud_loggers)
        self._log_handler = _ErrorLog(self.errors)
        self._routes: dict[tuple[str, str], Callable] = {
            ('GET', '/users/@me'): lambda r: self.me.payload() | {'verified': True, 'mfa_enabled': False},
            ('GET', '/oauth2/applications/@me'): self._app_info,
            ('GET', '/users/{user_id}'): lambda r: self._user(r.args['user_id']).payload(),
            ('POST', '/users/@me/channels'): lambda r: self.dm_channel(self._user(int(r.json['recipient_id']))).payload(),
            ('GET', '/channels/{channel_id}'): lambda r: self._channel(r.args['channel_id']).payload(),
            ('POST', '/channels/{channel_id}/typing'): lambda r: None,
            ('POST', '/channels/{channel_id}/messages'): self._send_message,
            ('GET', '/channels/{channel_id}/messages'): self._history,
            ('GET', '/channels/{channel_id}/messages/{message_id}'): lambda r: self._channel_msg(r).payload,
            ('PATCH', '/channels/{channel_id}/messages/{message_id}'): lambda r: self._edit(self._channel_msg(r), r),
            ('DELETE', '/channels/{channel_id}/messages/{message_id}'): lambda r: self._delete(self._channel_msg(r)),
            ('PUT', '/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me'): lambda r: self._channel_msg(r) and None,
            ('POST', '/channels/{channel_id}/threads'): self._create_thread,
            ('POST', '/channels/{channel_id}/messages/{message_id}/threads'): self._create_thread,
            ('PUT', '/channels/{channel_id}/thread-members/@me'): self._thread_member,
            ('PUT', '/channels/{channel_id}/thread-members/{user_id}'): self._thread_member,
            ('DELETE', '/channels/{channel_id}/thread-members/{user_id}'): self._thread_member,
            ('GET', '/guilds/{guild_id}/members/{user_id}'): self._get_member,
            ('GET', '/guilds/{guild_id}/members/{member_id}'): self._get_member,
            ('PUT', '/applications/{application_id}/commands'): self._sync,
            ('PUT', '/applications/{application_id}/guilds/{guild_id}/commands'): self._sync,
            ('GET', '/applications/{application_id}/commands'): lambda r: self.commands.get(None, []),
            ('GET', '/applications/{application_id}/guilds/{guild_id}/commands'): lambda r: self.commands.get(r.args['guild_id'], []),
            ('POST', '/interactions/{webhook_id}/{webhook_token}/callback'): self._callback,
            ('POST', '/webhooks/{webhook_id}/{webhook_token}'): self._followup,
            ('GET', '/webhooks/{webhook_id}/{webhook_token}/messages/@original'): lambda r: self._hook_msg(r).payload,
            ('PATCH', '/webhooks/{webhook_id}/{webhook_token}/messages/@original'): lambda r: self._edit(self._hook_msg(r), r),
            ('DELETE', '/webhooks/{webhook_id}/{webhook_token}/messages/@original'): lambda r: self._delete(self._hook_msg(r)),
            ('GET', '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}'): lambda r: self._hook_msg(r).payload,
            ('PATCH', '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}'): lambda r: self._edit(self._hook_msg(r), r),
            ('DELETE', '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}'): lambda r: self._delete(self._hook_msg(r)),
        }

    def snowflake(self) -> int:
        # Real timestamps keep discord.py's snowflake-age logic (delete sub-limits, created_at) sane.
        self._last_id = max(self._last_id + 1, discord.utils.time_snowflake(discord.utils.utcnow()))
        return self._last_id

    # ---------------------------------------------------------------------------- install / seams
    def install(self) -> None:
        fake = self

        async def http_request(client, route, *, files=None, form=None, **kwargs):
            return await fake._serve('rest', route, kwargs.get('json'), files, form, kwargs.get('params'))

        async def webhook_request(adapter, route, session=None, *, payload=None, multipart=None,
                                  files=None, params=None, **kwargs):
            return await fake._serve('webhook', route, payload, files, multipart, params)

        async def blocked(session, method, url, *args, **kwargs):
            fake.errors.append(f'network access attempted: {method} {url}')
            raise NetworkBlocked(f'{method} {url}: tests must not touch the network')

        for owner, name, new in ((discord.http.HTTPClient, 'request', http_request),
                                 (discord.webhook.async_.AsyncWebhookAdapter, 'request', webhook_request),
                                 (aiohttp.ClientSession, '_request', blocked)):
            self._saved.append((owner, name, owner.__dict__[name]))
            setattr(owner, name, new)
        for name in self._loud_loggers:
            logging.getLogger(name).addHandler(self._log_handler)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        # Exceptions in un-awaited tasks otherwise only surface as a warning at garbage collection.
        self._saved.append((loop, 'exception_handler', loop.get_exception_handler()))
        loop.set_exception_handler(lambda lp, ctx: self.errors.append(
            f"asyncio: {ctx.get('message')} {ctx.get('exception')!r}"))

    def uninstall(self) -> None:
        for owner, name, old in reversed(self._saved):
            if name == 'exception_handler':
                owner.set_exception_handler(old)
            else:
                setattr(owner, name, old)
        self._saved.clear()
        for name in self._loud_loggers:
            logging.getLogger(name).removeHandler(self._log_handler)

    async def stop(self, *, check: bool = True) -> None:
        """Teardown: let pending work finish, close the bot, uninstall, then fail on logged errors."""
        try:
            if self.bot is not None:
                # A task parked on view.wait() at the end of a test is the test's business, not a hang.
                await self.settle(check=False, pending_ok=True)
                await self.bot.close()
        finally:
            self.uninstall()
        if check:
            self.check()

    # ------------------------------------------------------------------------------ loud errors
    def check(self) -> None:
        """Raise UnhandledErrors if anything was logged at ERROR (or the fake saw misuse); clears them."""
        if self.errors:
            errors, self.errors[:] = list(self.errors), []
            raise UnhandledErrors('\n\n'.join(errors))

    # ------------------------------------------------------------------------------ failures
    def fail_next(self, method: str, route: str, *, status: int = 500, code: int = 0,
                  message: str = 'injected failure', exception: Optional[BaseException] = None,
                  times: int = 1, **args) -> None:
        """Make the next ``times`` matching requests fail. ``args`` filter on path arguments
        (e.g. ``channel_id=chan.id``). ``exception`` raises that instead (e.g. an OSError)."""
        exc = exception or http_exception(status, code, message, method, route)
        self._failures.append([method, route, args, exc, times])

    def inject_faults(self, rate: float, *, seed: int = 0, kinds: Iterable[int] = FAULT_KINDS,
                      delay: float = 0.02, seams: Iterable[str] = ('rest', 'webhook')) -> None:
        """From now on a fraction ``rate`` of requests (drawn by a ``seed``-ed RNG, so a run
        repeats) fails with one of ``kinds``: 500/503 (DiscordServerError, as discord.py raises
        it once its own retries are spent), 403 (Missing Permissions), 404 (Unknown Message),
        10062 (Unknown interaction; interaction replies only, else a 404) or 429 (served after
        ``delay`` seconds, as discord.py waits out a rate limit). A failed request changes
        nothing on the fake server. Login and command sync are spared. ``stop_faults()`` ends
        it; ``injected`` lists what was drawn."""
        self._faults = {'rate': rate, 'rng': random.Random(seed), 'kinds': tuple(kinds),
                        'delay': delay, 'seams': tuple(seams)}

    def stop_faults(self) -> None:
        self._faults = None

    async def _maybe_fault(self, req: 'Request') -> None:
        f = self._faults
        if f is None or req.seam not in f['seams'] or (req.method, req.route) in UNFAULTED:
            return
        if f['rng'].random() >= f['rate']:
            return
        kind = f['rng'].choice(f['kinds'])
        self.injected.append((req.method, req.route, kind))
        if kind == 429:
            await asyncio.sleep(f['delay'])
            return
        if kind == 10062 and req.seam != 'webhook':
            kind = 404
        status, code, message = {
            500: (500, 0, 'Internal Server Error'), 503: (503, 0, 'Service Unavailable'),
            403: (403, 50013, 'Missing Permissions'), 404: (404, 10008, 'Unknown Message'),
            10062: (404, 10062, 'Unknown interaction')}[kind]
        req.status = status
        raise http_exception(status, code, message, req.method, req.route)

    def type_message(self, channel: Channel, user: User, text: str) -> Message:
        """``user`` types ``text`` in ``channel``: a MESSAGE_CREATE through discord.py's real
        gateway parser (on_message listeners run; ``await fake.settle()`` after). As on
        Discord, a bot without the Message Content intent gets an empty ``content`` for guild
        messages that do not mention it."""
        if channel.guild is not None:
            if user.id not in channel.guild.members:
                raise RefusedPayload(f'{user.name} is not a member of {channel.guild.name}')
            perms = self.permissions(user, channel)
            needed = 'send_messages_in_threads' if channel.is_thread else 'send_messages'
            if not (perms.view_channel and getattr(perms, needed)):
                raise RefusedPayload(f'{user.name} cannot write in #{channel.name}')
        elif channel.recipient is not user:
            raise RefusedPayload(f'{user.name} cannot write in that DM channel')
        mid = self.snowflake()
        payload = {
            'id': str(mid), 'channel_id': str(channel.id), 'type': 0, 'content': text,
            'author': user.payload(), 'embeds': [], 'components': [], 'attachments': [],
            'mentions': [], 'mention_roles': [], 'mention_everyone': False, 'pinned': False,
            'tts': False, 'timestamp': _iso(), 'edited_timestamp': None, 'flags': 0}
        msg = Message(payload)
        self.messages[mid] = msg
        channel.last_message_id, channel.message_count = mid, channel.message_count + 1
        state = self.bot._connection
        event = json.loads(json.dumps(payload))
        if channel.guild is not None:
            member = channel.guild.member_payload(user.id)
            member.pop('user')
            event |= {'guild_id': str(channel.guild.id), 'member': member}
            if not state.intents.message_content and f'<@{self.me.id}>' not in text:
                event['content'] = ''   # privileged: Discord leaves it out
        if state.intents.guild_messages if channel.guild else state.intents.dm_messages:
            state.parse_message_create(event)
        return msg

    def close_dms(self, user: User) -> None:
        user.dms_open = False

    # ------------------------------------------------------------------------------ serving
    async def _serve(self, seam, route: Route, body, files, form, params):
        await asyncio.sleep(0)  # a real request suspends; keep interleavings honest
        if form:  # multipart: the JSON rides along as payload_json
            body = json.loads(next(p['value'] for p in form if p['name'] == 'payload_json'))
        sent = []
        for f in files or ():
            f.reset(seek=True)
            sent.append(SentFile(f.filename, f.fp.read(), f.description))
            f.reset(seek=True)
        req = Request(seam, route.method, route.path, self._path_args(route), body, sent, params)
        self.requests.append(req)
        if self.spec is not None:
            self.spec_violations += self.spec(req)
        await self._maybe_fault(req)
        for failure in self._failures:
            method, template, args, exc, _ = failure
            if (method, template) == (req.method, req.route) and all(req.args.get(k) == v for k, v in args.items()):
                failure[4] -= 1
                if failure[4] <= 0:
                    self._failures.remove(failure)
                req.status = getattr(exc, 'status', 0)
                raise exc
        handler = self._routes.get((req.method, req.route))
        if handler is None:
            self.errors.append(f'unknown route {req.method} {req.route}')
            raise UnknownRoute(f'the fake does not model {req.method} {req.route}; add it to FakeDiscord')
        try:
            if seam == 'rest':
                self._require_present(req)
            req.response = handler(req)
        except HttpError as e:
            req.status = e.status
            raise http_exception(e.status, e.code, e.message, req.method, route.url) from None
        req.status = 200 if req.response is not None else 204
        return req.response

    @staticmethod
    def _path_args(route: Route) -> dict:
        pattern = re.sub(r'\\\{(\w+)\\\}', r'(?P<\1>[^/]+)', re.escape(route.path))
        m = re.fullmatch(pattern, route.url[len(Route.BASE):])
        args = {k: urllib.parse.unquote(v) for k, v in (m.groupdict() if m else {}).items()}
        return {k: int(v) if v.isdigit() and k != 'webhook_token' else v for k, v in args.items()}

    # ------------------------------------------------------------------------------ world building
    def add_user(self, name: str, **kw) -> User:
        user = User(self.snowflake(), name, **kw)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str = 'Test Guild', *, owner: Optional[User] = None,
                  bot_permissions: discord.Permissions = BOT_PERMS, bot_member: bool = True) -> Guild:
        """``bot_member=False``: a server that did not add the bot. The bot never hears of it (no
        GUILD_CREATE); its members reach the app through a user install only (``user_install``)."""
        owner = owner or self.add_user('guild-owner')
        guild = Guild(self, self.snowflake(), name, owner, bot_permissions, bot_member=bot_member)
        self.guilds[guild.id] = guild
        if bot_member and self.bot is not None and self.bot.user is not None:
            self._publish(guild)
        return guild

    def add_group_dm(self, users: Iterable[User], *, name: str = '') -> Channel:
        """A group DM of ``users`` (the first owns it). The bot is never in one: the app is used
        there through a member's user install, and REST to it answers 403 Missing Access."""
        users = list(users)
        if len(users) < 2 or any(u.bot for u in users):
            raise ValueError('a group DM has two or more people, and no bots')
        ch = Channel(self.snowflake(), 3, name, owner_id=users[0].id, recipients=users)
        self.channels[ch.id] = ch
        return ch

    def user_install(self, *users: User) -> None:
        """Add the app to these users' accounts (Discord's "Add App" > "Try it now")."""
        for user in users:
            user.user_install = True

    def external_apps_off(self, channel: Channel) -> None:
        """The server took "Use External Apps" from its members in ``channel``: a user-installed
        app's replies there are seen by the person who used it only (ephemeral, forced)."""
        self.private_replies.add(channel.id)

    def advance(self, *, minutes: float = 0, seconds: float = 0) -> float:
        """Move the fake's clock on; interaction tokens older than 15 minutes stop working."""
        self.clock += minutes * 60 + seconds
        return self.clock

    def bot_present(self, channel: Channel) -> bool:
        """Whether the bot is in ``channel``: a guild that added it, or its own DMs."""
        if channel.guild is not None:
            return channel.guild.bot_member
        return channel.type == 1

    def context(self, channel: Channel) -> int:
        """The interaction context Discord reports for ``channel``: 0 guild, 1 the bot's DM,
        2 any other private channel (group DMs)."""
        if channel.guild is not None:
            return GUILD_CONTEXT
        return BOT_DM_CONTEXT if channel.type == 1 else PRIVATE_CONTEXT

    def integration_owners(self, user: User, channel: Channel) -> dict:
        """``authorizing_integration_owners``: "0" the guild that added the app ("0" in the bot's
        DM), "1" the user who added it to their account. Refused where the user cannot reach it."""
        owners = {}
        if channel.guild is not None and channel.guild.bot_member:
            owners['0'] = str(channel.guild.id)
        elif channel.guild is None and channel.type == 1:
            owners['0'] = '0'
        if user.user_install:
            owners['1'] = str(user.id)
        if not owners:
            raise RefusedPayload(f'{user.name} has not added the app and the bot is not there '
                                 '(fake.user_install(user) first)')
        return owners

    def _publish(self, guild: Guild) -> None:
        """GUILD_CREATE through the real parser. member_count == len(members), so a bot with the
        members intent sees the guild as chunked and does not try to chunk over a gateway."""
        self.bot._connection.parse_guild_create(guild.payload())
        guild.published = True

    def dm_channel(self, user: User) -> Channel:
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipient is user:
                return ch
        ch = Channel(self.snowflake(), 1, recipient=user)
        self.channels[ch.id] = ch
        return ch

    def _user(self, uid) -> User:
        if int(uid) not in self.users:
            raise HttpError(404, 10013, 'Unknown User')
        return self.users[int(uid)]

    def _channel(self, cid) -> Channel:
        if int(cid) not in self.channels:
            raise HttpError(404, 10003, 'Unknown Channel')
        return self.channels[int(cid)]

    def _app_info(self, req) -> dict:
        return {'id': str(self.app_id), 'name': self.me.name, 'description': '', 'icon': None,
                'bot_public': False, 'bot_require_code_grant': False, 'owner': self.owner.payload(),
                'verify_key': '0' * 64, 'flags': 0, 'team': None, 'summary': '', 'bot': self.me.payload(),
                'interactions_endpoint_url': None, 'tags': [], 'redirect_uris': []}

    def _get_member(self, req) -> dict:
        guild = self.guilds.get(req.args['guild_id'])
        uid = req.args.get('user_id', req.args.get('member_id'))  # discord.py names it member_id
        if guild is None or uid not in guild.members:
            raise HttpError(404, 10007, 'Unknown Member')
        return guild.member_payload(uid)

    # ------------------------------------------------------------------------------ permissions
    def permissions(self, user: User, channel: Channel) -> discord.Permissions:
        """Computed by discord.py itself from the cached guild, roles and overwrites (for a guild
        the bot is not in, from a throwaway copy: the bot's cache never holds it)."""
        if channel.guild is None:
            return discord.Permissions._dm_permissions()
        state = self.bot._connection
        dguild = state._get_guild(channel.guild.id) if channel.guild.bot_member else \
            discord.Guild(data=channel.guild.payload(), state=state)
        dchannel = dguild.get_channel_or_thread(channel.id)
        member = dguild.get_member(user.id) or discord.Member(
            data=channel.guild.member_payload(user.id), guild=dguild, state=state)
        perms = dchannel.permissions_for(member)
        if channel.type == 12 and user.id not in channel.members and not perms.manage_threads:
            perms = discord.Permissions.none()   # private threads are invisible to non-members
        return perms

    def _require_present(self, req: Request) -> None:
        """REST reaches only where the bot is: a group DM or a guild that did not add it is
        403 Missing Access, whatever the route (send, edit, threads, get channel, members)."""
        channel = self.channels.get(req.args.get('channel_id'))
        guild = self.guilds.get(req.args.get('guild_id'))
        if (channel is not None and not self.bot_present(channel)) or (guild is not None and not guild.bot_member):
            raise HttpError(403, 50001, 'Missing Access')

    def _require(self, channel: Channel, *needed: str) -> None:
        if channel.guild is None:
            return
        perms = self.permissions(self.me, channel)
        if not perms.view_channel:
            raise HttpError(403, 50001, 'Missing Access')
        if not all(getattr(perms, p) for p in needed):
            raise HttpError(403, 50013, f'Missing Permissions ({", ".join(needed)})')

    # ------------------------------------------------------------------------------ messages
    def _validate(self, body: dict, files: list, *, flags: int = 0, kept: Iterable[str] = ()) -> None:
        """A few of Discord's Invalid Form Body rules that real bugs hit. ``flags``: the
        message's flags after this request (V2 or not); ``kept``: names of the attachments the
        message keeps (an ``attachment://`` reference may name them or a file uploaded now)."""
        content, embeds, comps = body.get('content') or '', body.get('embeds') or [], body.get('components') or []
        if flags & COMPONENTS_V2:
            self._validate_v2(body, files, kept)
        else:
            self._validate_rows(comps)
        if len(content) > 2000:
            raise HttpError(400, 50035, 'content: Must be 2000 or fewer in length.')
        if not (content or embeds or comps or files or body.get('attachments') or body.get('poll')):
            raise HttpError(400, 50006, 'Cannot send an empty message')
        chars = sum(len(e.get('title', '')) + len(e.get('description', '')) + len(e.get('footer', {}).get('text', ''))
                    + len(e.get('author', {}).get('name', ''))
                    + sum(len(f['name']) + len(f['value']) for f in e.get('fields', [])) for e in embeds)
        if len(embeds) > 10 or chars > 6000 or any(len(e.get('fields', [])) > 25 for e in embeds):
            raise HttpError(400, 50035, 'embeds: more than 10, 25 fields or 6000 characters')
        ids = [c['custom_id'] for c in Message({'components': comps}).components() if 'custom_id' in c]
        if len(ids) != len(set(ids)) or any(len(i) > 100 for i in ids):
            raise HttpError(400, 50035, 'components: custom_id duplicated or longer than 100')
        if any(len(f.data) > FILE_LIMIT for f in files):
            raise HttpError(413, 40005, 'Request entity too large')

    @staticmethod
    def _validate_rows(rows: list, where: str = 'components') -> None:
        """Classic components: action rows only, at most 5, each 5 buttons or 1 select."""
        if len(rows) > 5:
            raise HttpError(400, 50035, f'{where}: Must be 5 or fewer in length.')
        for n, row in enumerate(rows):
            FakeDiscord._validate_row(row, f'{where}.{n}')

    @staticmethod
    def _validate_row(row: dict, where: str) -> None:
        if row.get('type') != 1:
            raise HttpError(400, 50035, f'{where}: only action rows here without IS_COMPONENTS_V2 '
                                        f'(got type {row.get("type")})')
        kids = row.get('components') or []
        types = [c.get('type') for c in kids]
        if not kids or any(t not in {2} | SELECTS for t in types):
            raise HttpError(400, 50035, f'{where}: an action row holds buttons or one select')
        if any(t in SELECTS for t in types) and len(kids) != 1 or len(kids) > 5:
            raise HttpError(400, 50035, f'{where}: an action row holds up to 5 buttons or exactly 1 select')

    def _validate_v2(self, body: dict, files: list, kept: Iterable[str]) -> None:
        """IS_COMPONENTS_V2: no content, embeds, poll or stickers; the layout's own limits."""
        for key in ('content', 'embeds', 'poll', 'sticker_ids'):
            if body.get(key):
                raise HttpError(400, 50035, f'{key}: cannot be used when the IS_COMPONENTS_V2 flag is set')
        comps = body.get('components') or []
        if not comps:
            raise HttpError(400, 50006, 'Cannot send an empty message')
        every = walk_components(comps)
        if len(every) > V2_MAX_COMPONENTS:
            raise HttpError(400, 50035, f'components: at most {V2_MAX_COMPONENTS} in all (got {len(every)})')
        text = sum(len(c.get('content') or '') for c in every if c.get('type') == 10)
        if text > V2_TEXT_LIMIT:
            raise HttpError(400, 50035, f'components: text displays hold at most {V2_TEXT_LIMIT} characters (got {text})')
        names = {f.filename for f in files} | set(kept)

        def check(c: dict, where: str, allowed: set) -> None:
            t = c.get('type')
            if t not in allowed:
                raise HttpError(400, 50035, f'{where}: component type {t} not allowed here')
            if t == 1:
                self._validate_row(c, where)
            elif t == 10 and not (c.get('content') or '').strip():
                raise HttpError(400, 50035, f'{where}.content: must be 1 or more in length')
            elif t == 12:
                items = c.get('items') or []
                if not 1 <= len(items) <= GALLERY_ITEMS:
                    raise HttpError(400, 50035, f'{where}.items: a media gallery holds 1 to {GALLERY_ITEMS}')
                for n, item in enumerate(items):
                    url = (item.get('media') or {}).get('url') or ''
                    if len(item.get('description') or '') > 1024:
                        raise HttpError(400, 50035, f'{where}.items.{n}.description: 1024 or fewer')
                    if url.startswith('attachment://') and url[len('attachment://'):] not in names:
                        raise HttpError(400, 50035, f'{where}.items.{n}.media: {url} is not an attachment '
                                                    f'of this message')
                    if not url:
                        raise HttpError(400, 50035, f'{where}.items.{n}.media.url: required')
            elif t == 17:
                kids = c.get('components') or []
                accent = c.get('accent_color')
                if accent is not None and not 0 <= accent <= 0xFFFFFF:
                    raise HttpError(400, 50035, f'{where}.accent_color: out of range')
                if not kids:
                    raise HttpError(400, 50035, f'{where}.components: a container needs 1 or more')
                for n, kid in enumerate(kids):
                    check(kid, f'{where}.components.{n}', V2_IN_CONTAINER)
        for n, c in enumerate(comps):
            check(c, f'components.{n}', V2_TOP)

    def _attachments(self, channel: Channel, body: dict, files: list, old: list) -> list:
        keep = {str(a['id']) for a in body.get('attachments', []) if 'id' in a}
        out = [a for a in old if a['id'] in keep] if 'attachments' in body else list(old)
        described = {int(a['id']): a.get('description') for a in body.get('attachments', [])
                     if str(a.get('id')).isdigit() and int(a['id']) < len(files)}
        for i, f in enumerate(files):
            aid = self.snowflake()
            url = f'https://cdn.discordapp.com/attachments/{channel.id}/{aid}/{f.filename}'
            out.append({'id': str(aid), 'filename': f.filename, 'size': len(f.data), 'url': url,
                        'proxy_url': url, 'content_type': mimetypes.guess_type(f.filename)[0],
                        'description': described.get(i, f.description)})
        return out

    def _create(self, channel: Channel, body: dict, files: list, *, ix: Optional[_Interaction] = None,
                loading: bool = False) -> Message:
        flags = body.get('flags') or 0
        if ix is None:
            flags &= ~EPHEMERAL   # only interaction replies can be ephemeral
        elif channel.id in self.private_replies and not self.bot_present(channel):
            flags |= EPHEMERAL    # "Use External Apps" is off there
        if loading:
            flags |= LOADING      # a deferred "Bot is thinking..." placeholder may be empty
        else:
            self._validate(body, files, flags=flags)
        mid = self.snowflake()
        payload = {
            'id': str(mid), 'channel_id': str(channel.id), 'type': 0, 'content': body.get('content') or '',
            'author': self.me.payload(), 'embeds': body.get('embeds') or [], 'components': body.get('components') or [],
            'attachments': self._attachments(channel, body, files, []), 'mentions': [], 'mention_roles': [],
            'mention_everyone': False, 'pinned': False, 'tts': bool(body.get('tts')), 'timestamp': _iso(),
            'edited_timestamp': None, 'flags': flags}
        if ix is not None:
            payload |= {'webhook_id': str(self.app_id), 'application_id': str(self.app_id),
                        'type': 20 if ix.type == 2 and ix.original is None else 0,
                        'interaction_metadata': {'id': str(ix.id), 'type': ix.type, 'user': ix.user.payload(),
                                                 'authorizing_integration_owners': {}}}
        eph = bool(payload['flags'] & EPHEMERAL)
        msg = Message(payload, files, audience=ix.user.id if (eph and ix) else None, token=ix and ix.token)
        self.messages[mid] = msg
        if not eph:
            channel.last_message_id, channel.message_count = mid, channel.message_count + 1
            self._gateway_message(channel, msg)
        return msg

    def _gateway_message(self, channel: Channel, msg: Message) -> None:
        """Discord echoes the bot's own (non-ephemeral) messages as MESSAGE_CREATE."""
        if not self.bot_present(channel):
            return   # no gateway events from where the bot is not
        intents = self.bot._connection.intents
        if (intents.guild_messages if channel.guild else intents.dm_messages):
            extra = {'guild_id': str(channel.guild.id)} if channel.guild else {}
            self.bot._connection.parse_message_create(json.loads(json.dumps(msg.payload)) | extra)

    def _edit(self, msg: Message, req: Request) -> dict:
        body = req.body
        new = {k: body[k] for k in ('content', 'embeds', 'components') if k in body}
        merged = {**{k: msg.payload.get(k) for k in ('content', 'embeds', 'components')}, **new}
        # The V2 flag can be set by an edit, never taken away (Discord ignores a flags field
        # without it; the message stays V2 and its rules apply).
        flags = msg.payload['flags'] | ((body.get('flags') or 0) & COMPONENTS_V2)
        if 'attachments' in body:
            keep = {str(a['id']) for a in body['attachments'] if 'id' in a}
            kept = [a['filename'] for a in msg.payload['attachments'] if a['id'] in keep]
        else:
            kept = [a['filename'] for a in msg.payload['attachments']]
        self._validate(merged | {'attachments': msg.payload['attachments']}, req.files, flags=flags,
                       kept=kept)
        msg.payload['flags'] = flags
        msg.payload.update({k: v if v is not None else ([] if k != 'content' else '') for k, v in new.items()})
        msg.payload['attachments'] = self._attachments(self.channels[msg.channel_id], body, req.files,
                                                       msg.payload['attachments'])
        msg.files = [f for f in msg.files if f.filename in {a['filename'] for a in msg.payload['attachments']}] + req.files
        msg.payload['flags'] &= ~LOADING
        msg.payload['edited_timestamp'] = _iso()
        return msg.payload

    def _delete(self, msg: Message) -> None:
        msg.deleted = True

    def _send_message(self, req: Request) -> dict:
        channel = self._channel(req.args['channel_id'])
        if channel.type == 1:
            user = channel.recipient
            shares_guild = any(g.bot_member and user.id in g.members for g in self.guilds.values())
            if not user.dms_open or user.bot or not shares_guild:
                raise HttpError(403, 50007, 'Cannot send messages to this user')
        else:
            self._require(channel, 'send_messages_in_threads' if channel.is_thread else 'send_messages',
                          *(['attach_files'] if req.files else []))
        return self._create(channel, req.body, req.files).payload

    def _channel_msg(self, req: Request) -> Message:
        msg = self.messages.get(req.args['message_id'])
        # Ephemeral messages are not reachable through channel routes, only via the interaction.
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != req.args['channel_id']:
            raise HttpError(404, 10008, 'Unknown Message')
        return msg

    def _history(self, req: Request) -> list:
        q = req.params or {}
        before, after = int(q.get('before') or 2**64), int(q.get('after') or 0)
        found = [m.payload for m in reversed(self.messages_in(req.args['channel_id'])) if after < m.id < before]
        return found[:int(q.get('limit', 50))]

    # ------------------------------------------------------------------------------ threads
    def _create_thread(self, req: Request) -> dict:
        parent = self._channel(req.args['channel_id'])
        if parent.type != 0:
            raise HttpError(400, 50024, 'Cannot execute action on this channel type')
        kind = 11 if 'message_id' in req.args else int(req.json.get('type') or 12)
        self._require(parent, 'create_public_threads' if kind == 11 else 'create_private_threads')
        tid = self.snowflake()
        if 'message_id' in req.args:   # a thread started from a message shares the message's id
            starter = self._channel_msg(req)
            if starter.flags & HAS_THREAD:
                raise HttpError(400, 160004, 'A thread has already been created for this message')
            tid = starter.id
        thread = Channel(tid, kind, req.json['name'], guild=parent.guild, parent_id=parent.id,
                         owner_id=self.me.id, members={self.me.id})
        self.channels[tid] = thread
        parent.guild.channels[tid] = thread
        data = thread.payload() | {'member': {'id': str(tid), 'user_id': str(self.me.id),
                                              'join_timestamp': _iso(), 'flags': 0}}
        if 'message_id' in req.args:
            starter.payload['flags'] |= HAS_THREAD
            starter.payload['thread'] = data
        # Discord also sends THREAD_CREATE, which is what puts the thread into the bot's cache.
        self.bot._connection.parse_thread_create(data | {'newly_created': True})
        return data

    def _thread_member(self, req: Request) -> None:
        thread = self._channel(req.args['channel_id'])
        user = self.me if req.route.endswith('@me') else self._user(req.args['user_id'])
        if not thread.is_thread:
            raise HttpError(400, 50024, 'Cannot execute action on this channel type')
        if req.method == 'DELETE':
            thread.members.discard(user.id)
            return None
        if user.id not in thread.guild.members or not self.permissions(user, self.channels[thread.parent_id]).view_channel:
            raise HttpError(403, 50001, 'Missing Access')
        thread.members.add(user.id)
        return None

    # ------------------------------------------------------------------------------ commands
    def _sync(self, req: Request) -> list:
        # Command limits are checked offline by bot/validate.py; here we only keep ids stable.
        if req.args['application_id'] != self.app_id:
            raise HttpError(403, 50001, 'Missing Access')
        gid = req.args.get('guild_id')
        old = {c['name']: c['id'] for c in self.commands.get(gid, [])}
        self.commands[gid] = [
            {**c, 'id': old.get(c['name']) or str(self.snowflake()), 'application_id': str(self.app_id),
             'version': str(self.snowflake()), **({'guild_id': str(gid)} if gid else {})}
            for c in req.json]
        return self.commands[gid]

    # ------------------------------------------------------------------------------ interactions
    def _ix(self, req: Request) -> _Interaction:
        ix = self.interactions.get(req.args['webhook_token'])
        if ix is None or (not req.route.endswith('callback') and req.args['webhook_id'] != self.app_id):
            raise HttpError(404, 10062 if req.route.endswith('callback') else 10015, 'Unknown interaction/webhook')
        age = self.clock - ix.born
        if req.route.endswith('callback') and age > CALLBACK_WINDOW:
            raise HttpError(404, 10062, 'Unknown interaction')
        if age > TOKEN_LIFETIME:
            raise HttpError(401, 50027, 'Invalid Webhook Token')
        return ix

    def _callback(self, req: Request) -> dict:
        ix, kind = self._ix(req), req.json['type']
        data = req.json.get('data') or {}
        if ix.response is not None:
            raise HttpError(400, 40060, 'Interaction has already been acknowledged.')
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[ix.type]
        if kind not in allowed or (kind in (6, 7) and ix.message_id is None):
            raise HttpError(400, 50035, f'Interaction response type {kind} is not valid here')
        msg = None
        if kind == 4:
            msg = self._create(ix.channel, data, req.files, ix=ix)
        elif kind == 5:
            msg = self._create(ix.channel, {'flags': (data.get('flags') or 0) & EPHEMERAL}, [], ix=ix, loading=True)
            ix.loading = True
        elif kind in (6, 7):
            msg = self.messages[ix.message_id]
            if kind == 7:
                self._edit(msg, req)
        elif kind == 8:
            if len(data.get('choices', [])) > 25:
                raise HttpError(400, 50035, 'choices: Must be 25 or fewer in length.')
            ix.choices = data.get('choices', [])
        elif kind == 9:
            ix.modal = data
        ix.response = kind
        ix.original = msg.id if msg else None
        info = {'id': str(ix.id), 'type': ix.type}
        if msg is not None and kind != 6:
            info |= {'response_message_id': str(msg.id), 'response_message_loading': kind == 5,
                     'response_message_ephemeral': msg.ephemeral}
            return {'interaction': info, 'resource': {'type': kind, 'message': msg.payload}}
        return {'interaction': info}

    def _followup(self, req: Request) -> dict:
        ix = self._ix(req)
        if ix.response is None:
            raise HttpError(404, 10015, 'Unknown Webhook (interaction not acknowledged yet)')
        if ix.loading:   # the first followup after a defer fills the "thinking" message, ephemeral or not
            ix.loading = False
            return self._edit(self.messages[ix.original], req)
        channel = self._channel((req.params or {}).get('thread_id') or ix.channel.id)
        if not self.bot_present(channel) and channel.guild is not None:
            # A user-installed app in a server that did not add it: 5 follow-ups an interaction.
            ix.followups += 1
            if ix.followups > MAX_USER_APP_FOLLOWUPS:
                raise HttpError(400, 40094, 'This interaction has hit the maximum number of '
                                'follow up messages')
        return self._create(channel, req.body, req.files, ix=ix).payload

    def _hook_msg(self, req: Request) -> Message:
        ix = self._ix(req)
        mid = ix.original if 'message_id' not in req.args else req.args['message_id']
        msg = self.messages.get(mid) if mid else None
        if msg is None or msg.deleted or (mid != ix.original and msg.token != ix.token):
            raise HttpError(404, 10008, 'Unknown Message')
        if req.method == 'PATCH' and mid == ix.original:
            ix.loading = False
        return msg

    # ------------------------------------------------------------------------------ payload builders
    def _base_payload(self, kind: int, data: dict, user: User, channel: Channel,
                      owners: Optional[dict] = None) -> dict:
        """``owners``: a component's click carries the owners of the interaction that made its
        message (anyone who sees a button may press it, whatever they installed)."""
        iid = self.snowflake()
        token = f'fake-interaction-token-{iid}'
        present = self.bot_present(channel)
        app_perms = self.permissions(self.me, channel) if present else USER_INSTALL_PERMS
        payload = {
            'id': str(iid), 'application_id': str(self.app_id), 'type': kind, 'data': data, 'token': token,
            'version': 1, 'locale': user.locale, 'entitlements': [], 'attachment_size_limit': FILE_LIMIT,
            'channel_id': str(channel.id), 'app_permissions': str(app_perms.value),
            'context': self.context(channel),
            'authorizing_integration_owners': owners or self.integration_owners(user, channel)}
        if channel.guild is None:
            if channel.type == 3 and user not in channel.recipients:
                raise RefusedPayload(f'{user.name} is not in that group DM')
            payload |= {'user': user.payload(), 'channel': channel.payload()}
        else:
            guild = channel.guild
            if user.id not in guild.members:
                raise RefusedPayload(f'{user.name} is not a member of {guild.name}')
            perms = self.permissions(user, channel)
            if not perms.view_channel:
                raise RefusedPayload(f'{user.name} cannot see #{channel.name}')
            payload |= {'guild_id': str(guild.id), 'guild': {'id': str(guild.id), 'locale': 'en-US', 'features': []},
                        'guild_locale': 'en-US',
                        'member': guild.member_payload(user.id) | {'permissions': str(perms.value)},
                        'channel': channel.payload() | {'permissions': str(perms.value)}}
        self.interactions[token] = _Interaction(iid, token, kind, user, channel, born=self.clock,
                                                owners=payload['authorizing_integration_owners'])
        return payload

    def _default_channel(self) -> Channel:
        for ch in self.channels.values():
            if ch.type == 0:
                return ch
        raise RefusedPayload('no text channel exists; pass channel=')

    def _command_spec(self, bot, path: str, user: User, channel: Channel):
        tree = bot._connection._command_tree if isinstance(bot, discord.Client) else bot
        parts = path.split()
        gid = channel.guild.id if channel.guild else None
        cmd = tree.get_command(parts[0], guild=discord.Object(gid)) if gid else None
        scoped = cmd is not None
        cmd = cmd or tree.get_command(parts[0])
        if not isinstance(cmd, (discord.app_commands.Command, discord.app_commands.Group)):
            raise RefusedPayload(f'no slash command /{parts[0]} registered for this channel')
        spec = cmd.to_dict(tree)
        if gid is None and (spec.get('dm_permission') is False or 1 not in (spec.get('contexts') or [1])) \
                and channel.type == 1:
            raise RefusedPayload(f'/{parts[0]} is not available in DMs')
        # Where the app is only through the user's install, Discord offers a command only if it says
        # it works there: installed to users (integration_types 1) and in this context.
        context, owners = self.context(channel), self.integration_owners(user, channel)
        if context != BOT_DM_CONTEXT and context not in (spec.get('contexts') or [GUILD_CONTEXT]):
            raise RefusedPayload(f'/{parts[0]} does not work in context {context} (contexts {spec.get("contexts")})')
        if '0' not in owners and 1 not in (spec.get('integration_types') or [0]):
            raise RefusedPayload(f'/{parts[0]} is not offered to user installs (integration_types '
                                 f'{spec.get("integration_types")})')
        needed, perms = spec.get('default_member_permissions'), self.permissions(user, channel)
        if gid and needed is not None and not perms.administrator and (
                needed == '0' or not discord.Permissions(int(needed)) <= perms):
            raise RefusedPayload(f'/{parts[0]} is hidden from {user.name} (default_member_permissions)')
        ids = {c['name']: c['id'] for c in self.commands.get(gid if scoped else None, [])}
        data = {'id': ids.get(parts[0]) or str(self.snowflake()), 'name': parts[0], 'type': 1}
        if scoped:
            data['guild_id'] = str(gid)
        node, nest = spec, data
        for part in parts[1:]:
            sub = next((o for o in node.get('options', []) if o['name'] == part and o['type'] in (1, 2)), None)
            if sub is None:
                raise RefusedPayload(f'/{path}: no subcommand {part!r}')
            inner = {'name': part, 'type': sub['type'], 'options': []}
            nest['options'] = [inner]
            node, nest = sub, inner
        if any(o['type'] in (1, 2) for o in node.get('options', [])):
            raise RefusedPayload(f'/{path} is a group; name a subcommand')
        return node, data, nest

    def _option(self, spec: dict, value, resolved: dict, channel: Channel, focused=False) -> dict:
        t, name, guild = spec['type'], spec['name'], channel.guild

        def refuse(why):
            raise RefusedPayload(f'option {name!r}: {why} (got {value!r})')

        if focused:   # autocomplete sends whatever has been typed so far
            return {'name': name, 'type': t, 'value': value, 'focused': True}
        if t == 3 and not isinstance(value, str) or t == 5 and not isinstance(value, bool):
            refuse('wrong type')
        if t in (4, 10) and (isinstance(value, bool) or not isinstance(value, int if t == 4 else (int, float))):
            refuse('wrong type')
        if t in (4, 10) and not (spec.get('min_value', -2**53) <= value <= spec.get('max_value', 2**53)):
            refuse(f"outside {spec.get('min_value')}..{spec.get('max_value')}")
        if t == 3 and not (spec.get('min_length', 0) <= len(value) <= spec.get('max_length', 6000)):
            refuse('length out of bounds')
        if spec.get('choices') and value not in [c['value'] for c in spec['choices']]:
            refuse('not one of the choices')
        if t in (3, 4, 5, 10):
            return {'name': name, 'type': t, 'value': value}
        if t in (6, 9) and isinstance(value, User):
            resolved.setdefault('users', {})[str(value.id)] = value.payload()
            if guild is not None and value.id in guild.members:
                member = guild.member_payload(value.id)
                member.pop('user')
                perms = self.permissions(value, channel)
                resolved.setdefault('members', {})[str(value.id)] = member | {'permissions': str(perms.value)}
        elif t in (8, 9) and isinstance(value, Role) and guild is not None and value.id in guild.roles:
            resolved.setdefault('roles', {})[str(value.id)] = value.payload()
        elif t == 7 and isinstance(value, Channel) and value.guild is guild:
            if spec.get('channel_types') and value.type not in spec['channel_types']:
                refuse('channel type not allowed')
            resolved.setdefault('channels', {})[str(value.id)] = value.payload() | {'permissions': '0'}
        else:
            refuse('wrong type (pass a fakediscord User / Role / Channel of this guild)')
        return {'name': name, 'type': t, 'value': str(value.id)}

    def slash(self, bot, path: str, /, *, user: User, channel: Optional[Channel] = None,
              options: Optional[dict] = None, **kwargs) -> dict:
        """An APPLICATION_COMMAND payload for ``/path`` (``"group sub"``) as Discord's client would
        send it; raises RefusedPayload for what the client would never send. Pass options as
        keywords, or via ``options={...}`` when a name clashes with ``user``/``channel``."""
        return self._command_payload(2, bot, path, user, channel, {**(options or {}), **kwargs}, None)

    def autocomplete(self, bot, path: str, /, *, user: User, focused: str, channel: Optional[Channel] = None,
                     options: Optional[dict] = None, **kwargs) -> dict:
        """An APPLICATION_COMMAND_AUTOCOMPLETE payload; ``focused`` names the option being typed."""
        return self._command_payload(4, bot, path, user, channel, {**(options or {}), **kwargs}, focused)

    def _command_payload(self, kind, bot, path, user, channel, given, focused) -> dict:
        channel = channel or self._default_channel()
        node, data, nest = self._command_spec(bot, path, user, channel)
        specs = {o['name']: o for o in node.get('options', [])}
        if unknown := set(given) - set(specs):
            raise RefusedPayload(f'/{path}: unknown option(s) {sorted(unknown)}')
        missing = [n for n, o in specs.items() if o.get('required') and n not in given]
        if missing and kind == 2:
            raise RefusedPayload(f'/{path}: missing required option(s) {missing}')
        if focused is not None and not specs.get(focused, {}).get('autocomplete'):
            raise RefusedPayload(f'/{path}: option {focused!r} has no autocomplete')
        resolved: dict = {}
        nest['options'] = [self._option(specs[n], given[n], resolved, channel, focused == n)
                           for n in specs if n in given]
        if resolved and kind == 2:   # Discord sends no resolved data with autocomplete
            data['resolved'] = resolved
        payload = self._base_payload(kind, data, user, channel)
        self.interactions[payload['token']].name = path
        return payload

    def _component_payload(self, message, custom_id, user, data_extra, check) -> dict:
        msg = self.messages[message.id if isinstance(message, Message) else int(message)]
        if msg.deleted:
            raise RefusedPayload('that message was deleted')
        if msg.audience is not None and msg.audience != user.id:
            raise RefusedPayload(f'{user.name} cannot see that ephemeral message')
        comp = next((c for c in msg.components() if c.get('custom_id') == custom_id), None)
        if comp is None:
            raise RefusedPayload(f'no component {custom_id!r} on that message; it has {msg.custom_ids}')
        if comp.get('disabled'):
            raise RefusedPayload(f'{custom_id!r} is disabled')
        check(comp)
        channel = self.channels[msg.channel_id]
        made_by = self.interactions.get(msg.token) if msg.token else None
        owners = made_by.owners if made_by is not None and not self.bot_present(channel) else None
        payload = self._base_payload(3, {'custom_id': custom_id, 'component_type': comp['type'], **data_extra},
                                     user, channel, owners)
        payload['message'] = json.loads(json.dumps(msg.payload))   # the message as Discord shows it now
        self.interactions[payload['token']].message_id = msg.id
        return payload

    def click(self, message: Union[Message, int], custom_id: Optional[str] = None, *, user: User,
              label: Optional[str] = None) -> dict:
        """A button press on a message the bot sent (find the button by custom_id or by label)."""
        if custom_id is None:
            msg = self.messages[message.id if isinstance(message, Message) else int(message)]
            custom_id = next((c.get('custom_id') for c in msg.components() if c.get('label') == label), None)

        def check(c):
            if c['type'] != 2:
                raise RefusedPayload(f'{custom_id!r} is not a button')
        return self._component_payload(message, custom_id, user, {}, check)

    def select(self, message: Union[Message, int], custom_id: str, values: list, *, user: User) -> dict:
        """A select-menu choice. String selects take option values; user selects take Users."""
        resolved: dict = {}

        def check(c):
            if c['type'] not in (3, 5):
                raise RefusedPayload(f'{custom_id!r} is not a string or user select')
            if not c.get('min_values', 1) <= len(values) <= c.get('max_values', 1):
                raise RefusedPayload(f'{len(values)} values outside min/max_values')
            if c['type'] == 3 and not set(values) <= {o['value'] for o in c.get('options', [])}:
                raise RefusedPayload(f'{values} are not all options of {custom_id!r}')
            if c['type'] == 5:
                resolved['users'] = {str(u.id): u.payload() for u in values}
        msg_values = [str(v.id) if isinstance(v, User) else v for v in values]
        payload = self._component_payload(message, custom_id, user, {'values': msg_values}, check)
        if resolved:
            payload['data']['resolved'] = resolved
        return payload

    def submit_modal(self, opened_by: dict, values: dict, *, user: Optional[User] = None) -> dict:
        """A MODAL_SUBMIT for the modal the bot opened in reply to ``opened_by`` (a payload).
        ``values``: custom_id -> text (text inputs) or list of option values (string selects)."""
        ix = self.interactions[opened_by['token']]
        if ix.modal is None:
            raise RefusedPayload('the bot did not answer that interaction with a modal')
        if unknown := set(values) - set(Message({'components': ix.modal['components']}).custom_ids):
            raise RefusedPayload(f'the modal has no field(s) {sorted(unknown)}')
        comps = []
        for c in Message({'components': ix.modal['components']}).components():
            cid, given = c.get('custom_id'), values.get(c.get('custom_id'))
            if c.get('type') == 4:
                if c.get('required', True) and not given:
                    raise RefusedPayload(f'modal field {cid!r} is required')
                if not c.get('min_length', 0) <= len(given or '') <= c.get('max_length', 4000):
                    raise RefusedPayload(f'modal field {cid!r}: length out of bounds')
                comps.append({'type': 1, 'components': [{'type': 4, 'custom_id': cid, 'value': given or ''}]})
            elif c.get('type') == 3:
                if not set(given or []) <= {o['value'] for o in c.get('options', [])}:
                    raise RefusedPayload(f'modal select {cid!r}: {given} not among its options')
                comps.append({'type': 18, 'component': {'type': 3, 'custom_id': cid, 'values': list(given or [])}})
        payload = self._base_payload(5, {'custom_id': ix.modal['custom_id'], 'components': comps},
                                     user or ix.user, ix.channel)
        self.interactions[payload['token']].message_id = ix.message_id
        if ix.message_id is not None:   # a form opened from a component: Discord sends its message
            payload['message'] = json.loads(json.dumps(self.messages[ix.message_id].payload))
        return payload

    # ------------------------------------------------------------------------------ feeding / settling
    def feed(self, payload: dict) -> None:
        """INTERACTION_CREATE through discord.py's real gateway parser."""
        self.bot._connection.parse_interaction_create(payload)

    async def invoke(self, payload: dict, **settle_kw) -> list[Request]:
        self.feed(payload)
        return await self.settle(**settle_kw)

    def track(self, task_or_coro) -> asyncio.Task:
        """Hook for the bot's own background work: settle() also waits for tracked tasks."""
        task = task_or_coro if isinstance(task_or_coro, asyncio.Task) else asyncio.ensure_future(task_or_coro)
        self._tracked.add(task)
        return task

    def _busy(self) -> list[asyncio.Task]:
        me = asyncio.current_task()
        found = {t for t in asyncio.all_tasks() if t.get_name().startswith(tuple(self.task_prefixes))}
        self._tracked |= found   # keep them to collect their exceptions later
        return [t for t in self._tracked if not t.done() and t is not me]

    async def settle(self, timeout: float = 5.0, *, pending_ok: bool = False, check: bool = True) -> list[Request]:
        """Wait until the work discord.py (and tracked bot code) spawned is done; return new requests.

        ``pending_ok``: tasks parked on something external (``view.wait()``, ``wait_for``) may stay
        pending -- return once nothing progressed for 50 ms. ``check``: raise UnhandledErrors if
        anything was logged at ERROR meanwhile."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for _ in range(5):
                await asyncio.sleep(0)
            busy = self._busy()
            if not busy:
                break
            left = deadline - loop.time()
            if left <= 0:
                if pending_ok:
                    break
                stacks = '\n'.join(f'  {t.get_name()}: {t.get_stack(limit=1)}' for t in busy)
                raise TimeoutError(f'settle(): tasks still running after {timeout}s '
                                   f'(use pending_ok=True if they wait for a click):\n{stacks}')
            before = len(self.requests)
            done, _ = await asyncio.wait(busy, timeout=0.05 if pending_ok else left,
                                         return_when=asyncio.FIRST_COMPLETED)
            if pending_ok and not done and len(self.requests) == before:
                break
        for t in [t for t in self._tracked if t.done()]:
            self._tracked.discard(t)
            if not t.cancelled() and t.exception() is not None:
                self.errors.append(f'task {t.get_name()} raised {t.exception()!r}')
        new, self._settled_at = self.requests[self._settled_at:], len(self.requests)
        if check:
            self.check()
        return new

    # ------------------------------------------------------------------------------ queries
    def mark(self) -> int:
        return len(self.requests)

    def requests_since(self, mark: int = 0, *, method: Optional[str] = None, route: Optional[str] = None) -> list[Request]:
        return [r for r in self.requests[mark:]
                if (method is None or r.method == method) and (route is None or r.route == route)]

    def interaction_responses(self, interaction: Optional[dict] = None) -> list[Request]:
        """Every reply made through the interaction webhook (callbacks, followups, @original edits),
        optionally only those for one interaction payload."""
        return [r for r in self.requests if r.seam == 'webhook'
                and (interaction is None or r.args.get('webhook_token') == interaction['token'])]

    def messages_in(self, channel: Union[Channel, int], *, include_ephemeral: bool = False) -> list[Message]:
        """What the channel shows now (edits applied, deletions gone), oldest first."""
        cid = channel.id if isinstance(channel, Channel) else int(channel)
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted
                and (include_ephemeral or m.audience is None)]

    def dms_to(self, user: User) -> list[Message]:
        """Messages actually delivered to the user's DMs (a 403 delivers nothing)."""
        return self.messages_in(self.dm_channel(user))

    def last_message(self, channel: Union[Channel, int, None] = None) -> Message:
        live = [m for m in self.messages.values() if not m.deleted
                and (channel is None or m.channel_id == (channel.id if isinstance(channel, Channel) else channel))]
        return live[-1]

    def autocomplete_choices(self, interaction: dict) -> Optional[list]:
        return self.interactions[interaction['token']].choices


# ------------------------------------------------------------------------------ starting a bot

async def start_bot(bot: discord.Client, fake: Optional[FakeDiscord] = None, *, ready: bool = True) -> FakeDiscord:
    """Install the fake and log the bot in for real: ``bot.login`` fetches /users/@me and the
    application (so ``bot.user`` and ``application_id`` are set and the tree works) and runs
    ``setup_hook``. ``ready`` marks the client ready and dispatches ``on_ready`` like READY would.
    Pair with ``await fake.stop()``."""
    fake = fake or FakeDiscord()
    if bot.application_id is not None:   # the bot hard-codes its id: be that application
        fake.app_id = bot.application_id
    fake.bot = bot
    fake.install()
    try:
        await bot.login('fake-token')
        for guild in fake.guilds.values():
            if not guild.published and guild.bot_member:
                fake._publish(guild)
        if ready:
            bot._ready.set()
            bot.dispatch('ready')
        await fake.settle()
    except BaseException:
        try:
            await bot.close()
        finally:
            fake.uninstall()
        raise
    return fake


def fake_discord_fixture(make_bot: Callable, *, name: str = 'fake', **start_kw):
    """A pytest fixture for a conftest: ``fake = fake_discord_fixture(create_bot)``. ``make_bot``
    may be sync or async; the fixture yields the started FakeDiscord (``fake.bot`` is the bot) and
    on teardown closes the bot, uninstalls, and fails if anything unhandled was logged."""
    import pytest_asyncio

    @pytest_asyncio.fixture(name=name)
    async def _fixture():
        bot = make_bot()
        if inspect.isawaitable(bot):
            bot = await bot
        fake = await start_bot(bot, **start_kw)
        try:
            yield fake
        finally:
            await fake.stop()
    return _fixture
