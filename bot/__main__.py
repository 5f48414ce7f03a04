"""`python -m bot`: start the bot. `python -m bot <subcommand>`: offline tools, no Discord needed.

  commands                      print the slash command tree as JSON and check Discord's limits
  replay FILE                   replay a game record; print the final public view and outcome
  render FILE [--at N] [--replay-layout] --out DIR
                                draw the record's position after N entries (default: the end):
                                the public board and each seat's panel, as PNG files
                                (--replay-layout: the board as the animated replay draws it)
  render FILE [--at N] --gif OUT.gif
                                the game's animated replay, from the public view
  selfplay GAME --seed N [--out FILE] [--players N] [--option k=v ...]
                                play one game of random legal moves and write its record
  match GAME POLICY_A POLICY_B --games N [--players K] [--option k=v ...] [--json]
                                games between practice opponents (random/easy/normal/hard),
                                a progress line on stderr every few games

Exit codes: 0 done; 1 the input was refused; 2 the bot cannot start; 3 a bug (a crash).
  migrate --to postgresql://... [--from FILE]
                                copy the SQLite database into PostgreSQL and say what it copied
  ratings rebuild [--guild ID] [--database URL]
                                recompute every rating from the stored games (one server's
                                ladders with --guild), the same numbers live play gave
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from .cliparse import EXIT_BUG, EXIT_CONFIG, EXIT_REFUSED, Parser  # noqa: F401 (re-exported)


def _reason(error: BaseException) -> str:
    """A connection error in a few words (a timeout has no text of its own: its cause's)."""
    while not str(error) and (error.__cause__ or error.__context__) is not None:
        error = error.__cause__ or error.__context__
    text = str(error) or type(error).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def _run_bot() -> int:
    from .config import ConfigError, configure_logging, load_settings
    try:
        settings = load_settings()
    except ConfigError as e:
        print(f"Cannot start the referee: {e}", file=sys.stderr)
        return EXIT_CONFIG
    configure_logging(settings.log_level)
    import aiohttp
    import discord

    from .app import RefereeBot
    from .store import StoreError
    # READ_MESSAGES is a setting like the others: the environment or .env, checked up front.
    bot = RefereeBot(settings, read_messages=settings.read_messages)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("Cannot start the referee: Discord refused DISCORD_TOKEN (it is wrong or was "
              "reset). Get a fresh token in the Developer Portal, Bot > Reset Token.",
              file=sys.stderr)
        return EXIT_CONFIG
    except StoreError as e:  # the database refused at start (newer schema, no server)
        print(f"Cannot start the referee: {e}", file=sys.stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print("Cannot start the referee: READ_MESSAGES is on but the Message Content intent is "
              "off. Turn it on in the Developer Portal (Bot > Privileged Gateway Intents) or "
              "unset READ_MESSAGES.", file=sys.stderr)
        return EXIT_CONFIG
    except (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.GatewayNotFound) as e:
        # No network, no DNS, a proxy or firewall in the way: the host's problem, one line.
        print(f"Cannot start the referee: cannot reach Discord ({_reason(e)}). Check this "
              "machine's network connection (and any proxy or firewall), then start again.",
              file=sys.stderr)
        return EXIT_CONFIG
    except discord.HTTPException as e:  # Discord answered, but with an error (5xx, 429)
        print(f"Cannot start the referee: Discord answered {e.status} while logging in; it may "
              "be having trouble (https://discordstatus.com). Try again in a few minutes.",
              file=sys.stderr)
        return EXIT_CONFIG
    return 0


async def _tree() -> list[dict]:
    return (await _tree_and_places())[0]


async def _tree_and_places() -> tuple[list[dict], list[dict]]:
    """The synced payload, and where each command and subcommand works (bot/installs.py)."""
    from .app import command_tree_bot
    from .installs import command_places
    bot = await command_tree_bot()
    try:
        return bot.tree_payload(), command_places(bot.tree)
    finally:
        await bot.close()


def cmd_commands(_: argparse.Namespace) -> int:
    """The synced payload (JSON, stdout); where each command works and any violation (stderr):
    each top-level command's installs and contexts, and each subcommand narrower than its own."""
    from .installs import describe_places
    from .validate import validate, validate_places
    tree, places = asyncio.run(_tree_and_places())
    print(json.dumps(tree, indent=1))
    for entry in places:
        own = {k: entry[k] for k in ("integration_types", "contexts")}
        if " " not in entry["command"] or own != entry["synced"]:  # top-level, or narrower
            print(f"where: {describe_places(entry)}", file=sys.stderr)
    problems = validate(tree) + validate_places(places)
    for p in problems:
        print(f"violation: {p}", file=sys.stderr)
    if problems:
        return 1
    narrow = sum(1 for e in places if e["guild_install_only"])
    print(f"ok: {len(tree)} top-level commands within Discord's limits; installs and contexts "
          f"declared for all {len(places)} commands ({narrow} guild-install only)",
          file=sys.stderr)
    return 0


def _bug(what: str) -> int:
    """An exception nobody foresaw is a bug in the referee, not a bad input: the traceback for
    the report, then one line that says so, and its own exit code so scripts can tell."""
    import traceback
    traceback.print_exc()
    print(f"{what}: this is a bug in the referee, not a problem with your input; please "
          "report it with the traceback above.", file=sys.stderr)
    return EXIT_BUG


def read_record(path: str):
    """The record in `path`, checked whole; RecordError (one line) when it cannot be one."""
    from .render_cli import read_record as read
    return read(path)


def cmd_render(args: argparse.Namespace) -> int:
    from .render_cli import record_tool, render_gif_command, render_position
    if args.gif or not args.out:  # the animated replay (issue #26): bot/render_cli.py
        return render_gif_command(args, _bug)
    written, failed = record_tool(args.file, args.out, lambda: render_position(
        read_record(args.file), args.at, Path(args.out), args.replay_layout),
        f"rendering {args.file} crashed",
        _bug)
    if failed is not None:
        return failed
    for path in written:
        print(path)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .engine.records import RecordError, ReplayError, replay
    try:
        record = read_record(args.file)
        game = replay(record)
        outcome = game.outcome()
        text = json.dumps({"kind": record.kind, "entries": len(record.entries),
                           "view": game.view(None),
                           "outcome": outcome.to_json() if outcome else None}, indent=1)
    except RecordError as e:
        print(f"cannot replay {args.file}: {e}", file=sys.stderr)
        return EXIT_REFUSED
    except ReplayError as e:
        print(f"illegal entry {e.index}: {e.entry.get('actor')!r} {e.entry.get('move')!r}: "
              f"{e.error}", file=sys.stderr)
        return EXIT_REFUSED
    except Exception:
        return _bug(f"replaying {args.file} crashed")
    print(text)
    return 0


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes key=value, not {pair!r}")
        out[key] = value
    return out


def cmd_selfplay(args: argparse.Namespace) -> int:
    from .engine.core import RuleError
    from .engine.records import replay, selfplay
    try:
        record, game = selfplay(args.game, args.seed, _options(args.option), args.players)
    except (KeyError, RuleError) as e:
        print(f"cannot play {args.game}: {e}", file=sys.stderr)
        return 1
    if replay(record).to_json() != game.to_json():
        print("self-play record does not replay to the same state", file=sys.stderr)
        return 1
    text = record.dumps()
    if args.out:
        Path(args.out).write_text(text + "\n")
        print(f"wrote {args.out}: {len(record.entries)} entries; {ending(game)}",
              file=sys.stderr)
    else:
        print(text)
    return 0


def ending(game) -> str:
    """How a game ended, in words: its winners by name (seats counted from 1), and why."""
    outcome = game.outcome()
    if outcome is None:
        return "not finished"
    names = [game.name(s) if game.name(s) == f"Player {s + 1}"
             else f"{game.name(s)} (player {s + 1})" for s in outcome.winners]
    who = ("nobody wins: a draw" if not names else
           f"{names[0]} wins" if len(names) == 1 else
           ", ".join(names[:-1]) + f" and {names[-1]} win")
    reason = (game.result or {}).get("reason")
    return who + (f" ({reason})" if reason else "")


def cmd_migrate(args: argparse.Namespace) -> int:
    import os

    from .config import DEFAULT_DATABASE
    from .migrate import MigrateError, copy_to_postgres
    from .store import StoreError
    source = args.source or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE
    try:
        asyncio.run(copy_to_postgres(source, args.to))
    except (MigrateError, StoreError) as e:
        print(f"cannot migrate: {e}", file=sys.stderr)
        return EXIT_CONFIG
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    import os
    import time

    from .config import DEFAULT_DATABASE
    from .ratings import rebuild
    from .store import Store, StoreError
    target = (args.database or os.environ.get("DATABASE_URL", "").strip()
              or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)

    async def run() -> dict[str, int]:
        store = await Store.open(target)
        try:
            return await rebuild(store, guild_id=args.guild)
        finally:
            await store.close()
    started = time.monotonic()
    try:
        counted = asyncio.run(run())
    except StoreError as e:
        print(f"cannot rebuild the ratings: {e}", file=sys.stderr)
        return EXIT_CONFIG
    except Exception:
        return _bug("rebuilding the ratings crashed")
    where = f"server {args.guild}" if args.guild else "every server and the global ladders"
    print(f"rebuilt the ratings of {where}: {counted['games']} rated games, "
          f"{counted['players']} player ladders, {counted['skipped']} games unrated "
          f"({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m bot", description=__doc__,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)  # subparsers: Parser too
    sub.add_parser("run", help="start the bot (the default)")
    sub.add_parser("commands", help="print and validate the slash command tree")
    p = sub.add_parser("replay", help="replay a game record")
    p.add_argument("file", help="the record (JSON), e.g. from /games export")
    p = sub.add_parser("render", help="draw a record's pictures (public board, each seat's "
                                      "panel) as PNG files")
    p.add_argument("file", help="the record (JSON), e.g. from /games export")
    p.add_argument("--at", type=int, metavar="N",
                   help="after the first N entries (default: the end)")
    p.add_argument("--out", metavar="DIR", help="where the PNG files go")
    p.add_argument("--replay-layout", action="store_true",
                   help="draw the public board as the record's animated replay does (one "
                        "layout for the whole game), not as the thread showed it")
    p.add_argument("--gif", metavar="OUT.gif",
                   help="write the game's animated replay (public view) instead, up to N "
                        "entries with --at (see bot/render_cli.py)")
    p = sub.add_parser("selfplay", help="play one random game and write its record")
    p.add_argument("game", help="which game")
    p.add_argument("--seed", type=int, required=True, help="the seed of the dice and moves")
    p.add_argument("--out", metavar="FILE",
                   help="write the record there (default: print it)")
    p.add_argument("--players", type=int, default=2, help="players (default: 2)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeat for several)")
    p = sub.add_parser("match", help="seeded games between two practice-opponent policies",
                       description="Seeded games between two practice opponents, seats "
                                   "alternated; progress on stderr, the summary on stdout.")
    from .policies.cli import add_arguments as match_arguments
    match_arguments(p)
    p = sub.add_parser("migrate", help="copy the SQLite database into PostgreSQL")
    p.add_argument("--to", required=True, metavar="postgresql://...",
                   help="the PostgreSQL database to copy into (empty of games)")
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="the SQLite file (default: DATABASE_PATH, or data/referee.db)")
    p = sub.add_parser("ratings", help="ratings: rebuild them from the stored games")
    rsub = p.add_subparsers(dest="action", required=True)
    r = rsub.add_parser("rebuild", help="recompute the ratings from every stored game")
    r.add_argument("--guild", type=int, metavar="ID",
                   help="only this server's ladders (the global ones stay as they are)")
    r.add_argument("--database", metavar="URL",
                   help="the database (default: DATABASE_URL, DATABASE_PATH or "
                        "data/referee.db)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        return _run_bot()
    args = build_parser().parse_args(argv)
    if args.command == "run":
        return _run_bot()
    if args.command == "match":
        from .policies.cli import run as match_run
        return match_run(args)
    return {"commands": cmd_commands, "replay": cmd_replay, "selfplay": cmd_selfplay,
            "render": cmd_render, "ratings": cmd_ratings,
            "migrate": cmd_migrate}[
        args.command](args)


if __name__ == "__main__":
    sys.exit(main())
