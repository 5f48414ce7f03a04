"""KAPLOOM! in Discord (`/kaploom ...`): the Discord side of the `kaploom` engine.

A thin adapter: the engine decides and words every move (`game.describe`), groups a player's
legal moves as they are chosen (the view's `menu`) and computes the sums (the view's `attack` /
`defense`); this cog only lays them out as components and hands the chosen move to
`tables.play`. Refusals reach the player ephemerally in the engine's own words.

Commands (group `/kaploom`, plus `panel`, `move` from GameCog):
- `challenge opponent [side] [supers] [timer]`: a duel. `supers` names your super and your
  opponent's ("Tough Nut, Victor Kane"), one name (yours), or "none".
- `team [side] [supers] [timer]`: an open 2 vs 2 table for exactly four players.
- `board [board] [public]`: the printed action board, as a picture and as text.
- `table`: the running game's board, to you alone. `dice [player]`: anyone's dice (public).
- `assign action dice`: Phase 1 typed (autocomplete offers what your unplaced dice can fill).

Phase 1 (secret, everyone at once) happens in each player's panel (DM, or the ephemeral panel
when DMs are closed): the roll as a picture, a select of attack/defense actions and one of the
other actions the unplaced dice can fill, then a select of the fitting dice for the chosen
action (narrowed step by step when there are more than 25 ways), a select to take dice off an
action, the 2 vs 2 target buttons and Lock In. The panel shows only its owner's facts, so
another player's move never changes it (and never clears a half-made choice). Power Up is a
panel for the player whose turn it is: a button or a select per action, faces to attach or
detach, Take and Done. Every legal move is on a component; typing stays an alternative.

Components are the shared `GameItem` family (`g:<game>:<version>:<tag>[:<arg>]`): `mv`/`ms`
play a move; `kpa` (choose an action: the dice select appears) and `kpp` (the dice select,
which may narrow) are this game's own tags.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from typing import Any, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import CHANCE, Event, Game, RuleError, phrase_key
from bot.engine.kaploom import Kaploom
from bot.gamecog import GameCog, Panel, clip, mention, on_component
from bot.store import GameRow
from bot.tables import STALE_TEXT, Played, StaleMove
from bot.ui import (ComponentCall, GameItem, MoveButton, MoveSelect, TypeMoveButton, reply,
                    view_of)
from rendering.kaploom import public_picture, render_action_board, seat_picture

KIND = "kaploom"
SUPER_SIDES = Kaploom.super_sides()
SIDE_CHOICES = [app_commands.Choice(name="hero", value="hero"),
                app_commands.Choice(name="villain", value="villain")]
BOARD_CHOICES = [app_commands.Choice(name="the base board (every player)", value="base")] + [
    app_commands.Choice(name=f"{name} (super board, {side})", value=name)
    for name, side in SUPER_SIDES.items()] + [
    app_commands.Choice(name="the Duo board (2 vs 2)", value="duo"),
    app_commands.Choice(name="everything", value="all")]
SELECT_MAX = 25
ROWS = 5
PANEL_TEXT_MAX = 1900
NARROW = ">"                    # a dice-select value that narrows the list instead of playing


# ---- reading the view ----------------------------------------------------------------------------

def _dice(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every die of the view by id, with its owner seat."""
    return {d["id"]: {**d, "owner": p["seat"]} for p in view["players"] for d in p["dice"]}


def _die_name(d: dict[str, Any]) -> str:
    if d["kind"] == "trait":
        return d["colour"]
    faces = "".join(f for f in d["faces"] if f != "_")
    return f"action die [{faces}]"


def _die_text(view: dict[str, Any], die_id: str) -> str:
    """`d2 yellow: Wild` (the face only when the view shows it)."""
    d = _dice(view).get(die_id)
    if d is None:
        return die_id
    text = f"{die_id} {_die_name(d)}"
    if d.get("up") is not None:
        text += f": {view['face_names'][d['up']]}"
    return text


def _groups(view: dict[str, Any], *kinds: str) -> list[dict[str, Any]]:
    return [g for g in view["menu"] if g["kind"] in kinds]


