"""The real ``domestique run`` against a loopback Discord that fails as Discord does (issue 43): rate limits,
dropped and closed gateway connections, refused and duplicated posts, moderators deleting things, late
interactions. Each test plays through interactions only and reads the channel as a player sees it
(tests/support/loopback_discord/, docs/testing-discord.md)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.support.loopback_discord import BotProcess, Channel, Guild, LoopbackDiscord, User
from tests.support.loopback_discord.players import new_interaction
from tests.support.loopback_discord.process import TOKEN
from tests.support.loopback_discord.race import (
    answer,
    boards,
    doubled,
    finished,
    is_finish,
    live_prompts,
    newer_prompt,
    open_race_with_ai,
    play_to_finish,
    wait_prompt,
)
from tests.support.loopback_discord.run_bot import READY, RESUMED

pytestmark = [
    pytest.mark.timeout(120),
    # aiohttp's own multipart reader, in the fake's server, on some chunk boundaries
    pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning"),
]


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


@contextlib.asynccontextmanager
async def running(server: Server, tmp_path: Path, **options: Any) -> AsyncIterator[BotProcess]:
    """The bot process on a fresh SQLite file, its log printed (a failing test shows it) and checked."""
    process = BotProcess(server.fake, tmp_path / "loopback.db", **options)
    try:
        async with process:
            yield process
    finally:
        print(process.log)
        assert TOKEN not in process.log


@pytest.fixture
async def bot(server: Server, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with running(server, tmp_path) as process:
        yield process


@pytest.fixture
async def timed_bot(server: Server, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot with turn timers in seconds (``timer:6sec``)."""
    async with running(server, tmp_path, second_timers=True) as process:
        yield process


def no_trouble(bot: BotProcess, fake: LoopbackDiscord) -> None:
    assert not fake.unknown_routes, fake.unknown_routes
    assert bot.tracebacks() == 0, bot.log
    assert "never awaited" not in bot.log and "never retrieved" not in bot.log, bot.log


async def test_the_real_process_plays_a_race_to_the_finish_through_interactions(
    server: Server, bot: BotProcess
) -> None:
    fake, channel, alice, bob = server.fake, server.channel, server.alice, server.bob
    assert {"race", "play"} <= set(fake.world.commands)  # synced at start-up
    created = await fake.slash(alice, channel, "race new", game="leader1", pieces=1)
    lobby = created.messages[0]
    colours = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("dq:lc:"))
    await fake.select(bob, lobby, ["blue"], custom_id=str(colours["custom_id"]))  # bob picks a colour
    await fake.click(alice, lobby, label="Add AI player")
    assert bob.mention in lobby.content and "AI" in lobby.content and lobby.edits >= 2  # one message, edited
    started = await fake.slash(alice, channel, "race start")
    assert started.ephemeral
    made = await play_to_finish(fake, channel, [alice, bob], timeout=60)
    assert made >= 3
    shown = fake.channel_messages(channel)
    assert finished(fake, channel)
    assert len(boards(fake, channel)) >= 5  # the boards of the turns
    assert all(b.attachments[0].data.startswith(b"\x89PNG") for b in boards(fake, channel))
    assert all(b.attachments[0].description for b in boards(fake, channel))  # described for a screen reader
    assert not live_prompts(fake, channel)  # every prompt answered or retired: nothing left to click
    assert all(any(user.id in m.mentions() for m in shown) for user in (alice, bob))  # both asked by name
    assert await bot.stop() == 0
    no_trouble(bot, fake)
    assert bot.errors() == []


POSTS = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"


