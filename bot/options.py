"""Slash command options built from a game's own option table (`Game.OPTIONS`), so a range,
a list of choices or a help text is written once, in the engine, and `challenge` and `open`
can never disagree with what the engine accepts.

    @app_commands.command(name="challenge", description="...")
    @engine_options(SlideSlam, "columns", "rows", "response_window")
    async def challenge(self, interaction, opponent: discord.User, **options): ...

Each named option becomes an optional parameter (None: the game's default): an int option a
`Range[int, minimum, maximum]`, a yes/no option a bool, an option with choices a `Literal`
of them, with the option's help as its description (clipped to Discord's 100 characters).
The callback receives only the options the player gave.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Literal, Optional

from discord import app_commands

from .engine.core import Game, Option

DESCRIPTION_MAX = 100


def annotation(option: Option) -> Any:
    """The parameter type Discord shows for `option`."""
    if isinstance(option.default, bool):
        return Optional[bool]
    if option.choices:
        return Optional[Literal[option.choices]]  # type: ignore[valid-type]
    if isinstance(option.default, int):
        low = option.minimum if option.minimum is not None else -(2 ** 53)
        high = option.maximum if option.maximum is not None else 2 ** 53
        return Optional[app_commands.Range[int, low, high]]
    return Optional[app_commands.Range[str, 1, 100]]


def describe(option: Option) -> str:
    text = option.help[:1].upper() + option.help[1:]
    default = ("on" if option.default else "off") if isinstance(option.default, bool) \
        else option.default
    text += f" (default {default})"
    return text if len(text) <= DESCRIPTION_MAX else text[:DESCRIPTION_MAX - 1] + "…"


def engine_options(engine: type[Game], *names: str):
    """Adds the game's options `names` to a command callback that takes `**options`."""
    table = {o.name: o for o in engine.OPTIONS}
    unknown = [n for n in names if n not in table]
    if unknown:
        raise ValueError(f"{engine.KIND} has no option(s) {', '.join(unknown)}")

    def decorate(fn):
        signature = inspect.signature(fn, eval_str=True)  # the callback lives in this module
        fixed = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        added = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None,
                                   annotation=annotation(table[n])) for n in names]

        @functools.wraps(fn)
        async def callback(*args: Any, **given: Any) -> Any:
            chosen = {k: v for k, v in given.items() if k in table and v is not None}
            rest = {k: v for k, v in given.items() if k not in table}
            return await fn(*args, **rest, **chosen)

        callback.__signature__ = signature.replace(parameters=fixed + added)
        descriptions = dict(getattr(fn, "__discord_app_commands_param_description__", {}))
        descriptions.update({n: describe(table[n]) for n in names})
        callback.__discord_app_commands_param_description__ = descriptions
        return callback
    return decorate
