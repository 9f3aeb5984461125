"""letterchess bench: strategy lists, the statistics table, the paired comparison, the output
files and the errors: output paths checked before the work, a report that cannot be written
keeping the old one, and Ctrl-C keeping the deals every strategy finished.

Only ``greedy`` is sure to be registered, so a second strategy is made in conftest.py:
``test-rank`` plays the rank-th best tally each turn (registered in this process, so the CLI
runs it with ``--workers 0``, in process).
"""

from __future__ import annotations

import csv
import json
import re
import statistics

import numpy as np
import pytest

from solver.board import deal
from solver.cli import cli
from solver.runs.bench import BenchError, split_strategies
from solver.runs.deals import deal_seed
from solver.runs.settings import canonical_strategy
from solver.runs.statistics import bootstrap_mean_ci
from solver.solution import solve

from .conftest import REPOSITORY
from .conftest import run as invoke


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("greedy", ["greedy"]),
        (
            "greedy,beam:width=50,beam:width=400,dfs,nrpa",
            ["greedy", "beam:width=50", "beam:width=400", "dfs", "nrpa"],
        ),
        ("beam:width=50,depth=3,dfs", ["beam:width=50,depth=3", "dfs"]),
        (" greedy , nrpa:level=2 , iterations=10 ", ["greedy", "nrpa:level=2,iterations=10"]),
        ("nrpa:code=a:b,level=2,beam", ["nrpa:code=a:b,level=2", "beam"]),
        ("greedy,width=5", ["greedy:width=5"]),  # then an unknown parameter of greedy
        ("beam:,dfs", ["beam:", "dfs"]),
    ],
)
def test_split_strategies(text, specs):
    assert split_strategies(text) == specs


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("width=5,greedy", "'width=5' has no strategy before it"),
        ("greedy,,dfs", "empty item"),
        ("", "empty item"),
        ("greedy,", "empty item"),
    ],
)
def test_split_strategies_errors(text, message):
    with pytest.raises(BenchError, match=message):
        split_strategies(text)


def table_row(output: str, first: str) -> list[str]:
    """The cells of the first table line whose first cell is ``first``."""
    for line in output.splitlines():
        cells = line.split()
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in:\n{output}")


