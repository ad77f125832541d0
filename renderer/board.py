"""The board image of a Leader 1 race: the road, the riders, the peloton, a side panel.

``render_board`` reads a state and returns PNG bytes; it never changes the state. The
static road is drawn once per road and cached; each call crops the part with the action,
draws the riders on it and adds an overview strip when the whole stage does not fit.
"""

from __future__ import annotations

import math
from dataclasses import replace

from PIL import Image, ImageDraw

from renderer.camera import Camera, choose_window, fits, rows_bbox
from renderer.encode import png_bytes
from renderer.palette import (
    BACKGROUND,
    HIGHLIGHT_RISK,
    HIGHLIGHT_SAFE,
    INK,
    PELOTON,
    TEAM,
    TERRAIN,
)
from renderer.panel import draw_panel, rider_token
from renderer.road_layer import road_layer
from renderer.text import text_length, write
from rules.leader1.model import State
from rules.leader1.moves import RideOption

WIDTH, HEIGHT = 1500, 900
BOARD_W = 1020
STRIP_H = 150
SCALE = 34.0


def render_board(
    state: State,
    *,
    highlight: list[RideOption] | None = None,
    title: str | None = None,
    alliances: list[str] | None = None,
) -> bytes:
    """The board as PNG bytes; ``highlight`` marks legal destinations with their cost and risk."""
    return png_bytes(render_image(state, highlight=highlight, title=title, alliances=alliances))


def render_image(
    state: State,
    *,
    highlight: list[RideOption] | None = None,
    title: str | None = None,
    alliances: list[str] | None = None,
) -> Image.Image:
    return compose(state, highlight=highlight, title=title, alliances=alliances)[0]


def compose(
    state: State,
    *,
    highlight: list[RideOption] | None = None,
    title: str | None = None,
    alliances: list[str] | None = None,
) -> tuple[Image.Image, Camera]:
    """The board image and the camera that placed the road on it (tests read pixels through it)."""
    road = state.setup.road
    track = road.track
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    drawn = road_layer(road, SCALE)
    layer, layer_camera = drawn.image, drawn.camera
    whole = (0, track.row_count - 1)
    board_h = HEIGHT
    if fits(rows_bbox(drawn.boxes, *whole), SCALE, BOARD_W, HEIGHT):
        window = whole
    else:
        board_h = HEIGHT - STRIP_H
        window = choose_window(drawn.boxes, _focus(state, highlight), SCALE, BOARD_W, board_h)
    box = rows_bbox(drawn.boxes, *window)
    left, top = layer_camera.px((box[0], box[3]))
    right, bottom = layer_camera.px((box[2], box[1]))
    crop = layer.crop((math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)))
    ox = (BOARD_W - crop.width) // 2
    oy = (board_h - crop.height) // 2
    image.paste(crop, (ox, oy))
    camera = replace(layer_camera, ox=ox - math.floor(left), oy=oy - math.floor(top))
    _peloton(image, state, camera)
    draw = ImageDraw.Draw(image)
    _peloton_label(draw, state, camera)
    if highlight:
        _highlight(draw, state, camera, highlight)
    _riders(draw, state, camera)
    if window != whole:
        _strip(draw, state, window, (0, HEIGHT - STRIP_H, BOARD_W, HEIGHT))
    draw_panel(draw, state, (BOARD_W, 0, WIDTH - 1, HEIGHT - 1), title or road.name, alliances)
    return image, camera


def _focus(state: State, highlight: list[RideOption] | None) -> tuple[int, int]:
    rows = [r.row for r in state.riders if r.racing and r.row is not None and r.status != "peloton"]
    rows += [state.peloton - 1, state.peloton]
    if highlight:
        rows += [int(o.to.split(".")[0]) for o in highlight]
    return max(0, min(rows) - 2), max(rows) + 3


def _peloton_corners(state: State) -> list[tuple[float, float]] | None:
    track = state.setup.road.track
    back, front = state.peloton - 1, state.peloton
    a, b = track.cell(back, 0), track.cell(back, track.lanes - 1)
    c, d = track.cell(front, track.lanes - 1), track.cell(front, 0)
    if a is None or b is None or c is None or d is None:
        return None
    return [a.polygon[0], b.polygon[1], c.polygon[2], d.polygon[3]]


