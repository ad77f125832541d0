"""Hell of the North's board painter: the road near the action (surfaces, cobbles, dark squares,
sprint zones, markers, face-down weather), the riders, the peloton with its front and back
parts, the support-rider markers in order, and each team's race diary.

Self-contained on purpose (Pillow and the rules only): the shared renderer is being
redesigned, and this game draws things the classic board does not.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from rules.game import Choice
from rules.hell_of_the_north.model import State
from rules.hell_of_the_north.order import classification
from rules.track import Point

RGB = tuple[int, int, int]
WIDTH = 960
ROAD_HEIGHT = 500
PANEL_TOP = ROAD_HEIGHT
HEIGHT = 900
WINDOW_ROWS = 34

BACKGROUND: RGB = (236, 240, 232)
PANEL: RGB = (250, 250, 247)
INK: RGB = (30, 30, 30)
MUTED: RGB = (105, 105, 105)
ASPHALT: RGB = (214, 214, 210)
COBBLES: RGB = (181, 150, 110)
COBBLE_DOT: RGB = (130, 100, 70)
DARK: RGB = (70, 70, 70)
SPRINT: RGB = (250, 222, 90)
FEED: RGB = (0, 150, 70)
BONUS: RGB = (200, 60, 160)
HIGHLIGHT: RGB = (0, 150, 220)
RISK: RGB = (204, 121, 167)
PELOTON_FILL: RGB = (150, 150, 170)
TERRAIN: dict[str, RGB] = {"P": (0, 158, 115), "R": (230, 159, 0), "M": (213, 60, 40), "D": (20, 20, 20)}
TEAM: dict[str, RGB] = {"black": (0, 0, 0), "white": (255, 255, 255), "green": (0, 158, 115), "orange": (230, 120, 0)}
TEAM_TEXT: dict[str, RGB] = {"black": (255, 255, 255), "white": INK, "green": (255, 255, 255), "orange": INK}
LETTER = {"rouleur": "R", "leader": "L", "climber": "C"}
QUALITY_LETTER = {"descent": "desc", "sprint": "sprint", "attack": "attack"}
WEATHER_SHORT = {
    "rain": "RAIN",
    "heat": "HEAT",
    "headwind-1": "HEAD 1",
    "headwind-2": "HEAD 2",
    "tailwind-1": "TAIL 1",
    "tailwind-2": "TAIL 2",
}


@cache
def font(size: int = 14) -> ImageFont.FreeTypeFont:
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont)
    return loaded


class _View:
    """Track units to pixels for the rows on show."""

    def __init__(self, state: State, first: int, last: int) -> None:
        track = state.setup.road.track
        points = [p for row in range(first, last + 1) for cell in track.row_cells(row) for p in cell.polygon]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        margin = 1.8
        self.left, self.top = min(xs) - margin, max(ys) + margin
        width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
        self.scale = min((WIDTH - 20) / width, (ROAD_HEIGHT - 40) / height)
        self.ox = (WIDTH - width * self.scale) / 2
        self.oy = 34 + (ROAD_HEIGHT - 40 - height * self.scale) / 2

    def px(self, p: Point) -> tuple[float, float]:
        return ((p[0] - self.left) * self.scale + self.ox, (self.top - p[1]) * self.scale + self.oy)


def _window(state: State, highlight: Sequence[Choice]) -> tuple[int, int]:
    road = state.setup.road
    rows = [state.peloton - 2, state.peloton + 2]
    rows += [r.row for r in state.riders if r.row is not None and r.racing]
    rows += [int(c.target.split(".")[0]) for c in highlight if c.target]
    first = max(0, min(rows) - 2)
    last = min(road.last_row, max(max(rows) + 4, first + 12))
    if last - first > WINDOW_ROWS:
        first = max(0, last - WINDOW_ROWS) if not highlight else first
        last = first + WINDOW_ROWS
    return first, min(last, road.last_row)


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    """The board as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    first, last = _window(state, highlight)
    view = _View(state, first, last)
    _road(draw, state, view, first, last)
    _peloton(draw, state, view)
    _riders(draw, state, view, acting)
    _highlight(draw, state, view, highlight)
    header = title or f"Hell of the North - turn {state.turn}, {state.phase}"
    draw.text((10, 8), header[:90], fill=INK, font=font(18))
    _panel(draw, state, acting, legend)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _cell_points(view: _View, polygon: tuple[Point, ...]) -> list[tuple[float, float]]:
    return [view.px(p) for p in polygon]


