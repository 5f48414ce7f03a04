"""`python -m bot` and its offline tools, and the settings' error messages."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.engine.records import Record, replay, selfplay
from bot.validate import validate

ROOT = Path(__file__).resolve().parent.parent


def run_bot(*args: str, env: dict | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=base,
                          capture_output=True, text=True, timeout=120)


def test_no_token_exits_2_and_says_how_to_get_one(tmp_path):
    # Run from a folder without .env, as on a fresh clone.
    env = {"PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "x.db")}
    result = run_bot(env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and ".env.example" in result.stderr
    assert "Reset Token" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("env,expected", [
    ({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
    ({"DEV_GUILD_ID": "12"}, "17-20 digits"),
    ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
    ({"TURN_TIMER_SECONDS": "5"}, "TURN_TIMER_SECONDS"),
    ({"PRACTICE_DELAY_SECONDS": "soon"}, "PRACTICE_DELAY_SECONDS='soon'.*0 to 10"),
    ({"PRACTICE_DELAY_SECONDS": "60"}, "PRACTICE_DELAY_SECONDS"),
    ({"PRACTICE_DELAY_SECONDS": "٣"}, "PRACTICE_DELAY_SECONDS"),
])
def test_bad_settings_are_named(env, expected, tmp_path):
    values = {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "x.db"), **env}
    with pytest.raises(ConfigError, match=expected):
        load_settings(values, dotenv=None)


def test_database_path_problems_are_explained(tmp_path):
    with pytest.raises(ConfigError, match="is a directory"):
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path)}, dotenv=None)
    garbage = tmp_path / "not.db"
    garbage.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ConfigError, match="not an SQLite database"):
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(garbage)}, dotenv=None)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="cannot create the folder"):
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(blocker / "sub" / "x.db")},
                      dotenv=None)


def test_bad_setting_from_the_command_line_has_no_traceback(tmp_path):
    result = run_bot(env={"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "nope",
                          "DATABASE_PATH": str(tmp_path / "x.db")})
    assert result.returncode == 2 and "DEV_GUILD_ID" in result.stderr
    assert "Traceback" not in result.stderr


def test_dotenv_is_read_and_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN=from-file\nDATABASE_PATH={tmp_path / 'a.db'}\n")
    s = load_settings({}, dotenv=env_file)
    assert s.token == "from-file" and s.turn_timer == 3600 and s.dev_guild_id is None
    s = load_settings({"DISCORD_TOKEN": "from-env"}, dotenv=env_file)
    assert s.token == "from-env"


def test_commands_prints_a_valid_tree():
    result = run_bot("commands")
    assert result.returncode == 0, result.stderr
    tree = json.loads(result.stdout)
    assert validate(tree) == []
    names = {c["name"] for c in tree}
    assert "games" in names
    games = next(c for c in tree if c["name"] == "games")
    assert {o["name"] for o in games["options"]} == {
        "list", "resign", "abort", "rules", "history", "export", "stats", "replay",
        "leaderboard", "profile", "rating", "mine", "notify"}


def test_validator_names_each_violation():
    bad = [
        {"name": "Bad Name", "description": "", "type": 1, "options": []},
        {"name": "ok", "description": "x" * 101, "type": 1, "options": [
            {"name": "a", "description": "d", "type": 3, "required": False},
            {"name": "b", "description": "d", "type": 3, "required": True},
            {"name": "sub", "description": "d", "type": 1, "options": []},
        ]},
        {"name": "many", "description": "d", "type": 1, "options": [
            {"name": f"o{i}", "description": "d", "type": 3,
             "choices": [{"name": f"c{j}", "value": f"v{j}"} for j in range(26)]}
            for i in range(26)]},
    ]
    problems = "\n".join(validate(bad))
    for expected in ("/Bad Name: name", "/Bad Name: description", "/ok: description",
                     "required option after an optional", "subcommands mixed",
                     "/many: 26 options", "26 choices"):
        assert expected in problems, expected
    assert validate([{"name": f"c{i}", "description": "d", "type": 1} for i in range(101)])


def test_replay_of_a_bad_record_names_the_entry(tmp_path):
    record, _ = selfplay("slideslam", 3)
    data = record.to_json()
    data["entries"].insert(5, {"actor": 1, "move": "slide z9 z10"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_bot("replay", str(path))
    assert result.returncode == 1 and "entry 5" in result.stderr
    good = tmp_path / "good.json"
    good.write_text(record.dumps())
    result = run_bot("replay", str(good))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["outcome"] == record.result and out["kind"] == "slideslam"


def test_replay_refuses_what_is_not_a_record(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{}")
    result = run_bot("replay", str(path))
    assert result.returncode == 1 and "not a game record" in result.stderr


def test_selfplay_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "game.json"
    result = run_bot("selfplay", "tradeshowdown", "--seed", "7", "--out", str(out))
    assert result.returncode == 0, result.stderr
    record = Record.from_json(json.loads(out.read_text()))
    assert record.kind == "tradeshowdown" and record.seed == 7 and record.entries
    again, game = selfplay("tradeshowdown", 7)
    assert again.entries == record.entries
    assert replay(record).to_json() == game.to_json()


def test_selfplay_unknown_game_is_an_error():
    result = run_bot("selfplay", "chess", "--seed", "1")
    assert result.returncode == 1 and "unknown game" in result.stderr


NO_NETWORK = """
import socket, sys
def no_dns(*args, **kwargs):
    raise socket.gaierror(-3, "Temporary failure in name resolution")
