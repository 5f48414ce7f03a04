"""A test-only game that exercises the core: secret simultaneous calls, a chance flip, scoring.

Each round both players secretly call `heads` or `tails`; then the coin is flipped (chance);
every right call scores a point. First to `target` points wins; reaching it together is a draw.
"""
from __future__ import annotations

from bot.engine.core import (CHANCE, Chance, Ending, Event, Game, IllegalMoveError,
                             InvalidMoveError, MoveText, Option, faces)


class CoinFlip(Game):
    KIND = "coinflip"
    TITLE = "Coin Flip"
    OPTIONS = (Option("target", 2, "points to win", 1, 9),)
    SECRET_PHASES = frozenset({"calling"})  # every call is secret

    def setup(self) -> None:
        self.score = [0] * self.players
        self.calls: list[str | None] = [None] * self.players
        self.round = 1

    def _actors(self):
        waiting = [p for p in range(self.players) if self.calls[p] is None]
        return waiting or [CHANCE]

    def _chance(self) -> Chance:
        return Chance((faces("coin", ["heads", "tails"]),), "the coin flip")

    def _legal(self, player):
        return ["call heads", "call tails"]

    def _apply(self, actor, move):
        if actor == CHANCE:
            (side,) = self._chance().parse(move)
            events = [Event(f"The coin shows {side}.", "flip", data={"side": side})]
            for p, call in enumerate(self.calls):
                if call == side:
                    self.score[p] += 1
            self.calls = [None] * self.players
            self.round += 1
            winners = [p for p, s in enumerate(self.score) if s >= self.options["target"]]
            if len(winners) == 1:
                events.append(self.finish(winners, "first to the target", Ending.GOAL))
            elif winners:
                events.append(self.finish([], "both reached the target together", Ending.GOAL))
            return events
        parts = move.split()
        if len(parts) != 2 or parts[0] != "call" or parts[1] not in ("heads", "tails"):
            raise InvalidMoveError("Write `call heads` or `call tails`.")
        if self.calls[actor] is not None:
            raise IllegalMoveError("You have already called this round.")
        self.calls[actor] = parts[1]
        return [Event(f"{self.name(actor)} has called.", "called"),
                Event(f"You called {parts[1]}.", "secret", to=(actor,))]

    def _phase(self):
        return "calling"

    def _describe(self, move, seat):
        side = move.split()[-1]
        return MoveText(f"Call {side}", f"you score a point if the coin shows {side}")

    def timeout_move(self, player):
        return "call heads"

    def view(self, player):
        return {"score": self.score, "round": self.round,
                "called": [c is not None for c in self.calls],
                "my_call": self.calls[player] if player is not None else None,
                "result": self.result}

    def text(self, player=None):
        v = self.view(player)
        return f"Round {v['round']}: score " + " - ".join(map(str, v["score"]))


GAME = CoinFlip
