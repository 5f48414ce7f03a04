"""Rematch (issue #25): the end-of-game message carries a **Rematch** button. A former player's
click asks everyone who played for the same game again: same options, seats rotated (who went
first goes last; per-seat options follow their players), or in KAPLOOM! the sides swapped (the
teams stay together). It is a challenge like any other (bot/lobby.py): every former player must
accept, it expires, strangers are refused; when the last one accepts, the game starts in a new
thread. Against the practice bot, the bot accepts at once and the new game starts straight away.
"""
from __future__ import annotations

import re
import time
from typing import Any

import discord

from . import place, practice
from .engine import load
from .engine.core import RuleError
from .lobby import CHALLENGE_SECONDS, begin_practice
from .ui import guarded

# A rematch already asked for (or started) from this game: its challenge id, on the old game.
REMATCH_KEY = "rematch"


def rotated(kind: str, players: list[int], options: dict[str, Any]
            ) -> tuple[list[int], dict[str, Any]]:
    """The rematch's seats and options, as the game has them (`Game.rematch`: most games move
    each player one seat on; KAPLOOM! swaps sides instead)."""
    order, options = load(kind).rematch(len(players), options)
    return [players[i] for i in order], options


class RematchButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"rm:(?P<gid>[0-9]{1,18})"):
    """The end message's Rematch button (works after a restart: the game id is in it)."""

    def __init__(self, game_id: int):
        self.game_id = game_id
        super().__init__(discord.ui.Button(label="Rematch", emoji="🔁",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"rm:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await ask(interaction, self.game_id)
        await guarded(interaction, work)


def end_items(bot: Any, row: Any, game: Any) -> list[discord.ui.Item]:
    """What the end-of-game message offers: the Rematch button (not for a game the bot
    finished for an abandoned seat: that table broke up)."""
    if (row.extra or {}).get("zombie"):
        return []
    return [RematchButton(row.id)]


async def ask(interaction: discord.Interaction, game_id: int) -> None:
    bot = interaction.client
    store = bot.store
    lobby = bot.lobby
    row = await store.get_game(game_id)
    if row is None or row.status != "finished":
        raise RuleError("Only a finished game can be played again.")
    user = interaction.user
    if user.id not in row.players:
        raise RuleError(f"Only the players of game #{row.id} can ask for its rematch; start "
                        f"your own game with `/{row.kind} challenge`.")
    asked = (row.extra or {}).get(REMATCH_KEY)
    if asked:
        ch = await store.get_challenge(int(asked))
        if ch is not None and (ch["status"] in ("starting", "accepted") or (
                ch["status"] == "open" and ch["expires_at"] > time.time())):
            where = (f"game #{ch['game_id']}" if ch.get("game_id") else
                     "the rematch message above")
            raise RuleError(f"A rematch of game #{row.id} is already on: see {where}.")
    players, options = rotated(row.kind, list(row.players), dict(row.options))
    level = (row.extra or {}).get(practice.PRACTICE_KEY)
    me = bot.user
    if level and me is not None and me.id in row.players:
        await _practice_rematch(interaction, row, players, options, level)
        return
    here = place.of_row(row) != place.THREAD
    home = None if here else (bot.get_channel(row.channel_id)
                              or await bot.fetch_channel(row.channel_id))
    await lobby._check_open_count(user.id, table=False)
    cls = load(row.kind)
    note = (f"🔁 Rematch of game #{row.id}: every player presses Accept; seats: "
            + ", ".join(f"<@{u}>" for u in players) + ".")
    cid = await store.create_challenge(
        row.kind, row.guild_id, row.channel_id, user.id, players, options, len(players),
        len(players),
        time.time() + CHALLENGE_SECONDS, note=note)
    await store.update_extra(row.id, **{REMATCH_KEY: cid})
    ch = await store.get_challenge(cid)
    if home is None:
        # The game was played right in this channel (bot/place.py): the rematch is the
        # button's own reply, as a challenge there is the command's.
        await interaction.response.send_message(
            lobby.challenge_text(ch), view=lobby.buttons(ch),
            allowed_mentions=discord.AllowedMentions(users=True))
        msg = await interaction.original_response()
        await store.update_challenge(cid, message_id=msg.id)
        lobby._arm(cid, ch["expires_at"])
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    msg = await home.send(lobby.challenge_text(ch), view=lobby.buttons(ch),
                          allowed_mentions=discord.AllowedMentions(users=True))
    await store.update_challenge(cid, message_id=msg.id)
    lobby._arm(cid, ch["expires_at"])
    await interaction.followup.send(
        f"🔁 Rematch of **{cls.TITLE}** asked in {home.mention}: it starts when every player "
        "has accepted.", ephemeral=True)


async def _practice_rematch(interaction: discord.Interaction, row: Any, players: list[int],
                            options: dict[str, Any], level: str) -> None:
    """Against the practice bot: it accepts at once; the same level, seats rotated."""
    bot = interaction.client
    await bot.lobby.check_practice_room(interaction.user.id, "ask for the rematch again")
    await begin_practice(interaction, place.of_row(row) != place.THREAD,
                         f"🔁 Rematch against me, level **{level}**: the table is below.")
    names = bot.lobby.practice_names(players, interaction.user)
    played, thread = await bot.lobby.open_game(
        interaction, row.kind, players, options, guild_id=row.guild_id,
        channel_id=row.channel_id, names=names, extra={practice.PRACTICE_KEY: level},
        label=" (practice)")
    await bot.store.update_extra(row.id, **{REMATCH_KEY: 0})
    if thread is None:
        return
    await interaction.followup.send(
        f"🔁 Rematch against me, level **{level}**: game #{played.row.id} is on in "
        f"{thread.mention}.", ephemeral=True)


DYNAMIC_ITEMS = (RematchButton,)

__all__ = ["RematchButton", "end_items", "ask", "rotated", "DYNAMIC_ITEMS", "REMATCH_KEY"]
