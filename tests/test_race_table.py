"""The race's numbers (``rules.race_table``) and their table on the race page (issue 39): per piece,
its place, its player and the game's numbers; Peloton's time, points and mountains; the Leader 1
family's energy spent and risks taken."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.sim import simulate
from bot.storage.sqlite import SqliteStorage
from bot.web.race_table import numbers_html
from bot.web.timeline import timeline
from rules.peloton.game import outcome as peloton_outcome
from rules.race_table import ENERGY_SPENT, RISKS
from rules.record import start_state
from rules.registry import find_game, game_ids
from tests.support.web_race import CHANNEL, play_race


def _start_and_end(game: str) -> tuple[object, object]:
    record, final = simulate(game, players=3, seed=11)
    return start_state(record)[1], final


def test_energy_spent_counts_the_tiles_eaten_and_the_risks_are_the_riders() -> None:
    start, final = _start_and_end("leader1")
    numbers = find_game("leader1").numbers(start, final)  # type: ignore[misc]
    spent, risks = numbers.columns.index(ENERGY_SPENT), numbers.columns.index(RISKS)
    for rider in final.riders:  # type: ignore[attr-defined]
        first = next(r for r in start.riders if r.id == rider.id)  # type: ignore[attr-defined]
        eaten = sum(e.data["value"] for e in final.events if e.type == "ate" and e.data["rider"] == rider.id)  # type: ignore[attr-defined]
        line = numbers.of(rider.id)
        assert line is not None
        assert line.values[spent].number == first.energy + eaten - rider.energy
        assert line.values[risks].number == rider.risks


def test_peloton_times_put_the_finishers_in_their_order() -> None:
    start, final = _start_and_end("peloton")
    numbers = find_game("peloton").numbers(start, final)  # type: ignore[misc]
    assert numbers.columns[:3] == ("time", "points", "mountains")
    outcome = [p.piece for p in peloton_outcome(final).placings]  # type: ignore[arg-type]
    times = [numbers.of(piece).values[0].number for piece in outcome]  # type: ignore[union-attr]
    finished = [t for t in times if t is not None]
    assert finished and finished == sorted(finished)


@pytest.mark.parametrize("game", game_ids())
async def test_the_finish_table_has_a_row_a_piece_and_names_no_player_id(tmp_path: Path, game: str) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        await play_race(storage, game)
        row = await storage.latest_race(CHANNEL)
        assert row is not None and row.status == "finished"
        race = timeline(row)
        html = numbers_html(race, "Numbers")
    finally:
        await storage.close()
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    pieces = len(race.game.rules.outcome(race.state).placings)
    assert len(rows) == 1 + pieces  # the headings, then a row a piece
    assert "<caption>Numbers</caption>" in html
    assert re.search(r"<td>1</td>|<td data-v=\"0\">1</td>", rows[1])  # the winner first, place 1
    assert "Hana" in html and "Jo" in html  # players by the names the channel shows
    assert not re.search(r"\bu\d{6,}|\bai\d\b", html)  # never a player's id


@pytest.mark.parametrize("game", game_ids())
async def test_while_racing_each_row_has_its_place_now_and_its_player(tmp_path: Path, game: str) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        await play_race(storage, game, decisions=6)
        row = await storage.active_race(CHANNEL)
        assert row is not None
        html = numbers_html(timeline(row), "")
    finally:
        await storage.close()
    rows = re.findall(r"<tr>(.*?)</tr>", html)[1:]
    places = [re.match(r'<td data-v="\d+">(\d+)</td>', r) for r in rows]
    assert [int(m.group(1)) for m in places if m] == list(range(1, len(rows) + 1))
    players = [re.findall(r"<td>([^<]*)</td>", r)[1] for r in rows]
    assert all(players) and {"Hana", "Jo"} <= set(players), players
