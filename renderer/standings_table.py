"""A league's general classification as a table image, for any game with leagues: rank, piece,
person and the game's own words for the standing. Read 400 px wide like the boards: the image is
as tall as its rows, and grows rather than shrinking its text when the field is large."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from renderer.encode import png_bytes
from renderer.fit import largest, wrapped
from renderer.palette import BACKGROUND, INK, MUTED, PANEL, READABLE, SMALL, TITLE, WIDTH
from renderer.registry import StandingsPainter
from renderer.text import write
from rules.game import Standing
from rules.i18n import pgettext
from rules.registry import find_game

ROW = 46
TOP = 120
MARGIN = 24
COLUMNS = (("#", 24), ("", 80), ("", 330), ("", 540))  # rank, piece, person, standing: x of each


def render_table(title: str, rows: Sequence[tuple[str, str, str, str]], headings: tuple[str, str, str]) -> bytes:
    """``rows`` of (rank, piece, person, standing) in order; ``headings`` name the last three columns.
    Nothing is cut (issue 38): a cell too wide for its column is written smaller, down to SMALL, then
    on more lines, its row growing to hold them; the title likewise."""
    title_size, title_lines = _cell(title, WIDTH - 2 * MARGIN, TITLE, bold=True)
    top = TOP + (len(title_lines) - 1) * (title_size + 6)
    laid = [
        [
            _cell(text, _right(column) - x, READABLE, column == 1)
            for column, (x, text) in enumerate(zip((x for _, x in COLUMNS), row, strict=True))
        ]
        for row in rows
    ]
    heights = [max(ROW, max(LINE * len(lines) + 8 for _, lines in cells)) for cells in laid]
    image = Image.new("RGB", (WIDTH, top + sum(heights) + MARGIN), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for k, line in enumerate(title_lines):
        write(draw, (MARGIN, 20 + k * (title_size + 6)), line, fill=INK, size=title_size, bold=True)
    for (heading, x), text in zip(COLUMNS, ("#", *headings), strict=True):
        write(draw, (x, top - 40), text or heading, fill=MUTED, size=SMALL, bold=True)
    y = top
    for index, (cells, height) in enumerate(zip(laid, heights, strict=True)):
        if index % 2 == 0:
            draw.rectangle((MARGIN // 2, y, WIDTH - MARGIN // 2, y + height - 2), fill=PANEL)
        for column, (x, (size, lines)) in enumerate(zip((x for _, x in COLUMNS), cells, strict=True)):
            first = y + height / 2 - LINE * (len(lines) - 1) / 2
            for k, line in enumerate(lines):
                write(draw, (x, first + k * LINE), line, fill=INK, size=size, bold=column == 1, anchor="lm")
        y += height
    return png_bytes(image)


LINE = 28  # px between the lines of a cell on more than one


def _right(column: int) -> int:
    """Where a column's text must end: short of the next column, or the margin."""
    return COLUMNS[column + 1][1] - 12 if column + 1 < len(COLUMNS) else WIDTH - MARGIN


def _cell(text: str, width: float, size: int, bold: bool = False) -> tuple[int, list[str]]:
    """``text`` in ``width`` px: one line at the largest size from ``size`` down to SMALL, else on
    as many lines at SMALL as it needs."""
    fitted = largest(text, width, size, SMALL, bold)
    if fitted is not None:
        return fitted, [text]
    return SMALL, wrapped(text, width, SMALL, bold)


def table_painter(game_id: str) -> StandingsPainter:
    """The standings painter of a game whose classification is a table: its pieces by their names and
    its scoring's own words (``LeagueScoring.standing_text``)."""

    def paint(standings: Sequence[Standing], *, title: str, options: Mapping[str, Any]) -> bytes:
        game = find_game(game_id)
        if game.scoring is None or not standings:
            raise ValueError(f"{game_id}: no standings to draw")
        leader = next((s for s in standings if not s.eliminated), standings[0])
        rows = [
            (
                str(rank),
                game.narration.piece_name(None, s.piece),
                s.player,
                game.scoring.standing_text(rank, s, leader),
            )
            for rank, s in enumerate(standings, start=1)
        ]
        headings = (_noun(game.piece), pgettext("board standings", "player"), pgettext("board standings", "standing"))
        return render_table(title, rows, headings)

    return paint


def _noun(piece: str) -> str:
    """The game's noun for its pieces, as a column's heading."""
    return {
        "rider": pgettext("board standings", "rider"),
        "car": pgettext("board standings", "car"),
        "cyclist": pgettext("board standings", "cyclist"),
    }.get(piece, piece)
