"""Runs of many solves: ``letterchess bench`` (strategies compared on the same deals) and
``letterchess distribution`` (the scores of many random deals), one concern per module:

* :mod:`~solver.runs.settings`: :class:`~solver.runs.settings.RunSettings`, what every solve
  of a run shares (strategies, budget, move limit, seed, rules, word list).
* :mod:`~solver.runs.deals`: the deals (a folder of boards, or random deals by seed).
* :mod:`~solver.runs.task`: one solve, the task a worker runs and its typed result.
* :mod:`~solver.runs.executors`: running tasks in this process or a local process pool;
  :mod:`~solver.runs.cluster`: on a Dask cluster.
* :mod:`~solver.runs.results_file`: the results file of ``distribution`` (append, scan,
  resume, repair).
* :mod:`~solver.runs.statistics`: the bootstrap, percentiles, per-strategy statistics and the
  paired comparison; :mod:`~solver.runs.plot`: the histogram.
* :mod:`~solver.runs.bench` and :mod:`~solver.runs.bench_report`: the bench and its tables and
  files; :mod:`~solver.runs.distribution`: a distribution run and its summary.

The progress display of a run is :class:`solver.progress.DealProgress`.
"""
