"""How far a Formula Dé Mini choice goes and what it costs in LP, for the baseline players."""

from __future__ import annotations

from collections.abc import Callable

from rules.formula_de_mini import engine
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.model import State
from rules.game import Choice


def measure(state: State, player: str) -> Callable[[Choice], tuple[float, float]]:
    """A gear: its die's mean roll for its over-rev; a move: spaces for the LP it spends (an
    overshoot's too); leaving the pits: the gear."""
    by_action = {c.action: c for c in engine.legal_actions(state, player)}

    def of(choice: Choice) -> tuple[float, float]:
        c = by_action.get(choice.action)
        a = choice.action
        if c is None:
            return (0.0, 0.0)
        if a.do == "gear":
            faces = [int(f) for f in gear_die(a.gear or 1).faces]
            return (sum(faces) / len(faces), float(c.lp))
        if c.option is not None:
            o = c.option
            return (float(o.spaces), float(c.lp + o.overshoot + o.blocked))
        if a.do == "pit":
            return (float(a.gear or 0), 0.0)
        return (0.0, 0.0)

    return of


def resources(state: State, player: str) -> int:
    """The LP of the player's cars still racing or finished."""
    return sum(c.lp for c in state.cars if c.player == player and c.status != "eliminated")
