"""TradeShowdown in Discord, only what is Discord's own (GameCog lays out `menu`, `prompt`): cards,
the secret panel's dice wizard (a half-made choice), "Best first", typed dice, the board."""
from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import jsontext
from bot.engine.core import RuleError
from bot.engine.tradeshowdown import TradeShowdown
from bot.gamecog import GameCog, Panel, clip, on_component, picture_file
from bot.options import engine_options
from bot.store import GameRow
from bot.ui import ComponentCall, GameItem, MoveButton, TypeMoveButton, reply
from rendering.tradeshowdown import board_while_slashing, live_board, public_picture, render_card

log = logging.getLogger(__name__)

OPTIONS = ("fair_length", "dice", "round_limit", "choose_seconds", "window_seconds",
           "multiple_attacks", "intimidate", "tag_team", "combos")
SLOT_CHOICES = [app_commands.Choice(name="1 (your main fighter)", value=1),
                app_commands.Choice(name="2 (tag-team partner)", value=2)]
Count = app_commands.Range[int, 0, TradeShowdown.SUPPLY_SIZE]  # dice of one size, typed
_RNG = secrets.SystemRandom()  # `card random` only; never a game move (the table rolls those)


def card_text(card: dict[str, Any], slot: int | None = None) -> str:
    head = f"**{card['name']}**" + (f" (slot {slot}{', tag-team partner' if slot == 2 else ''})"
                                    if slot is not None else "")
    return f"{head} — digits `{card['digits']}` ({len(card['digits'])}), zip `{card['zip']}`"


