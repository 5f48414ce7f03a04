"""`make balance`: what the practice opponents measure about the five games (issue #16).

Per game: first-seat win rate with a 95% (Wilson) interval, draw rate, median and 90th
percentile length, how games end (knock-out vs limits); Death by Dice's character matrix,
KAPLOOM!'s hero/villain and super pairings, TradeShowdown by seat for 2-4 players; strength:
normal vs random, hard vs normal, and against the one-ply `greedy` baseline (greedy vs random,
normal vs greedy, hard vs greedy), seats alternated. Games run on every core (2 here).

    python -m bench.balance [--games N] [--strength N] [--hard N] [--greedy N]
                            [--kaploom-hard N] [--only GAME ...] [--json]

The issue's sizes: `--strength 400 --hard 400` (KAPLOOM! plays a tenth of --games and
--strength, and `--kaploom-hard` hard-vs-normal games, 0 unless asked: a KAPLOOM! hard game
is a few hundred decisions).

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
from bot.policies.match import GameResult, Progress, play_game, summarize

# Self-play by the strongest player whose games are cheap: TradeShowdown's normal player never
# rolls its whole supply and leaves every fight to the judges, which says nothing of the rules;
# the hard players of TradeShowdown and Die-Men decide in about a millisecond. KAPLOOM!'s
# normal player measures the seat more than the board (the second seat won 89% of decisive
# games, hero or villain); its hard player (7 ms a decision) has no such bias.
SELF = {"tradeshowdown": "hard", "diemen": "hard", "kaploom": "hard"}
# Die-Men's hard player is better than normal by a few points only (the flick table is most of
# the game): 400 games cannot tell that from chance, 4,000 (three minutes) can.
HARD_SCALE = {"diemen": 10}


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
    kind, levels = jobs[0][0], jobs[0][1]
    progress = Progress(f"balance: {kind} {' vs '.join(dict.fromkeys(levels))}", len(jobs))
    results = []
    for r in pool.imap(_job, jobs, chunksize=1):
        results.append(r)
        progress()
    return results


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.balance")
    ap.add_argument("--games", type=int, default=100, help="self-play games per line")
    ap.add_argument("--strength", type=int, default=40, help="normal vs random games")
    ap.add_argument("--hard", type=int, default=20, help="hard vs normal games")
    ap.add_argument("--greedy", type=int, default=20,
                    help="games of each pairing with the greedy baseline: greedy vs random, "
                         "normal vs greedy, hard vs greedy (KAPLOOM!: a tenth, and its hard "
                         "vs greedy --kaploom-hard games)")
    ap.add_argument("--kaploom-hard", type=int, default=0,
                    help="KAPLOOM! hard vs normal games (slow: minutes a game)")
    ap.add_argument("--only", nargs="*", default=list(KINDS))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--report", metavar="FILE", help="print the tables of a --json run")
    args = ap.parse_args(argv)
    if args.report:
        with open(args.report) as f:
            report(json.load(f))
        return 0
    t0 = time.time()
    out: dict = {"self": [], "strength": []}
    with mp.get_context("fork").Pool(2) as pool:
        for kind in args.only:
            n = args.games if kind != "kaploom" else max(2, args.games // 10)
            out["self"].append(self_play(pool, kind, n))
            if kind == "tradeshowdown":
                for p in (3, 4):
                    out["self"].append(self_play(pool, kind, n, players=p))
            if kind == "deathbydice":
                out["characters"] = characters(pool, max(4, n // 4))
            if kind == "kaploom":
                out["supers"] = [self_play(pool, kind, max(2, n), options={"supers": s},
                                           alternate_sides=True) for s in SUPER_PAIRINGS]
            if kind == "slideslam":
                out["self"].append(self_play(pool, kind, n, options={"stun": False}))
        for kind in args.only:
            k = args.strength if kind != "kaploom" else max(2, args.strength // 10)
            out["strength"].append(strength(pool, kind, "normal", "random", k))
            # KAPLOOM! hard vs normal: 5-8 s a game (hundreds of decisions), so only when
            # asked
            h = args.hard if kind != "kaploom" else args.kaploom_hard
            out["strength"].append(strength(pool, kind, "hard", "normal",
                                            h * HARD_SCALE.get(kind, 1)))
            # the one-ply greedy baseline (issue #28): what each level is worth against a
            # player that takes the best-looking move; KAPLOOM!'s hard game only when asked
            g = args.greedy if kind != "kaploom" else max(2, args.greedy // 10)
            for a, b in (("greedy", "random"), ("normal", "greedy")):
                out["strength"].append(strength(pool, kind, a, b, g))
            out["strength"].append(strength(pool, kind, "hard", "greedy",
                                            g if kind != "kaploom" else args.kaploom_hard))
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
