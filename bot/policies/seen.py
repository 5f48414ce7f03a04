"""What one seat has seen of a game, and games rebuilt from it (determinization).

A seat's knowledge is the public record of the game as that seat saw it: every move whose
result it could see, its own secret moves and private rolls, and, for the moves it could not
see (another seat's secret step, another seat's private roll), only those that showed (a
lock-in, an announcement, a roll) and what its own view looked like afterwards; a rival's move
that left its view as it was is not even known to have happened. Every secret step of these five games ends in a
reveal (placements, set-ups, dice choices, plans, Phase 1 boards are all shown), so when no
seat is in a secret step any more, the hidden moves of that step become known: `Watch` hands
them to the seat then, never earlier.

`Seen.determinize(rng)` rebuilds a full game consistent with what the seat saw: the known
prefix as played, and inside the secret step still under way, the hidden moves replaced by
samples (other seats' moves drawn from their legal moves, others' private dice re-rolled),
kept only when the seat's own view after each of them is the one it really saw. Nothing in
here reads a hidden move before its reveal, so a policy working from `determinize` decides the
same whatever the other seats' secrets are (tests/test_policies.py proves it per game), and
however many moves they took: a rival's move that shows nothing is no entry at all, and the
rebuilt game samples how many such moves there were (tests/test_policies_fair_count.py).
"""
from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, Sequence

from bot.engine import CHANCE, load
from bot.engine.core import Event, Game


@dataclass
class _Entry:
    actor: Any                      # seat or CHANCE
    move: str | None                # None while hidden from this seat
    tokens: list[str | None] | None = None  # a private roll: None where hidden
    view_after: dict | None = None  # this seat's view after the entry (inside a secret step)


def clone(g: Game) -> Game:
    """A private copy for simulation (`Game.fork`: pickle is ten times faster than the JSON
    round trip of `Game.copy()`, and a search copies thousands of times per decision)."""
    return g.fork()


def play(g: Game, actor: Any, move: str) -> None:
    """Apply a legal move to a simulation copy without `apply`'s save-for-undo (a JSON dump
    per move): a move that fails leaves the copy broken, and the caller throws it away."""
    g.simulate(actor, move)


def tried(g: Game, actor: Any, move: str) -> Game | None:
    """`g` after `move`, on a private copy; None when the move is refused (the broken copy
    is thrown away)."""
    t = clone(g)
    try:
        play(t, actor, move)
    except Exception:
        return None
    return t


WALK = 3   # unseen moves a rival may have made, at most, where its game does not say
# Moves a rival's unseen walk never samples (taking back a step is no step: bot/policies)
_NEVER = frozenset({"undo", "unplace", "unassign", "detach", "mode", "oops"})