def _peloton(image: Image.Image, state: State, camera: Camera) -> None:
    """The peloton's two rows, shaded see-through (composited on its own box only: cheap)."""
    corners = _peloton_corners(state)
    if corners is None or state.peloton_arrived_turn is not None:
        return
    points = [camera.px(p) for p in corners]
    x0, y0 = max(0, math.floor(min(p[0] for p in points))), max(0, math.floor(min(p[1] for p in points)))
    x1 = min(image.width, math.ceil(max(p[0] for p in points)) + 1)
    y1 = min(image.height, math.ceil(max(p[1] for p in points)) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    box = (x0, y0, x1, y1)
    patch = image.crop(box).convert("RGBA")
    shade = Image.new("RGBA", patch.size, (0, 0, 0, 0))
    ImageDraw.Draw(shade).polygon([(x - x0, y - y0) for x, y in points], fill=(*PELOTON, 150), outline=(*INK, 255))
    image.paste(Image.alpha_composite(patch, shade).convert("RGB"), box)


def _peloton_label(draw: ImageDraw.ImageDraw, state: State, camera: Camera) -> None:
    corners = _peloton_corners(state)
    if corners is None or state.peloton_arrived_turn is not None:
        return
    riders = sum(1 for r in state.riders if r.status == "peloton")
    xs = [camera.px(p)[0] for p in corners]
    ys = [camera.px(p)[1] for p in corners]
    label = f"PELOTON {riders}"
    w = text_length(label, 15)
    cx, cy = sum(xs) / 4, sum(ys) / 4
    draw.rounded_rectangle(
        (cx - w / 2 - 6, cy - 11, cx + w / 2 + 6, cy + 11), radius=6, fill=(255, 255, 255), outline=INK
    )
    write(draw, (cx - w / 2, cy - 9), label, fill=INK, size=15)


def _riders(draw: ImageDraw.ImageDraw, state: State, camera: Camera) -> None:
    track = state.setup.road.track
    radius = SCALE * 0.4
    for r in state.riders:
        if r.row is None or r.lane is None or r.status in ("peloton", "finished", "eliminated"):
            continue
        if r.status == "fallen":
            point = camera.px(track.side_point(r.row, r.lane, outside=0.7))
            rider_token(draw, point, radius, r.id, r.kind)
            x, y = point
            draw.line((x - radius, y - radius, x + radius, y + radius), fill=(213, 60, 40), width=3)
            write(draw, (x + radius + 2, y - 8), "fell", fill=(213, 60, 40), size=14)
            continue
        cell = track.cells[r.cell or ""]
        point = camera.px(cell.centre)
        rider_token(draw, point, radius, r.id, r.kind)
        x, y = point
        if r.status == "punctured":
            draw.rounded_rectangle(
                (x + radius - 6, y - radius - 8, x + radius + 12, y - radius + 10),
                radius=4,
                fill=(204, 121, 167),
                outline=INK,
            )
            write(draw, (x + radius - 1, y - radius - 7), "P", fill=(255, 255, 255), size=14)
        elif r.status == "dropped":
            write(draw, (x - 4, y + radius), "d", fill=INK, size=14)


def _highlight(draw: ImageDraw.ImageDraw, state: State, camera: Camera, options: list[RideOption]) -> None:
    track = state.setup.road.track
    seen: set[str] = set()
    for option in sorted(options, key=lambda o: (o.risk_count, o.cost)):
        if option.to in seen:
            continue
        seen.add(option.to)
        colour = HIGHLIGHT_RISK if option.risk_count else HIGHLIGHT_SAFE
        cell = track.cells[option.to]
        draw.polygon([camera.px(p) for p in cell.polygon], outline=colour, width=4)
        label = f"+{option.recovery}" if option.recovery else str(option.cost)
        if option.risk_count:
            label += "!"
        cx, cy = camera.px(cell.centre)
        w = text_length(label, 14)
        draw.rectangle((cx - w / 2 - 3, cy - 9, cx + w / 2 + 3, cy + 9), fill=colour)
        write(draw, (cx - w / 2, cy - 8), label, fill=(255, 255, 255), size=14)


def _strip(draw: ImageDraw.ImageDraw, state: State, window: tuple[int, int], box: tuple[int, int, int, int]) -> None:
    """A thin overview of the whole route: terrain, the shown part, riders and the peloton."""
    road = state.setup.road
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(222, 226, 218))
    margin = 24
    usable = x1 - x0 - 2 * margin
    rows = road.track.row_count

    def xpos(row: float) -> float:
        return x0 + margin + usable * row / max(rows - 1, 1)

    band = (y0 + 50, y0 + 70)
    for row in range(rows):
        draw.rectangle((xpos(row), band[0], xpos(row + 1), band[1]), fill=TERRAIN[road.terrain(row)])
    draw.rectangle((xpos(window[0]), band[0] - 8, xpos(window[1] + 1), band[1] + 8), outline=INK, width=2)
    draw.line((xpos(road.finish), band[0] - 14, xpos(road.finish), band[1] + 14), fill=INK, width=3)
    write(draw, (x0 + margin, y0 + 8), "Whole route: the frame is the part shown above", fill=INK, size=14)
    if state.peloton_arrived_turn is None:
        draw.rectangle(
            (xpos(state.peloton - 1), band[1] + 4, xpos(state.peloton + 1), band[1] + 14), fill=PELOTON, outline=INK
        )
    lanes: dict[int, int] = {}
    for r in state.riders:
        if r.row is None or r.status in ("peloton", "eliminated", "finished"):
            continue
        stack = lanes.get(r.row, 0)
        lanes[r.row] = stack + 1
        x = xpos(r.row)
        y = band[0] - 14 - stack * 9
        team = r.id.split("-")[0]
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=TEAM.get(team, (200, 200, 200)), outline=INK)
    write(draw, (x0 + margin, y1 - 26), "start", fill=INK, size=14)
    write(draw, (xpos(road.finish) - 20, y1 - 26), "finish", fill=INK, size=14)
