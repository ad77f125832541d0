"""Issue 43's tables on both backends: posts owed to channels (kept in order, with their bytes and
nonce, filtered by shard), races that wait (told once, the deadline moved on by the wait), a race
carried on in another channel, each process's health report, and ``/health`` read from them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.shards import Shards
from bot.storage import Storage
from bot.storage.outbox_tables import REFRESH, OwedPost
from bot.storage.url import storage_for
from bot.web.health import health_report

LOBBY = {"track": "leader1/first-race", "timer": 60, "seats": []}
BIG = 1_180_000_000_000_000_000  # Discord ids need 64 bits


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Storage]:
    storage = storage_for(database_url)
    await storage.open()
    yield storage
    await storage.close()


async def test_owed_posts_keep_their_order_bytes_and_nonce(store: Storage) -> None:
    board = bytes(range(256)) * 40
    await store.owe(
        [
            OwedPost(
                BIG + 1, BIG, "first", "n1", race_id=3, version=7, mentions=(BIG + 5,), image=board, image_alt="A board"
            ),
            OwedPost(BIG + 1, BIG, "second", "n2", file_name="recap.gif", file=b"GIF89a"),
            OwedPost(BIG + 2, BIG, "", "n3", kind=REFRESH),
        ],
        now=100.0,
    )
    owed = await store.owed()
    assert [(p.channel_id, p.content, p.nonce) for p in owed] == [
        (BIG + 1, "first", "n1"),
        (BIG + 1, "second", "n2"),
        (BIG + 2, "", "n3"),
    ]
    first = owed[0]
    assert first.image == board and first.mentions == (BIG + 5,) and (first.race_id, first.version) == (3, 7)
    assert first.image_alt == "A board"
    assert owed[1].file == b"GIF89a" and owed[1].file_name == "recap.gif" and owed[1].version is None
    assert owed[2].kind == REFRESH
    assert await store.owed_channels() == {BIG + 1, BIG + 2}
    assert await store.outbox_depth() == 3

    await store.retry_later(first.id, due=160.0, failure="503 0 upstream")
    again = (await store.owed())[0]
    assert (again.attempts, again.due, again.failure) == (1, 160.0, "503 0 upstream")
    await store.delivered(first.id)
    assert [p.content for p in await store.owed()] == ["second", ""]
    assert await store.forget_owed(BIG + 1) == 1
    assert await store.owed_channels() == {BIG + 2}


async def test_owed_posts_are_read_by_the_process_that_owns_their_server(store: Storage) -> None:
    mine, theirs = Shards((0,), 2), Shards((1,), 2)
    guild_0 = next(g for g in range(BIG, BIG + (1 << 24), 1 << 22) if mine.owns(g))
    guild_1 = next(g for g in range(BIG, BIG + (1 << 24), 1 << 22) if theirs.owns(g))
    await store.owe([OwedPost(1, guild_0, "to 0", "a"), OwedPost(2, guild_1, "to 1", "b")], now=1.0)
    assert [p.content for p in await store.owed(mine)] == ["to 0"]
    assert [p.content for p in await store.owed(theirs)] == ["to 1"]


async def test_a_race_waits_once_its_host_is_told_once_and_its_deadline_moves_on(store: Storage) -> None:
    race = await store.create_race(1, 10, 7, "leader1", LOBBY)
    assert await store.start(race.id, race.version, {"game": "leader1"}, 1000.0)

    assert await store.pause(race.id, "forbidden", now=500.0)
    assert not await store.pause(race.id, "channel-gone", now=600.0)  # it waits already
    assert await store.told_of_pause(race.id)
    assert not await store.told_of_pause(race.id)  # the host is told once
    assert list(await store.paused_races()) == [race.id]
    pause = await store.unpause(race.id)
    assert pause is not None and (pause.reason, pause.since, pause.told) == ("forbidden", 500.0, True)
    assert await store.unpause(race.id) is None
    await store.push_deadline(race.id, 250.0)
    moved = await store.race(race.id)
    assert moved is not None and moved.deadline == 1250.0


async def test_a_race_moves_to_another_channel(store: Storage) -> None:
    race = await store.create_race(1, 10, 7, "leader1", LOBBY)
    await store.move_race(race.id, 11)
    assert await store.active_race(10) is None
    moved = await store.active_race(11)
    assert moved is not None and moved.id == race.id


async def test_health_reports_and_the_page_that_reads_them(store: Storage) -> None:
    healthy = {"gateway_connected": True, "timer_loop_running": True, "discord_errors": {"rate-limited": 2}}
    await store.report_health("a:1 (all)", 1000.0, healthy)
    ok, body = await health_report(store, now=1005.0)
    assert ok and body["ok"] and body["database_reachable"] and body["outbox_depth"] == 0
    assert body["processes"][0]["discord_errors"] == {"rate-limited": 2}

    await store.owe([OwedPost(1, 2, "late", "n")], now=1000.0)
    await store.report_health("a:1 (all)", 1010.0, {**healthy, "gateway_connected": False})
    ok, body = await health_report(store, now=1011.0)
    assert not ok and body["outbox_depth"] == 1 and body["problems"] == ["a:1 (all): gateway not connected"]

    ok, body = await health_report(store, now=1200.0)  # no report for over three intervals
    assert not ok and "no report for" in body["problems"][0]
    await store.forget_health("a:1 (all)")
    ok, body = await health_report(store, now=1200.0)
    assert not ok and body["problems"] == ["no bot process has reported"]


async def test_the_health_page_says_the_database_is_unreachable(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unreachable() -> list[object]:
        raise ConnectionRefusedError("the database server is down")

    monkeypatch.setattr(store, "health_reports", unreachable)
    ok, body = await health_report(store)
    assert not ok and body["database_reachable"] is False
    assert body["problems"] == ["database: ConnectionRefusedError"]
