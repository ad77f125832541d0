"""A board names an AI seat in the reader's words (issue 38: "Gép 1", "Počítač 1"), never the record's
"AI 1": the header's who-acts line and the panels go through ``rules.shown.seat_name``."""

from __future__ import annotations

import re

import pytest

from rules.i18n import speaking
from tests.test_renderer_text_kept import drawn, states

AI_ID = re.compile(r"\bAI \d")


@pytest.mark.parametrize("game", ["leader1", "hell-of-the-north", "formula-de-mini", "peloton"])
@pytest.mark.parametrize(("language", "word"), [("hu", "Gép"), ("cs", "Počítač")])
def test_a_board_names_ai_seats_in_the_reader_s_words(game: str, language: str, word: str) -> None:
    boards = states(game, 1)[1:6]  # the first boards of an AI race of four: someone acts on each
    with speaking(language):  # type: ignore[arg-type]
        texts = [placed.what for state in boards for placed in drawn(game, state)]
    assert [t for t in texts if AI_ID.search(t)] == []
    assert any(word in t for t in texts), f"no AI seat named on {game}'s boards"
