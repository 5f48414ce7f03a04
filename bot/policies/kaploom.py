"""KAPLOOM! for the practice opponents: how a position looks to a seat, and the hard
player's own search (a round planned whole, Power Up judged by what it builds)."""
from __future__ import annotations

import math
import random
from typing import Any

from bot.engine import CHANCE
from bot.engine.kaploom import combat
from bot.engine.kaploom.data import ALL_ACTIONS, BLANK, ROUND_LIMIT

from .seen import clone, play, tried

NORMAL = {"width": 10, "plies": 6}
EASY = {"width": 4, "plies": 3}
# hard searches in `hard_choose` below (a whole round planned, Power Up judged by what it
# builds); the generic search these settings drive is not used by KAPLOOM! any more.
HARD = {"budget": 0, "width": 4, "plies": 8}
GREEDY_WIDTH = 4


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Health decides (a knock-out, or more health at the round limit): ours and our ally's
    against the other side's, with a knocked-out player a heavy loss."""
    players = view.get("players") or []
    if seat >= len(players):
        return 0.0
    me = players[seat]
    team = me.get("team", me.get("side"))
    value = 0.0
    for p in players:
        v = float(p.get("health", 0)) - (15.0 if p.get("ko") else 0.0)
        same = p.get("team", p.get("side")) == team
        value += v if same else -v
    return value


def evaluate_state(g: Any, seat: int) -> float:
    """`evaluate` on the public view (health, knock-outs and teams are public)."""
    return evaluate(g.view(None), seat)


# --- hard: a search of its own (HardPolicy calls `hard_choose`) ------------------------------
#
# The normal player scores a position by health alone, so every Power Up that builds (a die, a
# face, a lock-in) looks worth nothing to it and a placement is judged by one random reply.
# Hard plans a whole round instead: each first step it may take is completed greedily into a
# full placement, the placement is judged against a spread of attacks and defenses the rival
# may show (its roll is behind the screen), and what the round builds is worth the rounds left
# to use it. Power Up then takes whatever raises that worth, and stops when nothing does.

# What the rival may show this round (equally likely): our attack is judged against these
# defenses, our defense against these attacks.
RIVAL_ATTACKS = (0, 2, 4, 7, 11)
RIVAL_DEFENSES = (0, 0, 2, 4, 7)
# Health a thing is worth per round still to play, over at most HORIZON rounds.
HORIZON = 10
PER_ROUND = {"trait": 0.4, "face": 0.08, "wild": 0.12, "loose": 0.02, "lock": 0.5,
             "spoiler": 0.3, "punish": 0.5}
PLAN_WIDTH = 8       # first steps completed into full placements
REROLL_WIDTH = 2     # re-roll steps tried
REROLL_SAMPLES = 2   # sampled re-rolls to judge a re-roll step by


# Every fact below is read from views (bot/engine/kaploom/view.py): a seat's own view, in a
# game rebuilt from what it saw. Dice, faces, unattached faces, locked-in abilities, spoilers
# and health are public; a placement is its own team's.

def _rounds_left(v: dict[str, Any]) -> int:
    return max(0, min(HORIZON, ROUND_LIMIT - v["round"]))


def _build(v: dict[str, Any], seat: int) -> float:
    """What a player's dice, faces and abilities are worth, in health, for the rounds left."""
    p = v["players"][seat]
    rate = PER_ROUND
    val = 0.0
    for die in p["dice"]:
        if die["kind"] == "trait":
            val += rate["trait"]
        else:
            # an action die's attached faces (the view fills its empty slots with blanks)
            val += sum(rate["wild"] if f == "W" else rate["face"] for f in die["faces"]
                       if f != BLANK)
    val += rate["loose"] * len(p["unattached"]) + rate["spoiler"] * p["spoilers"]
    val += rate["lock"] * len(p["locked_in"])
    return val * _rounds_left(v)


def worth(g: Any, seat: int, v: dict[str, Any] | None = None) -> float:
    """Hard's judgement of a position: health and build, ours against the other side's
    (`v`: our view of `g`, where the caller has it)."""
    out = g.outcome()
    if out is not None:
        if out.draw or not out.winners:
            return 0.0
        return 1000.0 if seat in out.winners else -1000.0
    v = g.view(seat) if v is None else v
    players = v["players"]
    team = players[seat]["team"]
    build = sum(_build(v, s) if p["team"] == team else -_build(v, s)
                for s, p in enumerate(players))
    return evaluate(v, seat) + build


