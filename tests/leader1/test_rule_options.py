"""Leader 1's race options for rulings players may want either way (issue 41), beyond the scenarios
(tests/leader1/scenarios/*-option-*): what the drop offers says what the option does, and a record
with a value the game does not know is refused with the values it knows."""

from __future__ import annotations

import pytest

from rules.errors import MalformedRecord
from rules.leader1.game import GAME
from tests.leader1.helpers import inline, play, record

START = {"turn": 3, "peloton": {"at": 5, "leader": "ann"}, "riders": {}}


@pytest.mark.parametrize(
    ("drop", "detail"),
    [
        (None, "stays for the peloton's move and pays it, then rides behind it from next turn"),
        ("pays", "stays for the peloton's move and pays it, then rides behind it from next turn"),
        ("leaves", "leaves the peloton before it moves (no cost), rides behind it from next turn"),
    ],
)
def test_the_drop_choice_says_what_the_option_makes_it_cost(drop: str | None, detail: str) -> None:
    state = play(record(inline("P" * 40), start=START, options={} if drop is None else {"drop": drop}))
    drops = [c for c in GAME.rules.choices(state, "ann") if c.action.do == "drop"]
    assert drops and {c.detail for c in drops} == {detail}


@pytest.mark.parametrize(("option", "value"), [("drop", "sometimes"), ("boxed_in", "jumps"), ("peloton_bonus", 1)])
def test_a_record_with_an_unknown_value_is_refused_with_the_values_it_may_take(option: str, value: object) -> None:
    with pytest.raises(MalformedRecord, match=f"options.{option}") as refused:
        play(record(inline("P" * 40), options={option: value}))
    assert "expected" in str(refused.value) and "\n" not in str(refused.value)
