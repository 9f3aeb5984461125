"""The deals a run solves: the boards of a folder, or random deals numbered from 0.

**Random deals.** Deal *i* (counting from 0) of a run with seed *S* is the standard deal of seed
``S * 1_000_003 + i`` (:func:`deal_seed`): the board ``letterchess generate --seed`` prints for
that number, and its search is seeded with the same number. So the same N and seed give the
same deals on every machine (and, with a state budget, the same games), ``--seed 0`` solves the
deals of seeds 0 to N-1, and two seeds share no deal while N is at most 1,000,003.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: Deal i of seed S has seed S * SEED_STRIDE + i (a prime, so the formula is easy to recognise).
SEED_STRIDE = 1_000_003


class DealsError(ValueError):
    """A folder of boards that holds none."""


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` (from 0) of a run with ``seed``."""
    return seed * SEED_STRIDE + index


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
    return Path(__file__).resolve().parent.parent.parent / "benchmarks" / "boards"


def board_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The ``*.txt`` board files of ``folder``, by file name."""
    return sorted(Path(folder).glob("*.txt"))


def deals_from_folder(folder: str | os.PathLike[str]) -> list[Deal]:
    """The boards of :func:`board_files`.

    :raises DealsError: when the folder holds no board file.
    :raises solver.board.BoardError: for a malformed board.
    """
    from ..board import read_board

    paths = board_files(folder)
    if not paths:
        raise DealsError(f"{folder}: no *.txt board files")
    return [Deal(path.stem, read_board(str(path)).to_line()) for path in paths]


def random_deals(count: int, seed: int) -> list[Deal]:
    """Deals 0 to ``count``-1 of ``seed``, the same as ``letterchess distribution``'s."""
    from ..board import deal

    seeds = [deal_seed(seed, index) for index in range(count)]
    return [Deal(f"seed {s}", deal(s).to_line(), s) for s in seeds]
