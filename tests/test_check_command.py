"""``domestique check``: a game kept in a package of its own checks its scenario records with an
installed Domestique (docs/adding-a-game.md, step 13): each file passes, fails with what differs,
or is named as unreadable, and the exit code says which."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from tests.support.scenario_check import scenarios

SCENARIO = scenarios("leader1")[0]


def _with_expect(tmp_path: Path, name: str, expect: object) -> Path:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    data["expect"] = expect
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_folder_of_scenarios_that_hold_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in scenarios("leader1")[:3]:
        shutil.copy(path, tmp_path / path.name)
    assert main(["check", str(tmp_path)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == "3 passed, 0 failed" and all(line.startswith("ok ") for line in said[:3])


def test_an_expectation_that_does_not_hold_fails_with_what_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = shutil.copy(SCENARIO, tmp_path / "good.json")
    bad = _with_expect(tmp_path, "bad.json", {"turn": 99})
    assert main(["check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAILED {bad}\n  $.turn: expected 99, got " in out and out.endswith("1 passed, 1 failed\n")


def test_a_refused_action_is_a_failure_unless_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    data["actions"] = [*data["actions"], data["actions"][-1]]  # the last action again: no longer this player's
    refused = len(data["actions"]) - 1
    for name, expect in (("unexpected.json", {"about": "x"}), ("expected.json", {"error_at": refused})):
        (tmp_path / name).write_text(json.dumps({**data, "expect": expect}), encoding="utf-8")
    assert main(["check", str(tmp_path / "expected.json")]) == 0
    assert main(["check", str(tmp_path / "unexpected.json")]) == 1
    assert f"action {refused} was refused" in capsys.readouterr().out


def test_a_file_that_is_no_scenario_is_named_and_nothing_else_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    empty = _with_expect(tmp_path, "empty.json", None)
    good = shutil.copy(SCENARIO, tmp_path / "good.json")
    assert main(["check", str(tmp_path / "broken.json"), str(tmp_path / "gone.json"), str(empty), str(good)]) == 2
    said = capsys.readouterr()
    assert f"{tmp_path / 'broken.json'}: malformed record:" in said.err
    assert f"{tmp_path / 'gone.json'}: cannot read: No such file or directory" in said.err
    assert f"FAILED {empty}\n  no expectations: a scenario asserts something" in said.out
    assert said.out.endswith("1 passed, 1 failed, 2 not checked\n") and "Traceback" not in said.err
    (tmp_path / "none").mkdir()
    assert main(["check", str(tmp_path / "none")]) == 2  # a folder of no scenarios checks nothing: not a pass
    assert "none: no scenario records (*.json) in this folder" in capsys.readouterr().err
