"""A board's header: the race, turn and phase on the left, who acts (or the winner) boxed on the right.

Both are kept whole in every language (issue 38): each takes the largest size that fits, from TEXT
down to SMALL; a heading still too long goes on two lines, broken between its parts ("·").
"""

from __future__ import annotations

from PIL import ImageDraw

from renderer.fit import clipped, largest, split_in_two
from renderer.palette import ACT_TEXT, INK, PANEL, SMALL, TEXT, WHITE, WIDTH
from renderer.text import text_length, write

ACT_ROOM = 440  # px: the widest the box of who acts is at a size above SMALL
ACT_MOST = 640  # px: the widest it may be at SMALL, for a long name (the heading then on two lines)
TWO_LINES = (14, 38)  # the centres of a heading's two lines in the 52 px header
TWO_LINE_FLOOR = 20  # the least size of a heading on two lines


def header_texts(draw: ImageDraw.ImageDraw, heading: str, acting: str, *, blend: bool = True) -> None:
    """Write ``heading`` and the box of ``acting`` in the header (``blend``: each string pasted onto its
    known ground, as on a palette canvas)."""
    act_size = largest(acting, ACT_ROOM, TEXT, SMALL, bold=True)
    if act_size is None:  # a long name (Discord allows 32 characters): the box takes more of the header
        act_size = SMALL
        acting = clipped(acting, ACT_MOST, SMALL, bold=True)
    w = text_length(acting, act_size, bold=True)
    draw.rectangle((WIDTH - w - 30, 6, WIDTH - 6, 46), fill=WHITE, outline=ACT_TEXT, width=3)
    over_act, over_panel = (WHITE, PANEL) if blend else (None, None)
    write(draw, (WIDTH - 18 - w, 26), acting, fill=ACT_TEXT, size=act_size, bold=True, anchor="lm", over=over_act)
    room = WIDTH - w - 30 - 14 - 12  # clear of the box on its right
    size = largest(heading, room, TEXT, SMALL, bold=True)
    if size is not None:
        write(draw, (14, 26), heading, fill=INK, size=size, bold=True, anchor="lm", over=over_panel)
        return
    for size in range(SMALL, TWO_LINE_FLOOR - 1, -1):
        pair = split_in_two(heading, room, size, bold=True)
        if pair is not None:
            for line, y in zip(pair, TWO_LINES, strict=True):
                write(draw, (14, y), line, fill=INK, size=size, bold=True, anchor="lm", over=over_panel)
            return
    short = clipped(heading, room, SMALL, bold=True)  # noted as cut: the test says so
    write(draw, (14, 26), short, fill=INK, size=SMALL, bold=True, anchor="lm", over=over_panel)
