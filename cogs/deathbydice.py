"""`/deathbydice`: the Discord side of Death by Dice — a thin adapter over the engine.

The generic layer lays out `game.menu(seat)` (attacks as lists that narrow by "which dice?",
specials, defenses, discards) and words status lines and refusals from `game.prompt(seat)`.
Kept here, as Discord's own: the secret set-up wizard (rolled values by die size, a list of
arrangements whose choice stays marked, then Confirm), character picks at open tables
(`/deathbydice pick`, kept in the store until the table starts), pictures and the roster.
"""
from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import layout
from bot.engine import jsontext
from bot.engine.core import Game, RuleError
from bot.engine.deathbydice import DeathByDice
from bot.gamecog import GameCog, on_component
from bot.panel import Panel
from bot.options import engine_options
from bot.store import GameRow
from bot.tables import STALE_TEXT, StaleMove, views_remembered
from bot.ui import ComponentCall, GameItem, MoveButton, TypeMoveButton, reply
from rendering.deathbydice import (board_facts, live_board, public_picture, render_roster,
                                   seat_picture)

KIND = "deathbydice"
ROSTER_NAMES = DeathByDice.ROSTER_NAMES
CHARACTER_CHOICES = [app_commands.Choice(name=n, value=n) for n in ROSTER_NAMES]
PICKS_KEY = "deathbydice:picks:{uid}"   # store.meta: {challenge id: character} per user