class TradeShowdownCog(GameCog, group_name="tradeshowdown",
                       group_description="TradeShowdown: business cards fight with dice"):
    KIND = "tradeshowdown"
    MOVE_EXAMPLE = "dice d4 d6 d10 d10"

    card = app_commands.Group(name="card", description="Your business cards (your fighters)")

    async def prepare_options(self, options: dict[str, Any], players: list[int]) -> dict[str, Any]:
        """The `cards` option from each player's saved cards, in seat order, as saved now (the
        game starts). The engine deals the rest: no card, the built-in (mirrored) cards; Tag
        Team with one saved card, a built-in partner."""
        tag = bool(options.get("tag_team", True))
        entries: list[list[dict[str, str]] | None] = []
        for uid in players:
            cards = []
            for c in await self.bot.store.cards_of(uid):
                try:
                    cards.append(self.engine.check_card(
                        {k: c[k] for k in ("name", "digits", "zip")}, "card"))
                except RuleError:
                    log.warning("user %s has an invalid saved card in slot %s", uid, c["slot"])
            entries.append(cards or None)
        dealt = self.engine.deal_cards(entries, tag)
        return options if dealt is None else {**options, "cards": dealt}

    # ---- pictures: the thread's live board only; a seat's panel says its secrets in words --
    async def picture(self, row: GameRow, game, seat: int | None = None):  # panels say it: #22
        return None if seat is not None else await self.draw(public_picture, live_board(
            game.view(None)))

    def view_signature(self, game, seat: int | None) -> str:
        """A panel changes only when its owner's options or private facts change: another
        player's progress (who has chosen, who is ready) is left out of a seat's signature,
        as the thread's live board leaves it out of its picture."""
        if seat is None:  # the thread's board, as drawn (not again for each slash)
            return jsontext.digest(board_while_slashing(game.view(None)))
        view = game.view(seat)
        return jsontext.digest(dict(view, waiting_for=None, fighters=[
            f if f["seat"] == seat else {k: v for k, v in f.items()
                                         if k not in ("chosen", "ready")}
            for f in view["fighters"]]))

    # ---- the secret panel: the dice choice keeps a half-made choice (target, then dice) -------
    def panel(self, row: GameRow, game, seat: int, version: str) -> Panel:
        view = game.view(seat)
        me = view["fighters"][seat]
        head = (f"**TradeShowdown — game #{row.id}, round {view['round']} of "
                f"{view['round_limit']}** — {game.name(seat)}, fighting with "
                f"**{me['cards'][me['active']]['name']}**")
        prompt = game.prompt(seat)
        if seat not in game.actors():
            return Panel(f"{head}\n{prompt.waiting}")
        text = clip(f"{head}\n{prompt.todo}")
        if view["phase"] != "choose":
            return Panel(text, self.move_items(row, game, seat, version))
        menu = game.menu(seat)
        mine = None if me["target"] is None else self.engine.target_move(me["target"])
        buttons = [MoveButton(row.id, version, i.move, i.label, emoji="🎯", style=(
            discord.ButtonStyle.success if i.move == mine else discord.ButtonStyle.secondary))
            for i in getattr(menu.group("target"), "items", ())]
        everything = self.engine.dice_move(me["dice_list"])
        if menu.item(everything):
            buttons.append(MoveButton(row.id, version, everything,
                                      f"Roll all {len(me['dice_list'])} dice"))
        buttons += [MoveButton(row.id, version, i.move, i.label, emoji="🔁",
                               style=discord.ButtonStyle.secondary)
                    for i in getattr(menu.group("tag"), "items", ())] + [TypeMoveButton(row.id)]
        for n, b in enumerate(buttons):
            b.item.row = 1 + n // 5
        options = [discord.SelectOption(label=label, value=str(i), description=shows)
                   for i, (label, shows) in enumerate(game.supply_words(seat))]
        items = [GameItem.select(row.id, version, "dice", options, min_values=1,
                                 max_values=len(options), row=0,
                                 placeholder="Tick the dice you roll this round (1 or more)")]
        return Panel(text, items + buttons)

    @on_component("dice")
    async def on_dice_select(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The dice menu: the ticked dice of the supply (by their place in it) become one dice
        choice (at the target named with the 🎯 buttons)."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        view = game.view(seat)
        me = view["fighters"][seat]
        places = {str(i): size for i, size in enumerate(me.get("dice_list") or [])}
        if not call.values or len(set(call.values)) != len(call.values) or any(
                v not in places for v in call.values):
            raise RuleError("Tick dice from your supply in the menu.")
        if view["need_target"] and me["target"] is None:
            raise RuleError("Pick your target first (the 🎯 buttons), then tick your dice.")
        move = self.engine.dice_move([places[v] for v in call.values])
        await self.on_move_component(interaction, call.game_id, call.version, move,
                                     seen=(row, game))

    # ---- the public attacks: the menu, and the rest of the attack best-first in one click -------
    def move_items(self, row: GameRow, game, seat: int,
                   version: int | str | None = None) -> list[discord.ui.Item]:
        items = super().move_items(row, game, seat, version)
        best = game.best_slashes(seat)
        if best is None:
            return items
        items.insert(-1, MoveButton(row.id, row.version if version is None else version, best,
                                    f"Best first: {game.describe(best, seat).label}",
                                    style=discord.ButtonStyle.success, emoji="⚔️"))
        buttons = [i for i in items if not isinstance(i.item, discord.ui.Select)]
        first = min(b.item.row for b in buttons if b.item.row is not None)
        for n, b in enumerate(buttons):
            b.item.row = first + n // 5
        return items

    # ---- commands: starting a fight ----------------------------------------------------------
    async def _tip(self, interaction: discord.Interaction) -> None:
        if not await self.bot.store.cards_of(interaction.user.id):
            await interaction.followup.send(
                "Tip: you have no business card saved, so you would fight with a sample card. "
                "Save yours with `/tradeshowdown card set` (or `card random`) before the game "
                "starts.", ephemeral=True)

    @app_commands.command(name="challenge", description="Challenge someone to a TradeShowdown")
    @app_commands.describe(opponent="Who you challenge")
    @engine_options(TradeShowdown, *OPTIONS)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)
        await self._tip(interaction)

    @app_commands.command(name="open", description="Open a TradeShowdown table for 2-6 players")
    @engine_options(TradeShowdown, *OPTIONS)
    async def open_table(self, interaction: discord.Interaction, **options) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, None, options)
        await self._tip(interaction)

    # ---- commands: the secret dice choice, typed -------------------------------------------------
    @app_commands.command(name="dice", description="Choose this round's dice in secret (counts)")
    @app_commands.describe(d4="How many d4 to roll", d6="How many d6 to roll",
                           d8="How many d8 to roll", d10="How many d10 to roll",
                           target="Who you attack (only with 3 or more fighters standing)")
    async def dice_command(self, interaction: discord.Interaction, d4: Count = 0, d6: Count = 0,
                           d8: Count = 0, d10: Count = 0,
                           target: discord.User | None = None) -> None:
        row, game = await self.find_game(interaction)
        t = None if target is None else row.seat_of(target.id)
        if target is not None and t is None:
            raise RuleError(f"{target.display_name} is not in this game; name one of its "
                            "players as your target.")
        move = self.engine.counts_move({4: d4, 6: d6, 8: d8, 10: d10}, t)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.play_move(row.id, interaction.user.id, move, seen=(row, game))
        said = game.describe(move, row.seat_of(interaction.user.id)).label
        await interaction.followup.send(f"✅ Secret until the roll: {said}.", ephemeral=True)

    # ---- commands: business cards --------------------------------------------------------------
    async def _save(self, interaction: discord.Interaction, slot: int, card: dict) -> None:
        await self.bot.store.save_card(interaction.user.id, slot, card["name"], card["digits"],
                                       card["zip"])

    async def _show(self, interaction: discord.Interaction, text: str,
                    cards: list[dict[str, Any]]) -> None:
        files = []
        for n, c in enumerate(cards, 1):
            pic = await self.draw(render_card, {k: c[k] for k in ("name", "digits", "zip")})
            if pic is not None:
                files.append(picture_file(pic, f"card-{c.get('slot', n)}.png"))
        await reply(interaction, clip(text), ephemeral=True, **({"files": files} if files else {}))

    @card.command(name="set", description="Save your business card (your fighter)")
    @app_commands.describe(
        name="The name on the card (up to 40 characters)",
        digits=f"Every digit on the card: phone, street number... "
               f"({TradeShowdown.MIN_DIGITS}-{TradeShowdown.MAX_DIGITS})",
        zip_code=f"The {TradeShowdown.ZIP_DIGITS}-digit zip code (for combos)",
        slot="1: your main fighter, 2: your tag-team partner")
    @app_commands.rename(zip_code="zip")
    @app_commands.choices(slot=SLOT_CHOICES)
    async def card_set(self, interaction: discord.Interaction,
                       name: app_commands.Range[str, 1, 100],
                       digits: app_commands.Range[str, 1, 100],
                       zip_code: app_commands.Range[str, 1, 20],
                       slot: int = 1) -> None:
        card = self.engine.typed_card(name, digits, zip_code)
        await self._save(interaction, slot, card)
        await self._show(interaction, f"✅ Saved in slot {slot}: {card_text(card)}.\n"
                         f"{self.engine.CARD_NOTE}", [card])

    @card.command(name="show", description="Show a player's business cards")
    @app_commands.describe(user="Whose cards (default: yours)")
    async def card_show(self, interaction: discord.Interaction,
                        user: discord.User | None = None) -> None:
        who = user or interaction.user
        cards = await self.bot.store.cards_of(who.id)
        if not cards:
            whose = "You have" if who.id == interaction.user.id else f"{who.display_name} has"
            raise RuleError(f"{whose} no business card yet; in games that means a sample card. "
                            "Save one with `/tradeshowdown card set` or `/tradeshowdown card "
                            "random`.")
        whose = "Your" if who.id == interaction.user.id else f"{who.display_name}'s"
        await self._show(interaction, "\n".join(
            [f"{whose} business card{'s' if len(cards) > 1 else ''}:"]
            + [f"• {card_text(c, c['slot'])}" for c in cards]), cards)

    @card.command(name="random", description="Deal yourself a random made-up business card")
    @app_commands.describe(slot="1: your main fighter, 2: your tag-team partner")
    @app_commands.choices(slot=SLOT_CHOICES)
    async def card_random(self, interaction: discord.Interaction, slot: int = 1) -> None:
        card = self.engine.random_card(_RNG)
        await self._save(interaction, slot, card)
        await self._show(interaction, f"🎴 Dealt and saved in slot {slot}: {card_text(card)}.",
                         [card])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TradeShowdownCog(bot))
