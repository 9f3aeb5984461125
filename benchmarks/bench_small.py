"""Benchmark (issue 7): the proven optimum of each small layout, and every strategy's score
as a fraction of it.

Run with the package installed, on a quiet machine::

    python benchmarks/bench_small.py [--strategies greedy,beam,dfs,nrpa,nmcs]
        [--time-limits 1,10] [--exact-limit 600] [--workers 2] [--json out.json]
        [--max-moves 2|all]

1. Every layout of ``benchmarks/small`` (30 layouts of 12 to 20 tiles, written by
   ``make_small_suite.py``) is solved with ``exact`` (at most ``--exact-limit`` seconds each):
   the optimum for the full class of plays with at most ``--max-moves`` moves a turn (``all``:
   no limit, the real game), if proven. The proven optima and their games are written to
   ``benchmarks/small/optima.json`` (the tests read it), one key per class of plays beside the
   others: ``{"small-01": {"2": {"optimum": ..., "record": ...}, "all": {...}}, ...}``.
2. Every strategy solves every layout at each time limit (``letterchess bench``'s machinery:
   one process per solve, ``--workers`` at a time, the layouts searched with seed 0).
3. It prints, per time limit and strategy, the mean of ``score / optimum`` over the layouts
   with a proven optimum, the lowest, and on how many it found the optimum; and the root
   bound (:func:`solver.search.bound.board_bound`) against the optimum.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from solver.budget import Budget
from solver.dictionary import Dictionary
from solver.play import limit_name
from solver.runs.bench import run_bench, split_strategies
from solver.runs.deals import deals_from_folder
from solver.runs.settings import RunSettings

SUITE = Path(__file__).resolve().parent / "small"
OPTIMA = SUITE / "optima.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--strategies", default="greedy,beam,dfs,nrpa,nmcs")
    parser.add_argument("--time-limits", default="1,10")
    parser.add_argument("--exact-limit", type=float, default=600.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", dest="json_out", default=None)
    parser.add_argument(
        "--optima-only", action="store_true", help="stop after writing small/optima.json"
    )
    parser.add_argument("--max-moves", default="2", help="the move limit K, or 'all'")
    args = parser.parse_args()
    max_moves = None if args.max_moves == "all" else int(args.max_moves)
    play_class = limit_name(max_moves)

    deals = deals_from_folder(SUITE)
    words = Dictionary.default().info()

    def bench(strategies: list[str], time_limit: float) -> list:
        budget = Budget(time_limit, None)
        settings = RunSettings(
            tuple(strategies), budget, max_moves, 0, dictionary=words, bound=True
        )
        return run_bench(deals, settings, workers=args.workers, progress=False).solves

    exact = bench(["exact"], args.exact_limit)
    optimum = {s.deal: s.result.score for s in exact if s.result.record["search"]["proven"]}
    # The proven optima with their games, which the tests check (tests/test_search_exact.py);
    # the other classes' optima are kept.
    optima = json.loads(OPTIMA.read_text()) if OPTIMA.exists() else {}
    for solve in exact:
        entry = optima.setdefault(solve.deal, {})
        entry.pop(play_class, None)
        if solve.deal in optimum:
            entry[play_class] = {"optimum": solve.result.score, "record": solve.result.record}
    OPTIMA.write_text(json.dumps(optima, indent=1) + "\n")
    if args.optima_only:
        return
    print(f"## Optima (exact, K = {play_class})\n")
    print("| layout | tiles | optimum | proven | seconds | states | root bound | bound / optimum |")
    print("|---|---|---|---|---|---|---|---|")
    for solve in exact:
        result = solve.result
        search = result.record["search"]
        tiles = sum(1 for c in result.record["board"] if c.isalpha())
        root = search["board_bound"]
        print(
            f"| {solve.deal} | {tiles} | {result.score} | {'yes' if search['proven'] else 'no'} "
            f"| {result.seconds:.2f} | {result.states:,} | {root} | {root / result.score:.3f} |"
        )
    roots = [
        s.result.record["search"]["board_bound"] / s.result.score
        for s in exact
        if s.deal in optimum
    ]
    seconds = sum(s.result.seconds for s in exact)
    print(
        f"\n{len(optimum)} of {len(exact)} proven; total {seconds:.1f} s; "
        f"root bound / optimum: mean {statistics.fmean(roots):.3f}, max {max(roots):.3f}\n"
    )

    results = {"optima": {s.deal: s.result.score for s in exact}, "proven": sorted(optimum)}
    strategies = split_strategies(args.strategies)
    print("## Strategies as a fraction of the optimum\n")
    print("| strategy | seconds | mean score / optimum | lowest | optimum found |")
    print("|---|---|---|---|---|")
    for time_limit in (float(t) for t in args.time_limits.split(",")):
        solves = bench(strategies, time_limit)
        for strategy in strategies:
            mine = [s for s in solves if s.strategy == strategy and s.deal in optimum]
            ratios = [s.result.score / optimum[s.deal] for s in mine]
            hits = sum(s.result.score == optimum[s.deal] for s in mine)
            print(
                f"| {strategy} | {time_limit:g} | {statistics.fmean(ratios):.4f} "
                f"| {min(ratios):.3f} | {hits} / {len(mine)} |",
                flush=True,
            )
            results[f"{strategy}@{time_limit:g}"] = {s.deal: s.result.score for s in mine}
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