def test_bench_on_random_deals(runner, rank_strategy, tmp_path):
    json_out, csv_out = tmp_path / "bench.json", tmp_path / "bench.csv"
    specs = ["greedy", "test-rank:rank=2", "test-rank", "test-rank:rank=4"]
    result = invoke(
        runner,
        "bench", "--random", 3, "--strategies", ",".join(specs), "--max-states", 100,
        "--workers", 0, "--seed", 7, "--json", json_out, "--csv", csv_out, "--quiet", "--no-bound",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(
        "3 deals x 4 strategies, K=all (any number of moves), 100 states per solve, standard rules"
    )
    report = json.loads(json_out.read_text())
    assert report["format"] == "letterchess/bench-1"
    seeds = [deal_seed(7, i) for i in range(3)]
    assert [d["deal_seed"] for d in report["deals"]] == seeds
    assert [d["board"] for d in report["deals"]] == [deal(s).to_line() for s in seeds]
    solves = report["solves"]
    assert [(s["strategy"], s["deal_seed"]) for s in solves] == [
        (spec, seed) for spec in specs for seed in seeds
    ]
    # A random deal is searched with its own seed; the scores are those of solve().
    for s in solves[:3]:
        expected = solve(deal(s["deal_seed"]), "greedy", max_states=100, bound=False)
        assert s["score"] == expected.score == s["record"]["result"]["score"]

    scores = {spec: [s["score"] for s in solves if s["strategy"] == spec] for spec in specs}
    for spec, stats in zip(specs, report["stats"], strict=True):
        values = scores[spec]
        rows = [s for s in solves if s["strategy"] == spec]
        assert stats["mean"] == pytest.approx(np.mean(values))
        assert stats["median"] == pytest.approx(np.median(values))
        assert stats["sd"] == pytest.approx(np.std(values, ddof=1))
        assert (stats["min"], stats["max"]) == (min(values), max(values))
        assert stats["clear_rate"] == pytest.approx(np.mean([r["cleared"] for r in rows]))
        assert stats["mean_rounds"] == pytest.approx(np.mean([r["rounds"] for r in rows]))
        seconds = sum(r["seconds"] for r in rows)
        assert stats["states_per_second"] == pytest.approx(sum(r["states"] for r in rows) / seconds)
        cells = table_row(out, spec)
        assert cells[1:6] == [
            f"{np.mean(values):,.1f}",
            f"{np.median(values):,.1f}",
            f"{np.std(values, ddof=1):,.1f}",
            str(min(values)),
            str(max(values)),
        ]
        assert cells[6:8] == [f"{100 * stats['clear_rate']:.0f}", "%"]

    # The paired comparison, each strategy against greedy, deal by deal.
    assert "Paired comparison with greedy" in out and "percentile bootstrap" in out
    assert len(report["comparisons"]) == 3
    for spec, comparison in zip(specs[1:], report["comparisons"], strict=True):
        differences = [b - a for a, b in zip(scores["greedy"], scores[spec], strict=True)]
        low, high = bootstrap_mean_ci(differences, 7)
        assert comparison["mean_difference"] == pytest.approx(statistics.fmean(differences))
        assert (comparison["ci_low"], comparison["ci_high"]) == pytest.approx((low, high))
        assert low <= comparison["mean_difference"] <= high
        assert comparison["wins"] == sum(d > 0 for d in differences)
        assert comparison["ties"] == sum(d == 0 for d in differences)
        assert comparison["losses"] == sum(d < 0 for d in differences)
        # In the comparison table, the strategy's second row (the first is in the scores).
        rows = [line.split() for line in out.splitlines() if line.split()[:1] == [spec]]
        assert rows[1] == [
            spec,
            f"{statistics.fmean(differences):+.1f}",
            f"{low:+.1f}",
            "to",
            f"{high:+.1f}",
            str(comparison["wins"]),
            str(comparison["ties"]),
            str(comparison["losses"]),
        ]
    # Worse plays every turn: the rank strategies never beat greedy on all three deals.
    assert any(c["losses"] > 0 for c in report["comparisons"])

    with csv_out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 12
    assert [int(row["score"]) for row in rows] == [s["score"] for s in solves]
    assert set(rows[0]) == {
        "deal", "deal_seed", "strategy", "score", "bound", "cleared", "rounds", "seconds",
        "states", "stopped",
    }  # fmt: skip
    assert all(row["bound"] == "" for row in rows)  # --no-bound
    assert all(stats["mean_bound"] is None for stats in report["stats"])


def test_bench_bounds_every_deal_and_reports_the_gap(runner, rank_strategy, tmp_path):
    csv_out = tmp_path / "bench.csv"
    result = invoke(
        runner, "bench", "--random", 1, "--strategies", "greedy,test-rank", "--max-states", 50,
        "--workers", 0, "--quiet", "--csv", csv_out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    with csv_out.open() as handle:
        rows = list(csv.DictReader(handle))
    bound = solve(deal(0), "greedy", max_states=50).bound
    assert [int(row["bound"]) for row in rows] == [bound, bound]
    for row in rows:
        cells = table_row(result.stdout, row["strategy"])
        assert cells[-2:] == [f"{bound:,.1f}", f"{int(row['score']) / bound:.3f}"]


@pytest.mark.slow  # local worker processes: test_distribution_file_statistics_and_plot
def test_bench_in_a_process_pool_matches_in_process(runner, tmp_path):
    scores = {}
    for workers in (0, 2):
        path = tmp_path / f"bench-{workers}.csv"
        args = ["--strategies", "greedy", "--random", 4, "--max-states", 100, "--csv", path]
        result = invoke(runner, "bench", *args, "--workers", workers, "--seed", 3)
        assert result.exit_code == 0, result.output
        with path.open() as handle:
            scores[workers] = [int(row["score"]) for row in csv.DictReader(handle)]
        # Plain progress lines on stderr (not a terminal), one per solve.
        assert "[4/4]" in result.stderr
    assert scores[0] == scores[2]
    assert len(scores[0]) == 4


def test_bench_default_boards(runner, tmp_path):
    out = tmp_path / "bench.json"
    result = invoke(
        runner, "bench", "--strategies", "greedy", "--max-moves", 1, "--max-states", 20,
        "--workers", 0, "--json", out, "--quiet", "--no-bound",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("20 deals x 1 strategy, K=1")
    report = json.loads(out.read_text())
    assert [d["name"] for d in report["deals"]] == [f"deal-{i:02}" for i in range(1, 21)]
    assert report["comparisons"] == []
    assert "Paired comparison" not in result.stdout


def test_bench_without_the_repository_boards(runner, tmp_path, monkeypatch):
    monkeypatch.setattr("solver.runs.deals.repository_boards", lambda: tmp_path / "missing")
    result = invoke(runner, "bench", "--strategies", "greedy")
    assert result.exit_code == 2
    assert "pass --boards DIR or --random N" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("strategies", "named"),
    [
        ("greedy,nosuch", "'nosuch'"),
        ("greedy,greedy:width=3", "'greedy:width=3'"),
        ("greedy,width=3", "'greedy:width=3'"),
        ("width=3,greedy", "'width=3'"),
        ("greedy,,greedy", "empty item"),
        ("greedy,greedy", "names a strategy twice"),
    ],
)
def test_bench_bad_strategy_lists_are_usage_errors(runner, strategies, named):
    result = invoke(runner, "bench", "--random", 1, "--strategies", strategies)
    assert result.exit_code == 2, result.output
    assert named in result.output
    assert "Traceback" not in result.output


def test_bench_deal_options(runner, tmp_path):
    result = invoke(runner, "bench", "--random", 2, "--boards", tmp_path, "--strategies", "greedy")
    assert result.exit_code == 2 and "not both" in result.output
    result = invoke(runner, "bench", "--boards", tmp_path, "--strategies", "greedy")
    assert result.exit_code == 2 and "no *.txt board files" in result.output
    result = invoke(runner, "bench", "--boards", tmp_path / "nowhere", "--strategies", "greedy")
    assert result.exit_code == 2
    (tmp_path / "bad.txt").write_text("not a board\n")
    result = invoke(runner, "bench", "--boards", tmp_path, "--strategies", "greedy")
    assert result.exit_code == 1 and "bad.txt" in result.output


# ---------------------------------------------------------------------------------------------
# Examples, output paths checked before the work, Ctrl-C


@pytest.fixture
def no_solving(monkeypatch):
    """Fails the test if the bench starts solving."""

    def refuse(*args, **kwargs):
        raise AssertionError("the bench started solving")

    monkeypatch.setattr("solver.runs.bench.solve_all", refuse)


def test_the_help_example_of_strategies_is_accepted(runner, no_solving):
    (option,) = [p for p in cli.commands["bench"].params if p.name == "strategies_text"]
    example = re.search(r"e\.g\. (\S+)", option.help).group(1)
    assert len(split_strategies(example)) == 3
    # Accepted: the bench gets as far as solving.
    with pytest.raises(AssertionError, match="the bench started solving"):
        invoke(runner, "bench", "--random", 1, "--strategies", example, "--max-states", 20)


def test_the_readme_strategy_lists_are_valid():
    readme = (REPOSITORY / "README.md").read_text()
    lists = re.findall(r"bench .*--strategies (\S+)", readme)
    lists += re.findall(r"`(greedy,[^`\s]+)`", readme)
    assert len(lists) >= 2
    for text in lists:
        for spec in split_strategies(text):
            canonical_strategy(spec)  # raises for an unknown strategy or parameter


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--json", "OUT", "--csv", "OUT"], "--json and --csv name the same file"),
        (["--json", "/nonexistent/dir/x.json"], "folder /nonexistent/dir does not exist"),
        (["--csv", "/dev/null"], "/dev/null is a character device, not a regular file"),
        (["--json", ""], "an empty path names no file"),
        (["--json", "BOARD", "--boards", "BOARDS"], "--json names the same file as --boards"),
        (["--csv", "WORDS", "--dict", "WORDS"], "--csv names the same file as --dict"),
        (["--time-limit", "nan"], "'nan' is not a finite number of seconds above 0"),
    ],
)
def test_bad_outputs_are_usage_errors_before_any_work(runner, tmp_path, no_solving, args, message):
    boards = tmp_path / "boards"
    boards.mkdir()
    board = boards / "deal.txt"
    board.write_text(deal(3).to_text() + "\n")
    words = tmp_path / "words.txt"
    words.write_text("cat\n")
    names = {"OUT": tmp_path / "same", "BOARD": board, "BOARDS": boards, "WORDS": words}
    inputs = {path: path.read_bytes() for path in (board, words)}
    args = [names.get(arg, arg) for arg in args]
    if "--boards" not in args:
        args += ["--random", 1]
    result = invoke(runner, "bench", "--strategies", "greedy", "--max-states", 20, *args)
    assert result.exit_code == 2, result.output
    assert message in result.output.strip().splitlines()[-1]
    assert not (tmp_path / "same").exists()
    assert {path: path.read_bytes() for path in inputs} == inputs


