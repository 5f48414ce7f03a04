"""Every legal move in a player's words (`Game.describe`), and the attack menu the screens
group moves by. Computed here, from the rules' own tables, so no screen words a rule itself.

Labels fit a button or a select option (at most 80 characters) and name characters as
"Malice (Ada)"; effects say what the move will do, with the numbers explained where they
first appear ("needs 6+ on a d8: 38% before any defense").
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core import MoveText
from . import board as B
from . import notation as N
from .data import BOOST, CHEAP_SHOT_BOOST, SPECIAL_TABLE

if TYPE_CHECKING:
    from .game import DeathByDice

LABEL_MAX = 80
ATTACK_NAMES = {"ability": "Ability Attack", "boosted": "Boosted Ability Attack",
                "complex": "Complex Attack"}


def clip(text: str, limit: int = LABEL_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@lru_cache(maxsize=512)
def _sum_counts(sizes: tuple[int, ...]) -> tuple[int, ...]:
    """How many ways each total (index) comes up when dice of these sizes are summed."""
    counts = [1]
    for size in sizes:
        out = [0] * (len(counts) + size)
        for total, ways in enumerate(counts):
            if ways:
                for face in range(1, size + 1):
                    out[total + face] += ways
        counts = out
    return tuple(counts)


def chance_at_least(sizes: tuple[int, ...], need: int) -> float:
    """The chance that the dice sum to `need` or more."""
    counts = _sum_counts(tuple(sizes))
    total = sum(counts)
    return sum(counts[max(need, 0):]) / total if total else 0.0


def percent(p: float) -> str:
    if 0 < p < 0.005:
        return "under 1%"
    if 0.995 < p < 1:
        return "over 99%"
    return f"{round(p * 100)}%"


def boost_now(g: "DeathByDice") -> int:
    """What a Boosted Ability Attack adds right now: +4 once Cheap Shot is declared."""
    return CHEAP_SHOT_BOOST if g.armed == "cheap-shot" else BOOST


def needed_roll(type_: str, bonus: int, against: int) -> int:
    """The roll (dice only) that wins: Ability Attacks win on equal, the others need more."""
    return against - bonus if type_ == "ability" else against - bonus + 1


def group_key(type_: str, dice: list[str]) -> str:
    return f"{type_} {'+'.join(dice)}"


def group_label(g: "DeathByDice", fi: int, type_: str, dice: list[str]) -> str:
    """The attacking half of an attack: "Boosted · STR d8 +2 from AGI"."""
    f = g.fighters[fi]
    if type_ == "ability":
        return f"Ability · {dice[0]} d{f['dice'][dice[0]]}"
    if type_ == "boosted":
        return f"Boosted · {dice[0]} d{f['dice'][dice[0]]} +{boost_now(g)} from {dice[1]}"
    sizes = "+".join(f"d{f['dice'][d]}" for d in dice)
    return f"Complex · {'+'.join(dice)} ({sizes})"


def group_effect(g: "DeathByDice", fi: int, type_: str, dice: list[str]) -> str:
    f = g.fighters[fi]
    if type_ == "ability":
        return (f"Roll your {dice[0]} d{f['dice'][dice[0]]} against the same ability of an "
                "opponent: equal or more wins.")
    if type_ == "boosted":
        return (f"Roll your {dice[0]} d{f['dice'][dice[0]]} and add {boost_now(g)} because "
                f"{dice[1]} sits next to it (it is re-rolled afterwards): more than the target "
                "wins; any opponent's die may be the target.")
    rolled = " + ".join(f"{d} d{f['dice'][d]}" for d in dice)
    return (f"Roll {rolled} (Linked: same colour) "
            "and add them up: more than the target wins. A loss costs you one of these dice, "
            "and doubles cost the two dice that rolled them.")


def target_text(g: "DeathByDice", fi: int, ability: str) -> str:
    value = g.fighters[fi]["values"][ability]
    return f"{ability} {value} of {g.label(fi)}"


def attack_parts(g: "DeathByDice", p: dict[str, Any]) -> tuple[int, int, list[str]]:
    """(attacker, target, attacking dice) of a parsed `attack` move."""
    fi = g.active
    target = g.resolve_ref(p["ref"], "character you target")
    dice = p["dice"] if p["type"] != "complex" else N.ring_sorted(p["dice"])
    return fi, target, dice


def describe_attack(g: "DeathByDice", p: dict[str, Any]) -> MoveText:
    fi, target, dice = attack_parts(g, p)
    type_, ability = p["type"], p["ability"]
    f = g.fighters[fi]
    tv = g.fighters[target]["values"][ability]
    bonus = boost_now(g) if type_ == "boosted" else 0
    sizes = tuple(f["dice"][d] for d in (dice[:1] if type_ == "boosted" else dice))
    need = needed_roll(type_, bonus, tv)
    odds = chance_at_least(sizes, need)
    label = clip(f"{group_label(g, fi, type_, dice)} → {target_text(g, target, ability)}")
    roll = " + ".join(f"d{s}" for s in sizes) + (f" + {bonus}" if bonus else "")
    rule = "equal or more" if type_ == "ability" else "more"
    if odds <= 0:
        chance = f"the dice cannot reach {need}"
    else:
        chance = f"it wins on a roll of {max(need, 1)}+: {percent(odds)} before any defense"
    effect = (f"{ATTACK_NAMES[type_]}: roll {roll} against {ability} {tv} of "
              f"{g.label(target)} ({rule} wins); {chance}. A win discards their {ability}.")
    if type_ == "complex":
        effect += " A loss, or doubles, discard dice of yours."
    return MoveText(label, effect)


def describe_defend(g: "DeathByDice", p: dict[str, Any]) -> MoveText:
    a = g.attack
    tf = g.fighters[a["target"]]
    ability = a["ability"]
    stands = tf["values"][ability]
    if p["type"] == "none":
        return MoveText(f"No defense: {ability} stands at {stands}",
                        f"The attack is rolled against your {ability} {stands} alone.")
    d = p["die"]
    if p["type"] == "boosted":
        bonus = BOOST
        why = f"{d} sits next to {ability}, so it adds {BOOST}"
    else:
        bonus = tf["values"][d]
        why = f"{d} has {ability}'s colour (Linked), so it adds its value {bonus}"
    type_ = "Boosted" if p["type"] == "boosted" else "Linked"
    return MoveText(f"{type_} Defense: +{bonus} from {d} → {stands + bonus}",
                    f"{why}: you defend at {stands + bonus}. {d} is re-rolled after the "
                    "attack.")


def describe_special(g: "DeathByDice", p: dict[str, Any], seat: int) -> MoveText:
    key, dice = p["name"], p["dice"]
    name, _, does = SPECIAL_TABLE[key]
    a = g.attack
    effect = f"{name} ({does}); once per combat."
    if key == "cheap-shot":
        return MoveText(f"{name}: this turn's Boosted Attack adds +{CHEAP_SHOT_BOOST}", effect)
    if key == "rampage":
        return MoveText(f"{name}: one extra Ability Attack now", effect)
    if key == "cook-the-books":
        f = g.fighters[g.active]
        x, y = N.ring_sorted(dice)
        return MoveText(f"{name}: swap {x} {f['values'][x]} ↔ {y} {f['values'][y]}",
                        f"{effect} Afterwards {x} is {f['values'][y]} and {y} is "
                        f"{f['values'][x]}; you then attack.")
    if key == "misdirection":
        tf = g.fighters[a["target"]]
        d = dice[0]
        return MoveText(f"{name}: move the attack from {a['ability']} to {d} "
                        f"({tf['values'][d]})", effect)
    if key == "loaded-dice":
        d = dice[0]
        rolled = a["rolls"][d]
        size = g.fighters[a["attacker"]]["dice"][d]
        total, against = attack_total(g)
        return MoveText(f"{name}: re-roll {d} (rolled {rolled} on a d{size})",
                        f"{effect} Your attack now totals {total} against {against}: "
                        f"{'winning' if attack_wins(a['type'], total, against) else 'losing'}.")
    if key == "thick-skull":
        ability = a["ability"]
        return MoveText(f"{name}: re-roll {ability} instead of losing it", effect)
    return MoveText(name, effect)


def attack_total(g: "DeathByDice") -> tuple[int, int]:
    """(the attack's total as rolled, what it must beat) before it is resolved."""
    a = g.attack
    tf = g.fighters[a["target"]]
    against = tf["values"][a["ability"]]
    if a["defense"] is not None:
        d = a["defense"]
        against += d["bonus"] if d["type"] == "boosted" else tf["values"][d["die"]]
    return sum(a["rolls"].values()) + a["bonus"], against


def attack_wins(type_: str, total: int, against: int) -> bool:
    return total >= against if type_ == "ability" else total > against


def describe_pass(g: "DeathByDice") -> MoveText:
    a = g.attack
    if g.stage == "loaded":
        total, against = attack_total(g)
        state = "wins" if attack_wins(a["type"], total, against) else "fails"
        return MoveText("Keep the roll (no Loaded Dice)",
                        f"Your attack stands at {total} against {against} and {state}.")
    if g.stage == "thick_skull":
        ability = a["ability"]
        value = g.fighters[a["target"]]["values"][ability]
        return MoveText(f"No Thick Skull: lose {ability} ({value})",
                        "Thick Skull stays unused for a later attack this combat.")
    if g.stage == "rampage":
        return MoveText("No Rampage: end the turn",
                        "Rampage stays unused for a later Complex Attack this combat.")
    return MoveText("Pass", "Let the moment go.")


def describe_discard(g: "DeathByDice", p: dict[str, Any]) -> MoveText:
    a = g.attack
    rolls = a["rolls"] or {}
    dice = N.ring_sorted(p["dice"])
    shown = ", ".join(f"{d} {rolls[d]}" if d in rolls else d for d in dice)
    lost = a["result"] == "lost"
    why = ("the attack was lost and doubles were rolled" if lost and len(dice) > 2 else
           "doubles were rolled" if len(dice) >= 2 else "the attack was lost")
    keep = [d for d in a["dice"] if d not in dice]
    effect = f"These dice leave your board because {why}"
    effect += f"; you keep {', '.join(keep)}." if keep else "."
    return MoveText(f"Discard {shown}", effect)


def describe_setup(g: "DeathByDice", p: dict[str, Any], seat: int) -> MoveText:
    mine = g.seat_fighters(seat)
    if p["ref"] is not None:
        fi = g.resolve_ref(p["ref"], "character you set up")
    else:
        fi = next(i for i in mine if g.fighters[i]["arranged"] is None)
    values = p["values"]
    body = " · ".join(f"{a} {values[a]}" for a in B.boxes(g.fighters[fi]) if a in values)
    total = sum(values.values())
    prefix = f"{g.fighters[fi]['character']}: " if len(mine) > 1 else ""
    return MoveText(clip(f"{prefix}{body} (total {total})"),
                    f"Place these values on {g.label(fi)}'s board (total {total}); nobody "
                    "sees them until everyone has set up, and the lowest total attacks first.")


@lru_cache(maxsize=4096)
def _read(move: str, players: int) -> dict[str, Any]:
    """A move as `notation.parse` reads it, kept: a turn card words every attack it lists
    (dozens a move) and the same few hundred moves come back turn after turn; parsing them
    was half of wording them. Read only: the describers never change what they are given."""
    return N.parse(move, players)


def describe_move(g: "DeathByDice", move: str, seat: int) -> MoveText:
    p = _read(move, g.players)
    verb = p["verb"]
    if verb == "setup":
        return describe_setup(g, p, seat)
    if verb == "attack" and g.active is not None:
        return describe_attack(g, p)
    if verb == "defend" and g.attack is not None:
        return describe_defend(g, p)
    if verb == "special":
        return describe_special(g, p, seat)
    if verb == "pass":
        return describe_pass(g)
    if verb == "discard" and g.attack is not None:
        return describe_discard(g, p)
    return MoveText(move.capitalize())


def attack_groups(g: "DeathByDice") -> list[dict[str, Any]]:
    """The attacker's legal attacks grouped by type and dice, in the engine's order:
    [{key, type, dice ("AGI+STR"), label, effect, moves, targets: [{move, target ("@2:CON"),
    label}]}], so a screen can ask "which attack?" then "which target?"."""
    if g.stage != "declare" or g.active is None or g.result is not None:
        return []
    fi = g.active
    labels = {o: g.label(o) for o in g.opponents(fi)}
    groups = []
    for type_, dice, targets in g.attack_table(fi, g.armed):
        head = f"attack {type_} {'+'.join(dice)} -> "
        moves = [head + ref for _, _, ref in targets]
        groups.append({
            "key": group_key(type_, list(dice)), "type": type_, "dice": "+".join(dice),
            "label": group_label(g, fi, type_, list(dice)),
            "effect": group_effect(g, fi, type_, list(dice)), "moves": moves,
            "targets": [{"move": m, "target": ref,
                         "label": clip(f"{ability} {g.fighters[o]['values'][ability]} of "
                                       f"{labels[o]}")}
                        for m, (o, ability, ref) in zip(moves, targets)]})
    return groups
