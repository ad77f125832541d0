"""Records name the rules they were played under (issue 40): the envelope's ``rules``, each game's
table of versions, and what the command line says of them."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from bot.cli import main
from rules.errors import MalformedRecord
from rules.record import dated, load_record, parse_record, rules_of
from rules.registry import find_game, game_ids

OLD = Path(__file__).parent / "corpus" / "2026-11-30-f440161-hell-of-the-north-usual-4p-seed3.json"


def _old() -> tuple[dict[str, object], dict[str, object]]:
    data = json.loads(OLD.read_text(encoding="utf-8"))
    return data["record"], data["final"]


def test_every_game_has_versions_and_a_version_for_records_without_one() -> None:
    for game_id in game_ids():
        versions = find_game(game_id).rules_versions
        assert versions.newest.newest and versions.unversioned in versions.versions
        assert [v.since is None for v in versions.versions] == [True] + [False] * (len(versions.versions) - 1)
        for earlier, later in zip(versions.versions, versions.versions[1:], strict=False):
            assert earlier.in_force < later.in_force  # a later version has every change of an earlier one


def test_a_stored_race_from_before_versions_is_played_under_the_version_of_its_day() -> None:
    versions = find_game("hell-of-the-north").rules_versions
    on = [
        datetime.fromisoformat(t).timestamp() for t in ("2026-11-30T12:00Z", "2026-12-01T16:30Z", "2026-12-05T00:00Z")
    ]
    assert [versions.on(t).name for t in on] == ["2026-11", "2026-12", "2026-12.2"]
    record, _ = _old()
    assert dated(parse_record(record), on[0]).rules == "2026-11"
    assert dated(parse_record({**record, "rules": "2026-12"}), on[0]).rules == "2026-12"  # its own wins


def test_an_unknown_rules_version_is_refused_at_its_path() -> None:
    record, _ = _old()
    with pytest.raises(MalformedRecord, match=r"^\$\.rules: hell-of-the-north has no rules version '1999-01'"):
        parse_record({**record, "rules": "1999-01"})
    with pytest.raises(MalformedRecord, match=r"^\$\.rules: expected a rules version"):
        parse_record({**record, "rules": 2026})


def test_a_record_names_its_version_unless_it_is_the_one_a_record_without_one_means() -> None:
    record, _ = _old()
    old = parse_record({**record, "rules": "2026-11"})
    assert old.to_json()["rules"] == "2026-11" and rules_of(old).name == "2026-11"
    unversioned = find_game("hell-of-the-north").rules_versions.unversioned.name
    same = parse_record({**record, "rules": unversioned})
    assert "rules" not in same.to_json()  # readable by releases from before versions
    assert rules_of(load_record(json.dumps(same.to_json()))).name == unversioned


def test_replay_says_which_rules_it_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, final = _old()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2  # under the last release without versions: refused
    assert "is illegal under the rules of 2026-12.2" in capsys.readouterr().err
    assert main(["replay", "--rules", "2026-11", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "2026-11" and out["riders"] == final["riders"]
    path.write_text(json.dumps({**record, "rules": "2026-12"}), encoding="utf-8")
    assert main(["replay", "--rules", "2026-11", str(path)]) == 2
    assert "played under the rules of 2026-12, not 2026-11" in capsys.readouterr().err


def test_check_names_the_rules_of_each_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, final = _old()
    (tmp_path / "old.json").write_text(
        json.dumps({**record, "rules": "2026-11", "expect": {"rules": "2026-11", "riders": final["riders"]}}),
        encoding="utf-8",
    )
    assert main(["check", str(tmp_path)]) == 0
    assert f"ok     {tmp_path / 'old.json'} (rules 2026-11)" in capsys.readouterr().out


async def test_a_race_the_bot_starts_names_the_newest_rules(tmp_path: Path) -> None:
    from bot.service.common import record_of
    from bot.service.races import RaceService
    from bot.storage.sqlite import SqliteStorage

    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service = RaceService(storage, now=lambda: 1_000_000.0, render=False)  # a clock long before versions
        await service.lobby.new_race(1, 10, 101, "Ann", game="hell-of-the-north", seed=5, timer=3600)
        await service.lobby.add_ai(10, 101)
        await service.lobby.start(10, 101)
        race = await storage.active_race(10)
        assert race is not None and race.envelope is not None
        newest = find_game("hell-of-the-north").rules_versions.newest.name
        assert race.envelope["rules"] == newest and record_of(race).rules == newest
        assert "Played under the rules" not in (await service.reading.status(10)).reply
    finally:
        await storage.close()
