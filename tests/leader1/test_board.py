"""Leader 1's board images: faithful to the state (pixels checked where pieces, markers, trails and
highlights are), deterministic, sized for a phone. Images go to tmp_path, never docs/images."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from renderer.leader1.board import compose, default_acting, laid_out, peloton_spots, render_board
from renderer.leader1.standings import render_standings
from renderer.palette import ACT, HEIGHT, HIGHLIGHT_RISK, HIGHLIGHT_SAFE, TEAM, WHITE, WIDTH
from rules.game import Choice
from rules.leader1 import pending, showcase
from rules.leader1.moves import RideOption, ride_options
from rules.leader1.showcase import MID_RACE
from rules.leader1.stage import Standing
from rules.record import parse_record, replay
from tests.support.boards import pixel
from tests.support.pictures import picture

SEATS = list(showcase.SEATS)  # the README's mid-race position: every kind of rider on show


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


def test_a_riders_team_colour_is_drawn_at_its_square() -> None:
    state = state_of(MID_RACE)
    image, view = compose(state)
    track = state.setup.road.track
    radius = view.scale * 0.42
    for rider, team in (("yellow-rouleur", "yellow"), ("blue-climber", "blue"), ("green-leader", "green")):
        x, y = view.px(track.cells[state.rider(rider).cell].centre)
        assert pixel(image, (x, y + radius * 0.7)) == TEAM[team], rider  # inside the token, below its letters
    empty = track.cells["31.0"]  # nobody there: no team colour
    x, y = view.px(empty.centre)
    assert pixel(image, (x, y + radius * 0.7)) not in TEAM.values()


def test_every_peloton_rider_is_drawn_inside_the_peloton_in_peloton_order() -> None:
    from rules.leader1.order import peloton_order

    state = state_of(MID_RACE)
    image, view = compose(state)
    spots = peloton_spots(state, view)
    assert [rider for rider, _, _ in spots] == [r.id for r in peloton_order(state)]
    assert len(spots) == sum(1 for r in state.riders if r.status == "peloton") == 4
    for rider, (x, y), radius in spots:
        team = rider.split("-")[0]
        assert pixel(image, (x, y + radius * 0.7)) == TEAM[team], rider
    # front first: the first rider is further along the road (to the right) than the last
    assert spots[0][1][0] > spots[-1][1][0]


def test_a_fallen_rider_lies_beside_the_road() -> None:
    state = state_of(MID_RACE)
    image, view = compose(state)
    track = state.setup.road.track
    fallen = state.rider("green-climber")
    radius = view.scale * 0.42
    x, y = view.px(track.cells[fallen.cell].centre)
    assert pixel(image, (x, y + radius * 0.7)) != TEAM["green"]
    sx, sy = view.px(track.side_point(fallen.row, fallen.lane, outside=0.75))
    assert pixel(image, (sx, sy + radius * 0.7)) == TEAM["green"]


def test_the_rider_to_act_is_marked_by_default_and_on_request() -> None:
    state = state_of(MID_RACE)
    track = state.setup.road.track
    to_act = pending(state).rider
    other = "blue-climber"
    image, view = compose(state)
    radius = view.scale * 0.42

    def ring(image: Image.Image, rider: str) -> tuple[int, int, int]:
        x, y = view.px(track.cells[state.rider(rider).cell].centre)
        return pixel(image, (x - radius - 6, y))  # on the marker's ring, left of the token

    assert ring(image, to_act) == ACT
    assert ring(image, other) != ACT
    image2, view2 = compose(state, acting=[other])
    assert view2 == view
    assert ring(image2, other) == ACT and ring(image2, to_act) != ACT
    image3, _ = compose(state, acting=())
    assert ACT not in {ring(image3, to_act), ring(image3, other)}


def test_highlighted_squares_are_marked_with_their_cost_and_name() -> None:
    state = state_of(MID_RACE)
    decision = pending(state)
    options = ride_options(state, decision.rider)
    image, view = compose(state, highlight=options)
    plain_image, _ = compose(state)
    drawn, _ = laid_out(state, options, default_acting(state))  # the road as drawn: straightened if it must
    track = drawn.setup.road.track
    safest: dict[str, int] = {}
    for option in options:
        safest[option.to] = min(safest.get(option.to, 9), option.risk_count)
    assert any(safest.values()) and not all(safest.values())  # both kinds of square are on show
    for square, risks in safest.items():
        cx, cy = view.px(track.cells[square].centre)
        # the top edge of the cost label, filled with the square's colour
        assert pixel(image, (cx, cy - 12)) == (HIGHLIGHT_RISK if risks else HIGHLIGHT_SAFE), square
        assert pixel(plain_image, (cx, cy - 12)) not in (HIGHLIGHT_RISK, HIGHLIGHT_SAFE)
    named, named_view = compose(state, highlight=options, labels={"33.1": "A", "34.0": "B"})
    renamed, _ = compose(state, highlight=options, labels={"33.1": "B", "34.0": "A"})
    for square in ("33.1", "34.0"):
        cx, cy = named_view.px(track.cells[square].centre)
        box = (round(cx - 25), round(cy - 30), round(cx + 25), round(cy + 30))
        assert named.crop(box).tobytes() != renamed.crop(box).tobytes(), square  # the names are drawn there
        assert named.crop(box).tobytes() != image.crop(box).tobytes(), square


def test_last_turn_trails_run_from_where_each_rider_was() -> None:
    from bot.cli.sim import simulate

    record, _ = simulate("leader1", players=4, seed=3, stage="first-race")
    state = replay(record.with_actions(record.actions[:46])).state
    moves = [e for e in state.events if e.type in ("rode", "breakaway")]
    last = [e for e in moves if e.turn == moves[-1].turn]
    assert last
    image, view = compose(state, acting=())
    track = state.setup.road.track
    occupied = {r.cell for r in state.riders if r.cell}
    checked = 0
    for e in last:
        start = str(e.data["from"])
        if start in occupied or not track.has(start):  # from the peloton, or someone is there now
            continue
        # the hollow ring where the trail starts
        assert pixel(image, view.px(track.cells[start].centre)) == WHITE, e
        checked += 1
    assert checked


def test_identical_states_give_identical_pictures() -> None:
    assert picture(render_board(state_of(MID_RACE))) == picture(render_board(state_of(MID_RACE)))


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_the_parts_pasted_from_their_caches_are_the_parts_drawn_in_place(language: str) -> None:
    """The panel's legend (drawn once per language and place) and the route strip's ground (once per
    road) are pasted after; a recording test draws them in place: both boards are the same pixels,
    the second cached paste too."""
    from renderer import layout
    from rules.i18n import speaking

    with speaking(language):
        with layout.recording():
            drawn = compose(state_of(MID_RACE))[0]
        pasted = [compose(state_of(MID_RACE))[0] for _ in range(2)]
    assert all(image.tobytes() == drawn.tobytes() for image in pasted)


@pytest.mark.parametrize("track", ["leader1/first-race", "leader1/grand-tour", "leader1/random-14-2"])
def test_size_and_file_size_suit_a_phone(track: str) -> None:
    png = render_board(state_of(track=track))
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, HEIGHT) == (960, 800)
    assert len(png) < 1_000_000


def test_the_board_images_are_drawn_at_the_start_mid_race_and_at_the_finish(tmp_path: Path) -> None:
    from bot.cli.sim import simulate

    start = state_of()
    (tmp_path / "board-start.png").write_bytes(render_board(start))
    mid = state_of(MID_RACE)
    decision = pending(mid)
    (tmp_path / "board-mid-race.png").write_bytes(render_board(mid, highlight=ride_options(mid, decision.rider)))
    _, final = simulate("leader1", players=4, seed=3, stage="first-race")
    (tmp_path / "board-finish.png").write_bytes(render_board(final))
    for name in ("board-start.png", "board-mid-race.png", "board-finish.png"):
        png = (tmp_path / name).read_bytes()
        assert Image.open(tmp_path / name).size == (960, 800) and len(png) < 1_000_000


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
    assert image.size == (960, 800) and len(png) < 1_000_000


@pytest.mark.parametrize("stage", ["first-race", "random-14-2"])
def test_every_board_of_a_whole_leader1_race_renders(stage: str) -> None:
    """Each decision's board, with the squares of the rider to act: no crash, phone-sized, < 1 MB."""
    from bot.cli.sim import simulate
    from rules.record import start_state

    record, _ = simulate("leader1", players=5, seed=8, stage=stage)
    game, state = start_state(record)
    for action in [*record.actions, None]:
        decision = pending(state)
        highlight = ride_options(state, decision.rider) if decision and decision.rider else None
        labels = {o.to: str(i) for i, o in enumerate(highlight or [])}
        png = render_board(state, highlight=highlight, labels=labels)
        assert len(png) < 1_000_000
        if action is not None:
            state, _ = game.rules.apply(state, action)


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_board_of_a_race_pastes_what_it_would_draw_in_place(language: str) -> None:
    """The kept parts (legend, strip, road layer) and the strings pasted already blended on the
    header's and panel's ground (``write``'s ``over``) give the pixels a recording draws in place,
    on the boards of a whole race (riders on the road and in the peloton), in every language."""
    from bot.cli.sim import simulate
    from renderer import layout
    from rules.i18n import speaking
    from rules.record import start_state

    record, _ = simulate("leader1", seed=6, players=4)
    game, state = start_state(record)
    boards = 0
    with speaking(language):
        for n, action in enumerate(record.actions):
            if n % 4 == 0:
                with layout.recording():
                    drawn = compose(state)[0]
                assert compose(state)[0].tobytes() == drawn.tobytes(), n
                boards += 1
            state, _events = game.rules.apply(state, action)
    assert boards > 20


def _palette_board(state: Any, offered: Sequence[Choice], n: int, indexed: bool) -> Image.Image:
    options = [c.shows for c in offered if isinstance(c.shows, RideOption)] or None
    labels = {str(c.target): c.short for c in offered if c.target and c.short}
    alliances = ["alice + bob"] if n % 2 else None
    return compose(state, highlight=options, labels=labels, alliances=alliances, indexed=indexed)[0]


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_indexed_board_of_a_race_is_the_rgb_board_mapped(language: str) -> None:
    """``render_board`` maps only the road's band and the strip and draws the header and panel on the
    palette (``compose(indexed=True)``): on every third board of a whole race, with the squares on
    offer named, and alliances under every other one, in every language, the pixels are those of the
    whole RGB picture mapped onto the palette."""
    from rules.i18n import speaking
    from tests.support.board_palette import boards_drawn_both_ways

    with speaking(language):
        assert boards_drawn_both_ways("leader1", seed=3, every=3, draw=_palette_board) > 30
