"""Random legal play for property tests: a record's race played to its end by picks drawn from a
seeded number, each state checked on the way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.action import Action
from rules.events import Event
from rules.record import Record, parse_record, start_state
from rules.rng import below


def play_randomly(
    envelope: dict[str, Any],
    engine: Any,
    chooser: int,
    check: Callable[[Any, list[Event]], None],
    limit: int,
) -> tuple[Record, Any]:
    """The race of ``envelope`` played to its end by ``engine`` (its ``pending``, ``legal_actions``
    and ``apply``), each pick drawn from ``chooser``; ``check(state, events)`` after every action.
    The record with its actions, and the final state."""
    record = parse_record({"format": "domestique.record/1", **envelope})
    _, state = start_state(record)
    rng = chooser
    actions: list[Action] = []
    while not state.finished:
        decision = engine.pending(state)
        assert decision is not None
        choices = engine.legal_actions(state, decision.player)
        assert choices, "a pending decision with no legal choice"
        pick, rng = below(rng, len(choices))
        action = choices[pick].action
        state, events = engine.apply(state, action)
        check(state, events)
        actions.append(action)
        assert len(actions) < limit, "the race does not end"
    return record.with_actions(tuple(actions)), state
