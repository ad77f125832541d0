"""Formula Dé Mini as the book says it (issue 10): the car hit by a blocked-out car is a
reported roll, a slipstream can be braked, the pit lane is a lane, the first lap's pit stop."""

from __future__ import annotations

from dataclasses import replace

from rules.action import Action
from rules.formula_de_mini import ai
from rules.formula_de_mini.engine import apply, legal_actions, pending
from rules.formula_de_mini.model import State
from tests.formula_de_mini.test_engine import THREE, place, race, turn_of, walled


def test_the_roll_that_picks_the_car_hit_is_an_event_like_every_roll() -> None:
    state = walled(9, black=[14])  # 7 blocked: out; two cars in front, the black die picks one
    choice = next(c for c in legal_actions(state, "ann") if c.option and c.option.spaces == 2)
    _, events = apply(state, choice.action)
    rolled = [e.data for e in events if e.type == "rolled" and e.data.get("reason") == "which car is hit"]
    assert rolled == [
        {"die": "black", "value": 14, "car": "red-1", "reason": "which car is hit", "among": ["blue-1", "green-1"]}
    ]
    hit = [e.data["car"] for e in events if e.type == "lost" and e.data["reason"] == "hit by a blocked car"]
    assert hit == ["green-1"]  # 1-10 the car in the left lane, 11-20 the next


def test_three_cars_in_front_split_the_black_die_six_faces_each_and_roll_19_20_again() -> None:
    four = [*THREE, {"id": "eve", "team": "yellow", "cars": 1}]
    state = race(four, "island")
    for car, cell in (("blue-1", "15.0"), ("green-1", "15.1"), ("yellow-1", "15.2")):
        state = place(state, car, cell=cell, gear=2, started=True)
    state = place(state, "red-1", gear=4, started=True, cell="12.1")
    state = turn_of(state, "red-1", "move", roll=9, script={"black": [19, 8, 20, 20, 20]})
    choice = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "14.1")
    _, events = apply(state, choice.action)
    rolls = [e.data["value"] for e in events if e.data.get("reason") == "which car is hit"]
    assert rolls == [19, 8]
    assert [e.data["car"] for e in events if e.type == "lost"] == ["green-1"]


def behind_blue(lp: int = 20, green: str | None = None) -> State:
    """Red has driven 7 in 3rd to 29.0, right behind blue (3rd) at 30.0: a slipstream is on."""
    players = THREE if green else [THREE[0], {"id": "cy", "team": "blue", "cars": 1}]
    state = place(race(players), "blue-1", gear=3, started=True, cell="30.0")
    if green:
        state = place(state, "green-1", gear=3, started=True, cell=green)
    state = place(state, "red-1", gear=3, started=True, cell="22.0", lp=lp)
    state = turn_of(state, "red-1", "move", roll=7)
    drive = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "29.0")
    state, _ = apply(state, drive.action)
    assert pending(state).kind == "slipstream"
    return state


def test_a_slipstream_may_be_shortened_by_braking_one_lp_a_space() -> None:
    state = behind_blue()
    offered = {(c.option.to, c.option.spaces, c.option.brake, c.lp) for c in legal_actions(state, "ann") if c.option}
    assert ("30.1", 1, 2, 3) in offered and ("31.0", 2, 1, 2) in offered and ("32.0", 3, 0, 1) in offered
    after, events = apply(state, Action("ann", "slipstream", car="red-1", to="31.0", brake=1))
    assert after.car("red-1").cell == "31.0" and after.car("red-1").lp == 18
    assert [(e.data["spaces"], e.data["brake"]) for e in events if e.type == "slipstream"] == [(2, 1)]


def test_a_braked_slipstream_is_paid_never_on_credit_and_ends_the_chain() -> None:
    poor = behind_blue(lp=2)
    assert {c.option.brake for c in legal_actions(poor, "ann") if c.option} == {0, 1}  # 3 LP for 2 braked: no
    state = behind_blue(green="32.0")  # two spaces on, red would sit right behind green
    after, _ = apply(state, Action("ann", "slipstream", car="red-1", to="31.0", brake=1))
    # "It is forbidden to brake in order to place your car in position to make a slipstream."
    assert pending(after) is None or pending(after).car != "red-1"
    assert after.car("red-1").cell == "31.0"


