"""Around Hell of the North's road (``renderer/hell_of_the_north/painter.py``): the header (turn,
phase, who acts), the whole-route strip (its weather markers drawn by ``hell_of_the_north_weather``),
and the panel (support-rider markers in order with each team's diary, last turn in words, the legend)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PIL import ImageDraw

from renderer import layout, words
from renderer.fit import abbreviated, clipped, largest
from renderer.heading import header_texts
from renderer.hell_of_the_north import weather
from renderer.palette import (
    ACT_TEXT,
    COBBLE_DOT,
    HEIGHT,
    INK,
    LANE_LINE,
    MUTED,
    PANEL,
    PELOTON,
    READABLE,
    SMALL,
    TEAM,
    TEAM_TEXT,
    TERRAIN,
    TEXT,
    WIDTH,
    rider_label,
    team_of,
)
from renderer.pieces import rider_shape
from renderer.text import text_length, write
from renderer.trails import MOVES
from rules.hell_of_the_north.engine import pending
from rules.hell_of_the_north.model import Rider, State
from rules.hell_of_the_north.narrate import WEATHER_WORDS, summary
from rules.hell_of_the_north.order import arrival_order
from rules.i18n import _, pgettext
from rules.leader1.game_kit import piece_name
from rules.shown import seat_name

HEADER = (0, 0, WIDTH, 52)
STRIP = (0, 452, WIDTH, 508)
# The strip top to bottom: the weather markers' tiles (hell_of_the_north_weather), the riders on the
# strip's light ground (a black rider shows there, not on a black downhill; more riders on one row
# stand above the first), the route's terrain, then its cobbles, the peloton over them.
MARKERS = (STRIP[1] + 3, STRIP[1] + 31)  # top, bottom
RIDERS = STRIP[1] + 37  # centre of a row's first rider
BAR = (STRIP[1] + 44, STRIP[1] + 51, STRIP[1] + 55)  # terrain from, to; cobbles to
PANEL_BOX = (0, STRIP[3], WIDTH, HEIGHT)


def _names(state: State) -> dict[str, str]:
    return {p.id: seat_name(p.name) for p in state.setup.players}


def header(draw: ImageDraw.ImageDraw, state: State, title: str, acting: tuple[str, ...]) -> None:
    draw.rectangle(HEADER, fill=PANEL)
    layout.place("cover", HEADER, "header")
    draw.line((0, HEADER[3] - 1, WIDTH, HEADER[3] - 1), fill=LANE_LINE, width=2)
    name = (title or state.setup.track_name).split("/")[-1]
    phase = words.phase("finished" if state.finished else state.phase)
    decision = pending(state)
    if decision is not None:
        pieces = " ".join(rider_label(r) for r in acting[:3])
        who = _names(state).get(decision.player, decision.player) + (f" {pieces}" if pieces else "")
        text = _("to act: {who}", who=who)
    else:
        arrived = arrival_order(state)
        if arrived:
            rider, owner = rider_label(arrived[0].id), _names(state).get(arrived[0].player, "")
            text = _("winner: {label} {name}", label=rider, name=owner).strip()
        else:
            text = pgettext("board: the race has ended", "over")
    heading = _("{title} · turn {number} · {phase}", title=name, number=state.turn, phase=phase)
    header_texts(draw, heading, text)


def strip(draw: ImageDraw.ImageDraw, state: State, window: tuple[int, int]) -> None:
    """The whole route: the weather markers at their hexagons, the riders, the terrain and cobbled
    stretches with the peloton on them, the part shown above framed."""
    _, y0, x1, y1 = STRIP
    draw.rectangle(STRIP, fill=(222, 226, 218))
    layout.place("cover", STRIP, "strip")
    xpos = strip_x(state)
    road = state.setup.course.road
    for row in range(road.track.row_count):
        draw.rectangle((xpos(row), BAR[0], xpos(row + 1), BAR[1]), fill=TERRAIN[road.terrain(row)])
        if state.setup.course.cobbled(row):
            draw.rectangle((xpos(row), BAR[1], xpos(row + 1), BAR[2]), fill=COBBLE_DOT)
    draw.rectangle((xpos(window[0]), y0 + 1, xpos(window[1] + 1), y1 - 1), outline=INK, width=3)
    draw.line((xpos(road.finish), y0 + 1, xpos(road.finish), y1 - 1), fill=INK, width=4)
    route, finish = pgettext("board strip", "route"), pgettext("board strip", "finish")
    write(draw, (STRIP[0] + 10, (y0 + y1) / 2), route, fill=INK, size=SMALL, bold=True, anchor="lm")
    write(draw, (x1 - 100, (y0 + y1) / 2), finish, fill=INK, size=SMALL, bold=True, anchor="lm")
    weather.markers(draw, state, xpos, *MARKERS)
    if state.peloton_arrived_turn is None:
        box = (xpos(state.peloton - 1), BAR[0] + 2, xpos(state.peloton + 1), BAR[2])
        draw.rectangle(box, fill=PELOTON, outline=INK)
    stack: dict[int, int] = {}
    for r in state.riders:
        if r.row is None or r.status in ("peloton", "eliminated", "finished"):
            continue
        level = stack.get(r.row, 0)
        stack[r.row] = level + 1
        centre = (xpos(r.row), RIDERS - level * 6)
        rider_shape(draw, centre, 7, r.kind, TEAM.get(team_of(r.id), MUTED), width=1)


def strip_x(state: State) -> Callable[[float], float]:
    """Where the strip draws the left edge of a row of the route (the row's right edge: ``row + 1``)."""
    left, right = STRIP[0] + 92, STRIP[2] - 110
    rows = state.setup.road.track.row_count
    return lambda row: left + (right - left) * row / max(rows - 1, 1)


def panel(draw: ImageDraw.ImageDraw, state: State, acting: tuple[str, ...], legend: Sequence[str]) -> None:
    """The support-rider markers in order with each team's diary beside its marker, then the legend."""
    x0, y0, x1, y1 = PANEL_BOX
    draw.rectangle(PANEL_BOX, fill=PANEL)
    layout.place("cover", PANEL_BOX, "panel")
    draw.line((x0, y0, x1, y0), fill=LANE_LINE, width=2)
    write(
        draw,
        (x0 + 10, y0 + 3),
        _clip(_("Markers · team · pursuits left · riders: energy, quality, risks"), WIDTH - 20, SMALL, bold=True),
        fill=MUTED,
        size=SMALL,
        bold=True,
        over=PANEL,
    )
    players = sorted(state.setup.players, key=lambda p: state.order.index(p.id) if p.id in state.order else 9)
    # a team's two lines take 50 px: less, and its state line touches the next team's energy line
    row_h = min(54, (y1 - y0 - 92) / max(1, len(players)))
    for i, player in enumerate(players):
        y = y0 + (36 if row_h >= 54 else 33) + i * row_h + row_h / 2
        team = player.team
        colour = TEAM.get(team, MUTED)
        draw.rectangle((x0 + 10, y - 19, x0 + 50, y + 19), fill=colour, outline=INK, width=2)
        rank, name = str(i + 1), _clip(seat_name(player.name), 158, TEXT, bold=True)
        write(draw, (x0 + 30, y), rank, fill=TEAM_TEXT.get(team, INK), size=TEXT, bold=True, anchor="mm", over=colour)
        write(draw, (x0 + 60, y), name, fill=INK, size=TEXT, bold=True, anchor="lm", over=PANEL)
        pursuits = f"{state.pursuits_left(player.id)}"
        write(draw, (x0 + 230, y), pursuits, fill=INK, size=TEXT, bold=True, anchor="mm", over=PANEL)
        for j, rid in enumerate(player.rider_ids()):
            if state.has_rider(rid):
                _diary_entry(draw, state.rider(rid), (x0 + 270 + j * 230, y), rid in acting)
    told, size = _told(last_turn(state) or ["-"])
    write(draw, (x0 + 10, y1 - 58), told, fill=INK, size=size, over=PANEL)
    line, size = _legend_fitted(list(legend))
    # descenders inside
    write(draw, (x0 + 10, y1 - 30), line, fill=MUTED, size=size, over=PANEL)


LEGEND_FLOOR = 22  # the least size of the legend's line (secondary, muted: 9 px at 400 wide)


def _told(events: list[str]) -> tuple[str, int]:
    """ "Last turn:" and the latest events whole on one line at READABLE (the earlier ones left out when
    they do not fit); the newest alone when it is that long, a weather marker then by its short name."""
    room, label = WIDTH - 20, _("Last turn:")
    line = ""
    for k, event in enumerate(reversed(events)):
        longer = f"{event} {line}".strip()
        if text_length(f"{label} {longer}", READABLE) > room:
            if line:
                for earlier in events[: len(events) - k]:
                    layout.lost("earlier", earlier)
                return f"{label} {line}", READABLE
            break
        line = longer
    else:
        return f"{label} {line}", READABLE
    for earlier in events[:-1]:
        layout.lost("earlier", earlier)
    newest = f"{label} {events[-1]}"
    if text_length(newest, READABLE) > room:  # weather told by its short name (the strip shows its marker)
        for marker, full in WEATHER_WORDS.items():
            newest = newest.replace(abbreviated(_(full)), weather_short(marker))
    return newest if text_length(newest, READABLE) <= room else clipped(newest, room, READABLE), READABLE


def _legend_fitted(legend: list[str]) -> tuple[str, int]:
    """The legend's line (the race's alliances, or the board's marks): at SMALL, smaller down to
    LEGEND_FLOOR, the marks' short wording from the catalog when even that is too long."""
    room = WIDTH - 20
    for line in [" · ".join(legend)] if legend else [_legend_line(), _legend_line(short=True)]:
        size = largest(line, room, SMALL, LEGEND_FLOOR)
        if size is not None:
            return line, size
    return clipped(line, room, LEGEND_FLOOR), LEGEND_FLOOR


def last_turn(state: State) -> list[str]:
    """Last turn in words, riders by their letters (WC: white climber)."""
    moves = [e for e in state.events if e.type in MOVES or e.type in ("fell", "punctured", "arrived", "cracked")]
    if not moves:
        return []
    lines = summary([e for e in state.events if e.turn == moves[-1].turn and e.type != "rolled"])
    out = []
    for line in lines:
        for r in state.riders:  # as the rules name it (in the language of the moment), then in English
            line = line.replace(piece_name(state, r.id), rider_label(r.id))
            line = line.replace(f"{r.id.split('-')[0]} {r.kind}", rider_label(r.id))
        for p in state.setup.players:
            line = re.sub(rf"\b{re.escape(p.id)}\b", seat_name(p.name), line)
        out.append(abbreviated(line) + ";")
    out[-1] = out[-1].rstrip(";")
    return out


def _diary_entry(draw: ImageDraw.ImageDraw, rider: Rider, at: tuple[float, float], acting: bool) -> None:
    x, y = at
    rider_shape(draw, (x + 14, y), 14, rider.kind, TEAM.get(team_of(rider.id), MUTED))
    if acting:
        draw.ellipse((x - 6, y - 20, x + 34, y + 20), outline=ACT_TEXT, width=3)
    if rider.status == "eliminated":  # Hell of the North says it in full (Leader 1's table: "out")
        status = pgettext("board", "eliminated")
    else:
        status = words.rider_state(rider.part or "peloton" if rider.status == "peloton" else rider.status)
    risks = "x" * min(rider.risks, 3)
    quality = words.quality(rider.quality or "")
    text = f"{rider.energy} {quality} {risks}".rstrip()
    energy = _clip(text, 192, READABLE, bold=True)
    write(draw, (x + 34, y - 13), energy, fill=INK, size=READABLE, bold=True, anchor="lm", over=PANEL)
    # the state line is the legend's size: two READABLE lines of DejaVu Sans (its descenders) need more
    # than the 50 px a team has with four teams
    kept = _clip(_("{state} · kept {count}", state=status, count=len(rider.kept)), 192, SMALL)
    write(draw, (x + 34, y + 12), kept, fill=MUTED, size=SMALL, anchor="lm", over=PANEL)


def weather_short(marker: str) -> str:
    """A weather marker's short name, for a board's one line of the last turn."""
    short = {
        "rain": lambda: pgettext("weather, short", "rain"),
        "heat": lambda: pgettext("weather, short", "heat"),
        "headwind-1": lambda: pgettext("weather, short", "headwind 1"),
        "headwind-2": lambda: pgettext("weather, short", "headwind 2"),
        "tailwind-1": lambda: pgettext("weather, short", "tailwind 1"),
        "tailwind-2": lambda: pgettext("weather, short", "tailwind 2"),
    }.get(marker)
    return short() if short is not None else marker


def _legend_line(short: bool = False) -> str:
    badges = " ".join(
        (
            _("{letter} dropped", letter=words.badge("dropped")),
            _("{letter} flat", letter=words.badge("punctured")),
            _("{letter} fell", letter=words.badge("fallen")),
        )
    )
    squares = (
        pgettext("board legend, short", "34.0: row, lane") if short else _("34.0: row 34 (top), lane 0 (0 at the top)")
    )
    return " · ".join((squares, _("! risky"), _("dotted: cobbles"), badges))


def _clip(text: str, width: float, size: int = SMALL, bold: bool = False) -> str:
    return clipped(text, width, size, bold)
