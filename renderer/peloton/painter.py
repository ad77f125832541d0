"""Peloton's board, designed like the other boards to be read 400 px wide on a phone
(docs/board.md): 960 x 800, the road of hexagons near the action turned to run left to right
and zoomed, every cyclist on the road drawn where it is (a disc in its team's colour with its
number: numbers 1-3 are the first team, 4-6 the second ...), the cyclist to act marked, the end
hexagons it may choose named as the menu names them (A, B ...) with T where tandem helps and !
where it falls, the whole course below, and a panel with every cyclist's dial and energy.

The road shows the course's signs: up (orange) and down (blue) stretches with their speed,
turnings (L, R), bonus lines, checkpoints, start and finish, and the wind.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence

from PIL import Image, ImageChops, ImageDraw

from renderer import layout, words
from renderer.cache import LruCache
from renderer.camera import View, fit_view
from renderer.encode import indexed as mapped
from renderer.encode import onto_palette, png_bytes
from renderer.fit import clipped
from renderer.heading import header_texts
from renderer.layout import penetration
from renderer.palette import (
    ACT_TEXT,
    ASPHALT,
    BACKGROUND,
    DOWN,
    HEIGHT,
    INK,
    LANE_LINE,
    MUTED,
    PANEL,
    PELOTON_TEAM,
    RGB,
    SMALL,
    TEAM_TEXT,
    TEXT,
    UP,
    WHITE,
    WIDTH,
)
from renderer.peloton.geometry import Geometry
from renderer.peloton.road_map import draw_map
from renderer.pieces import acting_marker, badge, highlight_square, label_box, polygon, trails
from renderer.standings_table import table_painter
from renderer.text import confined, settle, text_length, write
from rules.game import Choice
from rules.i18n import _, pgettext
from rules.peloton.course import Course, make, split
from rules.peloton.engine import Ride, pending, speed_range
from rules.peloton.game import describe
from rules.peloton.model import DIAL, FINISHED, LYING, STANDING, TEAMS, WAITING, Cyclist, State
from rules.shown import seat_name

HEADER = (0, 0, WIDTH, 52)
BOARD = (0, 52, WIDTH, 500)
STRIP = (0, 500, WIDTH, 540)
PANEL_BOX = (0, 540, WIDTH, HEIGHT)
MAX_SCALE = 84.0  # px per hexagon: a cyclist's number is ~12 px tall at 400 px wide
MIN_SCALE = 58.0  # other cyclists join the view while a hexagon stays this large
SPEED_LINE: RGB = (140, 60, 200)  # violet: the speed bonus line
UPHILL_LINE: RGB = (0, 150, 70)  # green: the uphill bonus line
TERRAIN_SPEED = {"level": "3", "up": "2", "down": "4"}
WIND_FROM = {1: 90.0, 2: 0.0, 3: 270.0, 4: 180.0}
TURNING: RGB = (226, 226, 236)


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
    """The cyclist to act now (to draw a card, set its dial or ride), if one is named."""
    decision = pending(state)
    return (decision.cyclist,) if decision is not None and decision.cyclist else ()


def on_road(state: State) -> list[Cyclist]:
    return [c for c in state.cyclists if c.cell is not None and c.status not in (WAITING, FINISHED)]


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
    palette's indices, only the road's band, the wind and the strip drawn in RGB and mapped, the
    header and panel drawn on the palette (``renderer.encode.palette_canvas``): the same pixels mapped.
    """
    course = state.course
    acting_ids = tuple(acting) if acting else (default_acting(state) if acting is None else ())
    targets = [c for c in highlight if c.target and course.has(c.target)]
    geo, window = laid_out(state, targets, acting_ids)
    view = _view(geo, window)
    # indexed, only what is drawn with blends is drawn in RGB: down to the strip's foot
    image = Image.new("RGB", (WIDTH, STRIP[3] if indexed else HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if not geo.straight:  # the board's roads lie where the course really runs
        draw_map(draw, course, view, BOARD, _drawn(course, window))
    spots = _spots(state, geo, view, window)
    wind = wind_box(state)
    with confined(BOARD, (wind,)):  # nothing on the board cut by its edge or hidden under the wind
        offers = [_bounds([view.px(p) for p in geo.hexagon(str(c.target), OFFER)]) for c in targets]
        _road(draw, state, geo, view, window, [wind, *(box for _, _, box in spots), *offers])
        paths = [
            ([view.px(geo.centre(*split(cell))) for cell in ridden], PELOTON_TEAM.get(state.cyclist(cid).team, MUTED))
            for cid, ridden in _trails(state).items()
        ]
        trails(draw, paths)
        words = _highlight(draw, state, geo, view, targets)
        places = _cyclists(draw, state, spots, words)
        for cid in acting_ids:
            if cid in places:
                acting_marker(draw, *places[cid])
    _wind(draw, state)
    _strip(draw, state, window)  # its words lie over its frame: drawn with blends too
    if indexed:  # the band and the strip mapped alone; the header and panel cover all the rest
        image, draw = onto_palette(image, (WIDTH, HEIGHT), BACKGROUND)  # the header's rows too: drawn over
    _header(draw, state, title, acting_ids)
    _panel(draw, state, acting_ids, legend)
    return image, view


# -- the part of the road on show ----------------------------------------------------------------


def laid_out(state: State, targets: Sequence[Choice], acting: Sequence[str]) -> tuple[Geometry, tuple[int, int]]:
    """How the course is drawn (as it runs, or straight where a turning would squeeze the hexagons on
    show into each other) and the half-hexagon steps on show."""
    geo = Geometry(state.course)
    window = _window(state, geo, targets, acting)
    if not _squeezed(state, geo, targets, window):
        return geo, window
    straight = Geometry(state.course, straight=True)
    return straight, _window(state, straight, targets, acting)


CROWDED = 0.9  # hexagons: two cyclists' discs (0.8 across) this close, or closer, would cover each other
OFFER = 0.94  # an end hexagon on offer is drawn this size (its neighbours are 1 apart on a straight road)


def _squeezed(state: State, geo: Geometry, targets: Sequence[Choice], window: tuple[int, int]) -> bool:
    """Whether, as the course runs, two end hexagons on offer would overlap or two of the hexagons that
    carry something (an end on offer, a cyclist) come closer than ``CROWDED``: a turning's inner lane."""
    lo, hi = window
    ends = sorted({str(c.target) for c in targets})
    outlines = [geo.hexagon(cell, OFFER) for cell in ends]
    if any(penetration(a, b) > 0 for i, a in enumerate(outlines) for b in outlines[i + 1 :]):
        return True
    cells = {*ends, *(str(c.cell) for c in on_road(state))}
    points = [geo.centre(*split(cell)) for cell in cells if lo - 6 <= split(cell)[0] <= hi + 6]
    return any(math.dist(a, b) < CROWDED for i, a in enumerate(points) for b in points[i + 1 :])


def _view(geo: Geometry, window: tuple[int, int]) -> View:
    lo, hi = window
    width = geo.course.width
    a, b = geo.centre(lo, (width - 1) / 2), geo.centre(hi, (width - 1) / 2)
    angle = math.atan2(b[1] - a[1], b[0] - a[0]) if hi > lo else math.radians(geo.heading(lo))
    points = [geo.centre(s, lane) for s in range(lo, hi + 1) for lane in (0, width - 1)]
    inner = (BOARD[0] + 6, BOARD[1] + 8, BOARD[2] - 6, BOARD[3] - 8)
    return fit_view(points, inner, angle, max_scale=MAX_SCALE, margin=1.3)


def _window(state: State, geo: Geometry, targets: Sequence[Choice], acting: Sequence[str]) -> tuple[int, int]:
    """The half-hexagon steps on show: the cyclist to act and its hexagons first, then the others."""
    course = state.course
    road = [split(c.cell)[0] for c in on_road(state) if c.cell]
    must = [split(str(c.cell))[0] for c in on_road(state) if c.id in acting]
    must += [split(str(ch.target))[0] for ch in targets]
    if not must:  # nobody to act: the front of the race, else the line they wait at or crossed
        must = [max(road)] if road else [course.finish if state.arrivals else course.start]
    lo, hi = max(0, min(must) - 2), min(course.end, max(must) + 2)
    for s in sorted(road, key=lambda s: min(abs(s - lo), abs(s - hi))):
        lo2, hi2 = max(0, min(lo, s - 2)), min(course.end, max(hi, s + 2))
        if (lo2, hi2) != (lo, hi) and _view(geo, (lo2, hi2)).scale >= MIN_SCALE:
            lo, hi = lo2, hi2
    while _view(geo, (lo, hi)).scale >= MAX_SCALE and (lo > 0 or hi < course.end):
        hi, lo = min(course.end, hi + 1), max(0, lo - (1 if hi == course.end or (hi - lo) % 2 else 0))
    return lo, hi


# -- the road ------------------------------------------------------------------------------------


Box = tuple[float, float, float, float]


def _tag(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    fill: RGB,
    ink: RGB = INK,
    taken: Sequence[Box] = (),
) -> None:
    """A rounded label at ``centre``, moved onto the board where its edge would cut it and off the
    other tags and anything in ``taken`` (the wind, the cyclists); left out where no nudge frees it."""
    w = text_length(text, SMALL, bold=True) + 12
    x, y = centre
    box = settle((x - w / 2, y - 15, x + w / 2, y + 15), taken)
    if box is None:
        return
    draw.rounded_rectangle(box, radius=6, fill=fill, outline=INK)
    layout.place("tag", box, text)
    write(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, fill=ink, size=SMALL, bold=True, anchor="mm")


def _bounds(points: list[tuple[float, float]]) -> Box:
    return (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points), max(y for _, y in points))


def _meets(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _across(geo: Geometry, s: float) -> tuple[tuple[float, float], tuple[float, float]]:
    w = geo.course.width
    return geo.centre(s, -0.6), geo.centre(s, w - 0.4)


def _drawn(course: Course, window: tuple[int, int]) -> tuple[int, int]:
    """The half-hexagon steps of the course drawn in full: the window on show and a little more."""
    return max(0, window[0] - 6), min(course.end, window[1] + 6)


def _road(
    draw: ImageDraw.ImageDraw, state: State, geo: Geometry, view: View, window: tuple[int, int], taken: list[Box]
) -> None:
    """The hexagons, lines and signs of the course on show; the signs' tags clear of ``taken``."""
    course = state.course
    first, last = _drawn(course, window)
    for cell in course.cells():
        s, _ = split(cell)
        if not first <= s <= last:
            continue
        terrain = course.terrain_at(s)
        fill = UP if terrain == "up" else DOWN if terrain == "down" else ASPHALT
        if terrain == "level" and course.turning_at(s) is not None:
            fill = TURNING
        if s < course.start or s > course.finish:
            fill = (225, 225, 222)
        draw.polygon([view.px(p) for p in geo.hexagon(cell, 0.97)], fill=fill, outline=LANE_LINE)
    lines: list[tuple[float, RGB, str]] = [
        (course.start - 0.5, INK, pgettext("board tag", "START")),
        (course.finish + 0.5, INK, pgettext("board tag", "FINISH")),
    ]
    bonus, check = pgettext("board tag", "bonus"), pgettext("board tag", "check")
    lines += [(b.at + 0.5, SPEED_LINE if b.kind == "speed" else UPHILL_LINE, bonus) for b in course.bonuses]
    lines += [(at + 0.5, MUTED, check) for at in course.checkpoints]
    for at_s, colour, label in lines:
        if first <= at_s <= last:
            a, b = _across(geo, at_s)
            draw.line([view.px(a), view.px(b)], fill=colour, width=7)
            _tag(draw, view.px(geo.centre(at_s, course.width + 0.4)), label, WHITE, colour, taken)
    for at, kind in course.terrain:  # the speed sign where the terrain changes, in words as well
        if first <= at <= last and at >= course.start:
            speed = TERRAIN_SPEED[kind]
            word = {
                "up": pgettext("board tag", "up {n}", n=speed),
                "down": pgettext("board tag", "down {n}", n=speed),
                "level": pgettext("board tag", "level {n}", n=speed),
            }[kind]
            _tag(draw, view.px(geo.centre(at, -1.2)), word, WHITE, INK, taken)
    for t in course.turnings:
        if first <= t.first <= last:
            outer = -1.2 if t.side == "right" else course.width + 0.2
            word = pgettext("board tag", "turn L") if t.side == "left" else pgettext("board tag", "turn R")
            _tag(draw, view.px(geo.centre(t.first, outer)), word, WHITE, INK, taken)


def _highlight(
    draw: ImageDraw.ImageDraw, state: State, geo: Geometry, view: View, targets: Sequence[Choice]
) -> list[Box]:
    """Each end hexagon on offer: its name as the menu gives it, its hexagons, T tandem, ! falls.
    Returns where their words went (a cyclist's badge keeps off them)."""
    seen: set[str] = set()
    words: list[Box] = []
    for choice in sorted(targets, key=lambda c: c.risky):
        target = str(choice.target)
        if target in seen:
            continue
        seen.add(target)
        ride = choice.shows if isinstance(choice.shows, Ride) else None  # as the rules computed it
        note = str(ride.hexagons) if ride is not None else ""
        note += "!" if choice.risky else tandem_letter() if ride is not None and _in_tandem(state, choice, ride) else ""
        s, lane = split(target)
        hexagon = [view.px(p) for p in geo.hexagon(target, OFFER)]
        centre = view.px(geo.centre(s, lane))
        highlight_square(draw, hexagon, centre, note or "·", choice.risky, choice.short)
        words.append(label_box(hexagon, centre, note or "·", choice.short))
    return words


def _in_tandem(state: State, choice: Choice, ride: Ride) -> bool:
    """Whether the ride on offer uses the tandem's +1 (as the menu says it: the rules' own test, not its words)."""
    cyclist = str(choice.action.get("cyclist"))
    if cyclist not in state.tandem:
        return False
    c = state.cyclist(cyclist)
    return ride.hexagons > speed_range(state, c)[0] + DIAL[c.dial]


def tandem_letter() -> str:
    """T: a move in tandem (the legend says so)."""
    return pgettext("board: tandem", "T")


Spot = tuple[Cyclist, tuple[float, float], Box]  # a cyclist, where it is drawn, its disc's box with its badge


def _spots(state: State, geo: Geometry, view: View, window: tuple[int, int]) -> list[Spot]:
    """Where each cyclist near the part on show is drawn (tags are placed clear of them)."""
    radius = view.scale * 0.4
    lo, hi = window
    out: list[Spot] = []
    for c in on_road(state):
        s, lane = split(str(c.cell))
        if lo - 6 <= s <= hi + 6:
            x, y = view.px(geo.centre(s, lane))
            reach = radius + SMALL * 0.62  # the badge sits on a corner of the disc
            out.append((c, (x, y), (x - reach, y - reach, x + reach, y + reach)))
    return out


def _cyclists(
    draw: ImageDraw.ImageDraw, state: State, spots: list[Spot], words: list[Box]
) -> dict[str, tuple[tuple[float, float], float]]:
    """The cyclists at their spots, each badge at the first corner of its disc clear of the ``words`` of
    the hexagons on offer (upper right first)."""
    places: dict[str, tuple[tuple[float, float], float]] = {}
    r = SMALL * 0.62
    for c, point, box in spots:
        radius = point[0] - box[0] - r
        token(draw, point, radius, c, lying=c.status == LYING)
        if c.status in (LYING, STANDING) or c.id in state.tandem:
            mark = (
                pgettext("board badge: lies fallen", "X")
                if c.status == LYING
                else pgettext("board badge: standing", "S")
                if c.status == STANDING
                else tandem_letter()
            )
            corners = [(point[0] + sx * radius * 0.9, point[1] + sy * radius * 0.9) for sx, sy in BADGE_CORNERS]
            free = [(x, y) for x, y in corners if not any(_meets((x - r, y - r, x + r, y + r), w) for w in words)]
            badge(draw, (free or corners)[0], mark)
        places[c.id] = (point, radius)
    return places


BADGE_CORNERS = ((1, -1), (-1, -1), (1, 1), (-1, 1))  # upper right, upper left, lower right, lower left


def token(draw: ImageDraw.ImageDraw, point: tuple[float, float], radius: float, c: Cyclist, lying: bool) -> None:
    """A cyclist: a disc in its team's colour with its number (lying: a flat bar)."""
    x, y = point
    colour = PELOTON_TEAM.get(c.team, MUTED)
    if lying:
        polygon(
            draw,
            [
                (x - radius, y - radius * 0.55),
                (x + radius, y - radius * 0.55),
                (x + radius, y + radius * 0.55),
                (x - radius, y + radius * 0.55),
            ],
            colour,
            INK,
            2,
        )
    else:
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=INK, width=2)
    layout.place_disc("disc", point, radius, c.id)
    size: int = TEXT if radius >= 22 else SMALL - 4
    write(draw, point, c.id, fill=TEAM_TEXT.get(c.team, INK), size=size, bold=True, anchor="mm")


def _panel_token(draw: ImageDraw.ImageDraw, point: tuple[float, float], c: Cyclist, lying: bool) -> None:
    """A cyclist's token in the panel. On a palette canvas its number cannot be blended there (a
    two-figure number reaches the disc's outline): the token is drawn on the panel's colour in RGB,
    mapped and pasted, kept by what it shows and where it falls within a pixel."""
    image = draw._image  # the image the draw was made on (Pillow's own attribute)
    if image.mode != "P":
        token(draw, point, PANEL_TOKEN, c, lying)
        return
    left, top = math.floor(point[0]) - PANEL_TOKEN - 3, math.floor(point[1]) - PANEL_TOKEN - 3
    inside = (point[0] - left, point[1] - top)
    key = (c.id, c.team, lying, inside)
    layout.place_disc("disc", point, PANEL_TOKEN, c.id)
    patch, drawn = _PANEL_TOKENS.get(key, lambda: _token_patch(inside, c, lying))
    image.paste(patch, (left, top), drawn)  # only its own pixels: the patches of two rows overlap


PANEL_TOKEN = 15  # a token's radius in the panel
# a token mapped onto the palette, and where it drew (pasted through it): a few dozen cyclists at a
# few heights each
_PANEL_TOKENS: LruCache[tuple[Image.Image, Image.Image]] = LruCache(256)


def _token_patch(inside: tuple[float, float], c: Cyclist, lying: bool) -> tuple[Image.Image, Image.Image]:
    side = 2 * PANEL_TOKEN + 8
    ground = Image.new("RGB", (side, side), PANEL)
    patch = ground.copy()
    token(ImageDraw.Draw(patch), inside, PANEL_TOKEN, c, lying)
    red, green, blue = ImageChops.difference(patch, ground).split()
    drawn = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda v: 255 if v else 0)
    return mapped(patch), drawn


