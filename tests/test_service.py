"""The service layer on each backend (a real SQLite file, a real PostgreSQL database): integrity, restarts,
timers, undo, export."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.service.common import Refusal
from bot.service.races import RaceService
from bot.storage import Storage
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import storage_for
from rules.leader1 import public_view
from rules.record import load_record, replay
from rules.registry import find_game

GUILD, CHANNEL, ANN, BOB = 1, 10, 101, 102


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def env(tmp_path: Path, database_url: str):
    storage = storage_for(database_url)
    await storage.open()
    clock = Clock()
    service = RaceService(storage, now=clock, render=False)
    yield service, storage, clock, tmp_path
    await storage.close()


def same_database(storage: Storage) -> SqliteStorage:
    """Another connection to the storage's database, as a second process would open."""
    if isinstance(storage, PostgresStorage):
        return PostgresStorage(storage.url)
    assert isinstance(storage, SqliteStorage)
    return SqliteStorage(storage.path)


async def two_player_race(service: RaceService, timer: int = 3600) -> None:
    await service.lobby.new_race(
        GUILD, CHANNEL, ANN, "Ann", game="leader1", track="first-race", seed=5, timer=timer, pieces=2
    )
    await service.lobby.join(CHANNEL, BOB, "Bob", "blue")
    await service.lobby.start(CHANNEL, ANN)


def last_choice(state, player: str) -> int:
    """The index of the last legal choice (pass, in the breaking-away and pursuit phases)."""
    return len([c for c in find_game("leader1").rules.choices(state, player) if not c.anytime]) - 1


async def play_next(service: RaceService, storage: SqliteStorage, pick: str = "last"):
    """The player to act answers: the last legal choice (a pass, mostly) or the first."""
    race, state, decision, user = await to_act(service, storage)
    index = last_choice(state, decision.player) if pick == "last" else 0
    return await service.core.decide(race.id, race.version, user, index)


async def current(service: RaceService, storage: SqliteStorage):
    race = await storage.active_race(CHANNEL)
    assert race is not None
    return race, await service.core.state_of(race)


async def to_act(service: RaceService, storage: SqliteStorage):
    """The race, its state, the decision pending and the user (Ann or Bob) who makes it."""
    race, state = await current(service, storage)
    decision = find_game("leader1").rules.pending(state)
    return race, state, decision, ANN if decision.player == f"u{ANN}" else BOB


async def test_the_database_is_migrated_and_in_wal_mode(env) -> None:
    _, storage, _, _ = env
    from bot.storage.schema import MIGRATIONS

    assert await storage.schema_version() == len(MIGRATIONS)
    if not isinstance(storage, PostgresStorage):
        assert (await storage.db.rows("PRAGMA journal_mode"))[0][0] == "wal"


async def test_one_race_per_channel(env) -> None:
    service, *_ = env
    await service.lobby.new_race(GUILD, CHANNEL, ANN, "Ann", game="leader1")
    with pytest.raises(Refusal, match="already running in this channel"):
        await service.lobby.new_race(GUILD, CHANNEL, BOB, "Bob", game="formula-de-mini")
    await service.lobby.new_race(GUILD, CHANNEL + 1, BOB, "Bob", game="leader1")  # another channel is fine


