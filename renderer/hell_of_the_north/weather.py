"""Hell of the North's weather markers in the whole-route strip (``renderer.hell_of_the_north.panel.strip``).

The book (Race conditions 5) lays the markers face down beside the route: where they lie is
public, what they show is hidden until the first competitor reaches the hexagon before. Each
marker is a tile above its hexagon in the strip. Face down: a dark tile with a "?", drawn from
nothing but its hexagon (the state's ``weather`` says None; the pool of unturned kinds is never
read), so a face-down tile's pixels are the same whatever it hides. Turned: a white tile with
its weather as a shape that reads at 400 px wide: a raindrop, a sun, arrows against the race
(headwind) or with it (tailwind), one arrow per energy point.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from renderer.palette import HIGHLIGHT_SAFE, INK, READABLE, RGB, TERRAIN, TEXT, WEATHER, WHITE
from renderer.text import write
from rules.hell_of_the_north.model import State

Box = tuple[float, float, float, float]
TILE_WIDTH = 38.0  # px at 960 wide: 16 px at 400; narrower where a hexagon is narrower
RAIN: RGB = HIGHLIGHT_SAFE
HEAT: RGB = (230, 159, 0)
HEADWIND: RGB = TERRAIN["M"]
TAILWIND: RGB = (0, 150, 70)


def marker_boxes(state: State, xpos: Callable[[float], float], top: float, bottom: float) -> list[Box]:
    """Each marker's tile, in the order of ``state.weather``: centred on its hexagon's rows."""
    rows = state.setup.course.hex_rows
    boxes: list[Box] = []
    for hexagon, _ in state.weather:
        left, right = xpos(hexagon), xpos(hexagon + rows)
        half = min(TILE_WIDTH, right - left - 4) / 2
        middle = (left + right) / 2
        boxes.append((middle - half, top, middle + half, bottom))
    return boxes


def markers(draw: ImageDraw.ImageDraw, state: State, xpos: Callable[[float], float], top: float, bottom: float) -> None:
    """Every marker of the race at its hexagon: face down or showing its weather."""
    for box, (_, kind) in zip(marker_boxes(state, xpos, top, bottom), state.weather, strict=True):
        tile(draw, box, kind)


def tile(draw: ImageDraw.ImageDraw, box: Box, kind: str | None) -> None:
    """One marker: face down (``kind`` None) a "?" on the markers' back, else the weather it shows."""
    x0, y0, x1, y1 = box
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    if kind is None:
        draw.rounded_rectangle(box, radius=4, fill=WEATHER, outline=INK, width=1)
        write(draw, centre, "?", fill=WHITE, size=TEXT, bold=True, anchor="mm")
        return
    draw.rounded_rectangle(box, radius=4, fill=WHITE, outline=WEATHER, width=2)
    size = min(x1 - x0, y1 - y0) - 5  # the symbol's square
    if kind == "rain":
        _drop(draw, centre, size)
    elif kind == "heat":
        _sun(draw, centre, size)
    elif kind.startswith(("headwind-", "tailwind-")):
        name, _, strength = kind.partition("-")
        _arrows(draw, box, size, int(strength) if strength.isdigit() else 1, name == "tailwind")
    else:  # a kind this board does not know: its first letter
        write(draw, centre, kind[:1].upper(), fill=INK, size=READABLE, bold=True, anchor="mm")


def _drop(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A raindrop: a round bottom under a point."""
    x, y = centre
    r = size * 0.3
    bottom = y + size / 2 - r
    draw.ellipse((x - r, bottom - r, x + r, bottom + r), fill=RAIN, outline=INK, width=1)
    draw.polygon([(x, y - size / 2), (x - r * 0.92, bottom - r * 0.35), (x + r * 0.92, bottom - r * 0.35)], fill=RAIN)
    draw.line([(x, y - size / 2), (x - r * 0.92, bottom - r * 0.35)], fill=INK, width=1)
    draw.line([(x, y - size / 2), (x + r * 0.92, bottom - r * 0.35)], fill=INK, width=1)


def _sun(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A sun: a disc with eight rays."""
    x, y = centre
    r = size * 0.28
    for i in range(8):
        dx, dy = ((1, 0), (0.7071, 0.7071), (0, 1), (-0.7071, 0.7071))[i % 4]
        sign = 1 if i < 4 else -1
        inner, outer = r + 1.5, size / 2 + 1
        draw.line(
            [(x + sign * dx * inner, y + sign * dy * inner), (x + sign * dx * outer, y + sign * dy * outer)],
            fill=INK,
            width=2,
        )
    draw.ellipse((x - r, y - r, x + r, y + r), fill=HEAT, outline=INK, width=1)


def _arrows(draw: ImageDraw.ImageDraw, box: Box, size: float, count: int, forward: bool) -> None:
    """``count`` arrowheads side by side: pointing to the finish (tailwind) or back at the riders (headwind)."""
    x0, y0, x1, y1 = box
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    count = max(1, min(count, 3))
    width = min((x1 - x0 - 6) / count, size * 0.7)
    half = size * 0.45
    start = x - width * count / 2
    for i in range(count):
        left, right = start + i * width, start + (i + 1) * width
        tip, back = (right, left) if forward else (left, right)
        colour = TAILWIND if forward else HEADWIND
        draw.polygon([(tip, y), (back, y - half), (back, y + half)], fill=colour, outline=INK)
