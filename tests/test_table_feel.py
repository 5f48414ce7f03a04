"""A whole game of every kind, counted as a player feels the table (issue #12): one new thread
message per turn change (plus the opening, reveals and the end), pings only for whoever must
act, and no seat codes in anything a person reads."""
import pytest

from bot.engine import KINDS
from table_play import play_table


@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_feels_like_a_table(fake, world, kind):
    count = await play_table(fake, world, kind, seed=3)
    row = (await fake.bot.store.get_game(1))
    assert row.status == "finished", f"{kind}: the game did not end in {count.moves} moves"
    per_turn = count.per_turn()
    assert per_turn["thread_messages_per_turn"] <= 1.5, per_turn
    assert per_turn["pings_per_turn"] <= 1.5, per_turn
    assert count.seat_codes_shown == 0, count.seat_code_examples
