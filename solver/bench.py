"""Comparing search strategies on the same deals (``letterchess bench``).

Every deal is solved with every strategy, in a local process pool (:func:`solver.distribution.
solve_all`). Per strategy: the mean, median, standard deviation (n-1), min and max score, the
clear rate, the mean rounds, the mean search seconds, the states searched per second, the mean
upper bound of the deals (:func:`solver.search.bound.board_bound`, or the strategy's own when
lower) and the mean gap ``score / bound``. Then
each strategy is compared with the first one, deal by deal (a paired comparison: both solved
the same deals): the mean of the score differences with a 95 % percentile bootstrap confidence
interval (10,000 resamples of the deals, numpy PCG64 seeded with the run's seed), and how many
deals it won, tied and lost.

Deals: the ``*.txt`` boards of a folder (by default the repository's ``benchmarks/boards``, 20
deals), searched with the run's seed; or N random deals, those of ``letterchess distribution``
with the same seed (:func:`solver.distribution.deal_seed`: seed ``S * 1_000_003 + i``, so
``--seed 0`` gives the deals of seeds 0 to N-1), each searched with its deal seed.

Ctrl-C keeps what is finished: the report then covers the deals that every strategy finished
(:class:`BenchInterrupted`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import statistics
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .distribution import (
    BOOTSTRAP_RESAMPLES,
    DealProgress,
    SolveTask,
    bootstrap_mean_ci,
    canonical_strategy,
    check_budget,
    deal_seed,
    solve_all,
)
from .outputs import write_atomically
from .rules import Rules

FORMAT = "letterchess/bench-1"


class BenchError(ValueError):
    """A bench that cannot run as asked (no deals, a bad strategy list)."""


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a bench; ``report`` covers the deals every strategy had finished (a
    :class:`BenchReport` with ``interrupted`` set), or is ``None`` when there was none.

    A :class:`KeyboardInterrupt`, so that code catching that still catches it."""

    def __init__(self, report: BenchReport | None):
        super().__init__()
        self.report = report


def split_strategies(text: str) -> list[str]:
    """Split a comma-separated list of strategy specs, whose own parameters hold commas.

    A comma starts a new strategy unless the next item is a parameter: an item with ``=`` and
    no ``:`` before it. So ``greedy,beam:width=50,growth=3,dfs`` is ``greedy``,
    ``beam:width=50,growth=3`` and ``dfs``.

    :raises BenchError: for an empty item, or a parameter with no strategy before it.
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise BenchError(f"strategy list {text!r} has an empty item")
        head, equals, _ = item.partition("=")
        if equals and ":" not in head:
            if not specs:
                raise BenchError(f"strategy list {text!r}: {item!r} has no strategy before it")
            # A parameter of the strategy before it; its spec gets a ':' if it had none yet.
            specs[-1] += ("," if ":" in specs[-1] else ":") + item
        else:
            specs.append(item)
    return specs


@dataclass(frozen=True)
class Deal:
    """A deal to solve: a name for tables, the one-line board, and the seed it was dealt from
    (``None`` for a board read from a file)."""

    name: str
    board: str
    deal_seed: int | None = None


def repository_boards() -> Path:
    """The repository's ``benchmarks/boards`` folder (it may be missing when the package is
    installed outside the repository)."""
    return Path(__file__).resolve().parent.parent / "benchmarks" / "boards"


def board_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The ``*.txt`` board files of ``folder``, by file name."""
    return sorted(Path(folder).glob("*.txt"))


def deals_from_folder(folder: str | os.PathLike[str]) -> list[Deal]:
    """The boards of :func:`board_files`.

    :raises BenchError: when the folder holds no board file.
    :raises solver.board.BoardError: for a malformed board.
    """
    from .board import read_board

    paths = board_files(folder)
    if not paths:
        raise BenchError(f"{folder}: no *.txt board files")
    return [Deal(path.stem, read_board(str(path)).to_line()) for path in paths]


def random_deals(count: int, seed: int) -> list[Deal]:
    """Deals 0 to ``count``-1 of ``seed``, the same as ``letterchess distribution``'s."""
    from .board import deal

    seeds = [deal_seed(seed, index) for index in range(count)]
    return [Deal(f"seed {s}", deal(s).to_line(), s) for s in seeds]


