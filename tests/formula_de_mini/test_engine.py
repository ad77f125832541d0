"""Formula Dé Mini rules on the built circuits (the game is not in the registry yet)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.action import Action
from rules.formula_de_mini import ai
from rules.formula_de_mini.engine import apply, legal_actions, pending
from rules.formula_de_mini.model import Moving, State
from rules.formula_de_mini.moves import move_options
from rules.formula_de_mini.setup import build
from rules.rng import Dice

TWO = [{"id": "ann", "team": "red", "cars": 1}, {"id": "bob", "team": "blue", "cars": 1}]


def race(players=TWO, circuit: str = "canyon", seed: int = 1, dice: dict | None = None, **options) -> State:
    return build(
        {
            "track": f"formula-de-mini/{circuit}",
            "players": players,
            "seed": seed,
            "dice": dice or {},
            "options": options,
        }
    )


def place(state: State, car_id: str, **fields) -> State:
    car = replace(state.car(car_id), **fields)
    return replace(state, cars=tuple(car if c.id == car_id else c for c in state.cars))


def turn_of(state: State, car_id: str, step: str = "gear", roll: int = 0, script: dict | None = None) -> State:
    """``car_id`` plays now (a mid-race position for a rule under test)."""
    dice = Dice.new(9, script) if script else state.dice
    return replace(state, moving=Moving(car_id, step, roll=roll), queue=(car_id,), dice=dice)


def test_the_grid_is_set_by_the_black_die_lowest_on_pole_ties_rolled_again() -> None:
    state = race(dice={"black": [12, 12, 15, 3]})
    grid = next(e for e in state.events if e.type == "grid").data["order"]
    # both rolled 12: they roll again, 15 against 3, the 3 takes pole
    assert grid == ["blue-1", "red-1"]
    assert state.car("blue-1").cell == state.setup.circuit.grid[0]


def test_the_start_stall_normal_and_flying() -> None:
    # grid: red rolls 1 (pole), blue 2; at the start red rolls 3 (stalls), blue 20 (flying start)
    state = race(dice={"black": [1, 2, 3, 20]})
    assert [(e.type, e.data.get("car")) for e in state.events if e.type in ("stalled", "flying-start")] == [
        ("stalled", "red-1"),
        ("flying-start", "blue-1"),
    ]
    assert pending(state).kind == "move" and state.moving.roll == 4  # four spaces, no die
    assert state.car("red-1").cell == state.setup.circuit.grid[0]  # stays on the grid this turn
    normal = race(dice={"black": [1, 2, 10], "gear1": [2]})
    assert pending(normal).car == "red-1" and normal.moving.roll == 2  # a normal start rolls 1st gear
    stalled = [e for e in normal.events if e.type == "stalled"]
    assert not stalled


def test_over_revving_is_paid_and_never_on_credit() -> None:
    state = place(race(), "red-1", gear=5, lp=2, started=True, cell="12.0")
    state = turn_of(state, "red-1")
    gears = {c.action.gear: c.lp for c in legal_actions(state, "ann")}
    assert gears == {3: 1, 4: 0, 5: 0, 2: 2}  # 5th to 1st would cost 3 LP: not affordable
    after, _ = apply(state, Action("ann", "gear", car="red-1", gear=3))
    assert after.car("red-1").lp == 1


def test_braking_costs_one_lp_per_space() -> None:
    state = place(race(), "red-1", gear=3, started=True, cell="10.0")
    state = turn_of(state, "red-1", "move", roll=6)
    options = {(c.option.to, c.option.brake) for c in legal_actions(state, "ann") if c.option}
    assert ("16.0", 0) in options and ("14.0", 2) in options
    after, _ = apply(state, Action("ann", "drive", car="red-1", to="14.0", brake=2))
    assert after.car("red-1").lp == 18 and after.car("red-1").cell == "14.0"


def test_overshooting_a_corner_costs_one_lp_a_space_in_the_same_lane() -> None:
    state = place(race(), "red-1", gear=4, started=True, cell="2.0")  # corner 1: rows 4-8, one stop
    state = turn_of(state, "red-1", "move", roll=10)
    full = [c.option for c in legal_actions(state, "ann") if c.option and c.option.brake == 0 and not c.option.turbo]
    # every space past the corner's last row costs one; the inside arrow makes a shorter way out
    assert {o.to for o in full} == {"12.0", "13.1", "14.1"}  # the inside lane (C) is shorter
    assert all(o.overshoot == int(o.to.split(".")[0]) - 8 for o in full)
    for o in full:  # skidding: no lane change once out of the corner
        out = [c for c in o.path if int(c.split(".")[0]) > 8]
        assert len({c.split(".")[1] for c in out}) == 1
    stop_inside = [c.option for c in legal_actions(state, "ann") if c.option and c.option.to == "6.0"]
    assert stop_inside and stop_inside[0].overshoot == 0 and stop_inside[0].brake == 6


def test_a_car_with_no_lp_overshooting_by_one_spins_out_by_two_is_eliminated() -> None:
    base = place(race(), "red-1", gear=3, started=True, cell="6.0", lp=0, corner=None, stops=0)
    state = turn_of(base, "red-1", "move", roll=3)  # 7, 8 in the corner, 9 past it: one space
    spin = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "9.0" and not c.option.brake)
    after, events = apply(state, spin.action)
    car = after.car("red-1")
    assert [e.type for e in events if e.type in ("spun", "eliminated")] == ["spun"]
    assert (car.status, car.lp, car.cell) == ("spun", 0, "9.0")
    again = turn_of(after, "red-1")
    assert [c.action.gear for c in legal_actions(again, "ann")] == [1]  # starts off again in 1st
    state = turn_of(base, "red-1", "move", roll=4)  # two spaces past: out of the race
    out = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "10.0" and not c.option.brake)
    after, events = apply(state, out.action)
    assert after.car("red-1").status == "eliminated"


THREE = [
    {"id": "ann", "team": "red", "cars": 1},
    {"id": "cy", "team": "blue", "cars": 1},
    {"id": "di", "team": "green", "cars": 1},
]


def walled(roll: int, lp: int = 20, black: list[int] | None = None) -> State:
    state = place(race(THREE), "blue-1", cell="15.0", gear=2, started=True)
    state = place(state, "green-1", cell="15.1", gear=2, started=True)
    state = place(state, "red-1", gear=4, started=True, cell="12.0", lp=lp)
    return turn_of(state, "red-1", "move", roll=roll, script={"black": black or [20, 20, 20, 20]})


def test_blocked_spaces_cost_their_number_in_lp() -> None:
    state = walled(7)  # the road is shut at row 15: the car drives 2 spaces, 5 are blocked
    options = [c.option for c in legal_actions(state, "ann") if c.option]
    assert {o.blocked for o in options} == {5} and max(o.spaces for o in options) == 2
    choice = next(c for c in legal_actions(state, "ann") if c.option and c.option.spaces == 2)
    after, _ = apply(state, choice.action)
    assert after.car("red-1").lp == 15


def test_blocked_seven_spaces_or_unpaid_eliminates_and_hits_a_blocking_car() -> None:
    state = walled(9, black=[4, 20, 20])  # 7 blocked: out; the die picks which car in front is hit
    choice = next(c for c in legal_actions(state, "ann") if c.option and c.option.spaces == 2)
    after, events = apply(state, choice.action)
    assert after.car("red-1").status == "eliminated"
    hit = [e.data["car"] for e in events if e.type == "lost" and e.data["reason"] == "hit by a blocked car"]
    assert len(hit) == 1 and after.car(hit[0]).lp == 18
    poor = walled(4, lp=1)  # 2 blocked, 1 LP: cannot pay
    choice = next(c for c in legal_actions(poor, "ann") if c.option and c.option.spaces == 2)
    after, _ = apply(poor, choice.action)
    assert after.car("red-1").status == "eliminated"


def test_pit_stop_example_seven_lp_rolls_10_then_5_then_15() -> None:
    circuit = race().setup.circuit
    entry = circuit.pit_entry
    state = place(race(), "red-1", gear=3, started=True, cell=entry, lap=2, lp=7)
    state = place(state, "blue-1", cell="30.0", gear=3, started=True, lap=2)
    state = turn_of(state, "red-1", "move", roll=8, script={"black": [10, 5, 15]})
    into = next(c for c in legal_actions(state, "ann") if c.option and c.option.pit)
    assert into.option.to == circuit.stands[0]
    state, _ = apply(state, into.action)
    assert state.car("red-1").status == "pits" and pending(state).kind == "pit-exit"  # rolled 10 >= 7
    state, _ = apply(state, Action("ann", "pass", car="red-1"))  # 10 LP is not enough: wait
    while pending(state) is None or pending(state).car != "red-1":
        decision = pending(state)
        state, _ = apply(state, ai.choose(state, decision.player))
    assert state.car("red-1").status == "pits"  # the 5 was lower than 7: stayed without a choice
    assert [e.data["value"] for e in state.events if e.data.get("reason") == "pit exit"] == [10, 5, 15]
    state, _ = apply(state, Action("ann", "pit", car="red-1", gear=3))
    car = state.car("red-1")
    assert (car.status, car.lp, car.gear, car.pitted) == ("racing", 15, 3, True)


def test_collision_example_a_beside_c_and_behind_d() -> None:
    players = [
        {"id": "ann", "team": "red", "cars": 1},
        {"id": "cy", "team": "blue", "cars": 1},
        {"id": "di", "team": "green", "cars": 1},
    ]
    state = race(players)
    state = place(state, "blue-1", cell="30.0", gear=3, started=True)  # car C, beside where A stops
    state = place(state, "green-1", cell="31.1", gear=3, started=True)  # car D, just ahead of it
    state = place(state, "red-1", cell="27.1", gear=3, started=True)  # car A
    state = turn_of(state, "red-1", "move", roll=3, script={"black": [4, 9, 1, 12]})
    option = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "30.1" and not c.option.brake)
    state, events = apply(state, option.action)
    assert pending(state).kind == "slipstream"  # right behind D in 3rd gear: a slipstream is on offer
    state, more = apply(state, Action("ann", "pass", car="red-1"))
    events += more
    rolls = [
        (e.data["car"], e.data["value"])
        for e in events
        if e.type == "rolled" and e.data.get("reason", "").startswith("collision")
    ]
    assert rolls == [("blue-1", 4), ("green-1", 9), ("red-1", 1), ("red-1", 12)]  # the mover rolls last
    assert state.car("blue-1").lp == 19 and state.car("green-1").lp == 20 and state.car("red-1").lp == 19


def play(state: State, limit: int = 4000) -> tuple[State, list[Action]]:
    actions = []
    while not state.finished and len(actions) < limit:
        decision = pending(state)
        action = ai.choose(state, decision.player)
        state, _ = apply(state, action)
        actions.append(action)
        cells = Counter(c.cell for c in state.cars if c.status in ("racing", "spun", "pits"))
        assert all(n == 1 for n in cells.values())
        assert all(c.lp >= 0 for c in state.cars)
    return state, actions


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), circuit=st.sampled_from(["canyon", "island"]))
def test_ai_races_end_keep_one_car_per_space_and_replay(seed: int, circuit: str) -> None:
    players = [
        {"id": "a", "team": "red", "cars": 2},
        {"id": "b", "team": "blue", "cars": 1},
        {"id": "c", "team": "green", "cars": 1},
    ]
    final, actions = play(race(players, circuit, seed, laps=1))
    assert final.finished
    again = race(players, circuit, seed, laps=1)
    for action in actions:
        again, _ = apply(again, action)
    assert again == final


def test_move_options_cover_every_space_the_die_allows() -> None:
    state = place(race(), "red-1", gear=2, started=True, cell="26.1")
    car = state.car("red-1")
    ends = {o.to for o in move_options(state, car, 3) if o.brake == 0}
    assert ends == {"29.0", "29.1"}


def test_engine_damage_on_12_in_4th_every_car_in_4th_or_5th_rolls() -> None:
    state = place(race(THREE), "red-1", gear=4, started=True, cell="22.0")
    state = place(state, "blue-1", gear=5, started=True, cell="40.0")
    state = place(state, "green-1", gear=2, started=True, cell="45.1")
    state = turn_of(state, "red-1", "move", roll=12, script={"black": [3, 10]})
    state = replace(
        state,
        events=(
            *state.events,
            __import__("rules.leader1.model", fromlist=["event"]).event(
                state.turn, "rolled", die="gear4", value=12, car="red-1"
            ),
        ),
    )
    option = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "34.0" and not c.option.brake)
    after, events = apply(state, option.action)
    engine = [(e.data["car"], e.data["value"]) for e in events if e.data.get("reason") == "engine"]
    assert engine == [("red-1", 3), ("blue-1", 10)]  # green, in 2nd, does not roll
    assert after.car("red-1").lp == 18 and after.car("blue-1").lp == 20


def test_turbo_once_a_race_three_lp_one_more_space() -> None:
    state = place(race(), "red-1", gear=3, started=True, cell="22.0")
    state = turn_of(state, "red-1", "move", roll=5)
    turbo = next(c for c in legal_actions(state, "ann") if c.option and c.option.turbo)
    assert turbo.option.spaces == 6 and turbo.lp == 3
    after, _ = apply(state, turbo.action)
    if pending(after) is not None and pending(after).kind == "slipstream":
        after, _ = apply(after, Action("ann", "pass", car="red-1"))
    car = after.car("red-1")
    assert car.turbo_used and car.lp == 17 and car.cell == turbo.option.to
    again = turn_of(after, "red-1", "move", roll=5)
    assert not any(c.option and c.option.turbo for c in legal_actions(again, "ann"))


def test_no_braking_into_a_slipstream() -> None:
    state = place(race(), "blue-1", gear=3, started=True, cell="30.0")
    state = place(state, "red-1", gear=3, started=True, cell="22.0")
    state = turn_of(state, "red-1", "move", roll=8)  # 8 spaces reach row 30 only by braking one
    braked = next(c for c in legal_actions(state, "ann") if c.option and c.option.to == "29.0")
    assert braked.option.brake == 1
    after, _ = apply(state, braked.action)
    assert pending(after) is None or pending(after).kind != "slipstream"


def test_the_blocking_table_one_to_six() -> None:
    for blocked in range(1, 7):
        state = walled(2 + blocked)
        options = [c.option for c in legal_actions(state, "ann") if c.option]
        assert {o.blocked for o in options} == {blocked}
        after, _ = apply(state, next(c for c in legal_actions(state, "ann") if c.option.spaces == 2).action)
        assert after.car("red-1").lp == 20 - blocked


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), circuit=st.sampled_from(["canyon", "island"]), chooser=st.integers(0, 2**31))
def test_random_legal_play_ends_with_one_car_per_space_and_no_negative_lp(
    seed: int, circuit: str, chooser: int
) -> None:
    from rules.rng import below

    state = race([{"id": "a", "team": "red", "cars": 2}, {"id": "b", "team": "blue", "cars": 2}], circuit, seed, laps=1)
    rng = chooser
    for _ in range(5000):
        if state.finished:
            break
        decision = pending(state)
        choices = legal_actions(state, decision.player)
        assert choices
        pick, rng = below(rng, len(choices))
        state, _ = apply(state, choices[pick].action)
        cells = Counter(c.cell for c in state.cars if c.status in ("racing", "spun", "pits"))
        assert all(n == 1 for n in cells.values())
        assert all(c.lp >= 0 for c in state.cars)
    assert state.finished


def test_an_inline_circuit() -> None:
    from rules.formula_de_mini.setup import build as build_record

    track = {
        "lanes": 2,
        "laps": 1,
        "grid": 4,
        "segments": [
            {"straight": 6},
            {"corner": 1, "stops": 1, "outside": 4, "inside": 2, "turn": -180},
            {"straight": 6},
            {"corner": 2, "stops": 1, "outside": 4, "inside": 2, "turn": -180},
            {"straight": 4},
        ],
        "pit": {"from": 16, "to": 22, "stands": [0, 1, 2, 3]},
    }
    state = build_record({"track": track, "players": TWO, "seed": 2})
    assert state.setup.circuit.rows == 24 and state.setup.track_name == "inline"
