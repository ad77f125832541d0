"""Hell of the North's board drawn on the palette (``compose(indexed=True)``, as ``paint`` draws it) is
the RGB board mapped onto the palette, pixel for pixel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image

from renderer.hell_of_the_north.painter import compose
from rules.game import Choice
from rules.i18n import speaking
from tests.support.board_palette import boards_drawn_both_ways


def _board(state: Any, offered: Sequence[Choice], n: int, indexed: bool) -> Image.Image:
    legend = ("alice + bob",) if n % 2 else ()
    return compose(state, highlight=offered, legend=legend, indexed=indexed)[0]


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_indexed_board_of_a_race_is_the_rgb_board_mapped(language: str) -> None:
    """Every third board of a whole race, with the squares on offer and a legend under every other
    one: the header and the panel (the teams' diaries, the ring of the rider to act reaching into
    its energy's box) drawn on the palette give the pixels of the whole RGB picture mapped."""
    with speaking(language):
        assert boards_drawn_both_ways("hell-of-the-north", seed=2, every=3, draw=_board) > 30
