"""Issue 26: a watched race is replayed once, then only its new decisions are applied (a full replay
of a long Peloton or Formula Dé race takes a quarter of a second); going on from an earlier
version gives exactly what a full replay gives, and an undo replays it all again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage.sqlite import SqliteStorage
from bot.web.timeline import Timeline, timeline
from rules.registry import game_ids
from tests.support.web_race import CHANNEL, play_race


def _same(a: Timeline, b: Timeline) -> None:
    assert [(t.number, t.lines, t.key) for t in a.turns] == [(t.number, t.lines, t.key) for t in b.turns]
    assert (a.turn_of_action, a.waiting, a.standings, a.finish, a.acting, a.texts, a.chain) == (
        b.turn_of_action,
        b.waiting,
        b.standings,
        b.finish,
        b.acting,
        b.texts,
        b.chain,
    )


@pytest.mark.parametrize("game_id", game_ids())
async def test_going_on_from_an_earlier_version_is_a_full_replay(tmp_path: Path, game_id: str) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    await play_race(storage, game_id)
    race = await storage.latest_race(CHANNEL)
    await storage.close()
    total = len(race.actions)
    cuts = sorted({1, 2, total // 5, total // 3, total // 2, total - 3, total - 1, total})
    previous = None
    for cut in cuts:
        part = replace(race, actions=race.actions[:cut], status="running" if cut < total else race.status)
        full = timeline(part)
        went_on = timeline(part, previous)
        _same(went_on, full)
        if previous is not None:
            assert went_on.turns[0].state is previous.turns[0].state  # not replayed from the start
        previous = went_on
    undone = replace(race, actions=race.actions[: total // 2])  # an undo: fewer actions than before
    _same(timeline(undone, previous), timeline(undone))
