"""Peloton's leg-race AI searches ahead through the bunch (issue 30): its model of a move
(``ai_sim``) predicts the engine's bunch exactly when everyone rides the baseline's way, and the
search keeps a start in the front row to the win against three baseline (greedy) teams, where the
heuristic alone let the bunch past."""

from __future__ import annotations

from bot.cli.ai_bench import MAKERS, race
from bot.service import race_options
from rules.baselines import greedy
from rules.peloton import ai_search, ai_sim
from rules.peloton.course import split
from rules.peloton.engine import apply
from rules.peloton.model import State
from rules.record import Record, start_state
from rules.registry import find_game

GAME = find_game("peloton")


def _start(course: str, seed: int) -> State:
    record = Record(
        GAME.id, GAME.tracks.resolve(course, seed), GAME.sample_players(4), seed, options=race_options.defaults(GAME)
    )
    _, state = start_state(record)
    assert isinstance(state, State)
    return state


def test_the_model_rides_a_move_of_the_bunch_as_the_engine_does() -> None:
    plain = greedy(GAME)
    for course in ("leg-bohemia", "random-bohemia-120"):
        state = _start(course, 2)
        checked = 0
        while state.phase != "finished" and checked < 12:
            at_start = state.acting is None and len(state.queue) == sum(c.on_road for c in state.cyclists)
            if at_start:
                predicted = ai_sim.from_state(state)
                ai_search.play_greedy(predicted, 0)
                now = state.round
                while state.phase != "finished" and state.round == now:
                    decision = GAME.rules.pending(state)
                    assert decision is not None
                    state, _ = apply(state, plain(state, decision.player))
                real = [split(c.cell or "0.0") for c in state.cyclists]
                assert list(zip(predicted.s, predicted.lane, strict=True)) == real, (course, now)
                checked += 1
                continue
            decision = GAME.rules.pending(state)
            assert decision is not None
            state, _ = apply(state, plain(state, decision.player))
        assert checked == 12


def test_a_cyclist_starting_first_is_kept_ahead_of_three_greedy_teams_to_the_win() -> None:
    # seed 11: the AI's seat starts cyclists first and fifth on the grid; riding the heuristic
    # alone it let two greedy teams past and placed third
    seed = 11
    seats = [MAKERS["AI"] if i == seed % 4 else MAKERS["greedy"] for i in range(4)]
    placed, _, _ = race(GAME, "leg-bohemia", seed, seats, [False] * 4)
    ai_player = str(GAME.sample_players(4)[seed % 4]["id"])
    assert placed[ai_player] == 1, placed


def test_what_the_search_remembers_changes_no_choice_and_stays_bounded() -> None:
    # the search remembers moves it has worked out, per road and wind (ai_sim.Memory): a choice
    # made with that memory warm from other choices is the choice made with it empty, and a process
    # that meets many courses keeps it for the last few roads only, each table within its bound
    plain = greedy(GAME)
    moments: list[State] = []
    for course in ("leg-bohemia", "random-bohemia-120", "random-bohemia-60"):
        state = _start(course, 5)
        for step in range(160):
            decision = GAME.rules.pending(state)
            assert decision is not None
            if step % 8 == 7:
                moments.append(state)
            state, _ = apply(state, plain(state, decision.player))
    warm = []
    for state in moments:
        decision = GAME.rules.pending(state)
        assert decision is not None
        warm.append(GAME.ai(state, decision.player))
    assert len(ai_sim._memories) == ai_sim.ROADS_REMEMBERED  # three roads met, two remembered
    for _, kept in ai_sim._memories:
        assert 0 < len(kept.rides) <= ai_sim.Memory.RIDES and len(kept.moves) <= ai_sim.Memory.MOVES
    for state, chosen in zip(moments, warm, strict=True):
        ai_sim._memories.clear()
        decision = GAME.rules.pending(state)
        assert decision is not None
        assert GAME.ai(state, decision.player) == chosen
        # the bunch's futures, rivals riding the plain way or sprinting, each ridden first
        futures = []
        for order in (("", decision.player), (decision.player, "")):
            ai_sim._memories.clear()
            ridden = {}
            for sprinters in order:
                probe = ai_sim.from_state(state)
                ai_search.play_greedy(probe, ai_search.HORIZON, sprinters)
                ridden[sprinters] = probe.bunch()
            futures.append(ridden)
        assert futures[0] == futures[1]
