"""The board image of a Formula Dé Mini race: the circuit, its corners and flags, the pit lane,
the grid and the line, the cars with their number and gear, and a panel."""

from __future__ import annotations

import math
from collections.abc import Hashable

from PIL import Image, ImageDraw

from renderer.cache import LruCache, track_key
from renderer.camera import Camera, row_boxes, rows_bbox
from renderer.encode import png_bytes
from renderer.palette import ASPHALT, BACKGROUND, HIGHLIGHT_RISK, HIGHLIGHT_SAFE, INK, LANE_LINE, MUTED, PANEL
from renderer.text import text_length, write
from rules.formula_de_mini.circuit import Circuit
from rules.formula_de_mini.engine import pending
from rules.formula_de_mini.model import State
from rules.formula_de_mini.moves import MoveOption

WIDTH, HEIGHT = 1500, 900
BOARD_W = 1040
CAR_COLOUR = {"red": (213, 60, 40), "blue": (0, 114, 178), "green": (0, 158, 115), "yellow": (240, 228, 66)}
CAR_TEXT = {"red": (255, 255, 255), "blue": (255, 255, 255), "green": (255, 255, 255), "yellow": INK}
KERB = (213, 60, 40)
PIT = (170, 170, 165)
FLAG = (250, 215, 40)
STATUS = {"racing": "racing", "pits": "in the pits", "spun": "spun", "finished": "finished", "eliminated": "eliminated"}
_LAYERS: LruCache[tuple[Image.Image, Camera]] = LruCache(8)


def circuit_key(circuit: Circuit) -> Hashable:
    """The circuit's content, everything its static picture is drawn from."""
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


def _layer(circuit: Circuit) -> tuple[Image.Image, Camera]:
    """The circuit drawn once (cached by content; the picture is never changed once cached)."""
    return _LAYERS.get(circuit_key(circuit), lambda: _draw_layer(circuit))


