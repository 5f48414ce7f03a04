"""What each seat may see, and the board as text. Secrets are stripped here and only here.

`view(player)` (player None = the public) is a JSON dict:

- `names`: the players' names by seat (what every text and picture calls them),
  `need_target` (three or more fighters standing: each names a target),
- `kind`, `round`, `round_limit`, `phase` ("choose" | "roll" | "window" | "attack" | "over"),
  `you` (the viewer's seat or None), `waiting_for` (seats that must act now; "chance" while
  the dice roll), `result` (None, or {"winners": [...], "reason": str}).
- `rules`: {"multiple_attacks", "intimidate", "tag_team", "combos": bool, "fair_length": int,
  "supply": [sizes], "choose_seconds", "window_seconds": int}.
- `fighters`: one per seat, in seat order:
  - `seat`, `standing` (bool), `active` (index into `cards`), `slashes_taken` (all cards),
  - `cards`: [{"name", "zip", "digits": [int], "slashes": [0|1|2 per digit], "out": bool}],
  - `supply`: {"d4": n, "d6": n, "d8": n, "d10": n} dice available (combo dice excluded),
  - `combo`: [{"size", "value"}] dice set aside for a combo (public once revealed),
  - `crippled`: [values] (Snapping Pencil), `blinded` (Hot Coffee Spout), `claw_ready`
    (a Collating Claw swap may be used this round or the next),
  - `chosen` (dice chosen this round), `ready` (window done),
  - `dice` ([sizes] chosen) and `target` (seat) — None for others until the dice are rolled,
  - `rolls` ([{"size", "value"}]), `depth`, `sets` ([{"height", "width"}] as rolled),
  - `attacks` ([{"rolled", "height", "width", "depth", "clawed", "intimidated"}]) once the
    window is revealed,
  - `name`: the player's name,
  - only in the viewer's own entry: `tag_pending` and `dice_list` (the dice of the supply one
    by one, for a menu; choose phase), `plan` (window phase: {"steps": [...], "attacks":
    [...], "intimidate": [...], "aside": [die indexes], "text": the plan in words}), and
    `moves` while they may act: their legal moves by kind (`game.move_groups`: dice, target,
    tag, set, claw, intimidate, combo, undo, done, slash, best, special, pencil, hold).
- `attack_order`: [{"seat", "kind" ("set" | "special"), "card", "height", "width", "depth",
  "order", "done"}] for this round, once revealed (else []).
- `pending`: None, or the attack being made now: {"seat", "stage" ("redirect" | "special" |
  "slash"), "target", "reach" (height), "slashes_left", "width", "moves" (the attacker's
  moves by kind: attacks are public)}; while slashing also "slashable" ([{"position", "digit",
  "slashes"}]: the digits in reach that are not X'd) and "best" (the rest of the attack
  best-first as one move, `slash 8 8 6`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import CHANCE
from .cards import mark
from .describe import plan_text, slashes
from .dice import counts, dice_text

if TYPE_CHECKING:
    from .game import TradeShowdown


def build_view(game: "TradeShowdown", player: int | None) -> dict[str, Any]:
    phase = "over" if game.result is not None else game.phase
    # Dice choices and targets are secret until the roll; window plans until the reveal.
    revealed = game.phase != "choose"
    fighters = []
    for s, seat in enumerate(game.seats):
        own = player == s
        show = revealed or own
        f: dict[str, Any] = {
            "seat": s, "standing": not seat["out"], "active": seat["active"],
            "slashes_taken": game.taken(s),
            "cards": [{"name": c["name"], "zip": c["zip"], "digits": list(c["digits"]),
                       "slashes": list(c["slashes"]), "out": c["out"]} for c in seat["cards"]],
            "supply": {f"d{k}": n for k, n in counts(game.available(s)).items()},
            "combo": [dict(d) for d in seat["combo"]],
            "crippled": list(seat["crippled"]), "blinded": seat["blinded"],
            "claw_ready": seat["claw_round"] >= game.round,
            "chosen": seat["dice"] is not None, "ready": bool(seat["done"]),
            "dice": list(seat["dice"]) if show and seat["dice"] is not None else None,
            "target": seat["target"] if show else None,
            "rolls": [dict(r) for r in seat["rolls"]], "depth": len(seat["rolls"]),
            "sets": [dict(x) for x in seat["sets"]],
            "attacks": [dict(a) for a in seat["attacks"]],
        }
        f["name"] = game.name(s)
        if own and game.phase == "choose":
            f["tag_pending"] = seat["tag"]
            f["dice_list"] = game.available(s)
        if own and game.phase == "window" and game.result is None:
            plan = game.plan(s)
            f["plan"] = {"steps": [dict(x) for x in seat["window"]],
                         "attacks": game.plan_sets(s, plan),
                         "intimidate": plan["intimidate"], "aside": plan["aside"],
                         "text": plan_text(game, s)}
        if own and game.result is None and s in game.actors():
            f["moves"] = game.move_groups(s)  # the viewer's own choices, sorted by kind
        fighters.append(f)
    pending = None
    if game.result is None and game.phase == "attack" and game.stage is not None:
        e = game.attacks[game.at]
        pending = {"seat": e["seat"], "stage": game.stage,
                   "target": game.seats[e["seat"]]["target"], "reach": e["height"],
                   "slashes_left": game.left if game.stage == "slash" else 0,
                   "width": e["width"],
                   # Attacks are public: what the attacker may do now, by kind.
                   "moves": game.move_groups(e["seat"])}
        if game.stage == "slash":
            t = game.seats[e["seat"]]["target"]
            card = game.fighter(t)
            pending["slashable"] = [
                {"position": i, "digit": d, "slashes": n}
                for i, (d, n) in enumerate(zip(card["digits"], card["slashes"]))
                if d <= e["height"] and n < 2]
            pending["best"] = game.best_slashes(e["seat"])
    return {
        "kind": game.KIND, "round": game.round, "round_limit": game.options["round_limit"],
        "names": list(game.names), "need_target": game.need_target(),
        "phase": phase, "you": player,
        "waiting_for": game.actors(),
        "rules": {k: game.options[k] for k in ("multiple_attacks", "intimidate", "tag_team",
                                                "combos", "fair_length", "choose_seconds",
                                                "window_seconds")}
        | {"supply": list(game.supply)},
        "fighters": fighters,
        "attack_order": [dict(e) for e in game.attacks] if game.phase == "attack" else [],
        "pending": pending,
        "result": game.result,
    }


PHASE_WORDS = {"choose": "choosing dice in secret", "roll": "rolling the dice",
               "window": "deciding after the roll, in secret", "attack": "attacks",
               "over": "the fight is over"}


def build_text(v: dict[str, Any]) -> str:
    """A few plain lines: round and phase, each fighter's card, the roll, what happens now.
    Players are named; a card reads `6/` for one slash, `X` for a digit X'd out."""
    names = v["names"]
    lines = [f"TradeShowdown — round {v['round']} of {v['round_limit']} — "
             f"{PHASE_WORDS.get(v['phase'], v['phase'])}"]
    for f in v["fighters"]:
        s = f["seat"]
        card = f["cards"][f["active"]]
        tag = ""
        if len(f["cards"]) > 1:
            other = f["cards"][1 - f["active"]]
            tag = f" (partner {other['name']}{', X’d out' if other['out'] else ''})"
        state = "" if f["standing"] else " — defeated"
        marks = []
        if f["crippled"]:
            marks.append("dice showing " + ", ".join(map(str, f["crippled"]))
                         + " never make sets")
        if f["blinded"]:
            marks.append("blinded: depth counts double")
        if f["combo"]:
            marks.append(f"combo {len(f['combo'])} of 5 dice")
        if f["claw_ready"]:
            marks.append("Collating Claw ready")
        lines.append(f"{names[s]} — {card['name']}{tag}{state}: {mark(card)}"
                     + (f" [{'; '.join(marks)}]" if marks else ""))
        if f["rolls"]:
            sets = ", ".join(f"{x['width']} × {x['height']}" for x in f["sets"]) or "no set"
            lines.append(f"   rolled {' '.join(str(r['value']) for r in f['rolls'])} "
                         f"({f['depth']} dice): sets {sets}"
                         + (f" → attacking {names[f['target']]}" if f["target"] is not None
                            and len(v["fighters"]) > 2 else ""))
        elif f["dice"] is not None:
            lines.append(f"   will roll {dice_text(f['dice'])}")
    p = v["pending"]
    if v["result"] is not None:
        r = v["result"]
        who = ", ".join(names[w] for w in r["winners"]) or "nobody (a draw)"
        lines.append(f"Winner: {who} — {r['reason']}")
    elif p is not None:
        who = names[p["seat"]]
        if p["stage"] == "slash":
            lines.append(f"Now: {who} slashes {names[p['target']]}'s card — "
                         f"{slashes(p['slashes_left'])} left, on digits up to {p['reach']}")
        elif p["stage"] == "special":
            lines.append(f"Now: {who} may fire a special attack (five combo dice)")
        else:
            lines.append(f"Now: {who} picks a new target")
    elif v["waiting_for"] == [CHANCE]:
        lines.append("Now: the dice are rolled")
    elif v["waiting_for"]:
        who = ", ".join(names[w] for w in v["waiting_for"])
        lines.append(f"Waiting for {who} ({PHASE_WORDS.get(v['phase'], v['phase'])})")
    return "\n".join(lines)[:1500]


__all__ = ["build_view", "build_text"]