class DeathByDiceCog(GameCog, group_name="deathbydice",
                     group_description="Death by Dice: character dice duels, best 2 of 3"):
    KIND = KIND
    BOARD_FACTS = staticmethod(board_facts)
    # The "Type a move" form's own help: the notation, with what it means.
    MOVE_EXAMPLE = "attack ability STR -> @2:STR (your Strength against their Strength)"

    # ---- hooks -----------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        if seat is None:
            return await self.draw(public_picture, live_board(game.view(None)))
        return await self.draw(seat_picture, game.view(seat))

    def view_signature(self, game: Game, seat: int | None) -> str:
        """What a seat's panel (text and picture) shows: only that seat's own characters and
        set-up, so another player's confirmation never re-draws it or clears a half-made
        choice. The public board: the live board's view, as its picture is drawn."""
        if seat is None:  # the thread's board, as drawn: a player's set-up redraws nothing
            return jsontext.digest(live_board(game.view(None)))
        v = game.view(seat)
        own = set(v["you"]["fighters"])
        mine = {"you": v["you"], "fighters": [f for f in v["fighters"] if f["id"] in own],
                "combat": v["combat"], "stage": v["stage"], "turn": v["turn"],
                "result": v["result"]}
        return jsontext.digest(mine)

    def panel(self, row: GameRow, game: Game, seat: int, version: str,
              chosen: str | None = None) -> Panel:
        if not game.is_secret(seat) or seat not in game.actors():
            return super().panel(row, game, seat, version)
        return self.setup_panel(row, game, seat, version, chosen)

    def setup_panel(self, row: GameRow, game: Game, seat: int, version: str,
                    chosen: str | None = None) -> Panel:
        """The secret set-up: the seat's rolled values by die size, a list of arrangements
        (the chosen one stays marked) and Confirm."""
        view = game.view(seat)
        fighters = {f["id"]: f for f in view["fighters"]}
        lines = [f"**Death by Dice — game #{row.id}**, combat {view['combat']} "
                 f"({game.name(seat)})", "🔒 **Your secret set-up roll** (only you see it):"]
        for s in view["you"]["setup"]:
            f = fighters[s["fighter"]]
            if s["arranged"] is not None:
                placed = " · ".join(f"{k} {v}" for k, v in s["arranged"].items())
                lines.append(f"• {f['character']}: set up ({placed}).")
                continue
            by_size: dict[int, list[str]] = {}
            for cell in f["board"]:
                if cell["die"] is not None:
                    by_size.setdefault(cell["die"], []).append(cell["ability"])
            values: dict[int, list[int]] = {}
            for r in s["rolled"] or []:
                values.setdefault(r["die"], []).append(r["value"])
            sizes = "; ".join(f"d{size} ({', '.join(by_size.get(size, []))}): "
                              + ", ".join(map(str, sorted(vs, reverse=True)))
                              for size, vs in sorted(values.items()))
            lines.append(f"• {f['character']} rolled — {sizes}.")
        lines.append(game.prompt(seat).todo)
        group = game.menu(seat).group("su")
        choices = list(group.items) if group else []
        if chosen is None and len(choices) == 1:
            chosen = choices[0].move
        items: list[discord.ui.Item] = []
        if len(choices) > 1:
            items.append(GameItem.select(
                row.id, version, "su",
                [layout.option(i, default=i.move == chosen) for i in choices[:25]],
                placeholder=group.title + " (then Confirm)"))
        picked = next((i for i in choices if i.move == chosen), None)
        if picked is not None:
            lines.append(f"Your arrangement: **{picked.label}** — press Confirm to lock it in "
                         "(final).")
            items.append(MoveButton(row.id, version, picked.move, "Confirm",
                                    discord.ButtonStyle.success, "✅"))
        else:
            lines.append("Pick an arrangement below, then Confirm.")
        items.append(TypeMoveButton(row.id))
        return Panel("\n".join(lines), items)

    @on_component("su")
    async def on_setup_preview(self, interaction: discord.Interaction,
                               call: ComponentCall) -> None:
        """The set-up list: choosing previews the arrangement; `Confirm` plays it."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.player_seat(row, interaction)
        if str(call.version) != await self.bot.tables.panel_version(row.id, seat, row.version):
            raise StaleMove(STALE_TEXT)
        seat = self.acting_seat(row, game, interaction, call)
        # A preview plays nothing: the menu checked here is the one the panel lists (built once).
        with views_remembered(game):
            if game.menu(seat).item(call.value) is None:
                raise RuleError("That arrangement is not one you can confirm now; choose one "
                                "from the list.")
            panel = self.setup_panel(row, game, seat, str(call.version), chosen=call.value)
        await interaction.response.edit_message(**panel.over(interaction.message).edit_kwargs())

    # ---- characters when the seats are known (called by the lobby) -----------------------------
    async def prepare_options(self, options: dict[str, Any], players: list[int]
                              ) -> dict[str, Any]:
        names = [n for n in str(options.get("characters", "")).split(",") if n]
        seats = DeathByDice.character_seats(str(options.get("mode", "duel")), len(players))
        owners = [players[s] for s in seats]
        picks = {uid: await self._pick_for(uid, players) for uid in set(owners[len(names):])}
        for slot in range(len(names), len(owners)):
            wanted = picks.get(owners[slot])
            if wanted is not None:
                picks[owners[slot]] = None  # a player running two Minions picked the first
                names.append(wanted)
                continue
            free = [c for c in ROSTER_NAMES if c not in names]
            names.append(free[0] if free else ROSTER_NAMES[slot % len(ROSTER_NAMES)])
        options["characters"] = ",".join(names)
        return options

    async def _pick_for(self, uid: int, players: list[int]) -> str | None:
        """The character `uid` picked for the table now starting with exactly these players."""
        picks = await self._picks(uid)
        for cid, name in picks.items():
            ch = await self.bot.store.get_challenge(int(cid))
            # The lobby marks the table "starting" before it asks us; an accepted challenge
            # still lists its opponent as invited rather than joined at that moment.
            if (ch is not None and ch["kind"] == KIND and ch["status"] == "starting"
                    and set(ch["joined"]) | set(ch["invited"]) == set(players)):
                picks.pop(cid)
                await self.bot.store.meta_set(PICKS_KEY.format(uid=uid), json.dumps(picks))
                return name
        return None

    async def _picks(self, uid: int) -> dict[str, str]:
        raw = await self.bot.store.meta_get(PICKS_KEY.format(uid=uid))
        return json.loads(raw) if raw else {}

    # ---- commands ------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to Death by Dice")
    @app_commands.describe(opponent="Who you challenge", character="Your character",
                           opponent_character="Their character (default: they pick, or the "
                                              "first free one)")
    @app_commands.choices(character=CHARACTER_CHOICES, opponent_character=CHARACTER_CHOICES)
    @engine_options(DeathByDice, "best_of")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        character: str, opponent_character: str | None = None,
                        **options) -> None:
        names = [character] + ([opponent_character] if opponent_character else [])
        await self.bot.lobby.challenge(interaction, KIND, opponent, {
            "characters": ",".join(names), "mode": "duel", **options})
        if opponent_character is None:
            free = next(c for c in ROSTER_NAMES if c != character)
            await interaction.followup.send(
                f"🎭 {opponent.mention}: choose your character with `/deathbydice pick` before "
                f"you accept; otherwise you play **{free}**. (`/deathbydice characters` shows "
                "the roster.)", allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="open", description="Open a Death by Dice table (3+ players, or "
                                                   "Bosses & Minions)")
    @app_commands.describe(character="Your character (the Boss in Bosses & Minions)")
    @app_commands.choices(character=CHARACTER_CHOICES)
    @engine_options(DeathByDice, "mode", "best_of")
    async def open_table(self, interaction: discord.Interaction, character: str,
                         **options) -> None:
        await self.bot.lobby.challenge(interaction, KIND, None,
                                       {"characters": character, **options})
        free = [c for c in ROSTER_NAMES if c != character]
        role = "the Boss" if options.get("mode") == "boss" else "the host"
        await interaction.followup.send(
            f"🎭 {character} for {role}. Joiners: choose your character with `/deathbydice "
            "pick` before the host starts; otherwise you get the first free one in roster "
            f"order ({', '.join(free)}).", allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="pick", description="Choose your character at a Death by Dice "
                                                   "table you joined or were challenged to")
    @app_commands.describe(character="The character you will play")
    @app_commands.choices(character=CHARACTER_CHOICES)
    async def pick(self, interaction: discord.Interaction, character: str) -> None:
        uid = interaction.user.id
        home = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        mine = [ch for ch in await self.bot.store.open_challenges()
                if ch["kind"] == KIND and ch["guild_id"] == interaction.guild_id
                and (uid in ch["joined"] or uid in ch["invited"])]
        if not mine:
            raise RuleError("You are not at an open Death by Dice table: press Join on one (or "
                            "be challenged) first, then pick. Characters: "
                            + ", ".join(ROSTER_NAMES) + ".")
        ch = max([c for c in mine if c["channel_id"] == home] or mine, key=lambda c: c["id"])
        fixed = [n for n in ch["options"].get("characters", "").split(",") if n]
        if uid == ch["host_id"]:
            raise RuleError(f"You chose {fixed[0]} when you opened this table; cancel it and "
                            "open a new one to change.")
        if ch["invited"] and len(fixed) > 1:
            raise RuleError(f"The challenge names your character: {fixed[1]}. Decline it if "
                            "you want to play someone else.")
        name = DeathByDice.find_character(character)
        if name is None:
            raise RuleError(f"{character!r} is not a Death by Dice character. Choose one of: "
                            + ", ".join(ROSTER_NAMES) + ".")
        open_ids = {str(c["id"]) for c in mine}
        picks = {k: v for k, v in (await self._picks(uid)).items() if k in open_ids}
        picks[str(ch["id"])] = name["name"]
        await self.bot.store.meta_set(PICKS_KEY.format(uid=uid), json.dumps(picks))
        await reply(interaction, f"🎭 {interaction.user.mention} will play **{name['name']}** "
                                 f"({name['special']['name']}) when the game starts.",
                    ephemeral=False, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="characters", description="The Death by Dice roster: boards, "
                                                         "dice, links and specials")
    @app_commands.describe(public="Post it for everyone here (default: only you see it)")
    async def characters(self, interaction: discord.Interaction, public: bool = False) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        panel = Panel(DeathByDice.roster_text(),
                      picture=await self.draw(render_roster, DeathByDice.roster()))
        await interaction.followup.send(ephemeral=not public, **panel.send_kwargs())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DeathByDiceCog(bot))
