"""The road of a Leader 1 family board (classic and Hell of the North), as both painters draw it.

Which rows are on show and how they are turned, the road's edges, lines, numbers and tags, the
peloton's shaded box and its riders, the riders on the road. Each painter passes what its game
draws differently (its squares' colours, its own tags, how far it zooms) and keeps its own
header, panel and squares on offer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from PIL import Image, ImageDraw

from renderer import layout, words
from renderer.camera import View, fit_view
from renderer.palette import INK, MUTED, PELOTON, RGB, SMALL, TERRAIN, WHITE, WIDTH
from renderer.pieces import badge, badge_spot, polygon, rider_token
from renderer.text import settle, text_bbox, text_length, write
from rules.i18n import pgettext
from rules.leader1.family import AnyFamilyState, FamilyRider
from rules.road import Road
from rules.track import Point

BOARD = (0, 52, WIDTH, 452)  # the road's part of every family board: the header above, strip and panel below

S = TypeVar("S", bound=AnyFamilyState)
Window = tuple[int, int]
Places = dict[str, tuple[tuple[float, float], float]]
Spots = list[tuple[str, tuple[float, float], float]]  # (rider id, pixel centre, radius)
Tag = Callable[[ImageDraw.ImageDraw, tuple[float, float], str, RGB, RGB], None]


# -- which part of the road, and how it is turned --------------------------------------------


def acting_riders(decision: Any, riders: Sequence[FamilyRider]) -> tuple[str, ...]:
    """The riders to act on a decision: the rider asked to ride, or the deciding player's riders in the peloton."""
    if decision is None:
        return ()
    if decision.rider:
        return (decision.rider,)
    return tuple(r.id for r in riders if r.player == decision.player and r.status == "peloton")


def rows_of(state: AnyFamilyState, ids: Collection[str]) -> list[int]:
    """The rows of the riders ``ids``: a peloton rider's are the peloton's two rows."""
    rows: list[int] = []
    for r in state.riders:
        if r.id not in ids:
            continue
        if r.status == "peloton":
            rows += [state.peloton - 1, state.peloton]
        elif r.row is not None and r.racing:
            rows.append(r.row)
    return rows


def window(
    state: AnyFamilyState,
    offered: list[int],
    acting: Collection[str],
    scale: Callable[[Window], float],
    *,
    label: float,
    join: float,
    largest: float,
) -> Window:
    """The rows on show: the riders to act and the ``offered`` rows first (a row of context either side
    while an offered square stays ``label`` px), then the peloton, then the others while a square stays
    ``join`` px; widened while a square would be larger than ``largest`` px. ``scale(window)``: a square's px."""
    road = state.setup.road
    last = road.track.row_count - 1
    must = rows_of(state, acting) + offered
    pack = [state.peloton - 1, state.peloton] if state.peloton_arrived_turn is None else []
    others = [r.row for r in state.riders if r.racing and r.row is not None and r.status != "peloton"]
    if not must:
        must = pack or others or [road.finish]
    lo, hi = min(must), max(must)
    if not offered or scale((max(0, lo - 1), min(last, hi + 1))) >= label:
        lo, hi = max(0, lo - 1), min(last, hi + 1)  # a row of context either side
    for row in sorted([*pack, *others], key=lambda r: min(abs(r - lo), abs(r - hi))):
        lo2, hi2 = max(0, min(lo, row - 1)), min(last, max(hi, row + 1))
        if (lo2, hi2) != (lo, hi) and scale((lo2, hi2)) >= join:
            lo, hi = lo2, hi2
    while scale((lo, hi)) > largest and (lo > 0 or hi < last):
        hi, lo = min(last, hi + 1), max(0, lo - (1 if hi == last or (hi - lo) % 2 else 0))
    return lo, hi


def straight_if_larger(
    state: S,
    offered: bool,
    window_of: Callable[[S], Window],
    view_of: Callable[[S, Window], View],
    straighten: Callable[[S], S],
    label: float,
) -> tuple[S, Window]:
    """The state to draw (its road straightened when its bends would shrink the squares on offer below
    ``label`` px and straight they are larger: bends are only drawing) and the rows on show."""
    shown = window_of(state)
    scale = view_of(state, shown).scale
    if not offered or scale >= label:
        return state, shown
    straight = straighten(state)
    shown2 = window_of(straight)
    if view_of(straight, shown2).scale > scale:
        return straight, shown2
    return state, shown