# -- around the road -----------------------------------------------------------------------------


def _header(draw: ImageDraw.ImageDraw, state: State, title: str, acting: tuple[str, ...]) -> None:
    draw.rectangle(HEADER, fill=PANEL)
    layout.place("cover", HEADER, "header")
    draw.line((0, HEADER[3] - 1, WIDTH, HEADER[3] - 1), fill=LANE_LINE, width=2)
    name = (title or state.course.name).split("/")[-1]
    decision = pending(state)
    names = {p.id: seat_name(p.name) for p in state.setup.players}
    if decision is not None:
        who = names.get(decision.player, decision.player)
        number = acting[0] if acting else None
        text = _("to act: {who} No. {number}", who=who, number=number) if number else _("to act: {who}", who=who)
    else:
        winner = state.arrivals[0] if state.arrivals else None
        owner = names.get(state.player_of(winner), "") if winner else ""
        text = _("winner: No. {number} {name}", number=winner, name=owner).rstrip() if winner else _("race over")
    header_texts(draw, _("{title} · move {number}", title=name, number=state.round), text)


WIND = (56, BOARD[1] + 50)  # the wind disc's centre: its tag below ("wind 1") clear of the left edge


def wind_box(state: State) -> Box:
    """What the wind covers in the board's top-left corner: its disc, and its card's tag below."""
    x, y = WIND
    return (x - 36, y - 36, x + 36, y + (36 if state.wind == 0 else 67))


