"""Board and standings painters by game id: found through the ``domestique.boards`` and
``domestique.standings`` entry points, or registered (a test's own game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol

from rules import registry as rules_registry
from rules.game import BoardPainter, Choice, Standing
from rules.i18n import Language, current, speaking

ENTRY_POINTS = "domestique.boards"
AnyPainter = BoardPainter[Any]  # a painter of some game's state: the registry's one existential
_painters: dict[str, AnyPainter] = {}
_loaded = False


def register(game_id: str, painter: AnyPainter) -> None:
    _painters[game_id] = painter


def unregister(game_id: str) -> None:
    _painters.pop(game_id, None)


def find_painter(game_id: str) -> AnyPainter | None:
    global _loaded
    if not _loaded:
        # marked loaded only once loaded: a second thread drawing meanwhile loads them too, never finds none
        for point in entry_points(group=ENTRY_POINTS):
            _painters.setdefault(point.name, point.load())
        _loaded = True
    return _painters.get(game_id)


def paint(
    game_id: str,
    state: object,
    *,
    highlight: Sequence[Choice] = (),
    acting: Sequence[str] = (),
    title: str = "",
    legend: Sequence[str] = (),
    language: Language | None = None,
) -> bytes | None:
    """The board of ``state`` as PNG bytes, or None for a game without a painter; its words in
    ``language`` (None: the language of the moment). A board drawn in another process or thread is
    given its language: the language of the moment is a context variable and stays behind."""
    painter = find_painter(game_id)
    if painter is None:
        return None
    with speaking(language or current()):
        return painter(state, highlight=highlight, acting=acting, title=title, legend=legend)


STANDINGS_ENTRY_POINTS = "domestique.standings"
_standings: dict[str, StandingsPainter] = {}
_standings_loaded = False


class StandingsPainter(Protocol):
    """Draws a league's general classification as PNG bytes."""

    def __call__(self, standings: Sequence[Standing], *, title: str, options: Mapping[str, Any]) -> bytes: ...


def register_standings(game_id: str, painter: StandingsPainter) -> None:
    _standings[game_id] = painter


def unregister_standings(game_id: str) -> None:
    _standings.pop(game_id, None)


def find_standings(game_id: str) -> StandingsPainter | None:
    global _standings_loaded
    if not _standings_loaded:
        # marked loaded only once loaded, as the board painters are (``find_painter``)
        for point in entry_points(group=STANDINGS_ENTRY_POINTS):
            _standings.setdefault(point.name, point.load())
        _standings_loaded = True
    return _standings.get(game_id)


def paint_standings(
    game_id: str,
    standings: Sequence[Standing],
    *,
    title: str,
    options: Mapping[str, Any],
    language: Language | None = None,
) -> bytes | None:
    """The general classification as an image, for games that draw one; its words in ``language``
    (None: the language of the moment)."""
    painter = find_standings(game_id)
    if painter is None:
        return None
    with speaking(language or current()):
        return painter(standings, title=title, options=options)


class MissingPart(RuntimeError):
    """A registered game lacks a part, or a part names no game: said in one line at start-up."""


def missing_parts() -> list[str]:
    """What the registered games lack: each its board painter and, with leagues, its standings
    painter; and painters registered under a name that is no game's (a typo in an entry point)."""
    games = {game.id: game for game in rules_registry.games()}
    missing = []
    for game in games.values():
        if find_painter(game.id) is None:
            missing.append(f"{game.id} has no board painter (entry point group {ENTRY_POINTS})")
        if game.scoring is not None and find_standings(game.id) is None:
            group = STANDINGS_ENTRY_POINTS
            missing.append(f"{game.id} has leagues but no standings painter (entry point group {group})")
    for group, names in ((ENTRY_POINTS, _painters), (STANDINGS_ENTRY_POINTS, _standings)):
        missing += [f"{group} names {name!r}, which is no game" for name in sorted(names) if name not in games]
    return missing


def check_games() -> None:
    """Fail at start-up, in one line, when a game misses a part (never silently later)."""
    missing = missing_parts()
    if missing:
        raise MissingPart("incomplete games: " + "; ".join(missing))
