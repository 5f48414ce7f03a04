"""Death by Dice for the practice opponents: how a position looks to a seat, and the `normal`
player's choices worked out exactly.

Every die is fair and every standing value is public once the set-up is revealed, so an attack
can be valued exactly instead of by one sampled roll: the chance it wins against the target
(and against each defense the defender may declare: the defender picks the one that hurts us
most), what our attacking dice will show afterwards (they keep their roll), what a Complex
Attack's doubles and losses discard, and the assisting dice that re-roll. The unit is points of
standing total (what decides a combat) plus `DIE` for every die still standing (a die is also
attacks and defenses to come).
"""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from itertools import product
from typing import Any

from bot.engine.deathbydice import board as B
from bot.engine.deathbydice import notation as N
from bot.engine.deathbydice.data import BOOST, CHEAP_SHOT_BOOST

NORMAL = {"samples": 2, "plies": 6}
EASY = {"samples": 1}
HARD = {"budget": 12, "width": 4, "plies": 24, "confidence": 0.0}

DIE = 2.0  # a standing die beyond its value: attacks and defenses it still makes possible


def _side_of(view: dict[str, Any], seat: int) -> int | None:
    for i, s in enumerate(view.get("sides") or []):
        if seat in (s.get("seats") or []):
            return i
    return None


def _standing(view: dict[str, Any], side: int) -> float:
    total = 0.0
    names = set((view.get("sides") or [])[side].get("fighters") or [])
    for f in view.get("fighters") or []:
        if f.get("id") not in names:
            continue
        for c in f.get("board") or []:
            if c.get("state") == "standing" and c.get("value") is not None:
                total += DIE + float(c["value"])
    return total


def evaluate(view: dict[str, Any], seat: int) -> float:
    """Combats won weigh most; inside a combat, the standing dice (a combat is won on their
    total)."""
    mine = _side_of(view, seat)
    if mine is None:
        return 0.0
    sides = view.get("sides") or []
    score = view.get("score") or [0] * len(sides)
    value = 0.0
    for i in range(len(sides)):
        v = 60.0 * (score[i] if i < len(score) else 0) + _standing(view, i)
        value += v if i == mine else -v / max(1, len(sides) - 1)
    return value


def evaluate_state(g: Any, seat: int) -> float:
    """`evaluate` on the public view (the standing values, sides and score are public; during
    a secret set-up no value stands, in the view or in the game)."""
    return evaluate(g.view(None), seat)


class Table:
    """What the plans below read of a game, from one view (bot/engine/deathbydice/view.py):
    each character's board in the shape the rules' board helpers read (`dice`, `colours`,
    `values` by ability; a value None where the die is gone), characters by their index in
    the view, the attack under way and the attacker's choices (`attack_groups`)."""

    def __init__(self, v: dict[str, Any]):
        self.players = v["players"]
        self.stage = v["stage"]
        self.armed = v["armed"]
        index = {f["id"]: i for i, f in enumerate(v["fighters"])}
        self.index = index
        self.fighters = []
        for f in v["fighters"]:
            cells = [c for c in f["board"] if c["die"] is not None]
            self.fighters.append({
                "id": f["id"], "seat": f["seat"], "side": f["side"],
                "special": f["special"]["key"], "special_used": f["special"]["used"],
                "dice": {c["ability"]: c["die"] for c in cells},
                "colours": {c["ability"]: c["colour"] for c in cells},
                "values": {c["ability"]: c["value"] for c in cells}})
        self.active = index[v["active"]] if v["active"] is not None else None
        a = v["attack"]
        self.attack = None if a is None else dict(
            a, attacker=index[a["attacker"]], target=index[a["target"].split(":")[0]])
        self.groups = v["attack_groups"]

    def special_ready(self, fi: int | None, key: str) -> bool:
        if fi is None:
            return False
        f = self.fighters[fi]
        return f["special"] == key and not f["special_used"]

    def opponents(self, fi: int) -> list[int]:
        side = self.fighters[fi]["side"]
        return [i for i, f in enumerate(self.fighters) if f["side"] != side]

    def attack_table(self, fi: int) -> list[tuple[str, list[str], list[tuple[int, str, str]]]]:
        """The attacks the attacker `fi` may declare now, as the view groups them: (type,
        dice, [(target, ability, the move's target words)])."""
        assert fi == self.active, "the view lists the attacker's choices only"
        out = []
        for group in self.groups:
            head = f"attack {group['type']} {group['dice']} -> "
            targets = []
            for t in group["targets"]:
                fid, _, ability = t["target"].partition(":")
                targets.append((self.index[fid], ability, t["move"][len(head):]))
            out.append((group["type"], group["dice"].split("+"), targets))
        return out


