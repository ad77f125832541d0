"""Hell of the North rulings the scenarios cannot pin alone: each test fails under the other
reading of the book (docs/rulings.md names them)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.action import Action
from rules.game import Standing
from rules.hell_of_the_north.engine import apply, legal_actions, pending
from rules.hell_of_the_north.game import GAME, HellOfTheNorthScoring
from rules.hell_of_the_north.model import State
from rules.hell_of_the_north.setup import build
from rules.hell_of_the_north.stage import StageLine, general_classification

PLAYERS = [{"id": "ann", "team": "black"}, {"id": "bob", "team": "white"}]


def _record(**extra: Any) -> dict[str, Any]:
    return {
        "track": {"lanes": 3, "profile": "P" * 80, "finish": 70, "energy": 30},
        "seed": 3,
        "players": PLAYERS,
        **extra,
    }


def _play_turn(state: State) -> State:
    """Play to the end of the current turn: every ride goes as far as it can, every other decision passes."""
    turn = state.turn
    while not state.finished and state.turn == turn:
        decision = pending(state)
        assert decision is not None
        if decision.kind == "ride":
            rides = [c for c in legal_actions(state, decision.player) if c.option is not None]
            best = max(rides, key=lambda c: (c.option.squares if c.option else 0, c.action.to or ""))
            action = best.action
        else:
            action = Action(decision.player, "pass")
        state, _ = apply(state, action)
    return state


def test_late_riders_are_out_late_turns_after_the_winner_not_after_the_peloton() -> None:
    """R-HOTN-LATE: counted from the stage winner's arrival (turn 5), whether or not the peloton has
    arrived; the classic counts from the peloton, which here never gets there in time."""
    record = _record(
        options={"late_turns": 2},
        dice={"peloton": [3] * 20},
        start={"turn": 5, "peloton": {"at": 20}, "riders": {"black-rouleur": {"at": "66.1"}}},
    )
    state = _play_turn(build(record))  # turn 5: the rouleur wins, the peloton is far behind
    assert state.rider("black-rouleur").arrived_turn == 5 and state.peloton_arrived_turn is None
    state = _play_turn(state)  # turn 6: one turn after the winner, nobody is out
    assert state.turn == 7 and not any(r.status == "eliminated" for r in state.riders)
    state = _play_turn(state)  # turn 7: late_turns (2) after the winner, the rest are out
    assert state.finished
    out = [r.id for r in state.riders if r.status == "eliminated"]
    assert sorted(out) == sorted(r.id for r in state.riders if r.id != "black-rouleur")
    assert any(e.type == "eliminated" and e.turn == 7 for e in state.events)


def _finished(state: State, arrivals: dict[str, int], energy: dict[str, int]) -> State:
    riders = tuple(
        replace(
            r,
            status="finished",
            part=None,
            arrived_turn=arrivals[r.id],
            row=70,
            lane=0,
            stamp=i,
            energy=energy.get(r.id, r.energy),
        )
        for i, r in enumerate(state.riders)
    )
    return replace(state, riders=riders, phase="finished", queue=())


def test_equal_gc_turns_are_ordered_by_energy_left_then_by_id() -> None:
    """R-HOTN-GC-TIE: black-leader and white-leader end on the same GC turns; white-leader has more
    energy left, so it ranks first although its id comes later."""
    state = build(_record(options={"multi_day": True}))
    arrivals = {
        "black-rouleur": 9,
        "white-rouleur": 9,
        "black-leader": 10,
        "white-leader": 10,
        "black-climber": 11,
        "white-climber": 11,
    }
    final = _finished(state, arrivals, {"black-leader": 4, "white-leader": 12})
    previous = tuple(
        Standing(r.id, r.player, -5 if r.kind == "leader" else 0, {"turns": 5 if r.kind == "leader" else 0})
        for r in final.riders
    )
    standings, _ = HellOfTheNorthScoring().classify(previous, final, {})
    order = [s.piece for s in standings]
    turns = {s.piece: s.resources["turns"] for s in standings}
    assert turns["black-leader"] == turns["white-leader"]
    assert order.index("white-leader") < order.index("black-leader")
    assert order[0] in ("black-rouleur", "white-rouleur")


def _ride_once(track: dict[str, Any], dice: list[int | str], *route: str) -> tuple[State, list[Any]]:
    """black-rouleur (rouleur, 30 energy) rides from 20.1 along ``route`` (the squares, destination last)."""
    record = {
        "track": {"lanes": 3, "finish": 50, "energy": 30, **track},
        "seed": 3,
        "players": PLAYERS,
        "dice": {"peloton": dice},
        "start": {"turn": 5, "peloton": {"at": 2}, "riders": {"black-rouleur": {"at": "20.1"}}},
    }
    action = Action("ann", "ride", rider="black-rouleur", to=route[-1], via=route[:-1])
    return apply(build(record), action)


def test_a_crack_and_a_fall_in_one_move_are_both_rolled_crack_first() -> None:
    """R-HOTN-RISKS-IN-ONE-MOVE: 2 paid squares on a category-1 mountain (a crack) over a dark
    square (a fall): two rolls, the crack's first (its 1st risk), the fall's second (its 2nd)."""
    track = {"profile": "P" * 20 + "M" * 10 + "P" * 30, "mountains": [{"row": 20, "category": 1}], "fall": ["22.1"]}
    state, events = _ride_once(track, [5, 4], "21.1", "22.1", "23.1")
    rolls = [e.data for e in events if e.type == "rolled"]
    assert [(d["risk"], d["value"], d["need"]) for d in rolls] == [("crack", 5, "4 or 5"), ("fall", 4, "5")]
    rider = state.rider("black-rouleur")
    assert rider.risks == 2 and rider.status == "fallen" and rider.energy == 30 - 3  # a fall pays the cost once


ROUTE = ("21.1", "22.1", "23.1", "24.1", "25.1", "26.1")  # 3 free, then a dark square, a dark cobbled one


def test_no_cobble_roll_after_a_fall() -> None:
    """R-HOTN-RISKS-IN-ONE-MOVE: the cobble roll comes last and is not rolled once the rider has fallen."""
    track = {"profile": "P" * 60, "surface": "a" * 25 + "c" + "a" * 34, "fall": ["24.1", "25.1"]}
    state, events = _ride_once(track, [3, "red-4"], *ROUTE)
    assert [e.data["risk"] for e in events if e.type == "rolled"] == ["fall"]
    assert not any(e.type == "cobbles" for e in events)
    assert state.rider("black-rouleur").status == "fallen"
    held, events = _ride_once(track, [5, "red-4"], *ROUTE)  # the fall holds: now the cobbles roll (and puncture)
    assert [e.data["risk"] for e in events if e.type == "rolled"] == ["fall", "cobbles"]
    assert held.rider("black-rouleur").status == "punctured"


@pytest.mark.parametrize(
    ("face", "result", "status", "kept"),
    [("red-4", "puncture", "punctured", False), ("orange-4", "fall", "fallen", False), (3, "safe", "punctured", True)],
)
def test_a_puncture_on_the_cobbles_takes_the_slipstream_from_the_rider_following(
    face: int | str, result: str, status: str, kept: bool
) -> None:
    """R-HOTN-PUNCTURE-SLIPSTREAM: "They lose the slipstream. So do the riders who were following
    them." The white leader rides off 23.1 and leaves a slipstream to the black rouleur right behind
    it (22.1); the black leader then rides onto 23.1 and punctures (or falls) on its dark cobbled
    square: the rouleur now follows a rider who stays there and has no slipstream any more. If the
    cobbles hold, nothing takes it away."""
    players = [
        {"id": "ann", "team": "black", "riders": ["rouleur", "leader"]},
        {"id": "bob", "team": "white", "riders": ["rouleur", "leader"]},
    ]
    record = {
        "track": {
            "lanes": 3,
            "profile": "P" * 60,
            "surface": "a" * 23 + "c" + "a" * 36,
            "finish": 50,
            "energy": 30,
            "fall": ["23.1"],
        },
        "seed": 3,
        "players": players,
        "dice": {"peloton": [3, face]},
        "start": {
            "turn": 5,
            "peloton": {"at": 2},
            "riders": {
                "black-rouleur": {"at": "19.2"},
                "black-leader": {"at": "20.1", "status": "punctured"},
                "white-leader": {"at": "23.1", "status": "punctured"},
                "white-rouleur": {"at": "17.0", "status": "punctured"},
            },
        },
    }
    state = build(record)
    for action in (
        Action("ann", "ride", rider="black-rouleur", to="22.1", via=("20.2", "21.2")),
        Action("ann", "pass"),  # pursuit: nobody speeds the empty peloton up
        Action("bob", "pass"),
        Action("bob", "ride", rider="white-leader", to="25.1", via=("24.1",)),  # the punctured ride last
    ):
        state, _ = apply(state, action)
    assert state.rider("black-rouleur").slipstream  # the white leader moved off 23.1, 2 squares
    state, events = apply(state, Action("ann", "ride", rider="black-leader", to="23.1", via=("21.0", "22.0")))
    assert [(e.type, e.data.get("result")) for e in events if e.type == "cobbles"] == [("cobbles", result)]
    leader = state.rider("black-leader")
    assert leader.cell == "23.1" and leader.status == (status if result != "safe" else "breakaway")
    assert state.rider("black-rouleur").slipstream is kept
    assert ("slipstream" in GAME.rules.public_view(state)["riders"]["black-rouleur"]) is kept
    decision = pending(state)
    assert decision is not None and decision.rider == "white-rouleur"  # the turn goes on


def test_a_rider_timed_out_of_a_stage_is_out_of_the_multi_day_race_whatever_its_gc() -> None:
    # R-HOTN-LATE: the GC leader, 10 turns ahead, is timed out of this stage; the stage winner is
    # 10 turns behind it before the stage, well inside the book's 22, and the leader is out for good
    lines = [
        StageLine("white-rouleur", "bob", -2, 2, 0, 10, False),
        StageLine("black-rouleur", "ann", 0, 0, 0, 0, True),
    ]
    ordered, out = general_classification({"black-rouleur": -10, "white-rouleur": 0}, set(), lines)
    assert out == {"black-rouleur"}
    assert [rid for rid, _ in ordered] == ["white-rouleur", "black-rouleur"]  # the riders out come last
