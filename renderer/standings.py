"""The general classification of a stage race as an image: the GC hexagon ring and a table."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from renderer.encode import png_bytes
from renderer.palette import BACKGROUND, INK, MUTED, PANEL
from renderer.panel import rider_dot, rider_token
from renderer.text import write
from rules.leader1.stage import Standing

WIDTH, HEIGHT = 1200, 760


def render_standings(standings: tuple[Standing, ...], ring: int, title: str, kinds: dict[str, str]) -> bytes:
    """``standings`` leader first; ``kinds`` maps rider ids to their type (for the base ring)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    write(draw, (30, 20), title, fill=INK, size=24)
    cx, cy, radius = 330, 410, 250
    leader = max((s.position for s in standings if not s.eliminated), default=0)
    corners = [
        (cx + radius * math.cos(math.radians(60 * k - 90)), cy + radius * math.sin(math.radians(60 * k - 90)))
        for k in range(6)
    ]
    draw.polygon(corners, fill=PANEL, outline=INK, width=3)
    spots: dict[int, int] = {}
    for square in range(ring):
        angle = math.radians(360 * square / ring - 90)
        x, y = cx + (radius - 45) * math.cos(angle), cy + (radius - 45) * math.sin(angle)
        draw.ellipse(
            (x - 24, y - 24, x + 24, y + 24), outline=MUTED, width=2, fill=(255, 240, 200) if square == 0 else None
        )
        write(draw, (x - 6, y + 26), str(-square) if square else "0", fill=MUTED, size=14)
    for s in standings:
        if s.eliminated:
            continue
        behind = leader - s.position
        stack = spots.get(behind, 0)
        spots[behind] = stack + 1
        angle = math.radians(360 * behind / ring - 90)
        x = cx + (radius - 45 - stack * 22) * math.cos(angle)
        y = cy + (radius - 45 - stack * 22) * math.sin(angle)
        rider_token(draw, (x, y), 16, s.rider, kinds.get(s.rider, "rouleur"), size=14)
    write(draw, (cx - 70, cy - 10), "GC hexagon", fill=MUTED, size=16)
    x, y = 620, 80
    for name, dx in (("#", 0), ("rider", 56), ("player", 190), ("behind", 290), ("energy", 360), ("", 430)):
        write(draw, (x + dx, y), name, fill=MUTED, size=15)
    y += 26
    for rank, s in enumerate(standings, start=1):
        behind = leader - s.position
        rider_dot(draw, (x + 40, y + 10), s.rider, kinds.get(s.rider, "rouleur"))
        note = "eliminated" if s.eliminated else f"{ring - behind} from elimination" if ring - behind <= 3 else ""
        for dx, text in (
            (0, str(rank)),
            (56, s.rider),
            (190, s.player[:14]),
            (290, "-" if s.eliminated else str(behind)),
            (360, str(s.energy)),
            (430, note),
        ):
            write(draw, (x + dx, y + 2), text, fill=INK, size=15)
        y += 26
    return png_bytes(image)
