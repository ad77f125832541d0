"""The board image of a Leader 1 race, designed to be read 400 px wide on a phone (docs/board.md).

``render_board`` reads a state and returns PNG bytes; it never changes the state. The part
of the road with the action is chosen, turned to run left to right and drawn as large as
it fits; every rider is drawn where it is (the peloton's riders inside the peloton, in
peloton order), with last turn's trails, the piece to act marked, the squares it may reach
named and priced; an overview of the whole route and a panel (riders, last turn, legend)
sit below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace

from PIL import Image, ImageDraw

from renderer import layout, words
from renderer.cache import LruCache
from renderer.camera import View
from renderer.encode import indexed as mapped
from renderer.encode import onto_palette, png_bytes
from renderer.fit import abbreviated, clipped, latest_whole, wrapped
from renderer.heading import header_texts
from renderer.leader1 import family_road as family
from renderer.palette import (
    ASPHALT,
    BACKGROUND,
    DOT,
    FALL,
    HEIGHT,
    INK,
    LANE_LINE,
    MUTED,
    PANEL,
    PELOTON,
    READABLE,
    SMALL,
    SPRINT,
    TEAM,
    TERRAIN,
    TEXT,
    TILE,
    TILE_EDGE,
    WHITE,
    WIDTH,
    rider_label,
    team_of,
)
from renderer.pieces import acting_marker, badge, highlight_square, rider_shape, trails
from renderer.straight import straightened
from renderer.text import confined, text_length, write
from renderer.trails import MOVES, road_trails
from rules.i18n import _, current, pgettext
from rules.leader1.engine import pending
from rules.leader1.game_kit import piece_name
from rules.leader1.model import Rider, State
from rules.leader1.moves import RideOption
from rules.leader1.narrate import summary
from rules.leader1.order import arrival_order, classification, peloton_order
from rules.memo import Recent
from rules.road import Road
from rules.shown import seat_name
from rules.track import Point

Box = tuple[float, float, float, float]
HEADER = (0, 0, WIDTH, 52)  # the road below it in family_road.BOARD (0, 52, WIDTH, 452)
STRIP = (0, 452, WIDTH, 500)
PANEL_BOX = (0, 500, WIDTH, HEIGHT)
_LEGEND_ROWS: LruCache[list[list[tuple[str, str, float]]]] = LruCache(64)  # by language and place
_LEGEND_PATCHES: LruCache[Image.Image] = LruCache(64)  # the legend drawn, by language and box
MAX_SCALE = 78.0  # px per square: a token's letters are ~11 px tall at 400 px wide
MIN_SCALE = 54.0  # other riders join the view while a square stays this large (px)
# With squares on offer, other riders join only while a square stays this large: it then holds
# its name and its cost at READABLE (11 px at 400 px wide). A stretch that bends too much for it
# is drawn straight (renderer/straight.py; docs/board.md).
LABEL_SCALE = 72.0


def render_board(
    state: State,
    *,
    highlight: list[RideOption] | None = None,
    title: str | None = None,
    alliances: list[str] | None = None,
    acting: Collection[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> bytes:
    """The board as PNG bytes.

    ``highlight`` marks the squares a rider may reach with their cost and risk; ``labels``
    names squares (cell id -> short name such as "A" or "12.2", as the menus call them);
    ``acting`` lists the rider ids to mark as the ones to act now (default: from the state).
    """
    indexed = layout.draws_on_palette()
    image = compose(
        state, highlight=highlight, title=title, alliances=alliances, acting=acting, labels=labels, indexed=indexed
    )[0]
    return png_bytes(image)


def render_image(
    state: State,
    *,
    highlight: list[RideOption] | None = None,
    title: str | None = None,
    alliances: list[str] | None = None,
    acting: Collection[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> Image.Image:
    return compose(state, highlight=highlight, title=title, alliances=alliances, acting=acting, labels=labels)[0]


def default_acting(state: State) -> tuple[str, ...]:
    """The riders to act now: the rider asked to ride, or the deciding player's riders in the peloton."""
    return family.acting_riders(pending(state), state.riders)