def table(g: Any, seat: int) -> Table:
    """The plans' reading of `g`, from `seat`'s view of it."""
    return Table(g.view(seat))


# --- an attack, valued exactly ------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _roll_table(sizes: tuple[int, ...], current: tuple[int, ...], complex_: bool
                ) -> tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...],
                           tuple[float, ...]]:
    """For attacking dice of `sizes` now showing `current`, by roll total (ascending): the
    totals, and for "the attack wins from the k-th total up": the chance it wins, our expected
    change from the winning rolls, from the losing ones. The dice keep what they roll, and a
    Complex Attack discards its doubles (and one die more when lost), the cheapest ones."""
    acc: dict[int, list[float]] = {}
    n = 1
    for s in sizes:
        n *= s
    for rolls in product(*(range(1, s + 1) for s in sizes)):
        tot = sum(rolls)
        gain = float(tot - sum(current))
        won_gain, lost_gain = gain, gain
        if complex_:
            won_gain -= _discard_loss(rolls, False)
            lost_gain -= _discard_loss(rolls, True)
        row = acc.setdefault(tot, [0.0, 0.0, 0.0])
        row[0] += 1.0 / n
        row[1] += won_gain / n
        row[2] += lost_gain / n
    tots = sorted(acc)
    k = len(tots)
    p_win = [0.0] * (k + 1)
    g_win = [0.0] * (k + 1)
    g_lost = [0.0] * (k + 1)   # g_lost[i]: the rolls below index i
    for i in range(k - 1, -1, -1):
        p_win[i] = p_win[i + 1] + acc[tots[i]][0]
        g_win[i] = g_win[i + 1] + acc[tots[i]][1]
    for i in range(k):
        g_lost[i + 1] = g_lost[i] + acc[tots[i]][2]
    return tuple(tots), tuple(p_win), tuple(g_win), tuple(g_lost)


def _discard_loss(rolls: tuple[int, ...], lost: bool) -> float:
    """What a Complex Attack's discards cost at best (value shown plus the die itself)."""
    idx = range(len(rolls))
    pairs = [(i, j) for i in idx for j in idx if i < j and rolls[i] == rolls[j]]
    best = None
    for i, j in pairs:
        others = [k for k in idx if k not in (i, j)]
        cost = rolls[i] + rolls[j] + 2 * DIE
        if lost and others:
            cost += min(rolls[k] for k in others) + DIE
        best = cost if best is None else min(best, cost)
    if best is None:
        best = (min(rolls) + DIE) if lost else 0.0
    return float(best)


def _reroll_change(size: int, value: int) -> float:
    return (size + 1) / 2.0 - value


