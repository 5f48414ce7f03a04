"""A test-only game of public turns: players take 1 to 3 counters from one pile in turn; who
takes the last wins. Exercises the turn message's buttons, as the coin flip exercises panels."""
from __future__ import annotations

from bot.engine.core import Ending, Event, Game, IllegalMoveError, InvalidMoveError, MoveText, Option


class TakeAway(Game):
    KIND = "takeaway"
    TITLE = "Take Away"
    MAX_PLAYERS = 3
    OPTIONS = (Option("pile", 10, "counters on the pile at the start", 3, 99),)

    def setup(self) -> None:
        self.pile = self.options["pile"]
        self.turn = 0

    def _actors(self):
        return [self.turn % self.players]

    def _legal(self, player):
        return [f"take {n}" for n in range(1, min(3, self.pile) + 1)]

    def _apply(self, actor, move):
        parts = move.split()
        if len(parts) != 2 or parts[0] != "take" or not parts[1].isdigit():
            raise InvalidMoveError("Write `take 1`, `take 2` or `take 3`.")
        n = int(parts[1])
        if not 1 <= n <= min(3, self.pile):
            raise IllegalMoveError(f"Take 1 to {min(3, self.pile)} counters.")
        self.pile -= n
        events = [Event(f"{self.name(actor)} takes {n}; {self.pile} left.", "take")]
        if self.pile == 0:
            events.append(self.finish([actor], f"{self.name(actor)} took the last counter",
                                      Ending.GOAL))
        self.turn += 1
        return events

    def _describe(self, move, seat):
        n = int(move.split()[1])
        return MoveText(f"Take {n}", f"leaves {self.pile - n}")

    def view(self, player):
        return {"pile": self.pile, "turn": self.turn, "result": self.result}

    def text(self, player=None):
        return f"{self.pile} counters on the pile"


GAME = TakeAway
