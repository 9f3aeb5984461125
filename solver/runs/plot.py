"""The histogram of a distribution run's scores (``letterchess distribution --plot``)."""

from __future__ import annotations

import io
import math
import os

import numpy as np

from ..outputs import write_atomically
from .statistics import HIGH_SCORE, ScoreSummary


def plot_histogram(
    scores: list[int], summary: ScoreSummary, title: str, path: str | os.PathLike[str]
) -> None:
    """Draw a histogram of ``scores`` with the mean and the percentiles marked, as a PNG.

    Uses matplotlib's Agg canvas directly (no pyplot, no display, no global backend state).
    The file is written whole or not at all (:func:`solver.outputs.write_atomically`).

    :raises OSError: when the file cannot be written.
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    data = np.asarray(scores)
    low, high = int(data.min()), int(data.max())
    # Bins of whole points, at least 1 wide, about 40 of them over the range.
    width = max(1, math.ceil((high - low + 1) / 40))
    edges = np.arange(low, high + width + 1, width) - 0.5
    figure = Figure(figsize=(10, 5), layout="constrained")
    axes = figure.add_subplot()
    axes.hist(data, bins=edges.tolist(), color="#8fb3d9", edgecolor="#4a6f99")
    axes.axvline(
        summary.mean,
        color="black",
        linewidth=2,
        label=f"mean {summary.mean:.1f} (95 % CI {summary.ci_low:.1f}-{summary.ci_high:.1f})",
    )
    styles = {5: ":", 25: "--", 50: "-", 75: "--", 95: ":"}
    for p, value in summary.percentiles.items():
        axes.axvline(
            value, color="#c0392b", linestyle=styles[p], linewidth=1.4, label=f"{p}th pct {value:g}"
        )
    if low <= HIGH_SCORE <= high:
        axes.axvline(
            HIGH_SCORE,
            color="grey",
            linewidth=1,
            label=f"{HIGH_SCORE}: {100 * summary.above_high:.1f} % of deals above",
        )
    axes.set_xlabel("final score")
    axes.set_ylabel("deals")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(title, fontsize=10)
    # Beside the plot: vertical lines cross the whole height, no corner inside is free.
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    image = io.BytesIO()
    figure.savefig(image, dpi=110, format="png")
    write_atomically(path, image.getvalue())
