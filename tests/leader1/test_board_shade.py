"""The peloton's shaded box is drawn blending (``family_road.shade``): the same bytes as the RGBA
layer composited over a patch of the board, which it replaced (0.4 ms a board less)."""

from __future__ import annotations

import math

import pytest
from PIL import Image, ImageDraw

from bot.cli.sim import simulate
from renderer.leader1 import family_road
from renderer.leader1.board import compose
from renderer.palette import INK, PELOTON
from rules.record import start_state
from rules.track import Point


def _composited(image: Image.Image, points: list[tuple[float, float]], outline: bool) -> None:
    """The shading as it was drawn before: an RGBA layer over an RGBA copy of the box's patch."""
    x0, y0 = max(0, math.floor(min(p[0] for p in points))), max(0, math.floor(min(p[1] for p in points)))
    x1 = min(image.width, math.ceil(max(p[0] for p in points)) + 1)
    y1 = min(image.height, math.ceil(max(p[1] for p in points)) + 1)
    box = (x0, y0, x1, y1)
    patch = image.crop(box).convert("RGBA")
    layer = Image.new("RGBA", patch.size, (0, 0, 0, 0))
    inside = [(x - x0, y - y0) for x, y in points]
    fill = (*PELOTON, family_road.SHADE_ALPHA)
    ImageDraw.Draw(layer).polygon(inside, fill=fill, outline=(*INK, 255) if outline else None)
    image.paste(Image.alpha_composite(patch, layer).convert("RGB"), box)


def test_blending_the_shade_gives_every_byte_compositing_gave_over_every_colour() -> None:
    under = Image.new("RGB", (256, 2))
    under.putdata([(v, 255 - v, (v * 7) % 256) for v in range(256)] * 2)  # every value in every channel
    blended, composited = under.copy(), under.copy()
    square = [(0.0, 0.0), (255.0, 0.0), (255.0, 1.0), (0.0, 1.0)]
    ImageDraw.Draw(blended, "RGBA").polygon(square, fill=(*PELOTON, family_road.SHADE_ALPHA))
    _composited(composited, square, outline=False)
    assert blended.tobytes() == composited.tobytes() != under.tobytes()


@pytest.mark.parametrize("outline", [True, False])
def test_the_boards_of_a_race_shade_the_peloton_as_compositing_did(monkeypatch, outline: bool) -> None:
    seen: list[bool] = []

    def both_ways(image: Image.Image, draw: ImageDraw.ImageDraw, view, corners: list[Point], **_: bool) -> None:
        before = image.copy()  # whatever the board asks, each way is drawn ``outline`` or not
        shaded(image, draw, view, corners, outline=outline)
        _composited(before, [view.px(p) for p in corners], outline)
        family_road.polygon(ImageDraw.Draw(before), [view.px(p) for p in corners], None, INK, 3)
        seen.append(image.tobytes() == before.tobytes())

    shaded = family_road.shade
    monkeypatch.setattr(family_road, "shade", both_ways)
    record, _ = simulate("leader1", seed=5, players=4)
    game, state = start_state(record)
    for action in record.actions[:60]:
        compose(state)
        state, _events = game.rules.apply(state, action)
    assert len(seen) > 20 and all(seen)
