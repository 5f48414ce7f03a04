"""KAPLOOM! in Discord (`/kaploom ...`): the Discord side of the `kaploom` engine.

A thin adapter: every click and command becomes a move in the notation
(docs/notation/kaploom.md) handed to `tables.play`; the engine decides, and its refusals reach
the player ephemerally in its own words ("POW needs M E. d2 fills E. Nothing fits M ...").

Commands (group `/kaploom`, plus `board`, `panel`, `move` from GameCog):
- `challenge opponent [side] [supers] [timer]`: a duel; you are player 1. `supers` names your
  super and your opponent's ("Tough Nut, Victor Kane"), one name (yours), or "none"; each is
  checked against its side.
- `team [side] [supers] [timer]`: an open 2 vs 2 table for exactly four players; teams go by
  seat order (the host and the first to join against the next two), as the join note says.
- `actions [board] [public]`: the action board, as a picture and as text from the engine's
  action table (GameCog's `board` stays what it is everywhere: the current game's board).
- `dice [player]`: anyone's dice (the six faces of each), unattached faces, locked-in
  abilities and health, from the PUBLIC view: never the faces rolled behind the screen.
- `assign action dice`: Phase 1 typed (autocomplete offers what your unplaced dice can fill).

Phase 1 (secret, everyone at once) happens in each player's panel (DM; the thread offers an
ephemeral panel when DMs are closed): the roll as a picture and text, two selects of the
actions the unplaced dice can still fill (attack/defense; immediate/power up/Duo), then a
select of the fitting dice for the chosen action (the engine's own legal `assign` moves for
it, narrowed step by step when there are more than 25), a select to take dice off an action,
the 2 vs 2 pointer buttons, and Lock In. Immediate actions resolve at once; the thread only
hears their names ("Player 2 used TIME JUMP!"). Nothing else of Phase 1 reaches the thread
until the reveal, which lists both boards, the attack and defense sums and the health changes.
Power Up (Phase 3) is a panel for the player whose turn it is, in turn order: a select per
action with choices (GROW colour, POWER ON / UPGRADE / TRADE IN / BIG BANG faces, ...),
attach/detach, buttons for the rest, Take and Done.

Pictures come from rendering.kaploom (`render` for the thread and Power Up panels,
`render_roll` for the Phase 1 panel, `render_action_board` for `board`); when one fails
that message is sent as text. The round timer is the engine's: when it runs out
the table plays `lock` for whoever is still assigning (whatever is placed is locked in).

Components of our own (`KpSelect`) carry `kp:<tag>:<game>:<seat>:<panel version>`, so they work
after a restart, refuse anyone but the seat they were made for, and go stale with the seat's
next move like every secret panel (Tables._check_version).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import CHANCE, Event, Game, RuleError, phrase_key
from bot.engine.kaploom.combat import formula
from bot.engine.kaploom.data import (ACTION_TABLE, ALL_ACTIONS, DUO_TABLE, FACE_NAMES,
                                     SUPER_TABLE, SUPERS, Action)
from bot.engine.kaploom.requirements import SYMBOLS
from bot.gamecog import GameCog, Panel, clip, mention
from bot.store import GameRow
from bot.tables import STALE_TEXT, Played, StaleMove
from bot.ui import (MoveButton, TypeMoveButton, first_selected, game_cog, guarded, parse_version,
                    reply, view_of)
from rendering.kaploom import render, render_action_board, render_roll

KIND = "kaploom"
SIDE_CHOICES = [app_commands.Choice(name="hero", value="hero"),
                app_commands.Choice(name="villain", value="villain")]
BOARD_CHOICES = [app_commands.Choice(name="the base board (every player)", value="base")] + [
    app_commands.Choice(name=f"{name} (super board, {SUPERS[name].side})", value=name)
    for name in SUPERS] + [
    app_commands.Choice(name="the Duo board (2 vs 2)", value="duo"),
    app_commands.Choice(name="everything", value="all")]
IMMEDIATE_VERBS = {"timejump": "TIME JUMP", "quickfix": "QUICK FIX", "pause": "PAUSE"}
TIME_LOOP = "timeloop"          # the locked-in TIME LOOP ability (not the action TIME LOOP)
DIE = re.compile(r"d\d+")
SELECT_MAX = 25
ROWS = 5
PANEL_TEXT_MAX = 1900
THREAD_BUDGET = 1500            # public lines per message; the rest goes in earlier messages
PANEL_HEAD = "**KAPLOOM! — game #"
NARROW = ">"                    # a select value that narrows the choice instead of playing


# ---- reading the view ----------------------------------------------------------------------------

def _dice(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every die of the view by id, with its owner seat."""
    out = {}
    for p in view["players"]:
        for d in p["dice"]:
            out[d["id"]] = {**d, "owner": p["seat"]}
    return out


