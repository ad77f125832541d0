"""The board image of a Formula Dé Mini race, designed to be read 400 px wide (docs/board.md).

The circuit is drawn around the action (the cars still racing and the spaces the car to
move may reach), as large as fits, with a map of the whole circuit in a corner when it is
zoomed in. Cars carry their team letter and number and their gear; the car to act is
marked; last round's moves are trails; a panel lists the cars, last round and a legend.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Hashable, Mapping, Sequence

from PIL import Image, ImageDraw

from renderer import layout
from renderer.cache import LruCache, track_key
from renderer.camera import View, fit_view
from renderer.encode import png_bytes
from renderer.fit import abbreviated, clipped, latest_whole, whole_kept, wrapped
from renderer.heading import header_texts
from renderer.palette import (
    ACT_TEXT,
    ASPHALT,
    BACKGROUND,
    FLAG,
    HEIGHT,
    INK,
    KERB,
    LANE_LINE,
    MUTED,
    PANEL,
    PIT,
    RGB,
    SMALL,
    TEAM,
    TEAM_TEXT,
    TEXT,
    WHITE,
    WIDTH,
    team_code,
)
from renderer.pieces import acting_marker, car_token, highlight_square, label_box, polygon, trail
from renderer.text import confined, settle, text_bbox, text_length, write
from rules.formula_de_mini.circuit import Circuit
from rules.formula_de_mini.engine import pending
from rules.formula_de_mini.model import State
from rules.formula_de_mini.moves import MoveOption
from rules.i18n import _, ngettext, pgettext
from rules.shown import seat_name
from rules.track import Point, Track

HEADER = (0, 0, WIDTH, 52)
BOARD = (0, 52, WIDTH, 540)
PANEL_BOX = (0, 540, WIDTH, HEIGHT)
MAP_W, MAP_H = 224, 164
MAP_CORNERS = (  # where the map of the whole circuit may go, in order of preference
    (BOARD[2] - MAP_W - 6, BOARD[3] - MAP_H - 6),
    (BOARD[0] + 6, BOARD[3] - MAP_H - 6),
    (BOARD[2] - MAP_W - 6, BOARD[1] + 6),
    (BOARD[0] + 6, BOARD[1] + 6),
)
MAX_SCALE = 80.0
MIN_SCALE = 52.0  # other cars join the view while spaces stay this large (px)
CAR_COLOUR = {team: TEAM[team] for team in ("red", "blue", "green", "yellow")}
TEAMS = ("red", "blue", "green", "yellow")


def status_word(status: str) -> str:
    """A car's state in the panel (``done``: it has finished)."""
    return {
        "racing": pgettext("board car", "racing"),
        "pits": pgettext("board car", "pits"),
        "spun": pgettext("board car", "spun"),
        "finished": pgettext("board car", "done"),
        "eliminated": pgettext("board car", "out"),
    }.get(status, status)


def step_word(step: str) -> str:
    """What the car to act decides now, in the header."""
    return {
        "gear": pgettext("board step", "gear"),
        "move": pgettext("board step", "move"),
        "slipstream": pgettext("board step", "slipstream"),
        "pit-exit": pgettext("board step", "pit-exit"),
    }.get(step, step)


def reason_words(reason: str) -> str:
    """Why a car lost its points or its race (the record's English reason, said in the language of the moment)."""
    collision = re.fullmatch(r"collision with (\S+)", reason)
    if collision:
        return _("collision with {label}", label=_label(collision.group(1)))
    return {
        "hit by a blocked car": _("hit by a blocked car"),
        "blocked": pgettext("board reason", "blocked"),
        "overshot a corner": _("overshot a corner"),
        "eliminated another car": _("eliminated another car"),
        "engine damage": _("engine damage"),
    }.get(reason, reason)


MOVES = ("drive", "slipstream")
_MAPS: LruCache[tuple[Image.Image, View]] = LruCache(8)


