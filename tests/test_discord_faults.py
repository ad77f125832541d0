"""The real ``domestique run`` against a loopback Discord that fails as Discord does (issue 43): rate limits,
dropped and closed gateway connections, refused and duplicated posts, moderators deleting things, late
interactions. Each test plays through interactions only and reads the channel as a player sees it
(tests/support/loopback_discord/, docs/testing-discord.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.loopback_discord import BotProcess, Channel, Guild, LoopbackDiscord, User
from tests.support.loopback_discord.process import TOKEN
from tests.support.loopback_discord.race import boards, finished, live_prompts, open_race_with_ai, play_to_finish

pytestmark = pytest.mark.timeout(120)


@dataclass
class Server:
    fake: LoopbackDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    async with LoopbackDiscord() as fake:
        guild = fake.add_guild("Loopback club")
        channel = fake.add_channel(guild, "race")
        yield Server(fake, guild, channel, fake.add_member(guild, "alice"), fake.add_member(guild, "bob"))


@pytest.fixture
async def bot(server: Server, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(server.fake, tmp_path / "loopback.db")
    await process.start()
    try:
        yield process
    finally:
        await process.stop()
        assert TOKEN not in process.log


def no_trouble(bot: BotProcess, fake: LoopbackDiscord) -> None:
    assert not fake.unknown_routes, fake.unknown_routes
    assert bot.tracebacks() == 0, bot.log
    assert "never awaited" not in bot.log and "never retrieved" not in bot.log, bot.log


async def test_the_real_process_plays_a_race_to_the_finish_through_interactions(
    server: Server, bot: BotProcess
) -> None:
    fake, channel = server.fake, server.channel
    assert {"race", "play"} <= set(fake.world.commands)  # synced at start-up
    await open_race_with_ai(fake, server.alice, channel, ais=2)
    made = await play_to_finish(fake, channel, [server.alice], timeout=60)
    assert made >= 3
    shown = fake.channel_messages(channel)
    assert finished(fake, channel)
    assert len(boards(fake, channel)) >= 5  # the boards of the turns
    assert all(b.attachments[0].data.startswith(b"\x89PNG") for b in boards(fake, channel))
    assert not live_prompts(fake, channel)  # every prompt answered or retired: nothing left to click
    assert sum(server.alice.id in m.mentions() for m in shown) >= made  # each prompt asked her by name
    assert await bot.stop() == 0
    no_trouble(bot, fake)
    assert bot.errors() == []
