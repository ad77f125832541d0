"""How far a Hell of the North choice goes and what it costs, for the baseline players."""

from __future__ import annotations

from collections.abc import Callable

from rules.game import Choice
from rules.hell_of_the_north import engine
from rules.hell_of_the_north.model import State
from rules.leader1.baseline import family_measure, resources

__all__ = ["measure", "resources"]


def measure(state: State, player: str) -> Callable[[Choice], tuple[float, float]]:
    """As Leader 1's; a place at the front of the peloton costs a point a move, the back none."""
    rides = family_measure({c.action: c.option for c in engine.legal_actions(state, player)})

    def of(choice: Choice) -> tuple[float, float]:
        if choice.action.do == "place":
            return (0.0, 1.0 if choice.action.get("part") == "front" else 0.0)
        return rides(choice)

    return of