def test_a_report_that_cannot_be_written_keeps_the_old_one(runner, tmp_path, monkeypatch):
    report = tmp_path / "bench.json"
    report.write_text("the old report")

    def disk_full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", disk_full)
    result = invoke(
        runner, "bench", "--random", 1, "--strategies", "greedy", "--max-states", 20,
        "--workers", 0, "--no-bound", "--quiet", "--json", report,
    )  # fmt: skip
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        f"Error: {report}: cannot write (No space left on device)"
    )
    assert report.read_text() == "the old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.json"]


def interrupt_after(monkeypatch, solves: int) -> None:
    """Ctrl-C after ``solves`` results have come in (as the real one, from solve_all)."""
    import solver.runs.bench as module

    real = module.solve_all

    def interrupted(tasks, workers=None):
        for count, result in enumerate(real(tasks, workers)):
            if count == solves:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(module, "solve_all", interrupted)


def test_ctrl_c_keeps_the_deals_every_strategy_finished(
    runner, rank_strategy, tmp_path, monkeypatch
):
    # Deal-major order: after 5 of the 2 x 3 solves, deals 0 and 1 are whole, deal 2 is not.
    interrupt_after(monkeypatch, 5)
    json_out, csv_out = tmp_path / "bench.json", tmp_path / "bench.csv"
    result = invoke(
        runner, "bench", "--random", 3, "--strategies", "greedy,test-rank", "--max-states", 50,
        "--workers", 0, "--no-bound", "--quiet", "--json", json_out, "--csv", csv_out,
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    assert result.stdout.startswith("2 deals x 2 strategies")
    assert "Scores on 2 deals" in result.stdout and "Paired comparison with greedy" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == (
        "Interrupted: the report covers the 2 of 3 deals that every strategy finished"
    )
    report = json.loads(json_out.read_text())
    assert report["interrupted"] is True and report["planned_deals"] == 3
    assert [d["deal_seed"] for d in report["deals"]] == [0, 1]
    assert [(s["strategy"], s["deal_seed"]) for s in report["solves"]] == [
        ("greedy", 0), ("greedy", 1), ("test-rank", 0), ("test-rank", 1),
    ]  # fmt: skip
    for s in report["solves"][:2]:
        expected = solve(deal(s["deal_seed"]), "greedy", max_states=50, bound=False)
        assert s["score"] == expected.score
    with csv_out.open() as handle:
        assert len(list(csv.DictReader(handle))) == 4


def test_ctrl_c_before_any_whole_deal_reports_nothing(runner, rank_strategy, tmp_path, monkeypatch):
    interrupt_after(monkeypatch, 1)
    json_out = tmp_path / "bench.json"
    result = invoke(
        runner, "bench", "--random", 2, "--strategies", "greedy,test-rank", "--max-states", 50,
        "--workers", 0, "--no-bound", "--quiet", "--json", json_out,
    )  # fmt: skip
    assert result.exit_code == 130
    assert "Interrupted: no deal was finished by every strategy: no report" in result.stderr
    assert "Traceback" not in result.output
    assert not json_out.exists()


def test_one_deal_one_strategy(runner):
    result = invoke(
        runner, "bench", "--random", 1, "--strategies", "greedy", "--max-states", 20,
        "--workers", 0, "--no-bound", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1 deal x 1 strategy, K=all (any number of moves)")
    assert "Scores on 1 deal\n" in result.stdout
