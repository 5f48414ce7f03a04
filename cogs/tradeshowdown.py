"""TradeShowdown in Discord: business cards, challenges, the secret dice choice and window, and
the public attacks. A thin adapter: every rule lives in bot/engine/tradeshowdown.

Commands (group `/tradeshowdown`, plus the generic `board`, `panel`, `move` from GameCog):
- `card set name digits zip [slot]`, `card show [user]`, `card random [slot]`: your fighters,
  saved per user; slot 2 is the tag-team partner.
- `challenge opponent [options]` / `open [options]` (3-6 players join): the players' saved
  cards are read when the game starts (GameCog.prepare_options, called by the lobby).
- `dice [d4] [d6] [d8] [d10] [target]`: the secret dice choice as typed counts (the panel's
  menu does the same in clicks).

Secret steps (the dice choice, the window after the roll) happen in each player's panel (DM,
or the ephemeral fallback); the attacks are public: the attacker's select of eligible digits
and the "best" buttons sit under the turn message in the game thread.
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
from bot.store import GameRow
from bot.ui import ComponentCall, GameItem, MoveButton, MoveSelect, TypeMoveButton, reply
from rendering.tradeshowdown import public_picture, render_card, seat_picture

log = logging.getLogger(__name__)

KIND = "tradeshowdown"
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
ROW_LIMIT, PER_ROW = 5, 5


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


# The game options both `challenge` and `open` take (same words in both commands' help).
OPTION_HELP = dict(
    fair_length="Digits every card fights with (default 10)",
    dice="Each player's ten dice, e.g. 2xd4,2xd6,2xd8,4xd10 (the default)",
    round_limit="Judges' decision after this round (default 30)",
    choose_seconds="Seconds to choose dice each round (default 120)",
    window_seconds="Seconds for the secret window after the roll (default 60)",
    multiple_attacks="Every set is its own attack (default on)",
    intimidate="Slash your own digits to widen a set (default on)",
    tag_team="Each player fights with two cards (default on)",
    combos="Zip-code combos and special attacks (default on)",
)

# Which buttons a kind of move gets, and their words (the moves' own words come from
# `game.describe`).
WINDOW_KINDS = (("set", "Pick the set you attack with"),
                ("claw", "Collating Claw: swap two of a set's height, width and depth"),
                ("intimidate", "Intimidate: slash your own digit for +1 slash"),
                ("combo", "Combo: set aside a die that matches your zip code"))


def _is_select(item: discord.ui.Item) -> bool:
    return isinstance(getattr(item, "item", item), discord.ui.Select)


def layout(groups: list[list[discord.ui.Item]]) -> list[discord.ui.Item]:
    """Give each group of items rows of its own (a select fills a row, buttons go five to a
    row), at most five rows; groups that do not fit are left out, but the last group (the
    controls, with the typed move) always has its room."""
    out: list[discord.ui.Item] = []
    row = 0
    *body, last = groups if groups else [[]]
    need_last = -(-len(last) // PER_ROW) if last else 0
    for group in body:
        rows = sum(1 for i in group if _is_select(i)) + -(
            -sum(1 for i in group if not _is_select(i)) // PER_ROW)
        if not group or row + rows > ROW_LIMIT - need_last:
            continue
        buttons = [i for i in group if not _is_select(i)]
        for item in group:
            if _is_select(item):
                item.item.row = row
                row += 1
                out.append(item)
        for k, item in enumerate(buttons):
            item.item.row = row + k // PER_ROW
            out.append(item)
        row += -(-len(buttons) // PER_ROW)
    for k, item in enumerate(last):
        item.item.row = row + k // PER_ROW
        out.append(item)
    return out


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


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

    # ---- small builders ------------------------------------------------------------------------
    def _button(self, row, version, game, seat, move, *, style=discord.ButtonStyle.primary,
                emoji=None, label=None) -> discord.ui.Item:
        return MoveButton(row.id, version, move, label or game.describe(move, seat).label,
                          style=style, emoji=emoji)

    def _choices(self, row, version, game, seat, tag, offer, placeholder,
                 style=discord.ButtonStyle.primary) -> list[discord.ui.Item]:
        """Up to five moves as buttons, else one select of up to 25 (each with its effect)."""
        if len(offer) <= PER_ROW:
            return [self._button(row, version, game, seat, m, style=style) for m in offer]
        options = []
        for m in offer[:25]:
            said = game.describe(m, seat)
            options.append(discord.SelectOption(label=said.label[:100], value=m,
                                                description=said.effect[:100] or None))
        return [MoveSelect(row.id, version, options, placeholder, tag=tag)]

    # ---- the secret panel (dice choice; the window after the roll) -------------------------------
    def panel(self, row: GameRow, game, seat: int, version: str) -> Panel:
        view = game.view(seat)
        me = view["fighters"][seat]
        card = me["cards"][me["active"]]
        head = (f"**TradeShowdown — game #{row.id}, round {view['round']} of "
                f"{view['round_limit']}** — {game.name(seat)}, fighting with "
                f"**{card['name']}**")
        if seat not in game.actors():
            return Panel(head + "\nNothing to do right now; the fight goes on in the thread.")
        phase = view["phase"]
        if phase == "choose":
            text, groups = self._choose_panel(row, game, view, seat, version)
        elif phase == "window":
            text, groups = self._window_panel(row, game, view, seat, version)
        else:
            text, groups = "Your move:", [self.move_items(row, game, seat, version)]
        return Panel(clip(head + "\n" + text), layout(groups))

    def _choose_panel(self, row, game, view, seat, version):
        me = view["fighters"][seat]
        offer = me.get("moves", {})
        supply = [(int(k[1:]), n) for k, n in me["supply"].items() if n]
        have = ", ".join(f"{n} × d{s}" for s, n in supply)
        groups: list[list[discord.ui.Item]] = []
        lines = [f"🎲 **Choose your dice in secret** (your supply: {have}). The number of dice "
                 "you roll is your *depth*: fewer dice strike earlier, more dice make wider "
                 "sets (more slashes). Nobody sees your choice before the roll."]
        if offer.get("target"):
            mine = me["target"]
            groups.append([self._button(
                row, version, game, seat, m, emoji="🎯",
                style=(discord.ButtonStyle.success if mine is not None
                       and m == self.engine.target_move(mine)
                       else discord.ButtonStyle.secondary)) for m in offer["target"]])
            lines.append(f"Your target: **{game.name(mine)}**." if mine is not None else
                         "First pick your target (🎯), then your dice.")
        options = []
        counted: dict[int, int] = {}
        for i, size in enumerate(me.get("dice_list", [])):
            counted[size] = counted.get(size, 0) + 1
            n = dict(supply).get(size, 0)
            faces = "0-9" if size == 10 else f"1-{size}"
            options.append(discord.SelectOption(
                label=f"d{size}" + (f" ({_ordinal(counted[size])} of {n})" if n > 1 else ""),
                value=str(i), description=f"shows {faces}"))
        if options:
            groups.append([GameItem.select(
                row.id, version, "dice", options, min_values=1, max_values=len(options),
                placeholder="Tick the dice you roll this round (1 or more)")])
        controls: list[discord.ui.Item] = []
        everything = self.engine.dice_move(me["dice_list"]) if me.get("dice_list") else None
        if everything in offer.get("dice", []):
            controls.append(self._button(row, version, game, seat, everything,
                                         label=f"Roll all {len(me['dice_list'])} dice"))
        if offer.get("tag"):
            controls.append(self._button(row, version, game, seat, "tag",
                                         style=discord.ButtonStyle.secondary, emoji="🔁"))
            if me.get("tag_pending"):
                lines.append("🔁 " + game.describe("tag", seat).label.replace(
                    "Cancel the tag", "Your partner tags in when the dice are rolled."))
        controls.append(TypeMoveButton(row.id))
        groups.append(controls)
        return "\n".join(lines), groups

    def _window_panel(self, row, game, view, seat, version):
        me = view["fighters"][seat]
        offer = me.get("moves", {})
        plan = me.get("plan") or {}
        lines = ["🕶️ **After the roll, in secret** — your choices are revealed with everyone's "
                 "when all are done.", plan.get("text") or ""]
        if me["combo"] or plan.get("aside"):
            lines.append(f"Combo: {len(me['combo']) + len(plan.get('aside') or [])} of 5 dice "
                         "set aside (at 5 you fire a special attack).")
        groups = []
        for kind, placeholder in WINDOW_KINDS:
            if offer.get(kind):
                groups.append(self._choices(row, version, game, seat, kind, offer[kind],
                                            placeholder))
        controls: list[discord.ui.Item] = [
            self._button(row, version, game, seat, "done", style=discord.ButtonStyle.success,
                         emoji="✅")]
        if offer.get("undo"):
            controls.append(self._button(row, version, game, seat, "undo",
                                         style=discord.ButtonStyle.secondary, emoji="↩️"))
        controls.append(TypeMoveButton(row.id))
        groups.append(controls)
        return "\n".join(line for line in lines if line), groups

    @on_component("dice")
    async def on_dice_select(self, interaction: discord.Interaction,
                             call: ComponentCall) -> None:
        """The dice menu: the ticked dice of the supply (by their place in it) become one dice
        choice (the target is the one named with the 🎯 buttons)."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.player_seat(row, interaction)
        view = game.view(seat)
        me = view["fighters"][seat]
        supply = me.get("dice_list") or []
        places = {str(i): size for i, size in enumerate(supply)}
        if not call.values or len(set(call.values)) != len(call.values) or any(
                v not in places for v in call.values):
            raise RuleError("Tick dice from your supply in the menu.")
        if view["need_target"] and me["target"] is None:
            raise RuleError("Pick your target first (the 🎯 buttons), then tick your dice.")
        move = self.engine.dice_move([places[v] for v in call.values])
        await self.on_move_component(interaction, call.game_id, call.version, move)

    # ---- the public attacks -------------------------------------------------------------------
    def turn_items(self, row: GameRow, game, seat: int) -> list[discord.ui.Item]:
        view = game.view(None)
        p = view["pending"]
        if p is None or p["seat"] != seat:
            return self.move_items(row, game, seat)
        offer = p["moves"]
        version = row.version
        if p["stage"] == "redirect":
            buttons = [self._button(row, version, game, seat, m, emoji="🎯")
                       for m in offer.get("target", [])]
            return layout([buttons, [TypeMoveButton(row.id)]])
        if p["stage"] == "special":
            buttons = [self._button(row, version, game, seat, m, emoji="💥",
                                    style=discord.ButtonStyle.danger)
                       for m in offer.get("special", [])]
            groups: list[list[discord.ui.Item]] = [buttons]
            if offer.get("pencil"):
                groups.append(self._choices(
                    row, version, game, seat, "snap", offer["pencil"],
                    "Snapping Pencil: their dice of one value never count in sets"))
            controls: list[discord.ui.Item] = [
                self._button(row, version, game, seat, m, style=discord.ButtonStyle.secondary)
                for m in offer.get("hold", [])]
            controls.append(TypeMoveButton(row.id))
            groups.append(controls)
            return layout(groups)
        return layout(self._slash_groups(row, game, view, seat))

    def _slash_groups(self, row, game, view, seat):
        p = view["pending"]
        offer = p["moves"]
        target = view["fighters"][p["target"]]
        card = target["cards"][target["active"]]
        digits = offer.get("slash", [])
        if len(digits) > 25:  # a long card: one entry per value (its least-slashed digit)
            digits = [m for m in game.legal(seat) if "#" not in m]
        options = []
        for m in digits[:25]:
            said = game.describe(m, seat)
            options.append(discord.SelectOption(label=said.label[:100], value=m,
                                                description=said.effect[:100] or None))
        left = p["slashes_left"]
        groups: list[list[discord.ui.Item]] = [[MoveSelect(
            row.id, row.version, options, tag="slash", placeholder=(
                f"Slash a digit up to {p['reach']} on {card['name']} ({left} left)"))]]
        buttons: list[discord.ui.Item] = []
        best = p.get("best")
        if best:
            buttons.append(self._button(row, row.version, game, seat, best,
                                        style=discord.ButtonStyle.success, emoji="⚔️",
                                        label=f"Best first: {game.describe(best, seat).label}"))
        buttons.append(TypeMoveButton(row.id))
        groups.append(buttons)
        return groups

    def status_line(self, row: GameRow, game) -> str:
        line = super().status_line(row, game)
        if game.outcome() is not None:
            return line
        view = game.view(None)
        p = view["pending"]
        if p is None:
            return line
        who = game.name(p["seat"])
        if p["stage"] == "slash":
            f = view["fighters"][p["target"]]
            left = p["slashes_left"]
            line += (f"\n⚔️ {who} slashes {game.name(p['target'])}'s "
                     f"**{f['cards'][f['active']]['name']}**: {left} slash"
                     f"{'es' if left != 1 else ''} left, on digits up to {p['reach']} (the "
                     "set's value). Pick a digit below, or ⚔️ Best first.")
        elif p["stage"] == "special":
            line += (f"\n💥 {who} has five combo dice: fire a special attack, or hold the "
                     "combo.")
        else:
            line += f"\n🎯 {who}: your target is down; pick a new one."
        return line

    # ---- commands: starting a fight ----------------------------------------------------------
    @staticmethod
    def _options(**given: Any) -> dict[str, Any]:
        return {k: v for k, v in given.items() if v is not None}

    async def _tip(self, interaction: discord.Interaction) -> None:
        if not await self.bot.store.cards_of(interaction.user.id):
            await interaction.followup.send(
                "Tip: you have no business card saved, so you would fight with a sample card. "
                "Save yours with `/tradeshowdown card set` (or `card random`) before the game "
                "starts.", ephemeral=True)

    @app_commands.command(name="challenge", description="Challenge someone to a TradeShowdown")
    @app_commands.describe(opponent="Who you challenge", **OPTION_HELP)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        fair_length: app_commands.Range[int, 6, 40] | None = None,
                        dice: app_commands.Range[str, 2, 100] | None = None,
                        round_limit: app_commands.Range[int, 1, 200] | None = None,
                        choose_seconds: app_commands.Range[int, 10, 3600] | None = None,
                        window_seconds: app_commands.Range[int, 10, 3600] | None = None,
                        multiple_attacks: bool | None = None, intimidate: bool | None = None,
                        tag_team: bool | None = None, combos: bool | None = None) -> None:
        options = self._options(
            fair_length=fair_length, dice=dice, round_limit=round_limit,
            choose_seconds=choose_seconds, window_seconds=window_seconds,
            multiple_attacks=multiple_attacks, intimidate=intimidate, tag_team=tag_team,
            combos=combos)
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)
        await self._tip(interaction)

    @app_commands.command(name="open", description="Open a TradeShowdown table for 2-6 players")
    @app_commands.describe(**OPTION_HELP)
    async def open_table(self, interaction: discord.Interaction,
                         fair_length: app_commands.Range[int, 6, 40] | None = None,
                         dice: app_commands.Range[str, 2, 100] | None = None,
                         round_limit: app_commands.Range[int, 1, 200] | None = None,
                         choose_seconds: app_commands.Range[int, 10, 3600] | None = None,
                         window_seconds: app_commands.Range[int, 10, 3600] | None = None,
                         multiple_attacks: bool | None = None, intimidate: bool | None = None,
                         tag_team: bool | None = None, combos: bool | None = None) -> None:
        options = self._options(
            fair_length=fair_length, dice=dice, round_limit=round_limit,
            choose_seconds=choose_seconds, window_seconds=window_seconds,
            multiple_attacks=multiple_attacks, intimidate=intimidate, tag_team=tag_team,
            combos=combos)
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
