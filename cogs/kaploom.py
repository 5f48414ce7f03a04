"""KAPLOOM! in Discord (`/kaploom ...`) over its engine (menu, prompt, words, forms): the forms'
buttons (bot/forms.py), the Phase 1 wizard (`kpa` an action, `kpp` its dice, `>n` a page) that no
one else's move edits away, the pictures' signatures, the thread, `board`, `table`, `dice`."""
from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import forms, layout
from bot.engine import jsontext
from bot.engine.core import Event, Game, RuleError
from bot.engine.kaploom import Kaploom
from bot.gamecog import GameCog, on_component
from bot.panel import Panel, clip, mention, split_message
from bot.options import engine_options
from bot.store import GameRow
from bot.tables import Played
from bot.ui import ComponentCall, GameItem, reply
from rendering.kaploom import public_picture, render_action_board

KIND = "kaploom"
BOARDS = [app_commands.Choice(name=n, value=v) for n, v in Kaploom.board_choices()]
FIGHT, AFTER = ("⚔️", "🛡️"), ("undo", "point", "lock")  # the engine's fight emoji; last groups
TEXT_MAX = 1900
FORMS = (("lock", "Place dice and lock in…", "🔐", discord.ButtonStyle.success), ("place",
         "Place dice…", "📝"), ("power", "Power up and finish…", "⚡"))  # (arg, label, emoji)
ICONS = dict(phase="📣", attack="⚔️", loss="💥", block="🛡️", heal="💚", ko="💀", lock="🔒", turn="⚡",
             gain="🎁", trigger="👊", lock_in="🔐", first="🏁", done="✅", unused="💤", spoilers="📖",
             trade="🔄", attach="🔧", detach="🔧", give="🤝", revive="✨", immediate="⚡")


@dataclasses.dataclass
class Kept(Panel):
    """A panel signed as without what no one else's move should edit away."""
    sig: str = ""

    def signature(self) -> str:
        return self.sig


