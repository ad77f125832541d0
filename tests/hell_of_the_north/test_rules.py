"""Hell of the North unit tests: the die, the risk thresholds, courses, energy, feed zones, the
stage result in turns and what a league carries to the next stage."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from rules.errors import InvalidSetup
from rules.game import Seat, Standing
from rules.hell_of_the_north.course import (
    build_course,
    check_plan,
    course_for,
    library,
    load_stage,
    random_plan,
    stage_names,
)
from rules.hell_of_the_north.game import GAME, HellOfTheNorthScoring, check_lobby, record_players
from rules.hell_of_the_north.model import PELOTON, cobble_result, risk_holds
from rules.hell_of_the_north.setup import build
from rules.hell_of_the_north.stage import general_classification, stage_result


def test_the_die_faces() -> None:
    faces = Counter(PELOTON.faces)
    assert len(PELOTON.faces) == 12
    assert {f for f in faces if isinstance(f, str)} == {"yellow-4", "blue-4", "orange-4", "red-4"}
    assert faces[3] == 3 and faces[5] == 3


def test_risk_thresholds() -> None:
    assert [risk_holds(f, 0) for f in (3, 4, "red-4", 5)] == [False, True, True, True]
    assert [risk_holds(f, 1) for f in (4, "blue-4", 5)] == [False, False, True]
    for taken in (2, 3, 7):  # the 3rd and every later risk (R-HOTN-RISK-4TH)
        assert [risk_holds(f, taken) for f in (5, "yellow-4", "blue-4", "orange-4", "red-4")] == [
            False,
            True,
            True,
            False,
            False,
        ]
    assert [cobble_result(f) for f in ("orange-4", "blue-4", "red-4", "yellow-4", 5)] == [
        "fall",
        "fall",
        "puncture",
        "safe",
        "safe",
    ]


def test_the_library_has_20_route_hexagons_with_cobbles_and_dark_squares() -> None:
    tiles = library().tiles
    assert len(tiles) == 20
    assert any("c" in t.surface for t in tiles.values()) and any(t.dark for t in tiles.values())
    assert {t.terrain for t in tiles.values()} == {"P", "R", "M", "D"}


@pytest.mark.parametrize("seed", range(40))
def test_random_routes_honour_the_setup_rules(seed: int) -> None:
    plan = random_plan(5 + seed % 16, seed)
    check_plan(plan)  # raises on any broken rule
    course = build_course(plan)
    tiles = [library().tiles[t] for t in plan.tiles]
    feet = [i for i, t in enumerate(tiles) if t.terrain == "M" and (i == 0 or tiles[i - 1].terrain != "M")]
    assert [i for i, _ in plan.mountains] == feet  # one marker at the foot of each mountain
    assert all(1 <= c <= 4 for _, c in plan.mountains)
    assert len(set(plan.weather)) == len(plan.weather) <= 6
    if tiles[-1].terrain == "M":
        assert plan.sprint is None and all(last != course.road.finish - 1 for _, last in course.sprint_zones)
    else:
        assert plan.sprint in (len(tiles) - 1, len(tiles) - 2)


def test_no_sprint_marker_when_the_finish_is_on_a_mountain() -> None:
    plan = random_plan(6, 1)
    mountain = next(t for t, tile in library().tiles.items() if tile.terrain == "M" and t not in plan.tiles[:-1])
    summit = replace(plan, tiles=(*plan.tiles[:-1], mountain), sprint=len(plan.tiles) - 1, mountains=())
    with pytest.raises(InvalidSetup):
        check_plan(summit)


def test_starting_energy_is_the_sum_of_the_milestones() -> None:
    course = course_for("roubaix")
    assert course.road.energy == sum(library().tiles[p.tile].milestone for p in course.road.tiles)
    state = build(
        {
            "track": "hell-of-the-north/roubaix",
            "seed": 1,
            "players": [{"id": "a", "team": "black"}, {"id": "b", "team": "white", "carry": {"leader": 7}}],
        }
    )
    assert state.rider("black-leader").energy == course.road.energy
    assert state.rider("white-leader").energy == course.road.energy + 7


def test_passing_a_feed_zone_draws_a_tile_kept_face_down() -> None:
    from rules.hell_of_the_north.engine import apply, pending

    record = {
        "track": {"lanes": 3, "profile": "P" * 40, "finish": 30, "energy": 30, "feed": [22]},
        "seed": 5,
        "players": [{"id": "a", "team": "black"}, {"id": "b", "team": "white"}],
        "start": {"turn": 3, "peloton": {"at": 5}, "riders": {"black-rouleur": {"at": "20.1"}}},
    }
    state = build(record)
    assert pending(state) is not None
    from rules.action import Action

    state, events = apply(state, Action("a", "ride", rider="black-rouleur", to="23.1"))
    assert len(state.rider("black-rouleur").kept) == 1
    assert any(e.type == "fed" for e in events)
    view = GAME.rules.public_view(state)
    assert view["riders"]["black-rouleur"]["kept"] == 1  # a count: the value stays secret
    assert GAME.secrets.hides_from(state, "b") and not GAME.secrets.hides_from(state, "a")


def test_stage_result_in_turns() -> None:
    from bot.cli.sim import simulate

    _, state = simulate("hell-of-the-north", players=3, seed=2, stage="ardennes")
    lines = stage_result(state)
    finished = [line for line in lines if not line.eliminated]
    assert finished[0].won == 2 and finished[1].won == 1
    first_turn = min(r.arrived_turn or 0 for r in state.riders if r.arrived_turn)
    for line in finished:
        r = state.rider(line.rider)
        assert line.turns == (r.arrived_turn or 0) - first_turn - line.won - r.bonuses
    ordered, out = general_classification({"x": 0, "y": 30}, set(), [])
    assert "y" in out and ordered[0][0] == "x"  # more than 22 turns behind the leader: out


def test_league_carries_energy_capped_and_pursuits() -> None:
    scoring = HellOfTheNorthScoring()
    standings = {
        "black-rouleur": Standing("black-rouleur", "a", -3, {"turns": 3, "energy": 15, "pursuits": 2}),
        "black-leader": Standing("black-leader", "a", 0, {"turns": 0, "energy": 9, "pursuits": 2}),
        "black-climber": Standing("black-climber", "a", -30, {"turns": 30}, eliminated=True),
    }
    seat = Seat("a", "Ann", "black", ("rouleur", "leader", "climber"))
    nxt = scoring.next_seat(seat, standings)
    assert nxt is not None and nxt.kinds == ("rouleur", "leader")
    player = record_players([nxt])[0]
    assert player["carry"] == {"rouleur": 15, "leader": 9} and player["pursuits"] == 2
    assert player["gc"] == {"rouleur": 3, "leader": 0}
    assert scoring.stage_options({}) == {"multi_day": True}


def test_lobby_qualities_one_a_rider() -> None:
    good = Seat("a", "Ann", "black", ("rouleur", "leader", "climber"), {"attack": "rouleur", "sprint": "leader"})
    bad = Seat("b", "Bob", "white", ("rouleur", "leader", "climber"), {"attack": "leader", "sprint": "leader"})
    assert check_lobby([good, good], 3) is None
    assert check_lobby([good, bad], 3) is not None
    assert record_players([good])[0]["attack"] == "rouleur"


@pytest.mark.parametrize("name", stage_names())
def test_every_stage_has_one_or_two_time_bonus_markers_for_a_multi_day_race(name: str) -> None:
    """Setup 1.2: "In a multi-day race, place one or two 'time bonus' markers": every shipped stage
    can be a league's stage, so each has them; a one-day race takes them (and their zones) off."""
    plan = load_stage(name)
    assert 1 <= len(plan.bonus) <= 2
    race = {
        "track": f"hell-of-the-north/{name}",
        "seed": 1,
        "players": [{"id": "a", "team": "black"}, {"id": "b", "team": "white"}],
    }
    assert build({**race, "options": {"multi_day": True}}).setup.road.bonus
    assert not build(race).setup.road.bonus
    with pytest.raises(InvalidSetup):
        check_plan(replace(plan, bonus=()))
