"""The Flick step: Called Shots, physical reports and their review, simulated flicks, `oops`,
per-flick mode switches — and `_resolve`, where every flick ends (rulings, "A turn" 3,
"Damage", "Physical report", "Simulated flick")."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..core import (AmbiguousMoveError, Chance, Draw, Ending, Event, InvalidMoveError, die,
                    faces)
from . import board, notation, rules
from .base import LAST_FLICKS_KEPT, MODES, RESPONSE_SECONDS, DieMenBase, new_flick, plural
from .odds import OUTCOME_NAMES, OUTCOMES, flick_odds, odds_words


class Flicking(DieMenBase):
    # targets and odds ----------------------------------------------------------------------------
    def odds(self, target: str | None, called: bool = False) -> dict[str, Any]:
        """The shown (and rolled) chances of the active Die-Man's simulated flick at `target`
        ("P2:F2", "P2:S1" for the Stand, "middle"/None): `odds.flick_odds` on this floor."""
        p = self.active
        me = self.side(p)
        super_sale = rules.super_sale_up(me) > 0
        if target in (None, "middle"):
            return flick_odds(None, super_sale=super_sale)
        seat, spot = board.split_label(target)
        them = self.side(seat)
        return flick_odds(
            board.distance(p, me["stand"], seat, spot), called=called,
            target_standing=rules.holds(them, spot) > 0,
            neighbours=bool(rules.occupied_neighbours(them, spot)),
            neighbour_banners=bool(rules.neighbour_banners(them, spot)),
            customers=bool(them["customers"]), super_sale=super_sale)

    def aim_targets(self) -> list[str]:
        """Where a simulated flick may be aimed: any enemy banner spot, the enemy Stand while
        it carries standing Super Sale Banners, or the middle."""
        e = 1 - self.active
        them = self.side(e)
        out = [board.label(e, s) for s in board.BANNER_SPOTS]
        if rules.super_sale_up(them):
            out.append(board.label(e, them["stand"]))
        return out + ["middle"]

    def call_targets(self) -> list[str]:
        """What a Called Shot may name: a standing enemy banner (on the floor or the Stand)."""
        e = 1 - self.active
        return [board.label(e, s) for s in dict.fromkeys(rules.banner_items(self.side(e)))]

    # legal moves while flicking -------------------------------------------------------------------
    def _flick_moves(self, player: int) -> list[str]:
        """Legal moves of the flicker while a flick is being made (physical or simulated)."""
        out: list[str] = []
        f = self._flick()
        e = 1 - player
        mode = self.flick_mode()
        if not f["marks"]:
            if mode == "physical":
                out += self._oops_moves()
            if not f["proposed"]:
                out.append("mode " + ("simulated" if mode == "physical" else "physical"))
            if f["called"] is None:
                out += [f"called {board.split_label(x)[1]}" for x in self.call_targets()]
        if mode == "simulated":
            out += ["aim " + (x if x == "middle" else board.split_label(x)[1])
                    for x in self.aim_targets()]
            return out
        # The report is one move: `result V hit=...` names everything that fell (any
        # combination is accepted; listed here: nothing, and each single thing). `mark` still
        # builds a report step by step for typed play and old records, but is not offered.
        fallen = [spot if seat == e else board.label(seat, spot)
                  for seat in (e, player) for spot in dict.fromkeys(rules.items(self.side(seat)))]
        for v in range(1, 7):
            out.append(f"result {v}")
            out += [f"result {v} hit={x}" for x in fallen]
            out.append(f"result {v} off")
        return out

    def _oops_moves(self) -> list[str]:
        if self.flick_mode() != "physical":
            return []
        return [f"oops {s}" for s in dict.fromkeys(rules.banner_items(self.side(self.active)))]

    # simulated flicks -----------------------------------------------------------------------------
    def _sim_chance(self) -> Chance:
        """The draws of a simulated flick (docs/diemen-flick-model.md): outcome + R (+ the
        self-knock), then, when needed, which neighbour or customer falls."""
        f = self._flick()
        sim = f["sim"]
        if sim is None:
            # The chances fixed when the flick was aimed (older states: computed now).
            odds = f.get("odds") or self._draw_odds(f["target"], f["called"] is not None)
            opts = [o for o in OUTCOMES if odds["outcomes"].get(o, 0) > 0]
            draws = [Draw("flick", tuple(opts), tuple(odds["outcomes"][o] for o in opts)),
                     die(6, "R")]
            if odds["self_knock"]:
                draws.append(Draw("self-knock", ("yes", "no"),
                                  (odds["self_knock"], 100 - odds["self_knock"])))
            where = "the middle" if f["target"] == "middle" else self._spot(f["target"])
            return Chance(tuple(draws), f"the simulated flick at {where}")
        return Chance((faces(sim["choose"], sim["options"]),),
                      f"which {sim['choose']} the die knocks")

    def _draw_odds(self, target: str, called: bool) -> dict[str, Any]:
        odds = self.odds(target, called)
        return {"outcomes": {o: p for o, p in odds["outcomes"].items() if p},
                "self_knock": odds["self_knock"]}

    def _aim_at(self, f: dict[str, Any], target: str) -> None:
        """Aim the simulated flick, fixing the chances it is rolled with (the same numbers
        the player was shown), so every read of the pending roll does not compute them again."""
        f["target"] = target
        f["odds"] = self._draw_odds(target, f["called"] is not None)

    def _sim_roll(self, tokens: list[str]) -> list[Event]:
        """Apply the answer to a simulated flick's draws."""
        f = self._flick()
        if f["sim"] is None:
            sim = {"outcome": tokens[0], "value": int(tokens[1]),
                   "self_knock": len(tokens) > 2 and tokens[2] == "yes",
                   "choose": None, "options": [], "pick": None}
            f["sim"] = sim
            cands: list[str] = []
            e = 1 - self.active
            if sim["outcome"] == "pair":
                # Rulings: "hit target and a neighbouring *banner*" (never a customer).
                _, spot = board.split_label(f["target"])
                cands = rules.neighbour_banners(self.side(e), spot)
                sim["choose"] = "neighbour"
            elif sim["outcome"] == "neighbour":
                _, spot = board.split_label(f["target"])
                cands = rules.occupied_neighbours(self.side(e), spot)
                sim["choose"] = "neighbour"
            elif sim["outcome"] == "customer":
                cands = [c for c in board.CUSTOMER_SPOTS if c in self.side(e)["customers"]]
                sim["choose"] = "customer"
            if len(cands) > 1:
                sim["options"] = cands
                return [Event(f"The die rolls {sim['value']}: "
                              f"{OUTCOME_NAMES[sim['outcome']]}; which one falls is drawn next.",
                              "flick_pending", data={"outcome": sim["outcome"],
                                                     "value": sim["value"]})]
            sim["pick"] = cands[0] if cands else None
        else:
            f["sim"]["pick"] = tokens[0]
        return self._finish_sim()

    def _finish_sim(self) -> list[Event]:
        f = self._flick()
        sim = f["sim"]
        p, e = self.active, 1 - self.active
        target = f["target"]
        pick = board.label(e, sim["pick"]) if sim["pick"] else None
        outcome = sim["outcome"]
        fell: list[str] = []
        if outcome == "clean":
            fell = [target]
        elif outcome == "pair":
            fell = [target] + ([pick] if pick else [])
        elif outcome in ("neighbour", "customer") and pick:
            fell = [pick]
        other = [board.label(p, self.side(p)["stand"])] if sim["self_knock"] else []
        return self._resolve({"value": sim["value"], "off": outcome == "off", "fell": fell,
                              "other": other, "outcome": outcome})

    # the one path every flick takes ---------------------------------------------------------------
    def _resolve(self, res: dict[str, Any]) -> list[Event]:
        """Apply a resolved flick (physical report or simulated draws) and move the turn on."""
        p = self.active
        t = self.t
        f = self._flick()
        mode = self.flick_mode()
        res = dict(res, called=f["called"])
        out = rules.apply_flick(self.floor, p, res, self.names)
        self.flick_count += 1
        if mode == "simulated":
            to = None if f["target"] == "middle" else f["target"]
        else:
            enemy_fell = [x for x in res["fell"] if board.split_label(x)[0] != p]
            to = f["called"] or (enemy_fell[0] if enemy_fell else None)
        record = {"n": self.flick_count, "turn": self.turn, "by": p, "mode": mode,
                  "number": t["resolved"] + 1, "of": t["declared"],
                  "from": board.label(p, self.side(p)["stand"]), "to": to,
                  "called": f["called"], "value": res["value"], "off": bool(res["off"]),
                  "outcome": res.get("outcome"), "fell": list(res["fell"]),
                  "other": list(res.get("other", [])), "added": out["added"],
                  "damage": [s["damage"] for s in self.floor["sides"]]}
        # (The damage lines are in the flick's event; kept out of the state, which every move
        # snapshots.)
        self.flicks = (self.flicks + [record])[-LAST_FLICKS_KEPT:]
        t["resolved"] += 1
        what = (f"{self._who(p)}'s flick {record['number']} of {record['of']}"
                + (f" (Called Shot at {self._spot(f['called'])})" if f["called"] else "")
                + (f" at {self._spot(to)}" if mode == "simulated" and to and not f["called"]
                   else "")
                + f": rolled {res['value']}")
        if mode == "simulated":
            what += f", {OUTCOME_NAMES[res['outcome']]}"
        elif res["off"]:
            what += ", off the floor"
        fallen = res["fell"] if not res["off"] else []
        what += ". " + (("Fell: " + self._spots(fallen) + ". ") if fallen else "Nothing fell. ")
        if record["other"]:
            what += "Knocked off the Stand: " + self._spots(record["other"]) + ". "
        if out["lines"]:
            what += "; ".join(out["lines"]) + ". "
        what += self._damage_text()
        events = [Event(what, "flick", data=record)]
        loser = rules.loser(self.floor, p)
        if loser is not None:
            events.append(self.finish([1 - loser], self._loss_reason(loser), Ending.KNOCKOUT))
            return events
        if t["resolved"] >= t["declared"]:
            t["flick"] = None
            self.phase = "reposition"
        else:
            t["flick"] = new_flick()
            self.phase = "flick"
        return events

    def _loss_reason(self, loser: int) -> str:
        d = [s["damage"] for s in self.floor["sides"]]
        if min(d) >= rules.LOSING_DAMAGE:
            how = ("equal totals, so the flicker loses" if d[0] == d[1]
                   else "the higher total loses")
            return (f"both Die-Men reached 20 Property Damage ({d[0]} and {d[1]}): {how}; "
                    f"{self.name(loser)} is out of the competition")
        return (f"{self.name(loser)} reached {d[loser]} Property Damage and is out of the "
                "competition")

    # moves --------------------------------------------------------------------------------------
    def _own_banner_labels(self, p: int, args: list[str], verb: str) -> list[str]:
        """Own standing banners named by spots (`F1`, `F1,S2`) or a count (`1`)."""
        me = self.side(p)
        text = ",".join(args)
        if notation.is_number(text):
            n = int(text)
            have = rules.banner_items(me)
            readings = sorted({tuple(sorted(c)) for c in combinations(have, n)})
            if n == 0 or not readings:
                raise self._refuse(p, f"You do not have {plural(n, 'standing banner')} to knock "
                                      "over.")
            if len(readings) > 1:
                raise AmbiguousMoveError(
                    f"`{verb} {n}` could mean "
                    + " or ".join(f"`{verb} {','.join(r)}`" for r in readings[:6])
                    + (" or more" if len(readings) > 6 else "") + ": name the spots.")
            return [board.label(p, s) for s in readings[0]]
        labels: list[str] = []
        for side, spot in notation.spot_list(text):
            if side not in (None, p):
                raise self._refuse(p, f"`{verb}` is for your own banners; "
                                      f"{spot} there is {self.name(side)}'s.")
            if spot in board.CUSTOMER_SPOTS:
                raise self._refuse(p, f"`{verb}` is for your own banners, not customers.")
            lab = board.label(p, spot)
            if rules.holds(me, spot) <= labels.count(lab):
                raise self._refuse(p, f"No standing banner of yours is on {spot} "
                                      f"({self._side_summary(p)}).")
            labels.append(lab)
        return labels

    def _do_oops(self, p: int, args: list[str]) -> list[Event]:
        if not args:
            raise InvalidMoveError("Write `oops F1` (the spot of your banner that fell by hand, "
                                   "sleeve or table; your Stand's spot for a Super Sale Banner).")
        self._phase_is(p, ("move", "flick"), "Reporting a banner knocked by other means")
        if self.flick_mode() != "physical":
            raise self._refuse(p, "`oops` reports a real banner knocked over on a real table: "
                                  "only in a physical flick.")
        if self.phase == "flick" and self._flick()["marks"]:
            raise self._refuse(p, "Finish the report of this flick first.")
        labels = self._own_banner_labels(p, args, "oops")
        for lab in labels:
            rules.knock(self.floor, p, board.split_label(lab)[1])
        self.side(p)["damage"] += rules.OTHER_MEANS * len(labels)
        own = ", ".join(board.split_label(x)[1] for x in labels)
        events = [Event(f"{self._who(p)} knocked over their own {own} by other "
                        f"means: +{rules.OTHER_MEANS * len(labels)} to {self.name(p)}. "
                        + self._damage_text(), "oops",
                        data={"seat": p, "spots": labels,
                              "added": rules.OTHER_MEANS * len(labels)})]
        loser = rules.loser(self.floor, p)
        if loser is not None:
            events.append(self.finish([1 - loser], self._loss_reason(loser), Ending.KNOCKOUT))
        return events

    def _do_mode(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 1 or args[0].lower() not in MODES:
            raise InvalidMoveError("Write `mode simulated` or `mode physical`.")
        want = args[0].lower()
        self._phase_is(p, ("flick",), "Proposing a mode switch")
        f = self._flick()
        if want == self.flick_mode():
            raise self._refuse(p, f"This flick is already {want}.")
        if f["proposed"]:
            raise self._refuse(p, "You already proposed a mode switch for this flick.")
        if f["marks"]:
            raise self._refuse(p, "Finish the report of this flick first.")
        f["proposed"] = True
        f["proposal"] = want
        self.phase = "switch"
        how = "by the referee's roll" if want == "simulated" else "with a real die"
        return [Event(f"{self._who(p)} proposes to resolve this flick {how}: "
                      f"{self._who(1 - p)} may agree or refuse.", "mode_proposal",
                      data={"seat": p, "mode": want})]

    def _do_agree(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("switch",), "Agreeing to a mode switch")
        if args:
            raise InvalidMoveError("Write just `agree`.")
        f = self._flick()
        f["mode"] = f["proposal"]
        f["proposal"] = None
        self.phase = "flick"
        if f["mode"] == "simulated" and f["called"]:
            self._aim_at(f, f["called"])  # the Called Shot is the simulated flick's target
        return [Event(f"Agreed: this flick is {f['mode']}.", "mode_switch",
                      data={"mode": f["mode"]})]

    def _do_refuse(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("switch",), "Refusing a mode switch")
        if args:
            raise InvalidMoveError("Write just `refuse`.")
        f = self._flick()
        f["proposal"] = None
        self.phase = "flick"
        return [Event(f"Refused: this flick stays {self.flick_mode()}.", "mode_refused")]

    def _enemy_label(self, p: int, token: str) -> tuple[int, str]:
        """A spot you flick at: bare = your opponent's side."""
        side, spot = board.parse_spot(token)
        return (1 - p if side is None else side), spot

    def _do_called(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 1:
            raise InvalidMoveError("Write `called F2`: the enemy banner your flick will hit.")
        seat, spot = self._enemy_label(p, args[0])
        self._phase_is(p, ("flick",), "A Called Shot")
        f = self._flick()
        if f["called"] is not None:
            raise self._refuse(p, "This flick is already a Called Shot at "
                                  f"{self._spot(f['called'])}.")
        if f["marks"]:
            raise self._refuse(p, "Call your shot before the flick, not while reporting it.")
        lab = board.label(seat, spot)
        if seat == p or spot in board.CUSTOMER_SPOTS or rules.holds(self.side(seat), spot) == 0:
            raise self._refuse(p, f"A Called Shot names a standing banner of your rival's; "
                                  f"{spot} on {self.name(seat)}'s side is not one "
                                  f"({self._side_summary(1 - p)}).")
        f["called"] = lab
        events = [Event(f"{self._who(p)} calls the shot: {self._spot(lab)}.", "called",
                        data={"seat": p, "spot": lab})]
        if self.flick_mode() == "simulated":
            self._aim_at(f, lab)
            odds = self.odds(lab, True)
            events[0] = Event(events[0].text + " Chances: "
                              + "; ".join(odds_words(odds, spot)) + ".", "called",
                              data={"seat": p, "spot": lab, "odds": odds})
        return events

    def _do_aim(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 1:
            raise InvalidMoveError("Write `aim F2` (an enemy spot) or `aim middle`.")
        if args[0].lower() == "middle":
            lab = "middle"
        else:
            seat, spot = self._enemy_label(p, args[0])
            lab = board.label(seat, spot)
            if seat == p:
                raise self._refuse(p, "Aim at your opponent's side of the floor.")
        self._phase_is(p, ("flick",), "Aiming a flick")
        if self.flick_mode() != "simulated":
            raise self._refuse(p, "`aim` is for simulated flicks; flick your real die and "
                                  "report it with " + notation.REPORT_FORM + ".")
        if lab not in self.aim_targets():
            raise self._refuse(p, f"You cannot aim at {self._spot(lab)}: aim at an enemy banner spot "
                                  "(F1-F3, B1-B3), their Stand while it carries Super Sale "
                                  "Banners, or `middle`.")
        f = self._flick()
        self._aim_at(f, lab)
        odds = self.odds(lab, False)
        where = "the middle" if lab == "middle" else self._spot(lab)
        words = odds_words(odds, "the target" if lab == "middle" else board.split_label(lab)[1])
        return [Event(f"{self._who(p)} flicks at {where}. Chances: {'; '.join(words)}.", "aim",
                      data={"seat": p, "target": lab, "odds": odds})]

    def _check_fallen(self, p: int, pairs: list[tuple[int | None, str]],
                      already: list[str]) -> list[str]:
        """Labels of what fell, checked against the floor: each must stand there now."""
        labels: list[str] = []
        for side, spot in pairs:
            seat = 1 - p if side is None else side
            lab = board.label(seat, spot)
            have = rules.holds(self.side(seat), spot)
            used = labels.count(lab) + already.count(lab)
            if have == 0:
                raise self._refuse(p, f"Nothing stands on {spot} of {self.name(seat)}'s side "
                                      "to fall "
                                      f"({self._side_summary(seat)}).")
            if used >= have:
                raise self._refuse(p, f"{spot} of {self.name(seat)}'s side is named more often "
                                      "than things stand there.")
            labels.append(lab)
        return labels

    def _do_mark(self, p: int, args: list[str]) -> list[Event]:
        if len(args) != 1:
            raise InvalidMoveError("Write `mark F2` (one spot whose banner or customer fell; "
                                   "your own as P1:F1), then `result 4`.")
        pairs = notation.spot_list(args[0])
        self._phase_is(p, ("flick",), "Marking what fell")
        if self.flick_mode() != "physical":
            raise self._refuse(p, "Marking what fell is for physical flicks.")
        f = self._flick()
        f["marks"] += self._check_fallen(p, pairs, f["marks"])
        return [Event(f"Marked as fallen: {self._spots(f['marks'])}.", "marks", to=(p,),
                      data={"marks": list(f["marks"])})]

    def _do_result(self, p: int, args: list[str]) -> list[Event]:
        rep = notation.report(args)
        t = self.t
        if self.phase in ("reposition", "customers") and t["declared"] is not None:
            raise self._refuse(p, f"You declared {plural(t['declared'], 'flick')} this turn "
                                  "and all are resolved: no more flicks.")
        if self.phase == "move":
            raise self._refuse(p, "Declare your flicks first.")
        self._phase_is(p, ("flick",), "Reporting a flick")
        if self.flick_mode() != "physical":
            raise self._refuse(p, "This flick is simulated: the referee rolls it.")
        if not 1 <= rep["value"] <= 6:
            raise self._refuse(p, f"A die shows 1 to 6, not {rep['value']}.")
        f = self._flick()
        if rep["off"]:
            fell: list[str] = []
        else:
            fell = (self._check_fallen(p, rep["hit"], []) if rep["hit"] is not None
                    else list(f["marks"]))
            if rep["customers"]:
                fell += self._count_customers(p, rep["customers"], fell)
        f["marks"] = []
        report = {"value": rep["value"], "off": rep["off"], "fell": fell}
        desc = (f"{self._who(p)} reports flick {t['resolved'] + 1} of {t['declared']}: rolled "
                f"{rep['value']}" + (", off the floor" if rep["off"] else
                                     (", fell: " + self._spots(fell) if fell else ", nothing fell"))
                + (f" (Called Shot at {self._spot(f['called'])})" if f["called"] else "") + ".")
        if f["disputed"]:
            return [Event(desc + " (The reflick cannot be disputed.)", "report",
                          data=dict(report))] + self._resolve(report)
        f["report"] = report
        self.phase = "review"
        return [Event(desc + f" {self._who(1 - p)} may accept it or dispute it within "
                      f"{RESPONSE_SECONDS} seconds.", "report", data=dict(report))]

    def _count_customers(self, p: int, n: int, named: list[str]) -> list[str]:
        cands = [board.label(s, c) for s in (1 - p, p) for c in board.CUSTOMER_SPOTS
                 if c in self.side(s)["customers"] and board.label(s, c) not in named]
        if n > len(cands):
            raise self._refuse(p, f"Only {plural(len(cands), 'more customer')} on the floor, "
                                  f"not {n}.")
        if n < len(cands):
            raise AmbiguousMoveError(
                f"`customers={n}` could mean any {n} of {', '.join(cands)}: name them in "
                "`hit=`, e.g. hit=F2," + cands[0].split(':')[1] + ".")
        return cands

    def _do_accept(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("review",), "Accepting a report")
        if args:
            raise InvalidMoveError("Write just `accept`.")
        report = self._flick()["report"]
        self._flick()["report"] = None
        self.phase = "flick"
        return [Event(f"{self._who(p)} accepts the report.", "accept")] + self._resolve(report)

    def _do_dispute(self, p: int, args: list[str]) -> list[Event]:
        self._phase_is(p, ("review",), "Disputing a report")
        if args:
            raise InvalidMoveError("Write just `dispute`.")
        f = self._flick()
        f["report"] = None
        f["disputed"] = True
        f["marks"] = []
        self.phase = "flick"
        return [Event(f"{self._who(p)} disputes the report: the flick is taken back. Stand "
                      f"everything back up as it was; {self._who(1 - p)} flicks again "
                      "(this reflick cannot be disputed).", "dispute", data={"seat": p})]
