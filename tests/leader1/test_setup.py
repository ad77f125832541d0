"""A.1-A.3: routes, riders per player, energy, sprinter and descender; D: stage race and GC."""

from __future__ import annotations

import pytest

from rules.errors import InvalidSetup, MalformedRecord
from rules.leader1.route import StagePlan, build_road, check_plan, library, random_plan, road_for, stage_names
from rules.leader1.stage import Standing, carried_energy, general_classification, stage_result
from rules.record import parse_record, start_state
from tests.leader1.helpers import inline, pass_until_ride, play, record


def plan(tiles: list[str], mountains=(), feed=(1,), bonus=()) -> StagePlan:
    return StagePlan("t", "t", tuple(tiles), tuple(mountains), tuple(feed), tuple(bonus))


def test_the_tile_library_has_21_route_hexagons_of_all_four_terrains() -> None:
    tiles = library().tiles.values()
    route = [t for t in tiles if t.kind == "route"]
    assert len(route) >= 21 and {t.terrain for t in route} == {"P", "R", "M", "D"}
    assert any(t.bend for t in route) and any(t.fall for t in route)
    assert {t.kind for t in tiles} == {"start", "route", "arrival"}


@pytest.mark.parametrize("name", stage_names())
def test_every_shipped_stage_follows_a1(name: str) -> None:
    road = road_for(name)
    assert road.energy == sum(t.milestone for t in road.tiles)
    assert road.tiles[0].kind == "start" and road.tiles[-1].kind == "arrival"


def test_there_are_stages_of_10_15_and_20_hexagons() -> None:
    sizes = {len(road_for(n).tiles) for n in stage_names()}
    assert {10, 15, 20} <= sizes and len(stage_names()) >= 5


def test_start_and_arrival_hexagons_at_the_ends() -> None:
    with pytest.raises(InvalidSetup, match=r"A\.1\.1"):
        check_plan(plan(["P1", "P4", "arrival"]))
    with pytest.raises(InvalidSetup, match=r"A\.1\.1"):
        check_plan(plan(["start", "P1", "P4"]))


def test_a_ground_rise_must_come_before_a_mountain_pass() -> None:
    with pytest.raises(InvalidSetup, match=r"A\.1\.2"):
        check_plan(plan(["start", "P1", "M1", "D1", "arrival"], mountains=[(2, 2)]))
    check_plan(plan(["start", "R1", "M1", "D1", "arrival"], mountains=[(2, 2)]))


def test_each_mountain_pass_needs_a_category_token_from_1_to_3() -> None:
    with pytest.raises(InvalidSetup, match=r"A\.1\.3"):
        check_plan(plan(["start", "R1", "M1", "D1", "arrival"]))
    with pytest.raises(InvalidSetup, match=r"A\.1\.3"):
        check_plan(plan(["start", "R1", "M1", "D1", "arrival"], mountains=[(2, 4)]))
    with pytest.raises(InvalidSetup, match=r"A\.1\.3"):
        check_plan(plan(["start", "R1", "M1", "D1", "arrival"], mountains=[(2, 2), (3, 1)]))


def test_two_categories_on_one_mountain() -> None:
    road = build_road(plan(["start", "R1", "M1", "M4", "D1", "arrival"], mountains=[(2, 3), (3, 1)]))
    first, second = road.tiles[2].first_row, road.tiles[3].first_row
    assert road.category_at(first) == 3 and road.category_at(second + 2) == 1
    assert road.category_at(road.tiles[4].first_row) is None


@pytest.mark.parametrize(("hexagons", "zones"), [(9, 1), (12, 1), (13, 2), (15, 2), (18, 3), (20, 3)])
def test_feed_zones_by_route_length(hexagons: int, zones: int) -> None:
    good = random_plan(hexagons, 4)
    assert len(good.feed) == zones
    check_plan(good)
    with pytest.raises(InvalidSetup, match=r"A\.1\.4"):
        check_plan(StagePlan("t", "t", good.tiles, good.mountains, good.feed[1:] or (1, 2), good.bonus))


@pytest.mark.parametrize("seed", range(40))
def test_random_routes_are_valid(seed: int) -> None:
    hexagons = 5 + seed % 16
    road = build_road(random_plan(hexagons, seed))
    assert len(road.tiles) == hexagons


def test_a_hexagon_is_used_once() -> None:
    with pytest.raises(InvalidSetup, match="once"):
        check_plan(plan(["start", "P1", "P1", "arrival"]))


