"""Peloton in Hungarian and Czech (issue 27): every line a player reads of whole AI races on every
kind of course (a leg race, the time trials with their card draft, random roads and a random course
on a board) comes from the catalogs, with no English left: each prompt, every choice's label, detail
and step, each move's summary, the draft's lines, the status, the results, a league's lines, the
help, the standing orders and the lobby's option."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.cli.sim import simulate
from rules.errors import DomestiqueError
from rules.events import event
from rules.game import Choice, Seat
from rules.i18n import _, speaking
from rules.peloton import game as peloton
from rules.record import Record, start_state
from tests.support.english_left import untranslated

GAME = peloton.GAME
NAMES = ("AI 1", "AI 2", "AI 3", "Ann")
COURSES = (
    ("leg-bohemia", 3),
    ("itt-25", 2),
    ("itt-50", 2),
    ("ttt-100", 2),
    ("random-itt-25", 2),
    ("random-60", 2),
    ("random-bohemia-60", 2),
)


@pytest.fixture(scope="module")
def races() -> list[Record]:
    played = []
    for stage, players in COURSES:
        record, final = simulate("peloton", players=players, seed=3, stage=stage)
        assert GAME.rules.outcome(final).finished
        played.append(record)
    return played


def race_lines(record: Record) -> tuple[list[str], set[str]]:
    """Every text of the race, and the kinds of decision it asked."""
    game, state = start_state(record)
    assert game.draft is not None
    lines: list[str] = []
    kinds: set[str] = set()
    for action in record.actions:
        decision = game.rules.pending(state)
        assert decision is not None
        kinds.add(decision.kind + ("-team" if decision.piece is None else ""))
        if game.draft.drafting(state):
            lines += game.draft.lines(state, lambda player: "Ann")
            kinds.add("draft")
        lines.append(game.narration.ask(state, decision, "Ann"))
        for choice in game.rules.choices(state, decision.player):
            lines += [choice.label, choice.detail, choice.step_label]
        lines += game.narration.status(state)
        state, events = game.rules.apply(state, action)
        lines += game.narration.summary(state, events) + game.narration.announce(state, events)
    lines += game.narration.status(state) + game.narration.results(state)
    lines += [p.result for p in game.rules.outcome(state).placings]
    assert GAME.scoring is not None
    standings, classified = GAME.scoring.classify((), state, {})
    lines += [*classified, *(GAME.scoring.standing_text(i + 1, s, standings[0]) for i, s in enumerate(standings))]
    return lines, kinds


def other_lines(record: Record) -> list[str]:
    """What the races may not show: every kind of event and fall, every status, the draft with the
    wind set and with one card left, the help, the orders, the lobby's option and its refusals."""
    game, state = start_state(record)  # a time trial at its card draft
    assert game.draft is not None and game.draft.drafting(state)
    lines = [
        _(GAME.narration.help),
        *game.draft.lines(replace(state, setup=replace(state.setup, options={**state.setup.options, "wind": 2})), str),
    ]
    cid = state.cyclists[0].id
    rides: list[dict[str, Any]] = [
        {"hexagons": 4, "to": "12.1"},
        {"hexagons": 1, "to": "12.1", "tandem": True},
        *({"hexagons": 5, "to": "12.1", "fell": fell} for fell in ("turning", "blocked", "swerve", "other")),
        {"hexagons": 6, "to": "12.1", "fell": "turning", "speed": 6},
    ]
    for data in rides:
        lines.append(peloton.describe(state, event(1, "ride", cyclist=cid, **data)) or "")
    others: dict[str, dict[str, Any]] = {
        "dial": {"value": 2, "cost": 3},
        "stood-up": {},
        "started": {},
        "finished": {"past": 3},
        "card": {"card": 5},
        "race-over": {},
    }
    for kind, data in others.items():
        lines.append(peloton.describe(state, event(1, kind, cyclist=cid, **data)) or "")
    lines.append(peloton.describe(state, event(1, "dial", cyclist=cid, value=0)) or "")
    for kind in ("speed", "uphill"):
        lines.append(peloton.describe(state, event(1, "bonus-line", cyclist=cid, kind=kind, place=1)) or "")
    lines.append(peloton.describe(state, event(1, "checkpoint", cyclist=cid, overdrawn=2)) or "")
    lines.append(peloton.describe(state, event(1, "checkpoint", cyclist=cid)) or "")
    for wind in range(6):
        lines.append(peloton.describe(state, event(1, "wind", wind=wind)) or "")
    for status in ("waiting", "start", "racing", "lying", "standing"):
        lines += peloton.status(replace(state, cyclists=tuple(replace(c, status=status) for c in state.cyclists)))
    for team in ("grey", "red", "blue", "green", "white", "yellow", "black", "orange"):
        lines.append(peloton.piece_name(replace(state, cyclists=(replace(state.cyclists[0], team=team),)), cid))
    lines += [peloton.piece_name(None, cid), peloton.piece_name(state, "99")]
    for kind in GAME.pace.orders:
        lines += [_(kind.label), _(kind.number) if kind.number else ""]
    for moment in GAME.pace.moments:
        lines += [_(moment.label), _(moment.number)]
    for option in GAME.race_options:
        lines.append(_(option.about))
        for typed in ("standings", "fastest"):
            with pytest.raises(ValueError) as refused:
                option.value(typed)
            lines.append(str(refused.value).replace("'fastest'", "").replace("start_order:", ""))
    with pytest.raises(DomestiqueError) as too_many:  # 15 cyclists for 13 cards: the host cannot start
        start_state(Record(game="peloton", track="peloton/itt-25", players=GAME.sample_players(5), seed=1))
    lines.append(str(too_many.value).removeprefix("$.players: "))
    crowd = [Seat(f"p{i}", f"P{i}", "red", ("1", "2", "3")) for i in range(9)]
    lines.append(GAME.check_lobby(crowd, 3) or "")
    for typed in ("nowhere", "random-5", "random-nowhere-50"):
        with pytest.raises(ValueError) as refused:
            GAME.tracks.resolve(typed, 1)
        lines.append(strip_names(str(refused.value)))
    return lines


