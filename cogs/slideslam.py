"""Slide and Slam: Dice Is Not Bend! in Discord — a thin adapter over the engine
(bot/engine/slideslam; notation docs/notation/slideslam.md, rules docs/rules/slideslam.md).

- `/slideslam challenge` with the engine's options; the game gets its own thread.
- The Wall of Unknowing: each player places their six dice in a secret panel (DM, or the
  ephemeral "Open my secret panel" fallback): a select of the die (health) to place, selects of
  the free squares on their half, take back / undo, confirm, and a private preview picture of
  their own half. The thread sees only who is ready until both have confirmed.
- Who goes first: `/slideslam argue` (once each, shown in the thread and on the vote) and the
  crowd vote (option first_player=argue), or a random draw.
- Turns: `/slideslam slide|slam|end|pass` with autocomplete of legal choices only, and the turn
  message's components (slides: a select, or a die picker answered privately with the reachable
  squares; slams: a select; End turn; DICE IS NOT BEND! / Take the hit in the response window;
  Dice Awakening through a form).
- The spoken phrases are top-level commands (`SlideSlamPhrases`): `/dice-is-not-bend`,
  `/now-youre-going-to-say`, `/dice-awakening`; with `bot.read_messages` the typed phrase
  "DICE IS NOT BEND!" in the game thread counts too.

Everything sent to a channel comes from `game.view(None)`; `game.view(seat)` only reaches that
seat (DM or ephemeral).
"""
from __future__ import annotations

import logging
import re
from typing import Any, Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import Chance, Game, NotYourTurnError, RuleError, phrase_key
from bot.engine.slideslam import board
from bot.engine.slideslam.data import (BEND_PHRASE, LETTERS, PREDICT_PHRASE,
                                       SUPER_SLAM_HEALTH, parse_values)
from bot.gamecog import GameCog, Panel, clip, mention
from bot.store import GameRow
from bot.tables import STALE_TEXT, StaleMove
from bot.ui import (MoveButton, MoveSelect, TypeMoveButton, first_selected, game_cog, guarded,
                    reply, report_error, selected, view_of)
from rendering.slideslam import render

log = logging.getLogger(__name__)

KIND = "slideslam"
BEND_KEY = phrase_key(BEND_PHRASE)
ARGUMENT_MAX = 200
SELECT_MAX = 25
_DIE_REF = re.compile(r"[a-i]\d{1,2}|[a-fu-z]")
VALUE_PRESETS = (("6,5,4,3,2,1", "the rulebook's dice (default)"),
                 ("1,1,1,1,1,1", "all Super Slams: a quick, brutal game"),
                 ("6,6,5,5,4,4", "sturdy dice: a long game"),
                 ("4,4,3,3,2,2", "middling dice"))


