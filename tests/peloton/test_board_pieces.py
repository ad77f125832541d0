"""Peloton's board meets the phone-first standard of every board: each cyclist drawn on its hexagon
(pixels checked), the one to act marked, the end hexagons on offer lettered as the menu letters them,
last turn's trails and words, 960 x 800, < 1 MB, the same picture for the same state. Images stay
in memory."""

from __future__ import annotations

from bot.cli.images import mid_race
from renderer.palette import ACT, PELOTON_TEAM
from rules.game import Choice
from rules.registry import find_game
from tests.support.boards import every_board_is_phone_sized, offered, pixel, race


def test_cyclists_are_drawn_on_their_hexagons_with_the_one_to_act_marked() -> None:
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


def test_end_hexagons_carry_their_menu_letters() -> None:
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


def test_every_board_of_a_whole_race_is_phone_sized_small_and_deterministic() -> None:
    every_board_is_phone_sized("peloton")


def test_last_turn_trails_start_where_each_piece_was() -> None:
    """A hollow white ring where each cyclist who moved last was (unless someone is there now)."""
    from renderer.palette import WHITE
    from renderer.peloton.painter import Geometry, _trails
    from renderer.peloton.painter import compose as peloton
    from rules.peloton.course import split

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


def test_the_panel_tells_last_turn_in_words() -> None:
    from renderer.peloton.painter import _last_move

    told = _last_move(mid_race(race("peloton")))
    assert told.startswith("Last: ") and "rides" in told
