"""Alliances of any size and their pacts, as stored, on each backend (SQLite, PostgreSQL)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage
from bot.storage.url import storage_for

LOBBY = {"track": "leader1/first-race", "timer": 60, "seats": []}


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Storage]:
    storage = storage_for(database_url)
    await storage.open()
    yield storage
    await storage.close()


async def running_race(store: Storage) -> int:
    race = await store.create_race(1, 10, 7, "leader1", LOBBY)
    assert await store.start(race.id, race.version, {"game": "leader1"}, 100.0)
    return race.id


async def test_two_player_alliances_are_carried_over_as_members(database_url: str, monkeypatch) -> None:
    import bot.storage.database as database
    import bot.storage.sql as sql
    from bot.storage.schema import MIGRATIONS

    members_came = next(i for i, m in enumerate(MIGRATIONS) if "CREATE TABLE alliance_members" in str(m))
    monkeypatch.setattr(database, "MIGRATIONS", MIGRATIONS[:members_came])  # a database of the release before
    old = storage_for(database_url)
    await old.open()
    race_id = await running_race(old)
    insert = "INSERT INTO alliances (race_id, proposer, partner, status, created) VALUES ({}, {}, {}, {}, 5.0)"
    assert isinstance(old, sql.SqlStorage)
    for proposer, partner, status in (("u1", "u2", "active"), ("u3", "u4", "proposed"), ("u1", "u3", "declined")):
        await old.db.update(insert, (race_id, proposer, partner, status))
    await old.close()
    monkeypatch.setattr(database, "MIGRATIONS", MIGRATIONS)
    store = storage_for(database_url)
    await store.open()
    try:
        first, second, third = await store.alliances(race_id)
        members = {
            a.id: {(m.player, m.status) for m in await store.alliance_members(a.id)} for a in (first, second, third)
        }
        assert members[first.id] == {("u1", "member"), ("u2", "member")}
        assert members[second.id] == {("u3", "member"), ("u4", "invited")}
        assert members[third.id] == {("u1", "left"), ("u3", "declined")}
        assert first.name is None
    finally:
        await store.close()


async def test_members_are_invited_answer_once_and_lapse_by_time(store: Storage) -> None:
    race_id = await running_race(store)
    alliance_id = await store.create_alliance(race_id, "Breakaway", "u1", "u2", 1000.0)
    alliance = await store.alliance(alliance_id)
    assert alliance is not None and (alliance.name, alliance.status) == ("Breakaway", "proposed")
    assert await store.invite_member(alliance_id, "u3", "u1", 2000.0)
    assert not await store.invite_member(alliance_id, "u3", "u1", 2001.0)  # already invited
    assert not await store.invite_member(alliance_id, "u1", "u2", 2001.0)  # already a member
    assert await store.set_member(alliance_id, "u2", "member", expect="invited", now=3000.0)
    assert not await store.set_member(alliance_id, "u2", "declined", expect="invited", now=3001.0)
    assert [m.player for m in await store.invitations_before(2500.0)] == ["u3"]
    assert await store.invitations_before(1500.0) == []
    assert await store.set_member(alliance_id, "u3", "lapsed", expect="invited", now=4000.0)
    assert await store.invite_member(alliance_id, "u3", "u2", 5000.0)  # asked again after the lapse
    again = next(m for m in await store.alliance_members(alliance_id) if m.player == "u3")
    assert (again.status, again.invited_by, again.since) == ("invited", "u2", 5000.0)


async def test_a_pact_is_accepted_made_and_ended_from_the_expected_status(store: Storage) -> None:
    race_id = await running_race(store)
    alliance_id = await store.create_alliance(race_id, "", "u1", "u2", 1.0)
    pact_id = await store.add_pact(alliance_id, "no-chase", "u1", "u2", ("turn", 12), False, ["u1", "u2", "u3"], 2.0)
    pact = await store.pact(pact_id)
    assert pact is not None
    assert (pact.kind, pact.ally, pact.until_unit, pact.until_value, pact.public) == (
        "no-chase",
        "u2",
        "turn",
        12,
        False,
    )
    assert (pact.status, pact.accepted, pact.members, pact.made_at) == ("proposed", ["u1"], ["u1", "u2", "u3"], None)
    assert await store.set_pact(pact_id, expect="proposed", accepted=["u1", "u2"])
    assert await store.set_pact(pact_id, expect="proposed", status="active", made_at=7)
    assert not await store.set_pact(pact_id, expect="proposed", status="declined")
    assert await store.set_pact(pact_id, expect="active", status="ended", ended_at=9)
    public = await store.add_pact(alliance_id, "relay", "u2", None, ("end", None), True, ["u1", "u2"], 3.0)
    assert [(p.id, p.status, p.ended_at, p.public) for p in await store.pacts(alliance_id)] == [
        (pact_id, "ended", 9, False),
        (public, "proposed", None, True),
    ]
    assert await store.pact(public + 10) is None