socket.getaddrinfo = no_dns  # this machine has no network: DNS fails as it would offline
from bot.__main__ import main
sys.exit(main())
"""


def test_bogus_token_without_network_is_one_line_and_exit_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEV_GUILD_ID", "LOG_LEVEL")}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "bogus.token.value",
                "DATABASE_PATH": str(tmp_path / "x.db")})
    result = subprocess.run([sys.executable, "-c", NO_NETWORK], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "aiohttp" not in result.stderr
    problems = [line for line in result.stderr.splitlines() if " INFO " not in line]
    assert len(problems) == 1 and "cannot reach Discord" in problems[0], result.stderr
    # discord.py's warnings about voice (PyNaCl, davey) are for bots that join voice channels.
    assert "voice will NOT be supported" not in result.stderr


def test_read_messages_is_a_setting_read_from_dotenv(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN=t\nDATABASE_PATH={tmp_path / 'a.db'}\nREAD_MESSAGES=yes\n")
    assert load_settings({}, dotenv=env_file).read_messages is True
    assert load_settings({"READ_MESSAGES": "0"}, dotenv=env_file).read_messages is False
    assert load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "a.db")},
                         dotenv=None).read_messages is False
    with pytest.raises(ConfigError, match="READ_MESSAGES='maybe'"):
        load_settings({"READ_MESSAGES": "maybe"}, dotenv=env_file)


def test_practice_delay_is_a_setting(tmp_path):
    values = {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "a.db")}
    assert load_settings(values, dotenv=None).practice_delay == 1.5
    assert load_settings({**values, "PRACTICE_DELAY_SECONDS": "0"}, dotenv=None
                         ).practice_delay == 0
    assert load_settings({**values, "PRACTICE_DELAY_SECONDS": "2.5"}, dotenv=None
                         ).practice_delay == 2.5


def test_the_bot_takes_read_messages_from_the_settings(tmp_path, monkeypatch):
    """`python -m bot` builds the bot from the settings (a .env value is no longer ignored)."""
    import bot.__main__ as cli
    from bot import app, config
    seen = {}

    class Stop(Exception):
        pass

    def fake_bot(settings, *, read_messages=False, **kw):
        seen["read"] = read_messages
        raise Stop

    (tmp_path / ".env").write_text(f"DISCORD_TOKEN=t\nDATABASE_PATH={tmp_path / 'a.db'}\n"
                                   "READ_MESSAGES=on\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("READ_MESSAGES", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(app, "RefereeBot", fake_bot)
    monkeypatch.setattr(config, "configure_logging", lambda level: None)
    with pytest.raises(Stop):
        cli._run_bot()
    assert seen == {"read": True}


def test_make_test_says_why_tests_were_skipped():
    """#27.13: `make test` without a PostgreSQL server said "28 skipped" and nothing more."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "pytest -rs" in recipe or "-rs" in recipe.split("pytest", 1)[1].split("\n")[0]
    readme = (ROOT / "README.md").read_text()
    testing = readme.split("## Testing", 1)[1].split("\n## ", 1)[0]
    assert "TEST_DATABASE_URL" in testing and "CI=true" in testing
