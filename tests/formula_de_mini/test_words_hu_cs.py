"""Formula Dé Mini in Hungarian and Czech (issue 27): every line a player reads of a whole AI race
(each prompt, every choice's label and detail, each turn's summary, the status, the results, the
help, a league's lines, the standing orders) comes from the catalogs, with no English left."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.cli.sim import simulate
from rules.events import event
from rules.formula_de_mini import game as fdm
from rules.formula_de_mini import menu
from rules.formula_de_mini.moves import MoveOption
from rules.game import Choice, Seat
from rules.i18n import _, speaking
from rules.record import Record, start_state
from tests.support.english_left import untranslated

GAME = fdm.GAME
NAMES = ("AI 1", "AI 2", "AI 3", "AI 4", "Ann")


@pytest.fixture(scope="module")
def race() -> Record:
    record, final = simulate("formula-de-mini", players=4, seed=5)
    assert final.finished
    return record


def every_option() -> MoveOption:
    """A move with every consequence a detail can name."""
    return MoveOption(
        "12.1",
        ("11.1",),
        5,
        brake=2,
        blocked=7,
        overshoot=1,
        crossings=1,
        pit=True,
        skidding=False,
        turbo=True,
        pit_lane=True,
    )


def race_lines(record: Record) -> list[str]:
    """Every text of the race: each decision's question and choices, each move's summary, the status."""
    game, state = start_state(record)
    lines: list[str] = []
    kinds: set[str] = set()
    for action in record.actions:
        decision = game.rules.pending(state)
        assert decision is not None
        kinds.add(decision.kind)
        lines.append(game.narration.ask(state, decision, "Ann"))
        for choice in game.rules.choices(state, decision.player):
            lines += [choice.label, choice.detail, choice.step_label]
        lines += game.narration.status(state)
        state, events = game.rules.apply(state, action)
        lines += game.narration.summary(state, events) + game.narration.announce(state, events)
    assert {"gear", "move"} <= kinds
    lines += game.narration.results(state)
    lines += [p.result for p in game.rules.outcome(state).placings]
    assert GAME.scoring is not None
    standings, classified = GAME.scoring.classify((), state, {})
    lines += [*classified, GAME.scoring.standing_text(1, standings[0], standings[0])]
    return lines


def other_lines() -> list[str]:
    """What one race may not show: every kind of question, event and consequence, the help, the orders,
    a lobby refused, a circuit that does not exist."""
    record, _final = simulate("formula-de-mini", players=2, seed=1)
    _game, state = start_state(record)
    lines = [_(GAME.narration.help)]
    car = state.cars[0].id
    for kind in ("gear", "move", "slipstream", "pit-exit", "something-new"):
        lines.append(fdm.ask(state, replace(GAME.rules.pending(state), kind=kind, piece=car), "Ann"))
    lines += list(menu.option_text(every_option(), ["red-2"]))
    lines.append(menu.option_text(replace(every_option(), blocked=2), [])[1])
    lines.append(
        menu.option_text(
            replace(
                every_option(), brake=0, blocked=0, overshoot=0, turbo=False, pit=False, pit_lane=False, crossings=0
            )
        )[0]
    )
    lines.append(
        menu.option_text(
            replace(
                every_option(), brake=1, blocked=0, overshoot=0, turbo=False, pit=False, pit_lane=False, crossings=0
            )
        )[1]
    )
    data: dict[str, dict[str, Any]] = {
        "drive": {"spaces": 5, "to": "12.1", "brake": 1, "blocked": 2, "overshoot": 1, "turbo": True},
        "gear": {"gear": 3, "over_rev": 1},
        "slipstream": {"to": "12.2"},
        "lost": {"lp": 2, "reason": "collision with red-2"},
        "eliminated": {"reason": "engine damage"},
        "spun": {},
        "stalled": {},
        "flying-start": {},
        "pitted": {},
        "left-pits": {"lp": 4},
        "finished-race": {"place": 2},
        "rolled": {"die": "gear3", "value": 6},
    }
    for kind, fields in data.items():
        lines.append(fdm.describe(event(1, kind, car=car, **fields)) or "")
    lines.append(fdm.describe(event(1, "gear", car=car, gear=2)) or "")
    for reason in (*fdm.REASONS, "blocked"):
        lines.append(fdm.describe(event(1, "lost", car=car, lp=1, reason=reason)) or "")
    for team in ("red", "blue", "green", "yellow"):
        lines.append(GAME.narration.piece_name(None, f"{team}-1"))
    for status in ("racing", "pits", "spun", "finished", "eliminated"):
        cars = tuple(replace(c, status=status) for c in state.cars)
        lines += fdm.status(replace(state, cars=cars))
    for kind in GAME.pace.orders:
        lines += [_(kind.label), _(kind.number) if kind.number else ""]
    for moment in GAME.pace.moments:
        lines += [_(moment.label), _(moment.number)]
    alone = GAME.check_lobby([Seat("p0", "P0", "red", ("1",))], 1)  # one car: a race has 2 to 8
    assert alone is not None
    lines.append(alone)
    with pytest.raises(ValueError) as refused:
        GAME.tracks.resolve("nowhere", 1)
    lines.append(str(refused.value).replace("'formula-de-mini/nowhere'", "").replace("canyon, island", ""))
    return lines


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_a_whole_race_reads_without_english(race: Record, language: str) -> None:
    with speaking(language):  # type: ignore[arg-type]
        lines = race_lines(race)
    assert untranslated(lines, language, NAMES) == []


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_kind_of_line_reads_without_english(language: str) -> None:
    with speaking(language):  # type: ignore[arg-type]
        lines = other_lines()
    assert all(lines[:1]) and untranslated(lines, language, NAMES) == []


def test_english_lines_are_as_before(race: Record) -> None:
    """Wrapping the words in the catalogs leaves the English as it was."""
    _game, state = start_state(race)
    gear = replace(GAME.rules.pending(state), kind="gear")
    assert fdm.ask(state, gear, "Ann").startswith("Ann, choose a gear for **")
    assert fdm.piece_name_of("blue-1") == "blue car 1"
    label, detail = menu.option_text(every_option(), ["red-2"])
    assert label == "12.1 · 5 sp · -13 LP · OVERSHOOT"
    assert detail.startswith("brake 2; blocked 7 (out); overshoot 1; turbo (3 LP, once a race); into your pit stand")
    assert fdm.describe(event(1, "lost", car="red-1", lp=1, reason="collision with blue-2")) == (
        "red car 1 loses 1 LP (collision with blue car 2)"
    )


def test_choices_are_remembered_in_their_own_language(race: Record) -> None:
    """The labels of one state asked in English, then Hungarian, then English again: each in its language."""
    game, state = start_state(race)
    player = game.rules.pending(state).player
    english = [c.label for c in game.rules.choices(state, player)]
    with speaking("hu"):
        hungarian = [c.label for c in game.rules.choices(state, player)]
    assert hungarian != english and [c.label for c in game.rules.choices(state, player)] == english


def a_gear_decision(record: Record) -> tuple[Any, str]:
    """The first position of the race where a car chooses its gear, and its player."""
    game, state = start_state(record)
    for action in record.actions:
        decision = game.rules.pending(state)
        if decision is not None and decision.kind == "gear":
            return state, decision.player
        state, _events = game.rules.apply(state, action)
    raise AssertionError("no gear chosen in the race")


def test_a_gear_decided_ahead_in_one_language_holds_in_another(race: Record) -> None:
    """A premove stored with its Czech label is still the same choice when the race speaks Hungarian;
    one whose cost changed is not."""
    state, player = a_gear_decision(race)
    with speaking("cs"):
        stored = GAME.rules.choices(state, player)[0]
    with speaking("hu"):
        now = GAME.rules.choices(state, player)[0]
    assert stored.action.do == "gear"
    before = Choice(stored.action, stored.label, stored.detail, piece=stored.piece)
    assert stored.label != now.label and GAME.pace.same(before, now)
    costlier = Choice(stored.action, stored.label + " (1)", stored.detail, piece=stored.piece)
    assert not GAME.pace.same(costlier, now)
