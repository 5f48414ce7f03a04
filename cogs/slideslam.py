"""Slide and Slam: Dice Is Not Bend! in Discord — a thin adapter over the engine
(bot/engine/slideslam; notation docs/notation/slideslam.md, rules docs/rules/slideslam.md).
The engine decides and words everything (`game.describe`, the view's `choices`); this cog only
lays it out as Discord components.

- `/slideslam challenge` with the engine's options; the game gets its own thread.
- The Wall of Unknowing: each player places their six dice in a secret panel (DM, or the
  ephemeral "Open my secret panel" fallback): a select of the die (health) to place, selects of
  the free squares on their half, take back, confirm, and a private preview picture of their
  own half. The thread sees only who is ready until both have confirmed.
- Who goes first: `/slideslam argue` (once each, shown in the thread and on the vote) and the
  crowd vote (option first_player=argue), or a random draw.
- Turns: the turn message's components (slides: a select, or a die picker answered privately
  with its reachable squares; slams with or without the prediction: a select; End turn;
  DICE IS NOT BEND! per die / Take the hit in the response window; Dice Awakening: pick the die,
  then speak the invocation in a form), and `/slideslam slide|slam|end|pass` with autocomplete.
- The spoken phrases are top-level commands (`SlideSlamPhrases`): `/dice-is-not-bend`,
  `/now-youre-going-to-say`, `/dice-awakening`; with `bot.read_messages` the typed phrase
  "DICE IS NOT BEND!" in the game thread counts too.

Everything sent to a channel comes from `game.view(None)`; `game.view(seat)` only reaches that
seat (DM or ephemeral).
"""
from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import Chance, Game, NotYourTurnError, RuleError, phrase_key
from bot.engine.slideslam import SlideSlam
from bot.gamecog import GameCog, Panel, clip, on_component
from bot.store import GameRow
from bot.tables import STALE_TEXT, StaleMove
from bot.ui import (ComponentCall, GameItem, MoveButton, MoveSelect, TypeMoveButton, reply,
                    report_error, guarded, view_of)
from rendering.slideslam import render

log = logging.getLogger(__name__)

KIND = "slideslam"
BEND_PHRASE = SlideSlam.BEND_PHRASE
PREDICT_PHRASE = SlideSlam.PREDICT_PHRASE
BEND_KEY = phrase_key(BEND_PHRASE)
ARGUMENT_MAX = 200
SELECT_MAX = 25
BUTTONS_MAX = 4
VALUE_PRESETS = (("6,5,4,3,2,1", "the rulebook's dice (default)"),
                 ("1,1,1,1,1,1", "all Super Slams: a quick, brutal game"),
                 ("6,6,5,5,4,4", "sturdy dice: a long game"),
                 ("4,4,3,3,2,2", "middling dice"))


