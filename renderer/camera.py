"""From track units to pixels: which rows to show and where they land in the picture."""

from __future__ import annotations

from dataclasses import dataclass

from rules.track import Point, Track


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


_ROW_BOXES: dict[int, tuple[Track, list[tuple[float, float, float, float]]]] = {}


def _row_boxes(track: Track) -> list[tuple[float, float, float, float]]:
    """Each row's bounding box, computed once per track (the camera asks for them often)."""
    hit = _ROW_BOXES.get(id(track))
    if hit is not None and hit[0] is track:
        return hit[1]
    boxes = []
    for row in range(track.row_count):
        points = [p for cell in track.row_cells(row) for p in cell.polygon]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    if len(_ROW_BOXES) > 32:
        _ROW_BOXES.clear()
    _ROW_BOXES[id(track)] = (track, boxes)
    return boxes


def rows_bbox(track: Track, first: int, last: int, margin: float = 1.6) -> tuple[float, float, float, float]:
    """min x, min y, max x, max y of rows ``first..last`` (in track units), with a margin."""
    boxes = _row_boxes(track)[max(first, 0) : min(last, track.row_count - 1) + 1]
    return (
        min(b[0] for b in boxes) - margin,
        min(b[1] for b in boxes) - margin,
        max(b[2] for b in boxes) + margin,
        max(b[3] for b in boxes) + margin,
    )


def fits(box: tuple[float, float, float, float], scale: float, width: int, height: int) -> bool:
    return (box[2] - box[0]) * scale <= width and (box[3] - box[1]) * scale <= height


def choose_window(track: Track, focus: tuple[int, int], scale: float, width: int, height: int) -> tuple[int, int]:
    """The widest run of rows around ``focus`` (first, last) that fits ``width x height`` at ``scale``."""
    last_row = track.row_count - 1
    lo, hi = max(0, focus[0]), min(last_row, focus[1])
    while hi > lo and not fits(rows_bbox(track, lo, hi), scale, width, height):
        hi -= 1  # keep the back of the action: riders behind still have to move
    grew = True
    while grew:
        grew = False
        for lo2, hi2 in ((lo, hi + 1), (lo - 1, hi)):
            if lo2 >= 0 and hi2 <= last_row and fits(rows_bbox(track, lo2, hi2), scale, width, height):
                lo, hi, grew = lo2, hi2, True
    return lo, hi
