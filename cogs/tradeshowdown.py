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

import logging
import re
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import RuleError
from bot.engine.tradeshowdown.cards import (MAX_DIGITS, MIN_DIGITS, SAMPLE_CARDS, ZIP_DIGITS,
                                            check_card)
from bot.engine.tradeshowdown.dice import SIZES
from bot.engine.tradeshowdown.game import SPECIAL_TITLES
from bot.gamecog import GameCog, Panel, clip, mention, picture_file
from bot.store import GameRow
from bot.ui import (MoveButton, MoveSelect, TypeMoveButton, game_cog, guarded, parse_version,
                    reply, selected)
from rendering.tradeshowdown import render, render_card

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
        return check_card(raw, "Your card")
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
    return check_card({"name": name, "digits": street + phone,
                       "zip": f"{_RNG.randint(0, 99999):05d}"}, "Random card")


def card_text(card: dict[str, Any], slot: int | None = None) -> str:
    head = f"**{card['name']}**" + (f" (slot {slot}{', tag-team partner' if slot == 2 else ''})"
                                    if slot is not None else "")
    return f"{head} — digits `{card['digits']}` ({len(card['digits'])}), zip `{card['zip']}`"


# --- components of our own (several selects on one message need distinct custom ids) ----------

def _cog(interaction: discord.Interaction) -> "TradeShowdownCog":
    return game_cog(interaction, KIND, "TradeShowdown")


class DiceSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"tsd:(?P<gid>\d+):(?P<ver>p?\d+)"):
    """The secret dice choice: tick the dice of your supply you roll (1 to all of them)."""

    def __init__(self, game_id: int, version: int | str,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "Dice"):
        self.game_id, self.version = game_id, version
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(
            custom_id=f"tsd:{game_id}:{version}", placeholder=placeholder[:150],
            options=options[:25], min_values=1, max_values=min(len(options), 25)))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), parse_version(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_dice_select(interaction, self.game_id, self.version,
                                                   selected(interaction))
        await guarded(interaction, work)


DYNAMIC_ITEMS = (DiceSelect,)

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
                item.row = row
                row += 1
                out.append(item)
        for k, item in enumerate(buttons):
            item.row = row + k // PER_ROW
            out.append(item)
        row += -(-len(buttons) // PER_ROW)
    for k, item in enumerate(last):
        item.row = row + k // PER_ROW
        out.append(item)
    return out


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


class TradeShowdownCog(GameCog, group_name="tradeshowdown",
                       group_description="TradeShowdown: business cards fight with dice"):
    KIND = KIND
    DYNAMIC_ITEMS = DYNAMIC_ITEMS

    card = app_commands.Group(name="card", description="Your business cards (your fighters)")

    # ---- game start: the players' saved cards --------------------------------------------------
    async def prepare_options(self, options: dict[str, Any], players: list[int]) -> dict[str, Any]:
        """The `cards` option from each player's saved cards, in seat order, as saved now (the
        game starts). No card: the seat fights with sample cards; Tag Team with one saved card:
        a sample partner."""
        tag = bool(options.get("tag_team", True))
        entries: list[list[dict[str, str]] | None] = []
        for uid in players:
            cards = []
            for c in await self.bot.store.cards_of(uid):
                try:
                    cards.append(check_card({k: c[k] for k in ("name", "digits", "zip")}, "card"))
                except RuleError:
                    log.warning("user %s has an invalid saved card in slot %s", uid, c["slot"])
            entries.append(cards or None)
        if all(e is None for e in entries):
            return options
        # Samples the engine will give to seats without cards stay theirs.
        taken = set()
        for s, e in enumerate(entries):
            if e is None:
                taken |= {2 * s, 2 * s + 1} if tag else {s}
        spare = [c for i, c in enumerate(SAMPLE_CARDS) if i not in taken]
        for s, e in enumerate(entries):
            if e is None:
                continue
            if tag and len(e) == 1:
                e.append(dict(spare.pop(0)))
            entries[s] = e[:2] if tag else e[:1]
        return {**options, "cards": entries}

    # ---- publishing ----------------------------------------------------------------------------
    # ---- pictures ----------------------------------------------------------------------------
    async def picture(self, row: GameRow, game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    # ---- labels ------------------------------------------------------------------------------
    def move_label(self, game, seat: int, move: str) -> str:
        parts = move.split()
        verb, args = parts[0], parts[1:]
        if verb == "dice":
            return "Roll " + " ".join(args)
        if verb == "target":
            return f"Target player {args[0][1:]}"
        if verb == "tag":
            return "Tag in your partner"
        if verb == "set":
            return f"Attack with the set of {args[0]}s"
        if verb == "claw":
            return f"Claw the {args[0]}s: swap {args[1]} and {args[2]}"
        if verb == "intimidate":
            if args[0] == "partner":
                return f"Intimidate: slash your partner's {args[1]} (+1 width)"
            return f"Intimidate: slash your own {args[0]} (+1 width)"
        if verb == "combo":
            return f"Combo: set aside the {args[0]}"
        if verb == "slash":
            if "#" in args[0]:
                v, n = args[0].split("#")
                return f"Slash the {_ordinal(int(n))} {v}"
            return f"Slash a {args[0]}"
        if verb == "special":
            title = SPECIAL_TITLES.get(args[0], args[0])
            return title + (f": cripple their {args[1]}s" if len(args) > 1 else "")
        return {"undo": "Undo my last choice", "done": "Done", "hold": "Hold the combo"}.get(
            verb, move)

    # ---- the secret panel (dice choice; the window after the roll) -------------------------------
    def panel(self, row: GameRow, game, seat: int, version: str) -> Panel:
        view = game.view(seat)
        me = view["fighters"][seat]
        card = me["cards"][me["active"]]
        head = (f"**TradeShowdown — game #{row.id}, round {view['round']}** (you are player "
                f"{seat + 1}, **{card['name']}**)\n```\n{game.text(seat)}\n```")
        if seat not in game.actors():
            return Panel(head + "\nNothing to do right now; waiting for the others.")
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
        legal = game.legal(seat)
        supply = [(int(k[1:]), n) for k, n in me["supply"].items() if n]
        have = ", ".join(f"{n}×d{s}" for s, n in supply)
        standing = [f for f in view["fighters"] if f["standing"]]
        need_target = len(standing) >= 3
        groups: list[list[discord.ui.Item]] = []
        lines = [f"🎲 **Choose your dice in secret** (your supply: {have}). Fewer dice strike "
                 "earlier; more dice make wider sets. Nobody sees your choice before the roll."]
        if need_target:
            mine = me["target"]
            buttons = []
            for f in standing:
                if f["seat"] == seat:
                    continue
                name = f["cards"][f["active"]]["name"]
                buttons.append(MoveButton(
                    row.id, version, f"target @{f['seat'] + 1}",
                    f"🎯 Player {f['seat'] + 1}: {name}",
                    style=(discord.ButtonStyle.success if mine == f["seat"]
                           else discord.ButtonStyle.secondary)))
            groups.append(buttons)
            lines.append(f"Your target: **player {mine + 1}**." if mine is not None else
                         "First pick your target (🎯), then your dice.")
        options = []
        for size, n in supply:
            for k in range(1, n + 1):
                faces = "0-9" if size == 10 else f"1-{size}"
                options.append(discord.SelectOption(
                    label=f"d{size}" + (f" ({_ordinal(k)} of {n})" if n > 1 else ""),
                    value=f"d{size}.{k}", description=f"shows {faces}"))
        if options:
            groups.append([DiceSelect(row.id, version, options,
                                      "Tick the dice you roll this round (1 or more)")])
        controls: list[discord.ui.Item] = []
        everything = next((m for m in legal if m.startswith("dice") and "@" not in m), None)
        if everything is not None:
            controls.append(MoveButton(row.id, version, everything,
                                       f"Roll all {len(everything.split()) - 1} dice",
                                       style=discord.ButtonStyle.primary))
        if "tag" in legal:
            pending = me.get("tag_pending")
            partner = next((c["name"] for i, c in enumerate(me["cards"])
                            if i != me["active"] and not c["out"]), "your partner")
            controls.append(MoveButton(
                row.id, version, "tag",
                "Cancel the tag" if pending else f"Tag in {partner}",
                style=discord.ButtonStyle.secondary, emoji="🔁"))
            if pending:
                lines.append(f"🔁 {partner} tags in when the dice are rolled.")
        controls.append(TypeMoveButton(row.id))
        groups.append(controls)
        return "\n".join(lines), groups

    def _window_panel(self, row, game, view, seat, version):
        me = view["fighters"][seat]
        legal = game.legal(seat)
        plan = me.get("plan") or {}
        attacks = plan.get("attacks") or []
        lines = ["🕶️ **After the roll, in secret** — your choices are revealed with everyone's "
                 "when all are done."]
        if attacks:
            lines.append("Your attack(s) now: " + "; ".join(
                f"{a['width']} slash(es) on digits up to {a['height']} (depth {a['depth']})"
                for a in attacks) + ".")
        else:
            lines.append("You have no set to attack with this round.")
        if me["combo"] or plan.get("aside"):
            lines.append(f"Combo: {len(me['combo']) + len(plan.get('aside') or [])}/5 dice.")
        groups = []
        kinds = (("set", "Pick the set you attack with"),
                 ("claw", "Collating Claw: swap two dimensions of a set"),
                 ("intimidate", "Intimidate: slash your own digit, +1 width"),
                 ("combo", "Combo: set aside a die matching your zip"))
        for verb, placeholder in kinds:
            moves = [m for m in legal if m.split()[0] == verb]
            if verb == "combo":
                moves.sort(key=lambda m: int(m.split()[1]))
            if not moves:
                continue
            groups.append(self._choice_group(row, game, seat, version, verb, moves, placeholder))
        controls: list[discord.ui.Item] = [
            MoveButton(row.id, version, "done", "Done — ready", style=discord.ButtonStyle.success,
                       emoji="✅")]
        if "undo" in legal:
            controls.append(MoveButton(row.id, version, "undo", "Undo my last choice",
                                       style=discord.ButtonStyle.secondary, emoji="↩️"))
        controls.append(TypeMoveButton(row.id))
        groups.append(controls)
        return "\n".join(lines), groups

    def _choice_group(self, row, game, seat, version, tag, moves, placeholder,
                      style=discord.ButtonStyle.primary) -> list[discord.ui.Item]:
        """Up to five moves as buttons, else one select of up to 25."""
        if len(moves) <= PER_ROW:
            return [MoveButton(row.id, version, m, self.move_label(game, seat, m), style=style)
                    for m in moves]
        options = [discord.SelectOption(label=self.move_label(game, seat, m)[:100], value=m)
                   for m in moves[:25]]
        return [MoveSelect(row.id, version, options, placeholder, tag=tag)]

    async def on_dice_select(self, interaction: discord.Interaction, game_id: int,
                             version: int | str, values: list[str]) -> None:
        """The dice menu: the ticked dice become `dice d4 d6 ...` (the target is the one named
        with the 🎯 buttons)."""
        sizes = []
        for v in values:
            m = re.fullmatch(r"d(\d+)\.\d+", v)
            if not m or int(m.group(1)) not in SIZES:
                raise RuleError("Tick dice from your supply in the menu.")
            sizes.append(int(m.group(1)))
        if not sizes:
            raise RuleError("Tick at least one die.")
        row, game = await self.bot.tables.load(game_id)
        seat = row.seat_of(interaction.user.id)
        if seat is not None and row.status == "active" and game.view(seat)["phase"] == "choose":
            view = game.view(seat)
            standing = sum(1 for f in view["fighters"] if f["standing"])
            if standing >= 3 and view["fighters"][seat]["target"] is None:
                raise RuleError("Pick your target first (the 🎯 buttons), then tick your dice.")
        move = "dice " + " ".join(f"d{s}" for s in sorted(sizes))
        await self.on_move_component(interaction, game_id, version, move)

    # ---- the public attacks -------------------------------------------------------------------
    def turn_items(self, row: GameRow, game, seat: int) -> list[discord.ui.Item]:
        view = game.view(None)
        p = view["pending"]
        if p is None or p["seat"] != seat:
            return self.move_items(row, game, seat)
        legal = game.legal(seat)
        version = row.version
        if p["stage"] == "redirect":
            buttons = []
            for m in legal:
                t = int(m.split("@")[1]) - 1
                f = view["fighters"][t]
                buttons.append(MoveButton(row.id, version, m,
                                          f"🎯 Attack player {t + 1}: "
                                          f"{f['cards'][f['active']]['name']}"))
            return layout([buttons, [TypeMoveButton(row.id)]])
        if p["stage"] == "special":
            buttons = [MoveButton(row.id, version, m, self.move_label(game, seat, m),
                                  style=discord.ButtonStyle.danger, emoji="💥")
                       for m in legal if m.startswith("special") and "pencil" not in m]
            snaps = [m for m in legal if "snapping-pencil" in m]
            groups: list[list[discord.ui.Item]] = [buttons]
            if snaps:
                groups.append([MoveSelect(
                    row.id, version, tag="snap", options=[
                        discord.SelectOption(
                            label=f"Snapping Pencil: cripple their {m.split()[-1]}s", value=m)
                        for m in snaps],
                    placeholder="Snapping Pencil: their dice of one value never count in sets")])
            controls: list[discord.ui.Item] = []
            if "hold" in legal:
                controls.append(MoveButton(row.id, version, "hold", "Hold the combo",
                                           style=discord.ButtonStyle.secondary))
            controls.append(TypeMoveButton(row.id))
            groups.append(controls)
            return layout(groups)
        return layout(self._slash_groups(row, game, view, seat, legal))

    def _slash_groups(self, row, game, view, seat, legal):
        p = view["pending"]
        target = view["fighters"][p["target"]]
        card = target["cards"][target["active"]]
        digits, slashes = card["digits"], card["slashes"]
        ok = set(legal)
        options = []
        for i, (d, n) in enumerate(zip(digits, slashes)):
            if d > p["reach"] or n >= 2:
                continue
            nth = [j for j, x in enumerate(digits) if x == d]
            move = f"slash {d}#{nth.index(i) + 1}" if len(nth) > 1 else f"slash {d}"
            if move not in ok:
                continue
            options.append(discord.SelectOption(
                label=f"Digit {i + 1}: {d}" + (" — X it out" if n == 1 else ""),
                value=move, description=f"{d} on {card['name']}"[:100]))
        if len(options) > 25:  # a long card: one entry per value (the least-slashed one)
            options = [discord.SelectOption(label=f"Slash a {m.split()[1]}", value=m)
                       for m in legal if "#" not in m]
        left = p["slashes_left"]
        groups: list[list[discord.ui.Item]] = [[MoveSelect(
            row.id, row.version, options, tag="slash", placeholder=(
                f"Slash a digit up to {p['reach']} on {card['name']} ({left} left)"))]]
        best = game.timeout_move(seat)
        buttons: list[discord.ui.Item] = []
        if best:
            buttons.append(MoveButton(row.id, row.version, best,
                                      f"Best slash: {best.split()[1].split('#')[0]}",
                                      style=discord.ButtonStyle.success, emoji="⚔️"))
        chain = self.best_slashes(game, seat)
        if len(chain) > 1:
            move = "slash " + " ".join(chain)
            if len(f"mv:{row.id}:{row.version}:{move}") <= 100:
                buttons.append(MoveButton(row.id, row.version, move,
                                          f"All {len(chain)} best-first: {' '.join(chain)}",
                                          style=discord.ButtonStyle.success, emoji="⚔️"))
        buttons.append(TypeMoveButton(row.id))
        groups.append(buttons)
        return groups

    @staticmethod
    def best_slashes(game, seat: int) -> list[str]:
        """This attack's remaining slashes best-first: each one the highest digit in reach (the
        engine's own timer choice), played one by one on a copy of the game."""
        trial = game.copy()
        pending = trial.view(None)["pending"]
        left = pending["slashes_left"] if pending else 0
        chain: list[str] = []
        # The same attack goes on while its slashes count down by one.
        while (pending is not None and pending["seat"] == seat and pending["stage"] == "slash"
               and pending["slashes_left"] == left and trial.outcome() is None):
            move = trial.timeout_move(seat)
            if not move or not move.startswith("slash "):
                break
            trial.apply(seat, move)
            chain.append(move.split()[1])
            left -= 1
            pending = trial.view(None)["pending"]
        return chain

    def status_line(self, row: GameRow, game) -> str:
        line = super().status_line(row, game)
        if game.outcome() is not None:
            return line
        view = game.view(None)
        p = view["pending"]
        if p is None:
            return line
        who = mention(row.players[p["seat"]])
        if p["stage"] == "slash":
            f = view["fighters"][p["target"]]
            left = p["slashes_left"]
            line += (f"\n⚔️ {who} slashes player {p['target'] + 1}'s "
                     f"**{f['cards'][f['active']]['name']}**: {left} slash"
                     f"{'es' if left != 1 else ''} left, digits up to {p['reach']}. Pick a "
                     "digit below, or let ⚔️ Best choose the highest.")
        elif p["stage"] == "special":
            line += f"\n💥 {who} has five combo dice: fire a special attack, or hold the combo."
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
        if not any(counts.values()):
            raise RuleError("Choose at least one die, e.g. `d10:3` (d4, d6, d8, d10 give how "
                            "many of each you roll).")
        row, _ = await self.find_game(interaction)
        move = "dice " + " ".join(f"d{s}" for s, n in counts.items() for _ in range(n))
        if target is not None:
            t = row.seat_of(target.id)
            if t is None:
                raise RuleError(f"{target.display_name} is not in this game; name one of its "
                                "players as your target.")
            move += f" @{t + 1}"
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.play(row.id, interaction.user.id, move, by=interaction.user.id)
        await interaction.followup.send(f"✅ Secret until the roll: `{move}`", ephemeral=True)

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
        digits=f"Every digit on the card: phone, street number... ({MIN_DIGITS}-{MAX_DIGITS})",
        zip_code=f"The {ZIP_DIGITS}-digit zip code (for combos)",
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
