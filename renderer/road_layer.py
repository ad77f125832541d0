"""The static picture of a cycling road: drawn once per road and scale, then cropped per turn."""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.cache import LruCache, track_key
from renderer.camera import Box, Camera, row_boxes, rows_bbox
from renderer.palette import (
    ASPHALT,
    BACKGROUND,
    DOT,
    FALL,
    INK,
    LANE_LINE,
    SPRINT,
    TERRAIN,
)
from renderer.text import text_bbox, write
from rules.road import Road
from rules.track import Point

CACHE_SIZE = 16  # a grand tour's layer is ~10 MB of pixels: a few dozen roads in memory at most


@dataclass(frozen=True)
class RoadLayer:
    """A road drawn whole: the picture (never changed once cached), its camera and row boxes."""

    image: Image.Image
    camera: Camera
    boxes: tuple[Box, ...]


_CACHE: LruCache[RoadLayer] = LruCache(CACHE_SIZE)


def road_key(road: Road) -> Hashable:
    """The road's content, everything the static picture is drawn from."""
    return (
        road.name,
        track_key(road.track),
        road.profile,
        road.surface,
        road.finish,
        road.sprint,
        road.feed,
        road.mountains,
        road.bonus,
        tuple(sorted(road.fall)),
        tuple(sorted(road.dotted)),
        road.tiles,
    )


def road_layer(road: Road, scale: float) -> RoadLayer:
    """The whole road drawn at ``scale`` px per track unit, and the camera that drew it (cached)."""
    return _CACHE.get((road_key(road), scale), lambda: _draw(road, scale))


def _pts(camera: Camera, points: tuple[Point, ...] | list[Point]) -> list[tuple[float, float]]:
    return [camera.px(p) for p in points]


def _draw(road: Road, scale: float) -> RoadLayer:
    track = road.track
    boxes = row_boxes(track)
    box = rows_bbox(boxes, 0, track.row_count - 1, margin=2.2)
    camera = Camera(scale, box[0], box[3])
    size = (math.ceil((box[2] - box[0]) * scale), math.ceil((box[3] - box[1]) * scale))
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    _hexagons(draw, road, camera)
    for cell in track.cells.values():
        fill = ASPHALT
        if road.in_sprint(cell.row):
            fill = SPRINT
        if road.is_fall(cell.id):
            fill = FALL
        draw.polygon(_pts(camera, cell.polygon), fill=fill, outline=LANE_LINE)
    border = max(2, round(scale * 0.16))
    for row in range(track.row_count):
        colour = TERRAIN[road.terrain(row)]
        left = track.cell(row, 0)
        right = track.cell(row, track.lanes - 1)
        if left is None or right is None:
            continue
        draw.line(_pts(camera, [left.polygon[0], left.polygon[3]]), fill=colour, width=border)
        draw.line(_pts(camera, [right.polygon[1], right.polygon[2]]), fill=colour, width=border)
    for cid in road.dotted:
        cx, cy = camera.px(track.cells[cid].centre)
        r = max(1.5, scale * 0.05)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DOT)
    _line_across(draw, road, camera, 0, "start")
    _line_across(draw, road, camera, road.finish, "finish")
    _tokens(draw, road, camera)
    _row_numbers(draw, road, camera)
    return RoadLayer(image, camera, boxes)


def _boundary(road: Road, row: int) -> tuple[Point, Point]:
    """The two ends of the line across the road at the start of ``row``."""
    track = road.track
    row = min(row, track.row_count - 1)
    left = track.cell(row, 0)
    right = track.cell(row, track.lanes - 1)
    assert left is not None and right is not None
    return left.polygon[0], right.polygon[1]


def _line_across(draw: ImageDraw.ImageDraw, road: Road, camera: Camera, row: int, kind: str) -> None:
    (x0, y0), (x1, y1) = (camera.px(p) for p in _boundary(road, row))
    squares = road.lanes * 4
    width = max(3, round(camera.scale * 0.22))
    for i in range(squares):
        a, b = i / squares, (i + 1) / squares
        colour = INK if i % 2 == 0 else (255, 255, 255)
        draw.line(
            (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), fill=colour, width=width
        )
    label = "START" if kind == "start" else "FINISH"
    write(draw, (x1 + 4, y1 - 8), label, fill=INK, size=14)


def _side(road: Road, row: int, distance: float, right: bool = True) -> Point:
    track = road.track
    row = max(0, min(row, track.row_count - 1))
    cx, cy = track.centres[row]
    heading = track.headings[row]
    offset = -(track.lanes / 2 + distance) if right else track.lanes / 2 + distance
    return (cx - math.sin(heading) * offset, cy + math.cos(heading) * offset)


def _badge(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int] = (255, 255, 255),
    size: int = 14,
) -> None:
    x0, y0, x1, y1 = text_bbox(text, size)
    w, h = x1 - x0 + 10, y1 - y0 + 8
    cx, cy = centre
    draw.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=5, fill=fill, outline=INK)
    write(draw, (cx - (x1 - x0) / 2 - x0, cy - (y1 - y0) / 2 - y0), text, fill=ink, size=size)


def _tokens(draw: ImageDraw.ImageDraw, road: Road, camera: Camera) -> None:
    for mountain in road.mountains:
        _badge(draw, camera.px(_side(road, mountain.row, 0.8)), f"cat {mountain.category}", TERRAIN["M"])
    for row in road.feed:
        _badge(draw, camera.px(_side(road, row, 0.8)), "FEED", (0, 114, 178))
    for row in road.bonus:
        _badge(draw, camera.px(_side(road, row, 0.8, right=False)), "BONUS", (230, 159, 0), ink=(0, 0, 0))
    if road.sprint is not None:
        _badge(draw, camera.px(_side(road, road.sprint, 0.8, right=False)), "SPRINT", (240, 228, 66), ink=(0, 0, 0))


def _hexagons(draw: ImageDraw.ImageDraw, road: Road, camera: Camera) -> None:
    """Each tile's hexagon outline (flat sides across the road) and its milestone value."""
    track = road.track
    for tile in road.tiles:
        middle = tile.first_row + tile.rows // 2
        if middle >= track.row_count:
            continue
        (ax, ay), (bx, by) = track.centres[middle - 1], track.centres[middle]
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        heading = (track.headings[middle - 1] + track.headings[middle]) / 2
        radius = tile.rows / 2 / math.cos(math.radians(30))
        corners = [
            (
                cx + radius * math.cos(heading + math.radians(30 + 60 * k)),
                cy + radius * math.sin(heading + math.radians(30 + 60 * k)),
            )
            for k in range(6)
        ]
        draw.polygon(_pts(camera, corners), fill=(226, 232, 220), outline=(190, 196, 184))
        stone = _side(road, middle, 0.7, right=False)
        if tile.milestone:
            _badge(draw, camera.px(stone), str(tile.milestone), (245, 245, 240), ink=INK, size=14)


def _row_numbers(draw: ImageDraw.ImageDraw, road: Road, camera: Camera) -> None:
    for row in range(0, road.track.row_count, 5):
        x, y = camera.px(_side(road, row, 0.35, right=False))
        write(draw, (x - 7, y - 7), str(row), fill=(120, 120, 120), size=14)
