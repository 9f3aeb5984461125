"""Tuning defaults and resource limits of the search, ``bench`` and ``distribution``, in one
place.

Every figure here changes how fast or how much memory a run takes, never what a game is worth
or which games the rules allow (those are in :mod:`solver.rules`). The modules that use them
read them from here; a strategy's own parameters (a beam's width...) stay with the strategy,
where ``--strategy NAME:key=value`` sets them.
"""

from __future__ import annotations

# --- The search budget (solver.budget) ---------------------------------------------------------

#: Seconds of search when neither a time limit nor a state budget is given.
DEFAULT_TIME_LIMIT = 10.0
#: The move limit K: the most tiles moved in a turn (RULES.md section 10); ``None``: no limit,
#: the real game. A limit K is an option, for comparisons and for speed.
DEFAULT_MAX_MOVES: int | None = None
#: States searched per second, to turn a state budget into seconds where a strategy needs one
#: (``auto``'s choice): a fixed rate, so that the same budget makes the same choice everywhere.
#: Our machine runs 1,500 to 3,000 states a second.
STATES_PER_SECOND = 2000.0

# --- Plays generated per position with no move limit (solver.search.base.Expansion) ----------
#
# With no move limit, generating every play of a full deal takes 5 to 26 s (44,000 to 265,000
# plays), and even the best 64 take 1 to 9 s; with at most 3 moves, 0.01 to 0.08 s. At 30 tiles
# the best 64 of the real game take 0.05 to 0.35 s, at 24 tiles every play 0.06 s, at 17 tiles
# 0.01 s (benchmarks/README.md, "The real game"). The values below scored best of those tried
# with ``beam`` at 10 s on the 20 benchmark deals (818, against 805 with 3 moves and every play
# at 20 tiles or fewer).

#: The move limit of the plays generated for every position with many tiles.
EXPANSION_MOVES = 4
#: ... plus, at or below :data:`EXPANSION_WIDE_TILES` tiles, the best this many of the real game
#: (the long words, with any number of moves) ...
EXPANSION_BEST = 32
EXPANSION_WIDE_TILES = 34
#: ... and at or below this many tiles, every play of the real game.
EXPANSION_FULL_TILES = 24

# --- Memory of one search ----------------------------------------------------------------------

#: Rows of plays (word, tiles, score) kept in the play cache of one game, across all positions
#: (about 24 bytes a row).
PLAY_CACHE_ROWS = 4_000_000
#: ``dfs``: profiles of the bound kept for nodes visited again, in table cells (8 bytes each).
PROFILE_CACHE_CELLS = 4_000_000
#: ``dfs``: entries kept per tile mask in the transposition table (one per played-words set and
#: rounds).
ENTRIES_PER_MASK = 8
#: ``nrpa`` and ``nmcs``: positions whose candidate plays are remembered; past this the memo is
#: emptied, which costs only time.
CANDIDATE_MEMO = 20_000

# --- Runs of many solves (solver.runs) ---------------------------------------------------------

#: Tasks kept submitted per local worker process: enough to keep it busy, few enough that a huge
#: run costs no memory and an interruption loses little.
TASKS_PER_WORKER = 2
#: Word lists a worker process keeps loaded (one per ``--dict`` file it was given).
WORKER_DICTIONARIES = 4
#: How often (seconds) a local worker checks that the process that started it is alive.
PARENT_CHECK_SECONDS = 0.5
#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_TIMEOUT = 20.0
#: Fewest Dask tasks kept submitted at once ...
DASK_MIN_WINDOW = 256
#: ... and per thread of the cluster, when that makes more.
DASK_TASKS_PER_THREAD = 4
#: The longest results line read or written. Ours are a few kilobytes (mostly the game record);
#: a longer line is none of ours, and reading stops there, so that a wrong file (a 2 GB log)
#: given as the results file costs no memory.
MAX_RESULTS_LINE_BYTES = 1024 * 1024
#: Resamples of the percentile bootstrap (bench's paired comparison, distribution's mean).
BOOTSTRAP_RESAMPLES = 10_000
#: Memory of one block of bootstrap resamples, in values drawn (8 bytes each: about 80 MB).
BOOTSTRAP_BLOCK_VALUES = 10_000_000
#: Plain progress lines (not on a terminal): one per solve up to this many solves ...
PROGRESS_EVERY_SOLVE_UP_TO = 100
#: ... then at least every this many seconds (and about every 1 % of the run).
PROGRESS_LOG_SECONDS = 10.0