def fit(road: Road, shown: Window, *, beside: float, largest: float, margin: float) -> View:
    """The view that turns rows ``shown`` to run left to right, as large as they fit (``largest`` px a
    square at most), with room ``beside`` the road for numbers and tags, none wasted past the end rows."""
    track = road.track
    lo, hi = max(0, shown[0]), min(track.row_count - 1, shown[1])
    (ax, ay), (bx, by) = track.centres[lo], track.centres[hi]
    angle = math.atan2(by - ay, bx - ax) if hi > lo else track.headings[lo]
    inner = (BOARD[0] + 4, BOARD[1] + 8, BOARD[2] - 4, BOARD[3] - 8)
    edges = [side(road, row, beside, right) for row in range(lo, hi + 1) for right in (True, False)]
    view = fit_view(edges, inner, angle, max_scale=largest, margin=margin)
    # the end rows' squares whole too: on a bend a square's far corners can lie beyond the margin
    corners = [p for row in {lo, hi} for cell in track.row_cells(row) for p in cell.polygon]
    if all(_within(view.px(p), inner) for p in corners):
        return view
    return fit_view(edges + corners, inner, angle, max_scale=largest, margin=margin)


def _within(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


# -- the road ----------------------------------------------------------------------------------


def side(road: Road, row: float, distance: float, right: bool = True) -> Point:
    """A point beside the road at ``row``: ``distance`` squares off its right (or left) edge."""
    track = road.track
    index = max(0, min(int(row), track.row_count - 1))
    cx, cy = track.centres[index]
    heading = track.headings[index]
    offset = -(track.lanes / 2 + distance) if right else track.lanes / 2 + distance
    return (cx - math.sin(heading) * offset, cy + math.cos(heading) * offset)


def on_board(point: tuple[float, float], slack: float = 80) -> bool:
    return BOARD[0] - slack <= point[0] <= BOARD[2] + slack and BOARD[1] - slack <= point[1] <= BOARD[3] + slack


def visible_rows(road: Road, view: View) -> list[int]:
    """The rows whose centre is on the board, or near it."""
    track = road.track
    return [r for r in range(track.row_count) if on_board(view.px(track.centres[r]), 120)]


def tag(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    fill: RGB,
    ink: RGB = INK,
    *,
    inside: bool = False,
) -> None:
    """A rounded label beside the road (``inside``: one the picture's edge would cut is moved onto it)."""
    w = text_length(text, SMALL, bold=True) + 12
    x, y = centre
    if inside and -w / 2 < x < WIDTH + w / 2:
        x = min(max(x, w / 2 + 4), WIDTH - w / 2 - 4)
    box = settle((x - w / 2, y - 15, x + w / 2, y + 15))  # inside the board's band, or not at all
    if box is None:
        return
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw.rounded_rectangle(box, radius=6, fill=fill, outline=INK)
    layout.place("tag", box, text)
    write(draw, (x, y), text, fill=ink, size=SMALL, bold=True, anchor="mm")


def edges(draw: ImageDraw.ImageDraw, road: Road, view: View, row: int, width: int) -> None:
    """A row's two road edges in its terrain's colour."""
    track = road.track
    left, right = track.cell(row, 0), track.cell(row, track.lanes - 1)
    if left is None or right is None:
        return
    colour = TERRAIN[road.terrain(row)]
    draw.line([view.px(left.polygon[0]), view.px(left.polygon[3])], fill=colour, width=width)
    draw.line([view.px(right.polygon[1]), view.px(right.polygon[2])], fill=colour, width=width)


def lines_and_numbers(draw: ImageDraw.ImageDraw, road: Road, view: View, rows: list[int], dot: RGB, label: Tag) -> None:
    """Over the squares: dotted squares, the start and finish lines, and the row numbers."""
    track = road.track
    first, last = rows[0], rows[-1]
    for cid in road.dotted:
        cell = track.cells[cid]
        if first <= cell.row <= last:
            x, y = view.px(cell.centre)
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=dot)
    for row, kind in ((0, pgettext("board tag", "START")), (road.finish, pgettext("board tag", "FINISH"))):
        if first <= row <= last:
            line_across(draw, road, view, row, kind, label)
    written: list[tuple[float, float, float, float]] = []  # the inner side of a bend crowds them: one is left out
    for row in rows:  # row numbers along the left edge of the road: squares are "row.lane"
        x, y = view.px(side(road, row + 0.5, 0.42, right=False))
        x0, y0, x1, y1 = text_bbox(str(row), SMALL, True)
        ink = (x - (x1 - x0) / 2 - 2, y - (y1 - y0) / 2 - 2, x + (x1 - x0) / 2 + 2, y + (y1 - y0) / 2 + 2)
        if not any(meets(ink, other) for other in written):
            written.append(ink)
            write(draw, (x, y), str(row), fill=MUTED, size=SMALL, bold=True, anchor="mm")


