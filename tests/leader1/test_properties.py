"""Property tests over random legal play: no crash, one rider per square, energy never
negative, every race ends, and replaying the record reproduces the race exactly."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.leader1 import engine, outcome, public_view
from rules.leader1.model import State
from rules.record import Record, parse_record, replay, start_state
from tests.support.random_play import play_randomly

MAX_DECISIONS = 4000
TRACKS = [
    "leader1/first-race",
    "leader1/flatlands",
    "leader1/col-du-domestique",
    "leader1/random-8-3",
    "leader1/random-6-11",
]


def check_invariants(state: State) -> None:
    cells = Counter(r.cell for r in state.riders if r.on_road)
    assert all(n == 1 for n in cells.values()), f"two riders on one square: {cells.most_common(1)}"
    assert all(r.energy >= 0 for r in state.riders), "negative energy"
    assert all(r.row is None or 0 <= r.row <= state.setup.road.last_row for r in state.riders)
    assert all((r.status == "peloton") == (r.row is None) for r in state.riders if r.status != "finished")


def random_race(
    track: str, players: int, riders: int, seed: int, chooser: int, elimination: bool = True
) -> tuple[Record, State]:
    seating = [
        {"id": f"p{i}", "team": team, "riders": ["rouleur", "leader", "climber"][:riders]}
        for i, team in enumerate(["yellow", "blue", "green", "white", "black"][:players])
    ]
    envelope = {
        "game": "leader1",
        "track": track,
        "players": seating,
        "seed": seed,
        "options": {"elimination": elimination},
    }
    return play_randomly(envelope, engine, chooser, lambda state, _: check_invariants(state), MAX_DECISIONS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    track=st.sampled_from(TRACKS),
    shape=st.sampled_from([(2, 3), (3, 2), (4, 3), (5, 2), (2, 1)]),
    seed=st.integers(0, 2**31),
    chooser=st.integers(0, 2**31),
    elimination=st.booleans(),
)
def test_random_legal_play_keeps_the_rules_invariants_and_replays(
    track: str, shape: tuple[int, int], seed: int, chooser: int, elimination: bool
) -> None:
    players, riders = shape
    record, final = random_race(track, players, riders, seed, chooser, elimination)
    result = outcome(final)
    assert result.finished
    assert len(result.arrivals) + len(result.eliminated) == players * riders
    again = replay(parse_record(record.to_json()))
    assert again.error_at is None
    assert public_view(again.state) == public_view(final)


def test_six_to_ten_players_with_one_rider_each_share_colours() -> None:
    seating = [
        {
            "id": f"p{i}",
            "team": ["yellow", "blue", "green", "white", "black"][i % 5],
            "riders": [["rouleur", "leader"][i // 5]],
        }
        for i in range(10)
    ]
    record = parse_record(
        {
            "format": "domestique.record/1",
            "game": "leader1",
            "track": "leader1/first-race",
            "players": seating,
            "seed": 5,
        }
    )
    _, state = start_state(record)
    assert len(state.riders) == 10 and state.rider("yellow-leader").player == "p5"
