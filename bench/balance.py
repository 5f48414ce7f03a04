"""`make balance`: what the practice opponents measure about the five games (issue #16).

Per game: first-seat win rate with a 95% (Wilson) interval, draw rate, median and 90th
percentile length, how games end (knock-out vs limits); Death by Dice's character matrix,
KAPLOOM!'s hero/villain and super pairings, TradeShowdown by seat for 2-4 players; strength:
normal vs random, hard vs normal, and against the one-ply `greedy` baseline (greedy vs random,
normal vs greedy, hard vs greedy), seats alternated. Games run on every core (2 here).

    python -m bench.balance [--full] [--games N] [--strength N] [--hard N] [--greedy N]
                            [--only GAME ...] [--json]

The default run is sized per game (QUICK) to finish in under ten minutes on this 2-core
machine: a `hard` Slide and Slam or Death by Dice game costs seconds, a Die-Men game
milliseconds, so each game gets the games its cost allows. `--full` is the issue's size (#28:
400 games a pairing, every game; hours). A size given on the command line applies to every
game. Progress goes to stderr: a line every few games of a pairing, and after each pairing
the games done of the whole run with the time left (estimated from COST, corrected by the
pace so far).

Self-play balance uses `normal` for every seat (`hard` in TradeShowdown, Die-Men and
KAPLOOM!: see SELF; KAPLOOM!'s super pairings alternate which seat is the hero). Die-Men
plays ten times --hard games of hard vs normal (its edge is small, its games cheap). Not part
of `make test`.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import statistics
import sys
import time

from bot.engine import KINDS
from bot.policies.match import GameResult, Progress, duration, play_game, summarize

# Self-play by the strongest player whose games are cheap: TradeShowdown's normal player never
# rolls its whole supply and leaves every fight to the judges, which says nothing of the rules;
# the hard players of TradeShowdown and Die-Men decide in about a millisecond. KAPLOOM!'s
# normal player measures the seat more than the board (the second seat won 89% of decisive
# games, hero or villain); its hard player (7 ms a decision) has no such bias.
SELF = {"tradeshowdown": "hard", "diemen": "hard", "kaploom": "hard"}
# Die-Men's hard player is better than normal by a few points only (the flick table is most of
# the game): 400 games cannot tell that from chance, 4,000 (three minutes) can.
HARD_SCALE = {"diemen": 10}

# Games per pairing: `--games` self-play lines (KAPLOOM!'s six super pairings too; Death by
# Dice's character matrix a quarter of it per pair of characters), `--strength` normal vs
# random, `--hard` hard vs normal, `--greedy` each pairing with the greedy baseline.
FULL = {"games": 400, "strength": 400, "hard": 400, "greedy": 400}
QUICK = {
    "slideslam": {"games": 10, "strength": 10, "hard": 4, "greedy": 4},
    "deathbydice": {"games": 100, "strength": 40, "hard": 4, "greedy": 4},
    "diemen": {"games": 100, "strength": 40, "hard": 10, "greedy": 10},
    "tradeshowdown": {"games": 20, "strength": 6, "hard": 6, "greedy": 6},
    # a hard KAPLOOM! game with supers is 5-10 s: each super pairing once a side, a smoke
    # test of the pairings, no figure
    "kaploom": {"games": 2, "supers": 2, "strength": 4, "hard": 2, "greedy": 2},
}
# CPU seconds a seat of each level costs over a whole game (two-player games measured on this
# machine, 25 Nov 2026): the run's time left is estimated from them, scaled by the pace so far.
COST = {
    "slideslam": {"random": 0.05, "greedy": 0.15, "normal": 0.75, "hard": 2.5},
    "deathbydice": {"random": 0.01, "greedy": 0.06, "normal": 0.04, "hard": 4.3},
    "diemen": {"random": 0.01, "greedy": 0.04, "normal": 0.03, "hard": 0.2},
    "tradeshowdown": {"random": 0.01, "greedy": 0.25, "normal": 3.1, "hard": 0.3},
    "kaploom": {"random": 0.3, "greedy": 0.7, "normal": 1.15, "hard": 2.5},
}


def cost(job) -> float:
    kind, levels = job[0], job[1]
    return sum(COST.get(kind, {}).get(lv, 1.0) for lv in levels)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson(k, n)
    return f"{pct(k / n) if n else '-'} [{pct(lo)}, {pct(hi)}]"


def _job(args) -> GameResult:
    kind, levels, seed, options = args
    return play_game(kind, levels, seed, options, timed=True)


def run(pool, jobs) -> list[GameResult]:
    """The games, in order; a progress line on stderr every few games (a run takes minutes)."""
    if not jobs:
        return []
    if isinstance(pool, Runner):
        return pool.run(jobs)
    kind, levels = jobs[0][0], jobs[0][1]
    progress = Progress(f"balance: {kind} {' vs '.join(dict.fromkeys(levels))}", len(jobs))
    results = []
    for r in pool.imap(_job, jobs, chunksize=1):
        results.append(r)
        progress()
    return results


class Runner:
    """Plays each pairing's games on `pool` and says, after each pairing, how far the whole
    run is. The run is first planned by a dry pass (`pool` None: every section asks for its
    games and gets empty results, nothing is played), so the total is known from the start."""

    def __init__(self, pool, planned: list | None = None, stream=None,
                 clock=time.monotonic):
        self.pool, self.stream, self.clock = pool, stream, clock
        self.planned = planned  # every job of the run, from the dry pass
        self.jobs: list = []    # the jobs asked for so far
        self.start = clock()

    def run(self, jobs: list) -> list[GameResult]:
        self.jobs.extend(jobs)
        if self.pool is None:
            return [GameResult((), "planned", 0, list(j[1])) for j in jobs]
        results = run(self.pool, jobs)
        self.report()
        return results

    def report(self) -> None:
        total = len(self.planned or self.jobs)
        done_cost = sum(cost(j) for j in self.jobs)
        left_cost = sum(cost(j) for j in (self.planned or [])[len(self.jobs):])
        elapsed = self.clock() - self.start
        # the cost table's seconds are CPU seconds of one core; the pace so far says what
        # they are worth on this machine now (two workers, other load)
        left = left_cost * elapsed / done_cost if done_cost else 0.0
        print(f"balance: run {len(self.jobs)}/{total} games, {duration(elapsed)} so far, "
              f"about {duration(left)} left", file=self.stream or sys.stderr, flush=True)


def swapped_sides(options: dict) -> dict:
    """KAPLOOM!: the same pairing with the seats exchanged (seat 1 takes the other side and
    the supers follow their players), so neither seat order biases a pairing's figure."""
    out = dict(options)
    out["sides"] = "villain" if options.get("sides", "hero") == "hero" else "hero"
    supers = str(options.get("supers", "none"))
    if "," in supers:
        out["supers"] = ",".join(reversed(supers.split(",")))
    return out


