"""Property tests over random legal Hell of the North play: no crash, one rider per square,
energy never negative, pursuits within the rules, every race ends, and replaying the record
reproduces the race exactly."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.events import Event
from rules.hell_of_the_north import engine
from rules.hell_of_the_north.model import MAX_PURSUIT_STREAK, PURSUITS, State
from rules.record import Record, replay
from tests.support.random_play import play_randomly

MAX_DECISIONS = 6000
TRACKS = [
    "hell-of-the-north/roubaix",
    "hell-of-the-north/flanders",
    "hell-of-the-north/random-6-3",
    "hell-of-the-north/random-9-17",
]
TEAMS = ["black", "white", "green", "orange"]


def check_invariants(state: State) -> None:
    cells = Counter(r.cell for r in state.riders if r.on_road)
    assert all(n == 1 for n in cells.values()), f"two riders on one square: {cells.most_common(1)}"
    assert all(r.energy >= 0 for r in state.riders), "negative energy"
    assert all(
        (r.status == "peloton") == (r.row is None) for r in state.riders if r.status not in ("finished", "eliminated")
    )
    assert all(r.part in ("front", "back") for r in state.riders if r.status == "peloton" and state.phase != "placing")
    assert all(0 <= n <= PURSUITS for _, n in state.pursuits)
    assert all(n <= MAX_PURSUIT_STREAK for _, n in state.streak)
    assert sorted(state.order) == sorted(p.id for p in state.setup.players)


def random_race(track: str, players: int, seed: int, chooser: int, multi_day: bool) -> tuple[Record, State]:
    seating = [
        {
            "id": f"p{i}",
            "team": TEAMS[i],
            "riders": ["rouleur", "leader", "climber"],
            "attack": "rouleur",
            "sprint": "leader",
        }
        for i in range(players)
    ]
    envelope = {
        "game": "hell-of-the-north",
        "track": track,
        "players": seating,
        "seed": seed,
        "options": {"multi_day": multi_day},
    }
    return play_randomly(envelope, engine, chooser, _check, MAX_DECISIONS)


def _check(state: State, events: list[Event]) -> None:
    for e in events:  # R-HOTN-BEND: every move goes forward, never still or sideways
        if e.type in ("rode", "breakaway") and e.data.get("from"):
            assert int(str(e.data["to"]).split(".")[0]) > int(str(e.data["from"]).split(".")[0])
    check_invariants(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    track=st.sampled_from(TRACKS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    chooser=st.integers(0, 2**32),
    multi_day=st.booleans(),
)
def test_random_legal_play_keeps_the_rules_and_replays(
    track: str, players: int, seed: int, chooser: int, multi_day: bool
) -> None:
    record, final = random_race(track, players, seed, chooser, multi_day)
    assert final.finished
    assert all(not r.racing for r in final.riders)
    again = replay(record)
    assert again.error_at is None
    assert again.state == final