def _wind(draw: ImageDraw.ImageDraw, state: State) -> None:
    """The wind in the board's top-left corner: an arrow blowing the way the wind blows, and its card."""
    x, y = WIND
    layout.place("cover", wind_box(state), "wind")
    draw.ellipse([x - 34, y - 34, x + 34, y + 34], fill=PANEL, outline=INK, width=2)
    layout.place_disc("disc", (x, y), 34, "wind")
    if state.wind == 0:
        calm = pgettext("board: no wind", "calm")
        size = SMALL
        while size > SMALL - 6 and text_length(calm, size, bold=True) > 64:  # inside the disc, in any language
            size -= 2
        write(draw, (x, y), calm, fill=INK, size=size, bold=True, anchor="mm")
        return
    a = math.radians(WIND_FROM[state.wind])
    tail = (x + 24 * math.cos(a), y - 24 * math.sin(a))
    head = (x - 24 * math.cos(a), y + 24 * math.sin(a))
    draw.line([tail, head], fill=INK, width=5)
    for side in (150, -150):
        b = a + math.radians(side)
        draw.line([head, (head[0] + 14 * math.cos(b), head[1] - 14 * math.sin(b))], fill=INK, width=5)
    _tag(draw, (x, y + 50), pgettext("board tag", "wind {n}", n=state.wind), WHITE)


