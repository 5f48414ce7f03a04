"""What each seat may see, and the board as text. The only place secrets are stripped.

`view(player)` keys (player None = the public view):

    kind, title         "deathbydice", "Death by Dice"
    mode                "duel" (2 players), "free-for-all" (3+), or "boss" (Bosses & Minions)
    players, best_of    seat count; 1 or 3
    combat              current combat number (1-based); max_combats: 1 or 5
    score               combats won per side (list, same order as `sides`)
    sides               [{name, seats, fighters (ids), wins, total (standing total or None)}]
    stage               setup_roll | setup | declare | defend | attack_roll | loaded |
                        loaded_roll | thick_skull | skull_roll | discard | assist_roll |
                        rampage | between (only after the end)
    to_act              seats that must act now, or ["chance"] while dice roll
    prompt              one plain sentence: what is awaited now
    turn, turn_limit    turns started this combat, and the cap (20 each)
    active              id of the attacking character ("@1", "@2.1") or None
    order               side names in turn order once set-up is revealed, else []
    fighters            per character: {id, seat, side, character, role ("duel" | "boss" |
                        "minion"), special: {key, name, used}, ready (set-up confirmed; None
                        after the reveal), turns, total (None while the set-up is secret),
                        board: six entries in ring order {ability, name, die (size or None),
                        colour ("R" "B" "G" "W" or None), value (int or None), state
                        ("standing" | "discarded" | "none" = no die | "hidden" = set-up
                        secret)}}
    attack              the attack in progress (below) or None
    last_attack         the last finished attack this combat, or None
    combats             finished combats: [{combat, winner (side index or None = draw),
                        totals (per side), reason}]
    result              None while playing, else {winners (seats), reason}
    you                 only in a seat's own view: {seat, fighters (ids), setup: [{fighter,
                        character, rolled: [{die, value}] in box order, arranged: {ability:
                        value} or None}] while the set-up is secret, else []}

An attack summary: {attacker (id), type ("ability" | "boosted" | "complex"), dice (attacking
abilities), assist (ability or None), bonus (0, 2 or 4), cheap_shot, rampage (bools), target
("@2:CON"), misdirected_from ("@2:SMA" or None), defense (None or {type, die, bonus}), rolls
({ability: value} or None), loaded (None or {die, from, to}), total, target_value, against,
result ("won" | "lost" | None), discarded ([{die, value, why: "hit" | "own"}]), saved (Thick
Skull: None or {die, from, to}), rerolled (assisting dice: [{die, from, to}])}.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import join_names
from . import board as B
from .data import ABILITIES, ABILITY_NAMES, CHEAP_SHOT_BOOST, MAX_COMBATS, SPECIAL_TABLE
from .describe import attack_groups, boost_now

if TYPE_CHECKING:
    from .game import DeathByDice

SECRET_STAGES = ("setup_roll", "setup")


def attack_summary(g: "DeathByDice", a: dict[str, Any] | None) -> dict[str, Any] | None:
    if a is None:
        return None
    tid = g.fid(a["target"])
    return {
        "attacker": g.fid(a["attacker"]), "attacker_label": g.label(a["attacker"]),
        "target_label": g.label(a["target"]), "ability": a["ability"],
        "type": a["type"], "dice": list(a["dice"]),
        "assist": a["assist"], "bonus": a["bonus"], "cheap_shot": a["cheap_shot"],
        "rampage": a["rampage"], "target": f"{tid}:{a['ability']}",
        "misdirected_from": f"{tid}:{a['misdirected_from']}" if a["misdirected_from"] else None,
        "defense": dict(a["defense"]) if a["defense"] else None,
        "rolls": dict(a["rolls"]) if a["rolls"] is not None else None,
        "loaded": dict(a["loaded"]) if a["loaded"] else None,
        "total": a["total"], "target_value": a["target_value"], "against": a["against"],
        "result": a["result"], "discarded": [dict(d) for d in a["discarded"]],
        "saved": dict(a["saved"]) if a["saved"] else None,
        "rerolled": [dict(r) for r in a["rerolled"]],
    }


def prompt(g: "DeathByDice") -> str:
    """What is awaited now, in words (characters by name, no notation)."""
    if g.result is not None:
        return "The match is over."
    st = g.stage
    if st == "setup_roll":
        return "Rolling the set-up dice (secret)."
    if st == "setup":
        waiting = [g.label(i) for i, f in enumerate(g.fighters) if f["arranged"] is None]
        return "Waiting for secret set-ups: " + join_names(waiting) + "."
    if st in ("attack_roll", "loaded_roll", "skull_roll", "assist_roll"):
        return {"attack_roll": "Rolling the attack.", "loaded_roll": "Re-rolling (Loaded Dice).",
                "skull_roll": "Re-rolling (Thick Skull).",
                "assist_roll": "Re-rolling the assisting dice."}[st]
    who = g.label(g.active) if g.active is not None else ""
    if st == "declare":
        extra = {"rampage": " (Rampage: one Ability Attack)",
                 "cheap-shot": f" (Cheap Shot: a Boosted Ability Attack, +{CHEAP_SHOT_BOOST})"
                 }.get(g.armed or "", "")
        return f"{who}: declare an attack{extra}."
    a = g.attack
    if st == "defend":
        value = g.fighters[a["target"]]["values"][a["ability"]]
        return (f"{g.label(a['target'])}: choose a defense for {a['ability']} (standing "
                f"{value})" + (", or Misdirection" if g.misdirection_moves() else "") + ".")
    if st == "loaded":
        return f"{who}: re-roll one attacking die with Loaded Dice, or keep the roll."
    if st == "thick_skull":
        return (f"{g.label(a['target'])}: Thick Skull re-rolls {a['ability']} instead of "
                "discarding it; use it or let the die go.")
    if st == "discard":
        return f"{who}: choose the dice to discard."
    if st == "rampage":
        return f"{who}: Rampage for one extra Ability Attack, or end the turn."
    return ""


def build_view(g: "DeathByDice", player: int | None) -> dict[str, Any]:
    secret = g.stage in SECRET_STAGES and g.result is None
    fighters = []
    for fi, f in enumerate(g.fighters):
        cells = []
        for a in ABILITIES:
            size = f["dice"].get(a)
            value = f["values"].get(a)
            if size is None:
                state = "none"
            elif secret:
                state, value = "hidden", None
            elif value is None:
                state = "discarded"
            else:
                state = "standing"
            cells.append({"ability": a, "name": ABILITY_NAMES[a], "die": size,
                          "colour": f["colours"].get(a), "value": value, "state": state})
        fighters.append({
            "id": f["id"], "seat": f["seat"], "side": f["side"], "character": f["character"],
            "player": g.name(f["seat"]), "label": g.label(fi),
            "role": f["role"],
            "special": {"key": f["special"], "name": SPECIAL_TABLE[f["special"]][0],
                        "used": f["special_used"]},
            "ready": (f["arranged"] is not None) if g.stage == "setup" else None,
            "turns": f["turns"], "total": None if secret else B.total(f), "board": cells})
    totals = None if secret else g.side_totals()
    sides = [{"name": g.side_name(i), "seats": list(s["seats"]),
              "fighters": [g.fid(fi) for fi in s["fighters"]], "wins": g.score[i],
              "total": totals[i] if totals else None} for i, s in enumerate(g.sides)]
    mode = g.options["mode"] if g.options["mode"] == "boss" or g.players == 2 else "free-for-all"
    view: dict[str, Any] = {
        "kind": g.KIND, "title": g.TITLE, "mode": mode, "players": g.players,
        "best_of": g.options["best_of"], "combat": g.combat,
        "max_combats": 1 if g.options["best_of"] == 1 else MAX_COMBATS,
        "score": list(g.score), "sides": sides, "stage": g.stage, "names": list(g.names),
        "to_act": list(g.actors()), "prompt": prompt(g), "turn": g.turn,
        "turn_limit": g.turn_limit,
        "active": g.fid(g.active) if g.active is not None and g.stage not in SECRET_STAGES
        else None,
        "order": [g.side_name(s) for s in g.side_order], "fighters": fighters,
        "attack": attack_summary(g, g.attack), "last_attack": attack_summary(g, g.last_attack),
        "combats": [dict(c) for c in g.combats], "result": g.result,
        # What a Boosted Ability Attack adds now (+4 while Cheap Shot is declared), the
        # special a turn is armed with, and the attacker's choices grouped by type and dice.
        "boost": boost_now(g), "armed": g.armed,
        "attack_groups": attack_groups(g) if g.stage == "declare" else [],
    }
    if player is not None:
        mine = g.seat_fighters(player)
        setup = []
        if secret:
            for fi in mine:
                f = g.fighters[fi]
                rolled = None
                if f["rolled"] is not None:
                    rolled = [{"die": f["dice"][a], "value": v}
                              for a, v in zip(B.boxes(f), f["rolled"])]
                setup.append({"fighter": f["id"], "character": f["character"],
                              "rolled": rolled,
                              "arranged": dict(f["arranged"]) if f["arranged"] else None})
        view["you"] = {"seat": player, "fighters": [g.fid(fi) for fi in mine], "setup": setup}
    return view


def _cell(c: dict[str, Any]) -> str:
    if c["state"] == "none":
        return f"{c['ability']} —"
    shown = {"standing": str(c["value"]), "discarded": "x", "hidden": "?"}[c["state"]]
    return f"{c['ability']} d{c['die']}{c['colour']} {shown}"


def _attack_line(a: dict[str, Any], labels: dict[str, str]) -> str:
    dice = "+".join(a["dice"]) + (f" (+{a['bonus']} from {a['assist']})" if a["assist"] else "")
    line = (f"{a['attacker_label']}: {a['type']} attack with {dice} on {a['ability']} of "
            f"{a['target_label']}")
    if a["defense"]:
        line += (f", {a['defense']['type']} defense from {a['defense']['die']} "
                 f"+{a['defense']['bonus']}")
    if a["result"]:
        line += f": {a['total']} against {a['against']}, {a['result']}"
    if a["discarded"]:
        line += "; discarded " + ", ".join(_die_words(d["die"], labels) for d in a["discarded"])
    return line


def _die_words(ref: str, labels: dict[str, str]) -> str:
    """`@2:CON` (a die as events' data name it) -> "CON of Mayhem (Bob)"."""
    fid, _, ability = ref.partition(":")
    return f"{ability} of {labels.get(fid, fid)}"


def board_text(v: dict[str, Any]) -> str:
    score = "–".join(map(str, v["score"]))
    head = (f"Death by Dice — combat {v['combat']} (best of {v['best_of']}), score {score}")
    if v["turn"]:
        head += f" · turn {v['turn']}/{v['turn_limit']}"
    lines = [head]
    labels = {f["id"]: f["label"] for f in v["fighters"]}
    for f in v["fighters"]:
        used = "used" if f["special"]["used"] else "ready"
        total = f" total {f['total']}" if f["total"] is not None else ""
        ready = " (set up)" if f["ready"] else ""
        lines.append(f"{f['label']} [{f['special']['name']}: {used}]{total}{ready}")
        lines.append("  " + " · ".join(_cell(c) for c in f["board"]))
    you = v.get("you")
    for s in (you or {}).get("setup", []):
        if s["rolled"]:
            rolled = ", ".join(f"d{r['die']} {r['value']}" for r in s["rolled"])
            placed = ""
            if s["arranged"]:
                placed = " — placed " + ", ".join(f"{a} {v}" for a, v in s["arranged"].items())
            lines.append(f"Your roll for {labels.get(s['fighter'], s['character'])}: "
                         f"{rolled}{placed}")
    if v["attack"]:
        lines.append("Attack: " + _attack_line(v["attack"], labels))
    elif v["last_attack"]:
        lines.append("Last attack: " + _attack_line(v["last_attack"], labels))
    if v["result"]:
        lines.append("Over: " + v["result"]["reason"])
    else:
        lines.append("Now: " + v["prompt"])
    return "\n".join(lines)
