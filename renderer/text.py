"""Text drawn from cached glyph masks: a board writes the same few hundred strings every time.

FreeType rendering was the largest part of a board's drawing time (a hundred strings, ~60 µs
each). A string at a size is rendered once into a grey mask, kept in a bounded cache shared
by threads, and stamped in any colour with ``ImageDraw.bitmap`` (the same blend as ``text``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from PIL import Image, ImageDraw

from renderer import layout
from renderer.cache import LruCache
from renderer.encode import indexed
from renderer.palette import RGB, font

_MASKS: LruCache[tuple[Image.Image, int, int]] = LruCache(4096)
_LENGTHS: LruCache[float] = LruCache(4096)
Box = tuple[float, float, float, float]
# The board's band and the boxes drawn over it later (an inset map): a board's label never shows cut
# by the band's edge nor half under an inset. Set by ``confined`` while a painter draws its board, for
# its own thread only (boards are drawn in several threads at once).
# band, avoid, tags settled, strings written (a tag keeps off both)
_BAND: ContextVar[tuple[Box, tuple[Box, ...], list[Box], list[Box]] | None] = ContextVar("band", default=None)
# Where a tag goes when its own place is taken: a little along the road, then further off it.
NUDGES = ((0, 0), (0, -34), (0, 34), (-40, 0), (40, 0), (0, -68), (0, 68), (-80, 0), (80, 0), (-40, -34), (40, -34))


@contextmanager
def confined(band: Box, avoid: Sequence[Box] = (), keep_off: Sequence[Box] = ()) -> Iterator[list[Box]]:
    """Inside the block, a string that would be cut by ``band``'s edge or meet an ``avoid`` box is not
    written (a row number half off the picture says nothing), and ``settle`` places tags in the band
    clear of each other and of ``keep_off`` (the pieces drawn later). Yields the tags' boxes as they
    are settled (after ``keep_off``'s)."""
    settled = list(keep_off)
    token = _BAND.set((band, tuple(avoid), settled, []))
    try:
        yield settled
    finally:
        _BAND.reset(token)


def _meets(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _shows(box: Box) -> bool:
    confine = _BAND.get()
    if confine is None:
        return True
    band, avoid, _, _ = confine
    inside = band[0] <= box[0] and band[1] <= box[1] and box[2] <= band[2] and box[3] <= band[3]
    return inside and not any(_meets(box, a) for a in avoid)


def settle(box: Box, taken: Sequence[Box] = (), margin: float = 4.0) -> Box | None:
    """Where a tag of ``box`` goes on the confined band: where it is, or moved onto the band when the
    band's edge would cut it, or nudged (``NUDGES``) off the tags settled before it and off ``taken``;
    None when no nudge frees it or it lies wholly off the band (it is then not drawn)."""
    confine = _BAND.get()
    if confine is None:
        return box
    (b0, b1, b2, b3), _, tags, written = confine
    if not _meets(box, (b0, b1, b2, b3)):
        return None
    for nx, ny in NUDGES:
        x0, y0, x1, y1 = box[0] + nx, box[1] + ny, box[2] + nx, box[3] + ny
        dx = max(0.0, b0 + margin - x0) - max(0.0, x1 - (b2 - margin))
        dy = max(0.0, b1 + margin - y0) - max(0.0, y1 - (b3 - margin))
        moved = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        if _shows(moved) and not any(_meets(moved, t) for t in (*tags, *written, *taken)):
            tags.append(moved)
            return moved
    return None


def unwritten(box: Box) -> bool:
    """Whether ``box`` meets no string written so far on the confined band (True outside one)."""
    confine = _BAND.get()
    return confine is None or not any(_meets(box, ink) for ink in confine[3])


def _mask(content: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(content))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), content, fill=255, font=f)
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
    over: RGB | None = None,
) -> None:
    """Like ``draw.text(xy, content, fill=fill, font=font(size))``, from a cached mask.

    ``anchor`` is two letters: horizontal ``l`` (left edge at x), ``m`` (ink centred on x) or
    ``r`` (right edge at x); vertical ``a`` (top of the line at y, as ``draw.text``) or ``m``
    (ink centred on y). ``over``: the one colour the string is written on (a panel's ground), as
    the caller knows it under the string's ink: the string is then pasted already blended onto it,
    from a cache, where it has ink (the same pixels, a tenth of the time: a board's header and panel
    write ~30 strings). On a palette canvas (``renderer.encode.palette_canvas``) nothing can be
    blended: ``over`` is needed there.
    """
    if not content:
        return
    target = draw._image  # the image the draw was made on (Pillow's own attribute)
    confine = _BAND.get()
    on_palette = target.mode == "P"
    if on_palette and over is None:
        raise ValueError(f"a string on a palette canvas is written with its ground colour (over=): {content!r}")
    # a recording test blends in place on RGB, to check the pasted strings give the same pixels
    stamp = None
    if over is not None and (on_palette or (confine is None and not layout.is_recording())):
        key = (content, size, bold, fill, over, on_palette)
        stamp = _STAMPS.get(key, lambda: _stamp(content, size, bold, fill, over, on_palette))
        patch, inked, mask, dx, dy, advance = stamp
    else:
        mask, dx, dy = _cached(content, size, bold)
    width, height = mask.size
    x, y = xy
    if anchor[0] == "m":
        x -= dx + width / 2
    elif anchor[0] == "r":
        x -= advance if stamp is not None else text_length(content, size, bold)
    if anchor[1] == "m":
        y -= dy + height / 2
    left, top = round(x) + dx, round(y) + dy
    ink = (left, top, left + width, top + height)
    if confine is not None:
        if not _shows(ink):
            return
        confine[3].append(ink)  # a tag settled later keeps off it
    if stamp is not None:  # only where the string has ink: a shape beside it may reach into its box
        target.paste(patch, ink, inked)
    else:
        draw.bitmap((left, top), mask, fill=fill)
    layout.place("text", ink, content, mask)


# A string already blended on its ground (``write``'s ``over``), the pixels it inks, its glyph mask,
# where its ink starts and its advance: one lookup a string (a board writes ~40 of them so).
Stamp = tuple[Image.Image, Image.Image, Image.Image, int, int, float]
_STAMPS: LruCache[Stamp] = LruCache(2048)


def _stamp(content: str, size: int, bold: bool, fill: RGB, over: RGB, on_palette: bool) -> Stamp:
    mask, dx, dy = _cached(content, size, bold)
    patch = _blended(mask, fill, over)
    inked = mask.point(lambda v: 255 if v else 0)  # pasted through it: the ground elsewhere is kept
    return (indexed(patch) if on_palette else patch), inked, mask, dx, dy, text_length(content, size, bold)


def _blended(mask: Image.Image, fill: RGB, over: RGB) -> Image.Image:
    """``mask`` stamped in ``fill`` on a patch of ``over``: what ``write`` stamps on ground of that colour."""
    patch = Image.new("RGB", mask.size, over)
    ImageDraw.Draw(patch).bitmap((0, 0), mask, fill=fill)
    return patch


def text_length(content: str, size: int = 14, bold: bool = False) -> float:
    """The advance width of ``content`` at ``size`` (cached)."""
    return _LENGTHS.get((content, size, bold), lambda: font(size, bold).getlength(content))


def text_bbox(content: str, size: int = 14, bold: bool = False) -> tuple[int, int, int, int]:
    """The ink box of ``content`` drawn at (0, 0) with the top-left anchor."""
    mask, dx, dy = _cached(content, size, bold)
    return dx, dy, dx + mask.width, dy + mask.height