async def test_rate_limits_during_play_lose_nothing_and_double_nothing(server: Server, bot: BotProcess) -> None:
    fake, channel = server.fake, server.channel
    await open_race_with_ai(fake, server.alice, channel, ais=1)
    posts = "/channels/{channel_id}/messages"
    faults = [
        fake.rate_limit("POST", posts, retry_after=0.4, is_global=True),
        fake.rate_limit("POST", posts, retry_after=0.2, times=3),
        fake.rate_limit("PATCH", "/webhooks/{app}/{token}/messages/{message_id}", retry_after=0.2, times=3),
        fake.rate_limit("POST", "/interactions/{interaction_id}/{token}/callback", retry_after=0.2, times=2),
    ]
    made = await play_to_finish(fake, channel, [server.alice], timeout=60)
    assert made >= 3 and finished(fake, channel)
    assert [f.hits for f in faults] == [1, 3, 3, 2]  # every limit was met...
    limited = sum(n for (route, status), n in fake.counts.items() if status == 429)
    assert limited == 9
    assert not doubled(fake, channel)  # ...and waited out: each request sent again once, nothing twice
    assert not live_prompts(fake, channel)
    assert sum(is_finish(m) for m in fake.channel_messages(channel)) == 1
    await bot.stop()
    no_trouble(bot, fake)
    assert bot.count("Global rate limit has been hit") == 1


async def test_the_race_goes_on_after_every_kind_of_gateway_drop(server: Server, bot: BotProcess) -> None:
    fake, channel, gateway = server.fake, server.channel, server.fake.gateway
    await open_race_with_ai(fake, server.alice, channel, ais=1)
    drops = [
        lambda: gateway.close(4000),  # unknown error: resumable
        lambda: gateway.close(1001),  # going away: resumable
        lambda: gateway.close(4009),  # session timed out: the RESUME is refused, the bot identifies anew
        gateway.reconnect,  # op 7
        lambda: gateway.invalidate(resumable=False),  # op 9
        gateway.drop,  # the TCP connection just ends
    ]
    done: list[int] = []

    async def drop_one(made: int) -> None:
        if made % 2 or not drops:
            return
        back = bot.count(READY) + bot.count(RESUMED)
        await drops.pop(0)()
        await bot.wait_resumed(back)
        done.append(made)

    made = await play_to_finish(fake, channel, [server.alice], timeout=90, after_each=drop_one)
    assert not drops, f"the race finished after {made} decisions, before every drop was tried"
    assert finished(fake, channel) and not live_prompts(fake, channel)
    assert not doubled(fake, channel)
    assert gateway.resumes == 4  # after 4000, 1001, op 7 and the dropped connection
    assert gateway.refused_resumes == 1  # after 4009: the session was over
    assert gateway.identifies == 3  # the first, after 4009, after op 9
    await bot.stop()
    no_trouble(bot, fake)


async def test_a_post_stored_but_answered_502_is_shown_once(server: Server, bot: BotProcess) -> None:
    """discord.py sends a 502'd post again; its nonce (``enforce_nonce``, which discord.py 2.7 puts on
    every ``channel.send``) makes Discord answer the second send with the first message: nothing doubled."""
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    stored = fake.store_then_fail("POST", POSTS, 502, where={"channel_id": str(channel.id)})
    await answer(fake, alice, prompt)
    await fake.wait_for(lambda: stored.hits, timeout=15, what="the post stored and answered 502")
    failed_at = next(i for i, r in enumerate(fake.requests) if r.status == 502)
    await fake.wait_for(  # discord.py sends a 502'd request again (after a second)
        lambda: any(r.route == f"POST {POSTS}" and r.status == 200 for r in fake.requests[failed_at:]),
        timeout=15,
        what="the post sent again",
    )
    await wait_prompt(fake, channel, alice, after=prompt.id, timeout=20)
    assert not doubled(fake, channel), doubled(fake, channel)
    assert len(live_prompts(fake, channel)) == 1


# -- issue 43's cases: each failed before its fix (45f4924) for the reason its docstring gives -------------