def _gain(v: dict[str, Any], seat: int, name: str, taken: float) -> float:
    """What a placed Power Up (or lock-in) action will bring once it resolves."""
    a = ALL_ACTIONS[name]
    p = v["players"][seat]
    left = _rounds_left(v)
    eff = a.effect
    if eff == "heal":
        return max(0.0, min(a.amount, p["max_health"] - p["health"] + taken))
    if eff == "gain_trait_die":
        return PER_ROUND["trait"] * left
    if eff == "gain_action_die":
        return (PER_ROUND["face"] * 1.5 * max(1, a.amount)) * left
    if eff == "gain_face":
        return (PER_ROUND["wild"] if a.face == "W" else PER_ROUND["face"]) * left
    if eff == "lock_in":
        return PER_ROUND["lock"] * left
    if eff == "gain_spoiler":
        return PER_ROUND["spoiler"] * left
    if eff.startswith("punish"):
        return PER_ROUND["punish"]
    return 0.0


def _placement_worth(g: Any, seat: int) -> float:
    """A placement judged before the reveal: the position so far, plus the damage our attack
    and defense make against the spread of what the rival may show, plus what our Power Up
    actions will bring."""
    if g.outcome() is not None:
        return worth(g, seat)
    v = g.view(seat)
    p = v["players"][seat]
    # our own board, which our view shows (the actions in the order they were placed)
    names = [b["action"] for b in p["board"]]
    acts = [ALL_ACTIONS[n] for n in names]
    action_dice = sum(1 for d in p["dice"] if d["kind"] == "action")
    locked = [ALL_ACTIONS[x["name"]] for x in p["locked_in"]]
    atk = combat.attack(acts, action_dice=action_dice, spoilers=p["spoilers"])["total"]
    dfn = combat.defense(acts, locked_in=locked, spoilers=p["spoilers"])["total"]
    dealt = sum(max(0, atk - d) for d in RIVAL_DEFENSES) / len(RIVAL_DEFENSES)
    taken = sum(max(0, a - dfn) for a in RIVAL_ATTACKS) / len(RIVAL_ATTACKS)
    gains = sum(_gain(v, seat, name, taken) for name in names)
    return worth(g, seat, v) + dealt - taken + gains


def _settle(g: Any, rng: Any) -> None:
    while g.outcome() is None and g.actors() == [CHANCE]:
        play(g, CHANCE, g.chance().sample(rng))


def _placing(move: str) -> bool:
    """A step that adds to our placement without dice to come (re-rolls are judged apart)."""
    return move.startswith("assign ") or move.split(" ", 1)[0] == "quickfix"


def _up(g: Any, seat: int) -> dict[str, str | None]:
    """Die id -> the face it shows, as `seat`'s view shows every die (its own team's dice are
    the ones its steps name)."""
    return {d["id"]: d["up"] for p in g.view(seat)["players"] for d in p["dice"]}


def _wilds(up: dict[str, str | None], move: str) -> int:
    """How many Wild faces a step spends (a Wild kept is a Wild for a bigger action)."""
    return sum(1 for d in move.split() if d in up and up[d] == "W")


def _placings(g: Any, seat: int, legal: list[str]) -> list[str]:
    """One placement step per action: the same action on other dice is worth the same now, so
    only the one spending the fewest Wilds (then the fewest dice) is tried."""
    up = _up(g, seat)
    best: dict[str, tuple[int, int, str]] = {}
    for m in legal:
        if not _placing(m):
            continue
        words = m.split()
        name = " ".join(w for w in words if not (w[:1] == "d" and w[1:].isdigit()))
        key = (_wilds(up, m), len(words), m)
        if name not in best or key < best[name]:
            best[name] = key
    return [k[2] for k in best.values()]


def _complete(g: Any, seat: int) -> float:
    """Our placement completed greedily (each step the one that raises its worth most, until
    none does), and its worth."""
    here = _placement_worth(g, seat)
    for _ in range(8):
        if g.outcome() is not None or seat not in g.actors():
            break
        best, best_v = None, here
        for m in _placings(g, seat, g.legal(seat)):
            t = clone(g)
            play(t, seat, m)
            v = _placement_worth(t, seat)
            if v > best_v + 1e-9:
                best, best_v = m, v
        if best is None:
            break
        play(g, seat, best)
        here = best_v
    return here


def _rerolls(g: Any, seat: int, legal: list[str], rng: Any) -> list[str]:
    """Re-roll steps worth trying: those that throw only blank dice again, a few of them."""
    up = _up(g, seat)
    out = []
    for m in legal:
        words = m.split()
        if "reroll" not in words:
            continue
        thrown = words[words.index("reroll") + 1:]
        if thrown and all(up[d] == "_" for d in thrown if d in up):
            out.append(m)
    return rng.sample(out, REROLL_WIDTH) if len(out) > REROLL_WIDTH else out


def _first_steps(g: Any, seat: int, legal: list[str], rng: Any) -> list[str]:
    """The steps worth completing: placements by their own worth, the best few; a few
    re-rolls of blank dice (their worth shows only after their dice); and `lock`."""
    scored = []
    for m in _placings(g, seat, legal):
        t = clone(g)
        play(t, seat, m)
        scored.append((-_placement_worth(t, seat), rng.random(), m))
    scored.sort()
    steps = [m for _, _, m in scored[:PLAN_WIDTH]] + _rerolls(g, seat, legal, rng)
    return steps + (["lock"] if "lock" in legal else [])


