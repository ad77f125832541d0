"""A race's recap: its boards one after another as an animated GIF, small enough for Discord.

GIF because Discord plays it inline on every client (APNG is shown still by some). The
frames are the boards themselves on the same fixed palette as the PNGs (no dithering, no
per-frame palette), so the file is deterministic and compresses well: only the pixels that
change between two boards are stored again.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

from renderer.encode import indexed

FRAME_MS = 900
LAST_FRAME_MS = 3000
MAX_FRAMES = 80  # a long race is sampled evenly (first and last boards always kept)
LIMIT = 8 * 1024 * 1024


def _board(state: Any) -> Image.Image:
    """The board of either game's state (told apart by what the state holds)."""
    if hasattr(state, "cars"):
        from renderer.circuit_board import compose_circuit

        return compose_circuit(state, acting=())[0]
    from renderer.board import render_image

    return render_image(state, acting=())


def _sample(states: Sequence[Any], most: int) -> list[Any]:
    if len(states) <= most:
        return list(states)
    step = (len(states) - 1) / (most - 1)
    return [states[round(i * step)] for i in range(most)]


def render_recap(states: Sequence[Any], *, frame_ms: int = FRAME_MS, width: int | None = None) -> bytes:
    """An animated GIF of the boards of ``states`` (a race's states in order), one frame each.

    ``width`` shrinks the frames (e.g. 640) for a smaller file; by default they are the boards'
    own size. Raises ValueError for no states.
    """
    if not states:
        raise ValueError("a recap needs at least one state, got none")
    frames = []
    for state in _sample(states, MAX_FRAMES):
        board = _board(state)
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