async def test_a_refused_post_stops_neither_its_channel_nor_other_races_timers(
    server: Server, timed_bot: BotProcess
) -> None:
    """Before: the refused post kept the channel's lock, and the timer pass waited on it for ever."""
    fake, first, alice, bob = server.fake, server.channel, server.alice, server.bob
    second = await fake.create_channel(server.guild, "other-race")
    await open_race_with_ai(fake, alice, first, ais=1, timer="6sec")
    prompt = await wait_prompt(fake, first, alice, timeout=15)
    refused = fake.fail("POST", POSTS, 503, where={"channel_id": str(first.id)})
    await answer(fake, alice, prompt, wait="ack")
    await fake.wait_for(lambda: refused.hits, timeout=15, what="the post refused")
    await open_race_with_ai(fake, bob, second, ais=1, timer="6sec")
    bobs = await wait_prompt(fake, second, bob, timeout=15)
    # bob does nothing: his reminder (at 3 s) and the AI's decision for him (at 6 s) come from the timers
    await fake.wait_for(
        lambda: any(bob.id in m.mentions() and m.id > bobs.id for m in fake.channel_messages(second)),
        timeout=20,
        what="bob's reminder or next prompt from the timers in the other channel",
    )
    # and the first channel shows what alice's click did once Discord takes posts again
    await wait_prompt(fake, first, alice, after=prompt.id, timeout=20)


async def test_a_saved_move_is_never_answered_nothing_was_changed(server: Server, bot: BotProcess) -> None:
    """Before: the typed move was saved, its post refused, and the answer said "Nothing was changed"."""
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    choices = await fake.autocomplete(alice, channel, "play move", "choice", "")
    assert choices, "no legal choice offered"
    refused = fake.fail("POST", POSTS, 503, where={"channel_id": str(channel.id)})
    typed = await fake.slash(alice, channel, "play move", choice=choices[-1]["value"])
    # whichever comes first: an answer that says nothing was done, or the move shown once Discord recovers
    await fake.wait_for(
        lambda: "Nothing was changed" in typed.text or newer_prompt(fake, channel, alice, after=prompt.id),
        timeout=20,
        what="the typed move's outcome",
    )
    assert refused.hits == 1
    assert "Nothing was changed" not in typed.text, typed.text


async def test_a_click_on_a_deleted_prompt_is_shown_and_play_goes_on(server: Server, bot: BotProcess) -> None:
    """Before: the click was saved, retiring the deleted prompt raised 404, and nothing more was shown."""
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    # the click and the moderator's delete cross: Discord delivers the click, the message is gone
    clicked = answer(fake, alice, prompt, wait="ack")
    await fake.delete_message(prompt)
    await clicked
    await wait_prompt(fake, channel, alice, after=prompt.id, timeout=15)


async def test_a_late_interaction_is_one_log_line_not_a_task_exception(server: Server, bot: BotProcess) -> None:
    """Before: the error handler's own answer failed too ("Task exception was never retrieved")."""
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    late = await fake.slash(alice, channel, "race status", late=4.0, wait="none")
    await fake.wait_for(lambda: fake.requests_to("POST", CALLBACK, 404), timeout=15, what="the late answer refused")
    on_time = await fake.slash(alice, channel, "race status")  # the bot has gone on past the late one
    assert on_time.answered and not late.acknowledged
    await bot.stop()  # every task ended and reported
    assert "never retrieved" not in bot.log, bot.log
    assert bot.tracebacks() == 0, bot.log


async def test_a_prompt_a_moderator_deletes_is_posted_again(server: Server, bot: BotProcess) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    await fake.delete_message(prompt)  # MESSAGE_DELETE
    again = await wait_prompt(fake, channel, alice, after=prompt.id, timeout=15)
    assert [b.get("label") for b in again.buttons()] == [b.get("label") for b in prompt.buttons()]
    await answer(fake, alice, again)  # and it answers
    await fake.wait_for(
        lambda: newer_prompt(fake, channel, alice, after=again.id) or finished(fake, channel),
        timeout=15,
        what="the race going on after the prompt posted again",
    )
    await bot.stop()
    no_trouble(bot, fake)


async def test_a_permission_taken_away_is_told_privately_and_once_and_the_race_waits(
    server: Server, database_url: str
) -> None:
    async with BotProcess(server.fake, database_url) as bot:
        await permission_taken_away_and_given_back(server)
    no_trouble(bot, server.fake)


