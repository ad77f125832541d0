"""A road laid straight for drawing keeps every cell, its row, lane, successors and attributes,
and loses only its bends (renderer/straight.py)."""

from __future__ import annotations

import math

from renderer.straight import straightened
from rules.record import Record, start_state
from rules.registry import find_game


def test_a_bending_road_is_laid_straight_with_the_same_cells() -> None:
    game = find_game("leader1")
    _, state = start_state(
        Record(game="leader1", track=game.tracks.resolve("first-race", 1), players=game.sample_players(4), seed=1)
    )
    track = state.setup.road.track
    assert len({round(h, 6) for h in track.headings}) > 1  # it bends
    straight = straightened(track)
    assert set(straight.cells) == set(track.cells)
    assert (straight.lanes, straight.row_count) == (track.lanes, track.row_count)
    for cid, cell in track.cells.items():
        laid = straight.cells[cid]
        assert (laid.row, laid.lane, laid.successors, dict(laid.attrs)) == (
            cell.row,
            cell.lane,
            cell.successors,
            dict(cell.attrs),
        )
        assert laid.centre == (cell.row + 0.5, track.lanes / 2 - cell.lane - 0.5)
        assert len(laid.polygon) == len(cell.polygon)
        # the same size of square, only turned and moved
        assert math.isclose(math.dist(*laid.polygon[:2]), math.dist(*cell.polygon[:2]), rel_tol=1e-6)
    assert set(straight.headings) == {0.0}
    assert straight.centres[5] == (5.5, 0.0)
