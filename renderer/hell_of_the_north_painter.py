"""Hell of the North's board, designed like the other boards to be read 400 px wide on a phone
(docs/board.md): 960 x 800, the road near the action turned to run left to right and zoomed,
every rider drawn where it is (the peloton's riders inside it, front part ahead of the back
part, in peloton order), the rider(s) to act marked, the squares they may reach named as the
menu names them ("34.0": row 34, lane 0) with their cost, an overview of the whole route, and
a panel: the support-rider markers in order, the peloton's parts, and each team's diary.

The road shows what only this game marks: cobbled squares (brown with a dot pattern), dark
squares, sprint zones, the feed and bonus lines, and the weather markers (? face down).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from PIL import Image, ImageDraw

from renderer.camera import View, fit_view
from renderer.encode import png_bytes
from renderer.hell_of_the_north_panel import header, panel, strip
from renderer.palette import (
    ASPHALT,
    BACKGROUND,
    COBBLE_DOT,
    COBBLES,
    FALL,
    HEIGHT,
    INK,
    LANE_LINE,
    MUTED,
    PELOTON,
    READABLE,
    RGB,
    SMALL,
    SPRINT,
    TEAM,
    TERRAIN,
    TERRAIN_NAME,
    WEATHER,
    WHITE,
    WIDTH,
    team_of,
)
from renderer.pieces import acting_marker, badge, highlight_square, polygon, rider_token, trails
from renderer.straight import straightened
from renderer.text import text_length, write
from renderer.trails import road_trails
from rules.game import Choice
from rules.hell_of_the_north.engine import legal_actions, pending
from rules.hell_of_the_north.model import State
from rules.hell_of_the_north.order import peloton_order
from rules.track import Point

BOARD = (0, 52, WIDTH, 452)  # the header above, the route strip and the panel below (hell_of_the_north_panel)
MAX_SCALE = 100.0  # px per square
# Other riders join the view while a square stays this large: a square on offer holds its name and
# its cost at READABLE (11 px at 400 px wide), and a 3-lane road fills the height (docs/board.md).
MIN_SCALE = 76.0
LABEL_SCALE = 72.0  # below this a stretch with squares on offer is drawn straight (renderer/straight.py)
STATE_BADGE = {"dropped": "D", "punctured": "P", "fallen": "X"}
WEATHER_SHORT = {
    "rain": "RAIN",
    "heat": "HEAT",
    "headwind-1": "HEAD 1",
    "headwind-2": "HEAD 2",
    "tailwind-1": "TAIL 1",
    "tailwind-2": "TAIL 2",
}


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    """The board as PNG bytes (see the module's docstring); no ``acting``: the state says who acts."""
    marked = list(acting) or None
    return png_bytes(compose(state, highlight=highlight, acting=marked, title=title, legend=legend)[0])


def default_acting(state: State) -> tuple[str, ...]:
    """The rider asked to ride, or the deciding team's riders in the peloton."""
    decision = pending(state)
    if decision is None:
        return ()
    if decision.rider:
        return (decision.rider,)
    return tuple(r.id for r in state.riders if r.player == decision.player and r.status == "peloton")


def compose(
    state: State,
    *,
    highlight: Sequence[Choice] = (),
    acting: Sequence[str] | None = None,
    title: str = "",
    legend: Sequence[str] = (),
) -> tuple[Image.Image, View]:
    """The board and the view that placed the road on it (tests read pixels through it).

    ``acting`` None: from the state (``default_acting``); ``()`` marks nobody.
    """
    acting_ids = tuple(acting) if acting else (default_acting(state) if acting is None else ())
    targets = [c for c in highlight if c.target and state.setup.road.track.has(c.target)]
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    state, window = laid_out(state, targets, acting_ids)
    view = _view(state, window)
    _road(draw, state, view, {int(str(c.target).split(".")[0]) for c in targets})
    _peloton_box(image, draw, state, view)
    paths = road_trails(state.events, state.setup.road.track).items()
    colour = {piece: PELOTON if piece == "peloton" else TEAM.get(team_of(piece), MUTED) for piece, _ in paths}
    trails(draw, [([view.px(p) for p in path], colour[piece]) for piece, path in paths])
    _highlight(draw, state, view, targets)
    # in the crowded peloton the marker goes under the riders (it shows around them and in the gaps,
    # no rider hidden by a neighbour's arrow); on the open road it goes over
    for rider_id, point, radius in peloton_spots(state, view):
        if rider_id in acting_ids:
            acting_marker(draw, point, radius)
    places = _riders(draw, state, view)
    _peloton_riders(draw, state, view)
    for rider_id in acting_ids:
        if rider_id in places:
            point, radius = places[rider_id]
            acting_marker(draw, point, radius)
    header(draw, state, title, acting_ids)
    strip(draw, state, window)
    panel(draw, state, acting_ids, legend)
    return image, view


# -- the part of the road on show ----------------------------------------------------------------


def _rows_of(state: State, ids: Sequence[str]) -> list[int]:
    rows: list[int] = []
    for r in state.riders:
        if r.id in ids and r.status == "peloton":
            rows += [state.peloton - 1, state.peloton]
        elif r.id in ids and r.row is not None and r.racing:
            rows.append(r.row)
    return rows


def laid_out(state: State, targets: Sequence[Choice], acting: Sequence[str]) -> tuple[State, tuple[int, int]]:
    """The state to draw (its road straightened when its bends would shrink the squares on offer
    below ``LABEL_SCALE`` and straight they are larger: bends are only drawing) and the rows on show."""
    window = _window(state, targets, acting)
    scale = _view(state, window).scale
    if not targets or scale >= LABEL_SCALE:
        return state, window
    course = state.setup.course
    road = replace(course.road, track=straightened(course.road.track))
    straight = replace(state, setup=replace(state.setup, course=replace(course, road=road)))
    window2 = _window(straight, targets, acting)
    if _view(straight, window2).scale > scale:
        return straight, window2
    return state, window


def _window(state: State, targets: Sequence[Choice], acting: Sequence[str]) -> tuple[int, int]:
    """The rows on show: the rider to act and its squares first, then the peloton, then the others."""
    road = state.setup.road
    last = road.track.row_count - 1
    must = _rows_of(state, acting) + [int(str(c.target).split(".")[0]) for c in targets]
    pack = [state.peloton - 1, state.peloton] if state.peloton_arrived_turn is None else []
    others = [r.row for r in state.riders if r.racing and r.row is not None and r.status != "peloton"]
    if not must:
        must = pack or others or [road.finish]
    lo, hi = min(must), max(must)
    if not targets or _view(state, (max(0, lo - 1), min(last, hi + 1))).scale >= LABEL_SCALE:
        lo, hi = max(0, lo - 1), min(last, hi + 1)  # a row of context either side
    for row in sorted([*pack, *others], key=lambda r: min(abs(r - lo), abs(r - hi))):
        lo2, hi2 = max(0, min(lo, row - 1)), min(last, max(hi, row + 1))
        if (lo2, hi2) != (lo, hi) and _view(state, (lo2, hi2)).scale >= MIN_SCALE:
            lo, hi = lo2, hi2
    while _view(state, (lo, hi)).scale > MAX_SCALE and (lo > 0 or hi < last):
        hi, lo = min(last, hi + 1), max(0, lo - (1 if hi == last or (hi - lo) % 2 else 0))
    return lo, hi


def _view(state: State, window: tuple[int, int]) -> View:
    road = state.setup.road
    track = road.track
    lo, hi = max(0, window[0]), min(track.row_count - 1, window[1])
    (ax, ay), (bx, by) = track.centres[lo], track.centres[hi]
    angle = math.atan2(by - ay, bx - ax) if hi > lo else track.headings[lo]
    inner = (BOARD[0] + 4, BOARD[1] + 8, BOARD[2] - 4, BOARD[3] - 8)
    # room for the tags beside the road, but none wasted beyond the first and last rows' squares
    edges = [_side(state, row, 0.55, right) for row in range(lo, hi + 1) for right in (True, False)]
    return fit_view(edges, inner, angle, max_scale=MAX_SCALE, margin=0.55)


# -- the road ------------------------------------------------------------------------------------


def _side(state: State, row: float, distance: float, right: bool = True) -> Point:
    """A point beside the road at ``row``: ``distance`` squares off its right (or left) edge."""
    track = state.setup.road.track
    index = max(0, min(int(row), track.row_count - 1))
    cx, cy = track.centres[index]
    heading = track.headings[index]
    offset = -(track.lanes / 2 + distance) if right else track.lanes / 2 + distance
    return (cx - math.sin(heading) * offset, cy + math.cos(heading) * offset)


def _on_board(point: tuple[float, float], slack: float = 80) -> bool:
    return BOARD[0] - slack <= point[0] <= BOARD[2] + slack and BOARD[1] - slack <= point[1] <= BOARD[3] + slack


def _tag(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: RGB, ink: RGB = INK) -> None:
    w = text_length(text, SMALL) + 12
    x, y = centre
    if -w / 2 < x < WIDTH + w / 2:  # a tag cut by the edge is moved onto the picture
        x = min(max(x, w / 2 + 4), WIDTH - w / 2 - 4)
    centre = (x, y)
    draw.rounded_rectangle((x - w / 2, y - 15, x + w / 2, y + 15), radius=6, fill=fill, outline=INK)
    write(draw, centre, text, fill=ink, size=SMALL, bold=True, anchor="mm")


def _road(draw: ImageDraw.ImageDraw, state: State, view: View, offered: set[int]) -> None:
    course = state.setup.course
    road = course.road
    track = road.track
    rows = [r for r in range(track.row_count) if _on_board(view.px(track.centres[r]), 120)]
    if not rows:
        return
    first, last = rows[0], rows[-1]
    border = max(3, round(view.scale * 0.14))
    dot = max(2.0, view.scale * 0.06)
    for row in rows:
        cobbled = course.cobbled(row)
        for cell in track.row_cells(row):
            fill = (
                FALL if course.dark(cell.id) else COBBLES if cobbled else SPRINT if course.in_sprint(row) else ASPHALT
            )
            draw.polygon([view.px(p) for p in cell.polygon], fill=fill, outline=LANE_LINE)
            if cobbled:  # a pattern as well as a colour
                cx, cy = view.px(cell.centre)
                for dx, dy in ((-0.27, -0.22), (0.22, -0.27), (-0.22, 0.24), (0.27, 0.2)):
                    x, y = cx + dx * view.scale, cy + dy * view.scale
                    draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=COBBLE_DOT)
        left, right = track.cell(row, 0), track.cell(row, track.lanes - 1)
        if left is not None and right is not None:
            colour = TERRAIN[road.terrain(row)]
            draw.line([view.px(left.polygon[0]), view.px(left.polygon[3])], fill=colour, width=border)
            draw.line([view.px(right.polygon[1]), view.px(right.polygon[2])], fill=colour, width=border)
    for cid in road.dotted:
        cell = track.cells[cid]
        if first <= cell.row <= last:
            x, y = view.px(cell.centre)
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=MUTED)
    for row, kind in ((0, "START"), (road.finish, "FINISH")):
        if first <= row <= last:
            _line_across(draw, state, view, row, kind)
    for row in rows:  # row numbers along the left edge of the road: squares are "row.lane"
        x, y = view.px(_side(state, row + 0.5, 0.42, right=False))
        write(draw, (x, y), str(row), fill=MUTED, size=SMALL, bold=True, anchor="mm")
    busy = {r.row for r in state.riders if r.row is not None} | {state.peloton - 1, state.peloton} | offered
    back = next((r for r in rows if view.px(track.centres[r])[0] >= BOARD[0] + 60 and r not in busy), first)
    for lane in range(track.lanes):  # lane numbers across one free row near the left of the picture
        square = track.cell(back, lane)
        if square is not None:
            x, y = view.px(square.centre)
            draw.ellipse((x - 13, y - 13, x + 13, y + 13), fill=WHITE, outline=MUTED)
            write(draw, (x, y), str(lane), fill=INK, size=SMALL, bold=True, anchor="mm")
    _terrain_words(draw, state, view, rows)
    for mountain in road.mountains:
        if first <= mountain.row <= last:
            _tag(draw, view.px(_side(state, mountain.row, 0.9)), f"cat {mountain.category}", TERRAIN["M"], WHITE)
    for row in road.feed:
        if first <= row <= last:
            _tag(draw, view.px(_side(state, row, 0.9)), "FEED", (0, 114, 178), WHITE)
    for row in road.bonus:
        if first <= row <= last:
            _tag(draw, view.px(_side(state, row + 1, 0.9)), "BONUS", (230, 159, 0))
    for zone, _ in course.sprint_zones:
        if first <= zone <= last:
            _tag(draw, view.px(_side(state, zone, 0.9, right=False)), "SPRINT", SPRINT)
    for hexagon, marker in state.weather:
        middle = hexagon + course.hex_rows // 2
        if first <= middle <= last:
            text = "? weather" if marker is None else WEATHER_SHORT.get(marker, marker)
            _tag(draw, view.px(_side(state, middle, 0.9, right=False)), text, WEATHER, WHITE)


