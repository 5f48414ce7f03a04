"""#27.15: long commands say how far they are (stderr), help for every option, readable
output, a refused command line exits 1 (as the README says), and `make bench` leaves the
tracked bench/results.json alone unless asked."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_REFUSED, build_parser, main
from bot.policies.match import Progress

ROOT = Path(__file__).resolve().parent.parent


def test_match_prints_progress_on_stderr_and_the_summary_on_stdout(capsys):
    assert main(["match", "slideslam", "random", "random", "--games", "4"]) == 0
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert lines and all("games/s" in line for line in lines), err
    assert "4/4 games" in lines[-1] and "done in" in lines[-1]
    assert any("left" in line for line in lines[:-1])
    assert out.startswith("slideslam: 4 games")


def test_match_quiet_and_json_keep_stdout_clean(capsys):
    assert main(["match", "slideslam", "random", "random", "--games", "2", "--json",
                 "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2 and err == ""


def test_progress_lines_every_few_games_with_rate_and_time_left():
    clock = iter(range(0, 1000, 2)).__next__  # each game takes 2 s
    stream = io.StringIO()
    progress = Progress("kaploom hard vs normal", 20, stream=stream, clock=clock)
    for _ in range(20):
        progress()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10  # every 2 games of 20
    assert lines[0] == "kaploom hard vs normal: 2/20 games, 0.50 games/s, about 36 s left"
    assert lines[-1].endswith("20/20 games, 0.50 games/s, done in 40 s")


def test_a_slow_run_says_something_at_least_every_half_minute():
    clock = iter(range(0, 10000, 20)).__next__  # 20 s a game, a line every 50 games
    stream = io.StringIO()
    progress = Progress("slow", 500, stream=stream, clock=clock)
    for _ in range(4):
        progress()
    assert len(stream.getvalue().splitlines()) == 2  # after 40 s and 80 s


def test_every_match_option_has_help():
    parser = build_parser()
    [subparsers] = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    for name in ("match", "selfplay", "render", "replay", "migrate"):
        p = subparsers.choices[name]
        missing = [a.dest for a in p._actions if not a.help]
        assert not missing, f"{name}: no help for {missing}"


@pytest.mark.parametrize("argv", [["match", "chess", "hard", "normal"],
                                  ["match", "slideslam", "hard"],
                                  ["match", "slideslam", "hard", "normal", "--games", "x"],
                                  ["replay"], ["nonsense"], ["selfplay", "slideslam"]])
def test_a_refused_command_line_exits_1_not_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == EXIT_REFUSED
    assert "error:" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["match", "slideslam", "hard", "normal", "--option", "x"],
                                  ["match", "slideslam", "hard", "normal", "--games", "0"]])
def test_refused_match_values_exit_1(argv, capsys):
    assert main(argv) == EXIT_REFUSED
    assert capsys.readouterr().err.count("\n") == 1


def test_from_the_command_line_argparse_exits_1():
    result = subprocess.run([sys.executable, "-m", "bot", "match", "chess", "a", "b"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "invalid choice" in result.stderr


def test_selfplay_says_who_won_by_name_counted_from_1(tmp_path, capsys):
    out = tmp_path / "game.json"
    assert main(["selfplay", "slideslam", "--seed", "7", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    record = json.loads(out.read_text())
    [winner] = record["result"]["winners"]
    assert f"Player {winner + 1} wins" in err and "{" not in err and "winners" not in err


# ---- make bench -----------------------------------------------------------------------------

@pytest.fixture
def quick_bench(monkeypatch, tmp_path):
    import bench.__main__ as bench
    monkeypatch.setattr(bench, "interaction_latency",
                        lambda: _done({"interaction ms (median)": 12.345}))
    monkeypatch.setattr(bench, "store_rates", lambda: _done({"store commits/s": 2000.0}))
    monkeypatch.setattr(bench, "module_rows", lambda: {"render ms": 6.0})
    steps = [{"offered_per_s": r, "done_per_s": r - 0.5, "p99_ms": 40.4, "rss_mb": 200.1,
              "http_per_move": 2.6, "sql_per_move": 10.2, "cpu_ms_per_move": 6.5,
              "note": "x" * 300} for r in (10, 25, 50, 100, 200)]
    monkeypatch.setattr(bench, "keyed_rows", lambda: {"load.steps": steps,
                                                      "load.p99_ms_at_50": 40.4,
                                                      "engine.slideslam.moves_per_s": 21435})
    monkeypatch.setattr(bench, "RESULTS", tmp_path / "results.json")
    monkeypatch.setattr(bench, "LOCAL_RESULTS", tmp_path / "results.local.json")
    return bench, tmp_path


async def _result(value):
    return value


def _done(value):
    return _result(value)


def test_bench_leaves_the_tracked_results_alone_unless_saved(quick_bench, capsys):
    bench, tmp = quick_bench
    assert bench.main([]) == 0
    assert (tmp / "results.local.json").is_file() and not (tmp / "results.json").exists()
    out, err = capsys.readouterr()
    assert "--save" in out and "bench: 1/4" in err
    assert bench.main(["--save"]) == 0
    assert json.loads((tmp / "results.json").read_text())["load"]["p99_ms_at_50"] == 40.4


def test_bench_prints_a_readable_summary(quick_bench, capsys):
    bench, _ = quick_bench
    bench.main([])
    out = capsys.readouterr().out
    assert all(len(line) <= 200 for line in out.splitlines())
    assert "{'" not in out and "[{" not in out
    assert "load.steps[5]" in out and "offered_per_s=200" in out
    assert "engine.slideslam.moves_per_s" in out and "21,435" in out


def test_the_local_results_are_ignored_by_git():
    assert "bench/results.local.json" in (ROOT / ".gitignore").read_text().split()


def test_balance_prints_progress(capsys):
    from bench import balance

    class Pool:
        def imap(self, fn, jobs, chunksize=1):
            return (f"result {j[2]}" for j in jobs)

    jobs = [("kaploom", ["hard", "normal"], i, None) for i in range(4)]
    assert balance.run(Pool(), jobs) == [f"result {i}" for i in range(4)]
    err = capsys.readouterr().err
    assert "balance: kaploom hard vs normal: 4/4 games" in err


def test_balance_plans_the_run_and_says_how_much_of_it_is_left():
    from bench import balance

    class Pool:
        def imap(self, fn, jobs, chunksize=1):
            return (balance.GameResult((0,), "knockout", 10, list(j[1])) for j in jobs)

    args = balance.build_parser().parse_args(["--only", "diemen"])
    plan = balance.Runner(None)
    balance.measure(plan, args)
    # the quick sizes: 100 self-play, 40 normal vs random, 10 x 10 hard vs normal, 3 x 10
    assert len(plan.jobs) == 100 + 40 + 100 + 30
    stream = io.StringIO()
    clock = iter(range(0, 100, 10)).__next__
    out = balance.measure(balance.Runner(Pool(), plan.jobs, stream=stream, clock=clock), args)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 6  # one a pairing
    assert lines[0] == "balance: run 100/270 games, 10 s so far, about " + \
        balance.duration(10 * sum(map(balance.cost, plan.jobs[100:]))
                         / sum(map(balance.cost, plan.jobs[:100]))) + " left"
    assert lines[-1].startswith("balance: run 270/270 games") and lines[-1].endswith("0 s left")
    assert out["self"][0]["games"] == 100


def test_balance_full_is_the_issue_size_and_a_given_size_wins():
    from bench import balance

    parse = balance.build_parser().parse_args
    assert balance.sizes("kaploom", parse(["--full"])) == {
        "games": 400, "supers": 400, "strength": 400, "hard": 400, "greedy": 400}
    assert balance.sizes("kaploom", parse([])) == balance.QUICK["kaploom"]
    assert balance.sizes("kaploom", parse(["--games", "6"]))["supers"] == 6
    assert balance.sizes("slideslam", parse(["--hard", "7"]))["hard"] == 7
    assert balance.sizes("slideslam", parse(["--full", "--games", "9"]))["games"] == 9
