"""Two simple players to measure the AIs against (``domestique bench ai``, the AI tests).

Both choose only among the game's own list of legal choices (``game.rules.choices``):

* **random** picks uniformly among the choices of the decision (a kept tile is eaten only
  when the draw says so), from its own seeded stream: the same seed plays the same race;
* **greedy** takes the most distance for the least cost: the choice with the highest
  distance minus cost (ties: more distance, then the engine's order), never a risky choice
  when a safe one exists, and eats a kept tile at once.

What a choice's distance and cost are is the game's to say: a game may offer
``rules/<game>/baseline.py`` with ``measure(state, player)`` (a function of a choice giving
``(distance, cost)``) and ``resources(state, player)`` (the energy or LP its pieces hold). A
game without one is measured by the squares its moves cross, at no cost.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Generic, TypeVar

from rules.action import Action
from rules.game import Choice, Game
from rules.registry import folder
from rules.rng import below, seed_state

S = TypeVar("S")  # the game's state
Measure = Callable[[Choice], tuple[float, float]]
Policy = Callable[[S, str], Action]


def _module(game: Game[S]) -> ModuleType | None:
    try:
        return importlib.import_module(f"rules.{folder(game.id)}.baseline")
    except ModuleNotFoundError:
        return None


def _plain_measure(state: object, player: str) -> Measure:
    def measure(choice: Choice) -> tuple[float, float]:
        if choice.target is None:
            return (0.0, 0.0)
        via = choice.action.get("via")
        return (float(len(via) + 1 if isinstance(via, tuple) else 1), 0.0)

    return measure


def measure_for(game: Game[S]) -> Callable[[S, str], Measure]:
    """The game's ``measure(state, player)``, or squares crossed at no cost."""
    module = _module(game)
    found = getattr(module, "measure", None) if module is not None else None
    return found if found is not None else _plain_measure


def resources_for(game: Game[S]) -> Callable[[S, str], int] | None:
    """The game's ``resources(state, player)`` (energy, LP), or None when it has none to count."""
    module = _module(game)
    return getattr(module, "resources", None) if module is not None else None


def _playable(game: Game[S], state: S, player: str) -> list[Choice]:
    choices = game.rules.choices(state, player)
    if not choices:
        raise ValueError(f"{player} has nothing to decide now")
    return choices


def greedy(game: Game[S]) -> Policy[S]:
    """The most distance for the least cost; no risk when a safe choice exists; eat at once."""
    measure_of = measure_for(game)

    def play(state: S, player: str) -> Action:
        choices = _playable(game, state, player)
        eat = next((c for c in choices if c.anytime), None)
        if eat is not None:
            return eat.action
        safe = [c for c in choices if not c.risky] or choices
        measure = measure_of(state, player)
        scored = []
        for index, choice in enumerate(safe):
            distance, cost = measure(choice)
            scored.append((distance - cost, distance, -index, choice))
        return max(scored, key=lambda t: t[:3])[3].action

    return play


class Random(Generic[S]):
    """Uniform among the decision's choices (anytime ones only when nothing else is listed), from a
    seeded stream of its own."""

    def __init__(self, game: Game[S], seed: int) -> None:
        self.game = game
        self.stream = seed_state(seed * 2654435761 + 12345)

    def __call__(self, state: S, player: str) -> Action:
        choices = _playable(self.game, state, player)
        usual = [c for c in choices if not c.anytime] or choices
        index, self.stream = below(self.stream, len(usual))
        return usual[index].action


def random_player(game: Game[S], seed: int) -> Policy[S]:
    return Random(game, seed)
