"""Issue 26: a race's web page shows exactly what its public channel shows. Every page and endpoint
of races of all four games, running and finished, is read and scanned for each kind of hidden
thing: Discord ids, the seed, a player's kept feed tiles (their private hand and the private
messages that told them), face-down weather, and what is still to come (cards, rolls: the lines
the channel will only post later)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.common import record_of
from bot.storage.sqlite import SqliteStorage
from rules.hell_of_the_north.narrate import WEATHER_WORDS
from rules.registry import find_game, game_ids
from tests.support.web_race import CHANNEL, GUEST, HOST, SEED, crawl, play_race, web_client

LATER = CHANNEL + 1  # the same race, played to its finish in another channel


def _turn_lines(state, game) -> dict[int, list[str]]:
    events = game.rules.events(state)
    return {n: game.narration.summary(state, [e for e in events if e.turn == n]) for n in {e.turn for e in events}}


@pytest.mark.parametrize("game_id", game_ids())
async def test_no_page_of_a_race_shows_anything_the_channel_does_not(tmp_path: Path, game_id: str) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    service = await play_race(storage, game_id, decisions=12)
    running = await storage.active_race(CHANNEL)
    assert running is not None and running.status == "running"
    later_service = await play_race(storage, game_id, channel=LATER)
    finished = await storage.latest_race(LATER)
    assert finished is not None and finished.status == "finished"
    game = find_game(game_id)
    now = await service.core.state_of(running)
    end = await later_service.core.state_of(finished)
    assert record_of(finished).actions[: len(running.actions)] == record_of(running).actions  # the same race

    hidden = [str(HOST), str(GUEST), str(SEED), '"seed"', "<@"]
    # each player's hidden things: their hand, and every private message the channel never showed
    hidden += [
        line for p in (f"u{HOST}", f"u{GUEST}") for line in game.secrets.hand(now, p) if "kept tiles none" not in line
    ]
    # what is still to come: the lines the channel posts only later (rolls and cards to come)
    past = {line for n, lines in _turn_lines(now, game).items() for line in lines}
    turn_now = game.rules.turn(now)
    future = [
        line
        for n, lines in _turn_lines(end, game).items()
        if n > turn_now
        for line in lines
        if line not in past and len(line) > 12
    ]
    assert future, "the finished race has turns the running one has not reached"
    if game_id == "hell-of-the-north":  # face-down weather, as the end of the race shows it
        turned = dict(end.weather)
        for row, marker in now.weather:
            if marker is None and turned.get(row):
                hidden.append(f"row {row}: {WEATHER_WORDS.get(turned[row], turned[row])}")
    async with web_client(storage) as client:
        token = await storage.web_token("race", running.id)
        seen = await crawl(client, f"/r/{token}")
    text = seen.everything()
    assert "Standings" in text and "Replay" in text  # the page was read, not an error page
    for thing in hidden + future:
        assert thing not in text, f"{game_id}: the page shows {thing!r}"
    await storage.close()


@pytest.mark.parametrize("game_id", game_ids())
async def test_a_finished_race_shows_its_result_and_recap_without_ids(tmp_path: Path, game_id: str) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, game_id)
    race = await storage.latest_race(CHANNEL)
    assert race is not None and race.status == "finished"
    async with web_client(storage) as client:
        token = await storage.web_token("race", race.id)
        seen = await crawl(client, f"/r/{token}")
    text = seen.everything()
    assert "Finish" in text and "wins for" in text
    assert seen.statuses[f"/r/{token}/recap.gif?lang=en"] == 200
    for thing in (str(HOST), str(GUEST), str(SEED), "<@"):
        assert thing not in text
    await storage.close()
