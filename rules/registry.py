"""The game registry: one ``Game`` per rule system, found by its record id (``leader1``).

Games are found through the ``domestique.games`` entry points (``pyproject.toml``) and by
``register`` (a test's own game). Nothing else in the project lists the games.
"""

from __future__ import annotations

import threading
from importlib.metadata import entry_points
from typing import Any, TypeAlias

from rules.errors import MalformedRecord
from rules.game import Game

AnyGame: TypeAlias = Game[Any]
"""A game whose state type its holder does not know (the registry's games, a record's game): the one
place the contract is existential; each game's own modules use ``Game[TheirState]``."""

ENTRY_POINTS = "domestique.games"
_games: dict[str, AnyGame] = {}
_loaded = False
_loading = False  # the entry points are being loaded by the thread holding ``_lock``
_lock = threading.RLock()


def register(game: AnyGame) -> None:
    """Add (or replace) a game: the registry is keyed by ``game.id``."""
    _games[game.id] = game


def unregister(game_id: str) -> None:
    _games.pop(game_id, None)


def _load() -> None:
    """Load the entry points' games once. Another thread asking meanwhile waits for all of them (the
    web pages' process and the bot's worker threads look games up at once); a game's own import asking
    again (the same thread) is answered with what is there."""
    global _loaded, _loading
    if _loaded:
        return
    with _lock:
        if _loaded or _loading:
            return
        _loading = True
        try:
            for point in entry_points(group=ENTRY_POINTS):
                game = point.load()
                if not isinstance(game, Game):
                    raise TypeError(f"entry point {point.name} ({point.value}) is not a rules.game.Game")
                _games.setdefault(game.id, game)
            _loaded = True
        finally:
            _loading = False


def games() -> list[AnyGame]:
    """Every registered game, by title."""
    _load()
    return sorted(_games.values(), key=lambda g: g.title)


def game_ids() -> list[str]:
    _load()
    return sorted(_games)


def find_game(game_id: object, path: str = "$.game") -> AnyGame:
    _load()
    if isinstance(game_id, str) and game_id in _games:
        return _games[game_id]
    shown = game_id if isinstance(game_id, str | int | float | bool | None) else type(game_id).__name__
    raise MalformedRecord(path, f"unknown game {str(shown)[:40]!r}; games: {', '.join(game_ids())}")


def default_track(game_id: str) -> str:
    """The track a race of ``game_id`` runs on when none is named."""
    return find_game(game_id).tracks.default


def folder(game_id: str) -> str:
    """The name a game's folders share across the tree (``rules/<folder>/``, ``renderer/<folder>/``,
    ``data/<folder>/``, ``tests/<folder>/``): its id as a Python package name (``hell_of_the_north``)."""
    return game_id.replace("-", "_")


def featured() -> AnyGame:
    """The game the tools play when none is named: the one whose showcase is featured (else the first)."""
    every = games()
    return next((game for game in every if game.showcase.featured), every[0])
