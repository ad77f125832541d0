"""Race conditions 5: the weather markers lie face down beside the route, where every player sees
them; what they show stays hidden until they are turned. The route strip at the bottom of the Hell
of the North board draws each marker at its hexagon: face down a "?" whatever it hides, turned its
weather. Pixels are read from boards drawn in memory, bytes compared between boards."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from renderer.hell_of_the_north.painter import compose, paint
from renderer.hell_of_the_north.panel import BAR, MARKERS
from renderer.palette import READABLE_PX, TERRAIN, WEATHER, WIDTH, phone_px
from rules.hell_of_the_north.game import sample_players
from rules.hell_of_the_north.model import State, weather_markers
from rules.hell_of_the_north.setup import build
from tests.support.pictures import picture

KINDS = weather_markers()  # rain, heat, headwind-1/2, tailwind-1/2


def race(stage: str, markers: int, seed: int = 5) -> State:
    record: dict[str, Any] = {
        "track": f"hell-of-the-north/{stage}",
        "players": sample_players(4),
        "seed": seed,
        "options": {"weather": markers},
    }
    state = build(record)
    assert isinstance(state, State)
    return state


def board(state: State) -> Image.Image:
    return compose(state, acting=())[0]


def png(state: State) -> bytes:
    return paint(state, highlight=(), acting=(), title="Race 1", legend=())


def weather_runs(image: Image.Image) -> list[tuple[int, int]]:
    """The runs of columns (first, last) with the markers' blue in the strip's band of markers."""
    top, bottom = (round(y) for y in MARKERS)
    columns = [x for x in range(image.width) if any(image.getpixel((x, y)) == WEATHER for y in range(top, bottom + 1))]
    runs: list[tuple[int, int]] = []
    for x in columns:
        if runs and x == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], x)
        else:
            runs.append((x, x))
    return runs


def route_ends(image: Image.Image) -> tuple[int, int]:
    """Where the route's terrain begins and ends in the strip, read from its pixels."""
    y = round(BAR[0]) + 1
    terrain = set(TERRAIN.values())
    xs = [x for x in range(image.width) if image.getpixel((x, y)) in terrain]
    return xs[0], xs[-1] + 1


@pytest.mark.parametrize(("stage", "markers"), [("roubaix", 2), ("roubaix", 6), ("random-20-3", 6), ("flanders", 4)])
def test_each_marker_is_drawn_in_the_strip_over_its_hexagon(stage: str, markers: int) -> None:
    state = race(stage, markers)
    assert len(state.weather) == markers and all(kind is None for _, kind in state.weather)
    image = board(state)
    runs = weather_runs(image)
    assert len(runs) == markers, runs  # one mark per marker, none elsewhere
    left, right = route_ends(image)
    rows = state.setup.road.track.row_count
    hexagon = state.setup.course.hex_rows
    for (first, last), (row, _) in zip(runs, sorted(state.weather), strict=True):
        expected = left + (right - left) * (row + hexagon / 2) / rows
        assert abs((first + last) / 2 - expected) <= 4, (row, first, last, expected)
        assert phone_px(last - first + 1, WIDTH) >= READABLE_PX  # as wide as a readable letter at 400 px


def test_no_markers_no_marks() -> None:
    assert weather_runs(board(race("roubaix", 0))) == []


def test_a_face_down_marker_looks_the_same_whatever_it_hides() -> None:
    """The kinds still to turn (the pool the next turned marker is drawn from) never reach the board."""
    state = race("roubaix", 6)
    pools = [state.weather_pool, *((k,) * 6 for k in KINDS)]
    drawn = {picture(png(replace(state, weather_pool=pool))) for pool in pools}
    assert len(drawn) == 1
    assert picture(png(state)) == picture(png(race("roubaix", 6)))  # the same state, the same picture


def tile(state: State, row: int) -> bytes:
    """The pixels of the strip's band of markers over the hexagon of ``row``."""
    image = board(state)
    left, right = route_ends(image)
    rows = state.setup.road.track.row_count
    x0 = left + (right - left) * row / rows
    x1 = left + (right - left) * (row + state.setup.course.hex_rows) / rows
    return image.crop((round(x0), round(MARKERS[0]), round(x1), round(MARKERS[1]) + 1)).tobytes()


def test_a_turned_marker_shows_its_weather_and_each_kind_looks_different() -> None:
    state = race("roubaix", 1)
    (row, _), *_ = state.weather
    face_down = tile(state, row)
    turned = {kind: tile(replace(state, weather=((row, kind),)), row) for kind in KINDS}
    assert len(set(turned.values())) == len(KINDS)  # every kind told apart
    assert face_down not in turned.values()
    [(first, last)] = weather_runs(board(state))
    for kind in KINDS:  # a turned marker is still drawn at its hexagon, and only there
        [(first2, last2)] = weather_runs(board(replace(state, weather=((row, kind),))))
        assert first2 <= first < last <= last2 and (first2 + last2) / 2 == (first + last) / 2, kind


def test_the_question_mark_is_readable_at_400_px(monkeypatch: pytest.MonkeyPatch) -> None:
    import renderer.hell_of_the_north.weather as weather
    from renderer.text import write as original

    written: list[tuple[str, int]] = []

    def recording(draw: Any, xy: tuple[float, float], content: str, **kwargs: Any) -> None:
        written.append((content, int(kwargs.get("size", 14))))
        original(draw, xy, content, **kwargs)

    monkeypatch.setattr(weather, "write", recording)
    board(race("roubaix", 3))
    sizes = [size for content, size in written if content == "?"]
    assert len(sizes) == 3 and all(phone_px(size, WIDTH) >= READABLE_PX for size in sizes)


def test_the_readme_race_shows_its_turned_and_face_down_markers() -> None:
    """The seeded race the README pictures: a marker turned behind the riders, one face down ahead."""
    from bot.cli.images import mid_race
    from bot.cli.sim import simulate

    record, _ = simulate("hell-of-the-north", players=4, seed=3)
    state = mid_race(record)
    assert any(kind is None for _, kind in state.weather) and any(kind for _, kind in state.weather)
    image = Image.open(io.BytesIO(png(state)))
    assert len(weather_runs(image.convert("RGB"))) == len(state.weather)