def self_play(pool, kind: str, games: int, players: int = 2, options: dict | None = None,
              seed: int = 7, alternate_sides: bool = False) -> dict:
    """`alternate_sides` (KAPLOOM!): every other game seat 1 plays the other side, and the
    hero's wins are counted (`hero_wins`) whichever seat it had."""
    lv = SELF.get(kind, "normal")
    jobs = [(kind, [lv] * players, seed * 7919 + i,
             swapped_sides(options or {}) if alternate_sides and i % 2 else options)
            for i in range(games)]
    res = run(pool, jobs)
    decisive = [r for r in res if r.winners]
    first = sum(1 for r in decisive if r.winners == (0,) or 0 in r.winners)
    by_seat = [sum(1 for r in decisive if s in r.winners) for s in range(players)]
    lengths = sorted(r.moves for r in res)
    endings: dict[str, int] = {}
    for r in res:
        endings[r.ending] = endings.get(r.ending, 0) + 1
    out = {"game": kind, "players": players, "options": options or {}, "policy": lv,
           "games": games, "decisive": len(decisive), "first_wins": first,
           "by_seat": by_seat, "draws": games - len(decisive),
           "median": statistics.median(lengths),
           "p90": lengths[min(len(lengths) - 1, int(0.9 * len(lengths)))],
           "endings": endings}
    if alternate_sides:
        # the hero sits in seat 1 of even games and seat 2 of odd ones
        out["hero_wins"] = sum(1 for i, r in enumerate(res) if r.winners and i % 2 in r.winners)
    return out