@dataclass(frozen=True)
class BenchSettings:
    """The strategies (as the user wrote them) and what every solve shares."""

    strategies: tuple[str, ...]
    time_limit: float | None
    max_states: int | None
    max_moves: int | None
    seed: int
    rules: Rules = field(default_factory=Rules)
    dictionary: dict[str, Any] = field(default_factory=dict)
    #: Compute each deal's upper bound (once per deal and worker; about a second a deal).
    bound: bool = True

    def __post_init__(self) -> None:
        check_budget(self.time_limit, self.max_states)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["strategies"] = list(self.strategies)
        data["rules"] = self.rules.to_dict()
        return data


@dataclass(frozen=True)
class Solve:
    """One deal solved by one strategy."""

    deal: str
    deal_seed: int | None
    strategy: str
    score: int
    bound: int | None
    cleared: bool
    rounds: int
    seconds: float
    states: int
    stopped: str
    record: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class StrategyStats:
    """Per-strategy statistics over the deals (see the module docstring)."""

    strategy: str
    count: int
    mean: float
    median: float
    sd: float
    min: int
    max: int
    clear_rate: float
    mean_rounds: float
    mean_seconds: float
    states_per_second: float
    mean_bound: float | None
    mean_gap: float | None


@dataclass(frozen=True)
class Comparison:
    """A strategy against the baseline (the first one), deal by deal.

    :ivar mean_difference: mean of (strategy's score - baseline's score) over the deals.
    :ivar ci_low: ``ci_high``: the 95 % percentile bootstrap interval of that mean.
    """

    strategy: str
    baseline: str
    mean_difference: float
    ci_low: float
    ci_high: float
    wins: int
    ties: int
    losses: int


@dataclass
class BenchReport:
    """Everything a bench found: the solves, the statistics and the comparisons.

    :ivar interrupted: Ctrl-C stopped the bench: ``deals`` are those every strategy finished,
        of the ``planned`` deals.
    """

    settings: BenchSettings
    deals: list[Deal]
    solves: list[Solve]
    stats: list[StrategyStats]
    comparisons: list[Comparison]
    interrupted: bool = False
    planned: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "settings": self.settings.to_dict(),
            "interrupted": self.interrupted,
            "planned_deals": self.planned,
            "deals": [asdict(deal) for deal in self.deals],
            "bootstrap": {"resamples": BOOTSTRAP_RESAMPLES, "seed": self.settings.seed},
            "stats": [asdict(stats) for stats in self.stats],
            "comparisons": [asdict(comparison) for comparison in self.comparisons],
            "solves": [asdict(solve) for solve in self.solves],
        }


def strategy_stats(strategy: str, solves: list[Solve]) -> StrategyStats:
    """Statistics of one strategy's solves."""
    scores = [solve.score for solve in solves]
    seconds = sum(solve.seconds for solve in solves)
    # Over the solves that have a (positive) bound: all of them, unless a bound was 0 or less.
    bounded = [solve for solve in solves if solve.bound is not None and solve.bound > 0]
    bounds = [solve.bound for solve in bounded if solve.bound is not None]
    gaps = [solve.score / bound for solve, bound in zip(bounded, bounds, strict=True)]
    return StrategyStats(
        strategy=strategy,
        count=len(scores),
        mean=statistics.fmean(scores),
        median=float(statistics.median(scores)),
        sd=statistics.stdev(scores) if len(scores) > 1 else 0.0,
        min=min(scores),
        max=max(scores),
        clear_rate=sum(solve.cleared for solve in solves) / len(solves),
        mean_rounds=statistics.fmean(solve.rounds for solve in solves),
        mean_seconds=seconds / len(solves),
        states_per_second=sum(solve.states for solve in solves) / seconds if seconds else 0.0,
        mean_bound=statistics.fmean(bounds) if bounds else None,
        mean_gap=statistics.fmean(gaps) if gaps else None,
    )


def compare(baseline: list[Solve], other: list[Solve], seed: int) -> Comparison:
    """Paired comparison of ``other`` with ``baseline``, solves of the same deals in order."""
    differences = [b.score - a.score for a, b in zip(baseline, other, strict=True)]
    low, high = bootstrap_mean_ci(differences, seed)
    return Comparison(
        strategy=other[0].strategy,
        baseline=baseline[0].strategy,
        mean_difference=statistics.fmean(differences),
        ci_low=low,
        ci_high=high,
        wins=sum(d > 0 for d in differences),
        ties=sum(d == 0 for d in differences),
        losses=sum(d < 0 for d in differences),
    )