class Seen:
    """The record of one game as `seat` saw it.

    A rival's hidden move that left this seat's view as it was (a KAPLOOM! placement behind
    the screen, a TradeShowdown plan step) is not an entry at all: a person sees nothing of
    it, not even that it happened, so the number of such moves must not reach the bot
    (issue #28: dropping one hidden `assign` changed the normal player's move in most
    positions). A hidden move that shows (a lock-in, an announced action) is one entry, and
    rebuilding the game samples any number of unseen rival moves before it, and after the
    last entry while the rival is still in its secret step (`walk`)."""

    def __init__(self, kind: str, players: int, options: dict | None, names: Sequence[str] | None,
                 seat: int):
        self.kind = kind
        self.seat = seat
        self.cls = load(kind)
        self._start = self.cls.new(players, options, names)
        self._known = self._start.copy()   # the game after the known prefix
        self._open: list[_Entry] = []      # entries of the secret step under way
        self._unseen = False               # a rival moved unseen in the step under way
        self._hidden = hidden_phases(self._start)
        try:
            self._walk = int(getattr(importlib.import_module(f"bot.policies.{kind}"),
                                     "HIDDEN_WALK", WALK))
        except ImportError:
            self._walk = WALK
        # entries this seat saw (its own moves, public ones, the visible marks of hidden
        # ones): a practice game salts the bot's random stream with it (bot/practice.py)
        self.moves = 0

    # fed by Watch ---------------------------------------------------------------------------
    def _add(self, entry: _Entry) -> None:
        self.moves += 1
        if not self.in_secret and entry.move is not None and entry.tokens is None:
            self._known.apply(entry.actor, entry.move)
            return
        self._open.append(entry)

    def _unseen_move(self) -> None:
        """A rival moved in its secret step and nothing of it showed: no entry."""
        self._unseen = True

    def _reveal(self, true_moves: list[tuple[Any, str]]) -> None:
        """The secret step is over: every move of it is now known (Watch passes them, with
        their actors, from the step's first hidden move on)."""
        for actor, m in true_moves:
            self._known.apply(actor, m)
        self._open = []
        self._unseen = False

    @property
    def in_secret(self) -> bool:
        return bool(self._open) or self._unseen

    # determinization -----------------------------------------------------------------------
    def determinize(self, rng: random.Random, tries: int = 32) -> Game:
        """A full game consistent with everything this seat saw; hidden parts sampled. The
        samples are drawn move by move without looking ahead, so a sample can fail late (a
        KAPLOOM! rival's unseen placements use up the dice its announced Quick Fix needs): at
        8 tries one KAPLOOM! decision in 40-80 went on from a game that was not what the seat
        saw (its own re-rolled die blank), at 32 none in 5 games; a try that matches ends it."""
        if not self._open:
            return self._walk_rivals(clone(self._known), rng)
        best = None
        for _ in range(tries):
            g, ok = self._sample(rng)
            if ok:
                return self._walk_rivals(g, rng)
            best = best or g
        return best

    # the unseen moves of rivals ------------------------------------------------------------
    def _rivals(self, g: Game) -> list[int]:
        """The seats whose moves this seat cannot see now (not itself, not its ally)."""
        if g.outcome() is not None or g.current_phase() not in self._hidden:
            return []
        team = g.team_of(self.seat)
        return [a for a in g.actors() if a != CHANCE and a not in team and g.is_secret(a)]

    def walk(self, g: Game, actor: int, rng: random.Random) -> Game:
        """Up to `HIDDEN_WALK` (a game's policy module may say; 3 otherwise) moves of `actor`
        drawn at random among those that leave this seat's view as it is and the step under
        way: what a rival may have done unseen. How many is drawn too; the record never
        says."""
        steps = rng.randint(0, self._walk)
        if not steps:
            return g
        seen = g.view(self.seat)
        phase = g.current_phase()
        for _ in range(steps):
            cands = [m for m in g.legal(actor) if m.split(" ", 1)[0] not in _NEVER]
            rng.shuffle(cands)
            nxt = self._unseen_step(g, actor, cands, phase, seen)
            if nxt is None:
                break
            g = nxt
        return g

    def _unseen_step(self, g: Game, actor: int, cands: list[str], phase: str,
                     seen: dict) -> Game | None:
        """The game after the first of `cands` (12 at most) that `actor` may have made
        unseen: the step goes on, both still act, and this seat's view is still `seen`."""
        for m in cands[:12]:
            trial = tried(g, actor, m)
            if trial is None:
                continue
            if (trial.outcome() is None and trial.current_phase() == phase
                    and actor in trial.actors() and self.seat in trial.actors()
                    and trial.view(self.seat) == seen):
                return trial
        return None

    def _reach(self, g: Game, actor: int, target: dict, rng: random.Random
               ) -> tuple[Game, bool]:
        """`actor`'s move that showed as `target` in this seat's view, after unseen moves of
        theirs: at least a drawn number of them (0 to `HIDDEN_WALK`), more while the showing
        move is not yet possible (a Slide and Slam wall is confirmed once every die is
        placed). A showing move is looked for among one move of each verb (lock, confirm,
        done are few), and among 40 of all when the drawn walk is over or can go no further."""
        def legal_moves(game: Game) -> list[str]:
            cands = [m for m in game.legal(actor) if m.split(" ", 1)[0] not in _NEVER]
            rng.shuffle(cands)
            return cands

        def match(game: Game, cands: list[str], full: bool) -> Game | None:
            firsts: dict[str, str] = {}
            for m in cands:
                firsts.setdefault(m.split(" ", 1)[0], m)
            order = list(firsts.values())
            if full:
                order += [m for m in cands[:40] if m not in firsts.values()]
            for m in order:
                trial = tried(game, actor, m)
                if trial is None:
                    continue
                if trial.view(self.seat) == target:
                    return trial
            return None

        walk = rng.randint(0, self._walk)
        if self.seat not in g.actors():
            walk = 0   # our view may change with every move of theirs: no walk to tell
        seen = g.view(self.seat)
        phase = g.current_phase()
        for step in range(walk + 24):
            cands = legal_moves(g)
            if step >= walk:
                found = match(g, cands, full=step == walk)
                if found is not None:
                    return found, True
            nxt = (self._unseen_step(g, actor, cands, phase, seen)
                   if self.seat in g.actors() else None)
            if nxt is None:
                found = match(g, cands, full=True) if step < walk or step > walk else None
                return (found, True) if found is not None else (g, False)
            g = nxt
        return g, False

    def _walk_rivals(self, g: Game, rng: random.Random) -> Game:
        """`g` after the unseen moves the rivals still in their secret step may have made since
        the last entry."""
        if self.seat not in g.actors():
            return g
        for r in self._rivals(g):
            g = self.walk(g, r, rng)
        return g

    def _sample(self, rng: random.Random) -> tuple[Game, bool]:
        g = clone(self._known)
        ok = True
        for e in self._open:
            if e.move is not None and e.tokens is None:
                try:
                    g.apply(e.actor, e.move)
                except Exception:
                    return g, False
                continue
            if e.tokens is not None:
                done = False
                for _ in range(6):
                    ch = g.chance()
                    if ch is None or len(ch.draws) != len(e.tokens):
                        return g, False
                    picks = []
                    for tok, d in zip(e.tokens, ch.draws):
                        if tok is not None:
                            picks.append(tok)
                        elif d.weights is None:
                            picks.append(rng.choice(d.options))
                        else:
                            picks.append(rng.choices(d.options, weights=d.weights, k=1)[0])
                    trial = tried(g, CHANCE, "roll " + " ".join(picks))
                    if trial is None:
                        continue
                    if e.view_after is None or trial.view(self.seat) == e.view_after:
                        g, done = trial, True
                        break
                if not done:
                    return g, False
                continue
            # another seat's secret move that showed: some unseen moves of that seat, then a
            # move that leaves our view as we saw it
            actor = e.actor
            if actor not in g.actors():
                return g, False
            g, done = self._reach(g, actor, e.view_after, rng)
            if not done:
                ok = False
        return g, ok


