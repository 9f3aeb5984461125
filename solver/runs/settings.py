"""What every solve of a run shares: :class:`RunSettings`, for ``bench`` (several strategies)
and ``distribution`` (one strategy, whose settings every results line holds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..budget import Budget
from ..play import class_label
from ..rules import Rules


def canonical_strategy(spec: str) -> str:
    """``spec`` with every parameter spelled out (defaults too), so that two specs naming the
    same search compare equal: ``beam`` and ``beam:width=200`` when 200 is the default.

    :raises solver.search.StrategyError: for an unknown strategy, parameter or value.
    """
    from ..search import parse_strategy

    strategy = parse_strategy(spec)
    params = strategy.params.to_dict()
    if not params:
        return strategy.name
    return strategy.name + ":" + ",".join(f"{key}={value}" for key, value in params.items())


@dataclass(frozen=True)
class RunSettings:
    """The strategies of a run and what every one of its solves shares.

    :ivar strategies: the strategy specs: for ``bench`` as the user wrote them (the first is the
        baseline), for ``distribution`` the one spec in canonical form
        (:func:`canonical_strategy`), so that a results file compares equal however it is spelled.
    :ivar budget: the time limit and state budget of every solve
        (:func:`solver.budget.search_budget`).
    :ivar max_moves: the move limit K.
    :ivar seed: the run's seed: it seeds the random deals (:func:`solver.runs.deals.deal_seed`),
        the searches of board files, and the bootstrap.
    :ivar dictionary: ``{"name", "words", "sha256"}`` of the word list.
    :ivar bound: also compute each deal's upper bound (about a second a deal). It changes no
        game, so a results file may be resumed with it on or off.
    """

    strategies: tuple[str, ...]
    budget: Budget
    max_moves: int | None
    seed: int
    rules: Rules = field(default_factory=Rules)
    dictionary: dict[str, Any] = field(default_factory=dict)
    bound: bool = False

    @property
    def strategy(self) -> str:
        """The one strategy of a distribution run."""
        if len(self.strategies) != 1:
            raise ValueError(f"a run of one strategy, not {len(self.strategies)}")
        return self.strategies[0]

    def _shared(self) -> dict[str, Any]:
        return {
            "time_limit": self.budget.time_limit,
            "max_states": self.budget.max_states,
            "max_moves": self.max_moves,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "dictionary": dict(self.dictionary),
            "bound": self.bound,
        }

    def to_dict(self) -> dict[str, Any]:
        """As a bench report writes them: ``{"strategies": [...], "time_limit": ..., ...}``."""
        return {"strategies": list(self.strategies), **self._shared()}

    def results_dict(self) -> dict[str, Any]:
        """As every line of a results file holds them (one strategy):
        ``{"strategy": ..., "time_limit": ..., ...}``."""
        return {"strategy": self.strategy, **self._shared()}

    def conflicts(self, stored: Any) -> list[str]:
        """How the settings ``stored`` in a results line differ from these, one phrase each
        (``bound`` may differ: it changes no game)."""
        if not isinstance(stored, dict):
            return ["settings missing"]
        mine = self.results_dict()
        found = []
        for key in ("strategy", "time_limit", "max_states", "max_moves", "seed", "rules"):
            if stored.get(key) != mine[key]:
                found.append(f"{key} {_show(stored.get(key))} (asked: {_show(mine[key])})")
        theirs = stored.get("dictionary")
        theirs = theirs if isinstance(theirs, dict) else {}
        # The name may differ (a renamed copy of a list): the words are what matter.
        if theirs.get("sha256") != self.dictionary.get("sha256"):
            found.append(
                f"dictionary {theirs.get('name')} sha256 {str(theirs.get('sha256'))[:12]}... "
                f"(asked: {self.dictionary.get('name')} "
                f"sha256 {str(self.dictionary.get('sha256'))[:12]}...)"
            )
        return found

    def describe(self) -> str:
        """One line for people: ``greedy, K=2, 10 s per deal, standard rules, scowl-70``."""
        return ", ".join(
            [
                *self.strategies,
                class_label(self.max_moves),
                *(f"{part} per deal" for part in self.budget.parts()),
                f"{self.rules.describe()} rules",
                str(self.dictionary.get("name", "?")),
            ]
        )


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return "none" if value is None else str(value)
