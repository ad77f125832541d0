"""The text that matters stays readable when a board is shown 400 px wide (docs/board.md): the
offered squares' names and costs, who acts, and the panel's key lines. Every string a painter
writes goes through ``renderer.text.write``; the test records each one with its font size and
checks size x 400 / width >= READABLE_PX. Boards are drawn in memory, in every language (Hungarian
and Czech words are longer: issue 27)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw

import renderer
import renderer.text
from bot.cli.images import board, mid_race
from renderer.palette import READABLE_PX, WIDTH, phone_px
from rules.i18n import LANGUAGES, Language, _, speaking
from rules.record import Record, start_state
from rules.registry import find_game
from tests.support.ai_races import ai_race

Written = list[tuple[str, int]]


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> Iterator[Written]:
    """Every (string, font size) the painters write while the test runs."""
    calls: Written = []
    original = renderer.text.write

    def recording(draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str, **kwargs: Any) -> None:
        calls.append((content, int(kwargs.get("size", 14))))
        original(draw, xy, content, **kwargs)

    for module in pkgutil.walk_packages(renderer.__path__, "renderer."):  # the kit and every game's painters
        loaded = importlib.import_module(module.name)
        if getattr(loaded, "write", None) is original:
            monkeypatch.setattr(loaded, "write", recording)
    yield calls


@cache
def race(game: str, seed: int) -> Record:
    record, _ = ai_race(game, 4, seed)
    return record


def offered_state(game: str, seed: int) -> tuple[Any, set[str]]:
    state = mid_race(race(game, seed))
    rules = find_game(game).rules
    decision = rules.pending(state)
    if decision is None:
        pytest.skip("the race ended before a square was on offer")
    names = {c.short for c in rules.choices(state, decision.player) if c.target is not None and c.step is None}
    return state, {n for n in names if n}


def sizes_of(calls: Written, wanted: Any) -> list[int]:
    return [size for content, size in calls if wanted(content)]


def readable(size: int) -> bool:
    return phone_px(size, WIDTH) >= READABLE_PX


def to_act() -> str:
    """How the header's box begins in the language of the moment ("to act:")."""
    return _("to act: {who}", who="").strip()


def drawn_in(language: Language, game: str, state: Any) -> bytes:
    with speaking(language):
        return board(game, state, "Race 1")


def test_the_threshold_is_about_the_image_as_a_phone_shows_it() -> None:
    png = board("hell-of-the-north", *offered_state("hell-of-the-north", 3)[:1], "Race 1")
    import io

    assert Image.open(io.BytesIO(png)).width == WIDTH  # the size the phone scales down from
    assert not readable(24) and readable(27)  # 10 px and 11.25 px at 400 px wide


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 3, 4])
def test_hell_of_the_north_names_costs_and_panel_are_readable_at_400_px(
    written: Written, seed: int, language: Language
) -> None:
    from renderer import words

    state, names = offered_state("hell-of-the-north", seed)
    drawn_in(language, "hell-of-the-north", state)
    assert names and all(content in [c for c, _ in written] for content in names)
    name_sizes = sizes_of(written, lambda c: c in names)
    assert min(name_sizes) >= 27 and all(map(readable, name_sizes)), name_sizes
    costs = [written[i + 1][1] for i, (content, _) in enumerate(written[:-1]) if content in names]
    assert len(costs) == len(name_sizes) and all(map(readable, costs))  # each name is followed by its cost
    with speaking(language):
        acts, last = to_act(), _("Last turn:")
        qualities = "|".join(re.escape(words.quality(q)) for q in ("attack", "sprint", "descent"))
    assert sizes_of(written, lambda c: c.startswith(acts)) and all(
        map(readable, sizes_of(written, lambda c: c.startswith(acts)))
    )
    assert all(map(readable, sizes_of(written, lambda c: c.startswith((last, "… ")))))
    players = {p.name for p in state.setup.players}
    assert all(map(readable, sizes_of(written, lambda c: c in players)))
    energies = sizes_of(written, lambda c: re.fullmatch(rf"\d+ ({qualities})( x+)?", c) is not None)
    with_quality = sum(1 for r in state.riders if r.quality)
    assert len(energies) >= with_quality > 0 and all(map(readable, energies))  # each rider's energy line


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 3])
def test_peloton_hexagon_names_are_readable_at_400_px(written: Written, seed: int, language: Language) -> None:
    state, names = offered_state("peloton", seed)
    drawn_in(language, "peloton", state)
    name_sizes = sizes_of(written, lambda c: c in names)
    assert name_sizes and all(map(readable, name_sizes))


