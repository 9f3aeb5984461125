"""Benchmark: play generation on the opening positions of the 20 benchmark deals.

Run with the package installed::

    python benchmarks/bench_movegen.py [--repeat 5] [--reference-max-moves 2]

For K = 1, 2 and 3 it reports the plays found (unique ``(word, tiles)``), the median
milliseconds per position of the kernel alone (:func:`solver.movegen.raw_plays`: every witness
as arrays, what a search uses) and of :func:`solver.movegen.generate_plays` (one ``Play``
object per play, the smallest witness kept), and for K <= 2 the reference generator
(:mod:`solver.reference`), all in this one process, one thread, with the ratios. Then it times
``letterchess plays`` as a whole command: cold (numba compiling, nothing cached) and warm.
It prints Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.board import read_board
from solver.dictionary import Dictionary
from solver.movegen import generate_plays, raw_plays
from solver.reference import reference_plays
from solver.rules import Rules

BOARDS = Path(__file__).resolve().parent / "boards"


def best_time(function, repeat: int) -> float:
    """Median seconds of ``repeat`` calls (after one warm-up call)."""
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def generation_table(repeat: int, reference_max_moves: int) -> None:
    dictionary = Dictionary.default()
    rules = Rules()
    layouts = [read_board(str(path)) for path in sorted(BOARDS.glob("*.txt"))]
    print(f"{len(layouts)} opening positions from {BOARDS.name}/, standard rules, path words\n")
    print(
        "| K | plays (median) | kernel ms (median) | generate_plays ms | reference ms "
        "| reference / kernel | reference / generate_plays |"
    )
    print("|---|---|---|---|---|---|---|")
    for max_moves in (1, 2, 3):
        counts, kernel, full, reference = [], [], [], []
        for layout in layouts:
            args = (layout, layout.tile_mask, dictionary, rules, max_moves)
            counts.append(len(generate_plays(*args)))
            kernel.append(best_time(lambda args=args: raw_plays(*args), repeat))
            full.append(best_time(lambda args=args: generate_plays(*args), repeat))
            if max_moves <= reference_max_moves:
                reference.append(best_time(lambda args=args: reference_plays(*args), 1))
        k_ms, g_ms = statistics.median(kernel) * 1e3, statistics.median(full) * 1e3
        if reference:
            r_ms = statistics.median(reference) * 1e3
            ratios = [r / k for r, k in zip(reference, kernel, strict=True)]
            ratios_full = [r / g for r, g in zip(reference, full, strict=True)]
            ref_cells = (
                f"{r_ms:.0f} | {statistics.median(ratios):.0f}x "
                f"| {statistics.median(ratios_full):.0f}x"
            )
        else:
            ref_cells = "- | - | -"
        print(
            f"| {max_moves} | {statistics.median(counts):.0f} | {k_ms:.2f} | {g_ms:.2f} "
            f"| {ref_cells} |"
        )


def command_times(repeat: int) -> None:
    board = str(sorted(BOARDS.glob("*.txt"))[0])
    command = [sys.executable, "-m", "solver", "plays", board, "--top", "5"]
    print(f"\n`letterchess plays {Path(board).name} --top 5` (K = 2), whole process:\n")
    print("| start | seconds (median) |")
    print("|---|---|")
    cold = []
    for _ in range(max(1, repeat // 2)):
        with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=numba_cache, LETTERCHESS_CACHE_DIR=cache)
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            cold.append(time.perf_counter() - start)
    print(
        f"| cold: first run, numba compiling, no dictionary cache | {statistics.median(cold):.2f} |"
    )
    subprocess.run(command, check=True, capture_output=True)
    warm = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        warm.append(time.perf_counter() - start)
    print(f"| warm: compiled kernels and dictionary cached | {statistics.median(warm):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reference-max-moves", type=int, default=2)
    args = parser.parse_args()
    generation_table(args.repeat, args.reference_max_moves)
    command_times(args.repeat)


if __name__ == "__main__":
    main()
