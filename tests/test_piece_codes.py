"""Issue 38: a piece's code on the boards ("YR") is built from the words of the reader's language, as
the prompts name the piece ("sárga irammenő": SI), never from English initials; within a game no two
teams and no two rider types share a letter."""

from __future__ import annotations

import pytest

from renderer.palette import rider_label
from rules.i18n import LANGUAGES, Language, speaking
from rules.leader1.words import colour, kind
from rules.registry import find_game

GAMES = ("leader1", "hell-of-the-north")  # the games whose boards label riders by code
KINDS = ("rouleur", "leader", "climber")


def _follows(code: str, word: str) -> bool:
    """Whether the code's letters come in order in the word ("Fk" in "fekete", "Sz" in "szürke")."""
    rest = word.casefold()
    for letter in code.casefold():
        at = rest.find(letter)
        if at < 0:
            return False
        rest = rest[at + 1 :]
    return True


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_piece_code_is_made_of_the_language_s_words(game_id: str, language: Language) -> None:
    teams = find_game(game_id).colours
    with speaking(language):
        codes = {(team, sort): rider_label(f"{team}-{sort}") for team in teams for sort in KINDS}
        words = {(team, sort): (colour(team), kind(sort)) for team in teams for sort in KINDS}
    assert len(set(codes.values())) == len(codes), codes  # every rider of a race has its own code
    for key, code in codes.items():
        team_word, kind_word = words[key]
        team_code = code[: len(code) - 1]
        assert _follows(team_code, team_word) and _follows(code[-1], kind_word), (key, code, words[key])


def test_hungarian_and_czech_codes_are_not_english_initials() -> None:
    with speaking("hu"):
        assert rider_label("yellow-rouleur") == "SI" and rider_label("black-climber") == "FkH"
    with speaking("cs"):
        assert rider_label("yellow-rouleur") == "ŽR" and rider_label("blue-climber") == "MV"
    assert rider_label("yellow-rouleur") == "YR" and rider_label("black-leader") == "KL"  # English as before