async def permission_taken_away_and_given_back(server: Server) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    revoked = fake.fail("POST", POSTS, 403, 50013, times=None, where={"channel_id": str(channel.id)})
    clicked = await answer(fake, alice, prompt)
    await fake.wait_for(lambda: "may not post in this channel" in clicked.text, timeout=15, what="her private answer")
    assert all(m.ephemeral for m in clicked.messages if "may not post" in m.content)
    await fake.wait_for(lambda: any("permission" in m.content for m in fake.dms(alice)), timeout=15, what="a DM")
    refused_so_far = revoked.hits
    fake.clear_faults()  # a moderator gives the permission back; the kept posts go out on the next try
    await wait_prompt(fake, channel, alice, after=prompt.id, timeout=30)
    assert refused_so_far >= 1
    assert sum("permission" in m.content for m in fake.dms(alice)) == 1  # the host is told once
    assert not doubled(fake, channel) and len(live_prompts(fake, channel)) == 1


async def test_a_click_whose_token_died_after_its_acknowledgement_still_shows_the_race(
    server: Server, bot: BotProcess
) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    dead = fake.fail("PATCH", "/webhooks/{app}/{token}/messages/{message_id}", 401, 50027, times=None)
    await answer(fake, alice, prompt, wait="ack")
    await wait_prompt(fake, channel, alice, after=prompt.id, timeout=15)
    assert dead.hits >= 1
    assert not prompt.buttons() and prompt.content.startswith(prompt.history[0][0])  # retired in the channel
    assert not doubled(fake, channel) and len(live_prompts(fake, channel)) == 1
    await bot.stop()
    no_trouble(bot, fake)


async def test_a_click_delivered_twice_is_applied_once(server: Server, bot: BotProcess) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    twice = await answer(fake, alice, prompt, twice=True)
    await wait_prompt(fake, channel, alice, after=prompt.id, timeout=15)
    on_time = await fake.slash(alice, channel, "race status")  # the bot has dealt with both deliveries
    assert twice.answered and on_time.answered
    assert prompt.content.count("✔") == 1  # one decision shown on the prompt it answered
    assert not doubled(fake, channel) and len(live_prompts(fake, channel)) == 1
    await bot.stop()
    no_trouble(bot, fake)


async def test_a_deleted_channel_pauses_its_race_and_its_host_carries_it_on_elsewhere(
    server: Server, bot: BotProcess
) -> None:
    fake, channel, alice, bob = server.fake, server.channel, server.alice, server.bob
    await open_race_with_ai(fake, alice, channel, ais=1)
    await wait_prompt(fake, channel, alice, timeout=15)
    await fake.delete_channel(channel)  # CHANNEL_DELETE
    told = await fake.wait_for(
        lambda: next((m for m in fake.dms(alice) if "/race resume" in m.content), None),
        timeout=15,
        what="the host told by DM how to go on",
    )
    number = re.search(r"/race resume race:(\d+)", told.content)
    assert number is not None, told.content
    elsewhere = await fake.create_channel(server.guild, "race-again")
    refused = await fake.slash(bob, elsewhere, "race resume", race=int(number[1]))
    assert refused.ephemeral and "host" in refused.text
    resumed = await fake.slash(alice, elsewhere, "race resume", race=int(number[1]))
    assert "goes on in this channel" in resumed.text
    await wait_prompt(fake, elsewhere, alice, timeout=15)
    assert boards(fake, elsewhere)  # its board, here
    assert fake.requests_to("POST", POSTS, 200)[-1].params["channel_id"] != str(channel.id)
    await bot.stop()
    no_trouble(bot, fake)


async def test_removed_from_a_server_and_added_back_its_race_shows_its_board_and_a_live_prompt(
    server: Server, bot: BotProcess
) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    await fake.remove_bot(server.guild)  # GUILD_DELETE
    # a moderator adds it back a while later: once the bot has put the race on hold (its log says so)
    await fake.wait_for(lambda: bot.count("removed from server"), timeout=15, what="the removal handled")
    await fake.add_bot_back(server.guild)  # GUILD_CREATE, a join
    again = await wait_prompt(fake, channel, alice, after=prompt.id, timeout=15)
    assert boards(fake, channel)[-1].id > prompt.id
    await answer(fake, alice, again)  # the live prompt answers
    await fake.wait_for(
        lambda: newer_prompt(fake, channel, alice, after=again.id) or finished(fake, channel),
        timeout=15,
        what="the race going on after the bot came back",
    )
    await bot.stop()
    no_trouble(bot, fake)


