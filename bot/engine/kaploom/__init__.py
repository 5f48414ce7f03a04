"""KAPLOOM! — a dice-building duel of superheroes and villains (kind `kaploom`).

Rulebook: seeds/004_6728e7b19e5fa90d.txt; referee rulings: rules/kaploom.md; our own rulings:
docs/rules/kaploom.md ("Referee rulings (ours)"); notation: docs/notation/kaploom.md.

Modules, one idea each:
- data.py          the printed content as tables: faces, trait dice, pools, starting dice,
                   ACTION_TABLE (the board), SUPER_TABLE, DUO_TABLE
- requirements.py  the requirement matcher over symbols (M E T A X W ANY ACT ACT+ PAIR MATCH
                   PAIR-ACT MATCH+ PAIR-ACT+), with a player-readable reason on failure
- dice.py          dice, faces and the pool as JSON data
- combat.py        (base + kickers) × multiplier, for attack and defense
- notation.py      reading moves
- game.py          the engine class: setup, actors, chance, health, gains and triggers
- phase1.py        roll & initiate actions (secret, simultaneous)
- phase2.py        reveal, attack & defend
- phase3.py        power up, then Phase 4 (clean up, first player, round limit)
- view.py          what each seat may see (its docstring lists every key), the text board, and
                   the plain words of a seat's panel, the dice list and the reveal
- describe.py      a move in a player's words (`describe`)
- menu.py          what the screens ask: the seat's moves grouped (`menu`) and the prompt
"""
from __future__ import annotations

from .game import Kaploom

GAME = Kaploom

__all__ = ["GAME", "Kaploom"]
