"""The Reposition and Customers steps (rulings, "A turn" 4-5): one banner at a time, then
`done`; Super Sale Banners after a one-flick turn; customers drawn by a Super Sale."""
from __future__ import annotations

from typing import Any

from ..core import Event, InvalidMoveError
from . import board, notation, rules
from .base import DieMenBase, plural


class Reposition(DieMenBase):
    def _open_floor(self, seat: int) -> list[str]:
        taken = set(rules.standing_floor(self.side(seat)))
        return [s for s in board.BANNER_SPOTS if s not in taken]

    def _stand_room(self, seat: int) -> bool:
        return self.super_sale_allowed() and \
            rules.super_sale_up(self.side(seat)) < rules.MAX_SUPER_SALE

    def _reposition_moves(self, seat: int) -> list[str]:
        me = self.side(seat)
        t = self.t
        open_floor = self._open_floor(seat)
        stand = me["stand"]
        room = self._stand_room(seat)
        out = []
        if rules.knocked(me):
            out += [f"place {s}" for s in open_floor]
            if room:
                out.append(f"place {stand}")
        for s in rules.standing_floor(me):
            if s in t["placed"]:
                continue
            out += [f"reposition {s} {d}" for d in open_floor]
            if room:
                out.append(f"reposition {s} {stand}")
        if rules.super_sale_up(me) - t["stand_new"] > 0:
            out += [f"reposition {stand} {d}" for d in open_floor]
        if not rules.knocked(me):
            out.append("done")
        return out

    def _own_dest(self, p: int, token: str) -> str:
        """A destination: an own banner spot, or "stand" (your Stand's S spot or `stand`)."""
        if token.lower() == "stand":
            return "stand"
        side, spot = board.parse_spot(token)
        if side not in (None, p):
            raise self._refuse(p, "You reposition only your own banners, on your side.")
        if spot in board.STAND_SPOTS:
            if spot != self.side(p)["stand"]:
                raise self._refuse(p, f"Your Stand is at {self.side(p)['stand']}, not {spot}.")
            return "stand"
        if spot not in board.BANNER_SPOTS:
            raise self._refuse(p, "Banners go on banner spots (F1-F3, B1-B3) or your Stand.")
        return spot

    def _put(self, p: int, banner: dict[str, Any], dest: str) -> None:
        t = self.t
        if dest == "stand":
            if not self.super_sale_allowed():
                raise self._refuse(p, "Super Sale Banners go up only after a turn in which you "
                                      "flicked exactly 1 die.")
            if rules.super_sale_up(self.side(p)) >= rules.MAX_SUPER_SALE:
                raise self._refuse(p, "Your Stand already holds 2 Super Sale Banners.")
            t["stand_new"] += 1
        else:
            if dest in rules.standing_floor(self.side(p)):
                raise self._refuse(p, f"{dest} is taken: a banner of yours already stands "
                                      "there.")
            t["placed"].append(dest)
        banner["at"] = dest
        banner["up"] = True

    def _where(self, p: int, dest: str) -> str:
        return f"their Stand ({self.side(p)['stand']})" if dest == "stand" else dest

    def _do_place(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 1:
            raise InvalidMoveError("Write `place F2` (a knocked banner back on a spot) or "
                                   "`place S2` (up on your Stand as a Super Sale Banner).")
        self._phase_is(p, ("reposition",), "Placing a banner")
        dest = self._own_dest(p, args[0])
        me = self.side(p)
        down = [b for b in me["banners"] if not b["up"]]
        if not down:
            raise self._refuse(p, "None of your banners is knocked down.")
        self._put(p, down[0], dest)
        return [Event(f"{self._who(p)} places a knocked banner on {self._where(p, dest)}.",
                      "reposition", data={"seat": p, "from": None, "to": dest})]

    def _do_reposition(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 2:
            raise InvalidMoveError("Write `reposition F1 F3` (a standing banner from F1 to F3; "
                                   "your Stand's spot, e.g. S2, for a Super Sale Banner).")
        self._phase_is(p, ("reposition",), "Repositioning a banner")
        src = self._own_dest(p, args[0])
        dest = self._own_dest(p, args[1])
        me = self.side(p)
        t = self.t
        if src == dest:
            raise self._refuse(p, "Move the banner to a different spot.")
        if src == "stand":
            up = [b for b in me["banners"] if b["up"] and b["at"] == "stand"]
            if len(up) - t["stand_new"] <= 0:
                raise self._refuse(p, "No Super Sale Banner of yours stands on your Stand "
                                      "(that was not put up this Reposition).")
            banner = up[0]
        else:
            found = [b for b in me["banners"] if b["up"] and b["at"] == src]
            if not found:
                raise self._refuse(p, f"No standing banner of yours is on {src}.")
            if src in t["placed"]:
                raise self._refuse(p, f"The banner on {src} was already moved this "
                                      "Reposition; each banner moves once.")
            banner = found[0]
        self._put(p, banner, dest)
        return [Event(f"{self._who(p)} moves a banner from {self._where(p, src)} to "
                      f"{self._where(p, dest)}.", "reposition",
                      data={"seat": p, "from": src, "to": dest})]

    def _do_supersale(self, p: int, args: list[str]) -> list[Event]:
        form = ("`supersale F1` (the banner at F1 up on your Stand) or `supersale 2` "
                "(knocked banners up on your Stand)")
        if len(args) != 1:
            raise InvalidMoveError(f"Write {form}.")
        self._phase_is(p, ("reposition",), "Putting up Super Sale Banners")
        if notation.is_number(args[0]):
            n = int(args[0])
            if not 1 <= n <= rules.MAX_SUPER_SALE:
                raise self._refuse(p, "A Stand holds at most 2 Super Sale Banners.")
            down = rules.knocked(self.side(p))
            if down < n:
                raise self._refuse(p, f"`supersale {n}` puts up {n} of your knocked banners and "
                                      f"you have {down}; put a standing banner up with "
                                      "`supersale F1` (its spot).")
            events: list[Event] = []
            for _ in range(n):
                events += self._do_place(p, ["stand"])
            return events
        return self._do_reposition(p, [args[0], "stand"])

    def _do_done(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("reposition",), "Ending the Reposition")
        if args:
            raise InvalidMoveError("Write just `done`.")
        if rules.knocked(self.side(p)):
            down = plural(rules.knocked(self.side(p)), "knocked banner")
            raise self._refuse(p, f"Place your {down} back first.")
        me = self.side(p)
        t = self.t
        events = [Event(f"{self._who(p)} has repositioned.", "reposition_done",
                        data={"seat": p})]
        if t["ssb_at_start"]:
            attract = min(t["ssb_at_start"], rules.MAX_CUSTOMERS - len(me["customers"]),
                          self.floor["supply"])
            if attract > 0:
                t["attract"] = attract
                self.phase = "customers"
                events.append(Event(
                    f"The Super Sale draws {plural(attract, 'customer')}: {self._who(p)} places "
                    "them on their customer spots (or lets them go).", "customers_attracted",
                    data={"seat": p, "count": attract}))
                return events
        return events + self._end_turn()

    def _do_customer(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 1:
            raise InvalidMoveError("Write `customer C2` (one of your customer spots C1-C3).")
        side, spot = board.parse_spot(args[0])
        if side not in (None, p) or spot not in board.CUSTOMER_SPOTS:
            raise InvalidMoveError("Customers go on your customer spots: `customer C1`, "
                                   "`customer C2` or `customer C3`.")
        self._phase_is(p, ("customers",), "Placing a customer")
        me = self.side(p)
        if spot in me["customers"]:
            raise self._refuse(p, f"A customer already stands on {spot}.")
        me["customers"].append(spot)
        me["customers"].sort()
        self.floor["supply"] -= 1
        self.t["attract"] -= 1
        events = [Event(f"A customer arrives at {self.name(p)}'s {spot}.", "customer",
                        data={"seat": p, "spot": spot})]
        if self.t["attract"] <= 0:
            events += self._end_turn()
        return events

    def _do_end(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("customers",), "Ending the turn early")
        if args:
            raise InvalidMoveError("Write just `end`.")
        left = self.t["attract"]
        self.t["attract"] = 0
        return [Event(f"{self._who(p)} lets {plural(left, 'customer')} go.", "customers_declined",
                      data={"seat": p, "count": left})] + self._end_turn()
