"""The AI player: legal, sensible, and a standard 10-hexagon stage lasts 12-20 turns."""

from __future__ import annotations

import pytest

from bot.cli.sim import simulate
from rules.leader1.route import road_for


@pytest.mark.parametrize("stage", ["flatlands", "col-du-domestique"])
@pytest.mark.parametrize("seed", range(1, 7))
def test_a_ten_hexagon_stage_takes_12_to_20_turns(stage: str, seed: int) -> None:
    assert len(road_for(stage).tiles) == 10
    _, state = simulate("leader1", players=4, seed=seed, stage=stage)
    assert state.finished
    assert 12 <= state.turn <= 20


def test_the_ai_races_are_deterministic() -> None:
    first, _ = simulate("leader1", players=3, seed=9, stage="first-race")
    second, _ = simulate("leader1", players=3, seed=9, stage="first-race")
    assert first.to_json() == second.to_json()


def test_the_ai_breaks_away_takes_slipstream_and_rarely_risks() -> None:
    breakaways = slipstreams = risks = rides = 0
    for seed in range(1, 9):
        _, state = simulate("leader1", players=4, seed=seed, stage="rolling-hills")
        for e in state.events:
            if e.type == "breakaway":
                breakaways += 1
            if e.type in ("rode", "breakaway"):
                rides += 1
                slipstreams += bool(e.data.get("slipstream"))
            if e.type == "rolled" and e.data.get("risk") in ("crack", "fall"):
                risks += 1
    assert breakaways >= 8 and slipstreams >= 3
    assert risks <= rides * 0.1
