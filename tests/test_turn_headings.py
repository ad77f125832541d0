"""Issue 38: a turn's heading calls the turn what the game's prompts call it: Formula Dé Mini's rounds
(a lap is a kör / kolo there) and Peloton's moves are not headed as the other games' turns."""

from __future__ import annotations

import pytest

from rules.i18n import Language, speaking
from rules.registry import find_game


@pytest.mark.parametrize(
    ("language", "headed"),
    [
        ("en", {"leader1": "**Turn 3**", "formula-de-mini": "**Round 3**", "peloton": "**Move 3**"}),
        ("hu", {"leader1": "**3. kör**", "formula-de-mini": "**3. forduló**", "peloton": "**3. lépés**"}),
        ("cs", {"leader1": "**Kolo 3**", "formula-de-mini": "**Tah 3**", "peloton": "**Tah 3**"}),
    ],
)
def test_a_turn_is_headed_as_the_game_calls_it(language: Language, headed: dict[str, str]) -> None:
    with speaking(language):
        said = {game: find_game(game).turn_heading(3, "…") for game in headed}
    assert said == {game: f"{heading}: …" for game, heading in headed.items()}
