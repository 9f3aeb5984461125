"""The search budget: a time limit, a state budget, or both, and the one rule for a budget that
is not given.

**The rule.** A search stops at its time limit or its state budget, whichever comes first. A
time limit not given is :data:`~solver.config.DEFAULT_TIME_LIMIT` (10 s), unless a state budget
is given: then there is none, so that the search is the same on every machine. The same rule
holds for ``letterchess solve``, ``bench`` and ``distribution`` (``--time-limit``,
``--max-states``) and for :func:`solver.solve` (``time_limit=``, ``max_states=``).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from .config import DEFAULT_TIME_LIMIT


class _Unset(enum.Enum):
    UNSET = "unset"


#: The value of a time limit that was not given (``None`` is "no time limit").
UNSET = _Unset.UNSET
TimeLimit = float | None | _Unset


@dataclass(frozen=True)
class Budget:
    """What a search may spend; at least one of the two is set.

    :ivar time_limit: seconds of search, or ``None`` for no time limit.
    :ivar max_states: states (positions expanded), or ``None`` for no state budget.
    """

    time_limit: float | None
    max_states: int | None

    def __post_init__(self) -> None:
        check_budget(self.time_limit, self.max_states)

    def parts(self) -> list[str]:
        """The budget for people, one part each: ``["10 s"]``, ``["1,000 states"]``, or both."""
        parts = []
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s")
        if self.max_states is not None:
            parts.append(f"{self.max_states:,} states")
        return parts


def search_budget(time_limit: TimeLimit = UNSET, max_states: int | None = None) -> Budget:
    """The budget of a search, by the rule of the module docstring.

    :param time_limit: seconds; ``None`` for no time limit; :data:`UNSET` (not given) for the
        default, which is no time limit when ``max_states`` is given.
    :raises ValueError: for a budget no search can keep (:func:`check_budget`); a
        :class:`TypeError` for a value of the wrong type.
    """
    if time_limit is UNSET:
        time_limit = None if max_states is not None else DEFAULT_TIME_LIMIT
    return Budget(time_limit, max_states)


def check_budget(time_limit: float | None, max_states: int | None) -> None:
    """Refuse a budget that no search can keep: a time limit that is not a finite number of
    seconds above 0 (``nan`` would even be written into results files), a state budget that is
    not a whole number of 1 or more, or neither of them.

    :raises ValueError: naming the argument and the value (a :class:`TypeError` for one of the
        wrong type).
    """
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
            raise TypeError(f"time_limit must be a number of seconds, not {time_limit!r}")
        if not math.isfinite(time_limit) or time_limit <= 0:
            raise ValueError(f"time_limit must be a finite number of seconds > 0, not {time_limit}")
    if max_states is not None:
        if isinstance(max_states, bool) or not isinstance(max_states, int):
            raise TypeError(f"max_states must be a whole number, not {max_states!r}")
        if max_states < 1:
            raise ValueError(f"max_states must be >= 1, not {max_states}")
    if time_limit is None and max_states is None:
        raise ValueError("a search needs a time limit, a state budget or both")