SUPER_PAIRINGS = ("none,Victor Kane", "none,Spoiler Alert!", "Timeout!,none",
                  "Timeout!,Victor Kane", "Tough Nut,none", "Tough Nut,Spoiler Alert!")


def characters(pool, per: int) -> dict:
    """Death by Dice: each character against each other one, `per` games a pair with seats
    alternated; a character's row is its win rate over all its games."""
    from bot.engine.deathbydice.data import ROSTER_NAMES
    names = list(ROSTER_NAMES)
    jobs, meta = [], []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for g in range(per):
                pair = (a, b) if g % 2 == 0 else (b, a)
                jobs.append(("deathbydice", ["normal", "normal"], 31 * len(jobs) + 5,
                             {"characters": ",".join(pair)}))
                meta.append(pair)
    res = run(pool, jobs)
    # matrix[a][b] = [a's wins against b, games of a against b]
    matrix = {a: {b: [0, 0] for b in names if b != a} for a in names}
    for pair, r in zip(meta, res):
        for s, n in enumerate(pair):
            cell = matrix[n][pair[1 - s]]
            cell[1] += 1
            if r.winners == (s,):
                cell[0] += 1
    return matrix


def character_rows(matrix: dict) -> dict:
    """Each character's wins and games over all its pairings."""
    return {a: [sum(c[0] for c in row.values()), sum(c[1] for c in row.values())]
            for a, row in matrix.items()}


def strength(pool, kind: str, a: str, b: str, games: int, seed: int = 11) -> dict:
    jobs = [(kind, [a, b] if i % 2 == 0 else [b, a], seed * 7919 + i, None)
            for i in range(games)]
    res = run(pool, jobs) if jobs else []
    m = summarize(kind, a, b, res)
    think = {k: statistics.median(v) for k, v in m.think.items() if v}
    return {"game": kind, "a": a, "b": b, "games": games, "wins": m.wins, "draws": m.draws,
            "think_median_s": think}


def print_self(r: dict) -> None:
    n, d = r["games"], r["decisive"]
    ends = ", ".join(f"{k} {pct(v / n)}" for k, v in sorted(r["endings"].items()))
    opts = " ".join(f"{k}={v}" for k, v in r["options"].items())
    seats = " / ".join(interval(k, d) for k in r["by_seat"]) if r["players"] > 2 else \
        interval(r["first_wins"], d)
    print(f"| {r['game']} {r['players']}p {opts} ({r.get('policy', 'normal')}) | {n} | "
          f"{seats} | {pct(r['draws'] / n)} | {r['median']} | {r['p90']} | {ends} |")


def sizes(kind: str, args) -> dict[str, int]:
    """Games per pairing for `kind`: the command line's where given, else --full's or the
    quick default's."""
    base = FULL if args.full else QUICK[kind]
    out = {k: getattr(args, k) if getattr(args, k) is not None else base[k] for k in FULL}
    out["supers"] = args.games if args.games is not None else base.get("supers", base["games"])
    return out


