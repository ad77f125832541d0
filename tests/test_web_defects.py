"""Issue 39, the defects found by trying the pages: images in the page's language (the language in
their address) and ``Vary`` where an answer depends on a header; a validator on every answer, 304
and gzip; finished pages list Finish and Standings in one order; the recap folded, and sent to a
watcher when the race finishes; an unreadable request gets the pages' own short 400; a stage's page
links to its league; stages and tracks by name, not id; a favicon; no versions in ``Server``."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
from pathlib import Path

import pytest

from bot.storage import Member
from bot.storage.sqlite import SqliteStorage
from bot.web.server import bound_port, start_web
from rules.registry import game_ids
from rules.shown import track_title
from tests.support.web_race import CHANNEL, HOST, crawl, play_race, web_client


async def _running(tmp_path: Path, game: str = "leader1", decisions: int = 4) -> tuple[SqliteStorage, str]:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, game, decisions=decisions)
    race = await storage.active_race(CHANNEL)
    return storage, f"/r/{await storage.web_token('race', race.id)}"


async def _finished(tmp_path: Path, game: str) -> tuple[SqliteStorage, str]:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, game)
    race = await storage.latest_race(CHANNEL)
    assert race is not None and race.status == "finished"
    return storage, f"/r/{await storage.web_token('race', race.id)}"


async def test_images_carry_the_pages_language_and_answers_from_a_header_vary(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path)
    english = {"Accept-Language": "en"}
    async with web_client(storage) as client:
        page = await client.get(f"{url}?lang=cs", headers=english)
        boards = re.findall(r'<img class="board"[^>]* src="([^"]+)"', await page.text())
        assert boards and all(src.endswith("lang=cs") for src in boards), boards
        assert "Accept-Language" not in page.headers.get("Vary", "")  # the address names the language
        by_header = await client.get(url, headers=english)
        assert "Accept-Language" in by_header.headers["Vary"]
        board = boards[0].replace("&amp;", "&")
        named = await client.get(board, headers=english)
        assert named.status == 200 and "immutable" in named.headers["Cache-Control"]
        unnamed = await client.get(board.split("?")[0], headers=english)
        assert "immutable" not in unnamed.headers["Cache-Control"]
        assert "Accept-Language" in unnamed.headers["Vary"]
        czech, english_board = await named.read(), await unnamed.read()
        assert czech != english_board  # the Czech board is drawn in Czech
    await storage.close()


async def test_every_answer_has_a_validator_and_text_is_compressed(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path)
    async with web_client(storage) as client:
        for address in (url, f"{url}?lang=hu", f"{url}/turn/1.png?lang=en", "/static/web.js", f"{url}/live?v=0"):
            plain = await client.get(address, headers={"Accept-Encoding": "identity"}, auto_decompress=False)
            tag = plain.headers["ETag"]
            assert plain.status == 200 and tag, address
            again = await client.get(address, headers={"If-None-Match": tag, "Accept-Encoding": "identity"})
            assert again.status == 304 and again.headers["ETag"] == tag and not await again.read(), address
        page = await client.get(url, headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
        body = await page.read()
        assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.headers["Vary"]
        assert b"<!doctype html>" in gzip.decompress(body) and len(body) * 3 < len(gzip.decompress(body))
        image = await client.get(f"{url}/turn/1.png?lang=en", headers={"Accept-Encoding": "gzip"})
        assert "Content-Encoding" not in image.headers  # a PNG is compressed already
    await storage.close()


@pytest.mark.parametrize("game_id", game_ids())
async def test_a_finished_page_lists_finish_and_standings_in_one_order(tmp_path: Path, game_id: str) -> None:
    storage, url = await _finished(tmp_path, game_id)
    async with web_client(storage) as client:
        page = await (await client.get(f"{url}?lang=en")).text()
    finish = page.split("<h2>Finish</h2>", 1)[1].split("</ul>", 1)[0]
    standings = page.split("<h2>Standings</h2>", 1)[1].split("</ul>", 1)[0]
    finish_order = re.findall(r"<li>\d+\. (.+?) \(", finish)
    standing_order = [x for x in re.findall(r"<li>(.+?) \(", standings) if x in finish_order]
    assert len(finish_order) >= 3 and standing_order == finish_order, (finish_order, standings)
    await storage.close()


async def test_the_recap_is_folded_and_a_watcher_gets_it_when_the_race_finishes(tmp_path: Path) -> None:
    storage, url = await _finished(tmp_path, "formula-de-mini")
    async with web_client(storage) as client:
        page = await (await client.get(f"{url}?lang=en")).text()
        assert '<details id="recap"' in page and not re.search(r'\ssrc="[^"]*recap\.gif', page)  # not fetched unasked
        live = json.loads(await (await client.get(f"{url}/live?v=0&lang=en")).text())
        assert live["status"] == "finished" and '<details id="recap"' in live["recap"]
        recap = re.search(r'data-src="([^"]+)"', live["recap"]).group(1)
        assert (await client.get(recap.replace("&amp;", "&"))).status == 200
    await storage.close()


async def test_a_request_line_over_1_kb_gets_a_short_400_that_names_no_token(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path, decisions=1)
    runner = await start_web(storage, ("127.0.0.1", 0))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", bound_port(runner))
        writer.write(f"GET {url}?{'x' * 2000} HTTP/1.1\r\nHost: here\r\n\r\n".encode())
        await writer.drain()
        answer = (await asyncio.wait_for(reader.read(), 10)).decode()
        writer.close()
    finally:
        await runner.cleanup()
    head, _, body = answer.partition("\r\n\r\n")
    assert head.split(" ")[1] == "400"
    assert "Content-Security-Policy: default-src 'none'" in head and "X-Frame-Options: DENY" in head
    assert url.split("/")[-1] not in answer and "xxxx" not in answer
    assert "could not be read" in body and len(body) < 2000
    await storage.close()


async def test_the_server_names_no_versions_and_the_favicon_is_there(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path, decisions=1)
    async with web_client(storage) as client:
        for address in (url, "/favicon.ico", "/nothing"):
            response = await client.get(address)
            assert response.headers["Server"] == "Domestique", address
        icon = await client.get("/favicon.ico")
        assert icon.status == 200 and (await icon.read()).startswith(b"<svg")
    await storage.close()


async def test_a_stage_links_to_its_league_and_tracks_are_named(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path, decisions=1)
    race = await storage.active_race(CHANNEL)
    league_id = await storage.create_league(1, HOST, "Spring Classics", "leader1", CHANNEL, {})
    await storage.add_member(league_id, Member(f"u{HOST}", HOST, "Hana", "yellow", ["rouleur"], False))
    await storage.schedule(league_id, [(1, "leader1/random-25-187431", 1767229200.0)])
    lobby = dict(race.lobby, track="leader1/random-25-187431")
    stage = await storage.create_race(1, CHANNEL + 5, HOST, "leader1", lobby, league=(league_id, 1))  # type: ignore[arg-type]
    await storage.stage_opened(league_id, 1, stage.id, CHANNEL + 5)
    stage_url = f"/r/{await storage.web_token('race', stage.id)}"
    league_url = f"/l/{await storage.web_token('league', league_id)}"
    async with web_client(storage) as client:
        stage_page = await (await client.get(f"{stage_url}?lang=en")).text()
        league_page = await (await client.get(f"{league_url}?lang=en")).text()
        plain_page = await (await client.get(f"{url}?lang=en")).text()
    assert f'<a href="{league_url}?lang=en">its league</a>' in stage_page
    assert "its league" not in plain_page  # a race outside a league links to none
    assert f'href="{stage_url}' in league_page
    for page in (stage_page, league_page):
        assert "random-25" not in page and "a random route of 25 hexagons" in page
    assert track_title("leader1/col-du-domestique") == "Col du Domestique"
    assert track_title("leader1/new-stage") == "New stage"
    assert "first-race" not in plain_page and "First race" in plain_page
    await storage.close()


async def test_the_leak_crawl_reads_every_turn_page_and_board(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path, decisions=10)
    async with web_client(storage) as client:
        page = await (await client.get(f"{url}?lang=en")).text()
        seen = await crawl(client, url)
    turns = set(re.findall(r'data-turn="(\d+)"', page))
    assert len(turns) >= 2
    for turn in turns:
        assert seen.statuses[f"{url}?lang=en&turn={turn}"] == 200, turn
        assert seen.statuses[f"{url}/turn/{turn}.png?lang=en"] == 200, turn
        assert seen.statuses[f"{url}/phone/turn/{turn}.png?lang=en"] == 200, turn
    assert any("/board/" in address and seen.statuses[address] == 200 for address in seen.statuses)
    assert any("/phone/" in address and seen.statuses[address] == 200 for address in seen.statuses)
    await storage.close()


async def _weight(client, url: str) -> int:
    """Bytes a browser that accepts gzip fetches to show the page as it opens (not what a tap fetches)."""
    gz = {"Accept-Encoding": "gzip"}
    page = await client.get(url, headers=gz, auto_decompress=False)
    total = len(await page.read())
    text = await (await client.get(url)).text()
    fetched_at_once = re.findall(r'\ssrc="(/[^"]+)"', text) + re.findall(r'<link[^>]*\shref="(/[^"]+)"', text)
    for src in set(fetched_at_once):
        fetched = await client.get(src.replace("&amp;", "&"), headers=gz, auto_decompress=False)
        assert fetched.status == 200, src
        total += len(await fetched.read())
    return total


@pytest.mark.parametrize("game_id", game_ids())
async def test_a_page_and_its_board_are_light(tmp_path: Path, game_id: str) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, game_id, decisions=10)
    await play_race(storage, game_id, channel=CHANNEL + 1)
    running, finished = await storage.active_race(CHANNEL), await storage.latest_race(CHANNEL + 1)
    assert finished is not None and finished.status == "finished"
    async with web_client(storage) as client:
        for race, most in ((running, 150_000), (finished, 400_000)):
            url = f"/r/{await storage.web_token('race', race.id)}?lang=en"
            weight = await _weight(client, url)
            assert weight < most, f"{race.status}: {weight} bytes"
    await storage.close()


async def test_a_page_has_a_link_preview_no_index_and_a_tap_to_the_full_board(tmp_path: Path) -> None:
    storage, url = await _running(tmp_path)
    async with web_client(storage) as client:
        page = await (await client.get(f"{url}?lang=hu")).text()
        image = re.search(r'<meta property="og:image" content="([^"]+)">', page).group(1)
        assert image.startswith("http://") and re.search(r"/board/\d+\.png\?lang=hu$", image)
        assert (await client.get("/" + image.split("/", 3)[3])).status == 200
        title = re.search(r'<meta property="og:title" content="([^"]+)">', page).group(1)
        assert title == re.search(r"<title>([^<]+)</title>", page).group(1)
        assert '<meta name="robots" content="noindex, nofollow">' in page
        board = re.search(r'<a class="full" href="([^"]+)"[^>]*><picture>.*?<img class="board" src="([^"]+)"', page)
        assert board and board.group(1) == board.group(2)  # a phone's cut board too taps to the whole one
    await storage.close()


async def test_the_league_page_is_live(tmp_path: Path, monkeypatch) -> None:
    from bot.web import app

    monkeypatch.setattr(app, "LEAGUE_FRESH", 0.001)
    storage, _ = await _running(tmp_path, decisions=1)
    race = await storage.active_race(CHANNEL)
    league_id = await storage.create_league(1, HOST, "Spring Classics", "leader1", CHANNEL, {})
    await storage.add_member(league_id, Member(f"u{HOST}", HOST, "Hana", "yellow", ["rouleur"], False))
    await storage.schedule(league_id, [(1, "leader1/first-race", 1767229200.0)])
    league_url = f"/l/{await storage.web_token('league', league_id)}"
    async with web_client(storage) as client:
        page = await (await client.get(f"{league_url}?lang=en")).text()
        live = re.search(r'data-league-live="([^"]+)" data-version="(\w+)"', page)
        assert live and live.group(1) == f"{league_url}/live"
        assert (await client.get(f"{live.group(1)}?v={live.group(2)}&lang=en")).status == 204  # nothing new
        await storage.stage_opened(league_id, 1, race.id, CHANNEL)  # the stage starts
        await asyncio.sleep(0.01)
        news = await client.get(f"{live.group(1)}?v={live.group(2)}&lang=en")
        data = json.loads(await news.text())
        assert data["version"] != live.group(2) and "the race page" in data["main"]
        assert data["main"].startswith('<div id="league">')
        czech = await (await client.get(f"{league_url}?lang=cs")).text()
        hungarian = await (await client.get(f"{league_url}?lang=hu")).text()
    # a time written on the server in the page's language (the script then moves it to the viewer's zone)
    assert ">1. 1. 2026 01:00 UTC</time>" in czech and ">2026. jan. 1. 01:00 UTC</time>" in hungarian
    await storage.close()
