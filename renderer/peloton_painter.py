"""Peloton's board: the course's road of hexagons around the riders, drawn as a map.

Drawn 960 px wide for a phone (Discord shows it about 400 px wide): the map of the road near
the cyclists (signs: terrain, turnings, bonus lines, start, finish, checkpoints; the wind), the
cyclists as numbered discs in their team's colour with a letter, the end hexagons the cyclist to
act may choose (letters, T where tandem helps, ! where it falls) with their paths, and a panel
that lists every cyclist's dial and energy. Self-contained: it reads a Peloton state, nothing else.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from rules.game import Choice
from rules.peloton.course import Course, split
from rules.peloton.model import DIAL, FINISHED, LYING, STANDING, WAITING, State

RGB = tuple[int, int, int]
WIDTH, MAP_HEIGHT = 960, 620
BACKGROUND: RGB = (232, 238, 226)
ROAD: RGB = (214, 214, 210)
EDGE: RGB = (150, 150, 146)
INK: RGB = (30, 30, 30)
MUTED: RGB = (95, 95, 95)
PANEL: RGB = (250, 250, 247)
UP: RGB = (240, 200, 150)
DOWN: RGB = (170, 205, 230)
TURNING: RGB = (200, 200, 214)
SPEED_LINE: RGB = (140, 60, 200)  # violet: the speed bonus
UPHILL_LINE: RGB = (0, 150, 70)  # green: the uphill bonus
FINISH: RGB = (20, 20, 20)
ACT: RGB = (200, 0, 130)
REACH: RGB = (0, 150, 220)
RISK: RGB = (204, 90, 60)
TEAM: dict[str, RGB] = {
    "grey": (150, 150, 150),
    "red": (213, 60, 40),
    "blue": (0, 114, 178),
    "green": (0, 158, 115),
    "white": (255, 255, 255),
    "yellow": (240, 228, 66),
    "black": (20, 20, 20),
    "orange": (230, 159, 0),
}
TEAM_TEXT: dict[str, RGB] = {"white": INK, "yellow": INK, "grey": INK, "orange": INK}
TERRAIN_SPEED = {"level": "3", "up": "2", "down": "4"}
WIND_FROM = {1: 90.0, 2: 0.0, 3: 270.0, 4: 180.0}
SPAN = 26  # hexagons of road shown at most


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont)
    return loaded


class Geometry:
    """Cell centres in hexagon units (x east, y north) from the course's centreline and headings."""

    def __init__(self, course: Course) -> None:
        self.course = course
        self.line = course.centreline()

    def centre(self, s: float, lane: float) -> tuple[float, float]:
        i = max(0, min(len(self.line) - 1, int(s)))
        x, y = self.line[i]
        a = math.radians(self.course.heading(s))
        offset = ((self.course.width - 1) / 2 - lane) * math.sqrt(3) / 2  # lane 0 is on the left
        return x - math.sin(a) * offset, y + math.cos(a) * offset

    def hexagon(self, cell: str, scale: float = 1.0) -> list[tuple[float, float]]:
        s, lane = split(cell)
        cx, cy = self.centre(s, lane)
        a = math.radians(self.course.heading(s))
        r = scale / math.sqrt(3)
        return [
            (cx + r * math.cos(a + math.radians(30 + 60 * k)), cy + r * math.sin(a + math.radians(30 + 60 * k)))
            for k in range(6)
        ]


class Camera:
    def __init__(self, points: list[tuple[float, float]], box: tuple[int, int, int, int]) -> None:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, y0, x1, y1 = box
        self.scale = min(
            (x1 - x0) / max(1.0, max(xs) - min(xs) + 1.4), (y1 - y0) / max(1.0, max(ys) - min(ys) + 1.4), 70.0
        )
        self.cx, self.cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        self.px, self.py = (x0 + x1) / 2, (y0 + y1) / 2

    def __call__(self, p: tuple[float, float]) -> tuple[float, float]:
        return (self.px + (p[0] - self.cx) * self.scale, self.py - (p[1] - self.cy) * self.scale)


