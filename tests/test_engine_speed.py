"""What makes the engines and AIs fast must not change a single answer (issue 13).

The shortcuts are remembered results (a state's legal actions, a car's reachable paths,
a road's mountain categories) and one search serving several rolls. Each test compares a
shortcut with the plain computation on real races; speed itself is ``domestique bench engine``.
"""

from __future__ import annotations

from dataclasses import replace

from rules.formula_de_mini import ai as fdm_ai
from rules.formula_de_mini import moves as fdm_moves
from rules.formula_de_mini.engine import apply as fdm_apply
from rules.formula_de_mini.engine import pending as fdm_pending
from rules.formula_de_mini.model import State as FdmState
from rules.formula_de_mini.setup import build as fdm_build
from rules.leader1.route import road_for
from rules.memo import Recent, by_state_identity

PLAYERS = [{"id": f"p{i}", "team": team, "cars": 2} for i, team in enumerate(("red", "blue", "green", "yellow"))]


def fdm_states(turns: int = 120) -> list[FdmState]:
    state = fdm_build({"track": "formula-de-mini/island", "players": PLAYERS, "seed": 3})
    states = [state]
    for _ in range(turns):
        decision = fdm_pending(state)
        if decision is None:
            break
        state, _ = fdm_apply(state, fdm_ai.choose(state, decision.player))
        states.append(state)
    return states


def test_remembered_by_identity_computes_once_and_hands_out_fresh_lists() -> None:
    calls: list[object] = []

    @by_state_identity
    def listing(state: object, who: str, *, wide: bool = False) -> list[str]:
        calls.append(state)
        return [who, str(wide)]

    class Frozen:  # a state: any object that can be referenced weakly
        pass

    state, other = Frozen(), Frozen()
    first = listing(state, "ann")
    first.append("changed by the caller")
    assert listing(state, "ann", wide=False) == ["ann", "False"]  # the default spelled out: one question
    assert len(calls) == 1
    assert listing(other, "ann") == ["ann", "False"] and len(calls) == 2  # another state: asked again
    assert listing(state, "ann", wide=True) == ["ann", "True"] and len(calls) == 3
    del other  # a state gone: its answer is never handed to a new object at the same address
    assert all(listing(Frozen(), "ann") == ["ann", "False"] for _ in range(3)) and len(calls) == 6


def test_recent_forgets_the_oldest_and_checks_the_owner() -> None:
    recent = Recent(2)
    owner = object()
    recent.put("a", owner, 1)
    recent.put("b", owner, 2)
    assert recent.get("a", owner) == 1  # "a" is now the most recent
    recent.put("c", owner, 3)
    assert recent.get("b", owner) is None and recent.get("a", owner) == 1
    assert recent.get("a", object()) is None  # same key, another circuit: not this value


def test_one_search_serves_every_roll_as_a_search_per_roll_would() -> None:
    for state in fdm_states()[::10]:
        for car in state.cars:
            if car.status not in ("racing", "pits"):
                continue
            fdm_moves._REACHED = Recent(64)  # nothing remembered: the plain search
            reached = fdm_moves.reachable(state, car, 21)
            for roll in range(1, 21):
                fdm_moves._REACHED = Recent(64)
                plain = fdm_moves.move_options(state, car, roll, turbo=True)
                assert fdm_moves.move_options(state, car, roll, turbo=True, reached=reached) == plain
                assert [o.via for o in fdm_moves.move_options(state, car, roll, reached=reached)] == [
                    o.via for o in fdm_moves.move_options(state, car, roll)
                ]


def test_remembered_paths_are_the_paths_a_fresh_search_finds() -> None:
    for state in fdm_states()[::10]:
        for car in state.cars:
            longest = 12
            fdm_moves.reachable(state, car, 20)  # remembered, longer than asked next
            remembered = fdm_moves.reachable(state, car, longest)
            fdm_moves._REACHED = Recent(64)
            assert remembered == fdm_moves.reachable(state, car, longest)
            moved = replace(car, lap=car.lap + 1, pitted=not car.pitted)  # what the search reads changed
            fdm_moves._REACHED = Recent(64)
            fresh = fdm_moves.reachable(state, moved, longest)
            fdm_moves.reachable(state, car, longest)
            assert fdm_moves.reachable(state, moved, longest) == fresh


def test_mountain_categories_worked_out_once_match_the_rule_for_every_row() -> None:
    for name in ("first-race", "grand-tour", "random-20-7", "random-15-2"):
        road = road_for(name)
        for row in range(-2, len(road.profile) + 3):
            assert road.category_at(row) == (road._category_at(row) if road.terrain(row) == "M" else None)


def test_a_road_is_shared_by_races_on_the_same_stage() -> None:
    assert road_for("grand-tour") is road_for("grand-tour")
    assert road_for("random-20-7") is not road_for("random-20-8")
