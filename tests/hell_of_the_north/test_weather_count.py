"""Race conditions 5: the players decide how many weather markers lie face down beside the route
(option ``weather``, 0 to 6; R-HOTN-WEATHER-COUNT). Every count places that many markers on distinct
hexagons with one before them, the route's own first; the race seed decides the rest, and a record
replays the placement (from its seed, or from its dice when a running race is exported)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cli import _options
from bot.cli.sim import simulate
from rules.errors import InvalidSetup, MalformedRecord
from rules.hell_of_the_north.course import course_for, stage_names
from rules.hell_of_the_north.game import sample_players, weather_count
from rules.hell_of_the_north.model import WEATHER_PLACE_DIE
from rules.hell_of_the_north.setup import build
from rules.record import replay


def _race(stage: str, seed: int, options: dict[str, Any] | None = None, dice: dict[str, Any] | None = None) -> Any:
    record: dict[str, Any] = {"track": f"hell-of-the-north/{stage}", "players": sample_players(2), "seed": seed}
    if options is not None:
        record["options"] = options
    if dice is not None:
        record["dice"] = dice
    return build(record)


def _rows(state: Any) -> list[int]:
    return [row for row, _ in state.weather]


def _hexagons_with_one_before(stage: str) -> set[int]:
    """First rows of the laid hexagons but the first (the start), read from the course's tiles."""
    return {tile.first_row for tile in course_for(stage).road.tiles[1:]}


@pytest.mark.parametrize("stage", stage_names())
@pytest.mark.parametrize("count", range(7))
def test_each_count_places_that_many_markers_on_distinct_legal_hexagons(stage: str, count: int) -> None:
    own = set(course_for(stage).weather)
    legal = _hexagons_with_one_before(stage)
    for seed in (1, 2, 3, 40):
        state = _race(stage, seed, {"weather": count})
        rows = _rows(state)
        assert len(rows) == count and len(set(rows)) == count
        assert set(rows) <= legal
        assert all(marker is None for _, marker in state.weather)  # all face down at the start
        if count >= len(own):
            assert own <= set(rows)  # the route's own hexagons first
        else:
            assert set(rows) <= own


def test_the_same_seed_places_the_same_hexagons_and_seeds_differ() -> None:
    placements = {tuple(_rows(_race("roubaix", seed, {"weather": 4}))) for seed in range(12)}
    assert len(placements) > 1  # the seed spreads the markers the route does not place
    for seed in (3, 9):
        assert _rows(_race("roubaix", seed, {"weather": 4})) == _rows(_race("roubaix", seed, {"weather": 4}))


@pytest.mark.parametrize("stage", stage_names())
def test_without_the_option_the_route_places_its_own_and_rolls_nothing_more(stage: str) -> None:
    state = _race(stage, 5)
    assert _rows(state) == list(course_for(stage).weather)
    assert all(name != WEATHER_PLACE_DIE for name, _ in state.dice.history)
    assert _rows(_race(stage, 5, {"weather": None})) == _rows(state)


def test_zero_markers_means_no_weather() -> None:
    state = _race("roubaix", 1, {"weather": 0})
    assert state.weather == ()


@pytest.mark.parametrize("count", (0, 3, 6))
def test_a_simulated_race_replays_to_the_same_weather(count: int) -> None:
    record, final = simulate("hell-of-the-north", players=3, seed=7, options={"weather": count})
    assert record.options == {"weather": count}
    result = replay(record)
    assert result.error_at is None and result.state.weather == final.weather
    assert len(final.weather) == count


def test_a_running_race_exported_with_its_dice_and_a_fresh_seed_keeps_the_placement() -> None:
    """The export of a running race scripts the past rolls and hands out a new seed: the weather
    hexagons were rolled too, so the placement comes back from the script."""
    state = _race("roubaix", 11, {"weather": 5})
    again = _race("roubaix", 99_999, {"weather": 5}, dice=state.dice.rolled())
    assert _rows(again) == _rows(state)
    assert again.dice.history == state.dice.history


def test_a_script_places_the_markers_and_a_hexagon_out_of_reach_is_refused() -> None:
    roubaix = sorted(_hexagons_with_one_before("roubaix"))
    own = list(course_for("roubaix").weather)
    extra = next(row for row in roubaix if row not in own)
    state = _race("roubaix", 1, {"weather": 3}, dice={WEATHER_PLACE_DIE: [own[1], own[0], extra]})
    assert _rows(state) == sorted([*own, extra])
    with pytest.raises(MalformedRecord, match="weather-hexagon"):
        _race("roubaix", 1, {"weather": 1}, dice={WEATHER_PLACE_DIE: [0]})  # the start's hexagon
    with pytest.raises(MalformedRecord, match="weather-hexagon"):
        _race("roubaix", 1, {"weather": 2}, dice={WEATHER_PLACE_DIE: [own[0], own[0]]})  # one a hexagon


def test_more_markers_than_a_route_has_hexagons_for_or_than_the_box_are_refused() -> None:
    with pytest.raises(InvalidSetup, match="at most 4 markers"):
        build(
            {
                "track": "hell-of-the-north/random-5-3",
                "players": sample_players(2),
                "seed": 1,
                "options": {"weather": 5},
            }
        )
    for bad in (7, -1, "3", True, 2.0):
        with pytest.raises(MalformedRecord, match=r"options\.weather"):
            _race("roubaix", 1, {"weather": bad})


def test_the_lobby_reads_a_number_of_markers() -> None:
    assert [weather_count(str(n)) for n in range(7)] == list(range(7))
    assert weather_count(" 4 ") == 4
    for bad in ("7", "-1", "many", ""):
        with pytest.raises(ValueError, match="0 to 6"):
            weather_count(bad)


@pytest.mark.parametrize("seed", (1, 2, 3, 4))
@pytest.mark.parametrize("count", (0, 1, 6))
def test_ai_races_finish_with_any_number_of_markers(seed: int, count: int) -> None:
    _, final = simulate("hell-of-the-north", players=4, seed=seed, stage="random-12", options={"weather": count})
    assert final.finished
    assert len(final.weather) == count
    assert all(marker is not None for _, marker in final.weather)  # the winner passed every hexagon


def test_the_sim_command_line_takes_rule_options() -> None:
    assert _options(["weather=3", "multi_day=true", "cobble_risk=all"]) == {
        "weather": 3,
        "multi_day": True,
        "cobble_risk": "all",
    }
    with pytest.raises(ValueError, match="NAME=VALUE"):
        _options(["weather"])
