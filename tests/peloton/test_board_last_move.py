"""The board's "Last:" line tells the newest rides that fit, reading the race's events back only as
far as it needs (a race has hundreds; the line holds a few)."""

from __future__ import annotations

import re

import pytest

import renderer.peloton.painter as painter
from bot.cli.sim import simulate
from renderer.palette import SMALL, WIDTH
from renderer.text import text_length
from rules.peloton.game import describe
from rules.record import start_state


def _every_event_told(state: object) -> str:
    """The line as it was first written: every event told, then the newest that fit kept."""
    told = [describe(state, e) for e in state.events if e.type not in ("dial", "card", "wind")]  # type: ignore[attr-defined]
    lines = [re.sub(r"No\. (\d+) \([a-z]+\)", r"No. \1", t) for t in told if t]
    text = ""
    for line in reversed(lines):
        longer = f"{line}; {text}" if text else line
        if text_length(painter._last(f"… {longer}"), SMALL) > WIDTH - 20:
            return painter._clip(painter._last(f"… {text}"))
        text = longer
    return painter._clip(painter._last(text or "-"))


def test_the_last_line_is_the_newest_rides_that_fit_and_reads_back_only_that_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record, _ = simulate("peloton", seed=3, players=4)
    game, state = start_state(record)
    told: list[object] = []

    def counted(state: object, event: object) -> str:
        told.append(event)
        return describe(state, event)  # type: ignore[arg-type]

    checked = full = 0
    for n, action in enumerate(record.actions):
        if n % 25 == 0:
            expected = _every_event_told(state)
            told.clear()
            monkeypatch.setattr(painter, "describe", counted)
            assert painter._last_move(state) == expected, n
            monkeypatch.undo()
            if "…" in expected:  # the line is full: the rides that did not fit were never told
                assert len(told) <= 12, (n, len(told))
                full += 1
            checked += 1
        state, _events = game.rules.apply(state, action)
    assert checked > 10 and full > 5 and len(state.events) > 300  # a whole race: hundreds of events by its end
