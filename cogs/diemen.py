"""Crazy Die-Man is Unbreakable! (`/diemen ...`): what is Discord's own around the `diemen` engine.

The engine says what a Die-Man may do now (`menu`), in words what to do (`prompt`) and what
each move does (`describe`); the generic layer (bot/gamecog.py, bot/layout.py) lays it out on the
turn message and the secret panel. This module adds only:

- the Stand Cry (`/diemen standcry`, once each, kept in the game's `extra`) and the crowd vote
  that answers the engine's "first player" draw;
- the physical report as ONE multi-select (tag `rp`: the number rolled and everything that fell,
  sent as one `result` move), in place of the menu's long list of single reports;
- a simulated shot's chances before it is flicked: the menu's targets in a list of its own (tag
  `aim`) whose pick answers, to the flicker alone, with the odds picture and **Flick!**;
- the picture (a seat's set-up panel shows only that seat's own facts).

Commands: challenge, standcry, play (a move in the notation), and the generic board, panel, help.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import layout
from bot.engine.core import Chance, Game, RuleError
from bot.engine.diemen import DieMen
from bot.gamecog import GameCog, Panel, clip, on_component
from bot.options import engine_options
from bot.store import GameRow
from bot.ui import ComponentCall, GameItem, MoveButton, reply
from rendering.diemen import render, render_odds

KIND = "diemen"
STAND_CRY = ("shout your Stand Cry in the game thread with `/diemen standcry text:` — the "
             "crowd's vote decides who goes first.")


class DieMenCog(GameCog, group_name="diemen",
                group_description="Crazy Die-Man is Unbreakable!: flick dice at your rival's "
                                  "banners"):
    KIND = KIND
    MOVE_EXAMPLE = "result 4 hit=F2,B1"

    # ---- hooks ------------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        view = game.view(seat)
        if seat is not None and view["phase"] == "setup":
            # A private panel changes only with its owner's own facts: the rival's progress
            # with their set-up is in the thread, not drawn here.
            view = dict(view, setup_done=[d if i == seat else None
                                          for i, d in enumerate(view["setup_done"])],
                        waiting_for=[s for s in view["waiting_for"] if s == seat])
        return await self.draw(render, view)

    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        panel = super().panel(row, game, seat, version)
        if game.current_phase() == "setup" and seat in game.actors():
            panel.content = (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)})\n"
                             f"{game.prompt(seat).todo}\nMeanwhile, {STAND_CRY}")
        return panel

    def status_line(self, row: GameRow, game: Game) -> str:
        line = super().status_line(row, game)
        if game.current_phase() == "setup" and not all(
                row.extra.get(f"standcry_{s + 1}") for s in range(game.players)):
            line += f"\n📣 While you choose, {STAND_CRY}"
        return line

    def move_items(self, row: GameRow, game: Game, seat: int,
                   version: int | str | None = None) -> list[discord.ui.Item]:
        """The menu laid out as usual, but for two lists of Discord's own (first, a row each):
        the physical report (one multi-select) and the simulated targets (chances first)."""
        menu = game.menu(seat)
        own = [g for g in menu.groups if g.key in ("rp", "aim")]
        if not own:
            return super().move_items(row, game, seat, version)
        public, version = version is None, row.version if version is None else version
        rest = dataclasses.replace(menu, groups=tuple(g for g in menu.groups if g not in own))
        items = layout.menu_components(row.id, version, rest,
                                       who=game.name(seat) if public else "")
        for item in items:
            item.row = (item.row or 0) + len(own)
        first = [self.report_select(row, game, seat, version) if g.key == "rp" else
                 GameItem.select(row.id, version, "aim", [layout.option(i) for i in g.items],
                                 placeholder=g.title) for g in own]
        for n, item in enumerate(first):
            item.row = n
        return first + items

    # ---- the crowd vote on the Stand Cries --------------------------------------------------
    def wants_vote(self, row: GameRow, game: Game, chance: Chance) -> bool:
        return bool(chance.draws) and chance.draws[0].label == "first player"

    def vote_choices(self, row: GameRow, game: Game, chance: Chance) -> list[tuple[str, str]]:
        return [(str(seat + 1), f"{game.name(seat)}'s Stand Cry"[:80])
                for seat in range(game.players)]

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        lines = ["**Whose Stand Cry draws the crowd?** The best one goes first."]
        for seat in range(game.players):
            cry = row.extra.get(f"standcry_{seat + 1}")
            shown = (f"“{discord.utils.escape_mentions(cry)}”" if cry else
                     "*(no Stand Cry shouted: `/diemen standcry`)*")
            lines.append(f"> **{game.name(seat)}**: {shown}")
        return "\n".join(lines) + "\n"

    @app_commands.command(name="standcry",
                          description="Shout your Stand Cry (once); the crowd votes who goes first")
    @app_commands.describe(text="What you shout at passing customers (up to 200 characters)")
    async def standcry(self, interaction: discord.Interaction,
                       text: app_commands.Range[str, 1, 200]) -> None:
        row, game = await self.find_game(interaction)
        seat = self.player_seat(row, interaction)
        text = " ".join(text.split())
        if not text:
            raise RuleError("Your Stand Cry needs some words (up to 200 characters).")
        key = f"standcry_{seat + 1}"
        async with self.bot.tables.lock(row.id):
            row = await self.bot.store.get_game(row.id)
            game = self.engine.from_json(row.state)
            phase = game.current_phase()
            if row.extra.get(key):
                raise RuleError(f"You already shouted your Stand Cry: “{row.extra[key]}”. "
                                "One each.")
            if phase not in ("setup", "first"):
                first = game.view(None)["first_player"]
                raise RuleError("The Stand Cry vote is over" + (
                    f": {game.name(first)} goes first." if first is not None else "."))
            old_topic = self.vote_topic_text(row, game)
            row.extra = await self.bot.store.update_extra(row.id, **{key: text})
        channel = await self.channel_of(row)
        if channel is not None:
            await channel.send(
                f"📣 **{game.name(seat)}'s Stand Cry**: “{discord.utils.escape_mentions(text)}”",
                allowed_mentions=discord.AllowedMentions.none())
            if phase == "first":
                await self._refresh_vote(row, game, channel, old_topic)
        after = ("The crowd is voting right now: your cry is on the vote message in the game "
                 "thread." if phase == "first" else
                 "The crowd votes as soon as both Die-Men have set up their banners.")
        await reply(interaction, f"📣 Your Stand Cry is posted in the game thread. {after}",
                    ephemeral=True)

    async def _refresh_vote(self, row: GameRow, game: Game, channel, old_topic: str) -> None:
        """A cry shouted while the vote is open goes onto the open vote message (which was
        posted showing no cry yet): its topic is replaced, the rest of the message kept."""
        msg_id = row.extra.get("vote_message")
        if not msg_id or row.extra.get("vote_posted") != row.version:
            return
        try:
            msg = await channel.fetch_message(msg_id)
            new_topic = self.vote_topic_text(row, game)
            if old_topic in (msg.content or ""):
                await msg.edit(content=msg.content.replace(old_topic, new_topic),
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            pass  # the cry was posted on its own above; the vote still counts

    # ---- the physical report: one menu, one move ------------------------------------------------
    def report_select(self, row: GameRow, game: Game, seat: int,
                      version: int | str | None = None) -> GameItem:
        """The number rolled (or "off the floor") and everything that fell, in one menu; the
        choice is sent as one `result` move."""
        options = [discord.SelectOption(label=f"Rolled {n}", value=f"v{n}", emoji="🎲")
                   for n in range(1, 7)]
        options.append(discord.SelectOption(
            label="Off the floor", value="off",
            description="the die left the floor: it counts for nothing"))
        for item in game.view(seat)["report_items"] or []:
            cost = ("the roll counts against you" if item["whose"] == "own"
                    or "customer" in item["words"] else None)
            options.append(discord.SelectOption(label=f"Fell: {item['words']}"[:100],
                                                value=f"h{item['key']}", description=cost))
        return GameItem.select(row.id, row.version if version is None else version, "rp",
                               options[:25], min_values=1, max_values=len(options[:25]),
                               placeholder="Report: the number rolled + everything that fell")

    @on_component("rp")
    async def on_report(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        items = {f"h{i['key']}": i["token"] for i in game.view(seat)["report_items"] or []}
        rolled = [x[1:] for x in call.values if x[:1] == "v"]
        if len(rolled) != 1:
            raise RuleError("Pick exactly one number rolled (1–6) — plus everything that "
                            "fell, or “Off the floor”.")
        fell = [items[x] for x in call.values if x in items]
        report = f"result {rolled[0]}" + (" off" if "off" in call.values else "") + (
            " hit=" + ",".join(fell) if fell else "")
        await self.on_move_component(interaction, call.game_id, call.version, report)

    # ---- simulated flicks: chances first, then Flick! -----------------------------------------
    @on_component("aim")
    async def on_aim(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        await self.send_preview(interaction, row, game, seat, call.value)

    async def send_preview(self, interaction: discord.Interaction, row: GameRow, game: Game,
                           seat: int, move: str) -> None:
        """The chances of one simulated shot (from the view: what the table rolls), with
        **Flick!** to make it."""
        v = game.view(seat)
        shot = next((s for s in v["shots"] or [] if s["move"] == move), None)
        if shot is None:
            raise RuleError("That is not a target you can choose now; pick one from the list.")
        f = v["flick"]
        head = ("🎯 **" if shot["called"] else "🎲 **") + shot["label"] + "**"
        lines = [f"{head} — flick {f['number']} of {f['of']}.", shot["effect"] + ".",
                 "Press **Flick!** to flick (the referee rolls)."]
        button = MoveButton(row.id, row.version, move, "Flick!", discord.ButtonStyle.success,
                            "🎲")
        names = [game.name(s) for s in range(game.players)]
        panel = Panel(clip("\n".join(lines)), [button],
                      await self.draw(render_odds, shot["odds"], shot["target"], seat=seat,
                                      names=names))
        await reply(interaction, ephemeral=True, **panel.send_kwargs())

    # ---- commands -------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to Crazy Die-Man")
    @app_commands.describe(opponent="Your rival Die-Man")
    @engine_options(DieMen, "mode", "vote_seconds")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        **options: Any) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

    @app_commands.command(name="play", description="Make a move in the game's notation")
    @app_commands.describe(move="The move, e.g. as listed by autocomplete")
    async def move_command(self, interaction: discord.Interaction,
                           move: app_commands.Range[str, 1, 200]) -> None:
        await GameCog.move_command.callback(self, interaction, move)

    @move_command.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str):
        return await GameCog.move_autocomplete(self, interaction, current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DieMenCog(bot))
