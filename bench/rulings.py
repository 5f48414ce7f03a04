"""The figures behind our ruling values (issue #16 item 6): who moved first, how games end,
per character / super, measured between the practice opponents with options set.

    python -m bench.rulings slideslam --games 300 --level normal --option stun=true
    python -m bench.rulings deathbydice --games 300 --level normal [--characters A,B]
    python -m bench.rulings kaploom --games 100 --level easy --option supers="Tough Nut,none"
    python -m bench.rulings kaploom --games 60 --level normal --processes 1 --alternate-sides \
        --option supers="none,Victor Kane" --json
    python -m bench.rulings tradeshowdown --games 100 --players 4

`bench.balance` counts seat 1; here "first" is the player the game itself put first (Slide and
Slam's vote, Death by Dice's lowest set-up total, KAPLOOM!'s villain, Die-Men's Stand Cry
vote), which is what the rulings' targets speak of. Death by Dice is measured per combat
(`best_of=1`), the unit of the rulings' balance claim. Seats are alternated between the two
levels of a mixed pairing. Not part of `make test`; 2 worker processes.
"""
from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import statistics
import sys
from typing import Any

from bot.policies.match import play_seeded

from .balance import interval, pct, swapped_sides


def _first(game) -> int | None:
    """The seat the game put first, once it is known (None before)."""
    kind = game.KIND
    if kind == "slideslam":
        return game.first_player
    if kind == "deathbydice":
        return game.side_order[0] if game.side_order else None
    if kind == "kaploom":
        return next((i for i, p in enumerate(game.seats) if p.get("side") == "villain"), None)
    if kind == "diemen":
        return game.first   # the Stand Cry vote's pick
    return 0


def _extra(game) -> dict[str, Any]:
    if game.KIND == "kaploom":
        return {"sides": [p.get("side") for p in game.seats],
                "rounds": getattr(game, "round", None)}
    if game.KIND == "tradeshowdown":
        return {"rounds": getattr(game, "round", None)}
    if game.KIND == "slideslam":
        return {"turns": game.turn}
    return {}


def play_one(args) -> dict[str, Any]:
    kind, levels, seed, options = args
    first = None

    def note_first(game) -> None:
        nonlocal first
        if first is None:
            first = _first(game)

    game, moves, _ = play_seeded(kind, levels, seed, options, after_move=note_first)
    out = game.outcome()
    return {"winners": list(out.winners) if out else [], "ending": out.ending if out else "capped",
            "first": first, "moves": moves, "levels": list(levels), **_extra(game)}


