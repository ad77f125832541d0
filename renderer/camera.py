"""From track units to pixels: which rows to show and where they land in the picture."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from rules.track import Point, Track

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Camera:
    """Maps track units to pixels: ``px = (x - left) * scale + ox``; y grows downwards."""

    scale: float
    left: float
    top: float
    ox: float = 0.0
    oy: float = 0.0

    def px(self, p: Point) -> tuple[float, float]:
        return ((p[0] - self.left) * self.scale + self.ox, (self.top - p[1]) * self.scale + self.oy)


def row_boxes(track: Track) -> tuple[Box, ...]:
    """Each row's bounding box (min x, min y, max x, max y); cached with the road's picture."""
    boxes = []
    for row in range(track.row_count):
        points = [p for cell in track.row_cells(row) for p in cell.polygon]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return tuple(boxes)


def rows_bbox(boxes: tuple[Box, ...], first: int, last: int, margin: float = 1.6) -> Box:
    """min x, min y, max x, max y of rows ``first..last`` (in track units), with a margin."""
    chosen = boxes[max(first, 0) : min(last, len(boxes) - 1) + 1]
    return (
        min(b[0] for b in chosen) - margin,
        min(b[1] for b in chosen) - margin,
        max(b[2] for b in chosen) + margin,
        max(b[3] for b in chosen) + margin,
    )


def fits(box: Box, scale: float, width: int, height: int) -> bool:
    return (box[2] - box[0]) * scale <= width and (box[3] - box[1]) * scale <= height


def choose_window(
    boxes: tuple[Box, ...], focus: tuple[int, int], scale: float, width: int, height: int
) -> tuple[int, int]:
    """The widest run of rows around ``focus`` (first, last) that fits ``width x height`` at ``scale``."""
    last_row = len(boxes) - 1
    lo, hi = max(0, focus[0]), min(last_row, focus[1])
    while hi > lo and not fits(rows_bbox(boxes, lo, hi), scale, width, height):
        hi -= 1  # keep the back of the action: riders behind still have to move
    grew = True
    while grew:
        grew = False
        for lo2, hi2 in ((lo, hi + 1), (lo - 1, hi)):
            if lo2 >= 0 and hi2 <= last_row and fits(rows_bbox(boxes, lo2, hi2), scale, width, height):
                lo, hi, grew = lo2, hi2, True
    return lo, hi


@dataclass(frozen=True)
class View:
    """A camera that may turn the road: track points are turned by ``-angle`` before ``camera``.

    Turning the part of the road on show so that it runs left to right lets it fill a wide
    picture whatever its direction on the map.
    """

    camera: Camera
    angle: float = 0.0

    @property
    def scale(self) -> float:
        return self.camera.scale

    @cached_property
    def _cos_sin(self) -> tuple[float, float]:
        return math.cos(self.angle), math.sin(self.angle)

    def turn(self, p: Point) -> Point:
        c, s = self._cos_sin  # a board turns tens of thousands of points by one angle
        return (p[0] * c + p[1] * s, -p[0] * s + p[1] * c)

    def px(self, p: Point) -> tuple[float, float]:
        return self.camera.px(self.turn(p))

    def unpx(self, pixel: tuple[float, float]) -> Point:
        """The track point drawn at ``pixel``."""
        cam = self.camera
        x = (pixel[0] - cam.ox) / cam.scale + cam.left
        y = cam.top - (pixel[1] - cam.oy) / cam.scale
        c, s = self._cos_sin
        return (x * c - y * s, x * s + y * c)


def fit_view(
    points: list[Point], box: tuple[int, int, int, int], angle: float, max_scale: float, margin: float = 0.0
) -> View:
    """The view that shows every point of ``points`` inside the pixel ``box``, centred, as large as allowed."""
    bare = View(Camera(1.0, 0.0, 0.0), angle)
    turned = [bare.turn(p) for p in points]
    xs, ys = [p[0] for p in turned], [p[1] for p in turned]
    x0, y0, x1, y1 = min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin
    width, height = box[2] - box[0], box[3] - box[1]
    scale = min(max_scale, width / max(x1 - x0, 1e-6), height / max(y1 - y0, 1e-6))
    ox = box[0] + (width - (x1 - x0) * scale) / 2
    oy = box[1] + (height - (y1 - y0) * scale) / 2
    return View(Camera(scale, x0, y1, ox, oy), angle)
