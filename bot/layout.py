"""Any game's `Menu` laid out as Discord components, within Discord's limits.

A message holds at most 5 action rows; a row holds up to 5 buttons or one select; a select lists
at most 25 options. Groups are laid out in the engine's order: a `BUTTONS` group as buttons
(sharing rows with the next group's buttons), a `SELECT` group as one select (two or three when
it is a little long; a narrowing select of its `step`s when it is longer), a `SEVERAL` group as
one multi-select. The "Type a move" button always comes last. When the groups would need more
rows than a message has, button groups turn into selects (one row each) and, as a last resort,
the longest lists are left to the typed move (never what ends a step: done, end, pass).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import discord

from .engine.menu import Menu, MenuGroup, MenuItem, Pick, Tone
from .ui import GameItem, MoveButton, MoveSelect, TypeMoveButton, component_id

ROWS = 5
ROW_BUTTONS = 5
SELECT_OPTIONS = 25
SELECTS_PER_GROUP = 3   # a list of up to 75 stays one pick; longer ones narrow by step
KEEP = (Tone.GOOD, Tone.QUIET)  # dropped last when a message cannot hold every group
STYLES = {Tone.MAIN: discord.ButtonStyle.primary, Tone.QUIET: discord.ButtonStyle.secondary,
          Tone.GOOD: discord.ButtonStyle.success, Tone.RISKY: discord.ButtonStyle.danger}


def words(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word's end, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:—-") + "…"


def option(item: MenuItem, value: str | None = None, default: bool = False
           ) -> discord.SelectOption:
    return discord.SelectOption(label=words(item.label, 100), value=value or item.move,
                                description=words(item.effect, 100) or None, default=default)


def fits_button(game_id: int, version: int | str | None, move: str) -> bool:
    try:
        component_id(game_id, version, "mv", move)
    except ValueError:
        return False
    return True


def steps(group: MenuGroup) -> list[str]:
    """The distinct `step`s of a group, in order."""
    return list(dict.fromkeys(i.step for i in group.items if i.step))


@dataclass
class _Block:
    """One group's components: buttons (they share rows) or selects (a row each)."""

    buttons: list[discord.ui.Item] = field(default_factory=list)
    selects: list[discord.ui.Item] = field(default_factory=list)


def _as_buttons(game_id: int, version, group: MenuGroup) -> _Block | None:
    if not all(fits_button(game_id, version, i.move) for i in group.items):
        return None
    style = STYLES.get(group.tone, discord.ButtonStyle.primary)
    return _Block(buttons=[MoveButton(game_id, version, i.move, words(i.label, 80), style=style,
                                      emoji=group.emoji or None) for i in group.items])


def _as_selects(game_id: int, version, group: MenuGroup, who: str) -> _Block:
    title = f"{who}: {group.title}" if who else group.title
    items = [i for i in group.items if len(i.move) <= 100]
    if group.pick == Pick.SEVERAL:
        return _Block(selects=[GameItem.select(
            game_id, version, "mx", [option(i) for i in items[:SELECT_OPTIONS]],
            placeholder=words(title, 150), arg=group.key, min_values=group.min_picks,
            max_values=group.max_picks)])
    parts = [items[i:i + SELECT_OPTIONS] for i in range(0, len(items), SELECT_OPTIONS)]
    if len(parts) > SELECTS_PER_GROUP and steps(group):
        return _Block(selects=[GameItem.select(
            game_id, version, "nw", [discord.SelectOption(label=words(s, 100), value=str(n))
                                     for n, s in enumerate(steps(group)[:SELECT_OPTIONS])],
            placeholder=words(title + " — pick one to see its moves", 150), arg=group.key)])
    selects = []
    for n, part in enumerate(parts[:SELECTS_PER_GROUP]):
        span = (f" ({n + 1} of {min(len(parts), SELECTS_PER_GROUP)})" if len(parts) > 1 else "")
        selects.append(MoveSelect(game_id, version, [option(i) for i in part],
                                  words(title, 150 - len(span)) + span,
                                  tag=group.key if n == 0 else f"{group.key}{n}"[:12]))
    return _Block(selects=selects)


def _rows(blocks: list[_Block], extra_buttons: int) -> int:
    buttons = sum(len(b.buttons) for b in blocks) + extra_buttons
    return sum(len(b.selects) for b in blocks) + -(-buttons // ROW_BUTTONS)


def menu_components(game_id: int, version: int | str | None, menu: Menu, *, who: str = "",
                    typed: bool = True) -> list[discord.ui.Item]:
    """The components of `menu` for one message, each with its row set. `who`: the name the
    lists are addressed to (a public turn message: who must pick), empty in a private panel."""
    blocks: list[tuple[MenuGroup, _Block]] = []
    for group in menu.groups:
        block = None
        if group.pick == Pick.BUTTONS:
            block = _as_buttons(game_id, version, group)
        blocks.append((group, block or _as_selects(game_id, version, group, who)))
    extra = 1 if typed else 0
    # Too many rows: the biggest button groups become lists, one by one, while that saves one.
    for group, block in sorted(blocks, key=lambda gb: -len(gb[1].buttons)):
        rows = _rows([b for _, b in blocks], extra)
        if rows <= ROWS or not block.buttons:
            break
        listed = _as_selects(game_id, version, group, who)
        before = block.buttons
        block.buttons, block.selects = [], listed.selects
        if _rows([b for _, b in blocks], extra) >= rows:
            block.buttons, block.selects = before, []  # no row saved: keep the buttons
    # Nothing else fits: the longest lists go first (the typed move still reaches them);
    # what ends a step (done, end, pass, confirm) stays on the message.
    while _rows([b for _, b in blocks], extra) > ROWS and blocks:
        drop = max(blocks, key=lambda gb: (gb[0].tone not in KEEP, len(gb[0].items)))
        blocks.remove(drop)
    # The lists take the first rows (a select fills a row; discord.py places each in the
    # first free one), the buttons the rows after them, five to a row; a cog's own components
    # added after these find the rows left.
    items: list[discord.ui.Item] = [s for _, block in blocks for s in block.selects]
    buttons = [b for _, block in blocks for b in block.buttons]
    if typed:
        buttons.append(TypeMoveButton(game_id))
    for n, button in enumerate(buttons):
        button.row = len(items) + n // ROW_BUTTONS
    return items + buttons


def step_pages(items) -> list[tuple[str, list]]:
    """A group's moves in pages of at most 25, by the `step` each sits under
    (KAPLOOM!: the die an action's way starts with)."""
    steps: dict[str, list] = {}
    for item in items:
        steps.setdefault(item.step, []).append(item)
    cuts = {step: [ways[k:k + 25] for k in range(0, len(ways), 25)]
            for step, ways in steps.items()}
    return [(step + (f" ({n + 1} of {len(cut)})" if len(cut) > 1 else ""), c)
            for step, cut in cuts.items() for n, c in enumerate(cut)]
