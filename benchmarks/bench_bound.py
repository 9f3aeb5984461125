"""Benchmark (issue 7): the upper bound on the 20 standard deals, against the best scores the
strategies found.

Run with the package installed::

    letterchess bench --strategies greedy,beam,dfs,nrpa,nmcs --time-limit 10 --workers 2 \\
        --json bench-10s.json
    python benchmarks/bench_bound.py [--bench bench-10s.json]

For each deal of ``benchmarks/boards`` it computes three admissible bounds, timing each:
``letters`` (the letters alone, a linear programme over the words that fit: ``letterchess
bound --unrestricted``), ``words`` (the same over the words formable on the board with K = 2)
and ``placements`` (the default, ``letterchess bound``: over the words' placements, no tile
in place twice). With ``--bench``, a ``letterchess bench --json`` report, it also prints each
strategy's mean score, the best score any strategy found on each deal, and the ratio of the
bound to it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from solver.board import read_board
from solver.dictionary import Dictionary
from solver.search.bound import board_bound

BOARDS = Path(__file__).resolve().parent / "boards"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", default=None, help="a `letterchess bench --json` report")
    args = parser.parse_args()
    dictionary = Dictionary.default()
    board_bound(read_board(str(BOARDS / "deal-01.txt")), dictionary)  # warm up

    rows = []
    for path in sorted(BOARDS.glob("*.txt")):
        layout = read_board(str(path))
        row = {"deal": path.stem}
        for name, max_moves, placed in (
            ("letters", None, False),
            ("words", 2, False),
            ("placements", 2, True),
        ):
            started = time.perf_counter()
            found = board_bound(layout, dictionary, max_moves=max_moves, placed=placed)
            row[name] = found.score
            row[f"{name} s"] = time.perf_counter() - started
        rows.append(row)

    best: dict[str, int] = {}
    means: dict[str, float] = {}
    if args.bench:
        report = json.loads(Path(args.bench).read_text())
        for solve in report["solves"]:
            best[solve["deal"]] = max(best.get(solve["deal"], solve["score"]), solve["score"])
        for stats in report["stats"]:
            means[stats["strategy"]] = stats["mean"]

    print("| deal | letters | words | placements | seconds | best found | placements / best |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        found = best.get(row["deal"])
        ratio = f"{row['placements'] / found:.3f}" if found else "-"
        print(
            f"| {row['deal']} | {row['letters']} | {row['words']} | {row['placements']} "
            f"| {row['placements s']:.2f} | {found or '-'} | {ratio} |"
        )
    print()
    for name in ("letters", "words", "placements"):
        values = [row[name] for row in rows]
        seconds = statistics.median(row[f"{name} s"] for row in rows)
        line = f"- {name}: mean bound {statistics.fmean(values):.1f}, median {seconds:.2f} s"
        if best:
            ratios = [row[name] / best[row["deal"]] for row in rows]
            line += (
                f"; bound / best found: mean {statistics.fmean(ratios):.3f}, "
                f"max {max(ratios):.3f}; mean bound / mean best "
                f"{statistics.fmean(values) / statistics.fmean(best.values()):.3f}"
            )
        print(line)
    for strategy, mean in means.items():
        placements = statistics.fmean(row["placements"] for row in rows)
        print(f"- {strategy}: mean score {mean:.1f}, {mean / placements:.3f} of the mean bound")


if __name__ == "__main__":
    main()
