"""What a seat may see of Crazy Die-Man, and the board as plain text.

`build(game, player)` returns (player None = the public view; the only secret is a banner
set-up not yet revealed, which appears only in its owner's `my_setup`):

- `kind`, `title`; `mode`: the game's mode option ("physical" | "simulated");
  `flick_mode`: the mode of the current/next flick (differs after an agreed per-flick switch).
- `phase`: "setup" | "first" (the first-player draw / Stand Cry vote) | "move" | "flick" |
  "review" (a physical report awaits `accept`/`dispute`) | "switch" (a mode switch awaits
  `agree`/`refuse`) | "reposition" | "customers" | "over".
- `turn` (1-based, 0 before the first), `round`, `round_limit`, `first_player`, `active`
  (seat whose turn it is, or None), `waiting_for`: seats (or "chance") who must act now.
- `setup_done`: [bool, bool]; `my_setup`: the viewer's own chosen spots while set-up is secret
  (None for others and for the public).
- `names`: the players' names by seat.
- `sides`: two dicts, index = seat: `seat`, `name` (the player's name), `code` ("P1"/"P2", the
  notation's side prefix), `damage` (Property Damage),
  `stand` (its stand spot "S1".."S3"), `spots`: {"F1".."B3": "up" | "down" | None} (a spot
  shows "down" when a knocked banner lies there and none stands), `banners`: the 4 banners as
  [{"at": spot or the Stand's spot, "up": bool, "super_sale": bool}] (empty until revealed),
  `super_sale`: {"up": n, "down": n} (on / knocked off the Stand), `customers`: ["C1", ...],
  `front_standing`: bool (the Bonus Flick condition).
- `supply`: customers left in the shared supply.
- `turn_info` (None outside a turn): `declared` (None until declared), `bonus`, `resolved`,
  `remaining`, `moved`, `stand_locked` (started the turn with a Super Sale Banner up),
  `bonus_allowed`, `super_sale_allowed`, `attract` (customers still to place), `placed`
  (the spots banners were put on in this Reposition: each banner moves once).
- `flick` (None unless a flick is in progress): `number` (1-based), `of`, `mode`, `called`,
  `target` (simulated aim), `marks` (physical report being built), `report` (the report under
  review: {"value", "off", "fell"}), `disputed`, `proposal` (mode proposed, awaiting the
  opponent), `pending` (simulated: {"outcome", "value", "choose", "options"} while a follow-up
  draw is due).
- `odds` (simulated flick waiting for its aim, else None): {"aim": {target: odds},
  "called": {target: odds}} with each odds from `odds.flick_odds` (points per 100).
- `setup_spots` (during set-up): the six banner spots in words. (What the viewer may do now is
  `DieMen.menu(seat)`, not the view.)
- `shots` (the flicker's own view while `odds` is shown, else None): the aim and Called Shot
  choices in words (`shots()`); `report_items` (the flicker's own view of a physical flick,
  else None): what can fall, for the report form (`report_items()`).
- `last_flicks`: the latest resolved flicks, oldest first, for arrows: {"n", "turn", "by",
  "mode", "number", "of", "from" ("P1:S2"), "to" (aimed/called label or None), "called",
  "value", "off", "outcome" (simulated only), "fell" (labels), "other" (own banners knocked
  by other means), "added" ([+P1, +P2]), "damage" ([P1, P2] after it)}.
- `result`: None, or {"winners", "reason"}.

Spot labels are "P1:F2" style (rulings, "The Sales Floor"); coordinates: `board.spot_xy`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board, rules
from .base import ROUND_LIMIT, plural

if TYPE_CHECKING:
    from .game import DieMen


SETUP_SPOTS = [
    {"spot": s, "area": "front area" if s in board.FRONT_SPOTS else "back area",
     "words": ("closer to your rival: easier to hit; a banner standing here allows a Bonus "
               "Flick") if s in board.FRONT_SPOTS else "farther back: harder to hit"}
    for s in board.BANNER_SPOTS]


def shots(game: "DieMen", player: int) -> list[dict[str, Any]]:
    """The simulated flick's choices for its flicker, in words (computed by the rules code):
    {"move", "label", "effect", "called", "target" (label or "middle"), "target_chance" (% that
    the target falls), "knock_chance" (% that anything of the rival's falls), "odds"}."""
    from .odds import knock_chance, target_chance
    out = []
    for move in game.legal(player):
        verb, _, arg = move.partition(" ")
        if verb not in ("aim", "called"):
            continue
        lab = "middle" if arg == "middle" else board.label(1 - player, arg)
        odds = game.odds(lab, verb == "called")
        said = game.describe(move, player)
        out.append({"move": move, "label": said.label, "effect": said.effect,
                    "called": verb == "called", "target": lab, "spot": arg,
                    "target_chance": target_chance(odds), "knock_chance": knock_chance(odds),
                    "odds": odds})
    return out


def report_items(game: "DieMen", player: int) -> list[dict[str, Any]]:
    """What can fall in a physical flick, for the report form: {"token" (as written in
    `hit=`), "words", "whose" ("rival"/"own"), "key" (unique: a Stand with two Super Sale
    Banners is listed twice)}. Knocking your own things or a customer costs you the roll."""
    out = []
    e = 1 - player
    for seat in (e, player):
        seen: dict[str, int] = {}
        for spot in rules.items(game.side(seat)):
            token = spot if seat == e else board.label(seat, spot)
            seen[token] = seen.get(token, 0) + 1
            whose = "your" if seat == player else f"{game.name(seat)}'s"
            if spot in board.STAND_SPOTS:
                what = f"{whose} Super Sale Banner (Stand {spot})"
            elif spot in board.CUSTOMER_SPOTS:
                what = f"{whose} customer on {spot}"
            else:
                what = f"{whose} banner on {spot}"
            out.append({"token": token, "words": what, "whose": "own" if seat == player
                        else "rival", "key": f"{token}#{seen[token]}"})
    return out


def build(game: "DieMen", player: int | None) -> dict[str, Any]:
    sides = []
    for seat in (0, 1):
        s = game.side(seat)
        spots: dict[str, str | None] = {sp: None for sp in board.BANNER_SPOTS}
        for b in s["banners"]:
            if b["at"] != "stand" and (b["up"] or spots[b["at"]] is None):
                spots[b["at"]] = "up" if b["up"] else "down"
        banners = [{"at": s["stand"] if b["at"] == "stand" else b["at"], "up": b["up"],
                    "super_sale": b["at"] == "stand"} for b in s["banners"]]
        ssb_up = rules.super_sale_up(s)
        ssb_down = sum(1 for b in s["banners"] if b["at"] == "stand" and not b["up"])
        sides.append({"seat": seat, "name": game.name(seat), "code": board.SIDE_NAMES[seat],
                      "damage": s["damage"],
                      "stand": s["stand"], "spots": spots, "banners": banners,
                      "super_sale": {"up": ssb_up, "down": ssb_down},
                      "customers": sorted(s["customers"]),
                      "front_standing": rules.front_standing(s)})
    secret = game.phase == "setup"
    t = game.t
    turn_info = None
    flick = None
    odds = None
    if t is not None and game.result is None and game.phase not in ("setup", "first"):
        declared = t["declared"]
        turn_info = {"declared": declared, "bonus": t["bonus"], "resolved": t["resolved"],
                     "remaining": (declared - t["resolved"]) if declared is not None else None,
                     "moved": t["moved"], "stand_locked": t["ssb_at_start"] > 0,
                     "bonus_allowed": game.bonus_allowed(),
                     "super_sale_allowed": game.super_sale_allowed(),
                     "attract": t["attract"], "placed": list(t["placed"])}
        f = t["flick"]
        if f is not None:
            sim = f["sim"]
            flick = {"number": t["resolved"] + 1, "of": declared, "mode": game.flick_mode(),
                     "called": f["called"], "target": f["target"], "marks": list(f["marks"]),
                     "report": f["report"], "disputed": f["disputed"],
                     "proposal": f["proposal"],
                     "pending": ({k: sim[k] for k in ("outcome", "value", "choose", "options")}
                                 if sim else None)}
            if game.phase == "flick" and game.flick_mode() == "simulated" \
                    and f["target"] is None:
                odds = {"aim": {x: game.odds(x, False) for x in game.aim_targets()},
                        "called": ({x: game.odds(x, True) for x in game.call_targets()}
                                   if f["called"] is None else {})}
    actors = game.actors()
    fallen = None
    if (player is not None and game.phase == "flick" and player == game.active
            and game.flick_mode() == "physical"):
        fallen = report_items(game, player)
    return {
        "kind": game.KIND, "title": game.TITLE,
        "mode": game.options["mode"],
        "flick_mode": game.flick_mode() if t is not None else game.options["mode"],
        "phase": "over" if game.result is not None else game.phase,
        "turn": game.turn, "round": (game.turn + 1) // 2, "round_limit": ROUND_LIMIT,
        "first_player": game.first, "active": game.active,
        "waiting_for": ["chance" if a == "chance" else a for a in actors],
        "setup_done": [c is not None for c in game.setup_choice] if secret else [True, True],
        "my_setup": (list(game.setup_choice[player])
                     if secret and player is not None and game.setup_choice[player] is not None
                     else None),
        "sides": sides, "supply": game.floor["supply"],
        "names": list(game.names),
        "setup_spots": SETUP_SPOTS if secret else None,
        "turn_info": turn_info, "flick": flick, "odds": odds,
        "shots": shots(game, player) if odds is not None and player == game.active else None,
        "report_items": fallen,
        "last_flicks": [dict(r) for r in game.flicks],
        "result": game.result,
    }


_MARK = {"up": "up", "down": "DOWN", None: "--"}


def _side_lines(v: dict[str, Any], seat: int) -> list[str]:
    s = v["sides"][seat]
    ss = s["super_sale"]
    head = f"{s['name']}: Property Damage {s['damage']}; Stand at {s['stand']}"
    if ss["up"] or ss["down"]:
        head += f" with {plural(ss['up'], 'Super Sale Banner')} up" + (
            f", {ss['down']} knocked off" if ss["down"] else "")
    head += "; customers " + (", ".join(s["customers"]) if s["customers"] else "none")
    if not s["banners"]:
        return [head, "  banners not revealed yet"]
    # Drawn as seen from P1's end of the table: P2's spots run right to left, so columns line
    # up across the middle line (P1's F1 faces P2's F3).
    order = (lambda spots: spots) if seat == 0 else (lambda spots: tuple(reversed(spots)))
    back = "  back:  " + " | ".join(f"{sp} {_MARK[s['spots'][sp]]}"
                                    for sp in order(board.BACK_SPOTS))
    front = "  front: " + " | ".join(f"{sp} {_MARK[s['spots'][sp]]}"
                                     for sp in order(board.FRONT_SPOTS))
    return [head, back, front]


def _spot_words(v: dict[str, Any], lab: str) -> str:
    """`P2:F2` -> "Bea's F2" (the side by its player's name)."""
    if lab == "middle":
        return "the middle"
    seat, spot = board.split_label(lab)
    return f"{v['sides'][seat]['name']}'s {spot}"


def _all_words(v: dict[str, Any], labs: list[str]) -> str:
    return ", ".join(_spot_words(v, x) for x in labs)


def render_text(v: dict[str, Any]) -> str:
    lines = [f"{v['title']} ({v['mode']}) - turn {v['turn']}, round {v['round']} of "
             f"{v['round_limit']}, phase {v['phase']}"]
    lines += _side_lines(v, 1)
    lines.append("  ---------------- middle line ----------------")
    lines += list(reversed(_side_lines(v, 0)[1:])) + [_side_lines(v, 0)[0]]
    ti = v["turn_info"]
    if ti and v["active"] is not None:
        decl = ("not declared" if ti["declared"] is None else
                f"{ti['resolved']} of {ti['declared']} flicks done"
                + (" (Bonus Flick)" if ti["bonus"] else ""))
        lines.append(f"{v['sides'][v['active']]['name']} to play: {decl}; next flick "
                     f"{v['flick_mode']}.")
    f = v["flick"]
    if f:
        if f["called"]:
            lines.append(f"Called Shot: {_spot_words(v, f['called'])}.")
        if f["report"]:
            r = f["report"]
            lines.append(f"Report under review: rolled {r['value']}, "
                         + ("off the floor" if r["off"] else
                            ("fell " + _all_words(v, r["fell"]) if r["fell"]
                             else "nothing fell"))
                         + ".")
        if f["proposal"]:
            lines.append(f"Proposed: this flick {f['proposal']}.")
    if v["last_flicks"]:
        r = v["last_flicks"][-1]
        by = v["sides"][r["by"]]["name"]
        lines.append(f"Last flick, by {by}: at "
                     f"{_spot_words(v, r['to']) if r['to'] else 'no target'}, rolled "
                     f"{r['value']}: " + ("off the floor" if r["off"] else
                                          (_all_words(v, r["fell"]) + " fell" if r["fell"]
                                           else "nothing fell"))
                     + (f"; {_all_words(v, r['other'])} knocked off the Stand"
                        if r["other"] else "")
                     + ".")
    if v["my_setup"]:
        lines.append("Your banners (secret until both have set up): "
                     + " ".join(v["my_setup"]) + ".")
    if v["phase"] == "setup":
        lines.append("Setting up banners in secret: "
                     + ", ".join(f"{v['sides'][i]['name']} {'done' if d else 'choosing'}"
                                 for i, d in enumerate(v["setup_done"])) + ".")
    if v["result"]:
        w = v["result"]["winners"]
        lines.append(("Draw" if not w else f"Winner: {v['sides'][w[0]]['name']}")
                     + f" ({v['result']['reason']}).")
    return "\n".join(lines)
