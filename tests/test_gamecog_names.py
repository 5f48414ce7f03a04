"""The shared GameCog pieces name players, never seats (issue #12): the move select's
placeholder and a crowd vote's choices, for any game that keeps the defaults."""
from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.engine.core import Chance, Draw
from bot.gamecog import GameCog
from tests.table_play import SEAT_CODE


class ManyMoves:
    """A game with more moves than fit on buttons (the select path)."""
    players = 2

    def __init__(self, names):
        self.names = names

    def name(self, seat):
        return self.names[seat]

    def legal(self, seat):
        return [f"take {i}" for i in range(30)]

    def describe(self, move, seat):
        return SimpleNamespace(label=f"Take {move.split()[1]} coins")


def test_move_select_placeholder_names_the_player():
    cog = GameCog.__new__(GameCog)
    row = SimpleNamespace(id=7, version=3)
    items = cog.move_items(row, ManyMoves(["Ada", "Bea"]), 1)
    select = next(i for i in items if isinstance(getattr(i, "item", i), discord.ui.Select))
    placeholder = getattr(select, "item", select).placeholder
    assert placeholder.startswith("Bea: choose a move")
    assert "first 25 of 30" in placeholder
    assert not SEAT_CODE.search(placeholder)


def test_vote_choices_show_names_for_seat_tokens():
    cog = GameCog.__new__(GameCog)
    game = ManyMoves(["Ada", "Bea"])
    chance = Chance((Draw("first player", ("1", "2")),))
    assert cog.vote_choices(None, game, chance) == [("1", "Ada"), ("2", "Bea")]
    odd = Chance((Draw("weather", ("rain", "sun")),))
    assert cog.vote_choices(None, game, odd) == [("rain", "rain"), ("sun", "sun")]