def _terrain_words(draw: ImageDraw.ImageDraw, state: State, view: View, rows: list[int]) -> None:
    """Terrain named where it changes: the border colour is not alone."""
    road = state.setup.road
    previous = None
    for row in rows:
        kind = road.terrain(row)
        if kind != previous:
            point = view.px(_side(state, row + 0.5, 0.45))
            if BOARD[0] + 30 <= point[0] <= BOARD[2] - 30:
                _tag(draw, point, TERRAIN_NAME[kind], TERRAIN[kind], WHITE if kind in ("M", "D", "P") else INK)
        previous = kind


def _line_across(draw: ImageDraw.ImageDraw, state: State, view: View, row: int, label: str) -> None:
    track = state.setup.road.track
    row = min(row, track.row_count - 1)
    left, right = track.cell(row, 0), track.cell(row, track.lanes - 1)
    if left is None or right is None:
        return
    (x0, y0), (x1, y1) = view.px(left.polygon[0]), view.px(right.polygon[1])
    squares = track.lanes * 4
    for i in range(squares):
        a, b = i / squares, (i + 1) / squares
        draw.line(
            (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
            fill=INK if i % 2 == 0 else WHITE,
            width=max(5, round(view.scale * 0.16)),
        )
    _tag(draw, view.px(_side(state, row, 1.0)), label, WHITE)


# -- the riders ----------------------------------------------------------------------------------

Places = dict[str, tuple[tuple[float, float], float]]


def _peloton_corners(state: State) -> list[Point] | None:
    track = state.setup.road.track
    back, front = state.peloton - 1, state.peloton
    a, b = track.cell(back, 0), track.cell(back, track.lanes - 1)
    c, d = track.cell(front, track.lanes - 1), track.cell(front, 0)
    if a is None or b is None or c is None or d is None or state.peloton_arrived_turn is not None:
        return None
    return [a.polygon[0], b.polygon[1], c.polygon[2], d.polygon[3]]


def _peloton_box(image: Image.Image, draw: ImageDraw.ImageDraw, state: State, view: View) -> None:
    """The peloton's two rows, shaded and outlined (its riders are drawn inside it later)."""
    corners = _peloton_corners(state)
    if corners is None:
        return
    points = [view.px(p) for p in corners]
    x0, y0 = max(0, math.floor(min(p[0] for p in points))), max(0, math.floor(min(p[1] for p in points)))
    x1 = min(image.width, math.ceil(max(p[0] for p in points)) + 1)
    y1 = min(image.height, math.ceil(max(p[1] for p in points)) + 1)
    if x1 > x0 and y1 > y0:
        box = (x0, y0, x1, y1)
        patch = image.crop(box).convert("RGBA")
        shade = Image.new("RGBA", patch.size, (0, 0, 0, 0))
        ImageDraw.Draw(shade).polygon([(x - x0, y - y0) for x, y in points], fill=(*PELOTON, 170))
        image.paste(Image.alpha_composite(patch, shade).convert("RGB"), box)
        polygon(draw, points, None, INK, 3)


def peloton_spots(state: State, view: View) -> list[tuple[str, tuple[float, float], float]]:
    """Where each peloton rider is drawn (rider id, pixel centre, radius), in peloton order: the
    front part in the front of the box, the back part behind it, each left to right across the road.
    Spots over a rider standing on the peloton's squares (a breakaway, a puncture) are left free."""
    corners = _peloton_corners(state)
    riders = peloton_order(state)
    if corners is None or not riders:
        return []
    track = state.setup.road.track
    rows = (state.peloton - 1, state.peloton)
    cells = [r.cell for r in state.riders if r.status != "peloton" and r.row in rows and r.on_road]
    blockers = [view.px(track.cells[c].centre) for c in cells if c is not None and c in track.cells]
    back_left, back_right, front_right, front_left = (view.px(p) for p in corners)
    front = [r.id for r in riders if r.part != "back"]
    back = [r.id for r in riders if r.part == "back"]
    length = math.dist(back_left, front_left)
    width = math.dist(back_left, back_right)
    split = len(front) / len(riders)  # the front part's share of the box, from the front
    limit = view.scale * 0.42

    def at(u: float, v: float) -> tuple[float, float]:
        """u: 1 at the front edge, 0 at the back; v: 0 on the left edge, 1 on the right."""
        left = (back_left[0] + (front_left[0] - back_left[0]) * u, back_left[1] + (front_left[1] - back_left[1]) * u)
        right = (
            back_right[0] + (front_right[0] - back_right[0]) * u,
            back_right[1] + (front_right[1] - back_right[1]) * u,
        )
        return (left[0] + (right[0] - left[0]) * v, left[1] + (right[1] - left[1]) * v)

    def layout(count: int, high: float, low: float) -> list[tuple[tuple[float, float], float]]:
        """The largest spots for ``count`` riders between ``high`` and ``low`` (u), clear of blockers."""
        best: list[tuple[tuple[float, float], float]] = []
        best_r = -1.0
        span = length * (high - low)
        for along in range(1, count + 4):
            for across in range(1, count + 4):
                if along * across < count:
                    continue
                r = min(limit, span / along / 2 - 2, width / across / 2 - 2)
                if r <= best_r:
                    continue
                free = [
                    at(high - (i // across + 0.5) / along * (high - low), (i % across + 0.5) / across)
                    for i in range(along * across)
                ]
                free = [p for p in free if all(math.dist(p, b) > r * 1.5 for b in blockers)]
                if len(free) >= count:
                    best, best_r = [(p, r) for p in free[:count]], r
        return best

    spots: list[tuple[str, tuple[float, float], float]] = []
    for group, high, low in ((front, 1.0, 1.0 - split), (back, 1.0 - split, 0.0)):
        if not group:
            continue
        places = layout(len(group), high, low)
        if len(places) < len(group):  # too crowded to keep clear: over the blockers
            saved, blockers = blockers, []
            places = layout(len(group), high, low)
            blockers = saved
        spots += [(rider, point, r) for rider, (point, r) in zip(group, places, strict=True)]
    radius = min(r for _, _, r in spots)
    return [(rider, point, radius) for rider, point, _ in spots]


def _peloton_riders(draw: ImageDraw.ImageDraw, state: State, view: View) -> Places:
    places: Places = {}
    for rider_id, point, radius in peloton_spots(state, view):
        rider = state.rider(rider_id)
        rider_token(draw, point, radius, rider.id, rider.kind, SMALL if radius >= 20 else SMALL - 6)
        places[rider.id] = (point, radius)
    return places


def _riders(draw: ImageDraw.ImageDraw, state: State, view: View) -> Places:
    track = state.setup.road.track
    radius = view.scale * 0.42
    places: Places = {}
    for r in state.riders:
        if r.row is None or r.lane is None or r.status in ("peloton", "finished", "eliminated"):
            continue
        if r.status == "fallen":
            point = view.px(track.side_point(r.row, r.lane, outside=0.75))
        else:
            cell = track.cell(min(r.row, track.row_count - 1), r.lane)
            if cell is None:
                continue
            point = view.px(cell.centre)
        rider_token(draw, point, radius, r.id, r.kind, SMALL)
        if r.status in STATE_BADGE:
            badge(draw, (point[0] + radius * 0.9, point[1] - radius * 0.9), STATE_BADGE[r.status])
        places[r.id] = (point, radius)
    return places


def _highlight(draw: ImageDraw.ImageDraw, state: State, view: View, targets: Sequence[Choice]) -> None:
    """Each square on offer: its name as the menu gives it, and the energy it costs ("!" if risky)."""
    track = state.setup.road.track
    options = {}
    decision = pending(state)
    if decision is not None:
        options = {c.action: c.option for c in legal_actions(state, decision.player) if c.option is not None}
    seen: set[str] = set()
    for choice in sorted(targets, key=lambda c: c.risky):
        target = str(choice.target)
        if target in seen:
            continue
        seen.add(target)
        option = options.get(choice.action)
        cost = "" if option is None else f"+{option.recovery}" if option.recovery else str(option.cost)
        cost += "!" if choice.risky else ""
        cell = track.cells[target]
        square = [view.px(p) for p in cell.polygon]
        highlight_square(
            draw,
            square,
            view.px(cell.centre),
            cost or "·",
            choice.risky,
            choice.short or target,
            cost_size=READABLE,
            floor=READABLE,
        )
