"""The statistics of a run: the percentile bootstrap of a mean, the score summary of
``distribution`` (mean with its interval, percentiles, clear rate), and ``bench``'s statistics
per strategy and paired comparison with the baseline."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..config import BOOTSTRAP_BLOCK_VALUES, BOOTSTRAP_RESAMPLES

if TYPE_CHECKING:
    from .results_file import DealResult
    from .task import SolveResult

#: The original rules call a game above this score a high score.
HIGH_SCORE = 400
PERCENTILES = (5, 25, 50, 75, 95)


def bootstrap_mean_ci(
    values: Iterable[float],
    seed: int,
    resamples: int = BOOTSTRAP_RESAMPLES,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean of ``values``.

    Each resample draws len(values) values with replacement. Scores take few distinct values,
    so a resample is drawn as the multinomial counts of the distinct values (the same
    distribution as drawing indices, at a cost independent of the sample size).

    :param seed: seeds numpy's PCG64 generator: the same values and seed, the same interval.
    """
    data = np.asarray(list(values), dtype=np.float64)
    if data.size == 0:
        return (math.nan, math.nan)
    distinct, counts = np.unique(data, return_counts=True)
    shares = counts / data.size
    rng = np.random.Generator(np.random.PCG64(seed))
    means = np.empty(resamples)
    block = max(1, BOOTSTRAP_BLOCK_VALUES // distinct.size)
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        draws = rng.multinomial(data.size, shares, size=size)
        means[start : start + size] = draws @ distinct / data.size
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


# ---------------------------------------------------------------------------------------------
# distribution: the scores of many deals


@dataclass(frozen=True)
class ScoreSummary:
    """The statistics ``letterchess distribution`` prints.

    :ivar percentiles: ``{5: ..., 25: ..., ...}`` (numpy's default, linear interpolation).
    :ivar above_high: share of deals scoring above :data:`HIGH_SCORE`.
    :ivar mean_bound: ``mean_gap``: the mean upper bound and ``score / bound``, when every deal
        has its bound (a run with ``--bound`` throughout), else ``None``.
    """

    count: int
    mean: float
    ci_low: float
    ci_high: float
    percentiles: dict[int, float]
    clear_rate: float
    above_high: float
    mean_rounds: float
    mean_seconds: float
    seed: int
    resamples: int = BOOTSTRAP_RESAMPLES
    mean_bound: float | None = None
    mean_gap: float | None = None


def summarise(results: list[DealResult], seed: int) -> ScoreSummary:
    """Statistics of solved deals; the bootstrap is seeded with ``seed``.

    :raises ValueError: for no deal at all.
    """
    if not results:
        raise ValueError("no deal to summarise")
    scores = np.array([r.score for r in results], dtype=np.float64)
    low, high = bootstrap_mean_ci(scores, seed)
    bounds = [r.bound for r in results if r.bound is not None]
    gaps = [r.score / r.bound for r in results if r.bound is not None and r.bound > 0]
    values = np.percentile(scores, PERCENTILES)
    every_bound = len(bounds) == len(results)
    return ScoreSummary(
        count=len(results),
        mean=float(scores.mean()),
        ci_low=low,
        ci_high=high,
        percentiles={p: float(v) for p, v in zip(PERCENTILES, values, strict=True)},
        clear_rate=sum(r.cleared for r in results) / len(results),
        above_high=float((scores > HIGH_SCORE).mean()),
        mean_rounds=float(np.mean([r.rounds for r in results])),
        mean_seconds=float(np.mean([r.seconds for r in results])),
        seed=seed,
        mean_bound=float(np.mean(bounds)) if every_bound else None,
        mean_gap=float(np.mean(gaps)) if every_bound and gaps else None,
    )


# ---------------------------------------------------------------------------------------------
# bench: strategies side by side, and paired with the baseline


@dataclass(frozen=True)
class StrategyStats:
    """One strategy's statistics over the deals: the mean, median, standard deviation (n-1),
    min and max score, the clear rate, the mean rounds, the mean search seconds, the states
    searched per second, the mean upper bound of the deals and the mean gap ``score /
    bound`` (both over the solves with a positive bound)."""

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


def strategy_stats(strategy: str, solves: Sequence[SolveResult]) -> StrategyStats:
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


@dataclass(frozen=True)
class Comparison:
    """A strategy against the baseline (the first one), deal by deal.

    :ivar mean_difference: mean of (strategy's score - baseline's score) over the deals.
    :ivar ci_low: ``ci_high``: the 95 % percentile bootstrap interval of that mean.
    :ivar wins: ``ties``, ``losses``: the deals where the strategy scored more, as much, less.
    """

    strategy: str
    baseline: str
    mean_difference: float
    ci_low: float
    ci_high: float
    wins: int
    ties: int
    losses: int


def compare(
    baseline: str,
    baseline_solves: Sequence[SolveResult],
    strategy: str,
    solves: Sequence[SolveResult],
    seed: int,
) -> Comparison:
    """Paired comparison of ``strategy``'s solves with the ``baseline``'s, solves of the same
    deals in the same order; the bootstrap is seeded with ``seed``."""
    differences = [b.score - a.score for a, b in zip(baseline_solves, solves, strict=True)]
    low, high = bootstrap_mean_ci(differences, seed)
    return Comparison(
        strategy=strategy,
        baseline=baseline,
        mean_difference=statistics.fmean(differences),
        ci_low=low,
        ci_high=high,
        wins=sum(d > 0 for d in differences),
        ties=sum(d == 0 for d in differences),
        losses=sum(d < 0 for d in differences),
    )
