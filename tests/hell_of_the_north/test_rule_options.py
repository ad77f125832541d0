"""Hell of the North's race options (issue 41) beyond their scenarios
(tests/hell_of_the_north/scenarios/*-option-*): a headwind turned up mid-move that the rider cannot
pay takes its energy to 0, never below, and never undoes the ride (R-HOTN-WEATHER-REVEAL)."""

from __future__ import annotations

import json
from pathlib import Path

from rules.record import parse_record, replay

AT_ONCE = (
    Path(__file__).parent / "scenarios" / "c5-option-weather-reveal-at-once-the-turning-move-pays-the-headwind.json"
)


def test_a_headwind_turned_up_mid_move_that_the_rider_cannot_pay_leaves_it_at_zero() -> None:
    data = json.loads(AT_ONCE.read_text(encoding="utf-8"))
    data["start"]["riders"]["black-rouleur"]["energy"] = 16  # the 9 squares cost 15, the headwind 2 more
    data.pop("expect")
    result = replay(parse_record(data))
    assert result.error_at is None
    rider = result.state.rider("black-rouleur")
    assert (rider.cell, rider.energy) == ("24.1", 0)
    rode = next(e for e in result.state.events if e.type == "rode")
    assert (rode.data["cost"], rode.data["wind"]) == (17, 2)
