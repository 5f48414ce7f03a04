"""Pure game rules: no Discord, no I/O. Each game is a package exposing `GAME`."""
from __future__ import annotations

import importlib

from .core import CHANCE, Game

KINDS: tuple[str, ...] = ("slideslam", "tradeshowdown", "deathbydice", "diemen", "kaploom")


_EXTRA: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Make a game outside this package loadable by kind (test-only games)."""
    _EXTRA[cls.KIND] = cls
    return cls


def load(kind: str) -> type[Game]:
    """The engine class of a game kind, imported on first use."""
    if kind in _EXTRA:
        return _EXTRA[kind]
    if kind not in KINDS:
        raise KeyError(f"unknown game {kind!r}; known: {', '.join(KINDS)}")
    return importlib.import_module(f"{__name__}.{kind}").GAME


def available() -> dict[str, type[Game]]:
    """Every game whose engine is present (a game still being written is skipped)."""
    out = {}
    for kind in KINDS:
        try:
            out[kind] = load(kind)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{kind}":
                raise
    return out


__all__ = ["CHANCE", "Game", "KINDS", "load", "available", "register"]
