"""Issue 26: the web pages are safe to put on the internet: GET only, strict headers (a content
security policy without inline scripts, no sniffing, no framing), bounded requests, a rate limit
per address, no URL path reaching the file system, and errors as plain 404/405/414/429 pages."""

from __future__ import annotations

import re
from pathlib import Path

from bot.storage.sqlite import SqliteStorage
from bot.web.guard import RateLimit
from tests.support.web_race import CHANNEL, crawl, play_race, web_client


async def _race(tmp_path: Path) -> tuple[SqliteStorage, str]:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, "leader1", decisions=4)
    race = await storage.active_race(CHANNEL)
    return storage, f"/r/{await storage.web_token('race', race.id)}"


def _strict(headers) -> None:
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "http" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"


async def test_every_answer_carries_strict_headers_and_pages_have_no_inline_script(tmp_path: Path) -> None:
    storage, url = await _race(tmp_path)
    async with web_client(storage) as client:
        seen = await crawl(client, url)
        for address in [url, f"{url}/live?v=0", f"{url}/turn/1.png", "/static/web.js", "/nothing", f"{url}x"]:
            _strict((await client.get(address)).headers)
    for address, text in seen.texts.items():
        if address.endswith(".js") or address.endswith(".css"):
            continue
        assert not re.search(r"<script(?![^>]*\bsrc=\"/static/web\.js\")", text), address  # no inline script
        assert not re.search(r"\son[a-z]+=", text) and " style=" not in text, address  # no inline handler or style
        assert not re.search(r'(?:src|href)="(?:https?:)?//(?!discord\.com/)', text), address  # nothing from elsewhere
    await storage.close()


async def test_only_reading_short_requests_plain_error_pages(tmp_path: Path) -> None:
    storage, url = await _race(tmp_path)
    async with web_client(storage) as client:
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            response = await client.request(method, url, data=b"x")
            assert response.status == 405 and response.headers["Allow"] == "GET, HEAD"
        assert (await client.get(url, data=b"x" * 10)).status == 405  # a body is refused
        long = await client.get(url + "?turn=" + "1" * 600)
        assert long.status == 414 and "too long" in await long.text()
        for path in (
            "/",
            "/r/short",
            "/static/../bot/web/app.py",
            "/static/%2e%2e/pyproject.toml",
            "/static/web.py",
            "/r/AAAAAAAAAAAAAAAAAAAAAA",
            f"{url}/turn/999.png",
            f"{url}/board/1.png",
            f"{url}/recap.gif",
            "/etc/passwd",
            "/static//etc/passwd",
            "/l/AAAAAAAAAAAAAAAAAAAAAA",
        ):
            response = await client.get(path)
            text = await response.text()
            assert response.status == 404, path
            assert "There is no page here" in text and "Traceback" not in text, path
        assert (await client.get(f"{url}?turn=abc&since=-1")).status == 200  # odd numbers are ignored
        assert (await client.get(url, headers={"X-Big": "x" * 8000})).status == 400  # a header over 4 kB
        assert (await client.get(url + "?" + "x" * 2000)).status in (400, 414)  # a request line over 1 kB
    await storage.close()


async def test_too_many_requests_from_one_address_get_a_plain_429(tmp_path: Path) -> None:
    storage, url = await _race(tmp_path)
    async with web_client(storage, limit=RateLimit(rate=0.01, burst=5)) as client:
        statuses = [(await client.get(url)).status for _ in range(7)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429, 429]
        response = await client.get(url)
        assert response.headers["Retry-After"] == "5" and "Too many requests" in await response.text()
        _strict(response.headers)
    await storage.close()


def test_the_rate_limit_refills_per_address() -> None:
    limit = RateLimit(rate=2.0, burst=3)
    assert [limit.allow("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b", now=0.0)  # another address has its own bucket
    assert limit.allow("a", now=0.5) and not limit.allow("a", now=0.5)  # one more after half a second
