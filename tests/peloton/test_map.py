"""The board of roads drawn around a Peloton course marked on it (issue 16, rulings R-PEL-MAP):
the other roads faded and unlabelled under the course, only when the course has a board, the
course, riders and text unchanged, the same bytes every time. Pixels are read through the view
that placed the road; images stay in memory."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from renderer.encode import png_bytes
from renderer.palette import BACKGROUND, PELOTON_TEAM
from renderer.peloton.geometry import Geometry
from renderer.peloton.painter import BOARD, compose, on_road
from renderer.peloton.road_map import MAP_ROAD, board_gaps, board_map
from rules.peloton.board import board_names, load_board
from rules.peloton.course import load_course, split
from rules.record import start_state
from rules.registry import find_game
from tests.support.ai_races import ai_race
from tests.support.boards import pixel


def without_board(state: Any) -> Any:
    """The same state on the same road written as segments: no board around it."""
    course = replace(state.course, board="", route=())
    return replace(state, setup=replace(state.setup, course=course))


@cache
def state_near(stage: str, seed: int, hexagon: int) -> Any:
    """The first state of a seeded AI race whose cyclist to act is past ``hexagon`` of the course."""
    record, _ = ai_race("peloton", 4, seed, stage)
    game, state = start_state(record)
    course = state.course
    for action in record.actions:
        decision = game.rules.pending(state)
        if decision is not None and decision.piece:
            cell = state.cyclist(decision.piece).cell
            if cell and split(cell)[0] >= course.start + 2 * hexagon:
                return state
        state, _ = game.rules.apply(state, action)
    raise AssertionError("no cyclist got that far")


def inside(point: tuple[float, float], margin: float = 0.0) -> bool:
    return BOARD[0] + margin <= point[0] < BOARD[2] - margin and BOARD[1] + margin <= point[1] < BOARD[3] - margin


def test_the_board_s_other_roads_are_drawn_around_the_course_only_when_it_has_a_board() -> None:
    # leg-ridge-and-river just past its hexagon 64, where the forest road crosses the ridge (66: as
    # the AI rides since issue 30, at 64 its cyclists' trails hide one map hexagon too many)
    state = state_near("leg-ridge-and-river", 3, 66)
    assert state.course.board == "bohemia"
    image, view = compose(state, acting=())
    bare, bare_view = compose(without_board(state), acting=())
    assert view == bare_view  # the same part of the same road
    geo = Geometry(state.course)
    course_points = [view.px(geo.centre(*split(c))) for c in state.course.cells()]
    checked = 0
    for centre, _ in board_map(state.course):
        x, y = view.px(centre)
        # a map hexagon on show, clear of the course and of the wind's corner
        if not inside((x, y), 20) or (x < 110 and y < 180):
            continue
        if min(math.dist((x, y), p) for p in course_points) < view.scale * 0.7:
            continue
        if pixel(bare, (x, y)) != BACKGROUND:  # a tag, a trail or the wind drawn over it in both
            continue
        assert pixel(image, (x, y)) == MAP_ROAD
        checked += 1
    assert checked >= 10
    assert board_map(without_board(state).course) == ()


def test_the_map_leaves_the_riders_and_the_text_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    import renderer.peloton.painter as painter

    state = state_near("leg-ridge-and-river", 3, 64)
    written: list[list[tuple[str, int]]] = []
    original = painter.write

    def recording(draw: Any, xy: tuple[float, float], content: str, **kwargs: Any) -> None:
        written[-1].append((content, int(kwargs.get("size", 14))))
        original(draw, xy, content, **kwargs)

    monkeypatch.setattr(painter, "write", recording)
    images = []
    for s in (state, without_board(state)):
        written.append([])
        images.append(compose(s, acting=()))
    assert written[0] == written[1]  # the map writes nothing: no labels on its hexagons
    (image, view), (bare, _) = images
    geo = Geometry(state.course)
    seen = 0
    for c in on_road(state):
        x, y = view.px(geo.centre(*split(str(c.cell))))
        if inside((x, y)):
            point = (x, y + view.scale * 0.4 * 0.7)
            assert pixel(image, point) == pixel(bare, point) == PELOTON_TEAM[c.team]
            seen += 1
    assert seen >= 2


def test_an_unridden_road_continues_the_course_where_it_leaves_it() -> None:
    """The valley road goes on past the crossroads where leg-ridge-and-river turns up the ridge:
    its hexagon 40 lies 10 hexagons straight on from the course's hexagon at valley 30."""
    course = load_course("leg-ridge-and-river")
    geo = Geometry(course)
    s = course.start + 2 * (29 - 8)  # valley 29, the last straight hexagon: the route rides from 8
    x, y = geo.centre(s, 0)  # its left lane
    a = math.radians(course.heading(s))
    ahead = (x + 11 * math.cos(a), y + 11 * math.sin(a))
    assert min(math.dist(ahead, centre) for centre, _ in board_map(course)) < 0.05
    # the stretch the course rides (valley 10 to 25, no crossing) is the course's, not the map's
    ridden = [geo.centre(*split(c)) for c in course.cells() if course.start + 4 <= split(c)[0] <= course.start + 34]
    assert min(math.dist(centre, p) for p in ridden for centre, _ in board_map(course)) > 1.0


