"""Benchmark: throughput of ``letterchess distribution`` (deals per minute) with 1 and 2 local
worker processes and with a 2-worker Dask LocalCluster on the same machine, side by side.

Run with the package installed with its ``dask`` extra::

    python benchmarks/bench_distribution.py [--strategy greedy] [--n 20] [--time-limit 10]
        [--max-states N] [--max-moves 2] [--seed 0]

Every configuration solves the same N deals (those of ``--seed``) into a fresh results file,
then the scores are checked to be the same across configurations when the budget is in states
(with a time limit they may differ with the machine's load). Reported per configuration:

* *set-up*: seconds to start the Dask cluster (local pools start inside the run);
* *run*: wall seconds of the whole run (``run_distribution``: starting the pool or connecting,
  the workers' warm-up, solving, writing), and the deals per minute over it;
* *steady*: deals per minute from the first result to the last, start-up left out.
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from pathlib import Path

from solver.budget import UNSET, search_budget
from solver.dictionary import Dictionary
from solver.runs.distribution import run_distribution
from solver.runs.settings import RunSettings, canonical_strategy


def measure(label: str, settings: RunSettings, n: int, folder: Path, **where) -> dict:
    """One run of ``n`` deals; ``where`` is ``workers=`` or ``scheduler=``."""
    stamps: list[float] = []
    start = time.monotonic()
    run = run_distribution(
        folder / f"{label.replace(' ', '-')}.jsonl",
        n,
        settings,
        progress=False,
        on_line=lambda line: stamps.append(time.monotonic()),
        **where,
    )
    seconds = time.monotonic() - start
    steady = (len(stamps) - 1) / (stamps[-1] - stamps[0]) * 60 if len(stamps) > 1 else 0.0
    return {
        "label": label,
        "run": seconds,
        "per_minute": n / seconds * 60,
        "steady": steady,
        "scores": [result.score for result in run.results],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", default="greedy")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--max-states", type=int, default=None)
    parser.add_argument("--max-moves", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    time_limit = UNSET if args.time_limit is None else args.time_limit
    settings = RunSettings(
        strategies=(canonical_strategy(args.strategy),),
        budget=search_budget(time_limit, args.max_states),
        max_moves=args.max_moves,
        seed=args.seed,
        dictionary=Dictionary.default().info(),
    )
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for workers in (1, 2):
            row = measure(f"local, {workers} worker{'s' * (workers > 1)}", settings, args.n,
                          folder, workers=workers)  # fmt: skip
            row["setup"] = 0.0
            rows.append(row)
        from distributed import LocalCluster

        start = time.monotonic()
        with LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster:
            setup = time.monotonic() - start
            row = measure(
                "Dask LocalCluster, 2 workers",
                settings,
                args.n,
                folder,
                scheduler=cluster.scheduler_address,
            )
            row["setup"] = setup
            rows.append(row)
    print(f"{args.n} deals, {settings.describe()}\n")
    print("| configuration | set-up s | run s | deals/min | steady deals/min |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['label']} | {row['setup']:.1f} | {row['run']:.1f} "
            f"| {row['per_minute']:.0f} | {row['steady']:.0f} |"
        )
    if args.max_states is not None and args.time_limit is None:
        same = all(row["scores"] == rows[0]["scores"] for row in rows)
        print(f"\nSame scores in every configuration: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
