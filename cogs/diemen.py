"""Crazy Die-Man is Unbreakable! (`/diemen ...`): the Discord side of the `diemen` engine.

A thin adapter: every command builds a move in the notation (docs/notation/diemen.md) and hands
it to `tables.play`; the engine decides, and its refusals reach the player as ephemeral replies
in its own words. What this module adds is the Discord shape of a turn:

- the secret banner set-up: a DM panel with a 4-of-6 multi-select (`BannerSelect`);
- the Stand Cry (`/diemen standcry`, once per player, kept in the game's `extra`) and the crowd
  vote that answers the engine's "first player" chance draw;
- the turn message's buttons per phase (declare flicks, Accept/Dispute for the opponent only,
  Agree/Refuse, Reposition menu, customers);
- simulated flicks: the odds from `odds.flick_odds` (through `DieMen.odds`, the very numbers
  the table rolls with) are shown before the player presses **Flick!** (`AimSelect` and
  `/diemen flick target:/called:`);
- physical flicks: `/diemen report` (with autocomplete of what can have fallen), `/diemen oops`.

Commands: challenge, standcry, move (the Stand), flick, report, oops, place, mode, play (any
move in notation; the base's generic `move move:` is replaced by `move spot:` here), board,
panel.
"""
from __future__ import annotations

import re
from typing import Any, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import Chance, Game, RuleError
from bot.engine.diemen import board
from bot.engine.diemen.odds import odds_text
from bot.gamecog import GameCog, Panel, legal_choices, mention
from bot.store import GameRow
from bot.tables import STALE_TEXT, Played
from bot.ui import (MoveButton, MoveSelect, TypeMoveButton, first_selected, game_cog, guarded,
                    parse_version, reply, selected, view_of)
from rendering.diemen import render, render_odds

KIND = "diemen"

PHASE_WORDS = {"setup": "the secret banner set-up", "first": "the Stand Cry vote",
               "move": "the Move step", "flick": "the Flick step",
               "review": "a report under review", "switch": "a mode-switch proposal",
               "reposition": "the Reposition step", "customers": "the Customers step",
               "over": "the end of the game"}

SHORT = {"clean": "clean", "pair": "pair", "neighbour": "nbr", "customer": "cust",
         "miss": "miss", "off": "off"}


# ---- small helpers ------------------------------------------------------------------------------

def _cog(interaction: discord.Interaction) -> "DieMenCog":
    return game_cog(interaction, KIND)


def _spots_text(text: str) -> str:
    """`F2 b1, P1:F1` -> `F2,b1,P1:F1` (the notation's comma list)."""
    return ",".join(t for t in re.split(r"[\s,;]+", text.strip()) if t)


def _bare(label: str) -> str:
    return label.split(":")[-1]


def _short_odds(odds: dict[str, Any]) -> str:
    parts = [f"{SHORT[o]} {p}" for o, p in odds["outcomes"].items() if p]
    band = f"band {odds['band']}, " if odds["band"] else ""
    tail = f" · SSB off {odds['self_knock']}" if odds["self_knock"] else ""
    return (band + " · ".join(parts) + " (%)" + tail)[:100]


def _knock_chance(odds: dict[str, Any], called: bool) -> int:
    o = odds["outcomes"]
    return o["clean"] + o["pair"] if called else o["clean"] + o["pair"] + o["neighbour"]


def _comma_choices(current: str, items: list[str],
                   label: Callable[[str], str] = lambda s: s) -> list[app_commands.Choice[str]]:
    """Autocomplete a comma list: what was typed (complete items kept), plus one more item from
    `items` (a multiset: an item may be named as often as it occurs)."""
    parts = [p.strip() for p in current.split(",")]
    done, last = [p for p in parts[:-1] if p], parts[-1].upper()
    left = list(items)
    for d in done:
        for i, it in enumerate(left):
            if it.upper() == d.upper():
                del left[i]
                break
    prefix = ",".join(done)
    out: list[app_commands.Choice[str]] = []
    seen = set()
    for it in left:
        if it in seen or (last and last not in it.upper()):
            continue
        seen.add(it)
        value = f"{prefix},{it}" if prefix else it
        out.append(app_commands.Choice(name=(value + " — " + label(it))[:100], value=value[:100]))
    if prefix and not last:
        out.insert(0, app_commands.Choice(name=f"{prefix} (that's all)"[:100], value=prefix[:100]))
    return out[:25]


