"""Crazy Die-Man is Unbreakable! (`/diemen ...`): what is Discord's own around the engine, whose
`menu`, `prompt` and `describe` the generic layer lays out. Added here: the Stand Cry
(`/diemen standcry`, once each, kept in `extra`) and the crowd vote answering the engine's
"first player" draw; the physical report as ONE multi-select (tag `rp`, one `result` move);
the simulated targets in a list of their own (tag `aim`) answered with their chances and
**Flick!** (📊 draws them, tag `oc`); one message and one board per seat's turn; the picture.
Commands: challenge, standcry, play (a typed move), and the generic board, panel, help.
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import layout
from bot.engine.core import CHANCE, Chance, Game, RuleError
from bot.engine.diemen import DieMen
from bot.gamecog import GameCog, on_component
from bot.panel import Panel, clip
from bot.options import engine_options
from bot.store import GameRow
from bot.ui import ComponentCall, GameItem, MoveButton, reply, view_of
from rendering.diemen import render, render_odds

STAND_CRY = ("shout your Stand Cry in the game thread with `/diemen standcry text:` — the "
             "crowd's vote decides who goes first.")


class DieMenCog(GameCog, group_name="diemen",
                group_description="Crazy Die-Man is Unbreakable!: flick dice at your rival's "
                                  "banners"):
    KIND = "diemen"
    MOVE_EXAMPLE = "result 4 hit=F2,B1"

    # ---- hooks ------------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        view = game.view(seat)
        if seat is not None and view["phase"] == "setup":  # a panel shows only its owner's facts
            view = dict(view, setup_done=[d if i == seat else None
                                          for i, d in enumerate(view["setup_done"])],
                        waiting_for=[s for s in view["waiting_for"] if s == seat])
        return await self.draw(render, view)

    def turn_key(self, game: Game) -> str:
        """One message per seat's turn (an answer to a report or a switch is the rival's)."""
        v, humans = game.view(None), [a for a in game.actors() if a != CHANCE]
        if game.outcome() is not None:
            return super().turn_key(game)
        if v["active"] is None:
            return "setup"  # the set-up and its reveal (the vote has a message of its own)
        return f"turn:{v['turn']}:{humans[0] if humans else v['active']}"

    def view_signature(self, game: Game, seat: int | None) -> str:
        """The board is drawn once per seat's turn and set-up: the message tells each step."""
        v = game.view(seat)
        drawn = [self.turn_key(game), v["result"], v["my_setup"],  # a seat: only its own
                 v["setup_done"] if seat is None else v["setup_done"][seat]]
        return hashlib.sha1(repr(drawn).encode()).hexdigest()[:16]

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
        """The menu, but for two lists of Discord's own first: the report and the targets."""
        menu = game.menu(seat)
        own = [g for g in menu.groups if g.key in ("rp", "aim")]
        if not own:
            return super().move_items(row, game, seat, version)
        public, version = version is None, row.version if version is None else version
        rest = dataclasses.replace(menu, groups=tuple(g for g in menu.groups if g not in own))
        items = [self.report_select(row, game, seat, version) if g.key == "rp" else
                 GameItem.select(row.id, version, "aim", [layout.option(i) for i in g.items],
                                 placeholder=g.title) for g in own] + layout.menu_components(
            row.id, version, rest, who=game.name(seat) if public else "")
        for item in items:  # in this order, discord.py finds each its row (a select's own slot
            discord.ui.Item.row.fset(item.item, None)  # shadows `row`: set through Item)
        return items

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
        """A cry shouted while the vote is open goes onto its message (the topic replaced)."""
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
    def report_select(self, row: GameRow, game: Game, seat: int, version: int | str) -> GameItem:
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
        return GameItem.select(row.id, version, "rp", options[:25], min_values=1,
                               max_values=len(options[:25]),
                               placeholder="Report: the number rolled + everything that fell")

    @on_component("rp")
    async def on_report(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        items = {f"h{i['key']}": i["token"] for i in game.view(seat)["report_items"] or []}
        rolled = [x[1:] for x in call.values if x[:1] == "v"]
        if len(rolled) != 1:
            raise RuleError("Pick exactly one number rolled from the list — plus everything "
                            "that fell, or “Off the floor”.")
        fell = [items[x] for x in call.values if x in items]
        report = f"result {rolled[0]}" + (" off" if "off" in call.values else "") + (
            " hit=" + ",".join(fell) if fell else "")
        await self.on_move_component(interaction, call.game_id, call.version, report,
                                     seen=(row, game))

    # ---- simulated flicks: chances first, then Flick! -----------------------------------------
    @on_component("aim")
    async def on_aim(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """A target's chances in words, with **Flick!** to make it and 📊 to see them drawn."""
        row, game = await self.bot.tables.load(call.game_id)
        shot, f = self._shot(game, self.acting_seat(row, game, interaction, call), call.value)
        lines = [("🎯 **" if shot["called"] else "🎲 **") + shot["label"] + f"** — flick "
                 f"{f['number']} of {f['of']}.", shot["effect"] + ".",
                 "Press **Flick!** to flick (the referee rolls)."]
        await reply(interaction, clip("\n".join(lines)), ephemeral=True, view=view_of(
            MoveButton(row.id, row.version, call.value, "Flick!", discord.ButtonStyle.success,
                       "🎲"),
            GameItem.button(row.id, row.version, "oc", call.value, label="The chances drawn",
                            emoji="📊", style=discord.ButtonStyle.secondary)))

    @on_component("oc")
    async def on_chart(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The chances of a shot as a chart: drawn only for who asks (issue #22: pictures)."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        shot, _ = self._shot(game, seat, call.arg)
        chart = await self.draw(render_odds, shot["odds"], shot["target"], seat=seat,
                                names=[game.name(s) for s in range(game.players)])
        await reply(interaction, **Panel(f"📊 **{shot['label']}**", picture=chart).send_kwargs())

    @staticmethod
    def _shot(game: Game, seat: int, move: str) -> tuple[dict[str, Any], dict[str, Any]]:
        v = game.view(seat)
        shot = next((s for s in v["shots"] or [] if s["move"] == move), None)
        if shot is None:
            raise RuleError("That is not a target you can choose now; pick one from the list.")
        return shot, v["flick"]

    # ---- commands -------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to Crazy Die-Man")
    @app_commands.describe(opponent="Your rival Die-Man")
    @engine_options(DieMen, "mode", "vote_seconds")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
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
