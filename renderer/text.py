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
# Pillow's one built-in face has no bold: a 1 px stroke of the glyph's own colour stands in.
_LENGTHS: LruCache[float] = LruCache(4096)


def _mask(content: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    f = font(size)
    stroke = 1 if bold else 0
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(content, stroke_width=stroke))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), content, fill=255, font=f, stroke_width=stroke, stroke_fill=255)
    return mask, x0, y0


def _cached(content: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    return _MASKS.get((content, size, bold), lambda: _mask(content, size, bold))


def write(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    *,
    fill: RGB,
    size: int = 14,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    """Like ``draw.text(xy, content, fill=fill, font=font(size))``, from a cached mask.

    ``anchor`` is two letters: horizontal ``l`` (left edge at x), ``m`` (ink centred on x) or
    ``r`` (right edge at x); vertical ``a`` (top of the line at y, as ``draw.text``) or ``m``
    (ink centred on y).
    """
    if not content:
        return
    mask, dx, dy = _cached(content, size, bold)
    x, y = xy
    if anchor[0] == "m":
        x -= dx + mask.width / 2
    elif anchor[0] == "r":
        x -= text_length(content, size)
    if anchor[1] == "m":
        y -= dy + mask.height / 2
    draw.bitmap((round(x) + dx, round(y) + dy), mask, fill=fill)


def text_length(content: str, size: int = 14) -> float:
    """The advance width of ``content`` at ``size`` (cached)."""
    return _LENGTHS.get((content, size), lambda: font(size).getlength(content))


def text_bbox(content: str, size: int = 14, bold: bool = False) -> tuple[int, int, int, int]:
    """The ink box of ``content`` drawn at (0, 0) with the top-left anchor."""
    mask, dx, dy = _cached(content, size, bold)
    return dx, dy, dx + mask.width, dy + mask.height
