"""The storage suite, run on both backends (an SQLite file, a real PostgreSQL database).

Races, actions, snapshots, leagues, members, stages, alliances, migrations and the
optimistic version check: every promise of the ``Storage`` protocol, on each backend.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator

import pytest

from bot.shards import Shards
from bot.storage import ChannelBusy, Member, NameTaken, NewerSchema, Storage, StoredAction
from bot.storage.url import is_postgres, sqlite_path, storage_for

SNOWFLAKE = 1_180_000_000_000_000_000  # Discord ids need 64 bits
LOBBY = {"track": "leader1/first-race", "timer": 60, "seats": []}


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Storage]:
    storage = storage_for(database_url)
    await storage.open()
    yield storage
    await storage.close()


async def running_race(store: Storage, channel: int = 10, guild: int = 1) -> int:
    race = await store.create_race(guild, channel, 7, "leader1", LOBBY)
    assert await store.start(race.id, race.version, {"game": "leader1"}, 100.0)
    return race.id


async def test_opening_migrates_to_the_latest_schema_and_again_does_nothing(store: Storage, database_url: str) -> None:
    from bot.storage.schema import MIGRATIONS

    assert await store.schema_version() == len(MIGRATIONS)
    await store.create_race(1, 10, 7, "leader1", LOBBY)
    again = storage_for(database_url)
    await again.open()  # a second process starting on the same database
    try:
        assert await again.schema_version() == len(MIGRATIONS)
        assert (await again.active_race(10)) is not None
    finally:
        await again.close()


async def test_a_newer_schema_is_refused_on_open(store: Storage, database_url: str) -> None:
    await store.close()
    if is_postgres(database_url):
        import asyncpg

        conn = await asyncpg.connect(database_url)
        await conn.execute("INSERT INTO schema_version VALUES (999)")
        await conn.close()
    else:
        with sqlite3.connect(sqlite_path(database_url)) as conn:
            conn.execute("INSERT INTO schema_version VALUES (999)")
    with pytest.raises(NewerSchema, match="schema 999"):
        await storage_for(database_url).open()


async def test_a_race_keeps_its_lobby_ids_and_one_active_race_per_channel(store: Storage) -> None:
    race = await store.create_race(SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2, "leader1", LOBBY)
    assert (race.guild_id, race.channel_id, race.host_id) == (SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2)
    assert race.status == "lobby" and race.version == 0 and race.lobby == LOBBY and race.envelope is None
    with pytest.raises(ChannelBusy):
        await store.create_race(SNOWFLAKE, SNOWFLAKE + 1, 3, "leader1", LOBBY)
    assert (await store.active_race(SNOWFLAKE + 1)) == race
    assert await store.set_status(race.id, 0, "aborted")
    assert await store.active_race(SNOWFLAKE + 1) is None
    second = await store.create_race(SNOWFLAKE, SNOWFLAKE + 1, 3, "leader1", LOBBY)  # the channel is free again
    assert (await store.latest_race(SNOWFLAKE + 1)) == second and second.id > race.id
    assert (await store.race(race.id)).status == "aborted"  # type: ignore[union-attr]
    assert await store.race(second.id + 100) is None


async def test_the_lobby_message_is_kept_without_a_new_version(store: Storage) -> None:
    """The message showing a lobby (a draft becomes it) is bookkeeping: the menus shown at this
    version stay good, and a stale version is refused."""
    race_id = await running_race(store)
    race = await store.race(race_id)
    assert race is not None
    assert await store.keep_lobby(race_id, race.version, {**race.lobby, "message": SNOWFLAKE})
    assert not await store.keep_lobby(race_id, race.version + 1, {**race.lobby, "message": 1})
    fresh = await store.race(race_id)
    assert fresh is not None and fresh.version == race.version and fresh.lobby["message"] == SNOWFLAKE
    assert fresh.deadline == race.deadline and fresh.status == "running"


async def test_every_change_checks_the_version_it_started_from(store: Storage) -> None:
    race = await store.create_race(1, 10, 7, "leader1", LOBBY)
    assert await store.update_lobby(race.id, 0, {**LOBBY, "title": "Sunday"})
    assert not await store.update_lobby(race.id, 0, {**LOBBY, "title": "stale"})
    assert not await store.start(race.id, 0, {"game": "leader1"}, 50.0)
    assert await store.start(race.id, 1, {"game": "leader1"}, 50.0)
    one = [StoredAction(0, "u1 pass", 5, False)]
    assert not await store.append_actions(race.id, 1, one, 60.0, False)
    assert await store.append_actions(race.id, 2, one, 60.0, False)
    assert not await store.append_actions(race.id, 2, one, 60.0, False)
    assert not await store.truncate(race.id, 2, 0, None)
    assert not await store.set_status(race.id, 2, "aborted")
    fresh = await store.race(race.id)
    assert fresh is not None
    assert (fresh.version, fresh.lobby["title"], fresh.deadline) == (3, "Sunday", 60.0)
    assert fresh.envelope == {"game": "leader1"}
    assert [a.text for a in fresh.actions] == ["u1 pass"]


async def test_actions_append_in_order_with_who_decided_and_truncate(store: Storage) -> None:
    race_id = await running_race(store)
    actions = [
        StoredAction(0, "u1 pass", SNOWFLAKE, False),
        StoredAction(1, "ai ride rider=x to=3.1", None, True),
        StoredAction(2, "u2 pass", 9, False),
    ]
    assert await store.append_actions(race_id, 1, actions[:2], 70.0, False, lobby={**LOBBY, "away": ["u2"]})
    assert await store.append_actions(race_id, 2, actions[2:], None, True)
    race = await store.race(race_id)
    assert race is not None
    assert race.actions == actions and race.status == "finished" and race.deadline is None
    assert race.lobby["away"] == ["u2"]
    assert await store.active_race(10) is None
    await store.save_snapshot(race_id, 3, b"state")
    assert await store.truncate(race_id, 3, 1, 80.0)  # undo back to one decision: running again, snapshot gone
    race = await store.race(race_id)
    assert race is not None
    assert race.actions == actions[:1] and race.status == "running" and race.deadline == 80.0
    assert await store.snapshot(race_id) is None


async def test_a_reminder_is_marked_once_and_a_decision_clears_it(store: Storage) -> None:
    race_id = await running_race(store)
    assert await store.set_reminded(race_id, 1)
    assert not await store.set_reminded(race_id, 1)  # a second process (or pass) does not remind again
    assert (await store.race(race_id)).reminded  # type: ignore[union-attr]
    assert await store.append_actions(race_id, 1, [StoredAction(0, "u1 pass", 1, False)], 90.0, False)
    assert not (await store.race(race_id)).reminded  # type: ignore[union-attr]


async def test_snapshots_keep_the_newest_version_only(store: Storage) -> None:
    race_id = await running_race(store)
    assert await store.snapshot(race_id) is None
    await store.save_snapshot(race_id, 3, b"\x00three\xff")
    await store.save_snapshot(race_id, 2, b"two")  # an older one arriving late is ignored
    assert await store.snapshot(race_id) == (3, b"\x00three\xff")
    await store.save_snapshot(race_id, 4, b"four")
    assert await store.snapshot(race_id) == (4, b"four")
    await store.drop_snapshot(race_id)
    assert await store.snapshot(race_id) is None


async def test_running_races_of_some_shards_only(store: Storage) -> None:
    shards = Shards.parse("0-1/4")
    guilds = [(n << 22) + SNOWFLAKE // (1 << 22) * (1 << 22) for n in range(8)]
    for n, guild in enumerate(guilds):
        await running_race(store, channel=100 + n, guild=guild)
    owned = await store.running_races(shards)
    assert sorted(r.guild_id for r in owned) == sorted(g for g in guilds if shards.owns(g))
    assert {shards.shard_of(r.guild_id) for r in owned} == {0, 1}
    assert len(await store.running_races()) == len(guilds)
    assert len(await store.running_races(Shards.parse("0-3/4"))) == len(guilds)


async def test_two_connections_appending_at_the_same_version_commit_once(store: Storage, database_url: str) -> None:
    race_id = await running_race(store)
    others = [storage_for(database_url) for _ in range(3)]
    for other in others:
        await other.open()
    try:
        results = await asyncio.gather(
            *(
                s.append_actions(race_id, 1, [StoredAction(0, f"u{n} pass", n, False)], None, False)
                for n, s in enumerate([store, *others])
            ),
            return_exceptions=True,
        )
        assert sum(r is True for r in results) == 1, results
        race = await store.race(race_id)
        assert race is not None and race.version == 2 and len(race.actions) == 1
        winner = next(n for n, r in enumerate(results) if r is True)
        assert race.actions[0].text == f"u{winner} pass"
    finally:
        for other in others:
            await other.close()


async def test_many_tasks_of_one_process_share_the_storage(store: Storage) -> None:
    ids = await asyncio.gather(*(running_race(store, channel=500 + n) for n in range(20)))
    assert len(set(ids)) == 20
    done = await asyncio.gather(
        *(store.append_actions(i, 1, [StoredAction(0, "u1 pass", 1, False)], None, False) for i in ids)
    )
    assert all(done)


async def test_leagues_members_and_names(store: Storage) -> None:
    league_id = await store.create_league(SNOWFLAKE, 5, "Spring", "leader1", SNOWFLAKE + 9, {"timer": 3600})
    with pytest.raises(NameTaken):
        await store.create_league(SNOWFLAKE, 6, "Spring", "leader1", 1, {})
    other = await store.create_league(2, 6, "Spring", "leader1", 1, {})  # the same name in another server
    assert [lg.id for lg in await store.leagues(SNOWFLAKE)] == [league_id]
    assert [lg.id for lg in await store.leagues()] == [league_id, other]
    league = await store.league(league_id)
    assert league is not None
    assert (league.name, league.channel_id, league.settings, league.status) == (
        "Spring",
        SNOWFLAKE + 9,
        {"timer": 3600},
        "entries",
    )
    await store.set_league_status(league_id, "finished")
    assert (await store.league(league_id)).status == "finished"  # type: ignore[union-attr]
    for name in ("zoe", "adam", "mia"):
        await store.add_member(league_id, Member(f"p-{name}", SNOWFLAKE, name, "red", ["rouleur"], False))
    await store.remove_member(league_id, "p-adam")
    members = await store.members(league_id)
    assert [m.name for m in members] == ["zoe", "adam", "mia"]  # joining order
    assert [m.removed for m in members] == [False, True, False]
    assert members[0].kinds == ["rouleur"] and members[0].user_id == SNOWFLAKE


async def test_stages_are_claimed_and_finished_once(store: Storage) -> None:
    league_id = await store.create_league(1, 5, "Summer", "leader1", 9, {})
    await store.schedule(league_id, [(1, "leader1/flatlands", 1000.5), (2, "leader1/grand-tour", 2000.25)])
    assert (await store.league(league_id)).status == "scheduled"  # type: ignore[union-attr]
    stages = await store.stages(league_id)
    assert [(s.number, s.track, s.due, s.status) for s in stages] == [
        (1, "leader1/flatlands", 1000.5, "scheduled"),
        (2, "leader1/grand-tour", 2000.25, "scheduled"),
    ]
    claims = await asyncio.gather(*(store.claim_stage(league_id, 1) for _ in range(4)))
    assert claims.count(True) == 1
    assert await store.league_race(league_id, 1) is None
    race_id = (await store.create_race(1, SNOWFLAKE, 7, "leader1", LOBBY, league=(league_id, 1))).id  # linked as made
    await store.stage_opened(league_id, 1, race_id, SNOWFLAKE)
    linked = await store.league_race(league_id, 1)
    assert linked is not None and (linked.id, linked.league_id, linked.stage) == (race_id, league_id, 1)
    first = (await store.stages(league_id))[0]
    assert (first.status, first.race_id, first.channel_id) == ("running", race_id, SNOWFLAKE)
    assert await store.stage_finished(league_id, 1, {"lines": ["done"], "gc": []})
    assert not await store.stage_finished(league_id, 1, {"lines": ["twice"], "gc": []})
    assert (await store.stages(league_id))[0].result == {"lines": ["done"], "gc": []}


async def test_alliances_change_only_from_the_expected_status(store: Storage) -> None:
    race_id = await running_race(store)
    first = await store.propose_alliance(race_id, "u1", "u2")
    second = await store.propose_alliance(race_id, "u3", "u1")
    assert second > first
    assert not await store.set_alliance(first, "active", expect="active")
    assert await store.set_alliance(first, "active", expect="proposed", thread_id=SNOWFLAKE)
    alliance = await store.alliance(first)
    assert alliance is not None and (alliance.status, alliance.thread_id) == ("active", SNOWFLAKE)
    assert [a.id for a in await store.alliances(race_id)] == [first, second]
    assert await store.alliance(second + 50) is None


async def test_both_schemas_have_the_same_tables_and_columns(tmp_path, pg_url: str) -> None:
    """A migration added to one backend and not the other fails here (``bot/storage/postgres.py``)."""
    import asyncpg

    sqlite_store = storage_for(str(tmp_path / "schema.db"))
    await sqlite_store.open()
    await sqlite_store.close()
    pg_store = storage_for(pg_url)
    await pg_store.open()
    await pg_store.close()
    with sqlite3.connect(tmp_path / "schema.db") as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        tables.remove("sqlite_sequence")
        lite = {(t, row[1]) for t in tables for row in conn.execute(f"PRAGMA table_info({t})")}
    conn2 = await asyncpg.connect(pg_url)
    try:
        rows = await conn2.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        )
    finally:
        await conn2.close()
    pg = {(r[0], r[1]) for r in rows} - {("league_members", "rowid")}  # SQLite's rowid, made a column
    assert pg == lite


async def test_the_sql_helpers_behave_the_same_on_both(store: Storage) -> None:
    """What a new storage method may use, on either database: a statement written once with ``{}``
    parameters; the new row's id by ``RETURNING id``; a run's count of changed rows; one statement for
    many rows; rows read back; a unique key broken is ``ConstraintFailed``."""
    from bot.storage import ConstraintFailed
    from bot.storage.sql import SqlStorage

    assert isinstance(store, SqlStorage)
    insert = "INSERT INTO alliances (race_id, proposer, partner, status, created) VALUES ({}, {}, {}, 'proposed', 0.5)"
    race_id = await running_race(store)
    db = store.db
    async with db.guard:
        first = int((await db.fetch(insert + " RETURNING id", (race_id, "u1", "u2")))[0][0])
        await db.run_many(insert, [(race_id, "u3", "u4"), (race_id, "u5", "u6")])
        assert await db.run("UPDATE alliances SET status = 'ended' WHERE id > {}", (first,)) == 2
        rows = await db.fetch("SELECT proposer FROM alliances ORDER BY id")
        await db.run("INSERT INTO people (guild_id, user_id, notify) VALUES ({}, {}, 'dm')", (1, 2))
        with pytest.raises(ConstraintFailed):
            await db.run("INSERT INTO people (guild_id, user_id, notify) VALUES ({}, {}, 'dm')", (1, 2))
    assert first > 0 and [r[0] for r in rows] == ["u1", "u3", "u5"]


async def test_a_channels_live_prompt_is_kept_replaced_and_dropped(store: Storage) -> None:
    assert await store.live_prompt(7) is None
    await store.keep_live_prompt(7, 100, "ride your yellow rouleur")
    await store.keep_live_prompt(7, 101, "ride your blue leader")  # the next prompt replaces it
    await store.keep_live_prompt(8, 200, "another channel")
    assert await store.live_prompt(7) == (101, "ride your blue leader")
    await store.drop_live_prompt(7, 100)  # an older message answered: the live one stays
    assert await store.live_prompt(7) == (101, "ride your blue leader")
    await store.drop_live_prompt(7, 101)
    assert await store.live_prompt(7) is None
    await store.drop_live_prompt(8)
    assert await store.live_prompt(8) is None
