"""What the engines' fuzz tests share (issue #11): positions from random legal play, legal moves
mutated the way hands and keyboards mutate them, and the one property every engine keeps —
whatever a player types comes back as a rule error with the state exactly as it was, or plays.

`EngineFuzz` holds one game's own part (its tables, its junk tokens and verbs, how its notation
is commonly misspelt, which stray characters a slip of the finger puts in, what junk text is
made of) and makes the tests every engine runs from it; each game's test module adds the checks
that are its own (which phases its positions must reach, its known near misses)."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

import hypothesis
import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from bot.engine.core import Game, RuleError
from random_turns import random_turns


def settings(max_examples: int) -> dict[str, Any]:
    return dict(max_examples=max_examples, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


# Digits that are not 0-9 (they pass `str.isdigit()`), and numbers too big or oddly written.
ODD_DIGITS = ["٣", "３", "²", "߂", "𝟙", "Ⅳ", "½", "0" * 12, "99999999999", "-1", "1e3", "0x1"]
# Characters that case-fold or look like ours, and invisible ones.
ODD_LETTERS = ["٣", "３", "²", "ſ", "\u212a", "\u200b", "İ"]


def positions(new: Callable[[int], Game], seed: int, *, count: int, moves: int,
              keep: float) -> list[tuple[Game, int]]:
    """Games part-way through random legal play (`new(seed)` starts one), each with a seat
    that may act, chance resolved: about one position in 1/`keep` moves, `count` at most."""
    rng = random.Random(seed)
    g = new(seed)
    found: list[tuple[Game, int]] = []
    for seat in random_turns(g, rng, moves):
        if rng.random() < keep:
            found.append((g.copy(), seat))
            if len(found) >= count:
                break
        g.apply(seat, rng.choice(g.legal(seat)))
    return found


@dataclass(frozen=True)
class Typos:
    """How one game's moves get mistyped."""
    junk: list[str]                        # tokens that slip in
    verbs: list[str]                       # another verb with this verb's arguments
    spellings: Callable[[str], list[str]]  # the whole move re-cased or re-spaced
    stray: str                             # a character typed instead of the right one
    odd_digits: tuple[str, ...] = tuple(ODD_DIGITS)

    def mutate(self, move: str, rng: random.Random) -> str:
        tokens = move.split()
        kind = rng.randrange(9)
        if kind == 0 and len(tokens) > 1:                      # swap two tokens
            i, j = rng.sample(range(len(tokens)), 2)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == 1:                                        # duplicate a token
            i = rng.randrange(len(tokens))
            tokens.insert(i, tokens[i])
        elif kind == 2 and len(tokens) > 1:                    # drop a token
            tokens.pop(rng.randrange(len(tokens)))
        elif kind == 3:                                        # a digit not 0-9, or huge
            text = " ".join(tokens)
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            odd = rng.choice(self.odd_digits)
            if digits:
                i = rng.choice(digits)
                return text[:i] + odd + text[i + 1:]
            return text + " " + odd
        elif kind == 4:                                        # junk token somewhere
            tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(self.junk))
        elif kind == 5:                                        # case and separators
            return rng.choice(self.spellings(" ".join(tokens)))
        elif kind == 6:                                        # a character replaced
            text = " ".join(tokens)
            i = rng.randrange(len(text))
            return text[:i] + rng.choice(self.stray) + text[i + 1:]
        elif kind == 7:                                        # empty / whitespace token
            tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(["", "\u3000", "\u00a0"]))
        else:                                                  # another verb's arguments
            tokens[0] = rng.choice(self.verbs)
        return " ".join(tokens)


def refused_or_played(game: Game, actor, text: str) -> None:
    """Only a rule error may come back, and a refused move changes nothing."""
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(actor, text)
    except RuleError:
        assert json.dumps(game.to_json(), sort_keys=True) == before, text
    # anything else propagates and fails the test


def near_miss(data: st.DataObject, found: list[tuple[Game, int]], typos: Typos) -> None:
    """A legal move of a drawn position, mistyped, by its seat or the next one."""
    game, seat = data.draw(st.sampled_from(found))
    game = game.copy()
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    text = typos.mutate(rng.choice(game.legal(seat)), rng)
    actor = data.draw(st.sampled_from([seat, (seat + 1) % game.players]))
    refused_or_played(game, actor, text)


def refused(game: Game, actor, text: str) -> None:
    """`text` is refused with a rule error and changes nothing (on `game` itself)."""
    before = game.to_json()
    with pytest.raises(RuleError):
        game.apply(actor, text)
    assert game.to_json() == before


@dataclass(frozen=True)
class EngineFuzz:
    """One game under fuzz: where its positions come from, how its moves get mistyped and what
    its junk text is made of. The `*_test` methods make the tests every engine shares, to be
    bound to a test name in the game's module (`test_x = FUZZ.near_miss_test()`)."""
    game: type[Game]
    tables: list[tuple[int, dict[str, Any]]]   # (players, options), taken in turn by seed
    typos: Typos
    alphabet: str                               # junk text: these characters and ODD_LETTERS
    examples: int                               # hypothesis examples for each test
    seeds: int = 10                             # games of random legal play ...
    count: int = 8                              # ... each giving this many positions at most,
    moves: int = 400                            # within this many moves,
    keep: float = 0.25                          # about one move in 1/keep
    junk_size: int = 60                         # the longest junk text

    def new(self, seed: int) -> Game:
        players, options = self.tables[seed % len(self.tables)]
        return self.game.new(players, options, names=[f"N{i}" for i in range(players)])

    @cached_property
    def positions(self) -> list[tuple[Game, int]]:
        """Positions part-way through play, each with a seat that may act (share, do not
        mutate: copy first)."""
        return [p for seed in range(self.seeds)
                for p in positions(self.new, seed, count=self.count, moves=self.moves,
                                   keep=self.keep)]

    @property
    def settings(self) -> hypothesis.settings:
        """The hypothesis settings of this game's fuzz tests (a decorator)."""
        return hypothesis.settings(**settings(self.examples))

    def near_miss_test(self) -> Callable[..., None]:
        @self.settings
        @given(st.data())
        def test_near_miss_moves_are_refused_cleanly(data):
            near_miss(data, self.positions, self.typos)
        return test_near_miss_moves_are_refused_cleanly

    def junk_text_test(self) -> Callable[..., None]:
        @self.settings
        @given(st.data(), st.text(alphabet=st.sampled_from(list(self.alphabet) + ODD_LETTERS),
                                  max_size=self.junk_size))
        def test_junk_text_is_refused_cleanly(data, text):
            game, seat = data.draw(st.sampled_from(self.positions))
            refused_or_played(game.copy(), seat, text)
        return test_junk_text_is_refused_cleanly

    def parsers_test(self, *parsers: Callable[[str], object],
                     max_size: int = 40) -> Callable[..., None]:
        """Each of `parsers` (called with any text) answers or raises a rule error."""
        @self.settings
        @given(st.text(max_size=max_size))
        def test_the_parsers_raise_only_rule_errors(text):
            for parse in parsers:
                try:
                    parse(text)
                except RuleError:
                    pass
        return test_the_parsers_raise_only_rule_errors
