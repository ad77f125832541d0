"""Issue 39, in a real browser at 400 px (Debian's chromium, headless): a live swap (decisions made
while the page is open) moves nothing on the page (the browser's own layout-shift entries sum to
nothing), and every control a thumb uses (links, buttons, folds, the slider, the table's headings)
is at least 44 px tall and wide, in all four games."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage.sqlite import SqliteStorage
from bot.web.server import bound_port, start_web
from rules.registry import game_ids
from tests.support.chromium import Browser
from tests.support.web_race import CHANNEL, decide_as_ai, play_race

TAP = 44  # px, the least a control's side may be
WATCH_SHIFTS = (
    "window.shifted = []; new PerformanceObserver(list => list.getEntries().forEach(e => "
    "{ if (!e.hadRecentInput) window.shifted.push(e.value); })).observe({type: 'layout-shift', buffered: false})"
)
# every control but a link inside a sentence (the header's and the words' links: WCAG's inline exception)
SMALL_CONTROLS = """JSON.stringify(Array.from(document.querySelectorAll(
  'button, summary, input, nav a, footer a, a.full, th button'
)).map(e => [e.tagName + (e.id ? '#' + e.id : '') + ' ' + e.textContent.slice(0, 12), e.getBoundingClientRect()])
 .filter(([, r]) => r.width > 0 && (r.height < TAP || r.width < TAP))
 .map(([name, r]) => [name, Math.round(r.width), Math.round(r.height)]))""".replace("TAP", str(TAP))


async def test_a_live_swap_moves_nothing_and_controls_are_thumb_sized(browser: Browser, tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    runner = None
    try:
        services = {}
        for n, game in enumerate(game_ids()):
            services[game] = await play_race(storage, game, decisions=6, channel=CHANNEL + n)
        runner = await start_web(storage, ("127.0.0.1", 0))
        site = f"http://127.0.0.1:{bound_port(runner)}"
        for n, game in enumerate(game_ids()):
            race = await storage.active_race(CHANNEL + n)
            assert race is not None
            await browser.open(f"{site}/r/{await storage.web_token('race', race.id)}?lang=en", width=400)
            await browser.wait_for("Array.from(document.images).every(i => i.complete)")
            small = json.loads(await browser.evaluate(SMALL_CONTROLS))
            assert not small, f"{game}: controls smaller than {TAP} px: {small}"
            await browser.evaluate("window.scrollTo(0, 0)")
            await browser.evaluate(WATCH_SHIFTS)
            for _ in range(2):  # two swaps, the second after the first has settled
                version = await browser.evaluate("document.body.dataset.version")
                assert await decide_as_ai(services[game], storage, CHANNEL + n)
                await browser.wait_for(f"document.body.dataset.version !== '{version}'", seconds=20)
                await browser.wait_for("Array.from(document.images).every(i => i.complete)")
            shifts = await browser.evaluate("window.shifted")
            assert sum(shifts) == 0, f"{game}: a live swap shifted the page: {shifts}"
    finally:
        if runner is not None:
            await runner.cleanup()
        await storage.close()
