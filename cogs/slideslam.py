"""Slide and Slam: Dice Is Not Bend! in Discord. The engine (bot/engine/slideslam) says what a
seat can do (`menu`) and what to do now (`prompt`); the generic layer lays every turn out on
one thread message per turn. This cog keeps what is Discord's own: the Wall of Unknowing's
placement wizard (the die picked stays picked while the other player places), the crowd vote's
arguments, the Dice Awakening form (the invocation is spoken), the three spoken phrases as
commands (and "DICE IS NOT BEND!" typed in the thread), and the picture."""
from __future__ import annotations

import hashlib
import json
import logging
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
from bot.ui import (ComponentCall, GameItem, MoveButton, MoveSelect, TypeMoveButton, guarded,
                    reply, report_error, view_of)
from rendering.slideslam import render

log = logging.getLogger(__name__)
BEND_KEY = phrase_key(SlideSlam.BEND_PHRASE)
NONE = discord.AllowedMentions.none()
VALUE_PRESETS = (("6,5,4,3,2,1", "the rulebook's dice (default)"),
                 ("1,1,1,1,1,1", "all Super Slams: a quick, brutal game"),
                 ("6,6,5,5,4,4", "sturdy dice: a long game"), ("4,4,3,3,2,2", "middling dice"))
Die = app_commands.Range[str, 1, 3]


class AwakenModal(discord.ui.Modal, title="Dice Awakening: Final Form!"):
    """The invocation is spoken, not clicked: the rulebook makes the player say it in full."""

    invocation = discord.ui.TextInput(label="Speak the invocation, in full", max_length=300,
                                      custom_id="awaken-invocation",
                                      style=discord.TextStyle.paragraph,
                                      placeholder="My Dice resonate with the fire in my heart! …")

    def __init__(self, cog: "SlideSlamCog", game_id: int, version, square: str):
        super().__init__()
        self.cog, self.game_id, self.version, self.square = cog, game_id, version, square

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.cog.act(
            interaction, f"awaken {self.square} {self.invocation.value}", game_id=self.game_id,
            version=self.version, done="✨ Final Form! DICE AWAKENING!"))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


