"""Leader 1 as the book says it (issue 10): riders left behind and dropped on purpose ride from
the next turn, punctures after the riders left behind move, feed tiles from finite piles."""

from __future__ import annotations

import pytest

from rules.action import Action
from rules.errors import IllegalAction, MalformedRecord
from rules.leader1 import apply, pending, public_view
from rules.leader1.feed import draw, full_piles
from rules.rng import Dice
from tests.leader1.helpers import act, inline, pass_until_ride
from tests.leader1.test_turn import start


def test_a_rider_who_cannot_pay_is_left_behind_and_rides_from_the_next_turn() -> None:
    state = start({"yellow-rouleur": {"at": None, "energy": 1}}, dice={"peloton": [5, 3]})
    while pending(state).kind == "breakaway":
        state = act(state, f"{pending(state).player} pass")
    state = act(state, "ann pursue")
    rider = state.rider("yellow-rouleur")
    assert rider.status == "dropped" and rider.energy == 1 and rider.row == state.peloton - 2
    # B.5 "As from the following turn, he will play after the peloton": not in this turn's dropped phase
    assert state.turn == 4 and state.phase == "breaking-away"
    state = pass_until_ride(state)
    assert state.turn == 4 and state.phase == "dropped" and pending(state).rider == "yellow-rouleur"


def test_a_rider_dropped_on_purpose_pays_like_the_peloton_and_rides_from_the_next_turn() -> None:
    state = start(dice={"peloton": [5, 3]})
    state = act(state, "ann drop rider=yellow-climber")
    with pytest.raises(IllegalAction, match="not in the peloton"):
        apply(state, Action("ann", "breakaway", rider="yellow-climber", to="10.1"))
    state = act(state, "ann pass")
    state = act(state, "bob pass")
    state = act(state, "ann pursue")
    climber = state.rider("yellow-climber")
    # B.4 "*Riders in the peloton at the beginning of the movement": it pays 2 for six squares
    assert climber.status == "dropped" and climber.energy == 38 and climber.row == state.peloton - 2
    assert state.rider("yellow-leader").energy == 38
    assert state.turn == 4 and pending(state).kind == "breakaway"  # it did not ride in turn 3
    state = pass_until_ride(state)
    assert state.phase == "dropped" and pending(state).rider == "yellow-climber"


def test_a_rider_dropped_on_purpose_who_cannot_pay_is_left_behind_all_the_same() -> None:
    state = start({"yellow-climber": {"at": None, "energy": 1}}, dice={"peloton": [5]})
    state = act(state, "ann drop rider=yellow-climber")
    state = act(act(act(state, "ann pass"), "bob pass"), "ann pursue")
    assert state.rider("yellow-climber").status == "dropped" and state.rider("yellow-climber").energy == 1
    reasons = [e.data["reason"] for e in state.events if e.type == "dropped"]
    assert reasons == ["cannot pay"]


def test_on_a_red_face_the_riders_left_behind_move_before_the_puncture_rolls() -> None:
    state = start(
        {"blue-rouleur": {"at": "12.1"}, "yellow-leader": {"at": "2.1", "status": "dropped"}},
        dice={"peloton": ["red"], "events": [2, 2, 2, 2, 2, 1]},
    )
    state = act(state, "bob ride rider=blue-rouleur to=14.1")
    state = pass_until_ride(state)
    # C.3 "the peloton (and the riders left behind, if there are any) is placed. Then, all riders ... risk"
    assert state.phase == "dropped" and pending(state).rider == "yellow-leader"
    assert not [e for e in state.events if e.data.get("risk") == "puncture"]
    state = act(state, "ann ride rider=yellow-leader to=5.1")
    types = [(e.type, e.data.get("rider")) for e in state.events if e.turn == 3]
    rode = types.index(("rode", "yellow-leader"))
    rolls = [rid for kind, rid in types[rode:] if kind == "rolled"]
    assert rolls == ["blue-rouleur", "yellow-rouleur", "yellow-climber", "blue-leader", "blue-climber", "yellow-leader"]
    leader = state.rider("yellow-leader")
    assert leader.status == "punctured" and leader.cell == "5.1"  # punctured where it rode to
    assert state.turn == 4


def test_feed_tiles_are_36_in_three_piles_of_12_worth_2_to_5() -> None:
    piles = dict(full_piles())
    assert sorted(piles) == ["green", "red", "yellow"]
    assert all(len(tiles) == 12 and set(tiles) <= {2, 3, 4, 5} for tiles in piles.values())


def test_a_pile_is_drawn_without_replacement_until_it_runs_out() -> None:
    piles = full_piles()
    dice = Dice.new(11)
    drawn = []
    for _ in range(12):
        value, dice, piles = draw(dice, piles, "green")
        drawn.append(value)
    assert sorted(drawn) == list(dict(full_piles())["green"])  # every tile once
    assert draw(dice, piles, "green")[0] is None
    assert dict(piles)["yellow"] == dict(full_piles())["yellow"]  # each colour its own pile


def test_the_last_red_tile_goes_to_the_first_climber_past_the_zone_the_next_finds_the_pile_empty() -> None:
    track = inline("P" * 40, 36, feed=[12])
    eleven = [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5]
    state = start(
        {"yellow-climber": {"at": "10.1", "kept": eleven}, "blue-climber": {"at": "10.2"}}, track=track, seed=4
    )
    assert dict(state.piles)["red"] == (5,)
    state = act(state, "ann ride rider=yellow-climber to=12.1")
    state = act(state, "bob ride rider=blue-climber to=12.2")
    assert state.rider("yellow-climber").kept == (*eleven, 5)
    assert state.rider("blue-climber").kept == ()
    assert [(e.type, e.data["rider"]) for e in state.events if e.type in ("fed", "feed-empty")] == [
        ("fed", "yellow-climber"),
        ("feed-empty", "blue-climber"),
    ]
    assert public_view(state)["piles"] == {"green": 12, "yellow": 12, "red": 0}


def test_a_dice_script_may_only_draw_tiles_the_pile_holds() -> None:
    track = inline("P" * 40, 36, feed=[12])
    with pytest.raises(MalformedRecord, match=r"feed-red\[3\]"):
        start(track=track, dice={"feed-red": [5, 5, 5, 5]})
    with pytest.raises(MalformedRecord, match="kept"):
        start({"yellow-climber": {"at": "10.1", "kept": [5, 5, 5, 5]}}, track=track)