def _window(state: State, acting: Sequence[str], highlight: Sequence[Choice]) -> tuple[int, int]:
    course = state.course
    on_road = [split(c.cell)[0] for c in state.cyclists if c.cell is not None and c.status not in (WAITING, FINISHED)]
    focus = [split(c.cell)[0] for cid in acting if (c := state.cyclist(cid)).cell is not None]
    focus += [split(ch.target)[0] for ch in highlight if ch.target and course.has(ch.target)]
    if not on_road:
        on_road = [course.start]
    anchor = max(focus) if focus else max(on_road)
    front = min(course.end, max(anchor + 8, max(on_road) + 2 if max(on_road) - min(focus or on_road) < 2 * SPAN else 0))
    back = max(0, min(on_road + focus) - 3)
    if front - back > 2 * SPAN:
        back = front - 2 * SPAN
    return back, front


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    course = state.course
    geo = Geometry(course)
    first, last = _window(state, acting, highlight)
    cells = [c for c in course.cells() if first <= split(c)[0] <= last]
    corners = [p for c in cells for p in geo.hexagon(c)]
    rows = [c for c in state.cyclists]
    panel_rows = (len(rows) + 1) // 2
    height = MAP_HEIGHT + 80 + 34 * panel_rows + 24 * len(legend)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    cam = Camera(corners, (20, 70, WIDTH - 20, MAP_HEIGHT - 10))
    _title(draw, state, title)
    _road(draw, state, geo, cam, cells)
    _signs(draw, state, geo, cam, first, last)
    _reach(draw, state, geo, cam, highlight)
    _cyclists(draw, state, geo, cam, acting, first, last)
    _wind(draw, state)
    _panel(draw, state, acting, MAP_HEIGHT, legend)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=1)
    return out.getvalue()


def _title(draw: ImageDraw.ImageDraw, state: State, title: str) -> None:
    kind = {"leg": "leg race", "itt": "individual time trial", "ttt": "team time trial"}[state.discipline]
    head = title or f"Peloton - {state.course.name}"
    draw.text((20, 12), head[:60], fill=INK, font=font(34))
    draw.text((20, 48), f"{kind}, {state.course.hexagons} hexagons · move {state.round}", fill=MUTED, font=font(24))


def _road(draw: ImageDraw.ImageDraw, state: State, geo: Geometry, cam: Camera, cells: list[str]) -> None:
    course = state.course
    for cell in cells:
        s, _ = split(cell)
        terrain = course.terrain_at(s)
        fill = UP if terrain == "up" else DOWN if terrain == "down" else ROAD
        if course.turning_at(s) is not None:
            fill = TURNING if terrain == "level" else fill
        if s < course.start or s > course.finish:
            fill = (225, 225, 222)
        draw.polygon([cam(p) for p in geo.hexagon(cell, 0.97)], fill=fill, outline=EDGE)


def _across(geo: Geometry, s: float) -> tuple[tuple[float, float], tuple[float, float]]:
    w = geo.course.width
    return geo.centre(s, -0.6), geo.centre(s, w - 0.4)


def _signs(draw: ImageDraw.ImageDraw, state: State, geo: Geometry, cam: Camera, first: int, last: int) -> None:
    course = state.course
    lines: list[tuple[float, RGB, str]] = [
        (course.start - 0.5, FINISH, "START"),
        (course.finish + 0.5, FINISH, "FINISH"),
    ]
    lines += [(b.at + 0.5, SPEED_LINE if b.kind == "speed" else UPHILL_LINE, "bonus") for b in course.bonuses]
    lines += [(at + 0.5, MUTED, "check") for at in course.checkpoints]
    for s, colour, label in lines:
        if first <= s <= last:
            a, b = _across(geo, s)
            draw.line([cam(a), cam(b)], fill=colour, width=7)
            x, y = cam(b)
            draw.text((x + 4, y - 12), label, fill=colour, font=font(22))
    for at, kind in course.terrain:
        if first <= at <= last and at >= course.start:
            x, y = cam(geo.centre(at, -1.0))
            draw.rectangle([x - 16, y - 16, x + 16, y + 16], fill=(255, 255, 255), outline=INK, width=2)
            draw.text((x - 7, y - 14), TERRAIN_SPEED[kind], fill=INK, font=font(26))
    for t in course.turnings:
        if first <= t.first <= last:
            outer = -1.0 if t.side == "right" else course.width
            x, y = cam(geo.centre(t.first, outer))
            draw.ellipse([x - 16, y - 16, x + 16, y + 16], fill=(255, 255, 255), outline=INK, width=2)
            draw.text((x, y), "L" if t.side == "left" else "R", fill=INK, font=font(24), anchor="mm")
            if t.crossroads:
                draw.text((x + 18, y - 12), "crossroads", fill=MUTED, font=font(22))