def compose(
    state: State,
    *,
    highlight: list[RideOption] | None = None,
    title: str | None = None,
    alliances: list[str] | None = None,
    acting: Collection[str] | None = None,
    labels: Mapping[str, str] | None = None,
    indexed: bool = False,
) -> tuple[Image.Image, View]:
    """The board image and the view that placed the road on it (tests read pixels through it).

    ``indexed``: the picture comes in the PNG palette's indices (``renderer.encode``), only the
    road's band and the strip drawn in RGB and mapped; the header and panel drawn on the palette
    canvas. The same pixels as mapping the whole RGB picture (``tests/leader1/test_board.py``)."""
    acting_ids = tuple(acting) if acting is not None else default_acting(state)
    state, window = laid_out(state, highlight, acting_ids)
    road = state.setup.road
    track = road.track
    view = _view(road, window)
    # indexed, only what is drawn with blends is drawn in RGB: down to the strip's foot
    image = Image.new("RGB", (WIDTH, STRIP[3] if indexed else HEIGHT), BACKGROUND)
    spots = peloton_spots(state, view, {o.to for o in highlight or []})
    radius = view.scale * 0.42
    pieces = family.piece_boxes(state, view, radius, lambda r: track.cells[r.cell or ""].centre, spots)
    rows = family.visible_rows(road, view)
    offered_rows = {int(o.to.split(".")[0]) for o in highlight or []}  # no lane number over a name
    numbered = family.free_row(state, view, rows, offered_rows, window[0], pieces) if rows else None
    if numbered is not None:  # the lane numbers go over the road's layer: its tags keep off them too
        pieces += [_disc_box(view.px(cell.centre), 13) for cell in track.row_cells(numbered)]
    image.paste(_road_layer(road, view, window, pieces), family.BOARD[:2])  # the road as drawn for this view, kept
    draw = ImageDraw.Draw(image)
    with confined(family.BOARD):  # nothing on the board is cut by its edge
        if numbered is not None:  # on the road's squares, clear of the road layer's tags
            family.lane_numbers(draw, road, view, numbered)
        corners = family.peloton_corners(state)
        if corners is not None and state.peloton_arrived_turn is None:
            family.shade(image, draw, view, corners, outline=True)
        paths = road_trails(state.events, track).items()
        colour = {piece: PELOTON if piece == "peloton" else TEAM.get(team_of(piece), MUTED) for piece, _ in paths}
        trails(draw, [([view.px(p) for p in path], colour[piece]) for piece, path in paths])
        if highlight:
            floor = READABLE if view.scale >= LABEL_SCALE else SMALL - 6
            _highlight(draw, state.setup.road, view, highlight, labels or {}, floor)
        # in the crowded peloton the marker goes under the riders (a neighbour's arrow covered a rider's
        # letters); on the open road it goes over, as on Hell of the North's board
        for rider_id, point, size in spots:
            if rider_id in acting_ids:
                acting_marker(draw, point, size)
        family.peloton_riders(draw, state, spots)
        places = family.road_riders(draw, state, view, radius, lambda r: track.cells[r.cell or ""].centre)
        for rider_id in acting_ids:
            if rider_id in places:
                point, r = places[rider_id]
                acting_marker(draw, point, r)
    _strip(image, draw, state, window)  # its words lie over its frame: drawn with blends too
    if indexed:  # the road's band and the strip mapped alone; the header and panel cover all the rest
        image, draw = onto_palette(image, (WIDTH, HEIGHT), BACKGROUND)  # the header's rows too: drawn over
    _header(draw, state, title or state.setup.road.name, acting_ids)
    _panel(image, draw, state, alliances)
    return image, view


# -- which part of the road, and how it is turned --------------------------------------------


def laid_out(
    state: State, highlight: list[RideOption] | None, acting: Collection[str]
) -> tuple[State, tuple[int, int]]:
    """The state to draw (its road straightened when the bends would shrink the squares on offer
    below ``LABEL_SCALE`` and straight they are larger) and the rows on show."""
    return family.straight_if_larger(
        state,
        bool(highlight),
        lambda s: _window(s, highlight, acting),
        lambda s, rows: _view(s.setup.road, rows),
        _straightened,
        LABEL_SCALE,
    )


