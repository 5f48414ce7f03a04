"""How the table feels (issues #12, #22, #23): one seeded whole game of each kind through the
offline Discord, **played by clicks** as people play it (tests/table_play.py, tests/clicker.py):
every move a click or a pick on what the bot offers the seat that must act — the turn message,
the DM panel, the 🔒 ephemeral panel —, `/<game> move` only when nothing offered reaches it.

Keys `table.<game>.<measure>` (the 2-player duel, at the game's full length): today's per-turn
keys (`thread_messages_per_turn`, `pings_per_turn`, `dm_messages_per_turn`, `pngs_per_turn`,
`http_requests_per_move`, `seat_codes_shown`), `played_by_clicks: true`, and per seat turn
`thread_posts_per_seat_turn`, `pings_per_seat_turn`, `pings_to_mover` (a count: should be 0),
`dm_sends_edits_per_seat_turn` (split into `dm_answers_to_own_clicks_per_seat_turn`, the
panel edited as the answer to the click just made in it, and `dm_unasked_per_seat_turn`: new
panels, panels another seat's move changed, notes), `pngs_per_seat_turn`; per move `global_requests_per_move` (the
bot's own REST, bound to Discord's global 50/s) and `interaction_requests_per_move` (callbacks,
follow-ups, @original edits: free of it); how the moves were made (`moves_by_component`,
`moves_by_command`, ...). The same under `table.<game>.players_<n>.*` for the biggest table the
game allows (KAPLOOM! 2 vs 2, TradeShowdown 4 with one player's DMs closed, Death by Dice 6).
`table.global_requests_per_move` over every move of those games, and the bot-wide ceiling
`table.bot_wide_ceiling_moves_per_s` = 50 / that.
"""
from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.engine import KINDS

GLOBAL_LIMIT = 50   # requests per second, across the whole bot (Discord's global rate limit)
# The biggest tables: (players, seats with closed DMs).
BIG = {"kaploom": (4, ()), "tradeshowdown": (4, (3,)), "deathbydice": (6, ())}


async def _one(kind: str, players: int = 2, closed: tuple[int, ...] = ()):
    tests = str(Path(__file__).resolve().parent.parent / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from conftest import World, boot
    from table_play import play_table
    with tempfile.TemporaryDirectory() as tmp:
        fake = await boot(Path(tmp) / "table.db")
        try:
            return await play_table(fake, World(fake), kind, seed=3, players=players,
                                    closed=closed)
        finally:
            await fake.stop(check=False)


def keyed() -> dict[str, Any]:
    out: dict[str, Any] = {}
    global_requests = moves = 0
    for kind in KINDS:
        plays = [("", 2, ())]
        if kind in BIG:
            plays.append((f"players_{BIG[kind][0]}.", *BIG[kind]))
        for prefix, players, closed in plays:
            try:
                count = asyncio.run(_one(kind, players, closed))
            except Exception as e:  # one game broken: the others are still measured
                out[f"table.{kind}.{prefix}error"] = f"{type(e).__name__}: {e}"[:300]
                continue
            global_requests += count.global_requests
            moves += count.seat_moves or count.moves   # a form's submit makes several
            for key, value in count.per_turn().items():
                out[f"table.{kind}.{prefix}{key}"] = value
            if count.closed_dms:
                out[f"table.{kind}.{prefix}closed_dms"] = count.closed_dms
    per_move = global_requests / max(moves, 1)
    out["table.global_requests_per_move"] = round(per_move, 2)
    out["table.bot_wide_ceiling_moves_per_s"] = round(GLOBAL_LIMIT / per_move, 1) \
        if per_move else None
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(keyed(), indent=1))
