"""A form of lists (a Discord modal of `Label`-wrapped selects): several choices answered at
once, so a move made of many picks is one interaction, not one panel edit per pick.

A game offers it as a button tagged `fm` (`g:<id>:<ver>:fm:<which form>`), which answers with
the form (opening a form shows nothing in the DM: only its submit does). The submit hands the
cog {field key: value picked, "" for a list left blank}; the cog turns the picks into its
engine's moves and the table plays them in one commit (bot/tables.py), all or none.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

import discord

from .engine.core import RuleError
from .ui import ComponentCall, guarded, report_error

FORM_TAG = "fm"
FIELDS_MAX = 5        # a modal holds five components
OPTIONS_MAX = 25
# (key, question, [(value, label)])
Field = tuple[str, str, list[tuple[str, str]]]


class ChoiceForm(discord.ui.Modal):
    """Questions each answered from a list; a blank list is allowed (`required=False`)."""

    def __init__(self, title: str, fields: list[Field],
                 submit: Callable[[discord.Interaction, dict[str, str]], Awaitable[Any]],
                 placeholder: str = "Not now"):
        super().__init__(title=title[:45], timeout=600)
        self._submit = submit
        self._lists: dict[str, discord.ui.Select] = {}
        for key, question, options in fields[:FIELDS_MAX]:
            chosen = discord.ui.Select(
                custom_id=f"f:{key}"[:100], placeholder=placeholder[:150], required=False,
                min_values=0, max_values=1, options=[
                    discord.SelectOption(label=label[:100], value=value[:100])
                    for value, label in options[:OPTIONS_MAX]])
            self._lists[key] = chosen
            self.add_item(discord.ui.Label(text=question[:45], component=chosen))

    def picks(self) -> dict[str, str]:
        return {key: (chosen.values[0] if chosen.values else "")
                for key, chosen in self._lists.items()}

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._submit(interaction, self.picks()))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


async def offer(cog: Any, interaction: discord.Interaction, call: ComponentCall, title: str,
                fields_of: Callable[[Any, int], list[Field]],
                moves_of: Callable[[Any, int, dict[str, str]], list[str]]) -> None:
    """Answer a form button of `cog`'s game: the form `fields_of(game, seat)` asks, for the
    seat that may act on this very panel; its submit plays `moves_of(game, seat, picks)` in
    order as one commit (each refused move refuses them all, in the engine's words)."""
    row, game = await cog.bot.tables.load(call.game_id)
    seat = cog.acting_seat(row, game, interaction, call)
    await cog.bot.tables.check_version(row, seat, call.version)
    fields = fields_of(game, seat)
    if not fields:
        raise RuleError("There is nothing for that form to ask right now: use the lists "
                        "and buttons of your panel.")

    async def submit(answer: discord.Interaction, picks: dict[str, str]) -> None:
        row, game = await cog.bot.tables.load(call.game_id)
        seat = cog.acting_seat(row, game, answer, call)
        moves = moves_of(game, seat, picks)
        if not moves:
            raise RuleError("Nothing was picked, so nothing changed.")
        await cog.on_move_component(answer, call.game_id, call.version, tuple(moves),
                                    seen=(row, game))

    await interaction.response.send_modal(ChoiceForm(title, fields, submit))
