"""Benchmark: play generation on the opening positions of the 20 benchmark deals.

Run with the package installed, from the repository::

    python benchmarks/bench_movegen.py [--repeat 3] [--skip-command]

One process, one thread, everything side by side so that the ratios compare like with like:

1. **Move limits.** For K = 0 ... 6 and no limit (``all``): the plays of the full class
   (median count over the 20 positions), the median milliseconds per position of the kernel
   (:func:`solver.movegen.raw_plays`: every play as arrays, what a search uses) and of
   :func:`solver.movegen.generate_plays` (one ``Play`` object per play), and for K <= 3 the
   issue-4 kernel of the standard class (``standard_class.py``) with its plays.
2. **Bounded mode**, with no move limit: the best N plays (N = 64, 256, 1,024) and the plays
   above a tally threshold, against generating every play.
3. **Pieces and memory**, while generating every play with no move limit: the longest piece
   of the search (the most time between two polls of the stop test: how late a deadline or
   Ctrl-C is noticed), the peak of the memory numpy allocates (``tracemalloc``) and the
   process's peak resident set.
4. ``letterchess plays`` as a whole command, cold (numba compiling) and warm.

It prints Markdown tables.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import standard_class

from solver.board import Layout, read_board
from solver.dictionary import Dictionary
from solver.movegen import generate_plays, raw_plays
from solver.rules import Rules

BOARDS = Path(__file__).resolve().parent / "boards"
LIMITS: list[int | None] = [0, 1, 2, 3, 4, 5, 6, None]
BEST = (64, 256, 1024)
THRESHOLD = 150


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median seconds of ``repeat`` calls (after a warm-up call when ``repeat`` > 1), and
    what the last call returned. Every kernel is compiled before (by a first small call)."""
    if repeat > 1:
        function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def name(limit: int | None) -> str:
    return "all" if limit is None else str(limit)


def limits_table(layouts: list[Layout], dictionary: Dictionary, repeat: int) -> None:
    rules = Rules()
    print(
        "| K | plays (median) | kernel ms (median) | generate_plays ms "
        "| issue-4 kernel: plays | issue-4 kernel ms | issue-4 / new kernel |"
    )
    print("|---|---|---|---|---|---|---|")
    for limit in LIMITS:
        counts, kernel, full, old_counts, old = [], [], [], [], []
        times = repeat if limit is not None and limit <= 3 else 1
        for layout in layouts:
            args = (layout, layout.tile_mask, dictionary, rules, limit)
            seconds, raw = timed(lambda args=args: raw_plays(*args), times)
            kernel.append(seconds)
            counts.append(len(raw.word_ids))
            full.append(timed(lambda args=args: generate_plays(*args), 1)[0])
            if limit is not None and limit <= 3:
                old_counts.append(len(standard_class.generate_plays(*args)))
                old.append(timed(lambda a=args: standard_class.raw_plays(*a), times)[0])
        cells = "- | - | -"
        if old:
            ratio = statistics.median(o / k for o, k in zip(old, kernel, strict=True))
            cells = (
                f"{statistics.median(old_counts):.0f} | {statistics.median(old) * 1e3:.2f} "
                f"| {ratio:.2f}"
            )
        print(
            f"| {name(limit)} | {statistics.median(counts):.0f} "
            f"| {statistics.median(kernel) * 1e3:.2f} | {statistics.median(full) * 1e3:.1f} "
            f"| {cells} |",
            flush=True,
        )


