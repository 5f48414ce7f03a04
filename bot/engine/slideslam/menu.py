"""What a seat of Slide and Slam can do now, grouped as a player chooses (`Game.menu`), and
what to do now, in words (`Game.prompt`): whose step it is, what to do, why not you.

Group keys are the short tags the screens use: `aw` (Dice Awakening), `sl` (slides), `sm`
(slams), `pr` (slams with “Now you're going to say…”), `end`, `bd` (DICE IS NOT BEND!), `pass`,
and in the secret placement `q` (place a die: the die is the `step`, then its square), `un`
(take back), `confirm`. Every move of `legal(seat)` sits in exactly one group.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import join_names
from ..menu import MenuGroup, MenuItem, Pick, Tone, pick_for
from . import board
from .data import AWAKEN_MAX_DICE, AWAKENED_STEPS, BEND_PHRASE, LETTERS, PREDICT_PHRASE
from .describe import die_word
from .notation import parse

if TYPE_CHECKING:
    from .game import SlideSlam

# key -> (title, pick, tone, emoji); the order is the order on the screen.
GROUPS: dict[str, tuple[str, str, str, str]] = {
    "aw": ("Dice Awakening: Final Form! (once per game)", Pick.SELECT, Tone.RISKY, "✨"),
    "sl": ("Slide a die (you must)", Pick.SELECT, Tone.MAIN, ""),
    "sm": ("Slam with…", Pick.SELECT, Tone.MAIN, ""),
    "pr": (f"Slam and say “{PREDICT_PHRASE}”", Pick.SELECT, Tone.RISKY, "👉"),
    "end": ("End the turn", Pick.BUTTONS, Tone.QUIET, "⏭️"),
    "bd": (f"{BEND_PHRASE} — which die do you save?", Pick.BUTTONS, Tone.RISKY, "🛡️"),
    "pass": ("Take the hit", Pick.BUTTONS, Tone.QUIET, ""),
    "q": ("Place a die", Pick.SELECT, Tone.MAIN, ""),
    "un": ("Take a die back…", Pick.SELECT, Tone.QUIET, ""),
    "confirm": ("Confirm my placement", Pick.BUTTONS, Tone.GOOD, "✅"),
}


def _key(g: "SlideSlam", move: str) -> str:
    mv = parse(move, g.columns, g.rows)
    if mv.verb == "slam":
        return "pr" if mv.predict else "sm"
    return {"awaken": "aw", "slide": "sl", "bend": "bd", "place": "q",
            "unplace": "un"}.get(mv.verb, mv.verb)


def _step(g: "SlideSlam", seat: int, move: str, reach: dict[str, int]) -> str:
    """The die a long list is narrowed by: the die that slides, the die that is placed."""
    mv = parse(move, g.columns, g.rows)
    if mv.verb == "slide":
        k = g._occupied()[mv.refs[0]]
        n = reach[mv.refs[0]]
        return (f"{die_word(g, k)} on {mv.refs[0]} — {n} square{'s' if n != 1 else ''} "
                "in reach")
    if mv.verb == "place":
        value = mv.pairs[0][1]
        letter = next(k for k in LETTERS[seat] if g.dice[k]["square"] is None
                      and g.dice[k]["start"] == value)
        return f"Die {letter} (health {value})"
    return ""


def _hint(g: "SlideSlam", seat: int, key: str) -> str:
    other = g.name(1 - seat)
    lo, hi = board.home_rows(seat, g.rows)
    return {
        "aw": (f"Before you slide, once per game, with {AWAKEN_MAX_DICE} or fewer dice: the "
               f"die becomes your awakened die (health 1, slides up to {AWAKENED_STEPS}, always "
               "Super Slams). Speak the invocation in full."),
        "sl": "Up to its health in steps, turning corners, never through a die.",
        "sm": "Any one of your dice may slam; your own dice are never hurt.",
        "pr": f"Spends your Power Token: {other} cannot save a die from this slam.",
        "bd": "Spends your Power Token (once per game): the die you pick takes no damage.",
        "pass": "The slam lands in full; you keep your Power Token.",
        "q": f"Pick a die, then its square on your half (rows {lo}–{hi}), hidden until both "
             "players have confirmed.",
    }.get(key, "")


def menu(g: "SlideSlam", seat: int) -> list[MenuGroup]:
    legal = g._legal(seat)
    reach: dict[str, int] = {}
    for move in legal:
        mv = parse(move, g.columns, g.rows)
        if mv.verb == "slide":
            reach[mv.refs[0]] = reach.get(mv.refs[0], 0) + 1
    items: dict[str, list[MenuItem]] = {}
    steps: dict[tuple[str, object], str] = {}  # a die's step is worded once, not per square
    for move in legal:  # worded when shown (MenuItem.worded): a panel shows one die's squares
        mv = parse(move, g.columns, g.rows)
        die = (mv.verb, mv.refs[0] if mv.verb == "slide" else
               mv.pairs[0][1] if mv.verb == "place" else None)
        step = steps.get(die)
        if step is None:
            step = steps[die] = _step(g, seat, move, reach)
        items.setdefault(_key(g, move), []).append(
            g.menu_item(move, seat, step))
    groups = []
    for key, (title, pick, tone, emoji) in GROUPS.items():
        if key in items:
            if key == "bd":
                pick = pick_for(len(items[key]))
            groups.append(MenuGroup(key, title, tuple(items[key]), pick, _hint(g, seat, key),
                                    tone, emoji))
    return groups


# ---- in words -------------------------------------------------------------------------------

def _doing(g: "SlideSlam") -> str:
    """What the player whose turn it is does now, after their name ("Alice to …")."""
    if g.phase == "slide":
        return "slide" + (" (or awaken a die first)" if g._can_awaken(g.current) is None else "")
    return "slam or end the turn" + (" (no die of theirs could slide)" if g.slide_skipped else "")


def status(g: "SlideSlam") -> str:
    if g.phase == "placement":
        who = join_names([g.name(p) for p in g._actors()])
        return (f"Waiting for {who} to place their dice in secret behind the Wall of "
                "Unknowing")
    if g.phase == "first_player":
        how = ("the crowd votes" if g.options["first_player"] == "argue"
               else "the first player is drawn")
        return f"The Wall of Unknowing is down: who goes first? {how[:1].upper()}{how[1:]}."
    if g.phase == "response":
        p = g.pending
        return (f"{g.name(p['defender'])} to answer {g.name(p['attacker'])}'s slam: "
                f"{BEND_PHRASE} or take the hit")
    return f"{g.name(g.current)} to {_doing(g)}"


def todo(g: "SlideSlam", seat: int) -> str:
    if g.phase == "placement":
        lo, hi = board.home_rows(seat, g.rows)
        if all(g.dice[k]["square"] for k in LETTERS[seat]):
            return ("All six are placed: confirm when you are happy (final), or "
                    "take a die back.")
        return (f"Place your six dice on your half (rows {lo}–{hi}) in your secret panel, "
                "then confirm. A die's number is its health: it slides that many squares and "
                "takes that many hits.")
    if g.phase == "response":
        return (f"Say {BEND_PHRASE} to save one of your dice from this slam (spends your Power "
                f"Token, once per game), or take the hit. Silence for "
                f"{g.options['response_window']} seconds takes the hit.")
    awaken = (f" You may first awaken a die (Dice Awakening, once per game, with "
              f"{AWAKEN_MAX_DICE} or fewer dice)." if g._can_awaken(seat) is None else "")
    if g.phase == "slide":
        return ("Your turn: slide one of your dice (you must), then slam or end your turn."
                + awaken)
    other = g.name(1 - seat)
    predict = (f" Slam saying “{PREDICT_PHRASE}” to stop {other} saving a die (spends your "
               "Power Token)." if any(m.endswith(" predict") for m in g._legal(seat)) else "")
    skipped = "None of your dice can slide, so the slide is skipped. " if g.slide_skipped else ""
    return skipped + "Slam with any one of your dice, or end your turn." + predict + awaken


def waiting(g: "SlideSlam", seat: int) -> str:
    if g.phase == "placement":
        others = join_names([g.name(p) for p in g._actors() if p != seat])
        return ("Your placement is confirmed. The Wall of Unknowing comes down when "
                f"{others} confirms too; the board will then be in the game thread.")
    if g.phase == "first_player":
        if g.options["first_player"] == "argue":
            return ("Nobody plays yet: the crowd is voting on who goes first. Make your case "
                    "with an argument (once).")
        return "Nobody plays yet: the first player is being drawn."
    if g.phase == "response":
        d = g.name(g.pending["defender"])
        return (f"It is not your move: {d} is answering the slam ({BEND_PHRASE} or take the "
                "hit); then the turn goes on.")
    return (f"It is not your turn: {g.name(g.current)} is to {_doing(g)}. Your turn comes "
            "next.")


def bend_refusal(g: "SlideSlam", seat: int) -> str:
    """Why `seat` cannot say DICE IS NOT BEND! now, and what they can do instead."""
    if g.result is not None:
        return "The game is over."
    if g.phase == "response" and g.pending["defender"] != seat:
        d = g.name(g.pending["defender"])
        return f"Only {d} can say {BEND_PHRASE} now: it is their dice being slammed."
    why = ("your Power Token is already spent (once per game)" if g.tokens_used[seat] else
           "there is no slam of your opponent's for you to answer")
    now = todo(g, seat) if seat in g._actors() else waiting(g, seat)
    return f"You cannot say {BEND_PHRASE} now: {why}. {now}"


def argue_refusal(g: "SlideSlam", seat: int) -> str:
    """Why `seat` may not argue who goes first now ("" when they may: the crowd decides)."""
    if g.options["first_player"] != "argue":
        why = "This game draws the first player at random: there is nothing to argue."
    elif g.phase == "placement":
        why = ("Arguments come after the Wall of Unknowing comes down: place and confirm your "
               "dice first.")
    elif g.phase != "first_player":
        why = "Who goes first is already decided."
    else:
        return ""
    now = todo(g, seat) if seat in g._actors() else ""
    return f"{why} {now}".strip()
