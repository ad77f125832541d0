"""A page made public (issue 39): the race's host (``/race web public``) or the league's organiser
(``/league web public``) lets search engines list it; otherwise, and after ``private``, the page says
``noindex`` in its meta and in its ``X-Robots-Tag`` header. No one else may change it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.common import Refusal
from bot.storage import Member
from bot.storage.sqlite import SqliteStorage
from bot.web import app
from bot.web.links import Links
from tests.support.web_race import CHANNEL, GUEST, HOST, play_race, web_client

NOINDEX = '<meta name="robots" content="noindex, nofollow">'


async def _listed(client, url: str) -> bool:  # type: ignore[no-untyped-def]
    response = await client.get(url)
    page = await response.text()
    header = response.headers.get("X-Robots-Tag")
    assert (NOINDEX in page) == (header == "noindex, nofollow"), (header, NOINDEX in page)
    return header is None


async def test_the_host_makes_a_race_page_public_and_private_again(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(app, "LEAGUE_FRESH", 0.0)  # a page's visibility read again at once
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service = await play_race(storage, "leader1", decisions=2)
        service.web.links.links = Links(storage, "http://pages.example")  # as if the pages were served
        race = await storage.active_race(CHANNEL)
        url = f"/r/{await storage.web_token('race', race.id)}?lang=en"
        async with web_client(storage) as client:
            assert not await _listed(client, url)  # private unless made public
            with pytest.raises(Refusal, match="host"):
                await service.web.web(CHANNEL, GUEST, "public")
            assert not await _listed(client, url)
            said = await service.web.web(CHANNEL, HOST, "public")
            assert "public now" in repr(said)
            assert await storage.web_public("race", race.id)
            assert await _listed(client, url)
            await service.web.web(CHANNEL, HOST, "private")
            assert not await _listed(client, url)
            assert url.split("?")[0].endswith(await storage.web_token("race", race.id))  # the link stays
    finally:
        await storage.close()


async def test_a_league_page_follows_its_setting(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(app, "LEAGUE_FRESH", 0.0)
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        league_id = await storage.create_league(1, HOST, "Spring Classics", "leader1", CHANNEL, {})
        await storage.add_member(league_id, Member(f"u{HOST}", HOST, "Hana", "yellow", ["rouleur"], False))
        url = f"/l/{await storage.web_token('league', league_id)}?lang=en"
        async with web_client(storage) as client:
            assert not await _listed(client, url)
            await storage.set_web_public("league", league_id, True)
            assert await _listed(client, url)
            await storage.set_web_public("league", league_id, False)
            assert not await _listed(client, url)
    finally:
        await storage.close()
