"""Hell of the North's board, designed like the other boards to be read 400 px wide on a phone
(docs/board.md): 960 x 800, the road near the action turned to run left to right and zoomed,
every rider drawn where it is (the peloton's riders inside it, front part ahead of the back
part, in peloton order), the rider(s) to act marked, the squares they may reach named as the
menu names them ("34.0": row 34, lane 0) with their cost, an overview of the whole route, and
a panel: the support-rider markers in order, the peloton's parts, and each team's diary.

The road shows what only this game marks: cobbled squares (brown with a dot pattern), dark
squares, sprint zones, the feed and bonus lines, and the weather markers (? face down), which the
route strip shows wherever they lie (``hell_of_the_north_weather``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from PIL import Image, ImageDraw

from renderer import layout
from renderer.camera import View
from renderer.encode import onto_palette, png_bytes
from renderer.hell_of_the_north.panel import STRIP, header, panel, strip
from renderer.leader1 import family_road as family
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
    SPRINT,
    TEAM,
    WEATHER,
    WHITE,
    WIDTH,
    team_of,
)
from renderer.pieces import acting_marker, highlight_square, trails
from renderer.standings_table import table_painter
from renderer.straight import straightened
from renderer.text import confined
from renderer.trails import road_trails
from rules.game import Choice
from rules.hell_of_the_north.engine import pending
from rules.hell_of_the_north.model import State
from rules.hell_of_the_north.moves import RideOption
from rules.hell_of_the_north.order import peloton_order
from rules.i18n import pgettext
from rules.leader1.family import FamilyRider
from rules.track import Point

# the road in family_road.BOARD: the header above, the route strip and the panel below (panel.py)
MAX_SCALE = 100.0  # px per square
# Other riders join the view while a square stays this large: a square on offer holds its name and
# its cost at READABLE (11 px at 400 px wide), and a 3-lane road fills the height (docs/board.md).
MIN_SCALE = 76.0
# Below LABEL_SCALE a stretch with squares on offer is drawn straight (renderer/straight.py). At 72 two
# DejaVu Sans names of neighbouring squares on a bend met (wider than Pillow's built-in face); above
# ~73.8 the busiest straight offers (20+ squares) no longer reach it (tests/test_renderer_legibility.py).
LABEL_SCALE = 73.0


def weather_short(marker: str | None) -> str:
    """A weather marker's tag beside the road (``? weather``: face down; HEAD 1: headwind, 1 energy)."""
    if marker is None:
        return pgettext("board tag", "? weather")
    return {
        "rain": pgettext("board tag", "RAIN"),
        "heat": pgettext("board tag", "HEAT"),
        "headwind-1": pgettext("board tag", "HEAD 1"),
        "headwind-2": pgettext("board tag", "HEAD 2"),
        "tailwind-1": pgettext("board tag", "TAIL 1"),
        "tailwind-2": pgettext("board tag", "TAIL 2"),
    }.get(marker, marker)


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    """The board as PNG bytes (see the module's docstring); no ``acting``: the state says who acts."""
    marked = list(acting) or None
    drawn = compose(
        state, highlight=highlight, acting=marked, title=title, legend=legend, indexed=layout.draws_on_palette()
    )
    return png_bytes(drawn[0])


def default_acting(state: State) -> tuple[str, ...]:
    """The rider asked to ride, or the deciding team's riders in the peloton."""
    return family.acting_riders(pending(state), state.riders)


