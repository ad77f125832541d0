"""A board of several roads and courses marked out on it (rulings R-PEL-BOARD)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.cli.sim import simulate
from rules.errors import MalformedRecord
from rules.peloton.board import BOARDS, board_names, load_board, route_segments
from rules.peloton.course import DATA, build_course, load_course

MARKED = json.loads((DATA / "leg-ridge-and-river.json").read_text())


def test_the_shipped_board_has_several_roads_turnings_and_crossroads() -> None:
    assert "bohemia" in board_names()
    board = load_board("bohemia", "$")
    assert len(board.roads) >= 4 and len(board.junctions) >= 4
    assert any(b for r in board.roads.values() for b in r.bends)


def test_a_course_marked_on_the_board_follows_its_roads_and_junctions() -> None:
    c = load_course("leg-ridge-and-river")
    # valley 8-30, ridge 0-40, forest 10-45, river 25-50 and a 2-hexagon turning at each junction
    assert c.hexagons == 22 + 2 + 40 + 2 + 35 + 2 + 25 == 128
    sides = [(t.side, t.crossroads) for t in c.turnings]
    # left onto the ridge (the valley goes on: a crossroads), the ridge's own right bend,
    # right onto the forest road (the ridge goes on), right onto the river (the forest goes on)
    assert sides == [("left", True), ("right", False), ("right", True), ("right", True)]
    assert c.turnings[1].first == c.start + 2 * (22 + 2 + 25)  # the ridge's bend at its hexagon 25
    assert {b.kind for b in c.bonuses} == {"speed", "uphill"}
    assert c.terrain_at(c.start + 2 * 31) == "up" and c.terrain_at(c.start + 2 * 29) == "level"


def test_a_road_ridden_backwards_turns_the_other_way_at_its_bends_and_junctions() -> None:
    data = {
        "discipline": "leg",
        "board": "bohemia",
        "start_strips": 2,
        "route": [{"road": "river", "from": 45, "to": 25}, {"road": "forest", "from": 45, "to": 20}],
    }
    _, segments = route_segments(data, "$")
    turns = [s["turn"] for s in segments if "turn" in s]
    # forest -> river turns right (angle -60); river backwards -> forest backwards is its reverse: left
    assert turns == ["left"]
    data["route"] = [{"road": "river", "from": 40, "to": 2}]
    with pytest.raises(MalformedRecord):  # 2 hexagons of run-out is too few
        route_segments(data, "$")
    data["route"] = [{"road": "ridge", "from": 68, "to": 20}]
    _, segments = route_segments(data, "$")
    # the ridge bends right at 25 and left at 55; ridden backwards it meets the left one first, as a right
    assert [s.get("turn") for s in segments if "turn" in s] == ["right", "left"]


def test_a_sharp_junction_is_two_turnings_in_a_row() -> None:
    data = {
        "board": "bohemia",
        "route": [{"road": "lake", "from": 10, "to": 30}, {"road": "forest", "from": 0, "to": 30}],
    }
    c = build_course(data)
    assert [t.side for t in c.turnings] == ["left", "left"]


@pytest.mark.parametrize(
    "change, path",
    [
        (lambda d: d["route"][1].update(road="lake"), "$.track.route[1].from"),  # no junction there
        (lambda d: d["route"][1].update({"from": 3}), "$.track.route[1].from"),  # the junction is at 0
        (lambda d: d["route"][0].update({"from": 2}), "$.track.route[0].from"),  # no room for 8 start strips
        (lambda d: d["route"][1].update(road="motorway"), "$.track.route[1].road"),
        (lambda d: d["route"][1].update(to=26), "$.track.route[1].to"),  # inside the ridge's bend
        (lambda d: d["signs"].append({"at": 23, "terrain": "up"}), "$.track.signs"),  # inside a turning
        (lambda d: d.update(board="atlantis"), "$.track.board"),
        (lambda d: d.update(segments=[]), "$.track.segments"),
    ],
)
def test_a_route_that_leaves_the_roads_is_refused_with_its_path(change: Any, path: str) -> None:
    data = copy.deepcopy(MARKED)
    change(data)
    with pytest.raises(MalformedRecord) as err:
        build_course(data)
    assert err.value.path == path


def test_every_shipped_board_parses_and_the_ai_races_the_marked_course() -> None:
    for name in board_names():
        load_board(name, "$")
    assert {p.stem for p in BOARDS.glob("*.json")} == set(board_names())
    _, state = simulate("peloton", players=2, seed=3, stage="leg-ridge-and-river")
    assert state.phase == "finished"
