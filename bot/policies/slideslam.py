"""Slide and Slam for the practice opponents: how a position looks to a seat."""
from __future__ import annotations

from typing import Any

from bot.engine.slideslam.data import NORMAL_DAMAGE, SUPER_DAMAGE, SUPER_SLAM_HEALTH

NORMAL = {"width": 24, "plies": 8}
HARD = {"budget": 2, "width": 6, "plies": 30, "confidence": 0.0}


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Health on the board counts, and a die still standing counts more than its pips: a
    side with more dice has more slams left."""
    score = 0.0
    for d in view.get("dice") or []:
        w = d["health"] + 2.0
        score += w if d["owner"] == seat else -w
    return score


def evaluate_state(g: Any, seat: int) -> float:
    """The same score read straight from a simulated game (a view costs a millisecond here: it
    computes every die's reach)."""
    score = 0.0
    for d in g.dice.values():
        if d["square"] is None or d["health"] <= 0:
            continue
        w = d["health"] + 2.0
        score += w if d["owner"] == seat else -w
    return score


def _targets(g: Any, k: str) -> list[str]:
    """The enemy dice die `k`'s slam would hit (the rulebook's areas, read off the board)."""
    from bot.engine.slideslam import board
    d = g.dice[k]
    area = board.slam_area(d["square"], d["health"] == SUPER_SLAM_HEALTH, g.columns, g.rows)
    occ = {e["square"]: j for j, e in g.dice.items() if e["square"] is not None}
    return [occ[sq] for sq in area if sq in occ and g.dice[occ[sq]]["owner"] != d["owner"]]


def must(g: Any, seat: int, legal: list[str]) -> str | None:
    """The slam no bot passes up: one that destroys an enemy die. A slam costs the slammer
    nothing (its turn ends either way), and the bots used to `end` instead now and then (the
    issue #28 greedy check: 20 kills passed up in 2,617 slam steps). The slam destroying the
    most dice, then dealing the most damage; predicted (the Power Token spent, so no Bend can
    save a die) when it wins the game outright."""
    if g.outcome() is not None or getattr(g, "phase", None) != "slam":
        return None
    foe_dice = [k for k, d in g.dice.items() if d["owner"] != seat and d["square"]]
    best, best_key = None, (0, 0)
    for m in legal:
        words = m.split()
        if words[0] != "slam" or "predict" in words:
            continue
        occ = {d["square"]: k for k, d in g.dice.items() if d["square"] is not None}
        k = occ.get(words[1])
        if k is None:
            continue
        dmg = SUPER_DAMAGE if g.dice[k]["health"] == SUPER_SLAM_HEALTH else NORMAL_DAMAGE
        targets = g.slam_targets(k)
        kills = sum(1 for t in targets if g.dice[t]["health"] <= dmg)
        key = (kills, sum(min(dmg, g.dice[t]["health"]) for t in targets))
        if kills and key > best_key:
            best, best_key = m, key
            if kills == len(foe_dice) and f"{m} predict" in legal:
                best = f"{m} predict"
    return best


# --- greedy (the baseline): a turn's steps judged as what they lead to ----------------------------

def greedy_value(g: Any, seat: int) -> float | None:
    """A Slide and Slam position for the one-ply greedy baseline. A turn is a slide then a
    slam, and a slam with targets waits for the defender's answer: scored as they stand, a
    slide and a declared slam look like nothing at all. So a declared slam is scored once the
    defender passes (its damage), and a slide by the best of the slams (or `end`) it allows."""
    from . import score
    from .seen import clone, play
    if g.outcome() is not None:
        return score(g, seat)
    if g.phase == "response" and g.pending and g.pending["attacker"] == seat:
        t = clone(g)
        play(t, 1 - seat, "pass")
        return score(t, seat)
    if g.phase == "slam" and seat in g.actors():
        best = None
        for m in g.legal(seat):
            if m.split()[0] not in ("slam", "end"):
                continue
            t = clone(g)
            play(t, seat, m)
            v = greedy_value(t, seat) if t.phase == "response" else score(t, seat)
            best = v if best is None else max(best, v)
        return best
    return None


# --- normal and hard: a turn planned whole, the rival's best reply in view ----------------------
#
# The generic search judged a slide by a short play-out against random replies, so it slid its
# dice into the row or column of the rival's 1-health dice (a Super Slam reaches the whole row
# and column) and the greedy baseline's Super Slams took it apart (issue #28: normal won 2 of
# 12 against greedy, hard 5 of 12, seed 3). The plan: every slide, each followed by the best
# slam it allows (or `end`), the defender assumed to let the slam land, and the position after
# the turn judged by the board minus the most the rival's next turn can do to us (its every die
# slid anywhere it reaches, or staying, then slamming; a die stunned by our slam sits out).

def threat(g: Any, attacker: int) -> float:
    """The most `attacker`'s next turn can take off the other side, in evaluation points (a
    die's health lost, 2 more for a die destroyed; 1000 for the last one): over its dice that
    may slam, each from its square or any it can slide to."""
    from bot.engine.slideslam import board
    from bot.engine.slideslam.data import AWAKENED_STEPS
    victim = {d["square"]: d["health"] for d in g.dice.values()
              if d["square"] is not None and d["owner"] != attacker}
    if not victim:
        return 0.0
    blocked = {d["square"] for d in g.dice.values() if d["square"] is not None}
    cols, rows = g.columns, g.rows
    stun = g.options.get("stun")
    best = 0.0
    for d in g.dice.values():
        if d["owner"] != attacker or d["square"] is None or (stun and d.get("stunned")):
            continue
        sup = d["health"] == SUPER_SLAM_HEALTH
        dmg = SUPER_DAMAGE if sup else NORMAL_DAMAGE
        steps = AWAKENED_STEPS if d.get("awakened") else d["health"]
        for sq in [d["square"]] + board.reach_squares(d["square"], steps, blocked, cols, rows):
            v, kills = 0.0, 0
            for a in board.slam_area(sq, sup, cols, rows):
                h = victim.get(a)
                if h:
                    v += min(dmg, h) + (2.0 if h <= dmg else 0.0)
                    kills += h <= dmg
            if kills == len(victim):
                return 1000.0
            best = max(best, v)
    return best


# What the rival's best reply costs us, and what our own next slam is worth, after our turn:
# weighing our own reach too keeps the bots closing in (with the rival's reply alone, 4 to 6
# self-play games of 10 ended on the stalemate guard).
REPLY_WEIGHT = 0.8
REACH_WEIGHT = 0.8


def _after_turn(g: Any, seat: int, weight: float) -> float:
    from . import score
    if g.outcome() is not None:
        return score(g, seat)
    return (score(g, seat) - weight * threat(g, 1 - seat)
            + REACH_WEIGHT * min(threat(g, seat), 20.0))


def _best_slam(g: Any, seat: int, weight: float) -> tuple[float, str]:
    """The best way to finish the turn from the slam step: a slam (landing) or `end`."""
    from .seen import clone, play
    best_v, best = -1e9, "end"
    for m in g.legal(seat):
        words = m.split()
        if words[0] not in ("slam", "end") or "predict" in words:
            continue
        if words[0] == "slam":
            occ = {d["square"]: k for k, d in g.dice.items() if d["square"] is not None}
            if not g.slam_targets(occ[words[1]]):
                continue   # hits nothing: the same as `end`
        t = clone(g)
        play(t, seat, m)
        if t.outcome() is None and t.phase == "response":
            play(t, 1 - seat, "pass")
        v = _after_turn(t, seat, weight)
        if v > best_v + 1e-9:
            best_v, best = v, m
    return best_v, best


def plan_turn(g: Any, seat: int, legal: list[str], rng: Any, weight: float = REPLY_WEIGHT
              ) -> str | None:
    """A turn planned whole (see above); None outside our slide and slam steps (placement,
    answering a slam, awakening: the generic player)."""
    from .seen import clone, play
    if g.outcome() is not None or seat not in g.actors():
        return None
    if g.phase == "response":
        return _answer(g, seat, legal)
    if g.current != seat:
        return None
    if g.phase == "slam":
        return _best_slam(g, seat, weight)[1]
    if g.phase != "slide":
        return None
    scored = []
    for m in legal:
        if not m.startswith("slide "):
            continue
        t = clone(g)
        play(t, seat, m)
        if t.outcome() is None and t.phase == "slam" and t.current == seat:
            v = _best_slam(t, seat, weight)[0]
        else:
            v = _after_turn(t, seat, weight)
        scored.append((v, m))
    if not scored:
        return None
    top = max(v for v, _ in scored)
    return rng.choice(sorted(m for v, m in scored if v >= top - 1e-9))


def _answer(g: Any, seat: int, legal: list[str]) -> str | None:
    """Answering a slam: bend it off the healthiest die it would destroy (the Power Token
    is spent once: on a die, never on a scratch), else let it land."""
    p = g.pending
    if not p or p.get("defender") != seat:
        return None
    doomed = [t for t in p["targets"] if g.dice[t]["health"] <= p["damage"]]
    if doomed:
        t = max(doomed, key=lambda k: (g.dice[k]["health"], k))
        m = f"bend {g.dice[t]['square']}"
        if m in legal:
            return m
    return "pass" if "pass" in legal else None


def normal_plan(g: Any, seat: int, legal: list[str], rng: Any) -> str | None:
    return plan_turn(g, seat, legal, rng)


# The hard player: the best few turns of the plan, each answered by the rival's own planned
# turn (as the normal plan plays it), and judged by the board after it plus what our next turn
# can then do.
HARD_TURNS = 6
NEXT_TURN = 0.5


def _turns(g: Any, seat: int) -> list[tuple[float, str, Any]]:
    """Our whole turns from here: (the plan's value, the first move, the game after it)."""
    from .seen import clone, play

    def finish(t: Any, first: str) -> list[tuple[float, str, Any]]:
        out = []
        for m in t.legal(seat):
            words = m.split()
            if words[0] not in ("slam", "end") or "predict" in words:
                continue
            if words[0] == "slam":
                occ = {d["square"]: k for k, d in t.dice.items() if d["square"] is not None}
                if not t.slam_targets(occ[words[1]]):
                    continue
            u = clone(t)
            play(u, seat, m)
            if u.outcome() is None and u.phase == "response":
                play(u, 1 - seat, "pass")
            out.append((_after_turn(u, seat, REPLY_WEIGHT), first or m, u))
        return out

    if g.phase == "slam":
        return finish(g, "")
    out = []
    for m in g.legal(seat):
        if not m.startswith("slide "):
            continue
        t = clone(g)
        play(t, seat, m)
        if t.outcome() is None and t.phase == "slam" and t.current == seat:
            out += finish(t, m)
        else:
            out.append((_after_turn(t, seat, REPLY_WEIGHT), m, t))
    return out


def _reply(g: Any, rival: int, rng: Any) -> None:
    """The rival's turn as the normal plan plays it (our answers to its slams as ours are)."""
    from .seen import play
    for _ in range(4):
        if g.outcome() is not None:
            return
        actors = g.actors()
        if not actors:
            return
        actor = actors[0]
        if actor != rival and g.phase != "response":
            return
        legal = g.legal(actor)
        m = plan_turn(g, actor, legal, rng) or ("pass" if "pass" in legal else legal[-1])
        play(g, actor, m)


def hard_choose(policy: Any, view: dict[str, Any], legal: list[str], rng: Any) -> str | None:
    from . import score
    g = policy.seen.determinize(rng)
    seat = policy.seen.seat
    if g.outcome() is not None or seat not in g.actors():
        return None
    if g.phase == "response":
        return _answer(g, seat, legal)
    if g.current != seat or g.phase not in ("slide", "slam"):
        return None
    turns = _turns(g, seat)
    if not turns:
        return None
    turns.sort(key=lambda x: -x[0])
    best, best_v = None, -1e18
    for v1, first, after in turns[:HARD_TURNS]:
        if after.outcome() is not None:
            v = score(after, seat)
        else:
            _reply(after, 1 - seat, rng)
            v = (score(after, seat) if after.outcome() is not None
                 else score(after, seat) + NEXT_TURN * threat(after, seat))
        if v > best_v + 1e-9:
            best, best_v = first, v
    return best if best in legal else None
