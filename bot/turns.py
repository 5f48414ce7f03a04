"""`/games mine` (my running games: whose turn, time left, a jump link to each turn message) and
each player's own setting for how they are told it is their turn (issue #25):

- `ping` (the default): the new turn message mentions them in the game's thread;
- `dm`: no mention; the bot sends them a direct message with a link to the turn message;
- `none`: neither (they look with `/games mine`).

The setting is kept in the store (`player_prefs`); `GameCog._post_turn` asks `split` whom to
mention and hands `send_dms` the rest once the turn message exists.
"""
from __future__ import annotations

import logging
import time
from typing import Any

import discord

from .engine import load
from .engine.core import CHANCE
from .ui import reply

log = logging.getLogger(__name__)

NOTICES = {"ping": "a ping in the game's thread", "dm": "a direct message from me",
           "none": "nothing (look with `/games mine`)"}
# How long a process trusts what it read of a player's setting (another process may change it;
# this one forgets its own copy at once when the change is made here).
CACHE_SECONDS = 60.0


def _cache(store: Any) -> dict[int, tuple[float, str]]:
    """This process's memory of the settings, kept with the store it read them from."""
    memo = getattr(store, "_turn_notice_memo", None)
    if memo is None:
        memo = {}
        store._turn_notice_memo = memo
    return memo


def jump_link(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str:
    if not channel_id:
        return ""
    base = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


async def notices(store: Any, user_ids: list[int]) -> dict[int, str]:
    """Each player's setting, from this process's short memory or the store (one query for
    all the players it does not remember)."""
    now = time.monotonic()
    memo = _cache(store)
    out, missing = {}, []
    for uid in user_ids:
        hit = memo.get(uid)
        if hit and now - hit[0] < CACHE_SECONDS:
            out[uid] = hit[1]
        else:
            missing.append(uid)
    if missing:
        for uid, notice in (await store.turn_notices(missing)).items():
            memo[uid] = (now, notice)
            out[uid] = notice
    return out


async def split(bot: Any, pinged: list[Any]) -> tuple[list[Any], list[int]]:
    """Of the players a new turn message would mention: (those to mention, those to DM)."""
    if not pinged:
        return pinged, []
    try:
        wants = await notices(bot.store, [o.id for o in pinged])
    except Exception:
        log.exception("could not read the players' turn notices; pinging")
        return pinged, []
    return ([o for o in pinged if wants.get(o.id, "ping") == "ping"],
            [o.id for o in pinged if wants.get(o.id) == "dm"])


async def send_dms(bot: Any, row: Any, game: Any, user_ids: list[int], message: Any) -> None:
    """A short DM with a link to the turn message, to each player who asked for one. A closed
    DM is not an error: the turn message is there all the same."""
    if not user_ids:
        return
    link = jump_link(row.guild_id, row.where, getattr(message, "id", None))
    text = (f"🎲 Your turn in **{game.TITLE}** game #{row.id}"
            + (f" (time runs out <t:{int(row.deadline)}:R>)" if row.deadline else "")
            + f": {link}")
    for uid in user_ids:
        try:
            user = bot.get_user(uid) or await bot.fetch_user(uid)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("game %s: could not DM user %s that it is their turn", row.id, uid)


# ---- /games mine --------------------------------------------------------------------------------
async def mine_text(bot: Any, user_id: int, guild_id: int | None) -> str:
    rows = await bot.store.games_of_user(user_id)
    if guild_id is not None:
        rows = [r for r in rows if r.guild_id == guild_id]
    if not rows:
        return ("You have no running games here. Start one with `/<game> challenge` or "
                "`/<game> practice`.")
    mine, others = [], []
    for row in rows:
        try:
            game = load(row.kind).from_json(row.state)
            actors = game.actors()
        except Exception:
            log.exception("game %s could not be read for /games mine", row.id)
            continue
        seats = [a for a in actors if a != CHANCE]
        my_turn = any(row.players[s] == user_id for s in seats)
        if CHANCE in actors:
            whose = "the crowd's vote" if row.waits_for("vote") else "the referee"
        elif my_turn and len(seats) == 1:
            whose = "**you**"
        else:
            whose = ", ".join("**you**" if row.players[s] == user_id else f"<@{row.players[s]}>"
                              for s in dict.fromkeys(seats)) or "nobody"
        left = f", time runs out <t:{int(row.deadline)}:R>" if row.deadline else ""
        link = jump_link(row.guild_id, row.where, (row.extra or {}).get("turn_message"))
        line = (f"{'👉 ' if my_turn else ''}#{row.id} **{game.TITLE}** — to move: {whose}{left}"
                + (f" — {link}" if link else ""))
        (mine if my_turn else others).append(line)
    out = ["**Your running games**" + (" here" if guild_id else "")]
    if mine:
        out += [f"Your move ({len(mine)}):"] + mine
    if others:
        out += [("" if not mine else "\n") + f"Waiting for others ({len(others)}):"] + others
    return "\n".join(out)


async def show_mine(interaction: discord.Interaction) -> None:
    from cogs.games import reply_long
    await reply_long(interaction, await mine_text(interaction.client, interaction.user.id,
                                                  interaction.guild_id))


async def set_notice(interaction: discord.Interaction, how: str) -> None:
    if how not in NOTICES:
        raise ValueError(how)
    await interaction.client.store.set_turn_notice(interaction.user.id, how)
    _cache(interaction.client.store)[interaction.user.id] = (time.monotonic(), how)
    await reply(interaction, f"✅ When it is your turn you will get {NOTICES[how]}.",
                ephemeral=True)


__all__ = ["split", "send_dms", "mine_text", "show_mine", "set_notice", "jump_link",
           "NOTICES"]
