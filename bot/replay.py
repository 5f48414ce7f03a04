"""Watching a game again (issue #26): its steps, built by replaying its record.

A game's record is the one source (docs/records.md): nothing is stored per move for replays.
`walk(record, seat)` replays the entries through the engine and cuts the game into *steps*:
a step ends at every entry after which what `seat` may see (`game.view(seat)`; None: the public
view, as the thread shows it) differs from before. Each step carries the words of what happened
in it (the engine's events that `seat` may see, or the move's `describe()` words when the
engine said nothing), whether it revealed a secret, and the turn it belongs to. Step 0 is the
start. The position after step k is exactly `python -m bot render RECORD --at <steps[k].at>`.

Secrets: a step is cut from what the seat may see only, and its words are only the events the
seat may see, so two games that differ only in something never shown to that seat give the
same steps (with the public view: the same until the reveal).

No Discord here: the GIF (rendering/gif.py), `python -m bot render --gif`, `/games replay`
(cogs/replay.py) and "What happened?" all read these steps.
"""
from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, field
from typing import Any

from .engine import load
from .engine.core import CHANCE, Game, RuleError, join_names
from .engine.records import Record, ReplayError, entry_actor, start

# Event kinds that show what was hidden (besides any step that closes a secret step).
REVEAL_KINDS = frozenset({"reveal", "setup_reveal", "setup_revealed", "wall_down"})
# The engine's own end announcement: the end frame and the end line say it, once.
END_KINDS = frozenset({"game_over"})


@dataclass(frozen=True)
class Step:
    """One change that `seat` could see. `at`: the entries replayed to reach it."""

    number: int
    at: int
    words: tuple[str, ...]
    reveal: bool = False
    turn: str = ""          # the turn (or round) it happened in, for jumping turn by turn
    turn_label: str = ""    # "Turn 3", "Round 2, combat 1"
    movers: tuple[int, ...] = ()  # the seats whose moves made it (none: the dice, the crowd)

    def caption(self) -> str:
        return " ".join(self.words)


@dataclass
class Replay:
    """A game cut into steps for one seat's eyes (None: the public)."""

    kind: str
    title: str
    names: list[str]
    options: dict[str, Any]
    seat: int | None
    steps: list[Step]
    entries: int                       # entries replayed in all
    outcome: dict[str, Any] | None     # the result at the end (None: still running)
    views: list[dict[str, Any]] = field(default_factory=list)  # the view after each step
    # The public view after each step (the board everyone saw then); `views` itself when the
    # replay is the public's.
    boards: list[dict[str, Any]] = field(default_factory=list)
    end_words: str = ""                # "Alice wins — Bob has no dice left."

    def turn_starts(self) -> list[int]:
        """The step numbers where a new turn (or round) begins, in order (0 first)."""
        out = [0]
        for prev, step in zip(self.steps, self.steps[1:]):
            if step.turn != prev.turn:
                out.append(step.number)
        return out

    def step_at(self, number: int) -> Step:
        return self.steps[max(0, min(number, len(self.steps) - 1))]


def _secret_pending(game: Game) -> bool:
    """Does someone hold something the others have not seen yet (a secret step is open)?"""
    if game.result is not None:
        return False
    return game.current_phase() in game.SECRET_PHASES or any(
        game.is_secret(s) for s in range(game.players))


def _by_rounds(view: dict[str, Any]) -> bool:
    """Does this game count rounds (KAPLOOM!, TradeShowdown) rather than turns?"""
    r = view.get("round")
    return isinstance(r, int) and not isinstance(r, bool) and r > 0


def _turn(view: dict[str, Any], by_rounds: bool) -> tuple[str, str]:
    """The turn (a round, in games that count rounds) a view is in: a key and its words."""
    def number(key: str) -> int | None:
        v = view.get(key)
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    combat = number("combat")
    if by_rounds:
        key, label = [combat, number("round")], f"Round {number('round')}"
    else:
        turn = number("turn")
        key = [combat, turn]
        label = f"Turn {turn}" if turn else "Set-up"
        if combat is not None:
            label = f"Combat {combat}, " + label[0].lower() + label[1:]
    return json.dumps(key), label


