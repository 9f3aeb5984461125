"""Search strategies, one per module, behind one interface (:class:`base.Strategy`), found by
name in :data:`STRATEGIES` (:mod:`.registry`).

A strategy is named on the command line as ``name`` or ``name:key=value,...``, e.g.
``beam:width=200``; :func:`parse_strategy` turns that into a configured strategy.
"""

from __future__ import annotations

from .registry import STRATEGIES, StrategyError, parse_strategy, register

# isort: off
# Imported for their @register, in the order the strategies are listed to users.
from . import greedy  # noqa: F401
from . import beam  # noqa: F401
from . import dfs  # noqa: F401
from . import exact  # noqa: F401
from . import nrpa  # noqa: F401
from . import nmcs  # noqa: F401
from . import auto  # noqa: F401

# isort: on

__all__ = ["STRATEGIES", "StrategyError", "parse_strategy", "register"]
