"""The shared GameCog pieces name players, never seats (issue #12): the move select's
placeholder and a crowd vote's choices, for any game that keeps the defaults."""
from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.engine.core import Chance, Draw, Game, MoveText
from bot.gamecog import GameCog
from tests.table_play import SEAT_CODE


class ManyMoves(Game):
    """A game with more moves than fit on buttons or one list (the select path)."""
    KIND = "manymoves"

    def setup(self):
        pass

    def _actors(self):
        return [0, 1]

    def _legal(self, seat):
        return [f"take {i}" for i in range(30)]

    def _describe(self, move, seat):
        return MoveText(f"Take {move.split()[1]} coins")


def test_move_select_placeholder_names_the_player():
    cog = GameCog.__new__(GameCog)
    row = SimpleNamespace(id=7, version=3)
    game = ManyMoves.new(2, names=["Ada", "Bea"])
    items = cog.move_items(row, game, 1)
    selects = [getattr(i, "item", i) for i in items
               if isinstance(getattr(i, "item", i), discord.ui.Select)]
    assert selects[0].placeholder.startswith("Bea: Choose your move")
    assert "(1 of 2)" in selects[0].placeholder
    # every move is on the message: nothing is left to typing alone
    assert [o.value for s in selects for o in s.options] == game.legal(1)
    assert not any(SEAT_CODE.search(s.placeholder) for s in selects)


def test_vote_choices_show_names_for_seat_tokens():
    cog = GameCog.__new__(GameCog)
    game = ManyMoves.new(2, names=["Ada", "Bea"])
    chance = Chance((Draw("first player", ("1", "2")),))
    assert cog.vote_choices(None, game, chance) == [("1", "Ada"), ("2", "Bea")]
    odd = Chance((Draw("weather", ("rain", "sun")),))
    assert cog.vote_choices(None, game, odd) == [("rain", "rain"), ("sun", "sun")]
