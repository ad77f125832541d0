"""The pacts on the web (issue 37): a race's page, which does not know who reads it, shows the ledger of
its public pacts and never a private one's. simcord for the race, the pages' own client for the page,
both databases."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot
from tests.support.web_race import web_client
from tests.test_alliances_bot import allies_with_no_chase, bob_away_with_alice_to_lead

BROKEN = "no chase: never kept, broken once — turn 3: alice pursued while bob&#x27;s blue rouleur was away"


@pytest.fixture
def db_path(database_url: str) -> str:
    return database_url


async def alice_breaks_no_chase(simcord_env: Any, *, public: bool) -> str:
    """Alice and Bob allied with a no chase pact; Alice pursues while Bob is away. The race page."""
    channel, m, _thread = await allies_with_no_chase(simcord_env, public=public)
    prompt = await bob_away_with_alice_to_lead(channel, m)
    label = "Pursue (+1) — breaks no chase with bob" if public else "Pursue (+1)"
    asked = await m["alice"].click(prompt, label=label)
    await m["alice"].click(asked.followups[-1], label="Take it anyway")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert "pursue" in race.actions[-1].text
    token = await bot.storage.web_token("race", race.id)
    async with web_client(bot.storage) as client:
        return await (await client.get(f"/r/{token}")).text()


async def test_the_race_page_shows_the_ledger_of_public_pacts(simcord_env) -> None:
    page = await alice_breaks_no_chase(simcord_env, public=True)
    assert "<h2>The ledger of public pacts</h2>" in page
    assert f"<li>{BROKEN}</li>" in page
    assert "<li>alice: pacts kept 0, broken 1</li>" in page  # each member's count, by name (the finish table's pacts)


async def test_the_race_page_never_shows_a_private_pact(simcord_env) -> None:
    page = await alice_breaks_no_chase(simcord_env, public=False)
    assert "ledger" not in page.lower() and "no chase" not in page and "pacts kept" not in page
