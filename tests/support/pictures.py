"""A board's PNG as the picture it shows, for tests that compare boards.

The pixels and palette of a board are a pure function of what is drawn, but the compressed stream
is ISA-L's (``renderer/encode.py``), and ISA-L has been seen to pick an equivalent match for a few
boards: in about one process in forty, and in CI for boards drawn by six threads at once. One byte
of the stream differs, the picture does not (docs/board.md, "Bytes and pictures"). So tests compare
boards as pictures, and a failed comparison of PNGs says what differs in a few lines
(``png_difference``, used by tests/conftest.py) instead of printing both files."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Picture:
    """What a PNG shows: its mode, size, palette and pixels."""

    mode: str
    size: tuple[int, int]
    palette: bytes
    pixels: bytes

    def __repr__(self) -> str:
        digest = hashlib.sha256(self.palette + self.pixels).hexdigest()[:12]
        return f"Picture({self.mode} {self.size[0]}x{self.size[1]}, {digest})"

    def image(self) -> Image.Image:
        image = Image.frombytes(self.mode, self.size, self.pixels)
        if self.mode == "P":
            image.putpalette(self.palette)
        return image


def picture(png: bytes | None) -> Picture | None:
    """The PNG's mode, size, palette and pixels (None for no board)."""
    if png is None:
        return None
    image = Image.open(io.BytesIO(png))
    image.load()
    return Picture(image.mode, image.size, bytes(image.getpalette() or []), image.tobytes())


def pictures(pngs: Sequence[bytes | None]) -> list[Picture | None]:
    return [picture(png) for png in pngs]


def _shown(value: object) -> Picture | None:
    if isinstance(value, Picture):
        return value
    if isinstance(value, bytes) and value.startswith(PNG_SIGNATURE):
        return picture(value)
    return None


def png_difference(left: object, right: object) -> list[str] | None:
    """A few lines telling two boards (PNGs or pictures, or lists of them) apart; None for other values."""
    if _shown(left) is not None and _shown(right) is not None:
        return [f"two boards differ: {_told_apart(left, right)}"]
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        if not any(_shown(item) is not None for item in (*left, *right)):
            return None
        lines = [f"two lists of boards differ ({len(left)} and {len(right)} items):"]
        for index, (a, b) in enumerate(zip(left, right, strict=False)):
            if a != b:
                lines.append(f"  [{index}]: {_told_apart(a, b)}")
        return lines
    return None


def _told_apart(left: object, right: object) -> str:
    a, b = _shown(left), _shown(right)
    if a is None or b is None:
        return f"{_kind(left)} and {_kind(right)}"
    sizes = f"{_kind(left)} and {_kind(right)}"
    if (a.mode, a.size) != (b.mode, b.size):
        return f"{sizes}; {a.mode} {a.size} and {b.mode} {b.size}"
    if a.palette != b.palette:
        return f"{sizes}; the same size, other palettes"
    box = ImageChops.difference(a.image().convert("RGB"), b.image().convert("RGB")).getbbox()
    if box is None:
        return f"{sizes}; the same picture (only the compressed stream differs)"
    return f"{sizes}; pixels differ within the box {box}"


def _kind(value: object) -> str:
    if isinstance(value, bytes) and value.startswith(PNG_SIGNATURE):
        return f"a PNG of {len(value):,} bytes"
    return repr(value) if isinstance(value, Picture) or value is None else type(value).__name__