def _chunks(items: list[Any], size: int = SELECT_MAX) -> list[list[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def _die_word(d: dict[str, Any]) -> str:
    star = "★" if d.get("awakened") else ""
    return f"{d['letter']}{star} ({d['health']})"


def _squares_of(dice: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {d["square"]: d for d in dice if d.get("square")}


def _cog(interaction: discord.Interaction) -> "SlideSlamCog":
    return game_cog(interaction, KIND, "Slide and Slam")


# ---- components of this game (persistent: everything they need is in the custom_id) -----------

class PlaceValueSelect(discord.ui.DynamicItem[discord.ui.Select],
                       template=r"ssv:(?P<gid>\d+):(?P<ver>p\d+)"):
    """Placement panel: which die (by health) the square selects below will place."""

    def __init__(self, game_id: int, version: str,
                 options: list[discord.SelectOption] | None = None):
        self.game_id, self.version = game_id, version
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"ssv:{game_id}:{version}",
                                           placeholder="Which die do you place?",
                                           options=options[:25]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), match["ver"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            values = selected(interaction)
            if not values or not values[0].isdigit():
                raise RuleError("Pick the health of the die you want to place.")
            await _cog(interaction).on_place_value(interaction, self.game_id, self.version,
                                                   int(values[0]))
        await guarded(interaction, work)


class SlideDieSelect(discord.ui.DynamicItem[discord.ui.Select],
                     template=r"ssd:(?P<gid>\d+):(?P<ver>\d+)"):
    """Turn message, when the slides are too many for one select: pick the die first; the
    reachable squares come back privately."""

    def __init__(self, game_id: int, version: int,
                 options: list[discord.SelectOption] | None = None):
        self.game_id, self.version = game_id, version
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"ssd:{game_id}:{version}",
                                           placeholder="Slide: pick one of your dice",
                                           options=options[:25]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            die = first_selected(interaction, "Pick one of your dice.")
            await _cog(interaction).on_slide_die(interaction, self.game_id, self.version, die)
        await guarded(interaction, work)


class BendButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"ssb:(?P<gid>\d+):(?P<ver>\d+)"):
    """The response window's "DICE IS NOT BEND!" (the defender only; asks which die when the
    slam would hit several)."""

    def __init__(self, game_id: int, version: int):
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(label=BEND_PHRASE, emoji="🛡️",
                                           style=discord.ButtonStyle.danger,
                                           custom_id=f"ssb:{game_id}:{version}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_bend_button(interaction, self.game_id, self.version)
        await guarded(interaction, work)


class AwakenButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"ssa:(?P<gid>\d+):(?P<ver>\d+)"):
    """Dice Awakening: opens a form for the die and the invocation."""

    def __init__(self, game_id: int, version: int):
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(label="Dice Awakening", emoji="✨",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"ssa:{game_id}:{version}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await _cog(interaction).on_awaken_button(interaction, self.game_id, self.version)
        await guarded(interaction, work)


class AwakenModal(discord.ui.Modal, title="Dice Awakening: Final Form!"):
    die = discord.ui.TextInput(label="Your die (its square or letter)", max_length=3,
                               custom_id="awaken-die", placeholder="e.g. b5 or C")
    invocation = discord.ui.TextInput(label="Speak the invocation", max_length=300,
                                      custom_id="awaken-invocation",
                                      style=discord.TextStyle.paragraph,
                                      placeholder="My Dice resonate with the fire in my heart! …")

    def __init__(self, cog: "SlideSlamCog", game_id: int, version: int, die: str = ""):
        super().__init__()
        self.cog, self.game_id, self.version = cog, game_id, version
        if die:
            self.die.default = die

    async def on_submit(self, interaction: discord.Interaction) -> None:
        move = f"awaken {self.die.value.strip()} {self.invocation.value}"
        await guarded(interaction, lambda: self.cog.act(
            interaction, self.game_id, move, version=self.version))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


ITEMS = (PlaceValueSelect, SlideDieSelect, BendButton, AwakenButton)


# ---- the game's command group and the table's listener ---------------------------------------

class SlideSlamCog(GameCog, group_name="slideslam",
                   group_description="Slide and Slam: Dice Is Not Bend! — slide, slam, argue"):
    KIND = KIND

    # ---- pictures ------------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    # ---- words -----------------------------------------------------------------------------------
    def player_name(self, row: GameRow, seat: int) -> str:
        user = self.bot.get_user(row.players[seat])
        name = user.display_name if user is not None else f"player {seat + 1}"
        return f"Player {seat + 1} ({name})"

    def move_label(self, game: Game, seat: int, move: str) -> str:
        parts = move.split()
        verb = parts[0] if parts else ""
        view = game.view(seat)
        dice = _squares_of(view["dice"])

        def die(ref: str) -> str:
            d = dice.get(ref)
            return f"{_die_word(d)} at {ref}" if d else ref

        if verb == "place" and len(parts) == 2 and "=" in parts[1]:
            sq, value = parts[1].split("=", 1)
            letter = self._next_letter(view, seat, int(value)) if value.isdigit() else None
            return f"Place {letter + ' ' if letter else ''}({value}) on {sq}"
        if verb == "unplace" and len(parts) == 2:
            d = dice.get(parts[1])
            return f"Take back {_die_word(d) if d else 'the die'} from {parts[1]}"
        if verb == "confirm":
            return "Confirm: my dice are placed"
        if verb == "slide" and len(parts) == 3:
            d = dice.get(parts[1])
            return f"Slide {_die_word(d) if d else parts[1]} {parts[1]} → {parts[2]}"
        if verb == "slam" and len(parts) >= 2:
            d = dice.get(parts[1])
            if d is None:
                return move
            sup = d["health"] == SUPER_SLAM_HEALTH
            hits = self.slam_hits(view, d)
            text = (f"{'Super Slam' if sup else 'Slam'} with {_die_word(d)} at {parts[1]}: "
                    + ("hits " + ", ".join(f"{h['letter']} ({h['health']})" for h in hits)
                       if hits else "hits nothing"))
            if len(parts) == 3:
                text += " + “Now you're going to say…”"
            return text[:100]
        if verb == "end":
            return "End turn without slamming"
        if verb == "bend" and len(parts) == 2:
            return f"Save {die(parts[1])}"
        if verb == "pass":
            return "Take the hit (keep your Power Token)"
        if verb == "awaken" and len(parts) >= 2:
            return f"Awaken {die(parts[1])}"
        return move

    @staticmethod
    def slam_hits(view: dict[str, Any], d: dict[str, Any]) -> list[dict[str, Any]]:
        """The enemy dice a slam by `d` would hit now (the engine's board geometry)."""
        area = board.slam_area(d["square"], d["health"] == SUPER_SLAM_HEALTH,
                               view["columns"], view["rows"])
        dice = _squares_of(view["dice"])
        return [dice[sq] for sq in area if sq in dice and dice[sq]["owner"] != d["owner"]]

    @staticmethod
    def _next_letter(view: dict[str, Any], seat: int, value: int) -> str | None:
        """The letter a `place sq=value` would put down (the first unplaced one of that
        health: docs/notation/slideslam.md)."""
        try:
            values = parse_values(view["options"]["starting_values"])
        except RuleError:
            return None
        placed = {d["letter"] for d in view["dice"] if d["owner"] == seat}
        for letter, v in zip(LETTERS[seat], values):
            if v == value and letter not in placed:
                return letter
        return None

    def waiting_text(self, row: GameRow, game: Game, seat: int | None) -> str:
        """Why `seat` cannot act now, and what happens meanwhile."""
        if seat is None:
            return (f"You are not playing in game #{row.id}. You can watch the thread, look at "
                    "the board with `/slideslam board`, and vote when the crowd decides.")
        if game.outcome() is not None or row.status != "active":
            return f"Game #{row.id} is over."
        view = game.view(None)
        phase = view["phase"]
        if phase == "placement":
            other = 1 - seat
            return ("You have confirmed your placement; the Wall of Unknowing stands until "
                    f"{mention(row.players[other])} (player {other + 1}) confirms too.")
        if phase == "first_player":
            if view["options"]["first_player"] == "argue":
                return ("Nobody plays yet: the crowd is voting on who goes first. Make your "
                        "case with `/slideslam argue` (once).")
            return "Nobody plays yet: the first player is being drawn."
        cur = view["current"]
        if phase == "response":
            d = view["pending"]["defender"]
            return (f"It is not your move: {mention(row.players[d])} (player {d + 1}) is "
                    "answering the slam (DICE IS NOT BEND! or take the hit). Then the turn "
                    "goes on.")
        doing = "slide" if phase == "slide" else "slam or end the turn"
        return (f"It is not your turn: {mention(row.players[cur])} (player {cur + 1}) is to "
                f"{doing}. Your turn comes next; meanwhile `/slideslam board` shows the board.")

    def status_line(self, row: GameRow, game: Game) -> str:
        line = super().status_line(row, game)
        if game.outcome() is not None:
            return line
        view = game.view(None)
        phase = view["phase"]
        hint = ""
        if phase == "placement":
            hint = ("Place your six dice on your half behind the Wall of Unknowing in your "
                    "secret panel (`/slideslam panel` opens it here, only for you).")
        elif phase == "first_player" and view["options"]["first_player"] == "argue":
            hint = ("🗣️ Who goes first? The player who best defends that their dice are better! "
                    f"Players: `/slideslam argue` (once, up to {ARGUMENT_MAX} characters). "
                    "Everyone: vote below.")
        elif phase == "slide":
            hint = "Slide one of your dice (mandatory): pick below, or `/slideslam slide`."
            if view["can_awaken"]:
                hint += " You may awaken a die first: `/dice-awakening`."
        elif phase == "slam":
            hint = ("Slam with any of your dice, or end the turn: pick below, `/slideslam slam`,"
                    " or `/now-youre-going-to-say` to predict their DICE IS NOT BEND!")
            if view["can_awaken"]:
                hint += " You may awaken a die first: `/dice-awakening`."
        elif phase == "response":
            d = view["pending"]["defender"]
            typed = (" or type it in this thread" if getattr(self.bot, "read_messages", False)
                     else "")
            hint = (f"{mention(row.players[d])}: press {BEND_PHRASE}, use "
                    f"`/dice-is-not-bend`{typed} to save one die (spends your Power Token), "
                    "or take the hit.")
        return "\n".join(p for p in (line, hint) if p)

    # ---- the secret placement panel --------------------------------------------------------------
    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        return self.placement_panel(row, game, seat, version)

    async def build_panel(self, row: GameRow, game: Game, seat: int) -> Panel:
        version = f"p{await self.bot.store.seat_moves(row.id, seat)}"
        value = (row.extra.get("place_value") or {}).get(str(seat))
        last = await self._last_placed(row, game, seat)
        panel = self.placement_panel(row, game, seat, version, value=value, last=last)
        if panel.picture is None:
            panel.picture = await self.picture(row, game, seat)
        return panel

    async def _last_placed(self, row: GameRow, game: Game, seat: int) -> str | None:
        """The square of the die this seat placed last that still stands (for Undo)."""
        if game.view(None)["phase"] != "placement":
            return None
        mine = game.view(seat)["placement"]["mine"] or {}
        for actor, move in reversed(await self.bot.store.entries(row.id)):
            if actor != str(seat + 1) or not move.startswith("place "):
                continue
            for pair in reversed(move.split()[1:]):
                sq = pair.split("=", 1)[0].lower()
                if sq in mine:
                    return sq
        return None

    def placement_panel(self, row: GameRow, game: Game, seat: int, version: str, *,
                        value: int | None = None, last: str | None = None) -> Panel:
        view = game.view(seat)
        head = (f"**{self.engine.TITLE} — game #{row.id}** (you are player {seat + 1}, "
                f"{'white' if seat == 0 else 'black'} dice)")
        board_text = f"```\n{game.text(seat)}\n```"
        if view["phase"] != "placement":
            return self.play_panel(row, game, seat, head + "\n" + board_text)
        lo, hi = view["halves"][seat]
        legal = game.legal(seat)
        if seat not in game.actors():
            return Panel(f"{head}\n{board_text}\n✅ Your placement is confirmed. The wall comes "
                         "down when your opponent confirms too.")
        unplaced: list[int] = view["placement"]["unplaced"] or []
        mine: dict[str, int] = view["placement"]["mine"] or {}
        dice = _squares_of(view["dice"])
        items: list[discord.ui.Item] = []
        lines = [head, board_text,
                 f"🧱 **The Wall of Unknowing**: place your six dice on your half (rows {lo}–{hi})."
                 " Nobody sees them until both players have confirmed."]
        if unplaced:
            distinct = sorted(set(unplaced), reverse=True)
            value = value if value in distinct else distinct[0]
            letter = self._next_letter(view, seat, value)
            name = f"die {letter} ({value})" if letter else f"a die of health {value}"
            if len(distinct) > 1:
                items.append(PlaceValueSelect(row.id, version, [
                    discord.SelectOption(
                        label=f"Die {self._next_letter(view, seat, v) or ''} — health {v}"
                        + (f" (×{unplaced.count(v)})" if unplaced.count(v) > 1 else ""),
                        value=str(v), default=v == value) for v in distinct]))
            moves = [m for m in legal if m.startswith("place ") and m.endswith(f"={value}")]
            parts = _chunks(moves)
            for i, part in enumerate(parts[:3]):
                rows_of = sorted({int(m.split()[1].split("=")[0][1:]) for m in part})
                span = f"rows {rows_of[0]}–{rows_of[-1]}" if len(rows_of) > 1 else \
                    f"row {rows_of[0]}"
                items.append(MoveSelect(row.id, version, tag=f"q{i}", options=[
                    discord.SelectOption(label=f"{m.split()[1].split('=')[0]}", value=m)
                    for m in part], placeholder=f"Square for {name}"
                    + (f" ({span})" if len(parts) > 1 else "")))
            lines.append(f"Now placing **{name}**: pick its square. Still to place: "
                         + ", ".join(map(str, unplaced)) + ".")
        else:
            lines.append("All six are placed. **Confirm** when you are happy (final), or take "
                         "a die back.")
        takebacks = [m for m in legal if m.startswith("unplace ")]
        if takebacks:
            items.append(MoveSelect(row.id, version, tag="un", options=[
                discord.SelectOption(label=self.move_label(game, seat, m)[:100], value=m)
                for m in sorted(takebacks, key=lambda m: board.square_key(m.split()[1]))],
                placeholder="Take a die back…"))
        if last and f"unplace {last}" in legal:
            d = dice.get(last)
            items.append(MoveButton(row.id, version, f"unplace {last}",
                                    f"Undo ({d['letter'] if d else 'die'} on {last})",
                                    style=discord.ButtonStyle.secondary, emoji="↩️"))
        if "confirm" in legal:
            items.append(MoveButton(row.id, version, "confirm", "Confirm placement",
                                    style=discord.ButtonStyle.success, emoji="✅"))
        items.append(TypeMoveButton(row.id))
        if mine:
            lines.append("Placed: " + ", ".join(
                f"{dice[sq]['letter'] if sq in dice else '?'} ({v}) on {sq}"
                for sq, v in sorted(mine.items(), key=lambda kv: board.square_key(kv[0]))) + ".")
        lines.append("Typed: `place a1=6` (several at once: `place a1=6 b2=5`), `unplace a1`, "
                     "`confirm`.")
        return Panel("\n".join(lines), items)

    def play_panel(self, row: GameRow, game: Game, seat: int, text: str) -> Panel:
        """`/slideslam panel` after the wall is down: the board and this seat's turn controls."""
        if seat in game.actors():
            return Panel(text + "\nYour move: pick it below or use the commands.",
                         self.turn_items(row, game, seat))
        return Panel(text + "\n" + self.waiting_text(row, game, seat))

    async def on_place_value(self, interaction: discord.Interaction, game_id: int, version: str,
                             value: int) -> None:
        row, game = await self.bot.tables.load(game_id)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError("This panel is for the players of this game only.")
        if row.status != "active" or game.view(None)["phase"] != "placement" or (
                seat not in game.actors()):
            raise RuleError("Your placement is over: " + self.waiting_text(row, game, seat))
        if version != f"p{await self.bot.store.seat_moves(row.id, seat)}":
            raise StaleMove(STALE_TEXT)
        choice = dict(row.extra.get("place_value") or {})
        choice[str(seat)] = value
        row.extra = await self.bot.store.update_extra(row.id, place_value=choice)
        panel = self.placement_panel(row, game, seat, version, value=value,
                                     last=await self._last_placed(row, game, seat))
        await interaction.response.edit_message(content=clip(panel.content),
                                                view=view_of(*panel.items))

    async def publish(self, played) -> None:
        await super().publish(played)
        try:
            await self._retire_panels(played)
            if played.cause == "vote" or any(e.kind == "first_player" for e in played.events):
                await self._close_vote(played.row)
        except discord.HTTPException:
            log.warning("game %s: could not tidy the panels / the vote message", played.row.id)

    def _confirmed_text(self, row: GameRow, game: Game, seat: int) -> str:
        wall = ("The wall is down: the full board is in the game thread."
                if game.view(None)["phase"] != "placement" else
                "The wall comes down when your opponent confirms too.")
        return (f"**{self.engine.TITLE} — game #{row.id}** (you are player {seat + 1})\n"
                f"✅ Your placement is confirmed. {wall}")

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        # The base's words for a DM panel with nothing left to choose; ours is the placement's.
        return self._confirmed_text(row, game, seat)

    async def _retire_panels(self, played) -> None:
        """A confirmed placement panel keeps its preview picture but loses its controls and
        says so; when the wall comes down, both panels point to the thread. The DM panels are
        remembered here (`placement_panels`), as the base forgets a panel it retires."""
        row, game = played.row, played.game
        current = row.extra.get("panels") or {}
        known = dict(row.extra.get("placement_panels") or {})
        for key, last in current.items():
            if "message" in last:
                known[key] = {"channel": last["channel"], "message": last["message"]}
        if known != (row.extra.get("placement_panels") or {}):
            row.extra = await self.bot.store.update_extra(row.id, placement_panels=known)
        now = {e.data.get("seat") for e in played.events if e.kind == "confirmed"}
        # a panel the base did not retire itself (it still tracks it) ...
        seats = {s for s in now if "message" in (current.get(str(s)) or {})}
        if any(e.kind == "wall_down" for e in played.events):
            seats |= {s for s in range(2) if s not in now}  # ... and the first to confirm
        for seat in sorted(s for s in seats if s is not None):
            last = known.get(str(seat))
            if last:
                await self._edit_dm(last, Panel(self._confirmed_text(row, game, seat)))

    # ---- who goes first: arguments and the crowd vote --------------------------------------------
    def wants_vote(self, row: GameRow, game: Game, chance: Chance) -> bool:
        return (chance.draws[0].label == "first player"
                and game.options.get("first_player") == "argue")

    def vote_seconds(self, row: GameRow, game: Game, chance: Chance) -> int | None:
        if not self.wants_vote(row, game, chance):
            return None
        return int(game.options.get("vote_seconds") or self.VOTE_SECONDS)

    def vote_choices(self, row: GameRow, game: Game, chance: Chance) -> list[tuple[str, str]]:
        return [(tok, f"{self.player_name(row, int(tok) - 1)} goes first"[:80])
                for tok in dict.fromkeys(chance.draws[0].options)]

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        args = row.extra.get("arguments") or {}
        lines = ["**Who goes first?** The player who best defends that their dice are better!"]
        for seat in range(2):
            said = args.get(str(seat))
            who = f"Player {seat + 1} {mention(row.players[seat])}"
            lines.append(f"> {who}: “{said}”" if said else
                         f"> {who}: (no argument yet — `/slideslam argue`)")
        return "\n".join(lines) + "\n"

    def _vote_content(self, row: GameRow, game: Game) -> str:
        return clip(f"🗳️ {self.vote_topic_text(row, game)}Vote below; voting closes "
                    f"<t:{int(row.deadline or 0)}:R>. One vote each, players can't vote for "
                    "themselves; a tie is settled by a die.")

    async def _post_vote(self, row: GameRow, game: Game, channel) -> None:
        # The base posts the same message but does not keep its id; the arguments edit it.
        if row.extra.get("vote_posted") == row.version:
            return
        msg = await channel.send(self._vote_content(row, game),
                                 view=view_of(*self.vote_buttons(row, game)),
                                 allowed_mentions=discord.AllowedMentions.none())
        row.extra = await self.bot.store.update_extra(
            row.id, vote_posted=row.version, vote_message=msg.id, vote_topic=f"v{row.version}")

    async def _close_vote(self, row: GameRow) -> None:
        mid = row.extra.get("vote_message")
        if not mid or row.extra.get("vote_closed"):
            return
        channel = await self.channel_of(row)
        if channel is None:
            return
        tally = await self.bot.store.tally(row.id, row.extra.get("vote_topic", ""))
        votes = ", ".join(f"player {c}: {tally.get(c, 0)}" for c in ("1", "2"))
        args = row.extra.get("arguments") or {}
        said = "\n".join(f"> Player {int(s) + 1}: “{t}”" for s, t in sorted(args.items()))
        await channel.get_partial_message(mid).edit(
            content=clip(f"🗳️ **Who goes first?** The vote is closed ({votes})."
                         + (f"\n{said}" if said else "")),
            view=None, allowed_mentions=discord.AllowedMentions.none())
        row.extra = await self.bot.store.update_extra(row.id, vote_closed=True)

    # ---- the public turn message -----------------------------------------------------------------
    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        view = game.view(None)
        phase = view["phase"]
        legal = game.legal(seat)
        ver = row.version
        items: list[discord.ui.Item] = []
        if phase == "slide":
            slides = [m for m in legal if m.startswith("slide ")]
            if 0 < len(slides) <= SELECT_MAX:
                items.append(MoveSelect(row.id, ver, tag="sl", options=self._options(game, seat, slides),
                                             placeholder=f"Player {seat + 1}: slide a die"))
            elif slides:
                items.append(SlideDieSelect(row.id, ver, self._die_options(game, seat, slides)))
        elif phase == "slam":
            slams = [m for m in legal if m.startswith("slam ")]
            if slams:
                items.append(MoveSelect(row.id, ver, tag="sm", options=self._options(game, seat, slams),
                                             placeholder=f"Player {seat + 1}: slam with…"))
            if "end" in legal:
                items.append(MoveButton(row.id, ver, "end", "End turn (no slam)",
                                        style=discord.ButtonStyle.secondary, emoji="⏭️"))
        elif phase == "response":
            items.append(BendButton(row.id, ver))
            items.append(MoveButton(row.id, ver, "pass", "Take the hit",
                                    style=discord.ButtonStyle.secondary))
        if phase in ("slide", "slam") and view["can_awaken"] and view["current"] == seat:
            items.append(AwakenButton(row.id, ver))
        items.append(TypeMoveButton(row.id))
        return items

    def _options(self, game: Game, seat: int, moves: list[str]) -> list[discord.SelectOption]:
        return [discord.SelectOption(label=self.move_label(game, seat, m)[:100], value=m)
                for m in moves[:SELECT_MAX] if len(m) <= 100]

    def _die_options(self, game: Game, seat: int,
                     slides: list[str]) -> list[discord.SelectOption]:
        dice = _squares_of(game.view(None)["dice"])
        count: dict[str, int] = {}
        for m in slides:
            src = m.split()[1]
            count[src] = count.get(src, 0) + 1
        return [discord.SelectOption(
            label=f"{_die_word(dice[src])} on {src} — {n} square{'s' if n != 1 else ''}",
            value=src) for src, n in list(count.items())[:SELECT_MAX] if src in dice]

    # ---- component callbacks ---------------------------------------------------------------------
    async def on_move_component(self, interaction: discord.Interaction, game_id: int,
                                version: int | str | None, move: str) -> None:
        try:
            await super().on_move_component(interaction, game_id, version, move)
        except NotYourTurnError:
            row, game = await self.bot.tables.load(game_id)
            raise RuleError(self.waiting_text(row, game, row.seat_of(interaction.user.id))) \
                from None

    async def _turn_check(self, interaction: discord.Interaction, game_id: int,
                          version: int) -> tuple[GameRow, Game, int]:
        """The clicker is the seat to act, on the current message; else a RuleError."""
        row, game = await self.bot.tables.load(game_id)
        seat = row.seat_of(interaction.user.id)
        if row.status != "active" or seat is None or seat not in game.actors():
            raise RuleError(self.waiting_text(row, game, seat))
        if version != row.version:
            raise StaleMove(STALE_TEXT)
        return row, game, seat

    async def on_slide_die(self, interaction: discord.Interaction, game_id: int, version: int,
                           square: str) -> None:
        row, game, seat = await self._turn_check(interaction, game_id, version)
        moves = [m for m in game.legal(seat) if m.startswith(f"slide {square} ")]
        if not moves:
            raise RuleError(f"Your die on {square} cannot slide now; pick another die.")
        d = _squares_of(game.view(None)["dice"]).get(square)
        name = _die_word(d) if d else square
        parts = _chunks(moves)[:4]
        items = [MoveSelect(row.id, version, tag=f"d{i}", options=[
            discord.SelectOption(label=f"{m.split()[2]}", value=m) for m in part],
            placeholder=f"Slide {name} from {square} to…"
            + (f" ({i + 1}/{len(parts)})" if len(parts) > 1 else "")) for i, part in
            enumerate(parts)]
        steps = 2 if d and d.get("awakened") else (d["health"] if d else "?")
        await reply(interaction, f"Slide **{name}** from {square} (up to {steps} steps, "
                    f"around dice): {len(moves)} squares in reach. Pick one:",
                    ephemeral=True, view=view_of(*items))

    async def on_bend_button(self, interaction: discord.Interaction, game_id: int,
                             version: int) -> None:
        row, game = await self.bot.tables.load(game_id)
        seat = row.seat_of(interaction.user.id)
        move = self.bend_move(row, game, seat, None)
        if version != row.version:
            raise StaleMove(STALE_TEXT)
        if move is None:
            await self.ask_which(interaction, row, game, seat)
            return
        await self.on_move_component(interaction, game_id, version, move)

    async def on_awaken_button(self, interaction: discord.Interaction, game_id: int,
                               version: int) -> None:
        row, game, seat = await self._turn_check(interaction, game_id, version)
        if not game.view(None)["can_awaken"]:
            raise RuleError("You cannot awaken now: only at the very start of your turn, with 3 "
                            "or fewer dice, once per game.")
        choices = sorted({m.split()[1] for m in game.legal(seat) if m.startswith("awaken ")})
        await interaction.response.send_modal(AwakenModal(
            self, row.id, version, choices[0] if len(choices) == 1 else ""))

    # ---- DICE IS NOT BEND! --------------------------------------------------------------------
    def bend_move(self, row: GameRow, game: Game, seat: int | None,
                  die: str | None) -> str | None:
        """`bend <square>` for the defender; None when they must say which die; a RuleError
        saying why not when DICE IS NOT BEND! cannot be said now."""
        if seat is None:
            raise RuleError(f"You are not playing in game #{row.id}: only the player whose dice "
                            "are slammed can say DICE IS NOT BEND!")
        view = game.view(None)
        if game.outcome() is not None:
            raise RuleError(f"Game #{row.id} is over.")
        if view["tokens_used"][seat]:
            raise RuleError("Your Power Token is already spent (flipped to X): DICE IS NOT BEND! "
                            "is once per game. " + self._now_text(row, game, seat))
        pending = view["pending"]
        if view["phase"] != "response" or pending is None:
            raise RuleError("There is no slam to answer: DICE IS NOT BEND! works when an enemy "
                            "slam would hit your dice (the bot then opens a response window). "
                            + self._now_text(row, game, seat))
        if pending["defender"] != seat:
            raise RuleError(f"Only {mention(row.players[pending['defender']])} can say DICE IS "
                            "NOT BEND! now: it is their dice being slammed.")
        targets = pending["targets"]
        if die is None:
            return f"bend {targets[0]['square']}" if len(targets) == 1 else None
        return f"bend {die}"

    def _now_text(self, row: GameRow, game: Game, seat: int) -> str:
        if seat in game.actors():
            phase = game.view(None)["phase"]
            return {"slide": "Now you slide one of your dice (`/slideslam slide`).",
                    "slam": "Now you slam (`/slideslam slam`) or end your turn (`/slideslam end`).",
                    "response": "Now you answer the slam: `/dice-is-not-bend` or take the hit."
                    }.get(phase, "")
        return self.waiting_text(row, game, seat)

    async def ask_which(self, interaction: discord.Interaction | None, row: GameRow, game: Game,
                        seat: int, channel=None) -> None:
        """Several dice would be hit and none was named: one button per die."""
        targets = game.view(None)["pending"]["targets"]
        buttons = [MoveButton(row.id, row.version, f"bend {t['square']}",
                              f"Save {t['die']} at {t['square']} ({t['health']} → {t['after']})",
                              style=discord.ButtonStyle.danger, emoji="🛡️") for t in targets]
        text = (f"{BEND_PHRASE} — which die do you save? This slam would hit "
                + ", ".join(f"{t['die']} at {t['square']}" for t in targets) + ".")
        if interaction is not None:
            await reply(interaction, text, ephemeral=True, view=view_of(*buttons))
        else:
            await channel.send(f"{mention(row.players[seat])} {text}", view=view_of(*buttons))

    # ---- making moves from commands -------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, game_id: int | None, move: str, *,
                  version: int | None = None, done: str | None = None) -> None:
        """Play `move` for the caller (defer, play, confirm privately). Errors say what is
        wrong and what is allowed now."""
        if game_id is None:
            row, game = await self.find_game(interaction)
        else:
            row, game = await self.bot.tables.load(game_id)
        seat = row.seat_of(interaction.user.id)
        if seat is None or row.status != "active" or seat not in game.actors():
            raise RuleError(self.waiting_text(row, game, seat))
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.bot.tables.play(row.id, interaction.user.id, move, version=version,
                                       by=interaction.user.id)
        except NotYourTurnError:
            row, game = await self.bot.tables.load(row.id)
            raise RuleError(self.waiting_text(row, game, seat)) from None
        except RuleError as e:
            if game.view(None)["phase"] == "placement":
                raise RuleError(f"{e.message} (Your placement panel is in your DMs; "
                                "`/slideslam panel` opens it here.)") from None
            raise
        await interaction.followup.send(done or f"✅ `{clip(move, 200)}`", ephemeral=True)

    async def my_game(self, interaction: discord.Interaction) -> tuple[GameRow, Game, int | None]:
        row, game = await self.find_game(interaction)
        return row, game, row.seat_of(interaction.user.id)

    async def _legal_for(self, interaction: discord.Interaction) -> tuple[Game, int, list[str]]:
        """For autocomplete: the caller's legal moves ([] when none or no game)."""
        return await self.legal_for(interaction) or (None, -1, [])  # type: ignore[return-value]

    # ---- commands ------------------------------------------------------------------------------
    @app_commands.command(name="challenge",
                          description="Challenge someone to Slide and Slam: Dice Is Not Bend!")
    @app_commands.describe(
        opponent="Who you challenge",
        columns="Board columns, 5–9 (default 6)",
        rows="Board rows, even: each player owns half (default 8)",
        starting_values="The six dice's starting health, like 6,5,4,3,2,1 (default)",
        response_window="Seconds to say DICE IS NOT BEND! after a slam (default 60)",
        first_player="argue (the crowd votes after both argue) or random (default argue)",
        vote_seconds="How long the crowd votes on who goes first (default 60)",
        stalemate_turns="Turns without damage that end the game: 10–200, 0 = off (default 20)",
        stun="A die just reduced to 1 cannot slam on its owner's next turn (default off)")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        columns: Optional[app_commands.Range[int, 5, 9]] = None,
                        rows: Optional[Literal[6, 8, 10]] = None,
                        starting_values: Optional[app_commands.Range[str, 1, 40]] = None,
                        response_window: Optional[app_commands.Range[int, 10, 600]] = None,
                        first_player: Optional[Literal["argue", "random"]] = None,
                        vote_seconds: Optional[app_commands.Range[int, 10, 600]] = None,
                        stalemate_turns: Optional[app_commands.Range[int, 0, 200]] = None,
                        stun: Optional[bool] = None) -> None:
        given = dict(columns=columns, rows=rows, starting_values=starting_values,
                     response_window=response_window, first_player=first_player,
                     vote_seconds=vote_seconds, stalemate_turns=stalemate_turns, stun=stun)
        options = {k: v for k, v in given.items() if v is not None}
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

    @challenge.autocomplete("starting_values")
    async def values_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        key = current.replace(" ", "")
        return [app_commands.Choice(name=f"{v} — {why}", value=v) for v, why in VALUE_PRESETS
                if key in v] or ([app_commands.Choice(name=current, value=current)]
                                 if current else [])

    @app_commands.command(name="slide", description="Slide one of your dice (the mandatory step)")
    @app_commands.describe(die="Your die: its square (or letter)",
                           to="Where it goes: 1 up to its health in orthogonal steps, around dice")
    async def slide(self, interaction: discord.Interaction,
                    die: app_commands.Range[str, 1, 3], to: app_commands.Range[str, 1, 3]) -> None:
        await self.act(interaction, None, f"slide {die.strip()} {to.strip()}")

    @slide.autocomplete("die")
    async def slide_die_autocomplete(self, interaction: discord.Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self._legal_for(interaction)
        slides = [m for m in legal if m.startswith("slide ")]
        if not slides:
            return []
        dice = _squares_of(game.view(None)["dice"])
        srcs = list(dict.fromkeys(m.split()[1] for m in slides))
        key = current.lower().strip()
        return [app_commands.Choice(
            name=f"{src} — {_die_word(dice[src])}, {sum(m.split()[1] == src for m in slides)} "
                 "squares in reach", value=src)
            for src in srcs if src in dice and (not key or key in src
                                                or key == dice[src]["letter"].lower())][:25]

    @slide.autocomplete("to")
    async def slide_to_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self._legal_for(interaction)
        slides = [m.split() for m in legal if m.startswith("slide ")]
        if not slides:
            return []
        picked = str(getattr(interaction.namespace, "die", "") or "").strip().lower()
        if picked and len(picked) == 1:  # a letter: its square
            sq = next((d["square"] for d in game.view(None)["dice"]
                       if d["letter"].lower() == picked), None)
            picked = sq or picked
        dests = [m[2] for m in slides if not picked or m[1] == picked]
        key = current.lower().strip()
        dests = sorted(dict.fromkeys(d for d in dests if key in d), key=board.square_key)
        return [app_commands.Choice(name=d, value=d) for d in dests[:25]]

    @app_commands.command(name="slam", description="Slam with one of your dice (after the slide)")
    @app_commands.describe(die="Your slamming die: its square (or letter)",
                           predict="Also say “Now you're going to say: DICE IS NOT BEND!” "
                                   "(spends your token)")
    async def slam(self, interaction: discord.Interaction, die: app_commands.Range[str, 1, 3],
                   predict: bool = False) -> None:
        await self.act(interaction, None, f"slam {die.strip()}" + (" predict" if predict else ""))

    @slam.autocomplete("die")
    async def slam_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self._legal_for(interaction)
        slams = [m for m in legal if m.startswith("slam ") and not m.endswith(" predict")]
        key = current.lower().strip()
        return [app_commands.Choice(name=self.move_label(game, seat, m)[:100], value=m.split()[1])
                for m in slams if key in m.split()[1]][:25]

    @app_commands.command(name="end", description="End your turn without slamming")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, None, "end", done="✅ Turn ended without a slam.")

    @app_commands.command(name="pass",
                          description="Take the slam in full and keep your Power Token")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, None, "pass", done="✅ You take the hit; your token is kept.")

    @app_commands.command(name="argue",
                          description="Argue why your dice are better (once; the crowd decides "
                                      "who goes first)")
    @app_commands.describe(text="Your argument, up to 200 characters")
    async def argue(self, interaction: discord.Interaction,
                    text: app_commands.Range[str, 1, ARGUMENT_MAX]) -> None:
        row, game, seat = await self.my_game(interaction)
        if seat is None:
            raise RuleError(f"Only the players of game #{row.id} argue; you can vote on the "
                            "buttons under the vote.")
        view = game.view(None)
        if view["options"]["first_player"] != "argue":
            raise RuleError("This game draws the first player at random: there is nothing to "
                            "argue. " + self._now_text(row, game, seat))
        if view["phase"] == "placement":
            raise RuleError("Arguments come after the Wall of Unknowing comes down: place and "
                            "confirm your dice first (your panel is in your DMs).")
        if view["phase"] != "first_player" or row.deadline_kind != "vote":
            raise RuleError("Who goes first is already decided. " + self._now_text(row, game, seat))
        args = dict(row.extra.get("arguments") or {})
        if str(seat) in args:
            raise RuleError(f"You have already argued (once each): “{args[str(seat)]}”. Now the "
                            "crowd votes.")
        said = " ".join(text.split())
        args[str(seat)] = said
        row.extra = await self.bot.store.update_extra(row.id, arguments=args)
        channel = await self.channel_of(row)
        if channel is not None:
            await channel.send(f"🗣️ {mention(row.players[seat])} (player {seat + 1}) argues: "
                               f"“{said}”", allowed_mentions=discord.AllowedMentions.none())
            mid = row.extra.get("vote_message")
            if mid:
                try:
                    await channel.get_partial_message(mid).edit(
                        content=self._vote_content(row, game),
                        allowed_mentions=discord.AllowedMentions.none())
                except discord.HTTPException:
                    log.warning("game %s: could not update the vote message", row.id)
        await reply(interaction, "✅ Your argument is posted in the game thread. Now the crowd "
                    "votes.", ephemeral=True)


