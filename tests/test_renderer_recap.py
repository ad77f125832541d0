"""A race's recap: an animated GIF of its boards, deterministic and small enough for Discord."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderer.recap import painted, render_recap
from rules.record import start_state


def _turns(record):  # type: ignore[no-untyped-def]
    """The state at the start of every turn, and the last one."""
    game, state = start_state(record)
    states = [state]
    for action in record.actions:
        state, _ = game.rules.apply(state, action)
        if state.turn != states[-1].turn:
            states.append(state)
    if states[-1] is not state:
        states.append(state)
    return states


def test_a_leader1_race_recap_is_an_animation_of_its_boards() -> None:
    from bot.cli.sim import simulate

    record, _ = simulate("leader1", players=4, seed=3, stage="first-race")
    states = _turns(record)
    gif = render_recap(states, board=painted("leader1"))
    assert gif == render_recap(states, board=painted("leader1"))
    assert len(gif) < 8 * 1024 * 1024
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == len(states) and image.size == (960, 800)
    image.seek(0)
    first = image.convert("RGB").tobytes()
    image.seek(image.n_frames - 1)
    assert image.convert("RGB").tobytes() != first  # the race moved on


def test_a_formula_de_mini_recap_and_a_smaller_one() -> None:
    from rules.formula_de_mini import ai
    from rules.formula_de_mini.engine import apply, pending
    from rules.formula_de_mini.setup import build

    players = [{"id": "ann", "team": "red", "cars": 2}, {"id": "bob", "team": "blue", "cars": 2}]
    state = build({"track": "formula-de-mini/island", "players": players, "seed": 4})
    states = [state]
    for _ in range(60):
        decision = pending(state)
        if decision is None:
            break
        state, _ = apply(state, ai.choose(state, decision.player))
        if state.turn != states[-1].turn:
            states.append(state)
    full = render_recap(states, board=painted("formula-de-mini"))
    small = render_recap(states, width=480, board=painted("formula-de-mini"))
    assert Image.open(io.BytesIO(small)).size == (480, 400)
    assert len(small) < len(full) < 8 * 1024 * 1024


def test_a_recap_needs_states() -> None:
    with pytest.raises(ValueError, match="at least one state"):
        render_recap([], board=painted("leader1"))


def test_any_games_recap_the_last_turns_and_narrower_frames_over_the_limit() -> None:
    from bot.cli.sim import simulate
    from renderer.recap import painted, turn_states

    record, final = simulate("hell-of-the-north", players=2, seed=5, random_hexagons=6)
    every = turn_states(record)
    assert every[-1] == final and len(every) > 4
    last = turn_states(record, 2)
    assert last == every[-len(last) :] and 2 <= len(last) <= 3
    board = painted("hell-of-the-north", "a test")
    gif = render_recap(last, board=board)
    assert Image.open(io.BytesIO(gif)).size == (960, 800)
    squeezed = render_recap(last, board=board, limit=len(gif) - 1)  # too big: drawn narrower
    assert Image.open(io.BytesIO(squeezed)).size[0] < 960 and len(squeezed) < len(gif)
