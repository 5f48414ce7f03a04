"""Death by Dice (Cheese Weasel Games): character ability dice duels, best 2 of 3.

Modules: `data` (abilities, roster and specials as tables), `board` (one character's board in
play), `notation` (move text), `game` (the sequence of play as a state machine), `view` (what
each seat may see — its docstring lists the view's keys), `menu` (the seat's moves grouped
for the screens, and the prompt's words). Rules: seeds/003 + rulings
(rules/deathbydice.md); our own rulings are in docs/rules/deathbydice.md.
"""
from __future__ import annotations

from .game import DeathByDice

GAME = DeathByDice

__all__ = ["GAME", "DeathByDice"]