def lane_numbers(draw: ImageDraw.ImageDraw, road: Road, view: View, row: int) -> None:
    """The lane numbers on the squares of ``row`` (a free row near the left of the picture)."""
    track = road.track
    for lane in range(track.lanes):
        square = track.cell(row, lane)
        if square is not None:
            x, y = view.px(square.centre)
            draw.ellipse((x - 13, y - 13, x + 13, y + 13), fill=WHITE, outline=MUTED)
            write(draw, (x, y), str(lane), fill=INK, size=SMALL, bold=True, anchor="mm")


def line_tags(draw: ImageDraw.ImageDraw, road: Road, view: View, rows: list[int], label: Tag) -> None:
    """The tags of the mountains (their category), the feed zones and the bonus lines on show."""
    first, last = rows[0], rows[-1]
    for mountain in road.mountains:
        if first <= mountain.row <= last:
            label(
                draw,
                view.px(side(road, mountain.row, 0.9)),
                pgettext("board tag", "cat {n}", n=mountain.category),
                TERRAIN["M"],
                WHITE,
            )
    for row in road.feed:
        if first <= row <= last:
            label(draw, view.px(side(road, row, 0.9)), pgettext("board tag", "FEED"), (0, 114, 178), WHITE)
    for row in road.bonus:
        if first <= row <= last:
            label(draw, view.px(side(road, row + 1, 0.9)), pgettext("board tag", "BONUS"), (230, 159, 0), INK)


def free_row(
    state: AnyFamilyState,
    view: View,
    rows: list[int],
    busy: set[int],
    default: int,
    avoid: Sequence[tuple[float, float, float, float]] = (),
) -> int | None:
    """A row near the left of the picture with no rider (nor ``busy`` row) on it, for the lane numbers,
    whose number discs meet none of the ``avoid`` boxes (the pieces as placed: the peloton's riders
    can spread past its two rows); None when not even ``default`` is clear (no lane numbers then)."""
    track = state.setup.road.track
    taken = {r.row for r in state.riders if r.row is not None} | {state.peloton - 1, state.peloton} | busy

    def clear(row: int) -> bool:
        discs = [view.px(cell.centre) for cell in track.row_cells(row)]
        return not any(meets((x - 13, y - 13, x + 13, y + 13), box) for x, y in discs for box in avoid)

    inside = [r for r in rows if BOARD[0] + 60 <= view.px(track.centres[r])[0] <= BOARD[2] - 30]  # discs whole
    return next((r for r in inside if r not in taken and clear(r)), default if clear(default) else None)


def terrain_words(draw: ImageDraw.ImageDraw, road: Road, view: View, rows: list[int], label: Tag) -> None:
    """Terrain named in words where it changes (and at the left edge): the border colour is not alone."""
    previous = None
    for row in rows:
        kind = road.terrain(row)
        if kind != previous:
            point = view.px(side(road, row + 0.5, 0.45))
            if BOARD[0] + 30 <= point[0] <= BOARD[2] - 30:
                label(draw, point, words.terrain(kind), TERRAIN[kind], WHITE if kind in ("M", "D", "P") else INK)
        previous = kind


def line_across(draw: ImageDraw.ImageDraw, road: Road, view: View, row: int, text: str, label: Tag) -> None:
    """A chequered line across the road at ``row`` (start, finish), named beside it."""
    track = road.track
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
    label(draw, view.px(side(road, row, 1.0)), text, WHITE, INK)


# -- the peloton and the riders ----------------------------------------------------------------


def peloton_corners(state: AnyFamilyState) -> list[Point] | None:
    """The corners of the peloton's two rows: back left, back right, front right, front left."""
    track = state.setup.road.track
    back, front = state.peloton - 1, state.peloton
    a, b = track.cell(back, 0), track.cell(back, track.lanes - 1)
    c, d = track.cell(front, track.lanes - 1), track.cell(front, 0)
    if a is None or b is None or c is None or d is None:
        return None
    return [a.polygon[0], b.polygon[1], c.polygon[2], d.polygon[3]]