class SlideSlamCog(GameCog, group_name="slideslam",
                   group_description="Slide and Slam: Dice Is Not Bend! — slide, slam, argue"):
    KIND = "slideslam"
    MOVE_EXAMPLE = "slide b1 b3"

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    def turn_key(self, game: Game) -> str:
        """One message per seat's turn: the slide, the slam and the end edit it; a slam's answer
        opens the defender's message, and their own turn goes on in it."""
        seats = game.prompt(None).actors
        if game.outcome() is None and seats and not game.is_secret(seats[0]):
            return f"seat:{seats[0]}"
        return super().turn_key(game)

    def status_line(self, row: GameRow, game: Game) -> str:
        line = super().status_line(row, game)
        if getattr(self.bot, "read_messages", False) and any(
                game.menu(s).group("bd") for s in game.prompt(None).actors):
            line += ("\n(Say it with the buttons, `/dice-is-not-bend`, or type it in this "
                     "thread.)")
        return line

    def view_signature(self, game: Game, seat: int | None) -> str:
        """During placement a seat's panel shows only its own placement, so the other player's
        progress never redraws it."""
        view = game.view(seat)
        if seat is not None and view["phase"] == "placement":
            view = dict(view, to_act=None, placement=dict(
                view["placement"], confirmed=view["placement"]["confirmed"][seat]))
        return hashlib.sha1(json.dumps(view, sort_keys=True, default=str).encode()
                            ).hexdigest()[:16]

    # ---- the panel: the placement wizard, later the seat's own turn -----------------------------
    def _head(self, row: GameRow, game: Game, seat: int) -> str:
        return (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)}, "
                f"{('white', 'black')[seat]} dice)\n```\n{game.text(seat)}\n```\n")

    async def bare_panel(self, row: GameRow, game: Game, seat: int) -> Panel:
        return self.panel(row, game, seat, await self.bot.tables.panel_version(row.id, seat),
                          pick=(row.extra.get("place_value") or {}).get(str(seat)))

    def panel(self, row: GameRow, game: Game, seat: int, version: str, *,
              pick: str | None = None) -> Panel:
        head, prompt, menu = self._head(row, game, seat), game.prompt(seat), game.menu(seat)
        if not menu:
            return Panel(head + (prompt.waiting or prompt.todo))
        if not menu.secret:
            return Panel(f"{head}**Your move.** {prompt.todo}",
                         self.move_items(row, game, seat, version))
        lines, items, place = [head + "🧱 " + prompt.todo], [], menu.group("q")
        if place is not None:
            dice = steps(place)
            pick = pick if pick in dice else dice[0]
            if len(dice) > 1:
                items.append(GameItem.select(row.id, version, "pv", [
                    discord.SelectOption(label=d, value=str(n), default=d == pick)
                    for n, d in enumerate(dice)], placeholder="Which die do you place?"))
            chosen = [i for i in place.items if i.step == pick]
            parts = [chosen[n:n + 25] for n in range(0, len(chosen), 25)][:3]
            for n, part in enumerate(parts):
                span = (f" ({game.squares(part[0].move)[0]}–{game.squares(part[-1].move)[0]})"
                        if len(parts) > 1 else "")
                items.append(MoveSelect(row.id, version, [option(i) for i in part],
                                        f"Square for {pick}{span}", tag=f"q{n}"))
            lines.append(f"Now placing **{pick}**: pick its square.")
        else:
            lines.append("All six are placed. **Confirm** when you are happy (final), or take "
                         "a die back.")
        placed = [f"{d['letter']} ({d['health']}) on {d['square']}"
                  for d in game.view(seat)["dice"]]
        if placed:
            lines.append("Placed: " + ", ".join(placed) + ".")
        for group in (menu.group("un"), menu.group("confirm")):
            if group is not None and group.key == "un":
                items.append(MoveSelect(row.id, version, [option(i) for i in group.items],
                                        group.title, tag="un"))
            elif group is not None:
                items += [MoveButton(row.id, version, i.move, i.label, emoji=group.emoji,
                                     style=discord.ButtonStyle.success) for i in group.items]
        return Panel("\n".join(lines), items + [TypeMoveButton(row.id)])

    @on_component("pv")
    async def on_place_value(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The placement panel's die select: which die the square selects place next."""
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
        panels = dict(row.extra.get("panels") or {})
        last = panels.get(str(seat))
        if last and interaction.message is not None and last.get("message") == \
                interaction.message.id:
            panels[str(seat)] = dict(last, sig=panel.signature()
                                     + self.view_signature(game, seat))
            row.extra = await self.bot.store.update_extra(row.id, panels=panels)

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        if game.outcome() is not None:
            return await super()._retired_text(row, game, seat)
        return self._head(row, game, seat) + (
            game.prompt(seat).waiting if game.current_phase() == "placement" else
            "✅ Your placement is confirmed. The wall is down: the full board is in the game "
            "thread.")

    # ---- the turn: the engine's menu, and the awakening's form --------------------------------
    def move_items(self, row: GameRow, game: Game, seat: int, version=None):
        """The menu (bot/layout.py), with two lists of our own first: Dice Awakening (its moves
        hold the spoken invocation, too long for a component: the die is picked here and the
        words typed in a form) and, when the slides outgrow one list, the die to slide (the
        generic narrowing, asked for from 26 slides on rather than 76)."""
        menu, ver = game.menu(seat), row.version if version is None else version
        who = f"{game.name(seat)}: " if version is None else ""
        aw, sl = menu.group("aw"), menu.group("sl")
        narrow = sl is not None and len(sl.items) > 25
        first = [GameItem.select(row.id, ver, "aw", [option(i, game.squares(i.move)[0])
                                                     for i in aw.items],
                                 placeholder=words(f"{aw.emoji} {who}{aw.title}", 150))
                 ] if aw else []
        if narrow:
            first.append(GameItem.select(row.id, ver, "nw", [
                discord.SelectOption(label=words(s, 100), value=str(n))
                for n, s in enumerate(steps(sl)[:25])], arg="sl",
                placeholder=words(f"{who}{sl.title} — pick the die first", 150)))
        rest = replace(menu, groups=tuple(g for g in menu.groups if g is not aw
                                          and not (narrow and g is sl)))
        items = menu_components(row.id, ver, rest, who=who.rstrip(": "))
        for n, item in enumerate(first):
            item.row = n
        for item in items:
            item.row = (item.row or 0) + len(first)
        return first + items

    @on_component("aw")
    async def on_awaken(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        group = game.menu(seat).group("aw")
        if group is None or call.value not in [game.squares(i.move)[0] for i in group.items]:
            raise StaleMove(STALE_TEXT)
        await interaction.response.send_modal(AwakenModal(self, row.id, call.version,
                                                          call.value))

    # ---- DICE IS NOT BEND! ----------------------------------------------------------------------
    def bend_move(self, row: GameRow, game: Game, seat: int | None, die: str | None):
        """The defender's `bend`; None when they must say which die; else why not, in words."""
        if seat is None:
            raise RuleError(self.spectator_text(row))
        bends = game.menu(seat).group("bd")
        if bends is None:
            raise RuleError(game.bend_refusal(seat))
        if die:
            return f"bend {die}"
        return bends.items[0].move if len(bends.items) == 1 else None

    async def ask_which(self, interaction, row: GameRow, game: Game, seat: int,
                        channel=None) -> None:
        """Several dice would be hit and none was named: one button per die."""
        bends = game.menu(seat).group("bd")
        buttons = [MoveButton(row.id, row.version, i.move, i.label, emoji=bends.emoji,
                              style=discord.ButtonStyle.danger) for i in bends.items]
        text = f"{SlideSlam.BEND_PHRASE} — which die do you save? {bends.hint}"
        if interaction is not None:
            await reply(interaction, text, ephemeral=True, view=view_of(*buttons))
            return
        msg = await channel.send(f"**{game.name(seat)}**: {text}", view=view_of(*buttons),
                                 allowed_mentions=NONE)
        row.extra = await self.bot.store.update_extra(row.id, ask_which=msg.id)

    async def publish(self, played) -> None:
        await super().publish(played)
        asked = played.row.extra.get("ask_which")
        channel = await self.channel_of(played.row) if asked else None
        if channel is not None:  # the thread's "which die?" is answered: its buttons go
            try:
                await channel.get_partial_message(asked).edit(view=None)
            except discord.HTTPException:
                log.warning("game %s: could not retire the 'which die' buttons", played.row.id)
            played.row.extra = await self.bot.store.update_extra(played.row.id, ask_which=None)

    # ---- moves from commands ------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, move: str, *, game_id=None,
                  version=None, done: str | None = None) -> None:
        row, game = await (self.bot.tables.load(game_id) if game_id is not None
                           else self.find_game(interaction))
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        said = done or self.done_text(game, row.seat_of(interaction.user.id), move)
        await self.play_move(row.id, interaction.user.id, move, version, seen=(row, game))
        await interaction.followup.send(said, ephemeral=True)

    async def complete(self, interaction: discord.Interaction, current: str, key: str,
                       at: int = 0, die: str = "") -> list[app_commands.Choice[str]]:
        """Autocomplete from the menu's group `key`: the squares its moves name (`at`: the
        die's, or where it goes), in the engine's words."""
        found = await self.legal_for(interaction)
        group = found[0].menu(found[1]).group(key) if found else None
        if group is None:
            return []
        game, typed, out = found[0], current.lower().strip(), {}
        for item in group.items:
            squares = game.squares(item.move)
            name = (item.step if at == 0 else "") or item.label
            if (not die or squares[0] == game.square_of(die)) and (
                    typed in squares[at] or typed in name.lower()):
                out.setdefault(squares[at], name)
        return [app_commands.Choice(name=words(n, 100), value=v) for v, n in out.items()][:25]

    # ---- commands -------------------------------------------------------------------------------
    @app_commands.command(name="challenge",
                          description="Challenge someone to Slide and Slam: Dice Is Not Bend!")
    @app_commands.describe(opponent="Who you challenge")
    @engine_options(SlideSlam, *(o.name for o in SlideSlam.OPTIONS))
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

    @challenge.autocomplete("starting_values")
    async def values_autocomplete(self, interaction: discord.Interaction, current: str):
        key = current.replace(" ", "")
        return [app_commands.Choice(name=f"{v} — {why}", value=v) for v, why in VALUE_PRESETS
                if key in v] or ([app_commands.Choice(name=current, value=current)]
                                 if current else [])

    @app_commands.command(name="slide", description="Slide one of your dice (the mandatory step)")
    @app_commands.describe(die="Your die: its square (or letter)",
                           to="Where it goes: 1 up to its health in orthogonal steps, around dice")
    async def slide(self, interaction: discord.Interaction, die: Die, to: Die) -> None:
        await self.act(interaction, f"slide {die.strip()} {to.strip()}")

    @slide.autocomplete("die")
    async def slide_die_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.complete(interaction, current, "sl")

    @slide.autocomplete("to")
    async def slide_to_autocomplete(self, interaction: discord.Interaction, current: str):
        die = str(getattr(interaction.namespace, "die", "") or "")
        return await self.complete(interaction, current, "sl", 1, die)

    @app_commands.command(name="slam", description="Slam with one of your dice (after the slide)")
    @app_commands.describe(die="Your slamming die: its square (or letter)",
                           predict="Also say “Now you're going to say: DICE IS NOT BEND!” "
                                   "(spends your token)")
    async def slam(self, interaction: discord.Interaction, die: Die, predict: bool = False) -> None:
        await self.act(interaction, f"slam {die.strip()}" + (" predict" if predict else ""))

    @slam.autocomplete("die")
    async def slam_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.complete(interaction, current, "sm")

    @app_commands.command(name="end", description="End your turn without slamming")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "end", done="✅ Turn ended without a slam.")

    @app_commands.command(name="pass", description="Take the slam in full and keep your Power Token")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass", done="✅ You take the hit; your token is kept.")

    @app_commands.command(name="argue", description="Argue why your dice are better (once; the "
                                                    "crowd decides who goes first)")
    @app_commands.describe(text="Your argument, up to 200 characters")
    async def argue(self, interaction: discord.Interaction,
                    text: app_commands.Range[str, 1, 200]) -> None:
        row, game = await self.find_game(interaction)
        seat, args = row.seat_of(interaction.user.id), dict(row.extra.get("arguments") or {})
        prompt = game.prompt(seat)
        if seat is None:
            raise RuleError(f"Only the players of game #{row.id} argue; you can vote on the "
                            "buttons under the vote.")
        if game.options["first_player"] != "argue":
            raise RuleError("This game draws the first player at random: there is nothing to "
                            f"argue. {prompt.todo or prompt.waiting}")
        if game.current_phase() == "placement":
            raise RuleError("Arguments come after the Wall of Unknowing comes down: place and "
                            "confirm your dice first (your panel is in your DMs).")
        if game.current_phase() != "first_player" or row.deadline_kind != "vote":
            raise RuleError(f"Who goes first is already decided. {prompt.todo or prompt.waiting}")
        if str(seat) in args:
            raise RuleError(f"You have already argued (once each): “{args[str(seat)]}”. Now the "
                            "crowd votes.")
        before = self.vote_topic_text(row, game)
        args[str(seat)] = " ".join(text.split())
        row.extra = await self.bot.store.update_extra(row.id, arguments=args)
        channel = await self.channel_of(row)
        if channel is not None:
            await channel.send(f"🗣️ **{game.name(seat)}** argues: “{args[str(seat)]}”",
                               allowed_mentions=NONE)
            try:  # the vote message shows the arguments too
                vote = await channel.fetch_message(row.extra["vote_message"])
                await vote.edit(content=clip(vote.content.replace(
                    before, self.vote_topic_text(row, game))), allowed_mentions=NONE)
            except (KeyError, discord.HTTPException):
                log.warning("game %s: could not update the vote message", row.id)
        await reply(interaction, "✅ Your argument is posted in the game thread. Now the crowd "
                    "votes.", ephemeral=True)

    # ---- who goes first: the crowd vote ------------------------------------------------------
    def wants_vote(self, row: GameRow, game: Game, chance) -> bool:
        return (chance.draws[0].label == "first player"
                and game.options.get("first_player") == "argue")

    def vote_choices(self, row: GameRow, game: Game, chance) -> list[tuple[str, str]]:
        return [(tok, f"{game.name(int(tok) - 1)} goes first"[:80])
                for tok in dict.fromkeys(chance.draws[0].options)]

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
        if move is None:
            return await self.game.ask_which(interaction, row, game, seat)
        await self.game.act(interaction, move, game_id=row.id,
                            done=f"🛡️ {SlideSlam.BEND_PHRASE} Your Power Token is spent.")

    @dice_is_not_bend.autocomplete("die")
    async def bend_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.game.complete(interaction, current, "bd")

    @app_commands.command(name="now-youre-going-to-say", description="Slide and Slam: slam and "
                          "predict their DICE IS NOT BEND! (spends your token)")
    @app_commands.describe(die="Your slamming die (its square)")
    async def now_youre_going_to_say(self, interaction: discord.Interaction, die: Die) -> None:
        await self.game.act(interaction, f"slam {die.strip()} predict",
                            done=f"👉 “{SlideSlam.PREDICT_PHRASE}”")

    @now_youre_going_to_say.autocomplete("die")
    async def predict_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.game.complete(interaction, current, "pr")

    @app_commands.command(name="dice-awakening", description="Slide and Slam: awaken a die — "
                          "speak the invocation (start of your turn, once per game)")
    @app_commands.describe(die="The die to awaken (its square)",
                           invocation="The invocation, in full: “My Dice resonate with the "
                                      "fire in my heart! …”")
    async def dice_awakening(self, interaction: discord.Interaction, die: Die,
                             invocation: app_commands.Range[str, 1, 300]) -> None:
        await self.game.act(interaction, f"awaken {die.strip()} {invocation}",
                            done="✨ Final Form! DICE AWAKENING!")

    @dice_awakening.autocomplete("die")
    async def awaken_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.game.complete(interaction, current, "aw")

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """The typed phrase "DICE IS NOT BEND!" (maybe with the die) in a game's thread, when
        the bot may read messages."""
        if not getattr(self.bot, "read_messages", False) or message.author.bot or (
                message.guild is None):
            return
        key = phrase_key(message.content or "")
        rest = key[len(BEND_KEY):]
        if not key.startswith(BEND_KEY) or len(rest) > 3:
            return  # not the phrase, or chatter that merely starts with it
        row = await self.bot.store.active_game_in(message.channel.id, self.game.KIND)
        seat = row.seat_of(message.author.id) if row is not None else None
        if seat is None:
            return  # no game here, or a spectator shouting along
        game = self.game.engine.from_json(row.state)
        try:
            move = self.game.bend_move(row, game, seat, rest or None)
            if move is None:
                return await self.game.ask_which(None, row, game, seat, channel=message.channel)
            await self.game.play_move(row.id, message.author.id, move)
        except RuleError as e:
            # addressed to who typed it, without a ping: a refusal is not a call to act
            await message.channel.send(f"{message.author.mention} ❌ {e.message}",
                                       allowed_mentions=NONE)


async def setup(bot: commands.Bot) -> None:
    game = SlideSlamCog(bot)
    await bot.add_cog(game)
    await bot.add_cog(SlideSlamPhrases(bot, game))
