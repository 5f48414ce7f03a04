"""A form of lists (a Discord modal of `Label`-wrapped selects): several choices answered at
once, so a move made of many picks is one interaction, not one panel edit per pick.

A game offers it as a button tagged `fm` (`g:<id>:<ver>:fm:<which form>`), which answers with
the form (opening a form shows nothing in the DM: only its submit does). The submit hands the
cog {field key: value picked, "" for a list left blank}; the cog turns the picks into its
engine's moves and the table plays them in one commit (bot/tables.py), all or none. A menu's
step of several one-of choices (a Power Up: each action, faces, ...) is such a form as it
stands: a list per group, its entries the group's moves, then the move that ends the step.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

import discord

from .engine.core import RuleError
from .engine.menu import Menu, Pick
from .ui import ComponentCall, GameItem, guarded, report_error

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


def button(game_id: int, version: int | str | None, which: str, label: str, emoji: str,
           style: discord.ButtonStyle = discord.ButtonStyle.primary) -> GameItem:
    return GameItem.button(game_id, version, FORM_TAG, which, label=label, emoji=emoji,
                           style=style)


def menu_button(menu: Menu, then: str, game_id: int, version: int | str | None, which: str,
                label: str, emoji: str) -> list[GameItem]:
    """The button that offers `menu`'s step as one form, or none when the form would have
    nothing to ask (only the move that ends the step is left): a button that could only be
    refused is not offered."""
    return [button(game_id, version, which, label, emoji)] if _asked(menu, then) else []


def _asked(menu: Menu, then: str) -> list:
    return [g for g in menu.groups if g.key != then and g.pick != Pick.SEVERAL
            and 0 < len(g.items) <= OPTIONS_MAX][:FIELDS_MAX]


def menu_fields(menu: Menu, then: str) -> list[Field]:
    """A list per group of `menu` but the one (key `then`) that ends the step."""
    return [(g.key, g.title, [(i.move, i.label) for i in g.items]) for g in _asked(menu, then)]


def menu_moves(menu: Menu, picks: dict[str, str], then: str) -> list[str]:
    """The moves picked, in the menu's order, then the one move of the group `then`."""
    ending = menu.group(then)
    return [picks[g.key] for g in _asked(menu, then) if picks.get(g.key)] + (
        [ending.items[0].move] if ending and ending.items else [])


async def offer_menu(cog: Any, interaction: discord.Interaction, call: ComponentCall,
                     title: str, then: str) -> None:
    """`offer` a menu's step as one form (`menu_fields`), its submit ended by `then`."""
    await offer(cog, interaction, call, title, lambda g, seat: menu_fields(g.menu(seat), then),
                lambda g, seat, picks: menu_moves(g.menu(seat), picks, then))
