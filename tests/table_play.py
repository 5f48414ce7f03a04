"""One whole game through the offline Discord, played as people play it and counted as they
feel it (issues #12, #22, #23). Used by tests/test_table_feel.py and `make bench`.

The game starts as people start it: `/<game> challenge` + Accept for a duel; `/<game> open`
(KAPLOOM!: `/kaploom team`) + Join by each player + Start for a bigger table. Then every move is
made by a person (tests/clicker.py) on what the bot offers the seat that must act — the turn
message in the thread, the seat's DM panel, a 🔒 ephemeral panel — step by step (slide then
slam, pick then dice, lock-in); `/<game> move` only when nothing offered reaches the move. The
clock is moved on only when nobody but the clock can act (a crowd vote, a window).

Counted per turn (a change of who must act or of the phase: today's keys) and per **seat turn**
(a seat's turn starts when it must act and did not the step before: a slide and its slam are one
seat turn, a 4-player secret phase is 4): thread posts, pings (and
pings to the one who just moved), DM sends + edits, PNG uploads, seat codes shown; and per move
(a seat's move: a form's submit makes several) the requests bound to Discord's global rate limit (the bot's own REST, seam "rest") and the
interaction requests (callbacks, follow-ups, @original edits: seam "webhook").
"""
from __future__ import annotations

import random
import re
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

import bot.tables as tables_module
from bot.engine import load
from bot.engine.core import CHANCE
from bot.policies import playable
from clicker import Clicker

# Seat codes a person should never read: notation inside `backticks` is allowed.
SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")
INLINE_CODE = re.compile(r"`[^`\n]*`")
MENTION = re.compile(r"<@!?(\d+)>")
EPHEMERAL = 64
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")

# What the starting command needs (Death by Dice: a character; Die-Men: dice the bot rolls).
START_OPTIONS: dict[str, dict[str, Any]] = {
    "deathbydice": {"character": "Lucky Lou"},
    "diemen": {"mode": "simulated"},
}
DUEL_OPTIONS: dict[str, dict[str, Any]] = {
    "deathbydice": {"opponent_character": "Madame Vex"},
}
# `/<game> challenge` options of a duel (other tests start their games with these too).
CHALLENGE_OPTIONS: dict[str, dict[str, Any]] = {
    kind: {**START_OPTIONS.get(kind, {}), **DUEL_OPTIONS.get(kind, {})}
    for kind in {*START_OPTIONS, *DUEL_OPTIONS}}
# Shorter games where the game has options for it (the tests' default; the bench plays the
# games at their full length).
SHORT: dict[str, dict[str, Any]] = {
    "deathbydice": {"best_of": 1},
    "tradeshowdown": {"fair_length": 6, "round_limit": 4},
    "slideslam": {"rows": 6, "columns": 5, "stalemate_turns": 10},
}
# Bigger tables: the command that opens them (KAPLOOM!'s 2 vs 2 is `/kaploom team`).
TABLE_COMMAND = {"kaploom": "team"}


@dataclass
class TableCount:
    game: str
    turns: int
    moves: int
    thread_messages: int
    pings: int
    dm_messages: int
    pngs: int
    http_requests: int
    seat_codes_shown: int
    seat_code_examples: list[str]
    # pings to someone who need not act now; DMs to a seat whose options and private facts
    # did not change (and who got no note): both should be 0
    stray_pings: int = 0
    stray_dms: int = 0
    stray_examples: list[str] | None = None
    players: int = 2
    closed_dms: int = 0
    seat_turns: int = 0
    pings_to_mover: int = 0
    mover_ping_examples: list[str] = field(default_factory=list)
    global_requests: int = 0
    interaction_requests: int = 0
    paths: dict[str, Any] = field(default_factory=dict)
    refusals: list[str] = field(default_factory=list)
    unreached: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    # moves the seats made (the table's record): `moves` but for a form's submit, which makes
    # several in one commit (KAPLOOM!'s placement); the requests per move are counted per these
    seat_moves: int = 0
    # DM sends+edits that answer the click just made in that DM (its panel changed under the
    # finger, UPDATE_MESSAGE); the rest reached the seat unasked: a new panel for a new step,
    # a panel another seat's move changed, a note
    dm_click_answers: int = 0

    def per_turn(self) -> dict[str, Any]:
        t, st = max(self.turns, 1), max(self.seat_turns, 1)
        m = max(self.seat_moves or self.moves, 1)
        return {"turns": self.turns, "moves": self.moves,
                "thread_messages_per_turn": round(self.thread_messages / t, 2),
                "pings_per_turn": round(self.pings / t, 2),
                "dm_messages_per_turn": round(self.dm_messages / t, 2),
                "pngs_per_turn": round(self.pngs / t, 2),
                "http_requests_per_move": round(self.http_requests / m, 2),
                "seat_codes_shown": self.seat_codes_shown,
                "played_by_clicks": True,
                "players": self.players,
                "seat_turns": self.seat_turns,
                "thread_posts_per_seat_turn": round(self.thread_messages / st, 2),
                "pings_per_seat_turn": round(self.pings / st, 2),
                "pings_to_mover": self.pings_to_mover,
                "dm_sends_edits_per_seat_turn": round(self.dm_messages / st, 2),
                "dm_answers_to_own_clicks_per_seat_turn": round(self.dm_click_answers / st, 2),
                "dm_unasked_per_seat_turn": round(
                    (self.dm_messages - self.dm_click_answers) / st, 2),
                "pngs_per_seat_turn": round(self.pngs / st, 2),
                "global_requests_per_move": round(self.global_requests / m, 2),
                "interaction_requests_per_move": round(self.interaction_requests / m, 2),
                **self.paths}


