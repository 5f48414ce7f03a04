"""`/deathbydice`: the Discord side of Death by Dice — a thin adapter over the engine.

Commands: `challenge`, `open`, `pick` (a joiner's character), `characters` (the roster),
`attack` (type, dice, target; autocomplete from `game.legal`), `defend` (autocomplete), plus
the generic `board`, `panel`, `move` of every game.

Flow:
- Set-up is secret: each player's panel (DM, or the ephemeral fallback) shows their rolled
  values by die size and a select of every legal arrangement (`setup ...`, at most six per
  character); choosing one previews it, `Confirm` plays it. The thread only ever sees "is set
  up (secret until everyone is)" and the public picture with "?" dice until all confirm.
- On a turn the thread's turn message carries the attacker's choices: one select of full
  attacks when there are few, else a select of "type + dice" that answers (ephemerally) with
  the legal target dice; specials as buttons. The defender gets buttons for the legal defenses
  (the timer plays `defend none`). Loaded Dice / Thick Skull / Rampage are buttons, a discard
  choice is a select. The table rolls every die and the result is posted.
- Characters: the challenger names theirs (and may name the opponent's); everybody else picks
  with `/deathbydice pick` before the game starts, or gets the first roster character nobody
  has yet (`prepare_options`, called by the lobby when the seats are known).
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import CHANCE, Game, RuleError
from bot.engine.deathbydice import DeathByDice
from bot.gamecog import GameCog, Panel, legal_choices, on_component
from bot.store import GameRow
from bot.tables import STALE_TEXT
from bot.ui import ComponentCall, GameItem, MoveButton, MoveSelect, TypeMoveButton, reply, view_of
from rendering.deathbydice import public_picture, render_roster, seat_picture

log = logging.getLogger(__name__)

KIND = "deathbydice"
ROSTER_NAMES = DeathByDice.ROSTER_NAMES
CHARACTER_CHOICES = [app_commands.Choice(name=n, value=n) for n in ROSTER_NAMES]
TYPE_CHOICES = [
    app_commands.Choice(name="Ability Attack: a die against the same ability (equal or more)",
                        value="ability"),
    app_commands.Choice(name="Boosted Ability Attack: a die +2 from a neighbour, any target",
                        value="boosted"),
    app_commands.Choice(name="Complex Attack: 2+ Linked dice summed, any target",
                        value="complex"),
]
BEST_OF_CHOICES = [app_commands.Choice(name="Best of 3 combats (first to 2 wins)", value=3),
                   app_commands.Choice(name="A single combat", value=1)]
MODE_CHOICES = [app_commands.Choice(name="Duel / free-for-all: every character for itself",
                                    value="duel"),
                app_commands.Choice(name="Bosses & Minions: you are the Boss, joiners the "
                                         "Minions", value="boss")]
PICKS_KEY = "deathbydice:picks:{uid}"   # store.meta: {challenge id: character} per user
MAX_BUTTONS = 20                        # four rows of five; the fifth row is the select/typing
ONE_STEP_ATTACKS = 25                   # up to this many attacks: one select of full moves
ROLES = {"declare": "the attacker", "loaded": "the attacker", "discard": "the attacker",
         "rampage": "the attacker", "defend": "the defender", "thick_skull": "the defender"}
QUIET_MOVES = ("defend none", "pass")   # declining: a grey button


def normal_dice(text: str) -> str:
    """What a person types for dice (`str for`, `STR, FOR`) as the notation wants (`STR+FOR`)."""
    return "+".join(p.upper() for p in re.split(r"[\s,+]+", text.strip()) if p)


def option(game: Game, seat: int, move: str, default: bool = False) -> discord.SelectOption:
    """A select option for a legal move: the engine's label, its effect as the description."""
    said = game.describe(move, seat)
    return discord.SelectOption(label=said.label[:100], value=move,
                                description=said.effect[:100] or None, default=default)


def character_table() -> str:
    return DeathByDice.roster_text()


