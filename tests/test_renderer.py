"""The board image: faithful to the state (pixels checked where riders and highlights are),
deterministic, phone-sized. Tests write images to a temporary folder, never into docs/images."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from renderer import render_board, render_standings
from renderer.board import compose
from renderer.palette import HIGHLIGHT_RISK, HIGHLIGHT_SAFE, TEAM
from rules.leader1 import pending
from rules.leader1.moves import ride_options
from rules.leader1.stage import Standing
from rules.record import parse_record, replay

SEATS = [
    {"id": n, "team": t, "riders": ["rouleur", "leader", "climber"]}
    for n, t in (("ann", "yellow"), ("bob", "blue"), ("cat", "green"), ("dan", "white"))
]
MID_RACE = {
    "turn": 9,
    "peloton": {"at": 24, "leader": "bob"},
    "riders": {
        "yellow-rouleur": {"at": "31.1", "energy": 22},
        "blue-climber": {"at": "30.1", "energy": 25},
        "green-leader": {"at": "29.0", "energy": 30},
        "white-rouleur": {"at": "18.1", "status": "dropped", "energy": 2},
        "white-leader": {"at": "17.1", "status": "dropped", "energy": 4},
        "yellow-climber": {"at": "16.2", "status": "dropped", "energy": 9},
        "green-climber": {"at": "27.2", "status": "fallen", "energy": 12},
        "blue-rouleur": {"at": "20.0", "status": "punctured", "energy": 15},
    },
}


def state_of(start: dict | None = None, track: str = "leader1/first-race", actions: list | None = None):
    data = {
        "format": "domestique.record/1",
        "game": "leader1",
        "track": track,
        "players": SEATS,
        "seed": 4,
        "actions": actions or [],
    }
    if start:
        data["start"] = start
    return replay(parse_record(data)).state


def pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return value[:3]


def test_a_riders_jersey_colour_is_drawn_at_its_square() -> None:
    state = state_of(MID_RACE)
    image, camera = compose(state)
    track = state.setup.road.track
    for rider, team in (("yellow-rouleur", "yellow"), ("blue-climber", "blue"), ("green-leader", "green")):
        x, y = camera.px(track.cells[state.rider(rider).cell].centre)
        assert pixel(image, (x, y + 8)) == TEAM[team], rider  # inside the jersey disc, below the label


def test_a_fallen_rider_lies_beside_the_road() -> None:
    state = state_of(MID_RACE)
    image, camera = compose(state)
    track = state.setup.road.track
    fallen = state.rider("green-climber")
    x, y = camera.px(track.cells[fallen.cell].centre)
    assert pixel(image, (x, y + 8)) != TEAM["green"]
    sx, sy = camera.px(track.side_point(fallen.row, fallen.lane, outside=0.7))
    near = [pixel(image, (sx + dx, sy + 8)) for dx in (-3, 0, 3)]
    assert TEAM["green"] in near


def test_highlighted_squares_are_marked_with_their_cost() -> None:
    state = state_of(MID_RACE)
    decision = pending(state)
    options = ride_options(state, decision.rider)
    image, camera = compose(state, highlight=options)
    plain_image, _ = compose(state)
    track = state.setup.road.track
    safest = {}
    for option in options:
        safest[option.to] = min(safest.get(option.to, 9), option.risk_count)
    assert any(safest.values()) and not all(safest.values())  # both kinds of square are on show
    for square, risks in safest.items():
        cx, cy = camera.px(track.cells[square].centre)
        # the top edge of the cost label, filled with the square's colour
        assert pixel(image, (cx, cy - 8)) == (HIGHLIGHT_RISK if risks else HIGHLIGHT_SAFE), square
        assert pixel(plain_image, (cx, cy - 8)) not in (HIGHLIGHT_RISK, HIGHLIGHT_SAFE)


def test_identical_states_give_identical_bytes() -> None:
    assert render_board(state_of(MID_RACE)) == render_board(state_of(MID_RACE))


@pytest.mark.parametrize("track", ["leader1/first-race", "leader1/grand-tour", "leader1/random-14-2"])
def test_size_and_file_size_suit_a_phone(track: str) -> None:
    png = render_board(state_of(track=track))
    image = Image.open(io.BytesIO(png))
    assert 1200 <= image.width <= 1600 and image.height <= 1000
    assert len(png) < 1_000_000


def test_the_board_images_are_drawn_at_the_start_mid_race_and_at_the_finish(tmp_path: Path) -> None:
    from bot.sim import simulate

    IMAGES = tmp_path
    start = state_of()
    (IMAGES / "board-start.png").write_bytes(render_board(start))
    mid = state_of(MID_RACE)
    decision = pending(mid)
    (IMAGES / "board-mid-race.png").write_bytes(render_board(mid, highlight=ride_options(mid, decision.rider)))
    _, final = simulate("leader1", players=4, seed=3, stage="first-race")
    (IMAGES / "board-finish.png").write_bytes(render_board(final))
    for name in ("board-start.png", "board-mid-race.png", "board-finish.png"):
        assert Image.open(IMAGES / name).size[0] >= 1200


def test_the_general_classification_image(tmp_path: Path) -> None:
    standings = (
        Standing("white-rouleur", "dan", 2, 20),
        Standing("blue-leader", "bob", 0, 18),
        Standing("blue-climber", "bob", -7, 9),
        Standing("green-leader", "cat", -20, 5, True),
    )
    png = render_standings(
        standings,
        12,
        "General classification after stage 2",
        {"white-rouleur": "rouleur", "blue-leader": "leader", "blue-climber": "climber", "green-leader": "leader"},
    )
    (tmp_path / "standings.png").write_bytes(png)
    image = Image.open(io.BytesIO(png))
    assert image.width >= 1200 and len(png) < 1_000_000


def test_the_formula_de_mini_board_shows_each_car_on_its_space(tmp_path: Path) -> None:
    from renderer.circuit_board import CAR_COLOUR, _layer, render_circuit
    from rules.formula_de_mini import ai
    from rules.formula_de_mini.engine import apply, legal_actions, pending
    from rules.formula_de_mini.setup import build

    players = [
        {"id": "ann", "team": "red", "cars": 2},
        {"id": "bob", "team": "blue", "cars": 2},
        {"id": "cy", "team": "green", "cars": 1},
        {"id": "di", "team": "yellow", "cars": 1},
    ]
    state = build({"track": "formula-de-mini/island", "players": players, "seed": 4})
    for _ in range(40):
        state, _ = apply(state, ai.choose(state, pending(state).player))
    while pending(state).kind != "move":
        state, _ = apply(state, ai.choose(state, pending(state).player))
    options = [c.option for c in legal_actions(state, pending(state).player) if c.option]
    png = render_circuit(state, highlight=options)
    assert png == render_circuit(state, highlight=options)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert 1200 <= image.width <= 1600 and len(png) < 1_000_000
    _, camera = _layer(state.setup.circuit)
    for car in state.cars:
        if car.status in ("racing", "spun"):
            x, y = camera.px(state.setup.circuit.track.cells[car.cell].centre)
            half = max(9.0, camera.scale * 0.42)
            near = {pixel(image, (x + dx, y)) for dx in (-half + 3, half - 3)}
            assert CAR_COLOUR[car.team] in near, car.id
    (tmp_path / "formula-de-mini-island.png").write_bytes(png)