async def test_posts_refused_before_a_crash_are_shown_after_the_restart(server: Server, database_url: str) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    async with BotProcess(fake, database_url) as bot:
        await open_race_with_ai(fake, alice, channel, ais=1)
        prompt = await wait_prompt(fake, channel, alice, timeout=15)
        fake.fail("POST", POSTS, 503, times=None, where={"channel_id": str(channel.id)})
        clicked = await answer(fake, alice, prompt)
        await fake.wait_for(lambda: "saved" in clicked.text, timeout=15, what="her answer: the decision is saved")
        await bot.kill()  # kill -9: the kept posts are only in the database now
    fake.clear_faults()
    async with BotProcess(fake, database_url) as restarted:
        await wait_prompt(fake, channel, alice, after=prompt.id, timeout=30)
        assert not doubled(fake, channel) and len(live_prompts(fake, channel)) == 1
    no_trouble(restarted, fake)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def health(port: int) -> dict[str, Any]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/health") as response:
        body: dict[str, Any] = await response.json()
        return body


async def test_health_shows_the_outbox_and_discords_failures_as_they_happen(server: Server, tmp_path: Path) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    port = free_port()
    async with BotProcess(fake, tmp_path / "loopback.db", DOMESTIQUE_WEB=f"127.0.0.1:{port}") as bot:
        await open_race_with_ai(fake, alice, channel, ais=1)
        prompt = await wait_prompt(fake, channel, alice, timeout=15)
        seen: dict[str, Any] = {}

        async def poll(wanted: Callable[[dict[str, Any]], bool], what: str, timeout: float = 40) -> None:
            """/health polled every half second, as an operator's monitor would, until it shows ``what``."""
            deadline = time.monotonic() + timeout
            while True:
                seen.update(await health(port))
                if wanted(seen):
                    return
                assert time.monotonic() < deadline, f"/health never showed {what}: {seen}"
                await asyncio.sleep(0.5)

        await poll(lambda h: h.get("ok") is True and h["outbox_depth"] == 0, "a healthy bot")
        fake.fail("POST", POSTS, 503, times=None, where={"channel_id": str(channel.id)})
        await answer(fake, alice, prompt)
        await poll(lambda h: h["outbox_depth"] >= 1, "the refused post kept in the outbox")
        fake.clear_faults()
        await wait_prompt(fake, channel, alice, after=prompt.id, timeout=30)
        await poll(
            lambda h: (
                h["outbox_depth"] == 0
                and h["processes"][0]["discord_errors"].get("discord-error", 0) >= 1
                and h["processes"][0]["posts_retried"] >= 1
            ),
            "the post delivered, the 503 counted and the retry counted",
        )
        assert seen["ok"] is True and seen["processes"][0]["gateway_connected"] is True
    no_trouble(bot, fake)


# -- the loopback Discord itself: it behaves as Discord does where the tests above rely on it -------------


async def test_the_fake_returns_the_first_message_for_a_nonce_it_must_enforce(server: Server) -> None:
    fake, channel = server.fake, server.channel
    url = f"{fake.api_url}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        ids = []
        for body in (
            {"content": "a", "nonce": "n1", "enforce_nonce": True},
            {"content": "a", "nonce": "n1", "enforce_nonce": True},  # sent again: the first message
            {"content": "b", "nonce": "n2"},
            {"content": "b", "nonce": "n2"},  # a nonce Discord need not enforce: a second message
        ):
            async with session.post(url, json=body) as response:
                ids.append((await response.json())["id"])
    assert ids[0] == ids[1] and ids[2] != ids[3]
    assert [m.content for m in fake.channel_messages(channel)] == ["a", "b", "b"]