def _straightened(state: State) -> State:
    road = state.setup.road
    return replace(state, setup=replace(state.setup, road=replace(road, track=straightened(road.track))))


def _window(state: State, highlight: list[RideOption] | None, acting: Collection[str]) -> tuple[int, int]:
    """The rows on show: the piece to act and its squares first, then the peloton, then the others
    (while a square stays ``LABEL_SCALE`` px with squares on offer, ``MIN_SCALE`` without)."""
    return family.window(
        state,
        [int(o.to.split(".")[0]) for o in highlight or []],
        acting,
        lambda rows: _view(state.setup.road, rows).scale,
        label=LABEL_SCALE,
        join=LABEL_SCALE if highlight else MIN_SCALE,
        largest=MAX_SCALE,
    )


def _view(road: Road, window: tuple[int, int]) -> View:
    # room for the row numbers and tags beside the road, none wasted beyond the end rows' squares;
    # kept per road and rows on show (a board tries a few windows, and the next board the same ones)
    key = (road.name, id(road.track), window)
    view = _VIEWS.get(key, road.track)
    if view is None:
        view = family.fit(road, window, beside=0.6, largest=MAX_SCALE * 1.0001, margin=0.5)
        _VIEWS.put(key, road.track, view)
    return view


# -- the road ----------------------------------------------------------------------------------


# The road under the pieces depends only on the road and the view, and a view only on the road
# and the rows on show: races on one stage, and one race turn after turn, show the same few
# windows again. Kept per road object (roads are shared by name: ``rules.stages.road_for``).
# Only the road's band is kept: what the road draws beyond it, the header, strip and panel
# cover with their own backgrounds.
_VIEWS: Recent[View] = Recent(256)  # a view is a camera: a few numbers
_STRIP_GROUNDS: Recent[Image.Image] = Recent(12)  # the route strip's ground and terrain, per road (60 kB each)
_ROAD_LAYERS: Recent[tuple[Image.Image, list[Box]]] = Recent(12)  # 12 pictures of 1.2 MB in each process that draws


def _road_layer(road: Road, view: View, window: tuple[int, int], pieces: list[Box]) -> Image.Image:
    """The board's band (``family_road.BOARD``) with the road on it (squares, borders, rows, tags):
    paste it, never draw on it. Drawn afresh, its tags moved off them, where a tag of the kept
    layer lies under one of the ``pieces`` (the riders' boxes)."""
    if layout.is_recording():  # drawn afresh, once: the same picture (no tag meets a piece where the kept one is used)
        return _draw_layer(road, view, pieces)[0]
    key = (road.name, id(road.track), view, window, current())  # its tags are words: kept per language
    kept = _ROAD_LAYERS.get(key, road.track)
    if kept is None:
        kept = _draw_layer(road, view, [])
        _ROAD_LAYERS.put(key, road.track, kept)
    assert isinstance(kept, tuple)
    layer, tags = kept
    if any(family.meets(tag, piece) for tag in tags for piece in pieces):
        layer, _ = _draw_layer(road, view, pieces)
    assert isinstance(layer, Image.Image)
    return layer


def _draw_layer(road: Road, view: View, pieces: list[Box]) -> tuple[Image.Image, list[Box]]:
    whole = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    with confined(family.BOARD, keep_off=pieces) as settled:
        _road(ImageDraw.Draw(whole), road, view)
    return whole.crop(family.BOARD), settled[len(pieces) :]


