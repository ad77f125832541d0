"""``domestique demo --lang hu|cs`` (issue 27): the demo race is played in a server of that language,
so its channel reads in it from the lobby to the finish, with no English left."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.demo import run_demo
from tests.support.languages import english_in

NAMES = ("Demo host", "first-race", "leg-bohemia")  # the host and the tracks, by name


@pytest.mark.parametrize(("game", "language", "said"), [("leader1", "hu", "rajtol"), ("peloton", "cs", "startuje")])
async def test_the_demo_plays_in_the_language_asked(tmp_path: Path, game: str, language: str, said: str) -> None:
    transcript = await run_demo(tmp_path, game=game, players=3, language=language)  # type: ignore[arg-type]
    assert any(said in line for line in transcript)  # the start, as the language says it
    assert [(line[:80], found) for line in transcript if (found := english_in(line, NAMES))] == []
    assert (tmp_path / "channel.md").read_text(encoding="utf-8").count("\n") > 20
    assert sorted(tmp_path.glob("board-*.png"))  # the boards too (drawn in that language: test_board_words.py)
