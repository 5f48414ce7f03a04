"""Ratings: who finished where, and what that does to each player's rating (pure: no store, no
Discord). The store calls `rate_game` inside the transaction that records a game's result, and
`python -m bot ratings rebuild` calls the same function over the stored games in the order they
finished, so a rebuild gives exactly the numbers live play gave.

The model is OpenSkill's Plackett-Luce (Weng & Lin 2011): free-for-all by finishing place, teams,
ties and uneven teams, with a mean `mu` and an uncertainty `sigma` per player. What players see is
the cautious number `mu - 3 sigma` (OpenSkill's `ordinal`), scaled so that a settled average
player (mu 25, sigma about 2) shows 1,500; a newcomer starts lower and climbs as the bot learns
them, and is marked provisional for their first PROVISIONAL_GAMES rated games.

Finishing places (`standing`):
- the winners share first place; in a draw every player still in the game ties;
- TradeShowdown with 3-6 players: a fighter knocked out earlier places lower (the record is
  replayed to find when each fell); those still standing when the judges decide place by the
  slashes they took;
- Death by Dice free-for-all (3-6): after the winner, by combats won, then by the last combat's
  totals;
- KAPLOOM! 2 vs 2: two teams; Death by Dice Bosses & Minions: its own ladder, the Boss against
  the Minions as one side whose strength is their mean (docs/ratings.md says why);
- a player who resigned or ran out of time (forfeit) places last, below everyone who played on;
  of several, the one who left earlier is lower.
See docs/ratings.md.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
PROVISIONAL_GAMES = 5
# shown = SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma): a settled average player (mu 25, sigma 2,
# ordinal 19) shows 1,500; a newcomer (ordinal 0) 740.
SHOWN_SCALE = 40.0
SHOWN_BASE = 1500.0 - SHOWN_SCALE * 19.0
# row.extra key of a game that counts in stats but moves no rating (a server switched rating
# off for its kind when it started: 'off'; the bot finished an abandoned seat: 'zombie').
UNRATED_KEY = "unrated"
GLOBAL = 0  # the scope of the global ladder (a server's scope is its id)
BOSS_LADDER = "deathbydice.boss"
LEAVING_MOVES = ("resign", "timeout")

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def shown(mu: float, sigma: float) -> int:
    """The cautious number players see."""
    return int(math.floor(SHOWN_BASE + SHOWN_SCALE * (mu - 3.0 * sigma) + 0.5))


def ladder_kind(ladder: str) -> str:
    return ladder.split(".", 1)[0]


def ladder_title(ladder: str) -> str:
    from .engine import load
    try:
        title = load(ladder_kind(ladder)).TITLE
    except Exception:
        title = ladder
    return title + (" — Bosses & Minions" if ladder == BOSS_LADDER else "")


# ---- finishing places ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Standing:
    """Who finished where: `teams` (lists of seats) and, per team, its place (1 = first;
    equal places tie). `mean_teams`: teams whose strength is their members' mean (Bosses &
    Minions) rather than the sum."""

    ladder: str
    teams: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    mean_teams: bool = False

    def place_of(self, seat: int) -> int:
        for team, place in zip(self.teams, self.places):
            if seat in team:
                return place
        raise KeyError(seat)

    def to_json(self) -> dict[str, Any]:
        return {"ladder": self.ladder, "teams": [list(t) for t in self.teams],
                "places": list(self.places), "mean_teams": self.mean_teams}


def needs_record(kind: str, players: int) -> bool:
    """Whether the places of this game are read from its record (a replay), not only from its
    final state: the engine orders them by who was knocked out when."""
    from .engine import load
    return load(kind).falls(players, {}, []) is not None


def _leavers(entries: Sequence[tuple[Any, str]], players: int) -> dict[int, int]:
    """Seat -> the index of the entry where it resigned or forfeited (ran out of time with no
    move the referee could make for it)."""
    out: dict[int, int] = {}
    for i, (actor, move) in enumerate(entries):
        if move in LEAVING_MOVES and str(actor) != "chance":
            seat = int(actor) - 1 if isinstance(actor, str) else int(actor)
            if 0 <= seat < players:
                out.setdefault(seat, i)
    return out


def standing(kind: str, players: int, options: dict[str, Any], state: dict[str, Any],
             entries: Sequence[tuple[Any, str]] = ()) -> Standing | None:
    """The finishing places of a finished game from its final state (and, where the places
    depend on when players fell, its record: `entries` as (actor, move), actor '1'-based text
    or 'chance' as stored). None when the game is not over."""
    from .engine import load
    game = load(kind).from_json(state)
    outcome = game.outcome()
    if outcome is None:
        return None
    ladder = game.ladder()
    teams = game.rated_sides()
    left = _leavers(entries, players)
    winners = set(outcome.winners)
    fell = load(kind).falls(players, game.options, entries) or {}

    def key(team: tuple[int, ...]) -> tuple:
        gone = [left[s] for s in team if s in left]
        if gone and not winners & set(team):
            return (2, -min(gone))                  # left the game: last, earlier lower
        if winners & set(team):
            return (0,)
        return (1, *game.place_key(team, fell))     # the game's own order of the others

    keys = [key(t) for t in teams]
    order = sorted(set(keys))
    places = tuple(order.index(k) + 1 for k in keys)
    return Standing(ladder, tuple(teams), places, mean_teams=game.mean_sides())


# ---- one player's rating ------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerRating:
    """One player on one ladder in one scope: the model's numbers and what a profile shows."""

    user_id: int
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0          # wins in a row (> 0) or losses in a row (< 0)
    best_streak: int = 0
    best_win: int | None = None      # the game of the win over the highest-rated opponent
    best_win_over: int | None = None  # that opponent's shown rating before the game
    peak: int | None = None

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass
class GameRating:
    """What rating one game did in one scope: each player's rating after it, and the history
    line (game, user, place, result, shown before, shown after)."""

    after: dict[int, PlayerRating] = field(default_factory=dict)
    history: list[tuple[int, int, str, int, int, float, float]] = field(default_factory=list)