async def test_two_clicks_at_the_same_moment_apply_once(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    race, state, decision, user = await to_act(service, storage)
    results = await asyncio.gather(
        service.core.decide(race.id, race.version, user, last_choice(state, decision.player)),
        service.core.decide(race.id, race.version, user, last_choice(state, decision.player)),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(refused) == 1 and "earlier moment" in str(refused[0])
    after = await storage.race(race.id)
    manual = [a for a in after.actions if not a.automatic]
    assert len(manual) == 1 and after.version == race.version + 1


async def test_someone_else_and_strangers_and_stale_buttons_are_refused(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    race, _, _, user = await to_act(service, storage)
    other = BOB if user == ANN else ANN
    with pytest.raises(Refusal, match="not yours"):
        await service.core.decide(race.id, race.version, other, 0)
    with pytest.raises(Refusal, match="not playing"):
        await service.core.decide(race.id, race.version, 999, 0)
    with pytest.raises(Refusal, match="earlier moment"):
        await service.core.decide(race.id, race.version - 1, ANN, 0)
    unchanged = await storage.race(race.id)
    assert unchanged.version == race.version and unchanged.actions == race.actions


async def test_an_illegal_typed_move_is_refused_with_what_is_allowed(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    race, _, _, user = await to_act(service, storage)
    team = "yellow" if user == ANN else "blue"
    with pytest.raises(Refusal, match="not one of your choices"):
        await service.core.play(CHANNEL, user, f"breakaway rider={team}-rouleur to=2.1")
    assert (await storage.race(race.id)).version == race.version


async def test_a_new_process_on_the_same_file_resumes_the_race(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    for _ in range(6):
        await play_next(service, storage)
    race, state = await current(service, storage)
    other = same_database(storage)
    await other.open()
    try:
        fresh = RaceService(other, render=False)
        race2 = await other.active_race(CHANNEL)
        assert race2.version == race.version
        assert public_view(await fresh.core.state_of(race2)) == public_view(state)
        await other.db.update("DELETE FROM snapshots")  # and without the snapshot, by replay
        fresh.core.store.forget(race2.id)
        assert public_view(await fresh.core.state_of(race2)) == public_view(state)
    finally:
        await other.close()


async def test_timers_remind_at_half_time_then_decide_automatically(env) -> None:
    service, storage, clock, _ = env
    await two_player_race(service, timer=600)
    race, state = await current(service, storage)
    assert race.deadline == clock.t + 600
    due = find_game("leader1").rules.pending(state).player
    clock.t += 299
    assert await service.timers.tick() == []
    clock.t += 2
    reminders = await service.timers.tick()
    assert len(reminders) == 1 and "reminder" in reminders[0][1].posts[0].text
    assert await service.timers.tick() == []  # only once
    clock.t += 300
    expired = await service.timers.tick()
    assert len(expired) == 1 and "Time ran out" in expired[0][1].posts[0].text
    after = await storage.race(race.id)
    # the expired decision is the first new action: the due player's, marked automatic, owned by its user
    timed_out = after.actions[len(race.actions)]
    assert timed_out.automatic
    assert timed_out.user_id == (ANN if due == f"u{ANN}" else BOB)
    assert find_game("leader1").vocabulary.from_text(timed_out.text).by == due


async def test_three_timeouts_in_a_row_hand_the_seat_to_the_ai_until_its_owner_returns(env) -> None:
    service, storage, clock, _ = env
    await two_player_race(service, timer=60)
    for _ in range(12):
        race, _state = await current(service, storage)
        if race.lobby.get("away"):
            break
        clock.t = race.deadline + 1
        await service.timers.tick()
    race, _ = await current(service, storage)
    assert race.lobby["away"]
    away_user = ANN if race.lobby["away"][0] == f"u{ANN}" else BOB
    await service.reading.back(CHANNEL, away_user)
    race, _ = await current(service, storage)
    assert f"u{away_user}" not in race.lobby["away"]  # back in the owner's hands


async def test_undo_is_for_the_host_and_takes_back_the_last_decision(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    race, state, decision, user = await to_act(service, storage)
    before = public_view(state)
    await service.core.decide(race.id, race.version, user, last_choice(state, decision.player))
    with pytest.raises(Refusal, match="Only the host"):
        await service.reading.undo(CHANNEL, BOB)
    outcome = await service.reading.undo(CHANNEL, ANN)
    assert "took back" in outcome.posts[0].text
    _, state = await current(service, storage)
    assert public_view(state) == before


async def test_a_running_race_exports_its_past_rolls_not_its_seed_and_replays(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    while True:
        race, state = await current(service, storage)
        if any(e.type == "rolled" for e in state.events):
            break
        await play_next(service, storage)
    outcome = await service.reading.export(CHANNEL, ANN)
    assert outcome.ephemeral
    data = json.loads(outcome.file[1])
    assert data["format"] == "domestique.record/1"
    assert data["seed"] != race.envelope["seed"] and data["dice"].get("peloton")
    result = replay(load_record(outcome.file[1].decode()))
    assert result.error_at is None and public_view(result.state) == public_view(state)


async def test_export_waits_while_other_players_keep_feed_tiles(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    for _ in range(80):
        _race, state = await current(service, storage)
        if any(r.kept for r in state.riders if r.player == f"u{BOB}"):
            break
        await play_next(service, storage)
    with pytest.raises(Refusal, match="keep hidden"):
        await service.reading.export(CHANNEL, ANN)


async def test_feed_tiles_are_told_only_to_their_owner(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    dms = []
    for _ in range(60):
        race, state = await current(service, storage)
        decision = find_game("leader1").rules.pending(state)
        if decision is None:
            break
        user = ANN if decision.player == f"u{ANN}" else BOB
        outcome = await service.core.decide(race.id, race.version, user, last_choice(state, decision.player))
        dms += outcome.dms
        for post in outcome.posts:
            assert "worth" not in post.text
        if dms:
            break
    assert dms
    user, text = dms[0]
    race, state = await current(service, storage)
    team = "yellow" if user == ANN else "blue"
    assert text.startswith("**Race 1 · first-race**: " + team) and "worth" in text  # says which race it is from


async def test_two_processes_appending_at_the_same_version_commit_once(env) -> None:
    from bot.storage import StoredAction

    service, storage, _, _ = env
    await two_player_race(service)
    race, _ = await current(service, storage)
    other = same_database(storage)
    await other.open()
    try:
        action = StoredAction(len(race.actions), "u101 pass", ANN, False)
        results = await asyncio.gather(
            storage.append_actions(race.id, race.version, [action], None, False),
            other.append_actions(race.id, race.version, [action], None, False),
            return_exceptions=True,
        )
        assert sum(r is True for r in results) == 1
        assert len((await storage.race(race.id)).actions) == len(race.actions) + 1
    finally:
        await other.close()


async def test_eating_a_tile_is_announced_with_its_value(env) -> None:
    service, storage, _, _ = env
    await two_player_race(service)
    for _ in range(80):  # play until someone keeps a tile
        race, state = await current(service, storage)
        keeper = next((r for r in state.riders if r.kept and r.player in (f"u{ANN}", f"u{BOB}")), None)
        if keeper is not None:
            break
        decision = find_game("leader1").rules.pending(state)
        user = ANN if decision.player == f"u{ANN}" else BOB
        await service.core.decide(race.id, race.version, user, last_choice(state, decision.player))
    assert keeper is not None
    owner = ANN if keeper.player == f"u{ANN}" else BOB
    other = BOB if owner == ANN else ANN
    with pytest.raises(Refusal):
        await service.core.play(CHANNEL, other, f"eat rider={keeper.id} tile=0")
    outcome = await service.core.play(CHANNEL, owner, f"eat rider={keeper.id} tile=0")
    told = " ".join(p.text for p in outcome.posts)
    assert f"{keeper.id.replace('-', ' ')} eats a feed tile: +{keeper.kept[0]}" in told


async def test_an_older_database_is_migrated_on_open_keeping_its_races(tmp_path: Path) -> None:
    import bot.storage.schema as storage_module

    path = str(tmp_path / "old.db")
    every = list(storage_module.MIGRATIONS)
    storage_module.MIGRATIONS[:] = every[:1]
    old = SqliteStorage(path)
    try:
        await old.open()  # a database as the first release left it
        await old.db.run(
            "INSERT INTO races (guild_id, channel_id, host_id, game, status, lobby, created) "
            "VALUES ({}, {}, {}, 'leader1', 'lobby', {}, 0)",
            (GUILD, CHANNEL, ANN, json.dumps({"track": "leader1/first-race", "seats": []})),
        )
    finally:
        await old.close()
        storage_module.MIGRATIONS[:] = every
    new = SqliteStorage(path)
    await new.open()
    try:
        assert await new.schema_version() == len(every)
        race = await new.active_race(CHANNEL)
        assert race is not None and race.league_id is None
    finally:
        await new.close()


async def test_a_lobby_refuses_more_pieces_than_the_game_allows(env) -> None:
    service, *_ = env
    with pytest.raises(Refusal, match="1 to 2 cars"):
        await service.lobby.new_race(GUILD, CHANNEL, ANN, "Ann", game="formula-de-mini", track="canyon", pieces=3)
    with pytest.raises(Refusal, match="not a stage"):
        await service.lobby.new_race(GUILD, CHANNEL, ANN, "Ann", game="leader1", track="nowhere")
    await service.lobby.new_race(GUILD, CHANNEL, ANN, "Ann", game="formula-de-mini", track="island", pieces=2)
