"""The Leader 1 road layer kept between boards gives the bytes a board drawn from scratch has."""

from __future__ import annotations

from bot.cli.sim import simulate
from renderer import board
from renderer.board import render_board
from rules.leader1.engine import pending
from rules.leader1.moves import ride_options
from rules.memo import Recent
from rules.record import replay


def test_boards_from_the_kept_road_layer_are_the_boards_drawn_from_scratch() -> None:
    record, _ = simulate("leader1", players=4, seed=11, stage="grand-tour")
    states = [
        replay(record.with_actions(record.actions[: int(len(record.actions) * f)])).state for f in (0.3, 0.31, 0.6)
    ]
    fresh = []
    for state in states:
        board._ROAD_LAYERS = Recent(8)  # nothing kept: drawn from scratch
        decision = pending(state)
        highlight = ride_options(state, decision.rider) if decision and decision.rider else None
        fresh.append(render_board(state, highlight=highlight))
    board._ROAD_LAYERS = Recent(8)
    for _ in range(2):  # the second round draws every board on a kept layer
        for state, expected in zip(states, fresh, strict=True):
            decision = pending(state)
            highlight = ride_options(state, decision.rider) if decision and decision.rider else None
            assert render_board(state, highlight=highlight) == expected
    assert len(board._ROAD_LAYERS._entries) >= 1
