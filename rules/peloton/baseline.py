"""How far a Peloton choice goes and what it costs, for the baseline players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.game import Choice
from rules.peloton.cards import card
from rules.peloton.course import split
from rules.peloton.engine import legal_actions
from rules.peloton.model import DIAL


def measure(state: Any, player: str) -> Callable[[Choice], tuple[float, float]]:
    """The dial: its value for its energy; a ride: the hexagons (the furthest along first); a
    time-trial card: the energy it gives."""
    by_action = {o.action: o for o in legal_actions(state, player)}

    def of(choice: Choice) -> tuple[float, float]:
        o = by_action.get(choice.action)
        if o is None:
            return (0.0, 0.0)
        if o.dial is not None:
            return (float(DIAL[o.dial.position]), float(o.dial.cost))
        if o.ride is not None:
            return (o.ride.hexagons + split(o.ride.to)[0] / 1000, 0.0)
        if o.card is not None:
            return (0.0, -float(card(o.card).energy))
        return (0.0, 0.0)

    return of


def resources(state: Any, player: str) -> int:
    """The energy of the player's cyclists."""
    return sum(c.energy for c in state.cyclists if c.player == player)
