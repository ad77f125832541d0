"""Pieces and marks shared by both boards: rider tokens, cars, the marker on the piece to act,
state badges, movement trails and highlighted squares with their names and costs.

Nothing here relies on colour alone: a rider's type is its shape (rouleur circle, leader
square, climber diamond) and its letters say team and type; a car carries its team letter
and number; the piece to act has a ring *and* an arrow; a risky square has a "!" and a
dashed edge.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

from renderer import layout
from renderer.palette import (
    ACT,
    HIGHLIGHT_RISK,
    HIGHLIGHT_SAFE,
    INK,
    RGB,
    RIDER_SHAPE,
    SMALL,
    TEAM,
    TEAM_TEXT,
    TEXT,
    WHITE,
    rider_label,
    team_code,
    team_of,
)
from renderer.text import text_length, unwritten, write

Point = tuple[float, float]


def polygon(
    draw: ImageDraw.ImageDraw,
    points: Sequence[Point],
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """``draw.polygon`` with a wide outline drawn as a line: Pillow makes a mask the size of the
    whole picture for every polygon outlined wider than 1 px, which took a third of a board."""
    if width <= 1:
        draw.polygon(list(points), fill=fill, outline=outline)
        return
    if fill is not None:
        draw.polygon(list(points), fill=fill)
    if outline is not None:
        draw.line([*points, points[0], points[1]], fill=outline, width=width, joint="curve")


def shape_points(shape: str, centre: Point, radius: float) -> list[Point] | None:
    """The outline of a rider type's shape; None for a circle (drawn as an ellipse)."""
    x, y = centre
    if shape == "square":
        r = radius * 0.86
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    if shape == "triangle":  # a diamond: a triangle has no room for two letters
        r = radius * 1.12
        return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    return None


def rider_shape(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, kind: str, fill: RGB, outline: RGB = INK, width: int = 2
) -> None:
    points = shape_points(RIDER_SHAPE.get(kind, "circle"), centre, radius)
    if points is None:
        x, y = centre
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)
    else:
        polygon(draw, points, fill, outline, width)


def rider_token(draw: ImageDraw.ImageDraw, centre: Point, radius: float, rider_id: str, kind: str, size: int) -> None:
    """A rider: its type's shape in its team's colour, with its two letters (team, type)."""
    team = team_of(rider_id)
    rider_shape(draw, centre, radius, kind, TEAM.get(team, (200, 200, 200)))
    layout.place_disc("disc", centre, radius, rider_id)
    write(draw, centre, rider_label(rider_id), fill=TEAM_TEXT.get(team, INK), size=size, bold=True, anchor="mm")


def badge(draw: ImageDraw.ImageDraw, centre: Point, letter: str, fill: RGB = WHITE, ink: RGB = INK) -> None:
    """A small round badge with a letter: a piece's state (P punctured, X fell, D dropped)."""
    x, y = centre
    r = SMALL * 0.62
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)
    layout.place_disc("disc", centre, r, letter)
    write(draw, centre, letter, fill=ink, size=SMALL - 4, bold=True, anchor="mm")


BADGE_CORNERS = ((1, -1), (-1, -1), (1, 1), (-1, 1))  # upper right, upper left, lower right, lower left


def badge_spot(centre: Point, radius: float) -> Point:
    """Where a piece's badge goes: the first corner of the piece (upper right first) whose badge would
    cover no string already written there (an offered square's name, a neighbour's letters)."""
    r = SMALL * 0.62
    spots = [(centre[0] + sx * radius * 0.9, centre[1] + sy * radius * 0.9) for sx, sy in BADGE_CORNERS]
    return next((p for p in spots if unwritten((p[0] - r, p[1] - r, p[0] + r, p[1] + r))), spots[0])