class Watch:
    """Feeds every seat's `Seen` from the moves of a game as they are played (the match runner
    and the practice driver hold one). Only this class handles hidden moves, and it passes them
    to a seat only at the reveal."""

    def __init__(self, game: Game, seats: Sequence[int] | None = None):
        kind = game.KIND
        self.hidden_phases = hidden_phases(game)
        self.closing_phases = closing_phases(game)
        self.seen = {s: Seen(kind, game.players, game.options, game.names, s)
                     for s in (range(game.players) if seats is None else seats)}
        self._vault: dict[int, list[tuple[Any, str]]] = {s: [] for s in self.seen}

    def before(self, game: Game, actor: Any) -> dict:
        """What must be noted before `actor` moves (the move's secrecy, the draws)."""
        if actor == CHANCE:
            ch = game.chance()
            return {"owners": [d.owner for d in ch.draws] if ch else [],
                    "phase": game.current_phase()}
        secret = game.is_secret(actor) and game.current_phase() in self.hidden_phases
        # a hidden move may show nothing at all to a seat: its view now, to tell
        views = {s: game.view(s) for s in self.seen if s != actor} if secret else {}
        return {"secret": secret, "phase": game.current_phase(), "views": views}

    def after(self, game: Game, actor: Any, move: str, note: dict, events: list[Event]) -> None:
        private = [e for e in events if not e.public]
        for s, seen in self.seen.items():
            entry = _Entry(actor, move)
            hidden = False
            if actor == CHANCE:
                if private:
                    toks = move.split()[1:]
                    # a draw of unknown owner is ours only when its news went to us alone
                    alone = {t for e in private for t in (e.to or ())} == {s}
                    # a partner's dice are ours to see when its news came to us too
                    # (KAPLOOM! 2 vs 2: a team rolls and plans in the open between them)
                    shared = {o for e in private if s in (e.to or ()) for o in e.to}
                    known = []
                    for tok, owner in zip(toks, note.get("owners", [])):
                        mine = (owner == s or owner in shared) if owner is not None else alone
                        known.append(tok if mine else None)
                    if any(t is None for t in known):
                        entry = _Entry(actor, None, known)
                        hidden = True
                    elif seen.in_secret:
                        entry = _Entry(actor, None, known)
                        hidden = True
            elif actor != s and note.get("secret") and not any(
                    s in (e.to or ()) for e in private):
                # (a secret move whose news came to us, a partner's, is one we saw)
                entry = _Entry(actor, None)
                hidden = True
            if hidden or seen.in_secret:
                if entry.move is None:
                    entry.view_after = game.view(s)
                self._vault[s].append((actor, move))
            if (actor != CHANCE and entry.move is None
                    and note.get("views", {}).get(s) == entry.view_after):
                seen._unseen_move()   # nothing of it showed: not even that it happened
            else:
                seen._add(entry)
            # the reveal: nobody is in a secret step any more
            if seen.in_secret and (self._revealed(game, self.hidden_phases)
                                   or self._closed(game, note.get("phase"))):
                seen._reveal(self._vault[s])
                self._vault[s] = []

    def _closed(self, game: Game, before: str | None) -> bool:
        # A step that ends in a reveal may lead straight into another secret step
        # (TradeShowdown: a window with no attack to slash closes into the next round's dice
        # choice); the move that left it was the reveal.
        return before in self.closing_phases and game.current_phase() != before

    @staticmethod
    def _revealed(game: Game, hidden: frozenset[str]) -> bool:
        if game.outcome() is not None:
            return True
        return game.current_phase() not in hidden


def hidden_phases(game: Game) -> frozenset[str]:
    """The phases whose moves others cannot see: the engine's word (`HIDDEN_PHASES`, else its
    secret phases)."""
    cls = type(game)
    return cls.SECRET_PHASES if cls.HIDDEN_PHASES is None else cls.HIDDEN_PHASES


def closing_phases(game: Game) -> frozenset[str]:
    """Hidden phases whose every move is shown the moment the phase is left (the engine's
    `CLOSING_PHASES`; Death by Dice's set-up roll stays hidden through the set-up after it)."""
    return type(game).CLOSING_PHASES


def seen_from_record(kind: str, players: int, options: dict | None, names: Sequence[str] | None,
                     moves: Sequence[tuple[Any, str]], seat: int) -> Seen:
    """A seat's `Seen` rebuilt from a game's record (actor, move) in order: the record is
    replayed through `Watch`, which masks what the seat could not see."""
    cls = load(kind)
    game = cls.new(players, options, names)
    watch = Watch(game, [seat])
    for actor, move in moves:
        note = watch.before(game, actor)
        events = game.table_move(actor, move) if actor != CHANCE else game.apply(actor, move)
        watch.after(game, actor, move, note, events)
    return watch.seen[seat]
