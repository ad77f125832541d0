"""Peloton's board drawn on the palette (``compose(indexed=True)``, as ``paint`` draws it) is the RGB
board mapped onto the palette, pixel for pixel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image

from renderer.peloton.painter import compose
from rules.game import Choice
from rules.i18n import speaking
from tests.support.board_palette import boards_drawn_both_ways


def _board(state: Any, offered: Sequence[Choice], n: int, indexed: bool) -> Image.Image:
    legend = ("alice + bob",) if n % 2 else ()
    return compose(state, highlight=offered, legend=legend, indexed=indexed)[0]


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_indexed_board_of_a_race_is_the_rgb_board_mapped(language: str) -> None:
    """Every eighth board of a whole race, with the hexagons on offer and a legend under every other
    one: the header and the panel (the cyclists' tokens, pasted from patches drawn in RGB, two-figure
    numbers over their discs' outlines) drawn on the palette give the pixels of the whole RGB
    picture mapped."""
    with speaking(language):
        assert boards_drawn_both_ways("peloton", seed=2, every=8, draw=_board) > 20