def _draw_layer(circuit: Circuit) -> tuple[Image.Image, Camera]:
    track = circuit.track
    box = rows_bbox(row_boxes(track), 0, track.row_count - 1, margin=3.0)
    scale = min(BOARD_W / (box[2] - box[0]), HEIGHT / (box[3] - box[1]))
    camera = Camera(
        scale, box[0], box[3], ox=(BOARD_W - (box[2] - box[0]) * scale) / 2, oy=(HEIGHT - (box[3] - box[1]) * scale) / 2
    )
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    pit_lane = circuit.lanes
    for cell in track.cells.values():
        fill = PIT if cell.lane == pit_lane else ASPHALT
        outline = KERB if cell.attrs.get("corner") is not None else LANE_LINE
        draw.polygon(
            [camera.px(p) for p in cell.polygon], fill=fill, outline=outline, width=2 if outline == KERB else 1
        )
    teams = ("red", "blue", "green", "yellow")
    for team, stand in zip(teams, circuit.stands, strict=False):
        draw.polygon([camera.px(p) for p in track.cells[stand].polygon], outline=CAR_COLOUR[team], width=4)
    for slot, cid in enumerate(circuit.grid, start=1):
        x, y = camera.px(track.cells[cid].centre)
        write(draw, (x - 6, y - 8), str(slot), fill=MUTED, size=14)
    first = [track.cell(0, lane) for lane in range(circuit.lanes)]
    if all(first):
        a, b = first[0].polygon[0], first[-1].polygon[1]  # type: ignore[union-attr]
        (x0, y0), (x1, y1) = camera.px(a), camera.px(b)
        for i in range(8):
            t0, t1 = i / 8, (i + 1) / 8
            draw.line(
                (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
                fill=INK if i % 2 == 0 else (255, 255, 255),
                width=5,
            )
        w = text_length("FINISH", 14)  # on the side away from the pit lane
        write(draw, (x0 + (x0 - x1) * 0.15 - w / 2, y0 + (y0 - y1) * 0.15 - 8), "FINISH", fill=INK, size=14)
    if circuit.straddle:
        draw.polygon([camera.px(p) for p in track.cells[circuit.straddle].polygon], outline=INK, width=3)
    for corner in circuit.corners:
        row = corner.first_row
        cx, cy = track.centres[row]
        heading = track.headings[row]
        side = track.lanes / 2 + 1.6
        px, py = camera.px((cx - math.sin(heading) * side, cy + math.cos(heading) * side))
        text = f"{corner.stops} stop{'s' if corner.stops > 1 else ''} · L{corner.longest} C{corner.shortest}"
        w = text_length(text, 14)
        draw.rounded_rectangle((px - w / 2 - 6, py - 11, px + w / 2 + 6, py + 11), radius=5, fill=FLAG, outline=INK)
        write(draw, (px - w / 2, py - 9), text, fill=INK, size=14)
    return image, camera


def render_circuit(state: State, *, highlight: list[MoveOption] | None = None, title: str | None = None) -> bytes:
    circuit = state.setup.circuit
    layer, camera = _layer(circuit)
    image = layer.copy()
    draw = ImageDraw.Draw(image)
    track = circuit.track
    if highlight:
        seen: set[str] = set()
        for o in sorted(highlight, key=lambda o: (o.overshoot + o.blocked, o.brake)):
            if o.to in seen:
                continue
            seen.add(o.to)
            risky = o.overshoot or o.blocked
            colour = HIGHLIGHT_RISK if risky else HIGHLIGHT_SAFE
            draw.polygon([camera.px(p) for p in track.cells[o.to].polygon], outline=colour, width=4)
            cost = o.brake + o.overshoot + o.blocked
            label = f"-{cost}" if cost else "0"
            cx, cy = camera.px(track.cells[o.to].centre)
            w = text_length(label, 14)
            draw.rectangle((cx - w / 2 - 3, cy - 9, cx + w / 2 + 3, cy + 9), fill=colour)
            write(draw, (cx - w / 2, cy - 8), label, fill=(255, 255, 255), size=14)
    radius = max(9.0, camera.scale * 0.42)
    for car in state.cars:
        if car.status in ("finished", "eliminated"):
            continue
        x, y = camera.px(track.cells[car.cell].centre)
        draw.rounded_rectangle(
            (x - radius, y - radius * 0.8, x + radius, y + radius * 0.8),
            radius=5,
            fill=CAR_COLOUR[car.team],
            outline=INK,
            width=2,
        )
        label = f"{car.id.split('-')[1]}·{car.gear}"
        w = text_length(label, 14)
        write(draw, (x - w / 2, y - 8), label, fill=CAR_TEXT[car.team], size=14)
        if car.status == "spun":
            write(draw, (x + radius, y - 8), "spun", fill=KERB, size=14)
    _panel(draw, state, title or state.setup.track_name)
    return png_bytes(image)


def _panel(draw: ImageDraw.ImageDraw, state: State, title: str) -> None:
    x0 = BOARD_W
    draw.rectangle((x0, 0, WIDTH - 1, HEIGHT - 1), fill=PANEL)
    x, y = x0 + 16, 12
    write(draw, (x, y), title, fill=INK, size=20)
    y += 28
    decision = pending(state)
    names = {p.id: p.name for p in state.setup.players}
    write(draw, (x, y), f"Round {state.turn} · {state.setup.laps} laps", fill=INK, size=15)
    y += 22
    if decision is not None:
        write(
            draw,
            (x, y),
            f"To act: {names.get(decision.player, decision.player)} ({decision.car}, {decision.kind})",
            fill=(0, 90, 160),
            size=15,
        )
    elif state.arrivals:
        write(draw, (x, y), f"Winner: {state.arrivals[0]}", fill=(0, 90, 160), size=15)
    y += 30
    columns = (("#", 0), ("car", 26), ("player", 110), ("lap", 200), ("gear", 240), ("LP", 290), ("status", 330))
    for name, dx in columns:
        write(draw, (x + dx, y), name, fill=MUTED, size=14)
    y += 20
    racing = sorted(
        (c for c in state.cars if c.status not in ("finished", "eliminated")),
        key=lambda c: (c.lap, c.row, c.gear),
        reverse=True,
    )
    order = [*(state.car(a) for a in state.arrivals), *racing, *(c for c in state.cars if c.status == "eliminated")]
    for rank, c in enumerate(order, start=1):
        draw.rectangle((x + 14, y + 3, x + 22, y + 15), fill=CAR_COLOUR[c.team], outline=INK)
        cells = (
            str(rank),
            c.id,
            names.get(c.player, c.player)[:10],
            str(min(c.lap, state.setup.laps)),
            str(c.gear),
            str(c.lp),
            STATUS[c.status],
        )
        for (_, dx), text in zip(columns, cells, strict=True):
            write(draw, (x + dx + (10 if dx == 26 else 0), y + 1), text, fill=INK, size=14)
        y += 21
    y = HEIGHT - 110
    write(draw, (x, y), "Legend", fill=MUTED, size=14)
    write(draw, (x, y + 20), "red borders: corner spaces · yellow flags: stops needed, L and C", fill=INK, size=14)
    write(draw, (x, y + 40), "darker lane: the pit lane, stands outlined in team colours", fill=INK, size=14)
    write(draw, (x, y + 60), "cars: number·gear; highlighted squares: LP the move costs", fill=INK, size=14)
