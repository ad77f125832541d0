"""Malformed records are refused with a typed error, never a crash (issue 14).

Valid records (every scenario record, and races played by the AI) are mutated: values
of other types, huge numbers, long and odd strings, deep nesting, missing and unknown
keys, values moved from elsewhere in the record, damaged bytes. Each mutated record must
either replay, stopping at an illegal action if it meets one, or be refused with a
DomestiqueError whose message is one line. Anything else is a bug.

DOMESTIQUE_FUZZ_EXAMPLES=20000 runs a longer search than the default.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import DomestiqueError
from rules.record import load_record, replay
from rules.resources import game_data
from tests.support.record_mutations import (
    base_records,
    damaged_bytes,
    inline_track_records,
    mutated_records,
    mutated_tracks,
)

T = TypeVar("T")
EXAMPLES = int(os.environ.get("DOMESTIQUE_FUZZ_EXAMPLES", "1000"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class DrawChooser:
    """The mutator's choices drawn by hypothesis, so that a failure shrinks to a small mutation."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(options))

    def number(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


def replays_or_is_refused(content: str | bytes) -> None:
    """What `domestique replay` does with a file, minus the printing; raises on anything untyped."""
    try:
        record = load_record(content)
        result = replay(record)
        json.dumps(result.game.rules.public_view(result.state))  # the output must be writable too
    except DomestiqueError as exc:
        assert len(str(exc).splitlines()) == 1, f"the refusal is not one line: {str(exc)!r}"
        return
    if result.error is not None:
        assert len(result.error.splitlines()) == 1, f"the illegal action's reason is not one line: {result.error!r}"


def test_the_base_records_replay() -> None:
    """The mutations start from valid records (else the fuzz would only test refusals)."""
    assert len(base_records()) >= 20
    for text in base_records():
        assert replay(load_record(text)).error_at is None or "error_at" in json.loads(text).get("expect", {})


@FUZZ
@given(st.data())
def test_a_mutated_record_replays_or_is_refused(data: st.DataObject) -> None:
    text = mutated_records(DrawChooser(data))
    replays_or_is_refused(text)


def test_the_inline_track_records_replay_and_cover_every_game() -> None:
    records = [json.loads(text) for text in inline_track_records()]
    assert {r["game"] for r in records} == {"leader1", "hell-of-the-north", "formula-de-mini", "peloton"}
    assert all(isinstance(r["track"], dict) for r in records)
    assert any("board" in r["track"] for r in records)  # a Peloton course marked on a board, too
    for text in inline_track_records():
        assert replay(load_record(text)).error_at is None or "error_at" in json.loads(text).get("expect", {})


@FUZZ
@given(st.data())
def test_a_record_with_a_mutated_inline_track_replays_or_is_refused(data: st.DataObject) -> None:
    replays_or_is_refused(mutated_tracks(DrawChooser(data)))


@settings(FUZZ, max_examples=max(EXAMPLES // 4, 1))
@given(st.data())
def test_a_damaged_record_file_replays_or_is_refused(data: st.DataObject) -> None:
    choose = DrawChooser(data)
    replays_or_is_refused(damaged_bytes(mutated_records(choose), choose))


# `domestique replay` on nasty files: exit 2, one line on standard error, no traceback
BASE = json.loads(base_records()[-1])  # a Formula Dé Mini race played by the AI
LEADER1 = {
    "format": "domestique.record/1",
    "game": "leader1",
    "track": {"lanes": 3, "profile": "P" * 20, "finish": 16},
    "players": [{"id": "ann", "team": "yellow"}, {"id": "bob", "team": "blue"}],
    "seed": 1,
}


HOTN = {
    "format": "domestique.record/1",
    "game": "hell-of-the-north",
    "track": {"lanes": 3, "profile": "P" * 30, "finish": 24, "weather": [6]},
    "players": [{"id": "ann", "team": "black"}, {"id": "bob", "team": "white"}],
    "seed": 1,
}


PELOTON = {
    "format": "domestique.record/1",
    "game": "peloton",
    "track": {"name": "level", "width": 3, "segments": [{"hexagons": 40, "terrain": "level"}]},
    "players": [{"id": "ann", "team": "grey"}, {"id": "bob", "team": "red"}],
    "seed": 1,
}
ISLAND = json.loads(game_data("formula_de_mini").joinpath("island.json").read_text(encoding="utf-8"))


def base_peloton_board() -> str:
    """A Peloton course marked on a board of roads, as an inline track."""
    return game_data("peloton").joinpath("leg-ridge-and-river.json").read_text(encoding="utf-8")


def _text(record: dict[str, object], raw: dict[str, str] | None = None) -> bytes:
    out = json.dumps(record)
    for placeholder, text in (raw or {}).items():
        out = out.replace(json.dumps(placeholder), text)
    return out.encode()


NASTY = {
    "deep": _text({**BASE, "expect": "@"}, {"@": "[" * 100_000 + "]" * 100_000}),
    "huge-int": _text({**BASE, "seed": "@"}, {"@": "7" * 5000}),
    "nan": _text({**BASE, "seed": "@"}, {"@": "NaN"}),
    "game-object": _text({**BASE, "game": {"id": "leader1"}}),
    "cars-float": _text({**BASE, "players": [{"id": "ann", "team": "red", "cars": 2.0}, BASE["players"][1]]}),
    "dice-list": _text({**BASE, "dice": {"black": [[5]]}}),
    "fall-null": _text({**LEADER1, "track": {**LEADER1["track"], "fall": None}}),
    "long-track-name": _text({**BASE, "track": "formula-de-mini/" + "a" * 5000}),
    "other-json-file": _text({**BASE, "track": "formula-de-mini/../leader1/tiles"}),
    "newline-key": _text({**BASE, "a\nb": 1}),
    "lone-surrogate": _text({**BASE, "game": "@"}, {"@": '"\\ud800"'}),
    "not-utf8": _text(BASE)[:-1] + b"\xff}",
    "hotn-weather-key": _text({**HOTN, "start": {"weather": {"six": "rain"}}}),
    "hotn-weather-list": _text({**HOTN, "start": {"weather": {"6": ["rain"]}}}),
    "hotn-quality-twice": _text({**HOTN, "players": [{**HOTN["players"][0], "attack": "leader", "sprint": "leader"}]}),
    "hotn-part-number": _text({**HOTN, "start": {"riders": {"black-leader": {"part": 1}}}}),
    "peloton-terrain-list": _text({**PELOTON, "track": {**PELOTON["track"], "segments": [{"terrain": ["up"]}]}}),
    "peloton-terrain-object": _text({**PELOTON, "track": {**PELOTON["track"], "segments": [{"terrain": {}}]}}),
    "peloton-sign-terrain-list": _text(
        {**PELOTON, "track": {**json.loads(base_peloton_board()), "signs": [{"at": 3, "terrain": ["up"]}]}}
    ),
    # the last straight left out: the grid starts on the last row, where the corner's inside lane has no space
    "fdm-grid-off-the-track": _text({**BASE, "track": {**ISLAND, "segments": ISLAND["segments"][:-1]}}),
    "hotn-pursuits-huge": _text({**HOTN, "players": [{**HOTN["players"][0], "pursuits": "@"}]}, {"@": "9" * 5000}),
}


def _domestique() -> list[str]:
    script = Path(sys.executable).with_name("domestique")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


@pytest.mark.parametrize("name", list(NASTY))
def test_replay_of_a_nasty_file_exits_2_with_one_line(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(NASTY[name])
    done = subprocess.run([*_domestique(), "replay", str(path)], capture_output=True, text=True, check=False)
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2 and len(lines) == 1 and "$" in lines[0], done.stderr[:500]
    assert not done.stdout
