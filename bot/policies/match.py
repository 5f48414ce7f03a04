"""Offline games between policies (`python -m bot match`, `make balance`)."""
from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, TextIO

from bot.engine import CHANCE, load
from bot.engine.core import Game

from . import make
from .seen import Watch

MOVE_CAP = 4000  # a safety net: no engine's game comes near it with any policy


@dataclass
class GameResult:
    winners: tuple[int, ...]
    ending: str
    moves: int
    levels: list[str]
    think: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds per decision
    capped: bool = False


def default_options(kind: str) -> dict[str, Any]:
    """What a game played by bots needs (Die-Men: simulated flicks)."""
    return dict(load(kind).BOT_OPTIONS)


def play_seeded(kind: str, levels: Sequence[str], seed: int, options: dict | None = None,
                timed: bool = False, after_move: Callable[[Game], None] | None = None
                ) -> tuple[Game, int, dict[str, list[float]]]:
    """One game, seat i played by `levels[i]`, chance and policies seeded from `seed`: the
    game at its end, the moves made, and (`timed`) each level's decision times. `after_move`
    sees the game after every move (what a measurement wants to note on the way)."""
    cls = load(kind)
    opts = {**default_options(kind), **(options or {})}
    names = [f"{lv.title()} {i + 1}" for i, lv in enumerate(levels)]
    game = cls.new(len(levels), opts, names)
    watch = Watch(game)
    policies = [make(lv, watch.seen[s]) for s, lv in enumerate(levels)]
    chance_rng = random.Random(f"{seed}:chance")
    rngs = [random.Random(f"{seed}:seat{s}") for s in range(len(levels))]
    think: dict[str, list[float]] = {}
    moves = 0
    while game.outcome() is None and moves < MOVE_CAP:
        actors = game.actors()
        if actors == [CHANCE]:
            actor, move = CHANCE, game.chance().sample(chance_rng)
        else:
            actor = actors[0]
            t0 = time.perf_counter()
            move = policies[actor].choose(game.view(actor), game.legal(actor), rngs[actor])
            if timed:
                think.setdefault(levels[actor], []).append(time.perf_counter() - t0)
        note = watch.before(game, actor)
        events = game.apply(actor, move)
        watch.after(game, actor, move, note, events)
        moves += 1
        if after_move is not None:
            after_move(game)
    return game, moves, think


def play_game(kind: str, levels: Sequence[str], seed: int, options: dict | None = None,
              timed: bool = False) -> GameResult:
    """One game, seat i played by `levels[i]`, chance and policies seeded from `seed`."""
    game, moves, think = play_seeded(kind, levels, seed, options, timed)
    out = game.outcome()
    if out is None:
        return GameResult((), "capped", moves, list(levels), think, capped=True)
    return GameResult(out.winners, out.ending, moves, list(levels), think)


@dataclass
class MatchResult:
    game: str
    games: int
    wins: dict[str, int]
    draws: int
    lengths: list[int]
    endings: dict[str, int]
    think: dict[str, list[float]]

    @property
    def median_moves(self) -> float:
        return statistics.median(self.lengths) if self.lengths else 0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "games": self.games, "wins": self.wins, "draws": self.draws,
                "median_moves": self.median_moves}


def seats_for(a: str, b: str, players: int, i: int) -> list[str]:
    """Game i's seating: A and B alternate seats (A first on even games); with more than two
    players the seats alternate A, B, A, ... starting from whoever is first this game."""
    first, second = (a, b) if i % 2 == 0 else (b, a)
    return [first if s % 2 == 0 else second for s in range(players)]


class Progress:
    """Progress of a long run, on stderr: a line every `every` games (and at the end) with the
    games done, the rate and the time left, so a run of minutes is never silent."""

    def __init__(self, label: str, total: int, every: int | None = None,
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic):
        self.label, self.total = label, total
        self.every = every or max(1, min(50, total // 10))
        self.stream, self.clock = stream, clock
        self.done = 0
        self.start = self.last = clock()

    # Slow games (a `hard` KAPLOOM! game takes seconds): a line at least this often anyway.
    QUIET_SECONDS = 30.0

    def __call__(self, n: int = 1) -> None:
        self.done += n
        now = self.clock()
        if (self.done % self.every and self.done != self.total
                and now - self.last < self.QUIET_SECONDS):
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        if self.done >= self.total:
            tail = f"done in {duration(elapsed)}"
        else:
            tail = f"about {duration((self.total - self.done) / rate)} left"
        print(f"{self.label}: {self.done}/{self.total} games, {rate:.2f} games/s, {tail}",
              file=self.stream or sys.stderr, flush=True)


def duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _one(args: tuple) -> GameResult:
    kind, levels, seed, options, timed = args
    return play_game(kind, levels, seed, options, timed)


def run_match(kind: str, a: str, b: str, games: int, players: int = 2,
              options: dict | None = None, seed: int = 1, processes: int = 1,
              timed: bool = False, progress: Callable[[], None] | None = None
              ) -> MatchResult:
    """`progress()` is called after each game (e.g. a `Progress`)."""
    jobs = [(kind, seats_for(a, b, players, i), seed * 100003 + i, options, timed)
            for i in range(games)]
    results = []
    if processes > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(processes) as pool:
            for r in pool.imap(_one, jobs, chunksize=1):  # in order, as they finish
                results.append(r)
                if progress is not None:
                    progress()
    else:
        for j in jobs:
            results.append(_one(j))
            if progress is not None:
                progress()
    return summarize(kind, a, b, results)


def summarize(kind: str, a: str, b: str, results: list[GameResult]) -> MatchResult:
    wins = {a: 0, b: 0} if a != b else {a: 0}
    draws = 0
    endings: dict[str, int] = {}
    think: dict[str, list[float]] = {}
    for r in results:
        endings[r.ending] = endings.get(r.ending, 0) + 1
        for lv, ts in r.think.items():
            think.setdefault(lv, []).extend(ts)
        won = {r.levels[w] for w in r.winners}
        if len(won) != 1:
            draws += 1  # nobody won, or both policies share the win
        else:
            wins[won.pop()] += 1
    return MatchResult(kind, len(results), wins, draws, [r.moves for r in results], endings,
                       think)
