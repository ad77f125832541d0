"""Leader 1 in Hungarian and Czech (issue 27): a whole AI race told in each language has no English
left in anything a player reads, and English stays as it was."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.events import event
from rules.game import Choice
from rules.i18n import Language, speaking
from tests.support.words_scan import Race, english_lines, english_words, labels_in_each_language_asked, play, texts


@pytest.fixture(scope="module")
def race() -> Race:
    return play("leader1", players=3, seed=5)


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_a_whole_race_reads_without_english(race: Race, language: Language) -> None:
    assert english_lines(race, language) == []


def test_english_is_still_english(race: Race) -> None:
    said = [text for _where, text in texts(race, "en")]
    assert any(line.startswith("AI 1, ride your **") for line in said)
    assert "Pursue (+1)" in said and "Pass" in said
    assert any(line.endswith("energy left") for line in said)


@pytest.mark.parametrize(
    ("language", "name"),
    [("en", "yellow rouleur"), ("hu", "sárga irammenő"), ("cs", "žlutý rovinář")],
)
def test_a_rider_is_named_in_each_language(race: Race, language: Language, name: str) -> None:
    with speaking(language):
        assert race.game.narration.piece_name(None, "yellow-rouleur") == name


def test_choices_are_remembered_per_language(race: Race) -> None:
    """The rules remember a state's choices (rules/memo.py): asked in English, then Hungarian, then
    English again, each answer is in the language it was asked in."""
    english, hungarian, again = labels_in_each_language_asked(race)
    assert hungarian != english and again == english


EVENTS = [
    event(3, "rode", rider="yellow-rouleur", to="14.2", squares=5, cost=3, recovered=1, slipstream=True, crossings=1),
    event(3, "breakaway", rider="blue-leader", to="15.1", squares=4, cost=1),
    event(3, "rolled", die="events", value=2, rider="blue-leader", risk="crack", need=4),
    event(3, "rolled", die="events", value=5, rider="blue-leader", risk="fall", need=5),
    event(3, "rolled", die="peloton", value="red"),
    event(3, "rolled", die="peloton", value=4),
    event(3, "cracked", rider="blue-leader", cost=6),
    event(3, "fell", rider="blue-leader", at="15.1", cost=3),
    event(3, "punctured", rider="green-climber", at="9.1"),
    event(3, "caught", rider="green-climber"),
    event(3, "rejoined", rider="green-climber"),
    event(3, "dropped", rider="white-leader", reason="chosen"),
    event(3, "dropped", rider="white-leader", reason="cannot pay"),
    event(3, "fed", rider="white-leader", kept=1),
    event(3, "fed", rider="black-climber", kept=1),
    event(3, "feed-empty", rider="black-climber", colour="red"),
    event(3, "ate", rider="black-climber", value=4),
    event(3, "bonus", rider="black-climber", row=20),
    event(3, "paid", rider="yellow-leader", cost=1),
    event(3, "paid", rider="yellow-climber", cost=1),
    event(3, "paid", rider="blue-rouleur", cost=2),
    event(3, "peloton", squares=5, to=12, pursuit=True, empty=True),
    event(3, "stuck", rider="yellow-climber"),
    event(3, "arrived", rider="yellow-rouleur", at="60.1"),
    event(3, "eliminated", rider="white-rouleur", reason="too far behind the peloton"),
    event(3, "finished"),
]


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_event_is_told_without_english(race: Race, language: Language) -> None:
    with speaking("en"):
        english = race.game.narration.summary(race.final, EVENTS)
    with speaking(language):
        said = race.game.narration.summary(race.final, EVENTS)
    assert len(said) == len(english) == 24  # the paid riders in two lines, the feed zone's in one
    assert [line for line in said if english_words(line)] == []


def test_a_choice_decided_ahead_holds_in_another_language(race: Race) -> None:
    """A breakaway decided ahead in the player's language (Czech) still means the same when it is
    applied in the server's (Hungarian): the same action and the same numbers; not once its cost changed."""
    hooks = race.game.pace
    step = next(s for s in race.steps if any(c.action.do == "breakaway" for c in choices_of(race, s.before)))
    with speaking("cs"):
        before = next(c for c in choices_of(race, step.before) if c.action.do == "breakaway")
    with speaking("hu"):
        now = next(c for c in choices_of(race, step.before) if c.action == before.action)
    assert before.detail != now.detail
    assert hooks.same(before, now)
    dearer = replace(now, detail=now.detail.replace(f"{now.shows.paid} ", f"{now.shows.paid + 1} ", 1))  # type: ignore[attr-defined]
    assert dearer.detail != now.detail and not hooks.same(before, dearer)


def choices_of(race: Race, state: Any) -> list[Choice]:
    decision = race.game.rules.pending(state)
    return race.game.rules.choices(state, decision.player) if decision is not None else []
