"""Slide and Slam: Dice Is Not Bend! in Discord. The engine says what a seat can do (`menu`) and
what to do now (`prompt`); the generic layer lays each turn out on one thread message. Kept here,
as Discord's own: the placement wizard (a die picked stays picked), the crowd vote's arguments,
the Dice Awakening form, the spoken phrases as commands (and typed in the thread), the picture."""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import Game, RuleError, phrase_key
from bot.engine.slideslam import SlideSlam
from bot.gamecog import GameCog, Panel, clip, on_component
from bot.layout import menu_components, option, steps, words
from bot.options import engine_options
from bot.store import GameRow
from bot.tables import STALE_TEXT, StaleMove
from bot.ui import ComponentCall, GameItem, guarded, reply, view_of
from rendering.slideslam import render

BEND_KEY, NONE = phrase_key(SlideSlam.BEND_PHRASE), discord.AllowedMentions.none()
Die = app_commands.Range[str, 1, 3]


def first(rows: list, items: list) -> list:
    """`rows` above `items`, in order and rowless: discord.py stacks them (a select's slot
    shadows `Item.row`, so the property is called through `Item`)."""
    for item in rows + items:
        discord.ui.Item.row.fset(item.item, None)
    return rows + items


class AwakenModal(discord.ui.Modal, title="Dice Awakening: Final Form!"):
    """The invocation is spoken, not clicked: the rulebook makes the player say it in full."""

    words = discord.ui.TextInput(label="Speak the invocation, in full", max_length=300,
                                 custom_id="awaken-invocation", style=discord.TextStyle.paragraph,
                                 placeholder="My Dice resonate with the fire in my heart! …")

    def __init__(self, cog: "SlideSlamCog", call: ComponentCall):
        super().__init__()
        self.cog, self.call = cog, call

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.cog.act(
            interaction, f"awaken {self.call.value} {self.words.value}", self.call.game_id,
            self.call.version, "✨ Final Form! DICE AWAKENING!"))


