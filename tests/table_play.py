"""One whole game of each kind through the offline harness, counted as a player would feel it:
thread messages and pings per turn, DM sends and edits, pictures, and any seat code ("@1",
"Player 1", "P1") in what a person reads. Used by tests/test_table_feel.py and `make bench`.

Moves go through the table (`tables.play`, the path every button and command takes) and each
one's publishing runs for real, so what is counted is what Discord would receive.
"""
from __future__ import annotations

import random
import re
from dataclasses import asdict, dataclass
from typing import Any

from bot.engine.core import CHANCE

# Seat codes a person should never read: notation inside `backticks` is allowed.
SEAT_CODE = re.compile(r"(?<![\w<`])@[1-9]\b|\b[Pp]layer [1-9]\b|\bP[1-9]\b")
INLINE_CODE = re.compile(r"`[^`\n]*`")
MENTION = re.compile(r"<@!?(\d+)>")

CHALLENGE_OPTIONS: dict[str, dict[str, Any]] = {
    "deathbydice": {"character": "Lucky Lou", "opponent_character": "Madame Vex"},
    "diemen": {"mode": "simulated"},
}


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

    def per_turn(self) -> dict[str, Any]:
        t = max(self.turns, 1)
        return {"turns": self.turns, "moves": self.moves,
                "thread_messages_per_turn": round(self.thread_messages / t, 2),
                "pings_per_turn": round(self.pings / t, 2),
                "dm_messages_per_turn": round(self.dm_messages / t, 2),
                "pngs_per_turn": round(self.pngs / t, 2),
                "http_requests_per_move": round(self.http_requests / max(self.moves, 1), 2),
                "seat_codes_shown": self.seat_codes_shown}


def _pinged(body: dict) -> set[int]:
    """Who a message would notify: mentioned in its content and allowed to be pinged."""
    mentioned = {int(u) for u in MENTION.findall(body.get("content") or "")}
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users") or []}


def _readable(body: dict, files: list) -> list[str]:
    """Every text of a message body a person reads (content, labels, alt texts, embeds)."""
    out = [body.get("content") or ""]
    todo = list(body.get("components") or [])
    while todo:
        c = todo.pop()
        todo.extend(c.get("components") or [])
        for k in ("label", "placeholder", "content"):
            if c.get(k):
                out.append(str(c[k]))
        for o in c.get("options") or []:
            out += [o.get("label") or "", o.get("description") or ""]
    for e in body.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or ""]
        out += [f"{f.get('name')} {f.get('value')}" for f in e.get("fields") or []]
    out += [a.get("description") or "" for a in body.get("attachments") or []]
    out += [getattr(f, "description", None) or "" for f in files]
    return out


async def play_table(fake, world, kind: str, seed: int = 7, max_moves: int = 2000
                     ) -> TableCount:
    bot = fake.bot
    await fake.invoke(fake.slash(bot, f"{kind} challenge", user=world.alice, channel=world.games,
                                 opponent=world.bob, **CHALLENGE_OPTIONS.get(kind, {})))
    challenge = fake.messages_in(world.games)[-1]
    accept = next(c for c in challenge.custom_ids if c.endswith(":accept"))
    mark = len(fake.requests)
    await fake.invoke(fake.click(challenge, accept, user=world.bob))
    row = (await bot.store.active_games())[-1]
    rng = random.Random(seed)
    turns, moves, last_turn = 0, 0, None
    now = bot.tables.clock()
    bot.tables.clock = lambda: now
    cog = bot.game_cogs[kind]
    dm_seat = {fake.dm_channel(u).id: s for s, u in enumerate((world.alice, world.bob))}
    stray: list[str] = []
    stray_pings = stray_dms = 0

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
        before, step = private(game), len(fake.requests)
        notes: set[int] = set()
        if not actors:  # a crowd vote (or a window only the clock closes)
            now = max(now, (row.deadline or now)) + 1
            await bot.tables.tick(row.id)
            await fake.settle()
        else:
            seat = rng.choice(actors)
            move = rng.choice(game.legal(seat))
            played = await bot.tables.play(row.id, row.players[seat], move,
                                           by=row.players[seat])
            notes = {s for e in played.events for s in (e.to or ())}
            await fake.settle()
            moves += 1
        row, game = await bot.tables.load(row.id)
        after = private(game)
        acting = {row.players[a] for a in game.actors() if a != CHANCE}
        for req in fake.requests[step:]:
            channel = req.args.get("channel_id")
            if (req.method == "POST" and channel == row.thread_id
                    and req.route.endswith("/messages")):
                for user in _pinged(req.body) - acting:
                    stray_pings += 1
                    stray.append(f"ping to {user} who need not act: "
                                 f"{(req.body.get('content') or '')[:80]!r}")
            s = dm_seat.get(channel)
            if (s is not None and req.method in ("POST", "PATCH") and row.status == "active"
                    and before[s] == after[s] and s not in notes):
                stray_dms += 1
                stray.append(f"DM {req.method} to seat {s + 1} with nothing new: "
                             f"{(req.body.get('content') or '')[:80]!r}")
    threads = {row.thread_id}
    dms = set(dm_seat)
    thread_messages = pings = dm_messages = pngs = 0
    shown: list[str] = []
    new = fake.requests[mark:]
    for req in new:
        channel = req.args.get("channel_id")
        body = req.body
        pngs += sum(1 for f in req.files or [] if str(getattr(f, "filename", "")).endswith(".png"))
        if req.method == "POST" and channel in threads and req.route.endswith("/messages"):
            thread_messages += 1
            pings += len(_pinged(body))
        if req.method in ("POST", "PATCH") and channel in dms:
            dm_messages += 1
        for text in _readable(body, req.files or []):
            for hit in SEAT_CODE.findall(INLINE_CODE.sub("", text)):
                shown.append(f"{hit!r} in {text[:80]!r}")
    return TableCount(kind, turns, moves, thread_messages, pings, dm_messages, pngs, len(new),
                      len(shown), shown[:5], stray_pings, stray_dms, stray[:5])


def as_json(count: TableCount) -> dict[str, Any]:
    return count.per_turn()


__all__ = ["TableCount", "play_table", "as_json", "asdict"]