def _group(view: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The menu group named `key` (an action's name, typed in any case and spacing)."""
    want = phrase_key(key)
    return next((g for g in view["menu"] if phrase_key(g["key"]) == want), None)


def narrow(entries: list[dict[str, Any]], prefix: tuple[str, ...] = ()
           ) -> list[tuple[str, list[dict[str, Any]]]]:
    """At most 25 select entries (value, moves) for one action's ways to fill it. A way is a
    menu entry {"move", "uses", "rerolls"}; when there are more than 25, they are grouped by the
    dice they use (first die, then all of them), and a group's value narrows the list
    (`>d1,d2`) instead of playing."""
    pool = [e for e in entries if tuple(e["uses"][:len(prefix)]) == prefix
            or tuple(e["uses"]) == prefix]
    if len(pool) <= SELECT_MAX:
        return [(e["move"], [e]) for e in pool]
    for depth in range(len(prefix) + 1, max(len(e["uses"]) for e in pool) + 2):
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for e in pool:
            groups.setdefault(tuple(e["uses"][:depth]), []).append(e)
        if 1 < len(groups) <= SELECT_MAX:
            return [(es[0]["move"], es) if len(es) == 1 else (NARROW + ",".join(key), es)
                    for key, es in groups.items()]
        if len(groups) > SELECT_MAX:
            break
    return [(e["move"], [e]) for e in pool[:SELECT_MAX]]


def _option(label: str, value: str, description: str | None = None,
            default: bool = False) -> discord.SelectOption:
    return discord.SelectOption(label=label[:100] or value[:100], value=value[:100],
                                description=description[:100] if description else None,
                                default=default)


def fit_rows(selects: list[discord.ui.Item], buttons: list[discord.ui.Item],
             overflow: Callable[[list[discord.ui.Item]], discord.ui.Item | None] | None = None
             ) -> list[discord.ui.Item]:
    """Selects one per row, then the buttons five per row, in at most five rows. Selects that
    do not fit are merged by `overflow` (or dropped: the typed move stays)."""
    button_rows = -(-len(buttons) // 5)
    room = ROWS - button_rows
    if len(selects) > room:
        keep, extra = selects[:max(room - 1, 0)], selects[max(room - 1, 0):]
        merged = overflow(extra) if overflow else None
        selects = keep + ([merged] if merged is not None else [])
        selects = selects[:room]
    out: list[discord.ui.Item] = []
    for row, item in enumerate(selects):
        getattr(item, "item", item).row = row
        out.append(item)
    for k, item in enumerate(buttons):
        getattr(item, "item", item).row = len(selects) + k // 5
        out.append(item)
    return out


# ---- the cog --------------------------------------------------------------------------------------

class KaploomCog(GameCog, group_name="kaploom",
                 group_description="KAPLOOM!: heroes and villains build dice and slug it out"):
    KIND = KIND
    MOVE_EXAMPLE = "assign POW d2 d4"

    # ---- hooks ------------------------------------------------------------------------------------
    def panel_phase(self, game: Game) -> str:
        v = game.view(None)
        return f"{v['stage']}:{v['round']}:{v['turn']}"

    @staticmethod
    def view_signature(game: Game, seat: int | None) -> str:
        """What a picture of `seat`'s view shows. A seat's panel picture draws only that
        seat's (and its team's) own facts, so only those count: another player locking in
        or announcing an action leaves my panel as it is."""
        view = game.view(seat)
        if seat is not None:
            team = view["players"][seat]["team"]
            view = {"round": view["round"], "stage": view["stage"], "turn": view["turn"],
                    "mine": [p for p in view["players"] if p["team"] == team],
                    "duo": [t for t in view["duo"] if seat in t["seats"]],
                    "menu": view["menu"], "result": view["result"]}
        return hashlib.sha1(json.dumps(view, sort_keys=True, default=str)
                            .encode()).hexdigest()[:16]

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        """The compact public board (seat None), or the seat's own panel picture."""
        if seat is None:
            return await self.draw(public_picture, game.view(None))
        return await self.draw(seat_picture, game.view(seat))

    def status_line(self, row: GameRow, game: Game) -> str:
        if game.outcome() is not None:
            return super().status_line(row, game)
        v = game.view(None)
        when = f" (time runs out <t:{int(row.deadline)}:R>)" if row.deadline else ""
        if v["stage"] == "power" and v["turn"] is not None:
            return (f"⚡ {game.name(v['turn'])} powers up now: the Power Up panel is in their "
                    f"DMs{when}.")
        if v["stage"] == "assign":
            waiting = [s for s in game.actors() if s != CHANCE]
            ready = [p["name"] for p in v["players"] if p["locked"]]
            line = ("🔒 Phase 1 behind the screens: " + ", ".join(
                game.name(s) for s in waiting) + " still assigning dice in secret (check your "
                "DMs)" + when + ".")
            if ready:
                line += " Locked in: " + ", ".join(ready) + "."
            line += " When time runs out, whatever is placed is locked in."
            return line
        return super().status_line(row, game)

    def waiting_text(self, row: GameRow, game: Game, seat: int | None) -> str:
        v = game.view(None)
        waiting = [s for s in game.actors() if s != CHANCE]
        who = ", ".join(game.name(s) for s in waiting)
        if v["stage"] == "assign" and seat is not None and v["players"][seat]["locked"]:
            return f"You are locked in for this round; the reveal waits for {who}."
        if v["stage"] == "power" and v["turn"] is not None:
            order = " → ".join(game.name(s) for s in v["order"])
            return (f"It is {game.name(v['turn'])}'s Power Up (turn order: {order}); your "
                    "Power Up panel comes in your DMs when it is your turn.")
        return super().waiting_text(row, game, seat)

    # ---- the secret panel -------------------------------------------------------------------------
    def panel(self, row: GameRow, game: Game, seat: int, version: str,
              chosen: str | None = None, prefix: tuple[str, ...] = ()) -> Panel:
        view = game.view(seat)
        if view["stage"] == "power":
            return self.power_panel(row, game, view, seat, version)
        if view["stage"] == "assign":
            return self.assign_panel(row, game, view, seat, version, chosen, prefix)
        return super().panel(row, game, seat, version)

    def _head(self, row: GameRow, view: dict[str, Any], seat: int, what: str) -> str:
        me = view["players"][seat]
        return (f"**KAPLOOM! — game #{row.id}, round {view['round']}: {what}** ({me['name']}, "
                f"the {me['role']}) ❤️ {me['health']}/{me['max_health']} health"
                + (" — **knocked out**" if me["ko"] else ""))

    def _sums_line(self, me: dict[str, Any]) -> str:
        """The attack and defense the placed actions make now (the engine's sums)."""
        if me.get("attack") is None:
            return ""
        atk, dfn = me["attack"], me["defense"]
        return ("⚔️ Your attack now: " + (atk["text"] if atk["base"] else "none yet (no attack "
                                           "base placed)")
                + " · 🛡️ defense: " + (dfn["text"] if dfn["base"] else "0 (no defense base)"))

    def assign_text(self, row: GameRow, game: Game, view: dict[str, Any], seat: int) -> str:
        """Only the owner's facts (and their ally's, who shares the screen): what others do in
        secret never changes this text."""
        me = view["players"][seat]
        lines = [self._head(row, view, seat, "Phase 1, behind your screen")]
        lines.append("🎲 **Your roll** — unplaced: " + (" · ".join(
            _die_text(view, d) for d in me["free"] or []) or "none"))
        if me["board"]:
            lines.append("📋 **Placed**: " + " · ".join(
                f"{b['action']}{' (happened at once)' if b['immediate'] else ''} ← "
                + " + ".join(_die_text(view, d) for d in b["dice"]) for b in me["board"]))
        sums = self._sums_line(me)
        if sums:
            lines.append(sums)
        if view["mode"] == "2v2":
            ally = next((p for p in view["players"]
                         if p["team"] == me["team"] and p["seat"] != seat), None)
            if ally is not None:
                lines.append(f"🤝 Your ally {ally['name']} — unplaced: "
                             + (" · ".join(_die_text(view, d) for d in ally["free"] or [])
                                or "none"))
            duo = next((t for t in view["duo"] if seat in t["seats"]), None)
            if duo and duo["board"]:
                lines.append("🤝 **Duo board**: " + " · ".join(
                    f"{b['action']} ← " + " + ".join(_die_text(view, d) for d in b["dice"])
                    + (f" (covers {view['players'][b['ally']]['name']})"
                       if b.get("ally") is not None else "") for b in duo["board"]))
            if me["pointer"] is not None:
                lines.append(f"🎯 You attack **{view['players'][me['pointer']]['name']}** "
                             "this round.")
            elif not me["ko"]:
                lines.append("🎯 No target yet: Lock In without one attacks the standing "
                             "opponent with the lowest health.")
        if seat in game.actors():
            lines.append("Choose an **action** below, then the **dice** for it (only the dice "
                         "that fit are offered). TIME JUMP, QUICK FIX and PAUSE happen at once "
                         "(the others hear only their name). ↩️ takes dice off an action. Press "
                         "**Lock In** when you are done: the screens come off when everyone "
                         "has, and when the round timer runs out whatever is placed is locked "
                         "in.")
        elif me["locked"]:
            lines.append("🔒 **You are locked in.** The reveal comes in the game thread when "
                         "everyone is.")
        return clip("\n".join(lines), PANEL_TEXT_MAX)

    def assign_panel(self, row: GameRow, game: Game, view: dict[str, Any], seat: int,
                     version: str, chosen: str | None = None,
                     prefix: tuple[str, ...] = ()) -> Panel:
        text = self.assign_text(row, game, view, seat)
        if seat not in game.actors():
            return Panel(text)
        selects: list[discord.ui.Item] = []
        for arg, kinds, placeholder in (
                ("fight", ("fight",), "⚔️ Attack / 🛡️ defense: choose an action"),
                ("other", ("other",), "⚡ Immediate, Power Up, Duo: choose an action")):
            groups = _groups(view, *kinds)
            if groups:
                selects.append(GameItem.select(row.id, version, "kpa", [
                    _option(g["title"], g["key"], f"{g['hint']} · {len(g['moves'])} way"
                            f"{'s' if len(g['moves']) != 1 else ''} to fill it".lstrip(" ·"),
                            g["key"] == chosen) for g in groups],
                    placeholder=placeholder, arg=arg))
        if chosen is not None:
            pick = self.dice_select(row, game, view, seat, version, chosen, prefix)
            if pick is not None:
                selects.append(pick)
        undo = _group(view, "undo")
        if undo:
            selects.append(MoveSelect(row.id, version, [
                _option(f"↩️ {game.describe(e['move'], seat).label}", e["move"],
                        game.describe(e["move"], seat).effect) for e in undo["moves"]],
                "↩️ Take dice off an action", tag="undo"))
        buttons: list[discord.ui.Item] = [
            MoveButton(row.id, version, "lock", "Lock In", style=discord.ButtonStyle.success,
                       emoji="🔒")]
        for g in _groups(view, "point"):
            move = g["moves"][0]["move"]
            buttons.append(MoveButton(row.id, version, move, game.describe(move, seat).label,
                                      style=discord.ButtonStyle.secondary, emoji="🎯"))
        buttons.append(TypeMoveButton(row.id))
        return Panel(text, fit_rows(selects, buttons))

    def dice_select(self, row: GameRow, game: Game, view: dict[str, Any], seat: int,
                    version: str, chosen: str, prefix: tuple[str, ...] = ()
                    ) -> GameItem | None:
        group = _group(view, chosen)
        if group is None:
            return None
        options = []
        for value, entries in narrow(group["moves"], prefix):
            if value.startswith(NARROW):
                uses = value[1:].split(",")
                options.append(_option(
                    f"{chosen}: " + " + ".join(_die_text(view, d) for d in uses) + " …",
                    value, f"{len(entries)} choices: pick this to see them"))
            else:
                said = game.describe(value, seat)
                options.append(_option(said.label, value, said.effect))
        return GameItem.select(row.id, version, "kpp", options,
                               placeholder=f"🎲 Choose the dice for {chosen}"[:150],
                               arg=chosen[:60])

    def power_panel(self, row: GameRow, game: Game, view: dict[str, Any], seat: int,
                    version: str) -> Panel:
        me = view["players"][seat]
        lines = [self._head(row, view, seat, "Power Up")]
        mine = seat in game.actors()
        if me["pending"]:
            total = sum(x["amount"] for x in me["pending"])
            lines.append("⚠️ **Pending**: " + ", ".join(
                f"{x['source']} −{x['amount']} health (from {view['players'][x['by']]['name']})"
                for x in me["pending"]) + f". **Take** it now, or the −{total} applies at the "
                "end of the Power Up phase.")
        lines.append("🎲 Your dice: " + ", ".join(
            f"{d['id']} {_die_name(d)}" for d in me["dice"])
            + (f" · unattached faces: {' '.join(me['unattached'])}" if me["unattached"] else "")
            + (" · abilities: " + ", ".join(x["name"] for x in me["locked_in"])
               if me["locked_in"] else "")
            + (f" · spoiler tokens: {me['spoilers']}" if me["spoilers"] else ""))
        pools = view["pools"]
        lines.append("🏦 Pool (what gains can still take): trait dice " + ", ".join(
            f"{c} {n}" for c, n in pools["trait"].items()) + f"; action dice {pools['action']}; "
            "faces " + ", ".join(f"{view['face_names'][f]} {n}"
                                 for f, n in pools["faces"].items()) + ".")
        if not mine:
            return Panel(clip("\n".join(lines), PANEL_TEXT_MAX))
        power = _groups(view, "power")
        if power:
            lines.append("⚡ **Your Power Up actions**: " + "; ".join(g["title"] for g in power)
                         + ". Unused ones are given up when you press **Done**.")
        else:
            lines.append("⚡ You have no Power Up action to use this round.")
        lines.append("Choose below (each action once); **Done** ends your Power Up.")
        selects: list[discord.ui.Item] = []
        buttons: list[discord.ui.Item] = []

        def options(moves):
            out = []
            for e in moves:
                said = game.describe(e["move"], seat)
                out.append(_option(said.label, e["move"], said.effect))
            return out
        for i, g in enumerate(power):
            if len(g["moves"]) == 1:
                move = g["moves"][0]["move"]
                buttons.append(MoveButton(row.id, version, move,
                                          game.describe(move, seat).label,
                                          style=discord.ButtonStyle.primary, emoji="⚡"))
            else:
                selects.append(MoveSelect(row.id, version, options(g["moves"]),
                                          f"⚡ {g['key']}: choose", tag=f"p{i}"))
        for key, placeholder in (("faces", "🔧 Attach / detach a face (any time in your "
                                           "Power Up)"),
                                 ("give", "🤝 Give a Duo board die to an ally")):
            g = _group(view, key)
            if g:
                selects.append(MoveSelect(row.id, version, options(g["moves"]), placeholder,
                                          tag=key))
        if _group(view, "take"):
            buttons.append(MoveButton(row.id, version, "take",
                                      game.describe("take", seat).label,
                                      style=discord.ButtonStyle.danger, emoji="💥"))
        buttons.append(MoveButton(row.id, version, "done", "Done",
                                  style=discord.ButtonStyle.success, emoji="✅"))
        buttons.append(TypeMoveButton(row.id))
        if len(buttons) > 10:  # more single-choice actions than two rows: they go in a select
            extra, buttons = buttons[:-3], buttons[-3:]
            moves = [{"move": b.call.arg} for b in extra]
            selects.insert(0, MoveSelect(row.id, version, options(moves),
                                         "⚡ Your Power Up actions", tag="one"))

        def overflow(extra: list[discord.ui.Item]) -> discord.ui.Item | None:
            opts: list[discord.SelectOption] = []
            for item in extra:
                opts += list(getattr(item, "item", item).options)
            more = "" if len(opts) <= SELECT_MAX else f" (first 25 of {len(opts)}; type the rest)"
            return MoveSelect(row.id, version, opts[:SELECT_MAX], "⚡ More choices" + more,
                              tag="more")
        return Panel(clip("\n".join(lines), PANEL_TEXT_MAX), fit_rows(selects, buttons, overflow))

    # ---- component handlers -------------------------------------------------------------------------
    async def _own_panel(self, interaction: discord.Interaction, call: ComponentCall
                         ) -> tuple[GameRow, Game, int]:
        """The clicking player's game and seat, when this panel is still their current one."""
        row, game = await self.bot.tables.load(call.game_id)
        if row.kind != self.KIND:
            raise RuleError(f"There is no KAPLOOM! game #{call.game_id}.")
        if row.status != "active":
            raise RuleError(f"Game #{call.game_id} is over.")
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise RuleError(self.spectator_text(row))
        if call.version != f"p{await self.bot.store.seat_moves(row.id, seat)}":
            raise StaleMove(STALE_TEXT)
        if seat not in game.actors():
            raise RuleError("You have nothing to choose right now; wait for the game thread.")
        return row, game, seat

    async def _show_choice(self, interaction: discord.Interaction, row: GameRow, game: Game,
                           seat: int, version: str, chosen: str,
                           prefix: tuple[str, ...] = ()) -> None:
        if _group(game.view(seat), chosen) is None:
            raise RuleError(f"Your unplaced dice can no longer fill {chosen}. Pick another "
                            "action.")
        panel = self.panel(row, game, seat, version, chosen=chosen, prefix=prefix)
        await interaction.response.edit_message(view=view_of(*panel.items))

    @on_component("kpa")
    async def on_choose_action(self, interaction: discord.Interaction,
                               call: ComponentCall) -> None:
        """An action was chosen: the same panel, with the dice select for it."""
        row, game, seat = await self._own_panel(interaction, call)
        await self._show_choice(interaction, row, game, seat, str(call.version), call.value)

    @on_component("kpp")
    async def on_choose_dice(self, interaction: discord.Interaction, call: ComponentCall) -> None:
        """The dice for the chosen action: a move, or a group of ways to narrow to."""
        if call.value.startswith(NARROW):
            row, game, seat = await self._own_panel(interaction, call)
            await self._show_choice(interaction, row, game, seat, str(call.version), call.arg,
                                    tuple(call.value[1:].split(",")))
            return
        await self.on_move_component(interaction, call.game_id, call.version, call.value)

    # ---- publishing ---------------------------------------------------------------------------------
    async def publish(self, played: Played) -> None:
        """The engine's public events laid out as thread lines; the base does the rest."""
        row, game = played.row, played.game
        lines = [line for e in played.events if e.to is None
                 for line in self.event_lines(row, game, e)]
        events = [e for e in played.events if e.to is not None] + [
            Event(line, "line") for line in lines]
        await super().publish(dataclasses.replace(played, events=events))

    async def _retired_text(self, row: GameRow, game: Game, seat: int) -> str:
        """A panel with nothing left to choose (GameCog retires it with this text)."""
        view = game.view(seat)
        if view["stage"] == "assign":
            return self.assign_text(row, game, view, seat)
        if game.outcome() is not None:
            return (f"{self._head(row, view, seat, 'game over')}\nThe game is over: "
                    f"{game.outcome().reason}. The result is in the game thread.")
        what = "Power Up" if view["stage"] == "power" else f"phase {view['phase']}"
        return (f"{self._head(row, view, seat, what)}\n✅ Nothing for you to choose right now; "
                "the game goes on in its thread.")

    ICONS = {"phase": "📣", "attack": "⚔️", "loss": "💥", "block": "🛡️", "heal": "💚",
             "ko": "💀", "lock": "🔒", "turn": "⚡", "gain": "🎁", "trigger": "👊",
             "lock_in": "🔐", "first": "🏁", "done": "✅", "unused": "💤", "spoilers": "📖",
             "trade": "🔄", "attach": "🔧", "detach": "🔧", "give": "🤝", "revive": "✨",
             "immediate": "⚡", "game_over": "🏆"}

    def event_lines(self, row: GameRow, game: Game, e: Event) -> list[str]:
        """A public event as thread lines: the engine's words, with a little layout."""
        if e.kind == "reveal":
            return self.reveal_lines(game, e)
        text = e.text
        if e.kind in ("phase", "ko", "immediate"):
            text = f"**{text}**"
        return [f"{self.ICONS.get(e.kind, '•')} {text}"]

    def reveal_lines(self, game: Game, e: Event) -> list[str]:
        view = game.view(None)
        combat = view.get("combat") or {}
        if combat.get("round") != e.data.get("round"):
            return [f"🎬 {e.text}"]
        names = [p["name"] for p in view["players"]]
        faces = view["face_names"]
        lines = [f"🎬 **Round {combat['round']}, Phase 2 — the screens come off!**"]
        for p in view["players"]:
            board = combat["boards"].get(str(p["seat"])) or []
            acts = " · ".join(f"**{b['action']}** (" + " ".join(faces[f] for f in b["faces"])
                              + ")" for b in board) or "no actions"
            line = f"• {p['name']} ({p['role']}): {acts}"
            target = (combat.get("pointers") or {}).get(str(p["seat"]))
            if view["mode"] == "2v2" and target is not None:
                line += f" — attacks {names[target]}"
            lines.append(line)
        for t, board in enumerate(combat.get("duo") or []):
            if board:
                seats = [p["seat"] for p in view["players"] if p["team"] == t]
                lines.append("• Duo board of " + " and ".join(names[s] for s in seats) + ": "
                             + " · ".join(f"**{b['action']}** (" + " ".join(
                                 faces[f] for f in b["faces"]) + ")"
                                 + (f" for {names[b['ally']]}" if b.get("ally") is not None
                                    else "") for b in board))
        return lines

    # ---- commands: starting a game ------------------------------------------------------------------
    @staticmethod
    def seat_supers(text: str | None, sides: list[str], what: str) -> str | None:
        """The `supers` option, checked against each seat's side: None (default: none) or the
        engine's comma list in seat order."""
        if text is None:
            return None
        parts = [p.strip() for p in re.split(r"[,;/]", text) if p.strip()]
        if not parts or (len(parts) == 1 and phrase_key(parts[0]) in ("none", "no", "")):
            return "none"
        if len(parts) > len(sides):
            raise RuleError(f"`supers` names at most {len(sides)} supers ({what}); got "
                            f"{len(parts)}.")
        keys = {phrase_key(n): n for n in SUPER_SIDES}
        names: list[str | None] = []
        for seat, p in enumerate(parts):
            if phrase_key(p) in ("none", "no", "", "-"):
                names.append(None)
                continue
            name = keys.get(phrase_key(p))
            if name is None:
                raise RuleError(f"{p!r} is not a super: choose from {', '.join(SUPER_SIDES)}, or "
                                "none.")
            side = sides[seat]
            if SUPER_SIDES[name] != side:
                fits = [n for n, s in SUPER_SIDES.items() if s == side]
                raise RuleError(f"Seat {seat + 1} is a {side} here, but {name} is a "
                                f"{SUPER_SIDES[name]} super. A {side} may be "
                                f"{' or '.join(fits)} (or none); or change `side`.")
            names.append(name)
        names += [None] * (len(sides) - len(names))
        if all(n is None for n in names):
            return "none"
        return ",".join(n or "none" for n in names)

    @staticmethod
    def _options(**given: Any) -> dict[str, Any]:
        return {k: v for k, v in given.items() if v is not None}

    @app_commands.command(name="challenge", description="Challenge someone to a KAPLOOM! duel")
    @app_commands.describe(
        opponent="Who you challenge (you take the first seat)",
        side="Your side (default hero; your opponent takes the other)",
        supers="Your super and your opponent's, e.g. 'Tough Nut, Victor Kane'; one name: yours; "
               "or none",
        timer="Seconds for each secret Phase 1 (default 180; 0: the table's turn timer)")
    @app_commands.choices(side=SIDE_CHOICES)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        side: str | None = None,
                        supers: app_commands.Range[str, 1, 80] | None = None,
                        timer: app_commands.Range[int, 0, 3600] | None = None) -> None:
        me = side or "hero"
        other = "villain" if me == "hero" else "hero"
        options = self._options(sides=side, timer=timer,
                                supers=self.seat_supers(supers, [me, other],
                                                        "yours, then your opponent's"))
        await self.bot.lobby.challenge(interaction, self.KIND, opponent, options)

    @app_commands.command(name="team", description="Open a 2 vs 2 KAPLOOM! table for exactly four")
    @app_commands.describe(
        side="The side of your team: you and the first to join (default hero)",
        supers="Supers by seat (1-2 your side, 3-4 the other), e.g. 'Tough Nut, none, Victor "
               "Kane'; or none",
        timer="Seconds for each secret Phase 1 (default 180; 0: the table's turn timer)")
    @app_commands.choices(side=SIDE_CHOICES)
    async def team(self, interaction: discord.Interaction, side: str | None = None,
                   supers: app_commands.Range[str, 1, 100] | None = None,
                   timer: app_commands.Range[int, 0, 3600] | None = None) -> None:
        us = side or "hero"
        them = "villain" if us == "hero" else "hero"
        options = self._options(mode="2v2", sides=side, timer=timer,
                                supers=self.seat_supers(supers, [us, us, them, them],
                                                        "one per seat, in seat order"))
        await self.bot.lobby.challenge(
            interaction, self.KIND, None, options, players=4,
            note=(f"👥 **2 vs 2** — teams go by who joins: the host and the first to join (the "
                  f"{us}es) against the next two (the {them}s). "
                  "Allies see each other's dice and share the Duo board; each player points at "
                  "the opponent they attack."))

    @team.autocomplete("supers")
    async def team_supers_autocomplete(self, interaction: discord.Interaction, current: str):
        us = getattr(interaction.namespace, "side", None) or "hero"
        them = "villain" if us == "hero" else "hero"
        return self._supers_choices([us, us, them, them], current)

    @challenge.autocomplete("supers")
    async def challenge_supers_autocomplete(self, interaction: discord.Interaction,
                                            current: str):
        me = getattr(interaction.namespace, "side", None) or "hero"
        other = "villain" if me == "hero" else "hero"
        return self._supers_choices([me, other], current)

    @staticmethod
    def _supers_choices(sides: list[str], current: str) -> list[app_commands.Choice[str]]:
        def of(side: str) -> list[str]:
            return [n for n, s in SUPER_SIDES.items() if s == side] + ["none"]
        combos: list[list[str]] = [[]]
        for side in sides:
            combos = [c + [n] for c in combos for n in of(side)]
        values = ["none"] + [", ".join(c) for c in combos if any(n != "none" for n in c)]
        key = current.lower().strip()
        out = []
        for v in values:
            if key and key not in v.lower():
                continue
            label = v if v == "none" else " / ".join(
                f"seat {i + 1}: {n}" for i, n in enumerate(v.split(", ")))
            out.append(app_commands.Choice(name=label[:100], value=v[:100]))
        return out[:25]

    # ---- commands: reference --------------------------------------------------------------------------
    @staticmethod
    def board_text(board: str) -> list[str]:
        """The action table as text, grouped by panel (the engine's printed table)."""
        out: list[str] = []
        for title, rows in Kaploom.board_sections(board):
            out.append(f"__**{title}**__")
            panel = None
            for where, name, needs, text in rows:
                if where != panel:
                    panel = where
                    out.append(f"*{panel}*")
                out.append(f"• **{name}** ({needs}): {text}")
        out.append("__**Requirements**__ " + "; ".join(
            f"`{s}` {text}" for s, text in Kaploom.requirement_words()))
        return out

    # `/kaploom board` is the printed action board (as the issue and the rulebook call it); the
    # running game's table, which other games show with `board`, is `/kaploom table`.
    @app_commands.command(name="board", description="The KAPLOOM! action board: every action, its dice and effect")
    @app_commands.describe(board="Which board (default: the base board)",
                           public="Post it in the channel for everyone (default: only you see it)")
    @app_commands.choices(board=BOARD_CHOICES)
    async def board_command(self, interaction: discord.Interaction, board: str = "base",
                            public: bool = False) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        # The base board, plus a super's board, the Duo board, or all.
        supers = tuple(SUPER_SIDES) if board == "all" else (
            (board,) if board in SUPER_SIDES else ())
        picture = await self.draw(render_action_board, supers=supers, duo=board in ("duo", "all"))
        chunks: list[str] = []
        for line in self.board_text(board):
            if chunks and len(chunks[-1]) + len(line) + 1 <= PANEL_TEXT_MAX:
                chunks[-1] += "\n" + line
            else:
                chunks.append(clip(line, PANEL_TEXT_MAX))
        for i, text in enumerate(chunks):
            kw: dict[str, Any] = {}
            if i == 0 and picture is not None:
                kw = Panel("", picture=picture).send_kwargs()
                kw.pop("content", None)
            await interaction.followup.send(text, ephemeral=not public, **kw)

    @app_commands.command(name="table", description="Your running game's table: boards, health, "
                                                    "dice (only you see it)")
    async def table_command(self, interaction: discord.Interaction) -> None:
        await self.show_board(interaction)

    @app_commands.command(name="dice", description="A player's dice, faces and abilities (public)")
    @app_commands.describe(player="Whose (default: every player of the game)")
    async def dice_command(self, interaction: discord.Interaction,
                           player: discord.User | None = None) -> None:
        row, game = await self._game_for(interaction, player)
        view = game.view(None)  # public: never the faces rolled behind the screen
        seats = list(range(len(row.players)))
        if player is not None:
            seat = row.seat_of(player.id)
            if seat is None:
                raise RuleError(f"{player.display_name} is not playing in game #{row.id}: its "
                                "players are " + ", ".join(mention(u) for u in row.players)
                                + ".")
            seats = [seat]
        faces = view["face_names"]
        lines = [f"**KAPLOOM! game #{row.id}, round {view['round']}** — dice (the six faces "
                 "of each; `_` is blank)"
                 + (". The faces rolled this round stay behind the screens until the reveal."
                    if view["stage"] == "assign" else ".")]
        for s in seats:
            p = view["players"][s]
            lines.append(f"**{p['name']}** — {p['role']}, ❤️ "
                         f"{p['health']}/{p['max_health']}" + (" (KO)" if p["ko"] else ""))
            for d in p["dice"]:
                showing = (f" — showing {faces[d['up']]}" if d.get("up") is not None
                           else "")
                lines.append(f"  • {d['id']} {_die_name(d)}: `{' '.join(d['faces'])}`{showing}")
            extra = []
            if p["unattached"]:
                extra.append(f"unattached faces {' '.join(p['unattached'])}")
            if p["locked_in"]:
                extra.append("locked in: " + "; ".join(f"{x['name']} ({x['text']})"
                                                       for x in p["locked_in"]))
            if p["spoilers"]:
                extra.append(f"spoiler tokens {p['spoilers']}")
            if extra:
                lines.append("  " + " · ".join(extra))
        await reply(interaction, clip("\n".join(lines)), ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none())

    async def _game_for(self, interaction: discord.Interaction,
                        player: discord.abc.User | None) -> tuple[GameRow, Game]:
        """The game in this thread; else the named player's (or the caller's) only game."""
        here = [r for r in await self.bot.store.games_in_guild(interaction.guild_id, limit=200)
                if r.kind == self.KIND and r.where == interaction.channel_id]
        if here:
            row = here[0]
            return row, self.engine.from_json(row.state)
        if player is not None and player.id != interaction.user.id:
            theirs = [r for r in await self.bot.store.games_of_user(player.id)
                      if r.kind == self.KIND]
            if not theirs:
                raise RuleError(f"{player.display_name} is not in a KAPLOOM! game right now.")
            if len(theirs) > 1:
                raise RuleError(f"{player.display_name} plays {len(theirs)} KAPLOOM! games: "
                                "use this command in the game's thread.")
            return theirs[0], self.engine.from_json(theirs[0].state)
        return await self.find_game(interaction)

    # ---- commands: Phase 1 typed --------------------------------------------------------------------
    @app_commands.command(name="assign", description="Phase 1, in secret: put your dice on an action")
    @app_commands.describe(action="The action (the list shows what your unplaced dice can fill)",
                           dice="Your dice by id, e.g. d2 d4 (TIME JUMP: d5 reroll d1)")
    async def assign(self, interaction: discord.Interaction,
                     action: app_commands.Range[str, 1, 40],
                     dice: app_commands.Range[str, 1, 80]) -> None:
        row, game = await self.find_game(interaction)
        seat = self.player_seat(row, interaction)
        stage = game.view(None)["stage"]
        if stage != "assign":
            raise RuleError("Dice are assigned in Phase 1; now is "
                            + ("Power Up: use your panel or `/kaploom move`."
                               if stage == "power" else "no time for that."))
        ids = " ".join(t for t in re.split(r"[\s,]+", dice.strip()) if t)
        typed = f"assign {action.strip()} {ids}"
        group = _group(game.view(seat), action.strip())
        if group is not None:  # the autocomplete's choice: the engine's own move for it
            typed = next((e["move"] for e in group["moves"] if self._dice_words(e) == ids),
                         typed)
        await interaction.response.defer(ephemeral=True, thinking=True)
        said = game.describe(typed, seat).label if group is not None else typed
        await self.play_move(row.id, interaction.user.id, typed)
        await interaction.followup.send(f"✅ {said} (secret until the reveal)", ephemeral=True)

    @staticmethod
    def _dice_words(entry: dict[str, Any]) -> str:
        """A way to fill an action as the `dice` option writes it: `d2 d4`, `d5 reroll d1`."""
        return " ".join(entry["uses"] + (["reroll"] + entry["rerolls"] if entry["rerolls"]
                                         else []))

    @assign.autocomplete("action")
    async def assign_action_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self._legal(interaction)
        if found is None:
            return []
        game, seat, _ = found
        key = phrase_key(current)
        out = []
        for g in _groups(game.view(seat), "fight", "other"):
            if key and key not in phrase_key(g["key"]):
                continue
            out.append(app_commands.Choice(name=g["title"][:100], value=g["key"][:100]))
        return out[:25]

    @assign.autocomplete("dice")
    async def assign_dice_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self._legal(interaction)
        if found is None:
            return []
        game, seat, _ = found
        typed = str(getattr(interaction.namespace, "action", "") or "").strip()
        group = _group(game.view(seat), typed)
        if group is None:
            return []
        key = current.lower().strip()
        out = []
        for e in group["moves"]:
            words = self._dice_words(e)
            if key and key not in words:
                continue
            out.append(app_commands.Choice(name=game.describe(e["move"], seat).label[:100],
                                           value=words[:100]))
        return out[:25]

    async def _legal(self, interaction: discord.Interaction
                     ) -> tuple[Game, int, list[str]] | None:
        """legal_for, only while the caller may act."""
        found = await self.legal_for(interaction)
        return found if found is not None and found[1] in found[0].actors() else None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KaploomCog(bot))