# --- the cog --------------------------------------------------------------------------------------

class DeathByDiceCog(GameCog, group_name="deathbydice",
                     group_description="Death by Dice: character dice duels, best 2 of 3"):
    KIND = KIND
    MOVE_EXAMPLE = "attack boosted AGI+STR -> @2:CON"

    # ---- hooks -----------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        if seat is None:
            return await self.draw(public_picture, game.view(None))
        return await self.draw(seat_picture, game.view(seat))

    async def roster_picture(self):
        return await self.draw(render_roster, DeathByDice.roster())

    def view_signature(self, game: Game, seat: int | None) -> str:
        """What a seat's panel (text and picture) shows: only that seat's own characters and
        set-up, so another player's confirmation never re-draws it or clears a half-made
        choice. The public board keeps the whole view's signature."""
        if seat is None:
            return GameCog.view_signature(game, None)
        v = game.view(seat)
        own = set(v["you"]["fighters"])
        mine = {"you": v["you"], "fighters": [f for f in v["fighters"] if f["id"] in own],
                "combat": v["combat"], "stage": v["stage"], "turn": v["turn"],
                "result": v["result"]}
        return hashlib.sha1(json.dumps(mine, sort_keys=True).encode()).hexdigest()[:16]

    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        return self.choice_items(row, game, seat, row.version)

    def choice_items(self, row: GameRow, game: Game, seat: int,
                     version: int | str) -> list[discord.ui.Item]:
        """A component for every legal move: the attacks as one select (or "type and dice",
        then the target), discards as a select, everything else as buttons."""
        moves = game.legal(seat)
        if not moves:
            return []
        view = game.view(None)
        groups = view["attack_groups"]
        attacks = {m for g in groups for m in g["moves"]}
        items: list[discord.ui.Item] = []
        if attacks:
            items.append(self.attack_select(row, game, seat, version, groups))
        others = [m for m in moves if m not in attacks]
        if game.current_phase() == "discard" or len(others) > MAX_BUTTONS:
            items.append(MoveSelect(row.id, version, [option(game, seat, m) for m in others],
                                    "Choose the dice you discard" if game.current_phase()
                                    == "discard" else "Choose your move"))
            others = []
        for m in others:
            style = (discord.ButtonStyle.secondary if m in QUIET_MOVES else
                     discord.ButtonStyle.primary)
            items.append(MoveButton(row.id, version, m, game.describe(m, seat).label, style))
        items.append(TypeMoveButton(row.id))
        return items

    def attack_select(self, row: GameRow, game: Game, seat: int, version: int | str,
                      groups: list[dict[str, Any]]) -> discord.ui.Item:
        name = game.name(seat)
        moves = [m for g in groups for m in g["moves"]]
        if len(moves) <= ONE_STEP_ATTACKS:
            return MoveSelect(row.id, version, [option(game, seat, m) for m in moves],
                              f"{name}: choose your attack", tag="at")
        options = []
        for g in groups[:25]:
            n = len(g["moves"])
            options.append(discord.SelectOption(
                label=g["label"][:100], value=g["key"],
                description=f"{n} target{'s' if n != 1 else ''} · {g['effect']}"[:100]))
        return GameItem.select(row.id, version, "ag", options,
                               placeholder=f"{name}: choose the attack type and your dice")

    def status_line(self, row: GameRow, game: Game) -> str:
        view = game.view(None)
        seats = [a for a in game.actors() if a != CHANCE]
        if game.outcome() is not None or not seats:
            return super().status_line(row, game)
        if all(game.is_secret(s) for s in seats):
            cast = ", ".join(f["label"] for f in view["fighters"])
            return f"Characters: {cast}.\n" + super().status_line(row, game)
        when = f" <t:{int(row.deadline)}:R>" if row.deadline else ""
        phase = game.current_phase()
        if phase == "defend":
            a = view["attack"]
            return (f"🛡️ {a['target_label']}: your {a['ability']} is attacked — choose a "
                    f"defense below. No answer by{when or ' the deadline'} = no defense.")
        if phase == "declare":
            return (f"👉 {view['prompt']} Use the menu below or `/deathbydice attack`"
                    f" (time runs out{when}; there is no passing).")
        return f"👉 {view['prompt']} (time runs out{when})."

    def panel(self, row: GameRow, game: Game, seat: int, version: str,
              chosen: str | None = None) -> Panel:
        view = game.view(seat)
        labels = {f["id"]: f for f in view["fighters"]}
        me = ", ".join(labels[fid]["character"] for fid in view["you"]["fighters"])
        head = (f"**Death by Dice — game #{row.id}**, combat {view['combat']} "
                f"({game.name(seat)}: {me})")
        if not game.is_secret(seat):
            text = f"{head}\n```\n{game.text(seat)}\n```"
            if seat in game.actors():
                return Panel(text + "\nYour move:",
                             self.choice_items(row, game, seat, version))
            return Panel(text + "\nNothing to do right now"
                         + ("; waiting for the others' secret set-ups."
                            if game.current_phase() in game.SECRET_PHASES else "."))
        return self.setup_panel(row, game, seat, version, chosen, head, view)

    def setup_panel(self, row: GameRow, game: Game, seat: int, version: str,
                    chosen: str | None, head: str, view: dict[str, Any]) -> Panel:
        lines = [head, "🔒 **Your secret set-up roll** (only you see it):"]
        fighters = {f["id"]: f for f in view["fighters"]}
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
            sizes = "; ".join(
                f"d{size} ({', '.join(by_size.get(size, []))}): "
                + ", ".join(map(str, sorted(vs, reverse=True)))
                for size, vs in sorted(values.items()))
            lines.append(f"• {f['character']} rolled — {sizes}.")
        lines.append("Dice of the same size may swap values; nothing else moves. Lowest total "
                     "attacks first. Nobody sees your values until everyone has confirmed.")
        arrangements = game.legal(seat)
        items: list[discord.ui.Item] = []
        if chosen is None and len(arrangements) == 1:
            chosen = next(iter(arrangements))
        if len(arrangements) > 1:
            items.append(GameItem.select(
                row.id, version, "su",
                [option(game, seat, m, m == chosen) for m in arrangements],
                placeholder="Choose where your values go (then Confirm)"))
        if chosen is not None:
            lines.append(f"Your arrangement: **{game.describe(chosen, seat).label}** — press "
                         "Confirm to lock it in (final).")
            items.append(MoveButton(row.id, version, chosen, "Confirm",
                                    discord.ButtonStyle.success, "✅"))
        else:
            lines.append("Pick an arrangement below, then Confirm.")
        items.append(TypeMoveButton(row.id))
        return Panel("\n".join(lines), items)

    # ---- options when the seats are known (called by the lobby) ---------------------------------
    async def prepare_options(self, options: dict[str, Any], players: list[int]
                              ) -> dict[str, Any]:
        names = [n for n in str(options.get("characters", "")).split(",") if n]
        n = len(players)
        if options.get("mode") == "boss":
            if not 2 <= n <= 4:
                raise RuleError(f"Bosses & Minions is for 2 to 4 players (the Boss, then one "
                                f"player for all Minions or one per Minion); {n} joined. "
                                "Someone should Leave, or open a duel table.")
            owners = [players[0]] + ([players[1]] * 2 if n == 2 else players[1:]
                                     if n == 4 else players[1:3])
        else:
            owners = list(players)
        picks = {uid: await self._pick_for(uid, players) for uid in set(owners[len(names):])}
        for slot in range(len(names), len(owners)):
            uid = owners[slot]
            wanted = picks.get(uid)
            if wanted is not None:
                picks[uid] = None  # a player running two Minions picked the first one
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

    # ---- component answers -----------------------------------------------------------------------
    async def _live(self, game_id: int) -> tuple[GameRow, Game]:
        row = await self.bot.store.get_game(game_id)
        if row is None or row.kind != KIND:
            raise RuleError(f"There is no Death by Dice game #{game_id}.")
        if row.status != "active":
            raise RuleError(f"Game #{game_id} is over.")
        return row, self.engine.from_json(row.state)

    def not_yours(self, row: GameRow, game: Game) -> str:
        view = game.view(None)
        seats = [a for a in game.actors() if a != CHANCE]
        who = ", ".join(game.name(s) for s in seats) or "nobody"
        role = ROLES.get(game.current_phase(), "")
        role = f" ({role})" if role else ""
        return (f"This choice is for {who}{role}, not you: {view['prompt']} You will get your "
                "own buttons when it is your turn to act.")

    async def on_move_component(self, interaction: discord.Interaction, game_id: int,
                                version: int | str | None, move: str) -> None:
        if isinstance(version, int):
            # A public button of the current moment pressed by the wrong player: say whose it
            # is (a stale one is left to the table's "earlier moment" answer).
            row = await self.bot.store.get_game(game_id)
            if row is not None and row.status == "active" and row.version == version:
                seat = row.seat_of(interaction.user.id)
                game = self.engine.from_json(row.state)
                if seat is not None and seat not in game.actors():
                    raise RuleError(self.not_yours(row, game))
        await super().on_move_component(interaction, game_id, version, move)
        message = interaction.message
        if (interaction.guild_id is None and message is not None
                and not message.flags.ephemeral and isinstance(version, str)):
            # A DM panel that played its move: retire its components unless the table
            # already refreshed it with the next character's set-up.
            row = await self.bot.store.get_game(game_id)
            seat = row.seat_of(interaction.user.id) if row else None
            game = self.engine.from_json(row.state) if row else None
            if game is None or seat not in game.actors() or not self.is_secret(game, seat):
                try:
                    await interaction.edit_original_response(view=None)
                except discord.HTTPException:
                    pass

    @on_component("ag")
    async def on_attack_group(self, interaction: discord.Interaction,
                              call: ComponentCall) -> None:
        """Step one of declaring an attack when there are many: the type and the dice. The
        answer (ephemeral, attacker only) offers the legal targets for that choice."""
        row, game = await self._live(call.game_id)
        if call.version != row.version:
            raise RuleError(STALE_TEXT)
        seat = self.player_seat(row, interaction)
        if seat not in game.actors():
            raise RuleError(self.not_yours(row, game))
        group = next((g for g in game.view(None)["attack_groups"] if g["key"] == call.value),
                     None)
        if group is None:
            raise RuleError("That is not an attack you can make now. Choose one from the menu.")
        targets = group["targets"]
        if len(targets) <= MAX_BUTTONS:
            items: list[discord.ui.Item] = [
                MoveButton(row.id, row.version, t["move"], "→ " + t["label"],
                           discord.ButtonStyle.danger) for t in targets]
        else:
            items = [MoveSelect(row.id, row.version, [option(game, seat, t["move"])
                                                      for t in targets],
                                "Choose the die you attack")]
        await reply(interaction, f"**{group['label']}** — {group['effect']} Choose the die you "
                                 "attack:", ephemeral=True, view=view_of(*items))

    @on_component("su")
    async def on_setup_preview(self, interaction: discord.Interaction,
                               call: ComponentCall) -> None:
        """The secret panel's arrangement select: choosing previews it; `Confirm` plays it."""
        row, game = await self._live(call.game_id)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError("This panel is for the players of this game only.")
        version = str(call.version)
        if version != f"p{await self.bot.store.seat_moves(row.id, seat)}":
            raise RuleError(STALE_TEXT)
        if call.value not in game.legal(seat):
            raise RuleError("That arrangement is not one you can confirm now; choose one from "
                            "the list.")
        panel = self.panel(row, game, seat, version, chosen=call.value)
        await interaction.response.edit_message(content=panel.content,
                                                view=view_of(*panel.items))

    # ---- commands ------------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge someone to Death by Dice")
    @app_commands.describe(opponent="Who you challenge", character="Your character",
                           opponent_character="Their character (default: they pick, or the "
                                              "first free one)",
                           best_of="Best of 3 combats (default) or a single combat")
    @app_commands.choices(character=CHARACTER_CHOICES, opponent_character=CHARACTER_CHOICES,
                          best_of=BEST_OF_CHOICES)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        character: str, opponent_character: str | None = None,
                        best_of: int = 3) -> None:
        names = [character] + ([opponent_character] if opponent_character else [])
        await self.bot.lobby.challenge(interaction, KIND, opponent, {
            "characters": ",".join(names), "best_of": best_of, "mode": "duel"})
        if opponent_character is None:
            free = next(c for c in ROSTER_NAMES if c != character)
            await interaction.followup.send(
                f"🎭 {opponent.mention}: choose your character with `/deathbydice pick` before "
                f"you accept; otherwise you play **{free}**. (`/deathbydice characters` shows "
                "the roster.)", allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="open", description="Open a Death by Dice table (3+ players, or "
                                                   "Bosses & Minions)")
    @app_commands.describe(character="Your character (the Boss in Bosses & Minions)",
                           mode="duel: everyone for themselves; boss: you are the Boss",
                           best_of="Best of 3 combats (default) or a single combat")
    @app_commands.choices(character=CHARACTER_CHOICES, mode=MODE_CHOICES,
                          best_of=BEST_OF_CHOICES)
    async def open_table(self, interaction: discord.Interaction, character: str,
                         mode: str = "duel", best_of: int = 3) -> None:
        await self.bot.lobby.challenge(interaction, KIND, None, {
            "characters": character, "best_of": best_of, "mode": mode})
        if mode == "boss":
            how = ("you are the **Boss** (every die one size up). Minions: with 2 players the "
                   "second runs two Minions; with 3, one each (2 Minions); with 4, one each "
                   "(3 Minions).")
        else:
            how = "every character for themselves; turn order by set-up totals."
        free = [c for c in ROSTER_NAMES if c != character]
        await interaction.followup.send(
            f"🎭 {character} for the host; {how} Joiners: choose your character with "
            "`/deathbydice pick` before the host starts; otherwise you get the first free one "
            f"in roster order ({', '.join(free)}).",
            allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="pick", description="Choose your character at a Death by Dice "
                                                   "table you joined or were challenged to")
    @app_commands.describe(character="The character you will play")
    @app_commands.choices(character=CHARACTER_CHOICES)
    async def pick(self, interaction: discord.Interaction, character: str) -> None:
        uid = interaction.user.id
        channel = interaction.channel
        home = getattr(channel, "parent_id", None) or interaction.channel_id
        mine = [ch for ch in await self.bot.store.open_challenges()
                if ch["kind"] == KIND and ch["guild_id"] == interaction.guild_id
                and (uid in ch["joined"] or uid in ch["invited"])]
        if not mine:
            raise RuleError("You are not at an open Death by Dice table: press Join on one (or "
                            "be challenged) first, then pick. Characters: "
                            + ", ".join(ROSTER_NAMES) + ".")
        here = [ch for ch in mine if ch["channel_id"] == home] or mine
        ch = max(here, key=lambda c: c["id"])
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
        picks = await self._picks(uid)
        open_ids = {str(c["id"]) for c in mine}
        picks = {k: v for k, v in picks.items() if k in open_ids}
        picks[str(ch["id"])] = name["name"]
        await self.bot.store.meta_set(PICKS_KEY.format(uid=uid), json.dumps(picks))
        await reply(interaction, f"🎭 {interaction.user.mention} will play **{name['name']}** "
                                 f"({name['special']['name']}) when the game starts.", ephemeral=False,
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="characters", description="The Death by Dice roster: boards, "
                                                         "dice, links and specials")
    @app_commands.describe(public="Post it for everyone here (default: only you see it)")
    async def characters(self, interaction: discord.Interaction, public: bool = False) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        panel = Panel(character_table(), picture=await self.roster_picture())
        await interaction.followup.send(ephemeral=not public, **panel.send_kwargs())

    # `type` is a builtin; the option is shown as `type` and arrives as `kind`.
    @app_commands.command(name="attack", description="Declare your attack: type, your dice, "
                                                     "the target die")
    @app_commands.rename(kind="type")
    @app_commands.describe(kind="Ability, Boosted or Complex",
                           dice="Your die or dice, e.g. STR, AGI+STR (attacker+assist), STR+FOR",
                           target="The die you attack, e.g. @2:CON")
    @app_commands.choices(kind=TYPE_CHOICES)
    async def attack(self, interaction: discord.Interaction, kind: str,
                     dice: app_commands.Range[str, 1, 40],
                     target: app_commands.Range[str, 1, 20]) -> None:
        row, _ = await self.find_game(interaction)
        move = f"attack {kind} {normal_dice(dice)} -> {target.strip()}"
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.play(row.id, interaction.user.id, move, by=interaction.user.id)
        await interaction.followup.send(f"✅ `{move}`", ephemeral=True)

    async def _my_view(self, interaction: discord.Interaction
                       ) -> tuple[Game | None, int | None, list[str]]:
        found = await self.legal_for(interaction)
        if found is None:
            return None, None, []
        return found

    @attack.autocomplete("dice")
    async def attack_dice_autocomplete(self, interaction: discord.Interaction, current: str
                                       ) -> list[app_commands.Choice[str]]:
        game, _, legal = await self._my_view(interaction)
        if game is None or not legal:
            return []
        kind = getattr(interaction.namespace, "type", None)
        key = normal_dice(current).lower()
        return [app_commands.Choice(name=g["label"][:100], value=g["dice"])
                for g in game.view(None)["attack_groups"]
                if (not kind or g["type"] == kind) and key in g["dice"].lower()][:25]

    @attack.autocomplete("target")
    async def attack_target_autocomplete(self, interaction: discord.Interaction, current: str
                                         ) -> list[app_commands.Choice[str]]:
        game, _, legal = await self._my_view(interaction)
        if game is None or not legal:
            return []
        kind = getattr(interaction.namespace, "type", None)
        dice = normal_dice(getattr(interaction.namespace, "dice", None) or "")
        seen: dict[str, str] = {}
        for g in game.view(None)["attack_groups"]:
            if (kind and g["type"] != kind) or (dice and g["dice"] != dice):
                continue
            for t in g["targets"]:
                seen.setdefault(t["target"], t["label"])
        key = current.strip().lower()
        return [app_commands.Choice(name=f"{t} — {label}"[:100], value=t)
                for t, label in seen.items() if key in t.lower() or key in label.lower()][:25]

    @app_commands.command(name="defend", description="Choose your defense against the attack "
                                                     "on your die")
    @app_commands.describe(defense="`defend none`, `defend boosted X`, `defend linked X` or "
                                   "Misdirection (autocomplete lists yours)")
    async def defend(self, interaction: discord.Interaction,
                     defense: app_commands.Range[str, 1, 60]) -> None:
        row, game = await self.find_game(interaction)
        typed = " ".join(defense.split())
        if game.current_phase() != "defend":
            raise RuleError("There is no attack to defend against right now: `/deathbydice "
                            "defend` answers an attack on one of your dice.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.play(row.id, interaction.user.id, typed, by=interaction.user.id)
        await interaction.followup.send(f"✅ `{typed}`", ephemeral=True)

    @defend.autocomplete("defense")
    async def defend_autocomplete(self, interaction: discord.Interaction, current: str
                                  ) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self._my_view(interaction)
        if game is None or game.current_phase() != "defend":
            return []
        return legal_choices(legal, current, lambda m: game.describe(m, seat).label)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DeathByDiceCog(bot))
