"""Challenges and open tables: how a game gets its players, its thread and its start.

A two-player challenge names an opponent, who may Accept or Decline; the challenger may
Cancel; it expires after ten minutes. A game for more players opens a table with Join /
Leave, and its host presses Start. Either way the game gets its own public thread. Challenges
live in the store, so their buttons and expiry survive a restart.
"""
from __future__ import annotations

import logging
import time
from typing import Any

import discord

from . import carrier, place, practice, ratings
from .engine import load
from .engine.core import RuleError
from .names import plain_name, safe_name
from .ui import ChallengeButton, view_of

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 600
# A challenge still 'starting' this long after its time, with no game, lost the process that
# was starting it: the sweep closes it.
STARTING_GRACE = 300.0
# How many unanswered challenges, and open tables, one person may have at once.
MAX_OPEN_CHALLENGES = 3
MAX_OPEN_TABLES = 2
# Answered, cancelled and expired challenges are deleted a day after their time ended.
PURGE_AFTER = 86400.0
PURGE_EVERY = 3600.0

JOIN_REFUSALS = {"closed": "This challenge is no longer open.",
                 "already": "You are already at this table.",
                 "full": "This table is full."}
LEAVE_REFUSALS = {"closed": "This challenge is no longer open.",
                  "host": "The host can't leave; cancel the table instead.",
                  "absent": "You have not joined this table."}


def describe_options(kind: str, options: dict[str, Any]) -> str:
    """The options that differ from the defaults, for the challenge message."""
    cls = load(kind)
    changed = [f"{o.name}={options[o.name]}" for o in cls.OPTIONS
               if o.name in options and options[o.name] != o.default]
    return f" (options: {', '.join(changed)})" if changed else ""


def is_rematch(ch: dict[str, Any]) -> bool:
    """A rematch (bot/rematch.py) invites every former player, its asker too, in the new
    seats' order; each must accept."""
    return ch["host_id"] in ch["invited"]