def seating(count: int, riders: int, teams: list[str] | None = None) -> list[dict[str, object]]:
    colours = teams or ["yellow", "blue", "green", "white", "black"] * 2
    kinds = ["rouleur", "leader", "climber"]
    return [
        {"id": f"p{i}", "team": colours[i], "riders": kinds[:riders] if riders > 1 else [kinds[i // 5]]}
        for i in range(count)
    ]


@pytest.mark.parametrize(
    ("count", "riders", "ok"),
    [
        (2, 3, True),
        (4, 3, True),
        (4, 1, True),
        (5, 2, True),
        (5, 3, False),
        (6, 1, True),
        (10, 1, True),
        (6, 2, False),
        (1, 3, False),
        (11, 1, False),
    ],
)
def test_riders_per_player_by_player_count(count: int, riders: int, ok: bool) -> None:
    seats = (
        seating(count, riders)
        if count <= 10
        else [{"id": f"p{i}", "team": "yellow", "riders": ["rouleur"]} for i in range(count)]
    )
    data = {
        "format": "domestique.record/1",
        "game": "leader1",
        "track": "leader1/first-race",
        "players": seats,
        "seed": 1,
    }
    if ok:
        start_state(parse_record(data))
    else:
        with pytest.raises(InvalidSetup, match=r"A\.2"):
            start_state(parse_record(data))


def start_with(seats: list[dict[str, object]]):
    """The first-race stage with these players (seed 1)."""
    return start_state(
        parse_record(
            {
                "format": "domestique.record/1",
                "game": "leader1",
                "track": "leader1/first-race",
                "players": seats,
                "seed": 1,
            }
        )
    )


def test_all_players_have_the_same_number_of_riders() -> None:
    seats = seating(3, 2)
    seats[0]["riders"] = ["rouleur"]
    with pytest.raises(InvalidSetup, match="same number"):
        start_with(seats)


def test_sprinter_and_descender_are_different_riders() -> None:
    seats = seating(2, 3)
    seats[0]["sprinter"] = seats[0]["descender"] = "leader"
    with pytest.raises(MalformedRecord, match="both sprinter and descender"):
        start_with(seats)


def test_energy_is_the_sum_of_milestones_and_visible_to_all() -> None:
    _, state = start_with(seating(2, 3))
    assert {r.energy for r in state.riders} == {state.setup.road.energy}
    assert state.setup.road.energy == sum(t.milestone for t in state.setup.road.tiles)
    assert all(r.status == "peloton" for r in state.riders)


def test_energy_carried_from_the_previous_stage_is_capped_at_15() -> None:
    assert carried_energy(6) == 6 and carried_energy(22) == 15 and carried_energy(-1) == 0
    seats = seating(2, 3)
    seats[0]["carry"] = {"rouleur": 15}
    state = play(record(inline("P" * 40, 36), seating=seats))
    assert state.rider("yellow-rouleur").energy == 55 and state.rider("yellow-leader").energy == 40


def test_a_rider_lapped_on_the_gc_hexagon_is_eliminated() -> None:
    from rules.leader1.stage import StageLine

    before = (Standing("a", "p", 0, 10), Standing("b", "q", -9, 10))
    lines = (StageLine("a", "p", 5, 0, True, 1, 10, False), StageLine("b", "q", 6, 1, False, 0, 10, False))
    gc = general_classification(before, lines, 12)
    assert {s.rider: s.eliminated for s in gc} == {"a": False, "b": True}


def test_a_rider_more_than_3_turns_after_the_peloton_is_eliminated() -> None:
    track = inline("P" * 30, 14)
    state = play(
        record(
            track,
            start={
                "turn": 3,
                "peloton": {"at": 10, "leader": "ann"},
                "riders": {"yellow-climber": {"at": "1.1", "status": "dropped", "energy": 0}},
            },
            dice={"peloton": [5]},
        )
    )
    state = pass_until_ride(state)
    while not state.finished:
        from rules.leader1 import legal_actions, pending
        from tests.leader1.helpers import act

        decision = pending(state)
        choice = min((c for c in legal_actions(state, decision.player) if c.option), key=lambda c: c.option.squares)
        state = act(state, choice.action.text())
    climber = state.rider("yellow-climber")
    assert climber.status == "eliminated" and state.peloton_arrived_turn == 3
    assert max(e.turn for e in state.events if e.type == "eliminated") == 3 + 3
    result = stage_result(state)
    assert result[-1].rider == "yellow-climber" and result[-1].eliminated
    assert result[0].won and result[0].delay == 0


def test_bonus_time_goes_to_the_first_rider_past_the_token() -> None:
    track = inline("P" * 40, 36, bonus=[15])
    state = play(
        record(
            track,
            start={
                "turn": 3,
                "peloton": {"at": 5, "leader": "ann"},
                "riders": {"yellow-rouleur": {"at": "12.0"}, "blue-rouleur": {"at": "13.2"}},
            },
        )
    )
    from tests.leader1.helpers import act

    state = act(state, "bob ride rider=blue-rouleur to=14.2")
    state = act(state, "ann ride rider=yellow-rouleur to=16.0")
    assert state.bonus_won == ((15, "yellow-rouleur"),)


def test_a_later_stage_may_seat_teams_thinned_by_eliminations() -> None:
    seats = seating(3, 3)
    seats[1]["riders"] = ["leader"]
    data = {
        "format": "domestique.record/1",
        "game": "leader1",
        "track": "leader1/first-race",
        "players": seats,
        "seed": 1,
    }
    with pytest.raises(InvalidSetup, match="same number"):
        start_state(parse_record(data))
    _, state = start_state(parse_record({**data, "options": {"stage_race": True}}))
    assert len(state.riders) == 7
