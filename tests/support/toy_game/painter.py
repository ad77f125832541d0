"""Dash's painters: one row of squares for the board, a table for a league's standings."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer.standings_table import table_painter
from rules.game import Choice
from tests.support.toy_game.rules import ID, State


def paint(
    state: State, *, highlight: Sequence[Choice], acting: Sequence[str], title: str, legend: Sequence[str]
) -> bytes:
    """One row of squares, runners as discs, highlighted targets framed."""
    image = Image.new("RGB", (40 * (state.length + 1) + 20, 120), "white")
    draw = ImageDraw.Draw(image)
    targets = {c.target for c in highlight}
    for square in range(state.length + 1):
        x = 10 + 40 * square
        draw.rectangle((x, 40, x + 36, 76), outline="black", width=3 if str(square) in targets else 1)
    for i, (runner, square) in enumerate(state.at):
        x = 10 + 40 * square + 18
        draw.ellipse((x - 8, 50 + 4 * i - 8, x + 8, 50 + 4 * i + 8), fill=runner.split("-")[0])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


paint_standings = table_painter(ID)
