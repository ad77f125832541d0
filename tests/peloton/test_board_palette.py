"""Peloton's board drawn on the palette (``compose(indexed=True)``, as ``paint`` draws it) is
the RGB board mapped onto the palette, pixel for pixel."""

from __future__ import annotations

import pytest

from bot.cli.sim import simulate
from renderer.encode import indexed
from renderer.peloton.painter import compose
from rules.i18n import speaking
from rules.record import start_state


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_indexed_board_of_a_race_is_the_rgb_board_mapped(language: str) -> None:
    """Every eighth board of a whole race, with the hexagons on offer and a legend under every other
    one: the header and the panel (the cyclists' tokens, pasted from patches drawn in RGB, two-figure
    numbers over their discs' outlines) drawn on the palette give the pixels of the whole RGB
    picture mapped."""
    record, _ = simulate("peloton", seed=2, players=4)
    game, state = start_state(record)
    boards = 0
    with speaking(language):
        for n, action in enumerate(record.actions):
            decision = game.rules.pending(state)
            if n % 8 == 0 and decision is not None:
                offered = [c for c in game.rules.choices(state, decision.player) if c.target and c.step is None]
                legend = ("alice + bob",) if n % 2 else ()
                drawn = compose(state, highlight=offered, legend=legend)[0]
                on_palette = compose(state, highlight=offered, legend=legend, indexed=True)[0]
                assert on_palette.tobytes() == indexed(drawn).tobytes(), n
                boards += 1
            state, _events = game.rules.apply(state, action)
    assert boards > 20
