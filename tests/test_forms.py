"""bot/forms.py: a menu's step offered as one form of lists."""
from __future__ import annotations

from bot import forms
from bot.engine.menu import Menu, MenuGroup, MenuItem, Pick


def _menu(*groups: MenuGroup) -> Menu:
    return Menu(seat=0, groups=groups)


DONE = MenuGroup("done", "Finish", (MenuItem("done", "Done"),), pick=Pick.BUTTONS)
BUY = MenuGroup("buy", "Buy a face", (MenuItem("buy a", "Face A"), MenuItem("buy b", "Face B")))


def test_a_form_is_offered_only_when_it_has_something_to_ask():
    assert forms.menu_button(_menu(DONE), "done", 7, 3, "power", "Power up…", "⚡") == []
    [button] = forms.menu_button(_menu(BUY, DONE), "done", 7, 3, "power", "Power up…", "⚡")
    assert (button.call.game_id, button.call.tag, button.call.arg) == (7, forms.FORM_TAG, "power")


def test_the_form_asks_each_group_but_the_ending_one_and_plays_it_last():
    menu = _menu(BUY, DONE)
    assert forms.menu_fields(menu, "done") == [("buy", "Buy a face",
                                                [("buy a", "Face A"), ("buy b", "Face B")])]
    assert forms.menu_moves(menu, {"buy": "buy b"}, "done") == ["buy b", "done"]
    assert forms.menu_moves(menu, {"buy": ""}, "done") == ["done"]
