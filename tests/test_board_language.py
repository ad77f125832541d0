"""A board is drawn in the language it is asked in, wherever it is drawn (issue 27).

The language of the moment is a context variable of the asking task: a board drawn in a worker
process (``PoolDrawing``) would not see it, nor one whose caller sets none. ``Drawing.paint`` takes the
language and the worker draws inside ``speaking(language)`` (``renderer.registry.paint``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.service.drawing import PoolDrawing, ThreadDrawing
from renderer import layout
from renderer.registry import paint, paint_standings
from rules.i18n import Language, speaking
from rules.registry import find_game
from tests.support.pictures import picture
from tests.test_speed_service import a_board_state

ARGS: dict[str, Any] = {"acting": [], "title": "Race 1", "legend": []}


def words_of(png: Any) -> list[str]:
    with layout.recording() as placed:
        png()
    return [p.what for p in placed if p.kind == "text"]


@pytest.fixture
def pool() -> Iterator[PoolDrawing]:
    drawing = PoolDrawing(workers=1)
    try:
        yield drawing
    finally:
        drawing.close()


@pytest.mark.parametrize("language", ["hu", "cs"])
async def test_a_board_drawn_by_a_worker_process_is_in_the_language_asked(
    pool: PoolDrawing, language: Language
) -> None:
    state, highlight = a_board_state()
    with speaking(language):
        here = paint("leader1", state, highlight=highlight, **ARGS)
    english = paint("leader1", state, highlight=highlight, **ARGS)
    assert here is not None and here != english
    pooled = await pool.paint("leader1", state, highlight=highlight, language=language, **ARGS)
    assert picture(pooled) == picture(here)  # drawn in another process: the same picture (tests/support/pictures.py)
    threaded = await ThreadDrawing().paint("leader1", state, highlight=highlight, language=language, **ARGS)
    assert picture(threaded) == picture(here)
    # asked in English, drawn in English, whatever the language of the asking task
    with speaking(language):
        pooled = await pool.paint("leader1", state, highlight=highlight, language="en", **ARGS)
        assert picture(pooled) == picture(english)
        assert picture(await ThreadDrawing().paint("leader1", state, highlight=highlight, **ARGS)) == picture(english)


def test_the_language_given_wins_over_the_language_of_the_moment_and_none_keeps_it() -> None:
    state, highlight = a_board_state()
    with speaking("cs"):
        czech = words_of(lambda: paint("leader1", state, highlight=highlight, **ARGS))
        hungarian = words_of(lambda: paint("leader1", state, highlight=highlight, language="hu", **ARGS))
    assert any(w.startswith("Na tahu:") for w in czech)
    assert any(w.startswith("Soron:") for w in hungarian) and not any(w.startswith("Na tahu:") for w in hungarian)


def test_standings_are_drawn_in_the_language_given() -> None:
    game = find_game("leader1")
    standings, options = game.showcase.standings, game.showcase.standings_options
    words = words_of(lambda: paint_standings("leader1", standings, title="GC", options=options, language="cs"))
    assert "hráč" in words and "player" not in words


def test_a_recap_s_frames_are_in_the_language_it_was_asked_in() -> None:
    from renderer.recap import painted

    state, _ = a_board_state()
    with speaking("hu"):
        frame = painted("leader1", "Race 1")  # the language of the moment, kept for its frames
    czech = painted("leader1", "Race 1", language="cs")
    assert any(w.startswith("Soron:") for w in words_of(lambda: frame(state)))
    assert any(w.startswith("Na tahu:") for w in words_of(lambda: czech(state)))
    assert any(w.startswith("to act:") for w in words_of(lambda: painted("leader1", "Race 1")(state)))


def test_a_road_drawn_in_one_language_is_not_reused_in_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leader 1 keeps the road it drew (its tags: START, FEED, plain ...) for the next board of the same
    view: a Hungarian board drawn after an English one has its own words, the picture of a fresh one."""
    import renderer.leader1.board as leader1_board
    from rules.memo import Recent

    state, highlight = a_board_state()
    monkeypatch.setattr(leader1_board, "_ROAD_LAYERS", Recent(12))
    paint("leader1", state, highlight=highlight, **ARGS)
    after_english = paint("leader1", state, highlight=highlight, language="hu", **ARGS)
    monkeypatch.setattr(leader1_board, "_ROAD_LAYERS", Recent(12))
    fresh = paint("leader1", state, highlight=highlight, language="hu", **ARGS)
    assert picture(after_english) == picture(fresh)
