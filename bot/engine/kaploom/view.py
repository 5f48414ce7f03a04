"""What each seat may see, and the board as text.

Everything a player owns is public (seed: "ADDITIONAL NOTES"; rulings: "Rulings on the round"):
dice, faces, unattached faces, locked-in abilities, spoiler tokens, health. The one secret is
Phase 1: the faces just rolled, the dice placed on actions and the 2 vs 2 pointer stay behind
the screen of the player and their ally until the reveal. Opponents and the public see only
whether a player is locked in and the names of the immediate actions they announced.

`view(player)` keys (player None = public):
- kind "kaploom", mode "duel"|"2v2", round, round_limit, you (seat or None)
- phase 1-4 and stage: "roll" (dice due), "assign" (Phase 1), "power" (Phase 3), "over"
- rerolling: a secret re-roll is being drawn
- first: seat with the first player token; order: Phase 2/3 turn order; turn: whose Power Up
- players: one dict per seat:
    seat, name (the player's name), code ("@1", notation only), role (super or side), side "hero"|"villain", team, super (name or None), health, max_health,
    ko, first, locked (Phase 1: locked in), announced (immediate action names this round),
    locked_in [{"name", "text"}], spoilers,
    hidden (True when this viewer may not see the player's roll and placements now),
    dice [{"id", "kind" "trait"|"action", "colour", "faces" (the six faces, "_" blank),
           "up" (face showing, None when hidden or between rounds)}],
    unattached (faces kept off the dice), action_names (the actions on their board),
    board [{"action", "panel", "dice" [ids], "faces" [faces], "ally", "immediate"}] or None
      when hidden, pointer (seat or None when hidden / not 2 vs 2),
    todo (Power Up actions still to use), pending [{"source", "by", "amount"}] (losses to take),
    free (ids of dice not placed on any action; None when hidden),
    attack / defense: the sums of what is placed now (a combat.py computation, with
      "text" = combat.formula), None when hidden
- duo: 2 vs 2 only, per team {"team", "seats", "hidden", "board" (as above, with "by") or None}
- pools: {"trait": {colour: n}, "action": n, "faces": {face: n}}; pool_totals the same at full
- combat: None before the first reveal, else the last reveal (kept until the next one):
  {"round", "boards": {seat: [{"action", "dice", "faces", "ally"}]}, "duo": [per team, the
  same], "pointers": {seat: seat|None}, "summary": {seat: {"attack", "defense"}},
  "attacks": [{"attacker", "target", "attack", "defense", "defense_left", "loss",
  "health" [before, after], "note"}]} — seats as string keys; each computation as in
  combat.py (base, bases, bonuses, kickers, multiplier, multipliers, total, spends_spoilers)
- result: None, or {"winners", "reason", "ending"}
- face_names: {face letter: its name} ("M": "Might", "_": "blank")
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import join_names
from .combat import formula
from .data import ABILITY_TEXT, ALL_ACTIONS, FACE_NAMES, ROUND_LIMIT
from .dice import new_pool, slots

if TYPE_CHECKING:
    from .game import Kaploom

STAGE_PHASE = {"roll": 1, "assign": 1, "reveal": 2, "power": 3, "over": 4}


def _hidden(g: "Kaploom", viewer: int | None, seat: int) -> bool:
    """Phase 1 faces and placements are seen by the player's own team only."""
    if g.result is not None or g.stage != "assign":
        return False
    return viewer is None or g.seats[viewer]["team"] != g.seats[seat]["team"]