def circuit_key(circuit: Circuit) -> Hashable:
    """The circuit's content, everything its pictures are drawn from."""
    return (
        circuit.name,
        circuit.lanes,
        track_key(circuit.track),
        circuit.corners,
        circuit.grid,
        circuit.pit_entry,
        circuit.pit_cells,
        circuit.stands,
        circuit.straddle,
    )


def render_circuit(
    state: State,
    *,
    highlight: list[MoveOption] | None = None,
    title: str | None = None,
    acting: Collection[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> bytes:
    """The board as PNG bytes.

    ``highlight`` marks the spaces the car may reach with the LP they cost; ``labels`` names
    spaces (cell id -> short name, as the menus call them); ``acting`` lists the car ids to
    mark as the ones to act now (default: from the state).
    """
    return png_bytes(compose_circuit(state, highlight=highlight, title=title, acting=acting, labels=labels)[0])


OFF_TRACK = ("finished", "eliminated")


def default_acting(state: State) -> tuple[str, ...]:
    decision = pending(state)
    return (decision.car,) if decision is not None else ()


def compose_circuit(
    state: State,
    *,
    highlight: list[MoveOption] | None = None,
    title: str | None = None,
    acting: Collection[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> tuple[Image.Image, View]:
    """The board image and the view that placed the circuit on it (tests read pixels through it)."""
    circuit = state.setup.circuit
    track = circuit.track
    acting_ids = tuple(acting) if acting is not None else default_acting(state)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    key = circuit_key(circuit)  # computed once per board: it reads every space
    view, whole = _view(state, highlight or [], acting_ids, key)
    corner = None if whole else _map_corner(state, view, highlight or [])
    inset = () if corner is None else (corner,)
    length = max(44.0, view.scale * 1.0)
    cars = _car_boxes(state, view, length)
    covered = [box for pair in cars.values() for box in pair if box is not None]  # the cars and their gears
    offers = _offers(state, view, highlight or [], labels or {}, [*inset, *covered])
    named = [box for *_, box in offers if box is not None]
    # the circuit's own marks (row and lane numbers, grid slots, corner flags) stay off the names and cars
    with confined(BOARD, [*inset, *named, *covered]):
        _circuit(draw, circuit, view, occupied=_marked(state, highlight or []))
    with confined(BOARD, inset):  # nothing cut by the edge or the map
        for car_id, path in _trails(state).items():
            trail(draw, [view.px(p) for p in path], CAR_COLOUR.get(car_id.split("-")[0], MUTED))
        for words in (False, True):  # every space's edge, then the words: no edge crosses a neighbour's words
            for option, cost, name, box in offers:
                cell = track.cells[option.to]
                risky = bool(option.overshoot or option.blocked)
                square, centre = [view.px(p) for p in cell.polygon], view.px(cell.centre)
                labelled = words and box is not None
                highlight_square(draw, square, centre, cost, risky, name, labelled=labelled, edged=not words)
        for car in state.cars:
            if car.id not in cars:
                continue
            point = view.px(track.cells[str(car.cell)].centre)
            gear = car.gear if cars[car.id][1] is not None else 0
            car_token(draw, point, view.angle - track.headings[car.row], length, car.id, car.team, gear)
            if car.status == "spun":
                write(
                    draw,
                    (point[0], point[1] + length * 0.55),
                    pgettext("board tag", "SPUN"),
                    fill=KERB,
                    size=SMALL,
                    bold=True,
                    anchor="ma",
                )
            if car.id in acting_ids:
                acting_marker(draw, point, length / 2)
    if corner is not None:
        _map(image, draw, state, view, corner, key)
    _header(draw, state, title or state.setup.track_name, acting_ids)
    _panel(draw, state, [(name or option.to, cost) for option, cost, name, box in offers if box is None])
    return image, view


Box = tuple[float, float, float, float]


def _car_boxes(state: State, view: View, length: float) -> dict[str, tuple[Box, Box | None]]:
    """Each car on the picture's track: the box its body covers, and its gear's box behind it (None: no
    room for it clear of the other cars' bodies; the panel tells every gear anyway)."""
    track = state.setup.circuit.track
    bodies: dict[str, Box] = {}
    gears: dict[str, Box] = {}
    for car in state.cars:
        if car.status in OFF_TRACK or car.cell not in track.cells:
            continue
        x, y = view.px(track.cells[car.cell].centre)
        heading = view.angle - track.headings[car.row]
        c, s = math.cos(heading), math.sin(heading)
        reach = math.hypot(length / 2, length * 0.34)
        bodies[car.id] = (x - reach, y - reach, x + reach, y + reach)
        gx, gy = x - (length / 2 + 4) * c, y - (length / 2 + 4) * s
        gears[car.id] = (gx - 12, gy - 12, gx + 12, gy + 12)
    return {
        cid: (body, None if any(_meets(gears[cid], other) for o, other in bodies.items() if o != cid) else gears[cid])
        for cid, body in bodies.items()
    }


def _offers(
    state: State, view: View, highlight: list[MoveOption], labels: Mapping[str, str], taken: list[Box]
) -> list[tuple[MoveOption, str, str | None, Box | None]]:
    """Each space on offer, cheapest first: its option, cost, name, and where its name and cost go
    (None: no room for them clear of the cars, the inset map and the cheaper spaces' words, on a
    crowded stretch; the panel lists those)."""
    track = state.setup.circuit.track
    placed = list(taken)
    out: list[tuple[MoveOption, str, str | None, Box | None]] = []
    seen: set[str] = set()
    for o in sorted(highlight, key=lambda o: (o.overshoot + o.blocked, o.brake)):
        if o.to in seen:
            continue
        seen.add(o.to)
        total = o.brake + o.overshoot + o.blocked
        cost = f"-{total}" if total else "0"
        cell = track.cells[o.to]
        name = labels.get(o.to)
        box = label_box([view.px(p) for p in cell.polygon], view.px(cell.centre), cost, name)
        inside = BOARD[0] <= box[0] and BOARD[1] <= box[1] and box[2] <= BOARD[2] and box[3] <= BOARD[3]
        room = inside and not any(_meets(box, t) for t in placed)
        if room:
            placed.append(box)
        out.append((o, cost, name, box if room else None))
    return out


def _bounds(points: list[Point]) -> Box:
    return (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points), max(y for _, y in points))


def _meets(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _marked(state: State, highlight: list[MoveOption]) -> set[str]:
    """The spaces that carry a car or an offer's name: the circuit's own marks are left off them."""
    return {c.cell for c in state.cars if c.status not in OFF_TRACK} | {o.to for o in highlight}


def _view(state: State, highlight: list[MoveOption], acting: Collection[str], key: Hashable) -> tuple[View, bool]:
    """Zoomed on the car to act and its spaces, then on as many other cars as keep it large."""
    track = state.setup.circuit.track
    racing = [c for c in state.cars if c.status not in ("finished", "eliminated") and c.cell in track.cells]
    must = [c.cell for c in racing if c.id in acting] + [o.to for o in highlight]
    others = [c.cell for c in racing if c.cell not in must]
    inner = (BOARD[0] + 6, BOARD[1] + 30, BOARD[2] - 6, BOARD[3] - 6)
    whole = _whole_view(state.setup.circuit, key, inner)
    if not must:
        must, others = others, []
    if not must:
        return whole, True

    def fit(cells: list[str]) -> View:
        points = [p for cid in cells for p in track.cells[cid].polygon]
        return fit_view(points, inner, _main_direction(points), max_scale=MAX_SCALE, margin=2.0)

    zoomed = fit(must)
    for cell in others:
        wider = fit([*must, cell])
        if wider.scale >= MIN_SCALE:
            must, zoomed = [*must, cell], wider
    if zoomed.scale < whole.scale * 1.3:
        return whole, True
    return zoomed, False


_WHOLE: LruCache[View] = LruCache(8)


def _whole_view(circuit: Circuit, key: Hashable, inner: tuple[int, int, int, int]) -> View:
    """The view of the whole circuit (cached by the circuit's content)."""

    def fit() -> View:
        everything = [p for cell in circuit.track.cells.values() for p in cell.polygon]
        return fit_view(everything, inner, 0.0, max_scale=MAX_SCALE, margin=1.2)

    return _WHOLE.get((key, inner), fit)


def _main_direction(points: list[Point]) -> float:
    """The angle of the points' longest spread (their principal axis): turned level, they fill a wide picture."""
    n = len(points)
    mx, my = sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    syy = sum((p[1] - my) ** 2 for p in points)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in points)
    return 0.5 * math.atan2(2 * sxy, sxx - syy)


def _on_board(point: tuple[float, float], slack: float = 60) -> bool:
    return BOARD[0] - slack <= point[0] <= BOARD[2] + slack and BOARD[1] - slack <= point[1] <= BOARD[3] + slack


def _side(track: Track, row: int, distance: float) -> Point:
    """A point off the lane-0 side of ``row``."""
    cx, cy = track.centres[row]
    heading = track.headings[row]
    offset = track.lanes / 2 + distance
    return (cx - math.sin(heading) * offset, cy + math.cos(heading) * offset)


def _circuit(
    draw: ImageDraw.ImageDraw, circuit: Circuit, view: View, detail: bool = True, occupied: Collection[str] = ()
) -> None:
    """The circuit's spaces and marks; a space's own mark (a stand's letter, a grid slot) is left out
    under a car (``occupied``), whose label would be written over it."""
    track = circuit.track
    pit_lane = circuit.lanes
    for cell in track.cells.values():
        if detail and not _on_board(view.px(cell.centre)):
            continue
        fill = PIT if cell.lane == pit_lane else ASPHALT
        kerb = cell.attrs.get("corner") is not None
        polygon(
            draw, [view.px(p) for p in cell.polygon], fill, KERB if kerb else LANE_LINE, 3 if kerb and detail else 1
        )
    first = [track.cell(0, lane) for lane in range(circuit.lanes)]
    a, b = first[0], first[-1]
    if a is not None and b is not None:
        (x0, y0), (x1, y1) = view.px(a.polygon[0]), view.px(b.polygon[1])
        for i in range(8):
            t0, t1 = i / 8, (i + 1) / 8
            draw.line(
                (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
                fill=INK if i % 2 == 0 else WHITE,
                width=max(3, round(view.scale * 0.14)),
            )
    if not detail:
        return
    written: list[Box] = []  # the marks so far: where spaces are small (a corner, the whole circuit) they crowd
    spaces = [_bounds([view.px(p) for p in track.cells[cid].polygon]) for cid in occupied if cid in track.cells]

    def mark(point: Point, content: str, size: int, fill: RGB, bold: bool = False, anchor: str = "mm") -> None:
        """Write a mark of the circuit unless it would meet one written before, or (a lane number at a
        space's corner) a space with a car or an offer: one is left out rather than overlap."""
        x0, y0, x1, y1 = text_bbox(content, size, bold)
        left, top = (
            (point[0] - (x1 - x0) / 2, point[1] - (y1 - y0) / 2) if anchor == "mm" else (point[0] + x0, point[1] + y0)
        )
        ink = (left - 2, top - 2, left + x1 - x0 + 2, top + y1 - y0 + 2)
        if any(_meets(ink, other) for other in written) or (anchor != "mm" and any(_meets(ink, sp) for sp in spaces)):
            return
        written.append(ink)
        write(draw, point, content, fill=fill, size=size, bold=bold, anchor=anchor)

    for team, stand in zip(TEAMS, circuit.stands, strict=False):
        cell = track.cells[stand]
        polygon(draw, [view.px(p) for p in cell.polygon], None, CAR_COLOUR[team], 5)
        if stand not in occupied:
            mark(view.px(cell.centre), team_code(team), SMALL, INK, bold=True)
    if circuit.straddle:
        polygon(draw, [view.px(p) for p in track.cells[circuit.straddle].polygon], None, INK, 3)
    for slot, cid in enumerate(circuit.grid, start=1):
        point = view.px(track.cells[cid].centre)
        if _on_board(point, 0) and cid not in occupied:
            mark(point, pgettext("board: a grid slot", "P{n}", n=slot), SMALL - 4, MUTED)
    for row in range(track.row_count):  # row numbers beside the lane-0 edge: spaces are "row.lane"
        point = view.px(_side(track, row, 0.5))
        if _on_board(point, 0) and (view.scale >= 40 or row % 2 == 0):
            mark(point, str(row), SMALL - 4, MUTED, bold=True)
    for row in range(0, track.row_count, 6):  # lane numbers across the road, every few rows
        for lane in range(circuit.lanes):
            space = track.cell(row, lane)
            if space is not None and _on_board(view.px(space.centre), 0) and view.scale >= 40:
                x, y = view.px(space.polygon[0])
                mark((x + 4, y), str(lane), SMALL - 6, LANE_LINE, bold=True, anchor="la")
    for corner in circuit.corners:
        point = view.px(_side(track, corner.first_row, -(track.lanes + 1.6)))
        if not _on_board(point, 0):
            continue
        label = ngettext(
            "{n} stop · L{longest} C{shortest}",
            "{n} stops · L{longest} C{shortest}",
            corner.stops,
            longest=corner.longest,
            shortest=corner.shortest,
        )
        w = text_length(label, SMALL, bold=True)
        x, y = min(max(point[0], w / 2 + 10), WIDTH - w / 2 - 10), point[1]  # kept whole on the picture
        box = settle((x - w / 2 - 6, y - 16, x + w / 2 + 6, y + 16), written)  # on the board, clear of the marks
        if box is None:
            continue
        point = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        draw.rounded_rectangle(box, radius=6, fill=FLAG, outline=INK)
        layout.place("tag", box, label)
        write(draw, point, label, fill=INK, size=SMALL, bold=True, anchor="mm")


def _map_layer(circuit: Circuit, key: Hashable) -> tuple[Image.Image, View]:
    """The whole circuit, small, drawn once per circuit (cached by content)."""

    def draw_it() -> tuple[Image.Image, View]:
        size = (MAP_W, MAP_H)
        image = Image.new("RGB", size, WHITE)
        points = [p for cell in circuit.track.cells.values() for p in cell.polygon]
        view = fit_view(points, (4, 4, size[0] - 4, size[1] - 4), 0.0, max_scale=20.0)
        _circuit(ImageDraw.Draw(image), circuit, view, detail=False)
        return image, view

    return _MAPS.get(key, draw_it)


def _map_corner(state: State, view: View, highlight: list[MoveOption]) -> tuple[int, int, int, int] | None:
    """The first corner of the picture where the map hides no car and no highlighted space (None: every
    corner would, and the map is left out)."""
    track = state.setup.circuit.track
    cells = [c.cell for c in state.cars if c.status not in ("finished", "eliminated") and c.cell in track.cells]
    points = [view.px(track.cells[cid].centre) for cid in [*cells, *(o.to for o in highlight)]]
    spaces = [[view.px(p) for p in track.cells[o.to].polygon] for o in highlight]
    offered = [(min(x for x, _ in q), min(y for _, y in q), max(x for x, _ in q), max(y for _, y in q)) for q in spaces]
    boxes = [(x, y, x + MAP_W, y + MAP_H) for x, y in MAP_CORNERS]
    for box in boxes:
        near = any(box[0] - 30 <= x <= box[2] + 30 and box[1] - 30 <= y <= box[3] + 30 for x, y in points)
        if not near and not any(_meets(box, space) for space in offered):
            return box
    return None


def _map(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: State,
    view: View,
    box: tuple[int, int, int, int],
    key: Hashable,
) -> None:
    """The whole circuit in a corner: every car as a dot, the part shown framed."""
    circuit = state.setup.circuit
    small, small_view = _map_layer(circuit, key)
    image.paste(small, (box[0], box[1]))
    layout.place("cover", box, "map")
    draw.rectangle(box, outline=INK, width=2)
    for car in state.cars:
        if car.status in ("finished", "eliminated") or car.cell not in circuit.track.cells:
            continue
        x, y = small_view.px(circuit.track.cells[car.cell].centre)
        x, y = x + box[0], y + box[1]
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=CAR_COLOUR[car.team], outline=INK)
    frame = [
        small_view.px(view.unpx(corner))
        for corner in ((BOARD[0], BOARD[1]), (BOARD[2], BOARD[1]), (BOARD[2], BOARD[3]), (BOARD[0], BOARD[3]))
    ]
    clipped = [(min(max(x + box[0], box[0]), box[2]), min(max(y + box[1], box[1]), box[3])) for x, y in frame]
    polygon(draw, clipped, None, ACT_TEXT, 2)


def _positions(state: State) -> list[tuple[int, str, str, str]]:
    """Every move from the events: (round, car, from, to); a car starts from its grid slot."""
    circuit = state.setup.circuit
    where: dict[str, str] = {}
    moves: list[tuple[int, str, str, str]] = []
    for e in state.events:
        if e.type == "grid":
            order = e.data.get("order", ())
            assert isinstance(order, list | tuple)  # the grid's cars, as the rules wrote them
            for slot, car in enumerate(order):
                if slot < len(circuit.grid):
                    where[str(car)] = circuit.grid[slot]
        elif e.type in MOVES:
            car, to = str(e.data["car"]), str(e.data["to"])
            start = where.get(car)
            if start is not None:
                moves.append((e.turn, car, start, to))
            where[car] = to
        elif e.type == "pitted":
            where[str(e.data["car"])] = str(e.data["at"])
    return moves


def _trails(state: State) -> dict[str, list[Point]]:
    """From where each car was to where it is, for the last round with moves."""
    moves = _positions(state)
    if not moves:
        return {}
    last = moves[-1][0]
    track = state.setup.circuit.track
    out: dict[str, list[Point]] = {}
    for turn, car, start, end in moves:
        if turn != last or not (track.has(start) and track.has(end)):
            continue
        a, b = track.cells[start], track.cells[end]
        rows = (b.row - a.row) % track.row_count
        points = [a.centre]
        for i in range(1, rows):
            row = (a.row + i) % track.row_count
            lane = round(a.lane + (b.lane - a.lane) * i / rows)
            near = [c for c in track.row_cells(row)] + [c for c in [track.cell(row, track.lanes - 1)] if c]
            if near:
                points.append(min(near, key=lambda c: abs(c.lane - lane)).centre)
        points.append(b.centre)
        out[car] = points
    return out


def _label(car_id: str) -> str:
    team, _, number = car_id.partition("-")
    return team_code(team) + number  # the colour's letter in the reader's words, as the other boards


def _header(draw: ImageDraw.ImageDraw, state: State, title: str, acting: tuple[str, ...]) -> None:
    draw.rectangle(HEADER, fill=PANEL)
    layout.place("cover", HEADER, "header")
    draw.line((0, HEADER[3] - 1, WIDTH, HEADER[3] - 1), fill=LANE_LINE, width=2)
    name = title.split("/")[-1]
    decision = pending(state)
    names = {p.id: seat_name(p.name) for p in state.setup.players}
    if decision is not None:
        who = f"{names.get(decision.player, decision.player)} {_label(decision.car)}"
        text = _("to act: {who} ({step})", who=who, step=step_word(decision.kind))
    elif state.arrivals:
        text = _("winner: {label}", label=_label(state.arrivals[0]))
    else:
        text = _("race over")
    laps = ngettext("{n} lap", "{n} laps", state.setup.laps)
    heading = _("{title} · round {number} · {laps}", title=name, number=state.turn, laps=laps)
    header_texts(draw, heading, text, blend=False)


def _describe(e_type: str, d: Mapping[str, object]) -> str | None:
    car = _label(str(d.get("car", "")))
    if e_type == "drive":
        extra = [
            word
            for key, word in (
                ("brake", pgettext("board drive", "brake {n}", n=d.get("brake"))),
                ("blocked", pgettext("board drive", "blocked {n}", n=d.get("blocked"))),
                ("overshoot", pgettext("board drive", "overshoot {n}", n=d.get("overshoot"))),
                ("turbo", pgettext("board drive", "turbo")),
            )
            if d.get(key)
        ]
        if extra:
            return _(
                "{label} drives {spaces} to {to} ({extra})",
                label=car,
                spaces=d.get("spaces"),
                to=d.get("to"),
                extra=", ".join(extra),
            )
        return _("{label} drives {spaces} to {to}", label=car, spaces=d.get("spaces"), to=d.get("to"))
    reason = reason_words(str(d.get("reason")))
    if e_type == "gear":
        return _("{label} in gear {gear}", label=car, gear=d.get("gear"))
    if e_type == "slipstream":
        return _("{label} slipstreams to {to}", label=car, to=d.get("to"))
    if e_type == "lost":
        return _("{label} loses {lp} LP ({reason})", label=car, lp=d.get("lp"), reason=reason)
    if e_type == "eliminated":
        return _("{label} is out ({reason})", label=car, reason=reason)
    if e_type == "finished-race":
        return _("{label} finishes, place {place}", label=car, place=d.get("place"))
    texts = {
        "spun": _("{label} spins out", label=car),
        "stalled": _("{label} stalls", label=car),
        "flying-start": _("{label} flying start", label=car),
        "pitted": _("{label} pits", label=car),
        "left-pits": _("{label} leaves the pits", label=car),
    }
    return texts.get(e_type)


def _last_round(state: State) -> list[str]:
    moves = [e for e in state.events if e.type in MOVES]
    if not moves:
        return []
    turn = moves[-1].turn
    # the catalog's short forms (issue 38): a longer language keeps as many of the round's events
    return [abbreviated(line) for e in state.events if e.turn == turn and (line := _describe(e.type, e.data))]


def _clip(text: str, width: float, size: int = SMALL, bold: bool = False) -> str:
    return clipped(text, width, size, bold)


def _by_cost(spaces: list[tuple[str, str]]) -> str:
    """Spaces on offer grouped by their cost, in the order offered ("-5: 52.0 54.0 · -7: 58.0"): each
    cost said once, so a long list takes fewer lines."""
    groups: dict[str, list[str]] = {}
    for name, cost in spaces:
        groups.setdefault(cost, []).append(name)
    return " · ".join(f"{cost}: {' '.join(names)}" for cost, names in groups.items())


def _panel(draw: ImageDraw.ImageDraw, state: State, unnamed: list[tuple[str, str]]) -> None:
    """The cars in order, last round in words and the legend; the spaces on offer that the board had no
    room to name, when there are such."""
    x0, y0, x1, y1 = PANEL_BOX
    draw.rectangle(PANEL_BOX, fill=PANEL)
    layout.place("cover", PANEL_BOX, "panel")
    draw.line((x0, y0, x1, y0), fill=LANE_LINE, width=2)
    write(draw, (x0 + 8, y0 + 8), _clip(_("Cars · lap · gear · LP"), 570, bold=True), fill=MUTED, size=SMALL, bold=True)
    racing = sorted(
        (c for c in state.cars if c.status not in ("finished", "eliminated")),
        key=lambda c: (c.lap, c.row, c.stamp),
        reverse=True,
    )
    order = [*(state.car(a) for a in state.arrivals), *racing, *(c for c in state.cars if c.status == "eliminated")]
    # the legend across the panel's foot, whole, on as many lines as it needs
    legend = wrapped(
        " · ".join(
            (_("red edge: corner · flag: stops"), _("12.1: row 12 (grey), lane 1"), _("white box on a car: its gear"))
        ),
        x1 - x0 - 16,
        SMALL,
    )
    bottom = y1 - 29 * len(legend) - 4
    for k, line in enumerate(legend):
        write(draw, (x0 + 8, bottom + 29 * k), line, fill=INK, size=SMALL)
    per_column = max(1, math.ceil(len(order) / 2))
    row_h = min(44, (bottom - 4 - y0 - 46) / per_column)
    for i, c in enumerate(order):
        cx = x0 + 8 + (i // per_column) * 290
        cy = y0 + 44 + (i % per_column) * row_h + row_h / 2
        write(draw, (cx + 20, cy), str(i + 1), fill=MUTED, size=SMALL, anchor="rm")
        draw.rounded_rectangle(
            (cx + 28, cy - 16, cx + 84, cy + 16), radius=6, fill=CAR_COLOUR[c.team], outline=INK, width=2
        )
        write(draw, (cx + 56, cy), _label(c.id), fill=TEAM_TEXT[c.team], size=SMALL, bold=True, anchor="mm")
        lap = f"{min(c.lap, state.setup.laps)}/{state.setup.laps}"
        write(draw, (cx + 94, cy), lap, fill=INK, size=TEXT, anchor="lm")
        write(draw, (cx + 160, cy), str(c.gear), fill=INK, size=TEXT, bold=True, anchor="lm")
        write(draw, (cx + 228, cy), str(c.lp), fill=INK, size=TEXT, anchor="rm")  # apart from the bold gear
        if c.status != "racing":
            word, size = status_word(c.status), SMALL - 4
            while size > SMALL - 8 and text_length(word, size, bold=True) > 56:  # clear of the next column
                size -= 1
            write(draw, (cx + 234, cy), word, fill=KERB, size=size, bold=True, anchor="lm")
    x = 600
    draw.line((x - 10, y0 + 8, x - 10, bottom - 4), fill=LANE_LINE, width=2)
    y = y0 + 8
    write(draw, (x, y), _clip(_("Last round"), x1 - x - 8, bold=True), fill=MUTED, size=SMALL, bold=True)
    y += 30
    room = x1 - x - 8
    events = [wrapped(line, room, SMALL) for line in _last_round(state)]
    newest = len(events[-1]) if events else 0  # the round's latest event is never given up for the list
    # the menu names every space on offer; here those the board had no room to name, all of them
    offered, size = _offered(unnamed, room, bottom - 4 - y - 29 * newest, events, 29 * newest)
    kept = (bottom - 4 - y - (size + 5) * len(offered)) // 29
    told = latest_whole(events, kept)
    for line in told or ([] if offered or kept < 1 else ["-"]):  # the latest kept whole
        write(draw, (x, y), line, fill=INK, size=SMALL)
        y += 29
    for line in offered:
        write(draw, (x, y), line, fill=INK, size=size)
        y += size + 5


OFFERED_FLOOR = 20  # the least size of the list of spaces the board could not name (the menu has them all)


def _offered(
    unnamed: list[tuple[str, str]], width: float, height: float, events: Sequence[list[str]] = (), newest: float = 0
) -> tuple[list[str], int]:
    """The spaces on offer the board had no room to name, with their label, on lines of ``width``: at
    SMALL, smaller (down to OFFERED_FLOOR) when a long list would not fit in ``height`` px, or when a
    smaller size, on fewer lines, leaves room for more of the last round's ``events`` (a longer label,
    as Hungarian's, never costs an event: issue 38); ``newest`` px of ``height``'s room are the newest
    event's, kept in any case."""
    if not unnamed:
        return [], SMALL
    text = _("Also on offer: {list}", list=_by_cost(unnamed))
    fitting = [
        (whole_kept(events, int((height + newest - (size + 5) * len(lines)) // 29)), size, lines)
        for size in range(SMALL, OFFERED_FLOOR - 1, -1)
        if (size + 5) * len(lines := wrapped(text, width, size)) <= height
    ]
    if fitting:
        size, lines = max(fitting, key=lambda fit: fit[:2])[1:]  # the most events, then the largest size
        return lines, size
    for shown in range(len(unnamed) - 1, 0, -1):  # so many that the menu alone names the last ones
        rest = len(unnamed) - shown
        more = ngettext("+{n} more in the menu", "+{n} more in the menu", rest)
        listed = _("Also on offer: {list}", list=_by_cost(unnamed[:shown]))
        lines = wrapped(f"{listed} {more}", width, OFFERED_FLOOR)
        if (OFFERED_FLOOR + 5) * len(lines) <= height:
            for name, cost in unnamed[shown:]:
                layout.lost("menu", f"{name} {cost}")  # named by the menu alone (docs/board.md)
            return lines, OFFERED_FLOOR
    return lines, OFFERED_FLOOR