def acting_marker(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """The piece to act now: a thick ring and an arrow pointing down at it."""
    x, y = centre
    r = radius + 6
    draw.ellipse((x - r, y - r, x + r, y + r), outline=ACT, width=5)
    top = y - r - 4
    draw.polygon([(x, top), (x - 13, top - 20), (x + 13, top - 20)], fill=ACT, outline=INK)


CAR_LABEL_ROOM = 37.0  # px of a car 44 px long a code may take: the widest English one ("G2")
CAR_LABEL_LEAST = 18  # the smallest a car's code is drawn (the boards' least label size)


def car_token(
    draw: ImageDraw.ImageDraw, centre: Point, heading: float, length: float, car_id: str, team: str, gear: int
) -> None:
    """A car: a rounded body along the road in the team's colour, its team letter and number, its gear."""
    x, y = centre
    half_l, half_w = length / 2, length * 0.34
    c, s = math.cos(heading), math.sin(heading)
    body = [
        (x + dx * c - dy * s, y + dx * s + dy * c)
        for dx, dy in (
            (-half_l, -half_w),
            (half_l * 0.75, -half_w),
            (half_l, 0),
            (half_l * 0.75, half_w),
            (-half_l, half_w),
        )
    ]
    polygon(draw, body, TEAM.get(team, (200, 200, 200)), INK, 2)
    layout.place_shape("disc", body, car_id)
    label = team_code(team) + car_id.rsplit("-", 1)[-1]  # as the table and the header name it
    # a wider code ("Čv1", "M1") than the body holds is drawn smaller, down to CAR_LABEL_LEAST, and the
    # gear's box moves back past it
    size, width = SMALL, text_length(label, SMALL, bold=True)
    while width > CAR_LABEL_ROOM * length / 44 and size > CAR_LABEL_LEAST:
        size -= 1
        width = text_length(label, size, bold=True)
    write(draw, centre, label, fill=TEAM_TEXT.get(team, INK), size=size, bold=True, anchor="mm")
    if gear:
        back = max(half_l + 4, width / 2 + 14)
        gx, gy = x - back * c, y - back * s
        draw.rectangle((gx - 12, gy - 12, gx + 12, gy + 12), fill=WHITE, outline=INK, width=2)
        write(draw, (gx, gy), str(gear), fill=INK, size=SMALL - 2, bold=True, anchor="mm")


def trail(draw: ImageDraw.ImageDraw, points: Sequence[Point], colour: RGB) -> None:
    """Where a piece came from: a line in its colour, edged in ink, from a hollow ring at the start."""
    if len(points) < 2:
        return
    layout.place_shape("trail", points)
    draw.line(list(points), fill=INK, width=11, joint="curve")
    draw.line(list(points), fill=colour, width=6, joint="curve")
    trail_start(draw, points[0])


def trails(draw: ImageDraw.ImageDraw, paths: Sequence[tuple[Sequence[Point], RGB]]) -> None:
    """Several trails: every line first, then every start, so no trail's line covers another's start."""
    for points, colour in paths:
        trail(draw, points, colour)
    for points, _ in paths:
        if len(points) >= 2:
            trail_start(draw, points[0])


def trail_start(draw: ImageDraw.ImageDraw, point: Point) -> None:
    """Where a trail starts: a hollow ring."""
    x, y = point
    draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=WHITE, outline=INK, width=3)


def _dashed(draw: ImageDraw.ImageDraw, polygon: list[Point], colour: RGB, width: int) -> None:
    for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        length = math.dist(a, b)
        steps = max(1, int(length // 10))
        for i in range(0, steps, 2):
            t0, t1 = i / steps, min(1.0, (i + 1) / steps)
            draw.line(
                (
                    a[0] + (b[0] - a[0]) * t0,
                    a[1] + (b[1] - a[1]) * t0,
                    a[0] + (b[0] - a[0]) * t1,
                    a[1] + (b[1] - a[1]) * t1,
                ),
                fill=colour,
                width=width,
            )


def _label_sizes(
    square: list[Point], name: str | None, name_size: int | None, cost_size: int, floor: int
) -> tuple[int, int]:
    """The name's font size (0: no name) and the cost's, as ``highlight_square`` draws them."""
    if not name:
        return 0, SMALL
    if name_size is None:
        area = abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(square, [*square[1:], square[0]], strict=True)))
        room = math.sqrt(area / 2) - 12  # about the side of a square of the same area, less the box's edges
        name_size = TEXT
        while name_size > floor and text_length(name, name_size, bold=True) > room:
            name_size = max(floor, name_size - 2)
    return name_size, min(cost_size, max(name_size, SMALL - 4))  # the cost never larger than a name shrunk to fit