class Lobby:
    def __init__(self, bot: Any):
        self.bot = bot
        self._purged_at = 0.0
        # Expiry runs on the table's one scheduler (no task per challenge): whichever process
        # sees a challenge's time up first claims it, so it expires once.
        tables = getattr(bot, "tables", None)
        if tables is not None:
            tables.due_hooks.append(self.expire_due)

    @property
    def store(self):
        return self.bot.store

    # ---- opening -------------------------------------------------------------------------------
    async def challenge(self, interaction: discord.Interaction, kind: str,
                        opponent: discord.abc.User | None, options: dict[str, Any], *,
                        players: int | None = None, note: str = "") -> None:
        """`/<game> challenge`: with an opponent, a challenge; without, an open table (for
        exactly `players` when given, e.g. a 2 vs 2). `note` stays under the table's text."""
        cls = load(kind)
        home = self._home(interaction)
        me = self.bot.user
        if place.place_of(interaction) == place.BOT_DM and not (
                opponent is not None and me is not None and opponent.id == me.id):
            raise RuleError("Only you and I are in this DM: challenge someone in a server or a "
                            f"group DM, or practise against me here with `/{kind} practice`.")
        if opponent is not None and me is not None and opponent.id == me.id:
            # "Challenge the bot": it accepts at once, as a practice game at the usual level.
            await self.practice(interaction, kind, practice.DEFAULT_LEVEL, None, options)
            return
        options = cls.parse_options(options)  # OptionError: a clear message, nothing created
        host = interaction.user
        await self._check_open_count(host.id, table=opponent is None)
        if opponent is not None:
            if opponent.id == host.id:
                raise RuleError("You can't challenge yourself: pick another player.")
            if opponent.bot:
                raise RuleError("Bots don't play dice: challenge a person.")
            member = opponent if isinstance(opponent, discord.Member) else (
                interaction.guild.get_member(opponent.id) if interaction.guild else None)
            # Where the bot is not a member it sees no channel permissions: whoever was
            # offered as the opponent option is someone the channel knows.
            if home is not None and (member is None or not home.permissions_for(member)
                                     .view_channel):
                raise RuleError(f"{opponent.display_name} can't see this channel, so they "
                                "couldn't play here. Challenge them in a channel you share.")
            if cls.MIN_PLAYERS > 2:
                raise RuleError(f"{cls.TITLE} needs {cls.MIN_PLAYERS} or more players: start "
                                "an open table (leave out the opponent) and let them join.")
        if players is not None and not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
            raise RuleError(f"{cls.TITLE} is for {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players.")
        low, high = (2, 2) if opponent else (players or cls.MIN_PLAYERS,
                                             players or cls.MAX_PLAYERS)
        cid = await self.store.create_challenge(
            kind, interaction.guild_id, home.id if home else interaction.channel_id, host.id,
            [opponent.id] if opponent else [],
            options, low, high, time.time() + CHALLENGE_SECONDS, note=note or None)
        ch = await self.store.get_challenge(cid)
        await interaction.response.send_message(self.challenge_text(ch), view=self.buttons(ch),
                                                allowed_mentions=discord.AllowedMentions(
                                                    users=True))
        msg = await interaction.original_response()
        if msg.flags.ephemeral:
            # The server lets an app added to an account answer its user alone ("Use External
            # Apps" is off here): nobody else could see the challenge, let alone accept it.
            await self.store.claim_challenge(cid, "open", "cancelled")
            await interaction.followup.send(
                "⚠️ This server lets apps added to an account answer only the person who used "
                "them, so nobody else can see this challenge. It is called off: play in a group "
                "DM, or ask the server to add the referee.", ephemeral=True)
            return
        await self.store.update_challenge(cid, message_id=msg.id, channel_id=msg.channel.id)
        self._arm(cid, ch["expires_at"])

    async def _check_open_count(self, user_id: int, *, table: bool) -> None:
        """One person may not flood a channel: at most MAX_OPEN_CHALLENGES challenges and
        MAX_OPEN_TABLES open tables waiting at once (each one pings or fills the channel)."""
        duels, tables = await self.store.open_challenges_of(user_id, time.time())
        if table and tables >= MAX_OPEN_TABLES:
            raise RuleError(f"You have {tables} open tables waiting already (at most "
                            f"{MAX_OPEN_TABLES} at once). Start or Cancel one of them, or wait "
                            "until one closes, then open another.")
        if not table and duels >= MAX_OPEN_CHALLENGES:
            raise RuleError(f"You have {duels} challenges waiting for an answer already (at "
                            f"most {MAX_OPEN_CHALLENGES} at once). Cancel one with its Cancel "
                            "button, or wait for an answer, then challenge again.")

    def challenge_text(self, ch: dict[str, Any]) -> str:
        title = load(ch["kind"]).TITLE
        opts = describe_options(ch["kind"], ch["options"])
        ends = f"<t:{int(ch['expires_at'])}:R>"
        if is_rematch(ch):
            waiting = [u for u in ch["invited"] if u not in ch["joined"]]
            accepted = [u for u in ch["invited"] if u in ch["joined"]]
            return (f"🔁 <@{ch['host_id']}> asks for a rematch of **{title}**{opts}: "
                    + ", ".join(f"<@{u}>" for u in waiting) + " — press Accept (or Decline). "
                    + (f"Accepted: {', '.join(f'<@{u}>' for u in accepted)}. "
                       if accepted else "")
                    + f"Seats: {', '.join(f'<@{u}>' for u in ch['invited'])}. "
                    f"It expires {ends}.")
        if ch["invited"]:
            bang = "" if (opts or title).endswith("!") else "!"  # "KAPLOOM!", not "KAPLOOM!!"
            return (f"🎲 <@{ch['invited'][0]}>, <@{ch['host_id']}> challenges you to "
                    f"**{title}**{opts}{bang} Accept or decline; this challenge expires {ends}.")
        joined = ", ".join(f"<@{u}>" for u in ch["joined"])
        count = (str(ch["min_players"]) if ch["min_players"] == ch["max_players"]
                 else f"{ch['min_players']}–{ch['max_players']}")
        note = f"\n{ch['note']}" if ch.get("note") else ""
        return (f"🎲 <@{ch['host_id']}> opens a table of **{title}**{opts} for {count} "
                f"players. Joined: {joined}. The host starts the game; the table closes "
                f"{ends}.{note}")

    def buttons(self, ch: dict[str, Any]) -> discord.ui.View:
        actions = ("accept", "decline", "cancel") if ch["invited"] else (
            "join", "leave", "start", "cancel")
        return view_of(*(ChallengeButton(ch["id"], a) for a in actions))

    # ---- answers ---------------------------------------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, cid: int, action: str) -> None:
        ch = await self.store.get_challenge(cid)
        if ch is None or ch["status"] != "open" or ch["expires_at"] <= time.time():
            raise RuleError("This challenge is no longer open.")
        user = interaction.user
        if action == "cancel":
            if user.id != ch["host_id"]:
                raise RuleError("Only the challenger can cancel this.")
            await self._close(interaction, ch, "cancelled", "🚫 Cancelled by the challenger.")
        elif action == "decline":
            if user.id not in ch["invited"]:
                raise RuleError("This challenge is not addressed to you.")
            await self._close(interaction, ch, "declined", f"❌ {user.mention} declined.")
        elif action == "accept":
            if user.id not in ch["invited"]:
                if is_rematch(ch):
                    raise RuleError("This rematch is for the players of the last game; start "
                                    "your own with the game's `challenge` command.")
                raise RuleError(f"This challenge is for <@{ch['invited'][0]}>; start your own "
                                "with the game's `challenge` command.")
            if is_rematch(ch):
                # Every former player accepts (bot/rematch.py); the last one starts it.
                outcome, ch = await self.store.join_challenge(cid, user.id)
                if outcome == "already":
                    raise RuleError("You have accepted already; waiting for the others.")
                if outcome != "joined":
                    raise RuleError(JOIN_REFUSALS[outcome])
                if set(ch["invited"]) <= set(ch["joined"]):
                    await self._start(interaction, ch)
                else:
                    await interaction.response.edit_message(content=self.challenge_text(ch))
                return
            await self._start(interaction, ch, accepting=user.id)
        elif action == "join":
            if user.bot:
                raise RuleError("Bots don't play dice.")
            # One atomic step in the store: twenty simultaneous clicks are each stored or
            # refused, never lost to a read-modify-write of the list.
            outcome, ch = await self.store.join_challenge(cid, user.id)
            if outcome != "joined":
                raise RuleError(JOIN_REFUSALS[outcome])
            await interaction.response.edit_message(content=self.challenge_text(ch))
        elif action == "leave":
            outcome, ch = await self.store.leave_challenge(cid, user.id)
            if outcome != "left":
                raise RuleError(LEAVE_REFUSALS[outcome])
            await interaction.response.edit_message(content=self.challenge_text(ch))
        elif action == "start":
            if user.id != ch["host_id"]:
                raise RuleError("Only the host can start the game.")
            if len(ch["joined"]) < ch["min_players"]:
                raise RuleError(f"At least {ch['min_players']} players are needed; "
                                f"{len(ch['joined'])} joined so far.")
            await self._start(interaction, ch)

    async def _close(self, interaction: discord.Interaction, ch: dict[str, Any], status: str,
                     note: str) -> None:
        if not await self.store.claim_challenge(ch["id"], "open", status):
            raise RuleError("This challenge is no longer open.")
        self._disarm(ch["id"])
        await interaction.response.edit_message(content=self.challenge_text(ch) + "\n" + note,
                                                view=None)

    async def _start(self, interaction: discord.Interaction, ch: dict[str, Any],
                     accepting: int | None = None) -> None:
        # Claim first: a double click, or Accept racing Cancel, starts at most one game.
        if not await self.store.claim_challenge(ch["id"], "open", "starting"):
            raise RuleError("This challenge is no longer open.")
        # All or nothing: until the game exists, any failure (the click's reply lost in an
        # outage, the thread refused, the database) puts the challenge back as it was, open,
        # its buttons working and its expiry running. Never left 'starting' with no game.
        try:
            # Read the table again now that nobody can join or leave it any more: a Join that
            # landed between the host's click and the claim plays too.
            ch = await self.store.get_challenge(ch["id"]) or ch
            if accepting is not None and accepting not in ch["joined"]:
                ch["joined"] = ch["joined"] + [accepting]
            await interaction.response.defer()
            # A rematch seats its players as it was asked (rotated); others in joining order.
            seats = list(ch["invited"]) if is_rematch(ch) else ch["joined"]
            played, thread = await self.open_game(interaction, ch["kind"], seats,
                                                  ch["options"], guild_id=ch["guild_id"],
                                                  channel_id=ch["channel_id"])
        except BaseException:
            await self._reopen(ch)
            raise
        # The game exists: from here on nothing undoes it, and nothing fails the click.
        try:
            await self.store.update_challenge(ch["id"], status="accepted", joined=ch["joined"],
                                              game_id=played.row.id)
        except Exception:
            log.exception("challenge %s: game #%s started, but the challenge could not be "
                          "marked accepted", ch["id"], played.row.id)
        self._disarm(ch["id"])
        content = self.challenge_text(ch) + f"\n✅ Game #{played.row.id} is on {on_at(thread)}!"
        try:
            await interaction.edit_original_response(content=content, view=None)
        except discord.HTTPException:
            # The click's reply is lost; the challenge message itself can still be edited, so
            # its buttons do not stay on a challenge that is over.
            await self._edit_message(ch, content)

    async def _reopen(self, ch: dict[str, Any]) -> None:
        """A start that failed before its game existed: the challenge is open again."""
        try:
            if await self.store.claim_challenge(ch["id"], "starting", "open"):
                self._arm(ch["id"], ch["expires_at"])
        except Exception:  # the sweep closes it once its time is over (STARTING_GRACE)
            log.exception("challenge %s: could not reopen it after a failed start", ch["id"])

    async def _edit_message(self, ch: dict[str, Any], content: str) -> bool:
        """Edit a challenge's message by REST (no interaction needed) and retire its buttons."""
        if not ch.get("message_id"):
            return False
        # Another shard's process may own the channel: REST needs no cached channel.
        channel = (self.bot.get_channel(ch["channel_id"])
                   or self.bot.get_partial_messageable(ch["channel_id"]))
        if channel is None:
            return False
        try:
            await channel.get_partial_message(ch["message_id"]).edit(content=content, view=None)
        except discord.HTTPException:
            log.info("challenge %s: could not edit its message", ch["id"])
            return False
        return True

    async def open_game(self, interaction: discord.Interaction, kind: str, players: list[int],
                        options: dict[str, Any], *, guild_id: int | None, channel_id: int,
                        names: list[str] | None = None, extra: dict[str, Any] | None = None,
                        label: str = "") -> tuple[Any, discord.Thread | None]:
        """The one way a game starts: its public thread in the channel (none where the game
        is played in the channel itself, bot/place.py), the seats' names, the cog's last word
        on the options, the table's first state and first publish. `names`: the seats' names
        when they are not the players' display names (the bot's seats); `label` follows the
        players' names in the thread's title."""
        title = load(kind).TITLE
        if guild_id and await self.store.rating_off(guild_id, kind):
            # The server switched rating off for this game (/games rating): it starts unrated
            # and stays so (a rebuild reads the same note).
            extra = {**(extra or {}), ratings.UNRATED_KEY: "off"}
        seat_names = names or [safe_name(await self._name(interaction, u)) for u in players]
        where = place.place_of(interaction)
        if where != place.THREAD:
            # No thread: the table is this channel, and its first message rides on the
            # interaction that starts it (where the bot is not a member, nothing else can).
            carrier.carry(None, interaction)
            return await self._create(kind, players, options, guild_id, channel_id, None,
                                      seat_names, {**(extra or {}), place.KEY: where}), None
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        who = load(kind).versus([plain_name(n) for n in seat_names], options)
        try:
            thread = await channel.create_thread(
                name=f"{title}: {who}{label}"[:100], type=discord.ChannelType.public_thread,
                auto_archive_duration=1440)
        except discord.Forbidden:
            raise RuleError("I can't create a thread in this channel. Give me the Create Public "
                            "Threads and Send Messages in Threads permissions, then try again.")
        try:
            played = await self._create(kind, players, options, guild_id, channel_id, thread.id,
                                        seat_names, extra)
        except BaseException:
            # No game: the thread says so rather than stand empty (the caller tells the
            # players what happened, and a challenge is open again).
            try:
                await thread.send("⚠️ This game could not start, so nothing will happen in "
                                  "this thread; its challenge or table is open again.")
            except discord.HTTPException:
                pass
            raise
        return played, thread

    async def _create(self, kind: str, players: list[int], options: dict[str, Any],
                      guild_id: int | None, channel_id: int, thread_id: int | None,
                      names: list[str], extra: dict[str, Any] | None) -> Any:
        cog = getattr(self.bot, "game_cogs", {}).get(kind)
        if cog is not None:
            options = await cog.prepare_options(dict(options), list(players))
        return await self.bot.tables.create(
            kind, list(players), options, guild_id=guild_id, channel_id=channel_id,
            thread_id=thread_id, names=names, extra=extra)

    # ---- practice: the bot takes the other seats ------------------------------------------------
    async def practice(self, interaction: discord.Interaction, kind: str, level: str | None,
                       players: int | None, options: dict[str, Any] | None = None) -> None:
        """`/<game> practice` (and a challenge naming the bot): the caller in seat 1, the bot
        in every other seat, in a thread of its own like any game. Die-Men is simulated."""
        cls = load(kind)
        home = self._home(interaction)
        level = practice.check_level(level)
        n = practice.check_players(kind, players)
        options = practice.check_options(kind, n, practice.practice_options(kind, n, options))
        me = self.bot.user
        person = interaction.user
        if person.bot:
            raise RuleError("Bots don't play dice.")
        await self.check_practice_room(person.id, "start another")
        note = f" {cls.PRACTICE_NOTE}" if cls.PRACTICE_NOTE else ""
        if home is not None:
            perms = home.permissions_for(home.guild.me)
            if not (perms.create_public_threads and perms.send_messages_in_threads):
                raise RuleError("I can't create a thread in this channel. Give me the Create "
                                "Public Threads and Send Messages in Threads permissions, then "
                                "try again.")
        await begin_practice(interaction, home is None,
                             f"🎯 Practice **{cls.TITLE}** against me, level **{level}**: the "
                             f"table is below.{note} Good luck!")
        players = [person.id] + [me.id] * (n - 1)
        played, thread = await self.open_game(
            interaction, kind, players, options, guild_id=interaction.guild_id,
            channel_id=home.id if home else interaction.channel_id,
            names=self.practice_names(players, person), extra={practice.PRACTICE_KEY: level},
            label=" (practice)")
        if thread is None:
            return
        await interaction.followup.send(
            f"🎯 Practice **{cls.TITLE}** against me, level **{level}**: game #{played.row.id} "
            f"is on in {thread.mention}.{note} Good luck!", ephemeral=True)

    async def check_practice_room(self, user_id: int, then: str) -> None:
        """One person has at most practice.MAX_OPEN practice games open at once; `then`: what
        they may do once one is closed ("start another")."""
        me = self.bot.user
        mine = [r for r in await self.store.games_of_user(user_id)
                if r.extra.get(practice.PRACTICE_KEY) and me.id in r.players]
        if len(mine) >= practice.MAX_OPEN:
            raise RuleError(f"You have {len(mine)} practice games open already (most at once: "
                            f"{practice.MAX_OPEN}). Finish one, or resign it with "
                            f"`/games resign`, then {then}.")

    def practice_names(self, players: list[int], person: discord.abc.User) -> list[str]:
        """The seats' names of a practice game: the person's, and the bot's (numbered when it
        takes several seats)."""
        me = self.bot.user
        bot_name = safe_name(getattr(me, "display_name", None) or me.name, "Referee")
        bots = sum(1 for u in players if u == me.id)
        names, k = [], 0
        for uid in players:
            if uid == me.id:
                k += 1
                names.append(bot_name if bots == 1 else f"{bot_name} {k}")
            else:
                names.append(safe_name(person.display_name))
        return names

    @staticmethod
    def _home(interaction: discord.Interaction) -> discord.TextChannel | None:
        """The text channel a new game's thread goes in (the parent, when asked in a thread);
        None where the game is played in the channel itself (bot/place.py)."""
        if place.place_of(interaction) != place.THREAD:
            return None
        if interaction.guild is None:
            raise RuleError("Games are played in a server channel, not in direct messages.")
        channel = interaction.channel
        home = channel.parent if isinstance(channel, discord.Thread) else channel
        if not isinstance(home, discord.TextChannel):
            raise RuleError("Start games in a text channel: each game gets its own thread there.")
        return home

    async def _name(self, interaction: discord.Interaction, user_id: int) -> str:
        if interaction.user.id == user_id:
            return interaction.user.display_name
        guild = interaction.guild
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None and place.place_of(interaction) == place.THREAD:
            try:  # no members intent: the cache may not know the other player
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        if member is not None:
            return member.display_name
        # Where the bot is not a member (a group DM, a server that did not add it) it sees no
        # members, but every user has a name.
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        except discord.HTTPException:
            return "a player"
        return user.display_name

    # ---- expiry ----------------------------------------------------------------------------------
    def _arm(self, cid: int, expires_at: float) -> None:
        tables = getattr(self.bot, "tables", None)
        if tables is not None:
            tables.wake_at(expires_at)

    def _disarm(self, cid: int) -> None:
        """Nothing to cancel: an answered challenge is no longer open, so it never expires."""

    async def expire_due(self) -> int:
        """Expire every open challenge whose time is up, and every one a dead process left
        'starting'; now and then delete the rows of challenges over for a day. How many this
        process expired."""
        now = time.time()
        done = 0
        for cid in await self.store.due_challenges(now):
            done += await self.expire(cid)
        for cid in await self.store.stuck_challenges(now - STARTING_GRACE):
            done += await self.expire(cid, "starting")
        if now - self._purged_at >= PURGE_EVERY:
            self._purged_at = now
            purged = await self.store.purge_challenges(now - PURGE_AFTER)
            if purged:
                log.info("deleted %s challenges over for more than a day", purged)
        return done

    async def expire(self, cid: int, status: str = "open") -> bool:
        """Close an unanswered challenge (or one whose start was lost: `status` 'starting')
        and say so on its message."""
        ch = await self.store.get_challenge(cid)
        if ch is None or not await self.store.claim_challenge(cid, status, "expired"):
            return False
        await self._edit_message(ch, self.challenge_text(ch)
                                 + "\n⌛ Expired: nobody answered in time.")
        return True

    async def resume(self) -> int:
        """After a restart: expire what fell due meanwhile; the scheduler watches the rest."""
        await self.expire_due()
        open_ = await self.store.open_challenges()
        if open_:
            self._arm(open_[0]["id"], open_[0]["expires_at"])
        # A practice game the bot must move in: its answer was lost with the last process.
        await practice.resume(self.bot)
        return len(open_)

    def close(self) -> None:
        practice.close(self.bot)


def on_at(thread: discord.Thread | None) -> str:
    """Where a game that just started is: its thread, or right here."""
    return f"in {thread.mention}" if thread is not None else "here: its table is below"


async def begin_practice(interaction: discord.Interaction, here: bool, text: str) -> None:
    """Answer the start of a practice game. Played right here (bot/place.py): say `text` first,
    so the table's first message is a follow-up of its own (bot/carrier.py), right below. In a
    thread: think, privately (the thread is the public part, and a late refusal stays
    private)."""
    if here:
        await interaction.response.send_message(text, ephemeral=True)
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
