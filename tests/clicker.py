"""A person at the table, for any game: looks at what is offered to the seat that must act and
clicks it, as people do — no knowledge of one game's layout.

Where a person looks, newest first: the ephemeral panel they opened (🔒 *Open my secret panel*),
their newest DM panel, the newest messages with controls in the game thread. On those it finds
the move it chose from `game.legal(seat)`:

- a button `g:<id>:<ver>:mv:<move>`;
- a select whose option value is the move (`ms`, or any other select listing it); when the pick
  only previews (Death by Dice's set-up, Die-Men's aim), the Confirm / Flick! that comes back;
- a narrowing select `...:nw:<key>`: it picks the step the move sits under (read from the
  seat's own menu, as a person reads the entry's words), then the move in the ephemeral select
  the bot answers with;
- a multi-select `...:mx:<key>`: it ticks the entries whose composition is the move; a game's
  own multi-select: the entries whose first word names each word of the move (`d4 (1st of 2)`);
- a game's own list (another tag) whose entry names a word of the move or its step: it picks
  that entry and looks again at what comes back (the edited message, or an ephemeral answer),
  up to 3 deep (KAPLOOM!'s action then dice, Slide and Slam's placement die then square).

A form (a button tagged `fm`, bot/forms.py: a Discord modal of lists, KAPLOOM!'s placement):
when no control reaches the move by itself, it opens the form and fills it as a person who
plans the whole step at once: the move (each list whose question names a word of the move —
`d4 green (Agility)` for the `d4` of `assign BODY SLAM d4 d5` — set to the entry the move
names), then the other moves it would make (`alternatives`, in order) that fit the lists left
blank and that the rules still allow after those (tried on a copy of the game, as a person who
knows the rules plans); it submits, and when that is refused, submits the move alone. A form that cannot say
the move is closed unsent (a person cancels it).

Nothing offered reaches it: the 🔒 panel button when the thread offers one (a player with closed
DMs has no other panel); then another legal move that a click does reach (a person picks what is
offered; counted as `rechosen`); only when none is, the game's slash command `/<game> move`
(Die-Men: `/diemen play`) in the thread. Every path taken is counted, and a click the bot
refused (a stale panel) is counted and followed by the next path, as a person would try again.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from bot.engine.menu import Pick

# The command that takes any move in notation (Die-Men's `move` moves the Stand).
NOTATION = {"diemen": "play"}
WORD = re.compile(r"[^\s,;:=@+>()\[\]]+")
EXPLORE_DEPTH = 3
ALTERNATIVES = 40


@dataclass
class Paths:
    """How the moves were made."""

    component: int = 0          # a click or a pick that made the move
    form: int = 0               # of those: a form's submit (several moves at once, maybe)
    narrowed: int = 0           # of those: after a narrowing pick (`nw`)
    several: int = 0            # of those: a multi-select (`mx`)
    explored: int = 0           # of those: after picks in a game's own lists
    from_panel_button: int = 0  # of those: in a panel opened with 🔒 on the thread
    from_dm: int = 0            # of those: on a DM panel
    from_ephemeral: int = 0     # of those: on an ephemeral panel
    from_thread: int = 0        # of those: on a thread message
    command: int = 0            # `/<game> move` typed
    rechosen: int = 0           # moves a click could not reach, another offered one made
    refused: int = 0            # clicks the bot refused (then the next path)
    panel_opens: int = 0        # 🔒 clicks
    unreached: Counter = field(default_factory=Counter)   # first word of moves typed
    refusals: list = field(default_factory=list)
    tags_seen: Counter = field(default_factory=Counter)   # component tags a person saw

    def as_dict(self) -> dict[str, Any]:
        return {"moves_by_component": self.component, "moves_by_command": self.command,
                "moves_rechosen": self.rechosen,
                "moves_after_narrowing": self.narrowed, "moves_by_multiselect": self.several,
                "moves_after_game_lists": self.explored, "moves_by_form": self.form,
                "moves_on_thread": self.from_thread, "moves_on_dm_panel": self.from_dm,
                "moves_on_ephemeral_panel": self.from_ephemeral,
                "panel_button_clicks": self.panel_opens, "refused_clicks": self.refused}


def _parts(cid: str) -> list[str]:
    """`g:<id>:<ver>:<tag>[:<arg>]` -> [g, id, ver, tag, arg?]."""
    return cid.split(":", 4)


def _ticks(comp: dict, move: str) -> list[str] | None:
    """A game's own multi-select whose entries name the move's words (`d4 (1st of 2)` for the
    `d4` of `dice d4 d6`): one entry per word after the verb, each entry once."""
    words = move.split()[1:]
    free = [(str(o.get("label") or "").split(" ", 1)[0].lower(), str(o["value"]))
            for o in comp.get("options", [])]
    picked = []
    for w in words:
        hit = next((i for i, (label, _) in enumerate(free) if label == w.lower()), None)
        if hit is None:
            return None
        picked.append(free.pop(hit)[1])
    if not picked or not comp.get("min_values", 1) <= len(picked) <= comp.get("max_values", 1):
        return None
    return picked


def _form_lists(modal: dict) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """A form's lists as a person reads them: (custom_id, question, [(value, label)])."""
    out = []
    for top in modal.get("components", []):
        inner = top.get("component") if top.get("type") == 18 else None
        if inner and inner.get("type") == 3:
            out.append((inner["custom_id"], str(top.get("label") or ""),
                        [(str(o["value"]), str(o.get("label") or "")) for o in
                         inner.get("options", [])]))
    return out


