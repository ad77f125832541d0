"""Recovery at a feed zone and Caught by the peloton: a rider the peloton catches in the move in
which it passes a feed-zone marker (rulings.md R-HOTN-FEED-CAUGHT).

"When a rider passes a 'feed zone' marker, whether in a breakaway or in the peloton, the player
may draw a 'feed zone' tile." A rider caught behind the marker goes past it in the peloton and
draws there, in its place in the peloton; a rider that rode onto or past the marker itself drew
then and draws no second tile. The scenario
``tests/hell_of_the_north/scenarios/t4-a-rider-the-peloton-passes-before-the-feed-marker-draws-a-tile-with-it.json``
shows the whole position."""

from __future__ import annotations

from typing import Any

from rules.hell_of_the_north.model import State
from rules.record import parse_record, replay

# the breakaway riders ride, then: bob and ann break away no more, both stay put in the
# peloton, neither speeds it up
PASSES = [{"by": p, "do": "pass"} for p in ("bob", "ann", "ann", "bob", "ann", "bob")]


def _race(riders: dict[str, Any], rides: list[dict[str, Any]], feed: int = 10) -> State:
    """Turn 5, the peloton on row 5 (ann's marker first), a 5 on the peloton die: it moves to row 10."""
    data = {
        "format": "domestique.record/1",
        "game": "hell-of-the-north",
        "options": {},
        "track": {"lanes": 3, "profile": "P" * 80, "finish": 70, "energy": 30, "feed": [feed]},
        "players": [{"id": "ann", "team": "black"}, {"id": "bob", "team": "white"}],
        "seed": 1,
        "dice": {"peloton": [5]},
        "start": {"turn": 5, "peloton": {"at": 5}, "riders": riders},
        "actions": [*rides, *PASSES],
    }
    result = replay(parse_record(data))
    assert result.error_at is None, result.error
    state: State = result.state
    assert state.peloton == 10 and state.turn == 6
    return state


def _ride(rider: str, to: str) -> dict[str, Any]:
    return {"by": "ann", "do": "ride", "rider": rider, "to": to}


def test_a_rider_the_peloton_passes_before_the_marker_draws_with_the_peloton() -> None:
    state = _race({"black-leader": {"at": "6.2"}}, [_ride("black-leader", "8.2")])
    leader = state.rider("black-leader")
    assert (leader.status, leader.part) == ("peloton", "back")
    assert len(leader.kept) == 1
    fed = [e.data["rider"] for e in state.events if e.type == "fed"]
    assert fed.count("black-leader") == 1
    assert len(fed) == 6


def test_a_caught_rider_draws_in_its_place_in_the_peloton() -> None:
    """Riders in the peloton in marker order: the black climber, caught behind the marker, comes
    before the white climber and draws the last red tile; the white one finds the pile empty."""
    eleven = [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5]
    state = _race({"black-climber": {"at": "7.0", "kept": eleven}}, [_ride("black-climber", "8.0")])
    assert len(state.rider("black-climber").kept) == 12
    assert state.rider("white-climber").kept == ()
    assert dict(state.piles)["red"] == ()
    assert any(e.type == "feed-empty" and e.data["rider"] == "white-climber" for e in state.events)


def test_a_rider_that_rode_past_the_marker_draws_no_second_tile_when_caught() -> None:
    state = _race({"black-rouleur": {"at": "8.0"}}, [_ride("black-rouleur", "10.0")], feed=9)
    rouleur = state.rider("black-rouleur")
    assert (rouleur.status, rouleur.part) == ("peloton", "front")
    fed = [e for e in state.events if e.type == "fed" and e.data["rider"] == "black-rouleur"]
    assert len(rouleur.kept) == 1 and [e.turn for e in fed] == [5]