def bounded_table(layouts: list[Layout], dictionary: Dictionary) -> None:
    """Every play and the bounded modes, no move limit; while generating every play, the
    longest piece (time between two polls of the stop test) and the numpy memory peak."""
    modes: list[tuple[str, dict]] = [("every play", {})]
    modes += [(f"best {n}", {"best": n}) for n in BEST]
    modes.append((f"tally >= {THRESHOLD}", {"min_tally": THRESHOLD}))
    seconds: dict[str, list[float]] = {label: [] for label, _ in modes}
    rows: dict[str, list[int]] = {label: [] for label, _ in modes}
    longest, peaks = [], []
    for layout in layouts:
        args = (layout, layout.tile_mask, dictionary, Rules(), None)
        for label, options in modes:
            polls = [time.perf_counter()]

            def stop(polls: list[float] = polls) -> bool:
                polls.append(time.perf_counter())
                return False

            tracemalloc.start()
            started = time.perf_counter()
            raw = raw_plays(*args, **options, stop=stop)
            seconds[label].append(time.perf_counter() - started)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            rows[label].append(len(raw.word_ids))
            if label == "every play":
                peaks.append(peak)
                longest.append(max(b - a for a, b in itertools.pairwise(polls)))
            del raw
        print(f"  {layout.to_line()}: {rows['every play'][-1]} plays", file=sys.stderr)
    print("\n| no move limit | plays returned (median) | ms (median) | speed-up (median) |")
    print("|---|---|---|---|")
    for label, _ in modes:
        ratios = [f / s for f, s in zip(seconds["every play"], seconds[label], strict=True)]
        print(
            f"| {label} | {statistics.median(rows[label]):.0f} "
            f"| {statistics.median(seconds[label]) * 1e3:.0f} | {statistics.median(ratios):.1f}x |"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("\n| every play, no move limit, 20 positions | median | max |")
    print("|---|---|---|")
    print(f"| plays | {statistics.median(rows['every play']):.0f} | {max(rows['every play'])} |")
    print(
        f"| longest piece, ms | {statistics.median(longest) * 1e3:.0f} | {max(longest) * 1e3:.0f} |"
    )
    print(
        f"| numpy peak (tracemalloc), MB | {statistics.median(peaks) / 1e6:.0f} "
        f"| {max(peaks) / 1e6:.0f} |"
    )
    print(f"| process peak RSS (whole run), MB | - | {rss:.0f} |")


def command_times(repeat: int) -> None:
    board = str(sorted(BOARDS.glob("*.txt"))[0])
    command = [sys.executable, "-m", "solver", "plays", board, "--top", "5"]
    print(f"\n`letterchess plays {Path(board).name} --top 5` (K = 2), whole process:\n")
    print("| start | seconds (median) |")
    print("|---|---|")
    cold = []
    for _ in range(max(1, repeat // 2)):
        with tempfile.TemporaryDirectory() as kernels, tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, LETTERCHESS_CACHE_DIR=cache)
            env["LETTERCHESS_KERNEL_CACHE_DIR"] = kernels
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            cold.append(time.perf_counter() - start)
    print(f"| cold: kernels compiling, no dictionary cache | {statistics.median(cold):.2f} |")
    subprocess.run(command, check=True, capture_output=True)
    warm = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        warm.append(time.perf_counter() - start)
    print(f"| warm: compiled kernels and dictionary cached | {statistics.median(warm):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-limits", action="store_true", help="Skip the K = 0 ... all table.")
    parser.add_argument("--skip-command", action="store_true", help="Skip the command timings.")
    args = parser.parse_args()
    dictionary = Dictionary.default()
    layouts = [read_board(str(path)) for path in sorted(BOARDS.glob("*.txt"))]
    for module in (standard_class, sys.modules["solver.movegen"]):  # compile the kernels
        module.raw_plays(layouts[0], layouts[0].tile_mask, dictionary, Rules(), 1)
    load = os.getloadavg()[0]
    print(f"{len(layouts)} opening positions of {BOARDS.name}/, standard rules, path words")
    print(f"load average at the start: {load:.2f} ({os.cpu_count()} cores)\n")
    if not args.skip_limits:
        limits_table(layouts, dictionary, args.repeat)
    bounded_table(layouts, dictionary)
    if not args.skip_command:
        command_times(args.repeat)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
