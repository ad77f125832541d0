"""How far a Leader 1 choice goes and what it costs, for the baseline players (``rules/baselines.py``)."""

from __future__ import annotations

from collections.abc import Callable

from rules.action import Action
from rules.game import Choice
from rules.leader1 import engine
from rules.leader1.family import AnyFamilyState
from rules.leader1.model import State
from rules.leader1.paths import RideOption

# the peloton moves one more square; the other decisions (drop, pass) go nowhere
OTHER = {"pursue": (1.0, 0.0), "drop": (-1.0, 0.0)}


def family_measure(
    options: dict[Action, RideOption | None],
) -> Callable[[Choice], tuple[float, float]]:
    """(squares, energy paid less energy back) of a ride or breakaway; pursuing moves the peloton one more."""

    def measure(choice: Choice) -> tuple[float, float]:
        option = options.get(choice.action)
        if option is not None:
            return (float(option.squares), float(option.cost - option.recovery))
        return OTHER.get(choice.action.do, (0.0, 0.0))

    return measure


def measure(state: State, player: str) -> Callable[[Choice], tuple[float, float]]:
    return family_measure({c.action: c.option for c in engine.legal_actions(state, player)})


def resources(state: AnyFamilyState, player: str) -> int:
    """The energy the player's riders hold (those still in the race)."""
    return sum(r.energy for r in state.riders if r.player == player and r.status != "eliminated")
