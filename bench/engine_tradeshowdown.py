"""TradeShowdown engine speed over random self-play (no assertions).

`engine.tradeshowdown.moves_per_s` is the lowest, over 2 to 6 players, of the median random
legal moves per second (issue #14's goal: >= 5,000 for every player count), with the options on
(the defaults) and with every option off; `..._<players>p` per count, `..._<players>p_off`
with every option off, and `engine.tradeshowdown.moves_per_cpu_s` the same by CPU time. Also
the choose-phase legal() call (the biggest list: every dice choice, times the targets with 3+
players) and a JSON round trip mid-fight. Run: `.venv/bin/python -m bench.engine_tradeshowdown`.
"""
from __future__ import annotations

import functools
import statistics

from bench.common import calls_per_second, engine_keys, midgame, selfplay_rates, table_rates
from bot.engine.tradeshowdown import TradeShowdown

KIND = "tradeshowdown"
OFF = {"multiple_attacks": False, "intimidate": False, "tag_team": False, "combos": False}
TABLES = {f"{n}p{suffix}": (n, options) for n in range(2, 7)
          for suffix, options in (("", {}), ("_off", OFF))}


@functools.cache
def rates() -> dict[str, tuple[float, float]]:
    """Measured once per process: `bench()` and `keyed()` report the same runs."""
    return table_rates(KIND, TABLES)


def keyed() -> dict[str, float]:
    out = engine_keys(KIND, rates())
    lengths, defeats, finished = [], 0, 0
    for players in range(2, 7):
        _, n, finals = selfplay_rates(KIND, 6, {}, players)
        lengths += n
        finished += len(finals)
        defeats += sum(g.outcome().ending != "judges" for g in finals)
    g = TradeShowdown.new(6)
    mid = midgame(KIND, 1, players=4)
    out.update({
        f"engine.{KIND}.moves_per_game_median": statistics.median(lengths),
        f"engine.{KIND}.ended_by_defeat_pct": round(100 * defeats / finished, 1),
        f"engine.{KIND}.legal_calls_per_s_6p_choose": round(calls_per_second(lambda: g.legal(0))),
        f"engine.{KIND}.json_round_trip_ms": round(
            1000 / calls_per_second(lambda: TradeShowdown.from_json(mid.to_json())), 3),
    })
    return out


def bench() -> dict[str, float]:
    measured = rates()
    return {f"{KIND} engine moves/s, {players} players (median)": measured[f"{players}p"][0]
            for players in range(2, 7)}


if __name__ == "__main__":
    for k, v in {**bench(), **keyed()}.items():
        print(f"{k}: {v:,.1f}")
