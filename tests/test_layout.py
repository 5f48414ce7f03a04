"""Any menu fits one message (bot/layout.py): at most five rows, a select a row, five buttons a
row; what ends a step is never the part left out."""
from __future__ import annotations

import discord

from bot.engine.menu import Menu, MenuGroup, MenuItem, Pick, Tone
from bot.layout import menu_components, words


def group(key, n, pick=Pick.SELECT, tone=Tone.MAIN):
    return MenuGroup(key, f"Choose {key}", tuple(MenuItem(f"{key} {i}", f"{key} {i}")
                                                 for i in range(n)), pick, tone=tone)


def test_too_many_groups_keep_done_and_undo_and_fit_five_rows():
    menu = Menu(0, (group("a", 30), group("b", 10), group("c", 8), group("d", 12),
                    group("e", 7), group("done", 1, Pick.BUTTONS, Tone.GOOD),
                    group("undo", 1, Pick.BUTTONS, Tone.QUIET)))
    items = menu_components(1, 3, menu)
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)  # discord.py itself places them, and would refuse a sixth row
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    ids = [i.item.custom_id for i in items]
    assert any(c.endswith(":mv:done 0") for c in ids) and any(c.endswith(":mv:undo 0")
                                                              for c in ids)
    assert sum(1 for i in items if isinstance(i.item, discord.ui.Select)) == 4  # a row each


def test_a_long_list_narrows_by_step():
    items = tuple(MenuItem(f"slide {d} {i}", f"to {i}", step=f"Die {d}")
                  for d in "ABCD" for i in range(25))
    menu = Menu(0, (MenuGroup("sl", "Slide a die", items),))
    [narrow, typed] = menu_components(1, 3, menu)
    assert narrow.item.custom_id == "g:1:3:nw:sl"
    assert [o.label for o in narrow.item.options] == ["Die A", "Die B", "Die C", "Die D"]


def test_words_are_cut_at_a_word():
    assert words("miss it and the roll counts again", 20) == "miss it and the…"
    assert words("short", 20) == "short"
