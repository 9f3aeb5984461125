"""Benchmark: every search strategy on the 20 benchmark deals.

Run with the package installed::

    python benchmarks/bench_search.py [--strategies greedy,beam,dfs,nrpa,auto]
        [--time-limit 10] [--max-moves 2] [--workers 2] [--out results.jsonl]

Each deal is solved by each strategy in its own process, one thread each, ``--workers`` at a
time (on a 2-core machine, 2 workers keep one core per solve). It prints a Markdown table per
strategy: mean and median final score, clear rate, mean rounds, mean seconds and states per
second, and with ``--out`` writes one JSON line per solve.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

BOARDS = Path(__file__).resolve().parent / "boards"


def solve_one(task: tuple[str, str, float, int]) -> dict:
    """Solve one deal with one strategy; runs in a worker process."""
    from solver.board import read_board
    from solver.solution import solve

    board_path, strategy, time_limit, max_moves = task
    start = time.monotonic()
    solution = solve(read_board(board_path), strategy, time_limit=time_limit, max_moves=max_moves)
    result = solution.record.result
    return {
        "board": Path(board_path).name,
        "strategy": strategy,
        "score": solution.score,
        "cleared": result.cleared,
        "rounds": result.rounds,
        "states": solution.outcome.states,
        "search_seconds": solution.outcome.seconds,
        "seconds": time.monotonic() - start,
    }


def summarise(rows: list[dict]) -> str:
    scores = [row["score"] for row in rows]
    seconds = sum(row["search_seconds"] for row in rows)
    mean, median = statistics.mean(scores), statistics.median(scores)
    return (
        f"| {rows[0]['strategy']} | {mean:.1f} | {median:.1f} "
        f"| {min(scores)} | {max(scores)} "
        f"| {100 * sum(row['cleared'] for row in rows) / len(rows):.0f} % "
        f"| {statistics.mean(row['rounds'] for row in rows):.1f} "
        f"| {statistics.mean(row['seconds'] for row in rows):.2f} "
        f"| {sum(row['states'] for row in rows) / seconds:,.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", default="greedy,beam,dfs,nrpa,auto")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--max-moves", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--boards", default=str(BOARDS))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    boards = sorted(Path(args.boards).glob("*.txt"))
    strategies = [s for s in args.strategies.split(";" if ";" in args.strategies else ",") if s]
    tasks = [(str(b), s, args.time_limit, args.max_moves) for s in strategies for b in boards]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        rows = list(pool.map(solve_one, tasks))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
    print(
        f"{len(boards)} deals, K = {args.max_moves}, {args.time_limit:g} s per deal, "
        f"{args.workers} workers\n"
    )
    print(
        "| strategy | mean | median | min | max | cleared | mean rounds | mean seconds | states/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for strategy in strategies:
        print(summarise([row for row in rows if row["strategy"] == strategy]))


if __name__ == "__main__":
    main()
