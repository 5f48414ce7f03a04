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

import json
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import CHANCE, Game, RuleError
from bot.engine.deathbydice.data import (ABILITIES, CHARACTER_TABLE, COLOURS, ROSTER,
                                         ROSTER_NAMES, SPECIAL_TABLE, find_character)
from bot.engine.deathbydice.view import SECRET_STAGES
from bot.gamecog import GameCog, Panel, legal_choices, mention
from bot.store import GameRow
from bot.tables import STALE_TEXT
from bot.ui import (MoveButton, MoveSelect, TypeMoveButton, first_selected, game_cog, guarded,
                    reply, view_of)
from rendering.deathbydice import render, render_roster

log = logging.getLogger(__name__)

KIND = "deathbydice"
CHARACTER_CHOICES = [app_commands.Choice(name=n, value=n) for n in ROSTER_NAMES]
TYPE_CHOICES = [
    app_commands.Choice(name="Ability Attack: a die against the same ability (equal or more)",
                        value="ability"),
    app_commands.Choice(name="Boosted Ability Attack: a die +2 from a neighbour, any target",
                        value="boosted"),
    app_commands.Choice(name="Complex Attack: 2+ Linked dice summed, any target",
                        value="complex"),
]
TYPE_NAMES = {"ability": "Ability", "boosted": "Boosted", "complex": "Complex"}
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


# --- reading moves and views ------------------------------------------------------------------

def split_attack(move: str) -> tuple[str, str, str] | None:
    """`attack boosted AGI+STR -> @2:CON` -> ("boosted", "AGI+STR", "@2:CON")."""
    parts = move.split()
    if len(parts) == 5 and parts[0] == "attack" and parts[3] == "->":
        return parts[1], parts[2], parts[4]
    return None


def normal_dice(text: str) -> str:
    """What a person types for dice (`str for`, `STR, FOR`) as the notation wants (`STR+FOR`)."""
    return "+".join(p.upper() for p in re.split(r"[\s,+]+", text.strip()) if p)


class Board:
    """Lookups into a view: fighters by id, cells by ability, for labels."""

    def __init__(self, view: dict[str, Any]):
        self.view = view
        self.fighters = {f["id"]: f for f in view["fighters"]}

    def cell(self, fid: str, ability: str) -> dict[str, Any]:
        return next(c for c in self.fighters[fid]["board"] if c["ability"] == ability)

    def value(self, fid: str, ability: str) -> Any:
        return self.cell(fid, ability)["value"]

    def die(self, fid: str, ability: str, show: bool = True) -> str:
        c = self.cell(fid, ability)
        value = f" ({c['value']})" if show and c["value"] is not None else ""
        return f"{ability} d{c['die']}{value}"

    def who(self, fid: str) -> str:
        f = self.fighters[fid]
        return f"{fid} {'Boss ' if f['role'] == 'boss' else ''}{f['character']}"

    def target(self, ref: str) -> str:
        fid, _, ability = ref.partition(":")
        return f"{self.who(fid)} · {self.die(fid, ability)}"


def group_label(b: Board, fid: str, kind: str, dice: str, bonus: int = 2) -> str:
    parts = dice.split("+")
    if kind == "ability":
        return f"Ability · {b.die(fid, parts[0])} vs the same die"
    if kind == "boosted":
        return f"Boosted · {b.die(fid, parts[0])} +{bonus} from {parts[1]}"
    sizes = "+".join(f"d{b.cell(fid, d)['die']}" for d in parts)
    return f"Complex · {dice} ({sizes} summed)"


def boost_of(view: dict[str, Any]) -> int:
    """+4 while Cheap Shot is armed this turn (the view says so only in its prompt), else +2."""
    return 4 if "Cheap Shot" in (view.get("prompt") or "") else 2