class KaploomCog(GameCog, group_name="kaploom",
                 group_description="KAPLOOM!: heroes and villains build dice and slug it out"):
    KIND = KIND
    MOVE_EXAMPLE = "assign POW d2 d4"
    BOARD_COMMAND = "table"  # `/kaploom board` is the action board

    def panel_phase(self, game: Game) -> str:
        return "{stage}:{round}".format(**game.view(None))

    @staticmethod
    def view_signature(game: Game, seat: int | None) -> str:
        view = game.picture_view(seat)
        if view["stage"] == "power":  # the board as revealed stands (a Power Up panel has no
            view = {k: view[k] for k in ("round", "stage", "result")}  # picture): texts tell
        return jsontext.digest(view)

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        """The thread's board; a seat's panel says its roll and placements in words (issue
        #22: a picture of them in every panel was most of a round's uploads, and unreadable
        at 550 px in 2 vs 2), as TradeShowdown's do."""
        return None if seat is not None else await self.draw(public_picture,
                                                             game.picture_view(None))

    def opening_lines(self, row: GameRow, game: Game) -> list[str]:
        return [f"🎲 **KAPLOOM!** — game #{row.id}: {game.versus(game.names, game.options)}",
                f"🎯 **Goal:** {game.goal()}.", *super().opening_lines(row, game)[2:]]

    # ---- the secret panel -----------------------------------------------------------------------
    def panel_text(self, row: GameRow, game: Game, seat: int, ally: bool = True) -> str:
        """The seat's own facts, its ally's (not signed: `ally=False`), what to do now."""
        prompt = game.prompt(seat)
        head, *rest = game.seat_lines(seat)
        return clip("\n".join([f"**KAPLOOM! — game #{row.id}, {head}**", *rest, *(
            game.ally_lines(seat) if ally else ()), prompt.todo or prompt.waiting]), TEXT_MAX)

    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        menu, text = game.menu(seat), self.panel_text(row, game, seat)
        if game.view(None)["stage"] != "assign" or not menu:  # Power Up: a form of it too
            return Panel(text, self.move_items(row, game, seat, version) + forms.menu_button(
                menu, "done", row.id, version, *FORMS[2]) if menu else [])
        mine, key, page = self.chosen().get((row.id, seat), ("", "", None))
        group = menu.group(key) if mine == version else None
        items = [GameItem.select(row.id, version, "kpa", [discord.SelectOption(
            label=layout.words(g.title, 100), value=g.key, emoji=g.emoji or None,
            default=g is group, description=layout.words(
                f"{g.hint} · {len(g.items)} way{'s' * (len(g.items) > 1)} to fill it", 100))
            for g in acts][:25], placeholder=placeholder, arg=arg)
            for arg, placeholder, acts in (
                ("fight", "⚔️ Attack / 🛡️ defense: choose an action",
                 [g for g in menu.groups if g.emoji in FIGHT]),
                ("other", "⚡ At once, Power Up, Duo: choose an action",
                 [g for g in menu.groups if g.emoji not in FIGHT and g.key not in AFTER]))
            if acts]
        rest = layout.menu_components(row.id, version, dataclasses.replace(menu, groups=tuple(
            g for g in menu.groups if g.key in AFTER)))
        form = [forms.button(row.id, version, *f) for f in (FORMS[:2] if game.placement_form(
            seat) else ())]  # the whole placement in a form; a half-made choice hides them
        # Signed without a half-made choice and what the ally's moves change (their dice, the
        # Duo board's reach): those edit nothing; a stale pick is refused politely.
        own = [g for g in menu.groups if g.emoji != "🤝"]
        sig = Panel(self.panel_text(row, game, seat, ally=False), rest + form + [
            GameItem.select(row.id, version, "kpa", [discord.SelectOption(label=g.key)
                                                     for g in own])]).signature()
        rest += form if group is None else []
        if group is not None:
            chunks = layout.step_pages(group.items)
            shown = chunks[page][1] if page is not None and page < len(chunks) else group.items
            items.append(GameItem.select(row.id, version, "kpp", [layout.option(i) for i in shown]
                                         if len(shown) <= 25 else [discord.SelectOption(
                                             label=layout.words(label, 100),
                                             value=f">{n}", description=f"{len(c)} ways")
                                             for n, (label, c) in enumerate(chunks)][:25],
                                         arg=key, placeholder=layout.words(
                                             f"🎲 The dice for {group.title}", 150)))
        lists = [i for i in items + rest if isinstance(i.item, discord.ui.Select)]
        for n, item in enumerate(lists + [i for i in rest if i not in lists]):  # lists first
            item.row = n if n < len(lists) else len(lists) + (n - len(lists)) // 5
        return Kept(text, lists + [i for i in rest if i not in lists], sig=sig)

    # ---- the wizard's clicks ------------------------------------------------------------------
    @on_component(forms.FORM_TAG)
    async def on_place_form(self, interaction: discord.Interaction, call: ComponentCall):
        if call.arg == "power":  # every Power Up choice in one form, then Done
            return await forms.offer_menu(self, interaction, call, FORMS[2][1][:-1], "done")
        lock = call.arg == "lock"  # the whole placement in one form, then maybe Lock In
        await forms.offer(self, interaction, call, FORMS[not lock][1].rstrip("…"), lambda g, s: (
            g.placement_form(s)), lambda g, s, picks: g.placement_moves(s, picks, lock_in=lock))

    def chosen(self) -> dict[tuple[int, int], tuple[str, str, int | None]]:
        """Each seat's half-made choice: (panel version, action key, page)."""
        return self.__dict__.setdefault("_chosen", {})

    @on_component("kpa")
    async def on_choose_action(self, interaction: discord.Interaction, call: ComponentCall):
        await self.show_choice(interaction, call, call.value, None)

    @on_component("kpp")
    async def on_choose_dice(self, interaction: discord.Interaction, call: ComponentCall):
        if call.value[:1] == ">":
            return await self.show_choice(interaction, call, call.arg, int(call.value[1:]))
        await self.on_move_component(interaction, call.game_id, call.version, call.value)

    async def show_choice(self, interaction: discord.Interaction, call: ComponentCall,
                          key: str, page: int | None) -> None:
        row, game = await self.bot.tables.load(call.game_id)
        seat = self.acting_seat(row, game, interaction, call)
        await self.bot.tables.check_version(row, seat, call.version)
        if game.menu(seat).group(key) is None:
            raise RuleError("Your unplaced dice can no longer fill that action: pick another.")
        self.chosen()[(row.id, seat)] = (str(call.version), key, page)
        panel = self.panel(row, game, seat, str(call.version))
        await interaction.response.edit_message(**panel.over(interaction.message).edit_kwargs())

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        if game.outcome() is None and game.view(None)["stage"] == "assign":
            return self.panel_text(row, game, seat)
        return await super()._retired_text(row, game, seat)

    # ---- the thread ---------------------------------------------------------------------------
    async def publish(self, played: Played) -> None:
        """Public events as thread lines; a secret step's note to the mover only (its ally's
        panel tells it when next shown). The status line says who won."""
        lines = [line for e in played.events if e.to is None
                 for line in self.event_lines(played.game, e)]
        me = played.row.seat_of(played.by) if played.by else None
        await super().publish(dataclasses.replace(played, events=[
            dataclasses.replace(e, to=(me,)) if me in e.to else e for e in played.events
            if e.to is not None] + [Event(x, "line") for x in lines]))

    def event_lines(self, game: Game, e: Event) -> list[str]:
        if e.kind == "reveal" and game.reveal_lines(e.data.get("round")):
            head, *boards = game.reveal_lines(e.data.get("round"))
            return [f"🎬 **{head}**"] + boards
        text = f"**{e.text}**" if e.kind in ("phase", "ko", "immediate") else e.text
        return [] if e.kind == "game_over" else [f"{ICONS.get(e.kind, '•')} {text}"]

    # ---- commands ------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to a KAPLOOM! duel")
    @app_commands.describe(opponent="Who you challenge (you take the first seat)")
    @engine_options(Kaploom, "sides", "supers", "timer")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        **options: Any) -> None:
        await self.bot.lobby.challenge(interaction, KIND, opponent, options)

    @app_commands.command(name="team", description="Open a 2 vs 2 KAPLOOM! table for exactly four")
    @engine_options(Kaploom, "sides", "supers", "timer")
    async def team(self, interaction: discord.Interaction, **options: Any) -> None:
        options["mode"] = "2v2"
        await self.bot.lobby.challenge(interaction, KIND, None, options, players=4,
                                       note="👥 " + Kaploom.table_note(options))

    @team.autocomplete("supers")
    @challenge.autocomplete("supers")
    async def supers_autocomplete(self, interaction: discord.Interaction, current: str):
        mode = "2v2" if interaction.command and interaction.command.name == "team" else "duel"
        side = getattr(interaction.namespace, "sides", None) or "hero"
        return [app_commands.Choice(name=label[:100], value=value[:100])
                for label, value in Kaploom.supers_choices(mode, side)
                if current.lower().strip() in value.lower()][:25]

    @app_commands.command(name="board", description="The KAPLOOM! action board: every action, "
                                                    "its dice and effect")
    @app_commands.describe(board="Which board (default: the base board)",
                           public="Post it in the channel for everyone (default: only you see it)")
    @app_commands.choices(board=BOARDS)
    async def board_command(self, interaction: discord.Interaction, board: str = "base",
                            public: bool = False) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        picture = await self.draw(render_action_board, supers=Kaploom.board_supers(board),
                                  duo=board in ("duo", "all"))
        style = dict(title="__**{}**__", panel="*{}*", action="• {}",
                     requirements="__**Requirements**__ {}")
        lines = "\n".join(style[kind].format(text) for kind, text in Kaploom.board_lines(board))
        for i, text in enumerate(split_message(lines, TEXT_MAX)):
            kw = Panel(text, picture=picture if i == 0 else None).send_kwargs()
            await interaction.followup.send(ephemeral=not public, **kw)

    @app_commands.command(name="table", description="Your running game's table: boards, health, "
                                                    "dice (only you see it)")
    async def table_command(self, interaction: discord.Interaction) -> None:
        await self.show_board(interaction)

    @app_commands.command(name="dice", description="A player's dice, faces and abilities (public)")
    @app_commands.describe(player="Whose (default: every player of the game)")
    async def dice_command(self, interaction: discord.Interaction,
                           player: discord.User | None = None) -> None:
        row = await self.bot.store.active_game_in(interaction.channel_id, KIND)
        if row is None and player is not None and player.id != interaction.user.id:
            theirs = [r for r in await self.bot.store.games_of_user(player.id) if r.kind == KIND]
            if len(theirs) != 1:
                raise RuleError(f"{player.display_name} plays {len(theirs)} KAPLOOM! games right "
                                "now: use this command in their game's thread.")
            row = theirs[0]
        row, game = (row, self.engine.from_json(row.state)) if row else await self.find_game(
            interaction)
        seats = [row.seat_of(player.id)] if player else list(range(len(row.players)))
        if None in seats:
            raise RuleError(f"{player.display_name} is not playing in game #{row.id}: its "
                            "players are " + ", ".join(mention(u) for u in row.players) + ".")
        head, *lines = game.dice_lines(seats)
        await reply(interaction, clip("\n".join([f"**KAPLOOM! game #{row.id}, {head}**", *lines])),
                    ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KaploomCog(bot))
