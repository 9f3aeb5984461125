"""Benchmark: loading the default dictionary, cold and warm, as a trie and as kernel arrays.

Run from anywhere, with the package installed::

    python benchmarks/bench_dictionary.py [--repeat 5]

Each load runs in a fresh Python process, with ``LETTERCHESS_CACHE_DIR`` pointing at a
temporary directory: empty for a cold load (nothing cached: parse, sort, hash, build and
write the cache), already filled for a warm load. Inside the process the script times the
imports, :meth:`Dictionary.default` (the trie), the first use of :attr:`Dictionary.arrays`,
the first call of any njit function (numba's one-time set-up in a process, here the tiny
``word_id_at``) and then the first ``lookup_word_id`` (numba loading the other cached
walkers, or compiling them if numba's own cache is cold); outside, the whole process. It
prints medians (and minimums) as a Markdown table, then the sizes and the in-process lookup
speed of both forms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from solver.dictionary import Dictionary
from solver.kernels.trie import ROOT, child, word_id_at

# Runs in the child process; prints one JSON line of timings in seconds.
CHILD = r"""
import json, time
t0 = time.perf_counter()
import numba  # noqa: F401
t1 = time.perf_counter()
from solver.dictionary import Dictionary, lookup_word_id
from solver.kernels.trie import word_id_at
t2 = time.perf_counter()
d = Dictionary.default()
t3 = time.perf_counter()
arrays = d.arrays
t4 = time.perf_counter()
word_id_at(arrays.word_ids, 0)
t5 = time.perf_counter()
assert lookup_word_id(arrays, "cat") == d.word_id("cat")
t6 = time.perf_counter()
print(json.dumps({"import numba": t1 - t0, "import solver.dictionary": t2 - t1,
                  "trie": t3 - t2, "arrays": t4 - t3, "numba first call": t5 - t4,
                  "first lookup": t6 - t5, "from_cache": d.loaded_from_cache}))
"""

COLUMNS = [
    "import numba",
    "import solver.dictionary",
    "trie",
    "arrays",
    "numba first call",
    "first lookup",
]


def run_child(cache: Path) -> dict:
    """Run :data:`CHILD` in a fresh interpreter; add its wall time as ``process``."""
    env = dict(os.environ, LETTERCHESS_CACHE_DIR=str(cache))
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, check=True, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["process"] = wall
    return result


def summarise(label: str, runs: list[dict]) -> str:
    cells = []
    for column in [*COLUMNS, "trie + arrays", "process"]:
        values = [r["trie"] + r["arrays"] if column == "trie + arrays" else r[column] for r in runs]
        cells.append(f"{statistics.median(values):.3f} ({min(values):.3f})")
    return f"| {label} | " + " | ".join(cells) + " |"


@njit  # not cache=True: numba's cache misses changes to child in another file
def _lookup_all(nodes, word_ids, codes, starts):
    """Kernel ids of all packed words, walking letter by letter (benchmark inner loop)."""
    total = 0
    for i in range(starts.shape[0] - 1):
        node = ROOT
        for j in range(starts[i], starts[i + 1]):
            node = child(nodes, node, codes[j])
            if node < 0:
                break
        if node >= 0:
            total += word_id_at(word_ids, node)
    return total


def lookup_speed(repeat: int) -> list[str]:
    """Lines on the in-process lookup speed of the trie and the arrays."""
    d = Dictionary.default()
    words = list(d)
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).astype(np.int64) - 97
    starts = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum([len(w) for w in words], out=starts[1:])
    arrays = d.arrays
    expected = sum(range(len(words)))
    assert _lookup_all(arrays.nodes, arrays.word_ids, codes, starts) == expected  # compile

    def best(fn) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return min(times)

    kernel = best(lambda: _lookup_all(arrays.nodes, arrays.word_ids, codes, starts))
    python = best(lambda: [w in d for w in words])
    letters = int(starts[-1])
    return [
        f"- kernel walk (njit, `child` per letter) of all {len(words):,} words "
        f"({letters:,} letters): {kernel * 1e3:.1f} ms, {kernel / letters * 1e9:.1f} ns "
        f"per letter, {kernel / len(words) * 1e9:.0f} ns per word",
        f"- `word in Dictionary` (marisa-trie, from Python) for all words: {python * 1e3:.1f} ms,"
        f" {python / len(words) * 1e9:.0f} ns per word",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (%(default)s)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-dictionary-") as tmp:
        cold = []
        for i in range(args.repeat):
            cold.append(run_child(Path(tmp) / f"cold-{i}"))
        warm_dir = Path(tmp) / "warm"
        run_child(warm_dir)  # fill the cache
        warm = [run_child(warm_dir) for _ in range(args.repeat)]
        assert not any(r["from_cache"] for r in cold) and all(r["from_cache"] for r in warm)
        cache_files = sorted(warm_dir.iterdir())
        cache_sizes = {p.name.split(".", 1)[1]: p.stat().st_size for p in cache_files}
        # The in-process part below uses the warm cache too, not the user's.
        os.environ["LETTERCHESS_CACHE_DIR"] = str(warm_dir)
        report(args, cold, warm, cache_sizes)
    return 0


def report(args: argparse.Namespace, cold: list[dict], warm: list[dict], cache_sizes: dict) -> None:
    """Print the tables and facts."""
    print(f"Seconds: median (minimum) of {args.repeat} fresh processes.\n")
    header = ["load", *COLUMNS, "trie + arrays", "whole process"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    print(summarise("cold (empty cache)", cold))
    print(summarise("warm (cached)", warm))

    d = Dictionary.default()
    arrays = d.arrays
    print()
    print(f"- words: {len(d):,}; sha256 {d.sha256}")
    print(
        f"- kernel arrays: {len(arrays.nodes):,} nodes, {arrays.nbytes:,} bytes "
        f"({arrays.nbytes / 2**20:.2f} MiB; nodes int64 + word_ids int32)"
    )
    sizes = ", ".join(f"{name} {size:,}" for name, size in cache_sizes.items())
    print(f"- cache files on disk (bytes): {sizes}")
    for line in lookup_speed(args.repeat):
        print(line)


if __name__ == "__main__":
    sys.exit(main())
