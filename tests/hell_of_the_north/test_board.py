"""Hell of the North's board meets the phone-first standard of every board: each rider drawn where
it is (pixels checked), the peloton's riders inside it in order, front part ahead, the rider to act
marked, offered squares carrying the menu's short names, last turn's trails and words, 960 x 800,
< 1 MB, the same picture for the same state. Images stay in memory."""

from __future__ import annotations

from bot.cli.images import mid_race
from renderer.palette import ACT, HIGHLIGHT_RISK, HIGHLIGHT_SAFE, TEAM
from rules.game import Choice
from rules.registry import find_game
from tests.support.boards import every_board_is_phone_sized, offered, pixel, race


def test_riders_on_the_road_are_drawn_on_their_squares_in_their_team_colour() -> None:
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


def test_peloton_riders_are_drawn_inside_it_in_peloton_order_front_part_ahead() -> None:
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


def test_rider_to_act_is_marked_and_offered_squares_carry_their_menu_names() -> None:
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


def test_every_board_of_a_whole_race_is_phone_sized_small_and_deterministic() -> None:
    every_board_is_phone_sized("hell-of-the-north")


def test_last_turn_trails_start_where_each_piece_was() -> None:
    """A hollow white ring where each rider who moved last was (unless someone is there now)."""
    from renderer.hell_of_the_north.painter import compose as hotn
    from renderer.palette import WHITE

    state = mid_race(race("hell-of-the-north"))
    image, view = hotn(state, acting=())
    track = state.setup.road.track
    moves = [e for e in state.events if e.type in ("rode", "breakaway")]
    occupied = {r.cell for r in state.riders if r.cell}
    starts = [str(e.data["from"]) for e in moves if e.turn == moves[-1].turn]
    shown = [c for c in starts if track.has(c) and c not in occupied]
    assert shown and all(pixel(image, view.px(track.cells[c].centre)) == WHITE for c in shown)


def test_the_panel_tells_last_turn_in_words_with_names_players_know() -> None:
    from renderer.hell_of_the_north.panel import last_turn as _last_turn

    state = mid_race(race("hell-of-the-north"))
    lines = _last_turn(state)
    assert lines and not any(p.id in " ".join(lines).split() for p in state.setup.players if p.id != p.name)
