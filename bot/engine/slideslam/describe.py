"""Every legal move of Slide and Slam in a player's words (`Game.describe`): a label that fits
a button or a select option (at most 80 characters) and an effect sentence, worked out by the
rules code itself (reach, slam areas, damage, the Power Token), so no screen words a rule.

Dice are called by letter and health ("B (5)"); players by their names.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import MoveText, RuleError, phrase_key
from .data import (AWAKENED_STEPS, BEND_PHRASE, INVOCATION_KEY, LETTERS, NORMAL_DAMAGE,
                   SUPER_DAMAGE)
from .notation import parse

if TYPE_CHECKING:
    from .game import SlideSlam

LABEL_MAX = 80


def clip(text: str, limit: int = LABEL_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def die_word(g: "SlideSlam", letter: str) -> str:
    """"B (5)": a die by its letter and health; "awakened C (1)" for the awakened one."""
    d = g.dice[letter]
    return f"{'awakened ' if d['awakened'] else ''}{letter} ({d['health']})"


def hits_text(g: "SlideSlam", letter: str) -> str:
    """"X (3→2) and W (1→0, destroyed)": what a slam by `letter` would do now."""
    dmg = SUPER_DAMAGE if g._is_super(letter) else NORMAL_DAMAGE
    parts = []
    for t in g.slam_targets(letter):
        before = g.dice[t]["health"]
        after = max(before - dmg, 0)
        parts.append(f"{t} ({before}→{after}{', destroyed' if after == 0 else ''})")
    if not parts:
        return "nothing"
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def _area_words(g: "SlideSlam", letter: str) -> str:
    if g._is_super(letter):
        return (f"a Super Slam (health 1): {SUPER_DAMAGE} damage to every enemy die in its row "
                "and column, out to the edges")
    return f"{NORMAL_DAMAGE} damage to each enemy die right next to it (up, down, left, right)"


def describe(g: "SlideSlam", move: str, seat: int) -> MoveText:
    try:
        mv = parse(move, g.columns, g.rows)
    except RuleError:
        return MoveText(clip(move), "Not a Slide and Slam move.")
    foe = 1 - seat
    other = g.name(foe)
    verb = mv.verb
    if verb == "place" and len(mv.pairs) == 1:
        sq, value = mv.pairs[0]
        letter = next((k for k in LETTERS[seat] if g.dice[k]["square"] is None
                       and g.dice[k]["start"] == value), None)
        left = sum(1 for k in LETTERS[seat] if g.dice[k]["square"] is None) - 1
        who = f"die {letter} (health {value})" if letter else f"a die of health {value}"
        return MoveText(clip(f"Place {who} on {sq}"),
                        f"Puts {who} on {sq}, hidden behind the Wall of Unknowing; "
                        + (f"{left} more to place after this." if left > 0 else
                           "that is all six: then confirm."))
    if verb == "place":
        what = ", ".join(f"{v} on {sq}" for sq, v in mv.pairs)
        return MoveText(clip(f"Place dice: {what}"), f"Puts dice of health {what}, hidden "
                        "behind the Wall of Unknowing.")
    if verb == "unplace":
        ref = mv.refs[0]
        k = ref if len(ref) == 1 else g._occupied().get(ref)
        if k in g.dice and g.dice[k]["owner"] == seat and g.dice[k]["square"]:
            sq = g.dice[k]["square"]
            return MoveText(clip(f"Take back die {k} (health {g.dice[k]['start']}) from {sq}"),
                            f"Die {k} leaves {sq} and can be placed again.")
        return MoveText(clip(f"Take back the die on {ref}"), "It can be placed again.")
    if verb == "confirm":
        wall = ("the Wall of Unknowing comes down at once" if g.confirmed[foe] else
                f"the Wall of Unknowing comes down when {other} confirms too")
        return MoveText("Confirm my placement (final)",
                        f"Your six dice are locked in where they stand; {wall}.")
    if verb == "slide":
        dst = mv.refs[-1]
        k = (mv.refs[0] if len(mv.refs[0]) == 1 else g._occupied().get(mv.refs[0])) \
            if len(mv.refs) == 2 else None
        if k not in g.dice:
            return MoveText(clip(f"Slide to {dst}"), "Slides one of your dice.")
        src = g.dice[k]["square"]
        path = g._reach(k).get(dst)
        steps = len(path) - 1 if path else 0
        limit = g._steps(k)
        why = ("awakened: up to 2" if g.dice[k]["awakened"] else f"up to its health, {limit}")
        return MoveText(
            clip(f"Slide {die_word(g, k)} {src} → {dst}"),
            f"Die {k} moves {steps} step{'s' if steps != 1 else ''} from {src} to {dst} "
            f"({why} steps, turning corners, never through a die). Then you may slam.")
    if verb == "slam":
        ref = mv.refs[0]
        k = ref if len(ref) == 1 else g._occupied().get(ref)
        if k not in g.dice:
            return MoveText(clip(f"Slam with the die on {ref}"), "")
        kind = "Super Slam" if g._is_super(k) else "Slam"
        sq = g.dice[k]["square"]
        hits = hits_text(g, k)
        effect = (f"{kind} with die {k} at {sq}: {_area_words(g, k)}. It hits {hits}"
                  + (" (health before→after)." if g.slam_targets(k) else "."))
        if mv.predict:
            return MoveText(
                clip(f"{kind} with {die_word(g, k)} at {sq} + “Now you're going to say…”"),
                f"{effect} You say “Now you're going to say: {BEND_PHRASE}”: your Power Token is "
                f"spent and {other} cannot save a die from this slam.")
        if g.slam_targets(k) and not g.tokens_used[foe]:
            effect += f" {other} may answer {BEND_PHRASE} to save one of them (once per game)."
        return MoveText(clip(f"{kind} with {die_word(g, k)} at {sq}: hits {hits}"), effect)
    if verb == "end":
        limit = g.options["stalemate_turns"]
        quiet = (f" A turn without damage counts towards the stalemate limit: this would be "
                 f"{g.quiet_turns + 1} of {limit} in a row."
                 if limit and not g.damage_this_turn else "")
        return MoveText("End turn without slamming", f"{other}'s turn begins.{quiet}")
    if verb == "bend":
        ref = mv.refs[0]
        k = ref if len(ref) == 1 else g._occupied().get(ref)
        p = g.pending or {}
        if k in g.dice and k in p.get("targets", ()):
            before = g.dice[k]["health"]
            after = max(before - p["damage"], 0)
            others = [t for t in p["targets"] if t != k]
            rest = (" The others are still hit: "
                    + ", ".join(f"{t} ({g.dice[t]['health']}→"
                                f"{max(g.dice[t]['health'] - p['damage'], 0)})" for t in others)
                    + "." if others else "")
            return MoveText(clip(f"{BEND_PHRASE} Save {k} at {g.dice[k]['square']} "
                                 f"({before}→{after} avoided)"),
                            f"Die {k} takes no damage from this slam; your Power Token is spent "
                            f"(once per game).{rest}")
        return MoveText(clip(f"{BEND_PHRASE} Save the die on {ref}"), "")
    if verb == "pass":
        p = g.pending
        hit = hits_text(g, p["die"]) if p and p["die"] in g.dice else "your dice"
        return MoveText("Take the hit (keep your Power Token)",
                        f"The slam hits {hit}; you keep DICE IS NOT BEND! for later.")
    if verb == "awaken":
        ref = mv.refs[0]
        k = ref if len(ref) == 1 else g._occupied().get(ref)
        if k not in g.dice:
            return MoveText(clip(f"Awaken the die on {ref}"), "")
        spoken = phrase_key(mv.phrase) == INVOCATION_KEY
        return MoveText(
            clip(f"Awaken {die_word(g, k)} at {g.dice[k]['square']}: Final Form!"),
            f"Die {k} is replaced by the awakened die: health 1, slides up to {AWAKENED_STEPS}, "
            f"and always Super Slams ({SUPER_DAMAGE} damage along its whole row and column). "
            "Once per game, at the start of your turn, with 3 or fewer dice."
            + ("" if spoken else " The invocation must be spoken in full."))
    return MoveText(clip(move))
