"""A board's PNG as the picture it shows, for tests that compare boards drawn in two processes.

The pixels and palette of a board are a pure function of what is drawn, but the compressed stream
is ISA-L's (``renderer/encode.py``), and ISA-L has been seen, in about one process in forty, to
pick an equivalent match for a few boards: one byte of the stream differs, the picture does not
(docs/board.md, "Bytes and pictures"). So boards drawn by a worker and by the test process are
compared as pictures."""

from __future__ import annotations

import io

from PIL import Image


def picture(png: bytes | None) -> tuple[str, tuple[int, int], bytes, bytes] | None:
    """The PNG's mode, size, palette and pixels (None for no board)."""
    if png is None:
        return None
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.mode, image.size, bytes(image.getpalette() or []), image.tobytes()
