"""TradeShowdown engine speed over random self-play (no assertions).

`engine.tradeshowdown.moves_per_s` is the lowest, over 2 to 6 players, of the median random
legal moves per second (issue #14's goal: >= 5,000 for every player count), with the options on
(the defaults); `..._<players>p` per count and `..._<players>p_off` with every option off. Also
the choose-phase legal() call (the biggest list: every dice choice, times the targets with 3+
players) and a JSON round trip mid-fight. Run: `.venv/bin/python -m bench.engine_tradeshowdown`.
"""
from __future__ import annotations

import statistics

from bench.common import calls_per_second, midgame, selfplay_rates
from bot.engine.tradeshowdown import TradeShowdown

KIND = "tradeshowdown"
OFF = {"multiple_attacks": False, "intimidate": False, "tag_team": False, "combos": False}


def bench(games: int = 8) -> dict[str, float]:
    rates: dict[str, float] = {}
    lengths, defeats, finished = [], 0, 0
    for players in range(2, 7):
        for suffix, options in (("", {}), ("_off", OFF)):
            r, n, finals = selfplay_rates(KIND, games, options, players)
            rates[f"{players}p{suffix}"] = statistics.median(r)
            lengths += n
            finished += len(finals)
            defeats += sum(g.outcome().ending != "judges" for g in finals)
    g = TradeShowdown.new(6)
    legal_rate = calls_per_second(lambda: g.legal(0))
    mid = midgame(KIND, 1, players=4)
    rt = 1 / calls_per_second(lambda: TradeShowdown.from_json(mid.to_json()))
    out = {f"engine.{KIND}.moves_per_s": round(min(rates.values()))}
    out.update({f"engine.{KIND}.moves_per_s_{name}": round(r) for name, r in rates.items()})
    out.update({
        f"engine.{KIND}.moves_per_game_median": statistics.median(lengths),
        f"engine.{KIND}.ended_by_defeat_pct": round(100 * defeats / finished, 1),
        f"engine.{KIND}.legal_calls_per_s_6p_choose": round(legal_rate),
        f"engine.{KIND}.json_round_trip_ms": round(rt * 1000, 3),
    })
    return out


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v}")
