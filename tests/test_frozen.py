"""``rules.frozen.built``: the same value as the dataclass's own constructor, still frozen."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from bot.cli.sim import simulate
from bot.service.model import ChoiceView
from rules.frozen import built
from rules.game import Choice
from rules.leader1.actions import Choice as EngineChoice
from rules.leader1.engine import breakaway_candidates, legal_actions, pending
from rules.leader1.moves import ride_options
from rules.leader1.paths import RideOption
from rules.record import start_state


def _listed() -> list[RideOption]:
    """Every ride option of a Leader 1 race's first decisions (breakaways and rides), as listed."""
    record, _ = simulate("leader1", seed=3, players=3)
    game, state = start_state(record)
    options: list[RideOption] = []
    for action in record.actions[:40]:
        decision = pending(state)
        assert decision is not None
        riders = breakaway_candidates(state, decision.player) if decision.kind == "breakaway" else []
        options += [o for r in riders for o in ride_options(state, r.id, breakaway=True)]
        if decision.rider is not None:
            options += ride_options(state, decision.rider)
        state, _events = game.rules.apply(state, action)
    return options


def test_a_listed_ride_option_is_the_value_its_constructor_makes() -> None:
    listed = _listed()
    assert len(listed) > 100 and any(o.breakaway for o in listed) and any(not o.breakaway for o in listed)
    names = {f.name for f in dataclasses.fields(RideOption)}
    for option in listed:
        assert set(vars(option)) == names  # every field given, nothing more
        made = RideOption(**vars(option))
        assert option == made and hash(option) == hash(made) and repr(option) == repr(made)
        assert pickle.loads(pickle.dumps(option)) == option
    assert dataclasses.replace(listed[0], cost=99).cost == 99


def test_a_listed_ride_choice_is_the_value_its_constructor_makes() -> None:
    record, _ = simulate("leader1", seed=2, players=3)
    game, state = start_state(record)
    names = {f.name for f in dataclasses.fields(Choice)}
    checked = 0
    for action in record.actions[:30]:
        decision = pending(state)
        assert decision is not None
        for choice in game.rules.choices(state, decision.player):
            if choice.shows is not None:  # a ride or a breakaway, built in one step
                assert set(vars(choice)) == names
                made = Choice(**vars(choice))
                assert choice == made and hash(choice) == hash(made) and repr(choice) == repr(made)
                view = ChoiceView.of(checked, choice)
                assert set(vars(view)) == {f.name for f in dataclasses.fields(ChoiceView)}
                assert view == ChoiceView(**vars(view)) and not view.passive
                checked += 1
        state, _events = game.rules.apply(state, action)
    assert checked > 100


def test_a_listed_engine_choice_is_the_value_its_constructor_makes() -> None:
    """The engine's (action, option) pairs of rides and breakaways, built in one step."""
    record, _ = simulate("leader1", seed=4, players=3)
    game, state = start_state(record)
    checked = 0
    for action in record.actions[:30]:
        decision = pending(state)
        assert decision is not None
        for choice in legal_actions(state, decision.player):
            if choice.option is not None:
                assert set(vars(choice)) == {"action", "option"}
                made = EngineChoice(choice.action, choice.option)
                assert choice == made and hash(choice) == hash(made) and repr(choice) == repr(made)
                checked += 1
        state, _events = game.rules.apply(state, action)
    assert checked > 100


def test_a_built_value_stays_frozen() -> None:
    option = _listed()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        option.cost = 0  # type: ignore[misc]
    assert built(RideOption, vars(option)) == option


def test_the_classes_built_in_one_step_have_nothing_their_constructor_would_run_or_refuse() -> None:
    for cls in (RideOption, Choice, ChoiceView, EngineChoice):
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert not hasattr(cls, "__post_init__") and "__slots__" not in vars(cls)
        assert all(f.default_factory is dataclasses.MISSING for f in dataclasses.fields(cls))
