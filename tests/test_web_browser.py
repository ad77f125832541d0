"""Issue 26, in a real browser (Debian's chromium, headless): a race played through simcord updates
the open page live, without reloading it; the replay slider shows turn 1's board; times are shown
in the viewer's zone; the league page lists its stages; each page at 400 px and 1280 px wide
shows its text with nothing wider than the screen (the screenshots are kept in the test's folder)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.web.server import bound_port, start_web
from tests.support.chromium import Browser
from tests.support.discord_play import last_prompt, play_prompt, two_stage_league, world
from tests.test_bot import start_two_player_race


async def _shots(browser: Browser, name: str, folder: Path, texts: list[str]) -> None:
    """The page at 400 px and 1280 px: its text there, nothing wider than the screen, a screenshot."""
    for width in (400, 1280):
        shot = await browser.screenshot(width)
        assert shot.startswith(b"\x89PNG") and len(shot) > 10_000
        (folder / f"{name}-{width}.png").write_bytes(shot)
        shown = await browser.evaluate("document.body.innerText")
        for text in texts:
            assert text in shown, f"{name} at {width} px: {text!r} missing"
        assert await browser.evaluate("document.documentElement.scrollWidth") <= width, f"{name} scrolls sideways"


async def test_a_race_played_in_discord_updates_the_open_page_live(simcord_env, browser: Browser, tmp_path) -> None:
    bot = simcord_env.bot
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    race = await bot.storage.active_race(channel.id)
    token = await bot.storage.web_token("race", race.id)
    runner = await start_web(bot.storage, ("127.0.0.1", 0))
    try:
        await browser.open(f"http://127.0.0.1:{bound_port(runner)}/r/{token}")
        version = await browser.evaluate("document.body.dataset.version")
        live = await browser.evaluate("document.getElementById('live').innerText")
        assert "Now:" in live and "Standings" in live
        due = await browser.evaluate("document.querySelector('#live time').textContent")
        assert "UTC" not in due  # rewritten in the viewer's zone by the script
        await browser.evaluate("window.openedOnce = 'yes'")
        for _ in range(2):  # two decisions in Discord
            await play_prompt(last_prompt(channel), members)
        await browser.wait_for(f"document.body.dataset.version !== '{version}'", seconds=15)
        assert await browser.evaluate("window.openedOnce") == "yes"  # updated in place, not reloaded
        fresh = await bot.storage.active_race(channel.id)
        await browser.wait_for(f"document.body.dataset.version === '{fresh.version}'", seconds=15)
        board = await browser.evaluate("document.querySelector('#live img.board').getAttribute('src')")
        assert board.endswith(f"/board/{fresh.version}.png?lang=en")  # the image names its language
        await browser.wait_for("document.querySelector('#live img.board').naturalWidth > 0")
        # the replay: back to turn 1 with the slider
        await browser.evaluate(
            "const s = document.getElementById('replay-turn'); s.value = '1'; s.dispatchEvent(new Event('input'))"
        )
        await browser.wait_for("document.getElementById('replay-board').complete")
        assert (await browser.evaluate("document.getElementById('replay-board').src")).endswith("/turn/1.png?lang=en")
        assert await browser.evaluate("document.getElementById('replay-board').naturalWidth") > 300
        assert "turn 1" in await browser.evaluate("document.getElementById('replay-board').alt")
        assert await browser.evaluate("document.getElementById('replay-shown').textContent") == "1"
        await _shots(browser, "race", tmp_path, ["Standings", "Replay", "The race in words", "Now:"])
    finally:
        await runner.cleanup()


async def test_the_league_page_lists_its_stages_in_a_browser(simcord_env, browser: Browser, tmp_path) -> None:
    _, stages, _, _ = await two_stage_league(
        simcord_env,
        name="Spring Classics",
        game="leader1",
        stages="random-10,random-10",
        colours=("yellow", "blue", "green"),
        days=30,
    )
    bot = simcord_env.bot
    league = (await bot.storage.leagues())[0]
    token = await bot.storage.web_token("league", league.id)
    runner = await start_web(bot.storage, ("127.0.0.1", 0))
    try:
        await browser.open(f"http://127.0.0.1:{bound_port(runner)}/l/{token}")
        text = await browser.evaluate("document.body.innerText")
        assert "General classification" in text and "After stage 2." in text
        assert [s.number for s in stages] == [1, 2]
        assert await browser.evaluate("document.querySelectorAll('ol.stages > li').length") == 2
        links = await browser.evaluate("Array.from(document.querySelectorAll('ol.stages a')).map(a => a.href)")
        assert len(links) == 2
        await _shots(browser, "league", tmp_path, ["Spring Classics", "Stage 1", "Stage 2"])
        await browser.open(links[0])  # a stage's race page, from the league page
        assert "Finish" in await browser.evaluate("document.body.innerText")
        await _shots(browser, "stage", tmp_path, ["Finish", "Recap", "Replay"])
    finally:
        await runner.cleanup()


async def test_a_page_opened_in_the_lobby_shows_the_race_once_it_starts(simcord_env, browser: Browser) -> None:
    bot = simcord_env.bot
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    await alice.slash(channel, "race new", game="leader1", pieces=1, timer="60m")
    await bob.slash(channel, "race join", colour="blue")
    race = await bot.storage.active_race(channel.id)
    token = await bot.storage.web_token("race", race.id)
    runner = await start_web(bot.storage, ("127.0.0.1", 0))
    try:
        await browser.open(f"http://127.0.0.1:{bound_port(runner)}/r/{token}")
        assert "In the lobby" in await browser.evaluate("document.body.innerText")
        await asyncio.sleep(2.5)  # a first poll finds nothing new
        await alice.slash(channel, "race start")
        await browser.wait_for("document.getElementById('replay-turn') !== null", seconds=15)
        assert "Standings" in await browser.evaluate("document.body.innerText")
    finally:
        await runner.cleanup()


async def test_opening_a_long_page_fetches_its_lazy_images_at_the_foot(browser: Browser) -> None:
    """A long race's page keeps its recap (``loading="lazy"``) below the fold, where the browser never
    fetched it: the helper's wait for every image ran out after 60 s, now and then, as stage seeds
    made the race in words longer. Opening a page fetches every image, wherever it lies."""
    from aiohttp import web
    from PIL import Image

    from renderer.encode import png_bytes
    from renderer.palette import PANEL

    pixel = png_bytes(Image.new("RGB", (4, 4), PANEL))

    async def page(_: web.Request) -> web.Response:
        tall = '<div style="height:12000px">words</div><img src="/foot.png" loading="lazy" alt="foot">'
        return web.Response(text=f"<!doctype html><html><body>{tall}</body></html>", content_type="text/html")

    async def foot(_: web.Request) -> web.Response:
        return web.Response(body=pixel, content_type="image/png")

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/foot.png", foot)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        await browser.open(f"http://127.0.0.1:{bound_port(runner)}/")
        assert await browser.evaluate("document.images[0].complete && document.images[0].naturalWidth") == 4
    finally:
        await runner.cleanup()
