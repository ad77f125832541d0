"""Why issue 30's leg-race target (a lone AI among three greedy teams: place <= 1.8) is out of
reach on leg-bohemia (docs/ai.md, "Peloton's leg race against greedy seats: a bound"): the three
cyclists of the grid's front row ride abreast to the line whatever rides behind them, and their
wall leaves no way through after any move. Nobody behind them can then finish ahead of them, so a
team without a cyclist in the front row places behind every team with one."""

from __future__ import annotations

from collections.abc import Callable

from bot.cli.ai_bench import MAKERS, Maker, race
from bot.service import race_options
from rules.action import Action
from rules.baselines import greedy, random_player
from rules.peloton.course import Course, make, split
from rules.peloton.engine import apply
from rules.peloton.model import State
from rules.record import Record, start_state
from rules.registry import find_game

GAME = find_game("peloton")
SEED = 1  # the grid's front row: one cyclist each of the first, third and fourth seats
SEAT = 1  # a seat without a cyclist in the front row
Policy = Callable[[State, str], Action]


def _start(seed: int) -> State:
    track = GAME.tracks.resolve("leg-bohemia", seed)
    record = Record(GAME.id, track, GAME.sample_players(4), seed, options=race_options.defaults(GAME))
    _, state = start_state(record)
    assert isinstance(state, State)
    return state


def _front_row(state: State) -> list[str]:
    return [c.id for c in sorted(state.cyclists, key=lambda c: -split(c.cell or "0.0")[0])[:3]]


def _way_through(course: Course, wall: set[str]) -> bool:
    """Could anything behind the wall get past its foremost hexagon, on any path of steps forward
    (straight or crosswise, swerves and turnings' trails allowed: a looser test than the rules')?"""
    rear = min(split(c)[0] for c in wall)
    front = max(split(c)[0] for c in wall)
    layer = {make(s, lane) for s in (rear - 2, rear - 1) for lane in range(course.width) if (s - lane) % 2 == 0}
    seen: set[str] = set()
    while layer:
        nxt = set()
        for cell in layer:
            for _, to in course.forward(cell):
                if to in wall or to in seen:
                    continue
                if split(to)[0] > front:
                    return True
                seen.add(to)
                nxt.add(to)
        layer = nxt
    return False


def _front_row_ride(seat_policy: Policy) -> list[tuple[str, ...]]:
    """The front row's hexagons after every move up to the one it finishes in, the seat ``SEAT``
    played by ``seat_policy`` and the other three by the greedy baseline."""
    state = _start(SEED)
    players = [str(p["id"]) for p in GAME.sample_players(4)]
    plain = greedy(GAME)
    front = _front_row(state)
    assert all(state.cyclist(cid).player != players[SEAT] for cid in front)
    seen: list[tuple[str, ...]] = []
    now = state.round
    while state.phase != "finished" and not (seen and all(split(c)[0] > state.course.finish for c in seen[-1])):
        decision = GAME.rules.pending(state)
        assert decision is not None
        policy = seat_policy if decision.player == players[SEAT] else plain
        state, _ = apply(state, policy(state, decision.player))
        if state.round != now or state.phase == "finished":
            now = state.round
            cells = tuple(state.cyclist(cid).cell or "" for cid in front)
            seen.append(cells)
            racing = [c for c in cells if split(c)[0] <= state.course.finish]
            if len(racing) == 3:
                assert not _way_through(state.course, set(racing)), (now, cells)
    return seen


def test_the_front_row_rides_the_same_to_the_line_whatever_rides_behind_it_and_leaves_no_way_through() -> None:
    ridden = [_front_row_ride(p) for p in (greedy(GAME), GAME.ai, random_player(GAME, 7))]
    assert ridden[0] == ridden[1] == ridden[2]
    assert len(ridden[0]) >= 25


def test_a_team_without_a_cyclist_in_the_front_row_places_behind_every_team_with_one() -> None:
    state = _start(SEED)
    teams = {state.cyclist(cid).player for cid in _front_row(state)}
    seats: list[Maker] = [MAKERS["AI"] if i == SEAT else MAKERS["greedy"] for i in range(4)]
    placed, _, _ = race(GAME, "leg-bohemia", SEED, seats, [False] * 4)
    ai_player = str(GAME.sample_players(4)[SEAT]["id"])
    assert placed[ai_player] == 1 + len(teams) == 4, placed


def test_a_wall_skewed_by_a_hexagon_and_a_half_leaves_a_way_through() -> None:
    course = _start(SEED).course
    assert not _way_through(course, {"20.0", "21.1", "20.2"})  # abreast, the middle half a hexagon ahead
    assert not _way_through(course, {"20.0", "19.1", "20.2"})  # or half a hexagon behind
    assert _way_through(course, {"20.0", "23.1", "20.2"})  # a hexagon and a half ahead: past it on the left
    assert _way_through(course, {"20.0", "20.2"})  # two abreast: the middle lane