def _strip(draw: ImageDraw.ImageDraw, state: State, window: tuple[int, int]) -> None:
    """The whole course: terrain, the part shown above (framed), the cyclists on the road."""
    course = state.course
    x0, y0, x1, y1 = STRIP
    draw.rectangle(STRIP, fill=(222, 226, 218))
    layout.place("cover", STRIP, "strip")
    left, right = x0 + 92, x1 - 110

    def xpos(s: float) -> float:
        return left + (right - left) * s / max(course.end, 1)

    for s in range(course.end + 1):
        terrain = course.terrain_at(s)
        fill = UP if terrain == "up" else DOWN if terrain == "down" else ASPHALT
        draw.rectangle((xpos(s), y0 + 20, xpos(s + 1), y0 + 32), fill=fill)
    draw.rectangle((xpos(window[0]), y0 + 4, xpos(window[1] + 1), y1 - 4), outline=INK, width=3)
    draw.line((xpos(course.finish), y0 + 4, xpos(course.finish), y1 - 4), fill=INK, width=4)
    route, finish = pgettext("board strip", "course"), pgettext("board strip", "finish")
    write(draw, (x0 + 10, (y0 + y1) / 2), route, fill=INK, size=SMALL, bold=True, anchor="lm")
    write(draw, (x1 - 100, (y0 + y1) / 2), finish, fill=INK, size=SMALL, bold=True, anchor="lm")
    stack: dict[int, int] = {}
    for c in on_road(state):
        s = split(str(c.cell))[0] // 2
        level = stack.get(s, 0)
        stack[s] = level + 1
        x, y = xpos(s * 2), y0 + 12 - min(level, 2) * 5
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=PELOTON_TEAM.get(c.team, MUTED), outline=INK)


