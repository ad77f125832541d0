"""Whole Peloton races: the AI finishes every discipline for 20 seeds; random legal play keeps
the invariants (one cyclist a hexagon, no energy below the floor, every race ends); records replay."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.sim import simulate
from renderer.registry import find_painter
from rules.peloton.engine import build, legal_actions, pending
from rules.peloton.game import GAME
from rules.peloton.model import State
from rules.record import replay
from rules.registry import find_game
from tests.support.ai_races import ai_race

STAGES = ("leg-bohemia", "itt-25", "ttt-100")


@pytest.mark.parametrize("stage", STAGES)
def test_the_ai_finishes_every_discipline_for_20_seeds(stage: str) -> None:
    for seed in range(20):
        _, state = ai_race("peloton", 4, seed, stage)  # the races test_start_order reads too
        outcome = find_game("peloton").rules.outcome(state)
        assert outcome.finished and outcome.winner is not None, (stage, seed)
        assert len(state.arrivals) == 12


@pytest.mark.parametrize(
    "stage", ["random-itt-50", "random-itt-75", "random-ttt-100", "random-110", "itt-75", "itt-50"]
)
def test_the_ai_finishes_random_and_longer_courses(stage: str) -> None:
    record, state = simulate("peloton", players=3, seed=11, stage=stage)
    assert state.phase == "finished"
    again = replay(record)
    assert again.error_at is None and again.state == state


# a short course marked out on the bohemia board: the lake road, a sharp (120°) junction, the forest road
BOARD_COURSE = {
    "name": "lake-and-forest",
    "board": "bohemia",
    "route": [{"road": "lake", "from": 8, "to": 30}, {"road": "forest", "from": 0, "to": 16}],
    "signs": [{"at": 26, "terrain": "up"}, {"at": 32, "terrain": "down", "bonus": "uphill"}],
}


def _check(state: State) -> None:
    cells = [c.cell for c in state.cyclists if c.cell is not None and c.status not in ("waiting", "finished")]
    assert len(cells) == len(set(cells)), "two cyclists on one hexagon"
    floor = -5 if state.setup.options.get("borrow") else 0
    assert all(c.energy >= floor for c in state.cyclists), "energy below the floor"
    assert all(0 <= c.dial <= 4 for c in state.cyclists)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    stage=st.sampled_from(["random-40-s1", "random-itt-30-s2", "random-ttt-30-s3", "itt-25", "board"]),
    teams=st.integers(1, 4),
    borrow=st.booleans(),
    picks=st.randoms(use_true_random=False),
)
def test_random_legal_play_keeps_the_invariants_ends_and_replays(stage: str, teams: int, borrow: bool, picks) -> None:
    players = GAME.sample_players(teams)
    envelope = {
        "game": "peloton",
        "track": BOARD_COURSE if stage == "board" else f"peloton/{stage}",
        "players": players,
        "seed": 1,
        "options": {"borrow": borrow} if stage.startswith("random-40") else {},
    }
    state = build(envelope)
    actions = []
    for _ in range(5000):
        _check(state)
        d = pending(state)
        if d is None:
            break
        options = legal_actions(state, d.player)
        assert options, "a decision with no choice"
        action = picks.choice(options).action
        state, _ = GAME.rules.apply(state, action)
        actions.append(action)
    assert state.phase == "finished", "the race did not end"
    from rules.record import Record

    record = Record("peloton", envelope["track"], players, 1, envelope["options"], actions=tuple(actions))
    assert replay(record).state == state


def test_the_board_paints_every_decision_of_a_short_race() -> None:
    painter = find_painter("peloton")
    assert painter is not None
    state = build({"track": "peloton/itt-25", "players": GAME.sample_players(2)})
    painted = 0
    while (d := GAME.rules.pending(state)) is not None and painted < 40:
        choices = GAME.rules.choices(state, d.player)
        if painted % 5 == 0:
            png = painter(state, highlight=choices, acting=[d.piece] if d.piece else [], title="", legend=[])
            assert png.startswith(b"\x89PNG")
        state, _ = GAME.rules.apply(state, GAME.ai(state, d.player))
        painted += 1


def test_sim_and_demo_commands_play_peloton(tmp_path) -> None:
    """``domestique sim --game peloton`` for each discipline, and ``domestique demo`` writes the boards."""
    import json

    from bot.cli import main

    for stage in ("random-30", "random-itt-25", "random-ttt-20"):
        out = tmp_path / f"{stage}.json"
        assert main(["sim", "--game", "peloton", "--stage", stage, "--players", "2", "--out", str(out)]) in (0, None)
        assert json.loads(out.read_text())["game"] == "peloton"
    demo = tmp_path / "demo"
    args = ["demo", "--game", "peloton", "--stage", "random-20", "--players", "2", "--seed", "2", "--out", str(demo)]
    assert main(args) in (0, None)
    boards = sorted(demo.glob("board-*.png"))
    assert boards and boards[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
