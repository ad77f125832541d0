"""Formula Dé Mini's board painter for the registry: the highlighted choices become move options."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.formula_de_mini.circuit_board import render_circuit
from renderer.standings_table import table_painter
from rules.formula_de_mini.engine import legal_actions, pending
from rules.formula_de_mini.model import State
from rules.game import Choice


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    options = None
    decision = pending(state)
    if highlight and decision is not None:
        wanted = {c.action for c in highlight}
        legal = legal_actions(state, decision.player)
        options = [c.option for c in legal if c.option is not None and c.action in wanted]
    labels = {c.target: c.short for c in highlight if c.target is not None and c.short}  # as the menu names it
    return render_circuit(
        state, highlight=options, title=title or None, acting=list(acting) or None, labels=labels or None
    )


# a league's general classification: a table in the game's own words
paint_standings = table_painter("formula-de-mini")