def busiest_state(game_id: str, seed: int) -> tuple[Any, set[str]]:
    """The state of a seeded race with the most squares on offer (a long breakaway move)."""
    record = race(game_id, seed)
    game, state = start_state(record)
    best: tuple[int, Any] = (0, None)
    for action in record.actions:
        decision = game.rules.pending(state)
        if decision is not None:
            count = len({c.target for c in game.rules.choices(state, decision.player) if c.target and c.step is None})
            if count > best[0]:
                best = (count, state)
        state, _ = game.rules.apply(state, action)
    decision = game.rules.pending(best[1])
    assert decision is not None
    names = {c.short for c in game.rules.choices(best[1], decision.player) if c.target and c.step is None}
    return best[1], {n for n in names if n}


@pytest.mark.parametrize("language", LANGUAGES)
def test_leader1_names_stay_readable_when_a_breakaway_is_offered_thirty_squares(
    written: Written, language: Language
) -> None:
    """30 squares over 11 rows of a bending road: drawn to scale they were 45 px and their names
    18 px (7.5 px at 400 wide); the stretch is drawn straight and the names keep 11 px."""
    from renderer.leader1.board import LABEL_SCALE, _last_turn, compose
    from rules.leader1.moves import ride_options

    state, names = busiest_state("leader1", 1)
    assert len(names) >= 25
    drawn_in(language, "leader1", state)
    rules = find_game("leader1").rules
    decision = rules.pending(state)
    assert decision is not None and decision.piece is not None
    choices = [c for c in rules.choices(state, decision.player) if c.target is not None]
    breakaway = any(c.action.do == "breakaway" for c in choices)
    options = [
        o for o in ride_options(state, decision.piece, breakaway=breakaway) if o.to in {c.target for c in choices}
    ]
    assert compose(state, highlight=options)[1].scale >= LABEL_SCALE  # the names fit their squares
    name_sizes = sizes_of(written, lambda c: c in names)
    assert len(name_sizes) == len(names) and all(map(readable, name_sizes)), sorted(name_sizes)
    costs = [written[i + 1][1] for i, (content, _) in enumerate(written[:-1]) if content in names]
    assert all(map(readable, costs))
    with speaking(language):
        acts, told = to_act(), _last_turn(state)
    assert all(map(readable, sizes_of(written, lambda c: c.startswith(acts))))
    moves = sizes_of(written, lambda c: len(c) > 5 and any(c in line for line in told))  # last turn, in the panel
    assert moves and all(map(readable, moves))


@pytest.mark.parametrize("language", LANGUAGES)
def test_leader1_readme_mid_race_board_names_are_readable(written: Written, language: Language) -> None:
    from bot.cli.sim import sample_race

    mid_race = next(p for p in find_game("leader1").showcase.pictures if p.file == "board-mid-race.png")
    _, state = sample_race(find_game("leader1"), mid_race.sample)
    rules = find_game("leader1").rules
    decision = rules.pending(state)
    assert decision is not None
    names = {c.short for c in rules.choices(state, decision.player) if c.target and c.step is None}
    drawn_in(language, "leader1", state)
    name_sizes = sizes_of(written, lambda c: c in names)
    assert len(name_sizes) == len(names) >= 20 and all(map(readable, name_sizes))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [4, 6])
def test_hell_of_the_north_names_fit_their_squares_on_a_bend(written: Written, seed: int, language: Language) -> None:
    """The busiest offers (20+ squares) of seeded races, some on a bend: the squares stay large
    enough for names and costs at READABLE (the stretch drawn straight if it must)."""
    from renderer.hell_of_the_north.painter import LABEL_SCALE, compose

    state, names = busiest_state("hell-of-the-north", seed)
    assert len(names) >= 20
    drawn_in(language, "hell-of-the-north", state)
    name_sizes = sizes_of(written, lambda c: c in names)
    assert len(name_sizes) == len(names) and all(map(readable, name_sizes))
    rules = find_game("hell-of-the-north").rules
    decision = rules.pending(state)
    assert decision is not None
    choices = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
    assert compose(state, highlight=choices)[1].scale >= LABEL_SCALE
