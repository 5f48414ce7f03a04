"""Phase 3: power up (in turn order), then Phase 4: clean up & the first player.

Seed: "PHASE 3 POWER UP", "PHASE 4 CLEAN UP", "ADDITIONAL NOTES"; rulings: "Rulings on the
round", "Faces and dice", "Super boards", "2 vs 2". Each player in turn order does all their
Power Up actions in the order they like, each with its choice (`grow purple`, `poweron X`,
...), may freely move faces between their action dice and their unattached faces (`attach`,
`detach`), takes a pending SUCKER PUNCH / FACE OFF / TYRANT loss when they choose (`take`),
and ends with `done`. Whatever loss was not taken applies at the end of the phase.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Ending, Event, IllegalMoveError, InvalidMoveError, parse_seat
from .data import (ABILITY_TEXT, ACTION_SLOTS, ACTION_TABLE, ALL_ACTIONS, COLOURS, DUO_TABLE,
                   FACE_NAMES, NON_WILD, ROUND_LIMIT, SPOILER_CAP, SUPER_TABLE, Action)
from .dice import add_face, num
from .notation import colour as parse_colour, die_id, face as parse_face, verb as verb_of

if TYPE_CHECKING:
    from .game import Kaploom

# Effects a player resolves with a move in Power Up; the others (SUCKER PUNCH, FACE OFF,
# Duo kickers, HAND-OFF, REVIVE) act by themselves.
RESOLVED = ("gain_trait_die", "gain_action_die", "gain_face", "trade_face", "heal",
            "gain_spoiler", "lock_in")
VERBS = tuple(sorted({verb_of(a) for a in ACTION_TABLE + SUPER_TABLE + DUO_TABLE
                      if a.effect in RESOLVED}))


# --- the phase ------------------------------------------------------------------------------

def begin(g: "Kaploom") -> list[Event]:
    g.stage = "power"
    order = ", ".join(g.name(s) for s in g.order if g.living(s))
    events = [Event(f"Round {g.round}, Phase 3: Power Up, in turn order ({order}).", "phase",
                    data={"round": g.round, "phase": 3, "order": g.order})]
    for s in range(g.players):
        p = g.seats[s]
        p["fired"] = []
        p["todo"] = ([a.name for a in g.placed_here(s) if a.effect in RESOLVED]
                     if g.living(s) else [])
    for t, board in enumerate(g.duo):
        for name, place in board.items():
            action = ALL_ACTIONS[name]
            if action.effect in RESOLVED:
                place["open"] = True
            if action.effect == "revive":
                for s in range(g.players):
                    if g.seats[s]["team"] == t and g.seats[s]["ko"]:
                        events += _revive(g, s, action)
    g.turn = 0
    return events + _next_turn(g)


def _revive(g: "Kaploom", seat: int, action: Action) -> list[Event]:
    p = g.seats[seat]
    p["ko"] = False
    p["health"] = min(p["max"], action.amount)
    p["pending"] = []
    return [Event(f"REVIVE! {g.who(seat)} rejoins the game with {p['health']} health.",
                  "revive", data={"seat": seat, "health": p["health"]})]


def _next_turn(g: "Kaploom") -> list[Event]:
    """Skip players who are knocked out; after the last player, end the phase."""
    while g.turn < len(g.order) and not g.living(g.order[g.turn]):
        g.turn += 1
    if g.turn >= len(g.order):
        return end(g)
    s = g.order[g.turn]
    todo = g.seats[s]["todo"] + [n for n in _open_duo(g, s)]
    return [Event(f"{g.who(s)} powers up" + (f": {', '.join(todo)}." if todo else "."),
                  "turn", data={"seat": s, "todo": todo})]


def end(g: "Kaploom") -> list[Event]:
    """End of Power Up: untaken losses apply together; then Phase 4."""
    events: list[Event] = []
    hit = []
    for s in range(g.players):
        p = g.seats[s]
        if p["pending"] and g.living(s):
            amount = sum(x["amount"] for x in p["pending"])
            why = ", ".join(x["source"] for x in p["pending"])
            before = p["health"]
            p["health"] -= amount
            p["hurt"] = True
            p["pending"] = []
            events.append(Event(f"End of Power Up: {g.who(s, cap=False)} loses {amount} "
                                f"health ({why}): {before} → {p['health']}.", "loss",
                                data={"seat": s, "before": before, "after": p["health"],
                                      "amount": amount, "why": why}))
            if p["health"] <= 0:
                hit.append(s)
    if hit:
        events += g.knock_out(hit)
    if g.result is not None:
        return events
    return events + clean_up(g)


def clean_up(g: "Kaploom") -> list[Event]:
    """Phase 4: clear the boards; the lowest health becomes first player (equal: the first
    player keeps the token); the round limit (our ruling) ends the game."""
    events: list[Event] = []
    for t, board in enumerate(g.duo):
        for place in board.values():
            for d in place["dice"]:
                owner = g.dice[d]["owner"]
                ally = g.ally_of(owner)
                if g.seats[owner]["ko"] and ally is not None and g.living(ally):
                    g.dice[d]["owner"] = ally
                    events.append(Event(f"{d} leaves the Duo board for "
                                        f"{g.who(ally, cap=False)} (its owner is knocked out).",
                                        "give", data={"die": d, "to": ally}))
        board.clear()
    for p in g.seats:
        p.update(board={}, locked=False, pointer=None, announced=[], todo=[], pending=[],
                 fired=[], hurt=False, loop_used=False)
    for die in g.dice.values():
        die["up"] = None
    if g.duel:
        a, b = g.first, 1 - g.first
        if g.seats[b]["health"] < g.seats[a]["health"]:
            g.first = b
    else:
        g.first = next(s for s in g.turn_order() if g.living(s))
    events.append(Event(f"Round {g.round}, Phase 4: {g.who(g.first, cap=False)} is first "
                        f"player (health " + ", ".join(
                            f"{g.name(s)} {g.seats[s]['health']}" for s in range(g.players))
                        + ").", "first", data={"first": g.first, "round": g.round}))
    if g.round >= ROUND_LIMIT:
        return events + [_round_limit(g)]
    g.round += 1
    g.stage = "roll"
    g.order = g.turn_order()
    g.turn = 0
    return events


def _round_limit(g: "Kaploom") -> Event:
    """Our ruling: after round 30 the higher health wins (2 vs 2: more players standing,
    then more health in total); equal is a draw."""
    teams = sorted({p["team"] for p in g.seats})

    def score(t: int) -> tuple[int, int]:
        members = [p for p in g.seats if p["team"] == t]
        return (sum(1 for p in members if not p["ko"]),
                sum(max(0, p["health"]) for p in members))

    best = max(score(t) for t in teams)
    top = [t for t in teams if score(t) == best]
    reason = f"the round limit ({ROUND_LIMIT} rounds) is reached"
    if len(top) > 1:
        return g.finish([], reason + " with equal health", Ending.ROUND_LIMIT)
    return g.finish([s for s in range(g.players) if g.seats[s]["team"] == top[0]],
                    reason + "; more health wins", Ending.ROUND_LIMIT)


# --- moves ----------------------------------------------------------------------------------

def _controller(g: "Kaploom", place: dict[str, Any]) -> int | None:
    """Who decides for a Duo action: the player who placed it, or their ally when they are
    knocked out."""
    by = place["by"]
    if g.living(by):
        return by
    ally = g.ally_of(by)
    return ally if ally is not None and g.living(ally) else None


def _open_duo(g: "Kaploom", seat: int) -> list[str]:
    if g.duel:
        return []
    board = g.duo[g.seats[seat]["team"]]
    return [n for n, place in board.items() if place.get("open") and _controller(g, place) == seat]


def _duo_dice(g: "Kaploom", seat: int) -> list[str]:
    """Duo dice this player decides about in Power Up."""
    if g.duel:
        return []
    board = g.duo[g.seats[seat]["team"]]
    return sorted((d for place in board.values() if _controller(g, place) == seat
                   for d in place["dice"]), key=num)


def apply(g: "Kaploom", seat: int, verb: str, args: list[str]) -> list[Event]:
    p = g.seats[seat]
    if verb == "done":
        if args:
            raise InvalidMoveError("Write just `done`.")
        events = []
        left = p["todo"] + _open_duo(g, seat)
        if left:
            events.append(Event(f"{g.who(seat)} leaves {', '.join(left)} unused.", "unused",
                                data={"seat": seat, "actions": left}))
        p["todo"] = []
        for n in _open_duo(g, seat):
            g.duo[p["team"]][n]["open"] = False
        events.append(Event(f"{g.who(seat)} is done powering up.", "done",
                            data={"seat": seat}))
        g.turn += 1
        return events + _next_turn(g)
    if verb == "take":
        if args:
            raise InvalidMoveError("Write just `take`.")
        if not p["pending"]:
            raise IllegalMoveError("You have no SUCKER PUNCH, FACE OFF or TYRANT loss to take.")
        amount = sum(x["amount"] for x in p["pending"])
        why = ", ".join(x["source"] for x in p["pending"])
        p["pending"] = []
        events = g.lose(seat, amount, why + ", taken now")
        if g.result is None and not g.living(seat):
            g.turn += 1
            events += _next_turn(g)
        return events
    if verb in ("attach", "detach"):
        return _move_face(g, seat, verb, args)
    if verb == "give":
        return _give(g, seat, args)
    return _resolve(g, seat, verb, args)


def _move_face(g: "Kaploom", seat: int, verb: str, args: list[str]) -> list[Event]:
    if len(args) != 2:
        raise InvalidMoveError(f"Write `{verb} d6 M`: an action die of yours and a face.")
    d, f = die_id(args[0]), parse_face(args[1])
    die = g.dice.get(d)
    p = g.seats[seat]
    if die is None or die["owner"] != seat or die["kind"] != "action":
        mine = [x for x in g.dice_of(seat) if g.dice[x]["kind"] == "action"]
        raise IllegalMoveError(f"{d} is not one of your action dice ({', '.join(mine)}).")
    if verb == "attach":
        if f not in p["unattached"]:
            raise IllegalMoveError(f"You have no unattached {FACE_NAMES[f]} face "
                                   f"(unattached: {' '.join(p['unattached']) or 'none'}).")
        if len(die["faces"]) >= ACTION_SLOTS:
            raise IllegalMoveError(f"{d} has no blank slot left; `detach` a face first.")
        p["unattached"].remove(f)
        add_face(die["faces"], f)
    else:
        if f not in die["faces"]:
            raise IllegalMoveError(f"{d} has no {FACE_NAMES[f]} face "
                                   f"(faces: {' '.join(die['faces']) or 'none'}).")
        die["faces"].remove(f)
        add_face(p["unattached"], f)
    return [Event(f"{g.who(seat)} {verb}es {FACE_NAMES[f]} {'to' if verb == 'attach' else 'from'}"
                  f" {d} (now [{' '.join(die['faces'])}]).", verb,
                  data={"seat": seat, "die": d, "face": f})]


def _give(g: "Kaploom", seat: int, args: list[str]) -> list[Event]:
    if g.duel:
        raise IllegalMoveError("Only dice on the Duo board (2 vs 2) can go to an ally.")
    if len(args) != 2:
        raise InvalidMoveError("Write `give d3 @2`: a die from the Duo board, and the ally "
                               "who gets it.")
    d, to = die_id(args[0]), parse_seat(args[1], g.players)
    if d not in _duo_dice(g, seat):
        raise IllegalMoveError(f"{d} is not a Duo board die you decide about "
                               f"({', '.join(_duo_dice(g, seat)) or 'none'}).")
    if to not in g.team_of(seat) or not g.living(to):
        raise IllegalMoveError("A Duo die goes to a standing member of your team.")
    if g.dice[d]["owner"] == to:
        raise IllegalMoveError(f"{d} already belongs to {g.who(to, cap=False)}.")
    g.dice[d]["owner"] = to
    return [Event(f"{g.who(seat)} gives {d} to {g.who(to, cap=False)}.", "give",
                  data={"die": d, "to": to})]


def _find(g: "Kaploom", seat: int, verb: str) -> tuple[Action, dict[str, Any] | None]:
    p = g.seats[seat]
    for name in p["todo"]:
        if verb_of(ALL_ACTIONS[name]) == verb:
            return ALL_ACTIONS[name], None
    for name in _open_duo(g, seat):
        if verb_of(ALL_ACTIONS[name]) == verb:
            return ALL_ACTIONS[name], g.duo[p["team"]][name]
    names = [a.name for a in ALL_ACTIONS.values() if verb_of(a) == verb]
    todo = p["todo"] + _open_duo(g, seat)
    raise IllegalMoveError(
        f"You have no {names[0] if names else verb} to use this round"
        + (f"; still to use: {', '.join(todo)}." if todo else "; `done` ends your Power Up."))


def payable(g: "Kaploom", action: Action) -> int:
    """How many of the faces this action gains the pool can still pay."""
    faces = g.pool["faces"]
    if action.face is not None:
        return min(action.amount, faces[action.face])
    plain = sum(faces[f] for f in NON_WILD)
    return min(action.amount, plain + min(action.wilds, faces["W"]))


def _chosen_faces(g: "Kaploom", action: Action, args: list[str]) -> list[str]:
    if action.face is not None:
        if args:
            raise InvalidMoveError(f"{action.name} gains a {FACE_NAMES[action.face]} face; "
                                   f"write just `{verb_of(action)}`.")
        return [action.face] if g.pool["faces"][action.face] > 0 else []
    need = payable(g, action)
    picks = [parse_face(a) for a in args]
    example = " ".join(["X", "W"][:action.amount]) if action.wilds else "X"
    if len(picks) != need:
        short = (f" (the pool can pay only {need})" if need < action.amount else "")
        raise InvalidMoveError(f"{action.name} gains {need} face{'s' if need != 1 else ''} "
                               f"you choose{short}: write `{verb_of(action)} {example}`."
                               if need else f"The pool has no faces left: write just "
                                            f"`{verb_of(action)}`.")
    if picks.count("W") > action.wilds:
        raise IllegalMoveError(f"{action.name} takes " + (
            "no Wild face" if not action.wilds else f"at most {action.wilds} Wild face") + ".")
    for f in set(picks):
        if g.pool["faces"][f] < picks.count(f):
            raise IllegalMoveError(f"The pool has {g.pool['faces'][f]} {FACE_NAMES[f]} "
                                   f"face(s) left. {_pool_faces(g)}")
    return picks


def _pool_faces(g: "Kaploom") -> str:
    return "Pool faces: " + ", ".join(f"{f} {n}" for f, n in g.pool["faces"].items()) + "."


def _resolve(g: "Kaploom", seat: int, verb: str, args: list[str]) -> list[Event]:
    action, place = _find(g, seat, verb)
    p = g.seats[seat]
    eff = action.effect
    events: list[Event]
    if eff == "gain_trait_die":
        to = seat
        rest = []
        for a in args:
            if a.startswith("@"):
                to = parse_seat(a, g.players)
            else:
                rest.append(a)
        if place is not None and (to not in g.team_of(seat) or not g.living(to)):
            raise IllegalMoveError(f"{action.name} gains a die for a standing member of your "
                                   f"team.")
        if place is None and to != seat:
            raise InvalidMoveError(f"{action.name} gains a die for you: write "
                                   f"`{verb} purple`.")
        if len(rest) != 1:
            raise InvalidMoveError(f"Name a colour: `{verb} "
                                   + ("@2 " if place is not None else "") + "purple`.")
        colour = parse_colour(rest[0])
        if sum(g.pool["trait"].values()) == 0:
            raise IllegalMoveError(f"The pool has no trait dice left: {action.name} gains "
                                   f"nothing.")
        if g.pool["trait"][colour] == 0:
            have = [c for c in COLOURS if g.pool["trait"][c]]
            raise IllegalMoveError(f"The pool has no {colour} trait dice left; it has "
                                   f"{', '.join(have)}.")
        events = g.gain_trait(to, colour, action.name)
    elif eff == "gain_action_die":
        faces = _chosen_faces(g, action, args)
        if not faces and g.pool["action"] == 0:
            raise IllegalMoveError(f"The pool has no action dice and no faces for "
                                   f"{action.name}: it gains nothing.")
        events = g.gain_faces(seat, faces, True, action.name)
    elif eff == "gain_face":
        if action.condition == "hurt" and not p["hurt"]:
            raise IllegalMoveError(f"{action.name} needs you to have lost health this round.")
        faces = _chosen_faces(g, action, args)
        if not faces:
            raise IllegalMoveError(f"The pool has no face for {action.name}. {_pool_faces(g)}")
        events = g.gain_faces(seat, faces, False, action.name)
    elif eff == "trade_face":
        events = _trade(g, seat, action, args)
    else:
        if args:
            raise InvalidMoveError(f"Write just `{verb}`.")
        if eff == "heal":
            events = [g.heal(seat, action.amount, action.name)]
        elif eff == "gain_spoiler":
            if p["spoilers"] >= SPOILER_CAP:
                raise IllegalMoveError(f"You already hold {SPOILER_CAP} spoiler tokens, the "
                                       f"most you may.")
            p["spoilers"] = min(SPOILER_CAP, p["spoilers"] + action.amount)
            events = [Event(f"{g.who(seat)} gains a spoiler token ({p['spoilers']} held).",
                            "spoilers", data={"seat": seat, "spoilers": p["spoilers"]})]
        elif eff == "lock_in":
            p["locked_in"].append(action.name)
            events = [Event(f"{g.who(seat)} locks in {action.name}: "
                            f"{ABILITY_TEXT[action.ability or '']}.", "lock_in",
                            data={"seat": seat, "ability": action.name})]
        else:  # pragma: no cover - RESOLVED lists exactly the kinds above
            raise IllegalMoveError(f"{action.name} needs no move.")
    if place is None:
        if action.name in p["todo"]:
            p["todo"].remove(action.name)
    else:
        place["open"] = False
    return events


def _owned_plain_faces(g: "Kaploom", seat: int) -> list[str]:
    out = [f for f in g.seats[seat]["unattached"] if f != "W"]
    for d in g.dice_of(seat):
        if g.dice[d]["kind"] == "action":
            out += [f for f in g.dice[d]["faces"] if f != "W"]
    return out


def _trade(g: "Kaploom", seat: int, action: Action, args: list[str]) -> list[Event]:
    v = verb_of(action)
    if len(args) != 2:
        raise InvalidMoveError(f"Write `{v} M X`: a non-Wild face of yours, then the "
                               f"different non-Wild face you take.")
    give, take = parse_face(args[0]), parse_face(args[1])
    if "W" in (give, take):
        raise IllegalMoveError(f"{action.name} trades non-Wild faces only.")
    if give == take:
        raise IllegalMoveError(f"{action.name} takes a different face than the one you return.")
    if give not in _owned_plain_faces(g, seat):
        raise IllegalMoveError(f"You have no {FACE_NAMES[give]} face to return.")
    if g.pool["faces"][take] == 0:
        raise IllegalMoveError(f"The pool has no {FACE_NAMES[take]} face left. "
                               f"{_pool_faces(g)}")
    p = g.seats[seat]
    # an unattached face goes back first; otherwise the first action die holding one
    if give in p["unattached"]:
        p["unattached"].remove(give)
        src = "unattached"
    else:
        d = next(d for d in g.dice_of(seat)
                 if g.dice[d]["kind"] == "action" and give in g.dice[d]["faces"])
        g.dice[d]["faces"].remove(give)
        src = d
    g.pool["faces"][give] += 1
    return [Event(f"{g.who(seat)} returns a {FACE_NAMES[give]} face ({src}) to the pool.",
                  "trade", data={"seat": seat, "face": give})] + g.gain_faces(
        seat, [take], False, action.name)


# --- legal moves ------------------------------------------------------------------------------

def _choices(g: "Kaploom", seat: int, action: Action, place: dict[str, Any] | None) -> list[str]:
    v = verb_of(action)
    p = g.seats[seat]
    eff = action.effect
    if eff == "gain_trait_die":
        colours = [c for c in COLOURS if g.pool["trait"][c] > 0]
        if place is None:
            return [f"{v} {c}" for c in colours]
        return [f"{v} @{s + 1} {c}" for s in g.team_of(seat) if g.living(s) for c in colours]
    if eff in ("gain_action_die", "gain_face"):
        if eff == "gain_face" and action.condition == "hurt" and not p["hurt"]:
            return []
        if action.face is not None:
            ok = g.pool["faces"][action.face] > 0 or (eff == "gain_action_die"
                                                      and g.pool["action"] > 0)
            return [v] if ok else []
        need = payable(g, action)
        if need == 0:
            return [v] if eff == "gain_action_die" and g.pool["action"] > 0 else []
        kinds = [f for f in NON_WILD if g.pool["faces"][f] > 0]
        if action.wilds and g.pool["faces"]["W"] > 0:
            kinds.append("W")
        picks: set[tuple[str, ...]] = set()

        def rec(start: int, chosen: list[str]) -> None:
            if len(chosen) == need:
                picks.add(tuple(chosen))
                return
            for i in range(start, len(kinds)):
                f = kinds[i]
                if chosen.count(f) >= g.pool["faces"][f]:
                    continue
                if f == "W" and chosen.count("W") >= action.wilds:
                    continue
                rec(i, chosen + [f])

        rec(0, [])
        rec = None  # type: ignore[assignment]  # frees the self-referring closure without the GC
        return [f"{v} {' '.join(c)}" for c in sorted(picks)]
    if eff == "trade_face":
        mine = sorted(set(_owned_plain_faces(g, seat)), key="METAX".index)
        return [f"{v} {a} {b}" for a in mine for b in NON_WILD
                if b != a and g.pool["faces"][b] > 0]
    if eff == "gain_spoiler":
        return [v] if p["spoilers"] < SPOILER_CAP else []
    return [v]   # heal, lock_in


def legal(g: "Kaploom", seat: int) -> list[str]:
    p = g.seats[seat]
    moves: list[str] = []
    if p["pending"]:
        moves.append("take")
    for name in p["todo"]:
        moves += _choices(g, seat, ALL_ACTIONS[name], None)
    for name in _open_duo(g, seat):
        moves += _choices(g, seat, ALL_ACTIONS[name], g.duo[p["team"]][name])
    for d in g.dice_of(seat):
        die = g.dice[d]
        if die["kind"] != "action":
            continue
        if len(die["faces"]) < ACTION_SLOTS:
            moves += [f"attach {d} {f}" for f in dict.fromkeys(p["unattached"])]
        moves += [f"detach {d} {f}" for f in dict.fromkeys(die["faces"])]
    for d in _duo_dice(g, seat):
        moves += [f"give {d} @{s + 1}" for s in g.team_of(seat)
                  if g.living(s) and g.dice[d]["owner"] != s]
    moves.append("done")
    return moves