def _visible(event: Any, seat: int | None) -> bool:
    return event.to is None or (seat is not None and seat in event.to)


def _said(game: Game, actor: Any, move: str) -> str:
    """A move in words when the engine's events said nothing `seat` may see."""
    if actor == CHANCE:
        return "The dice are rolled." if move.startswith("roll") else ""
    name = game.name(actor)
    head = move.split(" ", 1)[0]
    if head == "resign":
        return f"{name} resigns."
    if head == "timeout":
        return f"{name}'s time runs out."
    try:
        label = game.describe(move, actor).label.rstrip(".")
    except (RuleError, Exception):  # words only: a move the engine cannot word still stands
        label = move
    return f"{name}: {label}."


def end_words(game: Game) -> str:
    outcome = game.outcome()
    if outcome is None:
        return ""
    if outcome.draw:
        return f"Draw — {outcome.reason}."
    who = join_names([game.name(w) for w in outcome.winners])
    verb = "wins" if len(outcome.winners) == 1 else "win"
    return f"{who} {verb} — {outcome.reason}."


def walk(record: Record, seat: int | None = None, *, keep_views: bool = True,
         upto: int | None = None) -> Replay:
    """The record's steps as `seat` saw them (None: the public), up to the first `upto`
    entries (None: all). ReplayError names the first entry the rules refuse."""
    game = start(record)
    entries = record.entries if upto is None else record.entries[:upto]
    view = game.view(seat)
    seen = json.dumps(view, sort_keys=True, default=str)
    public = game.view(None) if seat is not None else view
    by_rounds = _by_rounds(public)
    turn, label = _turn(public, by_rounds)
    steps = [Step(0, 0, (), False, turn, label)]
    views = [view] if keep_views else []
    boards = [public] if keep_views and seat is not None else views
    words: list[str] = []
    movers: list[int] = []
    reveal = False
    pending = _secret_pending(game)
    for i, entry in enumerate(entries):
        wordable = False
        try:
            actor = entry_actor(entry, game.players)
            move = entry.get("move")
            if not isinstance(move, str):
                raise RuleError(f"move must be text, not {move!r}")
            # A secret move is worded only for its own seat: for anyone else only its events
            # (those they may see) speak for it.
            wordable = actor != CHANCE and (actor == seat or not game.is_secret(actor))
            before = pickle.dumps(game.__dict__, pickle.HIGHEST_PROTOCOL) if wordable else None
            events = game.table_move(actor, move)
        except RuleError as e:
            raise ReplayError(i, entry, e) from e
        said = [e.text for e in events if _visible(e, seat) and e.kind not in END_KINDS]
        if not said and not any(_visible(e, seat) for e in events):
            # The engine said nothing this seat may see: the move's own words.
            if before is not None:
                after = game.__dict__.copy()
                game.__dict__.clear()
                game.__dict__.update(pickle.loads(before))
                text = _said(game, actor, move)
                game.__dict__.clear()
                game.__dict__.update(after)
            else:
                text = _said(game, actor, move) if actor == CHANCE else ""
            said = [text] if text else []
        words += said
        if wordable and actor not in movers:
            movers.append(actor)
        reveal = reveal or any(e.kind in REVEAL_KINDS and _visible(e, seat) for e in events)
        now_pending = _secret_pending(game)
        reveal = reveal or (pending and not now_pending and game.result is None
                            and not move.startswith(("resign", "timeout")))
        pending = now_pending
        view = game.view(seat)
        text = json.dumps(view, sort_keys=True, default=str)
        if text == seen:
            continue
        seen = text
        public = game.view(None) if seat is not None else view
        turn, label = _turn(public, by_rounds)
        steps.append(Step(len(steps), i + 1, tuple(words), reveal, turn, label,
                          tuple(movers)))
        if keep_views:
            views.append(view)
            if seat is not None:
                boards.append(public)
        words, movers, reveal = [], [], False
    if words and len(steps) > 1:  # said after the last change (rare): keep it with that step
        last = steps[-1]
        steps[-1] = Step(last.number, last.at, last.words + tuple(words), last.reveal,
                         last.turn, last.turn_label, last.movers)
    return Replay(record.kind, load(record.kind).TITLE or record.kind, list(game.names),
                  dict(game.options), seat, steps, len(entries), game.result, views,
                  boards, end_words(game))


