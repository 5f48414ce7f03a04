"""Slide and Slam in Discord: what is Discord's own (the placement wizard, the crowd vote's
arguments, the awakening form, the spoken phrases, the picture); the rest is the engine's menu
and prompt laid out by the generic layer."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import jsontext
from bot.engine.core import Game, RuleError, phrase_key
from bot.engine.slideslam import SlideSlam
from bot.gamecog import GameCog, Panel, on_component
from bot.layout import menu_components, option, steps, words
from bot.options import engine_options
from bot.store import GameRow
from bot.tables import STALE_TEXT, StaleMove
from bot.ui import ComponentCall, GameItem, guarded, reply
from rendering.slideslam import board_facts, render

BEND_KEY, NONE = phrase_key(SlideSlam.BEND_PHRASE), discord.AllowedMentions.none()
Die = app_commands.Range[str, 1, 3]


class AwakenModal(discord.ui.Modal, title="Dice Awakening: Final Form!"):
    """The invocation is spoken, not clicked: the rulebook makes the player say it in full."""

    words = discord.ui.TextInput(label="Speak the invocation, in full", max_length=300,
                                 custom_id="awaken-invocation", style=discord.TextStyle.paragraph,
                                 placeholder="My Dice resonate with the fire in my heart! …")

    def __init__(self, cog: "SlideSlamCog", call: ComponentCall):
        super().__init__()
        self.cog, self.call = cog, call

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.cog.on_move_component(
            interaction, self.call.game_id, self.call.version,
            f"awaken {self.call.value} {self.words.value}"))


class SlideSlamCog(GameCog, group_name="slideslam",
                   group_description="Slide and Slam: Dice Is Not Bend! — slide, slam, argue"):
    KIND = "slideslam"
    MOVE_EXAMPLE = "slide b1 b3"
    BOARD_FACTS = staticmethod(board_facts)

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        """The thread's board; a panel shows its half in its text board (#22: no upload a die)."""
        return None if seat is not None else await self.draw(render, game.view(None))

    def turn_key(self, game: Game) -> str:
        """A message per seat's turn (a slam's answer opens the defender's) and the wall's."""
        seats, over = game.prompt(None).actors, game.outcome() is not None
        if not over and seats and not game.is_secret(seats[0]):
            return f"seat:{seats[0]}"
        return "wall" if game.current_phase() in ("placement", "first_player") else "over"

    def view_signature(self, game: Game, seat: int | None) -> str:
        """A placement panel shows its own placement: another's progress never redraws it."""
        v = game.view(seat)
        if seat is not None and v["phase"] == "placement":
            mine = v["placement"]["confirmed"][seat]
            v = dict(v, to_act=None, placement={**v["placement"], "confirmed": mine})
        return jsontext.digest(v)

    def panel(self, row: GameRow, game: Game, seat: int, version: str, *,
              pick: str | None = None) -> Panel:
        prompt, menu = game.prompt(seat), game.menu(seat)
        head = (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)}, "
                f"{('white', 'black')[seat]} dice)\n```\n{game.text(seat)}\n```\n")
        if not menu.secret:
            return Panel(head + (f"**Your move.** {prompt.todo}" if menu else prompt.waiting),
                         self.move_items(row, game, seat, version) if menu else [])
        place, top, text = menu.group("q"), [], ""
        if place is not None:  # the wizard: the die (kept while others play), then its square
            dice = steps(place)
            pick = pick or (row.extra.get("place_value") or {}).get(str(seat))
            pick = pick if pick in dice else dice[0]
            top = [GameItem.select(row.id, version, "pv", [discord.SelectOption(
                label=d, value=str(n), default=d == pick) for n, d in enumerate(dice)],
                placeholder="Which die do you place?")][:len(dice) - 1]
            place = replace(place, title=f"Square for {pick}",
                            items=tuple(i for i in place.items if i.step == pick))
            text = f"\nNow placing **{pick}**: pick its square."
        groups = tuple(g for g in (place, menu.group("un"), menu.group("confirm")) if g)
        return Panel(f"{head}🧱 {prompt.todo}{text}",  # our own lists go below the layout's
                     menu_components(row.id, version, replace(menu, groups=groups)) + top)

    @on_component("pv")
    async def on_place_value(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The wizard's die select: which die the square select places next."""
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
        await interaction.response.edit_message(**panel.over(interaction.message).edit_kwargs())
        # The DM panel shows this choice now: the next publish finds it unchanged and leaves it.
        panels, msg = dict(row.extra.get("panels") or {}), interaction.message
        if (last := panels.get(str(seat))) and msg is not None and last.get("message") == msg.id:
            panels[str(seat)] = dict(last, sig=panel.signature() + self.view_signature(game, seat))
            await self.bot.store.update_extra(row.id, panels=panels)

    def move_items(self, row: GameRow, game: Game, seat: int, version=None):
        """The menu, and Dice Awakening: its moves hold the spoken invocation, too long for a
        component, so the die is picked here and the words typed in a form."""
        menu, ver = game.menu(seat), row.version if version is None else version
        aw, who = menu.group("aw"), game.name(seat) if version is None else ""
        top = [GameItem.select(row.id, ver, "aw", [
            option(i, game.squares(i.move)[0]) for i in aw.items],
            placeholder=words(f"{aw.emoji} {who}{': ' * bool(who)}{aw.title}", 150))] if aw else []
        return menu_components(row.id, ver, replace(
            menu, groups=tuple(g for g in menu.groups if g is not aw)), who=who) + top

    @on_component("aw")
    async def on_awaken(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        group = game.menu(self.acting_seat(row, game, interaction, call)).group("aw")
        if group is None or call.value not in [game.squares(i.move)[0] for i in group.items]:
            raise StaleMove(STALE_TEXT)
        await interaction.response.send_modal(AwakenModal(self, call))

    def bend_move(self, row: GameRow, game: Game, seat: int | None, die: str | None) -> str:
        """The defender's DICE IS NOT BEND!; else a refusal saying why (or which die)."""
        bends = game.menu(seat).group("bd") if seat is not None else None
        if bends is None:
            raise RuleError(self.spectator_text(row) if seat is None else game.bend_refusal(seat))
        if die or len(bends.items) == 1:
            return f"bend {die}" if die else bends.items[0].move
        raise RuleError(f"{bends.title} Press one of the 🛡️ buttons on the turn message, or say "
                        "it with the die's square.")

    async def act(self, interaction: discord.Interaction, move: str) -> None:  # a phrase said
        row, game = await self.find_game(interaction)
        await self.on_move_component(interaction, row.id, None, move, seen=(row, game))

    @app_commands.command(name="challenge",
                          description="Challenge someone to Slide and Slam: Dice Is Not Bend!")
    @app_commands.describe(opponent="Who you challenge")
    @engine_options(SlideSlam, *(o.name for o in SlideSlam.OPTIONS))
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

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
        args[str(seat)] = " ".join(text.split())
        row.extra = await self.bot.store.update_extra(row.id, arguments=args)
        await (await self.channel_of(row)).send(
            f"🗣️ **{game.name(seat)}** argues: “{args[str(seat)]}”", allowed_mentions=NONE)
        await reply(interaction, "✅ Your argument is posted in the game thread. Now the crowd "
                    "votes.", ephemeral=True)

    def wants_vote(self, row: GameRow, game: Game, chance) -> bool:
        return chance.draws[0].label == "first player" and game.options["first_player"] == "argue"

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        return ("**Who goes first?** The player who best defends that their dice are better! "
                "Players: `/slideslam argue` once (up to 200 characters), shown in this thread; "
                "everyone else: vote for who goes first.\n")


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
        await self.game.act(interaction, self.game.bend_move(
            row, game, row.seat_of(interaction.user.id), die.strip() if die else None))

    @app_commands.command(name="now-youre-going-to-say", description="Slide and Slam: slam and "
                          "predict their DICE IS NOT BEND! (spends your token)")
    @app_commands.describe(die="Your slamming die (its square)")
    async def now_youre_going_to_say(self, interaction: discord.Interaction, die: Die) -> None:
        await self.game.act(interaction, f"slam {die.strip()} predict")

    @app_commands.command(name="dice-awakening", description="Slide and Slam: awaken a die — "
                          "speak the invocation (start of your turn, once per game)")
    @app_commands.describe(die="The die to awaken (its square)", invocation="The invocation, "
                           "in full: “My Dice resonate with the fire in my heart! …”")
    async def dice_awakening(self, interaction: discord.Interaction, die: Die,
                             invocation: app_commands.Range[str, 1, 300]) -> None:
        await self.game.act(interaction, f"awaken {die.strip()} {invocation}")

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
        row = None if not getattr(self.bot, "read_messages", False) or message.author.bot or (
            not message.guild or not key.startswith(BEND_KEY) or len(key) > len(BEND_KEY) + 3
        ) else await self.bot.store.active_game_in(message.channel.id, self.game.KIND)
        if row is None or (seat := row.seat_of(message.author.id)) is None:
            return  # not the phrase, no game here, or a spectator shouting along
        try:
            move = self.game.bend_move(row, self.game.engine.from_json(row.state), seat,
                                       key[len(BEND_KEY):] or None)
            await self.game.play_move(row.id, message.author.id, move)
        except RuleError as e:  # to who typed it, without a ping: a refusal is no call to act
            await message.channel.send(f"{message.author.mention} ❌ {e.message}",
                                       allowed_mentions=NONE)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(game := SlideSlamCog(bot))
    await bot.add_cog(SlideSlamPhrases(bot, game))
