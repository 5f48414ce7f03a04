"""Every legal TradeShowdown move in a player's words (`Game.describe`): a short label for a
button or a menu entry, and the effect the rules give it now, computed from the state (who is
hit, which digit, how many slashes). Players are named by `game.name(seat)`; seat codes stay in
the notation only.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import IllegalMoveError, MoveText, RuleError, join_names
from . import notation
from .cards import X, room
from .dice import dice_text

if TYPE_CHECKING:
    from .game import TradeShowdown

LABEL_MAX = 80
SPECIAL_WORDS = {
    "number-cruncher": ("Number Cruncher", "slash every digit of {foe}'s {card} that is in "
                        "your zip code {zip}: {hits}"),
    "snapping-pencil": ("Snapping Pencil", "{foe}'s dice showing {value} never count in sets "
                        "again"),
    "collating-claw": ("Collating Claw", "on your next roll you may swap two of a set's "
                       "height, width and depth"),
    "hot-coffee-spout": ("Hot Coffee Spout", "{foe}'s depth counts double for the attack "
                         "order from their next roll (they strike later)"),
}
DIMENSION_WORDS = {"height": "height (highest digit hit)", "width": "width (slashes)",
                   "depth": "depth (dice rolled)"}


def _clip(text: str) -> str:
    return text if len(text) <= LABEL_MAX else text[:LABEL_MAX - 1] + "…"


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def slashes(n: int) -> str:
    return f"{n} slash" + ("" if n == 1 else "es")


def set_words(width: int, height: int) -> str:
    """`3 × 8` in words: "three 8s" reads better than "width 3 height 8" on a button."""
    return {2: "pair", 3: "three", 4: "four", 5: "five"}.get(width, str(width)) + (
        f" of {height}s" if width == 2 else f" {height}s")


def attack_words(width: int, height: int) -> str:
    return f"{slashes(width)} on digits up to {height}"


def describe(game: "TradeShowdown", move: str, seat: int) -> MoveText:
    try:
        parsed = notation.read(move, game.players)
    except RuleError:
        return MoveText(_clip(move), "not a move of this game")
    verb = parsed[0]
    try:
        label, effect = {
            "dice": _dice, "target": _target, "tag": _tag, "set": _set, "claw": _claw,
            "intimidate": _intimidate, "combo": _combo, "undo": _undo, "done": _done,
            "slash": _slash, "special": _special, "hold": _hold,
        }[verb](game, seat, parsed)
    except (RuleError, LookupError, TypeError):
        # Not a move of this moment (a stale button, a typed move from another step): the
        # notation is all that can be said about it.
        return MoveText(_clip(move), "not possible at this point of the round")
    return MoveText(_clip(label), effect)


# --- choosing dice ----------------------------------------------------------------------------

def _dice(game, seat, parsed):
    sizes, target = parsed[1], parsed[2]
    n = len(sizes)
    label = f"Roll {n} {'die' if n == 1 else 'dice'}: {dice_text(sizes)}"
    if target is not None:
        label += f" at {game.name(target)}"
    effect = (f"depth {n} (the number of dice you roll): you strike before anyone rolling more "
              "dice; more dice make wider sets (more slashes)")
    seat_target = target if target is not None else game.seats[seat]["target"]
    if seat_target is not None and game.need_target():
        effect += f"; your attacks go to {game.name(seat_target)}"
    return label, effect + "."


def _target(game, seat, parsed):
    t = parsed[1]
    card = game.fighter(t)["name"]
    if game.phase == "attack":
        e = game.attacks[game.at]
        return (f"Attack {game.name(t)} instead",
                f"your target is down: this attack ({attack_words(e['width'], e['height'])}) "
                f"goes to {game.name(t)}'s {card}.")
    return (f"Target {game.name(t)} ({card})",
            f"your attacks this round go to {game.name(t)}'s {card}.")


def _tag(game, seat, parsed):
    seat_ = game.seats[seat]
    c = game.partner(seat)
    partner = seat_["cards"][c]["name"] if c is not None else "your partner"
    if seat_["tag"]:
        return ("Cancel the tag", f"{game.fighter(seat)['name']} stays in this round.")
    return (f"Tag in {partner}",
            f"{partner} steps in for {game.fighter(seat)['name']} when the dice are rolled.")


# --- the window after the roll --------------------------------------------------------------

def _plan_after(game, seat, step):
    """The plan's attacks if `step` (a one-step window move) were added."""
    plan = game.plan(seat)
    step = game.window_step(seat, step)
    if step is not None:
        plan = dict(plan, intimidate=list(plan["intimidate"]), aside=list(plan["aside"]))
        if step["do"] == "set":
            plan["chosen"] = step["height"]
        elif step["do"] == "claw":
            plan["claw"] = {"set": step["set"], "swap": step["swap"]}
        elif step["do"] == "intimidate":
            plan["intimidate"].append({"card": step["card"], "value": step["value"]})
        else:
            plan["aside"].append(step["die"])
    return game.plan_sets(seat, plan)


def _attacks_text(attacks) -> str:
    return "; ".join(attack_words(a["width"], a["height"]) for a in attacks) or "no attack"


def _set(game, seat, parsed):
    v = parsed[1]
    x = next((x for x in game.seats[seat]["sets"] if x["height"] == v), None)
    width = x["width"] if x else 0
    return (f"Attack with the {set_words(width, v)}",
            f"this round you attack with {attack_words(width, v)} (depth "
            f"{len(game.seats[seat]['rolls'])}).")


