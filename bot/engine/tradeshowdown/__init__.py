"""TradeShowdown (Daniel Solis): business cards fight with dice.

Modules: `cards` (business cards, fair length, slashes), `dice` (supply, dice choices, sets),
`notation` (move text), `game` (the round: choose, roll, window, attacks, the end), `view`
(what each seat may see, and the text board; its docstring lists the view's keys), `describe`
(a move in words), `menu` (a seat's moves grouped as a player chooses, and the words of the
moment: whose step, what to do, why not you).
Rules: docs/rules/tradeshowdown.md; notation: docs/notation/tradeshowdown.md.
"""
from __future__ import annotations

from .game import TradeShowdown

GAME = TradeShowdown

__all__ = ["GAME", "TradeShowdown"]
