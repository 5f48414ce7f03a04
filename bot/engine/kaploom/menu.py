"""KAPLOOM! for the screens: a seat's moves grouped as a player chooses them (`Game.menu`) and,
in words, whose step it is, what to do and why not you (`Game.prompt`).

Phase 1 (secret): one group per action the unplaced dice can fill (key: the action's name in
lower case, at most 12 letters), its moves the ways to fill it, each under the `step` of the
first die it uses (a long list narrows by that die). The group's emoji says what kind of action
it is (`KIND_EMOJI`: ⚔️ attack and 🛡️ defense are the fight; ⚡ at once, 🔋 power up, 🔐 lock
in, 🤝 Duo board, 🔁 the TIME LOOP ability, key "timeloop" like the action, which it
replaces once locked in), then "undo", "point" (2 vs 2) and "lock".
Power Up: one group per action with a choice (key: its verb), then "faces", "give", "take"
and "done". Labels and effects are `describe()`'s; players are named, never seat codes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import join_names
from ..menu import MenuGroup, MenuItem, Pick, Tone, pick_for
from .data import Action
from .describe import die_words, read

if TYPE_CHECKING:
    from .game import Kaploom

KIND_EMOJI = {"attack": "⚔️", "defense": "🛡️", "immediate": "⚡", "power up": "🔋",
              "lock in": "🔐", "duo": "🤝", "ability": "🔁"}
FIGHT = (KIND_EMOJI["attack"], KIND_EMOJI["defense"])
KEY_MAX = 12


def key_of(name: str) -> str:
    """An action's group key: its letters and digits in lower case (`SUCKER PUNCH` ->
    `suckerpunch`), at most 12."""
    return "".join(c for c in name.lower() if c.isascii() and c.isalnum())[:KEY_MAX]


def _kind(action: Action) -> str:
    if action.board == "duo":
        return "duo"
    for kind in ("attack", "defense", "immediate", "power up"):
        if action.panel.startswith(kind):
            return kind
    return "lock in" if action.lock_in else "power up"


def _item(g: "Kaploom", seat: int, move: str, step: str = "") -> MenuItem:
    return g.menu_item(move, seat, step)


def groups(g: "Kaploom", seat: int) -> list[MenuGroup]:
    return _phase1(g, seat) if g.stage == "assign" else _power_up(g, seat)


def _phase1(g: "Kaploom", seat: int) -> list[MenuGroup]:
    actions: dict[str, tuple[Action | None, list[MenuItem]]] = {}
    undo: list[MenuItem] = []
    point: list[MenuItem] = []
    lock: list[MenuItem] = []
    for move in g.legal(seat):
        m = read(g, move)
        verb, action = m["verb"], m["action"]
        if verb == "timeloop":
            actions.setdefault("timeloop", (None, []))[1].append(
                _item(g, seat, move, die_words(g, m["rerolls"][0]) if m["rerolls"] else ""))
        elif verb == "unassign":
            undo.append(_item(g, seat, move))
        elif verb == "point":
            point.append(_item(g, seat, move))
        elif verb == "lock":
            lock.append(_item(g, seat, move))
        elif action is not None:
            first = m["dice"][0] if m["dice"] else ""
            actions.setdefault(action.name, (action, []))[1].append(
                _item(g, seat, move, die_words(g, first) if first else ""))
    fight = [k for k, (a, _) in actions.items() if a is not None and _kind(a) in
             ("attack", "defense")]
    out: list[MenuGroup] = []
    for name in fight + [k for k in actions if k not in fight]:
        action, items = actions[name]
        if action is None:
            out.append(MenuGroup("timeloop", "TIME LOOP (your ability): re-roll one unplaced "
                                 "die for free", tuple(items), Pick.SELECT, "once a round",
                                 emoji=KIND_EMOJI["ability"]))
            continue
        where = {"base": "", "duo": " · Duo board"}.get(action.board, f" · {action.board}")
        out.append(MenuGroup(key_of(action.name), f"{action.name} — {action.text}",
                             tuple(items), Pick.SELECT,
                             f"needs {' '.join(action.requires)}{where}",
                             emoji=KIND_EMOJI[_kind(action)]))
    if undo:
        out.append(MenuGroup("undo", "Take dice off an action", tuple(undo), Pick.SELECT,
                             "they go back to your unplaced dice", Tone.QUIET, "↩️"))
    if point:
        out.append(MenuGroup("point", "Choose the opponent you attack", tuple(point),
                             Pick.BUTTONS, "", Tone.QUIET, "🎯"))
    if lock:
        out.append(MenuGroup("lock", "Lock In", tuple(lock), Pick.BUTTONS,
                             "your placements are final", Tone.GOOD, "🔒"))
    return out


def _power_up(g: "Kaploom", seat: int) -> list[MenuGroup]:
    by_action: dict[str, tuple[Action, list[MenuItem]]] = {}
    faces: list[MenuItem] = []
    give: list[MenuItem] = []
    take: list[MenuItem] = []
    done: list[MenuItem] = []
    for move in g.legal(seat):
        m = read(g, move)
        verb, action = m["verb"], m["action"]
        if verb == "take":
            take.append(_item(g, seat, move))
        elif verb == "done":
            done.append(_item(g, seat, move))
        elif verb in ("attach", "detach"):
            faces.append(_item(g, seat, move, die_words(g, m["dice"][0], face=False)))
        elif verb == "give":
            give.append(_item(g, seat, move))
        elif action is not None:
            by_action.setdefault(action.name, (action, []))[1].append(_item(g, seat, move))
    out: list[MenuGroup] = []
    for name, (action, items) in by_action.items():
        out.append(MenuGroup(key_of(name), f"{name} — {action.text}", tuple(items),
                             pick_for(len(items)), emoji="⚡"))
    if faces:
        out.append(MenuGroup("faces", "Attach or detach a face", tuple(faces), Pick.SELECT,
                             "any time in your Power Up", Tone.QUIET, "🔧"))
    if give:
        out.append(MenuGroup("give", "Give a Duo board die to an ally", tuple(give),
                             Pick.SELECT, "", Tone.MAIN, "🤝"))
    if take:
        out.append(MenuGroup("take", "Take your pending loss now", tuple(take), Pick.BUTTONS,
                             "untaken, it applies at the end of Power Up", Tone.RISKY, "💥"))
    out.append(MenuGroup("done", "Done powering up", tuple(done), Pick.BUTTONS,
                         "unused actions are given up", Tone.QUIET, "✅"))
    return out


# --- the prompt ---------------------------------------------------------------------------------

def _names(g: "Kaploom", seats) -> str:
    return join_names([g.name(s) for s in seats])


def status(g: "Kaploom") -> str:
    if g.stage == "roll" or g.rerolls:
        return "The dice are rolling."
    if g.stage == "assign":
        waiting = [s for s in range(g.players) if not g.seats[s]["locked"]]
        ready = [s for s in range(g.players) if g.seats[s]["locked"]]
        text = f"Waiting for {_names(g, waiting)} to place their dice in secret"
        if ready:
            text += f"; {_names(g, ready)} {'is' if len(ready) == 1 else 'are'} locked in"
        return text + "."
    turn = g.order[g.turn]
    rest = g.order[g.turn + 1:]
    return (f"Waiting for {g.name(turn)} to finish powering up"
            + (f" (then {' then '.join(g.name(s) for s in rest)})" if rest else "") + ".")


def todo(g: "Kaploom", seat: int) -> str:
    p = g.seats[seat]
    if g.stage == "assign":
        at_once = [a.name for a in g.actions_of(seat) if a.immediate]
        text = ("Put your dice on actions in secret: choose an action, then the dice for it "
                "(only dice that fit are offered); you can take dice back until you Lock In. "
                f"{join_names(at_once)} happen at once, and the others hear only the name. "
                "When time runs out, whatever is placed is locked in.")
        if not g.duel and not p["ko"] and p["pointer"] is None:
            text += (" Point at the opponent you attack; Lock In without one attacks the "
                     "standing opponent with the lowest health.")
        if p["ko"]:
            text = ("You are knocked out: you may still place dice on your team's Duo board, "
                    "then Lock In.")
        return text
    text = ("Your Power Up: use your actions"
            + (f" ({join_names(p['todo'])})" if p["todo"] else "")
            + " in any order, each once, and attach or detach faces freely; then Done "
            "(unused actions are given up).")
    if p["pending"]:
        n = sum(x["amount"] for x in p["pending"])
        text += (f" A loss of {n} health waits for you: take it when you choose, or it "
                 "applies at the end of Power Up.")
    return text


def waiting(g: "Kaploom", seat: int) -> str:
    if g.stage == "roll" or g.rerolls:
        return "It is not your move: the dice are rolling."
    if g.stage == "assign":
        left = [s for s in range(g.players) if not g.seats[s]["locked"]]
        return f"You are locked in for this round; the reveal waits for {_names(g, left)}."
    turn = g.order[g.turn]
    order = " → ".join(g.name(s) for s in g.order)
    text = f"It is {g.name(turn)}'s Power Up (turn order: {order}); "
    if g.seats[seat]["ko"]:
        return text + "you are knocked out, so you have no Power Up this round."
    if seat in g.order[g.turn + 1:]:
        return text + "yours comes after."
    return text + "yours is done for this round."
