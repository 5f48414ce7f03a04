"""Practice opponents: policies that play a seat from what that seat may see.

A policy answers `choose(view, legal, rng) -> move`: `view` is `game.view(seat)`, `legal` is
`game.legal(seat)`, `rng` a `random.Random` the caller seeds. Policies that search also hold
the seat's `Seen` (the public record as that seat saw it, bot/policies/seen.py) and rebuild
games from it by sampling what the seat cannot see; none of them ever gets the real game, and none reads a game (real or rebuilt) but through the
engine's public protocol: `view(seat)`, `legal`, `actors`, `outcome`, `current_phase`, `fork`,
`simulate` (tests/test_policies_protocol.py).

Levels: `random`; `easy` (plausible but loose: the normal choice most of the time, a random
one otherwise); `normal` (greedy one step: the game's own plan where its module has one,
`normal_plan` or `decide` (Die-Men and Death by Dice work with exact expectations: their dice
are the game; KAPLOOM!'s Phase 1 by what a placement does; Slide and Slam a whole turn with
the rival's best reply in view), otherwise each move tried on a rebuilt game, the turn played
out plainly, the position scored by the game's evaluation; a module's `must` names moves no
bot passes up and `sensible` drops absurd ones); `hard` (determinized Monte Carlo: the normal player's best few moves, each
played out on the same sampled games with the same dice, a fixed budget per decision). Two
baselines for measurements, not offered to players: `random`, and `greedy` (one ply: each
move tried on one rebuilt game, the dice it calls for drawn a few times, the position scored
by the game's own evaluation; no play-out, no search). No Discord import here: `python -m bot
match` and `make balance` use them.
"""
from __future__ import annotations

import importlib
import math
import random
from typing import Any, Callable, Protocol

from bot.engine import CHANCE
from bot.engine.core import Game

from .seen import Seen, Watch, clone, hidden_phases, play, seen_from_record, tried

LEVELS = ("random", "greedy", "easy", "normal", "hard")


