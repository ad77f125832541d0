"""The registry checks at start-up that every game has its parts: rules, a board painter and, for a
game with leagues, a standings painter; a missing part or a painter under a name that is no game's
stops the program with one line, never a game without a board later."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.cli import main
from renderer import registry as boards
from renderer import standings_table
from rules import registry
from rules.game import Standing
from tests.support import toy_game


@pytest.fixture
def toy_rules_only() -> Iterator[None]:
    registry.register(toy_game.GAME)
    yield
    registry.unregister(toy_game.ID)


def test_every_shipped_game_has_every_part() -> None:
    assert boards.missing_parts() == []
    for game in registry.games():
        assert boards.find_painter(game.id) is not None
        assert game.scoring is None or boards.find_standings(game.id) is not None


def test_a_game_without_its_painters_stops_the_program_in_one_line(
    toy_rules_only: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert boards.missing_parts() == [
        "dash has no board painter (entry point group domestique.boards)",
        "dash has leagues but no standings painter (entry point group domestique.standings)",
    ]
    assert main(["sim", "--game", "leader1", "--out", "/dev/null"]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.count("\n") == 1 and said.err.startswith("domestique: incomplete games: dash has no board painter")


def test_a_painter_under_a_name_that_is_no_game_is_named() -> None:
    boards.register("leader-1", toy_game.paint)  # a typo for leader1
    try:
        assert boards.missing_parts() == ["domestique.boards names 'leader-1', which is no game"]
        with pytest.raises(boards.MissingPart, match="leader-1"):
            boards.check_games()
    finally:
        boards.unregister("leader-1")
    boards.check_games()


@pytest.mark.parametrize("game_id", [g.id for g in registry.games() if g.scoring is not None])
def test_every_game_with_leagues_draws_its_standings_with_names_players_know(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.find_game(game_id)
    from bot.cli.sim import simulate

    _, final = simulate(game_id, players=2, seed=5)
    pieces = [p.piece for p in game.rules.outcome(final).placings][:3]
    standings = [Standing(piece, f"Person {n}", 10 - n, {}) for n, piece in enumerate(pieces)]
    assert len(pieces) >= 2
    png = boards.paint_standings(game_id, standings, title="General classification after stage 1", options={})
    assert png is not None and png.startswith(b"\x89PNG")
    if boards.find_standings(game_id) is boards.find_standings("leader1"):
        return  # Leader 1 draws its GC ring (tests/leader1/test_board.py)
    drawn: list[tuple[str, str, str, str]] = []
    real = standings_table.render_table
    monkeypatch.setattr(standings_table, "render_table", lambda t, rows, h: drawn.extend(rows) or real(t, rows, h))
    boards.paint_standings(game_id, standings, title="GC", options={})
    assert [row[1] for row in drawn] == [game.narration.piece_name(None, p) for p in pieces]
    assert [row[2] for row in drawn] == ["Person 0", "Person 1", "Person 2"][: len(pieces)]


def test_a_game_looked_up_while_another_thread_loads_the_games_is_found(monkeypatch) -> None:
    """Two threads ask for a game at once in a fresh process: the second waits for the loading, it is
    never told the game does not exist (the web pages' process and worker threads do this)."""
    import threading
    import time

    shipped = registry.find_game("leader1")

    class SlowPoint:
        name, value = "leader1", "rules.leader1.game:GAME"

        def load(self) -> object:
            time.sleep(0.2)  # the first thread is still importing the game when the second asks
            return shipped

    monkeypatch.setattr(registry, "entry_points", lambda group: [SlowPoint()])
    monkeypatch.setattr(registry, "_games", {})
    monkeypatch.setattr(registry, "_loaded", False)
    found: list[object] = []

    def look() -> None:
        try:
            found.append(registry.find_game("leader1"))
        except Exception as exc:  # what the second thread met before the fix
            found.append(exc)

    threads = [threading.Thread(target=look) for _ in range(2)]
    threads[0].start()
    time.sleep(0.05)
    threads[1].start()
    for thread in threads:
        thread.join()
    assert found == [shipped, shipped]