def run_bench(
    deals: list[Deal],
    settings: BenchSettings,
    *,
    dict_path: str | None = None,
    workers: int | None = None,
    progress: bool = True,
) -> BenchReport:
    """Solve every deal with every strategy and compute the statistics.

    :param workers: local worker processes (default one per core; 0: in this process).
    :raises solver.search.StrategyError: for a bad strategy spec.
    :raises BenchInterrupted: on Ctrl-C, with the report of the deals finished so far.
    """
    canonical = [canonical_strategy(spec) for spec in settings.strategies]
    absolute_dict = str(Path(dict_path).resolve()) if dict_path is not None else None
    tasks = []
    for s, spec in enumerate(canonical):
        for d, deal in enumerate(deals):
            tasks.append(
                SolveTask(
                    # Strategy-major, deal-minor: the index tells both apart again.
                    index=s * len(deals) + d,
                    board=deal.board,
                    search_seed=deal.deal_seed if deal.deal_seed is not None else settings.seed,
                    strategy=spec,
                    time_limit=settings.time_limit,
                    max_states=settings.max_states,
                    max_moves=settings.max_moves,
                    bound=settings.bound,
                    rules=settings.rules.to_dict(),
                    dict_path=absolute_dict,
                    dict_sha256=settings.dictionary["sha256"],
                )
            )
    # Deal-major order, so that partial progress covers every strategy evenly (and an
    # interrupted bench has whole deals to report).
    tasks.sort(key=lambda task: (task.index % len(deals), task.index))
    found: dict[int, Solve] = {}
    results = solve_all(tasks, workers)
    try:
        with DealProgress(len(tasks), [], "solves", enabled=progress) as bar, closing(results):
            for result in results:
                s, d = divmod(result["index"], len(deals))
                solve = Solve(
                    deal=deals[d].name,
                    deal_seed=deals[d].deal_seed,
                    strategy=settings.strategies[s],
                    score=result["score"],
                    bound=result["bound"],
                    cleared=result["cleared"],
                    rounds=result["rounds"],
                    seconds=result["seconds"],
                    states=result["states"],
                    stopped=result["stopped"],
                    record=result["record"],
                )
                found[result["index"]] = solve
                bar.advance(solve.score, f"{solve.strategy} on {solve.deal}: score {solve.score}")
    except KeyboardInterrupt:
        # Keep what is finished: the deals every strategy solved (a paired comparison needs
        # each deal solved by all of them).
        strategies = range(len(settings.strategies))
        whole = [
            d for d in range(len(deals)) if all(s * len(deals) + d in found for s in strategies)
        ]
        report = _report(settings, deals, found, whole, interrupted=True) if whole else None
        raise BenchInterrupted(report) from None
    return _report(settings, deals, found, list(range(len(deals))))


def _report(
    settings: BenchSettings,
    deals: list[Deal],
    found: dict[int, Solve],
    kept: list[int],
    interrupted: bool = False,
) -> BenchReport:
    """The report on the deals numbered ``kept``, each solved by every strategy; ``found``
    holds the solves by task index (``strategy * len(deals) + deal``)."""
    by_strategy = [
        [found[s * len(deals) + d] for d in kept] for s in range(len(settings.strategies))
    ]
    stats = [
        strategy_stats(spec, rows)
        for spec, rows in zip(settings.strategies, by_strategy, strict=True)
    ]
    comparisons = [compare(by_strategy[0], rows, settings.seed) for rows in by_strategy[1:]]
    return BenchReport(
        settings,
        [deals[d] for d in kept],
        [solve for rows in by_strategy for solve in rows],
        stats,
        comparisons,
        interrupted,
        planned=len(deals),
    )


def _number(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def report_tables(report: BenchReport) -> list[Any]:
    """The report as rich tables: the scores per strategy, then the paired comparison."""
    from rich import box
    from rich.table import Table

    from .render import count_of

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
        row = asdict(solve)
        writer.writerow(["" if row[name] is None else row[name] for name in CSV_COLUMNS])
    write_atomically(path, text.getvalue().encode())
