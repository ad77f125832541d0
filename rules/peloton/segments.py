"""How a Peloton course is written as data (docs/peloton-courses.md): its stretches (``Segment``) and,
for a course marked out on a board of roads, its signs (``Sign``). Below the course builder
(``course.py``) and the boards (``board.py``, ``random_board.py``) that write such data."""

from __future__ import annotations

from typing import TypedDict


class Segment(TypedDict, total=False):
    """A stretch of a course as the course builders write it (docs/peloton-courses.md: ``segments``)."""

    hexagons: int
    terrain: str
    turn: str
    crossroads: bool
    bonus: str
    checkpoint: bool


class Sign(TypedDict, total=False):
    """A sign a course marked out on a board stands at (docs/peloton-courses.md): the hexagon from the
    start line and what changes there."""

    at: int
    terrain: str
    bonus: str
    checkpoint: bool