def measure(runner: Runner, args) -> dict:
    """Every section of the run, each pairing's games asked of `runner`."""
    out: dict = {"self": [], "strength": []}
    for kind in args.only:
        n = sizes(kind, args)["games"]
        out["self"].append(self_play(runner, kind, n))
        if kind == "tradeshowdown":
            for p in (3, 4):
                out["self"].append(self_play(runner, kind, n, players=p))
        if kind == "deathbydice":
            out["characters"] = characters(runner, max(4, n // 4))
        if kind == "kaploom":
            out["supers"] = [self_play(runner, kind, sizes(kind, args)["supers"],
                                       options={"supers": s},
                                       alternate_sides=True) for s in SUPER_PAIRINGS]
        if kind == "slideslam":
            out["self"].append(self_play(runner, kind, n, options={"stun": False}))
    for kind in args.only:
        size = sizes(kind, args)
        out["strength"].append(strength(runner, kind, "normal", "random", size["strength"]))
        out["strength"].append(strength(runner, kind, "hard", "normal",
                                        size["hard"] * HARD_SCALE.get(kind, 1)))
        # the one-ply greedy baseline (issue #28): what each level is worth against a player
        # that takes the best-looking move
        for a, b in (("greedy", "random"), ("normal", "greedy"), ("hard", "greedy")):
            out["strength"].append(strength(runner, kind, a, b, size["greedy"]))
    return out


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m bench.balance")
    ap.add_argument("--full", action="store_true",
                    help="the issue's sizes: 400 games a pairing in every game (hours); "
                         "without it each game plays what fits ten minutes in all")
    ap.add_argument("--games", type=int, help="self-play games per line, every game")
    ap.add_argument("--strength", type=int, help="normal vs random games, every game")
    ap.add_argument("--hard", type=int,
                    help="hard vs normal games, every game (Die-Men ten times as many)")
    ap.add_argument("--greedy", type=int,
                    help="games of each pairing with the greedy baseline, every game: greedy "
                         "vs random, normal vs greedy, hard vs greedy")
    ap.add_argument("--only", nargs="*", default=list(KINDS))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--report", metavar="FILE", help="print the tables of a --json run")
    return ap


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.report:
        with open(args.report) as f:
            report(json.load(f))
        return 0
    t0 = time.time()
    plan = Runner(None)
    measure(plan, args)
    with mp.get_context("fork").Pool(2) as pool:
        out = measure(Runner(pool, plan.jobs), args)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    report(out)
    print(f"\n({time.time() - t0:.0f} s)", file=sys.stderr)
    return 0


def report(out: dict) -> None:
    """The tables of docs/balance.md (also from a saved --json run: `--report FILE`)."""
    print("| game | games | first seat wins (decisive, 95% CI) | draws | median moves | "
          "p90 moves | endings |")
    print("|---|---|---|---|---|---|---|")
    for r in out["self"]:
        print_self(r)
    print()
    print("| game | pairing | games | wins (95% CI) | draws | median decision time |")
    print("|---|---|---|---|---|---|")
    for r in out["strength"]:
        if not r["games"]:
            continue
        a, b, n = r["a"], r["b"], r["games"]
        t = ", ".join(f"{k} {1000 * v:.0f} ms" for k, v in r["think_median_s"].items())
        print(f"| {r['game']} | {a} vs {b} | {n} | {a} {interval(r['wins'][a], n)} | "
              f"{r['draws']} | {t} |")
    if "characters" in out:
        matrix = out["characters"]
        print("\n| Death by Dice character | games | wins (95% CI) |\n|---|---|---|")
        for n, (w, g) in character_rows(matrix).items():
            print(f"| {n} | {g} | {interval(w, g)} |")
        names = list(matrix)
        print("\n| row beats column | " + " | ".join(names) + " |")
        print("|---|" + "---|" * len(names))
        for a in names:
            cells = ["-" if a == b else f"{pct(matrix[a][b][0] / matrix[a][b][1])}"
                     if matrix[a][b][1] else "-" for b in names]
            print(f"| {a} | " + " | ".join(cells) + " |")
    if "supers" in out:
        print("\n| KAPLOOM! supers (hero,villain) | games | hero wins (decisive, 95% CI) | "
              "draws |\n|---|---|---|---|")
        for r in out["supers"]:
            d = r["decisive"]
            hero = r.get("hero_wins", r["first_wins"])  # older runs: the hero sat in seat 1
            print(f"| {r['options']['supers']} | {r['games']} | {interval(hero, d)}"
                  f" | {r['draws']} |")


if __name__ == "__main__":
    sys.exit(main())