# ---- the spoken phrases: top-level commands ----------------------------------------------------

class SlideSlamPhrases(commands.Cog):
    """The phrases of Slide and Slam as commands (and the typed DICE IS NOT BEND!)."""

    def __init__(self, bot: commands.Bot, game: SlideSlamCog):
        self.bot = bot
        self.game = game

    @app_commands.command(name="dice-is-not-bend",
                          description="Slide and Slam: save one of your dice from the slam "
                                      "(spends your Power Token)")
    @app_commands.describe(die="The die to save (its square); leave out when only one is hit")
    async def dice_is_not_bend(self, interaction: discord.Interaction,
                               die: Optional[app_commands.Range[str, 1, 3]] = None) -> None:
        row, game, seat = await self.game.my_game(interaction)
        move = self.game.bend_move(row, game, seat, die.strip() if die else None)
        if move is None:
            await self.game.ask_which(interaction, row, game, seat)
            return
        await self.game.act(interaction, row.id, move,
                            done=f"🛡️ {BEND_PHRASE} Your Power Token is spent.")

    @dice_is_not_bend.autocomplete("die")
    async def bend_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self.game._legal_for(interaction)
        bends = [m for m in legal if m.startswith("bend ")]
        key = current.lower().strip()
        return [app_commands.Choice(name=self.game.move_label(game, seat, m)[:100],
                                    value=m.split()[1]) for m in bends if key in m][:25]

    @app_commands.command(name="now-youre-going-to-say",
                          description="Slide and Slam: slam and predict their DICE IS NOT BEND! "
                                      "(spends your token)")
    @app_commands.describe(die="Your slamming die (its square)")
    async def now_youre_going_to_say(self, interaction: discord.Interaction,
                                     die: app_commands.Range[str, 1, 3]) -> None:
        await self.game.act(interaction, None, f"slam {die.strip()} predict",
                            done=f"👉 “{PREDICT_PHRASE}”")

    @now_youre_going_to_say.autocomplete("die")
    async def predict_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self.game._legal_for(interaction)
        slams = [m for m in legal if m.startswith("slam ") and m.endswith(" predict")]
        key = current.lower().strip()
        return [app_commands.Choice(name=self.game.move_label(game, seat, m)[:100],
                                    value=m.split()[1]) for m in slams if key in m][:25]

    @app_commands.command(name="dice-awakening",
                          description="Slide and Slam: awaken a die — speak the invocation "
                                      "(start of your turn, ≤3 dice)")
    @app_commands.describe(die="The die to awaken (its square)",
                           invocation="The invocation, in full: “My Dice resonate with the "
                                      "fire in my heart! …”")
    async def dice_awakening(self, interaction: discord.Interaction,
                             die: app_commands.Range[str, 1, 3],
                             invocation: app_commands.Range[str, 1, 300]) -> None:
        await self.game.act(interaction, None, f"awaken {die.strip()} {invocation}",
                            done="✨ Final Form! DICE AWAKENING!")

    @dice_awakening.autocomplete("die")
    async def awaken_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        game, seat, legal = await self.game._legal_for(interaction)
        squares = list(dict.fromkeys(m.split()[1] for m in legal if m.startswith("awaken ")))
        key = current.lower().strip()
        return [app_commands.Choice(name=self.game.move_label(game, seat, f"awaken {sq}")[:100],
                                    value=sq) for sq in squares if key in sq][:25]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """The typed phrase "DICE IS NOT BEND!" (optionally followed by the die) in a game's
        thread, when the bot may read messages."""
        if not getattr(self.bot, "read_messages", False) or message.author.bot or (
                message.guild is None):
            return
        key = phrase_key(message.content or "")
        if not key.startswith(BEND_KEY):
            return
        rest = key[len(BEND_KEY):]
        if rest and not _DIE_REF.fullmatch(rest):
            return  # chatter that merely starts with the phrase
        rows = [r for r in await self.bot.store.games_in_guild(message.guild.id, limit=200)
                if r.kind == KIND and r.where == message.channel.id]
        if not rows:
            return
        row = rows[0]
        game = self.game.engine.from_json(row.state)
        seat = row.seat_of(message.author.id)
        if seat is None:
            return  # a spectator shouting along
        try:
            move = self.game.bend_move(row, game, seat, rest or None)
            if move is None:
                await self.game.ask_which(None, row, game, seat, channel=message.channel)
                return
            await self.bot.tables.play(row.id, message.author.id, move, by=message.author.id)
        except RuleError as e:
            await message.channel.send(f"{mention(message.author.id)} ❌ {e.message}",
                                       allowed_mentions=discord.AllowedMentions(users=True))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*ITEMS)
    game = SlideSlamCog(bot)
    await bot.add_cog(game)
    await bot.add_cog(SlideSlamPhrases(bot, game))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*ITEMS)