def _pinged(body: dict) -> set[int]:
    """Who a message would notify: mentioned in its content and allowed to be pinged."""
    mentioned = {int(u) for u in MENTION.findall(body.get("content") or "")}
    for c in _all_components(body):   # Components V2 text displays notify too
        if c.get("type") == 10:
            mentioned |= {int(u) for u in MENTION.findall(c.get("content") or "")}
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users") or []}


def _all_components(body: dict) -> list[dict]:
    out, todo = [], list(body.get("components") or [])
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(c.get("components") or [])
        todo.extend(c[k] for k in ("accessory", "component") if isinstance(c.get(k), dict))
        todo.extend(i for i in c.get("items") or [] if isinstance(i, dict))
    return out


def _readable(body: dict, files: list) -> list[str]:
    """Every text of a message body a person reads (content, labels, alt texts, embeds)."""
    out = [body.get("content") or ""]
    for c in _all_components(body):
        for k in ("label", "placeholder", "content", "description"):
            if c.get(k) and isinstance(c[k], str):
                out.append(str(c[k]))
        for o in c.get("options") or []:
            out += [o.get("label") or "", o.get("description") or ""]
    for e in body.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or ""]
        out += [f"{f.get('name')} {f.get('value')}" for f in e.get("fields") or []]
    out += [a.get("description") or "" for a in body.get("attachments") or []]
    out += [getattr(f, "description", None) or "" for f in files]
    return out


def _message(req) -> dict | None:
    """The message a request created or edited, as the fake answered."""
    r = req.response
    if not isinstance(r, dict):
        return None
    if "resource" in r:
        return (r.get("resource") or {}).get("message")
    return r if "channel_id" in r and "id" in r else None


def _creates(req) -> bool:
    """Does the request send a new message (which may ping), rather than edit one?"""
    if req.seam == "rest":
        return req.method == "POST" and req.route.endswith("/messages")
    if req.route.endswith("/callback"):
        return req.callback_type == 4
    return req.method == "POST" and req.route.startswith("/webhooks/")


def _shows(req) -> bool:
    """Does the request put text in front of someone (send or edit), rather than only
    acknowledge (defer) or open a form?"""
    if req.route.endswith("/callback"):
        return req.callback_type in (4, 7)
    return req.method in ("POST", "PATCH") and _message(req) is not None


def _notes(game, entries) -> set[int]:
    """Seats told something of their own (a private event) by these record entries: news
    for that seat's panel."""
    seats: set[int] = set()
    for actor, move in entries:
        events = (game.apply(CHANCE, move) if actor == "chance"
                  else game.table_move(int(actor) - 1, move))
        seats |= {s for e in events or () for s in (e.to or ())}
    return seats


def people(fake, world, n: int) -> list:
    """The first `n` players: the world's alice, bob, carol, then dave, erin, frank."""
    users = [world.alice, world.bob, world.carol]
    extra = getattr(world, "_more_people", None)
    if extra is None:
        extra = world._more_people = []
    while len(users) + len(extra) < n:
        name = NAMES[len(users) + len(extra)]
        extra.append(world.guild.add_member(fake.add_user(name)))
    return (users + extra)[:n]