def _chunks(items: list[Any], size: int = SELECT_MAX) -> list[list[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def _die_word(d: dict[str, Any]) -> str:
    star = "★" if d.get("awakened") else ""
    return f"{d['letter']}{star} ({d['health']})"


def _by_square(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["square"]: d for d in view["dice"] if d.get("square")}


def option(game: Game, seat: int, move: str, label: str | None = None,
           default: bool = False) -> discord.SelectOption:
    """A move as a select option: the engine's words (label, and its effect underneath)."""
    said = game.describe(move, seat)
    return discord.SelectOption(label=(label or said.label)[:100], value=move,
                                description=clip(said.effect, 100) or None, default=default)


class AwakenModal(discord.ui.Modal, title="Dice Awakening: Final Form!"):
    """The invocation is spoken, not clicked: the rulebook makes the player say it in full."""

    invocation = discord.ui.TextInput(label="Speak the invocation, in full", max_length=300,
                                      custom_id="awaken-invocation",
                                      style=discord.TextStyle.paragraph,
                                      placeholder="My Dice resonate with the fire in my heart! …")

    def __init__(self, cog: "SlideSlamCog", game_id: int, version: int, square: str):
        super().__init__()
        self.cog, self.game_id, self.version, self.square = cog, game_id, version, square

    async def on_submit(self, interaction: discord.Interaction) -> None:
        move = f"awaken {self.square} {self.invocation.value}"
        await guarded(interaction, lambda: self.cog.act(
            interaction, self.game_id, move, version=self.version))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


# ---- the game's command group and the table's listener ---------------------------------------

class SlideSlamCog(GameCog, group_name="slideslam",
                   group_description="Slide and Slam: Dice Is Not Bend! — slide, slam, argue"):
    KIND = KIND
    MOVE_EXAMPLE = "slide b1 b3"

    # ---- pictures ------------------------------------------------------------------------------
    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        return await self.draw(render, game.view(seat))

    # ---- words -----------------------------------------------------------------------------------
    def waiting_text(self, row: GameRow, game: Game, seat: int | None) -> str:
        """Why `seat` cannot act now, and what happens meanwhile."""
        if seat is None:
            return self.spectator_text(row)
        if game.outcome() is not None or row.status != "active":
            return f"Game #{row.id} is over."
        view = game.view(None)
        phase = view["phase"]
        if phase == "placement":
            other = game.name(1 - seat)
            return ("You have confirmed your placement; the Wall of Unknowing stands until "
                    f"{other} confirms too.")
        if phase == "first_player":
            if view["options"]["first_player"] == "argue":
                return ("Nobody plays yet: the crowd is voting on who goes first. Make your "
                        "case with `/slideslam argue` (once).")
            return "Nobody plays yet: the first player is being drawn."
        if phase == "response":
            d = game.name(view["pending"]["defender"])
            return (f"It is not your move: {d} is answering the slam (DICE IS NOT BEND! or take "
                    "the hit). Then the turn goes on.")
        cur = game.name(view["current"])
        doing = "slide" if phase == "slide" else "slam or end the turn"
        return (f"It is not your turn: {cur} is to {doing}. Your turn comes next; meanwhile "
                "`/slideslam board` shows the board.")

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
        elif phase == "slide":
            hint = "Slide one of your dice (you must): pick below, or `/slideslam slide`."
        elif phase == "slam":
            hint = ("Slam with any of your dice, or end the turn: pick below, `/slideslam slam`,"
                    " or `/now-youre-going-to-say` to predict their DICE IS NOT BEND!")
        elif phase == "response":
            typed = (" or type it in this thread" if getattr(self.bot, "read_messages", False)
                     else "")
            hint = (f"{game.name(view['pending']['defender'])}: press {BEND_PHRASE} on a die "
                    f"(or `/dice-is-not-bend`{typed}) to save it — it spends your Power Token — "
                    "or take the hit.")
        choices = view["choices"]
        if choices and choices["awaken"]:
            hint += " You may awaken a die first (Dice Awakening, once per game)."
        return "\n".join(p for p in (line, hint) if p)

    def view_signature(self, game: Game, seat: int | None) -> str:
        """What a picture of `seat`'s view shows. During placement a seat's panel shows only
        its own placement, so the other player's progress never redraws it."""
        view = game.view(seat)
        if seat is not None and view["phase"] == "placement":
            view = dict(view, to_act=None, placement=dict(
                view["placement"], confirmed=view["placement"]["confirmed"][seat]))
        return hashlib.sha1(json.dumps(view, sort_keys=True, default=str).encode()
                            ).hexdigest()[:16]

    # ---- the secret placement panel --------------------------------------------------------------
    def panel(self, row: GameRow, game: Game, seat: int, version: str) -> Panel:
        return self.placement_panel(row, game, seat, version)

    async def bare_panel(self, row: GameRow, game: Game, seat: int) -> Panel:
        version = f"p{await self.bot.store.seat_moves(row.id, seat)}"
        value = (row.extra.get("place_value") or {}).get(str(seat))
        return self.placement_panel(row, game, seat, version, value=value)

    def _head(self, row: GameRow, game: Game, seat: int) -> str:
        return (f"**{self.engine.TITLE} — game #{row.id}** ({game.name(seat)}, "
                f"{'white' if seat == 0 else 'black'} dice)")

    def placement_panel(self, row: GameRow, game: Game, seat: int, version: str, *,
                        value: int | None = None) -> Panel:
        view = game.view(seat)
        head = self._head(row, game, seat)
        board_text = f"```\n{game.text(seat)}\n```"
        if view["phase"] != "placement":
            return self.play_panel(row, game, seat, head + "\n" + board_text)
        if seat not in game.actors():
            return Panel(f"{head}\n{board_text}\n" + self._confirmed_text(game, seat))
        lo, hi = view["halves"][seat]
        place = view["placement"]
        unplaced: list[int] = place["unplaced"] or []
        mine: dict[str, int] = place["mine"] or {}
        dice = _by_square(view)
        items: list[discord.ui.Item] = []
        lines = [head, board_text,
                 f"🧱 **The Wall of Unknowing**: place your six dice on your half (rows {lo}–{hi})."
                 " Nobody sees them until both players have confirmed. A die's number is its "
                 "health: it slides that many squares and takes that many hits."]
        if unplaced:
            distinct = sorted(set(unplaced), reverse=True)
            value = value if value in distinct else distinct[0]
            letter = place["next_letter"].get(str(value))
            name = f"die {letter} (health {value})"
            if len(distinct) > 1:
                items.append(GameItem.select(row.id, version, "pv", [
                    discord.SelectOption(
                        label=f"Die {place['next_letter'].get(str(v), '')} — health {v}"
                        + (f" (×{unplaced.count(v)})" if unplaced.count(v) > 1 else ""),
                        value=str(v), default=v == value) for v in distinct],
                    placeholder="Which die do you place?"))
            parts = _chunks(place["free"])
            for i, part in enumerate(parts[:3]):
                span = f" ({part[0]}–{part[-1]})" if len(parts) > 1 else ""
                items.append(MoveSelect(row.id, version, [
                    option(game, seat, f"place {sq}={value}", label=sq) for sq in part],
                    f"Square for {name}{span}", tag=f"q{i}"))
            lines.append(f"Now placing **{name}**: pick its square. Still to place: "
                         + ", ".join(map(str, unplaced)) + ".")
        else:
            lines.append("All six are placed. **Confirm** when you are happy (final), or take "
                         "a die back.")
        if mine:
            items.append(MoveSelect(row.id, version, [
                option(game, seat, f"unplace {sq}") for sq in mine], "Take a die back…",
                tag="un"))
            lines.append("Placed: " + ", ".join(
                f"{dice[sq]['letter'] if sq in dice else '?'} ({v}) on {sq}"
                for sq, v in mine.items()) + ".")
        if not unplaced:
            items.append(MoveButton(row.id, version, "confirm",
                                    game.describe("confirm", seat).label,
                                    style=discord.ButtonStyle.success, emoji="✅"))
        items.append(TypeMoveButton(row.id))
        lines.append("Typed: `place a1=6` (several at once: `place a1=6 b2=5`), `unplace a1`, "
                     "`confirm`.")
        return Panel("\n".join(lines), items)

    def play_panel(self, row: GameRow, game: Game, seat: int, text: str) -> Panel:
        """`/slideslam panel` after the wall is down: the board and this seat's turn controls."""
        if seat in game.actors():
            return Panel(text + "\nYour move: pick it below or use the commands.",
                         self.turn_items(row, game, seat))
        return Panel(text + "\n" + self.waiting_text(row, game, seat))

    @on_component("pv")
    async def on_place_value(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The placement panel's die select: which health the square selects place next."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError("This panel is for the players of this game only.")
        if row.status != "active" or game.current_phase() != "placement" or (
                seat not in game.actors()):
            raise RuleError("Your placement is over: " + self.waiting_text(row, game, seat))
        if call.version != f"p{await self.bot.store.seat_moves(row.id, seat)}":
            raise StaleMove(STALE_TEXT)
        unplaced = game.view(seat)["placement"]["unplaced"] or []
        if not call.value.isascii() or not call.value.isdigit() or int(call.value) not in unplaced:
            raise RuleError("Pick the health of one of the dice you still have to place.")
        value = int(call.value)
        choice = dict(row.extra.get("place_value") or {})
        choice[str(seat)] = value
        row.extra = await self.bot.store.update_extra(row.id, place_value=choice)
        panel = self.placement_panel(row, game, seat, str(call.version), value=value)
        await interaction.response.edit_message(content=clip(panel.content),
                                                view=view_of(*panel.items))
        # The DM panel now shows this choice: remember that, so the next publish (another
        # player's move) finds it unchanged and leaves it, and the choice, alone.
        panels = dict(row.extra.get("panels") or {})
        last = panels.get(str(seat))
        message = interaction.message
        if last and message is not None and last.get("message") == message.id:
            panels[str(seat)] = dict(last, sig=panel.signature()
                                     + self.view_signature(game, seat))
            row.extra = await self.bot.store.update_extra(row.id, panels=panels)

    def _confirmed_text(self, game: Game, seat: int) -> str:
        if game.current_phase() == "placement":
            wall = (f"The wall comes down when {game.name(1 - seat)} confirms too; the board "
                    "will then be in the game thread.")
        else:
            wall = "The wall is down: the full board is in the game thread."
        return f"✅ Your placement is confirmed. {wall}"

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        # The placement panel with nothing left to choose: why, truly. A game that ended (a
        # resign or a timeout during placement) says so, not "your placement is confirmed".
        if game.outcome() is not None or game.view(None)["placement"]["confirmed"][seat] is False:
            return await super()._retired_text(row, game, seat)
        return f"{self._head(row, game, seat)}\n" + self._confirmed_text(game, seat)

    # ---- who goes first: arguments and the crowd vote --------------------------------------------
    def wants_vote(self, row: GameRow, game: Game, chance: Chance) -> bool:
        return (chance.draws[0].label == "first player"
                and game.options.get("first_player") == "argue")

    def vote_seconds(self, row: GameRow, game: Game, chance: Chance) -> int | None:
        if not self.wants_vote(row, game, chance):
            return None
        return int(game.options.get("vote_seconds") or self.VOTE_SECONDS)

    def vote_choices(self, row: GameRow, game: Game, chance: Chance) -> list[tuple[str, str]]:
        return [(tok, f"{game.name(int(tok) - 1)} goes first"[:80])
                for tok in dict.fromkeys(chance.draws[0].options)]

    def vote_topic_text(self, row: GameRow, game: Game) -> str:
        args = row.extra.get("arguments") or {}
        lines = ["**Who goes first?** The player who best defends that their dice are better! "
                 f"Players: `/slideslam argue` once (up to {ARGUMENT_MAX} characters); everyone "
                 "else: vote."]
        for seat in range(2):
            said = args.get(str(seat))
            who = f"**{game.name(seat)}**"
            lines.append(f"> {who}: “{said}”" if said else
                         f"> {who}: (no argument yet — `/slideslam argue`)")
        return "\n".join(lines) + "\n"

    def _vote_content(self, row: GameRow, game: Game) -> str:
        return clip(f"🗳️ {self.vote_topic_text(row, game)}Vote below; voting closes "
                    f"<t:{int(row.deadline or 0)}:R>. One vote each, players can't vote for "
                    "themselves; a tie is settled by a die.")

    async def _post_vote(self, row: GameRow, game: Game, channel) -> None:
        # The base posts the same message; ours shows the arguments, which edit it.
        if row.extra.get("vote_posted") == row.version:
            return
        msg = await channel.send(self._vote_content(row, game),
                                 view=view_of(*self.vote_buttons(row, game)),
                                 allowed_mentions=discord.AllowedMentions.none())
        row.extra = await self.bot.store.update_extra(
            row.id, vote_posted=row.version, vote_message=msg.id)

    # ---- the public turn message -----------------------------------------------------------------
    def turn_items(self, row: GameRow, game: Game, seat: int) -> list[discord.ui.Item]:
        """Every move the engine lists in the view's `choices`, worded by `describe`."""
        choices = game.view(None)["choices"]
        ver = row.version
        items: list[discord.ui.Item] = []
        if not choices or choices["seat"] != seat:
            return [TypeMoveButton(row.id)]
        who = game.name(seat)
        slides = [s["move"] for s in choices["slides"]]
        if 0 < len(slides) <= SELECT_MAX:
            items.append(MoveSelect(row.id, ver, [option(game, seat, m) for m in slides],
                                    f"{who}: slide a die", tag="sl"))
        elif slides:
            count: dict[str, int] = {}
            for s in choices["slides"]:
                count[s["from"]] = count.get(s["from"], 0) + 1
            dice = _by_square(game.view(None))
            items.append(GameItem.select(row.id, ver, "sd", [
                discord.SelectOption(
                    label=f"{_die_word(dice[sq])} on {sq} — {n} square"
                          f"{'s' if n != 1 else ''} in reach", value=sq)
                for sq, n in count.items()], placeholder=f"{who}: slide — pick one of your dice"))
        slams = []
        for s in choices["slams"]:
            slams.append(s["move"])
            if s["predict_move"]:
                slams.append(s["predict_move"])
        if slams:
            items.append(MoveSelect(row.id, ver, [option(game, seat, m) for m in slams],
                                    f"{who}: slam with…", tag="sm"))
        if choices["end"]:
            items.append(MoveButton(row.id, ver, "end", game.describe("end", seat).label,
                                    style=discord.ButtonStyle.secondary, emoji="⏭️"))
        bends = [b["move"] for b in choices["bends"]]
        if len(bends) <= BUTTONS_MAX:
            items += [MoveButton(row.id, ver, m, game.describe(m, seat).label,
                                 style=discord.ButtonStyle.danger, emoji="🛡️") for m in bends]
        else:
            items.append(MoveSelect(row.id, ver, [option(game, seat, m) for m in bends],
                                    f"{who}: {BEND_PHRASE} — save which die?", tag="bd"))
        if choices["pass"]:
            items.append(MoveButton(row.id, ver, "pass", game.describe("pass", seat).label,
                                    style=discord.ButtonStyle.secondary))
        if choices["awaken"]:
            items.append(GameItem.select(row.id, ver, "aw", [
                discord.SelectOption(label=f"Awaken {a['die']} ({a['health']}) at {a['square']}",
                                     value=a["square"],
                                     description="Health 1, slides up to 2, always Super Slams")
                for a in choices["awaken"]], placeholder="✨ Dice Awakening: Final Form! (once)"))
        items.append(TypeMoveButton(row.id))
        return items

    # ---- component callbacks ---------------------------------------------------------------------
    async def on_move_component(self, interaction: discord.Interaction, game_id: int,
                                version: int | str | None, move: str) -> None:
        try:
            await super().on_move_component(interaction, game_id, version, move)
        except NotYourTurnError:
            row, game = await self.bot.tables.load(game_id)
            raise RuleError(self.waiting_text(row, game, row.seat_of(interaction.user.id))) \
                from None

    async def _turn_check(self, interaction: discord.Interaction, call: ComponentCall
                          ) -> tuple[GameRow, Game, int]:
        """The clicker is the seat to act, on the current message; else a RuleError."""
        row, game = await self.bot.tables.load(call.game_id)
        seat = row.seat_of(interaction.user.id)
        if row.status != "active" or seat is None or seat not in game.actors():
            raise RuleError(self.waiting_text(row, game, seat))
        if call.version != row.version:
            raise StaleMove(STALE_TEXT)
        return row, game, seat

    @on_component("sd")
    async def on_slide_die(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """Too many slides for one select: the die first, then its squares, privately."""
        row, game, seat = await self._turn_check(interaction, call)
        choices = game.view(None)["choices"] or {"slides": []}
        slides = [s for s in choices["slides"] if s["from"] == call.value]
        if not slides:
            raise RuleError("That die cannot slide now; pick another one.")
        d = _by_square(game.view(None))[call.value]
        parts = _chunks(slides)[:4]
        items = [MoveSelect(row.id, row.version, [
            option(game, seat, s["move"], label=f"{s['to']} ({s['steps']} step"
                                                f"{'s' if s['steps'] != 1 else ''})")
            for s in part], f"Slide {_die_word(d)} from {d['square']} to…"
            + (f" ({i + 1}/{len(parts)})" if len(parts) > 1 else ""), tag=f"d{i}")
            for i, part in enumerate(parts)]
        await reply(interaction, f"Slide **{_die_word(d)}** from {d['square']} (up to "
                    f"{d['steps']} steps, turning corners, never through a die): {len(slides)} "
                    "squares in reach. Pick one:", ephemeral=True, view=view_of(*items))

    @on_component("aw")
    async def on_awaken(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """Dice Awakening: the die is picked here; the invocation is spoken in a form."""
        row, game, seat = await self._turn_check(interaction, call)
        choices = game.view(None)["choices"] or {"awaken": []}
        if call.value not in [a["square"] for a in choices["awaken"]]:
            raise RuleError("You cannot awaken that die now: awakening is once per game, at the "
                            "very start of your turn, with 3 or fewer dice.")
        await interaction.response.send_modal(AwakenModal(self, row.id, row.version,
                                                          call.value))

    # ---- DICE IS NOT BEND! --------------------------------------------------------------------
    def bend_move(self, row: GameRow, game: Game, seat: int | None,
                  die: str | None) -> str | None:
        """`bend <die>` for the defender; None when they must say which die; a RuleError when
        the view's choices hold no DICE IS NOT BEND! for them."""
        if seat is None:
            raise RuleError(self.spectator_text(row))
        view = game.view(None)
        pending = view["pending"]
        if pending is not None and pending["defender"] != seat:
            raise RuleError(f"Only {game.name(pending['defender'])} can say {BEND_PHRASE} "
                            "now: it is their dice being slammed.")
        if die:
            return f"bend {die}"
        choices = view["choices"]
        bends = choices["bends"] if choices and choices["seat"] == seat else []
        if len(bends) == 1:
            return bends[0]["move"]
        if not bends:
            spent = view["tokens_used"][seat]
            why = ("your Power Token is already spent (once per game)" if spent else
                   "there is no slam of your opponent's for you to answer")
            raise RuleError(f"You cannot say {BEND_PHRASE} now: {why}. "
                            + self._now_text(row, game, seat))
        return None

    async def ask_which(self, interaction: discord.Interaction | None, row: GameRow, game: Game,
                        seat: int, channel=None) -> None:
        """Several dice would be hit and none was named: one button per die."""
        bends = game.view(None)["choices"]["bends"]
        buttons = [MoveButton(row.id, row.version, b["move"], game.describe(b["move"], seat).label,
                              style=discord.ButtonStyle.danger, emoji="🛡️") for b in bends]
        text = (f"{BEND_PHRASE} — which die do you save? This slam would hit "
                + ", ".join(f"{b['die']} at {b['square']}" for b in bends) + ".")
        if interaction is not None:
            await reply(interaction, text, ephemeral=True, view=view_of(*buttons))
        else:
            await channel.send(f"**{game.name(seat)}**: {text}", view=view_of(*buttons),
                               allowed_mentions=discord.AllowedMentions.none())

    def _now_text(self, row: GameRow, game: Game, seat: int) -> str:
        if seat in game.actors():
            return {"slide": "Now you slide one of your dice (`/slideslam slide`).",
                    "slam": "Now you slam (`/slideslam slam`) or end your turn (`/slideslam end`).",
                    "response": "Now you answer the slam: `/dice-is-not-bend` or take the hit."
                    }.get(game.current_phase(), "")
        return self.waiting_text(row, game, seat)

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
            if game.current_phase() == "placement":
                raise RuleError(f"{e.message} (Your placement panel is in your DMs; "
                                "`/slideslam panel` opens it here.)") from None
            raise
        await interaction.followup.send(done or f"✅ `{clip(move, 200)}`", ephemeral=True)

    async def my_game(self, interaction: discord.Interaction) -> tuple[GameRow, Game, int | None]:
        row, game = await self.find_game(interaction)
        return row, game, row.seat_of(interaction.user.id)

    async def _choices_for(self, interaction: discord.Interaction
                           ) -> tuple[Game | None, int, dict[str, Any]]:
        """For autocomplete: the caller's game, seat and the view's `choices` when they act."""
        found = await self.legal_for(interaction)
        if found is None:
            return None, -1, {}
        game, seat, _ = found
        choices = game.view(None)["choices"]
        if not choices or choices["seat"] != seat:
            return game, seat, {}
        return game, seat, choices

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
        stun="A die just reduced to 1 cannot slam on its owner's next turn (default on)")
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
        game, seat, choices = await self._choices_for(interaction)
        count: dict[str, int] = {}
        for s in choices.get("slides", []):
            count[s["from"]] = count.get(s["from"], 0) + 1
        if not count:
            return []
        dice = _by_square(game.view(None))
        key = current.lower().strip()
        return [app_commands.Choice(
            name=f"{src} — {_die_word(dice[src])}, {n} squares in reach", value=src)
            for src, n in count.items() if not key or key in src
            or key == dice[src]["letter"].lower()][:25]

    @slide.autocomplete("to")
    async def slide_to_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        game, seat, choices = await self._choices_for(interaction)
        slides = choices.get("slides", [])
        picked = str(getattr(interaction.namespace, "die", "") or "").strip().lower()
        key = current.lower().strip()
        dests = [s["to"] for s in slides if (not picked or picked in (s["from"], s["die"].lower()))
                 and key in s["to"]]
        return [app_commands.Choice(name=d, value=d) for d in dict.fromkeys(dests)][:25]

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
        game, seat, choices = await self._choices_for(interaction)
        key = current.lower().strip()
        return [app_commands.Choice(name=game.describe(s["move"], seat).label[:100],
                                    value=s["square"])
                for s in choices.get("slams", []) if key in s["square"]][:25]

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
            await channel.send(f"🗣️ **{game.name(seat)}** argues: “{said}”",
                               allowed_mentions=discord.AllowedMentions.none())
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
        game, seat, choices = await self.game._choices_for(interaction)
        key = current.lower().strip()
        return [app_commands.Choice(name=game.describe(b["move"], seat).label[:100],
                                    value=b["square"])
                for b in choices.get("bends", []) if key in b["square"]][:25]

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
        game, seat, choices = await self.game._choices_for(interaction)
        key = current.lower().strip()
        return [app_commands.Choice(name=game.describe(s["predict_move"], seat).label[:100],
                                    value=s["square"])
                for s in choices.get("slams", []) if s["predict_move"] and key in s["square"]][:25]

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
        game, seat, choices = await self.game._choices_for(interaction)
        key = current.lower().strip()
        return [app_commands.Choice(name=f"Awaken {a['die']} ({a['health']}) at {a['square']}",
                                    value=a["square"])
                for a in choices.get("awaken", []) if key in a["square"]][:25]

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
        if len(rest) > 3:
            return  # chatter that merely starts with the phrase (a die is 1–3 characters)
        row = await self.bot.store.active_game_in(message.channel.id, KIND)
        if row is None:
            return
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
            # addressed to who typed it, without a ping: a refusal is not a call to act
            await message.channel.send(f"{message.author.mention} ❌ {e.message}",
                                       allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    game = SlideSlamCog(bot)
    await bot.add_cog(game)
    await bot.add_cog(SlideSlamPhrases(bot, game))