def _claw(game, seat, parsed):
    v, (d1, d2) = parsed[1], parsed[2]
    after = _plan_after(game, seat, notation.canonical(parsed))
    clawed = next((a for a in after if a["clawed"]), None)
    effect = f"Collating Claw swaps the {d1} and {d2} of your set of {v}s"
    if clawed is not None:
        effect += (f": {attack_words(clawed['width'], clawed['height'])}, depth "
                   f"{clawed['depth']}")
    return f"Claw the {v}s: swap {d1} and {d2}", effect + "."


def _intimidate(game, seat, parsed):
    partner, [v] = parsed[1], parsed[2][:1]
    c = game.partner(seat) if partner else game.seats[seat]["active"]
    card = game.seats[seat]["cards"][c]["name"] if c is not None else "your card"
    after = _plan_after(game, seat, f"{'intimidate partner' if partner else 'intimidate'} {v}")
    widened = next((a for a in after if a["height"] == v), None)
    label = f"Intimidate: slash your {'partner’s ' if partner else 'own '}{v} (+1 slash)"
    effect = (f"one {v} on your own {card} takes a slash when the choices are revealed; your "
              f"set of {v}s then makes " + (attack_words(widened["width"], v) if widened
                                            else "one more slash"))
    return label, effect + "."


def _combo(game, seat, parsed):
    v = parsed[1][0]
    have = len(game.seats[seat]["combo"]) + len(game.plan(seat)["aside"]) + 1
    return (f"Set aside the {v} for a combo ({have}/5)",
            f"the die showing {v} matches your zip code {game.fighter(seat)['zip']}: it waits "
            f"for your combo ({have} of 5 dice; at 5 you fire a special attack), and is not "
            "rolled until then.")


def _undo(game, seat, parsed):
    steps = game.seats[seat]["window"]
    last = steps[-1]["do"] if steps else "choice"
    what = {"set": "set pick", "claw": "Collating Claw swap", "intimidate": "Intimidate slash",
            "combo": "combo set-aside"}.get(last, "choice")
    return "Undo your last choice", f"takes back your last {what}."


def _done(game, seat, parsed):
    plan = game.plan(seat)
    attacks = game.plan_sets(seat, plan)
    extra = []
    if plan["intimidate"]:
        extra.append(f"{slashes(len(plan['intimidate']))} on your own side")
    if plan["aside"]:
        extra.append(f"{len(plan['aside'])} dice set aside for your combo")
    return ("Done: lock in my plan",
            "your plan is revealed with everyone's: " + _attacks_text(attacks)
            + (f" ({', '.join(extra)})" if extra else "") + ".")


# --- the attacks ------------------------------------------------------------------------------

def _slash(game, seat, parsed):
    t = game.seats[seat]["target"]
    card = game.fighter(t)
    left = game.left
    targets = parsed[1]
    if len(targets) > 1:
        values = [str(v) + (f" (the {ordinal(n)} one)" if n else "") for v, n in targets]
        return (_clip(f"Slash {' '.join(str(v) for v, _ in targets)} on {card['name']}"),
                f"{len(targets)} of your {slashes(left)} on {game.name(t)}'s {card['name']}: "
                + ", ".join(values) + ", highest first.")
    v, n = targets[0]
    i = game.slash_position(seat, v, n)
    if i is None:
        raise IllegalMoveError(f"`slash {v}` is not open now.")
    out = card["slashes"][i] + 1 >= X
    where = f"digit {i + 1} of {len(card['digits'])}"
    nth = f"the {ordinal(n)} {v}" if n else f"a {v}"
    after = "it is X'd out" if out else "one slash on it (two X it out)"
    rest = left - 1
    tail = f"; {slashes(rest)} left after this" if rest > 0 else "; your last slash"
    if room(card) - 1 <= 0:
        tail += f" — {card['name']} is X'd out"
    return (f"Slash {nth} on {card['name']}" + (" (X it out)" if out else ""),
            f"{where} on {game.name(t)}'s card: {after}{tail}.")


def _special(game, seat, parsed):
    name, value = parsed[1], parsed[2]
    t = game.seats[seat]["target"]
    title, text = SPECIAL_WORDS[name]
    mine = game.seats[seat]["cards"][game.attacks[game.at]["card"]]
    card = game.fighter(t)
    zipset = {int(ch) for ch in mine["zip"]}
    hits = sum(1 for d, n in zip(card["digits"], card["slashes"]) if d in zipset and n < X)
    effect = text.format(foe=game.name(t), card=card["name"], zip=mine["zip"], value=value,
                         hits=slashes(hits))
    label = {"number-cruncher": f"{title}: {slashes(hits)} on {card['name']}",
             "snapping-pencil": f"{title}: cripple {game.name(t)}’s {value}s",
             "collating-claw": f"{title}: swap dimensions next roll",
             "hot-coffee-spout": f"{title}: blind {game.name(t)}"}[name]
    return label, effect[:1].upper() + effect[1:] + " (uses your five combo dice)."


def _hold(game, seat, parsed):
    return ("Hold the combo",
            "keep your five combo dice set aside and fire a special attack in a later round.")


def plan_text(game: "TradeShowdown", seat: int) -> str:
    """The player's window plan in words (their own panel)."""
    plan = game.plan(seat)
    parts = [_attacks_text(game.plan_sets(seat, plan))]
    if plan["intimidate"]:
        parts.append("intimidate: slash your own "
                     + join_names([str(i["value"]) for i in plan["intimidate"]]))
    if plan["aside"]:
        rolls = game.seats[seat]["rolls"]
        parts.append("set aside for your combo: "
                     + join_names([str(rolls[i]["value"]) for i in plan["aside"]]))
    return "Your plan: " + "; ".join(parts) + "."


__all__ = ["describe", "plan_text", "ordinal", "slashes", "attack_words", "set_words"]