def test_the_pit_stop_can_be_made_coming_round_the_first_time() -> None:
    circuit = race().setup.circuit
    for lap, offered in ((0, False), (1, True), (2, True), (3, False)):
        state = place(race(), "red-1", gear=3, started=True, cell=circuit.pit_entry, lap=lap, lp=9)
        state = turn_of(state, "red-1", "move", roll=5)
        stops = [c for c in legal_actions(state, "ann") if c.option and c.option.pit]
        assert bool(stops) == offered, lap
    state = place(race(), "red-1", gear=3, started=True, cell=circuit.pit_entry, lap=1, lp=9, pitted=True)
    state = turn_of(state, "red-1", "move", roll=5)
    assert not any(c.option and (c.option.pit or c.option.pit_lane) for c in legal_actions(state, "ann"))


def waiting_at_red_stand() -> State:
    """Red waits in its stand (56.2, the first); blue, bound for 57.2, comes to the pit entry."""
    circuit = race().setup.circuit
    state = place(race(), "red-1", gear=3, started=True, cell=circuit.stands[0], lap=1, lp=5, status="pits")
    state = place(state, "blue-1", gear=5, started=True, cell=circuit.pit_entry, lap=1, lp=10)
    return turn_of(state, "blue-1", "move", roll=14)


def test_a_car_may_stop_in_the_pit_lane_behind_a_car_there_losing_nothing() -> None:
    state = waiting_at_red_stand()
    lane = {c.option.to: c for c in legal_actions(state, "bob") if c.option and c.option.pit_lane}
    assert set(lane) == {"54.2", "55.2"}  # the pit lane up to the car in front; no passing
    assert all(c.lp == 0 and c.option.brake == 0 and c.option.blocked == 0 for c in lane.values())
    after, events = apply(state, lane["55.2"].action)
    car = after.car("blue-1")
    assert (car.cell, car.lp, car.status, car.pitted) == ("55.2", 10, "racing", False)
    assert not [e for e in events if e.type in ("lost", "eliminated")]


def test_a_car_waiting_in_another_stand_holds_the_pit_lane_only_until_it_leaves() -> None:
    state = waiting_at_red_stand()
    state, _ = apply(state, Action("bob", "drive", car="blue-1", to="55.2"))
    state = place(replace(state, moving=None), "blue-1", gear=5)
    # in the pit lane: over-revving costs nothing, and a car boxed in there pays no blocking
    shifting = turn_of(state, "blue-1")
    assert {c.action.gear: c.lp for c in legal_actions(shifting, "bob")} == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0}
    boxed = turn_of(state, "blue-1", "move", roll=3)
    assert [(c.option.to, c.option.blocked) for c in legal_actions(boxed, "bob")] == [("55.2", 0)]
    gone = place(state, "red-1", status="racing", cell="10.0", pitted=True)  # red has left
    free = turn_of(gone, "blue-1", "move", roll=3)
    stop = [c for c in legal_actions(free, "bob") if c.option and c.option.pit]
    assert [c.option.to for c in stop] == ["57.2"]


def test_the_ai_stops_coming_round_the_first_time_when_the_last_lap_may_cost_more_than_it_has() -> None:
    circuit = race().setup.circuit
    for lap, lp, stops in ((1, 9, True), (1, 18, False), (2, 5, False)):  # 2 laps: the 2nd is the last
        state = place(race(), "red-1", gear=3, started=True, cell=circuit.pit_entry, lap=lap, lp=lp)
        state = turn_of(state, "red-1", "move", roll=5)
        action = ai.choose(state, "ann")
        assert (action.to == circuit.stands[0]) == stops, (lap, lp)
    blocked = waiting_at_red_stand()  # its stand cannot be reached this turn: it waits in the pit lane
    blocked = place(blocked, "blue-1", lp=6)
    assert ai.choose(blocked, "bob").to == "55.2"
