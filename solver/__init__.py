"""Letter Chess solver: rules, layouts, records, the referee and the search for the best game.

The game state between turns is the opening layout plus a 63-bit mask of the tiles still on the
board (see :class:`solver.board.Position`); ``RULES.md`` states the rules as implemented.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("letterchess")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"


def __getattr__(name: str) -> object:
    # solve() pulls in numba and the kernels: import it only when asked for, so that commands
    # that never search (show, check, generate) start fast.
    if name in ("solve", "Solution"):
        from . import solution

        return getattr(solution, name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
