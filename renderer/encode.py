"""PNG bytes from a drawn board, fast: a fixed palette and a fast deflate (ISA-L).

Pillow saves an RGB image by trying every PNG row filter on every row, which took two
thirds of a board's time. The boards use a few dozen flat colours (``palette.SWATCHES``)
plus the anti-aliased edges between them, so the picture is mapped, without dithering,
onto one fixed 256-colour palette built from those colours, their blends and a grey ramp,
and saved as an indexed PNG: a third of the bytes to compress and no filter search. The
palette is the same for every image, so the same state always gives the same pixels (the
deflate stream is ISA-L's: docs/board.md, "Bytes and pictures").

Mapping a pixel onto the palette is a pass over the whole picture (a third of a board's time).
The parts of a board drawn on one-colour grounds (a header, a panel) can skip it: drawn on a
``palette_canvas``, each colour becomes the index the mapping would give it, and strings come
already mapped (``renderer.text.write``'s ``over``), so only the part drawn with blends (the
road and its pieces) is mapped, and pasted in.
"""

from __future__ import annotations

import struct
import zlib
from functools import cache

from isal import isal_zlib
from PIL import Image, ImageDraw, ImagePalette

from renderer.palette import INK, RGB, SWATCHES

WHITE: RGB = (255, 255, 255)
SEPARATION = 10


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@cache
def palette_colours() -> tuple[RGB, ...]:
    """The 256 colours every board is saved with, most important first (swatches are exact).

    Worked out once a process (it took 75 ms, twice, on each board worker's first board)."""
    colours: list[RGB] = list(dict.fromkeys(SWATCHES))
    taken = set(colours)

    def add(colour: RGB) -> None:
        # Pillow finds a pixel's nearest palette colour from the corner of its 4x4x4 cell of
        # colour space, so a blend closer than that to a swatch could steal the swatch's pixels.
        r, g, b = colour
        near = any(
            abs(r - s0) < SEPARATION and abs(g - s1) < SEPARATION and abs(b - s2) < SEPARATION
            for s0, s1, s2 in SWATCHES
        )
        if not near and colour not in taken and len(colours) < 256:
            colours.append(colour)
            taken.add(colour)

    for level in range(0, 256, 8):
        add((level, level, level))
    for t in (0.5, 0.25, 0.75, 0.375, 0.625, 0.125, 0.875):
        for colour in SWATCHES:
            add(_mix(colour, WHITE, t))
            add(_mix(colour, INK, t))
    while len(colours) < 256:
        colours.append(colours[-1])
    return tuple(colours)


@cache
def _palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in palette_colours() for channel in colour])
    image.load()  # loaded once here, read-only afterwards (shared by threads)
    return image


def prepare() -> None:
    """Work out the palette now (a board worker's warm-up), not on the first board."""
    _palette_image()
    _palette_bytes()


def indexed(image: Image.Image) -> Image.Image:
    """The image mapped onto the fixed palette (nearest colour, no dithering)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    return rgb.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


def nearest(colour: RGB) -> int:
    """The palette index ``indexed`` maps ``colour`` to (nearest colour, as Pillow finds it)."""
    index = _NEAREST.get(colour)
    if index is None:
        pixel = indexed(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
        assert isinstance(pixel, int)
        index = _NEAREST[colour] = pixel
    return index


_NEAREST: dict[RGB, int] = {}  # a board's few dozen colours; a dict's item assignment is atomic


class _Mapping(ImagePalette.ImagePalette):
    """The fixed palette as a canvas's own: a colour drawn with is mapped as ``indexed`` maps it,
    never added (Pillow's palette would give an unknown colour a slot of its own)."""

    def __init__(self) -> None:
        super().__init__("RGB", _palette_bytes())

    def getcolor(self, color: tuple[int, ...], image: Image.Image | None = None) -> int:
        r, g, b = color[:3]
        return nearest((r, g, b))

    def copy(self) -> _Mapping:
        return self  # never changed: a crop or copy of a canvas shares it


@cache
def _mapping() -> _Mapping:
    return _Mapping()


def palette_canvas(size: tuple[int, int], ground: RGB) -> Image.Image:
    """A picture in the palette's indices (mode "P") of ``ground``: draw on it with ``ImageDraw`` in
    RGB colours as on any picture (each is mapped as ``indexed`` would map it); paste on it only
    pictures already ``indexed``. Shapes come out as mapped drawing in RGB would give them (Pillow's
    shapes are not blended at their edges); a string must be written with ``over``."""
    canvas = Image.new("P", size, nearest(ground))
    canvas.putpalette(_palette_bytes())
    canvas.load()
    canvas.palette = _mapping()
    return canvas


def onto_palette(drawn: Image.Image, size: tuple[int, int], ground: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A palette canvas of ``size`` on ``ground`` with ``drawn`` (an RGB picture of its top rows, drawn
    with blends) mapped onto it at the top, and a draw to draw the rest with."""
    canvas = palette_canvas(size, ground)
    canvas.paste(indexed(drawn), (0, 0))
    return canvas, ImageDraw.Draw(canvas)


def png_bytes(image: Image.Image) -> bytes:
    """The image as an indexed PNG (fixed palette), deflated by ISA-L.

    Pillow deflates with the system's zlib, about 3 ms a board at its fastest level, a third
    of the whole board; ISA-L's level 1 (``isal``) does the same rows in about 0.5 ms, to a
    file no larger. Pillow cannot be handed another deflate, so the four chunks of an indexed
    PNG are written here (PNG specification, 11.2): the header, the palette, the rows (each
    led by filter byte 0, "none") deflated in one zlib stream, the end.
    """
    pixels = image if image.palette is _mapping() else indexed(image)  # a palette canvas is mapped already
    width, height = pixels.size
    # one column more on the left, index 0: each row of the bytes then starts with its filter byte 0
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(pixels, (1, 0))
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),  # 8-bit indexed colour
            _chunk(b"PLTE", _palette_bytes()),
            _chunk(b"IDAT", isal_zlib.compress(framed.tobytes(), ISAL_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ISAL_LEVEL = 1  # ISA-L's levels are 0-3; 1 is as fast as 0 and its files a sixth smaller


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


@cache
def _palette_bytes() -> bytes:
    return bytes(channel for colour in palette_colours() for channel in colour)
