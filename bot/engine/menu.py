"""What a seat can do now and what it should do, in one shape for every game and every screen.

`Game.menu(seat)` groups the seat's legal moves the way a player chooses among them (boardgame.io
declares a game's moves as one named map per phase; we group them per moment). `Game.prompt(seat)`
says it in words: whose step it is, what to do, and why not you. Both come from the engine alone,
so the Discord layer, autocomplete, the practice bots and the tests all read the same thing and no
screen re-derives a rule.

How a group is picked is a hint to the screen, not a rule:
- `Pick.BUTTONS`: one of few (a button each);
- `Pick.SELECT`: one of many (a list; when the list is long and its moves name a `step`, the
  screen narrows: first the step — a die, an action —, then the moves under it);
- `Pick.SEVERAL`: several at once (a multi-select); the chosen items' `token`s, in the order the
  group lists them, fill `compose` (`"assign {}"` with `","` as `joiner`: `assign 1,3`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable


class Pick:
    BUTTONS = "buttons"
    SELECT = "select"
    SEVERAL = "several"


class Tone:
    """How much a choice stands out (the screen maps it to its own styles)."""

    MAIN = "main"          # the usual thing to do
    QUIET = "quiet"        # pass, end, take back
    GOOD = "good"          # confirm, done
    RISKY = "risky"        # a power phrase, something that costs


class MenuItem:
    """One choice: the move it makes (for `Pick.SEVERAL`: the token it adds), a label that
    fits a button or a list entry (≤ 80 characters), what it will do, and — for long lists —
    the `step` it sits under ("Die A (6) on b2") so a screen can ask for that first.

    A value, like a frozen dataclass of those four. `MenuItem.worded` words the label and
    effect only when first read: a panel shows a few of a long menu's moves (one die's squares,
    one action's dice) and wording every legal move was most of the work of building it."""

    __slots__ = ("move", "step", "_label", "_effect", "_words")

    def __init__(self, move: str, label: str, effect: str = "", step: str = ""):
        _MOVE(self, move)
        _STEP(self, step)
        _LABEL(self, label)
        _EFFECT(self, effect)
        _WORDS(self, None)

    @classmethod
    def worded(cls, move: str, words: Callable[[], Any], step: str = "") -> "MenuItem":
        """An item whose `words()` (anything with `label` and `effect`: a `MoveText`) is
        called when its label or effect is first read. The game it words from must stay as
        it was meanwhile: `Game.menu` registers such items, and the game words them before
        a move changes it (`Game.apply`)."""
        # Made directly (a menu makes a hundred or more of these a move): its slots set as
        # __init__ sets them, `_words` to what words it.
        item = _NEW(cls)
        _MOVE(item, move)
        _STEP(item, step)
        _WORDS(item, words)
        return item

    def _said(self) -> None:
        words = self._words
        if words is not None:
            said = words()
            _LABEL(self, said.label)
            _EFFECT(self, said.effect)
            _WORDS(self, None)

    @property
    def label(self) -> str:
        if self._words is not None:
            self._said()
        return self._label

    @property
    def effect(self) -> str:
        if self._words is not None:
            self._said()
        return self._effect

    def _key(self) -> tuple[str, str, str, str]:
        return (self.move, self.label, self.effect, self.step)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"MenuItem(move={self.move!r}, label={self.label!r}, effect={self.effect!r}, "
                f"step={self.step!r})")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")  # frozen, as it was

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return (MenuItem, self._key())


# The slots' own setters: the class refuses assignment (a value), so it sets them through
# these, which skip that refusal (and the lookup by name object.__setattr__ makes).
_NEW = object.__new__
_MOVE, _STEP, _LABEL, _EFFECT, _WORDS = (MenuItem.__dict__[n].__set__ for n in (
    "move", "step", "_label", "_effect", "_words"))


@dataclass(frozen=True)
class MenuGroup:
    """Moves of one kind (slides, slams, an action's dice...). `key` is stable across versions
    and short (it names the group in a component id); `title` is the question the group answers
    ("Slide a die"); `hint` is one line of help."""

    key: str
    title: str
    items: tuple[MenuItem, ...]
    pick: str = Pick.SELECT
    hint: str = ""
    tone: str = Tone.MAIN
    emoji: str = ""
    compose: str = ""      # Pick.SEVERAL only: the move with "{}" where the tokens go
    joiner: str = " "
    min_picks: int = 1
    max_picks: int = 1

    def moves(self) -> list[str]:
        """The moves this group makes directly (a SEVERAL group's are composed: none here)."""
        return [] if self.pick == Pick.SEVERAL else [i.move for i in self.items]

    def compose_move(self, tokens: Iterable[str]) -> str:
        """The move a SEVERAL group's picks make, in the group's own order."""
        order = {i.move: n for n, i in enumerate(self.items)}
        chosen = sorted(dict.fromkeys(tokens), key=lambda t: order.get(t, len(order)))
        return self.compose.format(self.joiner.join(chosen))


@dataclass(frozen=True)
class Menu:
    """Everything `seat` may do now, grouped. `secret`: chosen in the seat's own panel, never
    offered in the channel (declared by the engine's `SECRET_PHASES`, nowhere else)."""

    seat: int
    groups: tuple[MenuGroup, ...] = ()
    secret: bool = False

    def moves(self) -> list[str]:
        return [m for g in self.groups for m in g.moves()]

    def group(self, key: str) -> MenuGroup | None:
        return next((g for g in self.groups if g.key == key), None)

    def item(self, move: str) -> MenuItem | None:
        return next((i for g in self.groups if g.pick != Pick.SEVERAL for i in g.items
                     if i.move == move), None)

    def __bool__(self) -> bool:
        return bool(self.groups)

    def unworded(self) -> list[MenuItem]:
        """The items whose words are still to be read from the game (`MenuItem.worded`)."""
        return [i for g in self.groups for i in g.items if i._words is not None]


@dataclass(frozen=True)
class Prompt:
    """In words, for `seat` (None: anyone watching): `status` — whose step it is ("Alice to
    slide"); `todo` — what the seat to act should do now (empty for a seat that can't act);
    `waiting` — why this seat cannot act now (empty when it can); `actors` — the seats to act."""

    actors: tuple[int, ...]
    status: str
    todo: str = ""
    waiting: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)


def pick_for(count: int, few: int = 4) -> str:
    """Buttons for a few choices, a list for more."""
    return Pick.BUTTONS if count <= few else Pick.SELECT