def _die_name(d: dict[str, Any]) -> str:
    if d["kind"] == "trait":
        return d["colour"]
    faces = "".join(f for f in d["faces"] if f != "_")
    return f"action [{faces}]" if faces else "action []"


def _die_text(d: dict[str, Any] | None, die_id: str, face: bool = True) -> str:
    """`d2 yellow: Wild` (the face only when the view shows it)."""
    if d is None:
        return die_id
    text = f"{die_id} {_die_name(d)}"
    if face and d.get("up") is not None:
        text += f": {FACE_NAMES[d['up']]}"
    return text


def _faces_line(d: dict[str, Any]) -> str:
    return " ".join(d["faces"])


def _role(p: dict[str, Any]) -> str:
    return p["side"] + (f", {p['super']}" if p["super"] else "")


def _placed(view: dict[str, Any], seat: int) -> dict[str, str]:
    """die id -> the action it is on (own board and the Duo board), as the seat sees it."""
    out: dict[str, str] = {}
    for p in view["players"]:
        for b in p["board"] or []:
            for d in b["dice"]:
                out[d] = b["action"]
    for team in view["duo"]:
        for b in team["board"] or []:
            for d in b["dice"]:
                out[d] = b["action"] + " (Duo)"
    return out


def move_action(move: str) -> str | None:
    """The action a Phase 1 move is about (`assign POW d1 d2` -> POW; `timejump ...` -> TIME
    JUMP; `timeloop reroll d3` -> the TIME LOOP ability key)."""
    t = move.split()
    if not t:
        return None
    if t[0] == "assign":
        words = []
        for x in t[1:]:
            if DIE.fullmatch(x) or x.startswith("@"):
                break
            words.append(x)
        return " ".join(words) or None
    if t[0] in IMMEDIATE_VERBS:
        return IMMEDIATE_VERBS[t[0]]
    if t[0] == TIME_LOOP:
        return TIME_LOOP
    return None


def _action_moves(legal: list[str], name: str) -> list[str]:
    return [m for m in legal if move_action(m) == name]


def narrow(moves: list[str], prefix: str = "") -> list[tuple[str, list[str]]]:
    """At most 25 entries: (value, moves). A group of one is the move itself; a group of several
    is a prefix to narrow on (the longest common beginning in whole words that keeps the list
    within 25)."""
    pool = [m for m in moves if not prefix or m == prefix or m.startswith(prefix + " ")]
    if len(pool) <= SELECT_MAX:
        return [(m, [m]) for m in pool]
    start = len(prefix.split()) + 1 if prefix else 1
    longest = max(len(m.split()) for m in pool)
    best: dict[str, list[str]] | None = None
    for k in range(start, longest + 1):
        groups: dict[str, list[str]] = {}
        for m in pool:
            groups.setdefault(" ".join(m.split()[:k]), []).append(m)
        if len(groups) > SELECT_MAX:
            break
        best = groups
    if best is None or len(best) < 2:  # no way to split it: the first 25 (the rest typed)
        return [(m, [m]) for m in pool[:SELECT_MAX]]
    return [(ms[0], ms) if len(ms) == 1 else (NARROW + key, ms) for key, ms in best.items()]


def _cog(interaction: discord.Interaction) -> "KaploomCog":
    return game_cog(interaction, KIND, "KAPLOOM!")


# ---- persistent components of this game -----------------------------------------------------------