def _road(draw: ImageDraw.ImageDraw, state: State, view: _View, first: int, last: int) -> None:
    course = state.setup.course
    road = course.road
    track = road.track
    for row in range(first, last + 1):
        terrain = TERRAIN[road.terrain(row)]
        for cell in track.row_cells(row):
            pts = _cell_points(view, cell.polygon)
            fill = COBBLES if course.cobbled(row) else ASPHALT
            if course.dark(cell.id):
                fill = DARK
            draw.polygon(pts, fill=fill, outline=terrain, width=2)
            cx, cy = view.px(cell.centre)
            if course.cobbled(row):
                r = max(1.5, view.scale * 0.06)
                for dx, dy in ((-0.25, -0.2), (0.2, -0.25), (-0.2, 0.22), (0.25, 0.2)):
                    x, y = cx + dx * view.scale, cy + dy * view.scale
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=COBBLE_DOT)
            if cell.id in road.dotted:
                r = max(1.5, view.scale * 0.05)
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MUTED)
        if course.in_sprint(row):
            _edge_mark(draw, state, view, row, SPRINT, width=5)
        if row % course.hex_rows == 0:
            _line(draw, state, view, row, MUTED, 1)
            draw.text(view.px(track.side_point(row, road.lanes - 1, 1.6)), str(row), fill=MUTED, font=font(11))
    for row in road.feed:
        if first <= row <= last:
            _badge(draw, view, track.side_point(row, 0, 1.3), "FEED", FEED)
    for row in road.bonus:
        if first <= row <= last:
            _line(draw, state, view, row, BONUS, 3)
            _badge(draw, view, track.side_point(row, 0, 1.3), "BONUS", BONUS)
    for mountain in road.mountains:
        if first <= mountain.row <= last:
            _badge(
                draw,
                view,
                track.side_point(mountain.row, road.lanes - 1, 1.3),
                f"CAT {mountain.category}",
                TERRAIN["M"],
            )
    for hexagon, marker in state.weather:
        if first <= hexagon + course.hex_rows // 2 <= last:
            text = "?" if marker is None else WEATHER_SHORT.get(marker, marker)
            _badge(
                draw, view, track.side_point(hexagon + course.hex_rows // 2, road.lanes - 1, 1.5), text, (60, 90, 160)
            )
    if first <= road.finish <= last + 1:
        _line(draw, state, view, road.finish, INK, 4)
        _badge(draw, view, track.side_point(road.finish, 0, 1.3), "FINISH", INK)
    if first == 0:
        _line(draw, state, view, 0, INK, 3)


def _line(draw: ImageDraw.ImageDraw, state: State, view: _View, row: int, colour: RGB, width: int) -> None:
    """A line across the road at the back edge of ``row``."""
    track = state.setup.road.track
    row = min(row, track.row_count - 1)
    cells = track.row_cells(row)
    if not cells:
        return
    a, b = cells[0].polygon[0], cells[-1].polygon[1] if len(cells[-1].polygon) > 1 else cells[-1].polygon[0]
    draw.line([view.px(a), view.px(b)], fill=colour, width=width)


def _edge_mark(draw: ImageDraw.ImageDraw, state: State, view: _View, row: int, colour: RGB, width: int) -> None:
    track = state.setup.road.track
    lanes = state.setup.road.lanes
    a, b = view.px(track.side_point(row, 0, 0.15)), view.px(track.side_point(row, lanes - 1, 0.15))
    for x, y in (a, b):
        draw.ellipse((x - width, y - width, x + width, y + width), fill=colour)


def _badge(draw: ImageDraw.ImageDraw, view: _View, at: Point, text: str, colour: RGB) -> None:
    x, y = view.px(at)
    f = font(12)
    w = draw.textlength(text, font=f)
    draw.rounded_rectangle((x - w / 2 - 4, y - 9, x + w / 2 + 4, y + 9), radius=4, fill=colour)
    draw.text((x - w / 2, y - 7), text, fill=(255, 255, 255), font=f)


def _token(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float, team: str, kind: str) -> None:
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=TEAM.get(team, INK), outline=INK, width=2)
    f = font(max(10, int(radius * 1.1)))
    letter = LETTER.get(kind, "?")
    w = draw.textlength(letter, font=f)
    draw.text((x - w / 2, y - radius * 0.65), letter, fill=TEAM_TEXT.get(team, INK), font=f)


def _peloton(draw: ImageDraw.ImageDraw, state: State, view: _View) -> None:
    """The peloton covers two squares on its dotted lane: drawn as a box across those rows."""
    road = state.setup.road
    track = road.track
    if state.peloton_arrived_turn is not None:
        return
    pts = []
    for row in (state.peloton - 1, state.peloton):
        if 0 <= row < track.row_count:
            for cell in track.row_cells(row):
                pts += [view.px(p) for p in cell.polygon]
    if not pts:
        return
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = (min(xs) + 3, min(ys) + 3, max(xs) - 3, max(ys) - 3)
    draw.rounded_rectangle(box, radius=8, outline=PELOTON_FILL, width=4)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    f = font(13)
    text = f"PELOTON {sum(1 for r in state.riders if r.status == 'peloton')}"
    w = draw.textlength(text, font=f)
    draw.rectangle((cx - w / 2 - 3, cy - 9, cx + w / 2 + 3, cy + 9), fill=PELOTON_FILL)
    draw.text((cx - w / 2, cy - 7), text, fill=(255, 255, 255), font=f)


def _team(state: State, player: str) -> str:
    p = state.setup.player(player)
    return p.team if p else "black"


