"""What a TradeShowdown seat can do now, grouped as a player chooses (`Game.menu`), and the
words of the moment (`Game.prompt`): whose step it is, what to do, why not you.

Groups (their keys name the components that show them):
- choose, in secret: `target` (🎯 whom your attacks go to, with three or more fighters
  standing), `tag` (Tag Team), then the dice choices, a list per target (`dice`: at your
  named target, or at the only other fighter; `dice2`... `dice6`: naming that seat's
  player), each narrowed by how many dice you roll;
- the window after the roll, in secret: `set`, `claw`, `intimidate`, `combo`, `done`, `undo`;
- attacks, in public: `slash` (one entry per digit in reach, then "a 6" for a card with
  several 6s: the least slashed one), or `special` (💥), `snap` (Snapping Pencil's value) and
  `hold`, or `target` when the attacker's target is down.
Players are named, never by seat code; labels and effects come from `describe`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import CHANCE, join_names
from ..menu import MenuGroup, MenuItem, Pick, Tone, pick_for
from . import notation
from .cards import instances
from .describe import slashes

if TYPE_CHECKING:
    from .game import TradeShowdown

FEW = 5  # up to a row of buttons; more make a list
WINDOW = (("set", "Pick the set you attack with", "🃏"),
          ("claw", "Collating Claw: swap two of a set's height, width and depth", "🦀"),
          ("intimidate", "Intimidate: slash your own digit for +1 slash", "😤"),
          ("combo", "Combo: set aside a die that matches your zip code", "🎰"))


def _items(game: "TradeShowdown", seat: int, moves: list[str], step=None) -> tuple[MenuItem, ...]:
    out = []
    for m in moves:
        out.append(game.menu_item(m, seat, step(m) if step else ""))
    return tuple(out)


def _group(game, seat, key, title, moves, *, hint="", tone=Tone.MAIN, emoji="", pick=None,
           step=None) -> list[MenuGroup]:
    if not moves:
        return []
    return [MenuGroup(key, title, _items(game, seat, moves, step),
                      pick or pick_for(len(moves), FEW), hint, tone, emoji)]


def build_menu(game: "TradeShowdown", seat: int) -> list[MenuGroup]:
    moves = game.legal(seat)
    if game.phase == "choose":
        return _choose_menu(game, seat, moves)
    if game.phase == "window":
        return _window_menu(game, seat, moves)
    if game.stage == "redirect":
        return _group(game, seat, "target", "Your target is down: attack whom instead?", moves,
                      emoji="🎯", pick=Pick.BUTTONS)
    if game.stage == "special":
        return _special_menu(game, seat, moves)
    return _slash_menu(game, seat, moves)


def _choose_menu(game, seat, moves) -> list[MenuGroup]:
    verbs = {m: notation.read(m, game.players) for m in moves}
    groups = _group(game, seat, "target", "Whom do your attacks go to this round?",
                    [m for m, p in verbs.items() if p[0] == "target"], emoji="🎯",
                    hint="Pick your target first, then your dice.", pick=Pick.BUTTONS)
    groups += _group(game, seat, "tag", "Tag Team", [m for m, p in verbs.items() if p[0] == "tag"],
                     tone=Tone.QUIET, emoji="🔁", pick=Pick.BUTTONS)
    by_target: dict[int | None, list[str]] = {}
    for m, p in verbs.items():
        if p[0] == "dice":
            by_target.setdefault(p[2], []).append(m)

    def depth(m: str) -> str:
        n = len(verbs[m][1])
        return f"Roll {n} {'die' if n == 1 else 'dice'}"
    hint = "Fewer dice strike earlier; more dice make wider sets (more slashes)."
    mine = game.seats[seat]["target"]
    for t, dice in by_target.items():
        if t is None:
            at = f" at {game.name(mine)}" if game.need_target() and mine is not None else ""
            key, title = "dice", f"Choose your dice{at}"
        else:
            key, title = f"dice{t + 1}", f"Choose your dice and attack {game.name(t)}"
        groups += _group(game, seat, key, title, dice, hint=hint, emoji="🎲",
                         pick=Pick.SELECT, step=depth)
    return groups


def _window_menu(game, seat, moves) -> list[MenuGroup]:
    kinds: dict[str, list[str]] = {}
    for m in moves:
        kinds.setdefault(notation.read(m, game.players)[0], []).append(m)
    if "combo" in kinds:
        kinds["combo"].sort()  # by the die's value, as a player looks for it
    groups: list[MenuGroup] = []
    for kind, title, emoji in WINDOW:
        groups += _group(game, seat, kind, title, kinds.get(kind, []), emoji=emoji)
    groups += _group(game, seat, "done", "Lock in your plan", kinds.get("done", []),
                     tone=Tone.GOOD, emoji="✅", pick=Pick.BUTTONS,
                     hint="Everyone's plans are revealed together.")
    groups += _group(game, seat, "undo", "Take back your last choice", kinds.get("undo", []),
                     tone=Tone.QUIET, emoji="↩️", pick=Pick.BUTTONS)
    return groups


def _special_menu(game, seat, moves) -> list[MenuGroup]:
    pencil = [m for m in moves if m.startswith("special snapping-pencil")]
    fire = [m for m in moves if m.startswith("special ") and m not in pencil]
    foe = game.name(game.seats[seat]["target"])
    return (_group(game, seat, "special", "Fire a special attack (your five combo dice)", fire,
                   tone=Tone.RISKY, emoji="💥", pick=Pick.BUTTONS)
            + _group(game, seat, "snap", f"Snapping Pencil: {foe}'s dice of one value never "
                     "count in sets", pencil, tone=Tone.RISKY, emoji="✏️")
            + _group(game, seat, "hold", "Keep the combo for later", [m for m in moves
                                                                       if m == "hold"],
                     tone=Tone.QUIET, pick=Pick.BUTTONS))


def _slash_menu(game, seat, moves) -> list[MenuGroup]:
    """One entry per digit in reach (`slash 6#2` where the card has several 6s), in reading
    order; then, for such values, "a 6" (the least slashed of them)."""
    card = game.fighter(game.seats[seat]["target"])
    where = {m: game.slash_position(seat, *notation.read(m, game.players)[1][0])
             for m in moves}

    def several(m: str) -> bool:
        return len(instances(card, card["digits"][where[m]])) > 1
    per_digit = sorted((m for m in moves if several(m) == ("#" in m)), key=lambda m: where[m])
    rest = [m for m in moves if m not in per_digit]
    left = game.left
    title = (f"Slash a digit up to {game.attacks[game.at]['height']} on {card['name']} "
             f"({slashes(left)} left)")
    return _group(game, seat, "slash", title, per_digit + rest, emoji="⚔️", pick=Pick.SELECT,
                  hint="Each digit takes two slashes; a card with every digit X'd out is down.")


# --- the words of the moment ----------------------------------------------------------------

def _attack_words(game, seat: int | None = None) -> str:
    """The attack being made now, as a status line (`seat` None) or to `seat`, who waits."""
    e = game.attacks[game.at]
    s = e["seat"]
    who = game.name(s)
    if game.stage == "slash":
        t = game.seats[s]["target"]
        whose = "your" if t == seat else f"{game.name(t)}'s"
        reach = f"{slashes(game.left)} left, on digits up to {e['height']}"
        if seat is None:
            return f"{who} slashes {whose} {game.fighter(t)['name']}: {reach}"
        return f"{who} is slashing {whose} {game.fighter(t)['name']} ({reach})"
    if game.stage == "special":
        return (f"{who} has five combo dice: a special attack, or hold the combo" if seat is None
                else f"{who} is choosing a special attack (five combo dice)")
    return (f"{who} picks a new target (theirs is down)" if seat is None
            else f"{who} is picking a new target (theirs is down)")


def status(game: "TradeShowdown") -> str:
    actors = [a for a in game.actors() if a != CHANCE]
    if not actors:
        return "The dice are rolling."
    names = join_names([game.name(s) for s in actors])
    if game.phase == "choose":
        return f"Waiting for {names} to choose their dice in secret"
    if game.phase == "window":
        return f"Waiting for {names} to decide after the roll, in secret"
    return _attack_words(game)


def todo(game: "TradeShowdown", seat: int) -> str:
    me = game.seats[seat]
    if game.phase == "choose":
        have = ", ".join(f"{n} × d{k}" for k, n in
                         sorted((k, game.available(seat).count(k))
                                for k in set(game.available(seat))))
        lines = [f"🎲 Choose your dice in secret (your supply: {have}). The number of dice you "
                 "roll is your depth: fewer dice strike earlier, more dice make wider sets "
                 "(more slashes). Nobody sees your choice before the roll."]
        if game.need_target():
            t = me["target"]
            lines.append(f"Your target: {game.name(t)}." if t is not None and not
                         game.seats[t]["out"] else "First pick your target (🎯), then your dice.")
        c = game.partner(seat)
        if me["tag"] and c is not None:
            lines.append(f"🔁 {me['cards'][c]['name']} tags in when the dice are rolled.")
        return "\n".join(lines)
    if game.phase == "window":
        from .describe import plan_text
        lines = ["🕶️ After the roll, in secret: your choices are revealed with everyone's when "
                 "all are done.", plan_text(game, seat)]
        aside = len(me["combo"]) + len(game.plan(seat)["aside"])
        if aside:
            lines.append(f"Combo: {aside} of {game.COMBO_DICE} dice set aside (at "
                         f"{game.COMBO_DICE} you fire a special attack).")
        return "\n".join(lines)
    if game.stage == "slash":
        return "Pick a digit to slash, or strike best first (the highest digits in reach)."
    if game.stage == "special":
        return "Fire a special attack, or hold the combo for a later round."
    return "Your target is down: pick whom this attack goes to instead."


def waiting(game: "TradeShowdown", seat: int) -> str:
    me = game.seats[seat]
    if me["out"]:
        return "It is not your move: you are out of the fight; watch how it ends."
    actors = [a for a in game.actors() if a != CHANCE]
    if not actors:
        return "It is not your move: the dice are rolling."
    names = join_names([game.name(s) for s in actors])
    if game.phase == "choose":
        return (f"It is not your move: you have chosen your dice; waiting for {names} to "
                "choose theirs.")
    if game.phase == "window":
        return (f"It is not your move: your plan is locked in; waiting for {names} to decide "
                "after the roll.")
    return f"It is not your move: {_attack_words(game, seat)}; then the attacks go on."


__all__ = ["build_menu", "status", "todo", "waiting"]