def attack_value(g: Table, fi: int, type_: str, dice: list[str], assist: str | None, bonus: int,
                 target: int, ability: str, defense: tuple[str, str] | None) -> float:
    """Our expected gain minus the target's, for one attack against one defense."""
    f, tf = g.fighters[fi], g.fighters[target]
    t = tf["values"][ability]
    against = t
    theirs = 0.0
    if defense is not None:
        dk, dd = defense
        against += BOOST if dk == "boosted" else tf["values"][dd]
        theirs += _reroll_change(tf["dice"][dd], tf["values"][dd])
    tots, p_win, g_win, g_lost = _roll_table(tuple(f["dice"][d] for d in dice),
                                             tuple(f["values"][d] for d in dice),
                                             type_ == "complex")
    skull = g.special_ready(target, "thick-skull")
    hit = (_reroll_change(tf["dice"][ability], t) if skull else -(t + DIE))
    # the first total that wins: equal or greater for an Ability Attack, else greater
    need = against - bonus if type_ == "ability" else against - bonus + 1
    i = bisect_left(tots, need)
    mine = g_win[i] + g_lost[i]
    theirs += p_win[i] * hit
    if assist is not None:
        mine += _reroll_change(f["dice"][assist], f["values"][assist])
    return mine - theirs


def _defenses(g: Table, target: int, ability: str) -> list[tuple[str, str] | None]:
    tf = g.fighters[target]
    out: list[tuple[str, str] | None] = [None]
    out += [("boosted", d) for d in B.neighbours(tf, ability)]
    out += [("linked", d) for d in B.linked(tf, ability)]
    return out


def attack_against_best_defense(g: Table, fi: int, type_: str, dice: list[str],
                                assist: str | None, bonus: int, target: int, ability: str,
                                misdirect: bool = True) -> float:
    """The attack's value when the defender answers as well as it can (Misdirection too)."""
    vals = [attack_value(g, fi, type_, dice, assist, bonus, target, ability, d)
            for d in _defenses(g, target, ability)]
    tf = g.fighters[target]
    if misdirect and g.special_ready(target, "misdirection"):
        size = tf["dice"][ability]
        for d in B.standing(tf):
            if d != ability and tf["dice"][d] == size:
                vals.append(attack_against_best_defense(g, fi, type_, dice, assist, bonus,
                                                        target, d, misdirect=False))
    return min(vals)


def attack_values(g: Table, fi: int) -> dict[str, float]:
    """Every attack `fi` may declare now (the engine's own table) with its value against the
    defender's best answer."""
    bonus_boosted = CHEAP_SHOT_BOOST if g.armed == "cheap-shot" else BOOST
    out = {}
    for type_, dice, targets in g.attack_table(fi):
        head = f"attack {type_} {'+'.join(dice)} -> "
        assist = dice[1] if type_ == "boosted" else None
        attacking = [dice[0]] if type_ == "boosted" else list(dice)
        bonus = bonus_boosted if type_ == "boosted" else 0
        for target, ability, label in targets:
            out[head + label] = attack_against_best_defense(g, fi, type_, attacking, assist,
                                                            bonus, target, ability)
    return out


def _best_attack(g: Table, fi: int, legal: list[str], bonus_boosted: int
                 ) -> tuple[str | None, float]:
    vals = attack_values(g, fi)
    best, best_v = None, -1e18
    for m in legal:
        v = vals.get(m)
        if v is not None and v > best_v + 1e-9:
            best, best_v = m, v
    return best, best_v


# --- the normal player's choices ------------------------------------------------------------------

def decide(game: Any, seat: int, legal: list[str], rng) -> str | None:
    """The normal player's step, from `seat`'s view of `game`; None where it has no plan."""
    return _decide(table(game, seat), seat, legal, rng)