def _rated(model_rating: Any) -> tuple[float, float]:
    return float(model_rating.mu), float(model_rating.sigma)


def new_ratings(standing_: Standing, before: Sequence[tuple[float, float]]
                ) -> list[tuple[float, float]]:
    """(mu, sigma) per seat after the game, from (mu, sigma) per seat before it."""
    teams = standing_.teams
    ranks = list(standing_.places)
    if len(teams) < 2:
        return list(before)
    if standing_.mean_teams:
        # Each side plays as one: a side's rating is its members' mean (sigma: root mean
        # square); the side's change is given to each member (mu moved alike, sigma scaled).
        sides, means = [], []
        for team in teams:
            mu = sum(before[s][0] for s in team) / len(team)
            sigma = math.sqrt(sum(before[s][1] ** 2 for s in team) / len(team))
            means.append((mu, sigma))
            sides.append([_MODEL.rating(mu=mu, sigma=sigma)])
        rated = _MODEL.rate(sides, ranks=ranks)
        out = list(before)
        for team, (mu0, sigma0), [r] in zip(teams, means, rated):
            mu1, sigma1 = _rated(r)
            for s in team:
                out[s] = (before[s][0] + (mu1 - mu0), before[s][1] * (sigma1 / sigma0))
        return out
    model_teams = [[_MODEL.rating(mu=before[s][0], sigma=before[s][1]) for s in team]
                   for team in teams]
    rated = _MODEL.rate(model_teams, ranks=ranks)
    out = list(before)
    for team, new in zip(teams, rated):
        for s, r in zip(team, new):
            out[s] = _rated(r)
    return out


