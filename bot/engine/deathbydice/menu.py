"""What a seat can do now (`Game.menu`) and what to do, in words (`Game.prompt`), for Death by
Dice. Every legal move sits in exactly one group; labels and effects come from `describe`.

Groups by moment (their keys name components, so they stay short and stable):

    setup        su      the secret arrangements (a list; `step`: the character, when a
                         player runs several)
    declare      at      the attacks (a list; `step`: the attack type and your dice, so a
                         long list narrows "which dice?" then "which target?")
                 sp      Cheap Shot / Cook the Books (risky buttons)
    defend       df      Boosted and Linked defenses;  none: no defense (quiet);
                 sp      Misdirection
    loaded, thick_skull, rampage:  sp (the special)  and  pass (quiet)
    discard      dc      the dice you give up (a list)

Texts name characters ("Malice (Ada)") and players, never seat codes or notation.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import join_names
from ..menu import MenuGroup, MenuItem, Pick, Tone
from .data import CHEAP_SHOT_BOOST, SPECIAL_TABLE
from .describe import attack_total, attack_wins, group_label
from .view import prompt as stage_prompt

if TYPE_CHECKING:
    from .game import DeathByDice

ROLLING = ("setup_roll", "attack_roll", "loaded_roll", "skull_roll", "assist_roll")


def _items(g: "DeathByDice", seat: int, moves: list[str],
           step=lambda m: "") -> tuple[MenuItem, ...]:
    out = []
    for m in moves:
        out.append(g.menu_item(m, seat, step(m)))
    return tuple(out)


def _special_name(g: "DeathByDice", fi: int) -> str:
    return SPECIAL_TABLE[g.fighters[fi]["special"]][0]


def menu_groups(g: "DeathByDice", seat: int) -> list[MenuGroup]:
    st = g.stage
    legal = g._legal(seat)
    if st == "setup":
        return _setup_group(g, seat, legal)
    if st == "declare":
        return _declare_groups(g, seat)
    specials = [m for m in legal if m.startswith("special ")]
    groups: list[MenuGroup] = []
    if st == "defend":
        boosts = [m for m in legal if m.startswith("defend ") and m != "defend none"]
        if boosts:
            groups.append(MenuGroup("df", "Choose your defense", _items(g, seat, boosts),
                                    Pick.BUTTONS, "Adds to the attacked die; the helping die "
                                    "is re-rolled after the attack.", emoji="🛡️"))
    if st == "discard":
        groups.append(MenuGroup("dc", "Choose the dice you give up", _items(g, seat, legal),
                                Pick.SELECT, "They leave your board for this combat."))
    if specials:
        owner = g.attack["target"] if st in ("defend", "thick_skull") else g.active
        groups.append(MenuGroup("sp", f"Use {_special_name(g, owner)}",
                                _items(g, seat, specials), Pick.BUTTONS, "Once per combat.",
                                tone=Tone.RISKY, emoji="✨"))
    if st == "defend":
        groups.append(MenuGroup("none", "Or no defense", _items(g, seat, ["defend none"]),
                                Pick.BUTTONS, tone=Tone.QUIET))
    if "pass" in legal:
        groups.append(MenuGroup("pass", "Or let it go", _items(g, seat, ["pass"]),
                                Pick.BUTTONS, tone=Tone.QUIET))
    return groups


def _setup_group(g: "DeathByDice", seat: int, legal: list[str]) -> list[MenuGroup]:
    mine = g.seat_fighters(seat)
    open_ = [fi for fi in mine if g.fighters[fi]["arranged"] is None]
    chars = {g.fighters[fi]["id"]: g.fighters[fi]["character"] for fi in open_}

    def step(move: str) -> str:
        if len(open_) < 2:
            return ""
        ref = move.split()[1]
        return chars.get(ref, "")
    who = (g.fighters[open_[0]]["character"] + "'s" if len(open_) == 1 else "your")
    return [MenuGroup("su", f"Place {who} rolled values", _items(g, seat, legal, step),
                      Pick.SELECT, "Dice of the same size may swap values; nothing else "
                      "moves. Lowest total attacks first.", tone=Tone.GOOD, emoji="🔒")]


def _declare_groups(g: "DeathByDice", seat: int) -> list[MenuGroup]:
    fi = g.active
    attacks: list[MenuItem] = []
    for type_, dice, targets in g.attack_table(fi, g.armed):
        step = group_label(g, fi, type_, list(dice))
        head = f"attack {type_} {'+'.join(dice)} -> "
        attacks += _items(g, seat, [head + t[2] for t in targets], lambda m, s=step: s)
    title = {"rampage": "Rampage: your extra Ability Attack",
             "cheap-shot": f"Cheap Shot: your Boosted Ability Attack (+{CHEAP_SHOT_BOOST})"
             }.get(g.armed or "", "Declare your attack")
    groups = [MenuGroup("at", title, tuple(attacks), Pick.SELECT,
                        "Attacking is compulsory: there is no passing.", emoji="⚔️")]
    specials = g.turn_specials()
    if specials:
        groups.append(MenuGroup("sp", f"Or first: {_special_name(g, fi)}",
                                _items(g, seat, specials), Pick.BUTTONS,
                                "Once per combat, before you attack.", tone=Tone.RISKY,
                                emoji="✨"))
    return groups


# --- the prompt ---------------------------------------------------------------------------------

def status(g: "DeathByDice") -> str:
    """Whose step it is, for everyone."""
    st = g.stage
    if st in ROLLING:
        return stage_prompt(g)
    if st == "setup":
        waiting = [g.label(i) for i, f in enumerate(g.fighters) if f["arranged"] is None]
        return f"Waiting for {join_names(waiting)} to place their dice in secret."
    who = g.label(g.active) if g.active is not None else ""
    a = g.attack
    if st == "declare":
        extra = {"rampage": " (Rampage: one Ability Attack)",
                 "cheap-shot": f" (Cheap Shot: a Boosted Ability Attack, +{CHEAP_SHOT_BOOST})"
                 }.get(g.armed or "", "")
        return f"{who} to attack{extra}."
    if st == "defend":
        value = g.fighters[a["target"]]["values"][a["ability"]]
        return (f"{g.label(a['target'])} to answer the attack on {a['ability']} ({value}): "
                "a defense, or none.")
    if st == "loaded":
        return f"{who} may re-roll an attacking die with Loaded Dice, or keep the roll."
    if st == "thick_skull":
        return (f"{g.label(a['target'])} may save {a['ability']} with Thick Skull, or let "
                "the die go.")
    if st == "discard":
        return f"{who} to choose the dice they give up."
    if st == "rampage":
        return f"{who} may Rampage for one extra Ability Attack, or end the turn."
    return "The match is over."


def todo(g: "DeathByDice", seat: int) -> str:
    """What `seat`, who must act, should do now."""
    st = g.stage
    a = g.attack
    if st == "setup":
        open_ = [g.fighters[fi]["character"] for fi in g.seat_fighters(seat)
                 if g.fighters[fi]["arranged"] is None]
        return (f"Place your rolled values on {join_names(open_)}'s board in your secret "
                "panel, then confirm: dice of the same size may swap values, nothing else "
                "moves. The lowest total attacks first; nobody sees your values until "
                "everyone has set up.")
    if st == "declare":
        f = g.fighters[g.active]
        text = {"rampage": "Make Rampage's extra Ability Attack now.",
                "cheap-shot": f"Cheap Shot is declared: make a Boosted Ability Attack (it "
                              f"adds +{CHEAP_SHOT_BOOST})."}.get(
            g.armed or "", f"Declare {f['character']}'s attack: you must, there is no "
                           "passing.")
        if g.turn_specials():
            text += (f" {_special_name(g, g.active)} is ready: use it before you attack, "
                     "or keep it for later.")
        return text
    if st == "defend":
        tf = g.fighters[a["target"]]
        text = (f"Your {a['ability']} ({tf['values'][a['ability']]}) on {tf['character']} is "
                f"attacked by {g.label(a['attacker'])}: choose a defense, or none. No answer "
                "in time = no defense.")
        if g.misdirection_moves():
            text += (" Misdirection can move the attack to another of your dice of the same "
                     "size.")
        return text
    if st == "loaded":
        total, against = attack_total(g)
        state = "winning" if attack_wins(a["type"], total, against) else "losing"
        return (f"Your attack totals {total} against {against} ({state}): re-roll one "
                "attacking die with Loaded Dice, or keep the roll.")
    if st == "thick_skull":
        value = g.fighters[a["target"]]["values"][a["ability"]]
        return (f"Your {a['ability']} ({value}) is lost unless Thick Skull re-rolls it: use it "
                "now, or let the die go and keep Thick Skull for later.")
    if st == "discard":
        why = "lost" if a["result"] == "lost" else "rolled doubles"
        return f"Your Complex Attack {why}: choose which dice leave your board."
    if st == "rampage":
        return ("Your Complex Attack won: Rampage now for one extra Ability Attack, or end "
                "the turn and keep Rampage for later.")
    return ""


def waiting(g: "DeathByDice", seat: int) -> str:
    """Why `seat` cannot act now."""
    st = g.stage
    if st in ROLLING:
        return "It is not your move: the dice are rolling."
    if st == "setup":
        others = [g.label(i) for i, f in enumerate(g.fighters) if f["arranged"] is None]
        return (f"Your set-up is in. Waiting for {join_names(others)} to place their dice in "
                "secret; then every board is shown.")
    a = g.attack
    who = g.label(g.active) if g.active is not None else ""
    if st == "declare":
        mine = any(g.fighters[fi]["side"] != g.fighters[g.active]["side"]
                   for fi in g.seat_fighters(seat))
        return (f"It is not your step: {who}, the attacker, is declaring an attack"
                + ("; you may have to defend." if mine else "."))
    if st == "rampage":
        return (f"It is not your step: {who}, the attacker, may Rampage for one extra "
                "Ability Attack or end the turn.")
    defender = g.label(a["target"])
    return {
        "defend": f"It is not your step: {defender}, the defender, is answering the attack on "
                  f"{a['ability']} (a defense, or none); then the attack is rolled.",
        "loaded": f"It is not your step: {who}, the attacker, may re-roll a die with Loaded "
                  "Dice or keep the roll.",
        "thick_skull": f"It is not your step: {defender}, the defender, may save "
                       f"{a['ability']} with Thick Skull.",
        "discard": f"It is not your step: {who}, the attacker, is choosing the dice to give "
                   "up.",
    }.get(st, "It is not your move.")