def _panel(draw: ImageDraw.ImageDraw, state: State, acting: tuple[str, ...], legend: Sequence[str]) -> None:
    """Every cyclist: number, dial (+acceleration), energy and state; teams by number; the legend."""
    x0, y0, x1, y1 = PANEL_BOX
    draw.rectangle(PANEL_BOX, fill=PANEL)
    layout.place("cover", PANEL_BOX, "panel")
    draw.line((x0, y0, x1, y0), fill=LANE_LINE, width=2)
    heading = _clip(_("No. · dial · energy · state"), bold=True)
    write(draw, (x0 + 10, y0 + 6), heading, fill=MUTED, size=SMALL, bold=True, over=PANEL)
    cyclists = sorted(state.cyclists, key=lambda c: int(c.id) if c.id.isdigit() else 99)
    columns = 4 if len(cyclists) > 12 else 3
    per = max(1, math.ceil(len(cyclists) / columns))
    row_h = min(36, (y1 - y0 - 128) / per)
    width = (x1 - x0 - 10) / columns
    for i, c in enumerate(cyclists):
        x = x0 + 10 + (i // per) * width
        y = y0 + 38 + (i % per) * row_h + row_h / 2
        _panel_token(draw, (x + 16, y), c, lying=c.status == LYING)
        state_word = {
            LYING: pgettext("board cyclist", "fell"),
            STANDING: pgettext("board cyclist", "up"),
            WAITING: pgettext("board cyclist", "start {n}", n=c.start_round),
            FINISHED: f"#{state.arrivals.index(c.id) + 1}"
            if c.id in state.arrivals
            else pgettext("board cyclist", "in"),
        }.get(c.status, tandem_letter() if c.id in state.tandem else "")
        text = f"+{DIAL[c.dial]} {c.energy:>2} {state_word}".rstrip()
        ink = ACT_TEXT if c.id in acting else INK
        write(draw, (x + 38, y), text, fill=ink, size=SMALL, bold=c.id in acting, anchor="lm", over=PANEL)
    teams = [p.team for p in state.setup.players]
    key = " · ".join(f"{3 * TEAMS.index(t) + 1}-{3 * TEAMS.index(t) + 3} {words.team(t)}" for t in teams if t in TEAMS)
    write(draw, (x0 + 10, y1 - 86), _last_move(state), fill=INK, size=SMALL, over=PANEL)
    write(draw, (x0 + 10, y1 - 58), _clip(_("Teams: {list}", list=key)), fill=INK, size=SMALL, over=PANEL)
    text = (
        " · ".join(legend)
        if legend
        else _("A, B …: where the cyclist to act may end (hexagons ridden; T tandem, ! falls)")
    )
    write(draw, (x0 + 10, y1 - 30), _clip(text), fill=MUTED, size=SMALL, over=PANEL)


def _last_move(state: State) -> str:
    """The latest rides and what came of them, in one line (the newest kept when it is too long)."""
    text = ""
    for line in _told_newest_first(state):  # only as far back as the line has room: a race has hundreds
        longer = f"{line}; {text}" if text else line
        if text_length(_last(f"… {longer}"), SMALL) > WIDTH - 20:
            if not text:  # the newest ride itself has no room
                layout.lost("dropped", line)
            return _clip(_last(f"… {text}"))
        text = longer
    return _clip(_last(text or "-"))


def _told_newest_first(state: State) -> Iterator[str]:
    """The race's rides and what came of them in words, newest first, each told when asked for."""
    for e in reversed(state.events):
        if e.type not in ("dial", "card", "wind") and (told := describe(state, e)):
            yield re.sub(r"No\. (\d+) \([a-z]+\)", r"No. \1", told)


def _last(moves: str) -> str:
    return _("Last: {moves}", moves=moves)


def _trails(state: State) -> dict[str, list[str]]:
    """Cyclist -> the hexagons from where it was to where it is, for the rides of the latest move with
    rides: along the road, strip by strip, so a trail follows the course through its turnings."""
    rides = [e for e in state.events if e.type == "ride"]
    if not rides:
        return {}
    latest = rides[-1].turn
    out: dict[str, list[str]] = {}
    was: dict[str, str] = {}
    for e in rides:
        cid, to = str(e.data.get("cyclist")), str(e.data.get("to"))
        if e.turn == latest and cid in was and state.course.has(was[cid]) and state.course.has(to):
            out[cid] = ridden(was[cid], to)
        was[cid] = to
    return out


def ridden(start: str, end: str) -> list[str]:
    """A way along the road from ``start`` to ``end``, hexagon by hexagon (a step straight ahead is two
    half-hexagon steps, a step crosswise one, changing lane), the crosswise steps spread evenly; the
    two ends alone when ``end`` is not ahead."""
    (s0, l0), (s1, l1) = split(start), split(end)
    lanes = abs(l1 - l0)
    if s1 - s0 < lanes or (s1 - s0 - lanes) % 2:
        return [start, end]
    steps = lanes + (s1 - s0 - lanes) // 2
    cells, s, lane = [start], s0, l0
    for k in range(1, steps + 1):
        cross = round(k * lanes / steps) - round((k - 1) * lanes / steps)
        s, lane = (s + 1, lane + (1 if l1 > l0 else -1)) if cross else (s + 2, lane)
        cells.append(make(s, lane))
    return cells


def _clip(text: str, width: float = WIDTH - 20, size: int = SMALL, bold: bool = False) -> str:
    return clipped(text, width, size, bold)


# a league's general classification: a table in the game's own words
paint_standings = table_painter("peloton")
