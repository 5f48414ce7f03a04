"""`/games leaderboard`, `/games profile` and `/games rating`: what the ratings (bot/ratings.py)
look like in Discord. The /games cog (cogs/games.py) only parses and calls these.

- leaderboard: a ladder's top ten in this server or globally, paged with buttons that work
  after a restart (a DynamicItem), and the caller's own place (or how many games until they are
  ranked);
- profile: per game the member has played rated: the number (provisional under 5 games), games,
  wins, streak, best win, favourite options, place, and a picture of the rating over time;
- rating: a server's switch to turn rating off (or on again) for one game.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import discord

from . import ratings
from .engine import KINDS, load
from .engine.core import RuleError
from .ui import guarded, reply, view_of

PAGE = 10
MAX_PICTURES = 4  # one picture per game played, the most played first


def ladders() -> list[str]:
    """Every ladder: each game's, and Death by Dice's Bosses & Minions."""
    out = list(KINDS)
    if "deathbydice" in out:
        out.insert(out.index("deathbydice") + 1, ratings.BOSS_LADDER)
    return out


def ladder_choices() -> list[discord.app_commands.Choice[str]]:
    return [discord.app_commands.Choice(name=ratings.ladder_title(l)[:100], value=l)
            for l in ladders()]


def scope_of(guild_id: int | None, scope: str | None) -> tuple[int, str]:
    """(the store's scope, its words): this server's ladder, or the global one."""
    if scope == "global" or not guild_id:
        return ratings.GLOBAL, "all servers"
    return guild_id, "this server"


def number(n: int) -> str:
    return f"{n:,}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rating_text(r: Any) -> str:
    if r.provisional:
        left = ratings.PROVISIONAL_GAMES - r.games
        return f"**{number(r.shown)}** (provisional: {left} more rated game{'s' * (left != 1)})"
    return f"**{number(r.shown)}**"


# ---- leaderboard ------------------------------------------------------------------------------
async def leaderboard_message(store: Any, guild_id: int | None, ladder: str, scope: str,
                              page: int, user_id: int) -> tuple[str, discord.ui.View]:
    key, where = scope_of(guild_id, scope)
    place, total = await store.leaderboard_place(key, ladder, user_id)
    pages = max(1, -(-total // PAGE))
    page = max(0, min(page, pages - 1))
    rows = await store.leaderboard(key, ladder, page * PAGE, PAGE)
    title = ratings.ladder_title(ladder)
    lines = [f"🏆 **{title} — leaderboard, {where}** (page {page + 1}/{pages}, "
             f"{total} ranked player{'s' * (total != 1)})"]
    if not rows:
        lines.append("Nobody is ranked yet: a player is ranked after "
                     f"{ratings.PROVISIONAL_GAMES} rated games.")
    for i, (uid, shown, games, wins) in enumerate(rows, page * PAGE + 1):
        me = " ← you" if uid == user_id else ""
        lines.append(f"{i}. <@{uid}> — **{number(shown)}** ({games} games, {wins} wins){me}")
    mine = await store.rating(key, ladder, user_id)
    if place is not None:
        lines.append(f"\nYour place: **{ordinal(place)}** of {total}, {number(mine.shown)}.")
    elif mine is not None and mine.games:
        lines.append(f"\nYou: {rating_text(mine)} — not ranked yet.")
    else:
        lines.append(f"\nYou have no rated {title} games "
                     f"{'yet' if key == ratings.GLOBAL else 'in this server yet'}.")
    scope_word = "global" if key == ratings.GLOBAL else "server"
    view = view_of(
        LeaderboardPage(ladder, scope_word, page, "prev", disabled=page == 0),
        LeaderboardPage(ladder, scope_word, page, "next", disabled=page >= pages - 1),
        *([LeaderboardPage(ladder, scope_word, (place - 1) // PAGE, "mine")]
          if place is not None and (place - 1) // PAGE != page else []))
    return "\n".join(lines), view


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"lb:(?P<ladder>[a-z.]{1,30}):(?P<scope>server|global):"
                               r"(?P<page>[0-9]{1,5}):(?P<dir>prev|next|mine)"):
    """Paging a leaderboard (the reader's own, ephemeral copy)."""

    def __init__(self, ladder: str, scope: str, page: int, direction: str,
                 disabled: bool = False):
        self.ladder, self.scope, self.page, self.direction = ladder, scope, page, direction
        label = {"prev": "◀ Previous", "next": "Next ▶", "mine": "My place"}[direction]
        super().__init__(discord.ui.Button(
            label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
            custom_id=f"lb:{ladder}:{scope}:{page}:{direction}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(match["ladder"], match["scope"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if self.ladder not in ladders():
                raise RuleError("That leaderboard no longer exists.")
            target = {"prev": self.page - 1, "next": self.page + 1}.get(self.direction,
                                                                          self.page)
            text, view = await leaderboard_message(
                interaction.client.store, interaction.guild_id, self.ladder, self.scope,
                target, interaction.user.id)
            await interaction.response.edit_message(
                content=text, view=view, allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, work)


async def show_leaderboard(interaction: discord.Interaction, ladder: str,
                           scope: str | None) -> None:
    if ladder not in ladders():
        raise RuleError(f"There is no game {ladder!r}.")
    text, view = await leaderboard_message(interaction.client.store, interaction.guild_id,
                                           ladder, scope or "server", 0, interaction.user.id)
    await reply(interaction, text, ephemeral=True, view=view,
                allowed_mentions=discord.AllowedMentions.none())


# ---- profile ----------------------------------------------------------------------------------
def favourite_options(kind: str, options_json: list[str]) -> str:
    """The options the player chose most often, in words ('the usual rules' when defaults)."""
    try:
        cls = load(kind)
    except Exception:
        return "the usual rules"
    counted: Counter[str] = Counter()
    for text in options_json:
        opts = json.loads(text or "{}")
        changed = ", ".join(f"{o.name}={opts[o.name]}" for o in cls.OPTIONS
                            if o.name in opts and opts[o.name] != o.default)
        counted[changed] += 1
    if not counted:
        return "the usual rules"
    best, _ = max(counted.items(), key=lambda kv: (kv[1], kv[0] == ""))
    return best or "the usual rules"


async def profile_data(store: Any, user_id: int, scope_key: int) -> list[dict[str, Any]]:
    """Per ladder the member has played rated, most played first: their rating, place,
    history (for the picture) and favourite options."""
    out = []
    mine = await store.ratings_of(user_id, scope_key)
    for ladder, r in sorted(mine.items(), key=lambda kv: (-kv[1].games, kv[0])):
        history = await store.rating_history(user_id, scope_key, ladder)
        place, total = await store.leaderboard_place(scope_key, ladder, user_id)
        out.append({"ladder": ladder, "rating": r, "history": history, "place": place,
                    "total": total,
                    "favourite": favourite_options(ratings.ladder_kind(ladder),
                                                   [h[4] for h in history])})
    return out


def profile_text(name: str, where: str, data: list[dict[str, Any]]) -> str:
    lines = [f"🎲 **{name}** — ratings in {where}"]
    if not data:
        lines.append("No rated games yet. Challenge someone: `/<game> challenge`.")
    for d in data:
        r = d["rating"]
        streak = (f"{r.streak} win{'s' * (r.streak != 1)} in a row" if r.streak > 0 else
                  f"{-r.streak} loss{'es' * (r.streak != -1)} in a row" if r.streak < 0
                  else "none")
        best = (f"game #{r.best_win} over a {number(r.best_win_over)}" if r.best_win
                else "none yet")
        place = (f"{ordinal(d['place'])} of {d['total']}" if d["place"] else "not ranked yet")
        lines += [f"\n**{ratings.ladder_title(d['ladder'])}** — {rating_text(r)} · {place}",
                  f"{r.games} games · {r.wins} W · {r.losses} L · {r.draws} D · streak: "
                  f"{streak} (best {r.best_streak})",
                  f"best win: {best} · favourite options: {d['favourite']}"]
    return "\n".join(lines)


async def show_profile(interaction: discord.Interaction, member: Any,
                       scope: str | None) -> None:
    from rendering import render_async
    from rendering.profile import render_rating_history

    from .panel import picture_file
    who = member or interaction.user
    if getattr(who, "bot", False):
        raise RuleError("Bots don't play rated games.")
    key, where = scope_of(interaction.guild_id, scope)
    await interaction.response.defer(thinking=True)
    data = await profile_data(interaction.client.store, who.id, key)
    files = []
    for i, d in enumerate(data[:MAX_PICTURES]):
        history = d["history"]
        if not history:
            continue
        picture = await render_async(
            render_rating_history, f"{ratings.ladder_title(d['ladder'])} — {who.display_name}",
            [(h[1], h[2], h[3]) for h in history], history[0][5],
            d["rating"].provisional, filename=f"rating-{i + 1}.png")
        files.append(picture_file(picture))
    await interaction.followup.send(profile_text(who.display_name, where, data), files=files,
                                    allowed_mentions=discord.AllowedMentions.none())


# ---- the server's switch ----------------------------------------------------------------------
async def set_rating(interaction: discord.Interaction, kind: str, rated: bool) -> None:
    if interaction.guild is None:
        raise RuleError("Rating is switched per server: use this in a server channel.")
    member = interaction.user
    if not getattr(getattr(member, "guild_permissions", None), "manage_guild", False):
        raise RuleError("Only a member with Manage Server can switch rating for this server.")
    if kind not in KINDS:
        raise RuleError(f"There is no game {kind!r}.")
    await interaction.client.store.set_rating_off(interaction.guild_id, kind, not rated)
    title = load(kind).TITLE
    await reply(interaction, (f"✅ {title} games started here from now on are rated."
                              if rated else
                              f"⏸️ {title} games started here from now on are not rated "
                              "(they still count in `/games stats`). Games already running "
                              "keep what they started with."), ephemeral=True)


DYNAMIC_ITEMS = (LeaderboardPage,)

__all__ = ["show_leaderboard", "show_profile", "set_rating", "leaderboard_message",
           "profile_data", "profile_text", "ladders", "ladder_choices", "DYNAMIC_ITEMS"]
