"""`python -m bot match`: seeded games between policies, seats alternated."""
from __future__ import annotations

import json

from bot.__main__ import main
from bot.policies.match import play_game, run_match, seats_for


def test_match_json_counts_every_game(capsys):
    assert main(["match", "diemen", "random", "random", "--games", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"game", "games", "wins", "draws", "median_moves"}
    assert out["game"] == "diemen" and out["games"] == 4
    assert sum(out["wins"].values()) + out["draws"] == 4
    assert out["median_moves"] > 0


def test_match_is_seeded_and_seats_alternate(capsys):
    a = run_match("slideslam", "normal", "random", 4, seed=3)
    b = run_match("slideslam", "normal", "random", 4, seed=3)
    assert a.to_json() == b.to_json() and a.lengths == b.lengths
    assert a.wins["normal"] + a.wins["random"] + a.draws == 4
    assert seats_for("x", "y", 2, 0) == ["x", "y"] and seats_for("x", "y", 2, 1) == ["y", "x"]
    assert seats_for("x", "y", 4, 1) == ["y", "x", "y", "x"]


def test_normal_beats_random_at_slide_and_slam():
    res = run_match("slideslam", "normal", "random", 4, seed=5)
    assert res.wins["normal"] >= 3


def test_match_text_and_bad_options(capsys):
    assert main(["match", "tradeshowdown", "random", "easy", "--games", "2",
                 "--players", "3"]) == 0
    text = capsys.readouterr().out
    assert "tradeshowdown: 2 games, 3 players" in text and "draws" in text
    assert main(["match", "slideslam", "random", "random", "--games", "1",
                 "--option", "rows=99"]) == 1  # refused input (#27.15)
    assert "cannot play slideslam" in capsys.readouterr().err


def test_a_game_ends_with_an_ending():
    r = play_game("deathbydice", ["random", "random"], 1)
    assert not r.capped and r.ending and r.moves > 0