class Policy(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str: ...


# Moves a bot never makes: taking back its own step (a search would loop on it: the normal
# KAPLOOM! player attached and detached one face until 9 games of 140 hit the move cap) and the
# physical-flick reports and mode switches of Die-Men (a bot cannot flick a real die).
NEVER = frozenset({"undo", "unplace", "unassign", "detach", "mode", "oops"})


def playable(legal: list[str]) -> list[str]:
    """The legal moves a bot considers (all of them when nothing else is left)."""
    kept = [m for m in legal if m.split(" ", 1)[0] not in NEVER]
    return kept or list(legal)


def _module(kind: str):
    return importlib.import_module(f"{__name__}.{kind}")


def score(game: Game, seat: int) -> float:
    """A position for `seat`: ±1000 for a won or lost game, else the game's evaluation."""
    out = game.outcome()
    if out is not None:
        if out.draw:
            return 0.0
        return 1000.0 / len(out.winners) if seat in out.winners else -1000.0
    mod = _module(game.KIND)
    try:
        # The game's evaluation of a simulated game: read, like everything a policy reads,
        # through the engine's protocol (its views; tests/test_policies_protocol.py).
        return mod.evaluate_state(game, seat)
    except (AttributeError, KeyError, TypeError, IndexError, ValueError):
        return mod.evaluate(game.view(None), seat)


def playout(g: Game, seat: int, rng: random.Random, plies: int, own_greedy: bool = False) -> None:
    """Play on from `g` with random moves until `seat` must decide again after another seat
    has acted, or `plies` moves were made. With `own_greedy`, `seat`'s moves in between take
    the best immediate score among a few (a turn is played out plainly, not thrown away)."""
    others_acted = False
    for _ in range(plies):
        if g.outcome() is not None:
            return
        actors = g.actors()
        if seat in actors and others_acted:
            return
        if actors == [CHANCE]:
            play(g, CHANCE, g.chance().sample(rng))
            continue
        if seat in actors and own_greedy:
            legal = playable(g.legal(seat))
            if len(legal) > 8:
                legal = rng.sample(legal, 8)
            best, best_v = legal[0], -math.inf
            for m in legal:
                t = clone(g)
                play(t, seat, m)
                while t.outcome() is None and t.actors() == [CHANCE]:
                    play(t, CHANCE, t.chance().sample(rng))
                v = score(t, seat)
                if v > best_v:
                    best, best_v = m, v
            play(g, seat, best)
            continue
        actor = actors[0] if len(actors) == 1 else rng.choice(actors)
        if actor != seat:
            others_acted = True
        play(g, actor, rng.choice(playable(g.legal(actor))))


def _settle(g: Game, rng: random.Random) -> None:
    while g.outcome() is None and g.actors() == [CHANCE]:
        play(g, CHANCE, g.chance().sample(rng))


def _best_after(g: Game, actor: Any, rng: random.Random, k: int,
                then: Callable[[Game], None]) -> str:
    """The move (of up to `k` sampled) whose position scores best for `actor` once `then`
    has played on from it."""
    legal = playable(g.legal(actor))
    if len(legal) == 1:
        return legal[0]
    cands = legal if len(legal) <= k else rng.sample(legal, k)
    best, best_v = cands[0], -math.inf
    for m in cands:
        t = tried(g, actor, m)
        if t is None:
            continue
        then(t)
        v = score(t, actor)
        if v > best_v:
            best, best_v = m, v
    return best


def _one_step(g: Game, actor: Any, rng: random.Random, k: int) -> str:
    """The move (of up to `k` sampled) with the best score for `actor` right after it."""
    return _best_after(g, actor, rng, k, lambda t: _settle(t, rng))


def greedy_move(g: Game, actor: Any, rng: random.Random, k: int) -> str:
    """A sensible quick move for any seat: each of up to `k` sampled moves is followed by the
    rest of the actor's turn played one step greedily, and the move whose turn scores best for
    the actor is taken (a slide is judged with the slam it allows)."""
    def rest_of_turn(t: Game) -> None:
        for _ in range(4):
            _settle(t, rng)
            if t.outcome() is not None or t.actors() != [actor]:
                break
            play(t, actor, _one_step(t, actor, rng, k))
    return _best_after(g, actor, rng, k, rest_of_turn)


def greedy_round(g: Game, seat: int, rng: random.Random, plies: int, k: int,
                 round_stop: bool = True) -> None:
    """Play on with `greedy_move` for every seat until `seat` must decide again after another
    seat has acted (a round; unless not `round_stop`), or `plies` moves were made."""
    others_acted = False
    for _ in range(plies):
        if g.outcome() is not None:
            return
        actors = g.actors()
        if actors == [CHANCE]:
            play(g, CHANCE, g.chance().sample(rng))
            continue
        if seat in actors and others_acted and round_stop:
            return
        actor = actors[0] if len(actors) == 1 else rng.choice(actors)
        if actor != seat:
            others_acted = True
        play(g, actor, greedy_move(g, actor, rng, k))


class RandomPolicy:
    name = "random"

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return rng.choice(playable(legal))


class GreedyPolicy:
    """The baseline of issue #28: one ply. Every move (up to `width`) is played on one game
    rebuilt from the seat's record; where dice follow, they are drawn `rolls` times (the same
    draws for every move) and the scores averaged; the move whose position scores best by the
    game's own evaluation (`greedy_value` in its policy module where the game has a sharper
    one-ply measure, else `score`) is taken, equal ones drawn by the seeded rng."""

    name = "greedy"
    width = 60
    rolls = 3

    def __init__(self, seen: Seen):
        self.seen = seen
        self.mod = _module(seen.kind)
        for k, v in getattr(self.mod, "GREEDY", {}).items():
            setattr(self, k, v)

    def value(self, g: Game) -> float:
        own = getattr(self.mod, "greedy_value", None)
        if own is not None:
            v = own(g, self.seen.seat)
            if v is not None:
                return v
        return score(g, self.seen.seat)

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        legal = playable(legal)
        if len(legal) <= 1:
            return legal[0] if legal else "pass"
        seat = self.seen.seat
        base = self.seen.determinize(rng)
        cands = legal if len(legal) <= self.width else rng.sample(legal, self.width)
        seeds = [rng.getrandbits(32) for _ in range(self.rolls)]
        vals: dict[str, float] = {}
        for m in cands:
            g = tried(base, seat, m)
            if g is None:
                continue
            if g.outcome() is None and g.actors() == [CHANCE]:
                total = 0.0
                for s in seeds:
                    t = clone(g)
                    _settle(t, random.Random(s))
                    total += self.value(t)
                vals[m] = total / len(seeds)
            else:
                vals[m] = self.value(g)
        if not vals:
            return rng.choice(legal)
        top = max(vals.values())
        return rng.choice(sorted(m for m, v in vals.items() if v >= top - 1e-9))


class NormalPolicy:
    """Greedy one step: every move (up to `width` of them) tried once on a rebuilt game, the
    rest of our turn played plainly, and the position scored."""

    name = "normal"
    width = 40
    plies = 10
    samples = 1  # play-outs per move: more where one roll says little (Death by Dice)

    def __init__(self, seen: Seen):
        self.seen = seen
        # a game may set its own width and depth (a KAPLOOM! move costs ten of another game's)
        for k, v in getattr(_module(seen.kind), self.name.upper(), {}).items():
            setattr(self, k, v)

    def plan(self, legal: list[str], rng: random.Random) -> str | None:
        """The game's own plan for this step (`decide` in its policy module), worked out on a
        game rebuilt from the seat's record; None where the game has none."""
        mod = _module(self.seen.kind)
        # `normal_plan`: the normal player's own plan where it is too dear for play-outs
        decide = getattr(mod, "normal_plan", None) or getattr(mod, "decide", None)
        if decide is None:
            return None
        move = decide(self.seen.determinize(rng), self.seen.seat, legal, rng)
        return move if move in legal else None

    def must(self, legal: list[str], rng: random.Random) -> str | None:
        """A move no bot passes up (`must` in the game's policy module: Slide and Slam's slam
        that destroys an enemy die, which costs the slammer nothing); None."""
        own = getattr(_module(self.seen.kind), "must", None)
        if own is None:
            return None
        move = own(self.seen.determinize(rng), self.seen.seat, legal)
        return move if move in legal else None

    def sensible(self, legal: list[str]) -> list[str]:
        """The moves worth trying (`sensible` in the game's policy module drops absurd ones:
        a TradeShowdown roll of one die, which can never make a set)."""
        own = getattr(_module(self.seen.kind), "sensible", None)
        return (own(legal) or legal) if own is not None else legal

    def values(self, legal: list[str], rng: random.Random) -> dict[str, float]:
        base = self.seen.determinize(rng)
        legal = self.sensible(playable(legal))
        cands = legal if len(legal) <= self.width else rng.sample(legal, self.width)
        out = {}
        for m in cands:
            total, n = 0.0, 0
            for _ in range(self.samples):
                g = tried(base, self.seen.seat, m)
                if g is None:
                    break
                playout(g, self.seen.seat, rng, self.plies, own_greedy=True)
                total += score(g, self.seen.seat)
                n += 1
            if n:
                out[m] = total / n
        return out

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        legal = playable(legal)
        if len(legal) <= 1:
            return legal[0] if legal else "pass"
        forced = self.must(legal, rng)
        if forced is not None:
            return forced
        legal = self.sensible(legal)
        if len(legal) == 1:
            return legal[0]
        planned = self.plan(legal, rng)
        if planned is not None:
            return planned
        vals = self.values(legal, rng)
        if not vals:
            return rng.choice(legal)
        top = max(vals.values())
        # ties (nothing changes yet, as in a secret step) are broken by the seeded rng
        best = sorted(m for m, v in vals.items() if v >= top - 1e-9)
        return rng.choice(best or sorted(vals))


class EasyPolicy(NormalPolicy):
    """Plausible but loose: the normal choice among fewer moves, and now and then any move."""

    name = "easy"
    width = 8
    plies = 4
    slip = 0.3

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        if rng.random() < self.slip:
            return rng.choice(playable(legal))
        return super().choose(view, legal, rng)


class HardPolicy:
    """Determinized Monte Carlo with common dice: `budget` times, a game is rebuilt from the
    seat's record with the hidden parts freshly sampled and one seed is drawn for the dice to
    come; every candidate move (the `width` best by the normal player's judgement) is played
    out on that same game with those same dice, `plies` moves deep, and scored. Sharing the
    sample and the dice between candidates compares the moves, not the luck of their rolls.
    Play-outs follow the game's normal plan (`decide`) for every seat where the game has one,
    otherwise plain moves with each seat finishing its turn greedily."""

    name = "hard"
    budget = 24
    width = 6
    plies = 24
    confidence = 2.0        # standard errors a move must beat the normal choice by
    secret_search = False   # search secret steps too (TradeShowdown's dice choice is the game)
    round_stop = True       # a plain play-out ends when the seat is to decide after the others

    def __init__(self, seen: Seen):
        self.seen = seen
        self.screen = NormalPolicy(seen)
        self.mod = _module(seen.kind)
        for k, v in getattr(self.mod, "HARD", {}).items():
            setattr(self, k, v)

    def candidates(self, legal: list[str], rng: random.Random) -> list[str]:
        """The moves worth searching, best first by the normal player's judgement."""
        rank = getattr(self.mod, "rank", None)
        if rank is not None:
            ranked = rank(self.seen.determinize(rng), self.seen.seat, legal, rng)
            if ranked:
                return ranked[:self.width]
        first = self.screen.values(legal, rng)
        if not first:
            return list(legal[:self.width])
        # equal values are broken by the seeded rng, as the normal player does: a fixed order
        # would pick the same do-nothing step (KAPLOOM!'s Power Up) again and again
        tie = {m: rng.random() for m in first}
        return sorted(first, key=lambda m: (-first[m], tie[m]))[:self.width]

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        legal = playable(legal)
        if len(legal) == 1:
            return legal[0]
        forced = self.screen.must(legal, rng)
        if forced is not None:
            return forced
        own = getattr(self.mod, "hard_choose", None)
        if own is not None:
            # a game whose search is its own (bot/policies/<game>.py): same inputs, same rules
            # of fairness (it gets this policy, whose only knowledge is the seat's Seen)
            move = own(self, view, legal, rng)
            if move is not None and move in legal:
                return move
        seat = self.seen.seat
        base = self.seen.determinize(rng)
        if not self.secret_search and base.current_phase() in hidden_phases(base):
            # a secret step (placements, set-ups): the rival's choice is unknown and a search
            # over guesses of it says no more than the normal judgement
            return self.screen.choose(view, legal, rng)
        cands = self.candidates(legal, rng)
        if len(cands) <= 1:
            return cands[0] if cands else rng.choice(legal)
        runs: dict[str, list[float]] = {m: [] for m in cands}
        for i in range(self.budget):
            base = base if i == 0 else self.seen.determinize(rng)
            dice = rng.getrandbits(64)
            for m in cands:
                g = clone(base)
                try:
                    play(g, seat, m)
                except Exception:
                    runs[m].append(-2.0)
                    continue
                rollout(g, seat, random.Random(dice), self.plies, self.mod, self.round_stop)
                runs[m].append(_squash(score(g, seat)))
        return pick(cands, runs, self.confidence)


def pick(cands: list[str], runs: dict[str, list[float]], z: float) -> str:
    """The normal player's move (`cands[0]`) unless another candidate did better on the same
    samples by more than `z` standard errors of the paired differences: with few play-outs of
    a game this full of dice, the plain best mean is mostly the luckiest move, and the normal
    choice is a better bet than a lucky one."""
    first = runs[cands[0]]
    best, best_lead = cands[0], 0.0
    for m in cands[1:]:
        diffs = [a - b for a, b in zip(runs[m], first)]
        n = len(diffs)
        if n < 2:
            continue
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        se = math.sqrt(var / n)
        if mean > z * se + 1e-9 and mean > best_lead:
            best, best_lead = m, mean
    return best


def rollout(g: Game, seat: int, rng: random.Random, plies: int, mod: Any,
            round_stop: bool = True) -> None:
    """Play on from `g` for `plies` moves: every seat follows the game's `decide` plan where
    there is one (on this sampled game, which is all a play-out knows), else `playout`."""
    decide = getattr(mod, "decide", None)
    if decide is None:
        greedy_round(g, seat, rng, plies, getattr(mod, "GREEDY_WIDTH", 8), round_stop)
        return
    for _ in range(plies):
        if g.outcome() is not None:
            return
        actors = g.actors()
        if actors == [CHANCE]:
            play(g, CHANCE, g.chance().sample(rng))
            continue
        actor = actors[0] if len(actors) == 1 else rng.choice(actors)
        legal = playable(g.legal(actor))
        move = decide(g, actor, legal, rng) if len(legal) > 1 else legal[0]
        if move is None or move not in legal:
            move = rng.choice(legal)
        play(g, actor, move)


def _squash(v: float) -> float:
    return math.tanh(v / 10.0)


def make(level: str, seen: Seen | None = None) -> Policy:
    """A policy by level; `seen` (the seat's record) is needed by every level but random."""
    if level == "random":
        return RandomPolicy()
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
    if seen is None:
        raise ValueError(f"the {level} level needs the seat's record (Seen)")
    return {"greedy": GreedyPolicy, "easy": EasyPolicy, "normal": NormalPolicy,
            "hard": HardPolicy}[level](seen)


__all__ = ["LEVELS", "Policy", "Seen", "Watch", "make", "score", "seen_from_record"]
