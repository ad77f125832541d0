"""The race option ``time_bonuses`` (rulings R-PEL-BONUS-POINTS): a league's overall time counts a
leg's time less the cyclist's bonuses, and a result says so."""

from __future__ import annotations

import json
from pathlib import Path

from rules.peloton.game import GAME, StageRaceScoring, result_text
from rules.record import load_record, replay

SCENARIOS = Path(__file__).parent / "scenarios"


def _final(value: str):  # type: ignore[no-untyped-def]
    data = json.loads((SCENARIOS / "timing-time-bonuses-on-10-6-4-at-the-finish-3-2-1-at-a-line.json").read_text())
    data["options"] = {"time_bonuses": value}
    result = replay(load_record(json.dumps(data)))
    assert result.error_at is None
    return result.state


def test_a_league_counts_the_leg_time_less_the_bonuses() -> None:
    with_bonuses, without = _final("on"), _final("none")
    scoring = StageRaceScoring()
    timed = {s.piece: s.resources["time"] for s in scoring.classify((), with_bonuses, {})[0]}
    plain = {s.piece: s.resources["time"] for s in scoring.classify((), without, {})[0]}
    assert plain["12"] - timed["12"] == 10 and plain["4"] - timed["4"] == 9 and plain["1"] - timed["1"] == 2
    assert timed["5"] == plain["5"]


def test_a_result_names_the_bonus_only_when_there_is_one() -> None:
    state = _final("on")
    assert result_text(state, "12") == "-0:35 (4:19:15, time bonus 10 s)"
    assert result_text(state, "5") == "+0:35 (4:20:15)"
    assert result_text(_final("none"), "12") == "-0:35 (4:19:25)"
    assert GAME.rules.public_view(state)["cyclists"]["12"]["leg_time"] == "4:19:15"  # type: ignore[index]
