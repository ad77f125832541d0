"""Track names are user text: only shipped stages and circuits, and random-N-SEED routes, are loaded."""

from __future__ import annotations

import pytest

from rules.errors import InvalidSetup, UnknownTrack
from rules.formula_de_mini.circuit import circuit_names, load_circuit
from rules.leader1.route import load_stage, road_for, stage_names
from rules.record import parse_record, start_state

PLAYERS = {
    "leader1": [{"id": "ann", "team": "yellow"}, {"id": "bob", "team": "blue"}],
    "formula-de-mini": [{"id": "ann", "team": "red"}, {"id": "bob", "team": "blue"}],
}


def build(game: str, track: str) -> object:
    record = {"format": "domestique.record/1", "game": game, "track": track, "players": PLAYERS[game], "seed": 1}
    return start_state(parse_record(record))


@pytest.mark.parametrize(
    ("game", "track"),
    [
        # other JSON files the bot can read: each used to load (and then fail in its own way)
        ("formula-de-mini", "formula-de-mini/../leader1/tiles"),
        ("formula-de-mini", "formula-de-mini/../leader1/stages/first-race"),
        ("formula-de-mini", "formula-de-mini/dice"),
        ("leader1", "leader1/../leader1/stages/first-race"),
        ("leader1", "leader1/../../formula-de-mini/canyon"),
        ("leader1", "leader1/./first-race"),
        ("leader1", "leader1//first-race"),
        ("leader1", "leader1/stages/../first-race"),
        # names that were made into paths the file system refuses (OSError) or cannot hold
        ("leader1", "leader1/" + "a" * 5000),
        ("formula-de-mini", "formula-de-mini/" + "a" * 5000),
        # near misses of shipped names
        ("leader1", "leader1/First-Race"),
        ("leader1", "leader1/first-race.json"),
        ("formula-de-mini", "formula-de-mini/canyon.json"),
        # random routes that are not random-<hexagons>-<seed> in plain digits
        ("leader1", "leader1/random-6"),
        ("leader1", "leader1/random-6-1-2"),
        ("leader1", "leader1/random-06-1"),
        ("leader1", "leader1/random-6-01"),
        ("leader1", "leader1/random-6--1"),
        ("leader1", "leader1/random-+6-1"),
        ("leader1", "leader1/random-٦-1"),  # an Arabic-Indic six: str.isdigit() is true
        ("leader1", "leader1/random-6-" + "9" * 17),
        ("leader1", "leader1/random-6-" + "9" * 5000),  # int() refuses past 4,300 digits
    ],
)
def test_only_shipped_and_random_names_are_loaded(game: str, track: str) -> None:
    with pytest.raises(UnknownTrack) as info:
        build(game, track)
    assert info.value.path == "$.track"
    shipped = stage_names() if game == "leader1" else circuit_names()
    assert ", ".join(shipped) in info.value.message  # the refusal lists what can be raced
    assert len(str(info.value)) < 300 and str(info.value).isprintable()


def test_the_loaders_refuse_names_outside_the_shipped_list() -> None:
    """Called directly too (the bot's league checks stage names with road_for), not only from a record."""
    with pytest.raises(UnknownTrack, match="shipped: canyon, island"):
        load_circuit("../leader1/tiles")
    with pytest.raises(UnknownTrack, match="shipped: col-du-domestique"):
        load_stage("../tiles")
    for refuse in (lambda: road_for("first-race\x00"), lambda: load_circuit("canyon\x00")):
        with pytest.raises(UnknownTrack) as info:
            refuse()  # a NUL byte made Path.is_file() raise ValueError
        assert str(info.value).isprintable()


def test_every_shipped_name_still_loads() -> None:
    for name in stage_names():
        assert road_for(name).name == f"leader1/{name}"
    for name in circuit_names():
        assert load_circuit(name).name == name
    assert "dice" not in circuit_names()


@pytest.mark.parametrize("name", ["random-5-0", "random-20-1", "random-10-9999999999999999", "random-14-2"])
def test_random_routes_within_bounds_load(name: str) -> None:
    assert road_for(name).name == f"leader1/{name}"


@pytest.mark.parametrize("name", ["random-4-1", "random-21-1", "random-999-1"])
def test_random_routes_out_of_bounds_say_why(name: str) -> None:
    with pytest.raises(InvalidSetup, match="5 to 20 hexagons"):
        road_for(name)