class SlideSlamCog(GameCog, group_name="slideslam",
                   group_description="Slide and Slam: Dice Is Not Bend! — slide, slam, argue"):
    KIND = "slideslam"
    MOVE_EXAMPLE = "slide b1 b3"

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    def turn_key(self, game: Game) -> str:
        """One message per seat's turn (a slam's answer opens the defender's, edited on)."""
        seats = game.prompt(None).actors
        if game.outcome() is None and seats and not game.is_secret(seats[0]):
            return f"seat:{seats[0]}"
        return super().turn_key(game)

    def status_line(self, row: GameRow, game: Game) -> str:
        typed = getattr(self.bot, "read_messages", False) and any(
            game.menu(s).group("bd") for s in game.prompt(None).actors)
        return super().status_line(row, game) + (
            "\n(Say it with a button, `/dice-is-not-bend`, or type it in this thread.)"
            if typed else "")

    def view_signature(self, game: Game, seat: int | None) -> str:
        """A placement panel shows its own placement: another's progress never redraws it."""
        view = game.view(seat)
        if seat is not None and view["phase"] == "placement":
            view = dict(view, to_act=None, placement=dict(
                view["placement"], confirmed=view["placement"]["confirmed"][seat]))
        return hashlib.sha1(json.dumps(view, sort_keys=True, default=str).encode()
                            ).hexdigest()[:16]

    # ---- the panel: the placement wizard, then the seat's own turn -----------------------------
    def _head(self, row: GameRow, game: Game, seat: int) -> str:
        return (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)}, "
                f"{('white', 'black')[seat]} dice)\n```\n{game.text(seat)}\n```\n")

    def panel(self, row: GameRow, game: Game, seat: int, version: str, *,
              pick: str | None = None) -> Panel:
        head, prompt, menu = self._head(row, game, seat), game.prompt(seat), game.menu(seat)
        if not menu.secret:
            return Panel(head + (f"**Your move.** {prompt.todo}" if menu else prompt.waiting),
                         self.move_items(row, game, seat, version) if menu else [])
        place, top, text = menu.group("q"), [], ""
        if place is not None:  # the wizard: the die (kept while others play), then its square
            dice = steps(place)
            pick = pick or (row.extra.get("place_value") or {}).get(str(seat))
            pick = pick if pick in dice else dice[0]
            top = [GameItem.select(row.id, version, "pv", [
                discord.SelectOption(label=d, value=str(n), default=d == pick)
                for n, d in enumerate(dice)], placeholder="Which die do you place?")
                ][:len(dice) - 1]
            place = replace(place, title=f"Square for {pick}",
                            items=tuple(i for i in place.items if i.step == pick))
            text = f"\nNow placing **{pick}**: pick its square."
        placed = [f"{d['letter']} ({d['health']}) on {d['square']}" for d in game.view(seat)["dice"]]
        text += "\nPlaced: " + ", ".join(placed) + "." if placed else ""
        groups = tuple(g for g in (place, menu.group("un"), menu.group("confirm")) if g)
        return Panel(f"{head}🧱 {prompt.todo}{text}",
                     first(top, menu_components(row.id, version, replace(menu, groups=groups))))

    @on_component("pv")
    async def on_place_value(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The placement panel's die select: which die the square select places next."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.player_seat(row, interaction)
        place = game.menu(seat).group("q")
        if place is None:
            raise RuleError(game.prompt(seat).waiting if game.current_phase() in (
                "placement", "over") else "The placement is over: the game is on in its thread.")
        await self.bot.tables.check_version(row, seat, call.version)
        if not (call.value.isdigit() and int(call.value) < len(steps(place))):
            raise StaleMove(STALE_TEXT)
        pick = steps(place)[int(call.value)]
        row.extra = await self.bot.store.update_extra(row.id, place_value={
            **(row.extra.get("place_value") or {}), str(seat): pick})
        panel = self.panel(row, game, seat, str(call.version), pick=pick)
        await interaction.response.edit_message(content=clip(panel.content),
                                                view=view_of(*panel.items))
        # The DM panel shows this choice now: the next publish finds it unchanged and leaves it.
        panels, msg = dict(row.extra.get("panels") or {}), interaction.message
        last = panels.get(str(seat))
        if last and msg is not None and last.get("message") == msg.id:
            panels[str(seat)] = dict(last, sig=panel.signature() + self.view_signature(game, seat))
            row.extra = await self.bot.store.update_extra(row.id, panels=panels)

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        if game.outcome() is not None:
            return await super()._retired_text(row, game, seat)
        return self._head(row, game, seat) + (
            game.prompt(seat).waiting if game.current_phase() == "placement" else
            "✅ Your placement is confirmed. The wall is down: the full board is in the game "
            "thread.")

    # ---- the turn: the engine's menu, the awakening's form -------------------------------------
    def move_items(self, row: GameRow, game: Game, seat: int, version=None):
        """The menu under Dice Awakening (the die here, the spoken words in a form) and, from
        26 slides on, the die to slide (the generic narrowing waits for 76)."""
        menu, ver = game.menu(seat), row.version if version is None else version
        who = f"{game.name(seat)}: " if version is None else ""
        aw, sl = menu.group("aw"), menu.group("sl")
        narrow = sl if sl is not None and len(sl.items) > 25 else None
        top = [GameItem.select(row.id, ver, "aw", [option(i, game.squares(i.move)[0])
                                                   for i in aw.items],
                               placeholder=words(f"{aw.emoji} {who}{aw.title}", 150))] if aw else []
        top += [GameItem.select(row.id, ver, "nw", [
            discord.SelectOption(label=words(s, 100), value=str(n))
            for n, s in enumerate(steps(sl)[:25])], arg="sl",
            placeholder=words(f"{who}{sl.title} — pick the die first", 150))] if narrow else []
        rest = replace(menu, groups=tuple(g for g in menu.groups if g not in (aw, narrow)))
        return first(top, menu_components(row.id, ver, rest, who=who.rstrip(": ")))

    @on_component("aw")
    async def on_awaken(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        group = game.menu(self.acting_seat(row, game, interaction, call)).group("aw")
        if group is None or call.value not in [game.squares(i.move)[0] for i in group.items]:
            raise StaleMove(STALE_TEXT)
        await interaction.response.send_modal(AwakenModal(self, call))

    def bend_move(self, row: GameRow, game: Game, seat: int | None, die: str | None):
        """The defender's DICE IS NOT BEND!; else a refusal saying why (or which die)."""
        bends = game.menu(seat).group("bd") if seat is not None else None
        if bends is None:
            raise RuleError(game.bend_refusal(seat) if seat is not None else
                            self.spectator_text(row))
        if die or len(bends.items) == 1:
            return f"bend {die}" if die else bends.items[0].move
        raise RuleError(f"{bends.title} Press one of the 🛡️ buttons on the turn message, or say "
                        "it with the die's square.")

    # ---- moves from commands ------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, move: str, game_id=None, version=None,
                  done: str | None = None) -> None:
        row, game = await (self.bot.tables.load(game_id) if game_id is not None
                           else self.find_game(interaction))
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        said = done or self.done_text(game, row.seat_of(interaction.user.id), move)
        await self.play_move(row.id, interaction.user.id, move, version, seen=(row, game))
        await interaction.followup.send(said, ephemeral=True)

    # ---- commands -------------------------------------------------------------------------------
    @app_commands.command(name="challenge",
                          description="Challenge someone to Slide and Slam: Dice Is Not Bend!")
    @app_commands.describe(opponent="Who you challenge")
    @engine_options(SlideSlam, *(o.name for o in SlideSlam.OPTIONS))
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

    # ---- who goes first: the arguments and the crowd vote ------------------------------------
    @app_commands.command(name="argue", description="Argue why your dice are better (once; the "
                                                    "crowd decides who goes first)")
    @app_commands.describe(text="Your argument, up to 200 characters")
    async def argue(self, interaction: discord.Interaction,
                    text: app_commands.Range[str, 1, 200]) -> None:
        row, game = await self.find_game(interaction)
        seat, args = row.seat_of(interaction.user.id), dict(row.extra.get("arguments") or {})
        why = ("Only the players argue; you can vote below the vote." if seat is None else
               game.argue_refusal(seat) or ("Who goes first is already decided."
                                            if row.deadline_kind != "vote" else "")
               or (f"You have already argued (once each): “{args[str(seat)]}”. Now the crowd "
                   "votes." if str(seat) in args else ""))
        if why:
            raise RuleError(why)
        before, args[str(seat)] = self.vote_topic_text(row, game), " ".join(text.split())
        row.extra = await self.bot.store.update_extra(row.id, arguments=args)
        channel = await self.channel_of(row)
        await channel.send(f"🗣️ **{game.name(seat)}** argues: “{args[str(seat)]}”",
                           allowed_mentions=NONE)
        try:  # the vote message shows the arguments too
            vote = await channel.fetch_message(row.extra["vote_message"])
            await vote.edit(content=clip(vote.content.replace(
                before, self.vote_topic_text(row, game))), allowed_mentions=NONE)
        except (KeyError, discord.HTTPException):
            pass  # the argument stands in the thread
        await reply(interaction, "✅ Your argument is posted in the game thread. Now the crowd "
                    "votes.", ephemeral=True)

    def wants_vote(self, row: GameRow, game: Game, chance) -> bool:
        return chance.draws[0].label == "first player" and game.options["first_player"] == "argue"

    def vote_choices(self, row: GameRow, game: Game, chance) -> list[tuple[str, str]]:
        return [(tok, f"{label} goes first") for tok, label in super().vote_choices(row, game,
                                                                                     chance)]

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        args = row.extra.get("arguments") or {}
        return "\n".join(
            ["**Who goes first?** The player who best defends that their dice are better! "
             "Players: `/slideslam argue` once (up to 200 characters); everyone else: vote."]
            + [f"> **{game.name(s)}**: " + (f"“{args[str(s)]}”" if str(s) in args else
                                            "(no argument yet — `/slideslam argue`)")
               for s in range(game.players)]) + "\n"


class SlideSlamPhrases(commands.Cog):
    """The phrases of Slide and Slam as commands (and the typed DICE IS NOT BEND!)."""

    def __init__(self, bot: commands.Bot, game: SlideSlamCog):
        self.bot, self.game = bot, game

    @app_commands.command(name="dice-is-not-bend", description="Slide and Slam: save one of "
                          "your dice from the slam (spends your Power Token)")
    @app_commands.describe(die="The die to save (its square); leave out when only one is hit")
    async def dice_is_not_bend(self, interaction: discord.Interaction,
                               die: Optional[Die] = None) -> None:
        row, game = await self.game.find_game(interaction)
        seat = row.seat_of(interaction.user.id)
        move = self.game.bend_move(row, game, seat, die.strip() if die else None)
        await self.game.act(interaction, move, row.id,
                            done=f"🛡️ {SlideSlam.BEND_PHRASE} Your Power Token is spent.")

    @app_commands.command(name="now-youre-going-to-say", description="Slide and Slam: slam and "
                          "predict their DICE IS NOT BEND! (spends your token)")
    @app_commands.describe(die="Your slamming die (its square)")
    async def now_youre_going_to_say(self, interaction: discord.Interaction, die: Die) -> None:
        await self.game.act(interaction, f"slam {die.strip()} predict",
                            done=f"👉 “{SlideSlam.PREDICT_PHRASE}”")

    @app_commands.command(name="dice-awakening", description="Slide and Slam: awaken a die — "
                          "speak the invocation (start of your turn, once per game)")
    @app_commands.describe(die="The die to awaken (its square)", invocation="The invocation, "
                           "in full: “My Dice resonate with the fire in my heart! …”")
    async def dice_awakening(self, interaction: discord.Interaction, die: Die,
                             invocation: app_commands.Range[str, 1, 300]) -> None:
        await self.game.act(interaction, f"awaken {die.strip()} {invocation}",
                            done="✨ Final Form! DICE AWAKENING!")

    @dice_awakening.autocomplete("die")
    @now_youre_going_to_say.autocomplete("die")
    @dice_is_not_bend.autocomplete("die")
    async def die_autocomplete(self, interaction: discord.Interaction, current: str):
        """The phrase's die, from its menu group: the square, in the engine's words."""
        key = {"dice-is-not-bend": "bd", "now-youre-going-to-say": "pr"}.get(
            interaction.command.name, "aw")
        found = await self.game.legal_for(interaction)
        group = found[0].menu(found[1]).group(key) if found else None
        out = {found[0].squares(i.move)[0]: i.label for i in group.items} if group else {}
        return [app_commands.Choice(name=words(n, 100), value=v) for v, n in out.items()
                if current.lower().strip() in f"{v} {n.lower()}"][:25]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """"DICE IS NOT BEND!" (maybe with the die) typed in a game's thread, when the bot may
        read messages; chatter that merely starts with the phrase is left alone."""
        key = phrase_key(message.content or "")
        if not getattr(self.bot, "read_messages", False) or message.author.bot or (
                message.guild is None) or not key.startswith(BEND_KEY) or len(key) > len(
                BEND_KEY) + 3:
            return
        row = await self.bot.store.active_game_in(message.channel.id, self.game.KIND)
        seat = row.seat_of(message.author.id) if row is not None else None
        if seat is None:
            return  # no game here, or a spectator shouting along
        game = self.game.engine.from_json(row.state)
        try:
            move = self.game.bend_move(row, game, seat, key[len(BEND_KEY):] or None)
            await self.game.play_move(row.id, message.author.id, move)
        except RuleError as e:  # to who typed it, without a ping: a refusal is no call to act
            await message.channel.send(f"{message.author.mention} ❌ {e.message}",
                                       allowed_mentions=NONE)


async def setup(bot: commands.Bot) -> None:
    game = SlideSlamCog(bot)
    await bot.add_cog(game)
    await bot.add_cog(SlideSlamPhrases(bot, game))
