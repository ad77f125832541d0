"""A race's recap: its boards one after another as an animated GIF, small enough for Discord.

GIF because Discord plays it inline on every client (APNG is shown still by some). The
frames are the boards themselves on the same fixed palette as the PNGs (no dithering, no
per-frame palette), so the file is deterministic and compresses well: only the pixels that
change between two boards are stored again.

Discord's upload limit has moved (8 MiB for years, 25 MB in 2023, 10 MiB since late 2024 for
servers without boosts; discord.py's ``DEFAULT_FILE_SIZE_LIMIT_BYTES``): a recap is kept under
``LIMIT`` = 8 MiB, the lowest of them, by drawing its frames narrower when it would not fit.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from renderer.encode import indexed
from renderer.palette import BACKGROUND
from rules.i18n import Language, current
from rules.record import Record, start_state

FRAME_MS = 900
LAST_FRAME_MS = 3000
MAX_FRAMES = 80  # a long race is sampled evenly (first and last boards always kept)
LIMIT = 8 * 1024 * 1024  # bytes: under every upload limit Discord has had
NARROWER = (720, 560, 480)  # frame widths tried, in turn, when a recap is over ``LIMIT``

Board = Callable[[Any], Image.Image]


def painted(game_id: str, title: str = "", language: Language | None = None) -> Board:
    """The board of any registered game's state as the bot posts it after a turn (no squares offered),
    in ``language`` (None: the language of the moment when ``painted`` is called: its frames may be
    drawn in another thread)."""
    from renderer.registry import paint

    spoken = language or current()

    def board(state: Any) -> Image.Image:
        png = paint(game_id, state, acting=(), title=title, language=spoken)
        if png is None:
            raise ValueError(f"the game {game_id!r} has no board painter")
        return Image.open(io.BytesIO(png)).convert("RGB")

    return board


def turn_states(record: Record, turns: int | None = None) -> list[Any]:
    """The state at the start of every turn of ``record``, then its last state (the last ``turns``
    turns only, when given: the start of the first of them, then each turn after)."""
    game, state = start_state(record)
    states = [state]
    for action in record.actions:
        state, _ = game.rules.apply(state, action)
        if game.rules.turn(state) != game.rules.turn(states[-1]):
            states.append(state)
    if states[-1] is not state:
        states.append(state)
    if turns is not None:
        now = game.rules.turn(state)
        states = [s for s in states if game.rules.turn(s) > now - turns] or [state]
    return states


def _sample(states: Sequence[Any], most: int) -> list[Any]:
    if len(states) <= most:
        return list(states)
    step = (len(states) - 1) / (most - 1)
    return [states[round(i * step)] for i in range(most)]


def render_recap(
    states: Sequence[Any],
    *,
    frame_ms: int = FRAME_MS,
    width: int | None = None,
    board: Board,
    limit: int = LIMIT,
) -> bytes:
    """An animated GIF of the boards of ``states`` (a race's states in order), one frame each.

    ``board`` draws a state (``painted(game_id)``: as the bot posts it). ``width`` shrinks the frames
    (e.g. 640) for a smaller file; by default they are the boards' own size, narrower only if the
    file would pass ``limit`` bytes. Raises ValueError for no states.
    """
    if not states:
        raise ValueError("a recap needs at least one state, got none")
    boards = [board(state) for state in _sample(states, MAX_FRAMES)]
    size = (max(b.width for b in boards), max(b.height for b in boards))
    boards = [_padded(b, size) for b in boards]
    widths = [width] if width is not None else [None, *(w for w in NARROWER if w < size[0])]
    gif = b""
    for w in widths:
        gif = _animate(boards, frame_ms, w)
        if len(gif) <= limit:
            break
    return gif


def _padded(board: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A board on a canvas of ``size`` (the frames of one GIF share one size)."""
    if board.size == size:
        return board
    canvas = Image.new("RGB", size, BACKGROUND)
    canvas.paste(board, (0, 0))
    return canvas


def _animate(boards: list[Image.Image], frame_ms: int, width: int | None) -> bytes:
    frames = []
    for board in boards:
        if width is not None and width < board.width:
            board = board.resize((width, round(board.height * width / board.width)), Image.Resampling.BOX)
        frames.append(indexed(board))
    durations = [frame_ms] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()
