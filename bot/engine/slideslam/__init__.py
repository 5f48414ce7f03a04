"""Slide and Slam: Dice Is Not Bend! (kind `slideslam`).

Modules: `board` (squares, slide search, slam areas), `data` (letters, phrases, damage),
`notation` (move text), `game` (the rules), `view` (what each seat sees; its docstring lists
the view's keys). Notation: docs/notation/slideslam.md; rules: docs/rules/slideslam.md.
"""
from __future__ import annotations

from .game import SlideSlam

GAME = SlideSlam

__all__ = ["GAME", "SlideSlam"]
