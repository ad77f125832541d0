"""A road laid straight for drawing: the same rows, lanes and cells, without its bends.

A Leader 1 road bends as its tiles do, and a bend drawn to scale leaves the squares of a long
breakaway move too small to carry their names at a readable size on a phone. Bends change
nothing in the rules, so a board may draw the stretch straight instead (docs/board.md).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from rules.memo import Recent
from rules.track import Cell, Point, Track

# A road is loaded once per name and shared by every race on it (``rules.stages.road_for``, and
# a state sent to a board worker names its road), so the straight copy is kept per track object.
_STRAIGHT: Recent[Track] = Recent(16)


def straightened(track: Track) -> Track:
    """``track`` with row ``r`` drawn from x = r to r + 1 and lane ``l`` from y = lanes/2 - l down
    one unit (lane 0 on the left of travel), as ``build_track`` lays a road without bends."""
    kept = _STRAIGHT.get(id(track), track)
    if kept is None:
        kept = _straightened(track)
        _STRAIGHT.put(id(track), track, kept)
    assert isinstance(kept, Track)
    return kept


def _straightened(track: Track) -> Track:
    cells: dict[str, Cell] = {}
    for cid, cell in track.cells.items():
        span = max(1, (len(cell.polygon) - 2) // 2)  # rows the space spans (build_track's polygon)
        left = track.lanes / 2 - cell.lane
        right = left - 1
        polygon: tuple[Point, ...] = (
            (float(cell.row), left),
            *((float(b), right) for b in range(cell.row, cell.row + span + 1)),
            *((float(b), left) for b in range(cell.row + span, cell.row, -1)),
        )
        cells[cid] = replace(cell, polygon=polygon)
    return replace(
        track,
        cells=MappingProxyType(cells),
        centres=tuple((row + 0.5, 0.0) for row in range(track.row_count)),
        headings=(0.0,) * track.row_count,
    )
