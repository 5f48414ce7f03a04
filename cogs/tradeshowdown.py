"""TradeShowdown in Discord: what is Discord's own. The engine says what a seat may do
(`menu`) and what to do now (`prompt`); GameCog lays both out. Here: business cards, the
options of `challenge`/`open` (from the engine's table), the dice wizard of the secret panel
(tick dice after naming a target, a half-made choice no list keeps), the "Best first" click
(the rest of an attack in one move), the typed `dice` counts, and the pictures.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import RuleError
from bot.engine.tradeshowdown import TradeShowdown
from bot.gamecog import GameCog, Panel, clip, on_component, picture_file
from bot.options import engine_options
from bot.store import GameRow
from bot.ui import ComponentCall, GameItem, MoveButton, TypeMoveButton, reply
from rendering.tradeshowdown import public_picture, render_card, seat_picture

log = logging.getLogger(__name__)

KIND = "tradeshowdown"
OPTIONS = ("fair_length", "dice", "round_limit", "choose_seconds", "window_seconds",
           "multiple_attacks", "intimidate", "tag_team", "combos")
SLOT_CHOICES = [app_commands.Choice(name="1 (your main fighter)", value=1),
                app_commands.Choice(name="2 (tag-team partner)", value=2)]
# Written in a phone number, dropped before the digits are checked.
SEPARATORS = re.compile(r"[\s\-.()/+]")
SEPARATOR_NOTE = ("Spaces, dashes, dots, slashes and brackets are dropped for you; everything "
                  "else must be a digit 0-9.")
_RNG = secrets.SystemRandom()  # `card random` only; never a game move (the table rolls those)
_FIRST = ("Apex", "Blue Ox", "Copperline", "Dynamo", "Evergreen", "Falcon", "Granite",
          "Harbor", "Ironclad", "Jolly", "Keystone", "Lighthouse", "Maverick", "Northwind",
          "Octagon", "Pinnacle", "Quickstep", "Redwood", "Summit", "Titan", "Union", "Vanguard",
          "Wildcat", "Zenith")
_TRADE = ("Accounting", "Plumbing", "Copiers", "Dental", "Realty", "Freight", "Legal",
          "Insurance", "Security", "Catering", "Consulting", "Media", "Roofing", "Bakery",
          "Logistics", "Printing", "Staffing", "Auto Body", "Landscaping", "Locksmiths")


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# --- business cards ---------------------------------------------------------------------------

def parse_card(name: str, digits: str, zip_code: str) -> dict[str, str]:
    """A card as typed -> the engine's checked card. Separators in the phone number are dropped;
    everything else is the engine's check (`check_card`), so the rules live in one place."""
    raw = {"name": name, "digits": SEPARATORS.sub("", digits), "zip": zip_code.strip()}
    try:
        return TradeShowdown.check_card(raw, "Your card")
    except RuleError as e:
        text = e.message
        if "digit" in text and "zip code" not in text:
            text += f" {SEPARATOR_NOTE}"
        raise RuleError(text) from None


def random_card() -> dict[str, str]:
    """A made-up fighter: a street number, then a fictional 555-01xx phone number."""
    name = f"{_RNG.choice(_FIRST)} {_RNG.choice(_TRADE)}"
    street = str(_RNG.randint(1, 9999))
    area = f"{_RNG.randint(2, 9)}{_RNG.randint(0, 99):02d}"
    phone = f"{area}55501{_RNG.randint(0, 99):02d}"
    return TradeShowdown.check_card({"name": name, "digits": street + phone,
                       "zip": f"{_RNG.randint(0, 99999):05d}"}, "Random card")


def card_text(card: dict[str, Any], slot: int | None = None) -> str:
    head = f"**{card['name']}**" + (f" (slot {slot}{', tag-team partner' if slot == 2 else ''})"
                                    if slot is not None else "")
    return f"{head} — digits `{card['digits']}` ({len(card['digits'])}), zip `{card['zip']}`"


