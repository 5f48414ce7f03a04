"""#11.6: `python -m bot replay` checks a record whole. A refusal exits 1 with one line; a
crash is a bug and exits 3 saying so, so scripts can tell the two apart."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_BUG, EXIT_REFUSED, main
from bot.engine.records import selfplay

ROOT = Path(__file__).resolve().parent.parent
GOOD, _ = selfplay("slideslam", 11)


def good() -> dict:
    return json.loads(GOOD.dumps())


def with_(**changes) -> dict:
    d = good()
    d.update(changes)
    return d


def deep(n: int) -> str:
    """A good record whose options are lists nested `n` deep."""
    return json.dumps(with_(options="@@")).replace('"@@"', "[" * n + "]" * n)


REFUSED = {
    "not an object": ("[1, 2, 3]", "a record is a JSON object, not a list"),
    "a number": ("42", "not a number"),
    "too few players": (with_(players=["alice"]), "is for 2 players; the record names 1"),
    "too many players": (with_(players=["a", "b", "c"]), "names 3"),
    "players as text": (with_(players="alice and bob"), "'players' is a list of names"),
    "players not names": (with_(players=[1, 2]), "'players' is a list of names"),
    "unknown option": (with_(options={"colour": "red"}), "bad options: Unknown option"),
    "option out of range": (with_(options={"columns": 99}), "bad options"),
    "option of the wrong type": (with_(options={"columns": [1]}), "bad options"),
    "options not an object": (with_(options=[1]), "'options' is an object"),
    "entries as an object": (with_(entries={}), "'entries' is a list of entries, not an obj"),
    "entries not objects": (with_(entries=[1, "slide"]), "entry 0 is an object"),
    "actor true": (with_(entries=[{"actor": True, "move": "x"}]), "entry 0: 'actor'"),
    "actor out of range": (with_(entries=[{"actor": 3, "move": "x"}]), "1..2, not 3"),
    "move not text": (with_(entries=[{"actor": 1, "move": ["place"]}]), "'move' is text"),
    "kind unhashable": (with_(kind=["slideslam"]), "'kind' is a game's name, not a list"),
    "kind unknown": (with_(kind="chess"), "unknown game 'chess'"),
    "version true": (with_(version=True), "version True is not supported"),
    "version 2": (with_(version=2), "version 2 is not supported"),
    "seed a list": (with_(seed=[1]), "'seed' is a number"),
    "result a list": (with_(result=[0]), "'result' is an object or null"),
    "deep nesting": (deep(100_000), "nested too deeply"),
    "deep but parsable": (deep(500), "'options' is an object"),
    "not JSON": ("{nope", "not JSON"),
    "not UTF-8": (b"\xff\xfe\x00", "cannot read the file"),
    "huge number move": (with_(entries=[{"actor": 1, "move": "place a" + "9" * 5000}]),
                         "illegal entry 0"),
    "non-ASCII digits": (with_(entries=[{"actor": 1, "move": "place a\u0663=6"}]),
                         "illegal entry 0"),
    # #27.8: a whole-number option that JSON reads as an infinite or fractional float
    "option Infinity": (with_(options={"columns": float("inf")}), "takes a whole number"),
    "option -Infinity": (with_(options={"columns": float("-inf")}), "takes a whole number"),
    "option 1e400": (json.dumps(with_(options={"columns": "@@"})).replace('"@@"', "1e400"),
                     "takes a whole number"),
    "option NaN": (with_(options={"columns": float("nan")}), "takes a whole number"),
    "option 5.5": (with_(options={"columns": 5.5}), "takes a whole number"),
}


def write(tmp_path: Path, content) -> str:
    path = tmp_path / "record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_bad_record_is_refused_in_one_line(tmp_path, capsys, case):
    content, expected = REFUSED[case]
    assert main(["replay", write(tmp_path, content)]) == EXIT_REFUSED
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err[:2000]
    assert expected in err


def test_a_good_record_still_replays(tmp_path, capsys):
    assert main(["replay", write(tmp_path, good())]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["outcome"] == GOOD.result and err == ""


def test_extra_keys_are_ignored(tmp_path, capsys):
    d = good()
    d["comment"] = "a note for readers"
    d["entries"][0]["expect_damage"] = 3
    assert main(["replay", write(tmp_path, d)]) == 0


def test_a_crash_is_a_bug_with_its_own_exit_code(tmp_path, capsys, monkeypatch):
    from bot.engine.slideslam import GAME

    def broken(self, actor, move):
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(GAME, "_apply", broken)
    assert main(["replay", write(tmp_path, good())]) == EXIT_BUG
    _, err = capsys.readouterr()
    assert "ZeroDivisionError" in err and "this is a bug in the referee" in err.splitlines()[-1]


def test_from_the_command_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "bot", "replay", write(tmp_path, "[]")],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip().endswith("a record is a JSON object, not a list")


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "1e400"])
def test_render_refuses_an_infinite_option(tmp_path, capsys, number):
    """#27.8: `render` read the same options and crashed (exit 3) on OverflowError."""
    text = json.dumps(with_(options={"columns": "@@"})).replace('"@@"', number)
    assert main(["render", write(tmp_path, text), "--out", str(tmp_path / "pics")]) \
        == EXIT_REFUSED
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "takes a whole number" in err