def _road(draw: ImageDraw.ImageDraw, road: Road, view: View) -> None:
    """The road without its lane numbers (they go on a row no rider is on: ``compose``)."""
    track = road.track
    rows = family.visible_rows(road, view)
    if not rows:
        return
    first, last = rows[0], rows[-1]
    for tile in road.tiles:
        middle = tile.first_row + tile.rows // 2
        if middle >= track.row_count or not first - tile.rows <= middle <= last + tile.rows:
            continue
        (ax, ay), (bx, by) = track.centres[max(0, middle - 1)], track.centres[middle]
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        heading = (track.headings[max(0, middle - 1)] + track.headings[middle]) / 2
        radius = tile.rows / 2 / math.cos(math.radians(30))
        corners = [
            (
                cx + radius * math.cos(heading + math.radians(30 + 60 * k)),
                cy + radius * math.sin(heading + math.radians(30 + 60 * k)),
            )
            for k in range(6)
        ]
        draw.polygon([view.px(p) for p in corners], fill=TILE, outline=TILE_EDGE)
    border = max(3, round(view.scale * 0.14))
    for row in rows:
        for cell in track.row_cells(row):
            fill = FALL if road.is_fall(cell.id) else SPRINT if road.in_sprint(row) else ASPHALT
            draw.polygon([view.px(p) for p in cell.polygon], fill=fill, outline=LANE_LINE)
        family.edges(draw, road, view, row, border)
    family.lines_and_numbers(draw, road, view, rows, DOT, family.tag)
    family.terrain_words(draw, road, view, rows, family.tag)
    family.line_tags(draw, road, view, rows, family.tag)
    if road.sprint is not None and first <= road.sprint <= last:
        family.tag(draw, view.px(family.side(road, road.sprint + 2, 0.9)), "SPRINT", SPRINT)


# -- pieces ------------------------------------------------------------------------------------


