"""The strategies by name: :func:`register` adds a strategy class, :func:`parse_strategy` makes
one from a spec such as ``beam:width=200``.

A strategy is named on the command line as ``name`` or ``name:key=value,...``. Each strategy
module registers its class with the ``@register`` decorator; importing :mod:`solver.search`
imports them all, in the order they are listed to users.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

from .base import Strategy

__all__ = ["STRATEGIES", "StrategyError", "parse_strategy", "register"]

#: Every strategy by name, in the order they are listed to users.
STRATEGIES: dict[str, type[Strategy[Any, Any]]] = {}

S = TypeVar("S", bound=type[Strategy[Any, Any]])


def register(cls: S) -> S:
    """Class decorator: make the strategy available by its :attr:`~Strategy.name`."""
    if cls.name in STRATEGIES and STRATEGIES[cls.name] is not cls:
        raise ValueError(f"two strategies are named {cls.name!r}")
    STRATEGIES[cls.name] = cls
    return cls


class StrategyError(ValueError):
    """An unknown strategy, parameter or parameter value."""


def _convert(value: str, kind: Any, where: str) -> Any:
    try:
        if kind is bool or kind == "bool":
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if kind is int or kind == "int":
            return int(value)
        if kind is float or kind == "float":
            return float(value)
        return str(value)
    except ValueError:
        raise StrategyError(
            f"{where}: {value!r} is not a valid {getattr(kind, '__name__', kind)}"
        ) from None


def parse_strategy(spec: str) -> Strategy[Any, Any]:
    """A strategy from ``name`` or ``name:key=value,key=value``.

    :raises StrategyError: naming the unknown strategy or parameter, or the bad value.
    """
    name, _, rest = spec.strip().partition(":")
    cls = STRATEGIES.get(name)
    if cls is None:
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    known = {f.name: f for f in fields(cls.Params)}
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals:
            raise StrategyError(f"{name}: parameter {item!r} is not key=value")
        if key not in known:
            listed = ", ".join(known) or "none"
            raise StrategyError(f"{name}: unknown parameter {key!r} (known: {listed})")
        if key in values:
            raise StrategyError(f"{name}: parameter {key!r} given twice")
        values[key] = _convert(value, known[key].type, f"{name}: {key}")
    try:
        return cls(cls.Params(**values))
    except ValueError as error:
        raise StrategyError(f"{name}: {error}") from None
