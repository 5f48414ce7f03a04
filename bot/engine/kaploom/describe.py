"""KAPLOOM! moves in a player's words (the screens' grouping of them is menu.py).

`describe(g, move, seat)` answers `Game.describe`: a short label for a button or a select
("POW: d2 red Might + d4 yellow Energy") and what the move will do, computed by the rules code
("attack base 3 — your attack would be 3 (now no attack)"). It reads moves with the engine's
own notation helpers; players are named by `g.name()`.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ..core import MoveText, parse_seat
from . import combat
from .data import ALL_ACTIONS, FACE_NAMES, Action
from .notation import (PHASE1_VERBS, PHASE3_VERBS, action_named, die_id, is_die, split_verb,
                       verb as verb_of)
from .phase1 import IMMEDIATE_VERB
from .phase3 import VERBS as RESOLVE_VERBS

if TYPE_CHECKING:
    from .game import Kaploom

LABEL_MAX = 80
VERB_ACTION = {verb_of(a): a for a in ALL_ACTIONS.values()}


def _clip(text: str, n: int = LABEL_MAX) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def die_words(g: "Kaploom", d: str, face: bool = True) -> str:
    """`d2 red: Might` (the face only while one is showing)."""
    die = g.dice.get(d)
    if die is None:
        return d
    what = die["colour"] if die["kind"] == "trait" else "action die"
    text = f"{d} {what}"
    if face and die.get("up") is not None:
        text += f" ({FACE_NAMES[die['up']]})"
    return text


def _dice(g: "Kaploom", ids: list[str]) -> str:
    """Short, for a label: `d2 Wild + d5 Might` (the face showing is what counts)."""
    out = []
    for d in ids:
        up = (g.dice.get(d) or {}).get("up")
        out.append(f"{d} {FACE_NAMES[up]}" if up is not None else d)
    return " + ".join(out)


def read(g: "Kaploom", move: str) -> dict[str, Any]:
    """A legal move taken apart into what it is about: verb, action, dice, re-rolls, ally,
    target, faces, colour. Only for moves `legal()` gave (the engine's own notation).

    A menu reads every legal move, and wording one reads it again: a reading depends only on
    the text, the number of players and whether the round is in its assignment, so a move
    read before is looked up (a copy: the caller may keep it)."""
    return dict(_read(move, g.players, g.stage == "assign"))


@functools.lru_cache(maxsize=4096)
def _read(move: str, players: int, assigning: bool) -> dict[str, Any]:
    tokens = move.split()
    found = split_verb(tokens, PHASE1_VERBS + PHASE3_VERBS + RESOLVE_VERBS)
    out: dict[str, Any] = {"verb": "", "action": None, "dice": [], "rerolls": [], "ally": None,
                           "target": None, "faces": [], "colour": None}
    if found is None:
        return out
    verb, args = found
    out["verb"] = verb
    if verb in ("assign", "unassign"):
        k = 0
        while k < len(args) and not is_die(args[k]) and not args[k].startswith("@"):
            k += 1
        out["action"] = action_named(args[:k]) if k else None
        rest = args[k:]
        if rest and rest[-1].startswith("@"):
            out["ally"] = parse_seat(rest[-1], players)
            rest = rest[:-1]
        out["dice"] = [die_id(t) for t in rest]
    elif verb in IMMEDIATE_VERB:
        out["action"] = ALL_ACTIONS[IMMEDIATE_VERB[verb]]
        low = [a.lower() for a in args]
        k = low.index("reroll") if "reroll" in low else len(args)
        out["dice"] = [die_id(t) for t in args[:k]]
        out["rerolls"] = [die_id(t) for t in args[k + 1:]]
    elif verb == "timeloop" and assigning:   # the locked-in ability (Power Up:
        out["rerolls"] = [die_id(t) for t in args[1:]]  # `timeloop` locks the action in)
    elif verb == "point":
        out["target"] = parse_seat(args[0], players)
    elif verb in ("attach", "detach"):
        out["dice"] = [die_id(args[0])]
        out["faces"] = [args[1].upper()]
    elif verb == "give":
        out["dice"] = [die_id(args[0])]
        out["target"] = parse_seat(args[1], players)
    elif verb in RESOLVE_VERBS:
        out["action"] = VERB_ACTION.get(verb)
        for a in args:
            if a.startswith("@"):
                out["target"] = parse_seat(a, players)
            elif a.lower() in ("red", "yellow", "blue", "purple", "green"):
                out["colour"] = a.lower()
            else:
                out["faces"].append(a.upper())
    return out


def _sum_words(comp: dict[str, Any], what: str) -> str:
    if comp["base"] is None:
        return f"no {what}" if what == "attack" else "defense 0"
    return f"{what} {comp['total']}"


def _preview(g: "Kaploom", seat: int, action: Action) -> str:
    """What placing `action` does to the seat's attack or defense this round."""
    from .phase2 import _extra_attack, _extra_defense
    p = g.seats[seat]
    now = g.placed_here(seat)
    if action.panel.startswith("attack"):
        def atk(actions):
            return combat.attack(actions, action_dice=g.action_dice_count(seat),
                                 spoilers=p["spoilers"], extra_kickers=_extra_attack(g, seat))
        before, after = atk(now), atk(now + [action])
        if after["base"] is None:
            return "; it counts once you also have an attack base"
        return f"; your attack would be {after['total']} (now {_sum_words(before, 'attack')})"
    if action.panel.startswith("defense"):
        def dfn(actions):
            return combat.defense(actions, locked_in=g.locked_in(seat), spoilers=p["spoilers"],
                                  extra_kickers=_extra_defense(g, seat))
        before, after = dfn(now), dfn(now + [action])
        if after["base"] is None:
            return "; it counts once you also have a defense base"
        return (f"; your defense would be {after['total']}"
                f" (now {_sum_words(before, 'defense')})")
    return ""


def describe(g: "Kaploom", move: str, seat: int) -> MoveText:
    m = read(g, move)
    verb, action = m["verb"], m["action"]
    if verb == "assign" and action is not None:
        label = f"{action.name}: {_dice(g, m['dice'])}"
        effect = action.text
        if m["ally"] is not None:
            label += f" for {g.name(m['ally'])}"
            effect += f" ({g.name(m['ally'])} gets it)"
        if action.board == "duo":
            effect += " — on your team's Duo board"
        return MoveText(_clip(label), effect + _preview(g, seat, action))
    if verb in IMMEDIATE_VERB and action is not None:
        if m["rerolls"]:
            label = (f"{action.name}: use {_dice(g, m['dice'])}, re-roll "
                     + " + ".join(die_words(g, d) for d in m["rerolls"]))
            effect = (f"happens at once: {', '.join(m['rerolls'])} rolled again in secret; "
                      f"the others hear only \"{action.name}\"")
        else:
            label = f"{action.name}: use {_dice(g, m['dice'])}"
            effect = f"happens at once: {action.text}; the others hear only \"{action.name}\""
        return MoveText(_clip(label), effect)
    if verb == "timeloop" and g.stage == "assign":
        d = m["rerolls"][0] if m["rerolls"] else "?"
        return MoveText(_clip(f"TIME LOOP ability: re-roll {die_words(g, d)}"),
                        "free, once a round; the others hear only \"TIME LOOP\"")
    if verb == "unassign" and action is not None:
        board = g.duo[g.seats[seat]["team"]] if action.board == "duo" and not g.duel \
            else g.seats[seat]["board"]
        ids = board.get(action.name, {}).get("dice", [])
        return MoveText(_clip(f"Take the dice off {action.name}"),
                        f"{', '.join(ids) or 'its dice'} go back to your unplaced dice")
    if verb == "point" and m["target"] is not None:
        t = m["target"]
        return MoveText(_clip(f"Attack {g.name(t)} this round"),
                        f"{g.name(t)} has {g.seats[t]['health']} health")
    if verb == "lock":
        return MoveText("Lock In", "your placements are final; the screens come off when "
                                   "everyone has locked in")
    if verb == "take":
        pend = g.seats[seat]["pending"]
        n = sum(x["amount"] for x in pend)
        return MoveText(f"Take my pending loss now (−{n} health)",
                        "from " + ", ".join(f"{x['source']} ({g.name(x['by'])})" for x in pend)
                        + "; untaken, it applies at the end of Power Up")
    if verb == "done":
        left = g.seats[seat]["todo"]
        return MoveText("Done powering up",
                        ("leaves " + ", ".join(left) + " unused") if left
                        else "the next player powers up")
    if verb in ("attach", "detach") and m["dice"] and m["faces"]:
        d, f = m["dice"][0], m["faces"][0]
        die = g.dice[d]
        now = list(die["faces"])
        after = now + [f] if verb == "attach" else [x for i, x in enumerate(now)
                                                     if i != now.index(f)]
        fn = FACE_NAMES.get(f, f)
        label = f"Attach {fn} to {d}" if verb == "attach" else f"Detach {fn} from {d}"
        return MoveText(label, f"{d} faces: {' '.join(now) or 'none'} → "
                               f"{' '.join(after) or 'none'}")
    if verb == "give" and m["dice"] and m["target"] is not None:
        d = m["dice"][0]
        return MoveText(_clip(f"Give {die_words(g, d, face=False)} to {g.name(m['target'])}"),
                        "the Duo board die becomes theirs")
    if action is not None:
        what = ""
        if m["colour"]:
            what = f"a {m['colour']} trait die"
            if m["target"] is not None:
                what += f" for {g.name(m['target'])}"
        elif m["faces"] and action.effect == "trade_face":
            what = (f"return {FACE_NAMES.get(m['faces'][0])}, take "
                    f"{FACE_NAMES.get(m['faces'][1])}")
        elif m["faces"]:
            what = " + ".join(FACE_NAMES.get(f, f) for f in m["faces"])
        label = f"{action.name}: {what}" if what else action.name
        return MoveText(_clip(label), action.text)
    return MoveText(_clip(f"Move: {move}"), "")
