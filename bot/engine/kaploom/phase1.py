"""Phase 1: roll & initiate actions (simultaneous, secret).

Seed: "PHASE 1 ROLL & INITIATE ACTIONS"; rulings: "Requirement symbols", "Rulings on the
round", "2 vs 2". Every player rolls behind their screen (one chance draw for all dice), then
assigns dice to actions in secret. Immediate actions (TIME JUMP, QUICK FIX, PAUSE, and the TIME
LOOP ability) resolve at once and are announced by name only; their dice cannot move again.
A player locks in when done; the reveal waits for everyone. In 2 vs 2 each player also points
at the opponent they attack, and may feed the Duo board with their own and their ally's dice.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

from ..core import Event, IllegalMoveError, InvalidMoveError, parse_seat
from . import phase2
from .data import ALL_ACTIONS, DUO_TABLE, FACE_NAMES, Action, board_actions
from .dice import describe, in_order, signature
from .notation import action_named, die_id, is_die
from .requirements import DIE_FACES, SYMBOLS, accepts, match, search

if TYPE_CHECKING:
    from .game import Kaploom

IMMEDIATE_VERB = {"timejump": "TIME JUMP", "quickfix": "QUICK FIX", "pause": "PAUSE"}


# --- chance -------------------------------------------------------------------------------------

def rolled(g: "Kaploom", tokens: list[str]) -> list[Event]:
    i = 0
    for s in range(g.players):
        for d in g.dice_of(s):
            g.dice[d]["up"] = tokens[i]
            i += 1
    g.stage = "assign"
    events = [Event(f"Round {g.round}, Phase 1: everyone rolls behind their screen and assigns "
                    f"dice in secret.", "phase", data={"round": g.round, "phase": 1})]
    for s in range(g.players):
        dice = ", ".join(describe(d, g.dice[d]) for d in g.dice_of(s))
        events.append(Event(f"{g.who(s)} rolled: {dice}.", "roll", to=g.team_of(s),
                            data={"seat": s, "faces": {d: g.dice[d]["up"] for d in g.dice_of(s)}}))
    return events


def rerolled(g: "Kaploom", tokens: list[str]) -> list[Event]:
    seat = g.reroll_by
    assert seat is not None
    parts = []
    for d, face in zip(g.rerolls, tokens):
        before = g.dice[d]["up"]
        g.dice[d]["up"] = face
        parts.append(f"{d} {FACE_NAMES[before]} → {FACE_NAMES[face]}")
    g.rerolls = []
    g.reroll_by = None
    return [Event(f"{g.who(seat)} re-rolled: {', '.join(parts)}.", "reroll",
                  to=g.team_of(seat), data={"seat": seat})]


# --- moves --------------------------------------------------------------------------------------

def apply(g: "Kaploom", seat: int, verb: str, args: list[str]) -> list[Event]:
    if verb == "assign":
        return _assign(g, seat, args)
    if verb in IMMEDIATE_VERB:
        return _immediate(g, seat, ALL_ACTIONS[IMMEDIATE_VERB[verb]], args)
    if verb == "timeloop":
        return _time_loop(g, seat, args)
    if verb == "unassign":
        return _unassign(g, seat, args)
    if verb == "point":
        return _point(g, seat, args)
    if verb == "lock":
        if args:
            raise InvalidMoveError("Write just `lock`.")
        return _lock(g, seat)
    raise InvalidMoveError(f"`{verb}` is not a Phase 1 move.")


def _split_name(args: list[str], form: str) -> tuple[Action, list[str]]:
    k = 0
    while k < len(args) and not is_die(args[k]) and not args[k].startswith("@"):
        k += 1
    if k == 0:
        raise InvalidMoveError(f"Name the action: {form}.")
    action = action_named(args[:k])
    if action is None:
        raise InvalidMoveError(f"There is no action called {' '.join(args[:k])!r}. {form}.")
    return action, args[k:]


def _check_action(g: "Kaploom", seat: int, action: Action) -> None:
    p = g.seats[seat]
    if action.board == "duo":
        if g.duel:
            raise IllegalMoveError(f"{action.name} is on the Duo board, which is only played "
                                   f"in 2 vs 2.")
        if action.name in g.duo[p["team"]]:
            raise IllegalMoveError(f"{action.name} already has dice on your Duo board this "
                                   f"round (each action once a round); `unassign "
                                   f"{action.name}` first.")
        return
    if action not in g.actions_of(seat):
        raise IllegalMoveError(f"{action.name} is on the {action.board} board, not yours.")
    if p["ko"]:
        raise IllegalMoveError("You are knocked out: you may only place dice on the Duo board.")
    if action.name in p["board"]:
        raise IllegalMoveError(f"{action.name} already has dice this round (each action once "
                               f"a round)" + ("." if action.immediate else
                                              f"; `unassign {action.name}` first."))
    if action.lock_in and action.name in p["locked_in"]:
        raise IllegalMoveError(f"{action.name} is already locked in (once a game).")


def _where(g: "Kaploom", d: str) -> str:
    for p in g.seats:
        for name, place in p["board"].items():
            if d in place["dice"]:
                return name
    for board in g.duo:
        for name, place in board.items():
            if d in place["dice"]:
                return name + " (Duo board)"
    return "an action"


def _check_dice(g: "Kaploom", seat: int, ids: list[str], duo: bool) -> None:
    placed = g.placed_dice()
    team = g.team_of(seat)
    for d in ids:
        die = g.dice.get(d)
        if die is None:
            raise IllegalMoveError(f"There is no die {d}. Your dice: "
                                   f"{', '.join(g.dice_of(seat))}.")
        owner = die["owner"]
        if owner != seat and not (duo and owner in team):
            raise IllegalMoveError(
                f"{d} is not your die" + (" or your ally's." if duo else ".")
                + f" Your dice: {', '.join(g.dice_of(seat))}.")
        if owner != seat and g.seats[owner]["locked"]:
            raise IllegalMoveError(f"{d} belongs to {g.who(owner, cap=False)}, who has locked "
                                   f"in: their dice can no longer move.")
        if d in placed:
            raise IllegalMoveError(f"{d} is already on {_where(g, d)}: a die serves one "
                                   f"requirement of one action.")
    if len(set(ids)) != len(ids):
        raise IllegalMoveError("Name each die once: a die serves one requirement of one action.")


def _fit(g: "Kaploom", action: Action, ids: list[str]) -> None:
    dice = [(d, g.dice[d]["kind"], g.dice[d]["up"]) for d in ids]
    fit = match(action.name, action.requires, dice)
    if not fit.ok:
        raise IllegalMoveError(fit.reason)
    if action.one_each and len({g.dice[d]["owner"] for d in ids}) < 2:
        raise IllegalMoveError(f"{action.name} takes one die from each ally.")


def _faces_text(g: "Kaploom", ids: list[str]) -> str:
    return ", ".join(f"{d} ({FACE_NAMES[g.dice[d]['up']]})" for d in ids)


def _assign(g: "Kaploom", seat: int, args: list[str]) -> list[Event]:
    form = "write `assign POW d2 d4`: the action's name, then your dice by id"
    action, rest = _split_name(args, form)
    if action.immediate:
        return _immediate(g, seat, action, rest)
    ally = None
    if rest and rest[-1].startswith("@"):
        if not action.names_ally:
            raise InvalidMoveError(f"{action.name} does not name a player; {form}.")
        ally = parse_seat(rest[-1], g.players)
        rest = rest[:-1]
    ids = [die_id(t) for t in rest]
    if not ids:
        raise InvalidMoveError(f"Name the dice for {action.name}: {form}.")
    _check_action(g, seat, action)
    duo = action.board == "duo"
    _check_dice(g, seat, ids, duo)
    _fit(g, action, ids)
    place: dict = {"dice": ids, "by": seat}
    if action.names_ally:
        ally = seat if ally is None else ally
        if ally not in g.team_of(seat):
            raise IllegalMoveError(f"{action.name} names an ally: "
                                   + " or ".join(g.seat_ref(s) for s in g.team_of(seat)) + ".")
        place["ally"] = ally
    if duo:
        g.duo[g.seats[seat]["team"]][action.name] = place
    else:
        g.seats[seat]["board"][action.name] = place
    note = f" for {g.who(ally, cap=False)}" if action.names_ally else ""
    return [Event(f"{g.who(seat)} places {_faces_text(g, ids)} on {action.name}{note}"
                  + (" (Duo board)." if duo else "."), "assign", to=g.team_of(seat),
                  data={"seat": seat, "action": action.name, "dice": ids})]


def _announce(g: "Kaploom", seat: int, name: str) -> Event:
    g.seats[seat]["announced"].append(name)
    return Event(f"{g.who(seat)} activates {name}!", "immediate",
                 data={"seat": seat, "action": name})


def _own_unplaced(g: "Kaploom", seat: int, ids: list[str], what: str) -> None:
    placed = g.placed_dice()
    for d in ids:
        die = g.dice.get(d)
        if die is None or die["owner"] != seat:
            raise IllegalMoveError(f"{d} is not one of your dice; {what} re-rolls your own "
                                   f"unplaced dice.")
        if d in placed:
            raise IllegalMoveError(f"{d} is already placed on {_where(g, d)}; {what} re-rolls "
                                   f"an unplaced die.")
    if len(set(ids)) != len(ids):
        raise IllegalMoveError("Name each die to re-roll once.")


def _immediate(g: "Kaploom", seat: int, action: Action, args: list[str]) -> list[Event]:
    v = action.name.replace(" ", "").lower()
    if action.effect == "reroll":
        form = (f"write `{v} d1 reroll d3`" if action.amount == 1 else
                f"write `{v} d1 reroll d3 d4` (up to {action.amount} dice)")
        if "reroll" not in [a.lower() for a in args]:
            raise InvalidMoveError(f"{action.name} re-rolls: {form}.")
        k = [a.lower() for a in args].index("reroll")
        ids = [die_id(t) for t in args[:k]]
        targets = [die_id(t) for t in args[k + 1:]]
        if not ids or not 1 <= len(targets) <= action.amount:
            raise InvalidMoveError(f"{action.name}: {form}.")
    else:
        form = f"write `{v} d1 d2`"
        if not args:
            raise InvalidMoveError(f"{action.name}: {form}.")
        ids = [die_id(t) for t in args]
        targets = []
    _check_action(g, seat, action)
    _check_dice(g, seat, ids, duo=False)
    _fit(g, action, ids)
    g.seats[seat]["board"][action.name] = {"dice": ids, "by": seat, "immediate": True}
    events = [_announce(g, seat, action.name)]
    if action.effect == "reroll":
        if set(targets) & set(ids):
            raise IllegalMoveError(f"{action.name} re-rolls an other die than the one it uses.")
        _own_unplaced(g, seat, targets, action.name)
        g.rerolls = targets
        g.reroll_by = seat
        events.append(Event(f"{action.name}: {_faces_text(g, ids)} placed; re-rolling "
                            f"{_faces_text(g, targets)}.", "assign", to=g.team_of(seat),
                            data={"seat": seat, "action": action.name, "dice": ids,
                                  "reroll": targets}))
    elif action.effect == "heal_now":
        events.append(g.heal(seat, action.amount, action.name))
    return events


def _time_loop(g: "Kaploom", seat: int, args: list[str]) -> list[Event]:
    if len(args) != 2 or args[0].lower() != "reroll":
        raise InvalidMoveError("The locked-in TIME LOOP re-rolls one unplaced die: write "
                               "`timeloop reroll d3`. To place dice on the TIME LOOP action "
                               "write `assign TIME LOOP d1 d2 d3 d4`.")
    target = die_id(args[1])
    p = g.seats[seat]
    lock = next((a for a in g.locked_in(seat) if a.ability == "free_reroll"), None)
    if lock is None:
        raise IllegalMoveError("You have not locked in TIME LOOP.")
    if p["loop_used"]:
        raise IllegalMoveError("TIME LOOP re-rolls once a round; you have used it this round.")
    if p["ko"]:
        raise IllegalMoveError("You are knocked out: you may only place dice on the Duo board.")
    _own_unplaced(g, seat, [target], "TIME LOOP")
    p["loop_used"] = True
    g.rerolls = [target]
    g.reroll_by = seat
    return [_announce(g, seat, lock.name),
            Event(f"TIME LOOP: re-rolling {_faces_text(g, [target])}.", "reroll",
                  to=g.team_of(seat), data={"seat": seat, "reroll": [target]})]


def _unassign(g: "Kaploom", seat: int, args: list[str]) -> list[Event]:
    if not args:
        raise InvalidMoveError("Write `unassign POW`: the action to take your dice off.")
    action = action_named(args)
    if action is None:
        raise InvalidMoveError(f"There is no action called {' '.join(args)!r}.")
    p = g.seats[seat]
    if action.board == "duo" and not g.duel:
        board = g.duo[p["team"]]
    else:
        board = p["board"]
    place = board.get(action.name)
    if place is None:
        raise IllegalMoveError(f"{action.name} has no dice of yours this round.")
    if place.get("immediate"):
        raise IllegalMoveError(f"{action.name} was an immediate action: its dice cannot be "
                               f"moved (seed: \"ONCE PLACED ... CAN NOT BE MOVED\").")
    for d in place["dice"]:
        owner = g.dice[d]["owner"]
        if owner != seat and g.seats[owner]["locked"]:
            raise IllegalMoveError(f"{d} on {action.name} belongs to "
                                   f"{g.who(owner, cap=False)}, who has locked in.")
    del board[action.name]
    return [Event(f"{g.who(seat)} takes {', '.join(place['dice'])} off {action.name}.",
                  "unassign", to=g.team_of(seat), data={"seat": seat, "action": action.name})]


def _point(g: "Kaploom", seat: int, args: list[str]) -> list[Event]:
    if g.duel:
        raise IllegalMoveError("Pointers are only used in 2 vs 2; your opponent is clear.")
    if len(args) != 1:
        raise InvalidMoveError("Write `point @3`: the opponent you attack this round.")
    target = parse_seat(args[0], g.players)
    if g.seats[seat]["ko"]:
        raise IllegalMoveError("You are knocked out: you do not attack this round.")
    if target not in g.opponents(seat):
        raise IllegalMoveError("Point at an opponent: "
                               + " or ".join(g.seat_ref(s) for s in _targets(g, seat)) + ".")
    if not g.living(target):
        raise IllegalMoveError(f"{g.who(target)} is knocked out; point at "
                               + " or ".join(g.seat_ref(s) for s in _targets(g, seat)) + ".")
    g.seats[seat]["pointer"] = target
    return [Event(f"{g.who(seat)} points at {g.who(target, cap=False)}.", "point",
                  to=g.team_of(seat), data={"seat": seat, "target": target})]


def _targets(g: "Kaploom", seat: int) -> list[int]:
    return [o for o in g.opponents(seat) if g.living(o)]


def default_pointer(g: "Kaploom", seat: int) -> int | None:
    """Locking without pointing (or a timer lock) attacks the weakest opponent: lowest
    health, then the lower seat (our ruling)."""
    options = _targets(g, seat)
    if not options:
        return None
    return min(options, key=lambda o: (g.seats[o]["health"], o))


def _lock(g: "Kaploom", seat: int) -> list[Event]:
    p = g.seats[seat]
    p["locked"] = True
    events = []
    if not g.duel and not p["ko"] and p["pointer"] is None:
        p["pointer"] = default_pointer(g, seat)
        if p["pointer"] is not None:
            events.append(Event(f"{g.who(seat)} points at {g.who(p['pointer'], cap=False)}.",
                                "point", to=g.team_of(seat),
                                data={"seat": seat, "target": p["pointer"]}))
    events.insert(0, Event(f"{g.who(seat)} is locked in.", "lock", data={"seat": seat}))
    if all(q["locked"] for q in g.seats):
        events += phase2.reveal(g)
    return events


# --- legal moves --------------------------------------------------------------------------------

Group = tuple[tuple, list[str]]


def _groups(g: "Kaploom", ids: list[str], by_owner: bool) -> list[Group]:
    """Dice that are interchangeable in the listing: same kind, colour and face showing (an
    action die's colour is gray). On the Duo board a die may change hands, so there the
    owner and an action die's faces count too."""
    groups: dict[tuple, list[str]] = {}
    dice = g.dice
    for d in in_order(list(ids)):
        die = dice[d]
        if by_owner:
            key = (die["owner"], die["kind"], signature(die), die["up"])
        else:
            key = (-1, die["kind"], die["colour"], die["up"])
        groups.setdefault(key, []).append(d)
    return list(groups.items())


@lru_cache(maxsize=None)
def _stand_ins(requires: tuple[str, ...]) -> tuple[int, dict[tuple[str, str], tuple[str, str]]]:
    """How many dice an action takes, and for each (kind, face) a die may show that can fill
    one of its requirements (alone, or in a pair with some die), the first (kind, face) that
    these requirements treat exactly alike. A die showing anything else never takes part, so
    it is left out; dice treated alike may stand in for each other. Both make the search's
    cache key small: for TIME JUMP (ANY) every die is alike, for FOLLOW-THROUGH (PAIR) only
    the face counts, not the kind."""
    need = sum(SYMBOLS[s].size for s in requires)

    def behaviour(die: tuple[str, str]) -> tuple[bool, ...]:
        out: list[bool] = []
        for s in dict.fromkeys(requires):
            if SYMBOLS[s].size == 1:
                out.append(accepts(s, (die,)))
            else:
                out += [accepts(s, (die, other)) for other in DIE_FACES]
                out += [accepts(s, (other, die)) for other in DIE_FACES]
        return tuple(out)

    first: dict[tuple[bool, ...], tuple[str, str]] = {}
    stand_in = {}
    for die in DIE_FACES:
        b = behaviour(die)
        if any(b):
            stand_in[die] = first.setdefault(b, die)
    return need, stand_in


@lru_cache(maxsize=1 << 16)
def _ways(requires: tuple[str, ...], sub: tuple[tuple[str, str, int], ...]
          ) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to fill `requires` from the dice classes `sub` ((kind, face, count): only
    classes that can serve, each face by its stand-in, counts capped at the dice the action
    takes), as (index in `sub`, how many of its dice) pairs. None of the cuts changes the
    ways; they make the key small, so that rolls differing in dice the action cannot use, or
    in dice it treats alike, share one answer (misses were most of legal()'s time, and
    legal() most of the engine's)."""
    if sum(c for _, _, c in sub) < sum(SYMBOLS[s].size for s in requires):
        return ()
    # `combinations` without its own cache: this one already keeps the answer.
    return tuple(tuple((i, n) for i, n in enumerate(vec) if n)
                 for vec in sorted(search(requires, sub)))


@lru_cache(maxsize=None)
def _board(board: str | None) -> tuple[Action, ...]:
    """The actions of a board: a super's name (its own and the base board), None (the base
    board alone), or "duo"."""
    return DUO_TABLE if board == "duo" else board_actions(board)


@lru_cache(maxsize=None)
def _board_index(board: str | None) -> dict[tuple[str, str], list[tuple[int, tuple[str, str], int]]]:
    """For each (kind, face) a die may show, the actions of `board` it can serve: (index on
    the board, its stand-in for that action, how many dice the action takes). A new grouping
    of dice is then sorted out for every action in one pass over the groups."""
    index: dict[tuple[str, str], list[tuple[int, tuple[str, str], int]]] = {}
    for a, action in enumerate(_board(board)):
        need, stand_in = _stand_ins(action.requires)
        for die, rep in stand_in.items():
            index.setdefault(die, []).append((a, rep, need))
    return index


Ways = tuple[tuple[tuple[int, int], ...], ...]


@lru_cache(maxsize=1 << 15)
def _board_ways(board: str | None, sig: tuple[tuple[str, str, int], ...]
                ) -> tuple[tuple[tuple[int, ...], Ways] | None, ...]:
    """For each action of `board`, every way to fill it from dice grouped as `sig` ((kind,
    face, count) per group, counts capped at the six dice an action takes at most): None when
    there is none, else the groups that can serve it and `_ways` over those. Two in three
    legal() calls meet a grouping seen before and are one lookup; the others sort the groups
    out for every action in one pass and ask each action that has the dice it needs through
    its own smaller key (`_ways`), which mostly hits, sharing the answer rather than copying
    it."""
    actions = _board(board)
    keeps: list[list[int]] = [[] for _ in actions]
    subs: list[list[tuple[str, str, int]]] = [[] for _ in actions]
    served = [0] * len(actions)
    index = _board_index(board)
    for i, (kind, face, count) in enumerate(sig):
        for a, rep, need in index.get((kind, face), ()):
            keeps[a].append(i)
            subs[a].append((*rep, count if count < need else need))
            served[a] += count
    out: list[tuple[tuple[int, ...], Ways] | None] = []
    for a, action in enumerate(actions):
        need = _stand_ins(action.requires)[0]
        if served[a] < need:
            out.append(None)
            continue
        ways = _ways(action.requires, tuple(subs[a]))
        out.append((tuple(keeps[a]), ways) if ways else None)
    return tuple(out)


def _fits(board: str | None, groups: list[Group]
          ) -> Iterator[tuple[Action, list[list[str]]]]:
    """Each action of `board` that these grouped dice can fill, with every way to fill it as
    die ids in id order (legal() is the engine's hot path: the practice opponent searches
    with it)."""
    ids = [d for _, d in groups]
    sig = tuple([(k[1], k[3], len(d) if len(d) < 6 else 6) for k, d in groups])
    for action, found in zip(_board(board), _board_ways(board, sig)):
        if found is None:
            continue
        keep, ways = found
        serving = [ids[i] for i in keep]
        out = []
        for picks in ways:
            if len(picks) == 1:
                i, n = picks[0]
                out.append(serving[i][:n])
                continue
            chosen: list[str] = []
            for i, n in picks:
                chosen += serving[i][:n]
            out.append(in_order(chosen))
        if out:
            yield action, out


def _rest(groups: list[Group], used: list[str]) -> list[Group]:
    out = []
    for key, ids in groups:
        left = [d for d in ids if d not in used]
        if left:
            out.append((key, left))
    return out


def legal(g: "Kaploom", seat: int) -> list[str]:
    p = g.seats[seat]
    placed = g.placed_dice()
    unplaced: dict[int, list[str]] = {}   # by owner, in one pass over the dice
    for d, die in g.dice.items():
        if d not in placed:
            unplaced.setdefault(die["owner"], []).append(d)
    mine = in_order(unplaced.get(seat, []))
    moves: list[str] = []
    own = _groups(g, mine, by_owner=False)
    if not p["ko"]:
        for action, fits in _fits(p["super"], own):
            if action.name in p["board"] or (action.lock_in and action.name in p["locked_in"]):
                continue
            for ids in fits:
                if action.effect == "reroll":
                    rest = _rest(own, ids)
                    head = f"{action.name.replace(' ', '').lower()} {' '.join(ids)} reroll"
                    for k, (_, a) in enumerate(rest):
                        moves.append(f"{head} {a[0]}")
                        if action.amount >= 2:
                            if len(a) >= 2:
                                moves.append(f"{head} {a[0]} {a[1]}")
                            for _, b in rest[k + 1:]:
                                moves.append(f"{head} {a[0]} {b[0]}")
                elif action.effect == "heal_now":
                    moves.append(f"{action.name.replace(' ', '').lower()} {' '.join(ids)}")
                else:
                    moves.append(f"assign {action.name} {' '.join(ids)}")
        if not p["loop_used"] and g.has_ability(seat, "free_reroll"):
            moves += [f"timeloop reroll {ids[0]}" for _, ids in own]
    if not g.duel:
        team = g.team_of(seat)
        duo = g.duo[p["team"]]
        pool = [d for s in team if s == seat or not g.seats[s]["locked"]
                for d in unplaced.get(s, ())]
        for action, fits in _fits("duo", _groups(g, pool, by_owner=True)):
            if action.name in duo:
                continue
            for ids in fits:
                if action.one_each and len({g.dice[d]["owner"] for d in ids}) < 2:
                    continue
                text = f"assign {action.name} {' '.join(ids)}"
                if action.names_ally:
                    moves += [f"{text} @{s + 1}" for s in team if g.living(s)]
                else:
                    moves.append(text)
        for name, place in duo.items():
            if all(g.dice[d]["owner"] == seat or not g.seats[g.dice[d]["owner"]]["locked"]
                   for d in place["dice"]):
                moves.append(f"unassign {name}")
        if not p["ko"]:
            moves += [f"point @{o + 1}" for o in _targets(g, seat) if o != p["pointer"]]
    moves += [f"unassign {name}" for name, place in p["board"].items()
              if not place.get("immediate")]
    moves.append("lock")
    return moves
