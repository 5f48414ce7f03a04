"""What each seat may see, and the text board built from it.

`view(player)` keys (player = seat 0/1, or None for the public channel view):

- `kind`, `title`; `you`: the seat the view is for (None = public).
- `columns`, `rows`: board size; squares are named a1 (player 1's left corner) upwards.
- `halves`: [[first_row, last_row] for player 1, ... for player 2], 1-based.
- `phase`: "placement" (the Wall of Unknowing stands) | "first_player" (waiting for the
  chance draw / crowd vote) | "slide" | "slam" | "response" (the defender may say DICE IS NOT
  BEND!) | "over".
- `turn`: turn number (0 before play; 1 = the first player's first turn); `current`: seat
  whose turn it is (None before play); `first_player`: seat or None; `to_act`: the seats that
  must act now, or ["chance"].
- `dice`: list of {letter, owner, health, start, square, awakened, stunned}, sorted by letter.
  During placement only the viewer's own placed dice are listed (nothing in the public view);
  from the moment both have confirmed, every die on the board, for everyone.
- `removed`: letters of destroyed dice, in order; `lost`: [player 1's, player 2's] of them.
- `placement`: {confirmed: [bool, bool], mine: {square: health} | None (own placement, the
  viewer's seat only, during placement), unplaced: [healths still to place] | None}.
- `tokens_used`: [bool, bool] (Power Token flipped to X); `awakened_used`: [bool, bool].
- `can_awaken`: whether the current player may awaken right now.
- `slide_skipped`: the current player's slide was skipped (no die could move).
- `no_super_slam`: the opening rule is in force (turn 1).
- `last_slide`: {die, owner, from, to, path: [squares, start first], turn} | None.
- `last_slam`: {die, owner, square, super, damage, area: [squares], hits: [{die, square,
  before, after, destroyed, saved}], predicted, bent, turn} | None.
- `pending`: the slam awaiting the defender's answer: {attacker, defender, die, square, super,
  damage, area, targets: [{die, square, health, after}], seconds} | None.
- `stalemate`: {quiet_turns, limit (0 = off)}.
- `options`: {stun, response_window, first_player, vote_seconds, starting_values}.
- `result`: {winners, reason, ending} | None.
- `names`: the players' names by seat (what every text and picture calls them).
- `placement.free`: the free squares of the viewer's half during placement (reading order from
  row 1), else None.
- `placement.next_letter`: {health (str): the letter `place sq=health` puts down next} for the
  viewer's own unplaced dice during placement, else None.
- each die also carries `steps` (how far it slides: its health, 2 when awakened) and
  `super_slam` (its slam is a Super Slam: health 1).
- What the player to act may do now, grouped for the screens, is `Game.menu(seat)`
  (bot/engine/slideslam/menu.py), not a view key.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board
from .data import AWAKENED_STEPS, LETTERS, SUPER_SLAM_HEALTH

if TYPE_CHECKING:
    from .game import SlideSlam


def _die(letter: str, d: dict[str, Any], g: "SlideSlam") -> dict[str, Any]:
    return {"letter": letter, "owner": d["owner"], "health": d["health"], "start": d["start"],
            "square": d["square"], "awakened": d["awakened"], "stunned": d["stunned"],
            "steps": AWAKENED_STEPS if d["awakened"] else d["health"],
            "super_slam": d["health"] == SUPER_SLAM_HEALTH}


def build_view(g: "SlideSlam", player: int | None) -> dict[str, Any]:
    placing = g.phase == "placement"
    if placing:
        # The Wall of Unknowing: nobody sees the other side (and the public sees nothing).
        shown = [k for k in sorted(g.dice) if player is not None
                 and g.dice[k]["owner"] == player and g.dice[k]["square"] is not None]
    else:
        shown = [k for k in sorted(g.dice) if g.dice[k]["square"] is not None]
    mine = unplaced = None
    if placing and player is not None:
        mine = {g.dice[k]["square"]: g.dice[k]["start"] for k in LETTERS[player]
                if g.dice[k]["square"] is not None}
        unplaced = sorted((g.dice[k]["start"] for k in LETTERS[player]
                           if g.dice[k]["square"] is None), reverse=True)
    pending = None
    if g.pending is not None:
        p = g.pending
        pending = {k: p[k] for k in ("attacker", "defender", "die", "square", "super", "damage")}
        pending["area"] = list(p["area"])
        pending["targets"] = [
            {"die": t, "square": g.dice[t]["square"], "health": g.dice[t]["health"],
             "after": max(g.dice[t]["health"] - p["damage"], 0)} for t in p["targets"]]
        pending["seconds"] = g.options["response_window"]
    free = None
    if placing and player is not None:
        occupied = {d["square"] for d in g.dice.values() if d["square"] is not None}
        free = [sq for sq in board.home_squares(player, g.columns, g.rows) if sq not in occupied]
    if placing and player is not None:
        next_letter = {}
        for k in LETTERS[player]:
            d = g.dice[k]
            if d["square"] is None:
                next_letter.setdefault(str(d["start"]), k)  # the engine places the first free
    else:
        next_letter = None
    if g.result is not None:
        to_act: list[Any] = []
    else:
        to_act = list(g._actors())
    can_awaken = (g.result is None and g.current is not None
                  and g.phase in ("slide", "slam") and g._can_awaken(g.current) is None)
    return {
        "kind": g.KIND, "title": g.TITLE, "you": player,
        "columns": g.columns, "rows": g.rows,
        "halves": [list(board.home_rows(0, g.rows)), list(board.home_rows(1, g.rows))],
        "phase": g.phase, "turn": g.turn, "current": g.current,
        "first_player": g.first_player, "to_act": to_act,
        "dice": [_die(k, g.dice[k], g) for k in shown],
        "removed": list(g.removed),
        "lost": [[k for k in g.removed if k in LETTERS[seat]] for seat in (0, 1)],
        "placement": {"confirmed": list(g.confirmed), "mine": mine, "unplaced": unplaced,
                      "next_letter": next_letter, "free": free},
        "tokens_used": list(g.tokens_used), "awakened_used": list(g.awakened_used),
        "can_awaken": can_awaken, "slide_skipped": g.slide_skipped,
        "no_super_slam": g.turn == 1,
        "last_slide": None if g.last_slide is None else {
            **g.last_slide, "path": list(g.last_slide["path"])},
        "last_slam": None if g.last_slam is None else {
            **g.last_slam, "area": list(g.last_slam["area"]),
            "hits": [dict(h) for h in g.last_slam["hits"]]},
        "pending": pending,
        "stalemate": {"quiet_turns": g.quiet_turns, "limit": g.options["stalemate_turns"]},
        "options": {k: g.options[k] for k in ("stun", "response_window", "first_player",
                                              "vote_seconds", "starting_values")},
        "result": g.result,
        "names": list(g.names),
    }


def _cell(d: dict[str, Any] | None) -> str:
    if d is None:
        return " . "
    return f"{d['letter']}{d['health']}{'*' if d['awakened'] else ' '}"


def build_text(v: dict[str, Any]) -> str:
    cols, rows = v["columns"], v["rows"]
    lines = [f"Slide and Slam ({cols}x{rows}), " + _status(v)]
    by_sq = {d["square"]: d for d in v["dice"]}
    lines.append("    " + " ".join(f" {board.COLUMN_LETTERS[c]} " for c in range(cols)))
    if v["phase"] == "placement" and v["you"] is None:
        lines.append("    (the Wall of Unknowing hides both sides)")
    else:
        shown = range(rows, 0, -1)
        wall = "    " + "=" * (4 * cols - 1) + " Wall of Unknowing"
        if v["phase"] == "placement":
            # only your own half: the other side is behind the wall, not empty
            lo, hi = v["halves"][v["you"]]
            shown = range(hi, lo - 1, -1)
            if v["you"] == 0:
                lines.append(wall)
        for r in shown:
            cells = " ".join(_cell(by_sq.get(board.name(c, r - 1))) for c in range(cols))
            lines.append(f"{r:>2}  {cells}")
        if v["phase"] == "placement" and v["you"] == 1:
            lines.append(wall)
    if v["phase"] == "placement" and v["you"] is not None:
        # A seat's own text shows only its own placement: the other side's progress is news for
        # the thread, and would change this player's private panel when nothing of theirs did.
        mine = v["placement"]["confirmed"][v["you"]]
        lines.append("Your placement: " + ("confirmed." if mine else "in progress."))
        if v["placement"]["unplaced"]:
            lines.append("Still to place: " + ", ".join(map(str, v["placement"]["unplaced"])))
    elif v["phase"] == "placement":
        conf = ", ".join(f"{v['names'][i]} {'ready' if c else 'placing'}"
                         for i, c in enumerate(v["placement"]["confirmed"]))
        lines.append(f"Placement: {conf}.")
        if v["placement"]["unplaced"]:
            lines.append("Still to place: " + ", ".join(map(str, v["placement"]["unplaced"])))
    else:
        tok = ", ".join(f"{v['names'][i]} {'spent' if u else 'held'}"
                        for i, u in enumerate(v["tokens_used"]))
        awk = ", ".join(f"{v['names'][i]} {'used' if u else 'unused'}"
                        for i, u in enumerate(v["awakened_used"]))
        lines.append(f"Power Tokens: {tok}. Awakening: {awk}.")
        st = v["stalemate"]
        if st["limit"]:
            lines.append(f"Turns without damage: {st['quiet_turns']}/{st['limit']}.")
        if v["removed"]:
            lines.append("Destroyed: " + ", ".join(v["removed"]) + ".")
        if v["last_slide"]:
            s = v["last_slide"]
            lines.append(f"Last slide: {s['die']} {s['from']} → {s['to']}.")
        if v["last_slam"]:
            s = v["last_slam"]
            hits = ", ".join(f"{h['die']} {h['before']}→{h['after']}"
                             + (" (bent)" if h["saved"] else "") for h in s["hits"]) or "nothing"
            lines.append(f"Last slam: {s['die']} at {s['square']}"
                         f"{' (Super Slam)' if s['super'] else ''}: {hits}.")
        if v["pending"]:
            p = v["pending"]
            tg = ", ".join(f"{t['die']} at {t['square']}" for t in p["targets"])
            lines.append(f"{v['names'][p['defender']]} may say DICE IS NOT BEND! for one of: "
                         f"{tg} (or pass).")
    return "\n".join(lines)


def _status(v: dict[str, Any]) -> str:
    if v["result"] is not None:
        r = v["result"]
        if not r["winners"]:
            return f"game over, a draw: {r['reason']}."
        who = " and ".join(v["names"][w] for w in r["winners"])
        return f"game over, {who} wins: {r['reason']}."
    ph = v["phase"]
    if ph == "placement":
        return "the Wall of Unknowing stands."
    if ph == "first_player":
        return "the wall is down; who goes first?"
    who = v["names"][v["current"]]
    doing = {"slide": "to slide", "slam": "to slam or end the turn",
             "response": "has slammed"}[ph]
    if ph == "response" and v["pending"]:
        doing += f"; {v['names'][v['pending']['defender']]} to answer"
    extra = " (slide skipped)" if v["slide_skipped"] and ph == "slam" else ""
    return f"turn {v['turn']}, {who} {doing}{extra}."