def label_box(
    square: list[Point],
    centre: Point,
    cost: str,
    name: str | None,
    name_size: int | None = None,
    cost_size: int = SMALL - 4,
    floor: int = SMALL - 6,
) -> tuple[float, float, float, float]:
    """The box ``highlight_square`` fills with a square's name and cost (a board keeps them apart)."""
    x, y = centre
    name_size, small = _label_sizes(square, name, name_size, cost_size, floor)
    if not name:
        w, h = text_length(cost, SMALL, bold=True) + 10, SMALL + 6
        return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    half = max(text_length(name, name_size, bold=True) / 2 + 5, text_length(cost, small, bold=True) / 2 + 4)
    top = y - (name_size + 4 + small + 2) / 2
    return (x - half, top, x + half, top + name_size + 2 + small + 2)


def highlight_square(
    draw: ImageDraw.ImageDraw,
    square: list[Point],
    centre: Point,
    cost: str,
    risky: bool,
    name: str | None,
    name_size: int | None = None,
    cost_size: int = SMALL - 4,
    floor: int = SMALL - 6,
    labelled: bool = True,
    edged: bool = True,
) -> int:
    """A square the piece to act may reach: its edge (dashed when risky), its name and its cost
    (``labelled`` False: its edge alone, where a board has no room for its words; ``edged`` False: its
    words alone, drawn after every square's edge so that no neighbour's edge crosses them).

    ``name_size``: the name's font; by default the largest (up to ``TEXT``) that fits the square,
    so a long name ("34.0") stays inside a small square, never below ``floor``. Returns the name's font size (0: no
    name), so a board can tell how large its names came out (tests check them at 400 px wide)."""
    colour = HIGHLIGHT_RISK if risky else HIGHLIGHT_SAFE
    if edged:
        layout.place_shape("offer", square, name or cost)
        if risky:
            polygon(draw, square, None, colour, 2)
            _dashed(draw, square, colour, 5)
        else:
            polygon(draw, square, None, colour, 5)
    x, y = centre
    cost_w = text_length(cost, SMALL, bold=True)
    if not labelled:
        return 0
    if name:  # the name above the cost, both inside the square
        name_size, small = _label_sizes(square, name, name_size, cost_size, floor)
        cost_w = text_length(cost, small, bold=True)
        name_w = text_length(name, name_size, bold=True)
        top = y - (name_size + 4 + small + 2) / 2
        draw.rectangle((x - name_w / 2 - 5, top, x + name_w / 2 + 5, top + name_size + 2), fill=colour, outline=INK)
        write(draw, (x, top + name_size / 2 + 1), name, fill=WHITE, size=name_size, bold=True, anchor="mm")
        top += name_size + 2
        draw.rectangle((x - cost_w / 2 - 4, top, x + cost_w / 2 + 4, top + small + 2), fill=WHITE, outline=colour)
        write(draw, (x, top + small / 2 + 1), cost, fill=INK, size=small, bold=True, anchor="mm")
        return name_size
    else:
        w, h = cost_w + 10, SMALL + 6
        draw.rectangle((x - w / 2, y - h / 2, x + w / 2, y + h / 2), fill=colour, outline=INK)
        write(draw, (x, y), cost, fill=WHITE, size=SMALL, bold=True, anchor="mm")
    return 0