class KpSelect(discord.ui.DynamicItem[discord.ui.Select],
               template=r"kp:(?P<tag>[a-z]+):(?P<gid>\d+):(?P<seat>\d+):(?P<ver>p?\d+)"):
    """A select on a KAPLOOM! panel: `kp:<tag>:<game>:<seat>:<version>`. Tags `atk` and `act`
    choose an action (then the dice select appears); every other tag's values are moves, or a
    `>prefix` that narrows a long list."""

    def __init__(self, tag: str, game_id: int, seat: int, version: int | str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "Choose"):
        self.tag, self.game_id, self.seat, self.version = tag, game_id, seat, version
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(
            custom_id=f"kp:{tag}:{game_id}:{seat}:{version}", placeholder=placeholder[:150],
            options=options[:SELECT_MAX]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(match["tag"], int(match["gid"]), int(match["seat"]), parse_version(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            value = first_selected(interaction, "Pick one entry from the list.")
            await _cog(interaction).on_select(interaction, self.tag, self.game_id, self.seat,
                                              self.version, value)
        await guarded(interaction, work)


DYNAMIC_ITEMS = (KpSelect,)


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
        item.row = row
        out.append(item)
    for k, item in enumerate(buttons):
        item.row = len(selects) + k // 5
        out.append(item)
    return out


# ---- the cog --------------------------------------------------------------------------------------

class KaploomCog(GameCog, group_name="kaploom",
                 group_description="KAPLOOM!: heroes and villains build dice and slug it out"):
    KIND = KIND
    DYNAMIC_ITEMS = DYNAMIC_ITEMS

    # ---- hooks ------------------------------------------------------------------------------------
    def panel_phase(self, game: Game) -> str:
        v = game.view(None)
        return f"{v['stage']}:{v['round']}:{v['turn']}"

    async def picture(self, row: GameRow, game: Game, seat: int | None = None):
        """The public board (seat None), or a seat's own: in Phase 1 the private roll picture
        (its board picture of the seat's view stands in when that one fails)."""
        view = game.view(seat)
        if seat is not None and view["stage"] == "assign":
            pic = await self.draw(render_roll, view)
            if pic is not None:
                return pic
        return await self.draw(render, view)

    def status_line(self, row: GameRow, game: Game) -> str:
        if game.outcome() is not None:
            return super().status_line(row, game)
        v = game.view(None)
        when = f" (time runs out <t:{int(row.deadline)}:R>)" if row.deadline else ""
        if v["stage"] == "power" and v["turn"] is not None:
            return (f"⚡ {mention(row.players[v['turn']])} powers up now: your Power Up panel "
                    f"is in your DMs{when}.")
        if v["stage"] == "assign":
            waiting = [s for s in game.actors() if s != CHANCE]
            ready = [p["seat"] for p in v["players"] if p["locked"]]
            line = ("🔒 Phase 1 behind the screens: " + ", ".join(
                mention(row.players[s]) for s in waiting) + " still assigning in secret "
                "(check your DMs)" + when + ".")
            if ready:
                line += " Locked in: " + ", ".join(f"player {s + 1}" for s in ready) + "."
            line += " When time runs out, whatever is placed is locked in."
            return line
        return super().status_line(row, game)

    def waiting_text(self, row: GameRow, game: Game, seat: int | None) -> str:
        v = game.view(None)
        waiting = [s for s in game.actors() if s != CHANCE]
        who = ", ".join(mention(row.players[s]) for s in waiting)
        if v["stage"] == "assign" and seat is not None and v["players"][seat]["locked"]:
            return (f"You are locked in for this round; the reveal waits for {who}.")
        if v["stage"] == "power" and v["turn"] is not None:
            order = " → ".join(f"player {s + 1}" for s in v["order"])
            return (f"It is {mention(row.players[v['turn']])}'s Power Up (turn order: {order}); "
                    "your Power Up panel comes in your DMs when it is your turn.")
        return super().waiting_text(row, game, seat)

    # ---- labels -----------------------------------------------------------------------------------
    def move_label(self, game: Game, seat: int, move: str) -> str:
        view = game.view(seat)
        dice = _dice(view)
        t = move.split()
        if not t:
            return move
        verb, args = t[0], t[1:]

        def dd(ids: list[str]) -> str:
            return " + ".join(_die_text(dice.get(d), d) for d in ids)
        if verb == "assign":
            name = move_action(move) or ""
            ids = [a for a in args if DIE.fullmatch(a)]
            ally = next((a for a in args if a.startswith("@")), None)
            return f"{name}: {dd(ids)}" + (f" (covers player {ally[1:]})" if ally else "")
        if verb in ("timejump", "pause"):
            k = args.index("reroll") if "reroll" in args else len(args)
            return (f"{IMMEDIATE_VERBS[verb]}: {dd(args[:k])}, re-roll "
                    + ", ".join(_die_text(dice.get(d), d) for d in args[k + 1:]))
        if verb == "quickfix":
            return f"QUICK FIX: {dd(args)} (gain 2 health now)"
        if verb == TIME_LOOP:
            return f"TIME LOOP ability: re-roll {_die_text(dice.get(args[-1]), args[-1])}"
        if verb == "unassign":
            return f"Take the dice off {' '.join(args)}"
        if verb == "point":
            return f"Attack player {args[0][1:]} this round"
        if verb == "lock":
            return "Lock In"
        if verb == "take":
            me = view["players"][seat]
            n = sum(x["amount"] for x in me["pending"])
            return f"Take my pending loss now (−{n})"
        if verb == "done":
            return "Done powering up"
        if verb in ("attach", "detach"):
            face = FACE_NAMES.get(args[1], args[1]) if len(args) > 1 else "?"
            return (f"Attach {face} to {args[0]}" if verb == "attach"
                    else f"Detach {face} from {args[0]}")
        if verb == "give":
            return f"Give {args[0]} to player {args[1][1:]}"
        faces = [FACE_NAMES.get(a, a) for a in args]
        if verb == "grow":
            return f"GROW: a {args[0]} trait die"
        if verb == "sharetheload":
            return f"SHARE THE LOAD: a {args[-1]} trait die for player {args[0][1:]}"
        if verb == "tradein" and len(args) == 2:
            return f"TRADE IN: return {faces[0]}, take {faces[1]}"
        if verb in ("poweron", "bigbang", "morepower"):
            name = {"poweron": "POWER ON", "bigbang": "BIG BANG", "morepower": "MORE POWER"}[verb]
            return f"{name}: an action die" + (f" with {' + '.join(faces)}" if faces else "")
        if verb in ("upgrade", "quickstudy"):
            name = {"upgrade": "UPGRADE", "quickstudy": "QUICK STUDY"}[verb]
            return f"{name}: a {faces[0]} face" if faces else name
        action = next((a for a in ALL_ACTIONS.values() if phrase_key(a.name) == verb), None)
        if action is not None:
            return f"{action.name}: {action.text}"
        return move

    # ---- the secret panel -------------------------------------------------------------------------
    def panel(self, row: GameRow, game: Game, seat: int, version: str,
              chosen: str | None = None, prefix: str = "") -> Panel:
        view = game.view(seat)
        if view["stage"] == "power":
            return self.power_panel(row, game, view, seat, version)
        if view["stage"] == "assign":
            return self.assign_panel(row, game, view, seat, version, chosen, prefix)
        return super().panel(row, game, seat, version)

    def _head(self, row: GameRow, view: dict[str, Any], seat: int, what: str) -> str:
        me = view["players"][seat]
        return (f"{PANEL_HEAD}{row.id}, round {view['round']}: {what}** (you are player "
                f"{seat + 1}, the {_role(me)}) ❤️ {me['health']}/{me['max_health']}"
                + (" — **knocked out**" if me["ko"] else ""))

    def assign_text(self, row: GameRow, game: Game, view: dict[str, Any], seat: int) -> str:
        me = view["players"][seat]
        dice = _dice(view)
        placed = _placed(view, seat)
        lines = [self._head(row, view, seat, "Phase 1, behind your screen")]
        free = [d["id"] for d in me["dice"] if d["id"] not in placed]
        lines.append("🎲 **Your roll** — unplaced: " + (" · ".join(
            _die_text(dice[d], d) for d in free) or "none"))
        boards = [b for b in me["board"] or []]
        if boards:
            lines.append("📋 **Placed**: " + " · ".join(
                f"{b['action']}{' (immediate, done)' if b['immediate'] else ''} ← "
                + " + ".join(_die_text(dice.get(d), d) for d in b["dice"]) for b in boards))
        if view["mode"] == "2v2":
            ally = next((p for p in view["players"]
                         if p["team"] == me["team"] and p["seat"] != seat), None)
            if ally is not None:
                afree = [d["id"] for d in ally["dice"] if d["id"] not in placed]
                state = "locked in" if ally["locked"] else "still assigning"
                lines.append(f"🤝 Your ally, player {ally['seat'] + 1} ({state}) — unplaced: "
                             + (" · ".join(_die_text(dice[d], d) for d in afree) or "none"))
            duo = next((t for t in view["duo"] if seat in t["seats"]), None)
            if duo and duo["board"]:
                lines.append("🤝 **Duo board**: " + " · ".join(
                    f"{b['action']} ← " + " + ".join(_die_text(dice.get(d), d) for d in b["dice"])
                    + (f" (covers player {b['ally'] + 1})" if b.get("ally") is not None else "")
                    for b in duo["board"]))
            if me["pointer"] is not None:
                lines.append(f"🎯 You attack **player {me['pointer'] + 1}** this round.")
            elif not me["ko"]:
                lines.append("🎯 No target yet: Lock In without one attacks the standing "
                             "opponent with the lowest health.")
        for p in view["players"]:
            if p["team"] == me["team"]:
                continue
            state = "locked in" if p["locked"] else "still assigning"
            said = f", announced {', '.join(p['announced'])}" if p["announced"] else ""
            lines.append(f"👀 Player {p['seat'] + 1} ({_role(p)}): ❤️ {p['health']}/"
                         f"{p['max_health']}, {state}{said}.")
        if seat in game.actors():
            lines.append("Choose an **action** below, then the **dice** for it (only the dice "
                         "that fit are offered). TIME JUMP, QUICK FIX and PAUSE happen at once "
                         "(everyone hears their name only). ↩️ takes dice off an action. Press "
                         "**Lock In** when you are done: the reveal waits for everyone, and when "
                         "the round timer runs out whatever is placed is locked in.")
        elif me["locked"]:
            lines.append("🔒 **You are locked in.** The reveal comes in the game thread when "
                         "everyone is.")
        return clip("\n".join(lines), PANEL_TEXT_MAX)

    def assign_panel(self, row: GameRow, game: Game, view: dict[str, Any], seat: int,
                     version: str, chosen: str | None = None, prefix: str = "") -> Panel:
        text = self.assign_text(row, game, view, seat)
        if seat not in game.actors():
            return Panel(text)
        legal = game.legal(seat)
        selects: list[discord.ui.Item] = []
        names = list(dict.fromkeys(a for a in map(move_action, legal) if a))
        fight = [n for n in names if n != TIME_LOOP
                 and ALL_ACTIONS[n].panel.startswith(("attack", "defense"))]
        other = [n for n in names if n not in fight]
        for tag, group, placeholder in (
                ("atk", fight, "⚔️ Attack / 🛡️ defense: choose an action"),
                ("act", other, "⚡ Immediate, Power Up, Duo: choose an action")):
            if not group:
                continue
            options = [self._action_option(game, seat, legal, n, n == chosen) for n in group]
            selects.append(KpSelect(tag, row.id, seat, version, options, placeholder))
        if chosen is not None:
            pick = self.dice_select(row, game, seat, version, legal, chosen, prefix)
            if pick is not None:
                selects.append(pick)
        undo = [m for m in legal if m.startswith("unassign ")]
        if undo:
            selects.append(KpSelect("undo", row.id, seat, version, [
                _option(f"↩️ {self.move_label(game, seat, m)}", m) for m in undo],
                "↩️ Take dice off an action"))
        buttons: list[discord.ui.Item] = [
            MoveButton(row.id, version, "lock", "Lock In", style=discord.ButtonStyle.success,
                       emoji="🔒")]
        for m in legal:
            if m.startswith("point "):
                buttons.append(MoveButton(row.id, version, m, f"Attack player {m[-1]}",
                                          style=discord.ButtonStyle.secondary, emoji="🎯"))
        buttons.append(TypeMoveButton(row.id))
        return Panel(text, fit_rows(selects, buttons))

    def _action_option(self, game: Game, seat: int, legal: list[str], name: str,
                       chosen: bool) -> discord.SelectOption:
        ways = len(_action_moves(legal, name))
        if name == TIME_LOOP:
            return _option("TIME LOOP (your ability): re-roll a die for free", name,
                           f"once a round · {ways} dice to choose from", chosen)
        a = ALL_ACTIONS[name]
        board = "" if a.board == "base" else (" · Duo board" if a.board == "duo"
                                              else f" · {a.board}")
        return _option(f"{a.name} — {a.text}", name,
                       f"needs {' '.join(a.requires)}{board} · {ways} way"
                       f"{'s' if ways != 1 else ''} to fill it", chosen)

    def dice_select(self, row: GameRow, game: Game, seat: int, version: str,
                    legal: list[str], chosen: str, prefix: str = "") -> KpSelect | None:
        moves = _action_moves(legal, chosen)
        if not moves:
            return None
        entries = narrow(moves, prefix)
        options = []
        for value, group in entries:
            if value.startswith(NARROW):
                options.append(_option(self._prefix_label(game, seat, value[1:], len(group)),
                                       value, f"{len(group)} choices: pick this to see them"))
            else:
                options.append(_option(self.move_label(game, seat, value), value))
        name = "TIME LOOP ability" if chosen == TIME_LOOP else chosen
        what = "the die to re-roll" if chosen == TIME_LOOP else f"the dice for {name}"
        if chosen != TIME_LOOP:
            what += f" ({' '.join(ALL_ACTIONS[chosen].requires)})"
        return KpSelect("pick", row.id, seat, version, options, f"🎲 Choose {what}")

    def _prefix_label(self, game: Game, seat: int, prefix: str, n: int) -> str:
        dice = _dice(game.view(seat))
        t = prefix.split()
        ids = [x for x in t if DIE.fullmatch(x)]
        name = move_action(prefix + " d0") or ""
        used = " + ".join(_die_text(dice.get(d), d) for d in ids) or "…"
        if t and t[-1] == "reroll":
            return f"{name}: {used}, then choose the re-roll ({n})"
        return f"{name}: {used} … ({n} choices)"

    def power_panel(self, row: GameRow, game: Game, view: dict[str, Any], seat: int,
                    version: str) -> Panel:
        me = view["players"][seat]
        lines = [self._head(row, view, seat, "Power Up")]
        mine = seat in game.actors()
        if mine:
            todo = me["todo"]
            if todo:
                lines.append("⚡ **Your Power Up actions**: " + "; ".join(
                    f"{n} ({ALL_ACTIONS[n].text})" for n in todo)
                    + ". Unused ones are given up when you press **Done**.")
            else:
                lines.append("⚡ You have no Power Up action of your own this round.")
        if me["pending"]:
            total = sum(x["amount"] for x in me["pending"])
            lines.append("⚠️ **Pending**: " + ", ".join(
                f"{x['source']} −{x['amount']} (from player {x['by'] + 1})"
                for x in me["pending"]) + f". **Take** it now, or the −{total} applies at the "
                "end of the Power Up phase.")
        lines.append("🎲 Your dice: " + ", ".join(
            f"{d['id']} {_die_name(d)}" for d in me["dice"])
            + (f" · unattached faces: {' '.join(me['unattached'])}" if me["unattached"] else "")
            + (" · abilities: " + ", ".join(x["name"] for x in me["locked_in"])
               if me["locked_in"] else "")
            + (f" · spoiler tokens: {me['spoilers']}" if me["spoilers"] else ""))
        pools = view["pools"]
        lines.append("🏦 Pool: trait dice " + ", ".join(
            f"{c} {n}" for c, n in pools["trait"].items()) + f"; action dice {pools['action']}; "
            "faces " + " ".join(f"{f}{n}" for f, n in pools["faces"].items()) + ".")
        if not mine:
            turn = view["turn"]
            lines.append("Waiting: " + (f"player {turn + 1} is powering up." if turn is not None
                                        else "the round goes on."))
            return Panel(clip("\n".join(lines), PANEL_TEXT_MAX))
        lines.append("Choose below (each action once); **Done** ends your Power Up.")
        legal = game.legal(seat)
        by_verb: dict[str, list[str]] = {}
        for m in legal:
            by_verb.setdefault(m.split()[0], []).append(m)
        selects: list[discord.ui.Item] = []
        buttons: list[discord.ui.Item] = []
        for verb, moves in by_verb.items():
            if verb in ("take", "done", "attach", "detach", "give"):
                continue
            if len(moves) == 1:
                buttons.append(MoveButton(row.id, version, moves[0],
                                          self.move_label(game, seat, moves[0]),
                                          style=discord.ButtonStyle.primary, emoji="⚡"))
            else:
                action = next((a for a in ALL_ACTIONS.values() if phrase_key(a.name) == verb),
                              None)
                title = action.name if action else verb
                selects.append(KpSelect(verb, row.id, seat, version, [
                    _option(self.move_label(game, seat, m), m) for m in moves],
                    f"⚡ {title}: choose"))
        faces = by_verb.get("attach", []) + by_verb.get("detach", [])
        if faces:
            selects.append(KpSelect("faces", row.id, seat, version, [
                _option(self.move_label(game, seat, m), m) for m in faces],
                "🔧 Attach / detach a face (any time in your Power Up)"))
        if by_verb.get("give"):
            selects.append(KpSelect("give", row.id, seat, version, [
                _option(self.move_label(game, seat, m), m) for m in by_verb["give"]],
                "🤝 Give a Duo board die to an ally"))
        if "take" in by_verb:
            buttons.append(MoveButton(row.id, version, "take", self.move_label(game, seat, "take"),
                                      style=discord.ButtonStyle.danger, emoji="💥"))
        buttons.append(MoveButton(row.id, version, "done", "Done",
                                  style=discord.ButtonStyle.success, emoji="✅"))
        buttons.append(TypeMoveButton(row.id))
        if len(buttons) > 10:  # keep Take / Done / typed; the rest can be typed
            buttons = buttons[:7] + buttons[-3:]

        def overflow(extra: list[discord.ui.Item]) -> discord.ui.Item | None:
            options: list[discord.SelectOption] = []
            for item in extra:
                options += list(getattr(item, "item", item).options)
            return KpSelect("more", row.id, seat, version, options[:SELECT_MAX],
                            "⚡ More choices")
        return Panel(clip("\n".join(lines), PANEL_TEXT_MAX), fit_rows(selects, buttons, overflow))

    # ---- component callbacks ------------------------------------------------------------------------
    async def on_select(self, interaction: discord.Interaction, tag: str, game_id: int,
                        seat: int, version: int | str, value: str) -> None:
        row, game = await self.bot.tables.load(game_id)
        if row.kind != self.KIND:
            raise RuleError(f"There is no KAPLOOM! game #{game_id}.")
        if row.status != "active":
            raise RuleError(f"Game #{game_id} is over.")
        if not 0 <= seat < len(row.players) or row.players[seat] != interaction.user.id:
            raise RuleError(f"This panel belongs to player {seat + 1} of game #{game_id}; "
                            "yours comes in your DMs (or `/kaploom panel`).")
        if tag in ("atk", "act") or value.startswith(NARROW):
            if version != f"p{await self.bot.store.seat_moves(row.id, seat)}":
                raise StaleMove(STALE_TEXT)
            if seat not in game.actors():
                raise RuleError("You have nothing to choose right now; wait for the game "
                                "thread.")
            legal = game.legal(seat)
            if value.startswith(NARROW):
                prefix = value[1:]
                chosen = move_action(prefix + " d0")
            else:
                chosen, prefix = value, ""
            if not chosen or not _action_moves(legal, chosen):
                raise RuleError(f"Your unplaced dice can no longer fill {chosen or value}. "
                                "Pick another action.")
            panel = self.panel(row, game, seat, str(version), chosen=chosen, prefix=prefix)
            await interaction.response.edit_message(view=view_of(*panel.items))
            return
        await self.on_move_component(interaction, game_id, version, value)

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
            return (f"{self._head(row, view, seat, 'game over')}\nThe game is over: the result "
                    "is in the game thread.")
        what = "Power Up" if view["stage"] == "power" else f"phase {view['phase']}"
        return (f"{self._head(row, view, seat, what)}\n✅ Nothing for you to choose right now; "
                "the game goes on in its thread.")

    def event_lines(self, row: GameRow, game: Game, e: Event) -> list[str]:
        """A public event as thread lines (the engine's words, with a little layout)."""
        k, d = e.kind, e.data
        if k == "immediate":
            seat = d.get("seat")
            who = (f"Player {seat + 1} ({mention(row.players[seat])})" if seat is not None
                   else "Someone")
            return [f"⚡ {who} used **{d.get('action', 'an immediate action')}**!"]
        if k == "reveal":
            return self.reveal_lines(row, game, e)
        if k == "attack" and d.get("defense") is not None:
            a, t = d["attacker"], d["target"]
            atk, dfn = d["attack"], d["defense"]
            left = d.get("defense_left", dfn["total"])
            defense = (formula(dfn) if dfn["base"] is not None
                       else "0 (no defense base)")
            if left != dfn["total"]:
                defense += f", {left} left after an earlier attack"
            loss = d.get("loss", 0)
            return [f"⚔️ Player {a + 1} → player {t + 1}: attack {formula(atk)} against "
                    f"defense {defense} → **{loss} damage**."]
        icons = {"phase": "📣", "attack": "⚔️", "loss": "💥", "block": "🛡️", "heal": "💚",
                 "ko": "💀", "lock": "🔒", "turn": "⚡", "gain": "🎁", "trigger": "👊",
                 "lock_in": "🔐", "first": "🏁", "done": "✅", "unused": "💤",
                 "spoilers": "📖", "trade": "🔄", "attach": "🔧", "detach": "🔧",
                 "give": "🤝", "revive": "✨", "result": "🏆"}
        text = e.text
        if k in ("phase", "ko"):
            text = f"**{text}**"
        return [f"{icons.get(k, '•')} {text}"]

    def reveal_lines(self, row: GameRow, game: Game, e: Event) -> list[str]:
        view = game.view(None)
        combat = view.get("combat") or {}
        if combat.get("round") != e.data.get("round"):
            return [f"🎬 {e.text}"]
        lines = [f"🎬 **Round {combat['round']}, Phase 2 — the screens come off!**"]
        for p in view["players"]:
            board = combat["boards"].get(str(p["seat"])) or []
            acts = " · ".join(
                f"**{b['action']}** (" + " ".join(FACE_NAMES[f] for f in b["faces"]) + ")"
                for b in board) or "no actions"
            line = f"• Player {p['seat'] + 1} ({_role(p)}): {acts}"
            target = (combat.get("pointers") or {}).get(str(p["seat"]))
            if view["mode"] == "2v2" and target is not None:
                line += f" — attacks player {target + 1}"
            lines.append(line)
        for t, board in enumerate(combat.get("duo") or []):
            if board:
                seats = [p["seat"] for p in view["players"] if p["team"] == t]
                lines.append("• Duo board of " + " + ".join(f"player {s + 1}" for s in seats)
                             + ": " + " · ".join(
                                 f"**{b['action']}** (" + " ".join(
                                     FACE_NAMES[f] for f in b["faces"]) + ")"
                                 + (f" for player {b['ally'] + 1}" if b.get("ally") is not None
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
        keys = {phrase_key(n): n for n in SUPERS}
        names: list[str | None] = []
        for seat, p in enumerate(parts):
            if phrase_key(p) in ("none", "no", "", "-"):
                names.append(None)
                continue
            name = keys.get(phrase_key(p))
            if name is None:
                raise RuleError(f"{p!r} is not a super: choose from {', '.join(SUPERS)}, or "
                                "none.")
            side = sides[seat]
            if SUPERS[name].side != side:
                fits = [n for n, s in SUPERS.items() if s.side == side]
                raise RuleError(f"Player {seat + 1} is a {side} here, but {name} is a "
                                f"{SUPERS[name].side} super. A {side} may be "
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
        opponent="Who you challenge (you are player 1)",
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
        side="The side of your team, players 1 and 2 (default hero)",
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
            note=(f"👥 **2 vs 2** — teams go by seat order: players 1 + 2 (the host and the first "
                  f"to join, the {us}es) against players 3 + 4 (the next two, the {them}s). "
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
            return [n for n, s in SUPERS.items() if s.side == side] + ["none"]
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
                f"P{i + 1} {n}" for i, n in enumerate(v.split(", ")))
            out.append(app_commands.Choice(name=label[:100], value=v[:100]))
        return out[:25]

    # ---- commands: reference --------------------------------------------------------------------------
    @staticmethod
    def board_text(board: str) -> list[str]:
        """The action table as text, grouped by panel."""
        def section(title: str, actions: tuple[Action, ...]) -> list[str]:
            lines = [f"__**{title}**__"]
            panel = None
            for a in actions:
                if a.panel != panel:
                    panel = a.panel
                    lines.append(f"*{panel}*")
                lines.append(f"• **{a.name}** ({' '.join(a.requires)}): {a.text}")
            return lines
        out: list[str] = []
        if board in ("base", "all") or board in SUPERS:
            out += section("The action board (every player)", ACTION_TABLE)
        for name in SUPERS:
            if board in (name, "all"):
                out += section(f"{name} ({SUPERS[name].side}, {SUPERS[name].health} health)",
                               tuple(a for a in SUPER_TABLE if a.board == name))
        if board in ("duo", "all"):
            out += section("The Duo board (2 vs 2, shared by allies)", DUO_TABLE)
        out.append("__**Requirements**__ " + "; ".join(
            f"`{s}` {sym.text}" for s, sym in SYMBOLS.items()))
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
        supers = tuple(SUPERS) if board == "all" else ((board,) if board in SUPERS else ())
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
        lines = [f"**KAPLOOM! game #{row.id}, round {view['round']}** — dice (the six faces "
                 "of each; `_` is blank)"
                 + (". The faces rolled this round stay behind the screens until the reveal."
                    if view["stage"] == "assign" else ".")]
        for s in seats:
            p = view["players"][s]
            lines.append(f"**Player {s + 1}** {mention(row.players[s])} — {_role(p)}, ❤️ "
                         f"{p['health']}/{p['max_health']}" + (" (KO)" if p["ko"] else ""))
            for d in p["dice"]:
                showing = (f" — showing {FACE_NAMES[d['up']]}" if d.get("up") is not None
                           else "")
                lines.append(f"  • {d['id']} {_die_name(d)}: `{_faces_line(d)}`{showing}")
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
        if action.strip().lower() == TIME_LOOP:
            move = f"timeloop {ids}" if ids.startswith("reroll") else f"timeloop reroll {ids}"
        else:
            move = f"assign {action.strip()} {ids}"
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = await self.play_move(row.id, interaction.user.id, move)
        mine = [e.text for e in played.events
                if e.to is not None and seat in e.to and e.kind in ("assign", "reroll")]
        await interaction.followup.send("✅ " + (" ".join(mine) or f"`{move}`")
                                        + " (secret until the reveal)", ephemeral=True)

    @assign.autocomplete("action")
    async def assign_action_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self._legal(interaction)
        if found is None:
            return []
        game, seat, legal = found
        key = phrase_key(current)
        out = []
        for name in dict.fromkeys(a for a in map(move_action, legal) if a):
            if key and key not in phrase_key(name):
                continue
            if name == TIME_LOOP:
                label = "timeloop — your TIME LOOP ability: re-roll one die for free"
            else:
                a = ALL_ACTIONS[name]
                label = f"{a.name} ({' '.join(a.requires)}) — {a.text}"
            out.append(app_commands.Choice(name=label[:100], value=name[:100]))
        return out[:25]

    @assign.autocomplete("dice")
    async def assign_dice_autocomplete(self, interaction: discord.Interaction, current: str):
        found = await self._legal(interaction)
        if found is None:
            return []
        game, seat, legal = found
        typed = str(getattr(interaction.namespace, "action", "") or "").strip()
        try:
            from bot.engine.kaploom.notation import action_named
            named = TIME_LOOP if typed.lower() == TIME_LOOP else (
                action_named(typed.split()) if typed else None)
        except RuleError:
            named = None
        name = named if isinstance(named, str) else getattr(named, "name", None)
        if name is None:
            return []
        out = []
        key = current.lower().strip()
        for m in _action_moves(legal, name):
            t = m.split()
            if t[0] == "assign":
                rest = " ".join(t[1 + len(name.split()):])
            else:
                rest = " ".join(t[1:])
            if key and key not in rest.lower():
                continue
            out.append(app_commands.Choice(name=self.move_label(game, seat, m)[:100],
                                           value=rest[:100]))
        return out[:25]

    async def _legal(self, interaction: discord.Interaction
                     ) -> tuple[Game, int, list[str]] | None:
        """legal_for, only while the caller may act."""
        found = await self.legal_for(interaction)
        return found if found is not None and found[1] in found[0].actors() else None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KaploomCog(bot))