def _reach(draw: ImageDraw.ImageDraw, state: State, geo: Geometry, cam: Camera, highlight: Sequence[Choice]) -> None:
    for ch in highlight:
        if not ch.target or not state.course.has(ch.target):
            continue
        via = ch.action.get("via") or ()
        mover = state.cyclist(ch.piece) if ch.piece else None
        path = (
            ([mover.cell] if mover and mover.cell else []) + list(via if isinstance(via, tuple) else ()) + [ch.target]
        )
        pts = [cam(geo.centre(*split(c))) for c in path]
        colour = RISK if ch.risky else REACH
        if len(pts) > 1:
            draw.line(pts, fill=colour, width=2)
        draw.polygon([cam(p) for p in geo.hexagon(ch.target, 0.8)], outline=colour, width=4)
        x, y = cam(geo.centre(*split(ch.target)))
        mark = ch.short + ("!" if ch.risky else "T" if "tandem" in ch.label else "")
        draw.text((x, y), mark, fill=colour, font=font(24), anchor="mm")


def _cyclists(
    draw: ImageDraw.ImageDraw, state: State, geo: Geometry, cam: Camera, acting: Sequence[str], first: int, last: int
) -> None:
    r = max(12.0, cam.scale * 0.33)
    for c in state.cyclists:
        if c.cell is None or c.status in (WAITING, FINISHED):
            continue
        s, lane = split(c.cell)
        if not first <= s <= last:
            continue
        x, y = cam(geo.centre(s, lane))
        colour = TEAM.get(c.team, (128, 128, 128))
        if c.id in acting:
            draw.ellipse([x - r - 7, y - r - 7, x + r + 7, y + r + 7], outline=ACT, width=5)
        if c.status == LYING:
            draw.rectangle([x - r, y - r / 2, x + r, y + r / 2], fill=colour, outline=INK, width=2)
        else:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=INK, width=2)
        draw.text((x, y), c.id, fill=TEAM_TEXT.get(c.team, (255, 255, 255)), font=font(int(r * 1.1)), anchor="mm")
        if c.id in state.tandem:
            draw.text((x + r, y - r - 4), "T", fill=INK, font=font(20), anchor="lm")


def _wind(draw: ImageDraw.ImageDraw, state: State) -> None:
    x, y = WIDTH - 90, 40
    draw.ellipse([x - 30, y - 30, x + 30, y + 30], fill=PANEL, outline=INK, width=2)
    if state.wind == 0:
        draw.text((x, y), "no\nwind", fill=INK, font=font(18), anchor="mm", align="center")
        return
    a = math.radians(WIND_FROM[state.wind])
    tail = (x + 24 * math.cos(a), y - 24 * math.sin(a))
    head = (x - 24 * math.cos(a), y + 24 * math.sin(a))
    draw.line([tail, head], fill=INK, width=4)
    for side in (150, -150):
        b = a + math.radians(side) + math.pi
        draw.line([head, (head[0] + 12 * math.cos(b) * -1, head[1] - 12 * math.sin(b) * -1)], fill=INK, width=4)
    draw.text((x - 40, y + 34), f"wind {state.wind}", fill=INK, font=font(20))


def _panel(draw: ImageDraw.ImageDraw, state: State, acting: Sequence[str], top: int, legend: Sequence[str]) -> None:
    draw.rectangle([0, top, WIDTH, top + 2000], fill=PANEL)
    draw.text((20, top + 8), "No.  dial  energy  state", fill=MUTED, font=font(22))
    draw.text((WIDTH // 2 + 10, top + 8), "No.  dial  energy  state", fill=MUTED, font=font(22))
    for i, c in enumerate(state.cyclists):
        col, row = divmod(i, (len(state.cyclists) + 1) // 2)
        x, y = 20 + col * (WIDTH // 2 - 10), top + 40 + row * 34
        colour = TEAM.get(c.team, (128, 128, 128))
        draw.ellipse([x, y, x + 26, y + 26], fill=colour, outline=INK, width=2)
        draw.text(
            (x + 13, y + 13),
            c.team[:1].upper(),
            fill=TEAM_TEXT.get(c.team, (255, 255, 255)),
            font=font(18),
            anchor="mm",
        )
        status = {
            LYING: "fallen",
            STANDING: "standing up",
            WAITING: f"starts move {c.start_round}",
            FINISHED: "finished",
        }.get(c.status, "tandem" if c.id in state.tandem else "")
        marker = "> " if c.id in acting else ""
        dial = f"+{DIAL[c.dial]}({c.dial})"
        draw.text(
            (x + 34, y),
            f"{marker}{c.id:>2}  {dial:<6} {c.energy:>3}   {status}",
            fill=ACT if marker else INK,
            font=font(24),
        )
    y = top + 44 + 34 * ((len(state.cyclists) + 1) // 2)
    for line in legend:
        draw.text((20, y), line[:80], fill=INK, font=font(22))
        y += 24
