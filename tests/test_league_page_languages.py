"""Issue 38: a league page's stage results read in the viewer's language (stored in every language when
the stage finishes), not in the language the stage's channel spoke."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from bot.leagues.league import LeagueService
from bot.service.common import record_of
from bot.storage import Member
from bot.storage.sqlite import SqliteStorage
from rules.record import replay
from tests.support.web_race import CHANNEL, HOST, play_race, web_client


async def test_a_stage_result_reads_in_the_page_s_language(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    races = await play_race(storage, "leader1")  # to the finish
    race = await storage.latest_race(CHANNEL)
    assert race is not None and race.status == "finished"
    league_id = await storage.create_league(1, HOST, "Spring Classics", "leader1", CHANNEL, {"values": {}})
    for seat in race.lobby["seats"]:
        await storage.add_member(
            league_id, Member(seat["player"], seat.get("user"), seat["name"], seat["team"], ["rouleur"], False)
        )
    await storage.schedule(league_id, [(1, "leader1/first-race", 1767229200.0)])
    await storage.stage_opened(league_id, 1, race.id, CHANNEL)
    leagues = LeagueService(races, storage)
    await leagues.on_stage_finished(replace(race, league_id=league_id, stage=1), replay(record_of(race)).state)
    stage = (await storage.stages(league_id))[0]
    assert stage.result is not None and set(stage.result["lines_in"]) == {"en", "hu", "cs"}
    token = await storage.web_token("league", league_id)
    async with web_client(storage) as client:
        czech = await (await client.get(f"/l/{token}?lang=cs")).text()
        hungarian = await (await client.get(f"/l/{token}?lang=hu")).text()
    czech_text, hungarian_text = re.sub(r"<[^>]+>", " ", czech), re.sub(r"<[^>]+>", " ", hungarian)
    assert "Výsledek" in czech_text and "zbývá energie" in czech_text  # the stage's result, in Czech
    assert "+1 kolo," in czech_text and "+2 kola," in czech_text  # counted in Czech (1; 2-4; 5+)
    assert "turn" not in czech_text and "turn" not in hungarian_text  # not the channel's English
    assert "AI 1" not in czech_text and "Počítač 1" in czech_text  # the AI team as the reader calls it
    await storage.close()
