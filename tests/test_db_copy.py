"""``domestique db copy``: an SQLite installation moved to PostgreSQL, checked race by race by replay."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.service.common import record_of
from bot.service.races import RaceService
from bot.storage import Member
from bot.storage.url import storage_for
from rules.record import replay
from rules.registry import find_game


async def installation(url: str) -> None:
    """A used SQLite database: running races (with snapshots), a finished one, a lobby, a league, an alliance."""
    storage = storage_for(url)
    await storage.open()
    service = RaceService(storage, render=False, seeds=iter(range(10, 99)).__next__)
    try:
        for channel, game, track in ((10, "leader1", "first-race"), (11, "formula-de-mini", "island")):
            await service.lobby.new_race(1 << 40, channel, 101, "Ann", game=game, track=track, timer=600, pieces=1)
            await service.lobby.join(channel, 102, "Bob", "blue")
            await service.lobby.start(channel, 101)
            for _ in range(12):
                race = await storage.active_race(channel)
                assert race is not None
                state = await service.core.state_of(race)
                decision = find_game(game).rules.pending(state)
                await service.core.decide(race.id, race.version, 101 if decision.player == "u101" else 102, 0)
        await service.lobby.new_race(1 << 40, 12, 101, "Ann", game="leader1", pieces=1)
        await service.lobby.add_ai(12, 101)
        await service.lobby.start(12, 101)
        third = await storage.active_race(12)
        assert third is not None
        await service.lobby.finish_by_ai(third.id)  # the AI plays every seat to the finish
        await service.lobby.new_race(1 << 40, 13, 103, "Cy", game="leader1")  # a lobby
        league = await storage.create_league(1 << 40, 101, "Spring", "leader1", 20, {"timer": 3600})
        for name in ("zoe", "adam"):
            await storage.add_member(league, Member(f"p-{name}", None, name, "red", ["rouleur"], False))
        await storage.schedule(league, [(1, "leader1/flatlands", 5000.0)])
        race = await storage.active_race(10)
        assert race is not None
        await storage.create_race(1 << 40, 14, 101, "leader1", {"seats": [], "timer": 60}, league=(league, 1))
        await storage.propose_alliance(race.id, "u101", "u102")
    finally:
        await storage.close()


async def test_a_sqlite_installation_moves_to_postgresql_with_every_race_replaying_the_same(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'domestique.db'}"
    await installation(source)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", pg_url]) == 0
    said = capsys.readouterr().out
    assert "copied 5 races" in said and "1 leagues" in said and "all 5 races replay the same" in said

    old, new = storage_for(source), storage_for(pg_url)
    await old.open()
    await new.open()
    try:
        for race_id in range(1, 5):
            before, after = await old.race(race_id), await new.race(race_id)
            assert before is not None and before == after
            if before.envelope is not None:
                assert after is not None
                a, b = replay(record_of(before)), replay(record_of(after))
                assert json.dumps(a.game.rules.public_view(a.state), default=str) == json.dumps(
                    b.game.rules.public_view(b.state), default=str
                )
        assert {r.status for r in [await new.race(i) for i in range(1, 5)] if r} == {"running", "finished", "lobby"}
        assert await new.snapshot(1) == await old.snapshot(1)
        league = (await new.leagues(1 << 40))[0]
        assert [m.name for m in await new.members(league.id)] == ["zoe", "adam"]
        assert [s.track for s in await new.stages(league.id)] == ["leader1/flatlands"]
        staged = await new.league_race(league.id, 1)  # a league stage's race keeps its link
        assert staged is not None and staged.channel_id == 14
        assert len(await new.alliances(1)) == 1
        # the copy goes on where the old database stopped: new rows get new ids
        fresh = await new.create_race(1 << 40, 99, 101, "leader1", {"timer": 60})
        assert fresh.id == 6
        assert await new.create_league(1 << 40, 101, "Autumn", "leader1", 21, {}) == league.id + 1
    finally:
        await old.close()
        await new.close()


async def test_a_copy_into_a_database_in_use_is_refused_in_one_line(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'domestique.db'}"
    await installation(source)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", pg_url]) == 0
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", pg_url]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("domestique db copy: ") and "already holds races" in err and "\n" not in err


async def test_a_copy_that_does_not_replay_the_same_is_refused(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.cli.db as db

    source = f"sqlite:///{tmp_path / 'domestique.db'}"
    await installation(source)
    write = db._write_all

    async def lossy(target, rows):  # a copy that loses the last decision of race 1
        last = max(i for i, row in enumerate(rows["actions"]) if row[0] == 1)
        await write(target, {**rows, "actions": rows["actions"][:last] + rows["actions"][last + 1 :]})

    monkeypatch.setattr(db, "_write_all", lossy)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", pg_url]) == 2
    assert "race 1 differs after the copy" in capsys.readouterr().err


async def test_a_table_the_copy_does_not_know_is_refused(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    source = f"sqlite:///{tmp_path / 'domestique.db'}"
    await installation(source)
    with sqlite3.connect(tmp_path / "domestique.db") as conn:  # a migration whose table db copy was not told of
        conn.execute("CREATE TABLE wagers (race_id INTEGER, action TEXT)")
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", pg_url]) == 2
    assert "table wagers would not be copied" in capsys.readouterr().err
