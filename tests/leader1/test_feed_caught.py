"""C.4 and B.1: a rider the peloton absorbs in the move in which the peloton passes a feed-zone
token (rulings.md R-FEED-CAUGHT).

"The player must pick a 'feed zone' tile for each of his riders that passed the 'feed zone'
token." A rider absorbed behind the token goes past it inside the peloton and picks a tile there,
in its place in the peloton; a rider that rode onto or past the token itself picked its tile then
and gets no second one. The scenario
``tests/leader1/scenarios/c4-a-rider-the-peloton-absorbs-before-the-feed-token-picks-a-tile-with-it.json``
shows the whole position."""

from __future__ import annotations

from typing import Any

from rules.leader1.model import State
from tests.leader1.helpers import inline, play, record, ride

PASS_TO_THE_PELOTON = [{"by": "ann", "do": "pass"}, {"by": "bob", "do": "pass"}, {"by": "ann", "do": "pass"}]


def _race(riders: dict[str, Any], rides: list[dict[str, Any]], feed: int = 12) -> State:
    """Turn 3, the peloton on row 7 (ann holds the token), a 5 on the peloton die: it moves to row 12."""
    rec = record(
        inline("P" * 40, 36, feed=[feed]),
        start={"turn": 3, "peloton": {"at": 7, "leader": "ann"}, "riders": riders},
        actions=[*rides, *PASS_TO_THE_PELOTON],
        dice={"peloton": [5]},
    )
    state = play(rec)
    assert state.peloton == 12 and state.turn == 4
    return state


def test_a_rider_absorbed_before_the_token_picks_a_tile_with_the_peloton() -> None:
    state = _race({"yellow-rouleur": {"at": "8.1"}}, [ride("ann", "yellow-rouleur", "9.1")])
    rouleur = state.rider("yellow-rouleur")
    assert rouleur.status == "peloton"
    assert len(rouleur.kept) == 1
    fed = [e.data["rider"] for e in state.events if e.type == "fed"]
    assert fed.count("yellow-rouleur") == 1
    assert len(fed) == 6  # every rider of the two teams, one tile each


def test_an_absorbed_rider_draws_in_its_place_in_the_peloton() -> None:
    """C.3's peloton order (token holder's riders first): the yellow climber, absorbed behind the
    token, comes before the blue climber and takes the last red tile; the blue one finds the pile empty."""
    eleven = [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5]
    state = _race(
        {"yellow-climber": {"at": "8.0", "kept": eleven}},
        [ride("ann", "yellow-climber", "9.0")],
    )
    assert len(state.rider("yellow-climber").kept) == 12
    assert state.rider("blue-climber").kept == ()
    assert dict(state.piles)["red"] == ()
    assert any(e.type == "feed-empty" and e.data["rider"] == "blue-climber" for e in state.events)


def test_a_rider_that_rode_past_the_token_gets_no_second_tile_when_absorbed() -> None:
    state = _race({"yellow-rouleur": {"at": "10.1"}}, [ride("ann", "yellow-rouleur", "12.1")], feed=11)
    rouleur = state.rider("yellow-rouleur")
    assert rouleur.status == "peloton"
    assert len(rouleur.kept) == 1  # drawn on its own ride past row 11, not again with the peloton
    fed = [e for e in state.events if e.type == "fed" and e.data["rider"] == "yellow-rouleur"]
    assert [e.turn for e in fed] == [3] and len(fed) == 1
