"""Leader 1: Hell of the North in Hungarian and Czech (issue 27): a whole AI race told in each language has no English
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
    return play("hell-of-the-north", players=3, seed=5, weather=6)


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_a_whole_race_reads_without_english(race: Race, language: Language) -> None:
    assert english_lines(race, language) == []


def test_english_is_still_english(race: Race) -> None:
    said = [text for _where, text in texts(race, "en")]
    assert any(line.startswith("AI 1, ride **") for line in said)
    assert "Pass (no speed-up)" in said and "Pass" in said
    assert any(line.endswith("energy left") for line in said)


@pytest.mark.parametrize(
    ("language", "name"),
    [("en", "orange climber"), ("hu", "narancssárga hegyimenő"), ("cs", "oranžový vrchař")],
)
def test_a_rider_is_named_in_each_language(race: Race, language: Language, name: str) -> None:
    with speaking(language):
        assert race.game.narration.piece_name(None, "orange-climber") == name


def test_choices_are_remembered_per_language(race: Race) -> None:
    """The rules remember a state's choices (rules/memo.py): asked in English, then Hungarian, then
    English again, each answer is in the language it was asked in."""
    english, hungarian, again = labels_in_each_language_asked(race)
    assert hungarian != english and again == english


EVENTS = [
    event(3, "rode", rider="black-rouleur", to="14.2", squares=5, cost=3, slipstream=True, wind=-1),
    event(3, "breakaway", rider="white-leader", to="15.1", squares=4, cost=1, wind=2),
    event(3, "rolled", die="peloton", value="yellow-4", rider="white-leader", risk="crack", need="a yellow or blue 4"),
    event(3, "rolled", die="peloton", value=3, rider="white-leader", risk="fall", need="4 or 5"),
    event(3, "rolled", die="peloton", value="orange-4", rider="green-climber", risk="cobbles"),
    event(3, "rolled", die="peloton", value="red-4", rider="green-climber", risk="puncture"),
    event(3, "rolled", die="peloton", value="blue-4"),
    event(3, "cracked", rider="white-leader", cost=6),
    event(3, "fell", rider="white-leader", at="15.1", cost=3),
    event(3, "punctured", rider="green-climber", at="9.1"),
    event(3, "caught", rider="green-climber", part="front"),
    event(3, "rejoined", rider="green-climber", part="back"),
    event(3, "arrived", rider="black-rouleur", at="60.1"),
    event(3, "dropped", rider="orange-leader", reason="cannot pay"),
    event(3, "drops", rider="orange-leader"),
    event(3, "placed", rider="orange-climber", part="back"),
    event(3, "pursued", player="ai1", left=3),
    event(3, "peloton", squares=4, to=12),
    event(3, "paid", rider="orange-climber", cost=1, part="back"),
    event(3, "fed", rider="black-climber", kept=1, form=True),
    event(3, "fed", rider="black-climber", kept=2),
    event(3, "ate", rider="black-climber", value=4),
    event(3, "heat", rider="black-climber", value=3),
    event(3, "bonus", rider="black-climber", row=20),
    event(3, "weather", row=12, marker="headwind-2"),
    event(3, "cobbles", rider="green-climber", result="fall"),
    event(3, "cobbles", rider="green-climber", result="puncture"),
    event(3, "cobbles", rider="green-climber", result="safe"),
    event(3, "stuck", rider="white-climber"),
    event(3, "eliminated", rider="white-rouleur", reason="too long after the winner"),
    event(3, "feed-empty", rider="black-leader"),
    event(3, "finished"),
]


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_event_is_told_without_english(race: Race, language: Language) -> None:
    with speaking("en"):
        english = race.game.narration.summary(race.final, EVENTS)
    with speaking(language):
        said = race.game.narration.summary(race.final, EVENTS)
    assert len(said) == len(english) == 29  # a puncture's roll, a paid move and a safe cobble are not told
    assert [line for line in said if english_words(line)] == []
    ai = {"hu": "Gép 1 ", "cs": "Počítač 1 "}[language]  # an AI seat as the language calls it (issue 38)
    assert any(line.startswith(ai) for line in said)  # the team that speeds the peloton up, by its name


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_the_weather_is_told_in_each_language(race: Race, language: Language) -> None:
    with speaking(language):
        lines = race.game.narration.status(race.final)
    assert not [line for line in lines if english_words(line)]


def test_a_choice_decided_ahead_holds_in_another_language(race: Race) -> None:
    """A team step decided ahead in Czech still means the same when applied in Hungarian."""
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


def test_the_help_names_the_weather_markers_in_the_box() -> None:
    from rules.hell_of_the_north.course import MAX_WEATHER
    from rules.hell_of_the_north.game import HELP, RACE_OPTIONS

    assert f"0 to {MAX_WEATHER} (" in HELP and f"0 to {MAX_WEATHER} (" in RACE_OPTIONS[0].about


def choices_of(race: Race, state: Any) -> list[Choice]:
    decision = race.game.rules.pending(state)
    return race.game.rules.choices(state, decision.player) if decision is not None else []
