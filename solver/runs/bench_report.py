"""The report of a bench for people and programs: a header line and rich tables
(``letterchess bench``), the whole report as JSON (``--json``), one CSV row per solve
(``--csv``). Files are written whole or not at all (:func:`solver.outputs.write_atomically`)."""

from __future__ import annotations

import csv
import io
import json
import math
import os
from typing import Any

from ..config import BOOTSTRAP_RESAMPLES
from ..outputs import write_atomically
from ..play import class_label
from ..render import count_of
from .bench import BenchReport


def header(report: BenchReport) -> str:
    """The line before the tables: ``6 deals x 3 strategies, K=2, 300 states per solve,
    standard rules, scowl-70, seed 0``."""
    settings = report.settings
    strategies = len(settings.strategies)
    return (
        f"{count_of(len(report.deals), 'deal')} x {strategies} "
        f"strateg{'ies' if strategies != 1 else 'y'}, {class_label(settings.max_moves)}, "
        f"{' and '.join(settings.budget.parts())} per solve, {settings.rules.describe()} rules, "
        f"{settings.dictionary.get('name', '?')}, seed {settings.seed}"
    )


def _number(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def report_tables(report: BenchReport) -> list[Any]:
    """The report as rich tables: the scores per strategy, then the paired comparison."""
    from rich import box
    from rich.table import Table

    settings = report.settings
    scores = Table(
        title=f"Scores on {count_of(len(report.deals), 'deal')}",
        box=box.SIMPLE_HEAD,
        title_justify="left",
    )
    for name in ("strategy", "mean", "median", "sd", "min", "max", "cleared", "rounds"):
        scores.add_column(name, justify="left" if name == "strategy" else "right")
    scores.add_column("seconds", justify="right")
    scores.add_column("states/s", justify="right")
    scores.add_column("bound", justify="right")
    scores.add_column("score/bound", justify="right")
    for stats in report.stats:
        scores.add_row(
            stats.strategy,
            _number(stats.mean),
            _number(stats.median),
            _number(stats.sd),
            str(stats.min),
            str(stats.max),
            f"{100 * stats.clear_rate:.0f} %",
            _number(stats.mean_rounds, 2),
            _number(stats.mean_seconds, 3),
            _number(stats.states_per_second, 0),
            "-" if stats.mean_bound is None else _number(stats.mean_bound),
            "-" if stats.mean_gap is None else f"{stats.mean_gap:.3f}",
        )
    tables: list[Any] = [scores]
    if report.comparisons:
        baseline = report.stats[0].strategy
        paired = Table(
            title=f"Paired comparison with {baseline}: mean score difference per deal, "
            f"95 % CI by percentile bootstrap ({BOOTSTRAP_RESAMPLES:,} resamples, "
            f"seed {settings.seed})",
            box=box.SIMPLE_HEAD,
            title_justify="left",
        )
        paired.add_column("strategy")
        for name in ("mean diff", "95 % CI", "wins", "ties", "losses"):
            paired.add_column(name, justify="right")
        for comparison in report.comparisons:
            paired.add_row(
                comparison.strategy,
                f"{comparison.mean_difference:+.1f}",
                f"{comparison.ci_low:+.1f} to {comparison.ci_high:+.1f}",
                str(comparison.wins),
                str(comparison.ties),
                str(comparison.losses),
            )
        tables.append(paired)
    return tables


def write_json(report: BenchReport, path: str | os.PathLike[str]) -> None:
    """The whole report, every solve with its game record, as one JSON document (written
    whole or not at all: :func:`solver.outputs.write_atomically`)."""
    write_atomically(path, (json.dumps(report.to_dict(), indent=1) + "\n").encode())


CSV_COLUMNS = (
    "deal",
    "deal_seed",
    "strategy",
    "score",
    "bound",
    "cleared",
    "rounds",
    "seconds",
    "states",
    "stopped",
)


def write_csv(report: BenchReport, path: str | os.PathLike[str]) -> None:
    """One row per solve (deal, strategy, score, ...; no records), written whole or not at
    all."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(CSV_COLUMNS)
    for solve in report.solves:
        row = solve.to_dict()
        writer.writerow(["" if row[name] is None else row[name] for name in CSV_COLUMNS])
    write_atomically(path, text.getvalue().encode())
