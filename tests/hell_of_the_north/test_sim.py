"""The AI plays Hell of the North to the end: 20 seeds on random routes, every shipped stage,
2 to 4 teams; and `domestique sim` / `demo` work for the game through the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.sim import simulate
from rules.hell_of_the_north.course import stage_names
from rules.record import load_record, replay


@pytest.mark.parametrize("seed", range(20))
def test_the_ai_finishes_a_random_route(seed: int) -> None:
    players = 2 + seed % 3
    record, state = simulate("hell-of-the-north", players=players, seed=seed, random_hexagons=6 + seed % 10)
    assert state.finished
    assert all(not r.racing for r in state.riders)
    assert any(r.status == "finished" for r in state.riders)
    assert record.track.startswith("hell-of-the-north/random-")


@pytest.mark.parametrize("stage", stage_names())
def test_the_ai_finishes_every_shipped_stage(stage: str) -> None:
    record, state = simulate("hell-of-the-north", players=4, seed=11, stage=stage)
    assert state.finished
    again = replay(load_record(json.dumps(record.to_json())))
    assert again.error_at is None
    assert again.state == state, "a record replays to the same race"


def test_sim_and_demo_commands(tmp_path: Path) -> None:
    from bot.cli import main

    out = tmp_path / "race.json"
    assert main(
        ["sim", "--game", "hell-of-the-north", "--players", "3", "--seed", "4", "--random", "8", "--out", str(out)]
    ) in (0, None)
    assert json.loads(out.read_text())["game"] == "hell-of-the-north"
    demo = tmp_path / "demo"
    assert main(["demo", "--game", "hell-of-the-north", "--players", "2", "--seed", "2", "--out", str(demo)]) in (
        0,
        None,
    )
    boards = sorted(demo.glob("board-*.png"))
    assert boards and boards[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
