"""Issue 26: a race's page (board now, who acts and until when, standings, the race in words, the
replay, catch-up) and its live updates; links by unguessable tokens that a host turns off or
renews; the links the bot posts; the league page. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.service.common import Refusal
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import storage_for
from bot.web.app import FRESH
from bot.web.links import Links
from tests.support.web_race import CHANNEL, GUEST, HOST, play_race, web_client


async def _decide_once(service, storage) -> None:
    """One more decision in the channel's race, by whoever is to act (the AI's choice)."""
    from rules.registry import find_game

    race = await storage.active_race(CHANNEL)
    game = find_game(race.game)
    state = await service.core.state_of(race)
    decision = game.rules.pending(state)
    choices = game.rules.choices(state, decision.player)
    action = game.ai(state, decision.player)
    index = next(i for i, c in enumerate(choices) if c.action == action and not c.anytime)
    user = HOST if decision.player == f"u{HOST}" else GUEST
    await service.core.decide(race.id, race.version, user, index)


async def test_the_page_shows_the_race_and_a_decision_reaches_it_live(database_url: str) -> None:
    storage = storage_for(database_url)
    await storage.open()
    service = await play_race(storage, "leader1", decisions=6)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    async with web_client(storage) as client:
        page = await (await client.get(f"/r/{token}")).text()
        assert "Hana" in page and "Jo" in page  # the people, by name
        assert f'data-version="{race.version}"' in page and f"/board/{race.version}.png" in page
        assert re.search(r'<p class="waiting"><strong>Now:</strong> .+ Due <time datetime="20', page)
        assert "<h2>Standings</h2>" in page and "The race in words" in page and 'id="replay-turn"' in page
        assert '<a href="https://discord.com/channels/' in page
        board = await client.get(f"/r/{token}/board/{race.version}.png")
        assert board.status == 200 and (await board.read()).startswith(b"\x89PNG")
        first = await client.get(f"/r/{token}/turn/1.png")
        assert first.status == 200 and (await first.read()).startswith(b"\x89PNG")
        assert (await client.get(f"/r/{token}/live?v={race.version}")).status == 204  # nothing new
        await _decide_once(service, storage)
        await asyncio.sleep(FRESH + 0.1)  # the version is read again at most once a second
        live = await client.get(f"/r/{token}/live?v={race.version}")
        assert live.status == 200
        data = json.loads(await live.text())
        assert data["version"] > race.version
        assert f"/board/{data['version']}.png" in data["live"] and "Standings" in data["live"]
        assert (await client.get(f"/r/{token}/board/{race.version}.png")).status == 404  # a board of the past
    await storage.close()


async def test_a_new_link_replaces_the_old_and_off_closes_the_page(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    service = await play_race(storage, "formula-de-mini", decisions=2)
    race = await storage.active_race(CHANNEL)
    with pytest.raises(Refusal, match="serves no web pages"):
        await service.web.web(CHANNEL, HOST)
    service.core.links.links = Links(storage, "https://races.example.org/")  # as if domestique run served pages
    shown = (await service.web.web(CHANNEL, GUEST)).reply
    old = re.search(r"/r/([\w-]+)>", shown).group(1)
    assert old == await storage.web_token("race", race.id) and len(old) >= 20 and str(race.id) != old
    with pytest.raises(Refusal, match="Only the race's host"):
        await service.web.web(CHANNEL, GUEST, "new")
    async with web_client(storage) as client:
        assert (await client.get(f"/r/{old}")).status == 200
        renewed = await service.web.web(CHANNEL, HOST, "new")
        new = re.search(r"/r/([\w-]+)>", renewed.reply).group(1)
        assert new != old and "old one no longer works" in renewed.reply
        assert (await client.get(f"/r/{old}")).status == 404
        assert (await client.get(f"/r/{new}")).status == 200
        await service.web.web(CHANNEL, HOST, "off")
        assert (await client.get(f"/r/{new}")).status == 404
        assert "turned this race's web page off" in (await service.web.web(CHANNEL, GUEST)).reply
    await storage.close()


async def test_the_bot_posts_the_link_in_the_lobby_prompts_finish_and_status(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    from bot.service.races import RaceService

    links = Links(storage, "https://races.example.org")
    service = RaceService(storage, render=False, seeds=lambda: 5, pages=links)
    lobby = await service.lobby.new_race(1, CHANNEL, HOST, "Hana", game="formula-de-mini", seed=9, timer=3600)
    assert "Watch on the web: <https://races.example.org/r/" in lobby.reply
    await service.lobby.join(CHANNEL, GUEST, "Jo", None)
    await service.lobby.start(CHANNEL, HOST)
    race = await storage.active_race(CHANNEL)
    page = await links.race(race.id)
    assert page in (await service.reading.status(CHANNEL)).reply
    posted: list[str] = []
    for _ in range(400):
        race = await storage.active_race(CHANNEL)
        if race is None:
            break
        from rules.registry import find_game

        game = find_game(race.game)
        state = await service.core.state_of(race)
        decision = game.rules.pending(state)
        choices = game.rules.choices(state, decision.player)
        action = game.ai(state, decision.player)
        index = next(i for i, c in enumerate(choices) if c.action == action and not c.anytime)
        user = HOST if decision.player == f"u{HOST}" else GUEST
        outcome = await service.core.decide(race.id, race.version, user, index)
        posted += [p.text for p in outcome.posts]
    catch_ups = [t for t in posted if "Catch up since your last decision: <" in t]
    assert catch_ups and all(f"{page}?since=" in t for t in catch_ups)
    finish = next(t for t in posted if "**Finish**" in t)
    assert f"The whole race, turn by turn, on the web: <{page}>" in finish
    await storage.close()


async def test_catch_up_opens_at_the_players_last_decision(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, "leader1", decisions=20)
    race = await storage.active_race(CHANNEL)
    mine = [a.index for a in race.actions if a.user_id == GUEST and not a.automatic]
    token = await storage.web_token("race", race.id)
    async with web_client(storage) as client:
        page = await (await client.get(f"/r/{token}?since={mine[-2]}")).text()
        plain = await (await client.get(f"/r/{token}")).text()
    heading = re.search(r"Since your last decision \(turn (\d+)\)", page)
    assert heading and "Since your last decision" not in plain
    since = int(heading.group(1))
    shown = [int(n) for n in re.findall(r"<article><h3>Turn (\d+)</h3>", page)]
    turns = [int(n) for n in re.findall(r'data-turn="(\d+)"', page)]
    assert shown == [n for n in turns if n >= since] and shown[0] == since
    await storage.close()


async def test_the_league_page_lists_its_stages_with_their_race_pages(tmp_path: Path) -> None:
    from bot.storage import Member

    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, "leader1", decisions=3)
    race = await storage.active_race(CHANNEL)
    league_id = await storage.create_league(1, HOST, "Spring Classics", "leader1", CHANNEL, {})
    await storage.add_member(league_id, Member(f"u{HOST}", HOST, "Hana", "yellow", ["rouleur"], False))
    await storage.schedule(
        league_id, [(1, "leader1/first-race", 1767229200.0), (2, "leader1/first-race", 1767834000.0)]
    )
    await storage.stage_opened(league_id, 1, race.id, CHANNEL)
    league_token = await storage.web_token("league", league_id)
    async with web_client(storage) as client:
        page = await (await client.get(f"/l/{league_token}")).text()
        race_token = await storage.web_token("race", race.id)
        assert "Spring Classics" in page and "Stage 1" in page and "Stage 2" in page
        assert f'<a href="/r/{race_token}?lang=en">the race page</a>' in page
        assert '<time datetime="2026-01-01T01:00:00+00:00">' in page
        assert str(HOST) not in page
        assert (await client.get(f"/l/{race_token}")).status == 404  # a race's token opens no league
    await storage.close()


async def test_two_boards_asked_at_the_same_moment_are_both_drawn(tmp_path: Path, monkeypatch) -> None:
    """The painters are found on first use, from two threads at once here: neither may find none."""
    from renderer import registry

    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, "leader1", decisions=14)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    monkeypatch.setattr(registry, "_painters", {})  # as in a fresh process: nothing loaded yet
    monkeypatch.setattr(registry, "_loaded", False)
    async with web_client(storage) as client:
        await client.get(f"/r/{token}")
        both = await asyncio.gather(
            client.get(f"/r/{token}/board/{race.version}.png"), client.get(f"/r/{token}/turn/1.png")
        )
        assert [r.status for r in both] == [200, 200]
    await storage.close()


async def test_a_watched_race_keeps_one_replay_in_memory_however_often_it_changes(tmp_path: Path) -> None:
    from bot.web.app import PAGES

    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    service = await play_race(storage, "leader1", decisions=4)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    async with web_client(storage) as client:
        site = client.app[PAGES]
        for _ in range(4):
            assert (await client.get(f"/r/{token}")).status == 200
            await _decide_once(service, storage)
            site._versions.clear()  # as a second later: the version is read again
        assert (await client.get(f"/r/{token}")).status == 200
        assert list(site._timelines) == [(race.id, "en")]  # one replay per race and language read
        assert site._timelines[(race.id, "en")].version == (await storage.active_race(CHANNEL)).version
        assert not [key for key in site._made if key[0] in ("timeline", "version")]
    await storage.close()
