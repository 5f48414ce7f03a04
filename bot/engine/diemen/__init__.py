"""Crazy Die-Man is Unbreakable! (kind `diemen`): flick dice at your rival's banners.

Modules: `board` (the Sales Floor: spots, coordinates, neighbours, distance), `odds` (the
simulated flick's table as data and `flick_odds`, shared with the Discord layer), `rules` (the
floor as data, `apply_flick` — the one function applying a resolved flick — and the 20 limit),
`notation` (move shapes), `game` (the turn flow), `view` (what each seat sees; its docstring
lists the view's keys). Notation: docs/notation/diemen.md; flick model:
docs/diemen-flick-model.md; rules for players: docs/rules/diemen.md.
"""
from __future__ import annotations

from .game import DieMen
from .odds import FLICK_TABLE, flick_odds

GAME = DieMen

__all__ = ["GAME", "DieMen", "FLICK_TABLE", "flick_odds"]
