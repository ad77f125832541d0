"""B.2-B.6, C.3, C.4: the turn's order, the peloton, drops, punctures, feed zones, the token."""

from __future__ import annotations

import pytest

from rules.action import Action
from rules.errors import IllegalAction
from rules.leader1 import apply, legal_actions, pending, public_view
from rules.leader1.order import classification
from tests.leader1.helpers import THREE, act, inline, pass_until_ride, play, record

PLAIN = inline("P" * 40, 36)


def start(riders: dict[str, dict[str, object]] | None = None, peloton: int = 5, leader: str = "ann", **kw: object):
    return play(
        record(
            kw.pop("track", PLAIN),
            start={"turn": 3, "peloton": {"at": peloton, "leader": leader}, "riders": riders or {}},
            **kw,
        )
    )


def test_breaking_away_goes_clockwise_from_the_token_holder_skipping_empty_players() -> None:
    state = start(
        {"blue-rouleur": {"at": "10.0"}, "blue-leader": {"at": "10.1"}, "blue-climber": {"at": "10.2"}},
        leader="cat",
        seating=THREE,
    )
    for rid, to in (("blue-rouleur", "11.0"), ("blue-leader", "11.1"), ("blue-climber", "11.2")):
        state = act(state, f"bob ride rider={rid} to={to}")
    order = []
    while pending(state).kind == "breakaway":
        order.append(pending(state).player)
        state = act(state, f"{pending(state).player} pass")
    assert order == ["cat", "ann"]  # bob has no rider left in the peloton
    assert pending(state).kind == "pursuit" and pending(state).player == "cat"


def test_pursuit_adds_one_square_to_the_peloton() -> None:
    for pursue, row in ((False, 8), (True, 9)):
        state = start(dice={"peloton": [3]})
        while pending(state).kind == "breakaway":
            state = act(state, f"{pending(state).player} pass")
        state = act(state, "ann pursue" if pursue else "ann pass")
        assert state.peloton == row


def test_an_empty_peloton_moves_one_more_square() -> None:
    seating = [
        {"id": "ann", "team": "yellow", "riders": ["rouleur"]},
        {"id": "bob", "team": "blue", "riders": ["rouleur"]},
    ]
    state = start(
        {"yellow-rouleur": {"at": "20.0"}, "blue-rouleur": {"at": "20.2"}}, seating=seating, dice={"peloton": [3]}
    )
    state = act(act(state, "ann ride rider=yellow-rouleur to=21.0"), "bob ride rider=blue-rouleur to=21.2")
    state = act(state, "ann pass")
    assert state.peloton == 5 + 3 + 1


@pytest.mark.parametrize(("face", "pursue", "price"), [(3, False, 0), (4, True, 1), (5, True, 2), (4, False, 0)])
def test_peloton_riders_pay_for_fast_moves(face: int, pursue: bool, price: int) -> None:
    state = start(dice={"peloton": [face]})
    while pending(state).kind == "breakaway":
        state = act(state, f"{pending(state).player} pass")
    state = act(state, "ann pursue" if pursue else "ann pass")
    assert all(r.energy == 40 - price for r in state.riders)


def test_seven_squares_cost_three_when_pursued_and_empty() -> None:
    seating = [
        {"id": "ann", "team": "yellow", "riders": ["rouleur"]},
        {"id": "bob", "team": "blue", "riders": ["rouleur"]},
    ]
    state = start({"blue-rouleur": {"at": "9.1"}}, seating=seating, dice={"peloton": [5]})
    state = act(state, "bob ride rider=blue-rouleur to=10.1")
    state = act(state, "ann breakaway rider=yellow-rouleur to=9.0")  # the peloton is now empty
    state = act(state, "ann pursue")
    moved = [e for e in state.events if e.type == "peloton"][-1]
    assert moved.data["squares"] == 7 and state.peloton == 12
    # both riders were reached by the peloton's move of 7 and pay 3 each
    assert state.rider("yellow-rouleur").status == "peloton" and state.rider("blue-rouleur").status == "peloton"
    assert [e.data["cost"] for e in state.events if e.type == "paid"] == [3, 3]


def test_a_dropped_rider_reaching_the_peloton_rejoins_it() -> None:
    state = start({"yellow-leader": {"at": "7.1", "status": "dropped"}}, peloton=10, dice={"peloton": [3]})
    state = pass_until_ride(state)
    assert pending(state).rider == "yellow-leader" and state.peloton == 13
    options = {c.action.to: c.option for c in legal_actions(state, "ann") if c.option}
    rejoin = [o for o in options.values() if o.rejoins]
    assert rejoin and all(o.to.startswith("12.") for o in rejoin)
    assert not any(int(to.split(".")[0]) > 12 for to in options)  # nobody rides through the peloton
    state = act(state, f"ann ride rider=yellow-leader to={rejoin[0].to}")
    assert state.rider("yellow-leader").status == "peloton"


def test_dropped_riders_get_no_slipstream_from_the_peloton() -> None:
    state = start({"yellow-rouleur": {"at": "7.1", "status": "dropped"}}, peloton=9, dice={"peloton": [3]})
    state = pass_until_ride(state)
    assert state.rider("yellow-rouleur").row == 7 and state.peloton == 12
    option = next(c.option for c in legal_actions(state, "ann") if c.option and c.action.to == "10.1")
    assert not option.slipstream and option.free == 3


