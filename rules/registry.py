"""The game registry: one entry per rule system, found by its record id (``leader1``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.action import Action
from rules.errors import MalformedRecord


@dataclass(frozen=True)
class Game:
    """What the bot, the tools and the tests need from a game module."""

    id: str
    title: str
    build: Callable[[dict[str, Any]], Any]  # record envelope -> state at its first decision
    pending: Callable[[Any], Any]
    legal_actions: Callable[[Any, str], list[Any]]
    apply: Callable[[Any, Action], tuple[Any, list[Any]]]
    outcome: Callable[[Any], Any]
    public_view: Callable[[Any], dict[str, Any]]


def _leader1() -> Game:
    from rules import leader1

    return Game(
        "leader1",
        "Leader 1",
        leader1.build,
        leader1.pending,
        leader1.legal_actions,
        leader1.apply,
        leader1.outcome,
        leader1.public_view,
    )


def _formula_de_mini() -> Game:
    from rules import formula_de_mini as fdm

    return Game(
        "formula-de-mini",
        "Formula Dé Mini",
        fdm.build,
        fdm.pending,
        fdm.legal_actions,
        fdm.apply,
        fdm.outcome,
        fdm.public_view,
    )


_FACTORIES: dict[str, Callable[[], Game]] = {"leader1": _leader1, "formula-de-mini": _formula_de_mini}
PLANNED = ("hell-of-the-north", "peloton")


def game_ids() -> list[str]:
    return sorted(_FACTORIES)


def find_game(game_id: object, path: str = "$.game") -> Game:
    if game_id in _FACTORIES:
        return _FACTORIES[str(game_id)]()
    if game_id in PLANNED:
        raise MalformedRecord(path, f"the game {game_id!r} is not playable yet; playable: {', '.join(game_ids())}")
    raise MalformedRecord(path, f"unknown game {game_id!r}; games: {', '.join(game_ids())}")
