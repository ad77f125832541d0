"""Text drawn from cached glyph masks: a board writes the same few hundred strings every time.

FreeType rendering was the largest part of a board's drawing time (a hundred strings, ~60 µs
each). A string at a size is rendered once into a grey mask, kept in a bounded cache shared
by threads, and stamped in any colour with ``ImageDraw.bitmap`` (the same blend as ``text``).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderer.cache import LruCache
from renderer.palette import RGB, font

_MASKS: LruCache[tuple[Image.Image, int, int]] = LruCache(4096)
_LENGTHS: LruCache[float] = LruCache(4096)


def _mask(content: str, size: int) -> tuple[Image.Image, int, int]:
    f = font(size)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(content))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), content, fill=255, font=f)
    return mask, x0, y0


def write(draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str, *, fill: RGB, size: int = 14) -> None:
    """Like ``draw.text(xy, content, fill=fill, font=font(size))`` (top-left anchor), from a cached mask."""
    if not content:
        return
    mask, dx, dy = _MASKS.get((content, size), lambda: _mask(content, size))
    draw.bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, fill=fill)


def text_length(content: str, size: int = 14) -> float:
    """The advance width of ``content`` at ``size`` (cached)."""
    return _LENGTHS.get((content, size), lambda: font(size).getlength(content))


def text_bbox(content: str, size: int = 14) -> tuple[int, int, int, int]:
    """The ink box of ``content`` drawn at (0, 0) with the top-left anchor."""
    mask, dx, dy = _MASKS.get((content, size), lambda: _mask(content, size))
    return dx, dy, dx + mask.width, dy + mask.height
