"""What every game's cog shares: publishing moves, secret panels, crowd votes, reminders, and
the generic commands (`board`, `move`, `panel`). A game's cog subclasses GameCog, names its
group, adds its `challenge` command and its own move commands, and may refine the panel, the
turn buttons and the picture.

Everything sent to a channel is built from `game.view(None)` / `game.text(None)`; a seat's
own view only ever goes to that seat (DM, or an ephemeral reply).
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import io
import logging
import pickle
import random
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import rendering

from . import carrier, guide, layout, place, practice, turns
from .memo import Bounded
from .unread_edits import rest_edit
from .throttle import Throttle
from .engine import jsontext, load
from .engine.core import CHANCE, Chance, Game, NotYourTurnError, RuleError, join_names
from .store import GameRow
from .engine.menu import Menu, MenuGroup, Pick
from .tables import STALE_TEXT, NotAPlayer, Played, PublishIncomplete, StaleMove
from .panel import (Panel, _digest, clip, mention, picture_digest, picture_file,
                    split_card)
from .ui import (ClaimTimeoutButton, ComponentCall, MoveModal, PanelButton, VoteButton, reply,
                 view_of)

log = logging.getLogger(__name__)
# What a game's cog takes from here beside GameCog itself.
__all__ = ["GameCog", "Panel", "clip", "on_component", "picture_file"]

PRACTICE_LEVELS = [app_commands.Choice(name="easy: plausible but loose", value="easy"),
                   app_commands.Choice(name="normal: the best move one step ahead", value="normal"),
                   app_commands.Choice(name="hard: looks further ahead", value="hard")]
DM_CLOSED = 50007
# A DM panel a newer one replaced: its buttons go, and it says where to look.
# row.extra: a turn card of a game played where only interactions reach (bot/place.py) that
# could not go out; the next interaction draws it.
OWED_KEY = "owed"
REPLACED_TEXT = "🔒 This panel is done: your newer panel is below."


RETRIES = 3


@dataclass
class _HeldNotes:
    """A publish's changes to its game's `row.extra`, written once as it ends: each write
    rewrites the game's whole row (state and all), and a move's publish made 1.6 of them."""
    task: Any
    game_id: int
    changes: dict[str, Any] = field(default_factory=dict)


# The publish running in this task, if any. A task it starts (the practice bot's move) sees
# the same value but is another task: its own writes go straight to the store.
_held_notes: ContextVar[_HeldNotes | None] = ContextVar("held_notes", default=None)


async def retrying(call: Callable[[], Awaitable[Any]], attempts: int = RETRIES) -> Any:
    """`call()`, tried again when Discord had a passing fault (a 5xx, or a rate limit
    discord.py gave up on): a board or panel that failed once is posted on the next try rather
    than left stale. Refusals (403, 404, 400) are not retried: they would only fail again.
    `call` builds its request anew each time (a sent attachment cannot be sent twice)."""
    for attempt in range(attempts):
        try:
            return await call()
        except discord.HTTPException as e:
            if attempt == attempts - 1 or not (e.status >= 500 or e.status == 429):
                raise
            await asyncio.sleep(0.05 * (attempt + 1))


def guide_lines(kind: str) -> tuple[str, str]:
    """How to win, and what to do first, from the game's guide (bot/guide)."""
    if not guide.has_guide(kind):
        return "", ""
    return guide.goal(kind), guide.first_steps(kind)


def on_component(tag: str):
    """Marks a GameCog method as the handler of its game's components tagged `tag`
    (`async def handler(self, interaction, call: ComponentCall)`)."""
    def mark(fn):
        fn.__component_tag__ = tag
        return fn
    return mark