def _plan(g: Any, seat: int, legal: list[str], rng: Any) -> str:
    """Phase 1: the first step whose completed placement is worth most. A re-roll is judged
    by a few sampled outcomes (the same dice for every re-roll, so they are compared fairly)."""
    seeds = [rng.getrandbits(32) for _ in range(REROLL_SAMPLES)]
    best, best_v = "lock", -math.inf
    for m in _first_steps(g, seat, legal, rng):
        if m == "lock":
            v = _placement_worth(g, seat)
        elif _placing(m):
            t = clone(g)
            play(t, seat, m)
            v = _complete(t, seat)
        else:
            total = 0.0
            for s in seeds:
                t = clone(g)
                play(t, seat, m)
                _settle(t, random.Random(s))
                total += _complete(t, seat)
            v = total / len(seeds)
        if v > best_v + 1e-9:
            best, best_v = m, v
    return best


def _power_up(g: Any, seat: int, legal: list[str], rng: Any) -> str:
    """Power Up: the step that raises our worth most; `done` when none does (each step must
    gain something, so a face is never attached and detached in turn)."""
    here = worth(g, seat)
    best, best_v = "done", here
    order = list(legal)
    rng.shuffle(order)   # equal steps (which colour to grow) are chosen by the seeded rng
    for m in order:
        if m == "done":
            continue
        t = tried(g, seat, m)
        if t is None:
            continue
        _settle(t, rng)
        v = worth(t, seat)
        if v > best_v + 1e-9:
            best, best_v = m, v
    return best if best in legal else legal[-1]


def _own_faces(g: Any, seat: int, view: dict[str, Any]) -> bool:
    """Does the rebuilt game show our own dice as our real view does? Where no sample matched
    what this seat saw, `Seen.determinize` hands back its last try, whose own re-rolled dice
    (TIME JUMP) may be wrong; our own faces are never in doubt. (The search used to correct
    such a sample in place; in 4,638 hard decisions of 36 seeded games it never had to.)"""
    players = view.get("players") or []
    if seat >= len(players):
        return True
    mine = {d["id"]: d["up"] for d in g.view(seat)["players"][seat]["dice"]}
    return all(mine.get(d.get("id"), d.get("up")) == d.get("up")
               for d in players[seat].get("dice") or [] if d.get("up") is not None)


def hard_choose(policy: Any, view: dict[str, Any], legal: list[str], rng: Any) -> str | None:
    """Hard's own search, on a game rebuilt from what this seat saw (the rival's roll and
    placements sampled, never read)."""
    g = policy.seen.determinize(rng)
    seat = policy.seen.seat
    if g.outcome() is not None or seat not in g.actors():
        return None
    if not _own_faces(g, seat, view):
        return None   # not our game: the generic player
    # search only steps the rebuilt game allows too (where a sample disagrees with the table,
    # fall back to the generic player rather than search a game that is not ours)
    allowed = set(g.legal(seat))
    legal = [m for m in legal if m in allowed]
    if not legal:
        return None
    stage = g.current_phase()
    if stage == "assign":
        return _plan(g, seat, legal, rng)
    if stage == "power":
        return _power_up(g, seat, legal, rng)
    return None


# --- greedy (the baseline): one ply, judged as hard judges a position -------------------------

def greedy_value(g: Any, seat: int) -> float:
    """A position for the greedy baseline: in Phase 1 the placement so far against the spread
    of what the rival may show (`_placement_worth`), otherwise health and build (`worth`)."""
    if g.outcome() is None and g.current_phase() == "assign":
        return _placement_worth(g, seat)
    return worth(g, seat)


# --- normal: Phase 1 by what a placement does -------------------------------------------------
#
# The generic normal player judged a placement by a short play-out scored on health alone: a
# placement is worth nothing until the reveal, which a play-out from the first seat to place
# seldom reached, so as the first to place (as it always is in Discord, where it answers a roll
# before any person) it locked in at random: 7 of 8 games against random ran to the round
# limit (seed 1), attacks in fewer than half its lock-ins.

def decide(g: Any, seat: int, legal: list[str], rng: Any) -> str | None:
    """The normal player's Phase 1 step: the placement step that raises the placement's worth
    most (its attack and defense against the spread of what the rival may show, what its
    Power Up actions bring), one step at a time, no re-rolls; `lock` when none does. Other
    steps: None (the generic player)."""
    if g.outcome() is not None or g.current_phase() != "assign" or "lock" not in legal:
        return None
    best, best_v = "lock", _placement_worth(g, seat)
    for m in _placings(g, seat, legal):
        t = tried(g, seat, m)
        if t is None:
            continue
        v = _placement_worth(t, seat)
        if v > best_v + 1e-9:
            best, best_v = m, v
    return best
