"""letterchess distribution: deal seeds, the results file (resuming, damaged lines, conflicting
settings, files that are not results files, a property test of the reader), output paths
checked before the work, the statistics and the plot, runs killed with SIGKILL or stopped with
Ctrl-C, and a real Dask cluster, one of whose workers is killed mid-run.

Every run uses greedy with a state budget, so each deal's score is the same in every process
and on every run.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import signal
import subprocess
import sys
import time
import tracemalloc
from contextlib import suppress
from functools import cache
from pathlib import Path

import numpy as np
import psutil
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from solver.board import deal
from solver.budget import Budget
from solver.dictionary import Dictionary
from solver.record import Record
from solver.referee import check_record
from solver.runs.deals import deal_seed
from solver.runs.distribution import run_distribution
from solver.runs.executors import RunError
from solver.runs.results_file import (
    FORMAT,
    ResultsFile,
    ResultsFileError,
    SettingsConflict,
    _cut_short,
)
from solver.runs.settings import RunSettings
from solver.runs.statistics import bootstrap_mean_ci
from solver.solution import solve

from .conftest import TEST_WORDS
from .conftest import run as invoke

BUDGET = 100  # states per deal: greedy never needs as many, so no search is cut short


@cache
def reference_score(seed: int, max_moves: int = 2) -> int:
    """The score of the deal of ``seed`` solved here, in this process, as a run would."""
    layout = deal(seed)
    return solve(layout, "greedy", None, max_moves, seed, max_states=BUDGET, bound=False).score


def settings(**changes) -> RunSettings:
    values = dict(
        strategies=("greedy",),
        budget=Budget(None, BUDGET),
        max_moves=2,
        seed=0,
        dictionary=Dictionary.default().info(),
    )
    values.update(changes)
    return RunSettings(**values)


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def scores_by_seed(path: Path) -> dict[int, int]:
    lines = read_lines(path)
    found = {line["deal_seed"]: line["score"] for line in lines}
    assert len(found) == len(lines), "a deal is in the file twice"
    return found


def distribution_args(out: Path, n: int, *extra) -> list:
    return [
        "distribution", "--n", n, "--strategy", "greedy", "--max-states", BUDGET,
        "--out", out, "--max-moves", 2, *extra,
    ]  # fmt: skip


@pytest.fixture
def count_solves(monkeypatch):
    """Counts the deals solved (in process: use --workers 0)."""
    import solver.runs.executors as module

    solved: list[int] = []
    real = module.solve_task

    def counting(task):
        solved.append(task.index)
        return real(task)

    monkeypatch.setattr(module, "solve_task", counting)
    return solved


def test_deal_seeds():
    assert [deal_seed(0, i) for i in range(4)] == [0, 1, 2, 3]
    assert deal_seed(2, 5) == 2 * 1_000_003 + 5
    # Seeds never share a deal while N <= 1,000,003.
    assert deal_seed(1, 0) == deal_seed(0, 1_000_002) + 1


def test_distribution_file_statistics_and_plot(runner, tmp_path):
    out, plot = tmp_path / "results.jsonl", tmp_path / "scores.png"
    n, seed = 8, 3
    result = invoke(
        runner, *distribution_args(out, n, "--seed", seed, "--workers", 1, "--plot", plot)
    )
    assert result.exit_code == 0, result.output
    lines = read_lines(out)
    assert len(lines) == n
    assert sorted(line["index"] for line in lines) == list(range(n))
    for line in lines:
        assert next(iter(line)) == "format" and line["format"] == FORMAT
        assert line["deal_seed"] == seed * 1_000_003 + line["index"]
        assert line["board"] == deal(line["deal_seed"]).to_line()
        assert line["score"] == reference_score(line["deal_seed"])
        assert line["stopped"] == "finished"
        assert line["settings"] == {
            "strategy": "greedy",
            "time_limit": None,
            "max_states": BUDGET,
            "max_moves": 2,
            "seed": seed,
            "rules": {"word_shape": "path", "min_word_length": 3, "min_moves": 0,
                      "moves_per_tile": 1},
            "dictionary": Dictionary.default().info(),
            "bound": False,
        }  # fmt: skip
        assert line["bound"] is None and "bound" not in line["record"]["search"]
        record = line["record"]
        assert record["result"]["score"] == line["score"]
        assert (record["result"]["cleared"], record["result"]["rounds"]) == (
            line["cleared"],
            line["rounds"],
        )
        assert record["search"]["states"] == line["states"]
    verdict = check_record(Record.from_dict(lines[0]["record"]), Dictionary.default())
    assert verdict.fault is None

    # The statistics, against numpy on the file.
    scores = np.array([line["score"] for line in lines])
    out_text = result.stdout
    assert f"{n} deals (seeds {seed * 1_000_003} to {seed * 1_000_003 + n - 1})" in out_text
    low, high = bootstrap_mean_ci(scores, seed)
    assert (
        f"mean score   {scores.mean():.1f}  (95 % CI {low:.1f} to {high:.1f}, percentile "
        f"bootstrap, 10,000 resamples, seed {seed})" in out_text
    )
    assert low < scores.mean() < high
    percentiles = np.percentile(scores, [5, 25, 50, 75, 95])
    expected = "  ".join(
        f"{p}th {v:g}" for p, v in zip((5, 25, 50, 75, 95), percentiles, strict=True)
    )
    assert f"percentiles  {expected}" in out_text
    cleared = sum(line["cleared"] for line in lines)
    assert f"cleared      {100 * cleared / n:.1f} % ({cleared} of {n})" in out_text
    high_scores = int((scores > 400).sum())
    assert f"above 400    {100 * high_scores / n:.1f} % ({high_scores} of {n})" in out_text
    rounds = np.mean([line["rounds"] for line in lines])
    assert f"mean rounds  {rounds:.2f}" in out_text

    # Plain progress lines on stderr, one per deal (not a terminal).
    assert len(re.findall(r"^\[\d+/8\] deal \d+ \(seed \d+\): score", result.stderr, re.M)) == 8

    data = plot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    assert f"Histogram written to {plot}" in out_text


def test_with_bound_every_deal_has_its_bound_and_the_mean_gap(runner, tmp_path):
    out = tmp_path / "results.jsonl"
    result = invoke(runner, *distribution_args(out, 2, "--workers", 0, "--bound"))
    assert result.exit_code == 0, result.output
    lines = read_lines(out)
    bounds = [line["bound"] for line in lines]
    assert all(bound >= line["score"] for bound, line in zip(bounds, lines, strict=True))
    assert [line["record"]["search"]["bound"] for line in lines] == bounds
    gap = np.mean([line["score"] / line["bound"] for line in lines])
    assert f"mean bound   {np.mean(bounds):.1f}; mean score / bound {gap:.3f}" in result.stdout
    # The bound changes no game: the run resumes without it, and the summary then omits it.
    more = invoke(runner, *distribution_args(out, 3, "--workers", 0))
    assert more.exit_code == 0, more.output
    assert "mean bound" not in more.stdout


def test_bootstrap_interval():
    rng = np.random.default_rng(1)
    values = rng.integers(300, 500, size=200)
    low, high = bootstrap_mean_ci(values, 5)
    assert (low, high) == bootstrap_mean_ci(values, 5)  # seeded: the same every time
    assert bootstrap_mean_ci(values, 6) != (low, high)
    # The same interval, within resampling noise, as the textbook bootstrap of indices.
    means = values[rng.integers(0, values.size, size=(10_000, values.size))].mean(axis=1)
    textbook = np.quantile(means, [0.025, 0.975])
    width = high - low
    assert abs(low - textbook[0]) < 0.1 * width and abs(high - textbook[1]) < 0.1 * width
    # And about the normal approximation's.
    half = 1.96 * values.std(ddof=1) / np.sqrt(values.size)
    assert width == pytest.approx(2 * half, rel=0.1)
    assert bootstrap_mean_ci([7, 7, 7], 0) == (7.0, 7.0)


def test_resuming_skips_finished_deals(runner, tmp_path, count_solves):
    out = tmp_path / "results.jsonl"
    result = invoke(runner, *distribution_args(out, 3, "--workers", 0))
    assert result.exit_code == 0, result.output
    assert sorted(count_solves) == [0, 1, 2]

    count_solves.clear()
    result = invoke(runner, *distribution_args(out, 5, "--workers", 0))
    assert result.exit_code == 0, result.output
    assert sorted(count_solves) == [3, 4]
    assert "3 of 5 deals already solved; solving the other 2" in result.stderr
    assert "5 deals (seeds 0 to 4)" in result.stdout and "2 solved now, 3 from" in result.stdout

    count_solves.clear()
    result = invoke(runner, *distribution_args(out, 4, "--workers", 0))
    assert result.exit_code == 0 and count_solves == []
    # Deal 4, beyond --n 4, is kept but not counted.
    assert "(1 more deal in" in result.stdout and "is not counted)" in result.stdout
    assert "already holds every deal asked for (4 deals)" in result.stderr
    assert "solving the other" not in result.stderr
    scores = [reference_score(seed) for seed in range(4)]
    assert f"mean score   {np.mean(scores):.1f}" in result.stdout
    assert scores_by_seed(out) == {seed: reference_score(seed) for seed in range(5)}


@pytest.mark.parametrize("cut", ["middle", "first-bytes", "in-a-string", "in-a-number"])
def test_a_last_line_cut_short_is_removed_and_redone(runner, tmp_path, count_solves, cut):
    out = tmp_path / "results.jsonl"
    assert invoke(runner, *distribution_args(out, 4, "--workers", 0)).exit_code == 0
    data = out.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1  # of the last line
    last = read_lines(out)[-1]["index"]
    ends = {
        "middle": start + (len(data) - start) // 2,
        "first-bytes": start + 5,
        "in-a-string": data.index(b'"board": "', start) + 14,
        "in-a-number": data.index(b'"seconds": ', start) + len('"seconds": 0.'),
    }
    out.write_bytes(data[: ends[cut]])
    count_solves.clear()
    result = invoke(runner, *distribution_args(out, 4, "--workers", 0))
    assert result.exit_code == 0, result.output
    assert f"{out}:4: cut short" in result.stderr and "solved again" in result.stderr
    assert count_solves == [last]
    assert scores_by_seed(out) == {seed: reference_score(seed) for seed in range(4)}
    assert out.read_bytes().endswith(b"\n")


def test_a_whole_last_line_without_its_end_of_line_is_kept(runner, tmp_path, count_solves):
    out = tmp_path / "results.jsonl"
    assert invoke(runner, *distribution_args(out, 3, "--workers", 0)).exit_code == 0
    data = out.read_bytes()
    out.write_bytes(data[:-1])
    count_solves.clear()
    result = invoke(runner, *distribution_args(out, 4, "--workers", 0))
    assert result.exit_code == 0, result.output
    assert count_solves == [3]  # the last line's deal is not solved again
    assert "cut short" not in result.stderr
    assert out.read_bytes().startswith(data)
    assert scores_by_seed(out) == {seed: reference_score(seed) for seed in range(4)}


def test_a_file_cut_in_its_first_line_is_redone(runner, tmp_path, count_solves):
    out = tmp_path / "results.jsonl"
    out.write_bytes(b'{"format": "letterchess/distrib')
    result = invoke(runner, *distribution_args(out, 2, "--workers", 0))
    assert result.exit_code == 0, result.output
    assert f"{out}:1: cut short" in result.stderr
    assert sorted(count_solves) == [0, 1] and len(read_lines(out)) == 2


def _results_file(runner, tmp_path, n: int = 3) -> Path:
    out = tmp_path / "results.jsonl"
    assert invoke(runner, *distribution_args(out, n, "--workers", 0)).exit_code == 0
    return out


@pytest.mark.parametrize(
    ("damage", "line", "problem"),
    [
        # A line of ours cut short before the end is no interrupted write.
        (lambda lines: lines.__setitem__(1, lines[1][:50] + "\n"), 2, "not JSON"),
        # A complete JSON line of our format that is not a result (it was called "cut short"
        # and deleted).
        (
            lambda lines: lines.append('{"format": "letterchess/distribution-1", "index": 9}\n'),
            4,
            "field 'deal_seed' is missing or not an integer",
        ),
        (
            lambda lines: lines.append('{"format": "letterchess/distribution-1", "index": 9}'),
            4,
            "field 'deal_seed' is missing or not an integer",
        ),
        # JSON of another kind, or garbage, between or after good lines.
        (lambda lines: lines.insert(1, "garbage\n"), 2, "not JSON"),
        (lambda lines: lines.insert(2, '{"score": 3}\n'), 3, "not a letterchess/distribution-1"),
        (lambda lines: lines.append("garbage"), 4, "not JSON"),
        (lambda lines: lines.append("\udcff\n"), 4, "not text"),
        # Starts as ours, but with a fault before its end: not a line cut short.
        (
            lambda lines: lines.append(lines[0][: lines[0].index(', "deal_seed"')] + "}x"),
            4,
            "Extra data",
        ),
        (lambda lines: lines.append(lines[0][:120].replace('"index": ', '"index": x')), 4, "JSON"),
        (
            lambda lines: lines.__setitem__(0, lines[0].replace('"index": 0', '"index": -1')),
            1,
            "field 'index' is negative",
        ),
        (
            lambda lines: lines.__setitem__(
                0, lines[0].replace('"score": ', '"score": 1' + "0" * 30)
            ),
            1,
            "field 'score' is out of range",
        ),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_removed(runner, tmp_path, damage, line, problem):
    out = _results_file(runner, tmp_path)
    lines = out.read_text().splitlines(keepends=True)
    damage(lines)
    out.write_bytes("".join(lines).encode("utf-8", "surrogateescape"))
    before = out.read_bytes()
    result = invoke(runner, *distribution_args(out, 3, "--workers", 0))
    assert result.exit_code == 1, result.output
    (message,) = result.output.strip().splitlines()  # one line
    assert message.startswith(f"Error: {out}:{line}: ") and problem in message
    assert message.endswith("repair or remove this line")
    assert "cut short" not in result.output and "Usage:" not in result.output
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    "text",
    [
        "hello\n",
        "a,b\n1,2",
        '{"score": 3}\n',
        "hello",
        "\n\nhello\n",
        '{"format": "letterchess/record-1", "board": "..."}\n',
        '{\n  "format": "letterchess/record-1",\n  "board": "..."\n}\n',
        "x" * 3_000_000,
    ],
)
def test_a_file_that_is_not_a_results_file_is_left_alone(runner, tmp_path, text):
    out = tmp_path / "other.txt"
    out.write_text(text)
    result = invoke(runner, *distribution_args(out, 2, "--workers", 0))
    assert result.exit_code == 1
    (message,) = result.output.strip().splitlines()
    assert message.startswith(f"Error: {out}:")
    assert "this is not a results file of letterchess distribution; check --out" in message
    assert "repair" not in message
    assert out.read_text() == text


def test_a_game_record_given_as_out_is_not_a_results_file(runner, tmp_path):
    record = tmp_path / "game.json"
    solve(deal(5), "greedy", None, 2, 5, max_states=10, bound=False).record.save(record)
    before = record.read_bytes()
    result = invoke(runner, *distribution_args(record, 2, "--workers", 0))
    assert result.exit_code == 1
    assert f"{record}:1:" in result.output and "not a results file" in result.output
    assert "repair" not in result.output
    assert record.read_bytes() == before


def test_a_huge_line_is_refused_with_bounded_memory(tmp_path):
    out = tmp_path / "big.jsonl"
    with out.open("wb") as handle:
        handle.write(b'{"format": "letterchess/distribution-1", "index": 0, "x": "')
        for _ in range(64):  # 64 MB, no end of line: read whole, it would cost that much
            handle.write(b"a" * 1_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(ResultsFileError, match=rf"^{out}:1: longer than 1,048,576 bytes"):
            ResultsFile.open(out, settings())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000
    assert out.stat().st_size == 64_000_000 + 59


@pytest.mark.parametrize(
    ("options", "conflict"),
    [
        (["--max-moves", 1], "max_moves 2 (asked: 1)"),
        (["--seed", 1], "seed 0 (asked: 1)"),
        (["--max-states", 99], "max_states 100 (asked: 99)"),
        (["--time-limit", 5], "time_limit none (asked: 5.0)"),
        (["--word-shape", "line"], "rules word_shape=path"),
        (["--strategy", "test-rank"], "strategy greedy (asked: test-rank:rank=2)"),
        (["--dict", "WORDS"], "dictionary scowl-70 sha256"),
    ],
)
def test_conflicting_settings_are_an_error(runner, tmp_path, rank_strategy, options, conflict):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(TEST_WORDS) + "\n")
    out = tmp_path / "results.jsonl"
    assert invoke(runner, *distribution_args(out, 2, "--workers", 0)).exit_code == 0
    before = out.read_bytes()
    options = [words if option == "WORDS" else option for option in options]
    result = invoke(runner, *distribution_args(out, 3, "--workers", 0), *options)
    # What the file holds is content, not usage: exit 1 and one line, no "Usage:" lines.
    assert result.exit_code == 1, result.output
    (message,) = result.output.strip().splitlines()
    assert message.startswith(f"Error: {out}:1: deals solved with other settings: ")
    assert conflict in message
    assert out.read_bytes() == before
    # The same settings spelled otherwise are no conflict: greedy has no parameter to spell.
    result = invoke(runner, *distribution_args(out, 2, "--workers", 0, "--strategy", "greedy:"))
    assert result.exit_code == 0, result.output


def test_one_run_per_file(tmp_path):
    out = tmp_path / "results.jsonl"
    with ResultsFile.open(out, settings()), pytest.raises(ResultsFileError, match="another run"):
        ResultsFile.open(out, settings())
    with ResultsFile.open(out, settings()):
        pass  # the lock went with the first one


def test_usage_errors(runner, tmp_path):
    out = tmp_path / "results.jsonl"
    result = invoke(runner, "distribution", "--n", 2, "--strategy", "nosuch", "--out", out)
    assert result.exit_code == 2 and "unknown strategy 'nosuch'" in result.output
    result = invoke(runner, *distribution_args(out, 2, "--workers", 2, "--scheduler", "x:1"))
    assert result.exit_code == 2 and "--workers is for local runs" in result.output
    result = invoke(runner, "distribution", "--n", 0, "--out", out)
    assert result.exit_code == 2
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "R", "--plot", "R"], "--out and --plot name the same file"),
        (["--out", "R", "--plot", "DIR/sub/../r.jsonl"], "--out and --plot name the same file"),
        (
            ["--out", "R", "--plot", "WORDS", "--dict", "WORDS"],
            "--plot names the same file as --dict",
        ),
        (["--out", "WORDS", "--dict", "WORDS"], "--out names the same file as --dict"),
        (["--out", "/dev/null"], "/dev/null is a character device, not a regular file"),
        (["--out", ""], "an empty path names no file"),
        (["--out", "DIR"], "is a folder, not a file"),
        (["--out", "DIR/missing/r.jsonl"], "missing does not exist"),
        (["--out", "R", "--plot", "DIR/missing/h.png"], "missing does not exist"),
        (["--out", "R", "--time-limit", "nan"], "'nan' is not a finite number of seconds above 0"),
        (["--out", "R", "--time-limit", "inf"], "'inf' is not a finite number of seconds above 0"),
        (["--out", "R", "--time-limit", "-1"], "--time-limit"),
    ],
)
def test_bad_paths_and_budgets_are_usage_errors_before_any_work(
    runner, tmp_path, count_solves, args, message
):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(TEST_WORDS) + "\n")
    before = words.read_bytes()
    names = {"R": str(tmp_path / "r.jsonl"), "WORDS": str(words), "DIR": str(tmp_path)}
    args = [names.get(arg, arg).replace("DIR", str(tmp_path)) for arg in args]
    (tmp_path / "sub").mkdir()
    result = invoke(
        runner, "distribution", "--n", 2, "--strategy", "greedy", "--max-states", BUDGET,
        "--workers", 0, *args,
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert message in result.output.strip().splitlines()[-1]
    assert "Traceback" not in result.output
    assert count_solves == []  # refused before the work
    assert not (tmp_path / "r.jsonl").exists() and words.read_bytes() == before


def test_settings_refuse_a_budget_no_search_can_keep():
    for bad in (math.nan, math.inf, 0.0, -1.0):
        with pytest.raises(ValueError, match="time_limit must be a finite number of seconds > 0"):
            settings(budget=Budget(bad, None))
    with pytest.raises(ValueError, match="max_states must be >= 1, not 0"):
        settings(budget=Budget(None, 0))
    with pytest.raises(ValueError, match="needs a time limit, a state budget or both"):
        settings(budget=Budget(None, None))
    assert settings(budget=Budget(2.5, None)).results_dict()["time_limit"] == 2.5


def test_paths_that_are_no_results_file(tmp_path):
    with pytest.raises(ResultsFileError, match=r"^/dev/null is a character device"):
        ResultsFile.open("/dev/null", settings())
    with pytest.raises(ResultsFileError, match=r"^an empty path names no file$"):
        ResultsFile.open("", settings())
    with pytest.raises(ResultsFileError, match="is a folder"):
        ResultsFile.open(tmp_path, settings())


def test_one_deal_is_one_deal(runner, tmp_path):
    out = tmp_path / "results.jsonl"
    result = invoke(runner, *distribution_args(out, 1, "--workers", 0))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        f"1 deal (seed 0): greedy, K=2 (at most 2 moves a turn), {BUDGET} states per deal"
    )
    result = invoke(runner, *distribution_args(out, 1, "--workers", 0))
    assert "already holds every deal asked for (1 deal)" in result.stderr
    assert "1 solved now" not in result.stdout and "0 solved now, 1 from" in result.stdout


# ---------------------------------------------------------------------------------------------
# The reader, line by line: what is a line cut short, and what any bytes do


def good_line(index: int) -> bytes:
    """A results line as run_distribution writes it (the fields it checks, a stand-in record)."""
    line = {
        "format": FORMAT, "index": index, "deal_seed": deal_seed(0, index), "board": "B",
        "score": 400 + index, "cleared": False, "rounds": 7, "seconds": 0.012, "states": 9,
        "stopped": "finished", "bound": None, "settings": settings().results_dict(),
        "record": {"format": "letterchess/record-1", "turns": [{"word": "caf\u00e9", "x": -1.5e-07}]},
    }  # fmt: skip
    return (json.dumps(line) + "\n").encode()


def test_every_beginning_of_a_line_of_ours_is_cut_short_and_nothing_else():
    line = good_line(3).rstrip(b"\n")
    assert all(_cut_short(line[:end]) for end in range(1, len(line)))
    assert not _cut_short(line)  # whole: kept (its end of line is added)
    for bad in (b"hello", line[:80] + b"\xff", line[:30] + b"\t", b'{"score": 1', b"[" * 5000):
        assert not _cut_short(bad)


def test_a_whole_file_of_lines_is_read_one_by_one(tmp_path):
    out = tmp_path / "results.jsonl"
    out.write_bytes(b"".join(good_line(i) for i in range(50)) + good_line(7))
    with ResultsFile.open(out, settings()) as results:
        assert sorted(results.done) == list(range(50))
        assert results.notes == [f"{out}: 1 line repeats a deal already in the file; ignored"]


# Files for the property test below: pieces (whole lines, their beginnings and ends, JSON of
# other kinds, any bytes), then maybe a last piece with no end of line (a beginning of a line,
# a whole line, or any bytes): the cases where a line may be removed or given its end.
_LINE = st.integers(0, 5).map(good_line)
_BEGINNING = st.tuples(_LINE, st.integers(0, 3000)).map(lambda p: p[0][: p[1]])
_PIECES = st.one_of(
    _LINE,
    _BEGINNING,
    st.tuples(_LINE, st.integers(0, 3000)).map(lambda p: p[0][p[1] :]),
    st.sampled_from([b"\n", b"\r\n", b" ", b"{}", b'{"format": "letterchess/record-1"}\n']),
    st.binary(max_size=40),
)
_FILES = st.tuples(
    st.lists(st.one_of(_LINE, _PIECES), max_size=6),
    st.one_of(st.just(b""), _BEGINNING, _LINE.map(bytes.rstrip), st.binary(max_size=20)),
).map(lambda parts: b"".join(parts[0]) + parts[1])


@given(data=_FILES)
@hypothesis_settings(
    max_examples=300,
    deadline=None,
    derandomize=True,  # the same examples on every run
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_any_bytes_raise_our_errors_only_and_lose_no_line(tmp_path, data):
    out = tmp_path / "results.jsonl"
    out.write_bytes(data)
    try:
        with ResultsFile.open(out, settings()) as results:
            done = dict(results.done)
    except (ResultsFileError, SettingsConflict):
        assert out.read_bytes() == data  # an error changes nothing
        return
    after = out.read_bytes()
    if after == data or after == data + b"\n":
        return  # kept whole, or a whole last line given its end of line
    # Removed: only the last line, without an end of line, and only the beginning of ours.
    assert data.startswith(after) and after in (b"", *[data[: i + 1] for i in _newlines(data)])
    removed = data[len(after) :]
    assert b"\n" not in removed and _cut_short(removed)
    assert set(done) <= set(range(6))


def _newlines(data: bytes) -> list[int]:
    return [i for i, byte in enumerate(data) if byte == ord("\n")]


def test_without_dask_a_one_line_error(runner, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    out = tmp_path / "results.jsonl"
    result = invoke(runner, *distribution_args(out, 2, "--scheduler", "tcp://127.0.0.1:1"))
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "Error: --scheduler needs Dask's distributed scheduler: pip install 'letterchess[dask]'"
    )


def test_an_unreachable_scheduler(tmp_path):
    with pytest.raises(RunError, match="cannot reach the Dask scheduler"):
        run_distribution(
            tmp_path / "r.jsonl",
            2,
            settings(),
            scheduler="tcp://127.0.0.1:9",
            connect_timeout=1,
            progress=False,
        )


# ---------------------------------------------------------------------------------------------
# Interrupted runs: a real process, killed


def line_count(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def start_run(out: Path, n: int, log: Path) -> subprocess.Popen:
    args = [sys.executable, "-m", "solver", *map(str, distribution_args(out, n))]
    return subprocess.Popen(
        [*args, "--workers", "1", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        start_new_session=True,  # its own process group, as a shell job
    )


def wait_for_lines(process: subprocess.Popen, out: Path, log: Path, lines: int) -> None:
    deadline = time.monotonic() + 120
    while line_count(out) < lines:
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "no results in 120 s"
        time.sleep(0.01)


def resume_and_compare(runner, out: Path, n: int) -> None:
    solved_before = len(read_lines(out))
    assert 3 <= solved_before < n, "the run was not stopped midway: raise n"
    result = invoke(runner, *distribution_args(out, n, "--workers", 1))
    assert result.exit_code == 0, result.output
    assert f"{n - solved_before} solved now, {solved_before} from" in result.stdout
    # The same results as an uninterrupted run: each deal's score as solved in one go.
    assert scores_by_seed(out) == {seed: reference_score(seed) for seed in range(n)}


# Slow: a real process is started and killed. A faster test covers resuming a file cut by a
# killed run (test_a_last_line_cut_short_is_removed_and_redone).
@pytest.mark.slow
def test_a_run_killed_with_sigkill_resumes_to_the_same_results(runner, tmp_path):
    out, log, n = tmp_path / "results.jsonl", tmp_path / "log.txt", 40
    process = start_run(out, n, log)
    try:
        wait_for_lines(process, out, log, 3)
        children = psutil.Process(process.pid).children(recursive=True)
        assert children, "no worker process"
        os.kill(process.pid, signal.SIGKILL)  # the main process only, as `kill -9 PID`
        assert process.wait(10) == -signal.SIGKILL
        # The orphaned worker notices and exits by itself.
        _, alive = psutil.wait_procs(children, timeout=15)
        assert not alive
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    resume_and_compare(runner, out, n)


@pytest.mark.slow
def test_a_run_stopped_with_ctrl_c_resumes_to_the_same_results(runner, tmp_path):
    out, log, n = tmp_path / "results.jsonl", tmp_path / "log.txt", 40
    process = start_run(out, n, log)
    try:
        wait_for_lines(process, out, log, 3)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: to the whole foreground job
        assert process.wait(30) == 130, log.read_text()
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    message = log.read_text()
    assert "Interrupted: the deals solved so far are in" in message
    assert "Traceback" not in message
    resume_and_compare(runner, out, n)


# ---------------------------------------------------------------------------------------------
# A real Dask cluster: two worker processes on this machine


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
    ) as local:
        yield local


# Slow: a real cluster. The tasks it runs are those the local runs solve, and the Dask errors
# (no Dask, no scheduler) are tested without one.
@pytest.mark.slow
def test_dask_gives_the_results_of_a_local_run(runner, tmp_path, cluster):
    out, n = tmp_path / "results.jsonl", 6
    result = invoke(runner, *distribution_args(out, n, "--scheduler", cluster.scheduler_address))
    assert result.exit_code == 0, result.output
    assert scores_by_seed(out) == {seed: reference_score(seed) for seed in range(n)}
    # Resuming works the same way from a cluster.
    result = invoke(
        runner, *distribution_args(out, n + 2, "--scheduler", cluster.scheduler_address)
    )
    assert result.exit_code == 0, result.output
    assert "2 solved now, 6 from" in result.stdout
    assert scores_by_seed(out) == {seed: reference_score(seed) for seed in range(n + 2)}


@pytest.mark.slow
def test_dask_redoes_the_deals_of_a_killed_worker(tmp_path, cluster):
    from distributed import Client

    # K=3 makes each deal take a few tenths of a second: the killed worker is mid-deal.
    n, max_moves = 10, 3
    killed: dict[str, list] = {}
    with Client(cluster.scheduler_address, set_as_default=False) as client:
        pids = client.run(os.getpid)

        def kill_a_busy_worker(line: dict) -> None:
            if killed:
                return
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                for address, keys in client.processing().items():
                    if keys and address in pids:
                        os.kill(pids[address], signal.SIGKILL)
                        killed[address] = list(keys)
                        return
                time.sleep(0.01)

        run = run_distribution(
            tmp_path / "results.jsonl",
            n,
            settings(max_moves=max_moves),
            scheduler=cluster.scheduler_address,
            on_line=kill_a_busy_worker,
            progress=False,
        )
        assert killed, "no worker had a deal in progress"
        assert [address for address, keys in killed.items() if keys]
        # The nanny restarts the killed worker.
        client.wait_for_workers(2, timeout=60)
    assert run.solved == n and len(run.results) == n
    expected = {seed: reference_score(seed, max_moves) for seed in range(n)}
    assert scores_by_seed(tmp_path / "results.jsonl") == expected
