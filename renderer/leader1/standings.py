"""The general classification of a stage race as an image: the GC hexagon ring and a table,
designed to be read 400 px wide like the boards."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from renderer.encode import png_bytes
from renderer.fit import clipped, largest
from renderer.palette import (
    BACKGROUND,
    HEIGHT,
    INK,
    KERB,
    MUTED,
    PANEL,
    SMALL,
    TEAM,
    TEXT,
    TITLE,
    WHITE,
    WIDTH,
    rider_label,
    team_of,
)
from renderer.pieces import polygon, rider_shape, rider_token
from renderer.text import text_length, write
from rules.i18n import pgettext
from rules.leader1.stage import Standing
from rules.shown import seat_name

PLAYER_ROOM = 132  # px from the player column (130) to the "behind" one (270), less a gap


def render_standings(standings: tuple[Standing, ...], ring: int, title: str, kinds: dict[str, str]) -> bytes:
    """``standings`` leader first; ``kinds`` maps rider ids to their type (for the token's shape)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title_size = largest(title, WIDTH - 40, TITLE, SMALL, bold=True) or SMALL
    write(draw, (20, 16), clipped(title, WIDTH - 40, title_size, bold=True), fill=INK, size=title_size, bold=True)
    cx, cy, radius = 245, 440, 225
    leader = max((s.position for s in standings if not s.eliminated), default=0)
    corners = [
        (cx + radius * math.cos(math.radians(60 * k - 90)), cy + radius * math.sin(math.radians(60 * k - 90)))
        for k in range(6)
    ]
    polygon(draw, corners, PANEL, INK, 3)
    for square in range(ring):
        angle = math.radians(360 * square / ring - 90)
        x, y = cx + (radius - 40) * math.cos(angle), cy + (radius - 40) * math.sin(angle)
        draw.ellipse(
            (x - 28, y - 28, x + 28, y + 28), outline=MUTED, width=2, fill=(255, 240, 200) if not square else None
        )
        lx, ly = cx + (radius + 2) * math.cos(angle), cy + (radius + 2) * math.sin(angle)
        write(draw, (lx, ly), str(-square) if square else "0", fill=MUTED, size=SMALL, bold=True, anchor="mm")
    spots: dict[int, int] = {}
    for s in standings:
        if s.eliminated:
            continue
        behind = leader - s.position
        stack = spots.get(behind, 0)
        spots[behind] = stack + 1
        angle = math.radians(360 * behind / ring - 90)
        x = cx + (radius - 40 - stack * 46) * math.cos(angle)
        y = cy + (radius - 40 - stack * 46) * math.sin(angle)
        rider_token(draw, (x, y), 22, s.rider, kinds.get(s.rider, "rouleur"), SMALL)
    name, size = pgettext("board standings", "GC hexagon"), TEXT
    while size > SMALL and text_length(name, size, bold=True) > 300:  # between the discs at -3 and -9
        size -= 2
    write(draw, (cx, cy), name, fill=MUTED, size=size, bold=True, anchor="mm")
    x, y = 490, 80
    # "behind" and "energy" in DejaVu Sans Bold need 270 and 372 to stay apart and inside the picture
    headings = (
        ("#", 0),
        (pgettext("board standings", "rider"), 40),
        (pgettext("board standings", "player"), 130),
        (pgettext("board standings", "behind"), 270),
        (pgettext("board standings", "energy"), 372),
    )
    lines = _heading_lines(
        [(name, min(dx, WIDTH - 2 - x - text_length(name, SMALL, bold=True))) for name, dx in headings]
    )
    for name, dx, line in lines:
        write(draw, (x + dx, y + 26 * line), name, fill=MUTED, size=SMALL, bold=True)
    y += 36 + 26 * max(line for _, _, line in lines)
    row_h = min(44, (HEIGHT - y - 50) / max(len(standings), 1))
    for rank, s in enumerate(standings, start=1):
        behind = leader - s.position
        mid = y + row_h / 2
        rider_shape(draw, (x + 50, mid), 14, kinds.get(s.rider, "rouleur"), TEAM.get(team_of(s.rider), MUTED))
        near = not s.eliminated and ring - behind <= 3
        # the player's name whole between its column and the next (smaller when long, cut only past SMALL)
        player = seat_name(s.player)
        player_size = largest(player, PLAYER_ROOM, TEXT, SMALL) or SMALL
        write(draw, (x + 130, mid), clipped(player, PLAYER_ROOM, player_size), fill=INK, size=player_size, anchor="lm")
        for dx, text in (
            (0, str(rank)),
            (70, rider_label(s.rider)),
            (270, pgettext("board", "out") if s.eliminated else str(behind)),
            (372, str(s.energy)),
        ):
            write(draw, (x + dx, mid), text, fill=INK, size=TEXT, bold=dx == 70, anchor="lm")
        if near:
            draw.ellipse((x + 430, mid - 16, x + 462, mid + 16), fill=KERB, outline=INK)
            write(draw, (x + 446, mid), str(ring - behind), fill=WHITE, size=SMALL, bold=True, anchor="mm")
        y += row_h
    if any(not s.eliminated and ring - (leader - s.position) <= 3 for s in standings):
        draw.ellipse((x, HEIGHT - 56, x + 32, HEIGHT - 24), fill=KERB, outline=INK)
        write(draw, (x + 16, HEIGHT - 40), "n", fill=WHITE, size=SMALL, bold=True, anchor="mm")
        left = pgettext("board standings", "squares left before elimination")
        write(draw, (x + 42, HEIGHT - 40), left, fill=INK, size=SMALL, anchor="lm")
    return png_bytes(image)


def _heading_lines(headings: list[tuple[str, float]]) -> list[tuple[str, float, int]]:
    """Each heading (text, x) on the first line, or on a second when it would meet the one before it
    there (a language with longer words: the headings are staggered, never overlapping)."""
    ends = [-1e9, -1e9]
    placed = []
    for name, dx in headings:
        line = 0 if dx >= ends[0] + 6 else 1
        placed.append((name, dx, line))
        ends[line] = dx + text_length(name, SMALL, bold=True)
    return placed