def test_every_shipped_board_closes_its_loops() -> None:
    """Laid out from its first road, every junction of a board meets its second road: the map never
    shows a road ending beside the one it should join."""
    for name in board_names():
        for far, turned in board_gaps(load_board(name, "$")):
            assert far < 0.5 and turned < 1.0, (name, far, turned)


def test_a_board_course_is_drawn_the_same_bytes_every_time() -> None:
    import renderer.peloton.road_map as peloton_map

    state = state_near("random-bohemia-60-s4", 4, 20)
    first = png_bytes(compose(state, acting=())[0])
    peloton_map._board_map.cache_clear()
    peloton_map._course_hexagons.cache_clear()
    assert png_bytes(compose(state, acting=())[0]) == first


def test_a_random_board_course_keeps_its_names_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hexagons on offer keep the size of text that matters with the map drawn around them."""
    import renderer.peloton.painter as painter
    from renderer.palette import READABLE

    game = find_game("peloton")
    rules = game.rules
    state = state_near("random-bohemia-60-s4", 4, 20)
    decision = rules.pending(state)
    assert decision is not None
    if decision.kind == "dial":  # the cyclist past hexagon 20 sets its dial first (as the AI rides since issue 30)
        state, _ = rules.apply(state, game.ai(state, decision.player))
        decision = rules.pending(state)
        assert decision is not None
    assert decision.kind == "ride"  # the hexagons on offer
    offered = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
    names = {c.short for c in offered if c.short}
    sizes: list[int] = []
    original = painter.write

    def recording(draw: Any, xy: tuple[float, float], content: str, **kwargs: Any) -> None:
        if content in names:
            sizes.append(int(kwargs.get("size", 14)))
        original(draw, xy, content, **kwargs)

    import renderer.pieces as pieces

    monkeypatch.setattr(pieces, "write", recording)
    monkeypatch.setattr(painter, "write", recording)
    compose(state, highlight=offered)
    assert names and sizes and min(sizes) >= READABLE


@pytest.mark.parametrize("name", [f"random-bohemia-120-s{seed}" for seed in range(1, 7)] + ["random-bohemia-itt-50-s3"])
def test_a_random_board_course_is_drawn_on_the_board_s_map(name: str) -> None:
    """The random builder takes junctions the way the board lists them when it can (R-PEL-RANDOM-BOARD),
    so every connection of the map meets the road it joins and is drawn."""
    from renderer.peloton.road_map import MEETS, _gap, layout

    lay = layout(load_course(name))
    apart = [_gap(lay, j) for k, j in enumerate(lay.board.junctions) if k not in lay.used]
    assert apart and all(far < MEETS and turned < 1.0 for far, turned in apart), apart
