"""A league's general classification as a table image, for any game with leagues: rank, piece,
person and the game's own words for the standing. Read 400 px wide like the boards: the image is
as tall as its rows, and grows rather than shrinking its text when the field is large."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from renderer import layout
from renderer.encode import png_bytes
from renderer.palette import BACKGROUND, INK, MUTED, PANEL, READABLE, SMALL, TITLE, WIDTH
from renderer.registry import StandingsPainter
from renderer.text import text_length, write
from rules.game import Standing
from rules.i18n import pgettext
from rules.registry import find_game

ROW = 46
TOP = 120
MARGIN = 24
COLUMNS = (("#", 24), ("", 80), ("", 330), ("", 540))  # rank, piece, person, standing: x of each


def render_table(title: str, rows: Sequence[tuple[str, str, str, str]], headings: tuple[str, str, str]) -> bytes:
    """``rows`` of (rank, piece, person, standing) in order; ``headings`` name the last three columns."""
    height = TOP + ROW * len(rows) + MARGIN
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    write(draw, (MARGIN, 20), _fit(title, WIDTH - 2 * MARGIN, TITLE), fill=INK, size=TITLE, bold=True)
    for (heading, x), text in zip(COLUMNS, ("#", *headings), strict=True):
        write(draw, (x, TOP - 40), text or heading, fill=MUTED, size=SMALL, bold=True)
    for index, row in enumerate(rows):
        y = TOP + ROW * index
        if index % 2 == 0:
            draw.rectangle((MARGIN // 2, y, WIDTH - MARGIN // 2, y + ROW - 2), fill=PANEL)
        for column, (x, text) in enumerate(zip((x for _, x in COLUMNS), row, strict=True)):
            right = COLUMNS[column + 1][1] - 12 if column + 1 < len(COLUMNS) else WIDTH - MARGIN
            write(
                draw,
                (x, y + ROW / 2),
                _fit(text, right - x, READABLE, bold=column == 1),
                fill=INK,
                size=READABLE,
                bold=column == 1,
                anchor="lm",
            )
    return png_bytes(image)


def _fit(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to ``width`` px (a name in a picture; the message beside it says it whole)."""
    if text_length(text, size, bold) <= width:
        return text
    layout.lost("cut", text)
    while text and text_length(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


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