def rate_game(game_id: int, standing_: Standing, players: Sequence[int],
              results: dict[int, str], before: dict[int, PlayerRating]) -> GameRating:
    """One rated game in one scope: `players` by seat (user ids; a user seated twice is rated
    once, at their first seat), `results` user -> win/loss/draw, `before` user -> their rating
    before (missing: a newcomer). Pure and deterministic: live play and a rebuild call this
    with the same numbers."""
    seats = {}
    for s, uid in enumerate(players):
        seats.setdefault(uid, s)
    # One seat per person: a player seated twice (tests) plays only their first seat.
    keep = set(seats.values())
    teams = []
    places = []
    for team, place in zip(standing_.teams, standing_.places):
        t = tuple(s for s in team if s in keep)
        if t:
            teams.append(t)
            places.append(place)
    st = replace(standing_, teams=tuple(teams), places=tuple(places))
    start = {uid: before.get(uid) or PlayerRating(uid) for uid in seats}
    prior = [(start[uid].mu, start[uid].sigma) if s in keep else (MU, SIGMA)
             for s, uid in enumerate(players)]
    after = new_ratings(st, prior) if len(teams) >= 2 else prior
    out = GameRating()
    shown_before = {uid: start[uid].shown for uid in seats}
    for uid, s in seats.items():
        old = start[uid]
        mu, sigma = after[s]
        result = results.get(uid, "draw")
        place = st.place_of(s)
        streak = (max(old.streak, 0) + 1 if result == "win" else
                  min(old.streak, 0) - 1 if result == "loss" else 0)
        best_win, best_over = old.best_win, old.best_win_over
        if result == "win":
            foes = [shown_before[u] for u, t in seats.items()
                    if st.place_of(t) > place]
            if foes and (best_over is None or max(foes) > best_over):
                best_win, best_over = game_id, max(foes)
        new = PlayerRating(uid, mu, sigma, old.games + 1, old.wins + (result == "win"),
                           old.losses + (result == "loss"), old.draws + (result == "draw"),
                           streak, max(old.best_streak, streak), best_win, best_over)
        new = replace(new, peak=max(old.peak or new.shown, new.shown)
                      if new.games >= PROVISIONAL_GAMES else old.peak)
        out.after[uid] = new
        out.history.append((game_id, uid, result, place, shown_before[uid], mu, sigma))
    return out


def scopes(guild_id: int | None) -> list[int]:
    """The scopes a game counts in: its server's (if it has one) and the global one."""
    return ([guild_id] if guild_id else []) + [GLOBAL]


# ---- a rebuild from the stored games ------------------------------------------------------------
async def rebuild(store: Any, guild_id: int | None = None,
                  now: float | None = None) -> dict[str, int]:
    """Recompute the ratings from the stored games (`python -m bot ratings rebuild`): every
    finished game with results that started rated, in the order the games finished, through
    the same `standing` and `rate_game` live play used. With `guild_id`, only that server's
    ladders (the global ones are left as they are). Returns what it counted."""
    import asyncio
    import json
    import time

    now = time.time() if now is None else now
    games = await store.rated_games(guild_id)
    table: dict[tuple[int, str, int], PlayerRating] = {}
    history: list[tuple] = []
    rated = skipped = 0
    for gid, kind, guild, players_json, options_json, state_json, extra_json, at, res in games:
        extra = json.loads(extra_json or "{}")
        if extra.get(UNRATED_KEY):
            skipped += 1
            continue
        players = json.loads(players_json)
        entries: list[tuple[Any, str]] = []
        try:
            if needs_record(kind, len(players)):
                entries = list(await store.entries(gid))
                st = await asyncio.to_thread(standing, kind, len(players),
                                             json.loads(options_json), json.loads(state_json),
                                             entries)
            else:
                st = standing(kind, len(players), json.loads(options_json),
                              json.loads(state_json))
        except Exception:
            st = None  # live play met the same failure and left it unrated
        if st is None:
            skipped += 1
            continue
        results = dict(res)
        for scope in scopes(guild):
            if guild_id is not None and scope != guild_id:
                continue
            before = {u: table[(scope, st.ladder, u)] for u in set(players)
                      if (scope, st.ladder, u) in table}
            done = rate_game(gid, st, players, results, before)
            for uid, r in done.after.items():
                table[(scope, st.ladder, uid)] = r
            history += [(scope, st.ladder, *line, at) for line in done.history]
        rated += 1
    await store.replace_ratings(None if guild_id is None else [guild_id], table, history, now)
    return {"games": rated, "skipped": skipped,
            "players": len({(s, u) for s, _, u in table})}


__all__ = ["rebuild", "UNRATED_KEY", "Standing", "PlayerRating", "GameRating", "standing",
           "rate_game", "new_ratings",
           "shown", "ladder_kind", "ladder_title", "scopes", "needs_record",
           "GLOBAL", "BOSS_LADDER", "PROVISIONAL_GAMES", "MU", "SIGMA"]
