"""Issue 27 on the web pages: a race page and a league page read in the viewer's language (their
browser's Accept-Language, or the one picked with ?lang=), every word from the catalogs: its
headings, who acts, the race in words, the boards' text alternatives, errors; English otherwise."""

from __future__ import annotations

import html
import json
import re

import pytest

from bot.storage.url import storage_for
from tests.support.english_left import untranslated
from tests.support.web_race import CHANNEL, play_race, web_client

NAMES = (
    "Hana",
    "Jo",
    "Domestique",
    "Discord",
    "Leader 1: Hell of the North",
    "Formula Dé Mini",
    "first-race",
)  # games and tracks by name


def _texts(page: str) -> list[str]:
    """What a reader reads: the text between tags and the text alternatives."""
    alts = re.findall(r'(?:alt|aria-label|data-alt|data-nothing|data-alt-word|data-your-time)="([^"]*)"', page)
    body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page, flags=re.S)
    texts = re.split(r"<[^>]+>", body)
    return [html.unescape(t).strip() for t in [*texts, *alts] if t.strip()]


@pytest.mark.parametrize("game", ["leader1", "formula-de-mini", "hell-of-the-north", "peloton"])
@pytest.mark.parametrize("language", ["hu", "cs"])
async def test_a_race_page_reads_in_the_viewers_language(tmp_path, game: str, language: str) -> None:
    storage = storage_for(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, game, decisions=6)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    async with web_client(storage) as client:
        asked = await client.get(f"/r/{token}", headers={"Accept-Language": f"{language}-{language.upper()},en;q=0.5"})
        page = await asked.text()
        assert f'<html lang="{language}">' in page
        assert untranslated(_texts(page), language, NAMES) == []
        assert not [t for t in _texts(page) if re.search(r"\bAI \d", t)]  # AI seats in the reader's words
        live = json.loads(await (await client.get(f"/r/{token}/live?lang={language}")).text())
        shown = [*_texts(live["live"]), *_texts(live["words"]), *live["alt"].values()]
        assert untranslated(shown, language, NAMES) == []
        english = await (await client.get(f"/r/{token}", headers={"Accept-Language": "de-DE"})).text()
        assert '<html lang="en">' in english and "The race in words" in english  # no German: English
        picked = await (await client.get(f"/r/{token}?lang=cs", headers={"Accept-Language": "hu"})).text()
        assert '<html lang="cs">' in picked  # the reader's pick wins over the browser's
        missing = await client.get("/r/" + "x" * 20, headers={"Accept-Language": language})
        assert missing.status == 404 and untranslated(_texts(await missing.text()), language, NAMES) == []
    await storage.close()


def test_the_browsers_languages_are_read_in_their_order_of_preference() -> None:
    from aiohttp.test_utils import make_mocked_request

    from bot.web.language import language_of

    def asked(header: str, query: str = "") -> str:
        return language_of(make_mocked_request("GET", "/r/x" + query, headers={"Accept-Language": header}))

    assert asked("de, cs;q=0.8, hu;q=0.9") == "hu"
    assert asked("cs-CZ") == "cs" and asked("fr, en;q=0.1") == "en" and asked("") == "en"
    assert asked("hu;q=0, cs;q=0.2") == "cs"  # q=0 means "not this one"
    assert asked("hu", "?lang=cs") == "cs" and asked("hu", "?lang=xx") == "hu"
