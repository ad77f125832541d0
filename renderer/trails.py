"""Last turn's movement on a road of rows and lanes (Leader 1, Hell of the North), from the events.

Both games report a ride as ``rode`` or ``breakaway`` (rider, from, to) and the peloton's move as
``peloton`` (to, squares): the trails run from where each piece was to where it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.events import Event, whole
from rules.track import Point, Track

MOVES = ("rode", "breakaway", "peloton")


def road_trails(events: Sequence[Event], track: Track) -> dict[str, list[Point]]:
    """Rider id (or "peloton") -> the track points from where it was to where it is, for the last
    turn with moves. A rider leaving the peloton starts from the peloton's front row as it was then."""
    moves = [e for e in events if e.type in MOVES]
    if not moves:
        return {}
    turn = moves[-1].turn
    out: dict[str, list[Point]] = {}
    front: int | None = None
    for e in moves:
        if e.type == "peloton":
            to, squares = whole(e.data["to"]), whole(e.data["squares"])
            if e.turn == turn:
                rows = range(max(0, to - squares), min(to, track.row_count - 1) + 1)
                out["peloton"] = [track.centres[r] for r in rows]
            front = to
            continue
        if e.turn != turn:
            continue
        start, end = str(e.data.get("from") or ""), str(e.data.get("to") or "")
        if not track.has(start) and front is not None and track.has(end):
            start = f"{front}.{track.cells[end].lane}"
        if track.has(start) and track.has(end):
            out[str(e.data["rider"])] = _path(track, start, end)
    return out


def _path(track: Track, start: str, end: str) -> list[Point]:
    a, b = track.cells[start], track.cells[end]
    steps = max(1, b.row - a.row)
    points = []
    for i in range(steps + 1):
        row = a.row + (b.row - a.row) * i // steps
        lane = round(a.lane + (b.lane - a.lane) * i / steps)
        cell = track.cell(row, lane)
        if cell is not None:
            points.append(cell.centre)
    return points
