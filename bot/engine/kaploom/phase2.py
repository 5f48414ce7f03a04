"""Phase 2: reveal, attack & defend (in turn order).

Seed: "PHASE 2 REVEAL, ATTACK, & DEFEND"; rulings: "Rulings on the round", "2 vs 2". The
screens come off; each player attacks once, the first player first: loss = max(0, attack −
defense). A knock-out ends the game at once (1 vs 1) — nothing later in the round happens. In
2 vs 2 the order is by health (lowest first), each attack goes to the opponent pointed at, a
defense carries over to a second attack in the round, and an attack at a player already
KO'd is lost. Phase 2 needs no decisions, so it runs by itself when the last player locks in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Event
from . import combat, phase3
from .data import ALL_ACTIONS

if TYPE_CHECKING:
    from .game import Kaploom


def _extra_attack(g: "Kaploom", seat: int) -> list[dict[str, Any]]:
    """Duo kickers for both allies (TEAM-UP)."""
    if g.duel:
        return []
    return [{"name": name, "value": ALL_ACTIONS[name].amount}
            for name in g.duo[g.seats[seat]["team"]]
            if ALL_ACTIONS[name].effect == "team_attack_kicker"]


def _extra_defense(g: "Kaploom", seat: int) -> list[dict[str, Any]]:
    """Duo kickers for the ally named at placement (COVER)."""
    if g.duel:
        return []
    return [{"name": name, "value": ALL_ACTIONS[name].amount}
            for name, place in g.duo[g.seats[seat]["team"]].items()
            if ALL_ACTIONS[name].effect == "cover" and place.get("ally") == seat]


def attack_of(g: "Kaploom", seat: int) -> dict[str, Any]:
    p = g.seats[seat]
    return combat.attack(g.placed_here(seat), action_dice=g.action_dice_count(seat),
                         spoilers=p["spoilers"], extra_kickers=_extra_attack(g, seat))


def defense_of(g: "Kaploom", seat: int) -> dict[str, Any]:
    p = g.seats[seat]
    return combat.defense(g.placed_here(seat), locked_in=g.locked_in(seat),
                          spoilers=p["spoilers"], extra_kickers=_extra_defense(g, seat))


def _board_text(g: "Kaploom", seat: int) -> str:
    p = g.seats[seat]
    parts = [f"{name} ({' '.join(g.dice[d]['up'] for d in place['dice'])})"
             for name, place in p["board"].items()]
    text = f"{g.who(seat)}: " + (", ".join(parts) if parts else "no actions")
    if not g.duel and p["pointer"] is not None:
        text += f"; attacks {g.name(p['pointer'])}"
    return text


def _snapshot(g: "Kaploom", board: dict[str, Any]) -> list[dict[str, Any]]:
    """The revealed board, kept for the renderer after Phase 4 clears the dice."""
    return [{"action": name, "dice": list(place["dice"]),
             "faces": [g.dice[d]["up"] for d in place["dice"]], "ally": place.get("ally")}
            for name, place in board.items()]


def reveal(g: "Kaploom") -> list[Event]:
    g.stage = "reveal"
    lines = [_board_text(g, s) for s in range(g.players)]
    for t, board in enumerate(g.duo):
        if board:
            seats = [s for s in range(g.players) if g.seats[s]["team"] == t]
            lines.append(f"Duo board of {g.name(seats[0])} and {g.name(seats[1])}: " + ", ".join(
                f"{name} ({' '.join(g.dice[d]['up'] for d in place['dice'])})"
                + (f" for {g.name(place['ally'])}" if "ally" in place else "")
                for name, place in board.items()))
    events = [Event(f"Round {g.round}, Phase 2: the screens come off. " + "; ".join(lines)
                    + ".", "reveal", data={"round": g.round, "phase": 2})]
    g.order = g.turn_order()
    snap = {"round": g.round,
                "boards": {str(s): _snapshot(g, g.seats[s]["board"]) for s in range(g.players)},
                "duo": [_snapshot(g, board) for board in g.duo],
                "pointers": {str(s): g.seats[s]["pointer"] for s in range(g.players)},
                "summary": {str(s): {"attack": attack_of(g, s), "defense": defense_of(g, s)}
                            for s in range(g.players)},
                "attacks": []}
    left: dict[int, int] = {}
    for attacker in g.order:
        if g.result is not None:
            break
        if not g.living(attacker):
            continue
        atk = attack_of(g, attacker)
        target = g.foe_of(attacker)
        entry: dict[str, Any] = {"attacker": attacker, "target": target, "attack": atk,
                                 "defense": None, "defense_left": None, "loss": 0,
                                 "health": None, "note": ""}
        snap["attacks"].append(entry)
        if atk["base"] is None:
            entry["note"] = "no attack base: no attack"
            events.append(Event(f"{g.who(attacker)} has no attack base: no attack.",
                                "attack", data=dict(entry)))
            continue
        if target is None or not g.living(target):
            entry["note"] = "the target is already knocked out: the attack is lost"
            events.append(Event(f"{g.who(attacker)} attacks {combat.formula(atk)}, but "
                                f"the target is already knocked out: the attack is lost.",
                                "attack", data=dict(entry)))
            continue
        if atk["spends_spoilers"]:
            g.seats[attacker]["spoilers"] = 0
        dfn = defense_of(g, target)
        have = left.get(target, dfn["total"])
        loss = max(0, atk["total"] - have)
        left[target] = max(0, have - atk["total"])
        before = g.seats[target]["health"]
        entry.update(defense=dfn, defense_left=have, loss=loss,
                     health=[before, before - loss])
        carried = (f" (carried over: {have} of {dfn['total']} left)"
                   if have != dfn["total"] else "")
        events.append(Event(
            f"{g.who(attacker)} attacks {g.who(target, cap=False)}: "
            f"{combat.formula(atk)}; defense {combat.formula(dfn)}{carried}.", "attack",
            data={k: v for k, v in entry.items()}))
        if atk["spends_spoilers"]:
            events.append(Event(f"THE TWIST spends {g.who(attacker, cap=False)}'s spoiler "
                                f"tokens.", "spoilers", data={"seat": attacker}))
        if loss:
            events += g.lose(target, loss, f"attack {atk['total']} − defense {have}")
        else:
            events.append(Event(f"{g.who(target)} blocks it all.", "block",
                                data={"seat": target}))
    g.combat = snap   # stored once, whole (see Kaploom.combat)
    if g.result is None:
        events += phase3.begin(g)
    return events