# ---- persistent components of this game ---------------------------------------------------------

class BannerSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"dmb:(?P<gid>\d+):(?P<ver>p?\d+)"):
    """The secret set-up: pick exactly 4 of your 6 banner spots (`banners F1 F3 B2 B3`)."""

    def __init__(self, game_id: int, version: int | str):
        self.game_id, self.version = game_id, version
        options = [discord.SelectOption(
            label=f"{s} — {'front' if s in board.FRONT_SPOTS else 'back'} area",
            value=s, description=("closer to your rival: easier to hit, allows a Bonus Flick"
                                  if s in board.FRONT_SPOTS else "farther back: harder to hit"))
            for s in board.BANNER_SPOTS]
        super().__init__(discord.ui.Select(custom_id=f"dmb:{game_id}:{version}",
                                           placeholder="Choose 4 banner spots", min_values=4,
                                           max_values=4, options=options))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), parse_version(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            values = selected(interaction)
            if len(values) != 4 or len(set(values)) != 4:
                raise RuleError("Choose exactly 4 different banner spots.")
            move = "banners " + " ".join(s for s in board.BANNER_SPOTS if s in values)
            await _cog(interaction).on_move_component(interaction, self.game_id, self.version,
                                                      move)
        await guarded(interaction, work)


class AimSelect(discord.ui.DynamicItem[discord.ui.Select],
                template=r"dma:(?P<gid>\d+):(?P<ver>\d+)"):
    """A simulated flick's target: choosing one shows its odds and a Flick! button (only to the
    flicker, ephemerally); nothing is flicked until that button is pressed."""

    def __init__(self, game_id: int, version: int,
                 options: list[discord.SelectOption] | None = None):
        self.game_id, self.version = game_id, version
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"dma:{game_id}:{version}",
                                           placeholder="Aim or call your shot (odds first)",
                                           options=options[:25]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            target = first_selected(interaction, "Pick a target from the list.")
            await _cog(interaction).preview_from_select(interaction, self.game_id,
                                                        self.version, target)
        await guarded(interaction, work)


DYNAMIC_ITEMS = (BannerSelect, AimSelect)


# ---- the cog ------------------------------------------------------------------------------------

class DieMenCog(GameCog, group_name="diemen",
                group_description="Crazy Die-Man is Unbreakable!: flick dice at your rival's "
                                  "banners"):
    KIND = KIND
    DYNAMIC_ITEMS = DYNAMIC_ITEMS

    # ---- hooks ------------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    def wants_vote(self, row: GameRow, game: Game, chance: Chance) -> bool:
        return bool(chance.draws) and chance.draws[0].label == "first player"

    def vote_choices(self, row: GameRow, game: Game, chance: Chance) -> list[tuple[str, str]]:
        return [("1", "P1's Stand Cry"), ("2", "P2's Stand Cry")]

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        lines = ["**Whose Stand Cry draws the crowd?** The best one goes first."]
        for seat in (0, 1):
            cry = row.extra.get(f"standcry_{seat + 1}")
            shown = (f"“{discord.utils.escape_mentions(cry)}”" if cry else
                     "*(no Stand Cry yet: `/diemen standcry`)*")
            lines.append(f"> **P{seat + 1}** {mention(row.players[seat])}: {shown}")
        return "\n".join(lines) + "\n"

    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        view = game.view(seat)
        if view["phase"] == "setup" and seat in game.actors():
            text = (f"**{self.engine.TITLE} — game #{row.id}** (you are player {seat + 1}, "
                    f"P{seat + 1})\n"
                    "Put up your 4 Advertising Banners: choose 4 of your 6 banner spots. The "
                    "front area (F1–F3) is closer to your rival — easier to hit, but a banner "
                    "standing there allows a Bonus Flick. Nobody sees your choice until both "
                    "Die-Men have set up.\n"
                    f"```\n{game.text(seat)}\n```\n"
                    "Meanwhile, shout your Stand Cry in the game thread with "
                    "`/diemen standcry text:` — the crowd votes who goes first.")
            return Panel(text, [BannerSelect(row.id, version), TypeMoveButton(row.id)])
        return super().panel(row, game, seat, version)

    def status_line(self, row: GameRow, game: Game) -> str:
        base = super().status_line(row, game)
        if game.outcome() is not None:
            return base
        hint = self.hint(row, game)
        return "\n".join(x for x in (base, hint) if x)

    def hint(self, row: GameRow, game: Game) -> str:
        """What to do now, in commands (public: from the public view only)."""
        v = game.view(None)
        phase = v["phase"]
        if phase == "setup":
            if all(row.extra.get(f"standcry_{s + 1}") for s in (0, 1)):
                return ""
            return ("📣 While you choose, shout your Stand Cry with `/diemen standcry text:` "
                    "— the crowd's vote decides who goes first.")
        a = v["active"]
        if a is None:
            return ""
        rival = mention(row.players[1 - a])
        f = v["flick"] or {}
        if phase == "move":
            ti = v["turn_info"]
            lock = (" (your Stand is locked this turn: a Super Sale Banner stood on it)"
                    if ti["stand_locked"] else "")
            return (f"Move your Stand with `/diemen move spot:` if you like{lock}, then "
                    "declare your flicks below or with `/diemen flick count:`.")
        if phase == "flick":
            n = f"flick {f.get('number')} of {f.get('of')}"
            if v["flick_mode"] == "simulated":
                return (f"{n.capitalize()} (simulated): choose a target below to see the odds, "
                        "then press **Flick!** — or `/diemen flick target:` / `called:`.")
            return (f"{n.capitalize()} (physical): flick your real die, then report it with "
                    "`/diemen report rolled: hit:`. A Called Shot first: `/diemen flick "
                    "called:`; to let the referee roll this one: `/diemen mode`.")
        if phase == "review":
            return f"Only {rival} may answer: **Accept** or **Dispute** (silence accepts)."
        if phase == "switch":
            return f"Only {rival} may answer: **Agree** or **Refuse** (silence refuses)."
        if phase == "reposition":
            return ("Reposition with the menu below or `/diemen place`, then press **Done** "
                    "(knocked banners must go back up first).")
        if phase == "customers":
            return "Place your attracted customers, or let them go."
        return ""

    def move_label(self, game: Game, seat: int, move: str) -> str:
        parts = move.split()
        verb, a = parts[0], parts[1:]

        def where(spot: str) -> str:
            if spot.lower() == "stand":
                return "the Stand (Super Sale)"
            return f"the Stand {spot} (Super Sale)" if spot.upper().startswith("S") else spot
        if verb == "flick":
            return {"0": "No flicks (straight to Reposition)", "1": "Flick 1 die",
                    "2": "Flick 2 dice"}.get(a[0], "Bonus Flick: 3 dice")
        if verb == "move":
            return f"Move my Stand to {a[0]}"
        if verb == "mode":
            return ("Let the referee roll this flick" if a[0] == "simulated"
                    else "Flick this one for real")
        if verb == "place":
            return f"Knocked banner → {where(a[0])}"
        if verb == "reposition":
            src = "Super Sale Banner" if a[0].upper().startswith("S") else f"Banner {a[0]}"
            return f"{src} → {where(a[1])}"
        if verb == "supersale":
            return f"Banner {a[0]} → the Stand (Super Sale)"
        if verb == "customer":
            return f"Customer on {a[0]}"
        if verb == "oops":
            return f"Oops: I knocked my own {a[0]} (+6)"
        if verb == "called":
            return f"Called Shot at {a[0]}"
        if verb == "aim":
            return "Flick at the middle" if a[0] == "middle" else f"Flick at {a[0]}"
        if verb == "mark":
            return f"Fell: {a[0]}"
        if verb == "banners":
            return "Banners on " + " ".join(a)
        return {"accept": "Accept the report", "dispute": "Dispute: reflick",
                "agree": "Agree to switch", "refuse": "Refuse", "done": "Done repositioning",
                "end": "Let the rest go (end turn)"}.get(move, move)

    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        v = game.view(None)
        phase = v["phase"]
        legal = game.legal(seat)
        Style = discord.ButtonStyle

        def button(move: str, style=Style.primary, emoji: str | None = None) -> MoveButton:
            return MoveButton(row.id, row.version, move, self.move_label(game, seat, move),
                              style, emoji)
        items: list[discord.ui.Item] = []
        if phase == "move":
            items += [button(m, Style.secondary, "🏪") for m in legal if m.startswith("move ")]
            items += [button(m, Style.primary, "🎲") for m in legal if m.startswith("flick ")]
        elif phase == "flick":
            if v["flick_mode"] == "simulated":
                options = self.aim_options(game, seat)
                if options:
                    items.append(AimSelect(row.id, row.version, options))
            items += [button(m, Style.secondary) for m in legal if m.startswith("mode ")]
        elif phase in ("review", "switch"):
            for m in legal:
                items.append(button(m, Style.success if m in ("accept", "agree")
                                    else Style.danger if m == "dispute" else Style.secondary))
        elif phase == "reposition":
            if "done" in legal:
                items.append(button("done", Style.success, "✅"))
            others = [m for m in legal if m != "done"]
            if others:
                items.append(MoveSelect(row.id, row.version, [
                    discord.SelectOption(label=self.move_label(game, seat, m)[:100], value=m)
                    for m in others[:25]], "Reposition a banner…"))
        elif phase == "customers":
            items += [button(m, Style.success if m.startswith("customer") else Style.secondary)
                      for m in legal]
        else:
            return super().turn_items(row, game, seat)
        items.append(TypeMoveButton(row.id))
        return items

    # ---- simulated flicks: odds first, then Flick! ---------------------------------------------
    def aim_options(self, game: Game, seat: int) -> list[discord.SelectOption]:
        """The targets of the current simulated flick with their odds (from `flick_odds`)."""
        odds = game.view(seat)["odds"]
        if not odds:
            return []
        out = []
        for lab, o in odds["called"].items():
            out.append(discord.SelectOption(
                label=f"Called Shot at {_bare(lab)}: {_knock_chance(o, True)}% to hit it",
                value=f"called {_bare(lab)}", description=_short_odds(o), emoji="🎯"))
        for lab, o in odds["aim"].items():
            if lab == "middle":
                label, value = "Flick at the middle (nothing can fall)", "aim middle"
            else:
                spot = _bare(lab)
                what = "their Stand" if spot.startswith("S") else spot
                label = f"Flick at {what}: {_knock_chance(o, False)}% to knock something"
                value = f"aim {spot}"
            out.append(discord.SelectOption(label=label[:100], value=value,
                                            description=_short_odds(o), emoji="🎲"))
        return out[:25]

    async def preview_from_select(self, interaction: discord.Interaction, game_id: int,
                                  version: int, move: str) -> None:
        row, game = await self.find_game(interaction, game_id)
        seat = self.player_seat(row, interaction)
        if row.status != "active" or row.version != version:
            raise RuleError(STALE_TEXT)
        if seat not in game.actors():
            raise RuleError(self.not_now(game))
        await self.send_preview(interaction, row, game, seat, move)

    async def send_preview(self, interaction: discord.Interaction, row: GameRow, game: Game,
                           seat: int, move: str) -> None:
        """The odds of `move` (`aim X` / `called X`) for this simulated flick, with Flick!."""
        probe = game.copy()
        probe.apply(seat, move)  # the engine's own refusal, before anything is shown
        target = probe.view(seat)["flick"]["target"] if probe.view(seat)["flick"] else None
        called = move.startswith("called ")
        odds = game.odds(target, called)  # DieMen.odds -> odds.flick_odds: what is rolled
        f = game.view(seat)["flick"]
        where = "the middle" if target in (None, "middle") else target
        head = (f"🎯 **Called Shot at {where}**" if called else f"🎲 **Flick at {where}**")
        lines = [f"{head} — flick {f['number']} of {f['of']}.",
                 f"Chances: {odds_text(odds)}."]
        if called:
            lines.append("Knock the called banner: double damage to your rival. Miss it: the "
                         "rolled value is blamed on you.")
        lines.append("Press **Flick!** to flick (the referee rolls).")
        button = MoveButton(row.id, row.version, move, "Flick!", discord.ButtonStyle.success,
                            "🎲")
        panel = Panel("\n".join(lines), [button],
                      await self.draw(render_odds, odds, target, seat=seat))
        await reply(interaction, ephemeral=True, **panel.send_kwargs())

    # ---- shared command plumbing ----------------------------------------------------------------
    @staticmethod
    def not_now(game: Game) -> str:
        if game.view(None)["phase"] == "first":
            return ("The crowd is still voting on the Stand Cries; the winner goes first. "
                    "Vote buttons are in the game thread.")
        return game.waiting_text()

    async def _mine(self, interaction: discord.Interaction) -> tuple[GameRow, Game, int]:
        row, game = await self.find_game(interaction)
        seat = self.player_seat(row, interaction)
        return row, game, seat

    async def _play(self, interaction: discord.Interaction, move: str,
                    done: str | Callable[[Played], str] | None = None) -> Played:
        """Play `move` for the caller and confirm privately (`done`: the confirmation, or a
        function of what was played)."""
        row, _ = await self.find_game(interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        played = await self.bot.tables.play(row.id, interaction.user.id, move,
                                            by=interaction.user.id)
        text = done(played) if callable(done) else done
        await interaction.followup.send(text or f"✅ `{move}`", ephemeral=True)
        return played

    # ---- commands -------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to Crazy Die-Man")
    @app_commands.describe(opponent="Your rival Die-Man",
                           mode="physical: flick real dice and report; simulated: the referee "
                                "rolls",
                           vote_seconds="How long the Stand Cry vote lasts (default 60)")
    @app_commands.choices(mode=[
        app_commands.Choice(name="physical (real dice, reported)", value="physical"),
        app_commands.Choice(name="simulated (the referee rolls)", value="simulated")])
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        mode: str = "physical",
                        vote_seconds: app_commands.Range[int, 10, 600] = 60) -> None:
        await self.bot.lobby.challenge(interaction, self.KIND, opponent,
                                       {"mode": mode, "vote_seconds": vote_seconds})

    @app_commands.command(name="standcry",
                          description="Shout your Stand Cry (once); the crowd votes who goes first")
    @app_commands.describe(text="What you shout at passing customers (up to 200 characters)")
    async def standcry(self, interaction: discord.Interaction,
                       text: app_commands.Range[str, 1, 200]) -> None:
        row, game, seat = await self._mine(interaction)
        text = " ".join(text.split())
        if not text:
            raise RuleError("Your Stand Cry needs some words (up to 200 characters).")
        key = f"standcry_{seat + 1}"
        async with self.bot.tables.lock(row.id):
            row = await self.bot.store.get_game(row.id)
            game = self.engine.from_json(row.state)
            phase = game.view(None)["phase"]
            if row.extra.get(key):
                raise RuleError(f"You already shouted your Stand Cry: “{row.extra[key]}”. "
                                "One each.")
            if phase not in ("setup", "first"):
                first = game.view(None)["first_player"]
                raise RuleError("The Stand Cry vote is over" + (
                    f": player {first + 1} goes first." if first is not None else "."))
            row.extra = await self.bot.store.update_extra(row.id, **{key: text})
        channel = await self.channel_of(row)
        if channel is not None:
            await channel.send(
                f"📣 **P{seat + 1}'s Stand Cry** ({mention(interaction.user.id)}): "
                f"“{discord.utils.escape_mentions(text)}”",
                allowed_mentions=discord.AllowedMentions.none())
        await reply(interaction, "📣 Your Stand Cry is posted in the game thread. The crowd "
                                 "votes once both Die-Men have set up their banners.",
                    ephemeral=True)

    @app_commands.command(name="move", description="Move your Stand to another stand spot")
    @app_commands.describe(spot="An open stand spot on your side (S1, S2, S3)")
    async def move_command(self, interaction: discord.Interaction,
                           spot: app_commands.Range[str, 1, 10]) -> None:
        await self._play(interaction, f"move {spot.strip()}",
                         f"✅ Your Stand moves to {spot.strip().upper()}. Now declare your "
                         "flicks: `/diemen flick count:`.")

    @move_command.autocomplete("spot")
    async def move_spot_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        spots = [m.split()[1] for m in found[2] if m.startswith("move ")]
        return [app_commands.Choice(name=f"{s} (open stand spot)", value=s)
                for s in spots if current.strip().upper() in s]

    @app_commands.command(name="flick",
                          description="Declare your flicks and flick; simulated: odds, then Flick!")
    @app_commands.describe(
        count="Dice this turn: 0, 1, 2, or 3 as a Bonus Flick (needs a banner of yours in F1-F3)",
        target="Simulated flick: the enemy spot to flick at (or middle); shows the odds first",
        called="A Called Shot: the enemy banner you will knock (double damage; a miss blames you)")
    async def flick(self, interaction: discord.Interaction,
                    count: app_commands.Range[int, 0, 3] | None = None,
                    target: app_commands.Range[str, 1, 20] | None = None,
                    called: app_commands.Range[str, 1, 20] | None = None) -> None:
        row, game, seat = await self._mine(interaction)
        if seat not in game.actors():
            raise RuleError(self.not_now(game))
        v = game.view(seat)
        phase, ti = v["phase"], v["turn_info"] or {}
        moves: list[str] = []
        if phase == "move":
            if count is None:
                raise RuleError("First declare how many dice you flick this turn: `count` 0, "
                                "1 or 2 — or 3 as a Bonus Flick when a banner of yours stands "
                                "in your front area (F1–F3), never on the game's first turn.")
            moves.append(f"flick {count}" + (" bonus" if count == 3 else ""))
        elif phase == "flick":
            if count is not None and count != ti.get("declared"):
                moves.append(f"flick {count}")  # the engine says why not (already declared)
        elif phase in ("reposition", "customers"):
            if count is None:
                raise RuleError(f"You declared {ti.get('declared')} flick(s) this turn and all "
                                "are resolved: no more flicks. Now reposition (`/diemen "
                                "place`) and press Done.")
            moves.append(f"flick {count}")  # the engine's refusal
        else:
            raise RuleError("Flicks come in your turn, after the banner set-up and the Stand "
                            f"Cry vote (now: {PHASE_WORDS.get(phase, phase)}).")
        called = called.strip() if called else None
        target = target.strip() if target else None
        if called and target and called.upper() != target.upper():
            raise RuleError("A Called Shot is flicked at the called banner: give `called` "
                            "alone (or the same spot as `target`).")
        # All or nothing: check every step on a copy first, with the engine's own refusals.
        probe = game.copy()
        for m in moves:
            probe.apply(seat, m)
        mode = probe.flick_mode()
        ignored = ""
        shot = f"called {called}" if called else (f"aim {target}" if target else None)
        if probe.view(seat)["phase"] != "flick" and shot:
            raise RuleError("You declared no flicks, so there is nothing to aim or call.")
        if shot and mode == "physical" and not called:
            ignored, shot = ("(A physical flick goes where your real die goes: `target` is "
                             "only for simulated flicks.) "), None
        if shot:
            probe.apply(seat, shot)
        await interaction.response.defer(ephemeral=True, thinking=True)
        version, latest = row.version, game
        for m in moves:
            played = await self.bot.tables.play(row.id, interaction.user.id, m,
                                                by=interaction.user.id)
            version, latest = played.row.version, played.game
        row.version = version
        lv = latest.view(seat)
        if lv["phase"] != "flick" or seat not in latest.actors():
            await interaction.followup.send("✅ No flicks this turn: on to your Reposition.",
                                            ephemeral=True)
            return
        f = lv["flick"]
        if lv["flick_mode"] == "physical":
            call = ""
            if shot:
                played = await self.bot.tables.play(row.id, interaction.user.id, shot,
                                                    by=interaction.user.id)
                call = f" — Called Shot at {played.game.view(seat)['flick']['called']}"
            await interaction.followup.send(
                f"{ignored}🎲 Flick {f['number']} of {f['of']}{call}: flick your real die at "
                f"your rival's banners now, then report what happened with `/diemen report "
                "rolled: hit:` (or `off:True`). Your rival may dispute within 60 s.",
                ephemeral=True)
            return
        if shot:
            await self.send_preview(interaction, row, latest, seat, shot)
            return
        options = self.aim_options(latest, seat)
        odds = lv["odds"]
        lines = [f"🎲 Flick {f['number']} of {f['of']} (simulated). Chances per target "
                 "(from your Stand):"]
        for lab, o in odds["aim"].items():
            lines.append(f"• `aim {_bare(lab)}` — {odds_text(o)}")
        for lab, o in odds["called"].items():
            lines.append(f"• `called {_bare(lab)}` — {odds_text(o)}")
        lines.append("Choose below to confirm with **Flick!**")
        text = "\n".join(lines)
        if len(text) > 1900:
            text = "\n".join(lines[:1] + lines[-1:])
        await interaction.followup.send(text, ephemeral=True,
                                        view=view_of(AimSelect(row.id, version, options)))

    @flick.autocomplete("target")
    async def flick_target_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._flick_choices(interaction, current, called=False)

    @flick.autocomplete("called")
    async def flick_called_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self._flick_choices(interaction, current, called=True)

    async def _flick_choices(self, interaction: discord.Interaction, current: str,
                             called: bool) -> list[app_commands.Choice[str]]:
        """Aim or Called Shot targets for the active flicker, each with its odds."""
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, _ = found
        if game.view(None)["active"] != seat or game.view(None)["phase"] not in ("move",
                                                                                 "flick"):
            return []
        out = []
        for lab in (game.call_targets() if called else game.aim_targets()):
            value = "middle" if lab == "middle" else _bare(lab)
            if current.strip() and current.strip().lower() not in value.lower():
                continue
            o = game.odds(lab, True) if called else game.odds(lab)
            what = "to hit it if simulated" if called else "to knock something"
            out.append(app_commands.Choice(
                name=f"{value} — {_knock_chance(o, called)}% {what} ({_short_odds(o)})"[:100],
                value=value))
        return out[:25]

    @app_commands.command(name="report",
                          description="Report your real flick: the roll and what fell")
    @app_commands.describe(rolled="The number the flicked die shows (1-6)",
                           hit="What fell: enemy spots bare (F2,B1), your own as P1:F1, "
                               "customers C1-C3",
                           customers="How many customers fell, besides those named in hit",
                           off="The die landed off the floor (it counts for nothing)")
    async def report(self, interaction: discord.Interaction,
                     rolled: app_commands.Range[int, 1, 6],
                     hit: app_commands.Range[str, 1, 100] | None = None,
                     customers: app_commands.Range[int, 1, 4] | None = None,
                     off: bool = False) -> None:
        move = f"result {rolled}" + (" off" if off else "")
        spots = _spots_text(hit or "")
        if spots and spots.lower() not in ("none", "nothing", "-"):
            move += f" hit={spots}"
        if customers:
            move += f" customers={customers}"

        def done(played: Played) -> str:
            v = played.game.view(None)
            if v["phase"] == "review":
                rival = mention(played.row.players[1 - v["active"]])
                return (f"✅ Reported (`{move}`). {rival} may **Accept** or **Dispute** within "
                        "60 s; silence accepts.")
            return f"✅ Reported (`{move}`) and applied: a reflick cannot be disputed."
        await self._play(interaction, move, done)

    @report.autocomplete("hit")
    async def report_hit_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, legal = found
        if not any(m.startswith("result ") for m in legal):
            return []
        v = game.view(seat)
        items: list[str] = []
        names: dict[str, str] = {}
        for side, pre in ((1 - seat, ""), (seat, f"P{seat + 1}:")):
            s = v["sides"][side]
            whose = "your own" if side == seat else "enemy"
            for spot, state in s["spots"].items():
                if state == "up":
                    items.append(pre + spot)
                    names[pre + spot] = f"{whose} banner"
            for _ in range(s["super_sale"]["up"]):
                items.append(pre + s["stand"])
                names[pre + s["stand"]] = f"{whose} Super Sale Banner"
            for c in s["customers"]:
                items.append(pre + c)
                names[pre + c] = f"{whose} customer (+R to you)"
        return _comma_choices(current, items, lambda it: names.get(it, ""))

    @app_commands.command(name="oops",
                          description="Your own banner(s) fell by hand, sleeve or table: +6 each")
    @app_commands.describe(banners="The spots of your banners that fell (F1 or F1,B2; your Stand's "
                                   "spot for a Super Sale Banner)")
    async def oops(self, interaction: discord.Interaction,
                   banners: app_commands.Range[str, 1, 60]) -> None:
        await self._play(interaction, f"oops {_spots_text(banners)}")

    @oops.autocomplete("banners")
    async def oops_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, legal = found
        if not any(m.startswith("oops ") for m in legal):
            return []
        s = game.view(seat)["sides"][seat]
        items = [sp for sp, st in s["spots"].items() if st == "up"]
        items += [s["stand"]] * s["super_sale"]["up"]
        return _comma_choices(current, items, lambda it: "Super Sale Banner"
                              if it.startswith("S") else "your banner")

    @app_commands.command(name="place",
                          description="Reposition: move a banner, put a knocked one back, or a "
                                      "Super Sale")
    @app_commands.describe(banner="Which banner: a standing one's spot (F1), your Stand's spot for "
                                  "a Super Sale Banner, or 'knocked'",
                           to="Where to: an open banner spot, or 'stand' for a Super Sale Banner")
    async def place(self, interaction: discord.Interaction,
                    banner: app_commands.Range[str, 1, 20] | None = None,
                    to: app_commands.Range[str, 1, 20] | None = None) -> None:
        row, game, seat = await self._mine(interaction)
        legal = game.legal(seat)
        banner = (banner or "").strip()
        to = (to or "").strip()
        if not banner and any(m.startswith("place ") for m in legal):
            banner = "knocked"
        if banner and to:
            move = (f"place {to}" if banner.lower() in ("knocked", "down")
                    else f"reposition {banner} {to}")
            await self._play(interaction, move)
            return
        if not banner:
            options = [m for m in legal if m.startswith(("reposition ", "place "))]
        elif banner.lower() in ("knocked", "down"):
            options = [m for m in legal if m.startswith("place ")]
        else:
            options = [m for m in legal if m.upper().startswith(f"REPOSITION {banner.upper()} ")]
        if not options:
            if seat not in game.actors():
                raise RuleError(self.not_now(game))
            phase = game.view(None)["phase"]
            if phase != "reposition":
                raise RuleError("Banners are placed in your Reposition step, after your "
                                f"flicks (now: {PHASE_WORDS.get(phase, phase)}).")
            raise RuleError(f"{banner or 'That banner'} cannot move now. You may: "
                            + ", ".join(f"`{m}`" for m in legal) + ".")
        select = MoveSelect(row.id, row.version, [
            discord.SelectOption(label=self.move_label(game, seat, m)[:100], value=m)
            for m in options[:25]], "Where to?")
        await reply(interaction, "Choose where the banner goes (open spots, or your Stand as a "
                                 "Super Sale Banner when allowed):", ephemeral=True,
                    view=view_of(select))

    @place.autocomplete("banner")
    async def place_banner_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        _, _, legal = found
        out: dict[str, str] = {}
        if any(m.startswith("place ") for m in legal):
            out["knocked"] = "knocked — a banner of yours that was knocked down"
        for m in legal:
            if m.startswith("reposition "):
                src = m.split()[1]
                out[src] = (f"{src} — Super Sale Banner on your Stand" if src.startswith("S")
                            else f"{src} — your standing banner")
        key = current.strip().lower()
        return [app_commands.Choice(name=n[:100], value=v) for v, n in out.items()
                if key in v.lower()][:25]

    @place.autocomplete("to")
    async def place_to_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        _, _, legal = found
        banner = str(getattr(interaction.namespace, "banner", "") or "").strip()
        if not banner or banner.lower() in ("knocked", "down"):
            dests = [m.split()[1] for m in legal if m.startswith("place ")]
        else:
            dests = [m.split()[2] for m in legal
                     if m.upper().startswith(f"REPOSITION {banner.upper()} ")]
        key = current.strip().lower()
        return [app_commands.Choice(
            name=(f"{d} — your Stand: Super Sale Banner" if d.startswith("S")
                  else f"{d} — open banner spot"), value=d)
            for d in dict.fromkeys(dests) if key in d.lower()][:25]

    @app_commands.command(name="mode", description="Propose resolving this one flick the other way")
    @app_commands.describe(to="physical or simulated (default: the other way)")
    @app_commands.choices(to=[app_commands.Choice(name="simulated (the referee rolls)",
                                                  value="simulated"),
                              app_commands.Choice(name="physical (real dice)", value="physical")])
    async def mode(self, interaction: discord.Interaction, to: str | None = None) -> None:
        row, game, seat = await self._mine(interaction)
        current = game.view(seat)["flick_mode"]
        want = to or ("simulated" if current == "physical" else "physical")
        rival = mention(row.players[1 - seat])
        await self._play(interaction, f"mode {want}",
                         f"✅ Proposed: this flick {want}. {rival} may **Agree** or **Refuse** "
                         "(silence refuses).")

    @app_commands.command(name="play", description="Make any move in the game's notation")
    @app_commands.describe(move="The move, e.g. as listed by autocomplete")
    async def play(self, interaction: discord.Interaction,
                   move: app_commands.Range[str, 1, 200]) -> None:
        await self._play(interaction, move)

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self.legal_for(interaction)
        if found is None:
            return []
        game, seat, legal = found
        return legal_choices(legal, current, lambda m: f"{m} — {self.move_label(game, seat, m)}")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DieMenCog(bot))
