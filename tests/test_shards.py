"""Which process owns a server: shard ranges, and timers that follow a server to its new owner."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.service.races import RaceService
from bot.shards import BadShards, Shards
from bot.storage.url import storage_for
from rules.registry import find_game


def guild_on(shard: int, count: int) -> int:
    """A Discord server id (a snowflake) that lands on ``shard`` of ``count``."""
    return ((281_000_000_000 * count + shard) << 22) + 12_345


def test_shard_ranges_and_discords_formula() -> None:
    assert Shards.parse("0-3/8") == Shards((0, 1, 2, 3), 8)
    assert Shards.parse("5/8") == Shards((5,), 8)
    assert Shards.parse(" 0,2-3,6 / 8") == Shards((0, 2, 3, 6), 8)
    shards = Shards.parse("0-3/8")
    assert [shards.owns(guild_on(n, 8)) for n in range(8)] == [True] * 4 + [False] * 4
    assert Shards.parse("0-7/8").all and Shards.everything().owns(guild_on(5, 8))
    for bad in ("0-3", "8/8", "a/8", "0-3/0", "1-x/4", ""):
        with pytest.raises(BadShards):
            Shards.parse(bad)


def test_bad_shards_fail_domestique_run_in_one_line(tmp_path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "x", "DOMESTIQUE_SHARDS": "4-9/8", "DOMESTIQUE_DB": str(tmp_path / "d.db")}
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "run"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip() == "domestique run: DOMESTIQUE_SHARDS='4-9/8': shard ids run from 0 to 7"


async def test_a_server_keeps_its_race_and_deadline_when_it_moves_to_another_process(database_url: str) -> None:
    class Clock:
        t = 1_000_000.0

        def __call__(self) -> float:
            return self.t

    clock = Clock()
    storage = storage_for(database_url)
    await storage.open()
    try:
        guild = guild_on(3, 4)  # shard 3 of 4, so shard 1 of 2
        assert Shards((1,), 2).owns(guild) and not Shards((0,), 2).owns(guild)
        before = RaceService(storage, now=clock, render=False, shards=Shards.parse("1/2"))
        await before.lobby.new_race(
            guild, 10, 101, "Ann", game="leader1", track="first-race", seed=5, timer=60, pieces=1
        )
        await before.lobby.join(10, 102, "Bob", "blue")
        await before.lobby.start(10, 101)
        race = await storage.active_race(10)
        assert race is not None
        # the cluster grows to four shards: this server now belongs to the process of shards 2-3
        others = [RaceService(storage, now=clock, render=False, shards=Shards.parse(s)) for s in ("0-1/4", "2-3/4")]
        assert await others[0].timers.next_deadline() is None
        assert await others[1].timers.next_deadline() == race.deadline - 30  # the reminder, at half time
        clock.t += 61
        assert await others[0].timers.tick() == []
        fired = await others[1].timers.tick()
        assert [channel for channel, _ in fired] == [10] and "Time ran out" in fired[0][1].posts[0].text
        # a button made before the move still works, in whichever process receives the click
        race = await storage.active_race(10)
        assert race is not None and race.actions[-1].automatic
        state = await others[0].core.state_of(race)
        decision = find_game("leader1").rules.pending(state)
        user = 101 if decision.player == "u101" else 102
        await others[0].core.decide(race.id, race.version, user, 0)
        assert (await storage.active_race(10)).version == race.version + 1  # type: ignore[union-attr]
    finally:
        await storage.close()


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://bot@db/domestique", "domestique run: mysql:// is not a database Domestique knows"),
        (
            "postgresql://bot:secret-pw@/nothing?host=/nonexistent&port=1",
            "domestique run: cannot open the database postgresql://bot:***@/nothing",
        ),
    ],
)
def test_a_database_url_that_cannot_be_used_fails_domestique_run_in_one_line(tmp_path, url: str, said: str) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "x", "DATABASE_URL": url}
    env.pop("DOMESTIQUE_SHARDS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "secret-pw" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(said)


def test_the_bot_connects_only_its_shards(tmp_path) -> None:
    import discord

    from bot.discord_layer.app import make_bot

    bot = make_bot(str(tmp_path / "d.db"), shards=Shards.parse("0-3/8"))
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == ([0, 1, 2, 3], 8)
    assert bot.service.core.shards == Shards((0, 1, 2, 3), 8)
    single = make_bot(str(tmp_path / "d.db"))
    assert not isinstance(single, discord.AutoShardedClient) and single.service.core.shards.all
