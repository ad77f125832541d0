"""Hell of the North's and Peloton's boards meet the phone-first standard of the other boards:
every piece drawn where it is (pixels checked), the peloton's riders inside it in order, the
piece to act marked, offered squares carrying the menu's short names, 960 x 800, < 1 MB, the
same bytes for the same state. Images stay in memory or tmp_path, never docs/images."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.cli.images import mid_race
from renderer.palette import ACT, HIGHLIGHT_RISK, HIGHLIGHT_SAFE, PELOTON_TEAM, TEAM
from rules.game import Choice
from rules.record import Record, start_state
from rules.registry import find_game
from tests.support.ai_races import ai_race


def pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return value[:3]


@cache
def race(game: str) -> Record:
    record, _ = ai_race(game, 4, 3)
    return record


def offered(game: str, state: Any) -> list[Choice]:
    """The squares the bot would highlight: the targeted, one-step choices of the player to act."""
    rules = find_game(game).rules
    decision = rules.pending(state)
    assert decision is not None
    return [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]


# -- Hell of the North ---------------------------------------------------------------------------


def test_hotn_riders_on_the_road_are_drawn_on_their_squares_in_their_team_colour() -> None:
    from renderer.hell_of_the_north.painter import compose

    state = mid_race(race("hell-of-the-north"))
    image, view = compose(state, acting=())
    track = state.setup.road.track
    radius = view.scale * 0.42
    checked = 0
    for r in state.riders:
        if r.status not in ("breakaway", "dropped", "punctured") or r.cell is None:
            continue
        x, y = view.px(track.cells[r.cell].centre)
        if 0 <= x < 960 and 52 <= y < 452:
            assert pixel(image, (x, y + radius * 0.7)) == TEAM[r.id.split("-")[0]], r.id
            checked += 1
    assert checked >= 2


def test_hotn_peloton_riders_are_drawn_inside_it_in_peloton_order_front_part_ahead() -> None:
    from renderer.hell_of_the_north.painter import compose, peloton_spots
    from rules.hell_of_the_north.order import peloton_order

    # early in the race: since issue 30 the AI moves every rider with energy to spare to the front
    # part for its attack, so by mid-race the back part may be empty
    state = mid_race(race("hell-of-the-north"), fraction=0.15)
    image, view = compose(state, acting=())
    spots = peloton_spots(state, view)
    in_peloton = peloton_order(state)
    # the front part first, then the back part, each in peloton order (support-rider markers)
    expected = [r.id for r in in_peloton if r.part != "back"] + [r.id for r in in_peloton if r.part == "back"]
    assert [rider for rider, _, _ in spots] == expected
    assert len(spots) == sum(1 for r in state.riders if r.status == "peloton") >= 4
    for rider, (x, y), radius in spots:
        assert pixel(image, (x, y + radius * 0.7)) == TEAM[rider.split("-")[0]], rider
    parts = {r.id: r.part for r in in_peloton}
    fronts = [x for rider, (x, _), _ in spots if parts[rider] == "front"]
    backs = [x for rider, (x, _), _ in spots if parts[rider] == "back"]
    assert fronts and backs and min(fronts) > max(backs)  # the road runs left to right: front is right


def test_hotn_rider_to_act_is_marked_and_offered_squares_carry_their_menu_names() -> None:
    from renderer.hell_of_the_north.painter import compose

    state = mid_race(race("hell-of-the-north"), fraction=0.15)
    choices = offered("hell-of-the-north", state)
    to_act = find_game("hell-of-the-north").rules.pending(state).piece
    assert choices and to_act
    image, view = compose(state, highlight=choices)
    track = state.setup.road.track
    rider = state.rider(to_act)
    x, y = view.px(track.cells[rider.cell].centre)
    ring = (x - view.scale * 0.42 - 6, y)
    assert pixel(image, ring) == ACT
    quiet, _ = compose(state, highlight=choices, acting=())
    assert pixel(quiet, ring) != ACT
    renamed = [Choice(c.action, c.label, c.detail, c.piece, c.target, "Z" + c.short, risky=c.risky) for c in choices]
    other, _ = compose(state, highlight=renamed)
    plain, _ = compose(state)
    for c in choices:
        cx, cy = view.px(track.cells[str(c.target)].centre)
        box = (round(cx - 22), round(cy - 24), round(cx + 22), round(cy))
        assert image.crop(box).tobytes() != other.crop(box).tobytes(), c.short  # the name is written there
        assert image.crop(box).tobytes() != plain.crop(box).tobytes(), c.short
        edge = view.px(track.cells[str(c.target)].polygon[0])
        near = {pixel(image, (edge[0] + dx, edge[1] + dy)) for dx in (-2, 0, 2) for dy in (-2, 0, 2)}
        assert near & {HIGHLIGHT_SAFE, HIGHLIGHT_RISK}, c.short  # the square's edge


# -- Peloton -------------------------------------------------------------------------------------


def test_peloton_cyclists_are_drawn_on_their_hexagons_with_the_one_to_act_marked() -> None:
    from renderer.peloton.painter import compose, on_road
    from rules.peloton.course import split

    state = mid_race(race("peloton"))
    image, view = compose(state)
    from renderer.peloton.painter import Geometry

    geo = Geometry(state.course)
    radius = view.scale * 0.4
    to_act = find_game("peloton").rules.pending(state).piece
    checked = 0
    for c in on_road(state):
        x, y = view.px(geo.centre(*split(str(c.cell))))
        if not (0 <= x < 960 and 52 <= y < 500):
            continue
        assert pixel(image, (x, y + radius * 0.7)) == PELOTON_TEAM[c.team], c.id
        ring = pixel(image, (x - radius - 6, y))
        assert (ring == ACT) == (c.id == to_act), c.id
        checked += 1
    assert checked >= 4


def test_peloton_end_hexagons_carry_their_menu_letters() -> None:
    from renderer.peloton.painter import compose, default_acting, laid_out
    from rules.peloton.course import split

    state = mid_race(race("peloton"))
    choices = offered("peloton", state)
    assert choices and all(c.short.isalpha() for c in choices)
    image, view = compose(state, highlight=choices)
    renamed = [Choice(c.action, c.label, c.detail, c.piece, c.target, "Q", risky=c.risky) for c in choices]
    other, _ = compose(state, highlight=renamed)
    geo, _ = laid_out(state, choices, default_acting(state))  # as the painter lays the course out
    for c in choices:
        cx, cy = view.px(geo.centre(*split(str(c.target))))
        box = (round(cx - 14), round(cy - 26), round(cx + 14), round(cy - 2))
        assert image.crop(box).tobytes() != other.crop(box).tobytes(), c.short


# -- both ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["hell-of-the-north", "peloton"])
def test_every_board_of_a_whole_race_is_phone_sized_small_and_deterministic(game: str) -> None:
    """Each decision's board as the bot paints it, with its offered squares: 960 x 800, < 1 MB."""
    from renderer.registry import paint

    record = race(game)
    rules, state = start_state(record)
    step = max(1, len(record.actions) // 60)  # every few decisions: the whole race, in reasonable time
    for index, action in enumerate([*record.actions, None]):
        if index % step == 0 or action is None:
            decision = rules.rules.pending(state)
            choices = offered(game, state) if decision is not None else []
            png = paint(game, state, highlight=choices, acting=[decision.piece] if decision and decision.piece else [])
            assert png is not None and len(png) < 1_000_000
            assert Image.open(io.BytesIO(png)).size == (960, 800)
        if action is not None:
            state, _ = rules.rules.apply(state, action)
    middle = mid_race(record)
    assert paint(game, middle, highlight=offered(game, middle)) == paint(game, middle, highlight=offered(game, middle))


def test_last_turn_trails_start_where_each_piece_was() -> None:
    """Both games: a hollow white ring where each piece that moved last was (unless someone is there now)."""
    from renderer.hell_of_the_north.painter import compose as hotn
    from renderer.palette import WHITE
    from renderer.peloton.painter import Geometry, _trails
    from renderer.peloton.painter import compose as peloton
    from rules.peloton.course import split

    state = mid_race(race("hell-of-the-north"))
    image, view = hotn(state, acting=())
    track = state.setup.road.track
    moves = [e for e in state.events if e.type in ("rode", "breakaway")]
    occupied = {r.cell for r in state.riders if r.cell}
    starts = [str(e.data["from"]) for e in moves if e.turn == moves[-1].turn]
    shown = [c for c in starts if track.has(c) and c not in occupied]
    assert shown and all(pixel(image, view.px(track.cells[c].centre)) == WHITE for c in shown)

    state = mid_race(race("peloton"))
    image, view = peloton(state, acting=())
    geo = Geometry(state.course)
    occupied = {c.cell for c in state.cyclists if c.cell}
    trails = _trails(state)
    shown = [path[0] for path in trails.values() if path[0] not in occupied]  # a trail: the hexagons ridden
    assert trails and shown
    for was in shown:
        x, y = view.px(geo.centre(*split(was)))
        if 0 <= x < 960 and 52 <= y < 500:
            assert pixel(image, (x, y)) == WHITE, was


def test_the_panels_tell_last_turn_in_words_with_names_players_know() -> None:
    from renderer.hell_of_the_north.panel import last_turn as _last_turn
    from renderer.peloton.painter import _last_move

    state = mid_race(race("hell-of-the-north"))
    lines = _last_turn(state)
    assert lines and not any(p.id in " ".join(lines).split() for p in state.setup.players if p.id != p.name)
    assert _last_move(mid_race(race("peloton"))).startswith("Last: ") and "rides" in _last_move(
        mid_race(race("peloton"))
    )