def character_table() -> str:
    """The roster as a monospace table plus the specials (from the engine's data table)."""
    head = f"{'Character':<15}" + "".join(f"{a:<6}" for a in ABILITIES) + "Special"
    lines = [head, "-" * len(head)]
    for row in CHARACTER_TABLE:
        cells = "".join(f"{c:<6}" for c in row[1:7])
        lines.append(f"{row[0]:<15}{cells}{SPECIAL_TABLE[row[7]][0]}")
    legend = ("Colours: " + ", ".join(f"{k} {v}" for k, v in COLOURS.items())
              + " (white links nothing); — = no die. Same colour = Linked. A Boss's dice are "
              "one size larger.")
    specials = [f"• **{SPECIAL_TABLE[c.special][0]}** ({c.name}) — {SPECIAL_TABLE[c.special][1]}"
                f": {SPECIAL_TABLE[c.special][2]}. Once per combat." for c in ROSTER]
    return ("**Death by Dice — the characters**\n```\n" + "\n".join(lines) + "\n```\n"
            + legend + "\n" + "\n".join(specials))


# --- components of our own (persistent: the custom_id carries what they need) ------------------

def _cog(interaction: discord.Interaction) -> "DeathByDiceCog":
    return game_cog(interaction, KIND, "Death by Dice")


def _value(interaction: discord.Interaction) -> str:
    return first_selected(interaction, "Pick one of the options in the list.")


class AttackGroupSelect(discord.ui.DynamicItem[discord.ui.Select],
                        template=r"dba:(?P<gid>\d+):(?P<ver>\d+)"):
    """Step one of declaring an attack on the turn message: the type and the dice. The answer
    (ephemeral, attacker only) offers the legal target dice for that choice."""

    def __init__(self, game_id: int, version: int,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "Choose your attack: type and dice"):
        self.game_id, self.version = game_id, version
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"dba:{game_id}:{version}",
                                           placeholder=placeholder[:150], options=options[:25]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_attack_group(interaction, self.game_id, self.version,
                                                    _value(interaction))
        await guarded(interaction, work)


class SetupSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=r"dbs:(?P<gid>\d+):(?P<ver>p\d+)"):
    """The secret panel's arrangement select: choosing previews it; `Confirm` plays it."""

    def __init__(self, game_id: int, version: str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "Arrange your rolled values"):
        self.game_id, self.version = game_id, version
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"dbs:{game_id}:{version}",
                                           placeholder=placeholder[:150], options=options[:25]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), match["ver"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_setup_preview(interaction, self.game_id, self.version,
                                                     _value(interaction))
        await guarded(interaction, work)


OWN_ITEMS = (AttackGroupSelect, SetupSelect)


# --- the cog --------------------------------------------------------------------------------------

class DeathByDiceCog(GameCog, group_name="deathbydice",
                     group_description="Death by Dice: character dice duels, best 2 of 3"):
    KIND = KIND
    DYNAMIC_ITEMS = OWN_ITEMS

    # ---- hooks -----------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    async def roster_picture(self):
        return await self.draw(render_roster, ROSTER)

    def move_label(self, game: Game, seat: int, move: str) -> str:
        return self.describe(game.view(seat), move)

    def describe(self, view: dict[str, Any], move: str) -> str:
        """A move as a button/option label, from the view (values as they stand); the move's
        own notation if the label cannot be built (a turn message must never fail on it)."""
        try:
            return self._describe(view, move)
        except Exception:
            log.exception("no label for Death by Dice move %r", move)
            return move

    def _describe(self, view: dict[str, Any], move: str) -> str:
        b = Board(view)
        words = move.split()
        verb = words[0]
        a = view.get("attack")
        if verb == "setup":
            body = [w for w in words[1:] if "=" in w]
            prefix = f"{words[1]}: " if len(words) > 1 and words[1].startswith("@") else ""
            total = sum(int(w.split("=")[1]) for w in body)
            return prefix + " · ".join(w.replace("=", " ") for w in body) + f" (total {total})"
        attack = split_attack(move)
        if attack is not None:
            kind, dice, target = attack
            return (f"{group_label(b, view['active'], kind, dice, boost_of(view))} → "
                    f"{b.target(target)}")
        if verb == "defend" and a is not None:
            fid, _, ability = a["target"].partition(":")
            stands = b.value(fid, ability)
            if words[1] == "none":
                return f"No defense ({ability} stands at {stands})"
            die = words[2]
            bonus = 2 if words[1] == "boosted" else b.value(fid, die)
            return (f"{'Boosted' if words[1] == 'boosted' else 'Linked'} Defense: +{bonus} "
                    f"from {die} → {stands + bonus}")
        if verb == "special":
            key = words[1]
            name = SPECIAL_TABLE[key][0]
            arg = words[2] if len(words) > 2 else ""
            if key == "misdirection" and a is not None:
                fid = a["target"].split(":")[0]
                return f"{name}: move the attack to {b.die(fid, arg)}"
            if key == "loaded-dice" and a is not None and a.get("rolls"):
                return f"{name}: re-roll {arg} (rolled {a['rolls'].get(arg)})"
            if key == "cook-the-books" and view.get("active"):
                x, y = arg.split("+")
                return (f"{name}: swap {b.die(view['active'], x)} ↔ "
                        f"{b.die(view['active'], y)}")
            if key == "cheap-shot":
                return f"{name}: this turn's Boosted Attack adds +4"
            if key == "thick-skull" and a is not None:
                return f"{name}: re-roll {a['target'].split(':')[1]} instead of discarding it"
            if key == "rampage":
                return f"{name}: one extra Ability Attack now"
            return name
        if verb == "discard":
            dice = words[1].split("+")
            rolls = (a or {}).get("rolls") or {}
            shown = ", ".join(f"{d} {rolls[d]}" if d in rolls else d for d in dice)
            return f"Discard {shown}"
        if verb in ("pass", "nospecial"):
            st = view.get("stage")
            return {"loaded": "Keep the roll (no Loaded Dice)",
                    "thick_skull": "No Thick Skull: let the die go",
                    "rampage": "No Rampage: end the turn"}.get(st, "Pass")
        return move

    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        view = game.view(None)
        moves = game.legal(seat)
        if not moves:
            return []
        items: list[discord.ui.Item] = []
        attacks = [m for m in moves if m.startswith("attack ")]
        others = [m for m in moves if not m.startswith("attack ")]
        if attacks:
            items.append(self.attack_select(row, view, seat, attacks))
        if view["stage"] == "discard":
            options = [discord.SelectOption(label=self.describe(view, m)[:100], value=m)
                       for m in others[:25]]
            items.append(MoveSelect(row.id, row.version, options,
                                    "Choose the dice you discard"))
            others = []
        for m in others[:MAX_BUTTONS]:
            style = (discord.ButtonStyle.success if m.startswith("special ") else
                     discord.ButtonStyle.secondary if m in ("defend none", "pass") else
                     discord.ButtonStyle.primary)
            items.append(MoveButton(row.id, row.version, m, self.describe(view, m), style))
        items.append(TypeMoveButton(row.id))
        return items

    def attack_select(self, row: GameRow, view: dict[str, Any], seat: int,
                      attacks: list[str]) -> discord.ui.Item:
        if len(attacks) <= ONE_STEP_ATTACKS:
            options = [discord.SelectOption(label=self.describe(view, m)[:100], value=m)
                       for m in attacks]
            return MoveSelect(row.id, row.version, options,
                              f"Player {seat + 1}: choose your attack")
        b = Board(view)
        groups: dict[str, int] = {}
        for m in attacks:
            kind, dice, _ = split_attack(m)
            groups[f"{kind} {dice}"] = groups.get(f"{kind} {dice}", 0) + 1
        bonus = boost_of(view)
        options = []
        for g, n in list(groups.items())[:25]:
            kind, dice = g.split()
            options.append(discord.SelectOption(
                label=group_label(b, view["active"], kind, dice, bonus)[:100], value=g,
                description=f"{n} target{'s' if n != 1 else ''} possible"))
        return AttackGroupSelect(row.id, row.version, options,
                                 f"Player {seat + 1}: choose the attack type and your dice")

    def status_line(self, row: GameRow, game: Game) -> str:
        view = game.view(None)
        seats = [a for a in game.actors() if a != CHANCE]
        if game.outcome() is not None or not seats:
            return super().status_line(row, game)
        stage = view["stage"]
        if stage in SECRET_STAGES:
            cast = ", ".join(f"{mention(row.players[f['seat']])} {Board(view).who(f['id'])}"
                             for f in view["fighters"])
            return f"Characters: {cast}.\n" + super().status_line(row, game)
        when = f" <t:{int(row.deadline)}:R>" if row.deadline else ""
        who = mention(row.players[seats[0]])
        if stage == "defend":
            a = view["attack"]
            return (f"🛡️ {who}: your die {a['target']} is attacked — choose a defense below. "
                    f"No answer by{when or ' the deadline'} = no defense.")
        if stage == "declare":
            return (f"👉 {who}: {view['prompt']} Use the menu below or `/deathbydice attack`"
                    f" (time runs out{when}; there is no passing).")
        return f"👉 {who}: {view['prompt']} (time runs out{when})."

    def panel(self, row: GameRow, game: Game, seat: int, version: str,
              chosen: str | None = None) -> Panel:
        view = game.view(seat)
        me = ", ".join(Board(view).who(fid) for fid in view["you"]["fighters"])
        head = (f"**Death by Dice — game #{row.id}**, combat {view['combat']} "
                f"(you are player {seat + 1}: {me})")
        if view["stage"] not in SECRET_STAGES or seat not in game.actors():
            text = f"{head}\n```\n{game.text(seat)}\n```"
            if seat in game.actors():
                return Panel(text + "\nYour move:", self.turn_items(row, game, seat))
            return Panel(text + "\nNothing to do right now"
                         + ("; waiting for the others' secret set-ups." if view["stage"]
                            in SECRET_STAGES else "."))
        return self.setup_panel(row, game, seat, version, chosen, head, view)

    def setup_panel(self, row: GameRow, game: Game, seat: int, version: str,
                    chosen: str | None, head: str, view: dict[str, Any]) -> Panel:
        lines = [head, "🔒 **Your secret set-up roll** (only you see it):"]
        for s in view["you"]["setup"]:
            if s["arranged"] is not None:
                placed = " · ".join(f"{k} {v}" for k, v in s["arranged"].items())
                lines.append(f"• {s['fighter']} {s['character']}: set up ({placed}).")
                continue
            f = Board(view).fighters[s["fighter"]]
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
            lines.append(f"• {s['fighter']} {s['character']} rolled — {sizes}.")
        lines.append("Dice of the same size may swap values; nothing else moves. Lowest total "
                     "attacks first. Nobody sees your values until everyone has confirmed.")
        moves = game.legal(seat)
        items: list[discord.ui.Item] = []
        if chosen is None and len(moves) == 1:
            chosen = moves[0]
        if len(moves) > 1:
            options = [discord.SelectOption(label=self.describe(view, m)[:100], value=m,
                                            default=m == chosen) for m in moves[:25]]
            items.append(SetupSelect(row.id, version, options,
                                     "Choose where your values go (then Confirm)"))
        if chosen is not None:
            lines.append(f"Your arrangement: **{self.describe(view, chosen)}** — press "
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
        who = ", ".join(mention(row.players[s]) for s in seats) or "nobody"
        role = ROLES.get(view["stage"], "")
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
                and not message.flags.ephemeral and move.startswith("setup")):
            # The DM panel that confirmed a set-up: retire its components unless the table
            # already refreshed it with the next character's set-up.
            row = await self.bot.store.get_game(game_id)
            seat = row.seat_of(interaction.user.id) if row else None
            game = self.engine.from_json(row.state) if row else None
            if game is None or seat not in game.actors() or not self.is_secret(game, seat):
                try:
                    await interaction.edit_original_response(view=None)
                except discord.HTTPException:
                    pass

    async def on_attack_group(self, interaction: discord.Interaction, game_id: int,
                              version: int, group: str) -> None:
        row, game = await self._live(game_id)
        if version != row.version:
            raise RuleError(STALE_TEXT)
        seat = self.player_seat(row, interaction)
        if seat not in game.actors():
            raise RuleError(self.not_yours(row, game))
        moves = [m for m in game.legal(seat) if m.startswith(f"attack {group} ->")]
        if not moves:
            raise RuleError(f"`{group}` is not an attack you can make now. "
                            "Choose one from the menu.")
        view = game.view(None)
        kind, dice = group.split()
        b = Board(view)
        head = group_label(b, view["active"], kind, dice, boost_of(view))
        if len(moves) <= MAX_BUTTONS:
            items: list[discord.ui.Item] = [
                MoveButton(row.id, row.version, m, "→ " + b.target(split_attack(m)[2]),
                           discord.ButtonStyle.danger) for m in moves]
        else:
            items = [MoveSelect(row.id, row.version, [
                discord.SelectOption(label=b.target(split_attack(m)[2])[:100], value=m)
                for m in moves[:25]], "Choose the die you attack")]
        await reply(interaction, f"**{head}** — choose the die you attack:", ephemeral=True,
                    view=view_of(*items))

    async def on_setup_preview(self, interaction: discord.Interaction, game_id: int,
                               version: str, move: str) -> None:
        row, game = await self._live(game_id)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError("This panel is for the players of this game only.")
        if int(version[1:]) != await self.bot.store.seat_moves(row.id, seat):
            raise RuleError(STALE_TEXT)
        if move not in game.legal(seat):
            raise RuleError("That arrangement is not one you can confirm now; choose one from "
                            "the list.")
        panel = self.panel(row, game, seat, version, chosen=move)
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
        name = find_character(character)
        if name is None:
            raise RuleError(f"{character!r} is not a Death by Dice character. Choose one of: "
                            + ", ".join(ROSTER_NAMES) + ".")
        picks = await self._picks(uid)
        open_ids = {str(c["id"]) for c in mine}
        picks = {k: v for k, v in picks.items() if k in open_ids}
        picks[str(ch["id"])] = name.name
        await self.bot.store.meta_set(PICKS_KEY.format(uid=uid), json.dumps(picks))
        await reply(interaction, f"🎭 {interaction.user.mention} will play **{name.name}** "
                                 f"({name.special_name}) when the game starts.", ephemeral=False,
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

    async def _my_moves(self, interaction: discord.Interaction) -> tuple[list[str], dict]:
        found = await self.legal_for(interaction)
        if found is None:
            return [], {}
        game, _, legal = found
        return legal, game.view(None)

    @attack.autocomplete("dice")
    async def attack_dice_autocomplete(self, interaction: discord.Interaction, current: str
                                       ) -> list[app_commands.Choice[str]]:
        moves, view = await self._my_moves(interaction)
        kind = getattr(interaction.namespace, "type", None)
        seen: dict[str, str] = {}
        for m in moves:
            parsed = split_attack(m)
            if parsed is None or (kind and parsed[0] != kind):
                continue
            label = group_label(Board(view), view["active"], parsed[0], parsed[1],
                                boost_of(view))
            seen.setdefault(parsed[1], label)
        key = normal_dice(current).lower()
        return [app_commands.Choice(name=label[:100], value=dice)
                for dice, label in seen.items() if key in dice.lower()][:25]

    @attack.autocomplete("target")
    async def attack_target_autocomplete(self, interaction: discord.Interaction, current: str
                                         ) -> list[app_commands.Choice[str]]:
        moves, view = await self._my_moves(interaction)
        kind = getattr(interaction.namespace, "type", None)
        dice = normal_dice(getattr(interaction.namespace, "dice", None) or "")
        seen: dict[str, str] = {}
        for m in moves:
            parsed = split_attack(m)
            if parsed is None or (kind and parsed[0] != kind) or (dice and parsed[1] != dice):
                continue
            seen.setdefault(parsed[2], Board(view).target(parsed[2]))
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
        move = " ".join(defense.split())
        if not (move.lower().startswith("defend") or
                move.lower().startswith("special misdirection")):
            raise RuleError("Choose a defense: `defend none`, `defend boosted X` (a die next "
                            "to the target), `defend linked X` (a die of the target's colour) "
                            "or `special misdirection X` (Madame Vex).")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.play(row.id, interaction.user.id, move, by=interaction.user.id)
        await interaction.followup.send(f"✅ `{move}`", ephemeral=True)

    @defend.autocomplete("defense")
    async def defend_autocomplete(self, interaction: discord.Interaction, current: str
                                  ) -> list[app_commands.Choice[str]]:
        moves, view = await self._my_moves(interaction)
        moves = [m for m in moves if m.startswith(("defend", "special misdirection"))]
        return legal_choices(moves, current, lambda m: self.describe(view, m))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DeathByDiceCog(bot))