def strip_names(text: str) -> str:
    """An error's list of what may be typed (course and board names, `random-<...>` forms) taken out."""
    import re

    from rules.peloton.board import board_names
    from rules.peloton.course import course_names

    for name in [*course_names(), *board_names()]:
        text = text.replace(name, "")
    return re.sub(r"'[^']*'|random-\S+|<\w+>", "", text)


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_whole_races_read_without_english(races: list[Record], language: str) -> None:
    asked: set[str] = set()
    with speaking(language):  # type: ignore[arg-type]
        for record in races:
            lines, kinds = race_lines(record)
            asked |= kinds
            assert untranslated(lines, language, NAMES) == [], record.track
    assert asked == {"card", "draft", "dial", "dial-team", "ride"}


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_kind_of_line_reads_without_english(races: list[Record], language: str) -> None:
    with speaking(language):  # type: ignore[arg-type]
        lines = other_lines(races[1])
    assert all(lines) and untranslated(lines, language, NAMES) == []


def test_english_lines_are_as_before(races: list[Record]) -> None:
    """Wrapping the words in the catalogs leaves the English as it was."""
    _game, state = start_state(races[1])
    assert GAME.draft is not None
    draft = GAME.draft.lines(state, lambda player: "Ann")
    assert draft[0].startswith("Card draft: individual time trial, itt-25. The starting order was fixed")
    assert "card 1: +2 energy, +18.4 s, wind 0" in draft
    assert peloton.piece_name(state, "4") == "No. 4 (red)"
    assert peloton.describe(state, event(1, "ride", cyclist="4", hexagons=5, to="9.1", fell="turning", speed=6)) == (
        "No. 4 (red) rides 5 to 9.1 and falls there: too fast for the turning's trail at speed 6"
    )


def test_a_choice_made_in_one_language_is_the_same_in_another(races: list[Record]) -> None:
    game, state = start_state(races[0])
    player = game.rules.pending(state).player
    with speaking("cs"):
        stored = game.rules.choices(state, player)[0]
    with speaking("hu"):
        now = game.rules.choices(state, player)[0]
    before = Choice(stored.action, stored.label, stored.detail, piece=stored.piece)
    assert stored.detail != now.detail and GAME.pace.same(before, now)
    assert not GAME.pace.same(Choice(stored.action, stored.label, stored.detail + " 1"), now)
