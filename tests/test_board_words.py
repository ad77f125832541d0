"""Boards, standings images and recap frames drawn in Hungarian and Czech carry no English word of
their own (issue 27): every legend, panel heading, label, tag and state word comes from the catalogs.

Every string a painter draws goes through ``renderer.text.write``, which notes it in
``renderer.layout`` while a test records: the test draws boards of every game at moments spread
over an AI race (the start, squares on offer, the finish), each league's standings, in ``hu`` and
``cs``, and looks for English words among them. The words the rules hand the painter (the last
turn's narration, a ride's name) are the rules' to translate: they are left out here (``narration``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir

from bot.cli.images import board
from renderer import layout
from renderer.registry import paint_standings
from rules.game import Standing
from rules.i18n import Language, speaking, translator
from rules.record import start_state
from rules.registry import find_game
from tests.support.ai_races import ai_race

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["leader1", "hell-of-the-north", "formula-de-mini", "peloton"]
TRANSLATED: list[Language] = ["hu", "cs"]
# The boards' own English as it was before issue 27 (every word of it), and the common words of any
# English sentence: none may show on a Hungarian or Czech board.
BOARD_WORDS = set(
    re.findall(
        r"\w+",
        "to act winner over race turn round move laps lap route course finish markers team pursuits left "
        "riders energy quality risks last alliances first dropped flat fell away kept arrived out rouleur "
        "leader climber row lane top numbers risky dotted cobbles plain rise pass downhill feed cat weather "
        "rain heat head tail check level up down calm wind state dial teams cyclist where may end hexagons "
        "ridden falls racing pits spun done cars gear drives slipstreams loses spins stalls flying leaves "
        "finishes place also offer red edge corner flag stops grey white box car its rider player behind "
        "squares before elimination hexagon standing desc attack the and your is with of",
    )
)
# words that Hungarian or Czech boards may say as English does: the games' own terms and symbols
SHARED = {"sprint", "start", "peloton", "turbo", "bonus", "tandem", "defekt", "gc"}


def english_words() -> set[str]:
    """The board's words before issue 27, and every word of the renderer's English messages."""
    words = set(BOARD_WORDS)
    for _, _, message, _, _ in extract_from_dir(str(ROOT / "renderer"), method_map=[("**.py", "python")]):
        for english in [message] if isinstance(message, str) else message:
            words |= {w.lower() for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}", " ", english))}
    return words - SHARED


@pytest.fixture
def narration(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules' narration of the last turn, drawn in the panels, is the rules' own text: left out."""
    import renderer.hell_of_the_north.panel as hotn_panel
    import renderer.leader1.board as leader1_board
    import renderer.peloton.painter as peloton_painter

    monkeypatch.setattr(hotn_panel, "summary", lambda events: ["·"])
    monkeypatch.setattr(leader1_board, "summary", lambda events: ["·"])
    monkeypatch.setattr(peloton_painter, "describe", lambda state, event: "")


@cache
def moments(game: str) -> tuple[Any, ...]:
    """States of an AI race: the start, seven spread over it, the finish."""
    record, _ = ai_race(game, 4, 3)
    definition, state = start_state(record)
    states = [state]
    for action in record.actions:
        state, _ = definition.rules.apply(state, action)
        states.append(state)
    step = max(1, len(states) // 8)
    return (*states[::step], states[-1])


def english_in(strings: list[str], names: set[str], words: set[str]) -> list[str]:
    """The strings drawn that hold an English word (a person's name is no word of the board)."""
    found = []
    for text in strings:
        for name in names:
            text = text.replace(name, " ")
        said = {w.lower() for w in re.findall(r"[^\W\d_]{2,}", text)}
        if said & words:
            found.append(f"{text!r}: {sorted(said & words)}")
    return found


def drawn(draw: Any) -> list[str]:
    with layout.recording() as placed:
        draw()
    return [p.what for p in placed if p.kind in ("text", "tag")]


def boards_of(game: str, language: Language) -> Iterator[tuple[str, list[str], set[str]]]:
    for i, state in enumerate(moments(game)):
        names = {p.name for p in state.setup.players}
        with speaking(language):
            yield f"{game} moment {i}", drawn(lambda state=state: board(game, state, "1")), names


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("narration")
def test_a_board_in_hungarian_or_czech_has_no_english_word(game: str, language: Language) -> None:
    words = english_words()
    found = {what: english_in(strings, names, words) for what, strings, names in boards_of(game, language)}
    assert all(strings for _, strings, _ in boards_of(game, language))
    bad = {what: f for what, f in found.items() if f}
    assert not bad, "\n".join(f"{what}: {f[:6]}" for what, f in bad.items())


PIECES = {"leader1": "yellow-rouleur", "hell-of-the-north": "red-climber", "formula-de-mini": "red-1", "peloton": "4"}


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game_id", GAMES)
def test_standings_in_hungarian_or_czech_have_no_english_word(game_id: str, language: Language) -> None:
    """A league's classification image: its headings and words (the pieces' names and each standing's
    text are the rules' own, left out like the players' names)."""
    game = find_game(game_id)
    assert game.scoring is not None
    standings = list(game.showcase.standings) or [
        Standing(PIECES[game_id], "Ann", 10, {"energy": 4, "time": 300}),
        Standing(PIECES[game_id], "Bea", 8, {"energy": 2, "time": 330}, eliminated=True),
    ]
    options = game.showcase.standings_options
    with speaking(language):
        strings = drawn(lambda: paint_standings(game_id, standings, title="1", options=options))
        leader = standings[0]
        names = {s.player for s in standings} | {game.narration.piece_name(None, s.piece) for s in standings}
        names |= {game.scoring.standing_text(rank, s, leader) for rank, s in enumerate(standings, start=1)}
    assert strings and not english_in(strings, names, english_words())


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_word_of_the_renderer_is_translated(language: Language) -> None:
    """The catalog translates each message the renderer draws (an empty entry would show English)."""
    messages = list(extract_from_dir(str(ROOT / "renderer"), method_map=[("**.py", "python")]))
    assert len(messages) > 100
    catalog = translator(language)
    missing = [
        (context, message)
        for _, _, message, _, context in messages
        if not catalog.has(message if isinstance(message, str) else message[0], context)
    ]
    assert missing == []


def test_the_check_sees_an_english_word_and_lets_names_and_numbers_pass() -> None:
    words = english_words()
    assert english_in(["to act: Ann YR"], {"Ann"}, words)  # "act"
    assert english_in(["Utolsó kör: 3 mező"], set(), words) == []
    assert english_in(["Ann Smith · 12"], {"Ann Smith"}, words) == []
    assert find_game("peloton").id == "peloton"
