"""Benchmark: the first run after an install against a later one.

Run from anywhere, with the package installed::

    python benchmarks/bench_first_run.py [--time-limit 10] [--seed 1]

Runs ``letterchess solve --random SEED --time-limit S --no-bound`` twice in fresh processes,
with ``LETTERCHESS_CACHE_DIR`` pointing at a new empty folder: the first run finds no compiled
kernel (as after an install) and compiles them, the second loads them. For each run it prints
the time spent preparing the kernels (``search.prepare_seconds`` of the record, outside the
search's clock), the states the search explored in its time limit, and the whole process's
wall time. The two state counts should be close: compiling is not counted as search time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path


def run_once(cache: Path, seed: int, time_limit: float, record: Path) -> dict[str, float]:
    env = dict(os.environ, LETTERCHESS_CACHE_DIR=str(cache))
    env.pop("LETTERCHESS_KERNEL_CACHE_DIR", None)
    command = ["letterchess", "solve", "--random", str(seed), "--time-limit", str(time_limit)]
    command += ["--no-bound", "--quiet", "--json", str(record)]
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    search = json.loads(record.read_text())["search"]
    return {
        "prepare": search["prepare_seconds"],
        "search": search["seconds"],
        "states": search["states"],
        "wall": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cache, record = Path(folder) / "cache", Path(folder) / "game.json"
        rows = [
            ("first run (empty cache)", run_once(cache, args.seed, args.time_limit, record)),
            ("second run", run_once(cache, args.seed, args.time_limit, record)),
        ]
    print("| run | preparing kernels (s) | search (s) | states searched | whole process (s) |")
    print("|---|---|---|---|---|")
    for name, row in rows:
        print(
            f"| {name} | {row['prepare']:.2f} | {row['search']:.2f} | {row['states']:,} "
            f"| {row['wall']:.1f} |"
        )


if __name__ == "__main__":
    main()
