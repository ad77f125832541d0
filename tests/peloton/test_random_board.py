"""Random courses marked out on a board of roads (issue 16, rulings R-PEL-RANDOM-BOARD):
``random-<board>-[itt-|ttt-]<hexagons>[-s<seed>]`` is a valid course on the board's roads, exactly
that long, never riding a hexagon twice, with hills and bonus lines; the same name is the same
course (records replay), a length the board cannot make is refused, and AI races play through it
in the simulator and in Discord."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from bot.cli.sim import simulate
from rules.errors import UnknownTrack
from rules.peloton.board import RUN_OUT, load_board
from rules.peloton.course import load_course
from rules.peloton.game import resolve_track
from rules.peloton.random_board import board_course_data
from rules.record import replay

NAMES = [
    "random-bohemia-120-s1",
    "random-bohemia-120-s2",
    "random-bohemia-120-s3",
    "random-bohemia-60-s11",
    "random-bohemia-180-s5",
    "random-bohemia-itt-50-s4",
    "random-bohemia-itt-75-s6",
    "random-bohemia-ttt-100-s7",
]


def ridden_hexagons(data: dict) -> list[tuple[str, int]]:
    """Every (road, hexagon) the course covers, start area and run-out included (counted here
    from the route alone, not by the builder's own check)."""
    board = load_board(data["board"], "$")
    strips = 8 if data["discipline"] == "leg" else 2
    out: list[tuple[str, int]] = []
    route = data["route"]
    for i, leg in enumerate(route):
        step = 1 if leg["to"] > leg["from"] else -1
        first = leg["from"] - step * strips if i == 0 else leg["from"]
        last = leg["to"] + step * RUN_OUT if i == len(route) - 1 else leg["to"]
        assert min(first, last) >= 0 and max(first, last) <= board.roads[leg["road"]].hexagons
        out += [(leg["road"], h) for h in range(first, last + step, step)]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_random_board_course_is_a_valid_course_of_the_asked_length_on_the_board_s_roads(name: str) -> None:
    data = board_course_data(name)
    course = load_course(name)  # the course builder checks the route against the board
    asked = int(name.split("-")[-2])
    assert course.hexagons == asked and course.board == "bohemia"
    assert course.discipline == ({"itt": "itt", "ttt": "ttt"}.get(name.split("-")[2], "leg"))
    hexagons = ridden_hexagons(data)
    assert len(hexagons) == len(set(hexagons)), "a hexagon ridden twice"
    board = load_board("bohemia", "$")
    for j in board.junctions:  # a crossroads is passed once, or turned at once
        spots = {(j.roads[0], j.at[0]), (j.roads[1], j.at[1])}
        touched = spots & set(hexagons)
        turned = any(
            {(a["road"], a["to"]), (b["road"], b["from"])} == spots for a, b in itertools.pairwise(data["route"])
        )
        assert len(touched) <= 1 or turned, (j, data["route"])
    terrains = {kind for _, kind in course.terrain}
    assert "up" in terrains or "down" in terrains  # hills
    if course.discipline == "leg":
        assert {b.kind for b in course.bonuses} >= {"speed"}
        if any(kind == "up" for _, kind in course.terrain):
            assert "uphill" in {b.kind for b in course.bonuses}
    if course.discipline == "itt":
        assert len(course.checkpoints) == (2 if asked >= 63 else 1)


def test_most_random_board_courses_turn_at_the_board_s_junctions() -> None:
    legs = [len(board_course_data(f"random-bohemia-100-s{seed}")["route"]) for seed in range(1, 11)]
    assert min(legs) >= 2 and max(legs) >= 3


def test_the_same_name_is_the_same_course_and_seeds_differ() -> None:
    assert board_course_data("random-bohemia-120-s9") == board_course_data("random-bohemia-120-s9")
    routes = {json.dumps(board_course_data(f"random-bohemia-120-s{seed}")["route"]) for seed in range(1, 9)}
    assert len(routes) >= 4
    # the lobby names the seed, so a record's track is always the same course
    track = resolve_track("random-bohemia-80", 1234)
    assert track == "peloton/random-bohemia-80-s1234"
    assert resolve_track("random-bohemia-80-s5", 1234) == "peloton/random-bohemia-80-s5"


def test_a_length_the_board_cannot_make_is_refused_with_a_clear_message() -> None:
    with pytest.raises(UnknownTrack) as err:
        load_course("random-bohemia-290-s1")
    assert "bohemia board has no course of 290 hexagons" in str(err.value)
    with pytest.raises(ValueError, match="try fewer hexagons"):
        resolve_track("random-bohemia-290", 3)
    with pytest.raises(UnknownTrack, match="boards: bohemia"):
        load_course("random-atlantis-100-s1")
    with pytest.raises(UnknownTrack, match="10 to 300"):
        load_course("random-bohemia-5-s1")


def test_a_board_whose_name_starts_with_s_still_gets_its_seed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The lobby adds ``-s<seed>`` unless the name already ends with one: a board named ``sudety``
    must not pass for a seed."""
    import rules.peloton.board as board_module

    shipped = json.loads((board_module.BOARDS / "bohemia.json").read_text())
    (tmp_path / "sudety.json").write_text(json.dumps({**shipped, "name": "sudety"}))
    monkeypatch.setattr(board_module, "BOARDS", tmp_path)
    assert resolve_track("random-sudety-60", 42) == "peloton/random-sudety-60-s42"
    assert load_course("random-sudety-60-s42").board == "sudety"


@pytest.mark.parametrize(
    "stage, players", [("random-bohemia-60", 4), ("random-bohemia-itt-30", 3), ("random-bohemia-ttt-40", 2)]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ai_races_on_random_board_courses_finish_and_replay(stage: str, players: int, seed: int) -> None:
    record, state = simulate("peloton", players=players, seed=seed, stage=stage)
    assert state.phase == "finished" and record.track == f"peloton/{stage}-s{seed}"
    again = replay(record)
    assert again.error_at is None and again.state == state


def test_domestique_sim_runs_a_random_board_course(tmp_path: Path) -> None:
    from bot.cli import main

    out = tmp_path / "race.json"
    args = ["sim", "--game", "peloton", "--stage", "random-bohemia-70-s3", "--players", "2", "--out", str(out)]
    assert main(args) in (0, None)
    assert json.loads(out.read_text())["track"] == "peloton/random-bohemia-70-s3"


async def test_an_ai_race_on_a_random_board_course_plays_through_in_discord(simcord_env) -> None:
    from tests.peloton.test_discord import _play

    history = await _play(simcord_env, "random-bohemia-30", 1)
    assert any(a.filename.endswith(".png") for m in history for a in m.attachments)
