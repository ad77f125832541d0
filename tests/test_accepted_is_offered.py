"""Every action an engine accepts is one its menu offers (issue 42: Peloton accepted a ride into a
turning without its speed, which no menu offered, and told the fall without the speed).

Near misses of the offered actions (a field left out, another choice's move or field) are tried at
states of random legal play; each one the engine accepts must be offered, in the sense of
``tests/support/offered.py``. DOMESTIQUE_FUZZ_EXAMPLES raises the number of examples.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import find_game, game_ids
from tests.support.offered import accepted_but_not_offered, mutations, random_states

SHIPPED = ["leader1", "hell-of-the-north", "formula-de-mini", "peloton"]
EXAMPLES = int(os.environ.get("DOMESTIQUE_FUZZ_EXAMPLES", "60"))


def test_the_shipped_games_are_all_checked() -> None:
    assert set(SHIPPED) <= set(game_ids())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game_id=st.sampled_from(SHIPPED),
    seed=st.integers(0, 2**32),
    chooser=st.integers(0, 2**32),
    decisions=st.integers(0, 400),
    data=st.data(),
)
def test_every_action_the_engine_accepts_is_one_the_choices_list(
    game_id: str, seed: int, chooser: int, decisions: int, data: st.DataObject
) -> None:
    game = find_game(game_id)
    *_, (state, offered) = random_states(game, seed, chooser, decisions + 1)  # where the play stopped
    near = mutations(game, offered)
    tried = data.draw(st.lists(st.sampled_from(near), max_size=30, unique=True)) if near else []
    assert not accepted_but_not_offered(game, state, offered, tried)


@pytest.mark.parametrize("game_id", SHIPPED)
@pytest.mark.parametrize("seed", [1, 2])
def test_mutated_offered_actions_are_refused_or_offered(game_id: str, seed: int) -> None:
    """A whole race: every near miss of every decision's choices."""
    game = find_game(game_id)
    found = []
    for state, offered in random_states(game, seed, chooser=seed * 7919, limit=3000):
        found += accepted_but_not_offered(game, state, offered, mutations(game, offered))
    assert not found, found[:5]
