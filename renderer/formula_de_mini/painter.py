"""Formula Dé Mini's board painter for the registry: the highlighted choices become move options."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.formula_de_mini.circuit_board import render_circuit
from renderer.standings_table import table_painter
from rules.formula_de_mini.model import State
from rules.formula_de_mini.moves import MoveOption
from rules.game import Choice


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    options = [c.shows for c in highlight if isinstance(c.shows, MoveOption)] or None  # as the rules computed them
    labels = {c.target: c.short for c in highlight if c.target is not None and c.short}  # as the menu names it
    return render_circuit(
        state, highlight=options, title=title or None, acting=list(acting) or None, labels=labels or None
    )


# a league's general classification: a table in the game's own words
paint_standings = table_painter("formula-de-mini")