def _decide(g: Table, seat: int, legal: list[str], rng) -> str | None:
    st = g.stage
    if st == "declare":
        fi = g.active
        bonus = CHEAP_SHOT_BOOST if g.armed == "cheap-shot" else BOOST
        best, best_v = _best_attack(g, fi, legal, bonus)
        if "special cheap-shot" in legal:
            # Cheap Shot is once a combat: worth it when +4 turns a boosted attack into the
            # best attack by a clear margin.
            cheap = _cheap_shot_value(g, fi)
            if cheap > best_v + 1.0:
                return "special cheap-shot"
        return best
    if st == "defend":
        a = g.attack
        best, best_v = None, 1e18
        for m in legal:
            if m.startswith("defend"):
                p = N.parse(m, g.players)
                d = None if p["type"] == "none" else (p["type"], p["die"])
                v = attack_value(g, a["attacker"], a["type"], a["dice"], a["assist"], a["bonus"],
                                 a["target"], a["ability"], d)
            elif m.startswith("special misdirection"):
                new = m.split()[-1]
                v = min(attack_value(g, a["attacker"], a["type"], a["dice"], a["assist"],
                                     a["bonus"], a["target"], new, d)
                        for d in _defenses(g, a["target"], new))
            else:
                continue
            if v < best_v - 1e-9:
                best, best_v = m, v
        return best
    if st == "thick_skull":
        return "special thick-skull" if "special thick-skull" in legal else None
    if st == "loaded":
        return _loaded(g, legal)
    if st == "discard":
        fi = g.attack["attacker"]
        vals = g.fighters[fi]["values"]
        best, best_v = None, 1e18
        for m in legal:
            p = N.parse(m, g.players)
            v = sum(vals[d] + DIE for d in p["dice"])
            if v < best_v:
                best, best_v = m, v
        return best
    if st == "rampage":
        fi = g.active
        f = g.fighters[fi]
        gain = -1e18
        for a in B.standing(f):
            for o in g.opponents(fi):
                if B.is_standing(g.fighters[o], a):
                    gain = max(gain, attack_against_best_defense(g, fi, "ability", [a], None, 0,
                                                                 o, a))
        if gain > 0 and "special rampage" in legal:
            return "special rampage"
        return "pass"
    return None


def _cheap_shot_value(g: Table, fi: int) -> float:
    f = g.fighters[fi]
    best = -1e18
    for a, b in B.boosted_pairs(f):
        for o in g.opponents(fi):
            for ab in B.standing(g.fighters[o]):
                best = max(best, attack_against_best_defense(g, fi, "boosted", [a], b,
                                                             CHEAP_SHOT_BOOST, o, ab))
    return best


def _loaded(g: Table, legal: list[str]) -> str:
    """Loaded Dice: re-roll the attacking die that most raises the chance to win, if the
    attack is not won already."""
    a = g.attack
    tf = g.fighters[a["target"]]
    against = tf["values"][a["ability"]]
    if a["defense"] is not None:
        d = a["defense"]
        against += BOOST if d["type"] == "boosted" else tf["values"][d["die"]]
    rolls = a["rolls"]
    total = sum(rolls.values()) + a["bonus"]

    def wins(x: int) -> bool:
        return x >= against if a["type"] == "ability" else x > against

    if wins(total):
        return "pass"
    f = g.fighters[a["attacker"]]
    best, best_p = "pass", 0.0
    for m in legal:
        if not m.startswith("special loaded-dice"):
            continue
        d = m.split()[-1]
        size = f["dice"][d]
        p = sum(1 for r in range(1, size + 1) if wins(total - rolls[d] + r)) / size
        if p > best_p + 1e-9:
            best, best_p = m, p
    return best


def rank(game: Any, seat: int, legal: list[str], rng) -> list[str]:
    """Moves best first for the `hard` search: attacks by their exact value against the best
    defense, defenses by what they leave the attacker; elsewhere the plan's move first."""
    g = table(game, seat)
    planned = _decide(g, seat, legal, rng)
    scored = []
    if g.stage == "declare":
        vals = attack_values(g, g.active)
        for m in legal:
            v = vals.get(m)
            if v is None:
                v = _cheap_shot_value(g, g.active) - 1.0 if m == "special cheap-shot" else -50.0
            scored.append((m != planned, -v, m))
    else:
        scored = [(m != planned, rng.random(), m) for m in legal]
    return [m for _, _, m in sorted(scored)]
