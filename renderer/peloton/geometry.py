"""Where Peloton's hexagons lie: cell centres and outlines in hexagon units (x east, y north)."""

from __future__ import annotations

import math

from rules.peloton.course import Course, split


class Geometry:
    """Cell centres in hexagon units (x east, y north) from the course's centreline and headings."""

    def __init__(self, course: Course) -> None:
        self.course = course
        self.line = course.centreline()

    def centre(self, s: float, lane: float) -> tuple[float, float]:
        i = max(0, min(len(self.line) - 1, int(s)))
        x, y = self.line[i]
        a = math.radians(self.course.heading(s))
        offset = ((self.course.width - 1) / 2 - lane) * math.sqrt(3) / 2  # lane 0 is on the left
        return x - math.sin(a) * offset, y + math.cos(a) * offset

    def hexagon(self, cell: str, scale: float = 1.0) -> list[tuple[float, float]]:
        s, lane = split(cell)
        cx, cy = self.centre(s, lane)
        a = math.radians(self.course.heading(s))
        r = scale / math.sqrt(3)
        return [
            (cx + r * math.cos(a + math.radians(30 + 60 * k)), cy + r * math.sin(a + math.radians(30 + 60 * k)))
            for k in range(6)
        ]
