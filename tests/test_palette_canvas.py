"""A palette canvas (``renderer.encode.palette_canvas``) gives the pixels that drawing in RGB and
mapping the picture onto the palette gives, so a board may draw its one-colour parts on it."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from renderer.encode import indexed, nearest, palette_canvas, palette_colours, png_bytes
from renderer.palette import INK, PANEL, SWATCHES, WHITE, font
from renderer.text import write
from tests.support.pictures import picture

OFF_PALETTE = (123, 45, 67)  # no swatch, no blend of one: mapped to its nearest colour


def _drawn(image: Image.Image) -> Image.Image:
    """Shapes of every swatch and of a colour off the palette, and strings on a known ground."""
    draw = ImageDraw.Draw(image)
    for n, colour in enumerate([*SWATCHES, OFF_PALETTE]):
        x, y = 20 * (n % 30), 40 + 20 * (n // 30)
        draw.rectangle((x, y, x + 15, y + 15), fill=colour, outline=INK)
        draw.ellipse((x + 2, y + 2, x + 13, y + 13), fill=WHITE, outline=colour, width=2)
    draw.polygon([(10, 200), (300, 180), (200, 290)], fill=OFF_PALETTE, outline=INK)
    draw.line((0, 299, 599, 250), fill=INK, width=4)
    draw.rectangle((300, 200, 599, 299), fill=PANEL)
    write(draw, (310, 210), "Last turn · Utolsó kör · Poslední kolo", fill=INK, size=18, bold=True, over=PANEL)
    write(draw, (590, 270), "42", fill=INK, size=24, anchor="rm", over=PANEL)
    return image


def test_drawing_on_a_palette_canvas_gives_the_mapped_rgb_picture() -> None:
    on_canvas = _drawn(palette_canvas((600, 300), (250, 250, 245)))
    mapped = indexed(_drawn(Image.new("RGB", (600, 300), (250, 250, 245))))
    assert on_canvas.tobytes() == mapped.tobytes()
    rgb = _drawn(Image.new("RGB", (600, 300), (250, 250, 245)))
    assert picture(png_bytes(on_canvas)) == picture(png_bytes(rgb))


def test_a_colour_off_the_palette_is_mapped_not_added() -> None:
    canvas = palette_canvas((4, 4), WHITE)
    ImageDraw.Draw(canvas).rectangle((0, 0, 3, 3), fill=OFF_PALETTE)
    assert canvas.getpixel((1, 1)) == nearest(OFF_PALETTE)
    assert palette_colours()[nearest(OFF_PALETTE)] != OFF_PALETTE
    assert bytes(canvas.getpalette() or []) == bytes(c for colour in palette_colours() for c in colour)


def test_a_swatch_is_its_own_palette_colour() -> None:
    assert all(palette_colours()[nearest(colour)] == colour for colour in SWATCHES)


def test_a_string_on_a_canvas_needs_its_ground() -> None:
    canvas = palette_canvas((200, 40), PANEL)
    with pytest.raises(ValueError, match="over="):
        write(ImageDraw.Draw(canvas), (5, 5), "riders", fill=INK)


@pytest.mark.parametrize("mode", ["RGB", "P"])
def test_a_string_on_its_ground_keeps_a_shape_reaching_into_its_box(mode: str) -> None:
    """``over`` speaks of the ground under the string's ink: a shape beside a string may reach into
    the string's box where it has no ink (a ring in Hell of the North's diary) and stays as blending
    the string in place leaves it."""
    from renderer.layout import recording
    from renderer.text import text_bbox

    content, at = "50 attack", (40, 20)
    x0, y0, x1, y1 = text_bbox(content, 20, True)
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), content, fill=255, font=font(20, True))
    gap = next(x for x in range(mask.width) if not any(mask.getpixel((x, y)) for y in range(mask.height)))
    top = round(at[1] - y0 - mask.height / 2) + y0  # the box's top, as write places an "lm" string

    def shapes(image: Image.Image) -> ImageDraw.ImageDraw:
        draw = ImageDraw.Draw(image)
        draw.line((at[0] + x0 + gap, 0, at[0] + x0 + gap, 39), fill=(20, 80, 160), width=1)  # through the box
        return draw

    in_place = Image.new("RGB", (200, 40), PANEL)
    with recording():  # a recording blends every string in place
        write(shapes(in_place), at, content, fill=INK, size=20, bold=True, anchor="lm", over=PANEL)
    picture = palette_canvas((200, 40), PANEL) if mode == "P" else Image.new("RGB", (200, 40), PANEL)
    write(shapes(picture), at, content, fill=INK, size=20, bold=True, anchor="lm", over=PANEL)
    assert in_place.getpixel((at[0] + x0 + gap, top + 2)) == (20, 80, 160)  # the line crosses the string's box
    assert (picture if mode == "P" else indexed(picture)).tobytes() == indexed(in_place).tobytes()