def summary(res: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(res)
    decisive = [r for r in res if r["winners"]]
    fw = sum(1 for r in decisive if r["first"] in r["winners"])
    endings: dict[str, int] = {}
    for r in res:
        endings[r["ending"]] = endings.get(r["ending"], 0) + 1
    return {"games": n, "decisive": len(decisive), "first_wins": fw, "draws": n - len(decisive),
            "endings": endings, "median_moves": statistics.median(r["moves"] for r in res)}


def line(s: dict[str, Any]) -> str:
    n = s["games"]
    ends = ", ".join(f"{k} {pct(v / n)}" for k, v in sorted(s["endings"].items()))
    return (f"first {interval(s['first_wins'], s['decisive'])} of {s['decisive']} decisive; "
            f"draws {pct(s['draws'] / n)} [{s['draws']}/{n}]; {ends}; "
            f"median moves {s['median_moves']}")


def jobs_for(kind: str, games: int, levels: list[str], players: int, options: dict,
             seed: int, alternate_sides: bool = False) -> list[tuple]:
    jobs = []
    for i in range(games):
        lv = levels if i % 2 == 0 else list(reversed(levels))
        seats = [lv[s % len(lv)] for s in range(players)]
        opts = swapped_sides(options) if alternate_sides and i % 2 == 1 else options
        jobs.append((kind, seats, seed * 100003 + i, opts))
    return jobs


def characters(pool, games_per_pair: int, level: str, names: list[str],
               options: dict) -> dict[str, list[int]]:
    """Death by Dice: each pair `games_per_pair` combats, seats alternated; a character's
    figure is its share of the decisive combats it fought."""
    jobs, meta = [], []
    for a, b in itertools.combinations(names, 2):
        for g in range(games_per_pair):
            pair = (a, b) if g % 2 == 0 else (b, a)
            jobs.append(("deathbydice", [level, level], 9001 + 31 * len(jobs),
                         {**options, "characters": ",".join(pair)}))
            meta.append(pair)
    res = pool.map(play_one, jobs, chunksize=4)
    won = {n: 0 for n in names}
    played = {n: 0 for n in names}   # decisive combats: a draw is nobody's win or loss
    firsts = []
    for pair, r in zip(meta, res):
        firsts.append(r)
        if not r["winners"]:
            continue
        for s, nm in enumerate(pair):
            played[nm] += 1
            if r["winners"] == [s]:
                won[nm] += 1
    out = {nm: [won[nm], played[nm]] for nm in names}
    out["_first"] = summary(firsts)
    return out


def _value(v: str) -> Any:
    low = v.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(v)
    except ValueError:
        return v


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.rulings")
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--level", default="normal", help="one level, or A,B for a mixed pairing")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], metavar="K=V")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--matrix", action="store_true", help="Death by Dice: the character matrix")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--alternate-sides", action="store_true",
                    help="KAPLOOM!: every other game seat 1 takes the other side (supers "
                         "follow), so a pairing is measured from both seat orders")
    ap.add_argument("--patch", metavar="FILE",
                    help="a Python file run first (try a value before writing it down)")
    args = ap.parse_args(argv)
    if args.patch:
        with open(args.patch) as f:
            exec(compile(f.read(), args.patch, "exec"), {"__name__": "patch"})
    options = {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        options[k] = _value(v)
    if args.game == "deathbydice":
        options.setdefault("best_of", 1)
    levels = args.level.split(",")
    with mp.get_context("fork").Pool(args.processes) as pool:
        if args.matrix:
            from bot.engine.deathbydice.data import ROSTER_NAMES
            out = characters(pool, args.games, levels[0], list(ROSTER_NAMES), options)
            first = out.pop("_first")
            if args.json:
                print(json.dumps({"characters": out, "first": first}))
            print("first mover:", line(first))
            for nm, (w, p) in out.items():
                print(f"| {nm} | {p} | {interval(w, p)} |")
            return 0
        res = pool.map(play_one, jobs_for(args.game, args.games, levels, args.players, options,
                                          args.seed, args.alternate_sides), chunksize=2)
    s = summary(res)
    if args.game == "kaploom":
        hero = [r for r in res if r["winners"] and any(r["sides"][w] == "hero"
                                                      for w in r["winners"])]
        s["hero_wins"] = len(hero)
        rounds = [r["rounds"] for r in res if r.get("rounds") is not None]
        if rounds:
            s["median_rounds"] = statistics.median(rounds)
    if args.game == "tradeshowdown":
        s["by_seat"] = [sum(1 for r in res if r["winners"] and s_ in r["winners"])
                        for s_ in range(args.players)]
        rounds = [r["rounds"] for r in res if r.get("rounds") is not None]
        if rounds:
            s["median_rounds"] = statistics.median(rounds)
    if args.json:
        print(json.dumps({"game": args.game, "options": options, "levels": levels, **s}))
    print(f"{args.game} {args.level} {options}: {line(s)}")
    if "hero_wins" in s:
        print(f"  hero wins {interval(s['hero_wins'], s['decisive'])}; "
              f"median rounds {s.get('median_rounds')}")
    if "by_seat" in s:
        print("  by seat " + " / ".join(interval(k, s["decisive"]) for k in s["by_seat"])
              + f"; median rounds {s.get('median_rounds')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