def _riders(draw: ImageDraw.ImageDraw, state: State, view: _View, acting: Sequence[str]) -> None:
    track = state.setup.road.track
    radius = max(9.0, view.scale * 0.36)
    for r in state.riders:
        if r.row is None or r.lane is None or r.status in ("peloton", "eliminated"):
            continue
        if r.status == "finished" and r.cell and not track.has(r.cell):
            continue
        if r.status == "fallen":
            x, y = view.px(track.side_point(r.row, r.lane, 1.0))
        else:
            cell = track.cell(min(r.row, track.row_count - 1), r.lane)
            if cell is None:
                continue
            x, y = view.px(cell.centre)
        if r.id in acting:
            draw.ellipse((x - radius - 5, y - radius - 5, x + radius + 5, y + radius + 5), outline=HIGHLIGHT, width=3)
        _token(draw, x, y, radius, _team(state, r.player), r.kind)
        if r.status in ("fallen", "punctured"):
            mark = "FALL" if r.status == "fallen" else "FLAT"
            draw.text((x + radius, y - radius - 6), mark, fill=RISK, font=font(11))


def _highlight(draw: ImageDraw.ImageDraw, state: State, view: _View, highlight: Sequence[Choice]) -> None:
    track = state.setup.road.track
    for c in highlight:
        if not c.target or not track.has(c.target):
            continue
        cell = track.cells[c.target]
        draw.polygon(_cell_points(view, cell.polygon), outline=RISK if c.risky else HIGHLIGHT, width=4)
        cx, cy = view.px(cell.centre)
        draw.text((cx - 12, cy - 7), c.short[:6], fill=INK, font=font(11))


def _panel(draw: ImageDraw.ImageDraw, state: State, acting: Sequence[str], legend: Sequence[str]) -> None:
    """The peloton tile (markers in order, front and back parts) and every team's race diary."""
    draw.rectangle((0, PANEL_TOP, WIDTH, HEIGHT), fill=PANEL)
    x0, y0 = 10, PANEL_TOP + 8
    draw.text((x0, y0), "Peloton tile", fill=INK, font=font(16))
    tile = (x0, y0 + 22, x0 + 300, y0 + 190)
    draw.rounded_rectangle(tile, radius=8, outline=PELOTON_FILL, width=3)
    mid = (tile[1] + tile[3]) / 2
    draw.line((tile[0] + 60, mid, tile[2], mid), fill=PELOTON_FILL, width=2)
    draw.text((tile[0] + 66, tile[1] + 4), "FRONT", fill=MUTED, font=font(12))
    draw.text((tile[0] + 66, mid + 4), "BACK", fill=MUTED, font=font(12))
    for i, player in enumerate(state.order):  # support-rider markers, 1st at the arrow
        y = tile[1] + 12 + i * 38
        team = _team(state, player)
        draw.rectangle((tile[0] + 8, y, tile[0] + 48, y + 28), fill=TEAM[team], outline=INK, width=2)
        draw.text((tile[0] + 22, y + 6), str(i + 1), fill=TEAM_TEXT[team], font=font(14))
    for part, top in (("front", tile[1] + 34), ("back", mid + 34)):
        riders = [r for r in classification(state) if r.status == "peloton" and r.part == part]
        for j, r in enumerate(riders):
            x = tile[0] + 80 + (j % 8) * 27
            ty = top + (j // 8) * 27
            if r.id in acting:
                draw.ellipse((x - 15, ty - 15, x + 15, ty + 15), outline=HIGHLIGHT, width=3)
            _token(draw, x, ty, 11, _team(state, r.player), r.kind)
    # the diaries
    dx = 330
    draw.text((dx, y0), "Race diaries (energy · quality · risks · kept tiles)", fill=INK, font=font(16))
    players = state.setup.players
    row_h = min(90, (HEIGHT - y0 - 40) // max(1, len(players)))
    for i, p in enumerate(players):
        y = y0 + 24 + i * row_h
        team = p.team
        draw.rectangle((dx, y, dx + 22, y + 22), fill=TEAM[team], outline=INK)
        left = state.pursuits_left(p.id)
        draw.text((dx + 30, y + 2), f"{p.name[:16]} - pursuits {left}", fill=INK, font=font(15))
        for k in range(6):
            bx = dx + 300 + k * 18
            draw.rectangle((bx, y + 4, bx + 14, y + 18), outline=INK, fill=INK if k < left else PANEL)
        for j, rid in enumerate(p.rider_ids()):
            r = state.rider(rid)
            ry = y + 28
            rx = dx + j * 205
            _token(draw, rx + 12, ry + 12, 11, team, r.kind)
            status = {"peloton": r.part or "peloton", "finished": "arrived"}.get(r.status, r.status)
            line1 = f"{r.energy} · {QUALITY_LETTER.get(r.quality or '', '-')}"
            boxes = "X" * min(r.risks, 3) + "o" * max(0, 2 - r.risks)
            line2 = f"risks {boxes} · kept {len(r.kept)} · {status}"
            draw.text((rx + 28, ry), line1, fill=INK, font=font(15))
            draw.text((rx + 28, ry + 18), line2[:30], fill=MUTED, font=font(12))
    if legend:
        draw.text((dx, HEIGHT - 20), " · ".join(legend)[:120], fill=MUTED, font=font(12))