def _fill(lists, move: str, blank: set[str], taken: set[str]) -> dict[str, str] | None:
    """The picks that say `move` on the lists still `blank` (an entry not `taken` by another
    move): each list whose question starts with a word of the move gets the entry whose label
    the move names; None unless every word but the first (the verb) is said that way."""
    words = move.split()
    picks: dict[str, str] = {}
    said: set[str] = set()
    for cid, question, options in lists:
        if cid in blank and move in {value for value, _ in options} and move not in taken:
            return {cid: move}   # a list offering the move itself
    for cid, question, options in lists:
        head = question.split(" ", 1)[0]
        if cid not in blank or head not in words[1:]:
            continue
        named = [(value, label) for value, label in options
                 if label and f" {label} " in f" {move} " and value not in taken]
        if not named:
            return None
        value, label = max(named, key=lambda o: len(o[1]))
        if picks and value not in picks.values():
            return None   # one move, one entry
        picks[cid] = value
        said |= {head, *label.split()}
    return picks if picks and set(words[1:]) <= said else None


class Clicker:
    def __init__(self, fake, kind: str, users: list, thread_id: int, gid: int):
        self.fake, self.kind, self.users, self.thread_id = fake, kind, users, thread_id
        self.gid = gid
        self.paths = Paths()

    # ---- what a person sees -------------------------------------------------------------------
    def _controls(self, msg, gid: int) -> list[dict]:
        return [c for c in msg.components() if str(c.get("custom_id", "")).startswith(f"g:{gid}:")
                and not c.get("disabled")]

    def surfaces(self, gid: int, user) -> list[tuple[str, Any]]:
        fake, out = self.fake, []
        mine = [m for m in fake.messages.values() if m.audience == user.id and not m.deleted
                and self._controls(m, gid)]
        if mine:
            out.append(("ephemeral", mine[-1]))
        if user.dms_open:
            dms = [m for m in fake.dms_to(user) if self._controls(m, gid)]
            if dms:
                out.append(("dm", dms[-1]))
        posts = [m for m in fake.messages_in(self.thread_id) if self._controls(m, gid)]
        out += [("thread", m) for m in reversed(posts[-2:])]
        for _, m in out:
            for c in self._controls(m, gid):
                self.paths.tags_seen[_parts(c["custom_id"])[3]] += 1
        return out

    # ---- finding the move on one message ------------------------------------------------------
    def plan(self, msg, game, seat: int, move: str, skip: str = "") -> Optional[tuple]:
        """How `move` is made on `msg`: ("click", cid) / ("select", cid, values) /
        ("narrow", cid, value) / None. `skip`: a list already picked (a preview)."""
        menu = None
        for comp in self._controls(msg, self.gid):
            cid = comp.get("custom_id", "")
            if cid == skip:
                continue
            parts = _parts(cid)
            if len(parts) < 4:
                continue
            tag = parts[3]
            if comp["type"] == 2 and tag == "mv" and parts[4:] == [move]:
                return ("click", cid)
            if comp["type"] != 3:
                continue
            values = [o["value"] for o in comp.get("options", [])]
            if tag == "nw":
                menu = menu or game.menu(seat)
                group = menu.group(parts[4] if len(parts) > 4 else "")
                item = next((i for i in group.items if i.move == move), None) if group else None
                if item is not None:
                    steps = list(dict.fromkeys(i.step for i in group.items if i.step))
                    if item.step in steps and str(steps.index(item.step)) in values:
                        return ("narrow", cid, str(steps.index(item.step)))
                continue
            if tag == "mx":
                menu = menu or game.menu(seat)
                group = menu.group(parts[4] if len(parts) > 4 else "")
                if group is None or group.pick != Pick.SEVERAL:
                    continue
                head, _, tail = group.compose.partition("{}")
                if not (move.startswith(head) and move.endswith(tail)):
                    continue
                middle = move[len(head):len(move) - len(tail)] if tail else move[len(head):]
                tokens = middle.split(group.joiner) if middle else []
                if (tokens and set(tokens) <= set(values)
                        and comp.get("min_values", 1) <= len(tokens) <= comp.get("max_values", 1)
                        and group.compose_move(tokens) == move):
                    return ("select", cid, tokens)
                continue
            if move in values:
                return ("select", cid, [move])
            if tag != "ms" and comp.get("max_values", 1) > 1:
                ticks = _ticks(comp, move)
                if ticks:
                    return ("select", cid, ticks)
        return None

    def _explore_plan(self, msg, move: str, tried: set, names: frozenset = frozenset()
                      ) -> Optional[tuple]:
        """A game's own list (not a move list) with an entry naming a word of the move, the
        step it sits under in the seat's menu ("Die A (6) on b2") or its group (an action)."""
        words = set(WORD.findall(move.lower())) | names
        for comp in self._controls(msg, self.gid):
            cid = comp.get("custom_id", "")
            parts = _parts(cid)
            if comp.get("type") != 3 or len(parts) < 4 or parts[3] in ("ms", "nw", "mx") \
                    or comp.get("disabled") or comp.get("max_values", 1) != 1:
                continue
            for o in comp.get("options", []):
                value = str(o["value"])
                key = (msg.id, cid, value)
                if key in tried:
                    continue
                if value.lower() in words or (o.get("label") or "").lower() in words:
                    tried.add(key)
                    return ("select", cid, [value])
        return None

    # ---- acting -------------------------------------------------------------------------------
    async def _version(self, gid: int):
        row = await self.fake.bot.store.get_game(gid)
        return (row.version, row.status)

    def _payload(self, msg, plan, user) -> dict:
        if plan[0] == "click":
            return self.fake.click(msg, plan[1], user=user)
        if plan[0] == "narrow":
            return self.fake.select(msg, plan[1], [plan[2]], user=user)
        return self.fake.select(msg, plan[1], plan[2], user=user)

    def _answers(self, payload: dict, user) -> list:
        """Messages that answered this interaction (its ephemeral reply, follow-ups)."""
        return [m for m in self.fake.messages.values() if m.token == payload["token"]
                and not m.deleted and (m.audience in (None, user.id))]

    async def _do(self, msg, plan, user, gid: int) -> tuple[bool, dict]:
        before = await self._version(gid)
        payload = self._payload(msg, plan, user)
        await self.fake.invoke(payload)
        moved = await self._version(gid) != before
        return moved, payload

    def _refused(self, payload: dict, user) -> None:
        self.paths.refused += 1
        said = [m.content for m in self._answers(payload, user) if m.content]
        if len(self.paths.refusals) < 8:
            cid = payload.get("data", {}).get("custom_id", "")
            self.paths.refusals.append(f"{cid.split(':', 4)[2:4]} "
                                       f"{(said[-1] if said else '(no answer)')[:140]}")

    async def _try_on(self, where: str, msg, game, seat: int, move: str, user, gid: int,
                      depth: int = 0, skip: str = "") -> bool:
        plan = self.plan(msg, game, seat, move, skip=skip)
        if plan is None:
            return False
        if plan[0] == "narrow":
            before = await self._version(gid)
            payload = self._payload(msg, plan, user)
            await self.fake.invoke(payload)
            if await self._version(gid) != before:  # a pick that moved by itself
                self._count(where, narrowed=True)
                return True
            for answer in reversed(self._answers(payload, user)):
                inner = self.plan(answer, game, seat, move)
                if inner is not None and inner[0] != "narrow":
                    moved, p2 = await self._do(answer, inner, user, gid)
                    if moved:
                        self._count(where, narrowed=True)
                        return True
                    self._refused(p2, user)
                    return False
            self._refused(payload, user)
            return False
        moved, payload = await self._do(msg, plan, user, gid)
        if moved:
            self._count(where, several=plan[0] == "select" and len(plan[2]) > 1
                        or _parts(plan[1])[3] == "mx")
            return True
        if plan[0] == "select" and not depth:
            # A list that only previews the pick (then Confirm, Flick!): look again at the
            # message it edited, or at its answer.
            fresh = self.fake.messages.get(msg.id)
            for seen in [*reversed(self._answers(payload, user)), fresh]:
                if seen is None or seen.deleted:
                    continue
                again = self.plan(seen, game, seat, move, skip=plan[1])
                if again is not None:
                    return await self._try_on(where, seen, game, seat, move, user, gid,
                                              depth=1, skip=plan[1])
        self._refused(payload, user)
        return False

    async def _explore(self, where: str, msg, game, seat: int, move: str, user, gid: int
                       ) -> bool:
        """Pick entries of a game's own lists that name the move's words, and look again at
        what the bot shows then (the edited message, or its ephemeral answer)."""
        tried: set = set()
        look = [msg]
        menu = game.menu(seat)
        item = menu.item(move)
        group = next((g for g in menu.groups if move in g.moves()), None)
        names = frozenset(n.lower() for n in (item.step if item else "",
                                              *((group.key, group.title) if group else ()))
                          if n)
        for _ in range(EXPLORE_DEPTH):
            nxt = []
            for m in look:
                plan = self._explore_plan(m, move, tried, names)
                if plan is None:
                    continue
                moved, payload = await self._do(m, plan, user, gid)
                if moved:  # the pick made a move by itself
                    self._count(where, explored=True)
                    return True
                fresh = self.fake.messages.get(m.id)
                for seen in [*reversed(self._answers(payload, user)), fresh]:
                    if seen is None or seen.deleted:
                        continue
                    direct = self.plan(seen, game, seat, move)
                    if direct is not None:
                        if await self._try_on(where, seen, game, seat, move, user, gid):
                            self.paths.explored += 1
                            return True
                        return False
                    nxt.append(seen)
            if not nxt:
                return False
            look = nxt
        return False

    async def _form(self, where: str, msg, game, seat: int, move: str, user, gid: int,
                    alternatives: list[str]) -> bool:
        """Open the message's first form (`fm`) and fill it with the move and what else fits."""
        button = next((c for c in self._controls(msg, gid) if c.get("type") == 2
                       and _parts(c["custom_id"])[3:4] == ["fm"]), None)
        if button is None:
            return False
        opened = self.fake.click(msg, button["custom_id"], user=user)
        await self.fake.invoke(opened)
        modal = self.fake.interactions[opened["token"]].modal
        lists = _form_lists(modal or {})
        blank = {cid for cid, _, _ in lists}
        picks = _fill(lists, move, blank, set())
        if picks is None:
            return False
        alone = dict(picks)
        # What else a person who knows the rules plans with it: moves that still stand after
        # those planned before (tried on a copy of the game, as they reason it out).
        plan = game.from_json(game.to_json())
        try:
            plan.apply(seat, move)
        except Exception:
            plan = None
        for other in alternatives if plan is not None else ():
            more = _fill(lists, other, blank - set(picks), set(picks.values()))
            if more:
                try:
                    plan.apply(seat, other)
                except Exception:
                    continue
                picks.update(more)
        for tried in ([picks, alone] if picks != alone else [alone]):
            before = await self._version(gid)
            if tried is not picks:   # a person opens the form again to try the move alone
                opened = self.fake.click(self.fake.messages[msg.id], button["custom_id"],
                                         user=user)
                await self.fake.invoke(opened)
            payload = self.fake.submit_modal(opened, {k: [v] for k, v in tried.items()},
                                             user=user)
            await self.fake.invoke(payload)
            if await self._version(gid) != before:
                self.paths.form += 1
                self._count(where)
                return True
            self._refused(payload, user)
        return False

    def _count(self, where: str, *, narrowed=False, several=False, explored=False) -> None:
        p = self.paths
        p.component += 1
        p.narrowed += narrowed
        p.several += several
        p.explored += explored
        if where == "ephemeral":
            p.from_ephemeral += 1
        elif where == "dm":
            p.from_dm += 1
        else:
            p.from_thread += 1

    async def play(self, row, game, seat: int, move: str,
                   alternatives: list[str] | None = None) -> str:
        """Make `move` for `seat` as its player would; returns the path taken. When nothing
        offered reaches `move`, the first of `alternatives` (other moves in the order the
        person would consider them) that a click reaches is made instead."""
        fake, user, gid = self.fake, self.users[seat], row.id
        # A form that can say the move first: a person planning the step fills it at once.
        for where, msg in self.surfaces(gid, user):
            if await self._form(where, msg, game, seat, move, user, gid, alternatives or []):
                return where
        for where, msg in self.surfaces(gid, user):
            if await self._try_on(where, msg, game, seat, move, user, gid):
                return where
        for where, msg in self.surfaces(gid, user):
            if await self._explore(where, msg, game, seat, move, user, gid):
                return where
        # The 🔒 button on the thread: a panel of one's own, ephemeral.
        posts = [m for m in fake.messages_in(self.thread_id)
                 if f"g:{gid}:-:pn" in m.custom_ids]
        if posts:
            self.paths.panel_opens += 1
            before = await self._version(gid)
            payload = fake.click(posts[-1], f"g:{gid}:-:pn", user=user)
            await fake.invoke(payload)
            if await self._version(gid) == before:
                for panel in reversed(self._answers(payload, user)):
                    if (await self._try_on("ephemeral", panel, game, seat, move, user, gid)
                            or await self._explore("ephemeral", panel, game, seat, move, user,
                                                   gid)):
                        self.paths.from_panel_button += 1
                        return "panel"
        # Nothing offered reaches it: a person picks something else that is offered...
        if alternatives:
            surfaces = self.surfaces(gid, user)
            for other in alternatives[:ALTERNATIVES]:
                if other == move:
                    continue
                for where, msg in surfaces:
                    if self.plan(msg, game, seat, other) is not None and await self._try_on(
                            where, msg, game, seat, other, user, gid):
                        self.paths.rechosen += 1
                        self.paths.unreached[move.split(" ", 1)[0]] += 1
                        return where
        # ... or, when nothing is, types the command in the thread.
        self.paths.command += 1
        self.paths.unreached[move.split(" ", 1)[0] + " (typed)"] += 1
        path = f"{self.kind} {NOTATION.get(self.kind, 'move')}"
        before = await self._version(gid)
        payload = fake.slash(fake.bot, path, user=user, channel=fake.channels[self.thread_id],
                             move=move)
        await fake.invoke(payload)
        if await self._version(gid) == before:
            said = [m.content for m in self._answers(payload, user)]
            raise AssertionError(f"/{path} {move!r} by seat {seat + 1} was refused: {said}")
        return "command"