async def test_the_fake_refuses_late_or_repeated_callbacks_delays_and_names_unknown_routes(server: Server) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    late = new_interaction(fake, 2, alice, channel, {"name": "race"}, 3.5, None)
    fresh = new_interaction(fake, 2, alice, channel, {"name": "race"}, 0.0, None)
    statuses = []
    async with aiohttp.ClientSession() as session:
        for interaction in (late, fresh, fresh):
            url = f"{fake.api_url}/interactions/{interaction.id}/{interaction.token}/callback"
            async with session.post(url, json={"type": 5, "data": {"flags": 64}}) as response:
                statuses.append((response.status, (await response.json()).get("code")))
        async with session.get(f"{fake.api_url}/guilds/{server.guild.id}/audit-logs") as response:
            assert response.status == 404
        fake.slow("GET", "/channels/{channel_id}", 0.3)
        asked = time.monotonic()
        async with session.get(f"{fake.api_url}/channels/{channel.id}") as response:
            assert response.status == 200 and time.monotonic() - asked >= 0.3
    assert statuses == [(404, 10062), (200, None), (400, 40060)]
    assert fake.unknown_routes == [f"GET /guilds/{server.guild.id}/audit-logs"]


async def test_a_bad_evening_on_discord_three_races_in_two_servers_all_finish(tmp_path: Path) -> None:
    """Issue 43's evening: rate limits (one global), a refused post, closed and dropped gateway
    connections, while three races in two servers are played at once through interactions only."""
    async with LoopbackDiscord() as fake:
        club, other = fake.add_guild("Loopback club"), fake.add_guild("Other club", locale="hu")
        tables = [
            (fake.add_channel(club, "race-a"), fake.add_member(club, "alice")),
            (fake.add_channel(club, "race-b"), fake.add_member(club, "bob")),
            (fake.add_channel(other, "verseny"), fake.add_member(other, "carol")),
        ]
        bot = BotProcess(fake, tmp_path / "loopback.db")
        async with contextlib.AsyncExitStack() as stack:
            stack.callback(lambda: print(bot.log))  # shown with a failing test
            await stack.enter_async_context(bot)
            for channel, host in tables:
                await open_race_with_ai(fake, host, channel, ais=1)
            posts = "/channels/{channel_id}/messages"
            fake.rate_limit("POST", posts, retry_after=0.5, is_global=True)
            fake.rate_limit("POST", posts, retry_after=0.2, times=6)
            fake.rate_limit("PATCH", "/webhooks/{app}/{token}/messages/{message_id}", retry_after=0.2, times=4)
            refused = fake.fail("POST", posts, 503, where={"channel_id": str(tables[1][0].id)})
            drops = [lambda: fake.gateway.close(4000), fake.gateway.reconnect, lambda: fake.gateway.close(4009)]

            async def drop_now_and_then(made: int) -> None:
                if made % 3 == 0 and drops:
                    back = bot.count(READY) + bot.count(RESUMED)
                    await drops.pop(0)()
                    await bot.wait_resumed(back)

            played = await asyncio.gather(
                play_to_finish(fake, tables[0][0], [tables[0][1]], timeout=90, after_each=drop_now_and_then),
                play_to_finish(fake, tables[1][0], [tables[1][1]], timeout=90),
                play_to_finish(fake, tables[2][0], [tables[2][1]], timeout=90),
            )
        assert all(made >= 3 for made in played), played
        assert refused.hits == 1 and not drops
        for channel, _host in tables:
            assert finished(fake, channel) and not live_prompts(fake, channel), channel.name
            assert not doubled(fake, channel), channel.name
            assert sum(is_finish(m) for m in fake.channel_messages(channel)) == 1
        no_trouble(bot, fake)


async def test_a_stop_signal_during_a_slow_post_ends_without_a_traceback(server: Server, bot: BotProcess) -> None:
    fake, channel, alice = server.fake, server.channel, server.alice
    await open_race_with_ai(fake, alice, channel, ais=1)
    prompt = await wait_prompt(fake, channel, alice, timeout=15)
    slow = fake.slow("POST", POSTS, 2.0, where={"channel_id": str(channel.id)})
    await answer(fake, alice, prompt)
    await fake.wait_for(lambda: slow.hits, timeout=15, what="the next post on its slow way")
    assert await bot.stop() == 0  # SIGTERM while Discord has not answered yet
    assert bot.tracebacks() == 0, bot.log
