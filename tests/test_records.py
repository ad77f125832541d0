"""The record format v1: strict loading with JSON paths, actions' text form, `domestique replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from rules.action import Action
from rules.errors import MalformedRecord
from rules.record import load_record, parse_record
from rules.registry import find_game

BASE = {
    "format": "domestique.record/1",
    "game": "leader1",
    "track": "leader1/first-race",
    "players": [
        {"id": "ann", "team": "yellow", "riders": ["rouleur"]},
        {"id": "bob", "team": "blue", "riders": ["rouleur"]},
    ],
    "seed": 3,
    "actions": [],
}


def with_(**changes: object) -> dict[str, object]:
    return {**BASE, **changes}


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (with_(format="domestique.record/2"), "$.format"),
        (with_(game="chess"), "$.game"),
        (with_(colour="red"), "$.colour"),
        (with_(seed="7"), "$.seed"),
        (with_(actions=[{"by": "ann"}]), "$.actions[0].do"),
        (with_(actions=[{"by": "ann", "do": "ride", "speed": 3}]), "$.actions[0].speed"),
        (with_(options={"turbo": True}), "$.options.turbo"),
        (with_(dice={"peloton": [6]}), "$.dice.peloton[0]"),
        (with_(dice={"d20": [1]}), "$.dice.d20"),
        (with_(track="leader1/nowhere"), "$.track"),
        (with_(track={"lanes": 3, "profile": "PPX", "finish": 2}), "$.track.profile"),
        (with_(track={"lanes": 3, "profile": "PPPPPP", "finish": 4, "fall": ["3-1"]}), "$.track.fall[0]"),
        (with_(players=[{"id": "ann", "team": "pink"}]), "$.players[0].team"),
        (with_(start={"riders": {"yellow-rouleur": {"at": "x.1"}}}), "$.start.riders.yellow-rouleur.at"),
        (with_(start={"riders": {"red-rouleur": {"at": "9.1"}}}), "$.start.riders.red-rouleur"),
    ],
)
def test_malformed_records_are_refused_with_the_json_path(data: dict[str, object], path: str) -> None:
    from rules.record import start_state

    with pytest.raises(MalformedRecord) as info:
        start_state(parse_record(data))
    assert info.value.path == path


FDM = {
    "format": "domestique.record/1",
    "game": "formula-de-mini",
    "track": "formula-de-mini/canyon",
    "players": [{"id": "ann", "team": "red"}, {"id": "bob", "team": "blue"}],
    "seed": 3,
    "actions": [],
}
INLINE = {"lanes": 3, "profile": "PPPPPPPPPP", "finish": 8}
FDM_START = {"turn": 3, "cars": {"red-1": {"at": "20.0"}}}


@pytest.mark.parametrize(
    ("data", "path"),
    [
        # each of these raised something other than MalformedRecord (issue 14)
        (with_(game={"id": "leader1"}), "$.game"),
        (with_(game=["leader1"]), "$.game"),
        (with_(dice={"peloton": [[3]]}), "$.dice.peloton[0]"),
        (with_(dice={"peloton": [3.0]}), "$.dice.peloton[0]"),
        (with_(dice={"events": [True]}), "$.dice.events[0]"),
        (with_(start={"peloton": {"at": "6"}}), "$.start.peloton.at"),
        (with_(start={"peloton": {"at": True}}), "$.start.peloton.at"),
        (with_(start={"turn": 2.0}), "$.start.turn"),
        (
            with_(start={"riders": {"yellow-rouleur": {"at": "12.1", "energy": 3.5}}}),
            "$.start.riders.yellow-rouleur.energy",
        ),
        (
            with_(start={"riders": {"yellow-rouleur": {"at": "12.1", "kept": [2.0]}}}),
            "$.start.riders.yellow-rouleur.kept",
        ),
        (with_(start={"riders": {"yellow-rouleur": {"at": "1" * 5000 + ".1"}}}), "$.start.riders.yellow-rouleur.at"),
        (with_(track={**INLINE, "fall": None}), "$.track.fall"),
        (with_(track={**INLINE, "fall": 2.0}), "$.track.fall"),
        (with_(track={**INLINE, "bends": None}), "$.track.bends"),
        (with_(track={**INLINE, "profile": "P" * 1001, "finish": 8}), "$.track.profile"),
        (with_(players=[{"id": "a\nb", "team": "yellow"}, {"id": "bob", "team": "blue"}]), "$.players[0].id"),
        ({**FDM, "players": [{"id": "ann", "team": "red", "cars": 2.0}, FDM["players"][1]]}, "$.players[0].cars"),
        ({**FDM, "players": [{"id": "ann", "team": "red", "cars": True}, FDM["players"][1]]}, "$.players[0].cars"),
        ({**FDM, "players": [{"id": "a\nb", "team": "red"}, FDM["players"][1]]}, "$.players[0].id"),
        ({**FDM, "dice": {"black": 5}}, "$.dice.black"),
        ({**FDM, "dice": {"black": [5.0]}}, "$.dice.black[0]"),
        ({**FDM, "start": {**FDM_START, "cars": {"red-1": {"at": ["20.0"]}}}}, "$.start.cars.red-1.at"),
        ({**FDM, "start": {**FDM_START, "cars": {"red-1": {"at": "20.0", "lap": "2"}}}}, "$.start.cars.red-1.lap"),
        ({**FDM, "start": {**FDM_START, "cars": {"red-1": {"at": "20.0", "lap": [2]}}}}, "$.start.cars.red-1.lap"),
        ({**FDM, "start": {**FDM_START, "cars": {"red-1": {"at": "20.0", "stops": "1"}}}}, "$.start.cars.red-1.stops"),
        ({**FDM, "start": {**FDM_START, "cars": {"red-1": {"at": "20.0", "gear": 3.0}}}}, "$.start.cars.red-1.gear"),
    ],
)
def test_values_of_the_wrong_type_are_refused_with_the_json_path(data: dict[str, object], path: str) -> None:
    from rules.record import start_state

    with pytest.raises(MalformedRecord) as info:
        start_state(parse_record(data))
    assert info.value.path == path


INLINE_CIRCUIT = {
    "lanes": 2,
    "segments": [
        {"straight": 6},
        {"corner": 1, "stops": 1, "outside": 4, "inside": 2, "turn": -180},
        {"straight": 6},
        {"corner": 2, "stops": 1, "outside": 4, "inside": 2, "turn": -180},
        {"straight": 4},
    ],
    "pit": {"from": 16, "to": 22, "stands": [0, 1, 2, 3]},
}


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"laps": "2"}, "$.track.laps"),
        ({"grid": 9}, "$.track.grid"),  # unbounded, it laid as many grid slots as asked
        ({"name": ["x"]}, "$.track.name"),
        ({"straddle": "yes"}, "$.track.straddle"),
        ({"segments": [{"straight": 1001}]}, "$.track.segments[0].straight"),  # unbounded: 10**9 rows hung
        ({"segments": [{"straight": True}]}, "$.track.segments[0].straight"),
        (
            {"segments": [{"corner": 1, "stops": 1, "outside": 4, "inside": 2, "turn": -90, "branches": 3}]},
            "$.track.segments[0].branches",
        ),
        (
            {"segments": [{"corner": 1, "stops": 1, "outside": 4, "inside": 2, "turn": -90, "branches": [[0, 0, 9]]}]},
            "$.track.segments[0].branches",
        ),
        ({"pit": {"from": 0, "to": 24, "stands": [0]}}, "$.track.pit.to"),  # longer than the circuit
        ({"pit": {"from": "16", "to": 22, "stands": [0]}}, "$.track.pit.from"),
        ({"pit": {"from": 16, "to": 22, "stands": [0.5]}}, "$.track.pit.stands"),
        ({"pit": {"from": 16, "to": 22, "stands": [0]}}, "$.track.pit.stands"),  # one stand, two teams
        ({"grid": 1}, "$.track.grid"),  # one grid slot, two cars
    ],
)
def test_an_inline_circuit_is_checked_before_it_is_built(change: dict[str, object], path: str) -> None:
    from rules.record import start_state

    with pytest.raises(MalformedRecord) as info:
        start_state(parse_record({**FDM, "track": {**INLINE_CIRCUIT, **change}}))
    assert info.value.path == path


def test_the_inline_circuit_of_these_tests_is_valid() -> None:
    from rules.record import start_state

    start_state(parse_record({**FDM, "track": INLINE_CIRCUIT}))


def text_with(raw: str, key: str = "seed") -> str:
    """BASE as JSON text with the value of ``key`` replaced by the raw text ``raw``."""
    return json.dumps(with_(**{key: "@@"})).replace('"@@"', raw)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (text_with("1" * 5000), "$.seed"),  # int() refuses over 4,300 digits with a ValueError
        (text_with("-" + "1" * 101), "$.seed"),
        (text_with("NaN"), "$.seed"),
        (text_with('{"x": NaN}', "expect"), "$.expect.x"),  # not JSON, but Python's parser takes it
        (text_with('{"x": -Infinity}', "expect"), "$.expect.x"),
        (text_with("1e999", "options"), "$.options"),  # parses as float infinity
        (text_with("[" * 100_000 + "]" * 100_000, "expect"), "$"),  # RecursionError in the parser
        (text_with("[" * 50 + "]" * 50, "expect"), "$.expect" + "[0]" * 20),
        (text_with('{"a": 1, "a": 2}', "expect"), "$.expect.a"),
        (text_with(r'{"\ud800": 1}', "expect"), r'$.expect["\ud800"]'),
        (text_with(r'{"a\nb": 1}', "expect"), r'$.expect["a\nb"]'),
        (text_with(r'"\ud800"', "game"), "$.game"),
        (text_with(json.dumps("x" * 10_001), "game"), "$.game"),
        ('{"seed": 1, "seed": 2}', "$.seed"),
        # an id with a line break split the one-line error: "it is ai2's turn, not \n's"
        (text_with('[{"by": "a\\nb", "do": "pass"}]', "actions"), "$.actions[0].by"),
        (text_with('[{"by": "ann", "do": "ride", "rider": "x\\u2028y"}]', "actions"), "$.actions[0].rider"),
    ],
)
def test_what_the_json_parser_cannot_read_is_a_malformed_record(text: str, path: str) -> None:
    with pytest.raises(MalformedRecord) as info:
        load_record(text)
    assert info.value.path == path
    assert str(info.value).isprintable()


def test_a_record_file_is_read_from_utf8_bytes() -> None:
    text = json.dumps(BASE)
    assert load_record(text.encode()) == load_record(text)
    assert load_record(b"\xef\xbb\xbf" + text.encode()) == load_record(text)  # a byte order mark
    with pytest.raises(MalformedRecord, match="not UTF-8"):
        load_record(text.encode("utf-16"))
    with pytest.raises(MalformedRecord, match="not UTF-8"):
        load_record(text.encode()[:-2] + b"\xff}")


def test_actions_round_trip_through_json_and_text() -> None:
    words = find_game("leader1").vocabulary
    action = Action("ann", "ride", rider="yellow-rouleur", to="14.2", via=("12.1", "13.2"))
    assert action.text() == "ann ride rider=yellow-rouleur to=14.2 via=12.1,13.2"
    assert words.from_json(action.to_json()) == action
    assert words.from_text(action.text()) == action
    eat = Action("ann", "eat", rider="yellow-climber", tile=0)
    assert words.from_text("ann eat rider=yellow-climber tile=0") == eat
    with pytest.raises(MalformedRecord):
        words.from_text("ann ride colour=red")
    with pytest.raises(MalformedRecord):  # another game's field
        words.from_text("ann drive car=red-1")


def test_formula_de_mini_actions_keep_their_documented_text_form() -> None:
    words = find_game("formula-de-mini").vocabulary
    text = "ann drive car=red-1 to=14.0 via=12.0,13.0 brake=2 turbo=1"
    action = words.from_text(text)
    assert action.text() == text
    assert action == Action("ann", "drive", car="red-1", to="14.0", via=("12.0", "13.0"), brake=2, turbo=True)
    assert words.from_json({"by": "ann", "do": "drive", "car": "red-1", "to": "14.0", "brake": 0}).to_json() == {
        "by": "ann",
        "do": "drive",
        "car": "red-1",
        "to": "14.0",
    }
    with pytest.raises(MalformedRecord):
        words.from_json({"by": "ann", "do": "gear", "car": "red-1", "gear": "3"})


def test_not_json_is_a_malformed_record() -> None:
    with pytest.raises(MalformedRecord, match="not JSON"):
        load_record("{nope")


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "race.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_replay_prints_the_state_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, BASE)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "leader1" and out["turn"] == 1 and out["phase"] == "breaking-away"
    assert out["to_act"] == "ann" and out["riders"]["yellow-rouleur"]["at"] is None
    assert out["peloton"]["at"] == 1


def test_replay_of_an_illegal_action_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = with_(actions=[{"by": "ann", "do": "pass"}, {"by": "ann", "do": "pursue"}, {"by": "ann", "do": "pass"}])
    assert main(["replay", write(tmp_path, data)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("action 1 ") and "bob" in err[0]


def test_replay_of_a_malformed_record_exits_2_with_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, with_(seed=None))]) == 2
    err = capsys.readouterr().err.strip()
    assert "$.seed" in err and "Traceback" not in err


def test_the_installed_command_never_prints_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "domestique.record/1", "game": "leader1", "players": 3}')
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and "$." in done.stderr


def test_sim_writes_a_record_that_replays_to_a_finished_race(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim.json"
    assert main(["sim", "--stage", "flatlands", "--players", "3", "--seed", "4", "--out", str(out)]) == 0
    record = load_record(out.read_text())
    from rules.record import replay

    result = replay(record)
    assert result.error_at is None and result.state.finished


@pytest.mark.parametrize("game", ["leader1", "formula-de-mini"])
def test_render_draws_either_games_record(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "race.json"
    stage = "canyon" if game == "formula-de-mini" else "first-race"
    assert main(["sim", "--game", game, "--stage", stage, "--players", "2", "--seed", "3", "--out", str(out)]) == 0
    board = tmp_path / "board.png"
    assert main(["render", str(out), "--out", str(board), "--turn", "3", "--highlight", "next"]) == 0
    assert board.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
