"""Leader 1's painters for the registry: the board (highlighted choices become ride options) and the GC ring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from renderer.leader1.board import render_board
from renderer.leader1.standings import render_standings
from rules.game import Choice, Standing
from rules.leader1.model import State
from rules.leader1.moves import RideOption
from rules.leader1.stage import Standing as RingStanding


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    options = [c.shows for c in highlight if isinstance(c.shows, RideOption)]  # as the rules computed them
    labels = {c.target: c.short for c in highlight if c.target is not None and c.short}  # as the menu names it
    return render_board(
        state,
        highlight=options or None,
        title=title or None,
        alliances=list(legend) or None,
        acting=list(acting) or None,
        labels=labels or None,
    )


def paint_standings(standings: Sequence[Standing], *, title: str, options: Mapping[str, Any]) -> bytes:
    """The GC hexagon ring (D): positions on the ring, energy for ties."""
    ring = tuple(
        RingStanding(s.piece, s.player, s.score, s.resources.get("energy", 0), s.eliminated) for s in standings
    )
    kinds = {s.piece: s.piece.rsplit("-", 1)[-1] for s in standings}
    return render_standings(ring, int(options.get("ring", 12)), title, kinds)
