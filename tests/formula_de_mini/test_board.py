"""Formula Dé Mini's board: each car drawn on its space, the car to act marked, the spaces on offer
named as the menu names them, the same picture for the same state, phone-sized, < 1 MB."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from renderer.palette import ACT
from tests.support.boards import pixel
from tests.support.pictures import picture


def _fdm_mid_race():  # type: ignore[no-untyped-def]
    from rules.formula_de_mini import ai
    from rules.formula_de_mini.engine import apply, legal_actions
    from rules.formula_de_mini.engine import pending as fdm_pending
    from rules.formula_de_mini.setup import build

    players = [
        {"id": "ann", "team": "red", "cars": 2},
        {"id": "bob", "team": "blue", "cars": 2},
        {"id": "cy", "team": "green", "cars": 1},
        {"id": "di", "team": "yellow", "cars": 1},
    ]
    state = build({"track": "formula-de-mini/island", "players": players, "seed": 4})
    for _ in range(40):
        state, _ = apply(state, ai.choose(state, fdm_pending(state).player))
    while fdm_pending(state).kind != "move":
        state, _ = apply(state, ai.choose(state, fdm_pending(state).player))
    options = [c.option for c in legal_actions(state, fdm_pending(state).player) if c.option]
    return state, options


def test_the_formula_de_mini_board_shows_each_car_on_its_space(tmp_path: Path) -> None:
    import math

    from renderer.formula_de_mini.circuit_board import CAR_COLOUR, compose_circuit, render_circuit

    state, options = _fdm_mid_race()
    png = render_circuit(state, highlight=options)
    assert picture(png) == picture(render_circuit(state, highlight=options))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (960, 800) and len(png) < 1_000_000
    drawn, view = compose_circuit(state, highlight=options)
    track = state.setup.circuit.track
    seen = 0
    for car in state.cars:
        if car.status not in ("racing", "spun"):
            continue
        x, y = view.px(track.cells[car.cell].centre)
        if not (0 <= x < 960 and 52 <= y < 540):
            continue  # off the zoomed view: on the map in the corner
        length = max(44.0, view.scale)
        heading = view.angle - track.headings[car.row]
        ahead = (x + math.cos(heading) * length * 0.3, y + math.sin(heading) * length * 0.3)
        assert pixel(drawn, ahead) == CAR_COLOUR[car.team], car.id  # the car's nose, past its letters
        seen += 1
    assert seen >= 2
    (tmp_path / "formula-de-mini-island.png").write_bytes(png)


def test_the_formula_de_mini_car_to_act_is_marked_and_named_squares_drawn() -> None:
    from renderer.formula_de_mini.circuit_board import compose_circuit
    from rules.formula_de_mini.engine import pending as fdm_pending

    state, options = _fdm_mid_race()
    car = state.car(fdm_pending(state).car)
    image, view = compose_circuit(state, highlight=options)
    track = state.setup.circuit.track
    x, y = view.px(track.cells[car.cell].centre)
    half = max(44.0, view.scale) / 2
    assert pixel(image, (x - half - 6, y)) == ACT
    quiet, _ = compose_circuit(state, highlight=options, acting=())
    assert pixel(quiet, (x - half - 6, y)) != ACT
    square = options[0].to
    named, named_view = compose_circuit(state, highlight=options, labels={square: "A"})
    renamed, _ = compose_circuit(state, highlight=options, labels={square: "Q"})
    cx, cy = named_view.px(track.cells[square].centre)
    box = (round(cx - 20), round(cy - 30), round(cx + 20), round(cy + 10))
    assert named.crop(box).tobytes() != renamed.crop(box).tobytes()


def test_every_board_of_a_whole_formula_de_mini_race_renders() -> None:
    from renderer.formula_de_mini.circuit_board import render_circuit
    from rules.formula_de_mini import ai
    from rules.formula_de_mini.engine import apply, legal_actions
    from rules.formula_de_mini.engine import pending as fdm_pending
    from rules.formula_de_mini.setup import build

    players = [
        {"id": p, "team": t, "cars": 2} for p, t in (("a", "red"), ("b", "blue"), ("c", "green"), ("d", "yellow"))
    ]
    state = build({"track": "formula-de-mini/canyon", "players": players, "seed": 9})
    boards = 0
    while (decision := fdm_pending(state)) is not None and boards < 400:
        options = [c.option for c in legal_actions(state, decision.player) if c.option]
        assert len(render_circuit(state, highlight=options or None)) < 1_000_000
        state, _ = apply(state, ai.choose(state, decision.player))
        boards += 1
    assert len(render_circuit(state)) < 1_000_000
