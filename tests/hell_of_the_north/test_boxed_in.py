"""R-HOTN-BOXED-IN: "A rider may not pass through a square occupied by another rider, unless there
is no other option" and "A rider may not stay in place". Only a rider with no other square rides
through; one with a square of its own may not name a path through an occupied one."""

from __future__ import annotations

from typing import Any

from rules.hell_of_the_north.moves import ride_options
from rules.hell_of_the_north.setup import build
from rules.hell_of_the_north.turn import advance


def _state(riders: dict[str, Any]) -> Any:
    return advance(
        build(
            {
                "track": {"lanes": 3, "profile": "P" * 80, "finish": 70, "energy": 30},
                "seed": 3,
                "players": [{"id": "ann", "team": "black"}, {"id": "bob", "team": "white"}],
                "start": {"turn": 5, "peloton": {"at": 5}, "riders": riders},
            }
        )
    )


def test_a_rider_boxed_in_on_the_edge_lane_rides_through_an_occupied_square() -> None:
    """Both squares ahead of 20.0 are taken (21.0 and 21.1); 21.2 is free, so the row is not full,
    but out of reach: before issue 24 the rider had no option at all (stuck)."""
    state = _state(
        {
            "black-rouleur": {"at": "20.0", "energy": 10},
            "white-rouleur": {"at": "21.0", "energy": 10},
            "white-leader": {"at": "21.1", "energy": 10},
        }
    )
    options = ride_options(state, "black-rouleur")
    assert options, "a boxed-in rider must have a way forward"
    assert all(o.crossings >= 1 for o in options)
    assert {o.via[0] for o in options} <= {"21.0", "21.1"}
    cheapest = min(options, key=lambda o: (o.squares, o.cost))
    assert (cheapest.squares, cheapest.crossings, cheapest.cost) == (2, 1, 1)  # 2 of 3 free squares, +1 crossed
    assert cheapest.to.startswith("22.")


def test_a_rider_with_a_free_square_may_not_name_a_path_through_an_occupied_one() -> None:
    """From 20.1 the square 21.2 is free, so 21.0 and 21.1 may not be ridden through."""
    state = _state(
        {
            "black-rouleur": {"at": "20.1", "energy": 10},
            "white-rouleur": {"at": "21.0", "energy": 10},
            "white-leader": {"at": "21.1", "energy": 10},
        }
    )
    assert ride_options(state, "black-rouleur")
    assert ride_options(state, "black-rouleur", route=("21.1", "22.1")) == []
    assert all(o.crossings == 0 for o in ride_options(state, "black-rouleur"))
