"""`/race status` lines (also the web pages' standings and alt text) read as players speak:
"1 risk", never "1 risks"; a rider who finished with the peloton is not "at 73.None"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.hell_of_the_north import game as hotn_game
from rules.hell_of_the_north.ride import replace_rider as hotn_replace
from rules.leader1 import game as l1_game
from rules.leader1.ride import replace_rider as l1_replace
from rules.record import parse_record, start_state

PLAYERS = {
    "leader1": [{"id": "ann", "team": "yellow", "riders": ["rouleur", "leader", "climber"]}],
    "hell-of-the-north": [
        {
            "id": "ann",
            "team": "black",
            "riders": ["rouleur", "leader", "climber"],
            "attack": "rouleur",
            "sprint": "leader",
        }
    ],
}
TRACKS = {"leader1": "leader1/random-6-3", "hell-of-the-north": "hell-of-the-north/random-6-3"}
GAMES: dict[str, tuple[Any, Any]] = {
    "leader1": (l1_game, l1_replace),
    "hell-of-the-north": (hotn_game, hotn_replace),
}


def start(game: str) -> Any:
    players = PLAYERS[game] + [{**PLAYERS[game][0], "id": "bob", "team": "white" if game != "leader1" else "blue"}]
    record = parse_record(
        {"format": "domestique.record/1", "game": game, "track": TRACKS[game], "players": players, "seed": 3}
    )
    return start_state(record)[1]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_one_risk_is_singular_and_a_finished_rider_has_no_none_square(game: str) -> None:
    module, replace_rider = GAMES[game]
    state = start(game)
    rider = state.riders[0]
    finished = replace(rider, status="finished", row=73, lane=None, risks=1)
    lines = module.status(replace_rider(state, finished))
    line = lines[0]  # the one who arrived leads the list
    assert "None" not in " ".join(lines)
    assert "1 risk," not in line and "1 risks" not in line
    assert line.endswith("1 risk")
    two = module.status(replace_rider(state, replace(rider, risks=2)))
    assert any(text.endswith("2 risks") for text in two)
