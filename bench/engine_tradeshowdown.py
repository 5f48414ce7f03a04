"""TradeShowdown engine speed over random self-play (no assertions).

Three table sizes and the options on (the defaults) and off; also the choose-phase legal()
call (the biggest list: every dice choice, times the targets with 3+ players) and a JSON round
trip mid-fight. Run: `.venv/bin/python -m bench.engine_tradeshowdown`.
"""
from __future__ import annotations

import statistics

from bench.common import calls_per_second, midgame, selfplay_rates
from bot.engine.tradeshowdown import TradeShowdown

OFF = {"multiple_attacks": False, "intimidate": False, "tag_team": False, "combos": False}


def bench(games: int = 8) -> dict[str, float]:
    rates, lengths, defeats = [], [], 0
    for players in (2, 4, 6):
        for options in ({}, OFF):
            r, n, finals = selfplay_rates("tradeshowdown", games, options, players)
            rates += r
            lengths += n
            defeats += sum("judges" not in g.outcome().reason for g in finals)
    g = TradeShowdown.new(6)
    legal_rate = calls_per_second(lambda: g.legal(0))
    mid = midgame("tradeshowdown", 1, players=4)
    rt = 1 / calls_per_second(lambda: TradeShowdown.from_json(mid.to_json()))
    return {
        "tradeshowdown engine moves/s (median)": statistics.median(rates),
        "tradeshowdown moves per self-play game (median)": statistics.median(lengths),
        "tradeshowdown self-play fights ended by a defeat (%)": 100 * defeats / len(rates),
        "tradeshowdown legal() calls/s (6 players, choosing dice)": legal_rate,
        "tradeshowdown JSON round trip (ms)": rt * 1000,
    }


if __name__ == "__main__":
    for k, v in bench().items():
        print(f"{k}: {v:.1f}")