def peloton_spots(
    state: State, view: View, offered: Collection[str] = ()
) -> list[tuple[str, tuple[float, float], float]]:
    """Where each peloton rider is drawn (rider id, pixel centre, radius), in peloton order:
    front row first, left to right across the road, then the rows behind. Spots over a rider
    standing on the peloton's squares (a puncture, a dropped rider) are left free, and so are the
    names of squares ``offered`` there while the riders fit around them at a legible size."""
    corners = family.peloton_corners(state)
    riders = peloton_order(state)
    if corners is None or not riders or state.peloton_arrived_turn is not None:
        return []
    track = state.setup.road.track
    rows = (state.peloton - 1, state.peloton)
    blockers = [
        view.px(track.cells[r.cell].centre)
        for r in state.riders
        if r.cell and r.row in rows and r.on_road and r.cell in track.cells
    ]
    back_left, back_right, front_right, front_left = (view.px(p) for p in corners)
    names = [view.px(track.cells[c].centre) for c in offered if c in track.cells and track.cells[c].row in rows]
    if names:
        around = _around_names(riders, (back_left, back_right, front_right, front_left), blockers, names, view.scale)
        if around:
            return around
    count = len(riders) + len(blockers)
    across = max(state.setup.road.lanes, math.ceil(count / 3))
    along = math.ceil(count / across)
    length = math.dist(back_left, front_left)
    width = math.dist(back_left, back_right)
    radius = min(view.scale * 0.42, length / along / 2 - 2, width / across / 2 - 2)
    spots = []
    for i in range(along * across):
        u = 1 - (i // across + 0.5) / along  # 1 at the front
        v = (i % across + 0.5) / across  # 0 on the left edge
        left = (back_left[0] + (front_left[0] - back_left[0]) * u, back_left[1] + (front_left[1] - back_left[1]) * u)
        right = (
            back_right[0] + (front_right[0] - back_right[0]) * u,
            back_right[1] + (front_right[1] - back_right[1]) * u,
        )
        point = (left[0] + (right[0] - left[0]) * v, left[1] + (right[1] - left[1]) * v)
        if all(math.dist(point, b) > radius * 1.5 for b in blockers):
            spots.append(point)
    while len(spots) < len(riders):  # too crowded to keep clear: the rest go where they fit
        spots.append(spots[len(spots) % max(1, len(spots))] if spots else back_left)
    return family.apart([(rider.id, spot, radius) for rider, spot in zip(riders, spots, strict=False)])


SMALLEST = 16.0  # px: a peloton rider kept off an offered square's name is never drawn smaller


def _around_names(
    riders: list[Rider],
    corners: tuple[Point, Point, Point, Point],
    blockers: list[Point],
    names: list[Point],
    scale: float,
) -> list[tuple[str, tuple[float, float], float]]:
    """The peloton's riders in order, as large as they fit in its box clear of the riders standing
    there and of the offered squares' names (none: they do not fit at ``SMALLEST``)."""
    back_left, back_right, front_right, front_left = corners
    length, width = math.dist(back_left, front_left), math.dist(back_left, back_right)
    room = scale * 0.42  # half an offered square's name and cost, stacked
    count = len(riders)
    best: list[Point] = []
    best_r = SMALLEST
    for along in range(1, count + 4):
        for across in range(1, count + 4):
            r = min(scale * 0.42, length / along / 2 - 2, width / across / 2 - 2)
            if along * across < count or r < best_r or (best and r == best_r):
                continue
            free = []
            for i in range(along * across):
                u, v = 1 - (i // across + 0.5) / along, (i % across + 0.5) / across  # front first, left first
                p = _between(_between(back_left, front_left, u), _between(back_right, front_right, u), v)
                clear = all(math.dist(p, b) > r * 1.5 for b in blockers) and all(
                    abs(p[0] - n[0]) > r + room or abs(p[1] - n[1]) > r + room for n in names
                )
                if clear:
                    free.append(p)
            if len(free) >= count:
                best, best_r = free[:count], r
    return family.apart([(rider.id, spot, best_r) for rider, spot in zip(riders, best, strict=False)]) if best else []


def _disc_box(centre: Point, radius: float) -> Box:
    return (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)


def _between(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _highlight(
    draw: ImageDraw.ImageDraw,
    road: Road,
    view: View,
    options: list[RideOption],
    labels: Mapping[str, str],
    floor: int,
) -> None:
    """Each square on offer: its name (at least ``floor``) and its cost ("!" if risky)."""
    track = road.track
    seen: set[str] = set()
    for option in sorted(options, key=lambda o: (o.risk_count, o.cost)):
        if option.to in seen:
            continue
        seen.add(option.to)
        cell = track.cells[option.to]
        cost = f"+{option.recovery}" if option.recovery else str(option.cost)
        if option.risk_count:
            cost += "!"
        polygon = [view.px(p) for p in cell.polygon]
        highlight_square(
            draw,
            polygon,
            view.px(cell.centre),
            cost,
            bool(option.risk_count),
            labels.get(option.to),
            cost_size=READABLE,
            floor=floor,
        )


# -- around the board --------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, state: State, title: str, acting: tuple[str, ...]) -> None:
    draw.rectangle(HEADER, fill=PANEL)
    layout.place("cover", HEADER, "header")
    draw.line((0, HEADER[3] - 1, WIDTH, HEADER[3] - 1), fill=LANE_LINE, width=2)
    phase = words.phase("finished" if state.finished else state.phase)
    name = title.split("/")[-1]  # "leader1/first-race": the game is plain from the board
    decision = pending(state)
    names = {p.id: seat_name(p.name) for p in state.setup.players}
    if decision is not None:
        pieces = " ".join(rider_label(r) for r in acting[:3])
        text = _("to act: {who}", who=names.get(decision.player, decision.player) + (f" {pieces}" if pieces else ""))
    else:
        arrived = arrival_order(state)
        if arrived:
            rider, owner = rider_label(arrived[0].id), names.get(arrived[0].player, "")
            text = _("winner: {label} {name}", label=rider, name=owner).strip()
        else:
            text = _("race over")
    heading = _("{title} · turn {number} · {phase}", title=name, number=state.turn, phase=phase)
    header_texts(draw, heading, text)


def _strip_xpos(road: Road) -> Callable[[float], float]:
    """Where a row of the route lies along the strip."""
    left, right = STRIP[0] + 92, STRIP[2] - 110
    rows = road.track.row_count

    def xpos(row: float) -> float:
        return left + (right - left) * row / max(rows - 1, 1)

    return xpos


def _strip_terrain(draw: ImageDraw.ImageDraw, road: Road) -> None:
    """The strip's ground and the route's terrain, row by row: the same on every board of a road."""
    xpos, y0 = _strip_xpos(road), STRIP[1]
    draw.rectangle(STRIP, fill=(222, 226, 218))
    for row in range(road.track.row_count):
        draw.rectangle((xpos(row), y0 + 22, xpos(row + 1), y0 + 36), fill=TERRAIN[road.terrain(row)])


def _strip_ground(road: Road) -> Image.Image:
    patch = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    _strip_terrain(ImageDraw.Draw(patch), road)
    return patch.crop(STRIP)


def _strip(image: Image.Image, draw: ImageDraw.ImageDraw, state: State, window: tuple[int, int]) -> None:
    """The whole route: terrain, the part shown above (framed), the riders and the peloton."""
    road = state.setup.road
    x0, y0, x1, y1 = STRIP
    if layout.is_recording():
        _strip_terrain(draw, road)
    else:  # kept per road, as its layer above is
        ground = _STRIP_GROUNDS.get((road.name, id(road.track)), road.track)
        if ground is None:
            ground = _strip_ground(road)
            _STRIP_GROUNDS.put((road.name, id(road.track)), road.track, ground)
        image.paste(ground, STRIP[:2])
    layout.place("cover", STRIP, "strip")
    xpos = _strip_xpos(road)
    band = (y0 + 22, y0 + 36)
    draw.rectangle((xpos(window[0]), y0 + 4, xpos(window[1] + 1), y1 - 4), outline=INK, width=3)
    draw.line((xpos(road.finish), y0 + 4, xpos(road.finish), y1 - 4), fill=INK, width=4)
    route, finish = pgettext("board strip", "route"), pgettext("board strip", "finish")
    write(draw, (x0 + 10, (y0 + y1) / 2), route, fill=INK, size=SMALL, bold=True, anchor="lm")
    write(draw, (x1 - 100, (y0 + y1) / 2), finish, fill=INK, size=SMALL, bold=True, anchor="lm")
    if state.peloton_arrived_turn is None:
        draw.rectangle((xpos(state.peloton - 1), band[1], xpos(state.peloton + 1), y1 - 6), fill=PELOTON, outline=INK)
    stack: dict[int, int] = {}
    for r in state.riders:
        if r.row is None or r.status in ("peloton", "eliminated", "finished"):
            continue
        level = stack.get(r.row, 0)
        stack[r.row] = level + 1
        x, y = xpos(r.row), y0 + 14 - level * 6
        rider_shape(draw, (x, y), 7, r.kind, TEAM.get(team_of(r.id), MUTED), width=1)


def _panel(image: Image.Image, draw: ImageDraw.ImageDraw, state: State, alliances: list[str] | None) -> None:
    x0, y0, x1, y1 = PANEL_BOX
    draw.rectangle(PANEL_BOX, fill=PANEL)
    layout.place("cover", PANEL_BOX, "panel")
    draw.line((x0, y0, x1, y0), fill=LANE_LINE, width=2)
    order = [*arrival_order(state), *classification(state), *(r for r in state.riders if r.status == "eliminated")]
    events = _last_turn(state)
    # across the panel's foot, whole: the race's alliances (and who is away) when the column of the last
    # turn has no room for them beside its newest event, the legend's marks, what a square's name says
    marks = _legend_height(x0 + 10, x1 - 10)
    allied = _allied_lines(alliances, events, y1 - 29 - 4 - marks, len(order)) if alliances else ([], [])
    squares = " ".join((_("12.2: row 12 (numbers on top),"), _("lane 2 (0 at the top) · ! risky")))
    foot = [*allied[1], *wrapped(squares, x1 - x0 - 20, SMALL)]
    bottom = y1 - 29 * len(foot) - 4
    for k, line in enumerate(foot):
        write(draw, (x0 + 10, bottom + 29 * k), line, fill=INK, size=SMALL, over=PANEL)
    bottom -= marks
    _legend_block(image, x0 + 10, bottom, x1 - 10)
    table = (x0 + 8, y0 + 8, 566, bottom - 4)
    x = 576
    if not _states_fit(order, table):  # longer words (Hungarian): the table takes 14 px from the right side
        table, x = (x0 + 2, y0 + 8, 574, bottom - 4), 584
    _rider_table(draw, state, order, table)
    draw.line((x - 8, y0 + 8, x - 8, bottom - 4), fill=LANE_LINE, width=2)
    y = y0 + 10
    last_turn = _clip(_("Last turn"), x1 - x - 8, SMALL, bold=True)
    write(draw, (x, y), last_turn, fill=MUTED, size=SMALL, bold=True, over=PANEL)
    y += 30
    room = max(0, (bottom - 4 - 29 * len(allied[0]) - y) // 31)
    # the latest events kept whole when they are long (never a line's end without its start)
    told = latest_whole([wrapped(line, x1 - x - 8, READABLE) for line in events], room)
    for line in told or ([] if events else ["-"]):
        write(draw, (x, y), line, fill=INK, size=READABLE, over=PANEL)
        y += 31
    for line in allied[0]:
        write(draw, (x, y), line, fill=INK, size=SMALL, over=PANEL)
        y += 29


COLUMN = (584, PANEL_BOX[2] - 8)  # the last turn's column at its narrowest


def _allied_lines(alliances: list[str], events: list[str], bottom: int, riders: int) -> tuple[list[str], list[str]]:
    """The alliances' lines: in the last turn's column (first) when they fit there below its newest
    event (down to ``bottom``), else across the panel's foot (second) when the riders' table keeps
    rows of ROW_LEAST there."""
    text = _("Alliances: {list}", list="; ".join(alliances))
    column = wrapped(text, COLUMN[1] - COLUMN[0], SMALL)
    newest = len(wrapped(events[-1], COLUMN[1] - COLUMN[0], READABLE)) if events else 1
    if PANEL_BOX[1] + 40 + 31 * newest + 29 * len(column) <= bottom - 4:
        return column, []
    foot = wrapped(text, PANEL_BOX[2] - PANEL_BOX[0] - 20, SMALL)
    rows = math.ceil(riders / (2 if riders <= 12 else 3))
    if bottom - 29 * len(foot) - 4 >= PANEL_BOX[1] + 8 + 34 + ROW_LEAST * rows:
        return [], foot
    return column, []


ROW_LEAST = 30  # px: the least height of a row of the riders' table (its shapes 28 px tall)


def _last_turn(state: State) -> list[str]:
    moves = [e for e in state.events if e.type in MOVES or e.type in ("fell", "punctured", "arrived", "cracked")]
    if not moves:
        return []
    turn = moves[-1].turn
    lines = summary([e for e in state.events if e.turn == turn])
    return [_short(line, state) for line in lines]


def _short(line: str, state: State) -> str:
    for r in state.riders:  # as the rules name it (in the language of the moment), then in English
        line = line.replace(piece_name(state, r.id), rider_label(r.id))
        line = line.replace(r.id, rider_label(r.id)).replace(r.id.replace("-", " "), rider_label(r.id))
    return abbreviated(line)


def _clip(text: str, width: float, size: int = SMALL, bold: bool = False) -> str:
    return clipped(text, width, size, bold)


def _rider_table(draw: ImageDraw.ImageDraw, state: State, order: list[Rider], box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    heading = _clip(_("Riders, first to last · energy"), x1 - x0, SMALL, bold=True)
    write(draw, (x0, y0 + 2), heading, fill=MUTED, size=SMALL, bold=True, over=PANEL)
    columns = 2 if len(order) <= 12 else 3
    per_column = math.ceil(len(order) / columns) if order else 1
    width = (x1 - x0) / columns
    row_h = min(40, (y1 - y0 - 34) / per_column)
    for i, r in enumerate(order):
        cx = x0 + (i // per_column) * width
        cy = y0 + 34 + (i % per_column) * row_h + row_h / 2
        write(draw, (cx + 22, cy), str(i + 1), fill=MUTED, size=SMALL, anchor="rm", over=PANEL)
        rider_shape(draw, (cx + 44, cy), 14, r.kind, TEAM.get(team_of(r.id), MUTED))
        write(draw, (cx + 62, cy), rider_label(r.id), fill=INK, size=TEXT, bold=True, anchor="lm", over=PANEL)
        write(draw, (cx + 156, cy), str(r.energy), fill=INK, size=TEXT, anchor="rm", over=PANEL)
        if columns == 2:
            status = _clip(words.rider_state(r.status), _status_room(order, i, per_column, width), READABLE)
            write(draw, (cx + 162, cy), status, fill=MUTED, size=READABLE, anchor="lm", over=PANEL)


def _states_fit(order: list[Rider], box: tuple[int, int, int, int]) -> bool:
    """Whether every rider's state, in the language of the moment, fits its room in the table in ``box``."""
    if len(order) > 12:  # three columns: no states
        return True
    per_column = math.ceil(len(order) / 2) if order else 1
    width = (box[2] - box[0]) / 2
    return all(
        text_length(words.rider_state(r.status), READABLE) <= _status_room(order, i, per_column, width)
        for i, r in enumerate(order)
    )


def _status_room(order: list[Rider], i: int, per_column: int, width: float) -> float:
    """How wide rider ``i``'s state may be: in the first column, up to the next column's rank (a
    two-digit rank reaches back into it), kept 6 px apart; in the last, the column's width."""
    beside = i + per_column
    if i >= per_column or beside >= len(order):
        return width - 162
    return width + 22 - text_length(str(beside + 1), SMALL) - 6 - 162


def _legend_items() -> list[tuple[str, str, float]]:
    """The legend's shapes and badges: (rider kind or badge letter, word, advance), rider kinds first."""
    kinds = [(kind, words.rider_kind(kind)) for kind in ("rouleur", "leader", "climber")]
    badges = [(words.badge(status), words.rider_state(status)) for status in ("dropped", "punctured", "fallen")]
    return [(kind, word, 38 + text_length(word, SMALL)) for kind, word in kinds] + [
        (letter, word, 44 + text_length(word, SMALL)) for letter, word in badges
    ]


def _legend_rows(x: int, x1: int) -> list[list[tuple[str, str, float]]]:
    """The legend's shapes and badges in rows, the rider kinds first, each row as many as fit (a longer
    word, in Hungarian, moves the next one to the next row)."""
    return _LEGEND_ROWS.get((current(), x, x1), lambda: _laid_legend_rows(x, x1))


def _laid_legend_rows(x: int, x1: int) -> list[list[tuple[str, str, float]]]:
    rows: list[list[tuple[str, str, float]]] = [[]]
    for item in _legend_items():  # one flow: a badge goes beside a rider kind when there is room
        used = sum(advance for _, _, advance in rows[-1])
        if rows[-1] and x + used + item[2] - 12 > x1 - 4:
            rows.append([])
        rows[-1].append(item)
    return rows


def _legend_height(x: int, x1: int) -> int:
    return 30 * len(_legend_rows(x, x1))


BADGE_ABOVE = 3  # px: a badge in the legend's first row reaches this far above the row


def _legend_block(image: Image.Image, x: int, y: int, x1: int) -> None:
    """The legend at (``x``, ``y``): the same on every board of a language and a place, so drawn once
    onto the panel's colour and pasted after (pixel for pixel what drawing it there gives, as nothing
    else is drawn where it goes); drawn in place while a test records what a board places."""
    if layout.is_recording():
        _legend(ImageDraw.Draw(image), x, y, x1)
        return
    box = (x - 4, y - BADGE_ABOVE, x1, min(HEIGHT, y + _legend_height(x, x1)))
    if image.mode == "RGB":
        patch = _LEGEND_PATCHES.get((current(), box, "RGB"), lambda: _legend_patch(box))
    else:  # a palette canvas: the legend mapped onto the palette
        patch = _LEGEND_PATCHES.get((current(), box, "P"), lambda: mapped(_legend_patch(box)))
    image.paste(patch, box[:2])


def _legend_patch(box: tuple[int, int, int, int]) -> Image.Image:
    x0, y0, x1, _ = box
    patch = Image.new("RGB", (WIDTH, HEIGHT), PANEL)
    _legend(ImageDraw.Draw(patch), x0 + 4, y0 + BADGE_ABOVE, x1)
    return patch.crop(box)


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int, x1: int) -> None:
    for row in _legend_rows(x, x1):
        dx: float = x
        for mark, word, advance in row:
            if mark in ("rouleur", "leader", "climber"):
                rider_shape(draw, (dx + 10, y + 13), 10, mark, WHITE)
                write(draw, (dx + 26, y + 13), word, fill=INK, size=SMALL, anchor="lm")
            else:
                badge(draw, (dx + 12, y + 13), mark)
                write(draw, (dx + 30, y + 13), word, fill=INK, size=SMALL, anchor="lm")
            dx += advance
        y += 30
