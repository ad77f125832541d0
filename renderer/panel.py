"""The side panel: header, classification table, last events, alliances and legend."""

from __future__ import annotations

from PIL import ImageDraw

from renderer.palette import (
    INK,
    MUTED,
    PANEL,
    RIDER_RING,
    TEAM,
    TEAM_TEXT,
    TERRAIN,
    TERRAIN_NAME,
    rider_label,
)
from renderer.text import text_bbox, text_length, write
from rules.leader1.engine import pending
from rules.leader1.model import State
from rules.leader1.narrate import summary
from rules.leader1.order import arrival_order, classification

STATUS_TEXT = {
    "breakaway": "breakaway",
    "peloton": "peloton",
    "dropped": "dropped",
    "fallen": "fallen",
    "punctured": "punctured",
    "finished": "arrived",
    "eliminated": "eliminated",
}


def rider_token(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, rider_id: str, kind: str, size: int = 14
) -> None:
    """A jersey-coloured disc with a base ring in the type's colour and a two-letter label."""
    team = rider_id.split("-")[0]
    x, y = centre
    ring = max(3, round(radius * 0.28))
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=RIDER_RING.get(kind, MUTED), outline=INK)
    inner = radius - ring
    draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=TEAM.get(team, (200, 200, 200)), outline=INK)
    label = rider_label(rider_id)
    x0, y0, x1, y1 = text_bbox(label, size)
    write(draw, (x - (x1 - x0) / 2 - x0, y - (y1 - y0) / 2 - y0), label, fill=TEAM_TEXT.get(team, INK), size=size)


def draw_panel(
    draw: ImageDraw.ImageDraw,
    state: State,
    box: tuple[int, int, int, int],
    title: str,
    alliances: list[str] | None = None,
) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=PANEL)
    draw.line((x0, y0, x0, y1), fill=(200, 200, 200), width=2)
    x = x0 + 16
    y = y0 + 12
    decision = pending(state)
    write(draw, (x, y), title, fill=INK, size=20)
    y += 28
    phase = "finished" if state.finished else state.phase
    write(draw, (x, y), f"Turn {state.turn} · {phase} · peloton at row {state.peloton}", fill=INK, size=15)
    y += 22
    names = {p.id: p.name for p in state.setup.players}
    if decision is not None:
        who = names.get(decision.player, decision.player) + (f" ({decision.rider})" if decision.rider else "")
        write(draw, (x, y), f"To act: {who}", fill=(0, 90, 160), size=15)
    else:
        arrived = arrival_order(state)
        write(draw, (x, y), f"Winner: {arrived[0].id}" if arrived else "Race over", fill=(0, 90, 160), size=15)
    y += 28
    columns = (
        ("#", 0),
        ("rider", 46),
        ("player", 158),
        ("status", 222),
        ("energy", 306),
        ("kept", 360),
        ("risks", 398),
    )
    for name, dx in columns:
        write(draw, (x + dx, y), name, fill=MUTED, size=14)
    y += 20
    order = [*arrival_order(state), *classification(state), *[r for r in state.riders if r.status == "eliminated"]]
    for rank, r in enumerate(order, start=1):
        rider_dot(draw, (x + 32, y + 9), r.id, r.kind)
        cells = (
            str(rank),
            r.id,
            names.get(r.player, r.player)[:8],
            STATUS_TEXT[r.status],
            str(r.energy),
            str(len(r.kept)),
            str(r.risks),
        )
        for (_, dx), text in zip(columns, cells, strict=True):
            if text:
                write(draw, (x + dx, y + 1), text, fill=INK, size=14)
        y += 21
    y += 8
    write(draw, (x, y), "Last turn", fill=MUTED, size=14)
    y += 19
    last = [e for e in state.events if e.turn == (state.turn if state.finished else state.turn - 1)]
    current = [e for e in state.events if e.turn == state.turn and not state.finished]
    for line in (summary(current) or summary(last))[-7:]:
        write(draw, (x, y), _clip(draw, line, x1 - x - 10), fill=INK, size=14)
        y += 18
    if alliances:
        y += 6
        write(draw, (x, y), "Alliances", fill=MUTED, size=14)
        y += 19
        for line in alliances[:3]:
            write(draw, (x, y), _clip(draw, line, x1 - x - 10), fill=INK, size=14)
            y += 18
    _legend(draw, x, max(y + 10, y1 - 118), x1)


def rider_dot(draw: ImageDraw.ImageDraw, centre: tuple[float, float], rider_id: str, kind: str) -> None:
    """A small jersey disc with its base ring, beside the rider's written id."""
    x, y = centre
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=RIDER_RING.get(kind, MUTED), outline=INK)
    draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=TEAM.get(rider_id.split("-")[0], (200, 200, 200)), outline=INK)


def _clip(draw: ImageDraw.ImageDraw, text: str, width: int) -> str:
    while text and text_length(text, 14) > width:
        text = text[:-2] + "…"
    return text


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int, x1: int) -> None:
    write(draw, (x, y), "Legend", fill=MUTED, size=14)
    y += 19
    dx = 0
    for key, colour in TERRAIN.items():
        draw.rectangle((x + dx, y + 3, x + dx + 18, y + 13), fill=colour)
        write(draw, (x + dx + 22, y), TERRAIN_NAME[key], fill=INK, size=14)
        dx += 30 + int(text_length(TERRAIN_NAME[key], 14))
        if dx > x1 - x - 120:
            dx, y = 0, y + 19
    y += 21
    dx = 0
    for kind, colour in RIDER_RING.items():
        draw.ellipse((x + dx, y + 1, x + dx + 14, y + 15), fill=colour, outline=INK)
        write(draw, (x + dx + 18, y), f"{kind} ({kind[0].upper()})", fill=INK, size=14)
        dx += 122
    y += 21
    write(draw, (x, y), "dark: fall squares · dots: peloton line · boxed numbers: milestones", fill=MUTED, size=14)
