"""#13.4: `python -m bot render RECORD [--at N] --out DIR` draws a record's position."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import EXIT_REFUSED, main
from bot.engine.records import Record
from bot.render_cli import position, renderers

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "tests" / "records").glob("*/*.json"))


def load(path: Path) -> Record:
    return Record.from_json(json.loads(path.read_text()))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_record_renders_at_its_end(path, tmp_path, capsys):
    record = load(path)
    n = len(record.entries)
    assert main(["render", str(path), "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.split()
    public = tmp_path / f"{record.kind}-public-at{n}.png"
    assert printed[0] == str(public) and public.is_file()
    game, _ = position(record, None)
    draw_public, draw_seat = renderers(record.kind)
    # The file is the picture of the position after every entry, not of some other moment.
    assert public.read_bytes() == draw_public(game.view(None)).png
    for seat in range(game.players):
        expected = draw_seat(game.view(seat))
        path_seat = tmp_path / f"{record.kind}-seat{seat + 1}-at{n}.png"
        assert path_seat.is_file() == (expected is not None)
        if expected is not None:
            assert path_seat.read_bytes() == expected.png
    for name in printed:
        with Image.open(name) as image:
            assert image.format == "PNG" and image.width >= 200


def test_at_n_draws_that_moment(tmp_path, capsys):
    path = ROOT / "tests" / "records" / "kaploom" / "rulebook_play_example.json"
    record = load(path)
    assert main(["render", str(path), "--at", "3", "--out", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["kaploom-public-at3.png", "kaploom-seat1-at3.png", "kaploom-seat2-at3.png"]
    game, n = position(record, 3)
    assert n == 3 and game.to_json() != position(record, None)[0].to_json()
    assert main(["render", str(path), "--at", "0", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "kaploom-public-at0.png").is_file()


@pytest.mark.parametrize("args,expected", [
    (["--at", "999"], "the record has 15 entries, so N runs from 0 to 15"),
    (["--at", "-1"], "N runs from 0"),
])
def test_refusals_are_one_line(tmp_path, capsys, args, expected):
    path = ROOT / "tests" / "records" / "kaploom" / "rulebook_play_example.json"
    assert main(["render", str(path), *args, "--out", str(tmp_path)]) == EXIT_REFUSED
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err


def test_a_bad_record_is_refused(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["render", str(bad), "--out", str(tmp_path / "out")]) == EXIT_REFUSED
    assert "a record is a JSON object" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_module_without_the_two_functions_falls_back_to_render(monkeypatch):
    module = sys.modules.get("rendering.diemen") or __import__("rendering.diemen").diemen
    for name in ("public_picture", "seat_picture"):
        monkeypatch.delattr(module, name, raising=False)
    public, seat = renderers("diemen")
    assert public is module.render and seat is module.render


def test_file_names_say_game_view_and_seat(tmp_path, capsys):
    path = ROOT / "tests" / "records" / "tradeshowdown" / "rulebook_example.json"
    assert main(["render", str(path), "--at", "2", "--out", str(tmp_path)]) == 0
    for name in capsys.readouterr().out.split():
        stem = Path(name).name
        assert stem.startswith("tradeshowdown-") and stem.endswith("-at2.png")
        assert stem.split("-")[1] in ("public", "seat1", "seat2")
        with Image.open(io.BytesIO(Path(name).read_bytes())) as image:
            image.load()