class TradeShowdownCog(GameCog, group_name="tradeshowdown",
                       group_description="TradeShowdown: business cards fight with dice"):
    KIND = KIND
    MOVE_EXAMPLE = "dice d4 d6 d10 d10"

    card = app_commands.Group(name="card", description="Your business cards (your fighters)")

    # ---- game start: the players' saved cards --------------------------------------------------
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

    # ---- pictures ----------------------------------------------------------------------------
    async def picture(self, row: GameRow, game, seat: int | None = None):
        view = game.view(seat)
        if seat is None:
            return await self.draw(public_picture, view)
        return await self.draw(seat_picture, view)

    def view_signature(self, game, seat: int | None) -> str:
        """A panel changes only when its owner's options or private facts change: another
        player's progress (who has chosen, who is ready) is left out of a seat's signature."""
        view = game.view(seat)
        if seat is not None:
            view = dict(view, waiting_for=None, fighters=[
                f if f["seat"] == seat else {k: v for k, v in f.items()
                                             if k not in ("chosen", "ready")}
                for f in view["fighters"]])
        return hashlib.sha1(json.dumps(view, sort_keys=True, default=str)
                            .encode()).hexdigest()[:16]

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
            for i in (menu.group("target").items if menu.group("target") else ())]
        everything = self.engine.dice_move(me["dice_list"]) if me.get("dice_list") else None
        if everything and menu.item(everything):
            buttons.append(MoveButton(row.id, version, everything,
                                      f"Roll all {len(me['dice_list'])} dice"))
        buttons += [MoveButton(row.id, version, i.move, i.label, emoji="🔁",
                               style=discord.ButtonStyle.secondary)
                    for i in (menu.group("tag").items if menu.group("tag") else ())]
        buttons.append(TypeMoveButton(row.id))
        options, counted = [], {}
        for i, size in enumerate(me.get("dice_list", [])):
            counted[size] = counted.get(size, 0) + 1
            n = me["dice_list"].count(size)
            options.append(discord.SelectOption(
                label=f"d{size}" + (f" ({ordinal(counted[size])} of {n})" if n > 1 else ""),
                value=str(i), description=f"shows {'0-9' if size == 10 else f'1-{size}'}"))
        items = [GameItem.select(row.id, version, "dice", options, min_values=1,
                                 max_values=len(options), row=0,
                                 placeholder="Tick the dice you roll this round (1 or more)")]
        for n, b in enumerate(buttons):
            b.item.row = 1 + n // 5
        return Panel(text, items + buttons)

    @on_component("dice")
    async def on_dice_select(self, interaction: discord.Interaction,
                             call: ComponentCall) -> None:
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
        await self.on_move_component(interaction, call.game_id, call.version, move)

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
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
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
    async def dice_command(self, interaction: discord.Interaction,
                           d4: app_commands.Range[int, 0, 10] = 0,
                           d6: app_commands.Range[int, 0, 10] = 0,
                           d8: app_commands.Range[int, 0, 10] = 0,
                           d10: app_commands.Range[int, 0, 10] = 0,
                           target: discord.Member | None = None) -> None:
        counts = {4: d4, 6: d6, 8: d8, 10: d10}
        # Discord enforces the ranges, a forged request does not: the rules check the counts
        # (as numbers, before any list is built) and write the move.
        total = sum(counts.values())
        if total < 1 or total > TradeShowdown.SUPPLY_SIZE or min(counts.values()) < 0:
            raise RuleError(f"Choose 1 to {TradeShowdown.SUPPLY_SIZE} dice from your supply, "
                            "e.g. `d10:3` (d4, d6, d8, d10 give how many of each you roll).")
        row, _ = await self.find_game(interaction)
        t = None
        if target is not None:
            t = row.seat_of(target.id)
            if t is None:
                raise RuleError(f"{target.display_name} is not in this game; name one of its "
                                "players as your target.")
        move = self.engine.dice_move([s for s, n in counts.items() for _ in range(n)], t)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.play_move(row.id, interaction.user.id, move)
        await interaction.followup.send(
            f"✅ Secret until the roll: {self.engine.from_json(row.state).describe(move, row.seat_of(interaction.user.id)).label}.",
            ephemeral=True)

    # ---- commands: business cards --------------------------------------------------------------
    async def _show(self, interaction: discord.Interaction, text: str,
                    cards: list[dict[str, Any]]) -> None:
        files = []
        for n, c in enumerate(cards, 1):
            pic = await self.draw(render_card, {k: c[k] for k in ("name", "digits", "zip")})
            if pic is not None:
                files.append(picture_file(pic, f"card-{c.get('slot', n)}.png"))
        kw: dict[str, Any] = {"files": files} if files else {}
        await reply(interaction, clip(text), ephemeral=True, **kw)

    @card.command(name="set", description="Save your business card (your fighter)")
    @app_commands.describe(
        name="The name on the card (up to 40 characters)",
        digits=f"Every digit on the card: phone, street number... ({TradeShowdown.MIN_DIGITS}-{TradeShowdown.MAX_DIGITS})",
        zip_code=f"The {TradeShowdown.ZIP_DIGITS}-digit zip code (for combos)",
        slot="1: your main fighter, 2: your tag-team partner")
    @app_commands.rename(zip_code="zip")
    @app_commands.choices(slot=SLOT_CHOICES)
    async def card_set(self, interaction: discord.Interaction,
                       name: app_commands.Range[str, 1, 100],
                       digits: app_commands.Range[str, 1, 100],
                       zip_code: app_commands.Range[str, 1, 20],
                       slot: int = 1) -> None:
        card = parse_card(name, digits, zip_code)
        await self.bot.store.save_card(interaction.user.id, slot, card["name"], card["digits"],
                                       card["zip"])
        await self._show(interaction, (
            f"✅ Saved in slot {slot}: {card_text(card)}.\n"
            "Every card in a game fights with the same number of digits (10 unless the game "
            "says otherwise): a longer card uses its first ones, a shorter one repeats. Your "
            "card is shown to the other players of your games — a made-up number "
            "(`card random`) is fine."), [card])

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
        lines = [f"{whose} business card{'s' if len(cards) > 1 else ''}:"]
        lines += [f"• {card_text(c, c['slot'])}" for c in cards]
        await self._show(interaction, "\n".join(lines), cards)

    @card.command(name="random", description="Deal yourself a random made-up business card")
    @app_commands.describe(slot="1: your main fighter, 2: your tag-team partner")
    @app_commands.choices(slot=SLOT_CHOICES)
    async def card_random(self, interaction: discord.Interaction, slot: int = 1) -> None:
        card = random_card()
        await self.bot.store.save_card(interaction.user.id, slot, card["name"], card["digits"],
                                       card["zip"])
        await self._show(interaction, f"🎴 Dealt and saved in slot {slot}: {card_text(card)}.",
                         [card])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TradeShowdownCog(bot))
