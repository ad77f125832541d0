"""From track units to pixels: which rows to show and where they land in the picture."""

from __future__ import annotations

from dataclasses import dataclass

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