def test_the_peloton_catches_riders_it_draws_level_with_or_passes() -> None:
    state = start({"yellow-rouleur": {"at": "9.0"}, "blue-rouleur": {"at": "10.2"}}, dice={"peloton": [3]})
    state = act(state, "bob ride rider=blue-rouleur to=11.2")
    state = act(state, "ann ride rider=yellow-rouleur to=10.0")
    state = pass_until_ride(state)
    # peloton 5 + 3 = 8: neither is caught; next turn it reaches them
    assert state.peloton == 8 and state.rider("yellow-rouleur").status == "breakaway"
    state2 = start({"yellow-rouleur": {"at": "8.0"}, "blue-rouleur": {"at": "9.2"}}, dice={"peloton": [3]})
    state2 = act(act(state2, "bob ride rider=blue-rouleur to=10.2"), "ann ride rider=yellow-rouleur to=9.0")
    state2 = pass_until_ride(state2)
    assert state2.peloton == 8
    assert state2.rider("yellow-rouleur").status == "breakaway"  # row 9 is ahead of the peloton front (8)
    state3 = start({"yellow-rouleur": {"at": "7.0"}}, dice={"peloton": [3]})
    state3 = pass_until_ride(act(state3, "ann ride rider=yellow-rouleur to=8.0"))
    assert state3.rider("yellow-rouleur").status == "peloton"  # level with the peloton front: caught


def test_the_token_passes_clockwise_every_turn() -> None:
    state = start(seating=THREE, dice={"peloton": [3, 3, 3]})
    holders = []
    for _ in range(4):
        turn = state.turn
        while state.turn == turn:
            decision = pending(state)
            if decision.kind == "pursuit":
                holders.append(decision.player)
            state = act(state, f"{decision.player} pass")
    assert holders == ["ann", "bob", "cat", "ann"]


def test_red_face_moves_four_and_everyone_rolls_for_a_puncture_in_order() -> None:
    state = start({"blue-rouleur": {"at": "12.1"}}, dice={"peloton": ["red"], "events": [2, 1, 2, 2, 2, 2]})
    state = act(state, "bob ride rider=blue-rouleur to=14.1")
    state = pass_until_ride(state) if pending(state).kind != "ride" else state
    rolls = [e.data["rider"] for e in state.events if e.type == "rolled" and e.data.get("risk") == "puncture"]
    # classification: the breakaway rider, then the peloton: token holder's rouleur, leader, climber, then bob's
    assert rolls == ["blue-rouleur", "yellow-rouleur", "yellow-leader", "yellow-climber", "blue-leader", "blue-climber"]
    assert state.peloton == 9
    punctured = state.rider("yellow-rouleur")
    assert punctured.status == "punctured" and punctured.row == 7  # one square behind the peloton


def test_a_punctured_rider_stays_plays_last_and_blocks_stopping_but_not_crossing() -> None:
    state = start(
        {"blue-rouleur": {"at": "12.1"}, "yellow-rouleur": {"at": "11.0"}},
        dice={"peloton": ["red", 3], "events": [1, 2, 2, 2, 2, 2]},
    )
    state = act(state, "bob ride rider=blue-rouleur to=14.1")
    state = act(state, "ann ride rider=yellow-rouleur to=13.0")
    state = pass_until_ride(state)
    assert state.rider("blue-rouleur").status == "punctured" and state.rider("blue-rouleur").cell == "14.1"
    # next turn: yellow rides first although the punctured blue rider is ahead of it
    assert state.turn == 4 and pending(state).rider == "yellow-rouleur"
    options = {c.action.to: c.option for c in legal_actions(state, "ann") if c.option}
    assert "14.1" not in options
    assert any("14.1" in o.via and o.crossings == 0 for o in options.values())
    state = act(state, "ann ride rider=yellow-rouleur to=16.0")
    state = pass_until_ride(state)
    assert pending(state).rider == "blue-rouleur" and state.phase == "dropped"


def test_feed_zone_tiles_by_colour_kept_hidden_and_eaten_any_time() -> None:
    track = inline("P" * 40, 36, feed=[12])
    state = start({"yellow-climber": {"at": "10.1"}}, track=track, dice={"feed-red": [4], "feed-green": [2]})
    state = act(state, "ann ride rider=yellow-climber to=12.1")
    climber = state.rider("yellow-climber")
    assert climber.kept == (4,)
    view = public_view(state)
    assert view["riders"]["yellow-climber"]["kept"] == 1
    assert all("value" not in e for e in view["events"] if e["type"] == "fed")
    with pytest.raises(IllegalAction):
        apply(state, Action("bob", "eat", rider="yellow-climber", tile=0))
    state = act(state, "ann eat rider=yellow-climber tile=0")
    assert state.rider("yellow-climber").energy == climber.energy + 4 and state.rider("yellow-climber").kept == ()
    assert [e.data["value"] for e in state.events if e.type == "ate"] == [4]


def test_the_peloton_feeds_its_riders_when_it_passes_the_token() -> None:
    track = inline("P" * 40, 36, feed=[7])
    state = start(track=track, dice={"peloton": [3], "feed-green": [5, 5], "feed-yellow": [3, 3], "feed-red": [2, 2]})
    state = pass_until_ride(state)
    assert {r.id: r.kept for r in state.riders} == {
        "yellow-rouleur": (5,),
        "yellow-leader": (3,),
        "yellow-climber": (2,),
        "blue-rouleur": (5,),
        "blue-leader": (3,),
        "blue-climber": (2,),
    }


def test_classification_order_is_road_position_then_latest_arrival() -> None:
    state = start({"blue-rouleur": {"at": "12.1"}, "yellow-leader": {"at": "10.0"}})
    state = act(state, "bob ride rider=blue-rouleur to=14.1")
    state = act(state, "ann ride rider=yellow-leader to=14.0")
    assert [r.id for r in classification(state)][:2] == ["yellow-leader", "blue-rouleur"]