SHADE_ALPHA = 170  # the peloton's box over the road: two thirds of its colour


def shade(image: Image.Image, draw: ImageDraw.ImageDraw, view: View, corners: list[Point], outline: bool) -> None:
    """The peloton's box, shaded over the road (``outline``: in the shade too) and outlined."""
    points = [view.px(p) for p in corners]
    x0, y0 = max(0, math.floor(min(p[0] for p in points))), max(0, math.floor(min(p[1] for p in points)))
    x1 = min(image.width, math.ceil(max(p[0] for p in points)) + 1)
    y1 = min(image.height, math.ceil(max(p[1] for p in points)) + 1)
    if x1 > x0 and y1 > y0:
        # the box's colour at SHADE_ALPHA over the road, its outline in ink: drawn blending, which
        # gives the bytes alpha compositing an RGBA layer over a copy of the patch gave
        # (tests/leader1/test_board_shade.py), without the copies
        ink = (*INK, 255) if outline else None
        ImageDraw.Draw(image, "RGBA").polygon(points, fill=(*PELOTON, SHADE_ALPHA), outline=ink)
        polygon(draw, points, None, INK, 3)


def meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes (x0, y0, x1, y1) overlap."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def apart(spots: Spots) -> Spots:
    """``spots`` with their radius shrunk so that no two discs overlap: the peloton's box is skewed on a
    bend, its spots on the inner side closer than the grid they were laid out on."""
    points = [point for _, point, _ in spots]
    closest = min((math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :]), default=math.inf)
    return [(rider, point, min(radius, closest / 2 - 1)) for rider, point, radius in spots]


def peloton_riders(draw: ImageDraw.ImageDraw, state: AnyFamilyState, spots: Spots) -> Places:
    """The peloton's riders at their ``spots``."""
    places: Places = {}
    for rider_id, point, radius in spots:
        rider = state.rider(rider_id)
        rider_token(draw, point, radius, rider.id, rider.kind, SMALL if radius >= 20 else SMALL - 6)
        places[rider.id] = (point, radius)
    return places


def piece_boxes(
    state: AnyFamilyState, view: View, radius: float, centre: Callable[[FamilyRider], Point | None], spots: Spots
) -> list[tuple[float, float, float, float]]:
    """The boxes the riders will cover (``road_riders`` and ``peloton_riders`` with these arguments), with
    their badges: the road's tags are placed clear of them."""
    track = state.setup.road.track
    points: list[tuple[tuple[float, float], float]] = [(point, r) for _, point, r in spots]
    for r in state.riders:
        if r.row is None or r.lane is None or r.status in ("peloton", "finished", "eliminated"):
            continue
        where = track.side_point(r.row, r.lane, outside=0.75) if r.status == "fallen" else centre(r)
        if where is not None:
            points.append((view.px(where), radius))
    reach = [(p, r * 1.12, r * 0.9 + SMALL * 0.62) for p, r in points]  # a diamond's corner, a badge's edge
    boxes = [(x - max(a, b), y - max(a, b), x + max(a, b), y + max(a, b)) for (x, y), a, b in reach]
    corners = peloton_corners(state)
    if corners is not None and spots:  # the peloton's shaded box, drawn over the road
        shaded = [view.px(p) for p in corners]
        xs, ys = [p[0] for p in shaded], [p[1] for p in shaded]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def road_riders(
    draw: ImageDraw.ImageDraw,
    state: AnyFamilyState,
    view: View,
    radius: float,
    centre: Callable[[FamilyRider], Point | None],
) -> Places:
    """The riders on the road (a fallen one beside its square), with a badge for their state."""
    track = state.setup.road.track
    places: Places = {}
    for r in state.riders:
        if r.row is None or r.lane is None or r.status in ("peloton", "finished", "eliminated"):
            continue
        if r.status == "fallen":
            point = view.px(track.side_point(r.row, r.lane, outside=0.75))
        else:
            where = centre(r)
            if where is None:
                continue
            point = view.px(where)
        rider_token(draw, point, radius, r.id, r.kind, SMALL)
        if words.badge(r.status):
            badge(draw, badge_spot(point, radius), words.badge(r.status))
        places[r.id] = (point, radius)
    return places
