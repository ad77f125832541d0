"""Where Peloton's hexagons lie: cell centres and outlines in hexagon units (x east, y north)."""

from __future__ import annotations

import math

from rules.peloton.course import Course, split


class Geometry:
    """Cell centres in hexagon units (x east, y north) from the course's centreline and headings.

    ``straight``: the course laid out without its turnings, every strip one after the other heading
    east. A turning drawn to scale squeezes its inner lane (a road of 3 lanes puts the inner line's
    hexagons 0.65 of a hexagon apart), so a board may draw the stretch straight instead, as
    ``renderer/straight.py`` does for bends: turnings are drawing, the rules count strips and lanes.
    """

    def __init__(self, course: Course, straight: bool = False) -> None:
        self.course = course
        self.straight = straight
        self.line = [(s / 2, 0.0) for s in range(course.end + 1)] if straight else course.centreline()

    def heading(self, s: float) -> float:
        """The road's heading in degrees at ``s`` as drawn (0 everywhere when straight)."""
        return 0.0 if self.straight else self.course.heading(s)

    def centre(self, s: float, lane: float) -> tuple[float, float]:
        i = max(0, min(len(self.line) - 1, int(s)))
        x, y = self.line[i]
        a = math.radians(self.heading(s))
        offset = ((self.course.width - 1) / 2 - lane) * math.sqrt(3) / 2  # lane 0 is on the left
        return x - math.sin(a) * offset, y + math.cos(a) * offset

    def hexagon(self, cell: str, scale: float = 1.0) -> list[tuple[float, float]]:
        s, lane = split(cell)
        cx, cy = self.centre(s, lane)
        a = math.radians(self.heading(s))
        r = scale / math.sqrt(3)
        return [
            (cx + r * math.cos(a + math.radians(30 + 60 * k)), cy + r * math.sin(a + math.radians(30 + 60 * k)))
            for k in range(6)
        ]