class GameCog(commands.GroupCog):
    """Base of a game's cog; also the table's listener for that game kind."""

    KIND: ClassVar[str] = ""
    VOTE_SECONDS: ClassVar[int] = 60
    # The command that shows a game's board (KAPLOOM!'s `board` is its action board).
    BOARD_COMMAND: ClassVar[str] = "board"
    # What the "Type a move" form shows as its example, in this game's notation.
    MOVE_EXAMPLE: ClassVar[str] = ""
    # Component tags the base handles; a game adds its own with @on_component("tag").
    BUILTIN_TAGS: ClassVar[frozenset[str]] = frozenset({"mv", "ms", "tm", "pn", "vt", "nw",
                                                        "mx"})

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.engine: type[Game] = load(self.KIND)
        rate = getattr(getattr(bot, "settings", None), "clicks_per_second", 0)
        self.clicks = Throttle(rate, 2 * rate) if rate else None
        # game id -> where it is played (bot/place.py), as far as this process has seen
        self._places: dict[int, str] = {}
        super().__init__()
        self._add_practice_command()

    async def cog_load(self) -> None:
        self.bot.tables.listeners[self.KIND] = self
        self.bot.game_cogs[self.KIND] = self

    async def cog_unload(self) -> None:
        self.bot.tables.listeners.pop(self.KIND, None)
        self.bot.game_cogs.pop(self.KIND, None)

    @functools.cached_property
    def component_handlers(self) -> dict[str, Any]:
        """This game's own component tags and their handlers (bound methods). Found once: a
        walk of every attribute of the class and its bases cost each click ~10 µs."""
        handlers = {}
        for klass in reversed(type(self).__mro__):
            for attr, fn in vars(klass).items():
                tag = getattr(fn, "__component_tag__", None)
                if tag is not None:
                    handlers[tag] = getattr(self, attr)
        return handlers

    async def on_component(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """Every pressed button and made selection of this game, from bot.ui.GameItem."""
        if self.clicks is not None and not self.clicks.allow(interaction.user.id):
            raise RuleError("Slow down: that was many clicks in a moment. Wait a second and "
                            "try again.")
        carrier.carry(call.game_id, interaction)
        if await self.catch_up(interaction, call.game_id):
            return  # what the click was on moved on first; it was told so
        if call.tag == "ct":
            raise RuleError(await self._not_yet_text(call.game_id))
        try:
            await self._dispatch(interaction, call)
        except StaleMove:
            await self._retire_clicked(interaction)
            raise

    async def _dispatch(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        if call.tag == "mv":
            await self.on_move_component(interaction, call.game_id, call.version, call.arg)
        elif call.tag == "ms":
            await self.on_move_component(interaction, call.game_id, call.version, call.value)
        elif call.tag == "tm":
            await interaction.response.send_modal(
                MoveModal(self, call.game_id, self.MOVE_EXAMPLE))
        elif call.tag == "pn":
            await self.open_panel(interaction, call.game_id)
        elif call.tag == "nw":
            await self.on_narrow(interaction, call)
        elif call.tag == "mx":
            await self.on_several(interaction, call)
        elif call.tag == "vt" and call.arg.count(":") == 1:
            topic, choice = call.arg.split(":")
            await self.on_vote(interaction, call.game_id, topic, choice)
        else:
            handler = self.component_handlers.get(call.tag)
            if handler is None:
                raise RuleError("That button is not one I know any more; use the newest "
                                "message in the game thread.")
            await handler(interaction, call)

    @staticmethod
    async def _retire_clicked(interaction: discord.Interaction) -> None:
        """A click on an old DM panel: its buttons go, as that click's own answer (panels of
        past phases are not retired over REST, which the global rate limit counts)."""
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.guild_id is not None:
            return
        # The same card without its rows (a V2 message cannot be left without components).
        kw = (Panel.from_message(message).retired().edit_kwargs() if message.flags.components_v2
              else {"view": None})
        try:
            if not interaction.response.is_done():
                await interaction.response.edit_message(**kw)
            elif interaction.response.type in carrier.ANSWERS_ON_MESSAGE:
                await interaction.edit_original_response(**kw)
        except discord.HTTPException:
            pass

    # ---- hooks a game cog may refine ------------------------------------------------------------
    async def prepare_options(self, options: dict[str, Any], players: list[int]) -> dict[str, Any]:
        """Last word on the options when the game starts, once the seats are known (the
        players' saved business cards, characters for those who joined). Default: as chosen."""
        return options

    def is_secret(self, game: Game, seat: int) -> bool:
        """Is `seat`'s next move a secret one (made in the panel)? The engine says."""
        return game.is_secret(seat)

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        """The board image for `seat`'s view (None: public), or None for text only."""
        return None

    async def draw(self, fn, *args: Any, **kwargs: Any):
        """`fn(*args, **kwargs)` drawn off the event loop (rendering.render_async): its Picture,
        or None (text only) when it fails."""
        try:
            return await rendering.render_async(fn, *args, **kwargs)
        except Exception:
            log.exception("game picture %s failed; sending text only",
                          getattr(fn, "__name__", fn))
            return None

    def move_label(self, game: Game, seat: int, move: str) -> str:
        return game.describe(move, seat).label

    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        """Components under the public turn message for a seat whose move is public."""
        return self.move_items(row, game, seat)

    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        """The secret panel for `seat`: their own view and the moves they may make.
        `version` (`p<n>`) goes into the panel's components (see Tables.check_version)."""
        text = (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)})\n"
                f"```\n{game.text(seat)}\n```")
        if seat in game.actors():
            text += "\nYour move: pick it below, or type it (`Type a move`)."
        else:
            text += "\nNothing to do right now; waiting for the others."
        return Panel(text, self.move_items(row, game, seat, version)
                     if seat in game.actors() else [])

    def vote_choices(self, row: GameRow, game: Game, chance: Chance) -> list[tuple[str, str]]:
        """(token, label) of a crowd vote that settles a chance draw: a seat token ("1", "2")
        is shown as that player's name, any other token as it is."""
        return [(tok, game.name(int(tok) - 1) if tok.isdigit() and 0 < int(tok) <= game.players
                 else tok) for tok in dict.fromkeys(chance.draws[0].options)]

    def wants_vote(self, row: GameRow, game: Game, chance: Chance) -> bool:
        return False

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        return "The crowd decides!"

    # ---- shared pieces -----------------------------------------------------------------------
    def move_items(self, row: GameRow, game: Game, seat: int,
                   version: int | str | None = None) -> list[discord.ui.Item]:
        """The seat's menu as components (bot/layout.py); always the typed fallback. On the
        public turn message the lists say whose they are; in a private panel they need not."""
        public = version is None
        version = row.version if version is None else version
        return layout.menu_components(row.id, version, game.menu(seat),
                                      who=game.name(seat) if public else "")

    async def on_narrow(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """A long list's first pick (a die, an action): its moves, to the picker alone."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        group = game.menu(seat).group(call.arg)
        chosen = layout.steps(group)[int(call.value)] if group and call.value.isdigit() and (
            int(call.value) < len(layout.steps(group))) else None
        if chosen is None:
            raise StaleMove(STALE_TEXT)
        items = [i for i in group.items if i.step == chosen]
        narrowed = Menu(seat, (MenuGroup(group.key, f"{chosen}: {group.title}", tuple(items),
                                         Pick.SELECT),))
        await reply(interaction, f"**{chosen}** — pick the move:", ephemeral=True,
                    view=view_of(*layout.menu_components(row.id, call.version, narrowed,
                                                         typed=False)))

    async def on_several(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """A multi-select: the picks make one move (the group's `compose`)."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        group = game.menu(seat).group(call.arg)
        if group is None or group.pick != Pick.SEVERAL or not call.values:
            raise StaleMove(STALE_TEXT)
        await self.on_move_component(interaction, call.game_id, call.version,
                                     group.compose_move(call.values), seen=(row, game))

    def acting_seat(self, row: GameRow, game: Game, interaction: discord.Interaction,
                    call: ComponentCall) -> int:
        """The clicker's seat when they may act now on this very message (its version); else
        a refusal saying why (a spectator, not their step, or an older message)."""
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError(self.spectator_text(row))
        if row.status != "active" or seat not in game.actors():
            raise RuleError(self.waiting_text(row, game, seat))
        current = row.version if not isinstance(call.version, str) else None
        if current is not None and call.version != current:
            raise StaleMove(STALE_TEXT)
        return seat

    async def channel_of(self, row: GameRow) -> discord.abc.Messageable | None:
        cid = row.where
        if cid is None:
            return None
        if place.only_interactions(row):
            return place.Unreachable(cid)  # the bot is not there: only interactions reach it
        ch = self.bot.get_channel(cid)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(cid)
            except discord.HTTPException:
                log.warning("game %s: its channel %s is gone", row.id, cid)
                return None
        return ch

    async def find_game(self, interaction: discord.Interaction,
                        game_id: int | None = None) -> tuple[GameRow, Game]:
        """The caller's game: the one given, the one in this thread, or their only one."""
        store = self.bot.store
        if game_id is not None:
            row = await store.get_game(game_id)
            if row is None or row.kind != self.KIND:
                raise RuleError(f"There is no {self.engine.TITLE} game #{game_id}.")
        else:
            row = await store.active_game_in(interaction.channel_id, self.KIND)
            if row is None:  # a finished game's own thread: its board still answers there
                row = await store.latest_game_in(interaction.channel_id, self.KIND)
            if row is None:
                mine = [r for r in await store.games_of_user(interaction.user.id)
                        if self.KIND == r.kind]
                if not mine:
                    raise RuleError(f"You have no {self.engine.TITLE} game running. Start one "
                                    f"with `/{self.KIND} challenge`.")
                if len(mine) > 1:
                    raise RuleError(f"You are in {len(mine)} {self.engine.TITLE} games: use "
                                    "this command in the game's thread.")
                row = mine[0]
        return row, self.engine.from_json(row.own_state(), owned=True)

    def player_seat(self, row: GameRow, interaction: discord.Interaction) -> int:
        """The caller's seat in `row`; a spectator is told whose game it is and what they can
        do instead."""
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError(self.spectator_text(row))
        return seat

    def spectator_text(self, row: GameRow) -> str:
        """For someone who is not playing: whose game this is, how to watch, how to play."""
        try:
            names = join_names(self.engine.from_json(row.state).names)
        except Exception:  # a state this version cannot read: say it without names
            names = "other players"
        state = "finished" if row.status != "active" else "being played"
        return (f"You are not playing in this game: this {self.engine.TITLE} game (#{row.id}) "
                f"is {names}'s, and it is {state}. You can watch it here (`/{self.KIND} "
                f"{self.BOARD_COMMAND}` shows the board to you alone). To play, start your "
                f"own: `/{self.KIND} challenge`.")

    # ---- the table's listener ----------------------------------------------------------------
    def vote_seconds(self, row: GameRow, game: Game, chance: Chance) -> int | None:
        # No crowd vote where nothing can be posted unprompted: the dice decide (the rules'
        # fallback when a table has no crowd).
        if place.only_interactions(row) or not self.wants_vote(row, game, chance):
            return None
        return int(game.options.get("vote_seconds", self.VOTE_SECONDS))

    async def vote_result(self, row: GameRow, game: Game, rng: random.Random) -> str:
        chance = game.chance()
        tally = await self.bot.store.tally(row.id, f"v{row.version}")
        choices = [tok for tok, _ in self.vote_choices(row, game, chance)]
        best = max((tally.get(c, 0) for c in choices), default=0)
        tied = [c for c in choices if tally.get(c, 0) == best]
        return "roll " + rng.choice(tied)  # a tie, or no votes at all: chance decides

    async def remind(self, row: GameRow, game: Game) -> None:
        channel = await self.channel_of(row)
        seats = [a for a in game.actors() if a != CHANCE]
        if channel is None or not seats or row.deadline is None:
            return
        me = self.bot.user.id if self.bot.user is not None else None
        people = [discord.Object(u) for u in dict.fromkeys(row.players[s] for s in seats)
                  if u != me]  # a practice bot needs no reminder
        if not people:
            return
        # Named all the same; pinged only as each asked (/games notify).
        pinged, _ = await turns.split(self.bot, people)
        who = " ".join(mention(o.id) for o in people)
        action = "the referee moves for you" if all(
            game.timeout_move(s) for s in seats) else "you forfeit"
        await channel.send(f"⏰ {who}: your move in game #{row.id}. Time runs out "
                           f"<t:{int(row.deadline)}:R>, then {action}.",
                           allowed_mentions=discord.AllowedMentions(users=pinged))

    async def publish(self, played: Played) -> None:
        """Post what a committed move changed: the turn message in the thread (edited while the
        turn lasts, a new one when it passes), the secret panels, and a crowd vote when one is
        due. Safe to call again for the same move (a repeat changes nothing it already did)."""
        held = _HeldNotes(asyncio.current_task(), played.row.id)
        token = _held_notes.set(held)
        problem = None
        try:
            problem = await self._publish_held(played)
        finally:
            _held_notes.reset(token)
            if held.changes and problem == "":
                # All of it published: the outbox row goes in the same write as the notes.
                played.row.extra = await self.bot.store.save_published(
                    played.row.id, played.row.version, held.changes)
                played.published = True
            elif held.changes:
                played.row.extra = await self.bot.store.update_extra(played.row.id,
                                                                     **held.changes)
        # Its notes are stored: the bot's seats move now (their task reads the game again).
        await practice.after_publish(self.bot, played)  # never raises
        if problem:
            raise PublishIncomplete(problem)

    async def _publish_held(self, played: Played) -> str:
        """`publish` while its notes are held: what is left undone ("" when nothing)."""
        row, game = played.row, played.game
        channel = await self.channel_of(row)
        public = [e for e in played.events if e.to is None]
        # The end is told once, by the status line ("🏆 Bob wins — …"), not again by the
        # engine's own "Winner: …" event.
        lines = [e.text for e in public if e.kind != "game_over"]
        if played.cause == "timeout":
            lines.insert(0, "⏰ Time ran out.")
        if played.cause == "start":
            lines[:0] = self.opening_lines(row, game)
        outcome = game.outcome()
        self._places[row.id] = place.of_row(row)
        if played.cause == "move" and not public and outcome is None:
            # A secret step with nothing public to say: posting "waiting for…" would tell
            # everyone when, and how often, someone acted in secret.
            missing = await self._send_private(row, game, played)
            return self._no_panel_text(game, missing) if missing else ""
        board_failed = None
        if channel is not None:
            try:
                await self._post_turn(row, game, channel, lines, played.cause,
                                      mover=played.by if played.cause == "move" else None)
            except discord.HTTPException as e:
                # The move stands; the outbox publishes it again (or the next move does).
                board_failed = e
        missing = await self._send_private(row, game, played)
        if played.cause == "vote":
            await self.settle_vote_message(row, channel, lines)
        if outcome is None and row.waits_for("vote") and channel is not None:
            await self._post_vote(row, game, channel)
        if place.only_interactions(row):
            # Only an interaction reaches this table: a card that could not go out is drawn
            # by the next one (`catch_up`), not by the outbox, which has none.
            await self._owe(row, board_failed is not None)
            return ""
        if board_failed is not None:
            return (f"the turn message failed: {board_failed.status} "
                    f"{board_failed.text or ''}".strip())
        return self._no_panel_text(game, missing) if missing else ""

    async def save_notes(self, row: GameRow, **changes: Any) -> None:
        """Merge keys into `row.extra` and the store: at once, or, inside a publish of this
        game in this task, as that publish ends (one write for all of them)."""
        held = _held_notes.get()
        if held is not None and held.game_id == row.id and held.task is asyncio.current_task():
            held.changes.update(changes)
            row.extra = {**row.extra, **changes}
            return
        row.extra = await self.bot.store.update_extra(row.id, **changes)

    async def _owe(self, row: GameRow, owed: bool) -> None:
        if bool(row.extra.get(OWED_KEY)) != owed:
            await self.save_notes(row, **{OWED_KEY: owed})

    async def catch_up(self, interaction: discord.Interaction, game_id: int) -> bool:
        """First, for a game played where nothing is posted unprompted (bot/place.py): a
        deadline that passed is enforced (the late player's default move or forfeit) and a
        turn card that could not go out is drawn, both through this interaction, which is
        answered for it. True when something was done (a component's own action then stops:
        what it was on moved on; the presser is told)."""
        if self._places.get(game_id, place.HERE) != place.HERE:
            return False
        row = await self.bot.store.get_game(game_id)
        if row is None:
            return False
        if len(self._places) > 100_000:
            self._places.clear()
        self._places[game_id] = place.of_row(row)
        if not place.only_interactions(row) or row.status != "active":
            return False
        due = row.deadline is not None and self.bot.tables.clock() >= row.deadline
        if not (due or row.extra.get(OWED_KEY)):
            return False
        component = interaction.type == discord.InteractionType.component
        if not interaction.response.is_done():
            if component:
                await interaction.response.defer()  # follow-ups may carry the new card
            else:
                await interaction.response.send_message("⏳ Bringing the table up to date…",
                                                        ephemeral=True)
        played = await self.bot.tables.enforce_deadline(game_id) if due else None
        drawn = played is not None
        if played is None:
            row, game = await self.bot.tables.load(game_id)
            try:
                await self._post_turn(row, game, await self.channel_of(row), [], "redraw")
                await self._owe(row, False)
                drawn = True
            except discord.HTTPException:
                pass
        text = ("⏰ Time had run out: the referee settled the late turn first (the card shows "
                "how)." if played is not None else "🔄 The table is drawn again, up to date."
                if drawn else f"⚠️ I can't show the table to everyone here (this server lets "
                f"apps added to an account answer only the person who used them). The game is "
                f"safe: `/{self.KIND} board` shows it to you, and your moves still count.")
        if component:
            await interaction.followup.send(text + " Carry on from the newest card.",
                                            ephemeral=True)
        return True

    async def _not_yet_text(self, game_id: int) -> str:
        row = await self.bot.store.get_game(game_id)
        if row is None or row.status != "active":
            return "This game is over."
        if row.deadline is None or not row.waits_for("turn"):
            return "No timer is running in this game now."
        return (f"Time runs out <t:{int(row.deadline)}:R>: you can claim the timeout after "
                "that.")

    @staticmethod
    def _no_panel_text(game: Game, seats: list[int]) -> str:
        # For the log: seats by number (a log line is not read at the table).
        return ("no panel reached seat(s) " + ", ".join(str(s + 1) for s in seats)
                + " (direct message and thread both failed)")

    def opening_lines(self, row: GameRow, game: Game) -> list[str]:
        """The game's first message: who plays, how to win, what to do first."""
        names = game.versus([f"**{n}**" for n in game.names], game.options)
        out = [f"🎲 **{self.engine.TITLE}** — game #{row.id}: {names}"]
        goal, first = guide_lines(self.KIND)
        out += [line for line in (goal, first) if line]
        return out

    def status_line(self, row: GameRow, game: Game) -> str:
        outcome = game.outcome()
        if outcome is not None:
            if outcome.draw:
                return f"🤝 **Draw** — {outcome.reason}."
            who = join_names([game.name(w) for w in outcome.winners])
            verb = "wins" if len(outcome.winners) == 1 else "win"
            return (f"🏆 **{who} {verb}** — {outcome.reason}.\n{self.next_steps_text()}")
        prompt = game.prompt(None)
        if not prompt.actors:
            return ""
        here = place.only_interactions(row)
        when = (f" (time runs out <t:{int(row.deadline)}:R>"
                + ("; then anyone may claim it, no reminder is sent" if here else "") + ")"
                if row.deadline else "")
        status = prompt.status.rstrip(".")
        if all(self.is_secret(game, s) for s in prompt.actors):
            me = self.bot.user.id if self.bot.user is not None else None
            dms = ((" (press 🔒 Open my secret panel)" if here else " (check your DMs)")
                   if any(row.players[s] != me for s in prompt.actors) else "")
            return f"🔒 {status}{dms}{when}."
        line = f"👉 {status}{when}."
        todo = [game.prompt(s).todo for s in prompt.actors
                if not self.is_secret(game, s) and not self.bot_seat(row, s)]
        return "\n".join([line] + [t for t in dict.fromkeys(todo) if t])

    def next_steps_text(self) -> str:
        """What to do once a game is over."""
        return (f"What next? Another game: `/{self.KIND} challenge` or `/{self.KIND} practice`;"
                " this game's record: `/games export`; your results: `/games stats`.")

    def bot_seat(self, row: GameRow, seat: int) -> bool:
        """Is `seat` played by this bot (a practice opponent)? Its controls are never shown."""
        return self.bot.user is not None and row.players[seat] == self.bot.user.id

    def turn_key(self, game: Game) -> str:
        """What stays the same while a turn lasts: while it does, the turn message is edited;
        when it changes (the turn passes, a new phase or round begins), a new one is posted."""
        if game.outcome() is not None:
            return "over"
        seats = [a for a in game.actors() if a != CHANCE]
        if seats and all(self.is_secret(game, s) for s in seats):
            return f"secret:{self.panel_phase(game)}"  # a secret step: one message for all
        return f"{self.panel_phase(game)}:{seats}"

    def must_act(self, game: Game) -> list[int]:
        """Seats who must act now (the only ones a new turn message pings)."""
        return [a for a in game.actors() if a != CHANCE]

    # ---- issue #26 hook (cogs/replay.py owns what it adds) ------------------------------------
    async def extra_turn_items(self, row: GameRow, game: Game, lines: list[str],
                               items: list[discord.ui.Item], new_message: bool
                               ) -> tuple[list[str], list[discord.ui.Item]]:
        """What the replays add to the turn message: the "What happened?" button, and on a
        slow game's new (pinging) message a line of what happened since each pinged player's
        last move. Never fails the publishing: without the Replays cog, or on any error, the
        message goes out as it was."""
        hook = self.bot.get_cog("Replays")
        if hook is None:
            return lines, items
        try:
            return await hook.turn_extras(self, row, game, lines, items, new_message)
        except Exception:
            log.exception("game %s: the replay additions to the turn message failed", row.id)
            return lines, items

    async def _post_turn(self, row: GameRow, game: Game, channel, lines: list[str],
                         cause: str, mover: int | None = None) -> None:
        """One message per turn: status line, what happened this turn, the board and the
        buttons. Steps inside the turn edit it; a new turn posts a new one (pinging only who
        must act, but not `mover`, who just moved and is at the table) and takes the buttons
        off the old."""
        items: list[discord.ui.Item] = []
        if game.outcome() is None:
            acting = [s for s in self.must_act(game) if not self.bot_seat(row, s)]
            for seat in acting:
                if not self.is_secret(game, seat):
                    items += self.turn_items(row, game, seat)
            secret = [s for s in acting if self.is_secret(game, s)]
            if (acting and not items) or (secret and place.only_interactions(row)):
                # A secret step: the card opens anyone's panel here (DMs closed or not), so
                # nobody needs a ping of their own for it.
                items.append(PanelButton(row.id))
            if place.only_interactions(row) and row.deadline and row.waits_for("turn"):
                items.append(ClaimTimeoutButton(row.id))
        else:  # issue #25: the end message offers a Rematch (bot/rematch.py)
            from .rematch import end_items
            items += end_items(self.bot, row, game)
        key = self.turn_key(game)
        turn = dict(row.extra.get("turn") or {})
        old_id = row.extra.get("turn_message")
        # `posted`: the turn's message shows its story so far (a failed post leaves its lines
        # here, and the next publish posts them: no line is lost to an outage).
        posted = turn.get("posted", True)
        acting = sorted(set(self.must_act(game))) if game.outcome() is None else []
        same_turn = (old_id is not None and posted and cause not in ("start", "timeout", "vote")
                     and game.outcome() is None and (
                         turn.get("key") == key or self._continues(row, acting, cause, mover)))
        lines, items = await self.extra_turn_items(row, game, lines, items, not same_turn)
        told = list(turn.get("lines", []))
        # A new turn carries what the last card never showed (its edit failed: `shown` counts
        # the lines that reached Discord); the same turn carries its whole story.
        carried = told if (same_turn or not posted) else told[turn.get("shown", len(told)):]
        # A move published again (the outbox, after a fault) adds its lines once.
        fresh = lines if turn.get("through", -1) < row.version else []
        log_lines = carried + fresh
        status = self.status_line(row, game)
        body = "\n".join(log_lines + ([status] if status else []))
        *before, text = split_card(body)
        while same_turn and before:  # the turn's story outgrew one card: keep its end
            log_lines = log_lines[1:]
            body = "\n".join(log_lines + ([status] if status else []))
            *before, text = split_card(body)
        # The status line goes under the picture, the story above it (one card, issue #23).
        story = text[:-len(status)].rstrip("\n") if status and text.endswith(status) else text
        panel = Panel(story, items[:25], accent=self.card_accent(game),
                      status=status if story != text else "")
        view_sig = self.view_signature(game, None)
        sig = panel.signature() + view_sig
        if same_turn and turn.get("sig") == sig:
            return  # nothing a reader would see has changed: no edit, no upload
        old_card = turn.get("card") or {}
        board = self.board_signature(game)
        # A new turn's card whose board is the one already shown just above it (`board`)
        # starts without a picture; a board that changed as the turn passed goes on the
        # card of the turn that changed it (`closing`), and the new card shows none.
        above = (board is not None and not same_turn and old_id is not None and posted
                 and game.outcome() is None and "board" in turn
                 and not place.only_interactions(row))
        closing = None
        if above:
            if turn["board"] != board:
                closing = await self.picture(row, game, None)
        elif not same_turn or turn.get("view_sig") != view_sig:
            panel.picture = await self.picture(row, game, None)
            if same_turn:  # drawn the same as the board on the message: that one stays
                panel.same_picture_as(old_card.get("png"), old_card.get("picture"))
        else:  # the board on the message stays: the edited card shows it again
            panel.keeping(old_card.get("picture"))
        try:
            msg_id = await self._show_turn(row, game, channel, panel, before, old_id,
                                           same_turn, mover, old_card=turn.get("card"),
                                           closing=closing, board_above=above)
        except discord.HTTPException:
            # The move stands and the outbox will publish again: keep what this message was
            # to say, so the next try (or the next move) says it.
            await self.save_notes(row, turn={
                "key": key, "lines": log_lines, "sig": "", "view_sig": "", "posted": same_turn,
                "through": row.version, "shown": min(turn.get("shown", len(told)),
                                                     len(log_lines)) if same_turn else 0,
                "card": turn.get("card")})
            raise
        png = (picture_digest(panel.picture) if panel.picture is not None
               else old_card.get("png", "") if panel.kept else "")
        shows = {} if board is None else {"board": board if (
            panel.picture is not None or above) else turn.get("board", board)}
        await self.save_notes(row, turn_message=msg_id, turn={
            "key": key, "lines": log_lines, "sig": sig, "view_sig": view_sig, "posted": True,
            "shown": len(log_lines), "through": row.version, "card": card_record(panel, png),
            **shows})

    @staticmethod
    def _continues(row: GameRow, acting: list[int], cause: str, mover: int | None) -> bool:
        """Does a move leave the turn with the one who made it (they alone must act next: a
        defense then their own attack, the last lock-in then their own attack)? Then it is
        still their turn as the table feels it: the card they are at is edited, and no new
        message tells anyone (nobody else must act, and the mover is never pinged)."""
        if cause != "move" or mover is None or not acting:
            return False
        return all(row.players[s] == mover for s in acting)

    def card_accent(self, game: Game) -> int | None:
        """The turn card's colour: the seat who must act (the winner once the game is over);
        none while several act at once, or nobody does (the dice are rolling)."""
        outcome = game.outcome()
        if outcome is not None:
            seats = [] if outcome.draw else list(outcome.winners)
        else:
            seats = list(dict.fromkeys(self.must_act(game)))
        return rendering.colours.accent(seats[0]) if len(seats) == 1 else None

    async def _show_turn(self, row: GameRow, game: Game, channel, panel: Panel,
                         before: list[str], old_id: int | None, same_turn: bool,
                         mover: int | None = None, old_card: dict | None = None,
                         closing: Any = None, board_above: bool = False) -> int:
        """Edit the turn's message, or take the buttons off the old one (`old_card`: what it
        shows, `card_record`; `closing`: the board it shows now) and post the new turn's,
        pinging who must act; the id of the message that now shows the turn. The old card
        goes first: a click on it is answered by that edit, and the new card is the click's
        follow-up. `board_above`: the new card shows no board, the old one does; if the old
        one cannot be edited, the new one shows it."""
        if same_turn:
            try:  # no picture: the board on the message still holds
                await carrier.edit(self.bot, row.id, old_id, lambda: dict(
                    panel.edit_kwargs(), allowed_mentions=discord.AllowedMentions.none()),
                    lambda make: retrying(lambda: rest_edit(channel, old_id, **make())))
                msg_id = old_id
            except (discord.NotFound, discord.Forbidden):
                # Deleted, or no longer ours to edit: post it anew below, with its picture (a
                # new message has none to keep).
                same_turn = False
                if panel.picture is None:
                    panel.picture = await self.picture(row, game, None)
        # Where the bot is not at the table, the new card may turn out private (a follow-up
        # the server made ephemeral): the old one keeps its buttons until the new one is out.
        retire_first = not place.only_interactions(row)
        if not same_turn:
            if retire_first and old_id and not await self._retire_card(
                    row, channel, old_id, old_card, closing):
                if board_above and panel.picture is None:
                    panel.picture = closing or await self.picture(row, game, None)
            me = self.bot.user.id if self.bot.user is not None else None
            pinged = [discord.Object(uid) for uid in dict.fromkeys(
                row.players[s] for s in self.must_act(game) if game.outcome() is None)
                if uid not in (me, mover)]  # nor a practice bot, nor who just moved
            pinged, by_dm = await turns.split(self.bot, pinged)  # issue #25: each player's choice
            if pinged and game.outcome() is None:
                panel.content = clip(" ".join(mention(o.id) for o in pinged) + " "
                                     + panel.content).rstrip()
            def rest(make):
                return retrying(lambda: channel.send(**make()))
            for chunk in before:  # a long reveal: its start goes first, the board comes last
                await carrier.send(self.bot, row.id, channel, lambda: dict(
                    content=chunk, allowed_mentions=discord.AllowedMentions.none()), rest)
            msg = await carrier.send(self.bot, row.id, channel, lambda: dict(
                panel.send_kwargs(), allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=pinged)), rest)
            msg_id = msg.id
            await turns.send_dms(self.bot, row, game, by_dm, msg)  # issue #25: asked for a DM
            if not retire_first and old_id and old_id != msg_id:
                await self._retire_card(row, channel, old_id, old_card)
        return msg_id

    async def _retire_card(self, row: GameRow, channel, old_id: int,
                           old_card: dict | None, closing: Any = None) -> bool:
        """Take the buttons off a past turn's card: stale buttons would only be refused. It
        keeps its text and board, or shows `closing` (the board as its turn left it); a card
        from before V2 just loses its view. Whether the edit was made."""
        old = card_panel(old_card)
        if old is not None and closing is not None:
            old.picture, old.kept = closing, None
        try:
            await carrier.edit(self.bot, row.id, old_id, lambda: {"view": None} if (
                old is None) else dict(old.edit_kwargs(),
                                       allowed_mentions=discord.AllowedMentions.none()),
                               lambda make: rest_edit(channel, old_id, **make()))
        except discord.HTTPException:
            return False
        return old is not None or closing is None

    # The renderer's `board_facts(view)`: what its board shows of the game itself (not whose
    # turn it is, nor the highlights). None: every new turn card shows the board.
    BOARD_FACTS: ClassVar[Callable[[dict[str, Any]], Any] | None] = None

    def board_signature(self, game: Game) -> str | None:
        """What the thread's board shows of the game itself: a new turn whose board is the
        one just above it shows none of its own (`_post_turn`)."""
        facts = self.BOARD_FACTS
        return None if facts is None else jsontext.digest(facts(game.view(None)))

    @staticmethod
    def view_signature(game: Game, seat: int | None) -> str:
        """What a picture of `seat`'s view would show (the picture is drawn from the view)."""
        return jsontext.digest(game.view(seat))

    def panel_phase(self, game: Game) -> str:
        """What makes a panel 'new' (a fresh DM) rather than an update of the last one."""
        view = game.view(None)
        return ":".join(str(view.get(k)) for k in ("phase", "round", "combat", "turn"))

    @staticmethod
    def _panel_key(game: Game, seat: int, version: str) -> str:
        """What a seat's panel is drawn from, cheaply: its whole view, its legal moves and the
        panel's version (`p<n>`), without building the panel (its menu words every move).
        Pickled, not JSON-encoded with sorted keys (a fifth of the time, and every other
        seat's panel is keyed on every move): equal pickles are equal views, and an equal
        view pickled otherwise (another Python) only builds the panel to find that its
        signature did not change. Without the pickle's memo: with it, a string met twice
        was written once or twice as the view's strings were or were not one object, so a
        view loaded from the store and the same view after a move in place were pickled
        apart (1 in 5 unchanged KAPLOOM! and TradeShowdown panels built again)."""
        drawn_from = [game.view(seat), game.legal(seat) if seat in game.actors() else None,
                      version]
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=5)
        pickler.fast = True  # no memo: the bytes follow the values alone (a view has no cycle)
        try:
            pickler.dump(drawn_from)
            data = out.getvalue()
        except Exception:  # something a pickle cannot hold: its words, as before
            data = jsontext.dumpb(drawn_from, sort_keys=True, default=str)
        return hashlib.sha1(data).hexdigest()[:16]

    async def bare_panel(self, row: GameRow, game: Game, seat: int,
                         version: str | None = None) -> Panel:
        """The seat's panel before its picture is drawn: enough to tell whether it changed
        (`version`: its `p<n>`, when already read)."""
        panel = self.panel(row, game, seat, version or await self.bot.tables.panel_version(
            row.id, seat, row.version))
        if panel.accent is None:  # a private panel wears its seat's colour
            panel.accent = rendering.colours.accent(seat)
        return panel

    async def build_panel(self, row: GameRow, game: Game, seat: int) -> Panel:
        panel = await self.bare_panel(row, game, seat)
        if panel.picture is None:
            panel.picture = await self.picture(row, game, seat)
        return panel

    async def dm(self, user_id: int, game_id: int, **kwargs: Any) -> discord.Message | None:
        """DM a player: a follow-up of their own last click in that DM while its token lives
        (bot/carrier.py), else over REST. None when their DMs are closed (they get the
        ephemeral panel instead). Other failures raise discord.HTTPException."""
        channel = await retrying(lambda: self._dm_channel(user_id))
        files = [kwargs.pop("file")] if "file" in kwargs else []

        def make() -> dict[str, Any]:
            for f in files:
                f.reset()
            return dict(kwargs, **({"file": files[0]} if files else {}))
        try:
            return await carrier.send(self.bot, game_id, channel, make,
                                      lambda make: retrying(lambda: channel.send(**make())))
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                return None
            raise

    async def _dm_channel(self, user_id: int) -> discord.DMChannel:
        """The DM channel with a player: discord.py keeps it once opened, so a panel costs one
        request, never a user lookup (`fetch_user`) first."""
        return await self.bot.create_dm(discord.Object(user_id))

    async def _send_private(self, row: GameRow, game: Game, played: Played) -> list[int]:
        """Private events and secret panels. A panel in the same phase is updated in place
        (one DM per phase, not one per move), and only when what it shows changed; the panel
        its owner just pressed also becomes the next phase's in place; a note for
        a player goes into their panel. DMs closed or failing: the thread offers the ephemeral
        panel instead. One player's failed DM never keeps the others from theirs. Returns the
        seats no panel reached at all (the publish is then tried again)."""
        if place.only_interactions(row):
            return []  # no DMs from a table the bot is not at: 🔒 on the card opens panels
        private: dict[int, list[str]] = {}
        for e in played.events:
            for seat in e.to or ():
                private.setdefault(seat, []).append(e.text)
        needs_panel = {s for s in game.actors() if s != CHANCE and self.is_secret(game, s)}
        closed = set(row.extra.get("dm_closed", []))
        offered = set(row.extra.get("panel_offered", []))
        # A copy of each seat's record too: changed in place, it would equal the stored one
        # and never be saved.
        panels = {k: dict(v) for k, v in row.extra.get("panels", {}).items()}
        phase = self.panel_phase(game)
        missing: list[int] = []
        for seat in sorted(set(private) | needs_panel):
            try:
                await self._send_seat(row, game, played, seat, private.get(seat, []),
                                      seat in needs_panel, panels, closed, offered, phase)
            except discord.HTTPException:
                log.warning("game %s: the panel of seat %s could not be sent", row.id, seat + 1)
                if not await self._offer_panel_in_thread(row, game, seat, failed=True):
                    missing.append(seat)
        for seat_key, last in list(panels.items()):
            if int(seat_key) not in needs_panel:
                # Nothing left to choose: another seat's old panel is retired when it is
                # next pressed (a REST edit for it would cost a request against the global
                # limit on every phase); the mover's own, and every panel at the end, now.
                if "message" in last and not last.get("retired"):
                    text = await self._retired_text(row, game, int(seat_key))
                    await self._edit_dm(last, Panel(text), game_id=row.id, lazy=self._lazy(
                        row, game, played, int(seat_key)))
                del panels[seat_key]
        if panels != row.extra.get("panels", {}) or closed != set(
                row.extra.get("dm_closed", [])) or offered != set(
                row.extra.get("panel_offered", [])):
            await self.save_notes(row, panels=panels, dm_closed=sorted(closed),
                                  panel_offered=sorted(offered))
        return missing

    async def _send_seat(self, row: GameRow, game: Game, played: Played, seat: int,
                         notes_list: list[str], needs_panel: bool, panels: dict[str, Any],
                         closed: set[int], offered: set[int], phase: str) -> None:
        uid = row.players[seat]
        if self.bot.user is not None and uid == self.bot.user.id:
            return  # a practice bot's seat: it plays from its view, it needs no panel or DM
        notes = "\n".join(f"• {t}" for t in notes_list)
        last = panels.get(str(seat))
        view_sig = key = ""
        if needs_panel:
            same_phase = bool(last and last.get("phase") == phase and "message" in last)
            # The panel its owner just pressed becomes the next step's in place: they are
            # looking at it, so a new message would tell them nothing, and the old one would
            # still need retiring (two DM requests for one; issue #22).
            pressed = not same_phase and self._pressed(row.id, last)
            version = await self.bot.tables.panel_version(row.id, seat, row.version)
            key = self._panel_key(game, seat, version)
            if (same_phase and not notes and uid not in closed and played.by != uid
                    and last.get("key") == key):
                # Another seat's move left what this seat sees and may do as it was: its
                # panel (and what it is half-way through choosing there) stays, unbuilt.
                return
            # The picture is drawn only once it is known to be sent (a panel that did not
            # change is not edited, and a closed DM gets no picture).
            panel = await self.bare_panel(row, game, seat, version)
            view_sig = self.view_signature(game, seat)
            sig = panel.signature() + view_sig
            panel.content = (notes + "\n\n" if notes else "") + panel.content
        else:
            # Their part is done: the note goes into the panel they have, retired with it.
            text = await self._retired_text(row, game, seat)
            panel, sig, same_phase, pressed = Panel(
                (notes + "\n\n" if notes else "") + text), "", False, False
            if last and "message" in last:
                # A note must reach them; without one, retiring can wait for a click.
                if await self._edit_dm(last, panel, game_id=row.id,
                                       lazy=not notes and self._lazy(row, game, played, seat)):
                    last["retired"] = True
                    return
        if uid not in closed:
            if same_phase or pressed:
                # Unchanged (a note already shown, as when the same move is published again,
                # is no news): an edit would only reset what they were picking.
                if same_phase and last.get("sig") == sig and (
                        not notes or last.get("notes") == _digest(notes)):
                    last["key"] = key
                    return
                # The same picture is already on the message: an edit leaves it there.
                same_picture = (panel.picture is None and bool(view_sig)
                                and str(last.get("sig", "")).endswith(view_sig))
                if not same_picture and panel.picture is None:
                    panel.picture = await self.picture(row, game, seat)
                    # drawn the same as the picture on the message: that one stays
                    same_picture = panel.same_picture_as(last.get("png"), last.get("picture"))
                png = picture_digest(panel.picture) if panel.picture is not None else (
                    last.get("png", "") if same_picture else "")
                if await self._edit_dm(last, panel, keep_picture=same_picture,
                                       game_id=row.id):
                    last.update(sig=sig, notes=_digest(notes), key=key, png=png, phase=phase)
                    return
            if needs_panel and panel.picture is None:
                panel.picture = await self.picture(row, game, seat)
            sent = await self.dm(uid, row.id, **panel.send_kwargs())
            if sent is not None:
                if needs_panel:
                    if last and "message" in last and not last.get("retired"):
                        # the new phase's panel replaces it
                        await self._edit_dm(last, None, game_id=row.id,
                                            lazy=self._lazy(row, game, played, seat))
                    panels[str(seat)] = {"channel": sent.channel.id, "message": sent.id,
                                         "phase": phase, "sig": sig, "notes": _digest(notes),
                                         "picture": panel.picture_ref(), "key": key,
                                         "png": picture_digest(panel.picture)}
                return
            closed.add(uid)
        if needs_panel and played.by != uid and (not last or last.get("phase") != phase):
            panels[str(seat)] = {"phase": phase}
            if uid not in offered:  # said once a game; then the turn card's button serves
                offered.add(uid)
                await self._offer_panel_in_thread(row, game, seat)

    @staticmethod
    def _pressed(game_id: int, last: dict[str, Any] | None) -> bool:
        """Was the move being published made on this DM panel (`last`, its record)?"""
        c = carrier.carrier_for(game_id)
        message = getattr(c.interaction, "message", None) if c is not None else None
        return bool(last and not last.get("retired") and message is not None
                    and message.id == last.get("message"))

    async def _offer_panel_in_thread(self, row: GameRow, game: Game, seat: int,
                                     failed: bool = False) -> bool:
        """Offer `seat` its panel in the thread; False when even that could not be posted."""
        channel = await self.channel_of(row)
        if channel is None:
            return False
        uid = row.players[seat]
        why = ("I couldn't deliver your direct message just now" if failed else
               "I can't send you direct messages")
        try:
            await retrying(lambda: channel.send(
                f"{mention(uid)}, {why}, so your secret panel is here (only you will see it):",
                view=view_of(PanelButton(row.id)),
                # Closed DMs are told once, beside the new turn's card that pinged them: no
                # second ping for the same turn. A DM that failed mid-turn pings: nothing else
                # told them.
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(uid)] if failed else False)))
        except discord.HTTPException:
            log.warning("game %s: could not offer seat %s its panel", row.id, seat + 1)
            return False
        return True

    @staticmethod
    def _lazy(row: GameRow, game: Game, played: Played, seat: int) -> bool:
        """May `seat`'s old panel wait to be retired until it is next pressed? Yes for
        another seat's while the game goes on; the mover sees theirs change at once."""
        return game.outcome() is None and row.players[seat] != played.by

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        """A panel with nothing left to do, and truly why."""
        outcome = game.outcome()
        if outcome is not None:
            why = ("The game is over: " + (f"a draw — {outcome.reason}." if outcome.draw else
                   f"{join_names([game.name(w) for w in outcome.winners])} won — "
                   f"{outcome.reason}."))
        else:
            why = "Done here for now; the game goes on in its thread."
        return (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)})\n"
                f"```\n{game.text(seat)}\n```\n{why}")

    async def _edit_dm(self, last: dict[str, Any], panel: Panel | None, *,
                       keep_picture: bool = False, game_id: int = 0,
                       lazy: bool = False) -> bool:
        """Edit a DM panel in place; `panel=None` only takes its components away (a newer
        panel replaces it); `keep_picture`: the picture on the message stays (it shows the
        same view: `last["picture"]` names it)."""
        if "message" not in last:
            return False
        channel = self.bot.get_channel(last["channel"])
        if channel is None:
            channel = self.bot.get_partial_messageable(last["channel"])
        shown = panel if panel is not None else Panel(REPLACED_TEXT)
        if (panel is None or keep_picture) and shown.kept is None:
            shown.keeping(last.get("picture"))

        def edit_kwargs() -> dict[str, Any]:
            return shown.edit_kwargs(keep_picture=keep_picture or panel is None)
        try:
            await carrier.edit(self.bot, game_id, last["message"], edit_kwargs,
                               None if lazy else lambda make: retrying(
                                   lambda: rest_edit(channel, last["message"], **make())))
        except discord.HTTPException:
            return False
        last["picture"] = shown.picture_ref() if (keep_picture or panel is None
                                                  or shown.picture is not None) else None
        return True

    async def settle_vote_message(self, row: GameRow, channel, lines: list[str]) -> None:
        """The vote is counted: its message loses its buttons and says how it went."""
        vote_id = row.extra.get("vote_message")
        if channel is None or not vote_id or row.extra.get("vote_closed") == vote_id:
            return
        result = next((line for line in lines if line), "The vote is counted.")
        try:
            await rest_edit(channel, vote_id, content=f"🗳️ Voting is closed. {result}",
                            view=None, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            return
        await self.save_notes(row, vote_closed=vote_id)

    def vote_buttons(self, row: GameRow, game: Game) -> list[VoteButton]:
        """The buttons of the crowd vote on the current chance draw (topic `v<version>`)."""
        topic = f"v{row.version}"
        return [VoteButton(row.id, topic, tok, label)
                for tok, label in self.vote_choices(row, game, game.chance())]

    async def _post_vote(self, row: GameRow, game: Game, channel) -> None:
        if row.extra.get("vote_posted") == row.version:
            return
        # A practice bot in the game votes as a player may (never for itself), and says so.
        bot_vote = await practice.cast_vote(self.bot, row, game,
                                            self.vote_choices(row, game, game.chance()))
        msg = await retrying(lambda: channel.send(
            f"🗳️ {self.vote_topic_text(row, game)} Vote below; voting closes "
            f"<t:{int(row.deadline)}:R>. One vote each, players can't vote for themselves; a tie "
            "is settled by a die." + (f"\n{bot_vote}" if bot_vote else ""),
            view=view_of(*self.vote_buttons(row, game))))
        await self.save_notes(row, vote_posted=row.version, vote_message=msg.id)

    async def play_move(self, game_id: int, user_id: int, move: str,
                   version: int | str | None = None,
                   seen: tuple[GameRow, Game] | None = None) -> Played:
        """A player's move through the table, with "not your move" said in this server's terms
        (who, by mention, or that the crowd is voting) instead of the engine's seat numbers.
        `seen`: the game as just looked up, so the table need not read it again."""
        try:
            return await self.bot.tables.play(game_id, user_id, move, version=version,
                                              by=user_id, seen=seen)
        except NotAPlayer as e:
            row, _ = await self.bot.tables.load(game_id)
            raise NotAPlayer(self.spectator_text(row)) from e
        except NotYourTurnError as e:
            row, game = await self.bot.tables.load(game_id)
            raise NotYourTurnError(self.waiting_text(row, game, row.seat_of(user_id))) from e

    def waiting_text(self, row: GameRow, game: Game, seat: int | None) -> str:
        """Why `seat` cannot act now (games may say more: whose step it is, and what it is)."""
        if row.waits_for("vote"):
            return "It is not your move: the crowd is voting right now."
        if not [a for a in game.actors() if a != CHANCE]:
            return "It is not your move: the dice are rolling."
        return (game.prompt(seat).waiting if seat is not None else "") or game.waiting_text()

    # ---- component callbacks (from bot.ui) ---------------------------------------------------
    async def on_move_component(self, interaction: discord.Interaction, game_id: int,
                                version: int | str | None, move: str,
                                seen: tuple[GameRow, Game] | None = None) -> None:
        """Play `move` from a component (or a phrase) and answer it. `seen`: the game as the
        caller just read it to make the move (not read again; the commit still checks it)."""
        carrier.carry(game_id, interaction)
        message = interaction.message
        ephemeral_panel = message is not None and message.flags.ephemeral
        if not interaction.response.is_done() and (ephemeral_panel or version is None):
            # Answered through the interaction's own messages (an ephemeral panel's edits,
            # the typed move's private answer): "thinking" first.
            await interaction.response.defer(ephemeral=True, thinking=version is None)
        async with carrier.answered_by_the_move(interaction):
            seen = seen or await self.bot.tables.load(game_id)
            said = self.done_text(seen[1], seen[0].seat_of(interaction.user.id), move)
            played = await self.play_move(game_id, interaction.user.id, move, version,
                                          seen=seen)
            async with answering_a_move_that_stands(game_id):
                await self.answer_move(interaction, played, said, ephemeral_panel, version)

    async def answer_move(self, interaction: discord.Interaction, played: Played, said: str,
                          ephemeral_panel: bool, version: int | str | None) -> None:
        """The mover's private answer to a move made from a component or the typed form."""
        seat = played.row.seat_of(interaction.user.id)
        if ephemeral_panel:
            message = interaction.message
            if (seat in played.game.actors() and self.is_secret(played.game, seat)
                    and message is not None and message.flags.components_v2
                    and await self._next_step_in_place(interaction, played, seat, said)):
                return
            # Only the interaction can edit an ephemeral panel: retire it (saying what was
            # done, in place of a new message) and hand a fresh one.
            kw = (Panel(said).over(message).edit_kwargs()
                  if message is not None and message.flags.components_v2
                  else {"content": said, "view": None})
            try:
                await interaction.edit_original_response(**kw)
            except discord.HTTPException:
                pass
            if seat in played.game.actors() and self.is_secret(played.game, seat):
                await self.send_panel_ephemeral(interaction, played.row, played.game, seat)
            return
        if version is None:
            await interaction.followup.send(said, ephemeral=True)

    @staticmethod
    def done_text(game: Game, seat: int | None, move: str | tuple[str, ...]) -> str:
        """The private answer to a move made (or a form's moves): what it was, in the game's
        words."""
        try:
            label = "; ".join(game.describe(m, seat).label.rstrip(".") for m in (
                (move,) if isinstance(move, str) else move)) if seat is not None else ""
        except Exception:  # only words: a move the engine cannot word still stands
            label = ""
        return f"✅ Done: {label.rstrip('.')}." if label else "✅ Your move is in."

    async def _next_step_in_place(self, interaction: discord.Interaction, played: Played,
                                  seat: int, said: str) -> bool:
        """A move made on an ephemeral panel while the seat's secret step goes on: that panel
        becomes the next step's (what was done on top), as its click's own answer, rather than
        a retired panel and a fresh one; its picture stays when drawn the same (one upload, one
        message). False when the edit failed (then the fresh panel follows)."""
        message = interaction.message
        panel = await self.build_panel(played.row, played.game, seat)
        panel.content = f"{said}\n\n{panel.content}"
        shown = self._ephemeral_pictures.get(message.id)
        panel.same_picture_as(shown, Panel.from_message(message).picture_ref())
        kw = panel.edit_kwargs(keep_picture=panel.kept is not None)
        try:
            await interaction.edit_original_response(**kw)
        except discord.HTTPException:
            return False
        self._ephemeral_pictures[message.id] = (picture_digest(panel.picture)
                                                  if panel.picture is not None else shown or "")
        return True

    @functools.cached_property
    def _ephemeral_pictures(self) -> Bounded:
        """Ephemeral panel message id -> the `picture_digest` of the picture on it (what this
        process sent; a panel it does not know simply gets its picture again)."""
        return Bounded(10_000)

    async def send_panel_ephemeral(self, interaction, row: GameRow, game: Game, seat: int):
        panel = await self.build_panel(row, game, seat)
        sent = await reply(interaction, ephemeral=True, wait=True, **panel.send_kwargs())
        if getattr(sent, "id", None) and panel.picture is not None:
            self._ephemeral_pictures[sent.id] = picture_digest(panel.picture)

    async def open_panel(self, interaction: discord.Interaction, game_id: int) -> None:
        row, game = await self.find_game(interaction, game_id)
        seat = self.player_seat(row, interaction)
        await self.send_panel_ephemeral(interaction, row, game, seat)

    async def on_vote(self, interaction: discord.Interaction, game_id: int, topic: str,
                      choice: str) -> None:
        row = await self.bot.store.get_game(game_id)
        if row is None or row.status != "active" or topic != f"v{row.version}" or (
                row.deadline_kind != "vote"):
            raise RuleError("This vote is closed.")
        if interaction.guild_id is None:
            raise RuleError("Votes are cast in the game's channel.")
        seat = row.seat_of(interaction.user.id)
        if seat is not None and choice == str(seat + 1):
            raise RuleError("You can't vote for yourself — let the crowd judge!")
        if not await self.bot.store.vote(game_id, topic, interaction.user.id, choice):
            raise RuleError("You have already voted.")
        await reply(interaction, "🗳️ Vote counted. Thank you!", ephemeral=True)

    # ---- generic commands (every game's group has them) ---------------------------------------
    @app_commands.command(name="board", description="Show the board of your game here")
    async def board_command(self, interaction: discord.Interaction) -> None:
        await self.show_board(interaction)

    async def show_board(self, interaction: discord.Interaction) -> None:
        """The caller's game as picture and text, to them alone."""
        row, game = await self.find_game(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        panel = Panel(f"**{self.engine.TITLE} — game #{row.id}**\n```\n{game.text(None)}\n```",
                      picture=await self.picture(row, game, None))
        await interaction.followup.send(ephemeral=True, **panel.send_kwargs())

    @app_commands.command(name="help", description="How to play: the goal, a turn, the buttons "
                                                    "and commands")
    async def help_command(self, interaction: discord.Interaction) -> None:
        text = (f"❓ **{self.engine.TITLE} — how to play**\n\n{guide.game_help(self.KIND)}"
                if guide.has_guide(self.KIND) else f"❓ **{self.engine.TITLE}**")
        await reply(interaction, clip(text), ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())

    # ---- practice against the bot (issue #16) --------------------------------------------------
    async def _practice_duel(self, interaction: discord.Interaction,
                             level: str = practice.DEFAULT_LEVEL) -> None:
        await self.bot.lobby.practice(interaction, self.KIND, level, None)

    async def _practice_table(self, interaction: discord.Interaction,
                              level: str = practice.DEFAULT_LEVEL,
                              players: app_commands.Range[int, 2, 6] = 2) -> None:
        await self.bot.lobby.practice(interaction, self.KIND, level, players)

    def _add_practice_command(self) -> None:
        """`/<game> practice [level] [players]`: the caller against the bot, which takes every
        other seat; `players` only in games for more than two (up to the game's maximum)."""
        many = self.engine.MAX_PLAYERS > 2
        cmd = app_commands.Command(
            name="practice", description="Play against me (the bot) to practise: easy, normal "
            "or hard", callback=GameCog._practice_table if many else GameCog._practice_duel)
        cmd = app_commands.describe(level="How well I play (default normal)", **(
            {"players": "Seats at the table, yours included; I take the others (default 2)"}
            if many else {}))(cmd)
        cmd = app_commands.choices(level=PRACTICE_LEVELS)(cmd)
        # The game's own maximum in Discord's picker (discord.py keeps no public setter; if
        # its internals move, the picker offers 6 and the lobby refuses what is too many).
        players = getattr(cmd, "_params", {}).get("players")
        if players is not None:
            players.max_value = self.engine.MAX_PLAYERS
        cmd.binding = self
        self.__cog_app_commands_group__.add_command(cmd)
        self.__cog_app_commands__.append(cmd)

    @app_commands.command(name="panel", description="Open your secret panel (only you see it)")
    async def panel_command(self, interaction: discord.Interaction) -> None:
        row, game = await self.find_game(interaction)
        seat = self.player_seat(row, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.send_panel_ephemeral(interaction, row, game, seat)

    @app_commands.command(name="move", description="Make a move in the game's notation")
    @app_commands.describe(move="The move, e.g. as listed by autocomplete")
    async def move_command(self, interaction: discord.Interaction,
                           move: app_commands.Range[str, 1, 200]) -> None:
        row, game = await self.find_game(interaction)
        carrier.carry(row.id, interaction)
        said = self.done_text(game, row.seat_of(interaction.user.id), move)
        if place.only_interactions(row):
            # Answered at once, so the table's new card can be this command's follow-up:
            # nothing else reaches a channel the bot is not in.
            caught_up = await self.catch_up(interaction, row.id)
            if not interaction.response.is_done():
                await interaction.response.send_message("⏳ Playing your move…",
                                                        ephemeral=True)
            try:
                await self.play_move(row.id, interaction.user.id, move,
                                     seen=None if caught_up else (row, game))
            except RuleError as e:  # the answer says so in place of "Playing your move…"
                await interaction.edit_original_response(content=f"❌ {e.message}")
                return
            async with answering_a_move_that_stands(row.id):
                await interaction.edit_original_response(content=said)
            return
        async with carrier.answered_in_time(interaction, thinking=True):
            await self.play_move(row.id, interaction.user.id, move, seen=(row, game))
        async with answering_a_move_that_stands(row.id):
            await carrier.reply(interaction, said)

    @move_command.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, moves = found
        menu = game.menu(seat)
        return legal_choices(moves, current, lambda m: menu_label(menu, m))

    async def legal_for(self, interaction: discord.Interaction
                        ) -> tuple[Game, int, list[str]] | None:
        """For autocomplete: the caller's game, seat and legal moves; None (never an error)
        when they have no game here or no seat in it."""
        try:
            row, game = await self.find_game(interaction)
        except RuleError:
            return None
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            return None
        return game, seat, game.legal(seat)


def card_record(panel: Panel, png: str = "") -> dict[str, Any]:
    """What a turn card shows, kept with the turn: the next turn takes its buttons off by
    sending it again without them (a V2 card cannot just drop its components); `png`, the
    `picture_digest` of its picture (an edit drawing the same one keeps it)."""
    return {"text": panel.content, "status": panel.status, "accent": panel.accent,
            "picture": panel.picture_ref(), "png": png}


def card_panel(card: dict[str, Any] | None) -> Panel | None:
    """The retired (buttonless) card of a `card_record`; None when none was kept."""
    if not card:
        return None
    return Panel(card.get("text", ""), accent=card.get("accent"), status=card.get("status", "")
                 ).keeping(card.get("picture")).retired()


@contextlib.asynccontextmanager
async def answering_a_move_that_stands(game_id: int):
    """Around the answer to a committed move: if Discord loses it, the move still stands, so
    nobody is told "something went wrong" (the board and panels show the move); one line in
    the log, no traceback."""
    try:
        yield
    except discord.HTTPException as e:
        log.info("game %s: the answer to a move that stands was lost (%s %s)", game_id,
                 e.status, getattr(e, "code", ""))


def legal_choices(moves: list[str], current: str,
                  label=lambda m: m) -> list[app_commands.Choice[str]]:
    """Autocomplete: the legal moves containing what was typed, at most 25."""
    key = current.lower().strip()
    hits = [m for m in moves if key in m.lower() or key in label(m).lower()] if key else moves
    return [app_commands.Choice(name=label(m)[:100], value=m[:100]) for m in hits[:25]]


def menu_label(menu: Menu, move: str) -> str:
    """A move as autocomplete lists it: the engine's words, then the notation it fills in."""
    item = menu.item(move)
    return f"{item.label} · {move}" if item is not None and item.label != move else move