def view_at(record: Record, at: int, seat: int | None = None) -> dict[str, Any]:
    """What `seat` saw after the first `at` entries (`render --at N`'s position)."""
    game = start(record)
    for i, entry in enumerate(record.entries[:at]):
        try:
            game.table_move(entry_actor(entry, game.players), entry["move"])
        except RuleError as e:
            raise ReplayError(i, entry, e) from e
    return game.view(seat)


def since(record: Record, first: int) -> tuple[list[str], dict[str, Any], dict[str, Any], int]:
    """Everything public from entry `first` on: the public events in words (the end too), the
    public view before them and after them, and how many moves that was. For "What happened?"
    and the turn ping's summary."""
    game = start(record)
    words: list[str] = []
    before: dict[str, Any] | None = None
    moves = 0
    for i, entry in enumerate(record.entries):
        if i == first:
            before = game.view(None)
        try:
            events = game.table_move(entry_actor(entry, game.players), entry["move"])
        except RuleError as e:
            raise ReplayError(i, entry, e) from e
        if i >= first:
            public = [e.text for e in events if e.to is None]
            words += public
            if public and entry.get("actor") != CHANCE:
                moves += 1
    after = game.view(None)
    return words, before if before is not None else after, after, moves


def last_move_index(record: Record, seat: int) -> int | None:
    """The index of `seat`'s last entry in the record, None when they have not moved."""
    for i in range(len(record.entries) - 1, -1, -1):
        if record.entries[i].get("actor") == seat + 1:
            return i
    return None


def summary_line(words: list[str], limit: int = 300) -> str:
    """Public events as one line, cut at a word when too long."""
    text = " ".join(w.strip() for w in words if w.strip())
    if len(text) <= limit:
        return text
    return text[:limit - 1].rsplit(" ", 1)[0] + "…"


def record_of(kind: str, options: dict[str, Any], names: list[str],
              entries: list[tuple[str, str]]) -> Record:
    """A record from the store's entries (`(actor, move)`, actor `"chance"` or `"1"`...)."""
    return Record(kind, dict(options), list(names), None,
                  [{"actor": a if a == CHANCE else int(a), "move": m} for a, m in entries])


class PublicLog:
    """A running game's public events, entry by entry, kept up to date by replaying only the
    entries added since the last look (a slow game's turn ping reads it on every new turn:
    replaying the whole record each time would cost a long game a tenth of a second a turn)."""

    def __init__(self, record: Record):
        self.kind = record.kind
        self.game = start(record)
        self.entries: list[dict[str, Any]] = []
        self.said: list[list[str]] = []   # the public event texts of each entry

    def update(self, record: Record) -> None:
        """Catch up with `record` (the same game, perhaps with more entries); started over
        when it is not this log's game continued."""
        n = len(self.entries)
        if record.kind != self.kind or len(record.entries) < n or \
                [dict(e) for e in record.entries[:n]] != self.entries:
            self.__init__(record)  # type: ignore[misc]
            n = 0
        for i, entry in enumerate(record.entries[n:], n):
            try:
                events = self.game.table_move(entry_actor(entry, self.game.players),
                                              entry["move"])
            except RuleError as e:
                raise ReplayError(i, entry, e) from e
            self.entries.append(dict(entry))
            self.said.append([e.text for e in events if e.to is None])

    def words_since(self, first: int) -> list[str]:
        """The public event texts of the entries from `first` on."""
        return [w for said in self.said[first:] for w in said]
