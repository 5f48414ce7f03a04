"""A whole game of every kind, counted as a player feels the table (issue #12): one new thread
message per turn change (plus the opening, reveals and the end), pings only for whoever must
act, DMs only when that player's options or private facts change, and no seat codes in
anything a person reads — texts, labels, alt texts, and the words drawn in pictures."""
import pytest
from PIL import ImageDraw

from bot.engine import KINDS
from table_play import INLINE_CODE, SEAT_CODE, play_table


@pytest.fixture
def drawn_words(monkeypatch):
    """Every text drawn into a picture (the harness draws in this process)."""
    words: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        words.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return words


@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_feels_like_a_table(fake, world, kind, drawn_words):
    count = await play_table(fake, world, kind, seed=3)
    row = (await fake.bot.store.get_game(1))
    assert row.status == "finished", f"{kind}: the game did not end in {count.moves} moves"
    per_turn = count.per_turn()
    assert per_turn["thread_messages_per_turn"] <= 1.5, per_turn
    assert per_turn["pings_per_turn"] <= 1.5, per_turn
    assert count.seat_codes_shown == 0, count.seat_code_examples
    assert count.stray_pings == 0, count.stray_examples
    assert count.stray_dms == 0, count.stray_examples
    assert count.pngs > 0 and drawn_words, "no picture was drawn in this process"
    drawn = [w for w in drawn_words if SEAT_CODE.search(INLINE_CODE.sub("", w))]
    assert not drawn, drawn[:5]