def _board(g: "Kaploom", board: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, place in board.items():
        out.append({"action": name, "panel": ALL_ACTIONS[name].panel,
                    "dice": list(place["dice"]),
                    "faces": [g.dice[d]["up"] for d in place["dice"]],
                    "by": place["by"], "ally": place.get("ally"),
                    "immediate": bool(place.get("immediate"))})
    return out


def _sums(g: "Kaploom", seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    from .phase2 import attack_of, defense_of
    atk, dfn = attack_of(g, seat), defense_of(g, seat)
    atk["text"], dfn["text"] = formula(atk), formula(dfn)
    return atk, dfn


def build(g: "Kaploom", viewer: int | None) -> dict[str, Any]:
    players = []
    placed = g.placed_dice()
    for s, p in enumerate(g.seats):
        hidden = _hidden(g, viewer, s)
        dice = []
        for d in g.dice_of(s):
            die = g.dice[d]
            dice.append({"id": d, "kind": die["kind"], "colour": die["colour"],
                         "faces": slots(die), "up": None if hidden else die["up"]})
        players.append({
            "seat": s, "name": g.name(s), "code": f"@{s + 1}", "role": p["super"] or p["side"],
            "side": p["side"], "team": p["team"],
            "super": p["super"], "health": p["health"], "max_health": p["max"], "ko": p["ko"],
            "first": g.first == s, "locked": p["locked"], "announced": list(p["announced"]),
            "locked_in": [{"name": n, "text": ABILITY_TEXT[ALL_ACTIONS[n].ability or ""]}
                          for n in p["locked_in"]],
            "spoilers": p["spoilers"], "hidden": hidden, "dice": dice,
            "unattached": list(p["unattached"]),
            "action_names": [a.name for a in g.actions_of(s)],
            "board": None if hidden else _board(g, p["board"]),
            "pointer": None if hidden else p["pointer"],
            "todo": list(p["todo"]),
            "pending": [dict(x) for x in p["pending"]],
            "free": None if hidden else [d for d in g.dice_of(s) if d not in placed],
        })
        if hidden:
            players[-1]["attack"] = players[-1]["defense"] = None
        else:
            players[-1]["attack"], players[-1]["defense"] = _sums(g, s)
    duo = []
    for t, board in enumerate(g.duo):
        seats = [s for s in range(g.players) if g.seats[s]["team"] == t]
        hidden = _hidden(g, viewer, seats[0])
        duo.append({"team": t, "seats": seats, "hidden": hidden,
                    "board": None if hidden else _board(g, board)})
    stage = "over" if g.result is not None else g.stage
    turn = g.order[g.turn] if stage == "power" and g.turn < len(g.order) else None
    return {
        "kind": "kaploom", "mode": g.mode, "round": g.round, "round_limit": ROUND_LIMIT,
        "you": viewer, "phase": STAGE_PHASE[stage], "stage": stage,
        "rerolling": bool(g.rerolls), "first": g.first, "order": list(g.order), "turn": turn,
        "players": players, "duo": duo,
        "pools": {"trait": dict(g.pool["trait"]), "action": g.pool["action"],
                  "faces": dict(g.pool["faces"])},
        "pool_totals": new_pool(2 if g.mode == "2v2" else 1),
        "combat": g.combat,
        "result": g.result,
        "face_names": dict(FACE_NAMES),
    }


def _die_text(die: dict[str, Any]) -> str:
    name = die["colour"] if die["kind"] == "trait" else (
        "act[" + "".join(f for f in die["faces"] if f != "_") + "]")
    return f"{die['id']} {name}" + (f"={die['up']}" if die["up"] else "")


def text(v: dict[str, Any]) -> str:
    """A few plain lines: the round, each player, the pool, the last fight."""
    stage = {"roll": "rolling", "assign": "secret assignment", "reveal": "reveal",
             "power": "power up", "over": "game over"}[v["stage"]]
    lines = [f"KAPLOOM! round {v['round']}/{v['round_limit']}, phase {v['phase']} ({stage}); "
             f"first player {v['players'][v['first']]['name']}"
             + (f"; powering up: {v['players'][v['turn']]['name']}" if v["turn"] is not None
                else "")]
    names = [p["name"] for p in v["players"]]
    for p in v["players"]:
        tag = p["super"] or p["side"]
        line = (f"{p['name']} ({tag}){' (KO)' if p['ko'] else ''}: "
                f"{p['health']}/{p['max_health']} health; dice "
                + ", ".join(_die_text(d) for d in p["dice"]))
        if p["unattached"]:
            line += f"; unattached {' '.join(p['unattached'])}"
        if p["locked_in"]:
            line += "; abilities " + ", ".join(x["name"] for x in p["locked_in"])
        if p["spoilers"]:
            line += f"; spoilers {p['spoilers']}"
        if v["stage"] == "assign":
            line += "; ready" if p["locked"] else "; assigning"
            if p["announced"]:
                line += " (" + ", ".join(p["announced"]) + ")"
        if p["board"]:
            line += "; board " + ", ".join(
                f"{b['action']}[{' '.join(b['faces'])}]" for b in p["board"])
        if p["pending"]:
            line += "; to take: " + ", ".join(f"{x['source']} {x['amount']}"
                                              for x in p["pending"])
        lines.append(line)
    for team in v["duo"]:
        if team["board"]:
            lines.append("Duo board " + " + ".join(names[s] for s in team["seats"]) + ": "
                         + ", ".join(f"{b['action']}[{' '.join(b['faces'])}]"
                                     for b in team["board"]))
    pools = v["pools"]
    lines.append("Pool: trait " + " ".join(f"{c} {n}" for c, n in pools["trait"].items())
                 + f"; action dice {pools['action']}; faces "
                 + " ".join(f"{f}{n}" for f, n in pools["faces"].items()))
    if v["combat"]:
        for a in v["combat"]["attacks"]:
            if a["defense"] is not None:
                lines.append(f"Round {v['combat']['round']}: {names[a['attacker']]} → "
                             f"{names[a['target']]}: attack {formula(a['attack'])}, defense "
                             f"{formula(a['defense'])}, loss {a['loss']}")
    if v["result"]:
        r = v["result"]
        lines.append("Result: " + (", ".join(names[w] for w in r["winners"]) + " win"
                                   if r["winners"] else "draw") + f" ({r['reason']})")
    out = "\n".join(lines)
    return out if len(out) <= 1500 else out[:1497] + "..."



# --- words for a seat's screen, the dice list and the reveal (plain text; screens lay it out) ---

def die_text(v: dict[str, Any], die: dict[str, Any], face: bool = True) -> str:
    """`d2 yellow: Energy`, `d5 action die [XW]` (the face only while the view shows one)."""
    faces = "".join(f for f in die["faces"] if f != "_")
    name = die["colour"] if die["kind"] == "trait" else f"action die [{faces}]"
    up = die.get("up") if face else None
    return f"{die['id']} {name}" + (f": {v['face_names'][up]}" if up is not None else "")


def seat_lines(v: dict[str, Any]) -> list[str]:
    """What a seat's own panel says of the game (`v` is that seat's view): only the seat's
    facts and its ally's roll as rolled, so what others do in secret never changes it."""
    seat = v["you"]
    me = v["players"][seat]
    names = [p["name"] for p in v["players"]]
    dice = {d["id"]: d for p in v["players"] for d in p["dice"]}
    stage = "Phase 1, behind your screen" if v["stage"] == "assign" else (
        "Power Up" if v["stage"] == "power" else f"phase {v['phase']}")
    lines = [f"round {v['round']}: {stage} ({me['name']}, the {me['role']}) ❤️ "
             f"{me['health']}/{me['max_health']} health"
             + (" — knocked out" if me["ko"] else "")]
    if v["stage"] == "assign":
        lines.append("🎲 Your roll — unplaced: " + (" · ".join(
            die_text(v, dice[d]) for d in me["free"] or []) or "none"))
        places = [("📋 Placed", b) for b in me["board"] or []] + [
            ("🤝 Duo board", b) for t in v["duo"] if seat in t["seats"] for b in t["board"] or []]
        for where, b in places:
            lines.append(f"{where}: {b['action']} ← "
                         + " + ".join(die_text(v, dice[d]) for d in b["dice"])
                         + (f" (for {names[b['ally']]})" if b.get("ally") is not None else ""))
        if me["attack"] is not None and (me["attack"]["base"] or me["defense"]["base"]):
            lines.append(f"⚔️ Your attack now: {me['attack']['text']} · 🛡️ defense: "
                         f"{me['defense']['text']}")
        if me["pointer"] is not None:
            lines.append(f"🎯 You attack {names[me['pointer']]} this round.")
        return lines
    if me["pending"]:
        lines.append("⚠️ Pending: " + ", ".join(
            f"{x['source']} −{x['amount']} health (from {names[x['by']]})"
            for x in me["pending"]))
    lines.append("🎲 Your dice: " + ", ".join(die_text(v, d, face=False) for d in me["dice"])
                 + "".join(f" · {k}: {x}" for k, x in (
                     ("unattached faces", " ".join(me["unattached"])),
                     ("abilities", ", ".join(x["name"] for x in me["locked_in"])),
                     ("spoiler tokens", me["spoilers"])) if x))
    return lines


def ally_lines(v: dict[str, Any]) -> list[str]:
    """What the seat's ally has now (2 vs 2, Phase 1; `v` is the seat's view): their roll as
    it stands and their own board. Told in the seat's panel whenever it is shown, but never a
    reason to show it again: the ally's moves are theirs."""
    me = v["players"][v["you"]]
    lines = []
    if v["stage"] == "assign":
        for ally in (p for p in v["players"] if p["team"] == me["team"] and p is not me):
            dice = {d["id"]: d for d in ally["dice"]}
            lines.append(f"🤝 Your ally {ally['name']} — unplaced: " + (" · ".join(
                die_text(v, dice[d]) for d in ally["free"] or []) or "none") + (
                "; placed: " + " · ".join(f"{b['action']} ← " + " + ".join(
                    die_text(v, dice[d]) for d in b["dice"] if d in dice) for b in ally["board"])
                if ally["board"] else "") + (" (locked in)" if ally["locked"] else ""))
    return lines


def dice_lines(v: dict[str, Any], seats: list[int]) -> list[str]:
    """Every die of these players, its six faces and (once revealed) the face showing."""
    lines = [f"round {v['round']} — dice (the six faces of each; _ is blank)"
             + (". The faces rolled this round stay behind the screens until the reveal."
                if v["stage"] == "assign" else ".")]
    for p in (v["players"][s] for s in seats):
        lines.append(f"{p['name']} — {p['role']}, ❤️ {p['health']}/{p['max_health']}"
                     + (" (KO)" if p["ko"] else ""))
        for d in p["dice"]:
            lines.append(f"  • {die_text(v, d, face=False)}: {' '.join(d['faces'])}"
                         + (f" — showing {v['face_names'][d['up']]}"
                            if d.get("up") is not None else ""))
        extra = ([f"unattached faces {' '.join(p['unattached'])}"] if p["unattached"] else []) \
            + (["locked in: " + "; ".join(f"{x['name']} ({x['text']})" for x in p["locked_in"])]
               if p["locked_in"] else []) \
            + ([f"spoiler tokens {p['spoilers']}"] if p["spoilers"] else [])
        if extra:
            lines.append("  " + " · ".join(extra))
    return lines


def reveal_lines(v: dict[str, Any]) -> list[str]:
    """The last reveal, a line per board: each action with the faces on it, who attacks whom."""
    combat = v["combat"]
    names, faces = [p["name"] for p in v["players"]], v["face_names"]

    def acts(board: list[dict[str, Any]]) -> str:
        return " · ".join(f"{b['action']} (" + " ".join(faces[f] for f in b["faces"]) + ")"
                          + (f" for {names[b['ally']]}" if b.get("ally") is not None else "")
                          for b in board) or "no actions"
    lines = [f"Round {combat['round']}, Phase 2 — the screens come off!"]
    for p in v["players"]:
        target = (combat.get("pointers") or {}).get(str(p["seat"]))
        lines.append(f"• {p['name']} ({p['role']}): "
                     + acts(combat["boards"].get(str(p["seat"])) or [])
                     + (f" — attacks {names[target]}" if v["mode"] == "2v2"
                        and target is not None else ""))
    lines += [f"• Duo board of {join_names([names[s] for s in t['seats']])}: {acts(b)}"
              for t, b in zip(v["duo"], combat.get("duo") or []) if b]
    return lines


def picture_view(v: dict[str, Any]) -> dict[str, Any]:
    """The view a picture draws (a copy of `v`). In Phase 1 it is the roll:
    nobody's lock-in, announcement or placements (the texts say those), so a picture drawn
    at the roll stays true, and is drawn again only when the roll itself changes."""
    v = {**v, "players": [dict(p) for p in v["players"]],
         "duo": [dict(t) for t in v["duo"]]}
    if v["stage"] == "assign":
        for p in v["players"]:
            p.update(locked=False, announced=[])
            if p["board"] is not None:
                p.update(board=[], attack=None, defense=None, pointer=None,
                         free=[d["id"] for d in p["dice"]])
        for t in v["duo"]:
            t["board"] = None if t["board"] is None else []
    return v