async def start_table(fake, world, kind: str, players: int = 2,
                      options: dict[str, Any] | None = None, channel=None):
    """Start a game as people do (in `channel`, by default the server's games channel);
    returns (row, users in seat order)."""
    bot, users = fake.bot, people(fake, world, players)
    channel = channel or world.games
    given = {**START_OPTIONS.get(kind, {}), **(options or {})}
    if players == 2:
        await fake.invoke(fake.slash(bot, f"{kind} challenge", user=users[0],
                                     channel=channel, opponent=users[1],
                                     **DUEL_OPTIONS.get(kind, {}), **given))
        table = fake.messages_in(channel)[-1]
        accept = next(c for c in table.custom_ids if c.endswith(":accept"))
        await fake.invoke(fake.click(table, accept, user=users[1]))
    else:
        command = TABLE_COMMAND.get(kind, "open")
        await fake.invoke(fake.slash(bot, f"{kind} {command}", user=users[0],
                                     channel=channel, **given))
        table = next(m for m in reversed(fake.messages_in(channel))
                     if any(c.endswith(":join") for c in m.custom_ids))
        join = next(c for c in table.custom_ids if c.endswith(":join"))
        for user in users[1:]:
            await fake.invoke(fake.click(table, join, user=user))
        row = (await bot.store.active_games())
        if not row or row[-1].players != [u.id for u in users]:
            start = next(c for c in table.custom_ids if c.endswith(":start"))
            await fake.invoke(fake.click(table, start, user=users[0]))
    row = (await bot.store.active_games())[-1]
    assert row.kind == kind and len(row.players) == players, (row.kind, row.players)
    by_id = {u.id: u for u in users}
    return row, [by_id[p] for p in row.players]


class _Seeded:
    """`secrets` for bot/tables.py while a game is created: a seed fixed by the bench's."""

    def __init__(self, seed: int):
        self._rng = random.Random(f"table:{seed}")

    def token_hex(self, nbytes: int = 16) -> str:
        return f"{self._rng.getrandbits(8 * nbytes):0{2 * nbytes}x}"

    def __getattr__(self, name: str):
        return getattr(secrets, name)


def choose(rng: random.Random, game, seat: int) -> str:
    """What a casual person picks: any move but giving up or taking a step back."""
    moves = [m for m in playable(game.legal(seat)) if not m.startswith("resign")]
    return rng.choice(moves or game.legal(seat))


