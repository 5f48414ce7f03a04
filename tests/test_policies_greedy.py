"""The `greedy` baseline (issue #28 item 3): one ply by the game's own evaluation, beside
`random`, for `python -m bot match` and `make balance`; never offered to players."""
from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.engine import KINDS
from bot.policies import LEVELS
from bot.policies.match import play_game, run_match
from bot.practice import PLAYER_LEVELS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_plays_every_game_to_the_end_from_every_seat(kind, seat):
    levels = ["random", "random"]
    levels[seat] = "greedy"
    r = play_game(kind, levels, 1)
    assert not r.capped and r.ending and r.moves > 0


def test_greedy_beats_random():
    res = run_match("slideslam", "greedy", "random", 12, seed=2)
    assert res.wins["greedy"] >= 9, res.wins


def test_greedy_is_a_measuring_level_not_a_players_one(capsys):
    assert "greedy" in LEVELS and "greedy" not in PLAYER_LEVELS
    assert main(["match", "deathbydice", "greedy", "normal", "--games", "2", "--quiet"]) == 0
    assert "greedy wins" in capsys.readouterr().out
