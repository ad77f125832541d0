"""A board for a phone's page: the map's part around the pieces, cut narrow enough that its
smallest text is still readable when the picture fills a 400 px screen (issue 39).

The whole board (960 px) shown 385 px wide makes an 18 px label 7 px. Here the board is drawn as
always, its placements recorded (``renderer.layout``): the header and the panel are left out (the
page says who acts, the last turn and the standings in HTML), and the map is cut to the width
at which its smallest string is ``READABLE`` px on a screen ``SCREEN`` px wide, around as many
pieces as that width holds. The painters are not touched: this is one more way to show what
they draw.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from renderer.encode import png_bytes
from renderer.layout import Box, Placed, recording
from renderer.palette import font
from renderer.registry import paint
from rules.i18n import Language

SCREEN = 384  # px: the picture's width on a 400 px phone (the page's margins and border taken off)
READABLE = 11.5  # px on screen, the least a board's string may be there (11, with a little to spare)
STEP = 4  # px between the windows tried


@dataclass(frozen=True)
class PhoneBoard:
    """The cut board: its PNG, where it was cut from the whole board, and the smallest font (px, in
    the whole board's pixels) of the strings on the map."""

    png: bytes
    box: tuple[int, int, int, int]
    smallest: int


def font_size(placed: Placed) -> int:
    """The font size a recorded string was written at: the size whose ink box is the one placed
    (regular or bold); failing that, its ink's height over a digit's share of the size."""
    width, height = round(placed.box[2] - placed.box[0]), round(placed.box[3] - placed.box[1])
    guess = max(4, round(height / 0.72))
    for size in sorted(range(max(4, guess - 12), guess + 13), key=lambda s: abs(s - guess)):
        for bold in (False, True):
            x0, y0, x1, y1 = font(size, bold).getbbox(placed.what)
            if (round(x1 - x0), round(y1 - y0)) == (width, height):
                return size
    return guess


def map_band(placed: Sequence[Placed], width: int, height: int) -> tuple[int, int]:
    """The rows of the board the map takes: below the header, above the strip or panel."""
    top, bottom = 0, height
    for p in placed:
        if p.kind != "cover" or p.box[2] - p.box[0] < width * 0.9:
            continue  # a band across the board; a small cover (a wind rose) is part of the map
        if p.box[1] <= 1:
            top = max(top, round(p.box[3]))
        else:
            bottom = min(bottom, round(p.box[1]))
    return top, max(bottom, top + 1)


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def window(pieces: Sequence[Box], cut: int, width: int) -> int:
    """The left edge of the ``cut`` px wide window holding the most pieces whole (ties: the one
    nearest the pieces' middle)."""
    if cut >= width or not pieces:
        return max(0, (width - cut) // 2)
    middle = sum(_centre(b)[0] for b in pieces) / len(pieces)

    def score(left: int) -> tuple[int, float]:
        held = sum(1 for b in pieces if b[0] >= left and b[2] <= left + cut)
        return held, -abs(left + cut / 2 - middle)

    return max(range(0, width - cut + 1, STEP), key=score)


def cut_board(png: bytes, placed: Sequence[Placed], screen: int = SCREEN) -> PhoneBoard:
    """The map of a whole board (its PNG and recorded placements) cut for a ``screen`` px wide picture."""
    image = Image.open(io.BytesIO(png))
    width, height = image.size
    top, bottom = map_band(placed, width, height)

    def on_map(b: Box) -> bool:
        return b[0] >= 0 and b[2] <= width and b[1] >= top and b[3] <= bottom

    sizes = [font_size(p) for p in placed if p.kind == "text" and on_map(p.box)]
    smallest = min(sizes, default=18)
    cut = min(width, int(screen * smallest / READABLE))
    left = window([p.box for p in placed if p.kind == "disc" and on_map(p.box)], cut, width)
    box = (left, top, left + cut, bottom)
    return PhoneBoard(png_bytes(image.crop(box).convert("RGB")), box, smallest)


def paint_for_phone(
    game_id: str,
    state: object,
    *,
    acting: Sequence[str] = (),
    title: str = "",
    language: Language | None = None,
    screen: int = SCREEN,
) -> PhoneBoard | None:
    """The board of ``state`` cut for a phone's page (None for a game without a painter)."""
    with recording() as placed:
        png = paint(game_id, state, acting=acting, title=title, language=language)
    if png is None:
        return None
    return cut_board(png, placed, screen)
