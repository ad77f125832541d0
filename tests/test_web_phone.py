"""Issue 39, in a real browser (Debian's chromium, headless; one for the whole module): in all four
games, a finished race's page at 400 px is at most 4,000 px tall and nothing on it is wider than
the screen; its board's smallest text is at least 11 px on screen (the board cut for a phone,
measured by the page's layout); its images are in the page's language (the language is in their addresses); at 1280 px
the board and who acts are above the fold, side by side; a turn's link moves the replay's board in
place and puts the turn in the address (a permalink that opens there). Screenshots are kept in the
test's folder."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from bot.storage import RaceRow
from bot.storage.sqlite import SqliteStorage
from bot.web.server import bound_port, start_web
from bot.web.timeline import timeline
from renderer.phone import PhoneBoard, paint_for_phone
from rules.registry import game_ids
from tests.support.chromium import Browser, NoBrowser
from tests.support.doc_shots import SHOTS, keep_for_docs
from tests.support.web_race import CHANNEL, play_race

FINISHED = CHANNEL + 1
TALLEST = 4000  # px, a finished race's page at 400 px


DOCS = {"leader1-running": "web-race", "peloton-finished": "web-finished"}  # docs/web.md's pictures
READABLE = 11  # px: the least a board's string may be on a 400 px screen


async def _board_text_on_screen(browser: Browser, cut: PhoneBoard) -> float:
    """The smallest font of the board's strings as the page shows them: the font the painter used
    (in the picture's own pixels) times the picture's shown width over its natural width."""
    shown = json.loads(
        await browser.evaluate(
            "(() => { const i = document.querySelector('#live img.board'); return JSON.stringify("
            "{src: i.currentSrc, shown: i.getBoundingClientRect().width, natural: i.naturalWidth}); })()"
        )
    )
    assert "/phone/" in shown["src"], f"a phone is given the whole board: {shown['src']}"
    assert shown["natural"] == cut.box[2] - cut.box[0], (shown, cut.box)
    return float(cut.smallest * shown["shown"] / shown["natural"])


async def _look(browser: Browser, url: str, name: str, folder: Path, *, running: bool, cut: PhoneBoard) -> None:
    await browser.open(f"{url}?lang=cs", width=400)
    await browser.wait_for("Array.from(document.images).every(i => i.complete)")
    # the picture's source is chosen as the page settles; measured below all the same if it never is
    with contextlib.suppress(TimeoutError):
        await browser.wait_for("document.querySelector('#live img.board').currentSrc.includes('/phone/')", seconds=10)
    smallest = await _board_text_on_screen(browser, cut)
    assert smallest >= READABLE, f"{name}: the board's smallest text is {smallest:.1f} px at 400 px"
    height = await browser.evaluate("document.documentElement.scrollHeight")
    assert await browser.evaluate("document.documentElement.scrollWidth") <= 400, f"{name} scrolls sideways"
    hidden = await browser.evaluate(  # a column of the race's numbers past the screen's edge, in its own scroll
        "Array.from(document.querySelectorAll('div.table')).map(d => d.scrollWidth - d.clientWidth)"
        ".reduce((a, b) => Math.max(a, b), 0)"
    )
    assert hidden <= 1, f"{name}: the race's numbers run {hidden} px past a phone's screen"
    if not running:
        assert height <= TALLEST, f"{name}: {height} px tall at 400 px"
    sources = await browser.evaluate("Array.from(document.querySelectorAll('img')).map(i => i.getAttribute('src'))")
    assert sources and all(src.endswith("?lang=cs") for src in sources), sources
    assert await browser.evaluate("document.querySelectorAll('#words ol.turns:not(details ol) > li').length") <= 2
    (folder / f"{name}-400.png").write_bytes(await browser.screenshot(400))
    await browser.resize(1280, 800)
    board = await browser.evaluate("JSON.stringify(document.querySelector('#live img.board').getBoundingClientRect())")
    beside = "#live .waiting" if running else "#live h2"
    other = await browser.evaluate(f"JSON.stringify(document.querySelector('{beside}').getBoundingClientRect())")
    board, other = json.loads(board), json.loads(other)
    assert board["top"] < 400 and other["top"] < 800 and other["bottom"] < 800, (name, board, other)
    assert board["right"] <= other["left"], f"{name}: the board and {beside} are not side by side"
    assert await browser.evaluate("document.documentElement.scrollWidth") <= 1280
    (folder / f"{name}-1280.png").write_bytes(await browser.screenshot(1280))
    await _sorts(browser, name)
    # a turn of the move list: the board moves in place, the address names the turn
    await browser.evaluate("window.stayed = 'yes'")
    await browser.evaluate("document.querySelector('#replay .turn-links a[data-turn]').click()")
    first = await browser.evaluate("document.querySelector('#replay .turn-links a[data-turn]').dataset.turn")
    await browser.wait_for("document.getElementById('replay-board').complete")
    assert (await browser.evaluate("document.getElementById('replay-board').getAttribute('src')")).endswith(
        f"/turn/{first}.png?lang=cs"
    )
    assert await browser.evaluate("window.stayed") == "yes"
    assert f"turn={first}" in await browser.evaluate("location.search")
    current = await browser.evaluate("document.querySelector('#replay a[aria-current]').dataset.turn")
    assert current == first
    permalink = await browser.evaluate("location.href")
    await browser.open(permalink, width=400)
    assert await browser.evaluate("document.getElementById('replay-shown').textContent") == first
    # the replay's board on a phone is cut for it too
    await browser.wait_for(
        f"document.getElementById('replay-board').currentSrc.includes('/phone/turn/{first}.png?lang=cs')", seconds=10
    )
    if name in DOCS and os.environ.get(SHOTS):  # docs/web.md's pictures, in English
        await browser.open(f"{url}?lang=en", width=400)
        keep_for_docs(await browser.screenshot(400), f"{DOCS[name]}-400.png")
        keep_for_docs(await browser.screenshot(1280), f"{DOCS[name]}-1280.png", first_screen=800)


SORTED = (
    "Array.from(document.querySelectorAll('#live table.sortable tbody tr'))"
    ".map(r => r.cells[{column}].getAttribute('data-v')).filter(v => v !== '').map(Number)"
)


async def _sorts(browser: Browser, name: str) -> None:
    """A click on a heading of the race's table sorts it by that column; a second click, the other way."""
    columns = await browser.evaluate("document.querySelectorAll('#live table.sortable thead th').length")
    assert columns >= 5, f"{name}: no race table"
    column = columns - 1
    click = f"document.querySelectorAll('#live table.sortable thead th button')[{column}].click()"
    lower_first = await browser.evaluate(
        f"document.querySelectorAll('#live table.sortable thead th')[{column}].hasAttribute('data-lower-first')"
    )
    await browser.evaluate(click)
    first = await browser.evaluate(SORTED.format(column=column))
    assert first == sorted(first, reverse=not lower_first), (name, first)
    await browser.evaluate(click)
    second = await browser.evaluate(SORTED.format(column=column))
    assert second == sorted(second, reverse=lower_first), (name, second)


def _phone_board(race: RaceRow) -> PhoneBoard:
    """The board the page gives a phone, drawn here as the pages draw it (its font sizes known)."""
    now = timeline(race)
    cut = paint_for_phone(race.game, now.state, acting=now.acting, title=now.title, language="cs")
    assert cut is not None
    return cut


async def test_every_game_reads_on_a_phone_and_uses_a_wide_screen(tmp_path: Path) -> None:
    browser = Browser()
    try:
        await browser.start()
    except NoBrowser as exc:
        await browser.close()
        raise AssertionError(f"no browser for the tests: {exc}") from None
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    runner = None
    try:
        for n, game in enumerate(game_ids()):
            await play_race(storage, game, decisions=10, channel=CHANNEL + 10 * n)
            await play_race(storage, game, channel=FINISHED + 10 * n)
        runner = await start_web(storage, ("127.0.0.1", 0))
        site = f"http://127.0.0.1:{bound_port(runner)}"
        for n, game in enumerate(game_ids()):
            running = await storage.active_race(CHANNEL + 10 * n)
            finished = await storage.latest_race(FINISHED + 10 * n)
            assert running is not None and finished is not None and finished.status == "finished"
            for race, kind in ((running, "running"), (finished, "finished")):
                token = await storage.web_token("race", race.id)
                cut = _phone_board(race)
                await _look(
                    browser, f"{site}/r/{token}", f"{game}-{kind}", tmp_path, running=kind == "running", cut=cut
                )
    finally:
        if runner is not None:
            await runner.cleanup()
        await storage.close()
        await browser.close()
