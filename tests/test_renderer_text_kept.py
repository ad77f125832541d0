"""A board keeps every line in every language (issue 38): the painters fit their text (a smaller size,
wrapping, a catalog abbreviation) rather than cut it with an ellipsis, drop a line, or let it run out
of its band; Formula Dé Mini alone leaves the last of a very long list of spaces to the menu, saying
how many (docs/board.md). ``renderer.layout`` records what a painter writes and what it had no room for; the test
draws whole AI races of the four games, turn after turn, in every language, with the title the bot
gives a race, and fails on any string cut, dropped or overflowing."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from PIL import Image

from renderer import layout, words
from renderer.palette import HEIGHT, WIDTH
from renderer.registry import paint, paint_standings
from rules.game import Standing
from rules.i18n import LANGUAGES, Language, _, ngettext, speaking
from rules.record import start_state
from rules.registry import find_game
from rules.shown import seat_name
from tests.support.ai_races import ai_race

SAMPLE = 30  # boards a race: spread over it, the start and the finish among them


@cache
def states(game: str, seed: int, stage: str | None = None) -> tuple[Any, ...]:
    """Every ``len // SAMPLE``-th state of an AI race of four, the first and the last among them."""
    record, _ = ai_race(game, 4, seed, stage)
    definition, state = start_state(record)
    out = [state]
    for action in record.actions:
        state, _ = definition.rules.apply(state, action)
        out.append(state)
    step = max(1, len(out) // SAMPLE)
    return (*out[:-1:step], out[-1])


def bot_title(game: str, stage: str | None = None) -> str:
    """The title the bot gives a race's board (``bot.service.common.title``), in the language of the moment."""
    return f"{_('Race {number}', number=123)} · {(stage or find_game(game).tracks.default).split('/', 1)[-1]}"


def drawn(game: str, state: Any, legend: Sequence[str] = (), stage: str | None = None) -> list[layout.Placed]:
    """What the board as the bot posts it places, in the language of the moment."""
    rules = find_game(game).rules
    decision = rules.pending(state)
    choices, acting = [], []
    if decision is not None:
        choices = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
        acting = [decision.piece] if decision.piece else []
    with layout.recording() as placed:
        paint(game, state, highlight=choices, acting=acting, title=bot_title(game, stage), legend=legend)
    return placed


def losses_of(game: str, state: Any, legend: Sequence[str] = (), stage: str | None = None) -> list[str]:
    """What the board as the bot posts it loses, in the language of the moment."""
    return layout.losses(drawn(game, state, legend, stage), WIDTH, HEIGHT)


RACES = [  # each game's default course and another (the longest course names: titles on two lines)
    ("leader1", None, 3),
    ("leader1", "col-du-domestique", 5),
    ("hell-of-the-north", None, 3),
    ("hell-of-the-north", "flanders", 4),
    ("formula-de-mini", None, 3),
    ("formula-de-mini", "canyon", 4),
    ("peloton", None, 3),
    ("peloton", "leg-ridge-and-river", 3),
]


def race_losses(game: str, stage: str | None, seed: int, language: Language) -> dict[int, list[str]]:
    """Board number -> its losses, for the boards that lose something."""
    out = {}
    with speaking(language):
        for i, state in enumerate(states(game, seed, stage)):
            lost = layout.losses(drawn(game, state, stage=stage), WIDTH, HEIGHT)
            if lost:
                out[i] = lost
    return out


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "stage", "seed"), RACES)
def test_a_board_keeps_every_line_over_an_ai_race(game: str, stage: str | None, seed: int, language: Language) -> None:
    bad = race_losses(game, stage, seed, language)
    assert not bad, "\n".join(f"board {i}: {lost}" for i, lost in bad.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_formula_de_mini_says_how_many_spaces_only_the_menu_names(language: Language) -> None:
    """A dozen spaces on offer and more that the board could not name do not all fit the panel even
    at its least size: the last ones are left to the menu, which lists every space on offer, and the
    panel says how many ("+3 more in the menu"; docs/board.md). The count is the spaces left out."""
    referred = {}
    with speaking(language):
        for i, state in enumerate(states("formula-de-mini", 3)):
            placed = drawn("formula-de-mini", state)
            menu = [p for p in placed if p.kind == "menu"]
            told = " ".join(p.what for p in placed if p.kind == "text")
            if menu:
                referred[i] = len(menu)
                assert ngettext("+{n} more in the menu", "+{n} more in the menu", len(menu)) in told, (i, told)
            assert not any(p.kind == "dropped" for p in placed), i
    assert referred  # the race has such boards (a dozen spaces unnamed and more)


@pytest.mark.parametrize(("game", "stage", "seed"), RACES)
def test_no_language_leaves_out_more_of_the_last_turn_than_english(game: str, stage: str | None, seed: int) -> None:
    """A whole turn does not always fit the "Last turn" panel, and its earlier events are left out;
    Hungarian and Czech left out more than English (longer words, more lines an event) on 14 of
    Leader 1's boards. Each board, in each language, keeps at least as many events as in English."""
    worse = {}
    for i, state in enumerate(states(game, seed, stage)):
        left = {}
        for language in LANGUAGES:
            with speaking(language):
                left[language] = layout.left_out(drawn(game, state, stage=stage))
        if any(n > left["en"] for n in left.values()):
            worse[i] = left
    assert not worse, "\n".join(f"board {i}: events left out {left}" for i, left in worse.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_leader1_keeps_its_alliances_line(language: Language) -> None:
    """``demo --alliances``: the race's alliance under the last turn ("Alliances:" was cut)."""
    with speaking(language):
        # as bot.leagues.alliance names the demo's unnamed alliance: its members with their colours
        legend = [f"{words.team('yellow')} Demo host + {words.team('blue')} {_('AI {number}', number=1)}"]
        found = {i: losses_of("leader1", s, legend) for i, s in enumerate(states("leader1", 3))}
    bad = {i: lost for i, lost in found.items() if lost}
    assert not bad, "\n".join(f"board {i}: {lost}" for i, lost in bad.items())


STANDING_PIECES = {"hell-of-the-north": "red-climber", "formula-de-mini": "red-1", "peloton": "4"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", ["leader1", "hell-of-the-north", "formula-de-mini", "peloton"])
def test_a_standings_image_keeps_every_line(game_id: str, language: Language) -> None:
    """A league's classification image ("0 hegyi po…" in Peloton's, issue 38): every cell whole."""
    game = find_game(game_id)
    standings = list(game.showcase.standings) or [
        Standing(STANDING_PIECES[game_id], "Ann", 10, {"energy": 4, "time": 300}),
        Standing(STANDING_PIECES[game_id], "Bea", 8, {"energy": 2, "time": 330}, eliminated=True),
    ]
    with speaking(language), layout.recording() as placed:
        title = _("General classification after stage {number}", number=2)
        png = paint_standings(game_id, standings, title=title, options=game.showcase.standings_options)
    assert png is not None
    width, height = Image.open(io.BytesIO(png)).size
    assert layout.losses(placed, width, height) == []


def test_the_check_sees_a_cut_a_drop_and_an_overflow() -> None:
    from renderer.layout import Placed, losses

    assert losses([Placed("text", (0, 0, 50, 20), "kept")], 100, 100) == []
    assert losses([Placed("text", (0, 0, 50, 20), "ke…")], 100, 100)
    assert losses([Placed("dropped", (0, 0, 0, 0), "a line")], 100, 100)
    assert losses([Placed("text", (60, 0, 120, 20), "too long")], 100, 100)
    assert losses([Placed("cover", (0, 0, 100, 30), "header"), Placed("text", (0, 20, 50, 40), "low")], 100, 100)


@pytest.mark.parametrize("language", ["en", "hu"])
def test_a_standings_image_names_each_player_whole(language: Language) -> None:
    """Leader 1's classification once cut every name to 8 letters ("Demo hos") over the next column,
    and named an AI seat by its record's "AI 1" in every language."""
    game = find_game("leader1")
    standings = [
        Standing("yellow-climber", "Demo host", 10, {"energy": 4}),
        Standing("blue-leader", "AI 1", 9, {"energy": 6}),
    ]
    with speaking(language), layout.recording() as placed:
        title = _("General classification after stage {number}", number=2)
        png = paint_standings("leader1", standings, title=title, options=game.showcase.standings_options)
        ai_seat = seat_name("AI 1")
    assert png is not None
    texts = [p.what for p in placed]
    assert "Demo host" in texts and ai_seat in texts
    width, height = Image.open(io.BytesIO(png)).size
    assert layout.losses(placed, width, height) == []
