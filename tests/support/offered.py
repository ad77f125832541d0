"""Is every action an engine accepts one its menu offers? Mutations of the offered actions, and the
test of sameness a property test and a fuzz test share (issue 42).

An accepted action counts as offered when it is one of the choices, or does exactly what one of them
does (the same events, the same state: a field the engine fills in itself, such as Formula Dé Mini's
``car``, may be left out), or differs from one only in its path (the ``cells`` fields: the menu
names one path to each target, a record may name any legal one, docs/actions.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.action import Action
from rules.errors import DomestiqueError
from rules.game import Choice
from rules.record import Record, start_state
from rules.registry import AnyGame
from rules.rng import below

Effect = tuple[tuple[tuple[str, str], ...], str]


def first_state(game: AnyGame, seed: int) -> Any:
    """The state at the first decision of a race on the game's default track, its sample seats."""
    from bot.service import race_options

    players = game.sample_players(2)
    track = game.tracks.resolve(game.tracks.default, seed)
    record = Record(game=game.id, track=track, players=players, seed=seed, options=race_options.defaults(game))
    return start_state(record)[1]


def random_states(game: AnyGame, seed: int, chooser: int, limit: int) -> Iterator[tuple[Any, list[Choice]]]:
    """Each state of a race played by random picks from its choices (up to ``limit`` decisions), with
    the choices of the player to decide."""
    rules = game.rules
    state = first_state(game, seed)
    for _ in range(limit):
        decision = rules.pending(state)
        if decision is None:
            return
        offered = rules.choices(state, decision.player)
        yield state, offered
        pick, chooser = below(chooser, len(offered))
        state, _ = rules.apply(state, offered[pick].action)


def mutations(game: AnyGame, offered: list[Choice]) -> list[Action]:
    """Near misses of the offered actions: each with one field left out, with another's move (its
    target and path together), or with another's value of one other field."""
    paths = {f.name for f in game.vocabulary.fields if f.kind == "cells"}
    move = {*paths, "to"}
    actions = [c.action for c in offered]
    out: list[Action] = []
    for action in actions:
        fields = action.fields
        out += [Action(action.by, action.do, **{k: v for k, v in fields.items() if k != key}) for key in fields]
        for other in actions:
            if other.do != action.do or other == action:
                continue
            out.append(action.replace(**{key: other.get(key) for key in move}))
            out += [action.replace(**{k: v}) for k, v in other.items() if k not in move and fields.get(k) != v]
    return [a for a in dict.fromkeys(out) if a not in set(actions)]


def _effect(game: AnyGame, state: Any, action: Action) -> Effect:
    after, events = game.rules.apply(state, action)
    happened = tuple((e.type, repr(sorted(e.data.items()))) for e in events)
    return happened, repr(game.rules.public_view(after))


def _without_paths(game: AnyGame, action: Action) -> Action:
    paths = {f.name: None for f in game.vocabulary.fields if f.kind == "cells"}
    return action.replace(**paths)


def accepted_but_not_offered(game: AnyGame, state: Any, offered: list[Choice], tried: list[Action]) -> list[str]:
    """The actions of ``tried`` the engine accepts that are not offered (see the module's words), as text."""
    effects: set[Effect] | None = None
    shapes = {_without_paths(game, c.action) for c in offered}
    found = []
    for action in tried:
        try:
            effect = _effect(game, state, action)
        except DomestiqueError:
            continue
        if _without_paths(game, action) in shapes:
            continue
        if effects is None:
            effects = {_effect(game, state, c.action) for c in offered}
        if effect not in effects:
            found.append(action.text())
    return found
