"""Watching a game again in Discord (issue #26): `/games replay`, its step-through, and "What
happened?" on a running game's turn message.

Everything here is built by replaying the game's stored record through the engine
(bot/replay.py): nothing is stored per move for it.

- `/games replay game:<id>`: a finished game (anyone in its server): its animated GIF, drawn
  whole in a render worker and sized to the channel's upload limit, posted where the command
  was used; and to the caller alone a step-through (⏮ ◀ ▶ ⏭, a turn back or on) showing the
  board after step N with that step's words. The caller's own running game: the step-through
  up to now, of what their seat saw (the public board, the events public or theirs).
- The step-through buttons carry the game, the step and the presser in their custom_id
  (`rp:<game>:<user>:<step>:<action>`), so they answer after a restart, and only for the
  presser; the seat is always the presser's own, never read from the button.
- "What happened?" (`wh:<game>`) under a running game's turn message: to the presser alone,
  everything public since their last move, in words, with the board before and after.
- A slow game's (turn timer of an hour or more) new turn message carries one line of what
  happened since the pinged player's last move (GameCog._post_turn calls `turn_extras`).
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rendering
from bot.engine import load
from bot.engine.core import CHANCE, RuleError, join_names
from bot.engine.records import Record, ReplayError
from bot.memo import Bounded
from bot.render_cli import layouts_of, renderers
from bot.replay import (PublicLog, Replay, last_move_index, record_of, since, summary_line,
                        walk)
from bot.store import GameRow
from bot.ui import guarded
from rendering.gif import replay_gif

log = logging.getLogger(__name__)

SLOW_TURN_SECONDS = 3600    # a turn timer this long or longer: the ping carries a summary
CACHE_REPLAYS = 32          # replays kept for step-through clicks (game, seat, length)
CACHE_LOGS = 256            # running slow games whose public events are kept for the pings
UPLOAD_MARGIN = 64 * 1024   # the message around the file counts against the limit too
# However much a server may upload, a replay stays under this (the longest games' goal): a
# phone on mobile data loads it, and a few minutes of animation is all anyone watches.
GIF_BUDGET = 8 * 1024 * 1024
ACTIONS = ("first", "tprev", "prev", "next", "tnext", "last")
LABELS = {"first": ("⏮", "Start"), "prev": ("◀", "Back"), "next": ("▶", "Next"),
          "last": ("⏭", "End"), "tprev": ("⏪", "Turn back"), "tnext": ("⏩", "Turn on")}
WORDS_LIMIT = 1500


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"rp:(?P<gid>[0-9]{1,18}):(?P<uid>[0-9]{1,20}):(?P<step>[0-9]{1,6})"
                            r":(?P<act>first|tprev|prev|next|tnext|last)"):
    """One step-through button: which game, whose, from which step, which way."""

    def __init__(self, gid: int, uid: int, step: int, act: str, disabled: bool = False):
        self.gid, self.uid, self.step, self.act = gid, uid, step, act
        emoji, label = LABELS[act]
        super().__init__(discord.ui.Button(
            label=label, emoji=emoji, disabled=disabled, style=discord.ButtonStyle.secondary,
            custom_id=f"rp:{gid}:{uid}:{step}:{act}", row=0 if act in (
                "first", "prev", "next", "last") else 1))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["uid"]), int(match["step"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_step(interaction, self.gid, self.uid, self.step,
                                            self.act)
        await guarded(interaction, work)


class WhatHappenedButton(discord.ui.DynamicItem[discord.ui.Button],
                         template=r"wh:(?P<gid>[0-9]{1,18})"):
    """"What happened?" under a running game's turn message."""

    def __init__(self, gid: int):
        self.gid = gid
        super().__init__(discord.ui.Button(label="What happened?", emoji="📜",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"wh:{gid}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_what_happened(interaction, self.gid)
        await guarded(interaction, work)


def _cog(interaction: discord.Interaction) -> "Replays":
    cog = interaction.client.get_cog("Replays")  # type: ignore[union-attr]
    if cog is None:
        raise RuleError("Replays are not available right now; try again later.")
    return cog


def _title(kind: str) -> str:
    try:
        return load(kind).TITLE or kind
    except (KeyError, ModuleNotFoundError):
        return kind


def target_step(replay: Replay, current: int, act: str) -> int:
    """Where a button goes from step `current`."""
    last = len(replay.steps) - 1
    current = max(0, min(current, last))
    if act == "first":
        return 0
    if act == "last":
        return last
    if act == "prev":
        return max(0, current - 1)
    if act == "next":
        return min(last, current + 1)
    starts = replay.turn_starts()
    if act == "tprev":
        earlier = [s for s in starts if s < current]
        mine = max(earlier) if earlier else 0
        # From the middle of a turn: to its start; from its start: to the one before.
        here = max([s for s in starts if s <= current] or [0])
        return here if here < current else mine
    later = [s for s in starts if s > current]
    return later[0] if later else last


class Replays(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self._replays: OrderedDict[tuple, Replay] = OrderedDict()
        # The boards' layouts of the public's replays, as the animated replay draws them: by
        # the replay's id, with the replay itself (so an id is never another's).
        self._layouts: Bounded = Bounded(CACHE_REPLAYS)
        self._command: app_commands.Command | None = None
        # Running games' public events, kept up to date for the turn pings' summaries.
        self._logs: OrderedDict[int, PublicLog] = OrderedDict()
        self._log_lock = asyncio.Lock()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReplayButton, WhatHappenedButton)
        games = self.bot.get_cog("Games")
        group = getattr(games, "app_command", None)
        if isinstance(group, app_commands.Group) and group.get_command("replay") is None:
            cmd = app_commands.Command(
                name="replay", description="Watch a game again: its animated replay, and "
                "step through it (your running game too)", callback=Replays._replay_command)
            cmd = app_commands.describe(game="The game's number")(cmd)
            cmd.autocomplete("game")(Replays._game_autocomplete)
            cmd.binding = self
            group.add_command(cmd)
            self._command = cmd

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReplayButton, WhatHappenedButton)
        games = self.bot.get_cog("Games")
        group = getattr(games, "app_command", None)
        if self._command is not None and isinstance(group, app_commands.Group):
            group.remove_command("replay")

    # ---- the record, replayed ----------------------------------------------------------------
    async def record(self, row: GameRow) -> Record:
        """The game's record as stored, with the seats' display names."""
        try:
            names = load(row.kind).from_json(row.state).names
        except Exception:  # a state this version cannot read: the seats by number
            names = [f"Player {i + 1}" for i in range(len(row.players))]
        return record_of(row.kind, row.options, list(names),
                         await self.bot.store.entries(row.id))

    def cached(self, row: GameRow, seat: int | None) -> bool:
        """Are this game's steps for `seat` at hand (as of its last move)?"""
        return any(k[:2] == (row.id, seat) and k[3] == row.status and k[4] == row.version
                   for k in self._replays)

    async def replay_of(self, row: GameRow, seat: int | None) -> Replay:
        """The game's steps for `seat` (None: the public's, of a game that is over), kept for
        the clicks that follow; built in a thread so other games' moves are not kept
        waiting."""
        record = await self.record(row)
        key = (row.id, seat, len(record.entries), row.status, row.version)
        if key in self._replays:
            self._replays.move_to_end(key)
            return self._replays[key]

        def build() -> Replay:
            # The record as played: the public view never holds a secret, and shows exactly
            # what the thread showed then (an export's canonical record would cost seconds
            # more on a long game and show the same boards).
            return walk(record, seat)
        try:
            replay = await asyncio.to_thread(build)
        except ReplayError:
            log.exception("game %s: its record does not replay", row.id)
            raise RuleError(f"Game #{row.id} cannot be replayed.") from None
        self._replays[key] = replay
        while len(self._replays) > CACHE_REPLAYS:
            self._replays.popitem(last=False)
        return replay

    async def _row(self, interaction: discord.Interaction, game_id: int) -> GameRow:
        row = await self.bot.store.get_game(game_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise RuleError(f"There is no game #{game_id} in this server.")
        return row

    def _seat_for(self, row: GameRow, user_id: int) -> int | None:
        """Whose eyes: None (the public) for a game that is over; the player's own seat in a
        running game; a refusal for anyone else."""
        if row.status != "active":
            return None
        seat = row.seat_of(user_id)
        if seat is None:
            raise RuleError(f"Game #{row.id} is still running: only its players can step "
                            "through it now (each sees what their own seat saw). Everyone "
                            "can watch it again once it is over.")
        return seat

    # ---- /games replay --------------------------------------------------------------------------
    async def _replay_command(self, interaction: discord.Interaction, game: int) -> None:
        row = await self._row(interaction, game)
        seat = self._seat_for(row, interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        replay = await self.replay_of(row, seat)
        start = 0 if seat is None else len(replay.steps) - 1  # a running game: where it is now
        content, files, view = await self.step_message(row, replay, start, interaction.user.id)
        await interaction.followup.send(content, files=files, view=view, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())
        if seat is None:
            await self.post_gif(interaction, row)

    async def _game_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[int]]:
        rows = (await self.bot.store.games_of_user(interaction.user.id, status="finished")
                + await self.bot.store.games_of_user(interaction.user.id, status="active"))
        out = []
        for r in rows:
            label = f"#{r.id} {_title(r.kind)}" + (" (running)" if r.status == "active" else "")
            if current and current.lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label[:100], value=r.id))
        return out[:25]

    async def post_gif(self, interaction: discord.Interaction, row: GameRow) -> None:
        """The animated replay, drawn whole in a render worker, posted where the command was
        used; fewer frames when the whole would not fit the upload limit."""
        record = await self.record(row)
        limit = max(32 * 1024, min(GIF_BUDGET, int(interaction.filesize_limit) - UPLOAD_MARGIN))
        try:
            gif = await rendering.render_async(replay_gif, record.to_json(), max_bytes=limit,
                                               filename=f"replay-{row.id}.gif")
        except Exception:
            log.exception("game %s: its replay GIF failed", row.id)
            await interaction.followup.send(
                f"The animated replay of game #{row.id} could not be made; the step-through "
                "above still works.", ephemeral=True)
            return
        thinned = "" if gif.frames == gif.steps + 2 else (
            f" (every step would not fit the upload limit: {gif.frames - 2} of {gif.steps} "
            "steps shown)")
        names = join_names(record.players)
        try:
            await interaction.followup.send(
                f"🎞️ **{_title(row.kind)} — game #{row.id}**: {names}, replayed{thinned}.",
                file=discord.File(io.BytesIO(gif.png), gif.filename, description=gif.alt),
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as e:  # no Attach Files here, or Discord refused the size
            log.warning("game %s: the replay GIF could not be posted: %s", row.id, e.status)
            await interaction.followup.send(
                f"I could not post the animated replay of game #{row.id} here (Discord said "
                f"{e.status}); try in the game's thread. The step-through above still works.",
                ephemeral=True)

    # ---- the step-through -------------------------------------------------------------------------
    async def layouts(self, replay: Replay) -> list[Any] | None:
        """The layout of each step's board: for the public's steps of a game that is over,
        the animated replay's (`layouts_of`), so a step looks as in the GIF posted with it and
        the board holds still from click to click; None (the board as the thread showed it)
        for a player's steps of a running game, or a game whose board has none."""
        if replay.seat is not None:
            return None
        kept = self._layouts.get(id(replay))
        if kept is None or kept[0] is not replay:
            kept = (replay, await asyncio.to_thread(layouts_of, replay.kind, replay.boards))
            self._layouts[id(replay)] = kept
        return kept[1]

    async def step_message(self, row: GameRow, replay: Replay, number: int, uid: int
                           ) -> tuple[str, list[discord.File], discord.ui.View]:
        step = replay.step_at(number)
        last = len(replay.steps) - 1
        whose = "" if replay.seat is None else f" — as {replay.names[replay.seat]} saw it"
        head = (f"🎞️ **{_title(row.kind)} — game #{row.id}{whose}** · step {step.number} of "
                f"{last} · {step.turn_label}")
        if step.number == 0:
            words = ("The start. " + join_names(replay.names) + ".")
        else:
            words = step.caption() or "(nothing to say)"
        if len(words) > WORDS_LIMIT:
            words = words[:WORDS_LIMIT - 1].rstrip() + "…"
        lines = [head, "> " + words.replace("\n", "\n> ")]
        if step.number == last:
            lines.append(f"🏁 {replay.end_words}" if replay.outcome is not None
                         else "⏳ That is where the game stands now. (Its animated replay "
                              "comes once the game is over.)")
        draw, _ = renderers(row.kind)
        files = []
        try:
            layouts = await self.layouts(replay)
            layout = () if layouts is None else (layouts[step.number],)
            picture = await rendering.render_async(draw, replay.boards[step.number], *layout)
            files.append(discord.File(io.BytesIO(picture.png), f"step-{step.number}.png",
                                      description=picture.alt))
        except Exception:
            log.exception("game %s: the board of step %s failed", row.id, step.number)
        view = discord.ui.View(timeout=None)
        for act in ACTIONS:
            goes = target_step(replay, step.number, act)
            view.add_item(ReplayButton(row.id, uid, step.number, act,
                                       disabled=goes == step.number))
        return "\n".join(lines)[:2000], files, view

    async def on_step(self, interaction: discord.Interaction, gid: int, uid: int, step: int,
                      act: str) -> None:
        if interaction.user.id != uid:
            raise RuleError("These buttons are someone else's step-through: use "
                            "`/games replay` for your own.")
        row = await self._row(interaction, gid)
        seat = self._seat_for(row, uid)
        if not self.cached(row, seat):
            # After a restart (or a long while) the steps are built again: a long game takes
            # a moment, more than Discord waits for an answer, so the click is acknowledged
            # first and the message edited when ready.
            await interaction.response.defer()
        replay = await self.replay_of(row, seat)
        number = target_step(replay, step, act)
        content, files, view = await self.step_message(row, replay, number, uid)
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=content, attachments=files, view=view,
                allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.edit_message(
                content=content, attachments=files, view=view,
                allowed_mentions=discord.AllowedMentions.none())

    # ---- "What happened?" -----------------------------------------------------------------------
    @staticmethod
    def _since_last_move(record: Record, seat: int | None
                         ) -> tuple[list[str], dict, dict, int, bool]:
        first = last_move_index(record, seat) if seat is not None else None
        begin = 0 if first is None else first + 1
        words, before, after, moves = since(record, begin)
        return words, before, after, moves, first is None

    async def on_what_happened(self, interaction: discord.Interaction, gid: int) -> None:
        row = await self._row(interaction, gid)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError(f"\"What happened?\" tells a player what happened since their last "
                            f"move: you are not playing game #{row.id}.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.record(row)
        try:
            words, before, after, moves, never = await asyncio.to_thread(
                self._since_last_move, record, seat)
        except ReplayError:
            log.exception("game %s: its record does not replay", row.id)
            raise RuleError(f"Game #{row.id} cannot be replayed.") from None
        since_when = "since the game began" if never else "since your last move"
        if not words:
            await interaction.followup.send(f"📜 Nothing has happened {since_when}.",
                                            ephemeral=True)
            return
        head = f"📜 **Game #{row.id} — {since_when}** ({len(words)} events):"
        body = [f"• {w}" for w in words]
        text = "\n".join([head] + body)
        while len(text) > 1900 and len(body) > 1:  # the latest matter most: keep the end
            body = body[1:]
            text = "\n".join([head, f"… {len(words) - len(body)} earlier events not shown"]
                             + body)
        draw, _ = renderers(row.kind)
        files = []
        for label, view in (("before", before), ("now", after)):
            try:
                picture = await rendering.render_async(draw, view)
            except Exception:
                log.exception("game %s: the %s board failed", row.id, label)
                continue
            files.append(discord.File(io.BytesIO(picture.png), f"{label}-{row.id}.png",
                                      description=f"The board {label}: {picture.alt}"[:1024]))
        await interaction.followup.send(text[:2000], files=files, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())

    # ---- the turn message (called by GameCog._post_turn) -----------------------------------------
    def _slow(self, row: GameRow) -> bool:
        if row.deadline is not None and row.timer_start is not None:  # (to the second)
            return row.deadline - row.timer_start >= SLOW_TURN_SECONDS - 1
        return getattr(self.bot.tables, "turn_timer", 0) >= SLOW_TURN_SECONDS

    async def turn_extras(self, gamecog: Any, row: GameRow, game: Any, lines: list[str],
                          items: list[discord.ui.Item], new_message: bool
                          ) -> tuple[list[str], list[discord.ui.Item]]:
        """What the replays add to a running game's turn message: the "What happened?"
        button; and, on a new turn message of a slow game (it pings who must act), one line
        of what happened since each pinged player's last move."""
        if game.outcome() is not None:
            return lines, items
        button = WhatHappenedButton(row.id)
        try:  # only where it fits: the moves' own components come first
            probe = discord.ui.View(timeout=None)
            for item in list(items) + [button]:
                probe.add_item(item)
            items = list(items) + [button]
        except ValueError:
            pass
        if not new_message or not self._slow(row):
            return lines, items
        me = self.bot.user.id if self.bot.user is not None else None
        seats = [s for s in dict.fromkeys(a for a in game.actors() if a != CHANCE)
                 if row.players[s] != me]
        if not seats:
            return lines, items
        record = await self.record(row)
        async with self._log_lock:
            log = self._logs.pop(row.id, None) or PublicLog(record)
            await asyncio.to_thread(log.update, record)
            self._logs[row.id] = log  # the most recently used last
            while len(self._logs) > CACHE_LOGS:
                self._logs.popitem(last=False)
        out = []
        for seat in seats:
            first = last_move_index(record, seat)
            if first is None:
                continue  # their first move: the game's opening says it all
            shown = set(lines)  # what this message tells already is not summed up again
            words = [w for w in log.words_since(first + 1) if w not in shown]
            if words:
                out.append(f"📜 Since your last move, {game.name(seat)}: "
                           f"{summary_line(words, 280)}")
        return lines + out, items


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Replays(bot))