async def play_table(fake, world, kind: str, seed: int = 7, max_moves: int = 3000, *,
                     players: int = 2, options: dict[str, Any] | None = None,
                     closed: tuple[int, ...] = (), channel=None) -> TableCount:
    """One whole game of `kind` for `players` people (`closed`: seats whose DMs are closed),
    played by clicks, started in `channel` (the server's games channel unless given); the
    counts of what they received."""
    bot = fake.bot
    for s in closed:
        fake.close_dms(people(fake, world, players)[s])
    mark = len(fake.requests)
    # The game's secret seed (its dice) from `seed` too, so a game is the same game each run.
    saved, tables_module.secrets = tables_module.secrets, _Seeded(seed)
    try:
        row, users = await start_table(fake, world, kind, players, options, channel)
    finally:
        tables_module.secrets = saved
    rng = random.Random(seed)
    turns = seat_turns = moves = 0
    last_turn = None
    last_actors: set[int] = set()
    now = bot.tables.clock()
    bot.tables.clock = lambda: now
    cog = bot.game_cogs[kind]
    clicker = Clicker(fake, kind, users, row.where, row.id)
    dm_seat = {fake.dm_channel(u).id: s for s, u in enumerate(users)}
    engine = load(kind)
    replay = engine.new(len(row.players), row.options, engine.from_json(row.state).names)
    first = await bot.store.entries(row.id)
    _notes(replay, first)  # the game as it stands now
    stray: list[str] = []
    mover_pings: list[str] = []
    stray_pings = stray_dms = pings_to_mover = 0

    def private(game) -> dict[int, Any]:
        """Per seat: what its panel may show and offer (the cog's own signature of that seat's
        view, its legal moves while it must act)."""
        acting = set(game.actors())
        return {s: (cog.view_signature(game, s), tuple(game.legal(s)) if s in acting else None)
                for s in range(game.players)}

    for _ in range(max_moves):
        row, game = await bot.tables.load(row.id)
        if row.status != "active":
            break
        actors = [a for a in game.actors() if a != CHANCE]
        turn = (tuple(actors), getattr(game, "current_phase", lambda: "")())
        if turn != last_turn:
            turns, last_turn = turns + 1, turn
        # A seat's turn starts when it must act and did not a step ago (a slide then its slam
        # is one turn; seats that lock in one by one end their turns, none starts).
        seat_turns += len(set(actors) - last_actors)
        last_actors = set(actors)
        before, step = private(game), len(fake.requests)
        done = len(await bot.store.entries(row.id))
        mover = None
        if not actors:  # a crowd vote (or a window only the clock closes)
            now = max(now, (row.deadline or now)) + 1
            await bot.tables.tick(row.id)
            await fake.settle()
        else:
            seat = rng.choice(actors)
            mover = row.players[seat]
            move = choose(rng, game, seat)
            others = [m for m in playable(game.legal(seat)) if not m.startswith("resign")]
            rng.shuffle(others)
            await clicker.play(row, game, seat, move, others)
            moves += 1
        await fake.settle()
        row, game = await bot.tables.load(row.id)
        after = private(game)
        acting = {row.players[a] for a in game.actors() if a != CHANCE}
        entries = await bot.store.entries(row.id)
        notes = _notes(replay, entries[done:])
        for req in fake.requests[step:]:
            msg = _message(req)
            channel = int(msg["channel_id"]) if msg else req.args.get("channel_id")
            eph = bool(msg and int(msg.get("flags") or 0) & EPHEMERAL)
            if channel == row.where and _creates(req) and not eph:
                pinged = _pinged(req.body)
                for user in pinged - acting:
                    stray_pings += 1
                    stray.append(f"ping to {user} who need not act: "
                                 f"{(req.body.get('content') or '')[:80]!r}")
                if mover is not None and mover in pinged:
                    pings_to_mover += 1
                    mover_pings.append((req.body.get("content") or "")[:100])
            s = dm_seat.get(channel)
            if (s is not None and req.seam == "rest" and req.method in ("POST", "PATCH")
                    and row.status == "active" and before[s] == after[s]
                    and s not in notes):
                stray_dms += 1
                stray.append(f"DM {req.method} to seat {s + 1} with nothing new: "
                             f"{(req.body.get('content') or '')[:80]!r}")
    thread_messages = pings = dm_messages = pngs = global_requests = interaction_requests = 0
    dm_click_answers = 0
    shown: list[str] = []
    new = fake.requests[mark:]
    seen_ids: set[str] = set()
    for req in new:
        msg = _message(req)
        channel = int(msg["channel_id"]) if msg else req.args.get("channel_id")
        eph = bool(msg and int(msg.get("flags") or 0) & EPHEMERAL)
        pngs += sum(1 for f in req.files or [] if str(getattr(f, "filename", "")).endswith(".png"))
        if req.seam == "rest":
            global_requests += 1
        else:
            interaction_requests += 1
        if msg is not None and channel == row.where and not eph:
            if msg["id"] not in seen_ids:
                thread_messages += 1
            if _creates(req):
                pings += len(_pinged(req.body))
        if msg is not None:
            seen_ids.add(msg["id"])
        if channel in dm_seat and _shows(req):
            dm_messages += 1
            dm_click_answers += req.route.endswith("/callback")
        if req.callback_type == 9:   # the "Type a move" form may hold notation
            continue
        for text in _readable(req.body, req.files or []):
            for hit in SEAT_CODE.findall(INLINE_CODE.sub("", text)):
                shown.append(f"{hit!r} in {text[:80]!r}")
    return TableCount(kind, turns, moves, thread_messages, pings, dm_messages, pngs, len(new),
                      len(shown), shown[:5], stray_pings, stray_dms, stray[:5],
                      players=players, closed_dms=len(closed), seat_turns=seat_turns,
                      pings_to_mover=pings_to_mover, mover_ping_examples=mover_pings[:5],
                      global_requests=global_requests,
                      interaction_requests=interaction_requests,
                      paths=clicker.paths.as_dict(), refusals=clicker.paths.refusals,
                      unreached=dict(clicker.paths.unreached),
                      finished=row.status == "finished", dm_click_answers=dm_click_answers,
                      seat_moves=sum(1 for actor, _ in (await bot.store.entries(row.id))[
                          len(first):] if actor != "chance"))


def as_json(count: TableCount) -> dict[str, Any]:
    return count.per_turn()


__all__ = ["TableCount", "play_table", "start_table", "people", "as_json", "asdict",
           "CHALLENGE_OPTIONS", "SEAT_CODE", "INLINE_CODE"]