def compose(
    state: State,
    *,
    highlight: Sequence[Choice] = (),
    acting: Sequence[str] | None = None,
    title: str = "",
    legend: Sequence[str] = (),
    indexed: bool = False,
) -> tuple[Image.Image, View]:
    """The board and the view that placed the road on it (tests read pixels through it).

    ``acting`` None: from the state (``default_acting``); ``()`` marks nobody. ``indexed``: in the PNG
    palette's indices, only the road's band and the strip drawn in RGB and mapped, the header and
    panel drawn on the palette (``renderer.encode.palette_canvas``): the same pixels mapped.
    """
    acting_ids = tuple(acting) if acting else (default_acting(state) if acting is None else ())
    targets = [c for c in highlight if c.target and state.setup.road.track.has(c.target)]
    offered = [str(c.target) for c in targets]
    # indexed, only what is drawn with blends is drawn in RGB: down to the strip's foot
    image = Image.new("RGB", (WIDTH, STRIP[3] if indexed else HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    state, window = laid_out(state, targets, acting_ids)
    view = _view(state, window)
    spots = peloton_spots(state, view, offered)
    radius = view.scale * 0.42
    pieces = family.piece_boxes(state, view, radius, lambda r: _centre(state, r), spots)
    with confined(family.BOARD, keep_off=pieces):  # nothing on the board cut by its edge, no tag under a rider
        _road(draw, state, view, {int(str(c.target).split(".")[0]) for c in targets})
        corners = _peloton_corners(state)
        if corners is not None:
            family.shade(image, draw, view, corners, outline=False)
        paths = road_trails(state.events, state.setup.road.track).items()
        colour = {piece: PELOTON if piece == "peloton" else TEAM.get(team_of(piece), MUTED) for piece, _ in paths}
        trails(draw, [([view.px(p) for p in path], colour[piece]) for piece, path in paths])
        _highlight(draw, state, view, targets)
        # in the crowded peloton the marker goes under the riders (it shows around them and in the gaps,
        # no rider hidden by a neighbour's arrow); on the open road it goes over
        for rider_id, point, size in spots:
            if rider_id in acting_ids:
                acting_marker(draw, point, size)
        places = family.road_riders(draw, state, view, radius, lambda r: _centre(state, r))
        family.peloton_riders(draw, state, spots)
        for rider_id in acting_ids:
            if rider_id in places:
                point, size = places[rider_id]
                acting_marker(draw, point, size)
    strip(draw, state, window)  # its words lie over its frame: drawn with blends too
    if indexed:  # the band and the strip mapped alone; the header and panel cover all the rest
        image, draw = onto_palette(image, (WIDTH, HEIGHT), BACKGROUND)  # the header's rows too: drawn over
    header(draw, state, title, acting_ids)
    panel(draw, state, acting_ids, legend)
    return image, view


# -- the part of the road on show ----------------------------------------------------------------


def laid_out(state: State, targets: Sequence[Choice], acting: Sequence[str]) -> tuple[State, tuple[int, int]]:
    """The state to draw (its road straightened when its bends would shrink the squares on offer
    below ``LABEL_SCALE`` and straight they are larger: bends are only drawing) and the rows on show."""
    return family.straight_if_larger(
        state, bool(targets), lambda s: _window(s, targets, acting), _view, _straightened, LABEL_SCALE
    )


def _straightened(state: State) -> State:
    course = state.setup.course
    road = replace(course.road, track=straightened(course.road.track))
    return replace(state, setup=replace(state.setup, course=replace(course, road=road)))


def _window(state: State, targets: Sequence[Choice], acting: Sequence[str]) -> tuple[int, int]:
    """The rows on show: the rider to act and its squares first, then the peloton, then the others."""
    return family.window(
        state,
        [int(str(c.target).split(".")[0]) for c in targets],
        acting,
        lambda rows: _view(state, rows).scale,
        label=LABEL_SCALE,
        join=MIN_SCALE,
        largest=MAX_SCALE,
    )


def _view(state: State, window: tuple[int, int]) -> View:
    # room for the tags beside the road, but none wasted beyond the first and last rows' squares
    return family.fit(state.setup.road, window, beside=0.55, largest=MAX_SCALE, margin=0.55)


# -- the road ------------------------------------------------------------------------------------


def _tag(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: RGB, ink: RGB = INK) -> None:
    """A tag beside the road, moved onto the picture where its edge would cut it."""
    family.tag(draw, centre, text, fill, ink, inside=True)


def _road(draw: ImageDraw.ImageDraw, state: State, view: View, offered: set[int]) -> None:
    course = state.setup.course
    road = course.road
    track = road.track
    rows = family.visible_rows(road, view)
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
        family.edges(draw, road, view, row, border)
    family.lines_and_numbers(draw, road, view, rows, MUTED, _tag)
    numbered = family.free_row(state, view, rows, offered, first)
    if numbered is not None:
        family.lane_numbers(draw, road, view, numbered)
    family.terrain_words(draw, road, view, rows, _tag)
    family.line_tags(draw, road, view, rows, _tag)
    for zone, _ in course.sprint_zones:
        if first <= zone <= last:
            _tag(draw, view.px(family.side(road, zone, 0.9, right=False)), pgettext("board tag", "SPRINT"), SPRINT)
    for hexagon, marker in state.weather:
        middle = hexagon + course.hex_rows // 2
        if first <= middle <= last:
            text = weather_short(marker)
            _tag(draw, view.px(family.side(road, middle, 0.9, right=False)), text, WEATHER, WHITE)


# -- the riders ----------------------------------------------------------------------------------


def _peloton_corners(state: State) -> list[Point] | None:
    """The peloton's box, while it is on the road (none once it has arrived)."""
    return family.peloton_corners(state) if state.peloton_arrived_turn is None else None


SMALLEST = 16.0  # px: a peloton rider kept off an offered square's name is never drawn smaller


def peloton_spots(
    state: State, view: View, offered: Sequence[str] = ()
) -> list[tuple[str, tuple[float, float], float]]:
    """Where each peloton rider is drawn (rider id, pixel centre, radius), in peloton order: the
    front part in the front of the box, the back part behind it, each left to right across the road.
    Spots over a rider standing on the peloton's squares (a breakaway, a puncture), or over the name
    of a square on ``offered``, are left free while the riders fit elsewhere."""
    corners = _peloton_corners(state)
    riders = peloton_order(state)
    if corners is None or not riders:
        return []
    track = state.setup.road.track
    rows = (state.peloton - 1, state.peloton)
    cells = [r.cell for r in state.riders if r.status != "peloton" and r.row in rows and r.on_road]
    blockers = [view.px(track.cells[c].centre) for c in cells if c is not None and c in track.cells]
    names = [view.px(track.cells[c].centre) for c in offered if c in track.cells and track.cells[c].row in rows]
    name_room = view.scale * 0.42  # half an offered square's name and cost, stacked
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
                if r <= best_r or (names and r < SMALLEST):  # kept off the names only while legible
                    continue
                free = [
                    at(high - (i // across + 0.5) / along * (high - low), (i % across + 0.5) / across)
                    for i in range(along * across)
                ]
                free = [
                    p
                    for p in free
                    if all(math.dist(p, b) > r * 1.5 for b in blockers)
                    and all(abs(p[0] - n[0]) > r + name_room or abs(p[1] - n[1]) > r + name_room for n in names)
                ]
                if len(free) >= count:
                    best, best_r = [(p, r) for p in free[:count]], r
        return best

    parts = [(group, high, low) for group, high, low in ((front, 1.0, 1.0 - split), (back, 1.0 - split, 0.0)) if group]
    placed = [layout(len(group), high, low) for group, high, low in parts]
    if names and any(len(p) < len(g) for p, (g, _, _) in zip(placed, parts, strict=True)):
        # offered names where a part would go: the whole peloton, in order, wherever the box is free
        whole = layout(len(riders), 1.0, 0.0)
        if len(whole) == len(riders):
            parts, placed = [([r.id for r in riders], 1.0, 0.0)], [whole]
    spots: list[tuple[str, tuple[float, float], float]] = []
    for (group, high, low), places in zip(parts, placed, strict=True):
        if len(places) < len(group):  # too crowded to keep clear: over the offered names, then the blockers
            saved, names = names, []
            places = layout(len(group), high, low)
            if len(places) < len(group):
                saved_blockers, blockers = blockers, []
                places = layout(len(group), high, low)
                blockers = saved_blockers
            names = saved
        spots += [(rider, point, r) for rider, (point, r) in zip(group, places, strict=True)]
    radius = min(r for _, _, r in spots)
    return family.apart([(rider, point, radius) for rider, point, _ in spots])


def _centre(state: State, rider: FamilyRider) -> Point | None:
    """A rider's square (one past the end of the road on its last row)."""
    assert rider.row is not None and rider.lane is not None
    track = state.setup.road.track
    cell = track.cell(min(rider.row, track.row_count - 1), rider.lane)
    return None if cell is None else cell.centre


def _highlight(draw: ImageDraw.ImageDraw, state: State, view: View, targets: Sequence[Choice]) -> None:
    """Each square on offer: its name as the menu gives it, and the energy it costs ("!" if risky)."""
    track = state.setup.road.track
    seen: set[str] = set()
    for choice in sorted(targets, key=lambda c: c.risky):
        target = str(choice.target)
        if target in seen:
            continue
        seen.add(target)
        option = choice.shows if isinstance(choice.shows, RideOption) else None  # as the rules computed it
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


# a league's general classification: a table in the game's own words
paint_standings = table_painter("hell-of-the-north")
